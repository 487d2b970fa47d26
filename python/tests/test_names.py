# SPDX-License-Identifier: MIT
"""Algorithm names: every entry point of the binding takes exactly the names
hashlib.new() takes for the thirteen algorithms both have (SHA-1, SHA-2,
SHA-3, SHAKE), fastsha's own names for its own algorithms as the C library
spells them, and refuses the rest with hashlib's error. hashlib.new() is asked at run time, on OpenSSL's aliases
and OIDs and on case and separator variants of them: if this Python's
OpenSSL names them differently, these tests say so and the table in
_fastsha.c (alg_names) needs the new row."""

import hashlib
import re

import pytest

import fastsha
from support import HASHLIB

# What hashlib.new() accepted for the thirteen algorithms on Debian 12
# (CPython 3.11, OpenSSL 3.0), besides case variants of these where noted.
# Any ASCII case: OpenSSL's provider names. Exact: CPython's own keys
# ("SHA512_224" is one, "SHA3_256" is not).
ACCEPTED_ANY_CASE = {
    "sha1": ["sha1", "sha-1", "ssl3-sha1", "1.3.14.3.2.26"],
    "sha224": ["sha224", "sha-224", "sha2-224", "2.16.840.1.101.3.4.2.4"],
    "sha256": ["sha256", "sha-256", "sha2-256", "2.16.840.1.101.3.4.2.1"],
    "sha384": ["sha384", "sha-384", "sha2-384", "2.16.840.1.101.3.4.2.2"],
    "sha512": ["sha512", "sha-512", "sha2-512", "2.16.840.1.101.3.4.2.3"],
    "sha512_224": ["sha512-224", "sha-512/224", "sha2-512/224", "2.16.840.1.101.3.4.2.5"],
    "sha512_256": ["sha512-256", "sha-512/256", "sha2-512/256", "2.16.840.1.101.3.4.2.6"],
    "sha3_224": ["sha3-224", "2.16.840.1.101.3.4.2.7"],
    "sha3_256": ["sha3-256", "2.16.840.1.101.3.4.2.8"],
    "sha3_384": ["sha3-384", "2.16.840.1.101.3.4.2.9"],
    "sha3_512": ["sha3-512", "2.16.840.1.101.3.4.2.10"],
    "shake_128": ["shake128", "shake-128", "2.16.840.1.101.3.4.2.11"],
    "shake_256": ["shake256", "shake-256", "2.16.840.1.101.3.4.2.12"],
}
ACCEPTED_EXACT = {"sha512_224": "sha512_224", "SHA512_224": "sha512_224",
                  "sha512_256": "sha512_256", "SHA512_256": "sha512_256",
                  "sha3_224": "sha3_224", "sha3_256": "sha3_256", "sha3_384": "sha3_384",
                  "sha3_512": "sha3_512", "shake_128": "shake_128", "shake_256": "shake_256"}

# OpenSSL's names for the thirteen (`openssl list -digest-algorithms`),
# provided and legacy, CPython's, other spellings people write, and
# fastsha's own names (which hashlib refuses: OpenSSL 3.0 has no Keccak-256,
# TurboSHAKE or KangarooTwelve).
BASES = sorted({n for names in ACCEPTED_ANY_CASE.values() for n in names} | set(ACCEPTED_EXACT) | {
    "RSA-SHA1", "RSA-SHA1-2", "sha1WithRSAEncryption", "RSA-SHA224", "sha224WithRSAEncryption",
    "RSA-SHA256", "sha256WithRSAEncryption", "RSA-SHA384", "sha384WithRSAEncryption",
    "RSA-SHA512", "sha512WithRSAEncryption", "RSA-SHA512/224", "sha512-224WithRSAEncryption",
    "RSA-SHA512/256", "sha512-256WithRSAEncryption", "id-sha256", "sha", "SHA2",
    "sha512/224", "sha512/256", "sha_256", "sha_1", "s-h-a-2-5-6", "sha512224", "sha512256",
    "sha2_256", "sha2/256", "sha-512-224", "sha-512_256", "sha512_224sha", "sha1dc",
    "RSA-SHA3-256", "id-rsassa-pkcs1-v1_5-with-sha3-256", "id-sha3-256", "sha3256",
    "sha3/256", "sha3-256-", "sha3", "shake", "shake_128_", "SHA3_512",
    "keccak256", "keccak-256", "keccak", "turboshake128", "turboshake256", "k12", "kt128",
    "kangarootwelve", "KECCAK-KMAC-128",
    # the C library's spellings of fastsha's own, and near misses
    "Keccak_256", "KECCAK/256", "KT-128", "k-12", "kangaroo-twelve", "turbo-shake128",
    "TurboSHAKE-256", "turboshake_128", "sha1-dc", "SHA1_DC", "keccak-512", "keccak-25",
    "turboshake", "turboshake-512", "k-13", "kt-256", "sha1dc-2", "keccak256sha",
})
# Refused or other algorithms, each written once as it is.
ODD = [
    "", " ", "sha1 ", " sha256", "sha256\n", "sha\t1", "sha256.", "2.16.840.1.101.3.4.2.01",
    "2.16.840.1.101.3.4.2", "2.16.840.1.101.3.4.2.1.", "OID.1.3.14.3.2.26", "1.3.14.3.2.29",
    "\u017fha1", "SHA\u0130", "\uff53\uff48\uff41\uff11", "sha\u0661", "sha1\0", "SHA-256\0x",
    "sha1\udc80", "md5", "MD5", "blake2b", "sm3", "ripemd160", "md5-sha1",
    "2.16.840.1.101.3.4.2.13", "sha3_256\0", "k12\0", "\u212a12", "shake\u0131_128",
    "keccak\u2010256", "k\uff0d12", "kt128\0",
]


