# SPDX-License-Identifier: MIT
"""The binding under every backend this CPU runs, as ctest runs the C tests:
one-shot, streaming and the batch calls against hashlib, per backend of
each family. A backend this CPU lacks is a skipped test, never a pass."""

import hashlib
import os
import subprocess
import sys

import pytest

import fastsha
from support import pycryptodome

# One algorithm per output shape of each family's table.
ALGS = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_256")


def rows():
    for alg in ALGS:
        for name, ok, lanes in fastsha.backends(alg):
            marks = [] if ok else [pytest.mark.skip(reason=f"this CPU cannot run {name}")]
            yield pytest.param(alg, name, lanes, id=f"{alg}-{name}", marks=marks)


MSGS = [bytes((i * 7 + n) & 255 for i in range(n)) for n in range(0, 300)] + \
       [os.urandom(n) for n in (1000, 4096, 65537, 300_000)]


@pytest.mark.parametrize("alg,backend,lanes", list(rows()))
def test_backend_against_hashlib(alg, backend, lanes):
    fastsha.use_backend(alg, backend)
    try:
        assert fastsha.backend(alg) == backend
        if lanes > 1:
            assert fastsha.many_lanes(alg) == lanes
        want = [hashlib.new(alg, m).digest() for m in MSGS]
        assert [fastsha.new(alg, m).digest() for m in MSGS] == want
        for m, w in zip(MSGS[::17], want[::17]):
            h = fastsha.new(alg)
            for i in range(0, len(m), 61):
                h.update(m[i:i + 61])
            assert h.digest() == w
        assert fastsha.many(alg, MSGS) == want
        packed = os.urandom(129 * 40)
        assert fastsha.many_packed(alg, packed, 129) == b"".join(
            hashlib.new(alg, packed[i:i + 129]).digest() for i in range(0, len(packed), 129))
    finally:
        fastsha.use_backend(alg, None)


def keccak_rows():
    for name, ok, lanes in fastsha.backends("keccak"):
        marks = [] if ok else [pytest.mark.skip(reason=f"this CPU cannot run {name}")]
        yield pytest.param(name, lanes, id=f"keccak-{name}", marks=marks)


@pytest.mark.parametrize("backend,lanes", list(keccak_rows()))
def test_keccak_backend_against_references(backend, lanes):
    """The SHA-3 family's table (one for all its algorithms): SHA-3 and
    SHAKE against hashlib, messages around every rate, outputs over a
    block; KangarooTwelve, TurboSHAKE and Keccak-256 against pycryptodome,
    K12 past 8 KiB chunks (its leaves go to the lanes)."""
    ref = pycryptodome()
    fastsha.use_backend("keccak", backend)
    try:
        for alg in ("sha3_224", "sha3_256", "sha3_384", "sha3_512", "shake_128", "shake_256",
                    "k12", "keccak256", "turboshake128"):
            assert fastsha.backend(alg) == backend
        if lanes > 1:
            assert fastsha.many_lanes("sha3_256") == lanes
        msgs = [bytes((i * 7 + n) & 255 for i in range(n))
                for n in sorted({r + d for r in (72, 104, 136, 144, 168) for d in (-1, 0, 1)}
                                | {0, 1, 200, 1000, 4096})]
        for alg in ("sha3_224", "sha3_256", "sha3_384", "sha3_512"):
            want = [hashlib.new(alg, m).digest() for m in msgs]
            assert [fastsha.new(alg, m).digest() for m in msgs] == want
            assert fastsha.many(alg, msgs) == want
        for alg in ("shake_128", "shake_256"):
            want = [hashlib.new(alg, m).digest(500) for m in msgs]
            assert [fastsha.new(alg, m).digest(500) for m in msgs] == want
            assert fastsha.many(alg, msgs, 500) == want
            h = fastsha.new(alg)
            for i in range(0, len(msgs[-1]), 61):
                h.update(msgs[-1][i:i + 61])
            assert h.digest(500) == want[-1]
        packed = os.urandom(137 * 40)
        assert fastsha.many_packed("sha3_256", packed, 137) == b"".join(
            hashlib.sha3_256(packed[i:i + 137]).digest() for i in range(0, len(packed), 137))
        assert fastsha.many_packed("shake_128", packed, 137, 200) == b"".join(
            hashlib.shake_128(packed[i:i + 137]).digest(200) for i in range(0, len(packed), 137))
        big = os.urandom(8192 * 9 + 5)
        assert fastsha.k12(big).digest(64) == ref.k12(big, 64)
        assert fastsha.k12(big, custom=b"c").digest(64) == ref.k12(big, 64, b"c")
        assert fastsha.many("k12", [big, b"x"], 40) == [ref.k12(big, 40), ref.k12(b"x", 40)]
        assert fastsha.keccak256(big).digest() == ref.keccak256(big)
        assert fastsha.turboshake128(big, domain=0x0B).digest(300) == \
            ref.turboshake128(big, 300, 0x0B)
    finally:
        fastsha.use_backend("keccak", None)


