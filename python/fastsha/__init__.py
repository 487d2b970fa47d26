# SPDX-License-Identifier: MIT
"""Fast SHA-1, SHA-2 and SHA-3: hashlib's interface on the fastsha C library.

``fastsha.sha1/sha224/sha256/sha384/sha512``, ``sha3_224/sha3_256/sha3_384/
sha3_512``, ``shake_128/shake_256`` and ``fastsha.new`` behave as their
hashlib namesakes (same signatures, attributes, errors, thread safety; SHAKE's
``digest(length)``; the GIL is released for inputs of 2048 bytes and more),
so they drop into ``hashlib.file_digest`` and ``hmac.new``; ``file_digest``
is hashlib's too, with names hashed here. Beyond hashlib:

- ``many(name, buffers)``: the digests of many messages, one GIL release,
  on the multi-buffer lanes where this CPU has them (``many(name, buffers,
  length)`` for the extendable-output algorithms);
- ``many_packed(name, buffer, record_size)``: every fixed-size record of one
  buffer (bytes, a numpy array), the digests concatenated;
- ``file(path, name)`` and ``files(paths, name, threads=N)``: read and hash
  in C with the GIL released;
- ``backend(name)``, ``backends(name)``, ``many_lanes(name)``: what runs
  (``"keccak"`` names the SHA-3 family's table);
- ``keccak256()`` (Ethereum's), ``turboshake128/256(data, domain=0x1f)`` and
  ``k12(data, custom=b"")`` (KangarooTwelve, RFC 9861): Keccak algorithms
  hashlib lacks, so not in ``algorithms_available``;
- ``sha1dc()`` / ``new("sha1dc")``: SHA-1 with collision detection (what git
  uses): the SHA-1 digest, unless the data is one half of a collision attack
  (SHAttered, SHA-mbles), which ``.detected`` then says; ``many_detect()``
  gives the batch's flags too.

Keyed hashing and key derivation:

- ``pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None)``:
  hashlib's, exactly (other hashes are handed to hashlib), GIL released;
- ``fastsha.hmac``: a drop-in for the standard ``hmac`` module (``new``,
  ``digest``, ``compare_digest``, ``HMAC``): ``from fastsha import hmac``
  (a submodule, so ``import fastsha`` does not import hashlib and hmac);
- ``hkdf(hash_name, ikm, *, salt, info, length)``, ``hkdf_extract``,
  ``hkdf_expand``: RFC 5869;
- ``hmac_many(hash_name, key, buffers)`` and ``pbkdf2_hmac_many(hash_name,
  passwords, salts, iterations, dklen=None)``: batches, one GIL release.

SHA-1 is broken for collision resistance: use it for compatibility and
integrity against accidents, SHA-256 for anything new. See docs/python.md.
"""

from ._fastsha import (
    GIL_MINSIZE,
    Hash,
    HashXOF,
    __version__,
    algorithms_available,
    backend,
    backends,
    file,
    files,
    hkdf,
    hkdf_expand,
    hkdf_extract,
    hmac_many,
    k12,
    keccak256,
    many,
    many_detect,
    many_lanes,
    many_packed,
    new,
    pbkdf2_hmac,
    pbkdf2_hmac_many,
    sha1,
    sha224,
    sha256,
    sha384,
    sha512,
    sha1dc,
    sha3_224,
    sha3_256,
    sha3_384,
    sha3_512,
    shake_128,
    shake_256,
    turboshake128,
    turboshake256,
    use_backend,
)

#: Every name here is always available (the library has no optional algorithm).
algorithms_guaranteed = algorithms_available


def file_digest(fileobj, digest, /, *, _bufsize=2**18):
    """hashlib.file_digest(), with a name of this package's hashed here.

    *fileobj* is a file-like object open for binary reading (``open(p,
    "rb")``, ``io.BytesIO``, a socket's file); *digest* a name, a
    constructor, or a callable returning a hash object. A name this package
    has (``new()``'s spellings) makes one of its objects; any other name
    (``"md5"``, ``"blake2b"``) and any callable go to hashlib.file_digest
    as they are, so results, reads and errors are hashlib's in every case.
    Returns the hash object.
    """
    # hashlib is imported here, not at the top: "import fastsha" stays
    # free of hashlib. Its file_digest does the reading (readinto() into
    # one reused buffer; our update() releases the GIL for each chunk),
    # so its rules are its own; only when it is this function (_read_into)
    # are they restated here.
    import hashlib

    if isinstance(digest, str):
        try:
            obj = new(digest)
        except ValueError:
            pass  # not a name of ours: hashlib's own, or its error
        else:
            digest = lambda: obj  # noqa: E731 (called once, by hashlib)
    if hashlib.file_digest is not file_digest:
        return hashlib.file_digest(fileobj, digest, _bufsize=_bufsize)
    return _read_into(fileobj, hashlib.new(digest) if isinstance(digest, str) else digest(),
                      _bufsize)


def _read_into(fileobj, obj, bufsize):
    """hashlib.file_digest's reading (3.11's, its checks and message), for
    when this package's file_digest is in hashlib's place
    (hashlib.file_digest = fastsha.file_digest, or sys.modules["hashlib"] is
    fastsha, as when CPython's test_hashlib runs on it): asking "hashlib"
    then calls ourselves, which recursed until RecursionError."""
    if hasattr(fileobj, "getbuffer"):  # io.BytesIO: its buffer, no copy
        obj.update(fileobj.getbuffer())
        return obj
    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable")
            and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")
    buf = bytearray(bufsize)
    view = memoryview(buf)
    while True:
        size = fileobj.readinto(buf)
        if size == 0:
            break
        obj.update(view[:size])
    return obj

# No module-level __getattr__ here (say, to load fastsha.hmac on first
# use): CPython then stops specialising attribute loads on this module,
# and every fastsha.sha256(...) pays about 15 ns more (3.11, measured).

__all__ = [
    "GIL_MINSIZE",
    "Hash",
    "HashXOF",
    "algorithms_available",
    "algorithms_guaranteed",
    "backend",
    "backends",
    "file",
    "file_digest",
    "files",
    "hkdf",
    "hkdf_expand",
    "hkdf_extract",
    "hmac_many",
    "k12",
    "keccak256",
    "many",
    "many_detect",
    "many_lanes",
    "many_packed",
    "new",
    "pbkdf2_hmac",
    "pbkdf2_hmac_many",
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha1dc",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "shake_128",
    "shake_256",
    "turboshake128",
    "turboshake256",
    "use_backend",
]

