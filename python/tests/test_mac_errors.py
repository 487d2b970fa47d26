# SPDX-License-Identifier: MIT
"""Bad input to the MAC and KDF calls. The drop-ins (pbkdf2_hmac, and
fastsha.hmac's new, HMAC and digest) raise what hashlib and the standard
hmac raise on the same call, type and message, checked by making both calls
here; fastsha's own calls (the batches, HKDF) raise a clear TypeError or
ValueError. Nothing crashes, and a failed call changes nothing."""

import hashlib
import hmac
import mmap
import re

import pytest

import fastsha
import fastsha.hmac as fhmac
from support import SHA1DC_WHY, unknown_keyword


def outcome(call):
    """("ok", result) or ("raised", exception type, message)."""
    try:
        return ("ok", call())
    except Exception as e:  # noqa: BLE001 (any exception is an outcome to compare)
        return ("raised", type(e), str(e))


class Falsy:
    def __bool__(self):
        return False


class BadBool:
    def __bool__(self):
        raise ZeroDivisionError("no truth here")


class Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


STRIDED = memoryview(b"abcdef")[::2]

# (args, kwargs) for pbkdf2_hmac: every argument wrong in every way hashlib
# checks, each alone, for one of our names and for one hashlib must handle.
PBKDF2_CASES = [
    (("sha256", "pw", b"salt", 1), {}),
    (("sha256", b"pw", "salt", 1), {}),
    (("sha256", None, b"salt", 1), {}),
    (("sha256", b"pw", 5, 1), {}),
    (("sha256", STRIDED, b"salt", 1), {}),
    (("sha256", b"pw", STRIDED, 1), {}),
    (("sha256", b"pw", b"salt", 0), {}),
    (("sha256", b"pw", b"salt", -1), {}),
    (("sha256", b"pw", b"salt", -2**70), {}),
    (("sha256", b"pw", b"salt", 2**31 - 1, 0), {}),
    (("sha256", b"pw", b"salt", 2**31), {}),
    (("sha256", b"pw", b"salt", 2**32 + 1), {}),
    (("sha256", b"pw", b"salt", 2**63), {}),
    (("sha256", b"pw", b"salt", 2**64), {}),
    (("sha256", b"pw", b"salt", 1.0), {}),
    (("sha256", b"pw", b"salt", "1"), {}),
    (("sha256", b"pw", b"salt", None), {}),
    (("sha256", b"pw", b"salt", Index(0)), {}),
    (("sha256", b"pw", b"salt", 1, 0), {}),
    (("sha256", b"pw", b"salt", 1, -1), {}),
    (("sha256", b"pw", b"salt", 1, 2**31), {}),
    (("sha256", b"pw", b"salt", 1, 2**64), {}),
    (("sha256", b"pw", b"salt", 1, 1.5), {}),
    (("sha256", b"pw", b"salt", 1, "3"), {}),
    (("sha256", b"pw", b"salt", 1, False), {}),
    (("sha256", b"pw", b"salt", 0, 0), {}),          # the first check wins
    (("sha256", "pw", b"salt", 0, 0), {}),
    (("sha256", b"pw", b"salt", 1, 16, 1), {}),
    (("sha256", b"pw", b"salt"), {}),
    (("sha256", b"pw"), {}),
    ((), {}),
    (("sha256", b"pw", b"salt", 1), {"dklen": 16, "foo": 1}),
    (("sha256", b"pw", b"salt", 1), {"foo": 1}),
    (("sha256", b"pw"), {"password": b"pw", "salt": b"s", "iterations": 1}),
    (("sha256", b"pw", b"salt"), {"iterations": 1, "password": b"x"}),
    (("sha256", b"pw"), {"foo": 1}),
    ((), {"hash_name": "sha256", "password": b"p", "salt": b"s", "iterations": 1,
          "dklen": 1, "x": 2}),
    ((), {"hash_name": "sha256", "password": b"p", "salt": b"s"}),
    ((b"sha256", b"pw", b"salt", 1), {}),
    ((None, b"pw", b"salt", 1), {}),
    (("sha256\0", b"pw", b"salt", 1), {}),
    (("sha256\ud800", b"pw", b"salt", 1), {}),
    (("nosuchhash", b"pw", b"salt", 1), {}),
]


