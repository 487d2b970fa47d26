#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz_check.c to tests/fuzz/corpus_check/ (run
from anywhere; the output is the same every time).

Each seed is fuzz_check's input: a header byte (bits 0-2 the selected
algorithm in cli_alg.c's order, bit 3 any_tag, bit 4 NUL-ended lines,
bits 5-6 the starting "bsd reversed" state, bit 7 one line), then a
checksum list. Per algorithm, every line form --check reads (docs/check.md):
GNU text and binary, escaped names, BSD tags, OpenSSL's tags, the bsd
reversed form, CRLF endings, comments and blank lines, and near misses
(a digest one digit short or long, another algorithm's tag, a lone
trailing backslash). File names say what is in them.
"""
import hashlib
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus_check")

# cli_alg.c's row order: the header's algorithm index.
ALGS = ["sha1", "sha224", "sha256", "sha384", "sha512"]
ANY_TAG, NUL_LINES, WHOLE = 0x08, 0x10, 0x80
STANDARD, REVERSED = 0x20, 0x40


def hexof(alg, data):
    return hashlib.new(alg, data).hexdigest()


def forms(alg):
    """(name, list) pairs for alg, each list '\\n'-ended lines."""
    h = hexof(alg, b"abc")
    tag = alg.upper()
    other = "SHA1" if alg != "sha1" else "SHA256"
    return [
        ("gnu-text", f"{h}  abc.txt\n"),
        ("gnu-binary", f"{h} *abc.bin\n"),
        ("gnu-upper", f"{h.upper()}  ABC\n"),
        ("gnu-space-name", f"{h}   leading space\n"),
        ("escaped-newline", f"\\{h}  new\\nline\\\\back\\rcr\n"),
        ("escaped-bad", f"\\{h}  bad\\x\n\\{h}  trailing\\\n"),
        ("bsd-tag", f"{tag} (abc.txt) = {h}\n"),
        ("bsd-tag-parens", f"{tag} (a (b) c) = {h}\n"),
        ("bsd-escaped", f"\\{tag} (a\\nb\\\\c) = {h}\n"),
        ("openssl-tag", f"{tag}(abc.txt)= {h}\n"),
        ("bsd-other-tag", f"{other} (abc.txt) = {hexof(other.lower(), b'abc')}\n"),
        ("reversed", f"{h} abc.txt\n{h}  second\n"),
        ("crlf", f"{h}  dos.txt\r\n{tag} (dos2) = {h}\r\n"),
        ("comments", f"# a comment\n\n\r\n{h}  after.txt\n#{h}  hidden\n"),
        ("short-long", f"{h[:-1]}  short\n{h}0  long\n{tag} (x) = {h[:-1]}\n"),
        ("stdin-dash", f"{h}  -\n"),
        ("no-newline", f"{h}  last-line"),
        ("nul-inside", f"{h}  nul\0inside\n{tag} (n\0l) = {h}\n"),
    ]


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for i, alg in enumerate(ALGS):
        for name, text in forms(alg):
            data = text.encode("latin-1")
            seeds = {f"{alg}-{name}": bytes([i | ANY_TAG]) + data}
            if name in ("bsd-tag", "bsd-other-tag", "openssl-tag"):
                seeds[f"{alg}-{name}-own-tag-only"] = bytes([i]) + data
            if name == "reversed":
                seeds[f"{alg}-{name}-after-standard"] = bytes([i | ANY_TAG | STANDARD]) + data
                seeds[f"{alg}-{name}-after-reversed"] = bytes([i | ANY_TAG | REVERSED]) + data
            if name in ("gnu-text", "escaped-newline", "crlf"):
                seeds[f"{alg}-{name}-nul-ended"] = (
                    bytes([i | ANY_TAG | NUL_LINES]) + data.replace(b"\n", b"\0"))
            if name == "comments":
                seeds[f"{alg}-{name}-one-line"] = bytes([i | ANY_TAG | WHOLE]) + data
            for fname, seed in seeds.items():
                with open(os.path.join(OUT, fname), "wb") as f:
                    f.write(seed)
    # Every algorithm's lines in one list, read as sha256 with any tag.
    mixed = "".join(f"{a.upper()} (m-{a}) = {hexof(a, b'')}\n" for a in ALGS)
    with open(os.path.join(OUT, "mixed-tags"), "wb") as f:
        f.write(bytes([2 | ANY_TAG]) + mixed.encode())


if __name__ == "__main__":
    main()
