# SPDX-License-Identifier: MIT
"""HMAC, PBKDF2 and HKDF. fastsha.hmac against the standard hmac module,
fastsha.pbkdf2_hmac against hashlib.pbkdf2_hmac, fastsha.hkdf against RFC
5869 written out on the standard hmac: random keys of every length to past
two blocks, messages and salts around the block sizes, every output length
to a few blocks, iteration counts from 1; the stored RFC and Wycheproof
answers (tests/vectors/mac, read as the C tests read them); the HMAC
object's semantics; the batches against one call at a time; and the hashes
fastsha hands to the standard modules. The exceptions are in
test_mac_errors.py, threads and the GIL in test_threads.py."""

import array
import copy
import hashlib
import hmac
import pickle
import random
import types

import numpy as np
import pytest

import fastsha
import fastsha.hmac as fhmac
from support import ALL, BLOCK_SIZE, DIGEST_SIZE, SHA1DC_WHY, mac_vectors, names_sha1dc
from test_names import candidates


def rng_for(*seed):
    return random.Random(repr(seed))


def around_blocks(block, top=4):
    """Lengths next to every multiple of the block size up to @top blocks,
    and where the length field and the 0x80 byte stop fitting in a block."""
    field = 8 if block == 64 else 16
    out = {0, 1, 2}
    for k in range(1, top + 1):
        out |= {k * block - 1, k * block, k * block + 1}
    out |= {block - field - 1, block - field, block - field + 1}
    return sorted(x for x in out if x >= 0)


def hkdf_reference(alg, ikm, salt, info, length):
    """RFC 5869 on the standard hmac module, step by step."""
    ds = hashlib.new(alg).digest_size
    prk = hmac.digest(salt or bytes(ds), ikm, alg)
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.digest(prk, t + info + bytes([i]), alg)
        okm += t
        i += 1
    return okm[:length]


# ---- the stored answers -------------------------------------------------------

@pytest.mark.parametrize("kind", ["hmac", "hkdf", "pbkdf2"])
def test_known_answers(kind):
    cases = [c for c in mac_vectors() if c[0] == kind]
    assert len(cases) > 300 if kind != "pbkdf2" else len(cases) > 250
    for _, alg, fields, valid, where in cases:
        if kind == "hmac":
            key, msg, tag = fields
            got = {fhmac.digest(key, msg, alg), fhmac.new(key, msg, alg).digest(),
                   fastsha.hmac_many(alg, key, [msg])[0]}
            assert len(got) == 1, where
            assert (got.pop()[:len(tag)] == tag) == valid, where
        elif kind == "hkdf":
            ikm, salt, info, size, okm = fields
            if not valid:  # a size past 255 digests
                with pytest.raises(ValueError, match="length must be 1 to"):
                    fastsha.hkdf(alg, ikm, salt=salt, info=info, length=size)
                continue
            assert fastsha.hkdf(alg, ikm, salt=salt, info=info, length=size) == okm, where
            prk = fastsha.hkdf_extract(alg, ikm, salt=salt)
            assert fastsha.hkdf_expand(alg, prk, info=info, length=size) == okm, where
        else:
            pw, salt, iterations, dklen, dk = fields
            assert valid, where
            assert fastsha.pbkdf2_hmac(alg, pw, salt, iterations, dklen) == dk, where
            if iterations <= 4096:
                assert fastsha.pbkdf2_hmac_many(alg, [pw, pw], salt, iterations,
                                                dklen) == [dk, dk], where


# ---- HMAC against the standard module -----------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_hmac_every_key_length(alg):
    """Keys of 0..300 bytes: shorter than, equal to and longer than a block
    (hashed first), for SHA-512's 128-byte blocks too."""
    rng = rng_for("keys", alg)
    msg = rng.randbytes(100)
    for klen in range(301):
        key = rng.randbytes(klen)
        want = hmac.digest(key, msg, alg)
        assert fhmac.digest(key, msg, alg) == want, klen
        h = fhmac.new(key, msg, alg)
        assert h.digest() == want, klen
        assert h.hexdigest() == want.hex(), klen