def _with(name, args):
    return (name,) + args[1:] if args and args[0] == "sha256" else args


@pytest.mark.parametrize("name", ["sha256", "SHA512_256", "sha-1", "md5", "sha3_256"])
@pytest.mark.parametrize("case", range(len(PBKDF2_CASES)))
def test_pbkdf2_errors_are_hashlibs(name, case):
    args, kwargs = PBKDF2_CASES[case]
    args = _with(name, args)
    ours = outcome(lambda: fastsha.pbkdf2_hmac(*args, **kwargs))
    theirs = outcome(lambda: hashlib.pbkdf2_hmac(*args, **kwargs))
    assert ours == theirs, (args, kwargs)


@pytest.fixture(scope="module")
def two_gib():
    """A buffer of 2**31 bytes nobody touches: anonymous pages, not memory."""
    m = mmap.mmap(-1, 2**31)
    yield m
    m.close()


def test_hashlibs_int_limits(two_gib):
    """hashlib passes lengths to OpenSSL as int and refuses what does not fit,
    before reading a byte; so do the drop-ins."""
    for args in (("sha256", two_gib, b"s", 1), ("sha256", b"p", two_gib, 1),
                 ("sha256", two_gib, b"s", 0), ("md5", two_gib, b"s", 1)):
        assert outcome(lambda: fastsha.pbkdf2_hmac(*args)) == \
            outcome(lambda: hashlib.pbkdf2_hmac(*args))
    assert outcome(lambda: fhmac.digest(two_gib, b"m", "sha256")) == \
        outcome(lambda: hmac.digest(two_gib, b"m", "sha256")) == \
        ("raised", OverflowError, "key is too long.")
    # new() and HMAC() take bytes or bytearray keys only: bytes(2**31) is
    # calloc()'s untouched pages, so as cheap as the mapping
    key = bytes(2**31)
    for ours, theirs in ((fhmac.new, hmac.new), (fhmac.HMAC, hmac.HMAC)):
        assert outcome(lambda: ours(key, b"m", "sha256")) == \
            outcome(lambda: theirs(key, b"m", "sha256")) == \
            ("raised", OverflowError, "key is too long.")
    del key
    # a message has no such limit: not run here (2 GiB of hashing)


HMAC_NEW_CASES = [
    ("key", b"m", "sha256"),
    (memoryview(b"key"), b"m", "sha256"),
    (None, b"m", "sha256"),
    (5, b"m", "sha256"),
    ([1, 2], b"m", "sha256"),
    (b"key", b"m", ""),
    (b"key", b"m", None),
    (b"key", b"m", 0),
    (b"key", b"m", False),
    (b"key", b"m", Falsy()),
    (b"key", b"m", BadBool()),
    (b"key", "m", "sha256"),
    (b"key", 5, "sha256"),
    (b"key", STRIDED, "sha256"),
    (bytearray(b"key"), "m", fastsha.sha1),
    (b"key", "m", hashlib.sha512),
    (b"key", b"m", "nosuchhash"),
    (b"key", b"m", "sha256\0"),
    (b"key", b"m", 5),
    (b"key", b"m", [1]),               # unhashable: the standard module decides
    (b"key", b"m", {"new": 1}),
    ("key", b"m", ""),                 # the key's type is checked first
    (b"key", "m", "md5"),
    (b"key", b"m", "md5"),
]


@pytest.mark.parametrize("case", range(len(HMAC_NEW_CASES)))
def test_hmac_new_errors_are_the_standard_ones(case):
    key, msg, digestmod = HMAC_NEW_CASES[case]

    def made(mod):
        h = mod(key, msg, digestmod)
        return h.name, h.digest()

    assert outcome(lambda: made(fhmac.new)) == outcome(lambda: made(hmac.new))
    assert outcome(lambda: made(fhmac.HMAC)) == outcome(lambda: made(hmac.HMAC))


