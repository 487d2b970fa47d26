#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fastsha's Python binding against hashlib, in one process, on the same data.

    python bench/python_bench.py                 # the full run, Markdown tables
    python bench/python_bench.py --quick         # fewer sizes and repetitions
    python bench/python_bench.py -a sha1 --sizes 64,1M --reps 15 --json out.json
    python bench/python_bench.py --only-mac --mac-algorithms sha1,sha256,sha512
    python bench/python_bench.py --only-sha3 --reps 21

Run it with the interpreter that has fastsha installed (make test-python
leaves one in build/python/venv) and wrap timing runs on a shared machine
in `flock /tmp/fastsha-timing.lock ...`.

What is timed, always as the user writes it:
- one-shot: `fastsha.sha1(b).digest()` against `hashlib.sha1(b).digest()`,
  sizes 16 B .. 1 MiB (`-a sha1dc`: `fastsha.sha1dc(b)` against
  `hashlib.sha1(b)`);
- batch: `fastsha.many(name, bufs)` and `fastsha.many_packed(name, buf, k)`
  against `[hashlib.sha256(b).digest() for b in bufs]`, one core (for
  sha1dc, `--batch-algorithms sha1dc`, against a `hashlib.sha1` loop);
- files: `fastsha.file(path, name)` against `hashlib.file_digest(f, name)`
  on a file in the page cache;
- keyed (--mac-algorithms): `fastsha.pbkdf2_hmac(name, pw, salt, 100000)`
  against `hashlib.pbkdf2_hmac`; `fastsha.hmac.digest(key, msg, name)` and
  an HMAC object (`new(key, digestmod=name)`, `update(msg)`, `digest()`)
  against the standard `hmac` module's, 64-byte messages;
  `fastsha.hmac_many(name, key, msgs)` on 1,024 x 64 B against a loop of
  `hmac.digest`; `fastsha.pbkdf2_hmac_many(name, pws, salt, 10000)` on 16
  passwords against a loop of `hashlib.pbkdf2_hmac`;
- the SHA-3 family (--only-sha3 for these alone): `fastsha.sha3_256(b).digest()`
  against `hashlib.sha3_256(b).digest()` on 1 MiB; `fastsha.many("sha3_256",
  bufs)` on 1,024 x 4 KiB and `fastsha.many("shake_128", seeds, 504)` on
  1,024 x 34 B (a post-quantum matrix's rows: 504 B, three SHAKE128 blocks,
  from each 34-byte seed) against loops of hashlib's; `fastsha.k12(b).digest(32)`
  against `hashlib.sha3_256(b).digest()` on 1 MiB (hashlib has no
  KangarooTwelve: what one would use instead).