@pytest.mark.parametrize("alg", ALL)
def test_hmac_messages_around_blocks(alg):
    rng = rng_for("msgs", alg)
    block = BLOCK_SIZE[alg]
    keys = [rng.randbytes(n) for n in (0, 1, 20, block - 1, block, block + 1, 2 * block + 3)]
    for n in around_blocks(block):
        msg = rng.randbytes(n)
        for key in keys:
            want = hmac.digest(key, msg, alg)
            assert fhmac.digest(key, msg, alg) == want, (n, len(key))
            assert fhmac.new(key, msg, alg).digest() == want, (n, len(key))
            assert fhmac.new(key, digestmod=alg).digest() == hmac.digest(key, b"", alg)


@pytest.mark.parametrize("alg", ALL)
def test_hmac_streaming_every_split(alg):
    """update() in two pieces at every split of a message past two blocks,
    and byte by byte, equals one call."""
    rng = rng_for("split", alg)
    key = rng.randbytes(33)
    msg = rng.randbytes(2 * BLOCK_SIZE[alg] + 9)
    want = hmac.digest(key, msg, alg)
    for i in range(len(msg) + 1):
        h = fhmac.new(key, msg[:i], alg)
        h.update(msg[i:])
        assert h.digest() == want, i
    h = fhmac.new(key, digestmod=alg)
    for b in msg:
        h.update(bytes([b]))
    assert h.digest() == want


def test_hmac_large_message():
    rng = rng_for("large")
    key, msg = rng.randbytes(64), rng.randbytes((1 << 20) + 7)  # GIL released
    for alg in ("sha1", "sha256", "sha512"):
        want = hmac.digest(key, msg, alg)
        assert fhmac.digest(key, msg, alg) == want
        assert fhmac.new(key, msg, alg).digest() == want
        h = fhmac.new(key, digestmod=alg)
        h.update(msg[:5000])
        h.update(msg[5000:])
        assert h.digest() == want
    # a key of 2048 bytes and more is hashed with the GIL released
    big_key = rng.randbytes(5000)
    assert fhmac.new(big_key, b"m", "sha256").digest() == hmac.digest(big_key, b"m", "sha256")


# ---- the HMAC object -------------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_hmac_attributes(alg):
    ours, theirs = fhmac.new(b"key", b"msg", alg), hmac.new(b"key", b"msg", alg)
    assert type(ours) is fhmac.HMAC
    assert ours.name == theirs.name == f"hmac-{alg}"
    assert ours.digest_size == theirs.digest_size == DIGEST_SIZE[alg]
    assert ours.block_size == theirs.block_size == BLOCK_SIZE[alg]
    assert ours.blocksize == theirs.blocksize == 64
    assert fhmac.HMAC.blocksize == hmac.HMAC.blocksize == 64
    assert ours.name in repr(ours)


def test_hmac_digest_does_not_finalise():
    key = b"k" * 10
    h = fhmac.new(key, b"abc", "sha256")
    first = h.digest()
    assert h.digest() == first and h.hexdigest() == first.hex()
    h.update(b"def")
    assert h.digest() == hmac.digest(key, b"abcdef", "sha256")
    h.update(b"")
    assert h.digest() == hmac.digest(key, b"abcdef", "sha256")


def test_hmac_copy_forks():
    key = b"secret"
    h = fhmac.new(key, b"common ", "sha384")
    for c in (h.copy(), copy.copy(h), copy.deepcopy(h)):
        assert type(c) is fhmac.HMAC and c is not h
        c.update(b"fork")
        assert c.digest() == hmac.digest(key, b"common fork", "sha384")
    h.update(b"main")
    assert h.digest() == hmac.digest(key, b"common main", "sha384")