def test_hmac_new_argument_errors():
    """Argument counts and names: TypeError, as the standard new() and HMAC()
    (whose messages come from Python's own call checks, so differ)."""
    for args, kwargs in (((), {}), ((b"k", b"m", "sha256", 1), {}),
                         ((b"k",), {"digestmod": "sha256", "foo": 1}),
                         ((b"k",), {"key": b"k", "digestmod": "sha256"})):
        for ours, theirs in ((fhmac.new, hmac.new), (fhmac.HMAC, hmac.HMAC)):
            with pytest.raises(TypeError):
                theirs(*args, **kwargs)
            with pytest.raises(TypeError):
                ours(*args, **kwargs)
    # a missing digestmod: the standard module's own words ("parameter" to
    # 3.12, "argument" from 3.13), whole
    assert outcome(lambda: fhmac.new(b"k", b"m")) == outcome(lambda: hmac.new(b"k", b"m"))
    assert outcome(lambda: fhmac.HMAC(b"k")) == outcome(lambda: hmac.HMAC(b"k"))
    assert outcome(lambda: fhmac.new(b"k"))[:2] == ("raised", TypeError)


HMAC_DIGEST_CASES = [
    ("key", b"m", "sha256"),
    (None, b"m", "sha256"),
    (5, b"m", "sha256"),
    (STRIDED, b"m", "sha256"),
    (b"key", "m", "sha256"),
    (b"key", None, "sha256"),
    (b"key", STRIDED, "sha256"),
    (b"key", b"m", ""),
    (b"key", b"m", None),
    (b"key", b"m", 5),
    (b"key", b"m", [1]),
    (b"key", b"m", "nosuchhash"),
    (b"key", b"m", "sha256\0"),
    ("key", b"m", "md5"),
    (b"key", "m", hashlib.md5),
    (b"key", "m", fastsha.sha256),
    (memoryview(b"key"), b"m", hashlib.sha256),
]


@pytest.mark.parametrize("case", range(len(HMAC_DIGEST_CASES)))
def test_hmac_digest_errors_are_the_standard_ones(case):
    args = HMAC_DIGEST_CASES[case]
    assert outcome(lambda: fhmac.digest(*args)) == outcome(lambda: hmac.digest(*args))


def test_hmac_digest_argument_errors():
    """Argument counts and names: TypeError, as the standard digest() (a
    Python function, whose messages differ); all three by name is fine."""
    for args, kwargs in (((b"k", b"m"), {}), ((), {}), ((b"k", b"m", "sha256", 1), {}),
                         ((b"k", b"m"), {"digestmod": "sha256"}),
                         ((b"k", b"m", "sha256"), {"key": b"k"})):
        with pytest.raises(TypeError):
            hmac.digest(*args, **kwargs)
        with pytest.raises(TypeError):
            fhmac.digest(*args, **kwargs)
    assert fhmac.digest(key=b"k", msg=b"m", digest="sha256") == \
        hmac.digest(key=b"k", msg=b"m", digest="sha256")


def test_hmac_update_errors_are_the_standard_ones():
    for bad in ("text", None, 5, STRIDED, [b"a"]):
        ours, theirs = fhmac.new(b"k", b"x", "sha256"), hmac.new(b"k", b"x", "sha256")
        assert outcome(lambda: ours.update(bad)) == outcome(lambda: theirs.update(bad))
        assert ours.digest() == theirs.digest()  # unchanged by the failed call


def test_hmac_update_takes_msg_by_name():
    """The standard HMAC.update(self, msg) is a Python method, so code may
    call update(msg=...); a drop-in must take it, and refuse other names and
    counts as a TypeError, as the standard one does."""
    for digestmod in ("sha256", "md5"):  # ours, and one handed to the standard module
        ours, theirs = fhmac.new(b"k", b"x", digestmod), hmac.new(b"k", b"x", digestmod)
        ours.update(msg=b"by name")
        theirs.update(msg=b"by name")
        assert ours.digest() == theirs.digest()
        for args, kwargs in (((), {}), ((), {"data": b"a"}), ((b"a",), {"msg": b"b"}),
                             ((b"a", b"b"), {})):
            with pytest.raises(TypeError):
                theirs.update(*args, **kwargs)
            with pytest.raises(TypeError):
                ours.update(*args, **kwargs)
        assert ours.digest() == theirs.digest()  # the refused calls changed nothing


