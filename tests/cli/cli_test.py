#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI tests for fastsha, one ctest per case (tests/cli/CMakeLists.txt).

  cli_test.py --fastsha BIN --shim SO --src DIR [--build DIR] CASE [ARG]

Compatibility cases run a GNU coreutils 9.1 tool and fastsha on the same
inputs and compare exit code, stdout and stderr byte for byte. ARG names
the pair: a GNU tool's name (sha1sum .. sha512sum) runs fastsha through a
symlink of that name, as that tool, against GNU's; "fastsha" runs it as
itself against sha1sum, with "sha1sum" replaced by "fastsha" in GNU's
stderr. Exit 77 = skipped (ctest SKIP_RETURN_CODE), always with the
reason printed.
"""
import argparse
import errno
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

SKIP = 77
ALGS = ["sha1", "sha224", "sha256", "sha384", "sha512"]  # GNU's tools
TOOLS = [a + "sum" for a in ALGS]
# -a's names: GNU's, then sha1dc (SHA-1 with collision detection), which has
# no GNU tool; its sha1dcsum is the reference SHA1DC command (case_sha1dcsum).
ALL_ALGS = ALGS + ["sha1dc"]
# Then the Keccak family (tests/cli/cksum_test.py): no GNU tool of its own.
KECCAK_ALGS = ["sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128", "shake256",
               "keccak256", "k12"]
A = None  # parsed arguments
FAILS = []
LINKDIR = None  # symlinks to the binary under the GNU tools' names


def hexof(alg, data):
    # sha1dc is SHA-1 for any input that is no collision attack.
    return hashlib.new("sha1" if alg == "sha1dc" else alg, data).hexdigest()


ABC = hexof("sha1", b"abc")


def env_for(extra=None, shim=False):
    env = dict(os.environ)
    env["LC_ALL"] = "C.UTF-8"
    env.pop("FASTSHA_BACKEND", None)
    env.pop("FASTSHA_NO_URING", None)
    if shim:
        env["LD_PRELOAD"] = A.shim
        # The shim wraps read(); io_uring's reads would pass it by. Faults
        # are therefore injected on the plain path (case_batch_ring covers
        # the ring against it).
        env["FASTSHA_NO_URING"] = "1"
        # The shim is preloaded ahead of the ASan runtime in sanitizer builds.
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    if extra:
        env.update(extra)
    return env


def run(cmd, cwd=None, stdin=None, env=None, input_bytes=None, stdout=subprocess.PIPE, argv0=None,
        closed_stdout=False, preexec_fn=None):
    """Runs cmd; argv0 replaces cmd[0] as the name the program sees;
    closed_stdout: fd 1 closed in the child (a shell's >&-); preexec_fn:
    run in the child first (a limit set, a signal ignored)."""
    if stdin is None and input_bytes is None:
        stdin = subprocess.DEVNULL  # CI may run with no standard input at all
    if argv0 is None and cmd and os.fsdecode(cmd[0]) == A.fastsha:
        argv0 = "fastsha"  # its messages start with argv[0]: run it under its own name
    exe = None
    if argv0 is not None:
        exe, cmd = cmd[0], [argv0] + list(cmd[1:])
    pre = preexec_fn
    if closed_stdout:
        stdout, pre = subprocess.DEVNULL, (lambda: os.close(1))
    p = subprocess.run(cmd, executable=exe, cwd=cwd, stdin=stdin, input=input_bytes,
                       stdout=stdout, stderr=subprocess.PIPE, env=env or env_for(), timeout=300,
                       preexec_fn=pre)
    return p.returncode, p.stdout if p.stdout is not None else b"", p.stderr


def fs(args, **kw):
    """fastsha as itself: its messages say "fastsha"."""
    return run([A.fastsha] + list(args), argv0="fastsha", **kw)


def link(name):
    """A symlink to the binary called name, in a directory of its own."""
    path = os.path.join(LINKDIR, name)
    if not os.path.lexists(path):
        os.symlink(os.path.abspath(A.fastsha), path)
    return path


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def need(tool):
    if not shutil.which(tool):
        print("SKIP: GNU %s not installed; the compatibility cases compare with it" % tool)
        sys.exit(SKIP)


def need_sha1sum():
    need("sha1sum")


def as_fastsha(err, tool):
    """GNU tool's stderr with its name, where it names itself, as fastsha."""
    t = re.escape(tool.encode())
    err = re.sub(rb"(?m)^%s: " % t, b"fastsha: ", err)
    return re.sub(rb"^Try '%s --help'" % t, b"Try 'fastsha --help'", err, flags=re.M)


class Pair:
    """fastsha and the GNU tool it is compared with.

    tool "sha256sum": fastsha run through a link of that name (GNU mode)
    against GNU sha256sum; "fastsha": fastsha as itself, with extra options
    (e.g. -a sha256), against the GNU tool of its algorithm, whose name in
    stderr becomes "fastsha"."""

    def __init__(self, tool, extra=()):
        self.tool = tool
        self.extra = list(extra)
        if tool == "fastsha":
            self.alg = extra[1] if extra else "sha1"
            self.gnu = self.alg + "sum"
            self.exe, self.argv0 = A.fastsha, "fastsha"
        else:
            self.alg = tool[:-3]
            self.gnu = tool
            self.exe, self.argv0 = link(tool), tool
        self.tag = self.alg.upper()
        self.hexlen = len(hexof(self.alg, b""))
        need(self.gnu)

    def ours(self, args, **kw):
        return run([self.exe] + self.extra + list(args), argv0=self.argv0, **kw)

    def theirs(self, args, **kw):
        rc, out, err = run([self.gnu] + list(args), **kw)
        if self.tool == "fastsha":
            err = as_fastsha(err, self.gnu)
        return rc, out, err

    def h(self, data):
        return hexof(self.alg, data)


PAIR = None  # the pair of the case being run


def pair_of(arg):
    global PAIR
    PAIR = Pair(arg or "fastsha")
    return PAIR


def compare(args, cwd, stdin_bytes=None, stdin_path=None, stdin_offset=0, label=None, pair=None,
            ours_args=None):
    """Runs fastsha and GNU's tool with the same args and input; compares all."""
    p = pair or PAIR
    outs = []
    for side, a in ((p.ours, ours_args if ours_args is not None else args), (p.theirs, args)):
        fh = None
        if stdin_path is not None:
            fh = open(stdin_path, "rb")
            fh.seek(stdin_offset)
        try:
            outs.append(side(a, cwd=cwd, stdin=fh,
                             input_bytes=stdin_bytes if fh is None else None))
        finally:
            if fh:
                fh.close()
    (rc1, out1, err1), (rc2, out2, err2) = outs
    what = "%s%s: %s" % (p.tool, " " + " ".join(p.extra) if p.extra else "",
                         label or " ".join(repr(a) for a in args))
    check(rc1 == rc2, "exit %d != GNU %d: %s" % (rc1, rc2, what))
    check(out1 == out2, "stdout differs: %s\n  fastsha: %r\n  GNU:     %r" % (what, out1, out2))
    check(err1 == err2, "stderr differs: %s\n  fastsha: %r\n  GNU:     %r" % (what, err1, err2))


NAMES = ["a", "b\\c", "n\nl", "c\rr", "sp ace", "it's", "x\ny\rz\\w", "\u00e9t\u00e9",
         "*star", " lead", "-dash", "trail\\"]


def make_tree(d, big=True):
    """NAMES and a directory; big: "it's" past the 4 MiB mmap threshold."""
    contents = {"a": b"abc", "b\\c": b"", "n\nl": b"x" * 64, "c\rr": b"y" * 65,
                "sp ace": os.urandom((1 << 20) if big else 200000),
                "it's": os.urandom((5 << 20) if big else 300000),
                "x\ny\rz\\w": b"q", "\u00e9t\u00e9": b"\xc3\xa9",
                "*star": b"s", " lead": b"l", "-dash": b"d", "trail\\": b"t"}
    for name, data in contents.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    os.mkdir(os.path.join(d, "dir"))
    return contents


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    return name


# ---- compatibility with GNU's tools -----------------------------------------

HASH_OPTS = ([], ["-b"], ["-t"], ["--tag"], ["-z"], ["--tag", "-z"], ["-b", "-z"],
             ["-t", "--tag"], ["--binary"], ["--text"], ["--zero"], ["-b", "-t"],
             ["-j", "1"], ["--mmap"], ["-j", "3", "--mmap", "--tag"], ["--mmap", "--no-mmap"])


def gnu_opts(opts):
    """The options without fastsha's own (-j N, --mmap, --no-mmap)."""
    out = [o for o in opts if o not in ("--no-mmap", "--mmap")]
    if "-j" in out:
        i = out.index("-j")
        del out[i:i + 2]
    return out


def case_compat_hash(d, arg=None):
    p = pair_of(arg)
    make_tree(d)
    files = ["--"] + NAMES + ["missing", "dir", "a"]
    pairs = [p]
    if p.tool == "fastsha":
        # -a: fastsha -a sha256 prints what sha256sum prints.
        pairs += [Pair("fastsha", ["-a", a]) for a in ALGS[1:]]
    for q in pairs:
        for opts in HASH_OPTS if q is p else HASH_OPTS[:6]:
            compare(gnu_opts(opts) + files, d, pair=q, ours_args=opts + files,
                    label="hash %r" % opts)
    # Standard input: none, "-", twice, a pipe, a regular file at an offset.
    data = os.urandom(300000)
    compare([], d, stdin_bytes=data, label="stdin pipe")
    compare(["-"], d, stdin_bytes=data, label="- pipe")
    compare(["-", "a", "-"], d, stdin_bytes=data, label="- a - pipe")
    compare(["--tag", "-"], d, stdin_bytes=b"", label="--tag empty stdin")
    compare([], d, stdin_path=os.path.join(d, "it's"), label="stdin file")
    compare(["-"], d, stdin_path=os.path.join(d, "it's"), stdin_offset=12345,
            label="stdin file at offset 12345")
    compare(["-", "-"], d, stdin_path=os.path.join(d, "sp ace"), label="stdin file twice")
    # Standard input's pipe by other names too: GNU reads it whole for the
    # first, the others find its end. Workers (or one io_uring group, at
    # -j 1 as well) reading it side by side split it at random.
    pipe = os.urandom(4 << 20)
    for args in (["/dev/stdin", "-", "/dev/fd/0"], ["/dev/stdin", "a", "/proc/self/fd/0"],
                 ["-", "/dev/stdin"]):
        compare(args, d, stdin_bytes=pipe, label="pipe as %r" % args)
    # Names past the room of the line written whole (1,024 bytes): the
    # line is then written in pieces, the same bytes.
    deep = os.path.join(*["d" * 250] * 6)
    os.makedirs(os.path.join(d, deep))
    for name in (os.path.join(deep, "f"), os.path.join(deep, "x" * 200)):
        write(d, name, "x")
        compare([name, "a"], d, label="a %d-byte name" % len(name))


def check_files(d, p):
    """Checksum lists for p's algorithm: every line form, every outcome."""
    sums = {}
    for opt in ([], ["-b"], ["--tag"]):
        rc, out, _ = run([p.gnu] + opt + ["--"] + NAMES, cwd=d)
        sums[" ".join(opt) or "plain"] = out
    T, n = p.tag, p.hexlen
    hx = lambda name: p.h(open(os.path.join(d, name), "rb").read())
    ha = hx("a")
    files = [write(d, "good.sum", sums["plain"]), write(d, "binary.sum", sums["-b"]),
             write(d, "tagged.sum", sums["--tag"]),
             write(d, "crlf.sum", sums["plain"].replace(b"\n", b"\r\n"))]
    files.append(write(d, "mixed.sum",
                       "# a comment\n\n"
                       "%s(a)= %s\r\n"                        # OpenSSL form, CRLF
                       "%s (a) = %s\n"                        # --tag form, upper case
                       "%s (a)=%s\n"
                       "%s (a)  =  %s\n"
                       "%s *a\n"                              # binary marker
                       "%s\ta\n"                              # tab: the reversed form
                       "not a checksum line\n"
                       "%s  a\n" % (T, ha, T, ha.upper(), T, ha, T, ha, ha, ha, ha[:-1])))
    files += [
        write(d, "mismatch1.sum", "%s  a\n%s  sp ace\n" % ("0" * n, hx("sp ace"))),
        write(d, "mismatch2.sum", "%s  a\n%s  sp ace\n%s  -dash\n" % ("0" * n, "1" * n, ha)),
        write(d, "missing1.sum", "%s  a\n%s  gone\n" % (ha, ha)),
        write(d, "missing2.sum", "%s  gone\n%s  gone2\n%s  dir\n" % (ha, ha, ha)),
        write(d, "allmissing.sum", "%s  gone\n" % ha),
        # An escaped name that cannot be read: its FAILED line escaped too.
        write(d, "missingesc.sum", "\\%s  gone\\nl\n\\%s  gone\\\\x\n%s  a\n" % (ha, ha, ha)),
        write(d, "format1.sum", "%s  a\nbad\n" % ha),
        write(d, "format2.sum", "%s  a\nbad\nworse\n\\%s  a\\q\n" % (ha, ha)),
        write(d, "none.sum", "nothing here\n"),
        write(d, "empty.sum", ""),
        write(d, "reversed.sum", "%s a\n%s  a\n" % (ha, ha)),
        write(d, "standard.sum", "%s  a\n%s a\n" % (ha, ha)),
        write(d, "escaped.sum", "\\%s  b\\\\c\n\\%s (n\\nl) = %s\n\\%s  x\\ny\\rz\\\\w\n"
              "\\%s  bad\\x\n%s  n\\nl\n" % (hx("b\\c"), T, hx("n\nl"), hx("x\ny\rz\\w"), ha, ha)),
        write(d, "short.sum", "%s \n%s  \n%s ()= %s\n%s (a) = %s0\n" % (ha, ha, T, ha, T, ha)),
    ]
    if p.tool != "fastsha":
        # Other algorithms' lines: digests of another length, other tags.
        # GNU's sha256sum takes none of them; run as sha256sum, nor do we.
        others = [a for a in ALGS if a != p.alg]
        lines = ["%s  a" % hexof(a, b"abc") for a in others]
        lines += ["%s (a) = %s" % (a.upper(), hexof(a, b"abc")) for a in others]
        files.append(write(d, "foreign.sum", "\n".join(lines + ["%s  a" % ha]) + "\n"))
        files.append(write(d, "foreignonly.sum", "\n".join(lines) + "\n"))
    return files, sums


def case_compat_check(d, arg=None):
    p = pair_of(arg)
    make_tree(d, big=False)
    files, sums = check_files(d, p)
    ha = p.h(b"abc")
    for opts in ([], ["--quiet"], ["--status"], ["-w"], ["--warn"], ["--strict"],
                 ["--ignore-missing"], ["--ignore-missing", "--strict"], ["--status", "-w"],
                 ["-w", "--status"], ["--quiet", "--warn"]):
        for f in files:
            compare(["-c"] + opts + [f], d)
    compare(["--check", "good.sum", "mismatch1.sum", "missing1.sum", "format2.sum"], d)
    compare(["-c", "reversed.sum", "standard.sum"], d)  # the reversed-form choice holds across files
    compare(["-c", "standard.sum", "reversed.sum"], d)
    compare(["-c", "nonexistent.sum", "good.sum"], d)
    compare(["-c", "dir"], d)
    compare(["-c", "--ignore-missing", "allmissing.sum", "missing2.sum"], d)
    write(d, "dash.sum", "%s  -\n%s  a\n" % (ha, ha))
    compare(["-c", "dash.sum"], d, stdin_bytes=b"abc", label="-c with a '-' line")
    compare(["-c"], d, stdin_bytes=sums["plain"], label="-c from stdin")
    compare(["-c", "-"], d, stdin_bytes=sums["plain"], label="-c - from stdin")
    compare(["-c"], d, stdin_bytes=("%s  -\n" % ha).encode(), label="'-' in stdin list")
    compare(["-c", "--status"], d, stdin_bytes=b"", label="-c empty stdin")
    # OpenSSL 3's names for the tool's own algorithm ("SHA2-256(a)= HEX",
    # openssl dgst -sha256) and the others' are not the tool's tag: GNU's
    # tool calls them improperly formatted (as fastsha, docs/check.md, they
    # are checked: cksum_test covers that).
    if p.tool != "fastsha":
        lines = ["%s(a)= %s\n" % (p.tag, ha)]
        for alg in ("sha224", "sha256", "sha384", "sha512"):
            lines.append("SHA2-%s(a)= %s\n" % (alg[3:], hexof(alg, b"abc")))
        lines.append("SHA3-256(a)= %s\n" % hashlib.sha3_256(b"abc").hexdigest())
        lines.append("SHAKE-128(a)= %s\n" % hashlib.shake_128(b"abc").hexdigest(16))
        write(d, "openssl.sum", "".join(lines))
        for opts in ([], ["-w"], ["--strict"]):
            compare(["-c"] + opts + ["openssl.sum"], d, label="-c %s of OpenSSL's names" % opts)
    # Standard input as a terminal, named twice: each "-" reads to an end of
    # file (^D at a line's start), and GNU clears the stream's end-of-file
    # flag between them (glibc's is sticky), so the second reads on.
    import pty
    outs = []
    for side in (p.ours, p.theirs):
        master, slave = pty.openpty()
        os.write(master, ("%s  a\n" % ha).encode() + b"\x04" + ("%s  b\\c\n" % ha).encode() + b"\x04")
        with os.fdopen(slave, "rb", buffering=0) as tty:
            outs.append(side(["-c", "-", "-"], cwd=d, stdin=tty))
        os.close(master)
    check(outs[0] == outs[1], "-c - - from a terminal: %r, GNU %r" % tuple(outs))
    pipe = os.urandom(4 << 20)
    write(d, "pipes.sum", "%s  /dev/stdin\n%s  /dev/fd/0\n%s  a\n%s  -\n"
          % (p.h(pipe), p.h(b""), ha, p.h(b"")))
    compare(["-c", "pipes.sum"], d, stdin_bytes=pipe, label="-c: the stdin pipe by several names")
    if p.tool == "fastsha":
        # -a sha256 -c reads untagged lines as SHA-256, as sha256sum does.
        for a in ("sha256", "sha512"):
            q = Pair("fastsha", ["-a", a])
            qfiles, _ = check_files(d, q)
            for f in qfiles:
                compare(["-c", f], d, pair=q)
                compare(["-c", "-w", f], d, pair=q)


def case_compat_fuzz(d, arg=None):
    """Random checksum lists from line fragments (fixed seed), checked by
    both programs: the line parser must agree with GNU's on every one."""
    p = pair_of(arg)
    import random
    rnd = random.Random(20261121)
    write(d, "a", "abc")
    write(d, "e", "")
    os.mkdir(os.path.join(d, "d"))
    h, e, T = p.h(b"abc"), p.h(b""), p.tag
    atoms = [h, h.upper(), e, h[:-1], h + "0", T, T + " ", T + "(", "(", ")", " ", "  ",
             "\t", "*", "\\", "\\\\", "\\n", "\\r", "\\x", "a", "e", "d", "-", "=", " = ", "= ",
             ")= ", ") = ", "#", "\r", "x", "MD5 (", T.lower() + " ("]
    if p.tool == "fastsha":
        atoms += ["SHA256 ("]  # a tag with a digest of the wrong length
    else:
        # Other algorithms' tags and digests: never taken under a tool's name.
        other = [a for a in ALGS if a != p.alg]
        atoms += [a.upper() + " (" for a in other] + [hexof(a, b"abc") for a in other[:2]]
    # FASTSHA_TEST_CLI_SAMPLE=N (the sanitizer preset's 3): one list in N,
    # where fuzz_check fuzzes the same parser under ASan as well.
    n = 300 if p.tool in ("fastsha", "sha256sum") else 150
    for _ in range(n // max(1, int(os.environ.get("FASTSHA_TEST_CLI_SAMPLE", "1")))):
        lines = ["".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 7)))
                 for _ in range(rnd.randint(1, 5))]
        data = ("\n".join(lines) + rnd.choice(["", "\n", "\r\n"])).encode()
        opts = rnd.choice([[], ["--strict"], ["-w"], ["--quiet"], ["--status"], ["--ignore-missing"]])
        if rnd.random() < 0.2:
            compare(["-c"] + opts, d, stdin_bytes=data, label="fuzz stdin %r %r" % (opts, data))
        else:
            write(d, "list", data)
            compare(["-c"] + opts + ["list"], d, label="fuzz %r %r" % (opts, data))


