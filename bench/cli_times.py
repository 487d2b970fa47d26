#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time the fastsha command against the GNU and Debian tools, as JSON for
bench/summary.py (docs/benchmarks.md, the summary per CPU).

    python3 bench/cli_times.py FASTSHA DATADIR GROUP [--rounds N] [--out FILE]

GROUP is one of:
  big       DATADIR/big (1 GiB): fastsha vs sha1sum, fastsha -a sha256 vs
            sha256sum, fastsha -a sha1dc vs sha1cdsum (Debian's)
  small     DATADIR/small/* (10,000 x 4 KiB): fastsha vs sha1sum,
            fastsha -a sha256 vs sha256sum
  fsverity  DATADIR/big: fastsha --fsverity vs fsverity digest
  sha3      DATADIR/big: fastsha -a sha3 -l 256 -b vs openssl dgst -r
            -sha3-256 (GNU has SHA-3 only in cksum 9.8 and later, which
            Debian 12 does not ship; -b and -r print the same line)

The inputs must exist and sit in the page cache (read them once first).
Commands of a group run interleaved, round after round, after one warm-up
round that is dropped, so a burst of load lands on both sides of a pair;
a pair's ratio is the median of the per-round ratios (baseline wall time
over fastsha's). With --out, the group's record replaces the one of the
same name in FILE (other groups kept), so each group can be its own short
run under the shared timing lock:

    flock /tmp/fastsha-bench.lock python3 bench/cli_times.py \\
        build/release/tools/fastsha /tmp/bp big --rounds 5 --out bench/results/X-cli.json
"""
import argparse
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import time

# (label, baseline argv, fastsha argv); "FASTSHA" becomes the binary,
# "FILES" the group's inputs.
GROUPS = {
    "big": [
        ("SHA-1, 1 GiB", ["sha1sum", "FILES"], ["FASTSHA", "FILES"]),
        ("SHA-256, 1 GiB", ["sha256sum", "FILES"], ["FASTSHA", "-a", "sha256", "FILES"]),
        ("SHA1DC, 1 GiB", ["sha1cdsum", "FILES"], ["FASTSHA", "-a", "sha1dc", "FILES"]),
    ],
    "small": [
        ("SHA-1, 10,000 x 4 KiB", ["sha1sum", "FILES"], ["FASTSHA", "FILES"]),
        ("SHA-256, 10,000 x 4 KiB", ["sha256sum", "FILES"],
         ["FASTSHA", "-a", "sha256", "FILES"]),
    ],
    "fsverity": [
        ("fs-verity digest, 1 GiB", ["fsverity", "digest", "FILES"],
         ["FASTSHA", "--fsverity", "FILES"]),
    ],
    "sha3": [
        ("SHA3-256, 1 GiB", ["openssl", "dgst", "-r", "-sha3-256", "FILES"],
         ["FASTSHA", "-a", "sha3", "-l", "256", "-b", "FILES"]),
    ],
}


def quartiles(xs):
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def tool_version(argv0):
    try:
        out = subprocess.run([argv0, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    return out.splitlines()[0] if out else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fastsha")
    ap.add_argument("datadir")
    ap.add_argument("group", choices=sorted(GROUPS))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", help="JSON file to update (default: print)")
    args = ap.parse_args()

    fastsha = os.path.abspath(args.fastsha)
    if args.group == "small":
        cwd = os.path.join(args.datadir, "small")
        files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(cwd, "f*")))
        inputs = "%d files of %d bytes (DATADIR/small/f*)" % (
            len(files), os.path.getsize(os.path.join(cwd, files[0])))
    else:
        cwd = args.datadir
        files = ["big"]
        inputs = "one file of %d bytes (DATADIR/big)" % os.path.getsize(os.path.join(cwd, "big"))

    def expand(argv):
        out = []
        for a in argv:
            out += files if a == "FILES" else [fastsha if a == "FASTSHA" else a]
        return out

    def shown(argv):
        return " ".join("fastsha" if a == "FASTSHA" else
                        ("f*" if args.group == "small" else "big") if a == "FILES" else a
                        for a in argv)

    pairs = GROUPS[args.group]
    # Same output from both sides, once, before timing (fsverity prints
    # "sha256:HEX NAME", fastsha --fsverity the same).
    for _, base, ours in pairs:
        a = subprocess.run(expand(base), cwd=cwd, capture_output=True, check=True).stdout
        b = subprocess.run(expand(ours), cwd=cwd, capture_output=True, check=True).stdout
        if a != b:
            sys.exit("cli_times.py: %s and %s disagree" % (shown(base), shown(ours)))

    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    wall = {(i, s): [] for i in range(len(pairs)) for s in (0, 1)}
    for r in range(1 + args.rounds):
        for i, (_, base, ours) in enumerate(pairs):
            # Alternate which side goes first.
            for s in ((0, 1) if r % 2 else (1, 0)):
                argv = expand((base, ours)[s])
                t0 = time.perf_counter()
                subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
                t1 = time.perf_counter()
                if r:
                    wall[(i, s)].append(t1 - t0)
    load_after = os.getloadavg()

    rows = []
    for i, (label, base, ours) in enumerate(pairs):
        tb, to = wall[(i, 0)], wall[(i, 1)]
        ratios = [b / o for b, o in zip(tb, to)]
        q1, q3 = quartiles(ratios)
        rows.append({
            "label": label,
            "baseline": shown(base), "baseline_version": tool_version(base[0]),
            "fastsha": shown(ours),
            "baseline_wall_s": tb, "fastsha_wall_s": to,
            "baseline_median_s": statistics.median(tb),
            "fastsha_median_s": statistics.median(to),
            "ratio": statistics.median(ratios), "ratio_q1": q1, "ratio_q3": q3,
        })
    rec = {
        "group": args.group,
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "inputs": inputs + ", in the page cache",
        "rounds": args.rounds,
        "method": "commands interleaved round after round (which side of a pair goes "
                  "first alternates), one warm-up round dropped; wall time; ratio = "
                  "baseline's time over fastsha's, median of the per-round ratios",
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "fastsha_version": tool_version(fastsha),
        "kernel": platform.release(),
        "command": "flock /tmp/fastsha-bench.lock python3 bench/cli_times.py "
                   "build/release/tools/fastsha DATADIR %s --rounds %d" % (args.group, args.rounds),
        "pairs": rows,
    }
    if not args.out:
        json.dump(rec, sys.stdout, indent=2)
        print()
        return
    try:
        with open(args.out) as f:
            data = json.load(f)
    except FileNotFoundError:
        data = {"tool": "bench/cli_times.py", "groups": []}
    data["groups"] = [g for g in data["groups"] if g["group"] != args.group] + [rec]
    order = list(GROUPS)
    data["groups"].sort(key=lambda g: order.index(g["group"]))
    with open(args.out, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    for p in rows:
        print("%-26s %-22s %.3f s  %-28s %.3f s  %.2fx (%.2f-%.2f)" % (
            p["label"], p["baseline"], p["baseline_median_s"], p["fastsha"],
            p["fastsha_median_s"], p["ratio"], p["ratio_q1"], p["ratio_q3"]))


if __name__ == "__main__":
    main()
