#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The CLI speed targets (docs/benchmarks-history.md, "CLI").

  tests/cli/bench_cli.py FASTSHA [DATADIR] [ROUNDS]

1. one 1 GiB file: fastsha vs `openssl dgst -sha1` vs `sha1sum`
2. 8 files of 128 MiB: fastsha -j 2 vs -j 1
3. 10,000 files of 4 KiB: fastsha (default -j) vs sha1sum
4. the 1 GiB file with SHA3-256: the binary run as cksum (`cksum -a sha3
   -l 256`, through a link) vs `openssl dgst -sha3-256` (issue 29)

Inputs sit in the page cache (read once first). The machine is shared and
noisy, so the commands of a group run interleaved, round after round
(hyperfine runs all of one command, then all of the next, and a burst of
load then lands on one side only); each ratio is the median of the
per-round ratios, which pairs runs that saw the same load. Also reported:
median and minimum wall time, and CPU time (user+sys, 10 ms ticks).
Not a ctest: it needs 2 GiB of scratch space and takes a few minutes.
"""
import glob
import os
import statistics
import subprocess
import sys
import time


def make_data(d):
    os.makedirs(os.path.join(d, "small"), exist_ok=True)
    def fill(path, size):
        if not os.path.exists(path) or os.path.getsize(path) != size:
            with open(path, "wb") as f:
                for _ in range(size // (1 << 20)):
                    f.write(os.urandom(1 << 20))
    fill(os.path.join(d, "big"), 1 << 30)
    for i in range(8):
        fill(os.path.join(d, "m%d" % i), 128 << 20)
    for i in range(10000):
        p = os.path.join(d, "small", "f%05d" % i)
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(os.urandom(4096))
    for p in [os.path.join(d, "big")] + glob.glob(os.path.join(d, "m?")) + \
            glob.glob(os.path.join(d, "small", "f*")):
        with open(p, "rb") as f:
            while f.read(1 << 24):
                pass


def group(cmds, cwd, rounds):
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    for _ in range(1 + rounds):  # the first round warms up and is dropped
        for k, c in cmds.items():
            t0, r0 = time.perf_counter(), os.times()
            subprocess.run(c, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
            t1, r1 = time.perf_counter(), os.times()
            wall[k].append(t1 - t0)
            cpu[k].append(r1.children_user - r0.children_user +
                          r1.children_system - r0.children_system)
    for k in cmds:
        wall[k], cpu[k] = wall[k][1:], cpu[k][1:]
    return wall, cpu


def table(cmds, wall, cpu, fs, label="fastsha"):
    print("| command | median wall s | min wall s | median CPU s |")
    print("|---|---:|---:|---:|")
    for k, c in cmds.items():
        shown = " ".join(c).replace(fs, label)
        if len(shown) > 70:
            shown = shown[:60] + " ... (%d names)" % sum(a.startswith("f0") for a in c)
        print("| `%s` | %.3f | %.3f | %.2f |" % (shown, statistics.median(wall[k]), min(wall[k]),
                                                 statistics.median(cpu[k])))


def ratio(wall, a, b):
    """Median over rounds of wall[a]/wall[b]."""
    return statistics.median(x / y for x, y in zip(wall[a], wall[b]))


def main():
    fs = os.path.abspath(sys.argv[1])
    d = sys.argv[2] if len(sys.argv) > 2 else "/tmp/fastsha-cli-bench"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    make_data(d)
    print("fastsha: %s" % subprocess.run([fs, "--version"], capture_output=True,
                                         text=True).stdout.strip())
    print("load average at start: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    big = {"fastsha": [fs, "big"], "fastsha --mmap": [fs, "--mmap", "big"],
           "openssl": ["openssl", "dgst", "-sha1", "big"], "sha1sum": ["sha1sum", "big"]}
    big["fastsha, read-ahead off"] = [fs, "--no-read-ahead", "big"]
    wb, cb = group(big, d, rounds)
    ms = ["m%d" % i for i in range(8)]
    jobs = {"-j 1": [fs, "-j", "1"] + ms, "-j 2": [fs, "-j", "2"] + ms}
    wj, cj = group(jobs, d, rounds)
    names = sorted(os.listdir(os.path.join(d, "small")))
    small = {"fastsha": [fs] + names, "fastsha -j 1": [fs, "-j", "1"] + names,
             "sha1sum": ["sha1sum"] + names}
    ws, cs = group(small, os.path.join(d, "small"), rounds)
    ck = os.path.join(d, "cksum")
    if not os.path.islink(ck):
        os.symlink(fs, ck)
    sha3 = {"cksum": [ck, "-a", "sha3", "-l", "256", "big"],
            "openssl": ["openssl", "dgst", "-sha3-256", "big"]}
    w3, c3 = group(sha3, d, rounds)
    print("load average at end: %s\n" % " ".join(open("/proc/loadavg").read().split()[:3]))
    table(big, wb, cb, fs)
    print()
    table(jobs, wj, cj, fs)
    print()
    table(small, ws, cs, fs)
    print()
    table(sha3, w3, c3, ck, "cksum")
    print("\nratios (median of per-round ratios of wall time):")
    print("  1 GiB: openssl / fastsha          = %.2f  (target >= 1.4)" % ratio(wb, "openssl", "fastsha"))
    print("  1 GiB: sha1sum / fastsha          = %.2f  (target >= 2.5)" % ratio(wb, "sha1sum", "fastsha"))
    print("  1 GiB: plain read / read-ahead    = %.2f" % ratio(wb, "fastsha, read-ahead off", "fastsha"))
    print("  1 GiB: --mmap / default           = %.2f" % ratio(wb, "fastsha --mmap", "fastsha"))
    print("  8 x 128 MiB: -j 2 / -j 1          = %.2f  (target <= 0.6)" % ratio(wj, "-j 2", "-j 1"))
    print("  10,000 x 4 KiB: sha1sum / fastsha = %.2f  (target >= 2)" % ratio(ws, "sha1sum", "fastsha"))
    print("  1 GiB SHA3-256: openssl / cksum   = %.2f  (target >= 1.10)" % ratio(w3, "openssl", "cksum"))


if __name__ == "__main__":
    main()
