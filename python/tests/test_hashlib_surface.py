# SPDX-License-Identifier: MIT
"""hashlib's surface, checked the way CPython's Lib/test/test_hashlib.py
checks hashlib (3.11), restated for a third-party module: every check runs
through the named constructor and through fastsha.new(), and hashlib itself
is the oracle wherever an answer is needed."""

import array
import ctypes
import hashlib
import hmac
import io
import pickle
import re

import pytest

import fastsha
from support import (ALL, BLOCK_SIZE, DIGEST_SIZE, HASHLIB, NAMED, constructors,
                     known_answers, monte_carlo, reference, unknown_keyword)

CONS = constructors()


# ---- known answers --------------------------------------------------------

def test_known_answers_every_constructor():
    """Every stored answer (NIST CAVP short and long messages, NIST's
    examples incl. one million 'a', SHA-512/t from OpenSSL) through the named
    constructor, new(), update() and many()."""
    answers = known_answers()
    assert len(answers) > 700
    for alg, msg, md, where in answers:
        conses = [fastsha.new] + ([getattr(fastsha, alg)] if alg in NAMED else [])
        for cons in conses:
            h = cons(alg, msg) if cons is fastsha.new else cons(msg)
            assert h.hexdigest() == md, where
            assert h.digest() == bytes.fromhex(md), where
            assert len(h.digest()) == h.digest_size, where
        h = fastsha.new(alg)
        h.update(msg)
        assert h.hexdigest() == md, where
    for alg in ALL:
        group = [(msg, md) for a, msg, md, _ in answers if a == alg]
        assert fastsha.many(alg, [m for m, _ in group]) == [bytes.fromhex(d) for _, d in group]


@pytest.mark.parametrize("alg", NAMED)
def test_monte_carlo(alg):
    """CAVP's Monte Carlo chains: 100 x 1000 dependent hashes of 3 digests."""
    seed, expected = monte_carlo(alg)
    cons = getattr(fastsha, alg)
    for md in expected:
        a = b = c = seed
        for _ in range(1000):
            a, b, c = b, c, cons(a + b + c).digest()
        seed = c
        assert seed.hex() == md


@pytest.mark.parametrize("alg,cons", CONS)
def test_file_digest(alg, cons, tmp_file):
    """hashlib.file_digest takes our constructor: BytesIO (one update of its
    buffer) and a real file (256 KiB memoryview slices)."""
    data = bytes(range(256)) * 5000  # 1.28 MB: several full chunks and a tail
    want = reference(alg, data).hexdigest()
    d1 = hashlib.file_digest(io.BytesIO(data), cons)
    with open(tmp_file(data), "rb") as f:
        d2 = hashlib.file_digest(f, cons)
    assert d1.hexdigest() == d2.hexdigest() == want
    assert d1.name == d2.name == alg
    assert type(d1) is type(d2) is fastsha.Hash


def test_file_digest_refuses_what_hashlib_refuses(tmp_file):
    path = tmp_file(b"x")
    with pytest.raises(ValueError):
        hashlib.file_digest(None, fastsha.sha256)
    with open(path) as f, pytest.raises(ValueError):
        hashlib.file_digest(f, fastsha.sha256)
    with open(path, "wb") as f, pytest.raises(ValueError):
        hashlib.file_digest(f, fastsha.sha256)


def _outcome(fn):
    """What fn() gave: ("ok", value) or (exception type, message)."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 (compared with hashlib's)
        return (type(e), str(e))


def _hexdigest(h):
    return h.hexdigest(40) if h.name.startswith("shake") else h.hexdigest()


@pytest.mark.parametrize("alg", HASHLIB)
def test_fastsha_file_digest_names(alg, tmp_file):
    """fastsha.file_digest(f, name) is hashlib.file_digest with our object:
    the same digest from BytesIO, a buffered and an unbuffered file, in
    hashlib's chunk size and in small chunks (many reads and a tail)."""
    data = bytes(range(256)) * 1200 + b"tail"
    want = _hexdigest(reference(alg, data))
    path = tmp_file(data)
    got = [fastsha.file_digest(io.BytesIO(data), alg)]
    for buffering in (-1, 0):
        for bufsize in (2**18, 1000):
            with open(path, "rb", buffering=buffering) as f:
                got.append(fastsha.file_digest(f, alg, _bufsize=bufsize))
    for d in got:
        assert type(d) is (fastsha.HashXOF if alg.startswith("shake") else fastsha.Hash)
        assert d.name == alg
        assert _hexdigest(d) == want
    # hashlib.new()'s other spellings name the same algorithm here
    spelled = alg.upper().replace("_", "-")  # SHA512-224, SHA3-256, SHAKE-128
    assert _hexdigest(hashlib.new(spelled, data)) == want
    assert type(fastsha.file_digest(io.BytesIO(data), spelled)) is type(got[0])
    assert _hexdigest(fastsha.file_digest(io.BytesIO(data), spelled)) == want


