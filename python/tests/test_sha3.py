# SPDX-License-Identifier: MIT
"""SHA-3 and SHAKE, as hashlib has them: NIST's answers, hashlib's surface
(signatures, attributes, SHAKE's digest(length) and its exceptions), random
differential tests against hashlib around the rates, the batch and file
calls with a length, and threads. hashlib is the oracle throughout."""

import array
import hashlib
import hmac
import inspect
import io
import pickle
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastsha
import fastsha.hmac as fhmac
from support import (BLOCK_SIZE, DIGEST_SIZE, SHA3, SHAKE, keccak_answers,
                     other_thread_ran_during, race_readers)

FAMILY = SHA3 + SHAKE
RATE = {a: BLOCK_SIZE[a] for a in FAMILY}


def constructors(names=FAMILY):
    out = []
    for n in names:
        out.append(pytest.param(n, getattr(fastsha, n), id=f"{n}-named"))
        out.append(pytest.param(n, lambda *a, _n=n, **k: fastsha.new(_n, *a, **k), id=f"{n}-new"))
    return out


CONS = constructors()


def out(h, n=None):
    """digest(), or for SHAKE digest(n) (n: two blocks and a bit)."""
    if h.name.startswith("shake"):
        return h.digest(2 * h.block_size + 5 if n is None else n)
    return h.digest()


def hexout(h, n=None):
    if h.name.startswith("shake"):
        return h.hexdigest(2 * h.block_size + 5 if n is None else n)
    return h.hexdigest()


# ---- known answers ----------------------------------------------------------

def test_known_answers():
    """NIST's SHA3 and SHAKE files (1,664 messages) and the empty message,
    through the named constructor, new(), byte-at-a-time and 50-byte
    updates, and many()."""
    answers = [a for a in keccak_answers() if a[0] in FAMILY]
    assert len(answers) > 1600
    for alg, msg, _custom, _domain, n, last, md, where in answers:
        assert last == 0
        want = bytes.fromhex(md)
        xof = alg in SHAKE
        take = (lambda h: h.digest(n)) if xof else (lambda h: h.digest())
        assert take(getattr(fastsha, alg)(msg)) == want, where
        assert take(fastsha.new(alg, msg)) == want, where
        h = fastsha.new(alg)
        step = 1 if len(msg) < 300 else 50
        for i in range(0, len(msg), step):
            h.update(msg[i:i + step])
        assert take(h) == want, where
        if xof:
            assert h.hexdigest(n) == md, where
        else:
            assert h.hexdigest() == md and len(want) == h.digest_size, where
    for alg in FAMILY:
        for n in {a[4] for a in answers if a[0] == alg}:  # a batch per output length
            group = [(m, bytes.fromhex(md)) for a, m, _, _, k, _, md, _ in answers
                     if a == alg and k == n]
            kw = {"length": n} if alg in SHAKE else {}
            assert fastsha.many(alg, [m for m, _ in group], **kw) == [w for _, w in group]


# ---- the surface ------------------------------------------------------------

@pytest.mark.parametrize("alg,cons", CONS)
def test_attributes_are_hashlibs(alg, cons):
    h, ref = cons(), hashlib.new(alg)
    assert h.name == ref.name == alg
    assert h.digest_size == ref.digest_size == DIGEST_SIZE[alg]
    assert h.block_size == ref.block_size == RATE[alg]
    assert type(h) is (fastsha.HashXOF if alg in SHAKE else fastsha.Hash)
    assert alg in repr(h)
    for attr in ("name", "digest_size", "block_size"):
        with pytest.raises(AttributeError):
            setattr(h, attr, 1)


def test_signatures():
    for alg in FAMILY:
        assert str(inspect.signature(getattr(fastsha, alg))) == \
            "(data=b'', *, usedforsecurity=True, string=None)"
    for alg in SHAKE:
        h = fastsha.new(alg)
        assert str(inspect.signature(h.digest)) == str(inspect.signature(h.hexdigest)) == \
            str(inspect.signature(hashlib.new(alg).digest)) == "(length)"


def test_types_are_final_immutable_and_not_instantiable():
    for t in (fastsha.Hash, fastsha.HashXOF):
        assert t.__module__ == "fastsha"
        with pytest.raises(TypeError, match="cannot create"):
            t()
        with pytest.raises(TypeError, match="immutable type"):
            t.extra = 1
        with pytest.raises(TypeError):
            class Sub(t):  # noqa: F841
                pass
    for h in (fastsha.sha3_256(), fastsha.shake_128()):
        with pytest.raises(TypeError, match="cannot pickle"):
            pickle.dumps(h)


