#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The code examples of README.md and docs/*.md, run as a reader runs them.

  docs_examples.py --src DIR [--build DIR] [--cc CC] [--python PY] LANG [FILE.md...]

LANG:
  c       (ctest docs_examples_c) every ```c block, compiled with -std=c11
          -pedantic -O2 -Wall -Wextra against the library as `cmake
          --install BUILD` puts it in a scratch prefix, through its
          pkg-config file, then run; any compiler message fails it
  sh      (ctest docs_examples_sh) the command's shown output: a ``` block
          that starts with `$ ` (commands, each followed by what it prints)
          and a block after an <!-- output-of: SCRIPT --> comment (what sh
          SCRIPT prints on stdout and stderr), run in a scratch directory
          with the installed command and its links first on PATH,
          LC_ALL=C.UTF-8, no FASTSHA_BACKEND
  python  (make test-python: python/tests/test_docs_examples.py) every
          ```python block, one process each, in a scratch directory, after
          `import fastsha` (a page's first block imports it, the others
          assume it), by PY or $FASTSHA_PYTHON: the tests of the wheel just
          built pass their own interpreter; ctest's docs_examples_python
          runs them only when FASTSHA_PYTHON is set, as the venv it could
          find may hold an older build than the tree

Why: the examples are what readers copy. An API, a message or an option
moves on and an example that compiled or printed what it shows no longer
does, with nothing to say so; this makes such a change fail `make test`.
FILE.md (default: README.md and every docs/*.md) runs a scratch copy.

Markers are HTML comments, which the rendered page does not show, on the
lines right before a block's opening fence (`after:` right after its
closing one):
  <!-- not-run: REASON -->    not meant to run here (a template, a sketch
                              needing a cluster): counted, named, skipped
  <!-- before: CODE -->       what a fragment assumes (declarations, files)
  <!-- after: CODE -->        checks of what the block's comments claim:
                              CHECK(cond) in C, assert in Python
  <!-- output-of: SCRIPT -->  the block is what SCRIPT prints; SCRIPT may
                              use `status N CMD...` (CMD must exit N) and
                              `as_user CMD...` (CMD without root's rights)
  <!-- compare-only: REGEX --> in a shown output, compare only the lines
                              REGEX finds (the others are one CPU's)
A C block without a main() of its own becomes main()'s body, its #include
and #define lines (and the markers') moved to file scope; #line directives
make the compiler's messages name the Markdown file and line. In a shown
output a line `...` stands for any number of lines.

Exit 0 when every example passed; 1 when one failed (each printed with its
FILE:LINE); 77 when none could run (the reason printed).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
FENCE = re.compile(r"^( *)```([A-Za-z0-9_+-]*)\s*$")
MARK = re.compile(r"<!--\s*(not-run|before|after|output-of|compare-only):(.*?)-->", re.S)


class Block:
    def __init__(self, path, line, lang, text, marks):
        self.path, self.line, self.lang, self.text = path, line, lang, text
        self.marks = marks  # name -> (text, line of the comment's first line)

    def where(self):
        return "%s:%d" % (self.path, self.line)

    def mark(self, name):
        return self.marks.get(name, (None, 0))


def comments_at(lines, i, step):
    """The HTML comments on the lines next to line i (0-based), going up
    (step -1) or down (step 1) with no blank line between, as
    {name: (text, first line, 1-based)}."""
    j = i + step
    found = {}
    while 0 <= j < len(lines):
        s = lines[j].strip()
        if step < 0 and s.endswith("-->"):
            k = j
            while k >= 0 and "<!--" not in lines[k]:
                k -= 1
            if k < 0:
                break
            chunk, first, j = "\n".join(lines[k:j + 1]), k, k - 1
        elif step > 0 and s.startswith("<!--"):
            k = j
            while k < len(lines) and "-->" not in lines[k]:
                k += 1
            chunk, first, j = "\n".join(lines[j:k + 1]), j, k + 1
        else:
            break
        for m in MARK.finditer(chunk):
            # The text's first line: the comment's line, plus the lines the
            # match starts after, plus one when the text starts on a new line.
            body = m.group(2)
            start = first + chunk.count("\n", 0, m.start(2)) + 1
            if body.startswith("\n"):
                body, start = body[1:], start + 1
            found[m.group(1)] = (body.rstrip(), start)
    return found