def test_fastsha_file_digest_others_go_to_hashlib(tmp_file):
    """Names this package lacks, callables and every error are hashlib's:
    the same object type, digest, exception type and message."""
    data = b"abc" * 100000
    path = tmp_file(data)
    for name in ("md5", "blake2b", "sha512_256"):
        ours = fastsha.file_digest(io.BytesIO(data), name)
        theirs = hashlib.file_digest(io.BytesIO(data), name)
        assert ours.hexdigest() == theirs.hexdigest()
        if name not in ALL:
            assert type(ours) is type(theirs)
    for cons in (hashlib.sha256, fastsha.sha256, lambda: fastsha.new("sha3_256")):
        with open(path, "rb") as f:
            ours = fastsha.file_digest(f, cons)
        assert type(ours) is type(cons())
        assert ours.hexdigest() == hashlib.new(cons().name, data).hexdigest()
    text, wr = open(path), open(tmp_file(b"", "w.bin"), "wb")
    try:
        for fileobj, digest in [(io.BytesIO(data), "nope"), (io.BytesIO(data), "SHA3_256"),
                                (io.BytesIO(data), 5), (io.BytesIO(data), b"sha256"),
                                (None, "sha256"), (text, "sha256"), (wr, "sha256"),
                                (None, "md5"), (text, fastsha.sha1)]:
            mine = _outcome(lambda: fastsha.file_digest(fileobj, digest).hexdigest())
            std = _outcome(lambda: hashlib.file_digest(fileobj, digest).hexdigest())
            assert mine == std, (fileobj, digest)
            if std[0] == "ok":
                continue
            assert issubclass(std[0], (ValueError, TypeError)), std
    finally:
        text.close()
        wr.close()
    with pytest.raises(TypeError):
        fastsha.file_digest(io.BytesIO(data))  # digest is required
    with pytest.raises(TypeError):
        fastsha.file_digest(fileobj=io.BytesIO(data), digest="sha256")  # positional only


@pytest.mark.parametrize("how", ["attribute", "module"])
def test_fastsha_file_digest_in_hashlibs_place(how, tmp_file, monkeypatch):
    """A drop-in can be put where hashlib's is: hashlib.file_digest =
    fastsha.file_digest, or the whole module as sys.modules["hashlib"] (what
    running CPython's test_hashlib on fastsha does). fastsha.file_digest then
    finds itself as hashlib's and must read the file, not call itself (it
    recursed until RecursionError)."""
    import sys
    data = b"abc" * 100000
    path = tmp_file(data)
    want = hashlib.sha256(data).hexdigest()
    if how == "attribute":
        monkeypatch.setattr(hashlib, "file_digest", fastsha.file_digest)
    else:
        monkeypatch.setitem(sys.modules, "hashlib", fastsha)
    for digest in ("sha256", fastsha.sha256, hashlib.sha256):
        assert fastsha.file_digest(io.BytesIO(data), digest).hexdigest() == want
        with open(path, "rb") as f:
            assert fastsha.file_digest(f, digest, _bufsize=1000).hexdigest() == want
    with open(path, "rb", buffering=0) as f:
        assert fastsha.file_digest(f, "sha256").hexdigest() == want
    # hashlib's refusals, and a name neither has
    text, wr = open(path), open(tmp_file(b"", "w.bin"), "wb")
    try:
        for fileobj in (None, text, wr):
            with pytest.raises(ValueError, match="not a file-like object in binary reading mode"):
                fastsha.file_digest(fileobj, "sha256")
    finally:
        text.close()
        wr.close()
    if how == "module":  # "md5" goes to hashlib.new, which is ours here
        with pytest.raises(ValueError, match="unsupported hash type md5"):
            fastsha.file_digest(io.BytesIO(data), "md5")
    else:
        assert (fastsha.file_digest(io.BytesIO(data), "md5").hexdigest()
                == hashlib.md5(data).hexdigest())


