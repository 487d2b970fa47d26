#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot `fastsha-bench --json` output, one PNG per algorithm: throughput and
ours/OpenSSL ratio against message size, one colour per backend, OpenSSL's
paired path dashed.

    fastsha-bench --json > bench.json
    python3 bench/plot.py bench.json -o 'docs/benchmarks-{alg}.png'   # one file per algorithm
    python3 bench/plot.py bench.json --table --alg sha256              # a Markdown table
    fastsha-bench --many --json > many.json                             # batches
    python3 bench/plot.py many.json -o 'docs/benchmarks-{alg}.png'     # {alg}: sha256-many ...
"""
import argparse
import json
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("plot.py: needs matplotlib (Debian: apt-get install python3-matplotlib, "
             "then run it with /usr/bin/python3)")

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402


def size_label(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10}K"
    return str(n)


def fmt(v, spec):
    return "–" if v is None else format(v, spec)


def print_table(data, rows, skip):
    """The same figures as the bench's text table, as Markdown (docs/benchmarks.md)."""
    ossl = data.get("openssl") is not None
    head = ["backend", "bytes", "ours MB/s", "ours c/B"]
    if ossl:
        head += ["OpenSSL path", "OpenSSL MB/s", "OpenSSL c/B", "ours/OpenSSL", "IQR of ratio"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if h in ("backend", "OpenSSL path") else "---:" for h in head) + "|")
    for r in rows:
        if r["backend"] in skip:
            continue
        cells = [r["backend"], str(r["size"]), fmt(r["ours_mbps"], ".0f"), fmt(r["ours_cpb"], ".2f")]
        if ossl and r.get("openssl_path") is None:
            cells += ["–"] * 5  # no OpenSSL counterpart (reference)
        elif ossl:
            path = r["openssl_path"] + ("*" if r.get("openssl_note") else "")
            iqr = f"{r['ratio_q1']:.3f}–{r['ratio_q3']:.3f}" if r["ratio_q1"] else "–"
            cells += [path, fmt(r["openssl_mbps"], ".0f"), fmt(r["openssl_cpb"], ".2f"),
                      f"**{r['ratio']:.3f}**" if r["ratio"] >= 1 else f"{r['ratio']:.3f}", iqr]
        print("| " + " | ".join(cells) + " |")


# What a run made before the bench covered more than SHA-1 leaves out.
SHA1_INFO = {"alg": "sha1", "label": "SHA-1", "ours_api": "fastsha1() one-shot",
             "openssl_api": "SHA1_Init/SHA1_Update/SHA1_Final"}


def by_algorithm(data):
    """[(info, rows)] per algorithm, in the bench's order."""
    infos = {a["alg"]: a for a in data.get("algorithms", [])}
    groups = {}
    for r in data["results"]:
        groups.setdefault(r.get("alg", "sha1"), []).append(r)
    order = [a for a in infos if a in groups] + [a for a in groups if a not in infos]
    return [(infos.get(a, SHA1_INFO if a == "sha1" else {"alg": a, "label": a}), groups[a])
            for a in order]