def case_compat_usage(d, arg=None):
    pair_of(arg)
    write(d, "a", "abc")
    for args in (["--tag", "-t", "a"], ["-c", "-z", "a"], ["-c", "--tag", "a"], ["-c", "-b", "a"],
                 ["-c", "-t", "a"], ["--status", "a"], ["--quiet", "a"], ["-w", "a"],
                 ["--warn", "a"], ["--strict", "a"], ["--ignore-missing", "a"], ["-x", "a"],
                 ["--bogus", "a"], ["--sta", "a"], ["--tag", "--status", "a"],
                 ["--", "--status"], ["-t", "--tag", "a"], ["a", "--tag"]):
        compare(args, d)
    # Every abbreviation that GNU's tool takes as one of its options does
    # the same here, where fastsha's longer list would make some ambiguous
    # (--b: --binary, --base64, --bench...; --str: --strict, --string).
    # --help and --version are left out: their texts are fastsha's.
    if PAIR.tool == "fastsha":
        return
    write(d, "list", "%s  a\n" % PAIR.h(b"abc"))
    gnu = ("binary", "check", "ignore-missing", "quiet", "status", "text", "warn", "strict",
           "tag", "zero")
    for opt in gnu:
        for n in range(1, len(opt) + 1):
            if sum(o.startswith(opt[:n]) for o in gnu + ("help", "version")) != 1:
                continue
            if opt in ("ignore-missing", "quiet", "status", "strict", "warn"):
                compare(["-c", "--" + opt[:n], "list", "a"], d)
            else:
                compare(["--" + opt[:n], "a"], d)


def case_compat_quote(d, arg=None):
    p = pair_of(arg)
    names = ["it's", "a:b", "h\u00e9", "~x", "x~", "a=b", "#a", "a#", "{", "a{", "a,b", "a%b",
             "@a", "a]", "a!", "t\tt", "n\nn", "e\x7f", "a'b c", "a$b", "a'b$c", 'a"b',
             "a\"b'c", "a\\b", "a'b\nc", "*", "?", "a b", "a&b", "'", "", "[", "a^b", "a`b",
             "a|b", "a;b", "a<b", "a(b", "\x01", "a\x1b", "'\t", "a'b:c", "a'#", "a'{", "{}",
             "}", "x?", "plain-name_1.txt", "dir/with space/f", "\x01\x02", "\t'"]
    for n in names:
        compare(["--", n], d)
    # Random names from shell-special, control, UTF-8 and invalid bytes.
    # Left out: names with both a single quote and a byte that needs $'..':
    # there gnulib's output in 9.1 has quirks (a stray leading '' or a
    # missing $') that fastsha does not copy (docs/check.md).
    import random
    rnd = random.Random(5)
    chars = [b"a", b"Z", b"0", b" ", b"'", b'"', b"\\", b"\n", b"\r", b"\t", b"\x01", b"\x7f",
             b"$", b"`", b"!", b"#", b"~", b"{", b"}", b":", b"=", b"*", b"?", b"[", b"]", b"^",
             b"|", b"&", b";", b"<", b">", b"(", b")", b"%", b"+", b",", b"-", b".", b"@", b"_",
             "\u00e9".encode(), "\u20ac".encode(), b"\xff", b"\xc3", b"\xe2\x82"]

    def needs_dollar(n):
        try:
            return any(ord(c) < 32 or ord(c) == 127 for c in n.decode())
        except UnicodeDecodeError:
            return True
    names = []
    while len(names) < 300:
        n = b"".join(rnd.choice(chars) for _ in range(rnd.randint(1, 6)))
        if not (b"'" in n and needs_dollar(n)):
            names += [n, b"nope/" + n]
    for i in range(0, len(names), 50):
        batch = [b"--"] + names[i:i + 50]
        outs = [p.ours(batch, cwd=d), p.theirs(batch, cwd=d)]
        check(outs[0][2] == outs[1][2],
              "quote fuzz batch %d: %r vs GNU %r" % (i, outs[0][2], outs[1][2]))
    # UTF-8's limits: overlong forms, surrogates, past U+10FFFF, and the
    # last valid sequence before each.
    raw = [b"x\xffy", b"\xc3", b"\xe2\x82", b"ok\xe2\x82\xac", b"\xc1\xbf", b"\xc2\x80",
           b"\xe0\x9f\xbf", b"\xe0\xa0\x80", b"\xed\x9f\xbf", b"\xed\xa0\x80",
           b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
           b"\xf5\x80\x80\x80",
           # valid but not printable (iswprint): escaped as invalid bytes
           b"\xc2\x85", b"a\xc2\x9fb", b"\xe2\x80\xa8", b"\xcd\xb8", b"\xef\xbf\xbe",
           b"\xe2\x80\x8b", b"\xee\x80\x80", b"\xc2\xa0"]
    for n in raw:
        outs = [p.ours(["--", n], cwd=d), p.theirs(["--", n], cwd=d)]
        check(outs[0][2] == outs[1][2],
              "quote %r: %r vs GNU %r" % (n, outs[0][2], outs[1][2]))


# ---- many small files: the workers' batches through the lanes -----------------

