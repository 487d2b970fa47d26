#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The CLI speed targets (docs/benchmarks.md, "CLI" section), wall time in one
# run with hyperfine, inputs in the page cache:
#   1. one 1 GiB file: fastsha vs openssl dgst -sha1 vs sha1sum
#   2. 8 files of 128 MiB: fastsha -j 2 vs -j 1
#   3. 10,000 files of 4 KiB: fastsha (default -j) vs sha1sum
#
#   tests/cli/bench_cli.sh FASTSHA [DATADIR] [RUNS]
#
# Not a ctest: it needs 2 GiB of scratch space and a quiet machine. Reports
# median and minimum wall time and mean CPU time (user+sys) per command, and
# the ratios. On a shared machine the minimum is the run least disturbed.
set -eu
FASTSHA=$(readlink -f "$1")
DIR=${2:-/tmp/fastsha-cli-bench}
RUNS=${3:-10}
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
mkdir -p "$DIR/small"
cd "$DIR"
[ -f big ] || head -c 1073741824 /dev/urandom > big
for i in 0 1 2 3 4 5 6 7; do [ -f m$i ] || head -c 134217728 /dev/urandom > m$i; done
[ -f small/f09999 ] || python3 -c "
import os
for i in range(10000):
    open('small/f%05d' % i, 'wb').write(os.urandom(4096))"
cat big m? small/* > /dev/null

bench() { # name, commands...
  name=$1; shift
  hyperfine -w 2 -r "$RUNS" -N --export-json "$DIR/$name.json" "$@" >/dev/null 2>&1 ||
    hyperfine -w 2 -r "$RUNS" --export-json "$DIR/$name.json" "$@" >/dev/null
}
bench big "$FASTSHA big" "$FASTSHA --mmap big" "openssl dgst -sha1 big" "sha1sum big"
bench jobs "$FASTSHA -j 1 m0 m1 m2 m3 m4 m5 m6 m7" "$FASTSHA -j 2 m0 m1 m2 m3 m4 m5 m6 m7"
cd small
hyperfine -w 2 -r "$RUNS" --export-json "$DIR/small.json" \
  "$FASTSHA f* >/dev/null" "$FASTSHA -j 1 f* >/dev/null" "sha1sum f* >/dev/null" >/dev/null
cd ..

python3 - "$DIR" "$FASTSHA" <<'PY'
import json, os, sys
d, fs = sys.argv[1], sys.argv[2]
def load(n):
    return [(r["command"].replace(fs, "fastsha"), r["median"], r["user"] + r["system"], r["min"])
            for r in json.load(open(os.path.join(d, n + ".json")))["results"]]
print("load average before/after: %s" % open("/proc/loadavg").read().split()[:3])
for n in ("big", "jobs", "small"):
    rows = load(n)
    print("\n| command | median wall s | min wall s | mean CPU s |\n|---|---:|---:|---:|")
    for c, w, cpu, mn in rows:
        print("| `%s` | %.3f | %.3f | %.3f |" % (c, w, mn, cpu))
big, jobs, small = load("big"), load("jobs"), load("small")
print("\nratios (wall, median):")
print("  1 GiB: openssl / fastsha = %.2f (target >= 1.4)" % (big[2][1] / big[0][1]))
print("  1 GiB: sha1sum / fastsha = %.2f (target >= 2.5)" % (big[3][1] / big[0][1]))
print("  8 x 128 MiB: (-j 2) / (-j 1) = %.2f (target <= 0.6)" % (jobs[1][1] / jobs[0][1]))
print("  10,000 x 4 KiB: sha1sum / fastsha = %.2f (target >= 2)" % (small[2][1] / small[0][1]))
print("ratios (wall, min): openssl/fastsha %.2f, sha1sum/fastsha %.2f, j2/j1 %.2f, small sha1sum/fastsha %.2f"
      % (big[2][3] / big[0][3], big[3][3] / big[0][3], jobs[1][3] / jobs[0][3], small[2][3] / small[0][3]))
print("ratios (CPU time): openssl/fastsha %.2f, sha1sum/fastsha %.2f, small sha1sum/fastsha %.2f"
      % (big[2][2] / big[0][2], big[3][2] / big[0][2], small[2][2] / small[0][2]))
PY