@pytest.mark.parametrize("name", ["sha1dc", "SHA1DC"])
def test_drop_ins_refuse_sha1dc_saying_why(name):
    """sha1dc is fastsha's name, not hashlib's: the drop-ins raise the
    ValueError fastsha's own calls raise for it, not hashlib's (pbkdf2_hmac:
    "[digital envelope routines] unsupported", which says nothing of why).
    Still a ValueError, and the arguments' own errors still come first, as
    hashlib's and the standard module's do."""
    want = ("raised", ValueError, SHA1DC_WHY % name)
    for call in (lambda: fastsha.pbkdf2_hmac(name, b"pw", b"salt", 1),
                 lambda: fastsha.pbkdf2_hmac(hash_name=name, password=b"pw", salt=b"s",
                                             iterations=1, dklen=8),
                 lambda: fhmac.new(b"key", b"m", name),
                 lambda: fhmac.new(bytearray(b"key"), digestmod=name),
                 lambda: fhmac.HMAC(b"key", b"m", name),
                 lambda: fhmac.digest(b"key", b"m", name),
                 lambda: fastsha.pbkdf2_hmac_many(name, [b"pw"], b"salt", 1),
                 lambda: fastsha.hmac_many(name, b"key", [b"m"]),
                 lambda: fastsha.hkdf(name, b"ikm"),
                 lambda: fastsha.hkdf_extract(name, b"ikm"),
                 lambda: fastsha.hkdf_expand(name, bytes(64))):
        assert outcome(call) == want
    for call in (lambda: hashlib.pbkdf2_hmac(name, b"pw", b"salt", 1),
                 lambda: hmac.new(b"key", b"m", name), lambda: hmac.digest(b"key", b"m", name)):
        with pytest.raises(ValueError):  # what code written for hashlib catches
            call()
    for args in (("str", b"salt", 1), (b"pw", None, 1), (b"pw", b"salt", "1")):
        assert outcome(lambda: fastsha.pbkdf2_hmac(name, *args)) == \
            outcome(lambda: hashlib.pbkdf2_hmac(name, *args))
    for args in (("key", b"m"), (None, b"m")):
        for ours, theirs in ((fhmac.new, hmac.new), (fhmac.HMAC, hmac.HMAC),
                             (fhmac.digest, hmac.digest)):
            assert outcome(lambda: ours(*args, name)) == outcome(lambda: theirs(*args, name))
    assert outcome(lambda: fhmac.new(b"key", b"m", "")) == \
        outcome(lambda: hmac.new(b"key", b"m", ""))
    # A name neither has is still hashlib's and the standard module's to answer.
    for other in ("sha1d", "sha1dc2", "md5"):
        assert outcome(lambda: fastsha.pbkdf2_hmac(other, b"pw", b"salt", 1)) == \
            outcome(lambda: hashlib.pbkdf2_hmac(other, b"pw", b"salt", 1))
        assert outcome(lambda: fhmac.digest(b"key", b"m", other)) == \
            outcome(lambda: hmac.digest(b"key", b"m", other))


# ---- fastsha's own calls ----------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda n: fastsha.hmac_many(n, b"k", [b"m"]),
    lambda n: fastsha.pbkdf2_hmac_many(n, [b"p"], b"s", 1),
    lambda n: fastsha.hkdf(n, b"ikm"),
    lambda n: fastsha.hkdf_extract(n, b"ikm"),
    lambda n: fastsha.hkdf_expand(n, bytes(64)),
], ids=["hmac_many", "pbkdf2_hmac_many", "hkdf", "hkdf_extract", "hkdf_expand"])
def test_own_calls_take_our_names_only(call):
    assert call("SHA-256") == call("sha256")
    for name in ("md5", "sha3_256", "nosuchhash", ""):
        with pytest.raises(ValueError, match=f"unsupported hash type {name}$"):
            call(name)
    with pytest.raises(ValueError, match="sha1dc for HMAC: use sha1"):
        call("sha1dc")
    for name in (None, b"sha256", "sha256\0"):
        with pytest.raises(TypeError, match="name must be a string"):
            call(name)