def parse(path, rel):
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = len(m.group(1)), m.group(2).lower()
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = [ln[indent:] if ln[:indent].strip() == "" else ln for ln in lines[i + 1:j]]
        # An after: above the fence belongs to the block before this one.
        marks = {k: v for k, v in comments_at(lines, i, -1).items() if k != "after"}
        marks.update({k: v for k, v in comments_at(lines, j, 1).items() if k == "after"})
        blocks.append(Block(rel, i + 1, lang, "\n".join(body) + "\n", marks))
        i = j + 1
    return blocks


def markdown_files(src, names):
    if names:
        return [(Path(n).resolve(), n) for n in names]
    files = [src / "README.md"] + sorted((src / "docs").glob("*.md"))
    return [(f, str(f.relative_to(src))) for f in files]


class Report:
    def __init__(self):
        self.passed, self.failed, self.skipped = [], [], []

    def fail(self, b, what):
        self.failed.append(b)
        print("FAIL: %s (%s block): %s" % (b.where(), b.lang or "output", what.rstrip()))

    def skip(self, b, why):
        self.skipped.append((b, why))

    def ok(self, b):
        self.passed.append(b)

    def end(self, kind, started):
        for b, why in self.skipped:
            print("skipped %s: %s" % (b.where(), why))
        print("%s examples: %d passed, %d failed, %d skipped (%.1f s)" % (
            kind, len(self.passed), len(self.failed), len(self.skipped), time.time() - started))
        if self.failed:
            return 1
        if not self.passed:
            print("SKIP: no %s example ran" % kind)
            return SKIP
        return 0


def to_run(blocks, rep):
    """The blocks to run, with their index (their scratch files' names):
    a block marked not-run is reported as skipped, with its reason."""
    for n, b in enumerate(blocks):
        reason, _ = b.mark("not-run")
        if reason is None:
            yield n, b
        else:
            rep.skip(b, reason.strip())


def install(build, scratch):
    """The library as a user gets it: `cmake --install` into a prefix."""
    prefix = scratch / "prefix"
    r = subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("cmake --install failed:\n" + r.stdout + r.stderr)
    pcs = list(prefix.glob("lib*/**/pkgconfig/fastsha.pc"))
    if not pcs:
        sys.exit("no fastsha.pc under " + str(prefix))
    return prefix, pcs[0].parent


# --- C -------------------------------------------------------------------

C_HEAD = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* For the after: checks; a failure names the Markdown line. */
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\\n", \\
	__FILE__, __LINE__, #cond); exit(1); } } while (0)
/* Bytes from hex, and whether p starts with the bytes hex spells. */
static inline void unhex(void *out, const char *hex)
{
	for (size_t i = 0; hex[2 * i]; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		((unsigned char *)out)[i] = (unsigned char)v;
	}
}
static inline int hex_is(const void *p, const char *hex)
{
	char buf[2 * 512 + 1] = "";
	size_t n = strlen(hex) / 2;
	for (size_t i = 0; i < n && i < 512; i++)
		snprintf(buf + 2 * i, 3, "%02x", ((const unsigned char *)p)[i]);
	return strcmp(buf, hex) == 0;
}
"""


def c_source(b):
    """The program for block b: C_HEAD, the preprocessor lines at file
    scope, the rest as main()'s body, each piece under a #line of its own."""
    pieces = []  # (text, first line) in order: before, the block, after
    before, bline = b.mark("before")
    if before is not None:
        pieces.append((before, bline))
    pieces.append((b.text, b.line + 1))
    after, aline = b.mark("after")
    if after is not None:
        pieces.append((after, aline))
    if re.search(r"\bint\s+main\s*\(", b.text):
        return C_HEAD + '#line %d "%s"\n%s' % (b.line + 1, b.path, b.text)
    top, body = [], []
    for text, first in pieces:
        fresh = True  # the next body line needs a #line (not within a statement)
        for k, ln in enumerate(text.rstrip("\n").split("\n")):
            if ln.lstrip().startswith("#"):
                top.append('#line %d "%s"\n%s' % (first + k, b.path, ln))
                fresh = True
            else:
                body.append(('#line %d "%s"\n' % (first + k, b.path) if fresh else "") + ln)
                fresh = False
    return (C_HEAD + "\n".join(top) + "\n\nint main(void)\n{\n" + "\n".join(body) +
            "\n\treturn 0;\n}\n")