def test_hmac_class_called_directly():
    for args, kwargs in (((b"k", b"m", "sha256"), {}), ((b"k",), {"digestmod": "sha256",
                                                                 "msg": b"m"}),
                         ((), {"key": b"k", "msg": b"m", "digestmod": fastsha.sha256})):
        h = fhmac.HMAC(*args, **kwargs)
        assert type(h) is fhmac.HMAC
        assert h.digest() == hmac.digest(b"k", b"m", "sha256")
    # a hash fastsha does not have: the standard object, as from new()
    h = fhmac.HMAC(b"k", b"m", "md5")
    assert type(h) is hmac.HMAC and h.digest() == hmac.digest(b"k", b"m", "md5")


def test_hmac_type_is_final_and_not_picklable():
    with pytest.raises(TypeError):
        type("Sub", (fhmac.HMAC,), {})
    h = fhmac.new(b"k", b"m", "sha1")
    with pytest.raises(TypeError):
        pickle.dumps(h)


def test_hmac_buffers_of_every_kind():
    key = b"key"
    data = bytes(range(256)) * 3
    want = hmac.digest(key, data, "sha256")
    for buf in (bytearray(data), memoryview(data), array.array("I", data),
                np.frombuffer(data, dtype=np.uint8).reshape(-1), memoryview(data).cast("H")):
        assert fhmac.new(key, buf, "sha256").digest() == want
        h = fhmac.new(key, digestmod="sha256")
        h.update(buf)
        assert h.digest() == want
        assert fhmac.digest(key, buf, "sha256") == want
    assert fhmac.new(bytearray(key), data, "sha256").digest() == want
    assert fhmac.digest(memoryview(key), data, "sha256") == want


def test_failed_update_changes_nothing():
    h = fhmac.new(b"k", b"abc", "sha256")
    before = h.digest()
    for bad in ("text", None, 5, memoryview(b"abcdef")[::2]):
        with pytest.raises((TypeError, BufferError)):
            h.update(bad)
        assert h.digest() == before


# ---- digestmod: ours or the standard module's -----------------------------------

def _hashlib_accepts(name):
    try:
        return hashlib.new(name).name
    except (TypeError, ValueError):
        return None


def outcome(call):
    """What call() gives: ("ok", result) or ("raised", type, message)."""
    try:
        return ("ok", call())
    except Exception as e:  # noqa: BLE001 (any exception is an outcome to compare)
        return ("raised", type(e), str(e))


def test_every_name_hashlib_takes():
    """Every name of test_names' candidates: a name hashlib.new() gives one
    of the seven for is ours (a fastsha HMAC); any other goes to the standard
    module and gives what it gives, exceptions included; sha1dc's names
    (fastsha's, not hashlib's) are refused saying why."""
    ours = 0
    for name in candidates():
        def tag(mod):
            h = mod.new(b"k", b"m", name)
            return h.name, h.digest_size, h.block_size, h.digest()
        if names_sha1dc(name):
            for call in (lambda: tag(fhmac), lambda: fhmac.digest(b"k", b"m", name)):
                assert outcome(call) == ("raised", ValueError, SHA1DC_WHY % name), repr(name)
            continue
        assert outcome(lambda: tag(fhmac)) == outcome(lambda: tag(hmac)), repr(name)
        assert outcome(lambda: fhmac.digest(b"k", b"m", name)) == \
            outcome(lambda: hmac.digest(b"k", b"m", name)), repr(name)
        if _hashlib_accepts(name) in ALL:
            assert type(fhmac.new(b"k", b"m", name)) is fhmac.HMAC, repr(name)
            ours += 1
        elif outcome(lambda: hmac.new(b"k", b"m", name))[0] == "ok":
            assert type(fhmac.new(b"k", b"m", name)) is hmac.HMAC, repr(name)
    assert ours >= 50


def _standard_constructors():
    out = [(getattr(hashlib, n), n) for n in ("sha1", "sha224", "sha256", "sha384", "sha512")]
    import importlib
    for modname, names in (("_sha1", ["sha1"]), ("_sha256", ["sha224", "sha256"]),
                           ("_sha512", ["sha384", "sha512"]),
                           ("_sha2", ["sha224", "sha256", "sha384", "sha512"])):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        out += [(getattr(mod, n), n) for n in names if hasattr(mod, n)]
    return out