@pytest.mark.parametrize("fn, args", [
    ("hmac_many", (b"k", [b"m"])),
    ("pbkdf2_hmac_many", ([b"p"], b"s", 1)),
    ("hkdf", (b"ikm",)),
    ("hkdf_extract", (b"ikm",)),
    ("hkdf_expand", (bytes(64),)),
])
def test_own_calls_docstrings_name_what_they_take(fn, args):
    # help() is where a caller looks: it named algorithms_available, whose
    # SHA-3 and SHAKE names these calls refuse.
    call = getattr(fastsha, fn)
    words = set(re.findall(r"[a-z0-9_]+", call.__doc__))
    for name in fastsha.algorithms_available:
        try:
            call(name, *args)
            taken = True
        except ValueError:
            taken = False
        assert (name in words) == taken, (name, taken)
    assert "algorithms_available" not in words


def test_hmac_many_errors():
    with pytest.raises(TypeError, match="a bytes-like object is required, not 'str'"):
        fastsha.hmac_many("sha256", "key", [b"m"])
    with pytest.raises(TypeError, match="Strings must be encoded before hashing"):
        fastsha.hmac_many("sha256", b"key", [b"m", "text"])
    with pytest.raises(TypeError, match="object supporting the buffer API required"):
        fastsha.hmac_many("sha256", b"key", [b"m", None])
    with pytest.raises(BufferError):
        fastsha.hmac_many("sha256", b"key", [STRIDED])
    with pytest.raises(TypeError):
        fastsha.hmac_many("sha256", b"key", 5)
    with pytest.raises(TypeError, match=r"missing required argument 'buffers' \(pos 3\)"):
        fastsha.hmac_many("sha256", b"key")
    with pytest.raises(TypeError, match=r"takes at most 3 arguments \(4 given\)"):
        fastsha.hmac_many("sha256", b"key", [], 1)


def test_pbkdf2_hmac_many_errors():
    many = fastsha.pbkdf2_hmac_many
    # iterations and dklen: pbkdf2_hmac's words
    for args in ((0,), (2**31,), (1.0,), (1, 0), (1, 2**31), (1, "x")):
        assert outcome(lambda: many("sha256", [b"p"], b"s", *args)) == \
            outcome(lambda: hashlib.pbkdf2_hmac("sha256", b"p", b"s", *args))
    # an empty batch still checks them
    with pytest.raises(ValueError, match="iteration value must be greater than 0."):
        many("sha256", [], b"s", 0)
    assert many("sha256", [], b"s", 1) == [] and many("sha256", [], [], 1) == []
    with pytest.raises(ValueError, match=r"pbkdf2_hmac_many\(\): 1 salts for 2 passwords"):
        many("sha256", [b"a", b"b"], [b"s"], 1)
    with pytest.raises(ValueError, match=r"3 salts for 2 passwords"):
        many("sha256", [b"a", b"b"], iter([b"s", b"t", b"u"]), 1)
    with pytest.raises(TypeError, match="salts must be a bytes-like object or an iterable"):
        many("sha256", [b"a"], "salt", 1)
    # one salt that is a buffer but no C-contiguous one: pbkdf2_hmac's error
    assert outcome(lambda: many("sha256", [b"a"], STRIDED, 1)) == \
        outcome(lambda: hashlib.pbkdf2_hmac("sha256", b"a", STRIDED, 1))
    with pytest.raises(TypeError, match="Strings must be encoded before hashing"):
        many("sha256", [b"a", "b"], b"s", 1)
    with pytest.raises(TypeError, match="Strings must be encoded before hashing"):
        many("sha256", [b"a"], ["s"], 1)
    with pytest.raises(TypeError):
        many("sha256", None, b"s", 1)
    with pytest.raises(TypeError):
        many("sha256", [b"a"], None, 1)
    with pytest.raises(TypeError, match=r"missing required argument 'iterations' \(pos 4\)"):
        many("sha256", [b"a"], b"s")