@pytest.mark.parametrize("alg,cons", CONS)
def test_arguments(alg, cons):
    """usedforsecurity, data= and string=, arrays, 2-D views, str and
    non-buffers, as for the other algorithms and as hashlib."""
    want = out(hashlib.new(alg, b"abc"))
    for flag in (True, False, 0):
        assert out(cons(b"abc", usedforsecurity=flag)) == want
    assert out(cons(data=b"abc")) == out(cons(string=b"abc")) == want
    with pytest.raises(TypeError, match="mutually exclusive"):
        cons(b"abc", string=b"abc")
    a = array.array("I", [1, 2, 0xFFFFFFFF])
    assert out(cons(a)) == out(hashlib.new(alg, bytes(a)))
    flat = bytes(range(12))
    assert out(cons(memoryview(flat).cast("B", (3, 4)))) == out(hashlib.new(alg, flat))
    with pytest.raises(TypeError, match="^Strings must be encoded before hashing$"):
        cons("spam")
    with pytest.raises(TypeError, match="^Strings must be encoded before hashing$"):
        cons().update("spam")
    for bad in (None, 1, [1]):
        with pytest.raises(TypeError, match="^object supporting the buffer API required$"):
            cons(bad)
    with pytest.raises(BufferError):
        cons(memoryview(bytes(16))[::2])


@pytest.mark.parametrize("alg,cons", CONS)
def test_copy_and_running_digest(alg, cons):
    """copy() forks; digest() does not finalise, also for SHAKE, whose
    output is read from a copy of the state: call it again, with another
    length, or go on updating."""
    a = cons(b"common prefix " * 20)
    b = a.copy()
    assert type(b) is type(a) and b is not a
    a.update(b"left")
    b.update(b"right" * 1000)
    assert out(a) == out(hashlib.new(alg, b"common prefix " * 20 + b"left"))
    assert out(b) == out(hashlib.new(alg, b"common prefix " * 20 + b"right" * 1000))
    h = cons(b"abc")
    assert out(h) == out(h) and hexout(h) == hexout(h)
    if alg in SHAKE:
        long = h.digest(1000)
        assert h.digest(10) == long[:10] and h.hexdigest(500) == long[:500].hex()
    h.update(b"def")
    assert out(h) == out(hashlib.new(alg, b"abcdef"))


@pytest.mark.parametrize("alg,cons", CONS)
def test_gil_threshold_sizes(alg, cons):
    gil = fastsha.GIL_MINSIZE
    m = cons()
    for piece in (b"1", b"#" * gil, b"1"):
        m.update(piece)
    assert hexout(m) == hexout(hashlib.new(alg, b"1" + b"#" * gil + b"1"))
    assert out(cons(b"x" * gil)) == out(hashlib.new(alg, b"x" * gil))
    if alg in SHAKE:  # an output past the threshold is read without the GIL
        assert m.digest(3 * gil) == hashlib.new(alg, b"1" + b"#" * gil + b"1").digest(3 * gil)


@pytest.mark.parametrize("alg,cons", CONS)
def test_file_digest_and_hmac(alg, cons, tmp_file):
    """hashlib.file_digest and the standard hmac take the constructors; HMAC
    over SHA-3 is the standard module's work (fastsha.hmac hands it over)."""
    data = bytes(range(256)) * 3000
    with open(tmp_file(data), "rb") as f:
        d = hashlib.file_digest(f, cons)
    assert type(d) is type(cons()) and out(d) == out(hashlib.new(alg, data))
    assert out(hashlib.file_digest(io.BytesIO(data), cons)) == out(hashlib.new(alg, data))
    if alg in SHA3:
        want = hmac.new(b"key", data, alg).digest()
        assert hmac.new(b"key", data, cons).digest() == want
        assert fhmac.new(b"key", data, cons).digest() == want
        assert fhmac.digest(b"key", data, alg) == want


# ---- SHAKE's digest(length) and its exceptions ------------------------------

def outcome(f):
    """('ok', value) or (exception type, message)."""
    try:
        return "ok", f()
    except Exception as e:  # noqa: BLE001 - any of them is the answer
        return type(e), str(e)


