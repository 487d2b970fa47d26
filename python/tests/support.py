# SPDX-License-Identifier: MIT
"""Helpers for the binding's tests: algorithm lists, constructors, and the
project's stored vectors (tests/vectors, read here as by the C and
CLI tests; PROVENANCE.md there says where each file comes from)."""

import functools
import hashlib
import re
import sys
import threading
import time
from pathlib import Path

import pytest

import fastsha

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"

# hashlib's named constructors, and every SHA-1/SHA-2 algorithm new() knows
# (those HMAC, PBKDF2 and HKDF take too).
NAMED = ("sha1", "sha224", "sha256", "sha384", "sha512")
ALL = NAMED + ("sha512_224", "sha512_256")
# hashlib's Keccak family: SHA-3, and SHAKE with extendable output.
SHA3 = ("sha3_224", "sha3_256", "sha3_384", "sha3_512")
SHAKE = ("shake_128", "shake_256")
# Every algorithm hashlib has and fastsha too: algorithms_available.
HASHLIB = ALL + SHA3 + SHAKE
# fastsha's own Keccak algorithms, which hashlib has not (pycryptodome has).
OWN_KECCAK = ("keccak256", "turboshake128", "turboshake256", "k12")
XOF = SHAKE + ("turboshake128", "turboshake256", "k12")

DIGEST_SIZE = {"sha1": 20, "sha224": 28, "sha256": 32, "sha384": 48, "sha512": 64,
               "sha512_224": 28, "sha512_256": 32, "sha3_224": 28, "sha3_256": 32,
               "sha3_384": 48, "sha3_512": 64, "shake_128": 0, "shake_256": 0,
               "keccak256": 32, "turboshake128": 0, "turboshake256": 0, "k12": 0}
BLOCK_SIZE = {"sha1": 64, "sha224": 64, "sha256": 64, "sha384": 128, "sha512": 128,
              "sha512_224": 128, "sha512_256": 128, "sha3_224": 144, "sha3_256": 136,
              "sha3_384": 104, "sha3_512": 72, "shake_128": 168, "shake_256": 136,
              "keccak256": 136, "turboshake128": 168, "turboshake256": 136, "k12": 168}

# What every keyed call raises for sha1dc (ValueError), the drop-ins too.
SHA1DC_WHY = ("unsupported hash type %s for HMAC: use sha1 (HMAC-SHA1 does not rest on "
              "SHA-1's collision resistance)")


def unknown_keyword(fname, key):
    """The running Python's TypeError message for a keyword @key that names
    no parameter of @fname(): "'key' is an invalid keyword argument for
    fname()" to 3.12, "fname() got an unexpected keyword argument 'key'"
    from 3.13, read off hashlib.pbkdf2_hmac()'s own (the extension reads
    its words elsewhere, off int.to_bytes())."""
    with pytest.raises(TypeError) as e:
        hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1, fastsha_test_kw=1)
    words = str(e.value)
    assert words.count("pbkdf2_hmac()") == 1 and words.count("fastsha_test_kw") == 1, words
    return words.replace("pbkdf2_hmac()", fname + "()").replace("fastsha_test_kw", key)


def names_sha1dc(name):
    """name is fastsha's for SHA1DC (any spelling the C library takes), as
    new() decides."""
    try:
        return fastsha.new(name).name == "sha1dc"
    except (TypeError, ValueError):
        return False


def via_new(name):
    """A constructor that goes through fastsha.new(), like test_hashlib's
    wrappers around hashlib.new()."""
    def cons(*args, **kwargs):
        return fastsha.new(name, *args, **kwargs)
    cons.__name__ = f"new_{name}"
    return cons


def constructors(names=ALL):
    """(name, constructor) pairs: the named function where hashlib has one,
    and the fastsha.new() route for every algorithm."""
    out = []
    for n in names:
        if n in NAMED:
            out.append(pytest.param(n, getattr(fastsha, n), id=f"{n}-named"))
        out.append(pytest.param(n, via_new(n), id=f"{n}-new"))
    return out


