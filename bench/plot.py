#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot `fastsha-bench --json` output: throughput and ours/OpenSSL ratio
against message size, one colour per backend, OpenSSL's paired path dashed.

    fastsha-bench --json > bench.json
    python3 bench/plot.py bench.json -o docs/benchmarks.png
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


def print_table(data, skip):
    """The same figures as the bench's text table, as Markdown (docs/benchmarks.md)."""
    ossl = data.get("openssl") is not None
    head = ["backend", "bytes", "ours MB/s", "ours c/B"]
    if ossl:
        head += ["OpenSSL path", "OpenSSL MB/s", "OpenSSL c/B", "ours/OpenSSL", "IQR of ratio"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if h in ("backend", "OpenSSL path") else "---:" for h in head) + "|")
    for r in data["results"]:
        if r["backend"] in skip:
            continue
        cells = [r["backend"], str(r["size"]), fmt(r["ours_mbps"], ".0f"), fmt(r["ours_cpb"], ".2f")]
        if ossl:
            path = r["openssl_path"] + ("*" if r.get("openssl_note") else "")
            iqr = f"{r['ratio_q1']:.3f}–{r['ratio_q3']:.3f}" if r["ratio_q1"] else "–"
            cells += [path, fmt(r["openssl_mbps"], ".0f"), fmt(r["openssl_cpb"], ".2f"),
                      f"**{r['ratio']:.3f}**" if r["ratio"] >= 1 else f"{r['ratio']:.3f}", iqr]
        print("| " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="fastsha-bench --json output, or - for stdin")
    ap.add_argument("-o", "--output", default="bench.png", help="PNG to write")
    ap.add_argument("--skip", default="", help="backends to leave out, comma-separated")
    ap.add_argument("--dpi", type=int, default=80)
    ap.add_argument("--table", action="store_true",
                    help="print the results as a Markdown table instead of plotting")
    args = ap.parse_args()

    with (sys.stdin if args.json == "-" else open(args.json)) as f:
        data = json.load(f)
    skip = set(filter(None, args.skip.split(",")))
    if args.table:
        print_table(data, skip)
        return

    # Backends in the bench's order (the library's preference order).
    backends = []
    rows = {}
    for r in data["results"]:
        b = r["backend"]
        if b in skip:
            continue
        if b not in rows:
            backends.append(b)
            rows[b] = []
        rows[b].append(r)
    if not backends:
        sys.exit("plot.py: no results to plot")
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
        if not have_ossl:
            continue
        path = rs[0]["openssl_path"]
        # portable and reference both pair with OpenSSL's scalar code: one
        # dashed line per OpenSSL path is enough (the first measurement).
        if path not in drawn_paths:
            drawn_paths.add(path)
            note = " (its SSSE3 code here)" if rs[0].get("openssl_note") else ""
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
    ax_t.set_title("throughput: solid = fastsha1(), dashed = OpenSSL SHA1_Init/Update/Final",
                   fontsize=10)
    ax_t.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3)
    if have_ossl:
        ax_r.axhline(1.0, color="black", lw=1)
        ax_r.set_ylabel("ours / OpenSSL speed (>1: fastsha faster)")
        ax_r.set_title("ratio, paired in one process (band: interquartile range)", fontsize=10)
        ax_r.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    else:
        ax_r.set_visible(False)

    clock = data.get("clock_hz")
    fig.suptitle(
        f"SHA-1 on {data.get('cpu', '?')}"
        + (f", ~{clock / 1e9:.2f} GHz (estimated)" if clock else "")
        + f"; {data.get('openssl') or 'no OpenSSL'}; {data.get('date', '')}; "
        + f"{data.get('reps')} reps x {data.get('sample_ms')} ms",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    shrink(args.output)
    print(f"wrote {args.output}")


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