def test_constructors_that_are_ours():
    conses = [(getattr(fastsha, n), n) for n in ("sha1", "sha224", "sha256", "sha384",
                                                 "sha512")]
    conses += _standard_constructors()
    assert len(conses) >= 15
    for cons, name in conses:
        h = fhmac.new(b"key", b"msg", cons)
        assert type(h) is fhmac.HMAC, cons
        assert h.name == f"hmac-{name}"
        assert h.digest() == hmac.digest(b"key", b"msg", name)
        assert fhmac.digest(b"key", b"msg", cons) == hmac.digest(b"key", b"msg", name)


class _NewModule(types.ModuleType):
    """A module with .new, as PyCryptodome's Crypto.Hash.SHA256."""

    def __init__(self, cons):
        super().__init__("fake_hash_module")
        self.new = cons


def test_digestmods_handed_to_the_standard_module():
    """Hashes fastsha does not have, and constructors it cannot vouch for
    (a wrapper could compute anything): the standard module's object and
    answer."""
    wrapped = lambda d=b"": hashlib.sha256(d)  # noqa: E731
    for digestmod in ("md5", "sha3_256", "SHA3-512", "blake2b", "blake2s", hashlib.md5,
                      hashlib.sha3_256, hashlib.blake2b, fastsha.sha1dc, wrapped,
                      _NewModule(hashlib.sha256), _NewModule(fastsha.sha512)):
        want = hmac.new(b"key", b"msg", digestmod)
        h = fhmac.new(b"key", b"msg", digestmod)
        assert type(h) is hmac.HMAC, digestmod
        assert h.name == want.name and h.digest() == want.digest(), digestmod
        assert fhmac.digest(b"key", b"msg", digestmod) == hmac.digest(b"key", b"msg",
                                                                       digestmod)


def test_compare_digest_is_the_standard_one():
    assert fhmac.compare_digest is hmac.compare_digest
    assert fhmac.compare_digest(b"abc", b"abc") and not fhmac.compare_digest("a", "b")
    with pytest.raises(TypeError):
        fhmac.compare_digest("\xe9", "\xe9")  # non-ASCII str, as the standard one


def test_module_surface():
    for name in ("compare_digest", "trans_5C", "trans_36", "digest_size"):
        assert getattr(fhmac, name) == getattr(hmac, name)
    assert fhmac.new.__name__ == "new" and fhmac.digest.__name__ == "digest"
    assert set(fhmac.__all__) == {"HMAC", "compare_digest", "digest", "new"}
    assert fastsha.hmac is fhmac and "hmac" not in fastsha.__all__


def test_import_fastsha_stays_cheap():
    """import fastsha loads neither the standard hmac nor hashlib (OpenSSL):
    fastsha.hmac is a submodule, loaded by its own import. And the package
    has no module-level __getattr__ (a lazy fastsha.hmac would want one),
    with which CPython stops specialising fastsha.<name> lookups: about
    15 ns more on every fastsha.sha256(...) call."""
    import subprocess
    import sys
    code = ("import sys, fastsha; print('hmac' in sys.modules, 'hashlib' in sys.modules, "
            "hasattr(fastsha, 'hmac'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False", "False"]
    assert "__getattr__" not in vars(fastsha)