def reference(name, data=b""):
    """hashlib's answer: the independent oracle."""
    return hashlib.new(name, data)


def _cavp(path):
    """(message, digest) pairs of a byte-oriented CAVP .rsp file."""
    text = path.read_text()
    out = []
    for ln, msg, md in re.findall(r"Len = (\d+)\s+Msg = ([0-9a-f]+)\s+MD = ([0-9a-f]+)", text):
        n = int(ln) // 8
        out.append((bytes.fromhex(msg)[:n], md))
    return out


@functools.cache
def known_answers():
    """Every stored whole-byte answer for every algorithm: a list of
    (algorithm, message, hex digest, where it came from)."""
    if not VECTORS.is_dir():
        pytest.skip(f"the project's vectors are not here ({VECTORS}): run from the source tree")
    out = []
    cavp = {"sha1": "SHA1", "sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384",
            "sha512": "SHA512"}
    for alg, stem in cavp.items():
        for kind in ("ShortMsg", "LongMsg"):
            f = VECTORS / "cavp" / "byte" / f"{stem}{kind}.rsp"
            for i, (msg, md) in enumerate(_cavp(f)):
                out.append((alg, msg, md, f"{f.name}#{i}"))
    for line in (VECTORS / "sha1_examples.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            rep, msg, md = line.split()
            out.append(("sha1", msg.encode() * int(rep), md, f"sha1_examples:{msg[:8]}x{rep}"))
    for line in (VECTORS / "sha2_additional.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            alg, n, kind, val, md = line.split()
            msg = bytes.fromhex(val) if kind == "msg" else bytes.fromhex(val) * int(n)
            out.append((alg, msg[: int(n)], md, f"sha2_additional:{alg}:{n}:{kind}"))
    for line in (VECTORS / "sha512t_openssl.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            alg, n, _pat, _dash, md = line.split()
            msg = bytes((31 * i + 7) % 256 for i in range(int(n)))
            out.append((alg, msg, md, f"sha512t_openssl:{alg}:{n}"))
    return out


@functools.cache
def monte_carlo(alg):
    """(seed, [expected MD per COUNT]) of the CAVP Monte Carlo file of @alg."""
    stem = {"sha1": "SHA1", "sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384",
            "sha512": "SHA512"}[alg]
    f = VECTORS / "cavp" / "byte" / f"{stem}Monte.rsp"
    if not f.exists():
        pytest.skip(f"{f} is not here: run from the source tree")
    text = f.read_text()
    seed = bytes.fromhex(re.search(r"Seed = ([0-9a-f]+)", text).group(1))
    mds = re.findall(r"COUNT = \d+\s+MD = ([0-9a-f]+)", text)
    return seed, mds


def other_thread_ran_during(call, tries=10):
    """Run call() while another Python thread stamps the time in a loop; say
    whether that thread ran in the middle third of the call. A call that
    keeps the GIL leaves that window empty: the other thread can only run
    before it starts or after it returns.

    The stamping thread sleeps between stamps (which lets go of the GIL), and
    the switch interval is one second while we measure. So the main thread,
    once it has the GIL back after its own sleep, is never asked to hand it
    over between taking t0 and entering the call: with CPython's default
    5 ms interval a loaded machine could hold the main thread off there while
    the other thread stamped into the window, and a call that keeps the GIL
    then looked as if it let go (a CI run saw it for sorted()). A call that
    does let go hands the GIL to the sleeper at once and gets it back as soon
    as the sleeper sleeps again, so the long interval costs it nothing.
    Ten tries, so a busy machine that does not schedule the thread in time
    cannot fail a call that does release the GIL: beside three busy loops
    a try missed 2 times in 160 (short calls, k12 and SHA-3 of 16 and 32
    MiB), which three tries left at a few in 10^5 for each of the two dozen
    tests that use this. More tries cost nothing in what the detector can
    tell: a call that keeps the GIL leaves the middle third empty on every
    try, since nothing can take the GIL from it within the interval, and
    after a whole second the forced switch comes at its end, when the
    interpreter next checks for one, not in its middle."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    try:
        for _ in range(tries):
            stamps = []
            stop = threading.Event()
            started = threading.Event()

            def spin():
                started.set()
                while not stop.is_set():
                    stamps.append(time.perf_counter())
                    time.sleep(0.0002)

            t = threading.Thread(target=spin)
            t.start()
            started.wait()
            time.sleep(0.01)
            t0 = time.perf_counter()
            call()
            t1 = time.perf_counter()
            stop.set()
            t.join()
            third = (t1 - t0) / 3
            if any(t0 + third <= s <= t1 - third for s in stamps):
                return True, t1 - t0
        return False, t1 - t0
    finally:
        sys.setswitchinterval(interval)


def race_readers(h, chunk, n, reads, answers):
    """One thread appends chunk to h n times (the GIL released, the object's
    lock held) while two others call reads() throughout, which returns a
    tuple of h's outputs (digest(), copy().digest(), ...). Returns (bad,
    seen): the outputs that are not in answers (the outputs of a whole
    number of chunks), and every output read.

    Halfway, the writer waits until a reader has read: seen then always
    holds the output of n // 2 chunks, so the readers provably ran while
    the writer was mid-message. Left to the scheduler, a loaded machine
    could run the writer's few milliseconds before either reader read
    anything (a reader never saw a value between none and all the chunks
    in 78 of 300 runs beside three busy loops), and seen could then hold
    the final output only. The reads that race the updates themselves,
    which are what can catch a torn state, go on as before on both
    sides of the pause."""
    start = threading.Barrier(3)
    half = threading.Event()      # the writer has appended n // 2 chunks
    read_half = threading.Event() # and a reader has read since
    done = threading.Event()
    seen, bad = [], []

    errors = []  # a thread's exception, raised in the caller

    def writer():
        try:
            start.wait()
            for i in range(n):
                if i == n // 2:
                    half.set()
                    # Only a reader that died can keep this from being set:
                    # then go on rather than hang, and the caller's check
                    # of the halfway output fails.
                    read_half.wait(60)
                h.update(chunk)
        except BaseException as e:
            errors.append(e)
        finally:
            done.set()  # else the readers would loop for ever

    def reader():
        try:
            start.wait()
            while True:
                finished = done.is_set()
                at_half = half.is_set()
                for d in reads():
                    seen.append(d)
                    if d not in answers:
                        bad.append(d)
                if at_half:
                    read_half.set()
                if finished:
                    break
        except BaseException as e:
            errors.append(e)
            read_half.set()  # the writer need not wait for this one

    ts = [threading.Thread(target=writer)] + [threading.Thread(target=reader) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]
    return bad, seen


def _unhex(s):
    return b"" if s == "-" else bytes.fromhex(s)


@functools.cache
def mac_vectors():
    """The stored HMAC, HKDF and PBKDF2 answers (tests/vectors/mac: RFC 2202
    and 4231 transcribed, Wycheproof's cases), as the C tests read them: a
    list of (kind, algorithm, fields, valid, where), fields as bytes but for
    the counts (HKDF's size, PBKDF2's iterations and dklen)."""
    if not VECTORS.is_dir():
        pytest.skip(f"the project's vectors are not here ({VECTORS}): run from the source tree")
    out = []
    for f in ("rfc.txt", "wycheproof.txt"):
        for n, line in enumerate((VECTORS / "mac" / f).read_text().splitlines(), 1):
            if not line or line.startswith("#"):
                continue
            kind, alg, *rest, result = line.split()
            if kind == "hmac":        # KEY MSG TAG
                fields = tuple(_unhex(x) for x in rest)
            elif kind == "hkdf":      # IKM SALT INFO SIZE OKM
                ikm, salt, info, size, okm = rest
                fields = (_unhex(ikm), _unhex(salt), _unhex(info), int(size), _unhex(okm))
            else:                     # PASSWORD SALT ITERATIONS DKLEN DK
                pw, salt, it, dklen, dk = rest
                fields = (_unhex(pw), _unhex(salt), int(it), int(dklen), _unhex(dk))
            out.append((kind, alg, fields, result == "valid", f"{f}:{n}"))
    return out


def pycryptodome():
    """pycryptodome's Keccak-256, TurboSHAKE and KangarooTwelve, the oracle
    for the Keccak algorithms hashlib lacks (pinned in requirements.txt);
    a skip where it is not installed."""
    pytest.importorskip("Crypto", reason="pycryptodome (python/tests/requirements.txt)")
    from Crypto.Hash import KangarooTwelve, TurboSHAKE128, TurboSHAKE256, keccak

    class Oracle:
        @staticmethod
        def keccak256(data):
            return keccak.new(data=data, digest_bits=256).digest()

        @staticmethod
        def k12(data, length, custom=b""):
            return KangarooTwelve.new(data=data, custom=custom).read(length)

        @staticmethod
        def turboshake128(data, length, domain=0x1F):
            return TurboSHAKE128.new(data=data, domain=domain).read(length)

        @staticmethod
        def turboshake256(data, length, domain=0x1F):
            return TurboSHAKE256.new(data=data, domain=domain).read(length)

    return Oracle


@functools.cache
def keccak_answers():
    """The stored answers for the Keccak family: NIST's SHA3 and SHAKE
    files (SHAKE's Output is 16 or 32 bytes), sha3/extra.txt and RFC 9861's
    vectors, as a list of (algorithm, message, custom, domain, output
    length, last, hex, where): hex is the whole output when last is 0,
    else its last `last` bytes; custom and domain are None where the
    algorithm has none."""
    if not VECTORS.is_dir():
        pytest.skip(f"the project's vectors are not here ({VECTORS}): run from the source tree")
    out = []
    d = VECTORS / "sha3"
    for alg, stem in (("sha3_224", "SHA3_224"), ("sha3_256", "SHA3_256"),
                      ("sha3_384", "SHA3_384"), ("sha3_512", "SHA3_512"),
                      ("shake_128", "SHAKE128"), ("shake_256", "SHAKE256")):
        for kind in ("ShortMsg", "LongMsg"):
            f = d / f"{stem}{kind}.rsp"
            text = f.read_text()
            found = re.findall(r"Len = (\d+)\s+Msg = ([0-9a-f]+)\s+(?:MD|Output) = ([0-9a-f]+)",
                               text)
            for i, (ln, msg, md) in enumerate(found):
                msg = bytes.fromhex(msg)[: int(ln) // 8]
                out.append((alg, msg, None, None, len(md) // 2, 0, md, f"{f.name}#{i}"))

    def field(s):
        if s == "-":
            return b""
        kind, val = s.split(":", 1)
        if kind == "ptn":
            return bytes(i % 251 for i in range(int(val)))
        return val.encode() if kind == "str" else bytes.fromhex(val)

    for n, line in enumerate((d / "extra.txt").read_text().splitlines(), 1):
        if line and not line.startswith("#"):
            alg, msg, outlen, md = line.split()
            out.append((alg, field(msg), None, None, int(outlen), 0, md, f"extra.txt:{n}"))
    for n, line in enumerate((d / "rfc9861.txt").read_text().splitlines(), 1):
        if line and not line.startswith("#"):
            alg, msg, custom, domain, outlen, last, md = line.split()
            out.append(("k12" if alg == "kt128" else alg, field(msg),
                        field(custom) if alg == "kt128" else None,
                        None if domain == "-" else int(domain, 16), int(outlen), int(last), md,
                        f"rfc9861.txt:{n}"))
    return out
