# SPDX-License-Identifier: MIT
"""Algorithm names: every entry point of the binding takes exactly the names
hashlib.new() takes for the seven algorithms and refuses the rest with
hashlib's error. hashlib.new() is asked at run time, on OpenSSL's aliases
and OIDs and on case and separator variants of them: if this Python's
OpenSSL names them differently, these tests say so and the table in
_fastsha.c (alg_names) needs the new row."""

import hashlib
import re

import pytest

import fastsha
from support import ALL

# What hashlib.new() accepted for the seven algorithms on Debian 12
# (CPython 3.11, OpenSSL 3.0), besides case variants of these where noted.
# Any ASCII case: OpenSSL's provider names. Exact: CPython's own keys.
ACCEPTED_ANY_CASE = {
    "sha1": ["sha1", "sha-1", "ssl3-sha1", "1.3.14.3.2.26"],
    "sha224": ["sha224", "sha-224", "sha2-224", "2.16.840.1.101.3.4.2.4"],
    "sha256": ["sha256", "sha-256", "sha2-256", "2.16.840.1.101.3.4.2.1"],
    "sha384": ["sha384", "sha-384", "sha2-384", "2.16.840.1.101.3.4.2.2"],
    "sha512": ["sha512", "sha-512", "sha2-512", "2.16.840.1.101.3.4.2.3"],
    "sha512_224": ["sha512-224", "sha-512/224", "sha2-512/224", "2.16.840.1.101.3.4.2.5"],
    "sha512_256": ["sha512-256", "sha-512/256", "sha2-512/256", "2.16.840.1.101.3.4.2.6"],
}
ACCEPTED_EXACT = {"sha512_224": "sha512_224", "SHA512_224": "sha512_224",
                  "sha512_256": "sha512_256", "SHA512_256": "sha512_256"}

# OpenSSL's names for the seven (`openssl list -digest-algorithms`),
# provided and legacy, CPython's, and other spellings people write.
BASES = sorted({n for names in ACCEPTED_ANY_CASE.values() for n in names} | set(ACCEPTED_EXACT) | {
    "RSA-SHA1", "RSA-SHA1-2", "sha1WithRSAEncryption", "RSA-SHA224", "sha224WithRSAEncryption",
    "RSA-SHA256", "sha256WithRSAEncryption", "RSA-SHA384", "sha384WithRSAEncryption",
    "RSA-SHA512", "sha512WithRSAEncryption", "RSA-SHA512/224", "sha512-224WithRSAEncryption",
    "RSA-SHA512/256", "sha512-256WithRSAEncryption", "id-sha256", "sha", "SHA2",
    "sha512/224", "sha512/256", "sha_256", "sha_1", "s-h-a-2-5-6", "sha512224", "sha512256",
    "sha2_256", "sha2/256", "sha-512-224", "sha-512_256", "sha512_224sha", "sha1dc",
})
# Refused or other algorithms, each written once as it is.
ODD = [
    "", " ", "sha1 ", " sha256", "sha256\n", "sha\t1", "sha256.", "2.16.840.1.101.3.4.2.01",
    "2.16.840.1.101.3.4.2", "2.16.840.1.101.3.4.2.1.", "OID.1.3.14.3.2.26", "1.3.14.3.2.29",
    "\u017fha1", "SHA\u0130", "\uff53\uff48\uff41\uff11", "sha\u0661", "sha1\0", "SHA-256\0x",
    "sha1\udc80", "md5", "MD5", "sha3_256", "SHA3-256", "blake2b", "shake_128", "sm3",
    "ripemd160", "md5-sha1",
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
    accepted = [n for n in names if hashlib_says(n)[0] in ALL]
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
        if alg in ALL:
            got[n] = alg
    assert set(want) <= set(candidates())
    assert got == want


# fastsha's own algorithms, which hashlib has not: accepted in any ASCII case.
EXTENSIONS = {"sha1dc": hashlib.sha1}


@pytest.mark.parametrize("name", candidates())
def test_new_agrees_with_hashlib(name):
    alg, err = hashlib_says(name)
    if name.lower() in EXTENSIONS and name.isascii():
        h = fastsha.new(name, b"abc")
        assert h.name == name.lower() and alg is None
        assert h.digest() == EXTENSIONS[name.lower()](b"abc").digest()  # no attack here
        return
    if alg in ALL:
        h = fastsha.new(name, b"abc")
        assert h.name == alg
        assert h.digest() == hashlib.new(name, b"abc").digest()
        return
    if alg is not None:  # another algorithm (md5, sha3_256, ...): not ours
        err = (ValueError, f"unsupported hash type {name}")
    with pytest.raises(err[0]) as e:
        fastsha.new(name)
    assert str(e.value) == err[1]


@pytest.mark.parametrize("name", candidates())
def test_every_entry_point_agrees(name, tmp_path):
    """many, many_packed, file, files, backend, backends, many_lanes and
    use_backend take the same names as new()."""
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    calls = [
        lambda: fastsha.many(name, [b"abc"])[0],
        lambda: fastsha.many_packed(name, b"abc", 3),
        lambda: fastsha.file(p, name),
        lambda: fastsha.files([p], name)[0],
        lambda: fastsha.files([p, p], name, threads=2)[1],
    ]
    queries = [lambda: fastsha.backend(name), lambda: fastsha.backends(name),
               lambda: fastsha.many_lanes(name), lambda: fastsha.use_backend(name, None)]
    try:
        want = fastsha.new(name, b"abc").digest()
    except (TypeError, ValueError) as e:
        for call in calls + queries:
            with pytest.raises(type(e)) as got:
                call()
            assert str(got.value) == str(e)
        return
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