@pytest.mark.parametrize("alg", NAMED)
@pytest.mark.parametrize("keylen", [0, 20, 64, 128, 200])
def test_hmac(alg, keylen):
    """hmac.new(key, msg, fastsha.X) takes hmac's generic path (a callable
    digestmod, block_size, digest_size, copy); keys shorter and longer than
    a block (those are hashed first)."""
    key = bytes(range(keylen))
    msg = b"what do ya want for nothing?" * 10
    cons = getattr(fastsha, alg)
    want = hmac.new(key, msg, getattr(hashlib, alg)).hexdigest()
    assert hmac.new(key, msg, cons).hexdigest() == want
    assert hmac.new(key, msg, lambda d=b"": fastsha.new(alg, d)).hexdigest() == want
    assert hmac.digest(key, msg, cons).hex() == want
    m = hmac.new(key, digestmod=cons)
    m.update(msg[:100])
    m2 = m.copy()
    m.update(msg[100:])
    m2.update(msg[100:])
    assert m.hexdigest() == m2.hexdigest() == want


# ---- constructors and arguments -----------------------------------------

@pytest.mark.parametrize("alg,cons", CONS)
def test_hash_array(alg, cons):
    """A non-byte array is hashed as its raw bytes, as hashlib does."""
    a = array.array("b", range(10))
    assert cons(a, usedforsecurity=False).digest() == reference(alg, a).digest()
    a = array.array("I", [1, 2, 0xFFFFFFFF])
    assert cons(a).digest() == reference(alg, bytes(a)).digest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_usedforsecurity(alg, cons):
    empty = reference(alg).digest()
    for flag in (True, False, 0, 1):
        assert cons(usedforsecurity=flag).digest() == empty
        assert cons(b"", usedforsecurity=flag).digest() == empty


@pytest.mark.parametrize("alg,cons", CONS)
def test_data_keyword_spellings(alg, cons):
    """Positionally, as data= (3.14's name) and as string= (3.11's name)."""
    want = reference(alg, b"abc").digest()
    assert cons(b"abc").digest() == want
    assert cons(data=b"abc").digest() == want
    assert cons(string=b"abc").digest() == want
    with pytest.raises(TypeError, match="mutually exclusive"):
        cons(b"abc", string=b"abc")
    with pytest.raises(TypeError, match="mutually exclusive"):
        cons(data=b"abc", string=b"abc")


@pytest.mark.parametrize("alg,cons", CONS)
def test_no_unicode(alg, cons):
    with pytest.raises(TypeError, match="^Strings must be encoded before hashing$"):
        cons("spam")
    with pytest.raises(TypeError, match="^Strings must be encoded before hashing$"):
        cons().update("spam")


def outcome(call):
    """("ok", result) or (exception type, message)."""
    try:
        return "ok", call()
    except Exception as e:  # noqa: BLE001 (any exception is an outcome to compare)
        return type(e), str(e)


@pytest.mark.parametrize("alg,cons", CONS)
def test_bad_buffers(alg, cons):
    """Non-buffers and non-contiguous buffers, with hashlib's exceptions;
    a C-contiguous 2-D view is hashed flat."""
    for bad in (None, 1, 1.5, [1, 2], object()):
        with pytest.raises(TypeError, match="^object supporting the buffer API required$"):
            cons(bad)
        with pytest.raises(TypeError, match="^object supporting the buffer API required$"):
            cons().update(bad)
        with pytest.raises(TypeError):
            getattr(hashlib, alg, lambda x: hashlib.new(alg, x))(bad)
    strided = memoryview(bytes(range(16)))[::2]
    with pytest.raises(BufferError):
        cons(strided)
    with pytest.raises(BufferError):
        cons().update(strided)
    flat = bytes(range(12))
    grid = memoryview(flat).cast("B", (3, 4))
    assert cons(grid).digest() == reference(alg, flat).digest()
    # an exporter that gives its shape whatever was asked (a ctypes 2-D
    # array: ndim 2 for a PyBUF_SIMPLE request) is refused as hashlib refuses it
    grid2 = (ctypes.c_uint8 * 4 * 3)()
    want = outcome(lambda: reference(alg, grid2))
    assert want == (BufferError, "Buffer must be single dimension")
    assert outcome(lambda: cons(grid2)) == want
    assert outcome(lambda: cons().update(grid2)) == want
    assert outcome(lambda: fastsha.many(alg, [b"a", grid2])) == want