# Arguments to digest() and hexdigest(): hashlib's answer is the oracle,
# the class of exception and its message.
LENGTH_CASES = [
    ((), {}), ((0,), {}), ((1,), {}), ((True,), {}), ((200,), {}), ((), {"length": 5}),
    ((1.5,), {}), (("3",), {}), ((None,), {}), ((b"3",), {}), ((2**63,), {}), ((-2**64,), {}),
    ((2**62,), {}), ((), {"len": 4}), ((1, 2), {}), ((1,), {"length": 3}),
    # past the address space, but short of 2**62, hexdigest()'s own limit:
    # the allocation itself fails
    ((2**61,), {}),
    ((), {"length": 1, "x": 2}), ((array.array("B", [1]),), {}),
]


@pytest.mark.parametrize("alg", SHAKE)
@pytest.mark.parametrize("method", ["digest", "hexdigest"])
@pytest.mark.parametrize("case", range(len(LENGTH_CASES)))
def test_length_errors_are_hashlibs(alg, method, case):
    args, kwargs = LENGTH_CASES[case]
    ours = outcome(lambda: getattr(fastsha.new(alg, b"abc"), method)(*args, **kwargs))
    theirs = outcome(lambda: getattr(hashlib.new(alg, b"abc"), method)(*args, **kwargs))
    assert ours == theirs, (args, kwargs)


@pytest.mark.parametrize("alg", SHAKE)
def test_negative_length(alg):
    """CPython 3.11's OpenSSL SHAKE has no check: -1 reaches
    PyBytes_FromStringAndSize (SystemError) or the hex buffer's allocation
    (MemoryError). fastsha raises the ValueError later CPythons give."""
    theirs = [outcome(lambda: hashlib.new(alg).digest(-1))[0],
              outcome(lambda: hashlib.new(alg).hexdigest(-1))[0]]
    assert all(t in (SystemError, MemoryError, ValueError) for t in theirs), theirs
    for method in ("digest", "hexdigest"):
        for n in (-1, -2**63):
            with pytest.raises(ValueError, match="^negative digest length$"):
                getattr(fastsha.new(alg), method)(n)


@pytest.mark.parametrize("alg", SHA3)
def test_sha3_digest_takes_no_length(alg):
    """hashlib's HASH.digest() of a fixed-size algorithm: the same
    TypeErrors, its type named Hash here."""
    for call in (lambda h: h.digest(1), lambda h: h.digest(length=3),
                 lambda h: h.hexdigest(1), lambda h: h.copy(1)):
        ours = outcome(lambda: call(fastsha.new(alg)))
        theirs = outcome(lambda: call(hashlib.new(alg)))
        assert ours == (theirs[0], theirs[1].replace("HASH.", "Hash."))


# ---- random differential tests ----------------------------------------------

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# Lengths cluster around the rates (72 .. 168) and their multiples.
near_rates = st.builds(lambda r, k, d: max(0, r * k + d),
                       st.sampled_from(sorted(set(RATE.values()))), st.integers(1, 4),
                       st.integers(-2, 2))
payload = st.one_of(
    st.binary(max_size=400),
    near_rates.map(lambda n: bytes((5 * i + n) & 255 for i in range(n))),
    st.integers(0, 20000).map(lambda n: bytes((7 * i + n) & 255 for i in range(n))),
)
# SHAKE output lengths: 0 to three blocks of the wider rate, and around them
lengths = st.one_of(st.integers(0, 3 * 168 + 1), near_rates)


def as_kind(data, kind):
    return {"bytes": data, "bytearray": bytearray(data),
            "memoryview": memoryview(b"<" + data + b">")[1:-1],
            "array": array.array("B", data)}[kind]


kinds = st.sampled_from(["bytes", "bytearray", "memoryview", "array"])


@SETTINGS
@given(alg=st.sampled_from(FAMILY), data=payload, n=lengths,
       cuts=st.lists(st.integers(0, 1 << 16), max_size=8), kind=kinds)
def test_random_splits(alg, data, n, cuts, kind):
    points = sorted({c % (len(data) + 1) for c in cuts})
    h = fastsha.new(alg)
    prev = 0
    for p in points + [len(data)]:
        h.update(as_kind(data[prev:p], kind))
        prev = p
    ref = hashlib.new(alg, data)
    assert out(h, n) == out(ref, n)
    assert hexout(h, n) == hexout(ref, n)