Method: each repetition times both sides back to back (alternating which
goes first), each a loop calibrated to about --sample-ms; the ratio of a
repetition is hashlib's time over ours (above 1: fastsha is faster), and the
table gives the median ratio over --reps repetitions with its interquartile
range, so a load change during the run moves both sides alike.
"""

import argparse
import datetime
import hashlib
import json
import os
import platform
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

import hmac

import fastsha
import fastsha.hmac as fhmac

DEFAULT_SIZES = "16,64,256,1K,4K,16K,64K,256K,1M"


def parse_size(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = s.strip().upper().rstrip("B") or "0"
    return int(float(s[:-1]) * mult[s[-1]]) if s[-1] in mult else int(s)


def human(n):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return f"{n // k} {unit}"
    return f"{n} B"


def calibrate(timer, sample_s):
    """Loop count for one sample of about sample_s seconds."""
    n = 1
    while True:
        t = timer.timeit(n)
        if t >= sample_s / 4 or n >= 1 << 24:
            return max(1, int(n * sample_s / max(t, 1e-9)))
        n *= 4


def pair(ours, theirs, reps, sample_s):
    """Per-call seconds of both sides per repetition, taken in turns."""
    nums = [calibrate(t, sample_s) for t in (ours, theirs)]
    a, b = [], []
    for r in range(reps):
        order = ((ours, nums[0], a), (theirs, nums[1], b))
        for timer, n, out in (order if r % 2 == 0 else order[::-1]):
            out.append(timer.timeit(n) / n)
    return a, b


def summary(a, b, nbytes):
    ratios = sorted(tb / ta for ta, tb in zip(a, b))
    q = statistics.quantiles(ratios, n=4) if len(ratios) >= 2 else [ratios[0]] * 3
    ta, tb = statistics.median(a), statistics.median(b)
    return {
        "ours_s": ta, "hashlib_s": tb,
        "ours_MBps": nbytes / ta / 1e6 if nbytes else None,
        "hashlib_MBps": nbytes / tb / 1e6 if nbytes else None,
        "ratio": statistics.median(ratios), "ratio_q1": q[0], "ratio_q3": q[2],
    }


def one_shot(alg, sizes, reps, sample_s):
    # hashlib has no SHA1DC: against it, plain SHA-1 (equal on random data)
    ours, theirs = getattr(fastsha, alg), getattr(hashlib, "sha1" if alg == "sha1dc" else alg)
    rows = []
    for n in sizes:
        buf = os.urandom(n)
        assert ours(buf).digest() == theirs(buf).digest()
        a, b = pair(timeit.Timer("f(b).digest()", globals={"f": ours, "b": buf}),
                    timeit.Timer("f(b).digest()", globals={"f": theirs, "b": buf}),
                    reps, sample_s)
        rows.append({"what": "one-shot", "alg": alg, "bytes": n, **summary(a, b, n)})
    return rows


def batches(alg, shapes, reps, sample_s):
    rows = []
    # hashlib has no SHA1DC: its loop is plain SHA-1, which SHA1DC equals on
    # these random messages (no collision attack in them)
    h = getattr(hashlib, "sha1" if alg == "sha1dc" else alg)
    for count, size in shapes:
        bufs = [os.urandom(size) for _ in range(count)]
        packed = b"".join(bufs)
        want = [h(x).digest() for x in bufs]
        assert fastsha.many(alg, bufs) == want
        assert fastsha.many_packed(alg, packed, size) == b"".join(want)
        loop = timeit.Timer("[h(x).digest() for x in bufs]", globals={"h": h, "bufs": bufs})
        for what, stmt, g in (
            ("many", "many(alg, bufs)", {"many": fastsha.many, "alg": alg, "bufs": bufs}),
            ("many_packed", "mp(alg, buf, k)",
             {"mp": fastsha.many_packed, "alg": alg, "buf": packed, "k": size}),
        ):
            a, b = pair(timeit.Timer(stmt, globals=g), loop, reps, sample_s)
            rows.append({"what": what, "alg": alg, "count": count, "bytes": size,
                         **summary(a, b, count * size)})
    return rows


def files(alg, size, reps, sample_s):
    with tempfile.NamedTemporaryFile(prefix="fastsha-bench-") as f:
        f.write(os.urandom(size))
        f.flush()
        path = f.name

        def theirs():
            with open(path, "rb") as g:
                return hashlib.file_digest(g, alg).digest()

        assert fastsha.file(path, alg) == theirs()
        a, b = pair(timeit.Timer("f(p, a)", globals={"f": fastsha.file, "p": path, "a": alg}),
                    timeit.Timer("f()", globals={"f": theirs}), reps, sample_s)
    return [{"what": "file", "alg": alg, "bytes": size, **summary(a, b, size)}]


def keyed(alg, reps, sample_s, iterations=100_000, many_iterations=10_000):
    """The MAC and KDF calls against hashlib's and the standard hmac's."""
    rows = []
    key, msg = os.urandom(32), os.urandom(64)
    pw, salt = b"correct horse battery staple", os.urandom(16)
    pws = [os.urandom(12) for _ in range(16)]
    msgs = [os.urandom(64) for _ in range(1024)]
    assert fastsha.pbkdf2_hmac(alg, pw, salt, 1000) == hashlib.pbkdf2_hmac(alg, pw, salt, 1000)
    assert fhmac.digest(key, msg, alg) == hmac.digest(key, msg, alg)
    assert fastsha.hmac_many(alg, key, msgs) == [hmac.digest(key, m, alg) for m in msgs]
    assert fastsha.pbkdf2_hmac_many(alg, pws, salt, 100) == \
        [hashlib.pbkdf2_hmac(alg, p, salt, 100) for p in pws]
    g = {"fastsha": fastsha, "fhmac": fhmac, "hashlib": hashlib, "hmac": hmac, "alg": alg,
         "key": key, "msg": msg, "pw": pw, "salt": salt, "pws": pws, "msgs": msgs,
         "it": iterations, "mit": many_iterations}
    for what, work, ours, theirs, nbytes in (
        ("pbkdf2_hmac", f"{iterations:,} iterations",
         "fastsha.pbkdf2_hmac(alg, pw, salt, it)", "hashlib.pbkdf2_hmac(alg, pw, salt, it)", 0),
        ("hmac.digest", "64 B", "fhmac.digest(key, msg, alg)", "hmac.digest(key, msg, alg)",
         64),
        ("HMAC object", "64 B",
         "h = fhmac.new(key, digestmod=alg); h.update(msg); h.digest()",
         "h = hmac.new(key, digestmod=alg); h.update(msg); h.digest()", 64),
        ("hmac_many", "1,024 x 64 B", "fastsha.hmac_many(alg, key, msgs)",
         "[hmac.digest(key, m, alg) for m in msgs]", 1024 * 64),
        ("pbkdf2_hmac_many", f"16 x {many_iterations:,} iterations",
         "fastsha.pbkdf2_hmac_many(alg, pws, salt, mit)",
         "[hashlib.pbkdf2_hmac(alg, p, salt, mit) for p in pws]", 0),
    ):
        a, b = pair(timeit.Timer(ours, globals=g), timeit.Timer(theirs, globals=g), reps,
                    sample_s)
        rows.append({"what": what, "alg": alg, "work": work, **summary(a, b, nbytes)})
    return rows


def keccak(reps, sample_s):
    """The SHA-3 family's rows against hashlib (OpenSSL's SHA3/SHAKE)."""
    big = os.urandom(1 << 20)
    bufs = [os.urandom(4096) for _ in range(1024)]
    seeds = [os.urandom(34) for _ in range(1024)]
    assert fastsha.sha3_256(big).digest() == hashlib.sha3_256(big).digest()
    assert fastsha.many("sha3_256", bufs) == [hashlib.sha3_256(b).digest() for b in bufs]
    assert fastsha.many("shake_128", seeds, 504) == \
        [hashlib.shake_128(s).digest(504) for s in seeds]
    g = {"fastsha": fastsha, "hashlib": hashlib, "big": big, "bufs": bufs, "seeds": seeds}
    rows = []
    for what, alg, work, ours, theirs, nbytes in (
        ("one-shot", "sha3_256", "1 MiB", "fastsha.sha3_256(big).digest()",
         "hashlib.sha3_256(big).digest()", 1 << 20),
        ("many", "sha3_256", "1,024 x 4 KiB", 'fastsha.many("sha3_256", bufs)',
         "[hashlib.sha3_256(b).digest() for b in bufs]", 1024 * 4096),
        ("many", "shake_128", "1,024 x 34 B -> 504 B", 'fastsha.many("shake_128", seeds, 504)',
         "[hashlib.shake_128(s).digest(504) for s in seeds]", 1024 * 34),
        ("one-shot (vs hashlib sha3_256)", "k12", "1 MiB", "fastsha.k12(big).digest(32)",
         "hashlib.sha3_256(big).digest()", 1 << 20),
    ):
        a, b = pair(timeit.Timer(ours, globals=g), timeit.Timer(theirs, globals=g), reps,
                    sample_s)
        rows.append({"group": "sha3", "what": what, "alg": alg, "work": work,
                     **summary(a, b, nbytes)})
    return rows


def fmt_time(s):
    for unit, k in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= k:
            return f"{s / k:,.3g} {unit}"
    return f"{s * 1e9:,.0f} ns"


def machine():
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = None
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=os.path.dirname(os.path.abspath(__file__)),
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu, "cpus": os.cpu_count(), "loadavg_before": os.getloadavg()[0],
        "python": sys.version.split()[0], "openssl": ssl.OPENSSL_VERSION,
        "hashlib_sha1": f"{hashlib.sha1.__module__}.{hashlib.sha1.__name__}",
        "hashlib_pbkdf2": f"{hashlib.pbkdf2_hmac.__module__}.{hashlib.pbkdf2_hmac.__name__}",
        "hashlib_sha3": f"{hashlib.sha3_256.__module__}.{hashlib.sha3_256.__name__}",
        "fastsha": fastsha.__version__, "commit": commit,
        "backends": {a: fastsha.backend(a) for a in ("sha1", "sha256", "sha512", "keccak")},
        "many_lanes": {a: fastsha.many_lanes(a) for a in ("sha1", "sha256", "sha512", "keccak")},
    }


def fmt_ratio(r):
    s = f"{r['ratio']:.2f}x"
    return f"**{s}**" if r["ratio"] >= 1 else s


def markdown(info, rows):
    out = [f"Run: {info['date_utc']}, fastsha {info['fastsha']}"
           + (f" (commit {info['commit']})" if info["commit"] else "")
           + f", load average {info['loadavg_before']:.2f} before and "
             f"{info['loadavg_after']:.2f} after.",
           f"CPU: {info['cpu']} ({info['cpus']} CPUs). Python {info['python']}, "
           f"hashlib from {info['hashlib_sha1']}, {info['hashlib_pbkdf2']} and "
           f"{info['hashlib_sha3']} ({info['openssl']}).",
           "Backends: " + ", ".join(f"{a} {b}" for a, b in info["backends"].items())
           + "; lanes for many(): "
           + ", ".join(f"{a} {n}" for a, n in info["many_lanes"].items()) + ".", ""]
    one = [r for r in rows if r["what"] == "one-shot" and "work" not in r]
    if one:
        out += ["| algorithm | bytes | fastsha ns/call | hashlib ns/call | fastsha MB/s "
                "| hashlib MB/s | speed ratio | IQR |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in one:
            out.append(f"| {r['alg']} | {human(r['bytes'])} | {r['ours_s'] * 1e9:,.0f} "
                       f"| {r['hashlib_s'] * 1e9:,.0f} | {r['ours_MBps']:,.0f} "
                       f"| {r['hashlib_MBps']:,.0f} | {fmt_ratio(r)} "
                       f"| {r['ratio_q1']:.2f}-{r['ratio_q3']:.2f} |")
        out.append("")
    other = [r for r in rows if r["what"] != "one-shot" and "work" not in r]
    if other:
        out += ["| call | algorithm | work | fastsha ms | hashlib ms | fastsha MB/s "
                "| speed ratio | IQR |", "|---|---|---|---:|---:|---:|---:|---:|"]
        for r in other:
            work = (f"{r['count']:,} x {human(r['bytes'])}" if "count" in r
                    else human(r["bytes"]))
            vs = "loop" if r["what"].startswith("many") else "file_digest"
            out.append(f"| {r['what']} (vs hashlib {vs}) | {r['alg']} | {work} "
                       f"| {r['ours_s'] * 1e3:,.2f} | {r['hashlib_s'] * 1e3:,.2f} "
                       f"| {r['ours_MBps']:,.0f} | {fmt_ratio(r)} "
                       f"| {r['ratio_q1']:.2f}-{r['ratio_q3']:.2f} |")
        out.append("")
    sha3 = [r for r in rows if r.get("group") == "sha3"]
    if sha3:
        out += ["| call (vs hashlib) | algorithm | work | fastsha per call "
                "| hashlib per call | fastsha MB/s | speed ratio | IQR |",
                "|---|---|---|---:|---:|---:|---:|---:|"]
        for r in sha3:
            out.append(f"| {r['what']} | {r['alg']} | {r['work']} | {fmt_time(r['ours_s'])} "
                       f"| {fmt_time(r['hashlib_s'])} | {r['ours_MBps']:,.0f} | {fmt_ratio(r)} "
                       f"| {r['ratio_q1']:.2f}-{r['ratio_q3']:.2f} |")
        out.append("")
    mac = [r for r in rows if "work" in r and r.get("group") != "sha3"]
    if mac:
        out += ["| call (vs hashlib / hmac) | algorithm | work | fastsha per call "
                "| standard per call | speed ratio | IQR |",
                "|---|---|---|---:|---:|---:|---:|"]
        for r in mac:
            out.append(f"| {r['what']} | {r['alg']} | {r['work']} | {fmt_time(r['ours_s'])} "
                       f"| {fmt_time(r['hashlib_s'])} | {fmt_ratio(r)} "
                       f"| {r['ratio_q1']:.2f}-{r['ratio_q3']:.2f} |")
        out.append("")
    targets = []
    for label, pred, goal in (
        ("sha1 64 B one-shot", lambda r: r["what"] == "one-shot" and r["alg"] == "sha1"
         and r["bytes"] == 64, 1.5),
        ("sha1 1 MiB one-shot", lambda r: r["what"] == "one-shot" and r["alg"] == "sha1"
         and r["bytes"] == 1 << 20, 1.0),
        ("many sha256 10,000 x 4 KiB", lambda r: r["what"] == "many" and r["alg"] == "sha256"
         and r.get("count") == 10_000 and r["bytes"] == 4096, 3.0),
        ("pbkdf2_hmac sha256 100,000 iterations", lambda r: r["what"] == "pbkdf2_hmac"
         and r["alg"] == "sha256" and r["work"] == "100,000 iterations", 3.0),
        ("hmac.digest sha256 64 B", lambda r: r["what"] == "hmac.digest"
         and r["alg"] == "sha256", 3.0),
        ("sha3_256 1 MiB one-shot", lambda r: r.get("group") == "sha3"
         and r["what"] == "one-shot" and r["alg"] == "sha3_256", 1.10),
        ("many sha3_256 1,024 x 4 KiB", lambda r: r.get("group") == "sha3"
         and r["what"] == "many" and r["alg"] == "sha3_256", 3.0),
    ):
        hit = [r for r in rows if pred(r)]
        if hit:
            r = hit[0]
            targets.append(f"- {label}: {r['ratio']:.2f}x (target >= {goal}x): "
                           + ("met" if r["ratio"] >= goal else "NOT met"))
    if targets:
        out += ["Targets:"] + targets + [""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-a", "--algorithms", default="sha1,sha256,sha512")
    ap.add_argument("--sizes", default=DEFAULT_SIZES, help=f"one-shot sizes ({DEFAULT_SIZES})")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--sample-ms", type=float, default=40.0)
    ap.add_argument("--batch-algorithms", default="sha1,sha256")
    ap.add_argument("--file-mib", type=int, default=64, help="file size; 0: no file rows")
    ap.add_argument("--mac-algorithms", default="sha256",
                    help="HMAC and PBKDF2 rows for these ('' for none)")
    ap.add_argument("--only-mac", action="store_true",
                    help="the HMAC and PBKDF2 rows only")
    ap.add_argument("--only-sha3", action="store_true",
                    help="the SHA-3 family's rows only")
    ap.add_argument("--quick", action="store_true", help="sizes 64,4K,1M, 5 reps of 15 ms")
    ap.add_argument("--cpu", type=int, help="pin the process to this CPU")
    ap.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    args = ap.parse_args()
    if args.quick:
        args.sizes, args.reps, args.sample_ms, args.file_mib = "64,4K,1M", 5, 15.0, 16
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    info = machine()
    sample_s = args.sample_ms / 1e3
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    rows = []
    t0 = time.monotonic()
    if not args.only_mac and not args.only_sha3:
        for alg in args.algorithms.split(","):
            rows += one_shot(alg, sizes, args.reps, sample_s)
        shapes = [(10_000, 4096), (10_000, 64)]
        for alg in args.batch_algorithms.split(","):
            if alg:
                rows += batches(alg, shapes, args.reps, sample_s)
        if args.file_mib:
            rows += files("sha256", args.file_mib << 20, args.reps, sample_s)
    if not args.only_sha3:
        for alg in args.mac_algorithms.split(","):
            if alg:
                rows += keyed(alg, args.reps, sample_s)
    if not args.only_mac:
        rows += keccak(args.reps, sample_s)
    info["loadavg_after"] = os.getloadavg()[0]
    info["seconds"] = round(time.monotonic() - t0, 1)
    print(markdown(info, rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
