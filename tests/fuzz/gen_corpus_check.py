#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz_check.c to tests/fuzz/corpus_check/ (run
from anywhere; the output is the same every time).

Each seed is fuzz_check's input: two header bytes (the first: bits 0-2
the selected algorithm in cli_alg.c's order, bit 3 any_tag, bit 4
NUL-ended lines, bits 5-6 the starting "bsd reversed" state, bit 7 one
line; the second: bit 0 the algorithm's bit 3, bit 1 base64 digests,
bit 2 GNU cksum's parser, bits 3-6 its algorithm in GNU's order, bit 7
-a given), then a checksum list. Per algorithm, every line form --check
reads (docs/check.md): GNU text and binary, escaped names, BSD tags,
OpenSSL's tags, the bsd reversed form, CRLF endings, comments and blank
lines, and near misses (a digest one digit short or long, another
algorithm's tag, a lone trailing backslash); base64 digests and XOF
lengths (SHAKE128-512); and GNU cksum's forms (SHA3-256, SHA2-256, -N
truncations, untagged lines whose length is the digest's). File names
say what is in them.
"""
import base64
import hashlib
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus_check")

# cli_alg.c's row order: the header's algorithm index.
ALGS = ["sha1", "sha224", "sha256", "sha384", "sha512"]
# Some of the Keccak rows (sha1dc is 5, sha3-224 6 ...): index, hashlib name, tag.
KECCAK = [(7, "sha3_256", "SHA3-256"), (9, "sha3_512", "SHA3-512"), (10, "shake_128", "SHAKE128"),
          (11, "shake_256", "SHAKE256")]
B64, CKSUM, SPECIFIED = 0x02, 0x04, 0x80
# GNU cksum's algorithm order (cli_alg.c's gnu[]): the second byte's bits 3-6.
GNU = ["bsd", "sysv", "crc", "crc32b", "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
       "sha2", "sha3", "blake2b", "sm3"]
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
                    f.write(seed[:1] + b"\0" + seed[1:])
    # Every algorithm's lines in one list, read as sha256 with any tag.
    mixed = "".join(f"{a.upper()} (m-{a}) = {hexof(a, b'')}\n" for a in ALGS)
    with open(os.path.join(OUT, "mixed-tags"), "wb") as f:
        f.write(bytes([2 | ANY_TAG, 0]) + mixed.encode())
    # fastsha's forms of the Keccak family: tags, base64, XOF lengths, OpenSSL's.
    for row, name, tag in KECCAK:
        xof = name.startswith("shake")
        d = hashlib.new(name, b"abc")
        h = d.hexdigest(32 if name == "shake_128" else 64) if xof else d.hexdigest()
        raw = bytes.fromhex(h)
        b = base64.b64encode(raw).decode()
        text = (f"{h}  plain\n{b}  b64\n{tag} (t) = {h}\n{tag} (tb) = {b}\n{tag}(o)= {h}\n"
                f"{b[:-1]}  b64-short\n{h[:-2]}  hex-short\n")
        if xof:
            long = d.hexdigest(64)
            text += (f"{tag}-512 (l) = {long}\n{tag}-12 (odd) = {h}\n"
                     f"SHAKE-{name[-3:]}(o)= {d.hexdigest(16)}\n")
        seed = bytes([(row & 7) | ANY_TAG, (row >> 3) | B64]) + text.encode()
        with open(os.path.join(OUT, f"{tag.lower()}-forms"), "wb") as f:
            f.write(seed)
    # GNU cksum's parser: tagged lines of every SHA, lengths, base64, odd ones.
    a = b"a\n"
    s256 = hashlib.sha256(a).hexdigest()
    tagged = "".join(f"SHA3-{n} (x) = {hashlib.new(f'sha3_{n}', a).hexdigest()}\n"
                     for n in (224, 256, 384, 512))
    tagged += (f"SHA2-256 (x) = {s256}\nSHA256 (x) = {base64.b64encode(bytes.fromhex(s256)).decode()}\n"
               f"SHA256-128 (x) = {s256[:32]}\nSHA3-0x100 (x) = {hashlib.sha3_256(a).hexdigest()}\n"
               f"SHA1(x)= {hashlib.sha1(a).hexdigest()}\nMD5 (x) = {hashlib.md5(a).hexdigest()}\n"
               f"BLAKE2b-256 (x) = {hashlib.blake2b(a, digest_size=32).hexdigest()}\n"
               f"CRC (x) = 1\nSHA3-248 (x) = {s256[:62]}\n")
    untagged = (f"{hashlib.sha3_384(a).hexdigest()}  u\n"
                f"{base64.b64encode(hashlib.sha3_224(a).digest()).decode()}  b\n"
                f"{hashlib.sha3_256(a).hexdigest()} reversed\n")
    for gnu, spec, text, fname in (("crc", 0, tagged, "cksum-tagged"),
                                   ("sha2", SPECIFIED, tagged + untagged, "cksum-a-sha2"),
                                   ("sha3", SPECIFIED, untagged + tagged, "cksum-a-sha3"),
                                   ("sha256", SPECIFIED, tagged + f"{s256}  u\n", "cksum-a-sha256"),
                                   ("blake2b", SPECIFIED, untagged, "cksum-a-blake2b")):
        seed = bytes([0, CKSUM | GNU.index(gnu) << 3 | spec]) + text.encode()
        with open(os.path.join(OUT, fname), "wb") as f:
            f.write(seed)


if __name__ == "__main__":
    main()