def make_many(d):
    """Small files of every tail shape, around the batch limit, repeats, and
    inputs that fail; returns the argument list (with '-' in it)."""
    import random
    rnd = random.Random(77)
    sizes = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 4095, 4096, 4097,
             (256 << 10) - 1, 256 << 10, (256 << 10) + 1, (1 << 20) - 1, 1 << 20]
    sizes += [rnd.randrange(0, 70000) for _ in range(60)]
    names = []
    for i, n in enumerate(sizes):
        names.append(write(d, "m%03d" % i, os.urandom(n)))
    os.mkdir(os.path.join(d, "adir"))
    os.symlink("nowhere", os.path.join(d, "dangling"))
    args = []
    for i, n in enumerate(names):
        args.append(n)
        if i % 9 == 4:
            args += ["missing%d" % i, "adir"]
        if i % 13 == 6:
            args.append(names[i // 2])  # a repeat
    args[10:10] = ["-", "dangling", "/dev/null"]
    return args


def case_batch_hash(d, arg=None):
    """Many small files through the batches: output, messages and exit
    status byte for byte as GNU's, whatever -j."""
    p = pair_of(arg)
    args = make_many(d)
    stdin = os.urandom(5000)
    for jobs in ([], ["-j", "1"], ["-j", "3"]):
        for opts in ([], ["--tag"]):
            compare(opts + args, d, stdin_bytes=stdin, ours_args=jobs + opts + args,
                    label="batch %r %r" % (jobs, opts))
    # Only small files, and all of them failing.
    small = [a for a in args
             if re.fullmatch(r"m\d{3}", a) and os.path.getsize(os.path.join(d, a)) < 70000]
    compare(small, d, ours_args=["-j", "2"] + small, label="batch: small files only")
    compare(["missing", "adir", "dangling"], d, label="batch: nothing readable")


def case_batch_check(d, arg=None):
    """--check over a list of many small files: the same batching, GNU's
    results and messages."""
    p = pair_of(arg)
    args = [a for a in make_many(d) if a != "-"]
    rc, out, _ = run([p.gnu] + [a for a in args if re.fullmatch(r"m\d{3}", a)], cwd=d)
    lines = out.splitlines(keepends=True)
    z = "0" * p.hexlen
    extra = [("%s  missing\n" % z).encode(), ("%s  adir\n" % z).encode(),
             ("%s  dangling\n" % z).encode(), ("%s  m003\n" % z).encode(), b"garbage\n"]
    mixed = []
    for i, l in enumerate(lines):
        mixed.append(l)
        if i % 7 == 3:
            mixed.append(extra[i % len(extra)])
    write(d, "all.sum", b"".join(lines))
    write(d, "mixed.sum", b"".join(mixed))
    for jobs in ([], ["-j", "1"], ["-j", "3"]):
        for opts in ([], ["--quiet"], ["-w"], ["--ignore-missing"]):
            for f in ("all.sum", "mixed.sum"):
                compare(["-c"] + opts + [f], d, ours_args=jobs + ["-c"] + opts + [f],
                        label="batch check %r %r %s" % (jobs, opts, f))
    compare(["-c"], d, stdin_bytes=b"".join(mixed), label="batch check from stdin")
    # A list of several of the command's 1,024-line batches (cli_check.c),
    # whose workers and rings are kept from one batch to the next
    # (cli_jobs.c), then a second list after it in the same run.
    write(d, "long.sum", b"".join(mixed) * (2600 // len(mixed) + 1))
    for jobs in ([], ["-j", "1"], ["-j", "3"]):
        for opts in ([], ["--quiet"]):
            compare(["-c"] + opts + ["long.sum", "mixed.sum"], d,
                    ours_args=jobs + ["-c"] + opts + ["long.sum", "mixed.sum"],
                    label="batch check, long list %r %r" % (jobs, opts))


def has_io_uring():
    """Whether this kernel lets us set up an io_uring (the x86-64 and
    AArch64 number is 425)."""
    import ctypes
    if os.uname().machine not in ("x86_64", "aarch64"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    params = ctypes.create_string_buffer(120)
    fd = libc.syscall(ctypes.c_long(425), ctypes.c_uint(4), params)
    if fd < 0:
        return False
    os.close(fd)
    return True


def case_batch_ring(d):
    """Small files through io_uring (four io_uring_enter() per group of
    files) against the plain system calls (FASTSHA_NO_URING=1): the same
    bytes out, the same messages, whatever -j; FIFOs and pipes by name,
    which a ring's pread() must leave untouched (ESPIPE) for the streaming
    path; and the ring really used where the kernel has one."""
    need_sha1sum()
    if not has_io_uring():
        print("SKIP: this kernel has no usable io_uring (or forbids it); "
              "the plain path is what runs, and the other cases test it")
        sys.exit(SKIP)
    args = make_many(d)
    stdin = os.urandom(5000)
    plain = env_for({"FASTSHA_NO_URING": "1"})
    for jobs in (["-j", "1"], ["-j", "3"], []):
        for opts in ([], ["-c", "sums"]):
            if opts:
                rc, out, _ = run([A.fastsha] + [a for a in args if re.fullmatch(r"m\d{3}", a)],
                                 cwd=d)
                write(d, "sums", out + b"0" * 40 + b"  missing\n")
                argv = jobs + opts
            else:
                argv = jobs + args
            want = run([A.fastsha] + argv, cwd=d, input_bytes=stdin, env=plain)
            got = run([A.fastsha] + argv, cwd=d, input_bytes=stdin)
            check(got == want, "ring vs plain %r: %r != %r" % (argv[:4], got[:1], want[:1]))
    # The ring is used: one io_uring_enter() per step of a group, not four
    # system calls per file.
    if shutil.which("strace"):
        rc, _, err = run(["strace", "-f", "-c", "-e", "trace=io_uring_enter,openat",
                          A.fastsha, "-j", "1"] + ["m%03d" % i for i in range(64)], cwd=d)
        lines = err.decode(errors="replace").splitlines()
        if rc != 0 or not any(l.split()[-1:] == ["total"] for l in lines):
            # e.g. ptrace forbidden in a container: nothing was counted.
            print("SKIP (one check): strace could not trace here: %r" % lines[:1])
        else:
            calls = {l.split()[-1]: int(l.split()[3]) for l in lines
                     if l.split()[-1:] in (["io_uring_enter"], ["openat"])}
            check(0 < calls.get("io_uring_enter", 0) < 64 and calls.get("openat", 0) < 10,
                  "ring not used: %r" % calls)
    else:
        print("SKIP (one check): strace not installed, the ring's use is not counted")
    # The ring breaking at each step of a group (io_uring_enter() runs, then
    # fails, so its results are never seen; "should never happen"): the
    # worker drops the ring, and every input of the group, whatever its
    # state (not opened, read, end byte read, closed), is hashed the plain
    # way from what is known; the later groups too. Empty, small, one past
    # the ring's 256 KiB slot, and a missing one, in the first group of 32.
    names = ["r%02d" % i for i in range(40)]
    for i, name in enumerate(names):
        if name != "r05":
            write(d, name, os.urandom((300 << 10) if i == 3 else i * 97 % 5000))
    for step in range(1, 5):
        env = env_for({"LD_PRELOAD": A.shim, "FAULT_MODE": "ringfail", "FAULT_RING": str(step)})
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
        want = run([A.fastsha, "-j", "1"] + names, cwd=d, env=plain)
        got = run([A.fastsha, "-j", "1"] + names, cwd=d, env=env)
        check(want[0] == 1 and got == want, "ring failing at step %d: %r != %r" % (step, got, want))
    # A FIFO and a pipe by name, written in pieces while being read.
    import threading
    import time
    data = os.urandom(150000)
    want_line = ("%s  fifo\n" % hexof("sha1", data)).encode()
    other = write(d, "other", "abc")
    for env in (plain, env_for()):
        fifo = os.path.join(d, "fifo")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)

        def writer():
            with open(fifo, "wb", buffering=0) as f:
                for off in range(0, len(data), 40000):
                    f.write(data[off:off + 40000])
                    time.sleep(0.01)
        t = threading.Thread(target=writer)
        t.start()
        rc, out, err = run([A.fastsha, "-j", "1", other, "fifo", other], cwd=d, env=env)
        t.join()
        check((rc, out, err) == (0, gnu_line(d, other) + want_line + gnu_line(d, other), b""),
              "fifo (ring %s): %r" % ("FASTSHA_NO_URING" not in env, (rc, out, err)))
        r, w = os.pipe()
        p = subprocess.Popen([A.fastsha, "-j", "1", "/dev/fd/%d" % r, other], cwd=d,
                             pass_fds=(r,), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env)
        os.close(r)
        for off in range(0, len(data), 40000):
            os.write(w, data[off:off + 40000])
            time.sleep(0.01)
        os.close(w)
        out, err = p.communicate(timeout=60)
        want = ("%s  /dev/fd/%d\n" % (hexof("sha1", data), r)).encode() + gnu_line(d, other)
        check((p.returncode, out, err) == (0, want, b""),
              "pipe by name (ring %s): %r" % ("FASTSHA_NO_URING" not in env,
                                               (p.returncode, out, err)))


def case_err_batch(d):
    """Faults on small (batched) files: short reads, EINTR, EIO, and files
    that grow (past the batch buffer too) or shrink between fstat and read."""
    need_sha1sum()
    write(d, "other", "abc")
    for size in (5000, 200000):
        data = os.urandom(size)
        for mode in ("short", "eintr", "eio", "grow", "grow2", "shrink"):
            write(d, "victim", data)
            extra = {"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": mode}
            if mode == "eio":
                extra["FAULT_AFTER"] = str(size // 3)
            if mode.startswith("grow"):
                extra["FAULT_MODE"] = "grow"
                extra["FAULT_AFTER"] = "3000" if mode == "grow" else str(3 << 20)
            for jobs in ("1", "2"):
                if mode.startswith("grow") or mode == "shrink":
                    write(d, "victim", data)
                env = env_for(extra, shim=True)
                rc, out, err = run([A.fastsha, "-j", jobs, "other", "victim", "other"], cwd=d,
                                   env=env)
                if mode == "eio":
                    check((rc, out, err) == (1, gnu_line(d, "other") * 2,
                                             b"fastsha: victim: Input/output error\n"),
                          "eio on a %d-byte file -j %s: %r" % (size, jobs, (rc, out, err)))
                    continue
                # What read() delivered is what is hashed: the file as it is now.
                want = gnu_line(d, "other") + gnu_line(d, "victim") + gnu_line(d, "other")
                check((rc, out, err) == (0, want, b""),
                      "%s on a %d-byte file -j %s: %r" % (mode, size, jobs, (rc, out, err)))


# ---- --fsverity ------------------------------------------------------------------

def case_fsverity(d):
    """--fsverity against `fsverity digest` (Debian's fsverity 1.5): every
    size around the tree's block and level boundaries, SHA-512, several
    files, a file big enough to be cut in regions, errors."""
    fsv = shutil.which("fsverity") or ("/usr/bin/fsverity" if os.path.exists("/usr/bin/fsverity")
                                       else None)
    if not fsv:
        print("SKIP: fsverity (Debian package fsverity) is not installed; --fsverity is "
              "compared with its `fsverity digest`")
        sys.exit(SKIP)
    sizes = [0, 1, 4095, 4096, 4097, 64 * 4096, 64 * 4096 + 1, 128 * 4096, 128 * 4096 + 1,
             129 * 4096, 128 * 128 * 4096, 128 * 128 * 4096 + 1, 5000000, (70 << 20) + 12345]
    names = []
    for n in sizes:
        names.append(write(d, "f%d" % n, os.urandom(n)))

    def same(args, ours_extra, label, want_rc=None):
        theirs = run([fsv, "digest"] + args, cwd=d)
        ours = fs(ours_extra + ["--fsverity"] + args, cwd=d)
        check(ours[0] == theirs[0] and ours[1] == theirs[1] and
              (want_rc is None or ours[0] == want_rc),
              "%s: fastsha %r vs fsverity %r" % (label, ours[:2], theirs[:2]))
        return ours

    for jobs in ([], ["-j", "1"], ["-j", "3"]):
        for alg in ("sha256", "sha512"):
            opt = ["--hash-alg=" + alg] if alg == "sha512" else []
            theirs = run([fsv, "digest"] + opt + names, cwd=d)
            ours = fs(jobs + ["-a", alg, "--fsverity"] + names, cwd=d)
            check(ours == theirs and ours[0] == 0,
                  "%s %r all sizes: %r vs %r" % (alg, jobs, ours, theirs))
    for n in names:
        same([n], [], "one file " + n, 0)
    # The big file alone: cut in regions when a core is spare.
    big = names[-1]
    for jobs in ("1", "2"):
        same([big], ["-j", jobs], "big file -j " + jobs, 0)
    # Names as given, unescaped; repeats.
    odd = write(d, "n\nl \\x", b"abc")
    same([odd, "f1", odd], [], "odd name", 0)
    # The first failure ends the run, status 1, as fsverity's.
    os.mkdir(os.path.join(d, "dir"))
    for bad in ("missing", "dir"):
        ours = same(["f1", bad, "f4096"], ["-j", "2"], "failure " + bad, 1)
        check(ours[2].startswith(b"fastsha: %s: " % bad.encode()), "message %r" % ours[2])
    # -j 1 reads one input at a time, as fsverity digest: nothing after the
    # first failure is opened. Here a FIFO with no writer follows it, whose
    # open() would block for ever (79a1003's -j 1 runs of 32 opened it).
    os.mkfifo(os.path.join(d, "fifo"))
    try:
        p = subprocess.run(["fastsha", "-j", "1", "--fsverity", "missing", "fifo"],
                           executable=A.fastsha, cwd=d, env=env_for(), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        check(p.returncode == 1 and p.stdout == b"" and
              p.stderr == b"fastsha: missing: No such file or directory\n",
              "-j 1 failure before a FIFO: %r" % ((p.returncode, p.stdout, p.stderr),))
    except subprocess.TimeoutExpired:
        check(False, "-j 1 failure before a FIFO: the FIFO after it was opened (hung)")
    # -j 2 as well: the second worker fails on 'missing' while the first
    # still hashes 5 MB, and takes the FIFO next; inputs are opened in
    # order, so it waits for its turn, which never comes (before, it
    # opened the FIFO and the run hung at the join, every time).
    try:
        p = subprocess.run(["fastsha", "-j", "2", "--fsverity", "f5000000", "missing", "fifo"],
                           executable=A.fastsha, cwd=d, env=env_for(), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        check(p.returncode == 1 and p.stdout.endswith(b" f5000000\n") and
              p.stdout.count(b"\n") == 1 and
              p.stderr == b"fastsha: missing: No such file or directory\n",
              "-j 2 failure before a FIFO: %r" % ((p.returncode, p.stdout, p.stderr),))
    except subprocess.TimeoutExpired:
        check(False, "-j 2 failure before a FIFO: the FIFO after it was opened (hung)")
    # A read that fails (a directory) ends the run too, and nothing after
    # it but regular files may have been opened: a FIFO waits for every
    # input before it. Standard input, written only once the other worker
    # has failed on 'dir' and come to the FIFO, keeps the first input busy
    # (before, that worker opened the FIFO holding the run's lock: not even
    # the first line came out, and the run hung).
    data = bytes(range(256)) * 64
    p = subprocess.Popen(["fastsha", "-j", "2", "--fsverity", "-", "dir", "fifo"],
                         executable=A.fastsha, cwd=d, env=env_for(), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    try:
        out, err = p.communicate(data, timeout=30)
        theirs = run([fsv, "digest", write(d, "stdin-data", data)], cwd=d)[1]
        check((p.returncode, out, err) ==
              (1, theirs.replace(b" stdin-data\n", b" -\n"), b"fastsha: dir: Is a directory\n"),
              "-j 2 read failure before a FIFO: %r" % ((p.returncode, out, err),))
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check(False, "-j 2 read failure before a FIFO: the FIFO after it was opened (hung)")
    # Standard input (fsverity reads none): '-' and no FILE.
    with open(os.path.join(d, "f5000000"), "rb") as fh:
        rc, out, err = fs(["--fsverity", "-"], stdin=fh)
    theirs = run([fsv, "digest", "f5000000"], cwd=d)[1]
    check((rc, out) == (0, theirs.replace(b" f5000000\n", b" -\n")), "stdin: %r" % out)
    rc, out, err = fs(["--fsverity"], input_bytes=b"abc")
    theirs = run([fsv, "digest", odd], cwd=d)[1]
    check((rc, out) == (0, theirs.split(b" ")[0] + b" -\n"), "no FILE: %r" % out)
    # The other algorithms, and options with no meaning here, are refused.
    for args in (["-a", "sha1"], ["-a", "sha384"], ["-c"], ["--tag"], ["-z"], ["-b"], ["-s", "x"]):
        rc, out, err = fs(args + ["--fsverity", "f1"], cwd=d)
        check(rc == 1 and out == b"" and b"fsverity" in err and b"Try 'fastsha --help'" in err,
              "--fsverity %r: %r" % (args, (rc, out, err)))
    # Run as sha512sum, the tool's algorithm; as sha1sum, refused.
    rc, out, err = run([link("sha512sum"), "--fsverity", "f1"], cwd=d, argv0="sha512sum")
    theirs = run([fsv, "digest", "--hash-alg=sha512", "f1"], cwd=d)[1]
    check((rc, out) == (0, theirs), "sha512sum --fsverity: %r" % ((rc, out, err),))
    rc, out, err = run([link("sha1sum"), "--fsverity", "f1"], cwd=d, argv0="sha1sum")
    check(rc == 1 and out == b"", "sha1sum --fsverity: %r" % ((rc, out, err),))


# ---- errors --------------------------------------------------------------------

def case_err_permission(d):
    if os.geteuid() != 0:
        # Not root: chmod 000 works directly.
        pass
    os.chmod(d, 0o755)
    write(d, "secret", "hidden")
    write(d, "open", "abc")
    os.chmod(os.path.join(d, "secret"), 0)
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    os.chmod(bindir, 0o755)
    exe = os.path.join(bindir, "fastsha")
    shutil.copy(A.fastsha, exe)
    os.chmod(exe, 0o755)
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if not setpriv:
            print("SKIP: running as root and setpriv is missing, so no permission error can be made")
            sys.exit(SKIP)
        drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        probe = run(drop + [exe, "--version"], cwd=d)
        if probe[0] != 0:
            print("SKIP: cannot run as nobody here (%r); no permission error can be made" % probe[2])
            sys.exit(SKIP)
    else:
        drop = []
    # setpriv runs exe by its path: the messages start with that path, as GNU's do.
    rc, out, err = run(drop + [exe, "secret", "open"], cwd=d)
    check(rc == 1, "permission: exit %d" % rc)
    check(out == ("%s  open\n" % ABC).encode(), "permission: stdout %r" % out)
    check(err == b"%s: secret: Permission denied\n" % exe.encode(), "permission: stderr %r" % err)
    if shutil.which("sha1sum"):
        gnu = run(drop + ["sha1sum", "secret", "open"], cwd=d)
        check((gnu[0], gnu[1], gnu[2].replace(b"sha1sum", exe.encode())) == (rc, out, err),
              "permission: GNU says %r" % (gnu,))
    # In --check too.
    write(d, "list", "%s  secret\n%s  open\n" % (ABC, ABC))
    rc, out, err = run(drop + [exe, "-c", "list"], cwd=d)
    check(rc == 1 and out == b"secret: FAILED open or read\nopen: OK\n" and
          err == b"%s: secret: Permission denied\n"
                 b"%s: WARNING: 1 listed file could not be read\n" % (exe.encode(), exe.encode()),
          "permission in --check: %r" % ((rc, out, err),))


def case_err_write(d):
    write(d, "a", "abc")
    write(d, "b", "b")
    with open("/dev/full", "wb") as full:
        rc, out, err = run([A.fastsha, "a", "missing", "b"], cwd=d, stdout=full)
    check(rc == 1, "/dev/full: exit %d" % rc)
    check(err == b"fastsha: missing: No such file or directory\n"
                 b"fastsha: write error: No space left on device\n", "/dev/full: stderr %r" % err)
    with open("/dev/full", "wb") as full:
        rc, out, err = run([A.fastsha, "-c", "-"], cwd=d, stdout=full,
                           input_bytes=("%s  a\n" % ABC).encode())
    check(rc == 1 and err == b"fastsha: write error: No space left on device\n",
          "/dev/full in --check: %r" % ((rc, err),))
    # Every output is checked: help, version and the reports included.
    for args in (["--self-test"], ["--help"], ["--version"], ["--list-backends"], ["-s", "x"],
                 ["-a", "sha512", "--tag", "a"]):
        with open("/dev/full", "wb") as full:
            rc, out, err = run([A.fastsha] + args, cwd=d, stdout=full)
        check(rc == 1 and err.endswith(b"fastsha: write error: No space left on device\n"),
              "/dev/full %r: %r" % (args, (rc, err)))
    # A failed write on stderr makes the status 1, as GNU's close_stdout.
    with open("/dev/full", "wb") as full:
        p = subprocess.run(["fastsha", "missing"], executable=A.fastsha, cwd=d, env=env_for(),
                           stdout=subprocess.DEVNULL, stderr=full)
    check(p.returncode == 1, "stderr on /dev/full: exit %d" % p.returncode)
    # Also when that write is the run's only trouble: -w's warning about a
    # list that passes otherwise (GNU's sha1sum 9.1 exits 1 there too).
    write(d, "junk.sum", "%s  a\njunk\n" % ABC)
    args = ["fastsha", "-c", "-w", "junk.sum"]
    p = subprocess.run(args, executable=A.fastsha, cwd=d, env=env_for(), capture_output=True)
    check((p.returncode, p.stdout) == (0, b"a: OK\n") and b"improperly formatted" in p.stderr,
          "-c -w: %r" % p)
    with open("/dev/full", "wb") as full:
        p = subprocess.run(args, executable=A.fastsha, cwd=d, env=env_for(),
                           stdout=subprocess.PIPE, stderr=full)
    check((p.returncode, p.stdout) == (1, b"a: OK\n"), "-c -w, stderr on /dev/full: %r" % p)
    # Under a GNU tool's name, byte for byte what GNU 9.1 says ("write error",
    # no reason, on a full device) and returns, for the help and version
    # texts too. Its stdout is line-buffered: -z's records wait in the
    # buffer until exit, unless a message flushed them, and then the failed
    # fclose() gives the reason.
    write(d, "list", "%s  a\n" % ABC)
    with open("/dev/full", "wb") as full:
        rc, out, err = run([link("sha256sum"), "-z", "a"], argv0="sha256sum", cwd=d, stdout=full)
    check((rc, err) == (1, b"sha256sum: write error: No space left on device\n"),
          "sha256sum -z a > /dev/full: %r" % ((rc, err),))
    # --raw's digest has no newline either (fastsha's option, under the
    # tool's name too): it waits in that buffer as -z's records do.
    with open("/dev/full", "wb") as full:
        rc, out, err = run([link("sha256sum"), "--raw", "a"], argv0="sha256sum", cwd=d, stdout=full)
    check((rc, err) == (1, b"sha256sum: write error: No space left on device\n"),
          "sha256sum --raw a > /dev/full: %r" % ((rc, err),))
    for tool in TOOLS:
        if not shutil.which(tool):
            continue
        q = Pair(tool)
        for args in (["--help"], ["--version"], ["a"], ["a", "missing", "b"], ["--tag", "a"],
                     ["-z", "a"], ["-z", "a", "missing"], ["-z", "missing", "a"],
                     ["--tag", "-z", "a", "b"], ["-z", "--help"]):
            with open("/dev/full", "wb") as full:
                ours = q.ours(args, cwd=d, stdout=full)
            with open("/dev/full", "wb") as full:
                gnu = q.theirs(args, cwd=d, stdout=full)
            check(ours == gnu, "%s /dev/full %r: %r, GNU %r" % (tool, args, ours, gnu))
        with open("/dev/full", "wb") as full:
            ours = q.ours(["-c", "list"], cwd=d, stdout=full)
        with open("/dev/full", "wb") as full:
            gnu = q.theirs(["-c", "list"], cwd=d, stdout=full)
        check(ours[0] == gnu[0] == 1 and ours[2] == gnu[2],
              "%s -c /dev/full: %r, GNU %r" % (tool, ours, gnu))
        # Standard output closed (>&-): GNU names the reason, EBADF, there;
        # past one stdio buffer of output too, and with no output at all.
        for args in (["--version"], ["a"], ["a"] * 400, ["-c", "list"], ["--status", "-c", "list"]):
            ours = q.ours(args, cwd=d, closed_stdout=True)
            gnu = q.theirs(args, cwd=d, closed_stdout=True)
            check(ours == gnu, "%s >&- %r: %r, GNU %r" % (tool, args[:3], ours, gnu))


def gnu_line(d, name, opts=()):
    return subprocess.run(["sha1sum"] + list(opts) + ["--", name], cwd=d, capture_output=True,
                          check=True).stdout


def case_err_fault(d):
    """EIO in the middle of a file, EINTR and short reads, via the shim."""
    need_sha1sum()
    big = os.urandom(300000)
    write(d, "victim", big)
    write(d, "other", "abc")
    write(d, "huge", os.urandom(6 << 20))
    for jobs in ("1", "2"):
        for extra in ([], ["--mmap"]):
            env = env_for({"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": "eio",
                           "FAULT_AFTER": "131072"}, shim=True)
            rc, out, err = run([A.fastsha, "-j", jobs] + extra + ["other", "victim", "other"],
                               cwd=d, env=env)
            check(rc == 1, "eio: exit %d" % rc)
            check(out == gnu_line(d, "other") * 2, "eio: stdout %r" % out)
            check(err == b"fastsha: victim: Input/output error\n", "eio: stderr %r" % err)
            # --check: the file counts as unreadable, the others still checked.
            lst = "%s  victim\n%s  other\n" % (hashlib_sha1(big), ABC)
            rc, out, err = run([A.fastsha, "-j", jobs, "-c", "-"], cwd=d, env=env,
                               input_bytes=lst.encode())
            check(rc == 1 and out == b"victim: FAILED open or read\nother: OK\n" and
                  err == b"fastsha: victim: Input/output error\n"
                         b"fastsha: WARNING: 1 listed file could not be read\n",
                  "eio --check: %r" % ((rc, out, err),))
    for mode in ("eintr", "short"):
        for target in ("victim", "huge"):
            env = env_for({"FAULT_FILE": os.path.join(d, target), "FAULT_MODE": mode}, shim=True)
            # -j 1 leaves a core spare: the read-ahead thread does the reads.
            for extra in ([], ["--mmap"], ["--buffer-size", "4096"], ["-j", "1"],
                          ["-j", "1", "--buffer-size", "4096"], ["-j", "1", "--no-read-ahead"]):
                rc, out, err = run([A.fastsha] + extra + [target, "other"], cwd=d, env=env)
                check(rc == 0 and out == gnu_line(d, target) + gnu_line(d, "other") and err == b"",
                      "%s %s %r: %r" % (mode, target, extra, (rc, out, err)))
            # A pipe on stdin, read in short pieces by the kernel anyway.
    with open(os.path.join(d, "victim"), "rb") as fh:
        env = env_for({"FAULT_FILE": os.path.join(d, "victim"), "FAULT_MODE": "short"}, shim=True)
        rc, out, err = run([A.fastsha], cwd=d, env=env, stdin=fh)
    check(rc == 0 and out == ("%s  -\n" % hashlib_sha1(big)).encode(), "short stdin: %r" % out)


def case_err_truncate(d):
    """A mapped file cut short while hashing: one message, no digest, no crash.
    24 MiB goes through the prefetch thread, 6 MiB through one mapping."""
    write(d, "other", "abc")
    for size, jobs in ((24 << 20, "1"), (6 << 20, "2")):
        write(d, "shrinks", os.urandom(size))
        env = env_for({"FAULT_FILE": os.path.join(d, "shrinks"), "FAULT_MODE": "truncate"},
                      shim=True)
        # Under ASan, SIGBUS must reach the tool's own handler.
        env["ASAN_OPTIONS"] += ":handle_sigbus=0:allow_user_segv_handler=1"
        rc, out, err = run([A.fastsha, "-j", jobs, "--mmap", "other", "shrinks", "other"], cwd=d,
                           env=env)
        check(rc == 1, "truncate %d: exit %d" % (size, rc))
        check(out == ("%s  other\n" % ABC).encode() * 2, "truncate %d: stdout %r" % (size, out))
        check(err == b"fastsha: shrinks: file shrank while being read (SIGBUS on the mapping)\n",
              "truncate %d: stderr %r" % (size, err))


def case_err_misc(d):
    """Missing, directory and their order among good files, -j 1 vs -j 4."""
    write(d, "a", "abc")
    os.mkdir(os.path.join(d, "dir"))
    for j in ("1", "4"):
        rc, out, err = fs(["-j", j, "missing", "a", "dir", "a"], cwd=d)
        check(rc == 1 and out == ("%s  a\n" % ABC).encode() * 2 and
              err == b"fastsha: missing: No such file or directory\nfastsha: dir: Is a directory\n",
              "missing/dir -j %s: %r" % (j, (rc, out, err)))


    # Standard input a non-blocking pipe (a parent's O_NONBLOCK), filled in
    # pieces: fastsha waits for data (poll) where GNU's tools fail with
    # EAGAIN; the digest is of every byte, through the read-ahead thread
    # and without it.
    import fcntl
    import time
    for extra in ([], ["--no-read-ahead"]):
        r, w = os.pipe()
        fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
        p = subprocess.Popen(["fastsha"] + extra, executable=A.fastsha, stdin=r,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env_for())
        os.close(r)
        data = b""
        try:
            for _ in range(4):
                time.sleep(0.02)
                chunk = os.urandom(40000)
                os.write(w, chunk)
                data += chunk
        except BrokenPipeError:  # it gave up early: the check below says so
            pass
        os.close(w)
        out, err = p.communicate(timeout=60)
        check((p.returncode, out, err) == (0, ("%s  -\n" % hashlib_sha1(data)).encode(), b""),
              "non-blocking stdin %r: %r" % (extra, (p.returncode, out, err)))

    # Closed stdin: "-" fails with EBADF and no input opened meanwhile by
    # another worker can take its place as fd 0.
    for _ in range(3):
        p = subprocess.run(["fastsha", "-j", "2", "-", "a", "-", "a"], executable=A.fastsha,
                           cwd=d, env=env_for(), capture_output=True,
                           preexec_fn=lambda: os.closerange(0, 1))
        check(p.returncode == 1 and p.stdout == ("%s  a\n" % ABC).encode() * 2 and
              p.stderr == b"fastsha: -: Bad file descriptor\n" * 2,
              "closed stdin: %r" % ((p.returncode, p.stdout, p.stderr),))


# ---- faults beyond read(): pread, allocation, threads, output, open -------------
# (faultshim's FAULT_ALLOC, FAULT_THREAD, FAULT_FCLOSE and pread modes; stdio's
# own system calls, which no preload sees, failed by real conditions.)

def sanitized():
    """Whether this is a sanitizer build: its allocator is the executable's
    own, so faultshim's FAULT_ALLOC never sees an allocation there."""
    try:
        return re.search(r"^FASTSHA_SANITIZE:STRING=\S", cmake_cache(), re.M) is not None
    except OSError:
        return False


def cmake_cache():
    """The build's CMakeCache.txt: --cache, the top build directory's, which
    is not --build when this project was added to another (FetchContent,
    add_subdirectory)."""
    with open(A.cache or os.path.join(A.build, "CMakeCache.txt")) as f:
        return f.read()


def faulted(extra, args, d, log=True, **kw):
    """fastsha as itself under the shim with extra; returns (rc, out, err,
    the faults the shim noted)."""
    path = os.path.join(d, "fault.log")
    if os.path.exists(path):
        os.unlink(path)
    env = env_for(dict(extra, FAULT_LOG=path) if log else extra, shim=True)
    rc, out, err = fs(args, cwd=d, env=env, **kw)
    notes = open(path).read() if os.path.exists(path) else ""
    return rc, out, err, notes


def verity_hex(data):
    """The fs-verity digest (SHA-256, 4096-byte blocks, no salt), computed
    here from its definition (cli_verity.c's header), not by the tool."""
    def level(b):
        return b"".join(hashlib.sha256(b[i:i + 4096].ljust(4096, b"\0")).digest()
                        for i in range(0, len(b), 4096))
    root = level(data) if data else b"\0" * 32
    while len(root) > 32:
        root = level(root)
    desc = bytes([1, 1, 12, 0]) + bytes(4) + len(data).to_bytes(8, "little") + \
        root.ljust(64, b"\0") + bytes(32 + 144)
    return hashlib.sha256(desc).hexdigest()


def case_err_pread(d):
    """--fsverity's pread() regions (a file of 64 MiB or more, a core
    spare): EIO in either region, short reads, EINTR, a region that finds
    the end early (the one-stream fallback from the start, which must hash
    the whole file), a file that shrinks, and a region's buffer, thread or
    hash array missing (the same fallback)."""
    big = os.urandom((70 << 20) + 12345)
    write(d, "big", big)
    write(d, "a", "abc")
    good = ("sha256:%s big\n" % verity_hex(big)).encode()
    a_line = ("sha256:%s a\n" % verity_hex(b"abc")).encode()
    split = (os.cpu_count() or 1) >= 2  # -j 1 leaves a core for a second region
    if not split:
        print("note: one CPU: no region is read by a thread of its own; the fallback checks "
              "are left out")
    target = {"FAULT_FILE": os.path.join(d, "big")}
    # EIO in region 0 (20 MiB) and in the last region (50 MiB): one message,
    # no digest, the run stops there as fsverity's does.
    for at in (20 << 20, 50 << 20):
        rc, out, err, _ = faulted(dict(target, FAULT_MODE="eio", FAULT_AFTER=str(at)),
                                  ["-j", "1", "--fsverity", "a", "big", "a"], d, log=False)
        check((rc, out, err) == (1, a_line, b"fastsha: big: Input/output error\n"),
              "pread eio at %d: %r" % (at, (rc, out, err)))
    for mode in ("short", "eintr"):
        rc, out, err, _ = faulted(dict(target, FAULT_MODE=mode), ["-j", "1", "--fsverity", "big"],
                                  d, log=False)
        check((rc, out, err) == (0, good, b""), "pread %s: %r" % (mode, (rc, out, err)))
    if split:
        # The end found early in region 0: hashed again from the start by read().
        rc, out, err, _ = faulted(dict(target, FAULT_MODE="preadeof", FAULT_AFTER=str(20 << 20)),
                                  ["-j", "1", "--fsverity", "big"], d, log=False)
        check((rc, out, err) == (0, good, b""), "pread early end: %r" % ((rc, out, err),))
        # Cut to half at the first pread() (and again at the fallback's
        # first read()): the digest of what the file is once read.
        rc, out, err, _ = faulted(dict(target, FAULT_MODE="shrink"),
                                  ["-j", "1", "--fsverity", "big"], d, log=False)
        with open(os.path.join(d, "big"), "rb") as f:
            now = f.read()
        check(len(now) < len(big) // 2 and
              (rc, out, err) == (0, ("sha256:%s big\n" % verity_hex(now)).encode(), b""),
              "pread shrink: %r" % ((rc, out, err),))
        write(d, "big", big)
        # The second region's thread, window (the first posix_memalign() of
        # a megabyte or more is the worker's batch buffer), hash array.
        faults = [({"FAULT_THREAD": "1"}, "thread pthread_create 1\n")]
        if not sanitized():
            faults += [({"FAULT_ALLOC": "posix_memalign", "FAULT_ALLOC_SIZE": str(1 << 20),
                         "FAULT_ALLOC_NTH": "2"}, "alloc posix_memalign "),
                       ({"FAULT_ALLOC": "realloc", "FAULT_ALLOC_SIZE": "2048",
                         "FAULT_ALLOC_NTH": "1"}, "alloc realloc 2048\n")]
        for extra, note in faults:
            rc, out, err, notes = faulted(extra, ["-j", "1", "--fsverity", "big"], d)
            check((rc, out, err) == (0, good, b"") and notes.startswith(note),
                  "region fault %r: %r, shim %r" % (extra, (rc, out, err), notes))
    if not sanitized():
        # The worker's --fsverity buffers: the input fails, the run stops.
        rc, out, err, notes = faulted({"FAULT_ALLOC": "malloc", "FAULT_ALLOC_SIZE": str(1 << 20)},
                                      ["-j", "1", "--fsverity", "a", "big"], d)
        check((rc, out, err) == (1, b"", b"fastsha: a: Cannot allocate memory\n") and notes,
              "verity buffers: %r" % ((rc, out, err, notes),))


def case_err_alloc(d):
    """Allocations and threads that fail: the read-ahead buffer and thread,
    the mapping windows and their prefetch thread, a worker's buffers and
    thread, --check's lines, getline()'s buffer, the HMAC key's buffer. A
    missing helper costs speed, never a digest; a missing buffer the input
    (or the run) fails with a message."""
    need_sha1sum()
    big = os.urandom(40 << 20)  # past two 16 MiB map windows
    write(d, "big", big)
    write(d, "a", "abc")
    write(d, "mid", os.urandom(300000))
    names = ["a", "big", "mid", "a"]
    want = b"".join(gnu_line(d, n) for n in names)
    spare = (os.cpu_count() or 1) >= 2  # -j 1 leaves a core: read-ahead and prefetch threads
    faults = []
    if spare:
        faults += [(["-j", "1"], {"FAULT_THREAD": "1"}, "thread"),               # read-ahead
                   (["-j", "1", "--mmap"], {"FAULT_THREAD": "1"}, "thread")]     # prefetch
    faults += [(["-j", "2"], {"FAULT_THREAD": "1"}, "thread")]                   # worker 2
    if not sanitized():
        mb = str(1 << 20)
        faults += [
            # The second worker's batch buffer (the first is worker 1's):
            # one worker does it all.
            (["-j", "2"], {"FAULT_ALLOC": "posix_memalign", "FAULT_ALLOC_SIZE": mb,
                           "FAULT_ALLOC_NTH": "2"}, "alloc posix_memalign 1048576"),
            # The first and the second map window: read() goes on from there.
            (["-j", "1", "--mmap"], {"FAULT_ALLOC": "mmap", "FAULT_ALLOC_SIZE": mb,
                                     "FAULT_ALLOC_NTH": "1"}, "alloc mmap"),
            (["-j", "1", "--mmap"], {"FAULT_ALLOC": "mmap", "FAULT_ALLOC_SIZE": mb,
                                     "FAULT_ALLOC_NTH": "2"}, "alloc mmap")]
        if spare:
            faults.append((["-j", "1"], {"FAULT_ALLOC": "posix_memalign",
                                         "FAULT_ALLOC_SIZE": str(4 << 20)},
                           "alloc posix_memalign 4194304"))  # the read-ahead slots
    for opts, extra, note in faults:
        rc, out, err, notes = faulted(extra, opts + names, d)
        check((rc, out, err) == (0, want, b"") and notes.startswith(note),
              "%r %r: %r, shim %r" % (opts, extra, (rc, out[:80], err), notes))
    if sanitized():
        print("note: sanitizer build: its allocator is its own, the FAULT_ALLOC checks are "
              "left out")
        return
    # No worker can have its buffers: one message, nothing hashed.
    for jobs in ("1", "2"):
        rc, out, err, notes = faulted({"FAULT_ALLOC": "posix_memalign",
                                       "FAULT_ALLOC_SIZE": str(1 << 20)}, ["-j", jobs] + names, d)
        check((rc, out, err) == (1, b"", b"fastsha: out of memory for a worker's buffers\n"),
              "no worker buffers -j %s: %r" % (jobs, (rc, out, err)))
    # --check: getline() cannot grow its buffer for a long (comment) line.
    # The lines after it were never read: an error, not the end of the list
    # (glibc before 2.37 leaves the stream's error flag clear; GNU 9.1 then
    # passes the list).
    lst = "%s  a\n#%s\n%s  a\n" % (ABC, "x" * 300000, "0" * 40)
    write(d, "list", lst)
    for jobs in ("1", "2"):
        rc, out, err, notes = faulted({"FAULT_ALLOC": "realloc", "FAULT_ALLOC_SIZE": "100000"},
                                      ["-j", jobs, "-c", "list"], d)
        check((rc, out, err) == (1, b"a: OK\n", b"fastsha: list: Cannot allocate memory\n") and
              notes, "getline ENOMEM -j %s: %r" % (jobs, (rc, out, err, notes)))
    # The HMAC key's buffer (its size and one byte): the file and the
    # reason, no byte of the key.
    key = b"K3Y!" * 20000
    write(d, "key", key)
    rc, out, err, notes = faulted({"FAULT_ALLOC": "malloc", "FAULT_ALLOC_SIZE": "80001"},
                                  ["--hmac-key-file", "key", "a"], d)
    check((rc, out, err) == (1, b"", b"fastsha: --hmac-key-file: key: Cannot allocate memory\n"),
          "key buffer: %r" % ((rc, out, err),))
    # With a key, a worker that cannot start: the tags still every input's.
    rc1, out1, err1 = fs(["--hmac-key-file", "key", "-j", "1"] + names, cwd=d)
    rc, out, err, notes = faulted({"FAULT_ALLOC": "posix_memalign", "FAULT_ALLOC_SIZE": mb,
                                   "FAULT_ALLOC_NTH": "2"}, ["--hmac-key-file", "key", "-j", "2"] +
                                  names * 8, d)
    check(rc1 == 0 and (rc, out, err) == (0, out1 * 8, b"") and b"K3Y" not in err,
          "key, worker 2 without buffers: %r" % ((rc, out[:80], err),))


def case_err_output(d):
    """Standard output failing part way, against GNU: a file size limit
    (EFBIG after some lines, hash mode and --check), a pipe closed by its
    reader (killed by SIGPIPE, or with SIGPIPE ignored "write error"), and
    a close that fails (fclose(stdout), FAULT_FCLOSE)."""
    import resource
    import signal
    need("sha256sum")
    names = ["n%d" % i for i in range(150)]
    for i, n in enumerate(names):
        write(d, n, str(i))
    lst = run(["sha256sum"] + names, cwd=d)[1]
    write(d, "list", lst)

    def fsize(limit):
        def pre():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return pre
    for tool in ("sha256sum", "fastsha"):
        q = Pair(tool, ["-a", "sha256"] if tool == "fastsha" else ())
        for args, limit in ((names[:75] + ["missing"] + names[75:], 5000), (["-c", "list"], 500)):
            got = []
            for side in (q.ours, q.theirs):
                with open(os.path.join(d, "out"), "wb") as o:
                    rc, _, err = side(args, cwd=d, stdout=o, preexec_fn=fsize(limit))
                with open(os.path.join(d, "out"), "rb") as o:
                    got.append((rc, o.read(), err))
            ours, gnu = got
            if tool == "fastsha":
                # fastsha gives the reason (cksum 9.10 does too), GNU 9.1 none.
                gnu = (gnu[0], gnu[1], gnu[2].replace(b"write error\n",
                                                      b"write error: File too large\n"))
            check(ours == gnu and ours[0] == 1 and len(ours[1]) == limit,
                  "%s EFBIG %r: %r, GNU %r" % (tool, args[:2], ours[::2], gnu[::2]))
        # A pipe read for a while, then closed (the output is past the pipe's
        # 64 KiB, so the failing write comes however far it got).
        many = names * 20
        full = b"".join(lst.splitlines(True)) * 20
        for ignore in (False, True):
            res = []
            for exe, argv0, extra in ((q.exe, q.argv0, q.extra), (q.gnu, q.gnu, [])):
                r, w = os.pipe()
                pre = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if ignore else None
                p = subprocess.Popen([argv0] + extra + many + ["missing"], executable=exe, cwd=d,
                                     stdout=w, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                     env=env_for(), preexec_fn=pre)
                os.close(w)
                got = os.read(r, 4096)
                os.close(r)
                err = p.stderr.read()
                p.wait(timeout=60)
                check(full.startswith(got) and got, "%s pipe: read %r" % (tool, got[:80]))
                if tool == "fastsha" and argv0 == q.gnu:
                    err = as_fastsha(err, q.gnu).replace(b"write error\n",
                                                         b"write error: Broken pipe\n")
                res.append((p.returncode, err))
            want_rc = 1 if ignore else -signal.SIGPIPE
            check(res[0] == res[1] and res[0][0] == want_rc,
                  "%s pipe closed, SIGPIPE %s: %r, GNU %r" % (tool, "ignored" if ignore else
                                                             "default", res[0], res[1]))
        # close() failing at exit: GNU names the reason, under every name.
        for args in ([names[0]], ["--status", "-c", "list"]):
            env = env_for({"FAULT_FCLOSE": "1"}, shim=True)
            ours = q.ours(args, cwd=d, env=env)
            gnu = q.theirs(args, cwd=d, env=env)
            check(ours == gnu and ours[0] == 1 and
                  ours[2].endswith(b": write error: Input/output error\n"),
                  "%s fclose EIO %r: %r, GNU %r" % (tool, args, ours, gnu))


def case_err_open(d):
    """open() and fstat() failures, and a checksum list that fails part way:
    ENOMEM from open() (an input, the list) against GNU; fstat() failing
    (every path falls back to reading, same digests); few descriptors left
    (RLIMIT_NOFILE; the loader needs the one left at 4) against GNU,
    through io_uring's batched opens and the plain path; a list on a socket reset after some lines against GNU."""
    import resource
    import socket
    need("sha256sum")
    write(d, "a", "abc")
    write(d, "mid", os.urandom(300000))
    write(d, "big", os.urandom(6 << 20))
    q = Pair("sha256sum")
    lst = run(["sha256sum", "a", "mid"], cwd=d)[1]
    write(d, "list", lst)
    enomem = {"FAULT_MODE": "openerr", "FAULT_ERRNO": str(errno.ENOMEM)}
    for target, args in (("mid", ["a", "mid", "a"]), ("list", ["-c", "list"])):
        env = env_for(dict(enomem, FAULT_FILE=os.path.join(d, target)), shim=True)
        ours, gnu = q.ours(args, cwd=d, env=env), q.theirs(args, cwd=d, env=env)
        check(ours == gnu and ours[0] == 1 and b"Cannot allocate memory" in ours[2],
              "open ENOMEM %s: %r, GNU %r" % (target, ours, gnu))
    for target in ("mid", "big"):
        env = env_for({"FAULT_MODE": "fstaterr", "FAULT_FILE": os.path.join(d, target)},
                      shim=True)
        for opts in ([], ["-j", "1"], ["--mmap"]):
            ours = q.ours(opts + ["a", target, "a"], cwd=d, env=env)
            gnu = q.theirs(["a", target, "a"], cwd=d)
            check(ours == gnu and ours[0] == 0, "fstat EIO %s %r: %r" % (target, opts, ours))
    # Few descriptors: GNU needs one at a time. 60 small files, so a ring
    # group (32 files opened at once) runs out; with a limit of 4 the
    # ring's own descriptor takes the last one.
    many = ["m%d" % i for i in range(60)]
    for n in many:
        write(d, n, n)
    for limit, opts in ((4, ["-j", "1"]), (8, ["-j", "1"]), (12, ["-j", "2"])):
        pre = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)))
        for plain in ("0", "1"):
            env = env_for({"FASTSHA_NO_URING": plain})
            ours = q.ours(opts + many, cwd=d, env=env, preexec_fn=pre)
            gnu = q.theirs(many, cwd=d, preexec_fn=pre)
            check(ours == gnu and gnu[0] == 0, "RLIMIT_NOFILE %d %r uring %s: %r, GNU %r" %
                  (limit, opts, plain == "0", (ours[0], ours[2][:200]), gnu[:1]))
    # The list on standard input, a socket whose peer goes away with data
    # unread: read() fails (ECONNRESET) after the lines sent. The lines
    # before are checked, then GNU's "read error"; a file read from the
    # same socket fails with the reason.
    for args in (["-c"], ["-c", "-"], ["-"]):
        res = []
        for side in (q.ours, q.theirs):
            x, y = socket.socketpair()
            y.send(b"unread")  # left in x's queue: closing x resets y
            x.sendall(lst + b"00")
            x.close()
            res.append(side(args, cwd=d, stdin=y))
            y.close()
        ours, gnu = res
        check(ours == gnu and ours[0] == 1, "socket reset %r: %r, GNU %r" % (args, ours, gnu))


def hashlib_sha1(data):
    import hashlib
    return hashlib.sha1(data).hexdigest()


# ---- fastsha's own options ---------------------------------------------------------

def case_opt_string(d):
    rc, out, err = fs(["-s", "abc"])
    check((rc, out, err) == (0, ('%s  "abc"\n' % ABC).encode(), b""), "-s: %r" % ((rc, out, err),))
    rc, out, err = fs(["--string=abc", "-s", "", "--tag", "-s", "a\nb"])
    want = ('SHA1 ("abc") = %s\nSHA1 ("") = %s\n\\SHA1 ("a\\nb") = %s\n'
            % (ABC, hashlib_sha1(b""), hashlib_sha1(b"a\nb"))).encode()
    check(rc == 0 and out == want, "-s several: %r" % out)
    write(d, "f", "abc")
    rc, out, err = fs(["-s", "x", "f"], cwd=d)
    check(out == ('%s  "x"\n%s  f\n' % (hashlib_sha1(b"x"), ABC)).encode(), "-s + file: %r" % out)
    rc, out, err = fs(["-c", "-s", "x"])
    check(rc == 1 and b"--string" in err, "-s with -c: %r" % ((rc, err),))
    for alg in ALGS:
        rc, out, err = fs(["-a", alg, "--tag", "-s", "abc", "-s", ""])
        want = ('%s ("abc") = %s\n%s ("") = %s\n'
                % (alg.upper(), hexof(alg, b"abc"), alg.upper(), hexof(alg, b""))).encode()
        check(rc == 0 and out == want, "-a %s -s: %r" % (alg, out))
        rc, out, err = run([link("fast%ssum" % alg), "-s", "abc"], argv0="fast%ssum" % alg)
        check(rc == 0 and out == ('%s  "abc"\n' % hexof(alg, b"abc")).encode(),
              "fast%ssum -s: %r" % (alg, out))
    # An XOF's -l applies to -s too, and --tag names a length other than
    # the default (384 is neither SHAKE's), as for files.
    for alg, fn in (("shake128", hashlib.shake_128), ("shake256", hashlib.shake_256)):
        rc, out, err = fs(["-a", alg, "-l", "384", "-s", "abc", "--tag", "-s", ""])
        want = ('%s-384 ("abc") = %s\n%s-384 ("") = %s\n'
                % (alg.upper(), fn(b"abc").hexdigest(48), alg.upper(), fn(b"").hexdigest(48)))
        check((rc, out, err) == (0, want.encode(), b""), "-a %s -l 384 -s: %r" % (alg, out))


def case_opt_time(d):
    write(d, "f", "abc" * 1000)
    rc, out, err = fs(["--time", "f", "-"], cwd=d, input_bytes=b"xyz")
    check(rc == 0 and out.count(b"\n") == 2, "--time stdout %r" % out)
    pat = rb"fastsha: f: 3000 bytes in [0-9.]+ s, [0-9.]+ MB/s\nfastsha: -: 3 bytes in [0-9.]+ s, [0-9.]+ MB/s\n"
    check(re.fullmatch(pat, err) is not None, "--time stderr %r" % err)
    rc, out, err = fs(["--time", "-c", "-"], cwd=d, input_bytes=("%s  f\n" % hashlib_sha1(b"abc" * 1000)).encode())
    check(rc == 0 and out == b"f: OK\n" and re.fullmatch(rb"fastsha: f: 3000 bytes in [0-9.]+ s, [0-9.]+ MB/s\n", err),
          "--time --check %r" % ((rc, out, err),))
    rc, out, err = fs(["--fsverity", "--time", "f"], cwd=d)
    check(rc == 0 and out.startswith(b"sha256:") and
          re.fullmatch(rb"fastsha: f: 3000 bytes in [0-9.]+ s, [0-9.]+ MB/s\n", err),
          "--time --fsverity %r" % ((rc, out, err),))


def list_backends(runner=None):
    """--list-backends, read once, as ({family: (algorithms, [(name, supported, in use)])},
    {family: [(name, lanes, supported)] of the rows marked for batches})."""
    rc, out, _ = (runner or fs)(["--list-backends"])
    fams, batch, cur = {}, {}, None
    for line in out.decode().splitlines():
        m = re.match(r"(\w+) family \(([\w, -]+)\):$", line)
        if m:
            cur = fams[m.group(1)] = (m.group(2).split(", "), [])
            marked = batch[m.group(1)] = []
            continue
        m = re.match(r"  (\S+)\s+lanes=(\d+)\s+(supported|not supported) by this CPU"
                     r"( \(in use\))?( \(in use for batches\))?$", line)
        check(m is not None and cur is not None, "--list-backends line %r" % line)
        if m and cur:
            cur[1].append((m.group(1), m.group(3) == "supported", bool(m.group(4))))
            if m.group(5):
                marked.append((m.group(1), int(m.group(2)), m.group(3) == "supported"))
    return fams, batch


def backends(runner=None):
    """--list-backends as {family: (algorithms, [(name, supported, in use)])}."""
    return list_backends(runner)[0]


def version_lines(out):
    """--version's backend lines as {family: (in use, [this CPU runs], [cannot run])}."""
    res = {}
    for line in out.decode().splitlines()[1:]:
        m = re.match(r"(\w+) backend: (\S+) \(this CPU runs:([\w ]*)(?:; cannot run:([\w ]+))?\)$",
                     line)
        check(m is not None, "--version line %r" % line)
        if m:
            res[m.group(1)] = (m.group(2), m.group(3).split(), (m.group(4) or "").split())
    return res


def case_opt_backends(d):
    fams, batch = list_backends()
    check(sorted(fams) == ["keccak", "sha1", "sha256", "sha512"], "families %r" % sorted(fams))
    check(fams.get("keccak", ([],))[0] == ["sha3-224", "sha3-256", "sha3-384", "sha3-512",
                                           "shake128", "shake256", "keccak256", "k12"],
          "the Keccak family's members %r" % (fams.get("keccak"),))
    check(fams.get("sha256", ([],))[0] == ["sha224", "sha256"] and
          fams.get("sha512", ([],))[0] == ["sha384", "sha512"], "family members %r" % fams)
    for fam, (algs, rows) in fams.items():
        check(sum(r[2] for r in rows) == 1, "%s: one backend in use: %r" % (fam, rows))
        # Batches: on the single-message row (no mark of their own) or on
        # one lane row this CPU runs, marked for them, never the in-use row.
        marked = batch.get(fam, [])
        check(len(marked) <= 1 and all(ok and lanes > 1 for _, lanes, ok in marked) and
              not [r for r in rows if r[2] and r[0] in [m[0] for m in marked]],
              "%s: the batch row %r" % (fam, marked))
        names = [r[0] for r in rows]
        check("portable" in names and "reference" in names, "%s: portable/reference listed" % fam)
    rc, out, err = fs(["--backend", "nope", "/dev/null"])
    check(rc == 2 and out == b"" and err.startswith(b"fastsha: backend 'nope': no such backend; "
                                                    b"built for sha1: "),
          "--backend nope: %r" % ((rc, out, err),))
    sha512_names = " ".join(r[0] for r in fams["sha512"][1]).encode()
    rc, out, err = fs(["-a", "sha384", "--backend", "nope", "/dev/null"])
    check(rc == 2 and err == b"fastsha: backend 'nope': no such backend; built for sha512: %s "
          b"(see --list-backends)\n" % sha512_names, "-a sha384 --backend nope: %r" % err)
    # --version: the version, then each family's backend and what this CPU runs.
    rc, out, err = fs(["--version"], env=env_for({"FASTSHA_BACKEND": "portable"}))
    check(rc == 0 and out.startswith(b"fastsha %s\n" % version().encode()) and err == b"",
          "FASTSHA_BACKEND=portable --version: %r" % ((rc, out, err),))
    v = version_lines(out)
    check(sorted(v) == sorted(fams) and all(x[0] == "portable" for x in v.values()),
          "--version under FASTSHA_BACKEND=portable: %r" % v)
    for fam, (algs, rows) in fams.items():
        if fam in v:
            check(v[fam][1] == [r[0] for r in rows if r[1]] and
                  v[fam][2] == [r[0] for r in rows if not r[1]],
                  "--version %s lists what the CPU runs: %r vs %r" % (fam, v[fam], rows))
    env = {"FASTSHA_BACKEND": "sha256:reference,sha1:portable,sha512:portable"}
    rc, out, err = fs(["-a", "sha224", "--version"], env=env_for(env))
    v = version_lines(out)
    check(rc == 0 and err == b"" and v.get("sha1", ("",))[0] == "portable" and
          v.get("sha256", ("",))[0] == "reference", "per-family FASTSHA_BACKEND: %r" % ((out, err),))
    # Warnings: an item the library ignores for the selected family, or a typo.
    for val, args, want in (
            ("bogus", [], b"fastsha: warning: FASTSHA_BACKEND=bogus ignored: no such backend "
                          b"in this build; using "),
            ("sha999:portable", [], b"fastsha: warning: FASTSHA_BACKEND=sha999:portable ignored: "
                                    b"no such family (sha1, sha256, sha512, keccak); using "),
            ("sha256:bogus", ["-a", "sha256"], b"fastsha: warning: FASTSHA_BACKEND=sha256:bogus "
                                               b"ignored: no such backend in this build; using "),
            ("portable,sha512:nope", ["-a", "sha384"], b"fastsha: warning: FASTSHA_BACKEND="
                                                        b"sha512:nope ignored: no such backend"),
            ("sha256:bogus", [], b""),     # another family's item: its own business
            ("sha1:portable", ["-a", "sha512"], b"")) + tuple(
            # A bare name that only another family has: that family's
            # business too (FASTSHA_BACKEND=bmi2 is for the Keccak family).
            (n, ["-a", "sha256"], b"") for n in sorted(
                {r[0] for f, (_, rows) in fams.items() if f != "sha256" for r in rows} -
                {r[0] for r in fams["sha256"][1]})[:1]):
        rc, out, err = fs(args + ["-s", "abc"], env=env_for({"FASTSHA_BACKEND": val}))
        check(rc == 0 and out.endswith(b'  "abc"\n') and
              (err.startswith(want) if want else err == b""),
              "FASTSHA_BACKEND=%s %r: %r" % (val, args, err))
    rc, out, err = fs(["--version"], env=env_for({"FASTSHA_BACKEND": "bogus"}))
    check(rc == 0 and b"FASTSHA_BACKEND=bogus ignored: no such backend" in err,
          "FASTSHA_BACKEND=bogus --version: %r" % err)
    for alg, fam in (("sha1", "sha1"), ("sha224", "sha256"), ("sha512", "sha512")):
        rc, out, err = fs(["-a", alg, "--backend", "portable", "--list-backends"])
        pinned, pinned_batch = list_backends(lambda a: (rc, out, err))
        f = pinned.get(fam, ([], []))
        check(("portable", True, True) in f[1], "-a %s --backend portable: %r" % (alg, f))
        # a pinned row runs batches too (the library's rule): no other mark
        check(not pinned_batch.get(fam),
              "-a %s --backend portable: a batch row marked: %r" % (alg, out))
    rc, out, err = fs(["--help"])
    check(rc == 0 and out.startswith(b"Usage: fastsha [OPTION]... [FILE]...\n"
                                     b"Print or check SHA1 (160-bit) checksums"), "--help")
    # --bench fits a screen: a line per algorithm, naming the backend in use
    # for one message and the one for batches (docs/cli.md).
    rc, out, err = fs(["--bench"])
    lines = out.decode().splitlines()
    check(rc == 0 and len(lines) <= 12, "--bench: %d lines, exit %d" % (len(lines), rc))
    for alg, fam in (("sha1", "sha1"), ("sha256", "sha256"), ("sha512", "sha512"),
                     ("sha1dc", "sha1")):
        row = [l.split() for l in lines if l.startswith(alg + " ")]
        in_use = [r[0] for r in fams[fam][1] if r[2]]
        check(len(row) == 1 and row[0][1] in in_use and len(row[0]) == 8 and
              row[0][5] in [r[0] for r in fams[fam][1] if r[1]],
              "--bench line for %s: %r" % (alg, row))
    rc, out, err = fs(["-a", "sha384", "--bench"])
    check(rc == 0 and [l.split()[0] for l in out.decode().splitlines()[4:-1]] == ["sha384"],
          "-a sha384 --bench: %r" % out)
    # --bench=all: a row per backend, lane backends among the batches only.
    lanes = {}
    for line in fs(["--list-backends"])[1].decode().splitlines():
        m = re.match(r"(\w+) family|  (\S+)\s+lanes=(\d+)", line)
        if m and m.group(1):
            fam = m.group(1)
        elif m:
            lanes[(fam, m.group(2))] = int(m.group(3))
    for alg, fam in (("sha1", "sha1"), ("sha512", "sha512")):
        rc, out, err = fs(["-a", alg, "--bench=all"])
        check(rc == 0, "--bench=all exit %d" % rc)
        text = out.decode()
        batch_at = text.index("%s: 1024 messages" % alg)
        for name, ok, _ in fams[fam][1]:
            row = [(i, l) for i, l in enumerate(text.splitlines(True)) if l.startswith(name + " ")]
            at = sum(len(l) for l in text.splitlines(True)[:row[0][0]]) if row else -1
            check(len(row) == 1 and (("skipped" in row[0][1]) != ok) and
                  (at > batch_at) == (lanes[(fam, name)] > 1),
                  "-a %s --bench=all row for %s: %r" % (alg, name, row))
    # The self-test's summary, and its lines with =verbose.
    rc, out, err = fs(["--self-test"])
    rc2, verbose, _ = fs(["--self-test=verbose"])
    npairs = len(re.findall(rb"^[\w-]+ +\w+ +ok: (\d+)/\1 known answers$", verbose, re.M))
    nskip = verbose.count(b" skipped: this CPU cannot run it\n")
    check(rc == 0 and rc2 == 0 and out.count(b"\n") <= 4 and out.endswith(b"self-test passed\n") and
          (b", %d algorithm/backend pairs\n%d pairs skipped" % (npairs, nskip)) in out,
          "--self-test summary (%d pairs, %d skipped): %r" % (npairs, nskip, out))
    for arg in ("--self-test=all", "--bench=verbose"):
        rc, out, err = fs([arg])
        check(rc == 1 and out == b"" and b"invalid argument" in err, "%s: %r" % (arg, (rc, err)))
    for bad in (["-j", "0"], ["--jobs=abc"], ["-j", "-3"], ["--buffer-size", "12"]):
        rc, out, err = fs(bad + ["/dev/null"])
        check(rc == 1 and b"Try 'fastsha --help'" in err, "%r: %r" % (bad, (rc, err)))


def version():
    src = open(os.path.join(A.src, "include", "fastsha", "fastsha.h")).read()
    return re.search(r'FASTSHA_VERSION_STRING "([^"]+)"', src).group(1)


def case_backend(d, arg):
    """The self-test and hashing under one backend of a family (ARG is
    family:name), chosen both ways."""
    fam, name = arg.split(":")
    fams = backends()
    algs, rows = fams.get(fam, ([], []))
    rows = {r[0]: r[1] for r in rows}
    if name not in rows:
        print("SKIP: backend %s of %s is not in this build" % (name, fam))
        sys.exit(SKIP)
    if not rows[name]:
        rc, out, err = fs(["-a", fam, "--backend", name, "/dev/null"])
        check(rc == 2 and b"this CPU cannot run it" in err, "unsupported --backend: %r" % ((rc, err),))
        rc, out, err = fs(["--self-test=verbose"])
        for alg in algs:
            check(("%-7s %-14s skipped: this CPU cannot run it" % (alg, name)).encode() in out,
                  "self-test skips %s %s" % (alg, name))
        if not FAILS:
            print("SKIP: this CPU cannot run %s backend %s (the error and the self-test's skip "
                  "lines were checked)" % (fam, name))
            sys.exit(SKIP)
        return
    rc, out, err = fs(["-a", fam, "--backend", name, "--self-test=verbose"])
    check(rc == 0 and out.endswith(b"self-test passed\n"), "--self-test: %r" % out[-300:])
    for alg in algs:
        check(re.search((r"\n%-7s %s\s+ok: (\d+)/\1 known answers\n" % (alg, re.escape(name))
                         ).encode(), out), "--self-test line for %s %s" % (alg, name))
    # A failure under this backend for one algorithm: that line says FAILED,
    # the others of the family still pass, the run exits 1.
    brk = algs[-1]
    rc, out, err = fs(["--self-test"], env=env_for({"FASTSHA_SELFTEST_BREAK": "%s:%s" % (brk, name)}))
    check(rc == 1 and out.endswith(b"self-test FAILED\n") and
          re.search((r"\n%-7s %s\s+FAILED: " % (brk, re.escape(name))).encode(), out) and
          len(re.findall(rb"FAILED: ", out)) == 1,
          "--self-test failure path: %r" % ((rc, out[-300:]),))
    rc, out, err = fs(["--version"], env=env_for({"FASTSHA_BACKEND": "%s:%s" % (fam, name)}))
    check(rc == 0 and err == b"" and version_lines(out).get(fam, ("",))[0] == name,
          "--version names %s: %r" % (name, out))
    datas = [b"", b"abc", os.urandom(1000), os.urandom(5 << 20)]
    for i, data in enumerate(datas):
        write(d, "f%d" % i, data)
    for alg in algs:
        want = b"".join(("%s  f%d\n" % (hexof(alg, x), i)).encode() for i, x in enumerate(datas))
        for extra in ([], ["--mmap"]):
            rc, out, err = fs(["-a", alg, "--backend", name] + extra +
                              ["f%d" % i for i in range(len(datas))], cwd=d)
            check(rc == 0 and out == want, "-a %s --backend %s %r hashes" % (alg, name, extra))
        rc, out, err = fs(["-a", alg, "-s", "abc"], env=env_for({"FASTSHA_BACKEND": name}))
        check(rc == 0 and out == ('%s  "abc"\n' % hexof(alg, b"abc")).encode() and err == b"",
              "FASTSHA_BACKEND=%s -a %s: %r" % (name, alg, (out, err)))


def case_opt_jobs(d):
    need_sha1sum()
    names = []
    for i in range(300):
        n = "f%03d" % i
        names.append(n)
        if i % 37 == 5:
            names.append("missing%d" % i)
            continue
        write(d, n, os.urandom((i * 997) % 70000))
    write(d, "big", os.urandom(9 << 20))
    names.insert(3, "big")
    gnu = run(["sha1sum"] + names, cwd=d)
    gnu = (gnu[0], gnu[1], gnu[2].replace(b"sha1sum", b"fastsha"))
    for j in ("1", "2", "7", "64"):
        for extra in ([], ["--mmap"]):
            got = fs(["-j", j] + extra + names, cwd=d)
            check(got == gnu, "-j %s %r differs from sha1sum" % (j, extra))
    rc, out, _ = run(["sha1sum"] + [n for n in names if not n.startswith("missing")], cwd=d)
    write(d, "list.sha1", out)
    for j in ("1", "2", "5"):
        got = fs(["-j", j, "-c", "list.sha1"], cwd=d)
        gnu = run(["sha1sum", "-c", "list.sha1"], cwd=d)
        check(got == gnu, "-c -j %s differs" % j)
    # 1 to 1024, in decimal; no sign that strtoul() would wrap round
    # (-18446744073709551615 is 1 to it), after white space too.
    for j in ("0", "1025", "-1", "-18446744073709551615", " -18446744073709551615", "x", "",
              "2x", "18446744073709551617"):
        got = fs(["-j", j, "f000"], cwd=d)
        check(got == (1, b"", ("fastsha: invalid number of jobs: '%s' (want 1..1024)\nTry "
                               "'fastsha --help' for more information.\n" % j).encode()),
              "-j %r: %r" % (j, got))
    got = fs(["-j", "1024", "f000"], cwd=d)
    check(got[0] == 0 and got[1].endswith(b"  f000\n"), "-j 1024: %r" % (got,))


def case_opt_mmap(d):
    """Files on both sides of the mmap threshold and across map windows."""
    need_sha1sum()
    sizes = [0, 1, (4 << 20) - 1, 4 << 20, (4 << 20) + 1, (64 << 20) + 12345]
    for i, s in enumerate(sizes):
        with open(os.path.join(d, "m%d" % i), "wb") as f:
            f.write(os.urandom(min(s, 1 << 20)) * (s >> 20) + os.urandom(s & ((1 << 20) - 1)))
    names = ["m%d" % i for i in range(len(sizes))]
    gnu = run(["sha1sum"] + names, cwd=d)
    for extra in ([], ["--mmap"], ["--buffer-size", "64K"], ["--buffer-size", "1M", "--mmap"],
                  ["--no-read-ahead"], ["-j", "1", "--no-read-ahead", "--buffer-size", "8K"],
                  ["--buffer-size", "5000", "--mmap"], ["--mmap", "--no-mmap"]):
        check(fs(extra + names, cwd=d) == gnu, "mmap sizes %r" % extra)


def case_opt_progress(d):
    """--progress draws on a terminal and stays silent otherwise."""
    write(d, "slow", os.urandom(4 << 20))  # 1024 reads of 4 KiB, 2 ms each
    env = env_for({"FAULT_FILE": os.path.join(d, "slow"), "FAULT_MODE": "slow"}, shim=True)
    cmd = [A.fastsha, "--progress", "--buffer-size", "4096", "slow"]
    rc, out, err = run(cmd, cwd=d, env=env)
    check(rc == 0 and err == b"" and out.endswith(b"  slow\n"), "--progress off a tty: %r" % ((rc, err),))
    script = shutil.which("script")
    if not script:
        print("SKIP: no script(1) to give the tool a terminal; the non-terminal case passed")
        sys.exit(SKIP if not FAILS else 1)
    line = " ".join("'%s'" % c for c in cmd)
    rc, out, err = run([script, "-qec", line, "/dev/null"], cwd=d, env=env)
    check(rc == 0, "--progress under script: exit %d %r" % (rc, err))
    check(b"\r\x1b[K" in out and b"MB/s" in out and b"%" in out and b"left" in out,
          "--progress draws a bar: %r" % out[:300])
    check(out.rstrip().endswith(b"  slow"), "--progress leaves the digest line: %r" % out[-120:])


def case_qemu_unsupported(d):
    """Backends this CPU lacks, on an emulated SSE2-only CPU (qemu64):
    --backend fails naming why, FASTSHA_BACKEND warns, --self-test skips."""
    with open(A.fastsha, "rb") as f:
        elf32 = f.read(5)[4:] == b"\x01"  # EI_CLASS: an i686 build (gcc -m32)
    qemu = shutil.which("qemu-i386" if elf32 else "qemu-x86_64")
    if not qemu or os.uname().machine != "x86_64":
        print("SKIP: needs qemu-x86_64 (qemu-i386 for a 32-bit build) on an x86_64 host "
              "to emulate a CPU without SSSE3")
        sys.exit(SKIP)
    q = [qemu, "-cpu", "qemu32" if elf32 else "qemu64", "-0", "fastsha", A.fastsha]
    fams = backends(lambda args: run(q + args))
    lacking = [(fam, n) for fam, (_, rows) in fams.items() for n, ok, _ in rows if not ok]
    check(fams and all(("portable", True) in [(n, ok) for n, ok, _ in rows]
                       for _, rows in fams.values()), "qemu64 --list-backends: %r" % fams)
    # SHA-1's sse2 row, when built, is the one for CPUs without SSSE3: there it
    # must run and be the automatic choice (the hashing below then uses it).
    sha1_rows = fams.get("sha1", ([], []))[1]
    if any(n == "sse2" for n, _, _ in sha1_rows):
        check(("sse2", True, True) in sha1_rows, "qemu64: sha1 sse2 runs and is in use: %r" % sha1_rows)
        rc, out, err = run(q + ["--version"])
        check(rc == 0 and version_lines(out).get("sha1", ("?",))[0] == "sse2",
              "qemu64 --version: sha1 backend is sse2: %r" % ((rc, out, err),))
    if not lacking:
        print("SKIP: every built backend runs on qemu64 (no x86 SIMD backend in this build)")
        sys.exit(SKIP if not FAILS else 1)
    for fam, name in lacking:
        fam_alg = fams[fam][0][0]  # -a takes an algorithm of the family ("keccak": sha3-224)
        rc, out, err = run(q + ["-a", fam_alg, "--backend", name, "/dev/null"])
        check(rc == 2 and out == b"" and
              err == ("fastsha: backend '%s': this CPU cannot run it (see --list-backends)\n"
                      % name).encode(), "qemu64 --backend %s: %r" % (name, (rc, err)))
        for val in (name, "%s:%s" % (fam, name)):
            rc, out, err = run(q + ["-a", fam_alg, "--version"],
                               env=env_for({"FASTSHA_BACKEND": val}))
            check(rc == 0 and version_lines(out).get(fam, (name,))[0] != name and
                  err.startswith(("fastsha: warning: FASTSHA_BACKEND=%s ignored: this CPU cannot "
                                  "run it; using " % val).encode()),
                  "qemu64 FASTSHA_BACKEND=%s: %r" % (val, (out, err)))
    rc, out, err = run(q + ["--self-test=verbose"])
    check(rc == 0 and out.endswith(b"self-test passed\n"), "qemu64 --self-test: %r" % out)
    for fam, name in lacking:
        for alg in fams[fam][0]:
            check(("%-7s %-14s skipped: this CPU cannot run it\n" % (alg, name)).encode() in out,
                  "qemu64 self-test skips %s %s" % (alg, name))
    data = os.urandom(300000)
    write(d, "f", data)
    for alg in ALGS:
        rc, out, err = run(q + ["-a", alg, "f"], cwd=d)
        check(out == ("%s  f\n" % hexof(alg, data)).encode(), "qemu64 hashing %s" % alg)


def case_compat_tags(d):
    """fastsha -c, as itself, takes tagged lines of every algorithm as GNU
    cksum -c does: compared with cksum on lists of tagged lines, and the
    documented differences (docs/check.md) checked one by one."""
    need("cksum")
    need("sha256sum")
    make_tree(d, big=False)
    names = ["a", "b\\c", "n\nl", "sp ace", "it's", "\u00e9t\u00e9", "-dash"]
    by_alg = {}
    for alg in ALGS:
        rc, out, _ = run(["cksum", "-a", alg, "--"] + names, cwd=d)
        by_alg[alg] = out.splitlines(keepends=True)
    # Every algorithm's lines, interleaved.
    mixed = b"".join(by_alg[ALGS[(i + k) % len(ALGS)]][i]
                     for i in range(len(names)) for k in range(len(ALGS)))
    hx = lambda alg, name: hexof(alg, open(os.path.join(d, name), "rb").read())
    files = [
        write(d, "all.sum", mixed),
        write(d, "openssl.sum", "SHA512(a)= %s\nSHA224(sp ace)= %s\r\nSHA1(a)=%s\n"
              % (hx("sha512", "a"), hx("sha224", "sp ace"), hx("sha1", "a"))),
        write(d, "bad.sum", "SHA384 (a) = %s\nSHA224 (gone) = %s\nSHA1 (dir) = %s\n"
              "SHA256 (a) = %s\n" % ("0" * 96, "1" * 56, "2" * 40, hx("sha256", "a"))),
        write(d, "wronglen.sum", "SHA256 (a) = %s\nSHA1 (a) = %s\nSHA512 (a) = %s\n"
              "SHA384 (a) = %s0\n" % (hx("sha1", "a"), hx("sha256", "a"), hx("sha512", "a"),
                                      hx("sha384", "a"))),
        write(d, "missing.sum", "SHA256 (gone) = %s\nSHA384 (a) = %s\n"
              % (hx("sha256", "a"), hx("sha384", "a"))),
        write(d, "allmissing.sum", "SHA512 (gone) = %s\n" % hx("sha512", "a")),
        write(d, "improper.sum", "SHA256 (a) = 123\nSHA9 (a) = %s\n" % hx("sha1", "a")),
        write(d, "escaped.sum", "\\SHA384 (n\\nl) = %s\n\\SHA224 (b\\\\c) = %s\n"
              "\\SHA1 (bad\\x) = %s\n" % (hx("sha384", "n\nl"), hx("sha224", "b\\c"),
                                          hx("sha1", "a"))),
    ]
    ck = Pair("fastsha")
    ck.gnu = "cksum"
    for opts in ([], ["--quiet"], ["--status"], ["--strict"], ["--ignore-missing"],
                 ["--ignore-missing", "--strict"]):
        for f in files:
            compare(["-c"] + opts + [f], d, pair=ck)
    compare(["-c", "all.sum", "bad.sum", "openssl.sum"], d, pair=ck)
    compare(["-c"], d, stdin_bytes=mixed, label="-c mixed from stdin", pair=ck)

    # Where fastsha differs from cksum -c, on purpose:
    # untagged lines are read as the selected algorithm (cksum -c refuses them),
    ha = {alg: hexof(alg, b"abc") for alg in ALGS}
    write(d, "untagged.sum", "%s  a\nSHA256 (a) = %s\n" % (ha["sha1"], ha["sha256"]))
    rc, out, err = fs(["-c", "untagged.sum"], cwd=d)
    check((rc, out, err) == (0, b"a: OK\na: OK\n", b""), "untagged + tagged: %r" % ((rc, out, err),))
    rc, out, err = run(["cksum", "-c", "untagged.sum"], cwd=d)
    check(rc == 0 and out == b"a: OK\n" and b"1 line is improperly formatted" in err,
          "cksum -c refuses untagged lines: %r" % ((rc, out, err),))
    write(d, "untagged256.sum", "%s  a\nSHA1 (a) = %s\nSHA512 (a) = %s\n"
          % (ha["sha256"], ha["sha1"], ha["sha512"]))
    rc, out, err = fs(["-a", "sha256", "-c", "untagged256.sum"], cwd=d)
    check((rc, out, err) == (0, b"a: OK\n" * 3, b""), "-a sha256 -c mixed: %r" % ((rc, out, err),))
    # -w names the selected algorithm (cksum names the last tag it parsed),
    write(d, "warn.sum", "SHA256 (a) = 12\n%s  a\n" % ha["sha1"])
    rc, out, err = fs(["-c", "-w", "warn.sum"], cwd=d)
    check((rc, out, err) == (0, b"a: OK\n", b"fastsha: warn.sum: 1: improperly formatted SHA1 "
                             b"checksum line\nfastsha: WARNING: 1 line is improperly formatted\n"),
          "-w: %r" % ((rc, out, err),))
    # cksum 9.1's length suffix (SHA256-128) and MD5 are not taken.
    for line in ("SHA256-256 (a) = %s\n" % ha["sha256"], "SHA256-128 (a) = %s\n" % ha["sha256"][:32],
                 "MD5 (a) = %s\n" % hexof("md5", b"abc")):
        write(d, "other.sum", line)
        rc, out, err = fs(["-c", "other.sum"], cwd=d)
        check(rc == 1 and out == b"" and
              err == b"fastsha: other.sum: no properly formatted checksum lines found\n",
              "%r: %r" % (line, (rc, out, err)))
    # GNU sha256sum refuses a SHA1 tagged line; run as sha256sum, so do we.
    write(d, "sha1tag.sum", "SHA1 (a) = %s\n" % ha["sha1"])
    q = Pair("sha256sum")
    compare(["-c", "sha1tag.sum"], d, pair=q)
    compare(["-c", "-w", "untagged256.sum"], d, pair=q)
    rc, out, err = fs(["-c", "sha1tag.sum"], cwd=d)
    check((rc, out) == (0, b"a: OK\n"), "fastsha takes a SHA1 line: %r" % ((rc, out, err),))


def case_compat_algo(d):
    """-a's values, and its errors worded as GNU cksum -a's; the names the
    command answers to."""
    need("cksum")
    write(d, "a", "abc")
    for alg in ALGS:
        for args in (["-a", alg], ["--algorithm=" + alg], ["--algorithm", alg], ["--al", alg]):
            rc, out, err = fs(args + ["a"], cwd=d)
            check((rc, out, err) == (0, ("%s  a\n" % hexof(alg, b"abc")).encode(), b""),
                  "%r: %r" % (args, (rc, out, err)))
    rc, out, err = fs(["-a", "sha512", "-a", "sha224", "a"], cwd=d)
    check(out == ("%s  a\n" % hexof("sha224", b"abc")).encode(), "the last -a wins: %r" % out)
    # Unknown values: cksum's wording (its list of valid names is longer).
    for loc in ("C.UTF-8", "C"):
        env = env_for({"LC_ALL": loc})
        for bad in ("foo", "", "SHA256", "sha", "sha-256", "sha512_224", "sha3_256", "a\nb", "a\\b",
                    "a'b", "\u00e9", b"\xff", "\x01", "\u0085", "\u0378", "\u2028", "\u00a0"):
            for form in (["-a", bad], [b"--algorithm=" + os.fsencode(bad)]):
                ours = fs(form + ["a"], cwd=d, env=env)
                gnu = run(["cksum"] + form + ["a"], cwd=d, env=env)
                lo, lg = ours[2].split(b"\n"), as_fastsha(gnu[2], "cksum").split(b"\n")
                q = (b"\xe2\x80\x98%s\xe2\x80\x99" if loc != "C" else b"'%s'")
                want_list = [b"  - " + q % a.encode() for a in ALL_ALGS + KECCAK_ALGS +
                             ["sha2", "sha3"]]
                check(ours[0] == gnu[0] == 1 and ours[1] == b"" and
                      lo[:2] == lg[:2] and lo[-2:] == lg[-2:] and lo[2:-2] == want_list,
                      "-a %r (%s): %r vs cksum %r" % (bad, loc, ours[2], gnu[2]))
    # GNU cksum's algorithms that are not here are named as such.
    for valid_in_cksum in ("md5", "blake2b", "crc", "sm3"):
        rc, out, err = fs(["-a", valid_in_cksum, "a"], cwd=d)
        check(rc == 1 and err == ("fastsha: the \u2018%s\u2019 algorithm is not provided by "
                                  "fastsha; use -a sha1, -a sha2 -l N or -a sha3 -l N (N: 224, "
                                  "256, 384 or 512)\nTry 'fastsha --help' for more information.\n"
                                  % valid_in_cksum).encode(),
              "-a %s: %r" % (valid_in_cksum, err))
    # The names: a GNU tool's, or fastsha's own prefix on it; anything else is fastsha.
    for name, alg, tool in (("sha256sum", "sha256", 1), ("fastsha256sum", "sha256", 1),
                            ("sha1sum", "sha1", 1), ("fastsha384sum", "sha384", 1),
                            ("sha512sum", "sha512", 1), ("fastsha", "sha1", 0),
                            ("sha3sum", "sha1", 0), ("fastsha-x", "sha1", 0),
                            ("sha256sum.old", "sha1", 0), ("fast", "sha1", 0), ("sum", "sha1", 0)):
        path = link(name)
        rc, out, err = run([path, "a", "missing"], cwd=d, argv0=path)
        check(rc == 1 and out == ("%s  a\n" % hexof(alg, b"abc")).encode() and
              err == ("%s: missing: No such file or directory\n" % path).encode(),
              "run as %s: %r" % (path, (rc, out, err)))
        rc, out, err = run([path, "--version"], argv0=name)
        first = out.split(b"\n")[0].decode()
        want = "%s (fastsha) %s" % (name, version()) if tool else "fastsha %s" % version()
        check(rc == 0 and first == want, "%s --version: %r, want %r" % (name, first, want))
        rc, out, err = run([path, "--help"], argv0=name)
        want = ("Usage: %s [OPTION]... [FILE]...\nPrint or check %s (%d-bit) checksums; a "
                "drop-in for %ssum.\n" % (name, alg.upper(), 4 * len(hexof(alg, b"")), alg))
        check(rc == 0 and out.startswith(want.encode()), "%s --help: %r" % (name, out[:200]))
    # A path in argv[0] shows in the messages, as GNU's.
    for tool in ("sha256sum", "sha384sum"):
        gnu_path = shutil.which(tool)
        if gnu_path:
            ours = run([link(tool), "missing", "--bogus"], cwd=d, argv0=link(tool))
            gnu = run([gnu_path, "missing", "--bogus"], cwd=d, argv0=gnu_path)
            check(ours == (gnu[0], gnu[1], gnu[2].replace(gnu_path.encode(), link(tool).encode())),
                  "%s by path: %r vs GNU %r" % (tool, ours, gnu))
    # -a under a tool's name picks another algorithm (GNU's tools have no -a).
    rc, out, err = run([link("sha256sum"), "-a", "sha1", "a"], cwd=d, argv0="sha256sum")
    check(out == ("%s  a\n" % ABC).encode(), "sha256sum -a sha1: %r" % out)


def case_man_page(d):
    """docs/fastsha.1: names every option --help lists, carries the project's
    version, and groff renders it without a warning."""
    page = os.path.join(A.src, "docs", "fastsha.1")
    text = open(page).read()
    plain = text.replace("\\-", "-")
    rc, out, _ = fs(["--help"])
    for opt in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", out.decode()))):
        check(re.search(r"\.B[IR]?\s.*%s\b" % re.escape(opt), plain) is not None,
              "the man page describes %s" % opt)
    m = re.search(r'^\.TH FASTSHA 1 \S+ "fastsha ([^"]+)"', text, re.M)
    check(m is not None and m.group(1) == version(), ".TH names version %s" % version())
    groff = shutil.which("groff")
    man = shutil.which("man")
    if groff:
        p = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", page], capture_output=True)
        check(p.returncode == 0 and p.stderr == b"", "groff -ww: %r" % p.stderr)
    elif man:
        p = subprocess.run([man, "--warnings", "-l", page], capture_output=True,
                           env=env_for({"MANPAGER": "cat", "MANWIDTH": "80"}))
        check(p.returncode == 0 and p.stderr == b"", "man --warnings -l: %r" % p.stderr)
    else:
        print("SKIP: neither groff nor man is installed to render the page "
              "(the option and version checks ran)")
        sys.exit(SKIP if not FAILS else 1)


def case_install(d):
    """cmake --install into a scratch prefix: fastsha, the fast*sum links
    (one per -a name), no sha*sum links unless FASTSHA_INSTALL_SUM_LINKS,
    and `man fastsha` finds the page."""
    cmake = shutil.which("cmake")
    if not A.build or not cmake:
        print("SKIP: needs cmake and the build directory (--build)")
        sys.exit(SKIP)
    cache = cmake_cache()
    sum_links = re.search(r"^FASTSHA_INSTALL_SUM_LINKS:BOOL=(ON|TRUE|1|YES)$", cache,
                          re.M | re.I) is not None
    prefix = os.path.join(d, "prefix")
    p = subprocess.run([cmake, "--install", A.build, "--prefix", prefix], capture_output=True)
    check(p.returncode == 0, "cmake --install: %r" % p.stderr)
    found = {}
    for root, dirs, files in os.walk(prefix):
        for f in files:
            found.setdefault(f, os.path.join(root, f))
    exe = found.get("fastsha")
    check(exe is not None, "fastsha installed: %r" % sorted(found))
    if not exe:
        return
    bindir = os.path.dirname(exe)
    rc, out, _ = fs(["--help"])
    m = re.search(rb"-a, --algorithm=ALG\s+hash with ALG:([\w ]+)\n", out)
    algs = m.group(1).decode().split() if m else []
    check(algs == ALL_ALGS, "-a's names %r" % algs)
    write(d, "abc", "abc")
    for tool in [a + "sum" for a in algs] + ["sha1dcsum_partialcoll"]:
        alg = tool[:-3] if tool.endswith("sum") else "sha1dc"
        for name, want in (("fast" + tool, True), (tool, sum_links)):
            path = os.path.join(bindir, name)
            check(os.path.islink(path) == want and (not want or os.readlink(path) == "fastsha"),
                  "%s installed: %s" % (name, want))
            if want and alg == "sha1dc":
                # The reference's command: no -s, a file name.
                rc, out, _ = run([path, "abc"], cwd=d, argv0=name)
                check(out == ('%s  abc\n' % hexof(alg, b"abc")).encode(), "%s runs" % name)
            elif want:
                rc, out, _ = run([path, "-s", "abc"], argv0=name)
                check(out == ('%s  "abc"\n' % hexof(alg, b"abc")).encode(), "%s runs" % name)
        page = found.get("fast%s.1" % tool)
        check(page is not None and open(page).read() == ".so man1/fastsha.1\n",
              "fast%s.1 points to fastsha.1" % tool)
        check("%s.1" % tool not in found, "no %s.1 shadowing coreutils' page" % tool)
    # fastcksum: GNU cksum for the SHA algorithms (tests/cli/cksum_test.py).
    for name, want in (("fastcksum", True), ("cksum", sum_links)):
        path = os.path.join(bindir, name)
        check(os.path.islink(path) == want, "%s installed: %s" % (name, want))
        if want:
            rc, out, _ = run([path, "-a", "sha3", "-l", "256", "abc"], cwd=d, argv0=name)
            check(out == ("SHA3-256 (abc) = %s\n" % hashlib.sha3_256(b"abc").hexdigest()).encode(),
                  "%s runs: %r" % (name, out))
    check("cksum.1" not in found and found.get("fastcksum.1") is not None,
          "fastcksum.1, and no cksum.1 shadowing coreutils' page")
    page = found.get("fastsha.1")
    check(page is not None and open(page).read() == open(os.path.join(A.src, "docs",
                                                                      "fastsha.1")).read(),
          "fastsha.1 installed")
    man = shutil.which("man")
    if page and man:
        mandir = os.path.dirname(os.path.dirname(page))
        for name in ("fastsha", "fastsha256sum"):
            p = subprocess.run([man, "-M", mandir, name], capture_output=True,
                               env=env_for({"MANPAGER": "cat", "MANWIDTH": "80"}))
            check(p.returncode == 0 and b"--algorithm" in p.stdout,
                  "man -M %s %s: %r" % (mandir, name, p.stderr))
    elif page:
        print("note: man is not installed; `man fastsha` itself was not tried")


# ---- sha1dc: SHA-1 with collision detection ------------------------------------------

DC_MSG = b"SHA-1 collision attack detected"
DC_FAILED = b": FAILED SHA-1 collision attack detected\n"

# The public colliding files (docs/cli.md, ../shared/design/sha1dc): size,
# SHA-1, SHA1DC with the safe hash (the default), SHA1DC with reduced-round
# detection too (sha1dcsum_partialcoll), and whether the default flags it.
DC_FILES = {
    "shattered-1.pdf": (422435, "38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
                        "16e96b70000dd1e7c85b8368ee197754400e58ec",
                        "d3a1d09969c3b57113fd17b23e01dd3de74a99bb", True),
    "shattered-2.pdf": (422435, "38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
                        "e1761773e6a35916d99f891b77663e6405313587",
                        "92246b0b718f4c704d37bb025717cbc66babf102", True),
    "sha-mbles-1.bin": (640, "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
                        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14",
                        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14", True),
    "sha-mbles-2.bin": (640, "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
                        "9ed5d77a4f48be1dbf3e9e15650733eb850897f2",
                        "9ed5d77a4f48be1dbf3e9e15650733eb850897f2", True),
    "sha1_reducedsha_coll.bin": (128, "a56374e1cf4c3746499bc7c0acb39498ad2ee185",
                                 "a56374e1cf4c3746499bc7c0acb39498ad2ee185",
                                 "dd39885a2a5d8f59030b451e00cb45da9f9d3828", False),
}


def dc_files(d, required=True):
    """Copies the five colliding files into d, from $FASTSHA_SHA1DC_FILES or
    build/sha1dc-files (.ci/run puts them there, from Debian's package
    librust-sha1collisiondetection-dev). Without them: skips, saying why,
    or returns False when not required."""
    env = os.environ.get("FASTSHA_SHA1DC_FILES")
    cands = [env] if env else []
    cands += [os.path.join(A.src, "build", "sha1dc-files")]
    if A.build:
        cands.append(os.path.join(A.build, "sha1dc-files"))
        cands.append(os.path.join(os.path.dirname(os.path.abspath(A.build)), "sha1dc-files"))
    for c in cands:
        paths = {n: os.path.join(c, n) for n in DC_FILES}
        if not all(os.path.isfile(p) for p in paths.values()):
            if c == env:
                print("FAIL: FASTSHA_SHA1DC_FILES=%s lacks some of %s" % (env, sorted(DC_FILES)))
                sys.exit(1)
            continue
        for n, p in paths.items():
            data = open(p, "rb").read()
            check(len(data) == DC_FILES[n][0] and hashlib.sha1(data).hexdigest() == DC_FILES[n][1],
                  "%s is the public file (size, SHA-1)" % p)
            shutil.copy(p, os.path.join(d, n))
        return True
    if not required:
        return False
    print("SKIP: the colliding files (shattered-1.pdf ...) are not in $FASTSHA_SHA1DC_FILES or "
          "build/sha1dc-files (apt-get download librust-sha1collisiondetection-dev, dpkg -x, "
          "then .../sha1collisiondetection-0.2.6/test/)")
    sys.exit(SKIP)


def dc_pair():
    """fastsha -a sha1dc against sha1sum: on inputs that are no collision
    attack they must print the same."""
    p = Pair("fastsha")
    p.extra = ["-a", "sha1dc"]
    return p


def tag_dc(out):
    """sha1sum --tag's output as sha1dc's: the tag SHA1DC."""
    return re.sub(rb"(^|[\n\0])(\\?)SHA1 \(", rb"\1\2SHA1DC (", out)


def quoted(name):
    """name quoted as fastsha's (GNU's) messages quote it."""
    rc, out, err = run(["sha1sum", "--", os.path.join("no-such-dir", name)])
    m = re.match(rb"sha1sum: (.*): No such file or directory\n$", err, re.S)
    return m.group(1).replace(b"no-such-dir/", b"") if m else b"?"


def case_sha1dc(d):
    """-a sha1dc on inputs that are no collision attack: sha1sum's output,
    messages and exit status byte for byte (its tag SHA1DC under --tag)
    through every input path; --check of sha1dc lists; -s; the help, the
    self-test and the backends."""
    p = dc_pair()
    make_tree(d)
    files = ["--"] + NAMES + ["missing", "dir", "a"]
    for opts in HASH_OPTS:
        if "--tag" not in opts:
            compare(gnu_opts(opts) + files, d, pair=p, ours_args=opts + files,
                    label="sha1dc hash %r" % opts)
            continue
        ours = p.ours(opts + files, cwd=d)
        gnu = p.theirs(gnu_opts(opts) + files, cwd=d)
        check(ours == (gnu[0], tag_dc(gnu[1]), gnu[2]),
              "sha1dc %r: %r\n  vs sha1sum %r" % (opts, ours, gnu))
    data = os.urandom(300000)
    compare([], d, pair=p, stdin_bytes=data, label="sha1dc stdin pipe")
    compare(["-", "a", "-"], d, pair=p, stdin_path=os.path.join(d, "it's"), label="sha1dc - a -")
    # Many small files: the batches, with and without io_uring, any -j.
    sub = os.path.join(d, "many")
    os.mkdir(sub)
    args = make_many(sub)
    want = p.theirs(args, cwd=sub, input_bytes=b"in")
    for jobs in ([], ["-j", "1"], ["-j", "3"]):
        for env in (None, env_for({"FASTSHA_NO_URING": "1"})):
            ours = p.ours(jobs + args, cwd=sub, input_bytes=b"in", env=env)
            check(ours == want, "sha1dc batch %r uring=%s: %r\n  vs sha1sum %r"
                  % (jobs, env is None, ours[1:][:300], want[1:][:300]))
    # --check: sha1sum's lists read as sha1dc, and sha1dc's tagged lines.
    rc, out, _ = run(["sha1sum", "--"] + NAMES, cwd=d)
    write(d, "gnu.sum", out + b"%s  missing\ngarbage\n%s  a\n" % (b"0" * 40, b"0" * 40))
    for opts in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"],
                 ["-j", "3"]):
        ours = p.ours(opts + ["-c", "gnu.sum"], cwd=d)
        gnu = p.theirs(gnu_opts(opts) + ["-c", "gnu.sum"], cwd=d)
        # -w names the selected algorithm's tag.
        gnu = gnu[:2] + (gnu[2].replace(b" SHA1 checksum line", b" SHA1DC checksum line"),)
        check(ours == gnu, "sha1dc -c %r: %r\n  vs sha1sum %r" % (opts, ours, gnu))
    rc, tagged, _ = fs(["-a", "sha1dc", "--tag", "--"] + NAMES, cwd=d)
    check(rc == 0 and tagged.count(b"SHA1DC (") == len(NAMES), "--tag lines %r" % tagged[:200])
    rc, sha1tagged, _ = run(["sha1sum", "--tag", "--"] + NAMES, cwd=d)
    check(tag_dc(sha1tagged) == tagged, "sha1dc --tag is sha1sum --tag with SHA1DC")
    for opts in ([], ["--quiet"], ["-j", "2"]):
        write(d, "t.sum", sha1tagged)
        gnu = run(["sha1sum", "-c"] + gnu_opts(opts) + ["t.sum"], cwd=d)
        write(d, "t.sum", tagged)
        for alg in ([], ["-a", "sha1dc"], ["-a", "sha256"]):  # tagged lines name their own
            ours = fs(alg + ["-c"] + opts + ["t.sum"], cwd=d)
            check(ours == (gnu[0], gnu[1], as_fastsha(gnu[2], "sha1sum")),
                  "-c SHA1DC lines %r %r: %r vs %r" % (alg, opts, ours, gnu))
    # Run as sha1sum, a SHA1DC line is as misformatted as it is to GNU's.
    write(d, "t.sum", tagged[:tagged.index(b"\n") + 1] + sha1tagged)
    compare(["-c", "-w", "t.sum"], d, pair=Pair("sha1sum"), label="sha1sum -c SHA1DC line")
    # -s, --help, the self-test, backends, --fsverity.
    rc, out, err = fs(["-a", "sha1dc", "-s", "abc", "--tag", "-s", ""])
    check((rc, out, err) == (0, ('SHA1DC ("abc") = %s\nSHA1DC ("") = %s\n'
                                 % (ABC, hexof("sha1", b""))).encode(), b""), "-s: %r" % out)
    rc, out, err = fs(["--help"])
    check(b" sha512 sha1dc\n" in out and b"sha1dc is SHA-1 that detects" in out,
          "--help names sha1dc: %r" % out)
    rc, out, err = fs(["-a", "sha1dc", "--help"])
    check(rc == 0 and out.split(b"\n")[1] == b"Print or check SHA1DC (160-bit) checksums, in "
          b"sha1sum's format.", "-a sha1dc --help: %r" % out[:200])
    rc, out, err = fs(["--self-test=verbose"])
    rows = {r[0]: r[1] for r in backends()["sha1"][1]}
    for name, ok in rows.items():
        if ok:
            check(re.search((r"\nsha1dc  %s\s+ok: (\d+)/\1 known answers\n" % re.escape(name)
                             ).encode(), out), "--self-test sha1dc %s: %r" % (name, out[-400:]))
    check(rc == 0, "--self-test passes")
    check(backends()["sha1"][0] == ["sha1", "sha1dc"], "sha1dc is in the sha1 family")
    rc, out, err = fs(["-a", "sha1dc", "--backend", "portable", "-s", "abc"])
    check((rc, out) == (0, ('%s  "abc"\n' % ABC).encode()), "--backend portable: %r" % err)
    rc, out, err = fs(["-a", "sha1dc", "--fsverity", "a"], cwd=d)
    check(rc == 1 and b"fs-verity has no sha1dc" in err, "--fsverity refuses: %r" % err)


def case_sha1dc_files(d):
    """The colliding files through every input path of -a sha1dc: the
    safe-hash digest on stdout, the message on stderr, exit 1; --check
    fails them; plain -a sha1 does not notice."""
    dc_files(d)
    names = sorted(DC_FILES)
    flagged = [n for n in names if DC_FILES[n][4]]
    line = lambda n, h: ("%s  %s\n" % (h, n)).encode()
    msg = lambda n: b"fastsha: " + quoted(n) + b": " + DC_MSG + b"\n"
    want_out = b"".join(line(n, DC_FILES[n][2]) for n in names)
    want_err = b"".join(msg(n) for n in flagged)
    nouring = env_for({"FASTSHA_NO_URING": "1"})
    for opts in ([], ["-j", "1"], ["-j", "2"], ["--mmap"], ["--no-read-ahead", "-j", "1"]):
        for env in (None, nouring):
            got = fs(["-a", "sha1dc"] + opts + names, cwd=d, env=env)
            check(got == (1, want_out, want_err), "-a sha1dc %r uring=%s: %r"
                  % (opts, env is None, got))
    # Plain SHA-1 hashes them without a word.
    got = fs(names, cwd=d)
    check(got == (0, b"".join(line(n, DC_FILES[n][1]) for n in names), b""), "-a sha1: %r" % (got,))
    # --tag, -z, a name that needs quoting, standard input.
    got = fs(["-a", "sha1dc", "--tag", "-z", "sha-mbles-1.bin"], cwd=d)
    check(got == (1, b"SHA1DC (sha-mbles-1.bin) = %s\0" % DC_FILES["sha-mbles-1.bin"][2].encode(),
                  msg("sha-mbles-1.bin")), "--tag -z: %r" % (got,))
    odd = "it's a\ncollision"
    shutil.copy(os.path.join(d, "sha-mbles-2.bin"), os.path.join(d, odd))
    got = fs(["-a", "sha1dc", odd], cwd=d)
    check(got == (1, b"\\" + line("it's a\\ncollision", DC_FILES["sha-mbles-2.bin"][2]), msg(odd)),
          "quoted name: %r" % (got,))
    # --check escapes such a name in its FAILED line too.
    write(d, "odd.sum", b"\\" + line("it's a\\ncollision", DC_FILES["sha-mbles-2.bin"][2]))
    got = fs(["-a", "sha1dc", "-c", "odd.sum"], cwd=d)
    check(got == (1, b"\\it's a\\ncollision" + DC_FAILED,
                  b"fastsha: WARNING: 1 listed file is a SHA-1 collision attack\n"),
          "-c, escaped name: %r" % (got,))
    for n in ("shattered-2.pdf", "sha-mbles-1.bin"):
        with open(os.path.join(d, n), "rb") as f:
            got = fs(["-a", "sha1dc"], cwd=d, stdin=f)
        check(got == (1, line("-", DC_FILES[n][2]), msg("-")), "stdin %s: %r" % (n, got))
        got = fs(["-a", "sha1dc", "-"], cwd=d, input_bytes=open(os.path.join(d, n), "rb").read())
        check(got == (1, line("-", DC_FILES[n][2]), msg("-")), "stdin pipe %s: %r" % (n, got))
    # The shortest flagged prefix (320 bytes of shattered-1.pdf; 319 are not)
    # made here, never stored: a small file for the batches.
    pdf = open(os.path.join(d, "shattered-1.pdf"), "rb").read()
    write(d, "p320", pdf[:320])
    write(d, "p319", pdf[:319])
    rc, out, err = fs(["-a", "sha1dc", "p319", "p320"], cwd=d)
    h320 = out.split(b"\n")[1][:40].decode() if out.count(b"\n") == 2 else "?"
    check(rc == 1 and out.split(b"\n")[0] == line("p319", hexof("sha1", pdf[:319]))[:-1] and
          h320 != hexof("sha1", pdf[:320]) and err == msg("p320"), "prefixes: %r" % ((rc, out, err),))
    # A big flagged file: the mapped path, the read-ahead thread.
    write(d, "big", pdf + b"\0" * (6 << 20))
    outs = set()
    for opts in ([], ["--mmap"], ["--no-read-ahead"], ["-"]):
        got = fs(["-a", "sha1dc"] + opts + ([] if opts == ["-"] else ["big"]), cwd=d,
                 stdin=open(os.path.join(d, "big"), "rb") if opts == ["-"] else None)
        name = "-" if opts == ["-"] else "big"
        check(got[0] == 1 and got[2] == msg(name) and got[1].endswith(b"  %s\n" % name.encode()),
              "big %r: %r" % (opts, got))
        outs.add(got[1][:40])
    check(len(outs) == 1 and hexof("sha1", open(os.path.join(d, "big"), "rb").read()).encode()
          not in outs, "big: one safe-hash digest, not SHA-1's: %r" % outs)
    # Many small files with the flagged ones among them, -j 2, with and
    # without io_uring: every line in order, one message per flagged input.
    sub = os.path.join(d, "many")
    os.mkdir(sub)
    for n in names + ["p319", "p320"]:
        shutil.copy(os.path.join(d, n), os.path.join(sub, n))
    small = []
    for i in range(120):
        small.append(write(sub, "s%03d" % i, os.urandom(i * 37 % 5000)))
        if i % 17 == 5:
            small.append(["sha-mbles-1.bin", "p320", "sha1_reducedsha_coll.bin", "p319",
                          "sha-mbles-2.bin", "shattered-1.pdf"][(i // 17) % 6])
    expect = {n: DC_FILES[n][2] for n in names}
    expect["p319"] = hexof("sha1", pdf[:319])
    expect["p320"] = h320
    dcf = set(flagged) | {"p320"}
    want_out = b"".join(line(n, expect.get(n) or hexof("sha1", open(os.path.join(sub, n), "rb")
                                                        .read())) for n in small)
    want_err = b"".join(msg(n) for n in small if n in dcf)
    for jobs in ([], ["-j", "2"], ["-j", "1"]):
        for env in (None, nouring):
            got = fs(["-a", "sha1dc"] + jobs + small, cwd=sub, env=env)
            check(got == (1, want_out, want_err), "batch %r uring=%s: %r" % (jobs, env is None,
                                                                              got[2][:300]))
    # --check: a flagged input fails whatever digest is listed, with its own
    # FAILED line and WARNING line; unflagged ones are checked as usual.
    dc_list = want_out
    sha1_list = b"".join(line(n, hexof("sha1", open(os.path.join(sub, n), "rb").read()))
                         for n in small)
    nflag = sum(1 for n in small if n in dcf)
    want_ck = b"".join(n.encode() + (DC_FAILED if n in dcf else b": OK\n") for n in small)
    warn = b"fastsha: WARNING: %d listed files are SHA-1 collision attacks\n" % nflag
    for lst in (dc_list, sha1_list):
        write(sub, "l.sum", lst)
        for jobs in ([], ["-j", "2"]):
            for env in (None, nouring):
                got = fs(["-a", "sha1dc", "-c"] + jobs + ["l.sum"], cwd=sub, env=env)
                check(got == (1, want_ck, warn), "-c %r uring=%s: %r" % (jobs, env is None,
                                                                        (got[0], got[2])))
        got = fs(["-a", "sha1dc", "-c", "--quiet", "l.sum"], cwd=sub)
        check(got == (1, b"".join(n.encode() + DC_FAILED for n in small if n in dcf), warn),
              "-c --quiet: %r" % (got,))
        got = fs(["-a", "sha1dc", "-c", "--status", "l.sum"], cwd=sub)
        check(got == (1, b"", b""), "-c --status: %r" % (got,))
    # Plain SHA-1's check passes them: that is the attack.
    got = fs(["-c", "l.sum"], cwd=sub)
    check(got[0] == 0 and got[2] == b"", "sha1 -c of the colliding files: %r" % ((got[0], got[2]),))
    # Tagged lines, and one of each failure: the WARNING lines in GNU's order.
    rc, tagged, _ = fs(["-a", "sha1dc", "--tag", "sha-mbles-1.bin", "sha1_reducedsha_coll.bin"],
                       cwd=d)
    write(d, "t.sum", tagged + b"SHA1DC (missing) = %s\nSHA1DC (shattered-1.pdf) = %s\n"
          b"SHA1DC (p319) = %s\nbad line\n" % (b"0" * 40, b"1" * 40, b"2" * 40))
    got = fs(["-c", "t.sum"], cwd=d)
    check(got == (1, b"sha-mbles-1.bin" + DC_FAILED + b"sha1_reducedsha_coll.bin: OK\n"
                  b"missing: FAILED open or read\nshattered-1.pdf" + DC_FAILED +
                  b"p319: FAILED\n",
                  b"fastsha: missing: No such file or directory\n"
                  b"fastsha: WARNING: 1 line is improperly formatted\n"
                  b"fastsha: WARNING: 1 listed file could not be read\n"
                  b"fastsha: WARNING: 1 computed checksum did NOT match\n"
                  b"fastsha: WARNING: 2 listed files are SHA-1 collision attacks\n"),
          "-c tagged, mixed: %r" % (got,))
    write(d, "one.sum", line("sha-mbles-2.bin", DC_FILES["sha-mbles-2.bin"][2]))
    got = fs(["-a", "sha1dc", "-c", "--ignore-missing", "one.sum"], cwd=d)
    check(got == (1, b"sha-mbles-2.bin" + DC_FAILED,
                  b"fastsha: WARNING: 1 listed file is a SHA-1 collision attack\n"
                  b"fastsha: one.sum: no file was verified\n"), "-c one: %r" % (got,))
    # An independent implementation agrees on the made-up inputs, if installed.
    if shutil.which("sha1cdsum"):
        rc, out, err = run(["sha1cdsum", "p319", "p320", "big"], cwd=d)
        rc2, out2, _ = fs(["-a", "sha1dc", "p319", "p320", "big"], cwd=d)
        check(out.replace(b" *coll* ", b"  ") == out2 and out.count(b"*coll*") == 2,
              "Debian's sha1cdsum agrees: %r vs %r" % (out, out2))
    else:
        print("note: Debian's sha1cdsum is not installed; not compared")


def case_sha1dcsum(d):
    """Run as sha1dcsum, fastsha is the reference SHA1DC library's command
    (src/main.c of cr-marcstevens/sha1collisiondetection): its lines, its
    messages on stdout, its exit status, no options; docs/cli.md."""
    make_tree(d, big=False)
    dc = link("sha1dcsum")
    datas = {n: open(os.path.join(d, n), "rb").read() for n in NAMES}
    plain = lambda n: ("%s  %s\n" % (hexof("sha1", datas[n]), n)).encode()
    for name in ("sha1dcsum", "fastsha1dcsum", "/some/where/sha1dcsum"):
        got = run([dc], argv0=name)
        check(got == (1, b"Usage: %s <file>\n" % os.path.basename(name).encode(), b""),
              "%s alone: %r" % (name, got))
    # Every name as given: no escaping, no options, "-" is a file name.
    got = run([dc] + NAMES, cwd=d, argv0="sha1dcsum")
    check(got == (0, b"".join(plain(n) for n in NAMES), b""), "names: %r" % (got,))
    write(d, "-", "dash")
    for opt in ("-", "--help", "-h", "--version", "-c"):
        got = run([dc, "a", opt, "a"], cwd=d, argv0="sha1dcsum")
        if opt == "-":
            want = (0, plain("a") + ("%s  -\n" % hexof("sha1", b"dash")).encode() + plain("a"), b"")
        else:
            want = (1, plain("a") + b"cannot open file: %s\n" % opt.encode(), b"")
        check(got == want, "sha1dcsum a %s a: %r" % (opt, got))
    # The first failure ends the run, its message on stdout.
    got = run([dc, "a", "missing", "b\\c"], cwd=d, argv0="sha1dcsum")
    check(got == (1, plain("a") + b"cannot open file: missing\n", b""), "missing: %r" % (got,))
    got = run([dc, "dir", "a"], cwd=d, argv0="fastsha1dcsum")
    check(got == (1, b"error while reading file: dir\n", b""), "dir: %r" % (got,))
    os.chmod(os.path.join(d, "a"), 0)
    if os.geteuid() != 0:
        got = run([dc, "a"], cwd=d, argv0="sha1dcsum")
        check(got == (1, b"cannot open file: a\n", b""), "unreadable: %r" % (got,))
    os.chmod(os.path.join(d, "a"), 0o644)
    # Standard input only as a path, as the reference's fopen() takes it.
    got = run([dc, "/dev/stdin"], input_bytes=b"abc", argv0="sha1dcsum")
    check(got == (0, ("%s  /dev/stdin\n" % ABC).encode(), b""), "/dev/stdin: %r" % (got,))
    # A write error: the one difference from the reference (which exits 0).
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            got = run([dc, "a"], cwd=d, argv0="sha1dcsum", stdout=full)
        check(got[0] == 1 and got[2] == b"sha1dcsum: write error: No space left on device\n",
              "write error: %r" % (got,))
    cd = shutil.which("sha1cdsum")
    if cd:
        # Debian's Rust port prints the same lines for readable files whose
        # names need no escaping (it escapes as sha1sum; the reference not).
        ok_names = [n for n in NAMES if not n.startswith("-") and not re.search(r"[\\\n\r]", n)]
        check(run([cd, "--"] + ok_names, cwd=d)[:2] == run([dc] + ok_names, cwd=d,
                                                            argv0="sha1dcsum")[:2],
              "sha1cdsum's lines on ordinary files")
    # The colliding files, when present: *coll*, exit 0; partialcoll.
    sub = os.path.join(d, "coll")
    os.mkdir(sub)
    if not dc_files(sub, required=False):
        print("note: the colliding files are absent; their sha1dcsum checks did not run")
        return
    names = sorted(DC_FILES)
    want = b"".join(("%s %s %s\n" % (DC_FILES[n][2], "*coll*" if DC_FILES[n][4] else "", n))
                    .encode() for n in names)
    got = run([dc] + names, cwd=sub, argv0="sha1dcsum")
    check(got == (0, want, b""), "sha1dcsum on the colliding files: %r" % (got,))
    want_p = b"".join(("%s *coll* %s\n" % (DC_FILES[n][3], n)).encode() for n in names)
    pdir = os.path.join(d, "partial")
    os.mkdir(pdir)
    os.symlink(os.path.abspath(A.fastsha), os.path.join(pdir, "sha1dcsum"))
    for argv0, exe in (("sha1dcsum_partialcoll", link("sha1dcsum_partialcoll")),
                       ("fastsha1dcsum_partialcoll", link("fastsha1dcsum_partialcoll")),
                       (os.path.join(pdir, "sha1dcsum"), os.path.join(pdir, "sha1dcsum"))):
        got = run([exe] + names, cwd=sub, argv0=argv0)
        check(got == (0, want_p, b""), "%s (reduced-round too): %r" % (argv0, got))
    if cd:
        got = run([cd] + names, cwd=sub)
        check(got == (0, want, b""), "Debian's sha1cdsum agrees: %r" % (got,))
    else:
        print("note: Debian's sha1cdsum is not installed; not compared")


def case_kat_uptodate(d):
    p = subprocess.run([sys.executable, os.path.join(A.src, "tests", "cli", "gen_kat.py"), A.src,
                        "--check"], capture_output=True)
    check(p.returncode == 0, "gen_kat --check: %r" % p.stdout)


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastsha", required=True)
    ap.add_argument("--shim", default="")
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", default="")
    ap.add_argument("--cache", default="")
    ap.add_argument("case")
    ap.add_argument("arg", nargs="?")
    A = ap.parse_args()
    A.fastsha = os.path.abspath(A.fastsha)
    return run_case(globals()["case_" + A.case], A.arg, "fastsha-cli")


def run_case(fn, arg, prefix):
    """Run case fn (given arg when there is one) in a scratch directory, with
    LINKDIR a second one for the links under GNU names; both removed after
    (made writable first: cases leave unreadable files). The exit status:
    1 if any check() failed. Also the harness of hmac_test.py."""
    global LINKDIR
    d = tempfile.mkdtemp(prefix=prefix + "-")
    LINKDIR = tempfile.mkdtemp(prefix=prefix + "-bin-")
    try:
        if arg is not None:
            fn(d, arg)
        else:
            fn(d)
    finally:
        for root, dirs, files in os.walk(d):
            for x in dirs + files:
                try:
                    os.chmod(os.path.join(root, x), 0o700)
                except OSError:
                    pass
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(LINKDIR, ignore_errors=True)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