@SETTINGS
@given(alg=st.sampled_from(FAMILY), data=payload, at=st.integers(0, 1 << 16),
       tail=st.binary(max_size=300), n=lengths)
def test_copy_at_random_point(alg, data, at, tail, n):
    at %= len(data) + 1
    h = fastsha.new(alg, data[:at])
    c = h.copy()
    h.update(data[at:])
    c.update(tail)
    assert out(h, n) == out(hashlib.new(alg, data), n)
    assert out(c, n) == out(hashlib.new(alg, data[:at] + tail), n)


@SETTINGS
@given(alg=st.sampled_from(FAMILY), msgs=st.lists(payload, max_size=30), n=lengths, kind=kinds)
def test_many_random(alg, msgs, n, kind):
    kw = {"length": n} if alg in SHAKE else {}
    got = fastsha.many(alg, [as_kind(m, kind) for m in msgs], **kw)
    assert got == [out(hashlib.new(alg, m), n) for m in msgs]
    digests, flags = fastsha.many_detect(alg, msgs, **kw)
    assert digests == got and flags == [False] * len(msgs)


@SETTINGS
@given(alg=st.sampled_from(FAMILY), record=st.integers(1, 400), count=st.integers(0, 40),
       n=lengths, seed=st.integers(0, 255))
def test_many_packed_random(alg, record, count, n, seed):
    buf = bytes((seed + 13 * i) & 255 for i in range(record * count))
    kw = {"length": n} if alg in SHAKE else {}
    want = b"".join(out(hashlib.new(alg, buf[i:i + record]), n)
                    for i in range(0, len(buf), record))
    assert fastsha.many_packed(alg, buf, record, **kw) == want


# ---- batches and files ------------------------------------------------------

@pytest.mark.parametrize("alg", FAMILY)
def test_files(alg, tmp_path):
    blobs = [b"", b"abc", bytes(range(256)) * 1000, bytes(200_000)]
    paths = []
    for i, b in enumerate(blobs):
        paths.append(tmp_path / f"f{i}")
        paths[-1].write_bytes(b)
    kw = {"length": 300} if alg in SHAKE else {}
    want = [out(hashlib.new(alg, b), 300) for b in blobs]
    assert [fastsha.file(p, alg, **kw) for p in paths] == want
    assert fastsha.files(paths, alg, threads=3, **kw) == want


