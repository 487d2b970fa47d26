#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fastsha --hmac-key-file (issue 28), one ctest per case.

  hmac_test.py --fastsha BIN --shim SO --src DIR [--build DIR] CASE [ARG]

Every tag is checked against Python's hmac module. Where GNU's tools can
say what the output must be, they do: HMAC mode is the same command with a
keyed digest in place of the plain one, so its stdout and stderr must be
GNU sha256sum's (names, escaping, messages, exit status) with each digest
replaced by the HMAC of the same content and each tag SHA256 by
HMAC-SHA256 (model()).

  hmac_algs   every algorithm, message sizes around the block sizes and the
              batch limit, keys of 1..200 bytes (NUL bytes, longer than a
              block), every input path (batches, ring or not, streaming,
              read-ahead, --mmap, standard input, -s), every line form
  hmac_batch  many small files and mixed sizes through the batch path,
              -j 1/3, io_uring or not; the same content by every path
  hmac_gnu    (ARG: fastsha or a GNU tool's name) hashing and --check of
              GNU's own test lists, against the GNU tool with digests swapped
  hmac_check  --check in HMAC mode: passes, one changed byte, missing
              files, --status/--quiet/--strict/-w, plain tags refused,
              mixed HMAC algorithms, another key
  hmac_openssl --check of openssl dgst -hmac's lines (HMAC-SHA2-256(NAME)= HEX)
              for every SHA-1 and SHA-2 algorithm, against real openssl
  hmac_key    the key file: missing, empty, unreadable, a directory, '-',
              /dev/stdin, given twice; refused options and sha1dcsum; the
              key never in stdout or stderr, and gone from the process's
              memory once prepared

The helpers (run, env_for, check, Pair, ...) are cli_test.py's.
"""
import argparse
import hashlib
import hmac
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_test  # noqa: E402
from cli_test import ALGS, HASH_OPTS, NAMES, check, gnu_opts, write  # noqa: E402

SKIP = 77
# A key that cannot turn up by chance: recognisable text between NUL bytes
# and high bytes, so a leak through printf ("%s" stops at NUL) or through a
# hex dump would both be seen (the marker is looked for as it is and in hex).
MARK = b"hmac-KEY-must-not-leak-7f3a"
KEY = b"\x00" + MARK + b"\x00\xff\x01" + MARK[::-1] + b"\x80"


def tag(alg, key, data):
    return hmac.new(key, data, alg).hexdigest()


def run(args, cwd=None, argv0="fastsha", exe=None, **kw):
    return cli_test.run([exe or cli_test.A.fastsha] + list(args), cwd=cwd, argv0=argv0, **kw)


def key_file(d, key, name="key"):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(key)
    return path


def no_leak(key, outs, what):
    """The key (when it holds the marker) in no output, raw or in hex."""
    blob = b"".join(outs)
    for needle in (MARK, MARK.hex().encode(), key if len(key) >= 8 else None,
                   key.hex().encode() if len(key) >= 8 else None):
        if needle:
            check(needle not in blob, "%s: key material in the output" % what)


def lines(alg, key, items, form="plain"):
    """The expected output for (name, data) items: sha256sum's line forms."""
    out = b""
    for name, data in items:
        t = tag(alg, key, data)
        if form == "tag":
            out += ("HMAC-%s (%s) = %s\n" % (alg.upper(), name, t)).encode()
        elif form == "binary":
            out += ("%s *%s\n" % (t, name)).encode()
        elif form == "zero":
            out += ("%s  %s\0" % (t, name)).encode()
        else:
            out += ("%s  %s\n" % (t, name)).encode()
    return out


SIZES = [0, 1, 63, 64, 65, 127, 128, 129, 4097, (256 << 10) - 1, 256 << 10, (256 << 10) + 1,
         (3 << 20) + 7, (5 << 20) + 3]
KEYS = {"1": b"k", "64": bytes(range(64)), "65": bytes(range(65)), "128": bytes(range(128)),
        "129": bytes(range(129)), "200": (MARK * 8)[:200], "nul": KEY}


def case_hmac_algs(d):
    rnd = random.Random(28)
    items = []
    for n in SIZES:
        name = "s%d" % n
        data = bytes(rnd.getrandbits(8) for _ in range(min(n, 4096))) * (n // 4096 + 1)
        data = data[:n]
        write(d, name, data)
        items.append((name, data))
    names = [n for n, _ in items]
    small = [(n, x) for n, x in items if len(x) < (1 << 20)]
    for alg in ALGS:
        for kname, key in KEYS.items():
            kp = key_file(d, key, "key" + kname)
            # Small files only for every key (the batch path), all sizes for two.
            some = items if kname in ("65", "nul") else small
            got = run(["-a", alg, "--hmac-key-file", kp] + [n for n, _ in some], cwd=d)
            check(got == (0, lines(alg, key, some), b""),
                  "%s key %s: %r" % (alg, kname, got[:1] + (got[2],)))
            no_leak(key, got[1:], "%s key %s" % (alg, kname))
        kp = os.path.join(d, "keynul")
        want = lines(alg, KEY, items)
        # Every input path gives the same tags.
        for extra, env in (([], None), (["-j", "1"], None), (["-j", "3"], None),
                           ([], {"FASTSHA_NO_URING": "1"}), (["--mmap"], None),
                           (["--no-read-ahead"], None), (["--buffer-size=4096"], None),
                           (["--mmap", "-j", "2"], {"FASTSHA_NO_URING": "1"})):
            got = run(extra + ["-a", alg, "--hmac-key-file=" + kp] + names, cwd=d,
                      env=cli_test.env_for(env))
            check(got == (0, want, b""), "%s path %r %r: %r" % (alg, extra, env, got[2]))
        for opts, form in ((["--tag"], "tag"), (["-b"], "binary"), (["-z"], "zero")):
            got = run(opts + ["-a", alg, "--hmac-key-file", kp] + names[:9], cwd=d)
            check(got == (0, lines(alg, KEY, items[:9], form), b""),
                  "%s %r: %r" % (alg, opts, got))
        got = run(["--tag", "-z", "-a", alg, "--hmac-key-file", kp] + names[:9], cwd=d)
        check(got == (0, lines(alg, KEY, items[:9], "tag").replace(b"\n", b"\0"), b""),
              "%s --tag -z: %r" % (alg, got))
        # Standard input: a pipe, no FILE or '-', and a regular file as stdin.
        big = items[-2][1]
        got = run(["-a", alg, "--hmac-key-file", kp], input_bytes=big)
        check(got == (0, lines(alg, KEY, [("-", big)]), b""), "%s stdin pipe" % alg)
        with open(os.path.join(d, items[-2][0]), "rb") as f:
            got = run(["-a", alg, "--hmac-key-file", kp, "-", "s1", "-"], cwd=d, stdin=f)
        check(got == (0, lines(alg, KEY, [("-", big), ("s1", items[1][1]), ("-", b"")]), b""),
              "%s stdin file, '-' twice: %r" % (alg, got))
        # -s: the string's HMAC, shown in double quotes, before the files.
        got = run(["-a", alg, "--hmac-key-file", kp, "-s", "abc", "-s", "", "s1"], cwd=d)
        check(got == (0, lines(alg, KEY, [('"abc"', b"abc"), ('""', b""), ("s1", items[1][1])]),
                      b""), "%s -s: %r" % (alg, got))
        got = run(["-a", alg, "--tag", "--hmac-key-file", kp, "-s", "abc"], cwd=d)
        check(got[1] == lines(alg, KEY, [('"abc"', b"abc")], "tag"), "%s -s --tag" % alg)


def case_hmac_batch(d):
    rnd = random.Random(2028)
    sizes = [0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 4095, 4096, 4097,
             (256 << 10) - 1, 256 << 10, (256 << 10) + 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1]
    sizes += [rnd.randrange(0, 70000) for _ in range(150)]
    sizes += [rnd.randrange(0, 600) for _ in range(150)]
    items = []
    for i, n in enumerate(sizes):
        data = rnd.randbytes(n) if hasattr(rnd, "randbytes") else os.urandom(n)
        items.append((write(d, "m%03d" % i, data), data))
    items.append((items[5][0], items[5][1]))  # a repeat
    names = [n for n, _ in items]
    for alg in ("sha1", "sha256", "sha512"):
        for key in (b"k", KEY, bytes(range(200))):
            kp = key_file(d, key)
            want = lines(alg, key, items)
            for extra, env in (([], None), (["-j", "1"], None), (["-j", "3"], None),
                               (["-j", "1"], {"FASTSHA_NO_URING": "1"}),
                               (["-j", "3"], {"FASTSHA_NO_URING": "1"})):
                got = run(extra + ["-a", alg, "--hmac-key-file", kp] + names, cwd=d,
                          env=cli_test.env_for(env))
                check(got == (0, want, b""),
                      "batch %s %d-byte key %r %r: %r" % (alg, len(key), extra, env, got[2]))
            # Each file on its own and through standard input: the same tags.
            for name, data in items[:40:7] + items[17:23]:
                one = run(["-a", alg, "--hmac-key-file", kp, name], cwd=d)
                pipe = run(["-a", alg, "--hmac-key-file", kp], input_bytes=data)
                t = tag(alg, key, data).encode()
                check(one[1].split(b" ")[0] == t and pipe[1].split(b" ")[0] == t,
                      "%s %s alone or piped" % (alg, name))
            # The list checks, through the same batches.
            write(d, "list", want)
            for extra in ([], ["-j", "1"], ["-j", "3"]):
                got = run(extra + ["-a", alg, "--hmac-key-file", kp, "-c", "--quiet", "list"],
                          cwd=d)
                check(got == (0, b"", b""), "batch check %s %r: %r" % (alg, extra, got))


# ---- against GNU: the same output with HMACs in place of digests --------------

def mapping(p, d, key, extra=()):
    """Each plain digest of p's algorithm of a file under d (or of extra
    contents) -> the HMAC of that content, in both cases."""
    m = {}
    datas = list(extra)
    for root, _, files in os.walk(d):
        for f in files:
            path = os.path.join(root, f)
            if os.path.isfile(path) and os.access(path, os.R_OK):
                datas.append(open(path, "rb").read())
    for data in datas:
        h, t = p.h(data), tag(p.alg, key, data)
        m[h.encode()] = t.encode()
        m[h.upper().encode()] = t.upper().encode()
    return m


def model(blob, m, hexlen):
    """GNU's output (or a GNU list) as HMAC mode's: known digests swapped,
    the tags (SHA256 ..., and -w's wording) HMAC's."""
    blob = re.sub(rb"(?<![0-9A-Fa-f])[0-9A-Fa-f]{%d}(?![0-9A-Fa-f])" % hexlen,
                  lambda x: m.get(x.group(0), x.group(0)), blob)
    return blob.replace(b"SHA", b"HMAC-SHA")


def compare(p, kp, m, args, d, ours_args=None, stdin_bytes=None, ours_stdin=None, ours_cwd=None,
            label=""):
    """fastsha with the key against the model of GNU's tool: args for both,
    or ours_args; for --check, ours_cwd is a copy of d whose lists are HMAC
    lists, ours_stdin such a list."""
    ours = p.ours(["--hmac-key-file=" + kp] + (ours_args if ours_args is not None else args),
                  cwd=ours_cwd or d,
                  input_bytes=ours_stdin if ours_stdin is not None else stdin_bytes)
    rc, out, err = p.theirs(args, cwd=d, input_bytes=stdin_bytes)
    want = (rc, model(out, m, p.hexlen), model(err, m, p.hexlen))
    what = "%s: %s" % (p.tool, label or " ".join(repr(a) for a in args))
    check(ours[0] == want[0], "exit %d != model %d: %s" % (ours[0], want[0], what))
    check(ours[1] == want[1], "stdout: %s\n  fastsha: %r\n  model:   %r" % (what, ours[1], want[1]))
    check(ours[2] == want[2], "stderr: %s\n  fastsha: %r\n  model:   %r" % (what, ours[2], want[2]))
    no_leak(KEY, ours[1:], what)


def case_hmac_gnu(d, arg):
    p = cli_test.pair_of(arg)
    cli_test.make_tree(d, big=False)
    kdir = tempfile.mkdtemp(prefix="fastsha-hmac-key-")
    try:
        kp = key_file(kdir, KEY)
        m = mapping(p, d, KEY, [b"", b"abc"])
        files = ["--"] + NAMES + ["missing", "dir", "a"]
        for opts in HASH_OPTS:
            compare(p, kp, m, gnu_opts(opts) + files, d, ours_args=opts + files)
        compare(p, kp, m, [], d, stdin_bytes=b"abc", label="stdin")
        compare(p, kp, m, ["-", "a", "-"], d, stdin_bytes=b"abc", label="stdin twice")
        # --check of the compatibility cases' lists: GNU's run in d, ours in
        # a copy of d (same names) where each list is made an HMAC list.
        files, sums = cli_test.check_files(d, p)
        m = mapping(p, d, KEY, [b"", b"abc"])
        d2 = os.path.join(kdir, "tree")
        shutil.copytree(d, d2, symlinks=True)
        for f in files:
            with open(os.path.join(d, f), "rb") as src:
                write(d2, f, model(src.read(), m, p.hexlen))
        for opts in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"],
                     ["--ignore-missing", "--strict"], ["--status", "-w"], ["-j", "1"]):
            for f in files:
                compare(p, kp, m, ["-c"] + gnu_opts(opts) + [f], d, ours_cwd=d2,
                        ours_args=["-c"] + opts + [f])
        compare(p, kp, m, ["-c", "good.sum", "mismatch1.sum", "missing1.sum", "format2.sum"], d,
                ours_cwd=d2)
        for args in (["-c"], ["-c", "-"], ["-c", "--quiet", "-", "good.sum"]):
            compare(p, kp, m, args, d, stdin_bytes=sums["plain"], ours_cwd=d2,
                    ours_stdin=model(sums["plain"], m, p.hexlen),
                    label="%r, the list from stdin" % args)
    finally:
        shutil.rmtree(kdir, ignore_errors=True)


# ---- --check --------------------------------------------------------------------

def case_hmac_check(d):
    kp = key_file(d, KEY)
    other = key_file(d, KEY[:-1] + b"\x81", "other")
    write(d, "a", b"abc")
    write(d, "b", b"x" * 5000)
    write(d, "big", os.urandom(3 << 20))
    data = {n: open(os.path.join(d, n), "rb").read() for n in ("a", "b", "big")}
    for alg in ALGS:
        T = "HMAC-" + alg.upper()
        t = {n: tag(alg, KEY, x) for n, x in data.items()}
        base = ["-a", alg, "--hmac-key-file", kp]
        made = run(base + ["a", "b", "big"], cwd=d)[1]
        write(d, "plain.sum", made)
        write(d, "tagged.sum", run(base + ["--tag", "a", "b", "big"], cwd=d)[1])
        for lst in ("plain.sum", "tagged.sum"):
            got = run(base + ["-c", lst], cwd=d)
            check(got == (0, b"a: OK\nb: OK\nbig: OK\n", b""), "%s -c %s: %r" % (alg, lst, got))
            for opt in ("--quiet", "--status"):
                got = run(base + ["-c", opt, lst], cwd=d)
                check(got == (0, b"", b""), "%s -c %s %s: %r" % (alg, opt, lst, got))
        # Upper-case digits, OpenSSL's form, blanks around '='.
        write(d, "forms.sum", "%s  a\n%s(b)= %s\n%s (big)=%s\n" %
              (t["a"].upper(), T, t["b"], T, t["big"].upper()))
        got = run(base + ["-c", "forms.sum"], cwd=d)
        check(got == (0, b"a: OK\nb: OK\nbig: OK\n", b""), "%s forms: %r" % (alg, got))
        # One byte changed after the list was made: FAILED, exit 1.
        write(d, "b", b"x" * 4999 + b"y")
        got = run(base + ["-c", "plain.sum"], cwd=d)
        check(got == (1, b"a: OK\nb: FAILED\nbig: OK\n",
                      b"fastsha: WARNING: 1 computed checksum did NOT match\n"),
              "%s one byte changed: %r" % (alg, got))
        got = run(base + ["-c", "--status", "plain.sum"], cwd=d)
        check(got == (1, b"", b""), "%s --status on a mismatch: %r" % (alg, got))
        got = run(base + ["-c", "--quiet", "plain.sum"], cwd=d)
        check(got[:2] == (1, b"b: FAILED\n"), "%s --quiet on a mismatch: %r" % (alg, got))
        write(d, "b", data["b"])
        # Another key: every line fails.
        got = run(["-a", alg, "--hmac-key-file", other, "-c", "plain.sum"], cwd=d)
        check(got == (1, b"a: FAILED\nb: FAILED\nbig: FAILED\n",
                      b"fastsha: WARNING: 3 computed checksums did NOT match\n"),
              "%s another key: %r" % (alg, got))
        # Without a key the HMAC list is a list of wrong digests or bad lines.
        got = run(["-a", alg, "-c", "tagged.sum"], cwd=d)
        check(got[0] == 1 and b"no properly formatted checksum lines found" in got[2],
              "%s HMAC tags without a key: %r" % (alg, got))
        # A missing file; --ignore-missing.
        write(d, "missing.sum", made + ("%s  gone\n" % t["a"]).encode())
        got = run(base + ["-c", "missing.sum"], cwd=d)
        check(got == (1, b"a: OK\nb: OK\nbig: OK\ngone: FAILED open or read\n",
                      b"fastsha: gone: No such file or directory\n"
                      b"fastsha: WARNING: 1 listed file could not be read\n"),
              "%s missing: %r" % (alg, got))
        got = run(base + ["-c", "--ignore-missing", "missing.sum"], cwd=d)
        check(got == (0, b"a: OK\nb: OK\nbig: OK\n", b""), "%s --ignore-missing: %r" % (alg, got))
        # A plain tagged line is no HMAC line: improperly formatted, as GNU
        # treats another tool's tag; --strict makes it fail, -w names it.
        plain_tag = "%s (a) = %s\n" % (alg.upper(), hashlib.new(alg, b"abc").hexdigest())
        write(d, "plaintag.sum", made + plain_tag.encode())
        got = run(base + ["-c", "-w", "plaintag.sum"], cwd=d)
        check(got == (0, b"a: OK\nb: OK\nbig: OK\n",
                      b"fastsha: plaintag.sum: 4: improperly formatted %s checksum line\n"
                      b"fastsha: WARNING: 1 line is improperly formatted\n" % T.encode()),
              "%s plain tag in HMAC mode: %r" % (alg, got))
        got = run(base + ["-c", "--strict", "plaintag.sum"], cwd=d)
        check(got[0] == 1, "%s --strict with a plain tag: %r" % (alg, got))
        write(d, "onlyplain.sum", plain_tag)
        got = run(base + ["-c", "onlyplain.sum"], cwd=d)
        check(got == (1, b"", b"fastsha: onlyplain.sum: no properly formatted checksum lines "
                             b"found\n"), "%s only plain tags: %r" % (alg, got))
        # HMAC tags near misses.
        write(d, "near.sum", "%sX (a) = %s\nHMAC-%s (a) = %s\nHMAC %s (a) = %s\n%s (a) = %s0\n" %
              (T, t["a"], alg, t["a"], alg.upper(), t["a"], T, t["a"]))
        got = run(base + ["-c", "near.sum"], cwd=d)
        check(got[0] == 1 and b"no properly formatted" in got[2], "%s near misses: %r" % (alg, got))
        no_leak(KEY, got[1:], "check %s" % alg)
    # As fastsha, every algorithm's HMAC tags in one list, whatever -a says;
    # under sha256sum's name only HMAC-SHA256's.
    mixed = "".join("HMAC-%s (a) = %s\n" % (a.upper(), tag(a, KEY, b"abc")) for a in ALGS)
    write(d, "mixed.sum", mixed + "HMAC-SHA1DC (a) = %s\n" % tag("sha1", KEY, b"abc"))
    for extra in ([], ["-a", "sha512"]):
        got = run(extra + ["--hmac-key-file", kp, "-c", "mixed.sum"], cwd=d)
        check(got == (0, b"a: OK\n" * 5, b"fastsha: WARNING: 1 line is improperly formatted\n"),
              "fastsha %r -c mixed HMAC tags: %r" % (extra, got))
    tool = cli_test.link("sha256sum")
    got = run(["--hmac-key-file", kp, "-c", "mixed.sum"], cwd=d, exe=tool, argv0="sha256sum")
    check(got == (0, b"a: OK\n", b"sha256sum: WARNING: 5 lines are improperly formatted\n"),
          "sha256sum -c mixed HMAC tags: %r" % (got,))
    got = run(["--hmac-key-file", kp, "--tag", "a"], cwd=d, exe=tool, argv0="sha256sum")
    check(got == (0, ("HMAC-SHA256 (a) = %s\n" % tag("sha256", KEY, b"abc")).encode(), b""),
          "sha256sum --hmac-key-file --tag: %r" % (got,))
    # The list on standard input; a '-' line in a list file reads stdin.
    got = run(["--hmac-key-file", kp, "-c"], cwd=d, input_bytes=mixed.encode())
    check(got == (0, b"a: OK\n" * 5, b""), "-c from stdin: %r" % (got,))
    write(d, "dash.sum", "%s  -\n" % tag("sha1", KEY, b"piped"))
    got = run(["--hmac-key-file", kp, "-c", "dash.sum"], cwd=d, input_bytes=b"piped")
    check(got == (0, b"-: OK\n", b""), "-c with a '-' line: %r" % (got,))


# ---- OpenSSL's HMAC lines -------------------------------------------------------

# openssl dgst -ALG -hmac KEY (or -mac HMAC -macopt hexkey:HEX), OpenSSL 3:
# "HMAC-SHA2-256(NAME)= HEX"; SHA-1's tag is the command's own HMAC-SHA1.
OPENSSL_HMAC = {"sha1": "HMAC-SHA1", "sha224": "HMAC-SHA2-224", "sha256": "HMAC-SHA2-256",
                "sha384": "HMAC-SHA2-384", "sha512": "HMAC-SHA2-512"}
# The command has no SHA-512/t (no -a for them, plain or keyed): these are
# improperly formatted, as OpenSSL's plain "SHA2-512/224(NAME)= HEX" are.
OPENSSL_HMAC_NONE = {"sha512-224": "HMAC-SHA2-512/224", "sha512-256": "HMAC-SHA2-512/256"}


def openssl_dgst(d, alg, args, names):
    p = subprocess.run(["openssl", "dgst", "-" + alg] + args + names, cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check(p.returncode == 0, "openssl dgst -%s %r: %r" % (alg, args[:1], p.stderr))
    return p.stdout


def case_hmac_openssl(d):
    if not shutil.which("openssl"):
        print("SKIP: openssl not installed; this case checks its dgst -hmac output")
        sys.exit(SKIP)
    files = {"a b": b"abc", "p(1) x.txt": b"x" * 5000, "empty": b""}
    for n, x in files.items():
        write(d, n, x)
    names = list(files)
    ok = b"".join(b"%s: OK\n" % n.encode() for n in names)
    # The key with NUL and high bytes through hexkey; a text key (the
    # marker itself) through -hmac.
    keys = [(["-mac", "HMAC", "-macopt", "hexkey:" + KEY.hex()], KEY, key_file(d, KEY)),
            (["-hmac", MARK.decode()], MARK, key_file(d, MARK, "textkey"))]
    every = b""
    for alg, T in OPENSSL_HMAC.items():
        for args, key, kp in keys:
            out = openssl_dgst(d, alg, args, names)
            want = "".join("%s(%s)= %s\n" % (T, n, tag(alg, key, x)) for n, x in files.items())
            check(out == want.encode(), "openssl dgst -%s %s printed %r" % (alg, args[0], out))
            write(d, "o.sum", out)
            # As fastsha: checked as the tag says, whatever -a is.
            for extra in ([], ["-a", alg], ["-a", "sha512"]):
                got = run(extra + ["--hmac-key-file", kp, "-c", "-w", "o.sum"], cwd=d)
                check(got == (0, ok, b""), "%s %s %r -c: %r" % (T, args[0], extra, got))
                no_leak(key, got[1:], "%s -c" % T)
            if key is KEY:
                every += out
        kp = keys[0][2]
        write(d, "o.sum", openssl_dgst(d, alg, keys[0][0], names))
        # One byte changed: FAILED, exit 1, as for the command's own lines.
        write(d, "p(1) x.txt", b"x" * 4999 + b"y")
        got = run(["--hmac-key-file", kp, "-c", "o.sum"], cwd=d)
        check(got == (1, b"a b: OK\np(1) x.txt: FAILED\nempty: OK\n",
                      b"fastsha: WARNING: 1 computed checksum did NOT match\n"),
              "%s one byte changed: %r" % (T, got))
        no_leak(KEY, got[1:], "%s mismatch" % T)
        write(d, "p(1) x.txt", files["p(1) x.txt"])
        # Under a tool's name its own tag only (HMAC-SHA256, not
        # OpenSSL's HMAC-SHA2-256), as for OpenSSL's plain lines.
        tool = cli_test.link(alg + "sum")
        got = run(["--hmac-key-file", kp, "-c", "o.sum"], cwd=d, exe=tool, argv0=alg + "sum")
        if alg == "sha1":
            check(got == (0, ok, b""), "sha1sum -c %s: %r" % (T, got))
        else:
            check(got == (1, b"", b"%ssum: o.sum: no properly formatted checksum lines found\n"
                          % alg.encode()), "%ssum -c %s: %r" % (alg, T, got))
        # Without a key an HMAC line is no line (docs/check.md).
        got = run(["-c", "o.sum"], cwd=d)
        check(got == (1, b"", b"fastsha: o.sum: no properly formatted checksum lines found\n"),
              "%s without a key: %r" % (T, got))
        # OpenSSL's plain line: checked without a key, improperly
        # formatted with one (-w names -a's HMAC tag).
        write(d, "plain.sum", openssl_dgst(d, alg, [], names[:1]))
        check(run(["-c", "plain.sum"], cwd=d) == (0, b"a b: OK\n", b""),
              "%s: openssl's plain line without a key" % alg)
        got = run(["--hmac-key-file", kp, "-a", alg, "-c", "-w", "plain.sum"], cwd=d)
        check(got == (1, b"", b"fastsha: plain.sum: 1: improperly formatted HMAC-%s checksum line\n"
                      b"fastsha: plain.sum: no properly formatted checksum lines found\n"
                      % alg.upper().encode()), "%s: openssl's plain line with a key: %r" % (alg, got))
    # SHA-512/224 and /256: improperly formatted, keyed or plain, not taken
    # for HMAC-SHA2-512 lines; beside the others in one list.
    for alg, T in OPENSSL_HMAC_NONE.items():
        out = openssl_dgst(d, alg, keys[0][0], names)
        want = "".join("%s(%s)= %s\n" % (T, n, tag(alg.replace("-", "_"), KEY, x))
                       for n, x in files.items())
        check(out == want.encode(), "openssl dgst -%s printed %r" % (alg, out))
        every += out
        write(d, "t.sum", out)
        got = run(["--hmac-key-file", keys[0][2], "-c", "t.sum"], cwd=d)
        check(got == (1, b"", b"fastsha: t.sum: no properly formatted checksum lines found\n"),
              "%s: %r" % (T, got))
        write(d, "t.sum", openssl_dgst(d, alg, [], names))
        got = run(["-c", "t.sum"], cwd=d)
        check(got == (1, b"", b"fastsha: t.sum: no properly formatted checksum lines found\n"),
              "openssl's plain %s lines: %r" % (alg, got))
    write(d, "every.sum", every)
    got = run(["--hmac-key-file", keys[0][2], "-c", "every.sum"], cwd=d)
    check(got == (0, ok * len(OPENSSL_HMAC),
                  b"fastsha: WARNING: 6 lines are improperly formatted\n"),
          "every algorithm's openssl lines in one list: %r" % (got,))
    got = run(["--hmac-key-file", keys[0][2], "-c", "--quiet", "--strict", "every.sum"], cwd=d)
    check(got == (1, b"", b"fastsha: WARNING: 6 lines are improperly formatted\n"),
          "every.sum --strict: %r" % (got,))
    no_leak(KEY, got[1:], "every.sum")


# ---- the key file ---------------------------------------------------------------

def usage_error(msg):
    return (1, b"", b"fastsha: " + msg + b"\nTry 'fastsha --help' for more information.\n")


def scan_memory(pid, needles):
    """Which needles occur in the process's readable memory; None when its
    memory cannot be read here."""
    found = set()
    try:
        maps = open("/proc/%d/maps" % pid).read().splitlines()
        mem = open("/proc/%d/mem" % pid, "rb", buffering=0)
    except OSError:
        return None
    with mem:
        for ln in maps:
            f = ln.split()
            if "r" not in f[1] or (len(f) > 5 and f[5] in ("[vvar]", "[vsyscall]")):
                continue
            lo, hi = (int(x, 16) for x in f[0].split("-"))
            if hi - lo > (64 << 20):
                # A sanitizer's shadow: reading it would fault it all in.
                # The heap, stacks and data of this program are far smaller.
                continue
            try:
                mem.seek(lo)
                chunk = mem.read(hi - lo)
            except (OSError, ValueError, OverflowError):
                continue
            for n in needles:
                if n in chunk:
                    found.add(n)
    return found


def wait_consumed(fd, timeout=20):
    """Waits until the reader has taken everything written to the pipe."""
    import fcntl
    import struct
    import termios
    end = time.time() + timeout
    while time.time() < end:
        left = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        if left == 0:
            return True
        time.sleep(0.01)
    return False


def memory_case(d, args, what):
    """Runs fastsha ARGS reading a pipe on standard input; once it has read
    a first byte (so the key was loaded long before), its memory must hold
    neither the key nor its padded blocks (key XOR ipad/opad)."""
    ipad = bytes(b ^ 0x36 for b in KEY)
    opad = bytes(b ^ 0x5C for b in KEY)
    # Both copies of the marker: malloc's free lists overwrite the start of a
    # freed buffer, which would hide the first.
    rev = KEY.index(MARK[::-1])
    needles = [MARK, MARK[::-1], ipad[1:1 + len(MARK)], opad[1:1 + len(MARK)],
               ipad[rev:rev + len(MARK)], opad[rev:rev + len(MARK)], MARK.hex().encode()]
    p = subprocess.Popen(["fastsha"] + args, executable=cli_test.A.fastsha, cwd=d,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=cli_test.env_for())
    try:
        p.stdin.write(b"x")
        p.stdin.flush()
        if not wait_consumed(p.stdin.fileno()):
            check(False, "%s: the first byte was never read" % what)
            return
        time.sleep(0.1)
        found = scan_memory(p.pid, needles)
        if found is None:
            print("note: cannot read /proc/%d/mem here: the memory check did not run" % p.pid)
        else:
            check(not found, "%s: key material still in memory: %r" %
                  (what, [needles.index(n) for n in found]))
        out, err = p.communicate(b"yz", timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    check(p.returncode == 0, "%s: exit %r %r" % (what, p.returncode, err))
    no_leak(KEY, [out, err], what)


def case_hmac_key(d):
    os.chmod(d, 0o755)
    write(d, "a", b"abc")
    kp = key_file(d, KEY)
    ta = tag("sha1", KEY, b"abc")
    want = (0, ("%s  a\n" % ta).encode(), b"")
    # Keys of any bytes and length, NUL bytes included; the option's forms.
    for key in (b"\x00", b"k", bytes(64), bytes(range(65)), bytes(range(256)) * 3, KEY):
        p = key_file(d, key, "k")
        for form in (["--hmac-key-file", p], ["--hmac-key-file=" + p], ["--hmac=" + p]):
            got = run(form + ["a"], cwd=d)
            check(got == (0, ("%s  a\n" % tag("sha1", key, b"abc")).encode(), b""),
                  "%d-byte key, %r: %r" % (len(key), form[0], got))
    # A key through a pipe (bash's <(...)): read to its end, the buffer
    # grown past its first 4 KiB for the longer one.
    for key in (KEY, KEY * 200):
        r, w = os.pipe()
        os.write(w, key)
        os.close(w)
        p = subprocess.run(["fastsha", "--hmac-key-file=/dev/fd/%d" % r, "a"],
                           executable=cli_test.A.fastsha, cwd=d, pass_fds=(r,),
                           capture_output=True, env=cli_test.env_for(), stdin=subprocess.DEVNULL)
        os.close(r)
        check((p.returncode, p.stdout, p.stderr) ==
              (0, ("%s  a\n" % tag("sha1", key, b"abc")).encode(), b""),
              "%d-byte key from a pipe: %r" % (len(key), p))
    big = os.urandom(1 << 20)
    got = run(["-a", "sha512", "--hmac-key-file", key_file(d, big, "k"), "a"], cwd=d)
    check(got == (0, ("%s  a\n" % tag("sha512", big, b"abc")).encode(), b""), "1 MiB key")
    # /dev/stdin as the key, when standard input is not an input: allowed.
    got = run(["--hmac-key-file=/dev/stdin", "a"], cwd=d, input_bytes=KEY)
    check(got == want, "key from /dev/stdin: %r" % (got,))
    # ... and refused when it is one (the key would take the input's bytes).
    for args in (["--hmac-key-file=/dev/stdin"], ["--hmac-key-file=/dev/stdin", "a", "-"],
                 ["--hmac-key-file=/dev/stdin", "-c"]):
        got = run(args, cwd=d, input_bytes=KEY)
        check(got == (1, b"", b"fastsha: --hmac-key-file: /dev/stdin: the key file is standard "
                              b"input, which this run also reads; give the key in another "
                              b"file\n"), "%r with stdin read: %r" % (args, got))
    # ... and a checked list's "-" line is then not read: its bytes would be
    # the key's (a regular file on stdin) or nothing (a pipe), whatever the
    # line meant. The other lines are checked.
    write(d, "dashlist", "%s  -\n%s  a\n" % (tag("sha1", KEY, KEY), tag("sha1", KEY, b"abc")))
    for jobs in ("1", "2"):
        got = run(["-j", jobs, "--hmac-key-file=/dev/stdin", "-c", "dashlist"], cwd=d,
                  input_bytes=KEY)
        check(got == (1, b"-: FAILED open or read\na: OK\n",
                      b"fastsha: -: standard input holds the HMAC key; it is not read as an "
                      b"input\nfastsha: WARNING: 1 listed file could not be read\n"),
              "-j %s: a '-' line with the key from /dev/stdin: %r" % (jobs, got))
    # Errors name the file, never the key, exit 1.
    os.mkdir(os.path.join(d, "kdir"))
    write(d, "empty", b"")
    cases = [("missing", b"No such file or directory"), ("kdir", b"Is a directory"),
             ("empty", b"the file is empty (an HMAC key needs at least one byte)"),
             ("sp ace", b"No such file or directory")]
    for name, why in cases:
        got = run(["--hmac-key-file", name, "a"], cwd=d)
        shown = b"'sp ace'" if name == "sp ace" else name.encode()
        check(got == (1, b"", b"fastsha: --hmac-key-file: " + shown + b": " + why + b"\n"),
              "key file %s: %r" % (name, got))
        got = run(["--hmac-key-file", name, "-c", "a"], cwd=d)
        check(got[0] == 1 and got[1] == b"" and name.encode() in got[2], "-c, key %s" % name)
    got = run(["--hmac-key-file", "-", "a"], cwd=d, input_bytes=KEY)
    check(got == usage_error(b"--hmac-key-file: the key cannot be read from standard input "
                             b"('-'); name a file"), "'-': %r" % (got,))
    # Given twice: the last wins (as every option with an argument); the
    # first is never opened.
    got = run(["--hmac-key-file", "missing", "--hmac-key-file", kp, "a"], cwd=d)
    check(got == want, "twice, the last good: %r" % (got,))
    got = run(["--hmac-key-file", kp, "--hmac-key-file", "missing", "a"], cwd=d)
    check(got[0] == 1 and b"missing" in got[2], "twice, the last missing: %r" % (got,))
    # Unreadable: as nobody (the command copied where nobody may run it).
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    os.chmod(bindir, 0o755)
    exe = os.path.join(bindir, "fastsha")
    shutil.copy(cli_test.A.fastsha, exe)
    os.chmod(exe, 0o755)
    secret = key_file(d, KEY, "secret")
    os.chmod(secret, 0)
    drop = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else None
        if drop and cli_test.run(drop + [exe, "--version"], cwd=d)[0] != 0:
            drop = None
    if drop is None:
        print("note: running as root without a way to drop privileges: "
              "the unreadable key file was not tried")
    else:
        got = cli_test.run(drop + [exe, "--hmac-key-file", "secret", "a"], cwd=d, argv0=None)
        check(got == (1, b"", exe.encode() + b": --hmac-key-file: secret: Permission denied\n"),
              "unreadable key file: %r" % (got,))
    os.chmod(secret, 0o600)
    # Refused combinations.
    for args, msg in (
            (["-a", "sha1dc"], b"--hmac-key-file: there is no HMAC with sha1dc; use -a sha1 "
                               b"(SHA-1's collisions do not weaken HMAC-SHA1)"),
            (["--fsverity"], b"the --fsverity option cannot be used with --hmac-key-file"),
            (["--self-test"], b"the --self-test option cannot be used with --hmac-key-file"),
            (["--bench"], b"the --bench option cannot be used with --hmac-key-file"),
            (["--list-backends"], b"the --list-backends option cannot be used with "
                                  b"--hmac-key-file"),
            (["-a", "sha3-256"], b"--hmac-key-file: there is no HMAC with sha3-256 here; HMAC "
                                 b"is on sha1, sha224, sha256, sha384 and sha512"),
            # no one algorithm: -a sha2 without -l, checking (not checking,
            # GNU's own usage error comes first)
            (["-a", "sha2", "-c"], b"--hmac-key-file: -a sha2 needs -l to name one algorithm; "
                                   b"HMAC is on sha1, sha224, sha256, sha384 and sha512")):
        got = run(args + ["--hmac-key-file", kp, "a"], cwd=d)
        check(got == usage_error(msg), "%r: %r" % (args, got))
    # GNU's own checks come first, as without a key.
    got = run(["--hmac-key-file", kp, "-c", "--tag", "a"], cwd=d)
    check(got == usage_error(b"the --tag option is meaningless when verifying checksums"),
          "-c --tag: %r" % (got,))
    # As sha1dcsum (the reference's command, no options): refused, nothing hashed.
    dc = cli_test.link("sha1dcsum")
    got = run(["a", "--hmac-key-file=" + kp], cwd=d, exe=dc, argv0="sha1dcsum")
    check(got == (1, b"", b"sha1dcsum: --hmac-key-file: not an option of this command (the "
                          b"reference sha1dcsum has none); use fastsha --hmac-key-file=FILE "
                          b"-a sha1\n"), "sha1dcsum: %r" % (got,))
    # As cksum without -a (GNU's default, crc, is not here), checking or not.
    ck = cli_test.link("cksum")
    for args in (["a"], ["-c", "a"]):
        got = run(["--hmac-key-file", kp] + args, cwd=d, exe=ck, argv0="cksum")
        check(got == (1, b"", b"cksum: --hmac-key-file needs -a: HMAC is on sha1, sha224, "
                              b"sha256, sha384 and sha512\nTry 'cksum --help' for more "
                              b"information.\n"), "cksum %r without -a: %r" % (args, got))
    # As cksum with -a and a key, --check keeps cksum's rules: only -a's tag
    # (HMAC-SHA256 with -a sha256; an HMAC-SHA1 line is improperly
    # formatted, as a SHA1 line is without a key), and its OK and FAILED
    # lines escape a backslash or CR in a name (cksum 9.4 and later).
    write(d, "c\\d", b"x")
    write(d, "cr\rx", b"y")
    lines = ("HMAC-SHA1 (a) = %s\nHMAC-SHA256 (a) = %s\n\\HMAC-SHA256 (c\\\\d) = %s\n"
             "\\HMAC-SHA256 (cr\\rx) = %s\n"
             % (tag("sha1", KEY, b"abc"), tag("sha256", KEY, b"abc"), tag("sha256", KEY, b"x"),
                tag("sha256", KEY, b"y")))
    write(d, "cklist", lines.encode())
    got = run(["-a", "sha256", "--hmac-key-file", kp, "-c", "-w", "cklist"], cwd=d, exe=ck,
              argv0="cksum")
    check(got == (0, b"a: OK\n\\c\\\\d: OK\n\\cr\\rx: OK\n",
                  b"cksum: cklist: 1: improperly formatted HMAC-SHA256 checksum line\n"
                  b"cksum: WARNING: 1 line is improperly formatted\n"),
          "cksum -a sha256 with a key, -c: %r" % (got,))
    # Under a GNU tool's name the option is there too (as fastsha's others).
    for alg in ALGS:
        tool = cli_test.link(alg + "sum")
        got = run(["--hmac-key-file", kp, "a"], cwd=d, exe=tool, argv0=alg + "sum")
        check(got == (0, ("%s  a\n" % tag(alg, KEY, b"abc")).encode(), b""),
              "%ssum --hmac-key-file: %r" % (alg, got))
    # --help names the option and no key; --h is still --help (as GNU's
    # tools take it), --hm this option.
    got = run(["--help"], cwd=d)
    check(b"--hmac-key-file=FILE" in got[1], "--help lists --hmac-key-file")
    check(run(["--h"], cwd=d) == got and got[0] == 0, "--h is --help")
    check(run(["--hm", kp, "a"], cwd=d) == want, "--hm is --hmac-key-file")
    # A read error in the key file: its name and the reason, no output,
    # nothing hashed with the bytes read before it (faultshim's EIO after
    # 4 KiB of a 10 KB key).
    big = key_file(d, os.urandom(10000), "bigkey")
    env = cli_test.env_for({"FAULT_FILE": big, "FAULT_MODE": "eio", "FAULT_AFTER": "4096"},
                           shim=True)
    got = run(["--hmac-key-file", big, "a"], cwd=d, env=env)
    check(got == (1, b"", b"fastsha: --hmac-key-file: %s: Input/output error\n" % big.encode()),
          "key read error: %r" % (got,))
    # The key never leaks into any of this, failures included.
    write(d, "bad.sum", "%s  a\n%s  gone\nbad line\n" % ("0" * 40, ta))
    for args in (["a", "gone", "kdir"], ["-c", "-w", "bad.sum"], ["--tag", "-z", "a"],
                 ["--time", "a"], ["-s", "x", "a"]):
        got = run(["--hmac-key-file", kp] + args, cwd=d)
        no_leak(KEY, got[1:], "%r" % args)
    # And once prepared, the key's bytes are gone from the process's memory.
    memory_case(d, ["--hmac-key-file", kp, "-"], "hashing")
    memory_case(d, ["--hmac-key-file", kp, "-a", "sha512", "-", "a"], "sha512")
    write(d, "stdin.sum", "%s  -\n" % tag("sha1", KEY, b"xyz"))
    memory_case(d, ["--hmac-key-file", kp, "-c", "stdin.sum"], "checking, every algorithm")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastsha", required=True)
    ap.add_argument("--shim", default="")
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", default="")
    ap.add_argument("case")
    ap.add_argument("arg", nargs="?")
    a = ap.parse_args()
    a.fastsha = os.path.abspath(a.fastsha)
    cli_test.A = a
    return cli_test.run_case(globals()["case_" + a.case], a.arg, "fastsha-hmac")


if __name__ == "__main__":
    sys.exit(main())