def test_pbkdf2_hmac_many_length_limits(two_gib):
    with pytest.raises(OverflowError, match="password is too long."):
        fastsha.pbkdf2_hmac_many("sha256", [b"a", two_gib], b"s", 1)
    with pytest.raises(OverflowError, match="salt is too long."):
        fastsha.pbkdf2_hmac_many("sha256", [b"a"], two_gib, 1)
    with pytest.raises(OverflowError, match="salt is too long."):
        fastsha.pbkdf2_hmac_many("sha256", [b"a", b"b"], [b"s", two_gib], 1)


def test_hkdf_errors():
    for length in (0, -1, 255 * 32 + 1, 2**64, -2**64):
        with pytest.raises(ValueError, match=rf"hkdf\(\): length must be 1 to 8160 "
                                             rf"\(255 sha256 digests\), not {length}"):
            fastsha.hkdf("sha256", b"ikm", length=length)
        with pytest.raises(ValueError, match=r"hkdf_expand\(\): length must be 1 to 8160"):
            fastsha.hkdf_expand("sha256", bytes(32), length=length)
    for length in (1.0, "8", b"8"):
        with pytest.raises(TypeError):
            fastsha.hkdf("sha256", b"ikm", length=length)
    assert fastsha.hkdf("sha256", b"ikm", length=Index(5)) == fastsha.hkdf("sha256", b"ikm")[:5]
    with pytest.raises(ValueError, match=r"prk must be at least 48 bytes \(a sha384 digest\), "
                                         r"not 47"):
        fastsha.hkdf_expand("sha384", bytes(47))
    for bad in ("ikm", None, 5):
        with pytest.raises(TypeError, match="a bytes-like object is required"):
            fastsha.hkdf("sha256", bad)
    for kw in ("salt", "info"):
        with pytest.raises(TypeError, match="a bytes-like object is required, not 'str'"):
            fastsha.hkdf("sha256", b"ikm", **{kw: "text"})
    # the two halves check their buffers as hkdf() does (hmac.digest()'s words)
    for call in (lambda: fastsha.hkdf_extract("sha256", "ikm"),
                 lambda: fastsha.hkdf_extract("sha256", b"ikm", salt="text"),
                 lambda: fastsha.hkdf_expand("sha256", "p" * 32),
                 lambda: fastsha.hkdf_expand("sha256", bytes(32), info="text")):
        with pytest.raises(TypeError, match="a bytes-like object is required, not 'str'"):
            call()
    for call in (lambda: fastsha.hkdf_extract("sha256", STRIDED),
                 lambda: fastsha.hkdf_expand("sha256", memoryview(bytes(64))[::2])):
        assert outcome(call) == outcome(lambda: hmac.digest(b"k", STRIDED, "sha256"))
    # salt, info and length are keyword-only: no mixing up two byte strings
    with pytest.raises(TypeError,
                       match=r"hkdf\(\) takes exactly 2 positional arguments \(3 given\)"):
        fastsha.hkdf("sha256", b"ikm", b"salt")
    with pytest.raises(TypeError, match=r"hkdf_extract\(\) takes exactly 2 positional"):
        fastsha.hkdf_extract("sha256", b"ikm", b"salt")
    with pytest.raises(TypeError, match=r"hkdf_expand\(\) takes exactly 2 positional"):
        fastsha.hkdf_expand("sha256", bytes(32), b"info")
    with pytest.raises(TypeError, match=re.escape(unknown_keyword("hkdf", "ikm_"))):
        fastsha.hkdf("sha256", b"x", ikm_=b"x")
    # a missing argument is reported first, as Argument Clinic does
    with pytest.raises(TypeError, match=r"hkdf\(\) missing required argument 'ikm' \(pos 2\)"):
        fastsha.hkdf("sha256", ikm_=b"x")


def test_register_refuses_what_has_no_hmac():
    reg = fastsha._fastsha._register_hmac_digestmod
    with pytest.raises(ValueError, match="sha1dc for HMAC"):
        reg(fastsha.sha1dc, "sha1dc")
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        reg(hashlib.md5, "md5")
    with pytest.raises(TypeError):
        reg([], "sha256")  # unhashable
    with pytest.raises(TypeError):
        reg(hashlib.sha256)