def output_name(template, alg, several):
    """-o with {alg} filled in; without {alg}, '-ALG' before the extension
    when there is more than one plot to write."""
    if "{alg}" in template:
        return template.replace("{alg}", alg)
    if not several:
        return template
    stem, dot, ext = template.rpartition(".")
    return f"{stem}-{alg}.{ext}" if dot else f"{template}-{alg}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="fastsha-bench --json output, or - for stdin")
    ap.add_argument("-o", "--output", default="bench-{alg}.png",
                    help="PNG to write; {alg} becomes the algorithm (default bench-{alg}.png)")
    ap.add_argument("--alg", default="", help="algorithms to use, comma-separated (default: all)")
    ap.add_argument("--skip", default="", help="backends to leave out, comma-separated")
    ap.add_argument("--dpi", type=int, default=80)
    ap.add_argument("--table", action="store_true",
                    help="print the results as Markdown tables instead of plotting")
    args = ap.parse_args()

    with (sys.stdin if args.json == "-" else open(args.json)) as f:
        data = json.load(f)
    if data.get("bench") == "many":
        return main_many(data, args)
    skip = set(filter(None, args.skip.split(",")))
    want = set(filter(None, args.alg.split(",")))
    groups = [(info, rows) for info, rows in by_algorithm(data) if not want or info["alg"] in want]
    if not groups:
        sys.exit("plot.py: no results to plot" + (f" for {args.alg}" if want else ""))
    for n, (info, rows) in enumerate(groups):
        if args.table:
            if len(groups) > 1:
                print(("\n" if n else "") + f"{info['label']}:\n")
            print_table(data, rows, skip)
        else:
            out = output_name(args.output, info["alg"], len(groups) > 1)
            plot(data, info, rows, skip, out, args.dpi)
            print(f"wrote {out}")