# ---- PBKDF2 against hashlib --------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_pbkdf2_matches_hashlib(alg):
    rng = rng_for("pbkdf2", alg)
    block, ds = BLOCK_SIZE[alg], DIGEST_SIZE[alg]
    pw_lengths = [0, 1, 8, block - 1, block, block + 1, 2 * block + 5, 300]
    # salt || INT(i) ends right before, at and after a block boundary
    salt_lengths = [0, 1, 16, block - 13, block - 12, block - 11, block - 4, block, 2 * block]
    for it in range(1, 13):
        pw = rng.randbytes(rng.choice(pw_lengths))
        salt = rng.randbytes(rng.choice(salt_lengths))
        dklen = rng.choice([None, 1, ds - 1, ds, ds + 1, 2 * ds, 3 * ds + 7])
        want = hashlib.pbkdf2_hmac(alg, pw, salt, it, dklen)
        assert fastsha.pbkdf2_hmac(alg, pw, salt, it, dklen) == want, (it, len(pw), len(salt))
    for n in pw_lengths + list(range(0, 301, 23)):
        pw = rng.randbytes(n)
        assert fastsha.pbkdf2_hmac(alg, pw, b"salt", 2) == hashlib.pbkdf2_hmac(alg, pw,
                                                                                b"salt", 2)
    for n in salt_lengths:
        salt = rng.randbytes(n)
        assert fastsha.pbkdf2_hmac(alg, b"pw", salt, 3) == hashlib.pbkdf2_hmac(alg, b"pw",
                                                                                salt, 3)


@pytest.mark.parametrize("alg", ALL)
def test_pbkdf2_every_dklen(alg):
    """Every output length to past three blocks: the blocks are independent
    chains and the last one is cut."""
    ds = DIGEST_SIZE[alg]
    full = hashlib.pbkdf2_hmac(alg, b"password", b"NaCl", 5, 3 * ds + 1)
    for dklen in range(1, 3 * ds + 2):
        got = fastsha.pbkdf2_hmac(alg, b"password", b"NaCl", 5, dklen)
        assert got == full[:dklen], dklen
    assert fastsha.pbkdf2_hmac(alg, b"p", b"s", 1) == hashlib.pbkdf2_hmac(alg, b"p", b"s", 1)


def test_pbkdf2_many_iterations():
    for alg, it in (("sha1", 100_000), ("sha256", 50_000), ("sha512", 20_000),
                    ("sha512_256", 3_000), ("sha224", 4_097)):
        want = hashlib.pbkdf2_hmac(alg, b"pass", b"salt" * 4, it, 50)
        assert fastsha.pbkdf2_hmac(alg, b"pass", b"salt" * 4, it, 50) == want, alg


def test_pbkdf2_keywords_and_buffers():
    want = hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 10, 40)
    assert fastsha.pbkdf2_hmac(hash_name="sha256", password=b"pw", salt=b"salt",
                               iterations=10, dklen=40) == want
    assert fastsha.pbkdf2_hmac("sha256", b"pw", b"salt", iterations=10, dklen=40) == want
    assert fastsha.pbkdf2_hmac("SHA256", bytearray(b"pw"), memoryview(b"salt"), True + 9,
                               np.int64(40)) == want
    data = array.array("I", [1, 2, 3])
    assert fastsha.pbkdf2_hmac("sha1", data, data, 2) == hashlib.pbkdf2_hmac("sha1", data,
                                                                              data, 2)


@pytest.mark.parametrize("name", ["md5", "MD5", "sha3_256", "SHA3-384", "blake2b", "blake2s",
                                  "sm3", "ripemd160"])
def test_pbkdf2_hands_other_hashes_to_hashlib(name):
    try:
        want = hashlib.pbkdf2_hmac(name, b"pw", b"salt", 7, 33)
    except ValueError as e:
        with pytest.raises(type(e), match=str(e).replace("[", r"\[").replace("]", r"\]")):
            fastsha.pbkdf2_hmac(name, b"pw", b"salt", 7, 33)
        return
    assert fastsha.pbkdf2_hmac(name, b"pw", b"salt", 7, 33) == want
    assert fastsha.pbkdf2_hmac(name, password=b"pw", salt=b"salt", iterations=7) == \
        hashlib.pbkdf2_hmac(name, b"pw", b"salt", 7)