def test_length_is_for_the_xofs_only(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    calls = {
        "many": lambda name, **kw: fastsha.many(name, [b"abc"], **kw),
        "many_detect": lambda name, **kw: fastsha.many_detect(name, [b"abc"], **kw),
        "many_packed": lambda name, **kw: fastsha.many_packed(name, b"abc", 3, **kw),
        "file": lambda name, **kw: fastsha.file(p, name, **kw),
        "files": lambda name, **kw: fastsha.files([p], name, **kw),
    }
    for fname, call in calls.items():
        for name in ("shake_128", "SHAKE256", "k12", "turboshake128"):
            with pytest.raises(TypeError, match=rf"^{fname}\(\) missing required argument "
                               rf"'length': \w+ has extendable output$"):
                call(name)
            with pytest.raises(TypeError, match=rf"^{fname}\(\) missing required argument"):
                call(name, length=None)
            with pytest.raises(ValueError, match="^negative digest length$"):
                call(name, length=-1)
            with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
                call(name, length=1.0)
            with pytest.raises(OverflowError):
                call(name, length=2**64)
        for name in ("sha3_256", "sha256", "keccak256", "sha1dc"):
            assert call(name, length=None) == call(name)
            with pytest.raises(TypeError, match=rf"^{fname}\(\): \w+ has a fixed digest size; "
                               "length is for the extendable-output algorithms$"):
                call(name, length=32)
    assert fastsha.many("shake_128", [b"a", b"b"], 0) == [b"", b""]
    assert fastsha.many_packed("shake_256", b"abcd", 2, 0) == b""
    assert fastsha.file(p, "shake_128", length=0) == b""
    assert fastsha.many("shake_128", [], 10) == []
    with pytest.raises(MemoryError):
        fastsha.many("shake_128", [b"a", b"b"], 2**62)
    assert fastsha.many("shake_256", [b"abc"], length=True) == [hashlib.shake_256(b"abc").digest(1)]


def test_keyed_calls_refuse_the_keccak_family():
    """mac.h takes SHA-1 and SHA-2: the drop-ins hand SHA-3 to hashlib and
    the standard hmac; fastsha's own keyed calls refuse it."""
    assert fastsha.pbkdf2_hmac("sha3_256", b"pw", b"salt", 5) == \
        hashlib.pbkdf2_hmac("sha3_256", b"pw", b"salt", 5)
    assert fastsha.pbkdf2_hmac("SHA3-512", b"pw", b"salt", 5, 80) == \
        hashlib.pbkdf2_hmac("SHA3-512", b"pw", b"salt", 5, 80)
    with pytest.raises(ValueError):
        hashlib.pbkdf2_hmac("shake_128", b"pw", b"salt", 5)
    with pytest.raises(ValueError):
        fastsha.pbkdf2_hmac("shake_128", b"pw", b"salt", 5)
    for name in ("sha3_256", "shake_128", "keccak256", "k12"):
        with pytest.raises(ValueError, match=f"^unsupported hash type {name}$"):
            fastsha.hkdf(name, b"ikm")
        with pytest.raises(ValueError, match=f"^unsupported hash type {name}$"):
            fastsha.hmac_many(name, b"k", [b"m"])
    assert fhmac.new(b"k", b"m", "sha3_384").digest() == hmac.new(b"k", b"m", "sha3_384").digest()
    assert type(fhmac.new(b"k", b"m", "sha3_384")) is hmac.HMAC


# ---- threads ----------------------------------------------------------------

@pytest.mark.parametrize("alg", ["sha3_256", "sha3_512", "shake_128", "shake_256"])
def test_threaded_hashing(alg):
    """test_hashlib's check: five threads share one object, chunks of
    len // 10**k, on both sides of the GIL threshold."""
    hasher = fastsha.new(alg)
    data = b"swineflu" * 200000

    def feed(chunk):
        for i in range(0, len(data), chunk):
            hasher.update(data[i:i + chunk])

    threads = [threading.Thread(target=feed, args=(len(data) // 10 ** k,)) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert hexout(hasher) == hexout(hashlib.new(alg, data * 5))


def test_xof_readers_never_see_half_an_update():
    """digest(length) and copy() while another thread appends 64 KiB
    chunks: each answer is the output of a whole number of chunks."""
    chunk = bytes(range(256)) * 256
    n = 96
    prefixes = {hashlib.shake_128(chunk * k).digest(200) for k in range(n + 1)}
    h = fastsha.shake_128()
    bad, seen = race_readers(h, chunk, n, lambda: (h.digest(200), h.copy().digest(200),
                                                   bytes.fromhex(h.hexdigest(200))), prefixes)
    assert not bad
    assert h.digest(200) == hashlib.shake_128(chunk * n).digest(200)
    assert hashlib.shake_128(chunk * (n // 2)).digest(200) in seen  # read mid-message


@pytest.fixture(scope="module")
def big():
    return bytes(range(256)) * (128 * 1024)  # 32 MiB: tens of ms of Keccak


@pytest.mark.parametrize("what", ["update", "constructor", "many", "many xof", "many_packed xof",
                                  "digest(length)", "hexdigest(length)", "file xof"])
def test_gil_released_for_large_work(what, big, tmp_path):
    path = tmp_path / "big.bin"
    if what == "file xof":
        path.write_bytes(big)
    h = fastsha.sha3_256()
    x = fastsha.shake_256(b"seed")
    calls = {
        "update": lambda: h.update(big),
        "constructor": lambda: fastsha.shake_128(big),
        "many": lambda: fastsha.many("sha3_512", [big, big[1:]]),
        "many xof": lambda: fastsha.many("shake_128", [big, b"x"], 64),
        "many_packed xof": lambda: fastsha.many_packed("shake_256", big, 1 << 20, 32),
        "digest(length)": lambda: x.digest(len(big)),
        "hexdigest(length)": lambda: x.hexdigest(len(big) // 2),
        "file xof": lambda: fastsha.file(path, "shake_128", length=100),
    }
    ran, took = other_thread_ran_during(calls[what])
    assert ran, f"no other thread ran during {what} ({took * 1e3:.0f} ms)"
