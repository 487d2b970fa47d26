#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Files that change while fastsha reads them (issue 18), one ctest per case.

  changing_test.py --fastsha BIN --shim SO --src DIR CASE

Backup and indexing tools hash trees whose files grow, shrink, are replaced
(renamed over) or deleted mid-run. Every run here must end with exit 0 or 1
(never a signal) within its timeout, print its lines in argument order,
report each failure as GNU does, and never print a digest of data that was
not read: each file's content is, at every moment, a prefix of a fixed
master (or a whole known version, or gone), so the set of legitimate
digests is enumerable and every printed digest is checked against it.

  changing_shim  one change at a known point (faultshim.c: after the first
                 read() of the file, or after the N-th io_uring step), each
                 compared with GNU sha1sum on the state it must have seen
  changing_tree  thousands of small files grown, cut, replaced and deleted
                 by a background thread while -j 1/-j 2 (ring and plain
                 path) hash them or --check a list of them
  changing_big   a 200 MiB file appended to, cut, replaced or deleted while
                 read (read-ahead thread, --mmap, plain path, --check, --time)
  changing_fifo  FIFOs and a stdin pipe among changing files

The helpers (run, env_for, check, gnu_line) are cli_test.py's.
"""
import argparse
import hashlib
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_test  # noqa: E402
from cli_test import check, gnu_line, need_sha1sum, write  # noqa: E402

G = 4096  # every length a file has here is a multiple of the page size (see legit())
TIMEOUT = 120  # per run: a hang is a failure, not a stuck ctest


def sha1(b):
    return hashlib.sha1(b).hexdigest()


def env(ring=True, shim=None):
    """ring: io_uring allowed (else FASTSHA_NO_URING=1); shim: faultshim's
    variables, preloaded."""
    e = cli_test.env_for()
    if not ring:
        e["FASTSHA_NO_URING"] = "1"
    if shim is not None:
        e["LD_PRELOAD"] = cli_test.A.shim
        e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
        e.update(shim)
    return e


def fs(args, cwd, e, stdin=None):
    """fastsha under its own name; (rc, out, err), rc None after a hang."""
    cmd = [cli_test.A.fastsha] + list(args)
    try:
        p = subprocess.run(["fastsha"] + cmd[1:], executable=cmd[0], cwd=cwd, env=e,
                           stdin=stdin if stdin is not None else subprocess.DEVNULL,
                           capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        check(False, "hang: %r did not finish in %d s" % (args[:6], TIMEOUT))
        return None, b"", b""
    check(p.returncode in (0, 1), "exit %d (a signal?) for %r: %r" %
          (p.returncode, args[:6], p.stderr[-300:]))
    return p.returncode, p.stdout, p.stderr


def gnu_err(d, *names):
    """GNU sha1sum's stderr for names that do not exist, as fastsha's."""
    p = subprocess.run(["sha1sum", "--"] + list(names), cwd=d, capture_output=True)
    return cli_test.as_fastsha(p.stderr, "sha1sum")


def line(digest, name):
    return ("%s  %s\n" % (digest, name)).encode()


# ---- changing_shim: one change at a known point -----------------------------------

def case_changing_shim(d):
    """Deterministic changes through faultshim.c, each against GNU sha1sum run
    on the content the reader must have seen (GNU cannot be preloaded: its
    stdio reads by glibc's internal read, which no shim sees)."""
    need_sha1sum()
    write(d, "other", "abc")
    o = gnu_line(d, "other")
    rnd = random.Random(18)
    for size in (20000, 3 << 20):  # batched small file; streamed big file
        orig = rnd.randbytes(size)
        new = rnd.randbytes(size // 2 + 7)
        cut = size // 2 if size > 1 << 20 else 5000
        for jobs in ("1", "2"):
            for extra in ([], ["--mmap"], ["--no-read-ahead"]):
                if extra and size < 1 << 20:
                    continue
                tag = "%d -j %s %r" % (size, jobs, extra)

                def go(mode, after=0, argv=("other", "victim", "other"), peer=None):
                    write(d, "victim", orig)
                    sh = {"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": mode,
                          "FAULT_AFTER": str(after)}
                    if peer is not None:
                        write(d, "peer", peer)
                        sh["FAULT_PEER"] = os.path.join(d, "peer")
                    return fs(["-j", jobs] + extra + list(argv), d, env(False, sh))

                # Cut after the first read(): a big file is read on to the new
                # end (what GNU reads too: its first read is smaller); a small
                # one was read whole by then, and read() said it ended there.
                got = go("cut", cut)
                if size > 1 << 20:
                    want = (0, o + gnu_line(d, "victim") + o, b"")
                else:
                    want = (0, o + line(sha1(orig), "victim") + o, b"")
                check(got == want, "cut after first read %s: %r" % (tag, got))
                # Grown after the first read(): a big file is read on to the
                # new end, as GNU would; a small one ended at its first read()
                # (less than asked and all fstat promised), which was true then.
                got = go("append", 5000)
                grown = gnu_line(d, "victim")
                if size > 1 << 20:
                    check(got == (0, o + grown + o, b""), "append %s: %r" % (tag, got))
                else:
                    check(got in ((0, o + grown + o, b""), (0, o + line(sha1(orig), "victim") + o,
                                                            b"")),
                          "append small %s: %r" % (tag, got))
                # Renamed over after the first read(): the open file is the old
                # one, read whole; the name listed again is the new file (-j 1;
                # with -j 2 another worker may have opened it before).
                argv = ("other", "victim", "other", "victim")
                got = go("replace", argv=argv, peer=new)
                ok = [(0, o + line(sha1(orig), "victim") + o + gnu_line(d, "victim"), b"")]
                if jobs != "1":
                    ok.append((0, o + line(sha1(orig), "victim") + o + line(sha1(orig), "victim"),
                               b""))
                check(got in ok, "replace %s: %r" % (tag, got))
                # Deleted after the first read(): still read whole; listed again,
                # it is gone, as GNU says.
                got = go("unlink", argv=argv)
                ok = [(1, o + line(sha1(orig), "victim") + o, gnu_err(d, "victim"))]
                if jobs != "1":
                    ok.append((0, o + line(sha1(orig), "victim") + o + line(sha1(orig), "victim"),
                               b""))
                check(got in ok, "unlink %s: %r" % (tag, got))
                # A later input deleted before it is opened.
                got = go("unlinkpeer", argv=("victim", "other", "peer", "other"), peer=new)
                ok = [(1, line(sha1(orig), "victim") + o * 2, gnu_err(d, "peer"))]
                if jobs != "1":
                    ok.append((0, line(sha1(orig), "victim") + o + line(sha1(new), "peer") + o,
                               b""))
                check(got in ok, "unlinkpeer %s: %r" % (tag, got))
                # The same in --check: a cut file FAILs, a deleted one is
                # unreadable, with GNU's messages and counts.
                if size > 1 << 20:
                    lst = "%s  victim\n%s  other\n" % (sha1(orig), sha1(b"abc"))
                    write(d, "list", lst)
                    got = go("cut", cut, argv=("-c", "list"))
                    check(got == (1, b"victim: FAILED\nother: OK\n",
                                  b"fastsha: WARNING: 1 computed checksum did NOT match\n"),
                          "--check cut %s: %r" % (tag, got))
                    write(d, "list", lst + "%s  victim\n" % sha1(orig))
                    got = go("unlink", argv=("-c", "list"))
                    want = (1, b"victim: OK\nother: OK\nvictim: FAILED open or read\n",
                            gnu_err(d, "victim") +
                            b"fastsha: WARNING: 1 listed file could not be read\n")
                    ok = [want, (0, b"victim: OK\nother: OK\nvictim: OK\n", b"")]
                    check(got in (ok if jobs != "1" else ok[:1]),
                          "--check unlink %s: %r" % (tag, got))
    mmap_cut_in_last_page(d, o, rnd)
    ring_steps(d, o, rnd)


def mmap_cut_in_last_page(d, o, rnd):
    """--mmap, the file cut inside its last page once mapped: no SIGBUS, the
    page past the new end reads as zeros, and fastsha printed (exit 0) the
    digest of bytes the file never held. Now the input fails. 6 MiB: one
    mapping; 40 MiB: windows mapped by the helper thread."""
    for size in ((6 << 20) + 100, (40 << 20) + 100):
        for jobs in ("1", "2"):
            write(d, "victim", rnd.randbytes(size))
            sh = {"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": "truncate",
                  "FAULT_AFTER": str(size - 50)}
            e = env(False, sh)
            e["ASAN_OPTIONS"] += ":handle_sigbus=0:allow_user_segv_handler=1"
            got = fs(["-j", jobs, "--mmap", "other", "victim", "other"], d, e)
            check(got == (1, o * 2, b"fastsha: victim: file shrank while being read\n"),
                  "--mmap, cut in the last page, %d bytes -j %s: %r (GNU reads %r)" %
                  (size, jobs, got, gnu_line(d, "victim")))


def ring_steps(d, o, rnd):
    """The io_uring path, -j 1: a change after the first group's open step
    (1) or its read step (2: the end-read must then find what came after).
    With 43 inputs and one worker the first group is the first 10 (a
    quarter of what is left, cli_jobs.c's claim()); later ones come after."""
    if not cli_test.has_io_uring():
        print("SKIP (ring steps): no usable io_uring here")
        return
    orig = rnd.randbytes(30000)
    new = rnd.randbytes(777)
    fill = ["f%02d" % i for i in range(40)]
    for f in fill:
        write(d, f, f)
    fl = [gnu_line(d, f) for f in fill]

    def go(mode, step, after=0, first="victim", peer=None):
        write(d, "victim", orig)
        sh = {"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": mode,
              "FAULT_AFTER": str(after), "FAULT_RING": str(step)}
        if peer is not None:
            write(d, "peer", peer)
            sh["FAULT_PEER"] = os.path.join(d, "peer")
        argv = ["victim"] + fill[:5] + [first] + fill[5:40] + [first]
        return fs(["-j", "1"] + argv, d, env(True, sh))

    def want(v1, v2, v3):
        return v1 + b"".join(fl[:5]) + v2 + b"".join(fl[5:]) + v3

    v = line(sha1(orig), "victim")
    # Opened, then cut before the read: the read gets the cut file.
    got = go("cut", 1, 10000)
    c = gnu_line(d, "victim")
    check(got == (0, want(c, c, c), b""), "ring: cut after open: %r" % (got[:1],))
    # Read, then grown: the end-read finds the new bytes and reading goes on
    # (the later group opens the grown file too).
    got = go("append", 2, 5000)
    g = gnu_line(d, "victim")
    check(got == (0, want(g, g, g), b""), "ring: append after read: %r" % (got[:1],))
    # Read, then cut: the read had it all and the end-read says it ended.
    got = go("cut", 2, 100)
    check(got == (0, want(v, v, gnu_line(d, "victim")), b""),
          "ring: cut after read: %r" % (got[:1],))
    # Replaced or deleted after the open step: the open file is read whole,
    # in this group (the name again, too: opened in the same step); the
    # later group opens the new file, or finds none, as GNU says.
    got = go("replace", 1, peer=new)
    check(got == (0, want(v, v, line(sha1(new), "victim")), b""),
          "ring: replace after open: %r" % (got[:1],))
    got = go("unlink", 1)
    check(got == (1, want(v, v, b""), gnu_err(d, "victim")),
          "ring: unlink after open: %r" % (got[:1],))
    got = go("unlinkpeer", 2, first="peer", peer=new)
    p = line(sha1(new), "peer")
    check(got == (1, want(v, p, b""), gnu_err(d, "peer")),
          "ring: peer deleted between groups: %r" % (got[:1],))


# ---- changing_tree: thousands of small files under a mutator ----------------------

class Tree:
    """Small files (a few around 256 KiB) whose content is always a prefix
    of a master of whole pages (grown by appending the next page, cut to a page boundary,
    replaced by a renamed copy of another prefix) or absent."""

    def __init__(self, d, n, rnd):
        self.d = d
        self.names = ["t/f%04d" % i for i in range(n)]
        os.makedirs(os.path.join(d, "t"), exist_ok=True)
        self.master = {}
        self.length = {}
        for i, name in enumerate(self.names):
            # Some of them (all hot) straddle the 256 KiB a small file may
            # have (cli_read.c's SMALL_MAX: batched, or a ring slot filled).
            pages = 60 + (i // 50) % 8 if i % 50 == 2 else 1 + i % 6
            self.master[name] = rnd.randbytes(G * pages)
        self.hot = [name for i, name in enumerate(self.names) if i % 5 == 2]
        self.legit = {}
        for name, m in self.master.items():
            # A page-multiple prefix, or one byte more: the ring's end-read
            # took the next byte and the file was then cut below it (every
            # byte hashed was read, as with GNU's reads across a truncation).
            lens = set(range(0, len(m) + 1, G)) | set(range(1, len(m) + 1, G))
            self.legit[name] = {sha1(m[:k]): k for k in lens}
        self.reset(first=True)

    def reset(self, first=False):
        for name in self.names if first else self.hot:  # the others never change
            m = self.master[name]
            with open(os.path.join(self.d, name), "wb") as f:
                f.write(m)
            self.length[name] = len(m)
        self.gone = set()  # deleted at some point of the current run

    def mutate(self, stop, rnd, counts):
        seq = 0
        while not stop.is_set():
            name = rnd.choice(self.hot)
            p = os.path.join(self.d, name)
            m, cur = self.master[name], self.length[name]
            op = rnd.randrange(5)
            try:
                if cur is None:  # re-created, by rename
                    op = 4
                if op == 0 and cur < len(m):  # grow by a page
                    with open(p, "ab") as f:
                        f.write(m[cur:cur + G])
                    self.length[name] = cur + G
                elif op == 1:  # cut to a page boundary
                    k = G * rnd.randrange(0, cur // G + 1)
                    os.truncate(p, k)
                    self.length[name] = k
                elif op == 2:  # deleted
                    self.gone.add(name)
                    os.unlink(p)
                    self.length[name] = None
                else:  # replaced by another prefix, renamed over
                    k = G * rnd.randrange(0, len(m) // G + 1)
                    tmp = os.path.join(self.d, "t", ".new%d" % seq)
                    seq += 1
                    with open(tmp, "wb") as f:
                        f.write(m[:k])
                    os.rename(tmp, p)
                    self.length[name] = k
                counts[op] = counts.get(op, 0) + 1
            except OSError as e:
                check(False, "mutator: %s %r" % (name, e))
                return

    def run(self, argv, e, rnd, counts, stdin=None):
        self.reset()
        stop = threading.Event()
        t = threading.Thread(target=self.mutate, args=(stop, random.Random(rnd.random()), counts))
        t.start()
        try:
            return fs(argv, self.d, e, stdin=stdin)
        finally:
            stop.set()
            t.join()


def check_hash_output(tree, names, got, what, seen, extra_ok=None):
    """Hash mode: for each name in order, its line with a legitimate digest,
    or (only for a file deleted during the run) GNU's ENOENT message."""
    rc, out, err = got
    if rc is None:
        return
    lines = out.splitlines(keepends=True)
    errs = err.splitlines(keepends=True)
    li = ei = 0
    bad = []
    for name in names:
        if li < len(lines) and lines[li].endswith(("  %s\n" % name).encode()):
            hx = lines[li][:40].decode()
            li += 1
            if extra_ok and name in extra_ok:
                if hx != extra_ok[name]:
                    bad.append("%s: digest %s, not %s" % (name, hx, extra_ok[name]))
                continue
            k = tree.legit[name].get(hx)
            if k is None:
                bad.append("%s: digest %s of no content the file had" % (name, hx))
            elif name not in tree.hot and k != len(tree.master[name]):
                bad.append("%s: untouched, yet digest of %d bytes" % (name, k))
            elif k != len(tree.master[name]):
                seen["changed"] = seen.get("changed", 0) + 1
            if k is not None and k > 256 << 10:
                seen["over 256 KiB"] = seen.get("over 256 KiB", 0) + 1
            continue
        msg = ("fastsha: %s: No such file or directory\n" % name).encode()
        if ei < len(errs) and errs[ei] == msg and name in tree.gone:
            ei += 1
            seen["deleted"] = seen.get("deleted", 0) + 1
            continue
        bad.append("%s: no line and no (legitimate) error; next out %r err %r" %
                   (name, lines[li:li + 1], errs[ei:ei + 1]))
        break
    if li != len(lines) or ei != len(errs):
        bad.append("left over: out %r err %r" % (lines[li:li + 2], errs[ei:ei + 2]))
    if rc != (1 if ei else 0):
        bad.append("exit %d with %d errors" % (rc, ei))
    check(not bad, "%s: %s" % (what, "; ".join(bad[:5])))


def check_check_output(tree, names, got, what, seen):
    """--check: NAME: OK / FAILED / FAILED open or read in order, GNU's
    messages and counts; an untouched file is OK."""
    rc, out, err = got
    if rc is None:
        return
    lines = out.splitlines(keepends=True)
    bad = []
    nbad = nread = 0
    want_err = b""
    if len(lines) != len(names):
        bad.append("%d lines for %d names" % (len(lines), len(names)))
    for name, ln in zip(names, lines):
        if ln == ("%s: OK\n" % name).encode():
            continue
        if name not in tree.hot:
            bad.append("untouched %s: %r" % (name, ln))
        elif ln == ("%s: FAILED\n" % name).encode():
            nbad += 1
            seen["changed"] = seen.get("changed", 0) + 1
        elif ln == ("%s: FAILED open or read\n" % name).encode() and name in tree.gone:
            nread += 1
            want_err += ("fastsha: %s: No such file or directory\n" % name).encode()
            seen["deleted"] = seen.get("deleted", 0) + 1
        else:
            bad.append("%s: %r" % (name, ln))
    if nread:
        want_err += ("fastsha: WARNING: %d listed file%s could not be read\n" %
                     (nread, "" if nread == 1 else "s")).encode()
    if nbad:
        want_err += ("fastsha: WARNING: %d computed checksum%s did NOT match\n" %
                     (nbad, "" if nbad == 1 else "s")).encode()
    if err != want_err:
        bad.append("stderr %r, want %r" % (err[-200:], want_err[-200:]))
    if rc != (1 if nbad or nread else 0):
        bad.append("exit %d" % rc)
    check(not bad, "%s: %s" % (what, "; ".join(bad[:5])))


def case_changing_tree(d):
    """3000 small files (a fifth of them grown, cut, replaced and deleted by
    a thread all the while) hashed with -j 1 and -j 2, through io_uring and
    the plain path, and checked (--check) from a list."""
    rnd = random.Random(1818)
    tree = Tree(d, 3000, rnd)
    names = list(tree.names)
    lst = "".join("%s  %s\n" % (sha1(tree.master[n]), n) for n in names)
    write(d, "list", lst)
    seen, counts = {}, {}
    rounds = 3
    for ring in (True, False):
        for jobs in (["-j", "2"], ["-j", "1"], []):
            for r in range(rounds):
                what = "tree %r ring=%s round %d" % (jobs, ring, r)
                got = tree.run(jobs + names, env(ring), rnd, counts)
                check_hash_output(tree, names, got, what, seen)
                got = tree.run(jobs + ["-c", "list"], env(ring), rnd, counts)
                check_check_output(tree, names, got, what + " --check", seen)
    print("mutations %r, outcomes %r" % (counts, seen))
    # The mutator must have raced the readers, or nothing was tested.
    check(seen.get("changed", 0) > 0 and seen.get("deleted", 0) > 0,
          "no change was ever seen by a reader: %r" % seen)


# ---- changing_big: a 200 MiB file appended to and cut while read --------------------

def big_master(size):
    """size bytes, each page stamped with its index, so no two prefixes
    agree and a misplaced page shows."""
    m = bytearray(os.urandom(1 << 20) * (size >> 20))
    for i in range(0, size, G):
        struct.pack_into("<Q", m, i, i // G)
    return bytes(m)


def case_changing_big(d):
    """A 200 MiB file appended to, cut, churned (cut and grown back),
    replaced and deleted while it is read, between small files: -j 2, -j 1
    (with its read-ahead thread), --no-read-ahead, --mmap, the plain path,
    --check and --time (whose byte count must be the digest's length)."""
    size = 200 << 20
    m = big_master(size)
    prefix = {}
    h = hashlib.sha1()
    prefix[h.hexdigest()] = 0
    mv = memoryview(m)
    for off in range(0, size, G):
        h.update(mv[off:off + G])
        prefix[h.copy().hexdigest()] = off + G
    full = sha1(m)
    write(d, "a", "abc")
    write(d, "b", "b" * 70000)
    la, lb = gnu_line(d, "a"), gnu_line(d, "b")
    p = os.path.join(d, "big")
    rnd = random.Random(2018)
    outcomes = {}

    def put(n):
        with open(p, "wb") as f:
            f.write(mv[:n])

    def appender(stop):
        cur = os.path.getsize(p)
        with open(p, "ab") as f:
            while cur < size and not stop.is_set():
                f.write(mv[cur:cur + (1 << 20)])
                f.flush()
                cur += 1 << 20

    def cutter(stop):
        cur = size
        while cur > (8 << 20) and not stop.is_set():
            cur -= 8 << 20
            os.truncate(p, cur)
            time.sleep(0.005)

    def churn(stop):
        r = random.Random(rnd.random())
        while not stop.is_set():
            k = G * r.randrange(2048, size // G)
            os.truncate(p, k)
            with open(p, "ab") as f:
                while k < size and not stop.is_set():
                    n = min(size - k, G * r.randrange(1, 512))
                    f.write(mv[k:k + n])
                    f.flush()
                    k += n

    def replacer(stop):
        i = 0
        while not stop.is_set():
            k = (1 + i % 7) << 24
            tmp = p + ".new"
            with open(tmp, "wb") as f:
                f.write(mv[:k])
            os.rename(tmp, p)
            i += 1

    def deleter(stop):
        time.sleep(0.02)
        os.unlink(p)

    scen = {"append": (lambda: put(100 << 20), appender),
            "cut": (lambda: put(size), cutter),
            "churn": (lambda: put(size), churn),
            "replace": (lambda: put(size), replacer),
            "delete": (lambda: put(size), deleter)}
    configs = [["-j", "2"], ["-j", "1"], ["-j", "1", "--no-read-ahead"], ["-j", "2", "--mmap"],
               ["-j", "1", "--mmap"], ["-j", "2", "--time"], ["-j", "1", "--time"]]
    sigbus = b"fastsha: big: file shrank while being read (SIGBUS on the mapping)\n"
    # FASTSHA_TEST_CLI_SAMPLE=N (the sanitizer preset's 3) runs one in N
    # of each scenario's reads, a different one in N for each scenario, so
    # every configuration still meets some scenarios; the release run takes
    # them all.
    sample = max(1, int(os.environ.get("FASTSHA_TEST_CLI_SAMPLE", "1")))
    for si, (name, (setup, fn)) in enumerate(scen.items()):
        combos = [(cfg, ring) for cfg in configs for ring in (True, False)
                  if ring or "--time" not in cfg]
        for ci, (cfg, ring) in enumerate(combos):
            if (ci + si) % sample:
                continue
            setup()
            # The second "big" is opened after the first is done (-j 1)
            # or at once (-j 2): either way some state of the same file.
            argv = cfg + ["a", "big", "b", "big"]
            e = env(ring)
            e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + \
                ":handle_sigbus=0:allow_user_segv_handler=1"
            stop = threading.Event()
            t = threading.Thread(target=fn, args=(stop,))
            t.start()
            try:
                rc, out, err = fs(argv, d, e)
            finally:
                stop.set()
                t.join()
            what = "big %s %r ring=%s: " % (name, cfg, ring)
            if rc is None:
                continue
            lines = out.splitlines(keepends=True)
            errs = [x for x in err.splitlines(keepends=True)]
            times = [x for x in errs if b" bytes in " in x]
            errs = [x for x in errs if b" bytes in " not in x]
            bad = []
            # a, big, b, big: each big line where its input stands.
            bigs = [x for x in lines if x.endswith(b"  big\n")]
            if [x for x in lines if x not in bigs] != [la, lb] or lines[0] != la or \
                    lines.index(lb) > 2 or len(lines) - lines.index(lb) > 2:
                bad.append("order: %r" % lines)
            nerr = 0
            for x in errs:
                if x in (sigbus, sigbus[:-len(" (SIGBUS on the mapping)\n")] + b"\n") \
                        and "--mmap" in cfg:
                    nerr += 1
                elif x == b"fastsha: big: No such file or directory\n" and \
                        name == "delete":
                    nerr += 1
                else:
                    bad.append("stderr line %r" % x)
            if len(bigs) + nerr != 2:
                bad.append("%d big lines, %d errors" % (len(bigs), nerr))
            for x in bigs:
                k = prefix.get(x[:40].decode())
                if k is None:
                    bad.append("digest of no prefix the file had: %r" % x)
                else:
                    outcomes.setdefault(name, set()).add(k)
            # --time: the bytes counted are the bytes the digest is of.
            if times:
                tb = [int(x.split(b": ")[-1].split()[0]) for x in times
                      if x.startswith(b"fastsha: big: ")]
                dl = [prefix.get(x[:40].decode()) for x in bigs]
                if len(tb) != len(dl) or tb != dl:
                    bad.append("--time bytes %r, digests of %r bytes" % (tb, dl))
            if rc != (1 if nerr else 0):
                bad.append("exit %d with %d errors" % (rc, nerr))
            check(not bad, what + "; ".join(bad[:4]))
        # --check of a list naming it, with its full digest: OK, or FAILED
        # when it was read short, or unreadable once deleted.
        for cfg in (["-j", "2"], ["-j", "1"], ["--mmap"]):
            setup()
            write(d, "list", "%s  a\n%s  big\n" % (sha1(b"abc"), full))
            stop = threading.Event()
            t = threading.Thread(target=fn, args=(stop,))
            t.start()
            try:
                e = env(True)
                e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + \
                    ":handle_sigbus=0:allow_user_segv_handler=1"
                got = fs(cfg + ["-c", "list"], d, e)
            finally:
                stop.set()
                t.join()
            ok = [(0, b"a: OK\nbig: OK\n", b""),
                  (1, b"a: OK\nbig: FAILED\n",
                   b"fastsha: WARNING: 1 computed checksum did NOT match\n")]
            if "--mmap" in cfg:
                for msg in (sigbus, b"fastsha: big: file shrank while being read\n"):
                    ok.append((1, b"a: OK\nbig: FAILED open or read\n",
                               msg + b"fastsha: WARNING: 1 listed file could not be read\n"))
            if name == "delete":
                ok.append((1, b"a: OK\nbig: FAILED open or read\n",
                           b"fastsha: big: No such file or directory\n"
                           b"fastsha: WARNING: 1 listed file could not be read\n"))
            check(got[0] is None or got in ok, "big --check %s %r: %r" % (name, cfg, got))
    print("lengths read per scenario (MiB): %r" %
          {k: sorted(set(x >> 20 for x in v)) for k, v in outcomes.items()})


# ---- changing_fifo: FIFOs and pipes among changing files --------------------------

def case_changing_fifo(d):
    """FIFOs read by name (written in pieces, one deleted and one renamed
    over once open, one whose writer comes late and writes nothing) and a
    pipe on standard input, among small files being rewritten: exact
    digests, order, and no hang with -j 1 or -j 2, ring or plain, hash or
    --check."""
    rnd = random.Random(99)
    tree = Tree(d, 400, rnd)
    data = rnd.randbytes(300000)
    stdin_data = rnd.randbytes(100000)
    seen, counts = {}, {}

    def fifo_writer(path, payload, delay, after_open):
        def go():
            time.sleep(delay)
            with open(path, "wb", buffering=0) as f:
                if after_open:
                    after_open()
                for off in range(0, len(payload), 30000):
                    f.write(payload[off:off + 30000])
                    time.sleep(0.002)
        return threading.Thread(target=go)

    for ring in (True, False):
        for jobs in (["-j", "2"], ["-j", "1"]):
            for mode in ("hash", "check"):
                fifos = {"t/fifo1": (data, 0.0, None), "t/fifo2": (data[:1000], 0.05, "unlink"),
                         "t/fifo3": (data[:54321], 0.0, "replace"), "t/fifo4": (b"", 0.3, None)}
                for f in fifos:
                    fp = os.path.join(d, f)
                    if os.path.lexists(fp):
                        os.unlink(fp)
                    os.mkfifo(fp)
                writers = []
                for f, (payload, delay, act) in fifos.items():
                    fp = os.path.join(d, f)
                    if act == "unlink":
                        def after(fp=fp):
                            os.unlink(fp)
                    elif act == "replace":
                        def after(fp=fp):
                            with open(fp + ".r", "wb") as x:
                                x.write(b"replaced")
                            os.rename(fp + ".r", fp)
                    else:
                        after = None
                    writers.append(fifo_writer(fp, payload, delay, after))
                names = list(tree.names)
                for k, f in enumerate(fifos):
                    names.insert(50 + 97 * k, f)
                names.insert(7, "-")
                want = {f: sha1(p) for f, (p, _, _) in fifos.items()}
                want["-"] = sha1(stdin_data)
                for w in writers:
                    w.start()
                rp, wp = os.pipe()

                def feed():
                    for off in range(0, len(stdin_data), 8192):
                        os.write(wp, stdin_data[off:off + 8192])
                    os.close(wp)
                ft = threading.Thread(target=feed)
                if mode == "hash":
                    ft.start()
                else:
                    os.close(wp)
                what = "fifo %r ring=%s %s" % (jobs, ring, mode)
                try:
                    if mode == "hash":
                        got = tree.run(jobs + names, env(ring), rnd, counts, stdin=rp)
                    else:
                        lst = "".join("%s  %s\n" % (want.get(n) or sha1(tree.master[n]), n)
                                      for n in names if n != "-")
                        write(d, "list", lst)
                        got = tree.run(jobs + ["-c", "list"], env(ring), rnd, counts)
                finally:
                    os.close(rp)
                    if mode == "hash":
                        ft.join()
                    for w in writers:
                        w.join(timeout=TIMEOUT)
                        check(not w.is_alive(), "%s: a FIFO writer never got a reader" % what)
                if mode == "hash":
                    check_hash_output(tree, names, got, what, seen, extra_ok=want)
                else:
                    names = [n for n in names if n != "-"]
                    # The FIFOs' own lines are OK (checked as untouched names).
                    check_check_output(tree, names, got, what, seen)
    print("mutations %r, outcomes %r" % (counts, seen))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastsha", required=True)
    ap.add_argument("--shim", default="")
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", default="")
    ap.add_argument("case")
    a = ap.parse_args()
    a.fastsha = os.path.abspath(a.fastsha)
    a.shim = os.path.abspath(a.shim) if a.shim else a.shim
    cli_test.A = a
    fn = globals()["case_" + a.case]
    # tmpfs where there is one: on a disk file system every rewrite of a
    # file being written back waits for the disk (ext4's auto_da_alloc
    # flushes on truncate and rename), and the mutators of these cases,
    # slowed a hundredfold, would hardly race the readers any more.
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    d = tempfile.mkdtemp(prefix="fastsha-changing-", dir=shm)
    cli_test.LINKDIR = tempfile.mkdtemp(prefix="fastsha-changing-bin-")
    try:
        fn(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(cli_test.LINKDIR, ignore_errors=True)
    if cli_test.FAILS:
        print("%d check(s) failed" % len(cli_test.FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