def test_pbkdf2_every_name():
    """Every candidate name: our answer for hashlib's names of the seven,
    hashlib's answer or exception for everything else but sha1dc's names,
    refused saying why."""
    for name in candidates() + [None, b"sha256", 5]:
        if names_sha1dc(name):
            assert outcome(lambda: fastsha.pbkdf2_hmac(name, b"p", b"s", 2)) == \
                ("raised", ValueError, SHA1DC_WHY % name)
            continue
        assert outcome(lambda: fastsha.pbkdf2_hmac(name, b"p", b"s", 2)) == \
            outcome(lambda: hashlib.pbkdf2_hmac(name, b"p", b"s", 2)), repr(name)


# ---- HKDF ----------------------------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_hkdf_against_the_rfc(alg):
    rng = rng_for("hkdf", alg)
    ds, block = DIGEST_SIZE[alg], BLOCK_SIZE[alg]
    for length in list(range(1, 3 * ds + 2)) + [255 * ds - 1, 255 * ds]:
        ikm = rng.randbytes(rng.choice([0, 1, 22, block, block + 1, 300]))
        salt = rng.randbytes(rng.choice([0, 1, 13, ds, block, block + 1, 200]))
        info = rng.randbytes(rng.choice([0, 1, 10, block, 300]))
        want = hkdf_reference(alg, ikm, salt, info, length)
        assert fastsha.hkdf(alg, ikm, salt=salt, info=info, length=length) == want, length
        prk = fastsha.hkdf_extract(alg, ikm, salt=salt)
        assert prk == hmac.digest(salt or bytes(ds), ikm, alg)
        assert fastsha.hkdf_expand(alg, prk, info=info, length=length) == want


def test_hkdf_defaults_and_empty_salt():
    ikm = b"input keying material"
    for alg in ALL:
        ds = DIGEST_SIZE[alg]
        one = fastsha.hkdf(alg, ikm)
        assert one == hkdf_reference(alg, ikm, b"", b"", ds)
        assert one == fastsha.hkdf(alg, ikm, salt=None, info=None, length=None)
        assert one == fastsha.hkdf(alg, ikm, salt=bytes(ds))  # the RFC's default salt
        assert fastsha.hkdf_extract(alg, ikm) == fastsha.hkdf_extract(alg, ikm, salt=None)
        # a PRK longer than a digest is allowed (RFC 5869, 2.3)
        long_prk = bytes(range(ds + 9))
        assert fastsha.hkdf_expand(alg, long_prk, info=b"x", length=7) == \
            hkdf_reference_expand(alg, long_prk, b"x", 7)
    assert fastsha.hkdf("SHA-256", memoryview(ikm), salt=bytearray(b"s"),
                        info=array.array("B", b"i"), length=5) == \
        hkdf_reference("sha256", ikm, b"s", b"i", 5)