def run_c(args, blocks, scratch, rep):
    cc = args.cc or os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc or not shutil.which(cc.split()[0]):
        print("SKIP: no C compiler: %s" % ("%r not found" % cc if cc else "no --cc, $CC, cc or gcc"))
        return SKIP
    if not shutil.which("pkg-config"):
        print("SKIP: pkg-config not found: the examples are built as README.md says, with it")
        return SKIP
    if not args.build:
        print("SKIP: no --build directory to install the library from")
        return SKIP
    prefix, pcdir = install(Path(args.build), scratch)
    env = dict(os.environ, PKG_CONFIG_PATH=str(pcdir))
    pc = subprocess.run(["pkg-config", "--cflags", "--libs", "fastsha"], env=env,
                        capture_output=True, text=True, check=True).stdout.split()
    libdir = pcdir.parent
    for n, b in to_run(blocks, rep):
        src = scratch / ("ex%d.c" % n)
        exe = scratch / ("ex%d" % n)
        src.write_text(c_source(b))
        r = subprocess.run(cc.split() + ["-std=c11", "-pedantic", "-O2", "-Wall", "-Wextra", "-o",
                                         str(exe), str(src)] + pc +
                           ["-Wl,-rpath," + str(libdir)],
                           capture_output=True, text=True, cwd=args.src)
        if r.returncode or r.stderr.strip():
            rep.fail(b, "compiler (%s):\n%s" % (src, r.stderr))
            continue
        r = subprocess.run([str(exe)], capture_output=True, text=True, cwd=scratch, timeout=60)
        if r.returncode:
            rep.fail(b, "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
            continue
        rep.ok(b)
    return None


# --- Python --------------------------------------------------------------

def find_python(args):
    for py in (args.python, os.environ.get("FASTSHA_PYTHON")):
        if py and shutil.which(py):
            py = os.path.abspath(shutil.which(py))
            r = subprocess.run([py, "-c", "import fastsha; print(fastsha.__version__, fastsha.__file__)"],
                               capture_output=True, text=True)
            if r.returncode == 0:
                return py, r.stdout.strip()
    return None, None


def run_python(args, blocks, scratch, rep):
    py, which = find_python(args)
    if not py:
        print("SKIP: no Python that imports fastsha named (--python or $FASTSHA_PYTHON): "
              "make test-python runs these on the wheel it has just built "
              "(python/tests/test_docs_examples.py)")
        return SKIP
    print("python: %s, fastsha %s" % (py, which))
    for n, b in to_run(blocks, rep):
        before, bline = b.mark("before")
        after, aline = b.mark("after")
        # Each piece compiled under its own Markdown name and line, so that
        # a traceback points at the page.
        prog = ["import sys\n", "def _run(src, name, line, ns):\n",
                "    exec(compile('\\n' * (line - 1) + src, name, 'exec'), ns)\n",
                # The page's first block imports fastsha; the others assume it.
                "ns = {'__name__': '__main__'}\n", "exec('import fastsha', ns)\n"]
        for text, first in ((before, bline), (b.text, b.line + 1), (after, aline)):
            if text is not None:
                prog.append("_run(%r, %r, %d, ns)\n" % (text, b.path, first))
        d = scratch / ("py%d" % n)
        d.mkdir()
        r = subprocess.run([py, "-c", "".join(prog)], capture_output=True, text=True, cwd=d,
                           timeout=120, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        if r.returncode:
            rep.fail(b, "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        else:
            rep.ok(b)
    return None


# --- the command's output ------------------------------------------------

# status N CMD...: run CMD, which must exit N. as_user CMD...: run CMD as a
# user without root's right to read every file (setpriv to nobody, or a user
# namespace), so that a mode 000 file is refused as it is to anyone else.
SH_HEAD = """status() {
	want=$1; shift
	"$@"; got=$?
	[ "$got" = "$want" ] || { echo "[exit $got, not $want: $*]"; exit 1; }
}
as_user() {
	if [ "$(id -u)" != 0 ]; then "$@"
	elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else unshare -U "$@"
	fi
}
"""


def matches(want, got):
    """Whether the lines got match want, where a line `...` in want stands
    for any number of lines."""
    if not want:
        return not got
    if want[0].strip() == "...":
        return any(matches(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and want[0] == got[0] and matches(want[1:], got[1:])


def run_sh(args, blocks, scratch, rep):
    if not args.build:
        print("SKIP: no --build directory to install the command from")
        return SKIP
    prefix, _ = install(Path(args.build), scratch)
    if not (prefix / "bin/fastsha").exists():
        print("SKIP: the command was not built (FASTSHA_BUILD_TOOLS=OFF)")
        return SKIP
    env = dict(os.environ, PATH=str(prefix / "bin") + os.pathsep + os.environ.get("PATH", ""),
               LC_ALL="C.UTF-8")
    env.pop("FASTSHA_BACKEND", None)
    for n, b in to_run(blocks, rep):
        script, _ = b.mark("output-of")
        lines = b.text.rstrip("\n").split("\n")
        if script is not None:
            steps = [(script, lines)]
        else:  # a transcript: `$ CMD` and the lines it prints
            steps = []
            for ln in lines:
                if ln.startswith("$ "):
                    steps.append((ln[2:], []))
                else:
                    steps[-1][1].append(ln)
        d = scratch / ("sh%d" % n)
        d.mkdir()
        before, _ = b.mark("before")
        only, _ = b.mark("compare-only")
        bad = None
        for cmd, want in steps:
            r = subprocess.run(["sh", "-c", SH_HEAD + (before or "") + "\n" + cmd],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, cwd=d, env=env, timeout=60)
            got = r.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
            if got == [""]:
                got = []
            if only is not None:  # the lines that do not depend on the CPU
                keep = re.compile(only.strip())
                want = [w for w in want if w.strip() == "..." or keep.search(w)]
                got = [g for g in got if keep.search(g)]
            if not matches(want, got):
                bad = "`%s` printed:\n%s\nwhere the page shows:\n%s" % (
                    cmd.strip(), "\n".join(got), "\n".join(want))
                break
            if script is not None and r.returncode:
                bad = "`%s` exited %d" % (cmd.strip(), r.returncode)
                break
        if bad:
            rep.fail(b, bad)
        else:
            rep.ok(b)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--build")
    ap.add_argument("--cc")
    ap.add_argument("--python")
    ap.add_argument("lang", choices=["c", "python", "sh"])
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    src = Path(args.src).resolve()
    started = time.time()
    blocks = []
    for path, rel in markdown_files(src, args.files):
        blocks += parse(path, rel)
    if args.lang == "sh":
        mine = [b for b in blocks if b.lang in ("", "console") and
                (b.text.startswith("$ ") or any(b.mark(k)[0] is not None
                                                for k in ("output-of", "not-run")))]
    else:
        mine = [b for b in blocks if b.lang == args.lang]
    rep = Report()
    with tempfile.TemporaryDirectory(prefix="fastsha-docs-") as tmp:
        run = {"c": run_c, "python": run_python, "sh": run_sh}[args.lang]
        code = run(args, mine, Path(tmp), rep)
    if code is not None:
        return code
    return rep.end(args.lang, started)


if __name__ == "__main__":
    sys.exit(main())
