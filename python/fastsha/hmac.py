# SPDX-License-Identifier: MIT
"""HMAC (RFC 2104) on fastsha: a drop-in for the standard ``hmac`` module.

``new``, ``digest``, ``compare_digest`` and ``HMAC`` take the arguments the
standard ones take (CPython 3.11 and later) and raise the same exceptions,
in the words of the Python they run on::

    from fastsha import hmac                 # instead of: import hmac
    tag = hmac.new(key, msg, "sha256").hexdigest()
    tag = hmac.digest(key, msg, "sha256")
    hmac.compare_digest(tag, expected)

``digestmod`` (``digest`` for the one-shot) is required, as in the standard
module. fastsha computes the HMAC when it names one of ``fastsha``'s
algorithms: a name ``hashlib.new()`` takes (``"sha256"``, ``"SHA-512"``,
...) or a constructor known to compute it (``fastsha.sha256`` and
``hashlib.sha256``, and CPython's own ``_sha256.sha256``...). Anything else
(``"md5"``, ``"sha3_256"``, ``hashlib.blake2b``, a module with ``.new``
such as PyCryptodome's ``Crypto.Hash.SHA256``, a constructor of another
package) goes to the standard module as given, and its ``hmac.HMAC`` object
or its exception comes back: a hash fastsha cannot vouch for is never
substituted. A name of ``sha1dc`` (any spelling ``fastsha.new`` takes,
``"SHA1-DC"`` too) raises ValueError saying why there is no HMAC on it, as
``fastsha.hmac_many`` does.

The objects (``fastsha.hmac.HMAC``) have ``update``, ``copy``, ``digest``
and ``hexdigest`` (which do not finalise: call them again or go on
updating), ``name`` (``"hmac-sha256"``), ``digest_size``, ``block_size``
and the class attribute ``blocksize``. One object may be updated from
several threads; the GIL is released for inputs of 2048 bytes and more.
``compare_digest`` is the standard module's.
"""

import hmac as _std

from . import _fastsha

HMAC = _fastsha.HMAC
new = _fastsha.hmac_new
digest = _fastsha.hmac_digest
compare_digest = _std.compare_digest

# The standard module's other public names, for code that reads them.
trans_5C = _std.trans_5C
trans_36 = _std.trans_36
digest_size = None


def _register_standard_constructors():
    """Tell the extension which standard constructors are ours: hashlib's
    (OpenSSL's on most builds) and CPython's built-in modules' (what
    hashlib falls back to without OpenSSL), by identity. A wrapper around
    one of them is not recognised, and goes to the standard module."""
    import hashlib
    import importlib

    names = ("sha1", "sha224", "sha256", "sha384", "sha512")
    for name in names:
        _fastsha._register_hmac_digestmod(getattr(hashlib, name), name)
    # _hashlib: OpenSSL's; _sha1, _sha256, _sha512: 3.11's built-ins;
    # _sha2: their 3.12+ home.
    for modname in ("_hashlib", "_sha1", "_sha256", "_sha512", "_sha2"):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        for name in names:
            for attr in (name, "openssl_" + name):
                cons = getattr(mod, attr, None)
                if callable(cons):
                    _fastsha._register_hmac_digestmod(cons, name)


_register_standard_constructors()
# The standard functions as they are now: code that then puts ours in their
# place (hmac.new = fastsha.hmac.new) must not get its fallbacks back here.
_fastsha._set_hmac_fallbacks(_std.new, _std.digest)

__all__ = ["HMAC", "compare_digest", "digest", "new"]