def variants(name):
    """The name in several cases and with its separators swapped."""
    out = {name, name.lower(), name.upper(), name.title(), name.swapcase(),
           name[:1].upper() + name[1:]}
    for sep in ("", "-", "_", "/", " "):
        swapped = re.sub(r"[-_/]", sep, name)
        out |= {swapped, swapped.upper()}
    return out


def candidates():
    names = set(ODD)
    for b in BASES:
        names |= variants(b)
    return sorted(names)


def hashlib_says(name):
    """(algorithm name, None) or (None, (exception type, message))."""
    try:
        return hashlib.new(name).name, None
    except (TypeError, ValueError) as e:
        return None, (type(e), str(e))


def test_candidates_are_many():
    names = candidates()
    accepted = [n for n in names if hashlib_says(n)[0] in HASHLIB]
    assert len(names) >= 50 and len(accepted) >= 50, (len(names), len(accepted))
    assert len(names) - len(accepted) >= 50


def test_table_is_what_hashlib_accepts():
    """The accepted set written above is what hashlib.new() accepts among
    the candidates: a check on this Python's OpenSSL, and the record."""
    want = {}
    for alg, names in ACCEPTED_ANY_CASE.items():
        for n in names:
            for v in variants(n):
                if v.lower() == n:
                    want[v] = alg
    want.update(ACCEPTED_EXACT)
    got = {}
    for n in candidates():
        alg, _ = hashlib_says(n)
        if alg in HASHLIB:
            got[n] = alg
    assert set(want) <= set(candidates())
    assert got == want


# fastsha's own algorithms, which hashlib has not, and the object's name:
# accepted in every ASCII spelling the C library's fastsha_alg_from_name()
# takes (case, '-', '_' and '/' ignored). Their answers are checked against
# hashlib's SHA-1 (sha1dc, no attack here) and pycryptodome
# (test_sha3_own.py); here new() must agree with the named constructor.
EXTENSIONS = {"sha1dc": "sha1dc", "keccak256": "keccak256", "turboshake128": "turboshake128",
              "turboshake256": "turboshake256", "k12": "k12", "kt128": "k12",
              "kangarootwelve": "k12"}


def extension(name):
    """The canonical name of fastsha's own algorithm that name spells, or None."""
    if not isinstance(name, str) or not name.isascii():
        return None
    return EXTENSIONS.get(re.sub(r"[-_/]", "", name).lower())


def output(h, n=32):
    """The digest, or n bytes of an extendable-output object's output."""
    return h.digest(n) if h.digest_size == 0 else h.digest()


