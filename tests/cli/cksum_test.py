#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Keccak family in the command, and the command run as GNU cksum.

  cksum_test.py --fastsha BIN --src DIR [--build DIR] [--shim SO] CASE

Cases (one ctest each, tests/cli/CMakeLists.txt):
  sha3_hashlib  -a sha3-224 .. sha3-512, shake128, shake256 (with -l) against
                Python's hashlib: files through every read path, -s, every
                output form, --check of what each form writes
  keccak_k12    -a keccak256 and k12 against the vectors in tests/vectors/sha3
                and, where pycryptodome can be imported (here, or in
                build/python/venv), against it on generated inputs
  cksum_link    run as cksum and fastcksum, with the outputs and messages
                that GNU cksum 9.10's src/cksum.c and tests/cksum/*.sh give
                (written out below), and the refusals of what it lacks
  cksum_gnu     the same runs and many more against a GNU cksum 9.8 or later,
                byte for byte: $FASTSHA_GNU_CKSUM (a command; it must call
                itself "cksum" in its messages), else a cksum on PATH whose
                --version says 9.8 or later; skipped without one
Exit 77 = skipped, with the reason printed.
"""
import argparse
import base64
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
A = None
FAILS = []
SHA3 = {"sha3-224": "sha3_224", "sha3-256": "sha3_256", "sha3-384": "sha3_384",
        "sha3-512": "sha3_512"}
SHAKE = {"shake128": ("shake_128", 32), "shake256": ("shake_256", 64)}
# What run as cksum refuses, with the advice every such message gives.
USE = "use -a sha1, -a sha2 -l N or -a sha3 -l N (N: 224, 256, 384 or 512)"


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def env_for(extra=None):
    env = dict(os.environ)
    env["LC_ALL"] = "C.UTF-8"
    env.pop("FASTSHA_BACKEND", None)
    if extra:
        env.update(extra)
    return env


def run(cmd, argv0, cwd=None, env=None, input_bytes=None):
    p = subprocess.run([argv0] + list(cmd[1:]), executable=cmd[0], cwd=cwd,
                       stdin=subprocess.DEVNULL if input_bytes is None else None,
                       input=input_bytes, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env or env_for(), timeout=300)
    return p.returncode, p.stdout, p.stderr


def fs(args, **kw):
    return run([A.fastsha] + list(args), "fastsha", **kw)


LINKS = None


def as_name(name):
    """A function running the binary through a symlink called name."""
    path = os.path.join(LINKS, name)
    if not os.path.lexists(path):
        os.symlink(os.path.abspath(A.fastsha), path)
    return lambda args, **kw: run([path] + list(args), name, **kw)


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def ref(alg, data, outlen=None):
    """hashlib's digest of data for one of the command's SHA-3 names."""
    if alg in SHA3:
        return hashlib.new(SHA3[alg], data).digest()
    name, default = SHAKE[alg]
    return hashlib.new(name, data).digest(outlen or default)


def forms(alg, digest, name, tagname):
    """The lines each output option writes, as the command should."""
    h, b = digest.hex(), base64.b64encode(digest).decode()
    return {(): "%s  %s\n" % (h, name),
            ("--tag",): "%s (%s) = %s\n" % (tagname, name, h),
            ("--base64",): "%s  %s\n" % (b, name),
            ("--tag", "--base64"): "%s (%s) = %s\n" % (tagname, name, b),
            ("-b",): "%s *%s\n" % (h, name),
            ("-z",): "%s  %s\0" % (h, name)}


def inputs(d):
    """Files of lengths around the Keccak rates (72 .. 168) and big ones
    (streamed, past the batches' 256 KiB), plus their bytes."""
    rnd = random.Random(29)
    files = {}
    for n in (0, 1, 71, 72, 73, 135, 136, 137, 167, 168, 169, 1000, 8191, 8192, 8193,
              65536, 300000, 3 << 20):
        data = bytes(rnd.getrandbits(8) for _ in range(min(n, 4096))) * (n // 4096 + 1)
        data = data[:n]
        files["f%d" % n] = data
        write(d, "f%d" % n, data)
    return files


def case_sha3_hashlib(d):
    files = inputs(d)
    names = sorted(files)
    # The 3 MiB file (several of the command's reads) in the plain form;
    # the other forms' lines are the same code whatever the length, so
    # they take the rest (under the sanitizers the big file in every form
    # was most of this test's 35 s).
    small = [n for n in names if len(files[n]) < 1 << 20]
    for alg in list(SHA3) + list(SHAKE):
        lengths = [None] if alg in SHA3 else [None, 8, 128, 512, 264]
        for bits in lengths:
            extra = ["-a", alg] + (["-l", str(bits)] if bits else [])
            tagname = alg.upper() + ("-%d" % bits if bits and alg in SHAKE and
                                     bits != 8 * SHAKE[alg][1] else "")
            for opts in ((), ("--tag",), ("--base64",), ("--tag", "--base64"), ("-b",), ("-z",)):
                use = names if not opts else small
                for jobs in ("1", "2"):
                    rc, out, err = fs(extra + list(opts) + ["-j", jobs] + use, cwd=d)
                    want = "".join(forms(alg, ref(alg, files[n], bits and bits // 8), n,
                                         tagname)[opts] for n in use)
                    check((rc, out.decode(), err) == (0, want, b""),
                          "%s %s -j%s: %r" % (extra, opts, jobs, (rc, out[:200], err)))
            # Every form it writes, checked back, with other algorithms' lines beside.
            lines = []
            for opts in ((), ("--tag",), ("--base64",), ("--tag", "--base64")):
                rc, out, err = fs(extra + list(opts) + (names if not opts else small), cwd=d)
                lines.append(out)
            for k, listing in enumerate(lines):
                write(d, "list%d" % k, listing)
                untagged = k in (0, 2)
                args = (extra if untagged else []) + ["-c", "list%d" % k]
                rc, out, err = fs(args, cwd=d)
                want = "".join("%s: OK\n" % n for n in (names if k == 0 else small))
                check((rc, out.decode(), err) == (0, want, b""),
                      "-c of %s form %d: %r" % (extra, k, (rc, out[:200], err[:300])))
            # A changed file fails; the others pass.
            write(d, "f1", b"\x01")
            rc, out, err = fs(["-c", "list1"], cwd=d)
            check(rc == 1 and b"f1: FAILED\n" in out and
                  b"WARNING: 1 computed checksum did NOT match" in err, "changed f1: %r" % out)
            write(d, "f1", files["f1"])
        # Strings and standard input.
        rc, out, err = fs(["-a", alg, "-s", "abc", "-s", ""])
        want = "%s  \"abc\"\n%s  \"\"\n" % (ref(alg, b"abc").hex(), ref(alg, b"").hex())
        check((rc, out.decode()) == (0, want), "-s %s: %r" % (alg, out))
        rc, out, err = fs(["-a", alg, "--raw"], input_bytes=b"xyz")
        check((rc, out) == (0, ref(alg, b"xyz")), "--raw %s: %r" % (alg, out))
    # OpenSSL's lines: "SHA3-256(f)= HEX", "SHAKE-128(f)= HEX" (its default
    # output is half ours: the length is the digest's).
    data = files["f1000"]
    listing = "".join("%s(f1000)= %s\n" % (alg.upper(), ref(alg, data).hex()) for alg in SHA3)
    listing += "SHAKE-128(f1000)= %s\n" % hashlib.shake_128(data).hexdigest(16)
    listing += "SHAKE-256(f1000)= %s\n" % hashlib.shake_256(data).hexdigest(32)
    listing += "SHA2-256(f1000)= %s\n" % hashlib.sha256(data).hexdigest()
    write(d, "openssl.list", listing.encode())
    rc, out, err = fs(["-c", "openssl.list"], cwd=d)
    check((rc, out, err) == (0, b"f1000: OK\n" * 7, b""), "openssl lines: %r" % ((rc, out, err),))
    # Its SHAKE lines take the length from the digest: an empty one, one
    # digit or more than 64 bytes is no length, and the line is
    # misformatted, not checked.
    write(d, "openssl.short", ("SHAKE-128(f1000)= \nSHAKE-256(f1000)=\nSHAKE-128(f1000)= 0\n"
                               "SHAKE-128(f1000)= %s\nSHAKE-128(f1000)= %s\n"
                               % (hashlib.shake_128(data).hexdigest(65),
                                  hashlib.shake_128(data).hexdigest(1))).encode())
    rc, out, err = fs(["-c", "--strict", "openssl.short"], cwd=d)
    check((rc, out, err) == (1, b"f1000: OK\n", b"fastsha: WARNING: 4 lines are improperly formatted\n"),
          "openssl lines, short and long digests: %r" % ((rc, out, err),))
    if shutil.which("openssl"):
        listing = b""
        for o in ("sha3-224", "sha3-256", "sha3-384", "sha3-512", "sha256", "sha512", "sha1",
                  "shake128", "shake256"):
            p = subprocess.run(["openssl", "dgst", "-" + o, "f1000"], cwd=d,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            listing += p.stdout
        write(d, "openssl.out", listing)
        rc, out, err = fs(["-c", "--strict", "openssl.out"], cwd=d)
        check((rc, out, err) == (0, b"f1000: OK\n" * 9, b""),
              "openssl dgst's own lines: %r %r" % ((rc, out, err), listing))
    # -l's refusals for the XOFs (GNU's wording for blake2b's).
    for bad, why in (("520", "maximum digest length for \u2018SHAKE128\u2019 is 512 bits"),
                     ("12", "length is not a multiple of 8")):
        rc, out, err = fs(["-a", "shake128", "-l", bad, "f1"], cwd=d)
        want = "fastsha: invalid length: \u2018%s\u2019\nfastsha: %s\n" % (bad, why)
        check((rc, out, err.decode()) == (1, b"", want), "-l %s: %r" % (bad, err))
    rc, out, err = fs(["-a", "sha3-256", "-l", "256", "f1"], cwd=d)
    check((rc, err) == (1, b"fastsha: --length is only supported with --algorithm sha2, sha3, "
                           b"shake128, shake256 or k12\n"), "-l with sha3-256: %r" % err)
    # A base64 digest may start like a tag: still an (untagged) line, as in GNU 9.9+.
    write(d, "liketag", ("SHA1" + "A" * 39 + "=  f1\n").encode())
    rc, out, err = fs(["-a", "sha256", "-c", "liketag"], cwd=d)
    check((rc, out) == (1, b"f1: FAILED\n"), "base64 starting with SHA1: %r" % ((rc, out, err),))
    # base64's padding is '=' where a digest's length puts one and nothing
    # else (GNU's valid_digits): a line with another character there is
    # improperly formatted, not a digest that fails.
    b64 = base64.b64encode(hashlib.sha256(files["f1"]).digest()).decode()
    for digest in (b64[:-1] + "A", b64[:-1] + "/"):
        write(d, "badpad", ("%s  f1\n" % digest).encode())
        rc, out, err = fs(["-a", "sha256", "-c", "-w", "badpad"], cwd=d)
        check((rc, out, err) == (1, b"", b"fastsha: badpad: 1: improperly formatted SHA256 checksum "
                                         b"line\nfastsha: badpad: no properly formatted checksum "
                                         b"lines found\n"),
              "base64 %s, no '=': %r" % (digest, (rc, out, err)))
    # An XOF's tag takes "-N" with N bits, a multiple of 8 written without
    # a leading zero, at most 512: other suffixes make the line misformatted.
    f1 = files["f1"]
    shake = lambda n: hashlib.shake_128(f1).hexdigest(n)
    write(d, "suffix", ("SHAKE128-12 (f1) = %s\nSHAKE128-08 (f1) = %s\nSHAKE128-520 (f1) = %s\n"
                        "SHAKE128-256 (f1) = %s\n" % (shake(1), shake(1), shake(65),
                                                     shake(32))).encode())
    rc, out, err = fs(["-c", "--strict", "suffix"], cwd=d)
    check((rc, out, err) == (1, b"f1: OK\n", b"fastsha: WARNING: 3 lines are improperly formatted\n"),
          "SHAKE128-N suffixes: %r" % ((rc, out, err),))
    # fastsha's -a sha2 / sha3 -l: untagged by default, GNU's tags with --tag.
    for gnu, bits, tag, h in (("sha3", 256, "SHA3-256", hashlib.sha3_256),
                              ("sha2", 384, "SHA384", hashlib.sha384)):
        rc, out, err = fs(["-a", gnu, "-l", str(bits), "f1", "--tag", "--untagged", "-b"], cwd=d)
        check(out.decode() == "%s *f1\n" % h(files["f1"]).hexdigest(), "%s: %r" % (gnu, out))
        rc, out, err = fs(["-a", gnu, "-l", str(bits), "--tag", "f1"], cwd=d)
        check(out.decode() == "%s (f1) = %s\n" % (tag, h(files["f1"]).hexdigest()),
              "%s --tag: %r" % (gnu, out))


def pycryptodome():
    """A Python that imports pycryptodome: this one, or the project's venv."""
    probe = "import Crypto.Hash.keccak, Crypto.Hash.KangarooTwelve"
    cands = [sys.executable]
    if A.build:
        cands.append(os.path.join(A.build, "python", "venv", "bin", "python"))
    for py in cands:
        if os.path.exists(py) and subprocess.run([py, "-c", probe], stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def case_keccak_k12(d):
    # The vectors tests/test_sha3.c reads: Ethereum's Keccak-256 answers and
    # RFC 9861's KT128 ones (empty customisation, up to 64 bytes of output).
    vec = os.path.join(A.src, "tests", "vectors", "sha3")
    cases = []
    with open(os.path.join(vec, "extra.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            alg, msg, outlen, want = line.split()
            if alg != "keccak256":
                continue
            data = (b"" if msg == "-" else bytes.fromhex(msg[4:]) if msg.startswith("hex:")
                    else msg[4:].encode())
            cases.append(("keccak256", data, int(outlen), want))
    with open(os.path.join(vec, "rfc9861.txt")) as f:
        for line in f:
            if not line.startswith("kt128 "):
                continue
            alg, msg, custom, domain, outlen, last, want = line.split()
            if custom != "-" or last != "0" or int(outlen) > 64:
                continue
            if msg == "-":
                data = b""
            elif msg.startswith("ptn:"):
                data = bytes(i % 251 for i in range(int(msg[4:])))
            else:
                data = bytes.fromhex(msg[4:])
            if len(data) > (20 << 20):
                continue
            cases.append(("k12", data, int(outlen), want))
    check(len(cases) >= 10, "vectors found: %d" % len(cases))
    for i, (alg, data, outlen, want) in enumerate(cases):
        write(d, "v%d" % i, data)
        extra = ["-l", str(8 * outlen)] if alg == "k12" and outlen != 32 else []
        for jobs in ("1", "3"):
            rc, out, err = fs(["-a", alg, "-j", jobs] + extra + ["v%d" % i], cwd=d)
            check((rc, out.decode()) == (0, "%s  v%d\n" % (want, i)),
                  "%s vector %d (%d bytes): %r" % (alg, i, len(data), out))
    # Tagged forms and their check.
    rc, out, err = fs(["-a", "k12", "-l", "512", "--tag", "v0"], cwd=d)
    check(out.startswith(b"K12-512 (v0) = "), "k12 tag: %r" % out)
    rc, out, err = fs(["-a", "keccak256", "--tag", "v0"], cwd=d)
    check(out.startswith(b"KECCAK256 (v0) = "), "keccak256 tag: %r" % out)
    listing = b""
    for alg, extra in (("k12", []), ("k12", ["-l", "200"]), ("keccak256", [])):
        for opts in (["--tag"], ["--tag", "--base64"]):
            listing += fs(["-a", alg] + extra + opts + ["v0", "v1"], cwd=d)[1]
    write(d, "k.list", listing)
    rc, out, err = fs(["-c", "--strict", "k.list"], cwd=d)
    check((rc, out, err) == (0, b"v0: OK\nv1: OK\n" * 6, b""), "k12/keccak -c: %r" % ((rc, out, err),))
    py = pycryptodome()
    if not py:
        print("note: pycryptodome is not importable here or in build/python/venv: "
              "keccak256 and k12 checked on the vectors only")
        return
    files = inputs(d)
    names = sorted(files)
    script = ("import sys\n"
              "from Crypto.Hash import keccak, KangarooTwelve\n"
              "for n in sys.argv[1:]:\n"
              "    data = open(n, 'rb').read()\n"
              "    print(keccak.new(data=data, digest_bits=256).hexdigest(),"
              " KangarooTwelve.new(data=data).read(32).hex(),"
              " KangarooTwelve.new(data=data).read(24).hex())\n")
    p = subprocess.run([py, "-c", script] + names, cwd=d, stdout=subprocess.PIPE, check=True)
    want = [l.split() for l in p.stdout.decode().splitlines()]
    for k, (alg, extra) in enumerate((("keccak256", []), ("k12", []), ("k12", ["-l", "192"]))):
        rc, out, err = fs(["-a", alg] + extra + names, cwd=d)
        exp = "".join("%s  %s\n" % (w[k], n) for w, n in zip(want, names))
        check((rc, out.decode()) == (0, exp), "%s %s against pycryptodome: %r" % (alg, extra, out[:300]))


def case_cksum_link(d):
    """Run as cksum: what GNU cksum 9.10 prints (src/cksum.c: output_file(),
    main()'s checks; tests/cksum/cksum-sha3.sh, cksum-raw.sh, cksum-c.sh,
    cksum-base64.pl), without GNU at hand."""
    ck = as_name("cksum")
    write(d, "f", b"abc\n")
    data = b"abc\n"
    s256, s3 = hashlib.sha256(data), hashlib.sha3_384(data)
    b64 = base64.b64encode(s256.digest()).decode()
    cases = [
        (["-a", "sha256", "f"], 0, "SHA256 (f) = %s\n" % s256.hexdigest(), ""),
        (["-a", "sha2", "-l", "256", "f"], 0, "SHA256 (f) = %s\n" % s256.hexdigest(), ""),
        (["-a", "sha3", "-l", "384", "f"], 0, "SHA3-384 (f) = %s\n" % s3.hexdigest(), ""),
        (["-a", "sha3", "--length=384", "--untagged", "f"], 0, "%s  f\n" % s3.hexdigest(), ""),
        (["-a", "sha256", "--untagged", "-b", "f"], 0, "%s *f\n" % s256.hexdigest(), ""),
        (["-a", "sha256", "--untagged", "-t", "f"], 0, "%s  f\n" % s256.hexdigest(), ""),
        (["-a", "sha256", "--base64", "f"], 0, "SHA256 (f) = %s\n" % b64, ""),
        (["-a", "sha256", "--base64", "--untagged", "f"], 0, "%s  f\n" % b64, ""),
        (["-a", "sha1", "-z", "f"], 0, "SHA1 (f) = %s\0" % hashlib.sha1(data).hexdigest(), ""),
        (["-a", "sha3", "-l", "253", "-l", "256", "f"], 0,
         "SHA3-256 (f) = %s\n" % hashlib.sha3_256(data).hexdigest(), ""),
        (["-a", "sha256", "-l", "0", "f"], 0, "SHA256 (f) = %s\n" % s256.hexdigest(), ""),
        # Refusals: GNU's words and exit codes.
        (["-a", "sha256", "-t", "f"], 1, "",
         "cksum: --text mode is only supported with --untagged\n"
         "Try 'cksum --help' for more information.\n"),
        (["-a", "sha256", "--raw", "f", "f"], 1, "",
         "cksum: the --raw option is not supported with multiple files\n"),
        (["-a", "sha256", "--raw", "--base64", "f"], 1, "",
         "cksum: --base64 and --raw are mutually exclusive\n"
         "Try 'cksum --help' for more information.\n"),
        (["-a", "sha2", "f"], 1, "",
         "cksum: --algorithm=sha2 requires specifying --length 224, 256, 384, or 512\n"),
        (["-a", "sha256", "-l", "256", "f"], 1, "",
         "cksum: --length is only supported with --algorithm blake2b, sha2, or sha3\n"),
        (["-a", "sha256", "-c", "--tag", "f"], 1, "",
         "cksum: the --tag option is meaningless when verifying checksums\n"
         "Try 'cksum --help' for more information.\n"),
        # cksum 9.10 takes these from digest.c, as sha256sum 9.1 words them.
        (["-a", "sha256", "-c", "-z", "f"], 1, "",
         "cksum: the --zero option is not supported when verifying checksums\n"
         "Try 'cksum --help' for more information.\n"),
        (["-a", "sha256", "-c", "--binary", "f"], 1, "",
         "cksum: the --binary and --text options are meaningless when verifying checksums\n"
         "Try 'cksum --help' for more information.\n"),
        (["-a", "sha3", "-l", "25x", "f"], 1, "", "cksum: invalid length: \u201825x\u2019\n"),
        # no sign (GNU's xstrtoumax), which strtoumax would wrap round
        (["-a", "sha3", "-l", "-256", "f"], 1, "", "cksum: invalid length: \u2018-256\u2019\n"),
        (["-a", "sha3", "-l", " -18446744073709551360", "f"], 1, "",
         "cksum: invalid length: \u2018 -18446744073709551360\u2019\n"),
    ]
    for bad in ("216", "248", "504", "513", "1024", "0", "18446744073709551616"):
        cases.append((["-a", "sha3", "-l", bad, "f"], 1, "",
                      "cksum: invalid length: \u2018%s\u2019\n"
                      "cksum: digest length for \u2018SHA3\u2019 must be 224, 256, 384, or 512\n" % bad))
        cases.append((["-a", "sha3", "-l", bad, "-c", "f"], 1, "",
                      "cksum: invalid length: \u2018%s\u2019\n"
                      "cksum: digest length for \u2018SHA3\u2019 must be 224, 256, 384, or 512\n" % bad))
    # What this cksum lacks: named, with the way out, usage status 1.
    for lacking in ("crc", "crc32b", "md5", "blake2b", "sm3", "bsd", "sysv"):
        cases.append((["-a", lacking, "f"], 1, "",
                      "cksum: the \u2018%s\u2019 algorithm is not provided by this cksum (fastsha); "
                      "%s\nTry 'cksum --help' for more information.\n" % (lacking, USE)))
    # The last -a wins (GNU's getopt loop only records it), so an algorithm
    # this cksum lacks is refused only when it is the one left, and after
    # GNU's own usage errors, as the default crc is (digest.c: main()).
    cases += [
        (["-a", "md5", "-a", "sha256", "f"], 0, "SHA256 (f) = %s\n" % s256.hexdigest(), ""),
        (["-a", "blake2b", "-a", "sha3", "-l", "384", "f"], 0,
         "SHA3-384 (f) = %s\n" % s3.hexdigest(), ""),
        (["-a", "md5", "-l", "256", "f"], 1, "",
         "cksum: --length is only supported with --algorithm blake2b, sha2, or sha3\n"),
        (["-a", "blake2b", "-l", "12", "f"], 1, "",
         "cksum: invalid length: \u201812\u2019\ncksum: length is not a multiple of 8\n"),
        (["-a", "blake2b", "-l", "520", "f"], 1, "",
         "cksum: invalid length: \u2018520\u2019\n"
         "cksum: maximum digest length for \u2018BLAKE2b\u2019 is 512 bits\n"),
        (["-a", "crc", "-c", "f"], 1, "",
         "cksum: --check is not supported with --algorithm={bsd,sysv,crc,crc32b}\n"),
        (["-a", "sha256", "-a", "md5", "--base64", "--raw", "f"], 1, "",
         "cksum: --base64 and --raw are mutually exclusive\n"
         "Try 'cksum --help' for more information.\n"),
        (["-a", "sha256", "-a", "sm3", "-c", "f"], 1, "",
         "cksum: the \u2018sm3\u2019 algorithm is not provided by this cksum (fastsha); "
         "%s\nTry 'cksum --help' for more information.\n" % USE),
    ]
    cases.append((["f"], 1, "", "cksum: the default algorithm, crc, is not provided by this cksum "
                  "(fastsha); %s\nTry 'cksum --help' for more information.\n" % USE))
    cases.append(([], 1, "", "cksum: the default algorithm, crc, is not provided by this cksum "
                  "(fastsha); %s\nTry 'cksum --help' for more information.\n" % USE))
    for args, rc_want, out_want, err_want in cases:
        rc, out, err = ck(args, cwd=d)
        check((rc, out.decode(), err.decode()) == (rc_want, out_want, err_want),
              "cksum %r: %r" % (args, (rc, out, err)))
    rc, out, err = ck(["-a", "sha3", "-l", "512", "--raw", "f"], cwd=d)
    check((rc, out) == (0, hashlib.sha3_512(data).digest()), "--raw: %r" % out)
    # --raw's one digest: two strings, or a string and a file, are two.
    for args in (["-s", "x", "-s", "y"], ["-s", "x", "f"]):
        rc, out, err = fs(["-a", "sha256", "--raw"] + args, cwd=d)
        check((rc, out, err) == (1, b"", b"fastsha: the --raw option is not supported with "
                                         b"multiple files\n"), "--raw %r: %r" % (args, (rc, out, err)))
    # The options only --check reads, refused without it in GNU's order
    # and words (cksum 9.1 -a sha256 says the same).
    for opt in ("--ignore-missing", "--status", "--warn", "--quiet", "--strict"):
        rc, out, err = ck(["-a", "sha256", opt, "--strict", "f"], cwd=d)
        check((rc, out, err.decode()) == (1, b"", "cksum: the %s option is meaningful only when "
                                                "verifying checksums\nTry 'cksum --help' for more "
                                                "information.\n" % opt), "%s: %r" % (opt, err))
    # --help as cksum: its own description, tagged output by default, and
    # what --check takes; as fastsha, the algorithm -a names.
    rc, out, err = ck(["--help"])
    check(rc == 0 and out.startswith(b"Usage: cksum [OPTION]... [FILE]...\nPrint or check SHA "
                                     b"checksums; a drop-in for GNU cksum") and
          b"--tag             create a BSD-style checksum (the default)\n" in out and
          b"\nWith --check, tagged lines (SHA3-256 (NAME) = HEX" in out, "cksum --help: %r" % out)
    for a, line in ((["-a", "sha3-384"], "SHA3-384 (384-bit) checksums, in sha256sum's format."),
                    (["-a", "shake128"], "SHAKE128 (256-bit by default) checksums, in sha256sum's format."),
                    (["-a", "sha2"], "SHA-2 or SHA-3 checksums (-a sha2 or sha3, and -l).")):
        rc, out, err = fs(a + ["--help"])
        check(rc == 0 and out.split(b"\n")[1] == ("Print or check " + line).encode(),
              "%r --help: %r" % (a, out[:200]))
    # fastcksum is the same; --version says which.
    rc, out, err = as_name("fastcksum")(["-a", "sha256", "f"], cwd=d)
    check(out.decode() == "SHA256 (f) = %s\n" % s256.hexdigest(), "fastcksum: %r" % out)
    rc, out, err = ck(["--version"])
    check(rc == 0 and re.match(rb"cksum \(fastsha\) \d", out), "--version: %r" % out)
    # --check: tagged lines of every SHA algorithm, OpenSSL's, base64, untagged with -a.
    tagged = "".join(ck(a + ["f"], cwd=d)[1].decode() for a in (
        ["-a", "sha1"], ["-a", "sha2", "-l", "224"], ["-a", "sha512", "--base64"],
        ["-a", "sha3", "-l", "224"], ["-a", "sha3", "-l", "512", "--base64"]))
    write(d, "tagged", tagged.encode())
    write(d, "openssl", re.sub(r" \((.*)\) = ", r"(\1)= ", tagged).encode())
    write(d, "trunc", ("SHA256-128 (f) = %s\n" % s256.hexdigest()[:32]).encode())
    for lst in ("tagged", "openssl", "trunc"):
        rc, out, err = ck(["-c", "--strict", lst], cwd=d)
        n = 1 if lst == "trunc" else 5
        check((rc, out, err) == (0, b"f: OK\n" * n, b""), "-c %s: %r" % (lst, (rc, out, err)))
    # A length a refused line leaves behind: under -a sha2, "SHA2-512"
    # sets 128 hex digits, "SHA256-12" switches to SHA-256 for good and is
    # refused (12 is no multiple of 8), and GNU then reads a 128-digit
    # untagged line as SHA-256 with a 64-byte digest, comparing bytes its
    # SHA-256 never wrote. Here such a line fails, whatever those 32 bytes
    # say (zeros, or the SHA-512 GNU's buffer still holds).
    s512 = hashlib.sha512(data)
    write(d, "stale", ("SHA2-512 (f) = %s\nSHA256-12 (f) = %s\n%s  f\n%s  f\n"
                       % (s512.hexdigest(), s256.hexdigest(), s256.hexdigest() + "00" * 32,
                          s256.hexdigest() + s512.hexdigest()[64:])).encode())
    rc, out, err = ck(["-a", "sha2", "-c", "stale"], cwd=d)
    check((rc, out, err) == (1, b"f: OK\nf: FAILED\nf: FAILED\n",
                             b"cksum: WARNING: 1 line is improperly formatted\n"
                             b"cksum: WARNING: 2 computed checksums did NOT match\n"),
          "-a sha2 -c, a 64-byte SHA-256 line: %r" % ((rc, out, err),))
    # Tagged lines GNU cksum refuses (split_3): a truncation longer than
    # the digest, a negative length (which strtoumax would wrap round to
    # 256), a CRC line (cksum -c checks no CRC or sum), a tag and "(" with
    # nothing after.
    write(d, "refused", ("SHA256-512 (f) = %s\nSHA3--18446744073709551360 (f) = %s\n"
                         "CRC (f) = AAAAAA==\nSHA256 (\nSHA1 (f) = %s\n"
                         % (s512.hexdigest(), hashlib.sha3_256(data).hexdigest(),
                            hashlib.sha1(data).hexdigest())).encode())
    rc, out, err = ck(["-c", "--strict", "refused"], cwd=d)
    check((rc, out, err) == (1, b"f: OK\n", b"cksum: WARNING: 4 lines are improperly formatted\n"),
          "-c, refused tagged lines: %r" % ((rc, out, err),))
    # Abbreviations as GNU cksum takes them: --str and --stri are its
    # --strict (fastsha's --string makes them ambiguous among its options);
    # --b stays ambiguous (--binary, --base64), as in GNU.
    write(d, "bad", tagged.encode() + b"junk\n")
    for abbrev in ("--str", "--stri", "--strict"):
        rc, out, err = ck(["-c", abbrev, "bad"], cwd=d)
        check((rc, out, err) == (1, b"f: OK\n" * 5,
                                 b"cksum: WARNING: 1 line is improperly formatted\n"),
              "-c %s: %r" % (abbrev, (rc, out, err)))
    # OK lines escape a backslash or CR as cksum 9.4 and later do, also
    # for fastsha's own names, which fastsha's line parser reads.
    write(d, "b\\s", data)
    for a in (["-a", "sha3-256"], ["-a", "sha3", "-l", "256"]):
        write(d, "esc", ck(a + ["b\\s"], cwd=d)[1])
        rc, out, err = ck(a + ["-c", "esc"], cwd=d)
        check((rc, out, err) == (0, b"\\b\\\\s: OK\n", b""), "%r -c, escaped: %r" % (a, out))
    rc, out, err = ck(["--b", "-a", "sha1", "f"], cwd=d)
    check(rc == 1 and b"option '--b' is ambiguous" in err, "--b: %r" % ((rc, out, err),))
    write(d, "untagged", ("%s  f\n" % s3.hexdigest()).encode())
    rc, out, err = ck(["-a", "sha3", "-c", "untagged"], cwd=d)
    check((rc, out, err) == (0, b"f: OK\n", b""), "-a sha3 -c untagged: %r" % ((rc, out, err),))
    # -a sha2 and sha3 read an untagged line's length from its digest, in
    # base64 too (GNU 9.10's split_3: the four lengths' base64 sizes); -a
    # sha2 takes the SHA224 .. SHA512 tags as well.
    b64 = lambda h: base64.b64encode(h.digest()).decode()
    for a, h in ((["-a", "sha2"], hashlib.sha384(data)), (["-a", "sha2"], hashlib.sha224(data)),
                 (["-a", "sha3"], hashlib.sha3_512(data)), (["-a", "sha3"], hashlib.sha3_224(data))):
        write(d, "untagged64", ("%s  f\n" % b64(h)).encode())
        rc, out, err = ck(a + ["-c", "--strict", "untagged64"], cwd=d)
        check((rc, out, err) == (0, b"f: OK\n", b""), "%r -c, base64 %s: %r" % (a, h.name, (rc, out, err)))
    write(d, "sha224tag", ("SHA224 (f) = %s\n" % hashlib.sha224(data).hexdigest()).encode())
    rc, out, err = ck(["-a", "sha2", "-c", "--strict", "sha224tag"], cwd=d)
    check((rc, out, err) == (0, b"f: OK\n", b""), "-a sha2 -c, SHA224 tag: %r" % ((rc, out, err),))
    # GNU's "HEX NAME" (one blank, bsd-reversed) and the standard form: the
    # first line decides for the run. GNU cksum 9.1 has -a sha256 -c with
    # the same rules, so the installed one, where it is GNU's, answers.
    write(d, "g", b"xyz\n")
    h1, h2 = hashlib.sha256(data).hexdigest(), hashlib.sha256(b"xyz\n").hexdigest()
    lists = {"rev": "%s f\n%s g\n" % (h1, h2), "rev_std": "%s f\n%s  g\n" % (h1, h2),
             "std_rev": "%s  f\n%s g\n" % (h1, h2)}
    want = {"rev": (0, b"f: OK\ng: OK\n", b""),
            "rev_std": (1, b"f: OK\n g: FAILED open or read\n",
                        b"cksum: ' g': No such file or directory\n"
                        b"cksum: WARNING: 1 listed file could not be read\n"),
            "std_rev": (0, b"f: OK\n", b"cksum: std_rev: 2: improperly formatted SHA256 checksum line\n"
                                       b"cksum: WARNING: 1 line is improperly formatted\n")}
    gnu = shutil.which("cksum")
    gnu = gnu if gnu and b"GNU coreutils" in subprocess.run(
        [gnu, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout else None
    for name, text in lists.items():
        write(d, name, text.encode())
        args = ["-a", "sha256", "-c", "--warn", name]
        got = ck(args, cwd=d)
        check(got == want[name], "-a sha256 -c %s: %r" % (name, got))
        if gnu:
            theirs = run([gnu] + args, "cksum", cwd=d)
            check(got == theirs, "-a sha256 -c %s: %r, GNU's %r" % (name, got, theirs))
    rc, out, err = ck(["-c", "untagged"], cwd=d)  # untagged lines need -a
    check((rc, out, err) == (1, b"", b"cksum: untagged: no properly formatted checksum lines found\n"),
          "-c untagged without -a: %r" % ((rc, out, err),))
    # cksum-sha3.sh: SHA3-248 is no SHA-3 length; -w names the SHA3 tag.
    write(d, "inp", ("SHA3-248 (f) = %s\n" % ("ab" * 31)).encode())
    rc, out, err = ck(["-a", "sha3", "-c", "--warn", "inp"], cwd=d)
    check((rc, err) == (1, b"cksum: inp: 1: improperly formatted SHA3 checksum line\n"
                           b"cksum: inp: no properly formatted checksum lines found\n"),
          "SHA3-248: %r" % err)
    # A line of an algorithm GNU checks and this cksum lacks: never a silent pass.
    write(d, "md5", ("MD5 (f) = %s\nSHA1 (f) = %s\n" % (hashlib.md5(data).hexdigest(),
                                                        hashlib.sha1(data).hexdigest())).encode())
    rc, out, err = ck(["-c", "md5"], cwd=d)
    check((rc, out, err.decode()) == (1, b"f: OK\n",
          "cksum: md5: 1: MD5 checksums are not provided by this cksum (fastsha); the line is not checked\n"
          "cksum: WARNING: 1 line was not checked (an algorithm this command lacks)\n"),
          "MD5 line: %r" % ((rc, out, err),))
    rc, out, err = ck(["-c", "--status", "md5"], cwd=d)
    check((rc, out, err) == (1, b"", b""), "MD5 line, --status: %r" % ((rc, out, err),))
    write(d, "md5b", ("MD5 (f) = %s\nBLAKE2b (f) = %s\nSHA1 (f) = %s\n"
                      % (hashlib.md5(data).hexdigest(), hashlib.blake2b(data).hexdigest(),
                         hashlib.sha1(data).hexdigest())).encode())
    rc, out, err = ck(["-c", "md5b"], cwd=d)
    check((rc, out, err.decode()) == (1, b"f: OK\n",
          "cksum: md5b: 1: MD5 checksums are not provided by this cksum (fastsha); the line is not checked\n"
          "cksum: md5b: 2: BLAKE2b checksums are not provided by this cksum (fastsha); the line is not checked\n"
          "cksum: WARNING: 2 lines were not checked (an algorithm this command lacks)\n"),
          "MD5 and BLAKE2b lines: %r" % ((rc, out, err),))
    # fastsha's own names work under cksum too, in cksum's tagged form.
    rc, out, err = ck(["-a", "shake256", "-l", "128", "f"], cwd=d)
    check(out.decode() == "SHAKE256-128 (f) = %s\n" % hashlib.shake_256(data).hexdigest(16),
          "shake under cksum: %r" % out)


def gnu_cksum():
    """A GNU cksum 9.8 or later, as a command line, or None and why not."""
    cmd = os.environ.get("FASTSHA_GNU_CKSUM")
    cands = [cmd] if cmd else ([shutil.which("cksum")] if shutil.which("cksum") else [])
    for c in cands:
        p = subprocess.run([c, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        m = re.match(rb"cksum \(GNU coreutils\) (\d+)\.(\d+)", p.stdout)
        if m and (int(m.group(1)), int(m.group(2))) >= (9, 8):
            return c, m.group(0).decode()
        why = "%s is %r" % (c, p.stdout.split(b"\n")[0].decode(errors="replace"))
        return None, why
    return None, "no cksum found (set FASTSHA_GNU_CKSUM)"


def case_cksum_gnu(d):
    gnu, why = gnu_cksum()
    if not gnu:
        print("SKIP: needs GNU cksum 9.8 or later to compare with: %s (Debian 12 has 9.1; "
              "FASTSHA_GNU_CKSUM may name another)" % why)
        sys.exit(SKIP)
    print("comparing with", why)
    ck = as_name("cksum")
    for name in ("a", " b", "*c", "44", "back\\slash", "new\nline", "sp ace"):
        write(d, name, name.encode() + b"\n")
    names = ["a", " b", "*c", "44", "back\\slash", "new\nline", "sp ace"]
    runs = []
    algs = [["-a", a] for a in ("sha1", "sha224", "sha256", "sha384", "sha512")]
    algs += [["-a", g, "-l", l] for g in ("sha2", "sha3") for l in ("224", "256", "384", "512")]
    for a in algs:
        for opts in ([], ["--untagged"], ["--base64"], ["--untagged", "--base64"], ["-z"],
                     ["--untagged", "-z"], ["--untagged", "-b"], ["--tag", "--untagged", "-t"],
                     ["--untagged", "--tag"]):
            runs.append(a + opts + names + ["missing"])
        runs.append(a + ["--raw", "a"])
    for args in (["-a", "sha3", "-l", "x"], ["-a", "sha2", "-l", "300"], ["-a", "sha3"],
                 ["-a", "sha3", "-l", "-1"], ["-a", "sha2", "-l", "+256", "a"],
                 ["-a", "sha2", "-l", " 256", "a"], ["-a", "sha2", "-l", "0256", "a"],
                 ["-a", "sha256", "-l", "0", "a"], ["-a", "sha256", "-l", "8"],
                 ["-a", "sha1", "-t", "a"], ["-a", "sha1", "--raw", "a", "b"],
                 ["-a", "sha1", "--raw", "--base64", "a"], ["-a", "sha1", "-c", "--tag", "a"],
                 ["-a", "sha1", "-c", "-z", "a"], ["-a", "sha1", "-c", "-b", "a"],
                 ["-a", "sha1", "--quiet", "a"], ["-a", "sha1", "--strict", "a"],
                 ["-a", "sha1", "--status", "a"], ["-a", "sha1", "-w", "a"],
                 ["-a", "sha1", "--ignore-missing", "a"], ["-a", "sha1", "-c", "--untagged", "x"],
                 ["-l", "256", "a"]):
        runs.append(args)
    # Lists: every form GNU writes, OpenSSL's, truncations, garbage, mixes
    # (no MD5, BLAKE2b or SM3 line: GNU checks those, this cksum cannot;
    # case_cksum_link has them).
    lists = {}
    full = b""
    for a in algs:
        for opts in ([], ["--base64"]):
            full += subprocess.run([gnu] + a + opts + names, cwd=d, stdout=subprocess.PIPE).stdout
    lists["full"] = full
    lists["openssl"] = re.sub(rb"(?m)^(\\?[A-Z0-9-]+) \((.*)\) = ", rb"\1(\2)= ", full)
    for a in algs:
        key = "u" + "".join(a[1:]).replace("-l", "")
        lists[key] = subprocess.run([gnu] + a + ["--untagged"] + names, cwd=d,
                                    stdout=subprocess.PIPE).stdout
        lists[key + "b64"] = subprocess.run([gnu] + a + ["--untagged", "--base64"] + names,
                                            cwd=d, stdout=subprocess.PIPE).stdout
    h = hashlib.sha256(b"a\n").hexdigest()
    lists["odd"] = ("garbage\nSHA256-128 (a) = %s\n%s  a\nSHA3-248 (a) = %s\nSHA2-256 (a) = %s\n"
                    "SHA3 (a) = %s\nSHA2 (a) = %s\nSHA256-0x80 (a) = %s\nSHA3-0400 (a) = %s\n"
                    "SHA1-160 (a) = %s\nSHA256-12 (a) = %s\n%s a\n\\SHA256 (a) = %s\n"
                    "SHA256 (a)= %s\r\nSHA256(a) =%s\n#c\n\nCRC (a) = 1\n%s\n" % (
                        h[:32], h, h[:62], h, hashlib.sha3_512(b"a\n").hexdigest(),
                        hashlib.sha512(b"a\n").hexdigest(), h[:32],
                        hashlib.sha3_256(b"a\n").hexdigest(), hashlib.sha1(b"a\n").hexdigest(),
                        h[:3], h, h, h, h,
                        base64.b64encode(hashlib.sha3_224(b"a\n").digest()).decode() + "  a")
                    ).encode()
    lists["mixed"] = lists["usha2256"] + lists["odd"] + lists["full"]
    for name, body in lists.items():
        write(d, name, body)
    for name in lists:
        for a in [[]] + algs + [["-a", "sha2"], ["-a", "sha3"], ["-a", "sha256"]]:
            for opts in ([], ["-w"], ["--strict", "--quiet"], ["--status"]):
                runs.append(a + ["-c"] + opts + [name])
    # Seeded mutations of those lines, in lists of 12: GNU's run-wide state
    # (the algorithm, the length and hex digit count, bsd reversed) crosses lines.
    rnd = random.Random(int(os.environ.get("FASTSHA_CKSUM_FUZZ_SEED", "2910")))
    pool = [l for n in ("full", "odd", "usha3512", "usha2256b64", "usha3224")
            for l in lists[n].split(b"\n") if l]
    alphabet = b" \t()=-*\\0123456789abcdefABCDEF+/SHA23-a"
    for k in range(int(os.environ.get("FASTSHA_CKSUM_FUZZ_LISTS", "150"))):
        out = []
        for _ in range(12):
            l = bytearray(rnd.choice(pool))
            for _ in range(rnd.randrange(3)):
                op, at = rnd.randrange(4), rnd.randrange(len(l) + 1)
                if op == 0:
                    del l[at:at + rnd.randrange(1, 4)]
                elif op == 1:
                    l[at:at] = bytes([rnd.choice(alphabet)])
                elif op == 2 and at < len(l):
                    l[at] = rnd.choice(alphabet)
                else:
                    l = l[:at]
            out.append(bytes(l))
        write(d, "fz%d" % k, b"\n".join(out) + b"\n")
        a = rnd.choice([[], [], ["-a", "sha2"], ["-a", "sha3"], ["-a", "sha256"], ["-a", "sha1"],
                        ["-a", "sha3", "-l", "384"]])
        runs.append(a + ["-c", "-w", "fz%d" % k])
    runs.append(["-c", "full", "missing", "odd"])
    runs.append(["-a", "sha2", "-c", "-w", "usha2256", "full"])
    runs.append(["-c", "--ignore-missing", "nofile"])
    same = 0
    for args in runs:
        ours = ck(args, cwd=d)
        theirs = run([gnu] + args, "cksum", cwd=d)
        if ours == theirs:
            same += 1
        else:
            check(False, "cksum %r:\n ours   %r\n theirs %r" % (
                args, tuple(x[:400] if isinstance(x, bytes) else x for x in ours),
                tuple(x[:400] if isinstance(x, bytes) else x for x in theirs)))
    print("%d of %d runs byte for byte as GNU's" % (same, len(runs)))


def main():
    global A, LINKS
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastsha", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--build")
    ap.add_argument("--shim")
    ap.add_argument("case")
    A = ap.parse_args()
    A.fastsha = os.path.abspath(A.fastsha)
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as links:
        LINKS = links
        globals()["case_" + A.case](d)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
