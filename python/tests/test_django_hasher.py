# SPDX-License-Identifier: MIT
"""The Django password hasher of docs/python.md gives Django's strings.

Django is not installed here, so the test runs the example's code, read
from the page, on stand-ins for the two Django names it imports, written
from what Django (4.2 to 5.x) defines: PBKDF2PasswordHasher.encode() hashes
with django.utils.crypto.pbkdf2(), which is hashlib.pbkdf2_hmac(
digest().name, force_bytes(password), force_bytes(salt), iterations, None),
and formats "algorithm$iterations$salt$base64". The subclass must write the
same string for every password, salt and iteration count, and verify what
the stand-in wrote."""

import base64
import hashlib
import hmac
import re
import sys
import types
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def force_bytes(s, encoding="utf-8", strings_only=False, errors="strict"):
    """django.utils.encoding.force_bytes for the types a password comes as."""
    if isinstance(s, bytes):
        return s if encoding == "utf-8" else s.decode("utf-8", errors).encode(encoding, errors)
    if isinstance(s, memoryview):
        return bytes(s)
    return str(s).encode(encoding, errors)


class PBKDF2PasswordHasher:
    """Stand-in for django.contrib.auth.hashers.PBKDF2PasswordHasher: what
    its encode(), decode() and verify() compute, on hashlib."""

    algorithm = "pbkdf2_sha256"
    iterations = 1000  # Django's is 600,000 and more: smaller for the test
    digest = hashlib.sha256

    def _check_encode_args(self, password, salt):
        if password is None:
            raise TypeError("password must be provided.")
        if not salt or "$" in salt:
            raise ValueError("salt must be provided and cannot contain $.")

    def encode(self, password, salt, iterations=None):
        self._check_encode_args(password, salt)
        iterations = iterations or self.iterations
        dk = hashlib.pbkdf2_hmac(self.digest().name, force_bytes(password),
                                 force_bytes(salt), iterations, None)
        dk = base64.b64encode(dk).decode("ascii").strip()
        return "%s$%d$%s$%s" % (self.algorithm, iterations, salt, dk)

    def decode(self, encoded):
        algorithm, iterations, salt, dk = encoded.split("$", 3)
        assert algorithm == self.algorithm
        return {"algorithm": algorithm, "hash": dk, "iterations": int(iterations), "salt": salt}

    def verify(self, password, encoded):
        d = self.decode(encoded)
        return hmac.compare_digest(encoded.encode(),
                                   self.encode(password, d["salt"], d["iterations"]).encode())


def example_code():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    found = [b for b in blocks if "class FastshaPBKDF2PasswordHasher" in b]
    assert len(found) == 1, "docs/python.md should hold the hasher example once"
    return found[0]


@pytest.fixture
def hasher_class(monkeypatch):
    """FastshaPBKDF2PasswordHasher as the page defines it, on the stand-ins."""
    hashers = types.ModuleType("django.contrib.auth.hashers")
    hashers.PBKDF2PasswordHasher = PBKDF2PasswordHasher
    encoding = types.ModuleType("django.utils.encoding")
    encoding.force_bytes = force_bytes
    for name in ("django", "django.contrib", "django.contrib.auth", "django.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "django.contrib.auth.hashers", hashers)
    monkeypatch.setitem(sys.modules, "django.utils.encoding", encoding)
    namespace = {"__name__": "myproject.hashers"}
    exec(compile(example_code(), str(DOC), "exec"), namespace)
    return namespace["FastshaPBKDF2PasswordHasher"]


PASSWORDS = ["", "correct horse battery staple", "p\u00e4ssw\u00f6rd \u2603", "x" * 200,
             b"bytes password", "\U0001f511"]
SALTS = ["a", "Zr8yXyQ8tqYbuYhMpGz3Xa", "salt with spaces", "\u00fc\u00df"]


def test_same_strings_as_djangos(hasher_class):
    ours, django = hasher_class(), PBKDF2PasswordHasher()
    assert isinstance(ours, PBKDF2PasswordHasher)
    for password in PASSWORDS:
        for salt in SALTS:
            for iterations in (None, 1, 2, 1000, 20_000):
                want = django.encode(password, salt, iterations)
                assert ours.encode(password, salt, iterations) == want
                assert ours.verify(password, want) and django.verify(password, want)
                assert not ours.verify("wrong", want)


def test_sha1_variant(hasher_class):
    """Django's PBKDF2SHA1PasswordHasher changes only algorithm and digest:
    the example follows them (self.digest().name)."""
    attrs = {"algorithm": "pbkdf2_sha1", "digest": hashlib.sha1}
    ours = type("Ours", (hasher_class,), attrs)()
    django = type("Django", (PBKDF2PasswordHasher,), attrs)()
    for password in PASSWORDS[:3]:
        assert ours.encode(password, "NaCl", 3000) == django.encode(password, "NaCl", 3000)


def test_same_refusals(hasher_class):
    ours = hasher_class()
    with pytest.raises(TypeError):
        ours.encode(None, "salt")
    for salt in ("", "a$b", None):
        with pytest.raises(ValueError):
            ours.encode("pw", salt)