@pytest.mark.parametrize("name", candidates())
def test_new_agrees_with_hashlib(name):
    alg, err = hashlib_says(name)
    canonical = extension(name)
    if canonical:
        h = fastsha.new(name, b"abc")
        assert h.name == canonical and alg is None
        assert output(h) == output(fastsha.new(canonical, b"abc"))
        assert output(h) == output(getattr(fastsha, canonical)(b"abc"))
        if canonical == "sha1dc":
            assert h.digest() == hashlib.sha1(b"abc").digest()
        return
    if alg in HASHLIB:
        h = fastsha.new(name, b"abc")
        assert h.name == alg
        assert output(h) == output(hashlib.new(name, b"abc"))
        return
    if alg is not None:  # another algorithm (md5, blake2b, ...): not ours
        err = (ValueError, f"unsupported hash type {name}")
    with pytest.raises(err[0]) as e:
        fastsha.new(name)
    assert str(e.value) == err[1]


@pytest.mark.parametrize("name", candidates())
def test_every_entry_point_agrees(name, tmp_path):
    """many, many_packed, file, files, backend, backends, many_lanes and
    use_backend take the same names as new() (with a length for an
    extendable-output algorithm); the backend queries also take "keccak",
    the name of the SHA-3 family's table, which is no algorithm's."""
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    kw = {}
    calls = [
        lambda: fastsha.many(name, [b"abc"], **kw)[0],
        lambda: fastsha.many_packed(name, b"abc", 3, **kw),
        lambda: fastsha.file(p, name, **kw),
        lambda: fastsha.files([p], name, **kw)[0],
        lambda: fastsha.files([p, p], name, threads=2, **kw)[1],
    ]
    queries = [lambda: fastsha.backend(name), lambda: fastsha.backends(name),
               lambda: fastsha.many_lanes(name), lambda: fastsha.use_backend(name, None)]
    if name == "keccak":
        assert fastsha.backends(name) == fastsha.backends("sha3_256")
        queries = []
    try:
        h = fastsha.new(name, b"abc")
    except (TypeError, ValueError) as e:
        for call in calls + queries:
            with pytest.raises(type(e)) as got:
                call()
            assert str(got.value) == str(e)
        return
    if h.digest_size == 0:
        kw["length"] = 40
    want = output(h, 40)
    for call in calls:
        assert call() == want
    for call in queries:
        call()


def test_refused_examples():
    """The spellings fastsha.new() took before, which hashlib refuses, and
    OpenSSL's that it refused, which hashlib takes."""
    for bad in ("sha512/224", "sha_256", "s-h-a-2-5-6", "sha512256", "Sha512_224", "RSA-SHA256"):
        with pytest.raises(ValueError, match=f"^unsupported hash type {re.escape(bad)}$"):
            hashlib.new(bad)
        with pytest.raises(ValueError, match=f"^unsupported hash type {re.escape(bad)}$"):
            fastsha.new(bad)
    for good, alg in (("sha2-256", "sha256"), ("ssl3-sha1", "sha1"), ("SSL3-SHA1", "sha1"),
                      ("2.16.840.1.101.3.4.2.1", "sha256"), ("SHA-512/224", "sha512_224"),
                      ("sHa2-512/256", "sha512_256")):
        assert hashlib.new(good).name == alg
        assert fastsha.new(good).name == alg


def test_own_algorithms_as_the_c_library_spells_them():
    """The spellings fastsha_alg_from_name() takes for fastsha's own
    algorithms, which new() refused (hashlib has no rules for them), and
    spellings of hashlib's algorithms that the C library takes and hashlib
    does not, still refused."""
    for name, alg in (("keccak-256", "keccak256"), ("KECCAK_256", "keccak256"),
                      ("Keccak/256", "keccak256"), ("KT-128", "k12"), ("k_12", "k12"),
                      ("KangarooTwelve", "k12"), ("Turbo-SHAKE-128", "turboshake128"),
                      ("turboshake_256", "turboshake256"), ("SHA1-DC", "sha1dc")):
        with pytest.raises(ValueError, match=f"^unsupported hash type {re.escape(name)}$"):
            hashlib.new(name)
        h = fastsha.new(name, b"abc")
        assert h.name == alg
        assert output(h) == output(getattr(fastsha, alg)(b"abc"))
        assert fastsha.many(name, [b"abc"], **({"length": 32} if h.digest_size == 0 else {})) \
            == [output(h)]
    for bad in ("sha2_256", "sha3256", "SHA3_256", "sha512/224", "keccak 256", "keccak-512",
                "k13", "keccak\u2010256"):
        with pytest.raises(ValueError, match=f"^unsupported hash type {re.escape(bad)}$"):
            fastsha.new(bad)