@pytest.mark.parametrize("alg", NAMED)
def test_argument_errors(alg):
    cons = getattr(fastsha, alg)
    with pytest.raises(TypeError, match=r"takes at most 1 positional argument \(2 given\)"):
        cons(b"a", b"b")
    # an unknown keyword in the running Python's words ("'foo' is an invalid
    # keyword argument for sha1()" to 3.12, "sha1() got an unexpected keyword
    # argument 'foo'" from 3.13), each function with its own name (hashlib's
    # is OpenSSL's openssl_sha1)
    with pytest.raises(TypeError, match=f"^{re.escape(unknown_keyword(alg, 'foo'))}$"):
        cons(foo=1)
    # after a positional argument too: the keyword is still named, as hashlib
    # names it, not taken for one that repeats the positional argument
    for f, fname in ((cons, alg), (getattr(hashlib, alg), getattr(hashlib, alg).__name__)):
        with pytest.raises(TypeError, match=f"^{re.escape(unknown_keyword(fname, 'foo'))}$"):
            f(b"a", foo=1)
    h = cons()
    with pytest.raises(TypeError):
        h.update()
    with pytest.raises(TypeError):
        h.update(b"a", b"b")
    with pytest.raises(TypeError):
        h.digest(1)


def test_new_names_and_errors():
    for alg in ALL:
        for spelling in (alg, alg.upper(), alg.replace("_", "-").upper()):
            h = fastsha.new(spelling)
            assert h.name == alg
            # hashlib knows the same spellings
            assert hashlib.new(spelling).name == alg
    assert fastsha.new("SHA-256").name == "sha256"
    assert fastsha.new(name="sha1", data=b"abc").hexdigest() == hashlib.sha1(b"abc").hexdigest()
    for bad in ("", "md5", "sha3256", "SHA3_256", "sha256x", "sha512/224"):
        with pytest.raises(ValueError, match="unsupported hash type"):
            fastsha.new(bad)
    # hashlib's TypeError for a name it cannot pass to C (test_names.py has the rest)
    for bad in (5, b"sha1", None, "sha1\0", "sha1\udc80"):
        with pytest.raises(TypeError, match="^name must be a string$"):
            fastsha.new(bad)
    with pytest.raises(TypeError, match="missing required argument 'name'"):
        fastsha.new()
    with pytest.raises(TypeError, match="given by name"):
        fastsha.new("sha1", b"", data=b"")


def test_algorithms_available():
    """hashlib's names of the algorithms both have; not fastsha's own
    (sha1dc, keccak256, turboshake128/256, k12), which hashlib.new()
    refuses."""
    assert fastsha.algorithms_available == set(HASHLIB)
    assert fastsha.algorithms_guaranteed == set(HASHLIB)
    for name in fastsha.algorithms_available:
        assert name in hashlib.algorithms_available
        assert fastsha.new(name).name == name == hashlib.new(name).name


# ---- the object ------------------------------------------------------------

@pytest.mark.parametrize("alg,cons", CONS)
def test_blocksize_name(alg, cons):
    h = cons()
    assert h.name == alg and isinstance(h.name, str)
    assert h.name == fastsha.new(alg).name == reference(alg).name
    assert h.digest_size == DIGEST_SIZE[alg] == reference(alg).digest_size
    assert h.block_size == BLOCK_SIZE[alg] == reference(alg).block_size
    assert len(h.digest()) == h.digest_size
    assert len(h.hexdigest()) == 2 * h.digest_size
    assert alg in repr(h)
    for attr in ("name", "digest_size", "block_size"):
        with pytest.raises(AttributeError):
            setattr(h, attr, 1)