def test_environment_variable_is_honoured():
    """FASTSHA_BACKEND is read by the library on first use, as for C."""
    code = ("import fastsha; print(fastsha.backend('sha1'), fastsha.backend('sha512'), "
            "fastsha.backend('sha3_256'), fastsha.sha1(b'abc').hexdigest())")
    env = dict(os.environ, FASTSHA_BACKEND="portable")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["portable", "portable", "portable", hashlib.sha1(b"abc").hexdigest()]
    env = dict(os.environ, FASTSHA_BACKEND="keccak:reference")
    code = "import fastsha; print(fastsha.backend('shake_256'), fastsha.backend('keccak'))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["reference", "reference"]


def test_environment_variable_set_after_import():
    """Importing fastsha (and fastsha.hmac) is not a first use: a program
    (a worker's initializer, a forkserver preload's child, a test's
    monkeypatch) may set FASTSHA_BACKEND after the import and before the
    first hash, and every family honours it. The import used to ask the
    library which algorithms HMAC takes by preparing an empty key, which
    hashed, so SHA-1 and SHA-2 had chosen their rows from the environment
    of the import while Keccak waited for its first use."""
    code = ("import os, fastsha, hashlib; from fastsha import hmac; "
            "os.environ['FASTSHA_BACKEND'] = 'portable'; "
            "print(*(fastsha.backend(f) for f in ('sha1', 'sha256', 'sha512', 'keccak')), "
            "hmac.new(b'k', b'm', 'sha256').hexdigest(), "
            "fastsha.pbkdf2_hmac('sha512', b'p', b's', 3).hex())")
    env = {k: v for k, v in os.environ.items() if k != "FASTSHA_BACKEND"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=60).stdout.split()
    import hmac
    assert out == ["portable"] * 4 + [hmac.new(b"k", b"m", "sha256").hexdigest(),
                                      hashlib.pbkdf2_hmac("sha512", b"p", b"s", 3).hex()]


def test_keccak_family_is_one_table():
    """Every Keccak algorithm answers for the one table, which "keccak"
    names; choosing a row for one chooses it for all."""
    rows = fastsha.backends("keccak")
    names = [r[0] for r in rows]
    assert "portable" in names and names[-1] == "reference"
    for alg in ("sha3_224", "sha3_512", "shake_128", "keccak256", "turboshake256", "k12"):
        assert fastsha.backends(alg) == rows
    fastsha.use_backend("sha3_512", "portable")
    try:
        assert fastsha.backend("keccak") == fastsha.backend("k12") == "portable"
        assert fastsha.many_lanes("shake_128") == 1
    finally:
        fastsha.use_backend("keccak", None)
    with pytest.raises(ValueError, match="not built"):
        fastsha.use_backend("keccak", "shani")
    # a NUL ends no name early: "portable\0junk" is not "portable"
    before = fastsha.backend("sha256")
    with pytest.raises(ValueError, match="not built"):
        fastsha.use_backend("sha256", "portable\0junk")
    assert fastsha.backend("sha256") == before
    for bad in ("Keccak", "keccak256x", "sha3"):
        with pytest.raises(ValueError, match="unsupported hash type"):
            fastsha.backends(bad)