def test_hkdf_long_inputs():
    """Inputs of GIL_MINSIZE bytes and more are hashed without the GIL, a
    path of their own in each call: the same answers as HMAC's."""
    n = fastsha.GIL_MINSIZE
    for ikm, salt in ((bytes(range(256)) * (n // 256), b"s"), (b"ikm", b"\x5a" * n)):
        prk = fastsha.hkdf_extract("sha256", ikm, salt=salt)
        assert prk == hmac.digest(salt, ikm, "sha256")
        assert fastsha.hkdf("sha256", ikm, salt=salt, length=40) == \
            hkdf_reference_expand("sha256", prk, b"", 40)
    info = b"i" * n
    assert fastsha.hkdf_expand("sha256", prk, info=info, length=40) == \
        hkdf_reference_expand("sha256", prk, info, 40)


def hkdf_reference_expand(alg, prk, info, length):
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.digest(prk, t + info + bytes([i]), alg)
        okm, i = okm + t, i + 1
    return okm[:length]


# ---- batches ---------------------------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_hmac_many_against_one_at_a_time(alg):
    rng = rng_for("hmac_many", alg)
    block = BLOCK_SIZE[alg]
    for n in list(range(0, 34)) + [100]:
        key = rng.randbytes(rng.choice([0, 16, block, block + 1, 200]))
        msgs = [rng.randbytes(rng.choice([0, 1, 55, 64, block - 1, block, 2 * block + 1,
                                          3000])) for _ in range(n)]
        want = [hmac.digest(key, m, alg) for m in msgs]
        assert fastsha.hmac_many(alg, key, msgs) == want, n
    # any iterable, any buffer, for the key too
    msgs = [b"a", bytearray(b"bc"), memoryview(b"def"), array.array("H", [1, 2]),
            np.arange(5, dtype=np.uint8)]
    want = [hmac.digest(b"key", bytes(memoryview(m).cast("B")), alg) for m in msgs]
    assert fastsha.hmac_many(alg, memoryview(b"key"), iter(msgs)) == want
    assert fastsha.hmac_many(hash_name=alg, key=bytearray(b"key"), buffers=tuple(msgs)) == want


@pytest.mark.parametrize("alg", ALL)
def test_pbkdf2_hmac_many_against_one_at_a_time(alg):
    rng = rng_for("pbkdf2_many", alg)
    ds = DIGEST_SIZE[alg]
    for n in (0, 1, 2, 3, 7, 8, 9, 16, 17):
        pws = [rng.randbytes(rng.choice([0, 5, 64, 129, 200])) for _ in range(n)]
        salts = [rng.randbytes(rng.choice([0, 8, 16, 60, 130])) for _ in range(n)]
        it = rng.choice([1, 2, 3, 50])
        dklen = rng.choice([None, 1, ds, ds + 1, 3 * ds])
        want = [hashlib.pbkdf2_hmac(alg, p, s, it, dklen) for p, s in zip(pws, salts)]
        assert fastsha.pbkdf2_hmac_many(alg, pws, salts, it, dklen) == want, n
        assert fastsha.pbkdf2_hmac_many(alg, iter(pws), (s for s in salts), it,
                                        dklen) == want, n
        one = b"one salt for all"
        want = [hashlib.pbkdf2_hmac(alg, p, one, it, dklen) for p in pws]
        assert fastsha.pbkdf2_hmac_many(alg, pws, one, it, dklen) == want, n
        assert fastsha.pbkdf2_hmac_many(alg, pws, bytearray(one), it, dklen) == want, n
        assert fastsha.pbkdf2_hmac_many(alg, pws, memoryview(one), it, dklen) == want, n


def test_pbkdf2_hmac_many_keywords():
    want = [hashlib.pbkdf2_hmac("sha1", p, b"s", 4, 32) for p in (b"a", b"b")]
    assert fastsha.pbkdf2_hmac_many(hash_name="sha1", passwords=[b"a", b"b"], salts=b"s",
                                    iterations=4, dklen=32) == want
    assert fastsha.pbkdf2_hmac_many("SHA-1", [b"a", b"b"], [b"s", b"s"], 4, 32) == want


# ---- fastsha put in the standard modules' place -------------------------------------

def test_fallbacks_survive_monkeypatching(monkeypatch):
    """Code that installs the drop-ins in the standard modules' place, then
    asks for a hash fastsha does not have: the fallback reaches the real
    standard function, not fastsha's again (which would recurse)."""
    want_dk = hashlib.pbkdf2_hmac("md5", b"pw", b"salt", 3)
    want_tag = hmac.digest(b"k", b"m", "md5")
    monkeypatch.setattr(hashlib, "pbkdf2_hmac", fastsha.pbkdf2_hmac)
    monkeypatch.setattr(hmac, "new", fhmac.new)
    monkeypatch.setattr(hmac, "digest", fhmac.digest)
    assert hashlib.pbkdf2_hmac("md5", b"pw", b"salt", 3) == want_dk
    assert hmac.digest(b"k", b"m", "md5") == want_tag
    assert hmac.new(b"k", b"m", "md5").digest() == want_tag
    assert fhmac.HMAC(b"k", b"m", "md5").digest() == want_tag
    with pytest.raises(ValueError, match="unsupported hash type nosuch"):
        hmac.new(b"k", b"m", "nosuch")