def plot(data, info, results, skip, output, dpi):
    """One algorithm's figure: throughput left, ratio right."""
    # Backends in the bench's order (the library's preference order).
    backends = []
    rows = {}
    for r in results:
        b = r["backend"]
        if b in skip:
            continue
        if b not in rows:
            backends.append(b)
            rows[b] = []
        rows[b].append(r)
    if not backends:
        sys.exit(f"plot.py: no {info['alg']} results to plot")
    have_ossl = data.get("openssl") is not None

    fig, (ax_t, ax_r) = plt.subplots(
        1, 2, figsize=(13, 6.2), gridspec_kw={"width_ratios": [1.35, 1]}
    )
    colours = plt.get_cmap("tab10").colors
    drawn_paths = set()
    sizes = sorted({r["size"] for b in backends for r in rows[b]})

    for i, b in enumerate(backends):
        rs = sorted(rows[b], key=lambda r: r["size"])
        c = colours[i % len(colours)]
        x = [r["size"] for r in rs]
        ax_t.plot(x, [r["ours_mbps"] for r in rs], "-o", color=c, ms=4, lw=2, label=f"fastsha {b}")
        path = rs[0].get("openssl_path")
        if not have_ossl or path is None:
            continue  # no OpenSSL counterpart (reference)
        # Several backends may pair with one OpenSSL path (any backend the
        # pairing does not name goes with scalar): one dashed line per path.
        if path not in drawn_paths:
            drawn_paths.add(path)
            note = rs[0].get("openssl_note")
            note = f" ({note.replace('OpenSSL runs ', '')})" if note else ""
            ax_t.plot(x, [r["openssl_mbps"] for r in rs], "--", color=c, lw=1.4,
                      label=f"OpenSSL {path}{note}")
        ratio = [r["ratio"] for r in rs]
        ax_r.plot(x, ratio, "-o", color=c, ms=4, lw=2, label=f"{b} / OpenSSL {path}")
        ax_r.fill_between(x, [r["ratio_q1"] for r in rs], [r["ratio_q3"] for r in rs],
                          color=c, alpha=0.15, lw=0)

    for ax in (ax_t, ax_r):
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes)
        ax.set_xticklabels([size_label(s) for s in sizes])
        ax.minorticks_off()
        ax.set_xlabel("message size, bytes (one-shot)")
        ax.grid(True, alpha=0.3)
    ax_t.set_ylabel("MB/s (10^6 bytes/s), median")
    ax_t.set_ylim(bottom=0)
    ours_api = info.get("ours_api", "").replace(" one-shot", "")
    title = f"throughput: solid = {ours_api or 'fastsha'}"
    if have_ossl and info.get("openssl_api"):
        title += f", dashed = OpenSSL {info['openssl_api']}"
    ax_t.set_title(title, fontsize=10)
    ax_t.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3)
    if have_ossl and drawn_paths:
        ax_r.axhline(1.0, color="black", lw=1)
        ax_r.set_ylabel("ours / OpenSSL speed (>1: fastsha faster)")
        ax_r.set_title("ratio, paired in one process (band: interquartile range)", fontsize=10)
        ax_r.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    else:
        ax_r.set_visible(False)

    clock = data.get("clock_hz")
    fig.suptitle(
        f"{info.get('label', info['alg'])} on {data.get('cpu', '?')}"
        + (f", ~{clock / 1e9:.2f} GHz (estimated)" if clock else "")
        + f"; {data.get('openssl') or 'no OpenSSL'}; {data.get('date', '')}; "
        + f"{data.get('reps')} reps x {data.get('sample_ms')} ms",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(output, dpi=dpi)
    plt.close(fig)
    shrink(output)


def main_many(data, args):
    """fastsha-bench --many --json: per algorithm, many's speed over
    OpenSSL's and over our own one-at-a-time loop, by message size, a line
    per batch size n (or a Markdown table with --table)."""
    want = set(filter(None, args.alg.split(",")))
    algs = [a for a in data["algs"] if not want or a["alg"] in want]
    if not algs:
        sys.exit("plot.py: no results" + (f" for {args.alg}" if want else ""))
    for k, a in enumerate(algs):
        if args.table:
            if k:
                print()
            print(f"{a['alg']}: batches on {a['many_backend']} ({a['lanes']} lanes), "
                  f"one message on {a['single_backend']}\n")
            print("| n | size | many MB/s | loop MB/s | OpenSSL MB/s | SHA*() MB/s "
                  "| many/OpenSSL (IQR) | many/loop | many/SHA*() |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for r in a["rows"]:
                size = r["size"] if r["size"] == "mixed" else size_label(r["size"])
                ratio = f"{r['ratio_openssl']:.2f}"
                ratio = f"**{ratio}**" if r["ratio_openssl"] >= 1 else ratio
                print(f"| {r['n']} | {size} | {r['many_mbps']:.0f} | {r['loop_mbps']:.0f} "
                      f"| {r['openssl_mbps']:.0f} | {r['openssl_oneshot_mbps']:.0f} "
                      f"| {ratio} ({r['ratio_openssl_q1']:.2f}–{r['ratio_openssl_q3']:.2f}) "
                      f"| {r['ratio_loop']:.2f} | {r['ratio_openssl_oneshot']:.2f} |")
            continue
        sizes = []
        for r in a["rows"]:
            if r["size"] not in sizes:
                sizes.append(r["size"])
        labels = [s if s == "mixed" else size_label(s) for s in sizes]
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
        for ax, key, title in ((axes[0], "ratio_openssl", "over OpenSSL's *_Init/Update/Final loop"),
                               (axes[1], "ratio_loop", "over our one-shot loop")):
            for n in sorted({r["n"] for r in a["rows"]}):
                ys = {r["size"]: r[key] for r in a["rows"] if r["n"] == n}
                ax.plot(range(len(sizes)), [ys.get(s) for s in sizes], marker="o", label=f"n = {n}")
            ax.axhline(1.0, color="grey", linewidth=0.8)
            ax.set_xticks(range(len(sizes)), labels)
            ax.set_xlabel("message size (mixed: 1 B..16 KiB)")
            ax.set_title(title, fontsize=10)
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("fastsha_many() speed ratio")
        axes[0].legend(fontsize=8)
        fig.suptitle(f"{a['alg']} batches: fastsha_many() on {a['many_backend']} "
                     f"({a['lanes']} lanes) — {data['cpu']}, {data['date']}", fontsize=10)
        fig.tight_layout()
        out = output_name(args.output, a["alg"] + "-many", len(algs) > 1)
        fig.savefig(out, dpi=args.dpi)
        plt.close(fig)
        shrink(out)
        print(f"wrote {out}")


def shrink(path):
    """A 128-colour palette keeps the PNG ~4x smaller (it is committed under
    docs/) with no visible change for line plots. Skipped without Pillow."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        q = im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    q.save(path, optimize=True)


if __name__ == "__main__":
    main()