@pytest.mark.parametrize("alg,cons", CONS)
def test_hexdigest(alg, cons):
    """Lower case, and the hex of digest()."""
    for data in (b"", b"abc", bytes(range(256)) * 9):
        h = cons(data)
        hx = h.hexdigest()
        assert isinstance(hx, str) and hx == hx.lower()
        assert bytes.fromhex(hx) == h.digest()
        assert hx == reference(alg, data).hexdigest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_large_update(alg, cons):
    """Pieces of 128, 127, 126 and 2048 bytes (hashlib's GIL threshold) equal
    one update and the constructor; copy() leaves the original alone."""
    aas = b"a" * 128
    bees = b"b" * 127
    cees = b"c" * 126
    dees = b"d" * 2048
    m1 = cons()
    for piece in (aas, bees, cees, dees):
        m1.update(piece)
    m2 = cons()
    m2.update(aas + bees + cees + dees)
    m3 = cons(aas + bees + cees + dees)
    assert m1.digest() == m2.digest() == m3.digest() == \
        reference(alg, aas + bees + cees + dees).digest()
    m4 = m3.copy()
    m4.update(dees)
    assert m3.digest() == m1.digest()
    assert m4.digest() == reference(alg, aas + bees + cees + dees + dees).digest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_gil_threshold_sizes(alg, cons):
    """Updates of 1, 2048 and 1 bytes, and a constructor given 2048 (the
    first keeps the GIL, the second releases it and creates the lock)."""
    gil = fastsha.GIL_MINSIZE
    assert gil == 2048
    m = cons()
    m.update(b"1")
    m.update(b"#" * gil)
    m.update(b"1")
    assert m.hexdigest() == reference(alg, b"1" + b"#" * gil + b"1").hexdigest()
    assert cons(b"x" * gil).hexdigest() == reference(alg, b"x" * gil).hexdigest()
    # the object keeps working once it has its lock
    m.update(b"tail")
    c = m.copy()
    c.update(b"more")
    assert m.hexdigest() == reference(alg, b"1" + b"#" * gil + b"1tail").hexdigest()
    assert c.hexdigest() == reference(alg, b"1" + b"#" * gil + b"1tailmore").hexdigest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_copy_independence(alg, cons):
    a = cons(b"common prefix " * 10)
    b = a.copy()
    assert type(b) is type(a) and b is not a
    assert a.digest() == b.digest()
    a.update(b"left")
    b.update(b"right" * 1000)
    assert a.digest() == reference(alg, b"common prefix " * 10 + b"left").digest()
    assert b.digest() == reference(alg, b"common prefix " * 10 + b"right" * 1000).digest()
    c = b.copy()
    del b
    assert c.digest() == reference(alg, b"common prefix " * 10 + b"right" * 1000).digest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_digest_does_not_finalise(alg, cons):
    """digest() and hexdigest() leave the state alone: call them again, or
    go on updating (a running digest)."""
    h = cons(b"abc")
    assert h.digest() == h.digest()
    assert h.hexdigest() == h.hexdigest()
    h.update(b"def")
    assert h.digest() == reference(alg, b"abcdef").digest()


@pytest.mark.parametrize("alg,cons", CONS)
def test_buffer_kinds(alg, cons):
    data = bytes(range(200))
    want = reference(alg, data).digest()
    for obj in (data, bytearray(data), memoryview(data), memoryview(bytearray(data)),
                array.array("B", data), memoryview(b"xx" + data + b"yy")[2:-2]):
        assert cons(obj).digest() == want
        h = cons()
        h.update(obj)
        assert h.digest() == want


def test_update_does_not_keep_references():
    """file_digest reuses one bytearray: update must not hold on to it."""
    buf = bytearray(b"x" * 4096)
    h = fastsha.sha256()
    h.update(memoryview(buf)[:100])
    h.update(buf)
    buf.extend(b"y")  # would raise BufferError while an export is held
    assert h.hexdigest() == hashlib.sha256(b"x" * 4196).hexdigest()


def test_type_is_final_immutable_and_not_instantiable():
    t = type(fastsha.sha1())
    assert t is fastsha.Hash and t.__module__ == "fastsha"
    with pytest.raises(TypeError, match="cannot create"):
        t()
    with pytest.raises(TypeError, match="immutable type"):
        t.extra = 1
    with pytest.raises(TypeError):
        class Sub(t):  # noqa: F841
            pass
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(fastsha.sha1())


def test_signatures():
    import inspect
    assert str(inspect.signature(fastsha.sha256)) == \
        "(data=b'', *, usedforsecurity=True, string=None)"
    assert str(inspect.signature(fastsha.new)) == \
        "(name, data=b'', *, usedforsecurity=True, string=None)"
    assert str(inspect.signature(fastsha.sha256().update)) == "(obj, /)"
