# SPDX-License-Identifier: MIT
"""The calls beyond hashlib, against hashlib: many(), many_packed(),
file(), files(), and the backend queries."""

import hashlib
import mmap
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fastsha
from support import ALL, DIGEST_SIZE, unknown_keyword

try:
    import numpy as np
except ImportError:  # the Makefile's test venv installs it
    np = None
needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")


# ---- many ------------------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
def test_many_matches_hashlib(alg):
    # every length 0..300 (block boundaries of both sizes), some large ones
    msgs = [bytes(range(256)) * (n // 256) + bytes(range(n % 256)) for n in range(301)]
    msgs += [b"\x5a" * n for n in (4095, 4096, 4097, 1 << 20)]
    got = fastsha.many(alg, msgs)
    assert isinstance(got, list) and all(type(d) is bytes for d in got)
    assert got == [hashlib.new(alg, m).digest() for m in msgs]


def test_many_inputs():
    data = [b"a", bytearray(b"bb"), memoryview(b"xccx")[1:3], b""]
    want = [hashlib.sha256(bytes(d)).digest() for d in data]
    assert fastsha.many("sha256", data) == want
    assert fastsha.many("SHA256", tuple(data)) == want
    assert fastsha.many("sha256", iter(data)) == want
    assert fastsha.many("sha256", (d for d in data)) == want
    assert fastsha.many(name="sha256", buffers=data) == want
    assert fastsha.many("sha256", []) == []


def test_many_errors():
    with pytest.raises(TypeError, match="Strings must be encoded"):
        fastsha.many("sha256", [b"ok", "text"])
    with pytest.raises(TypeError, match="buffer API required"):
        fastsha.many("sha256", [b"ok", 5])
    with pytest.raises(BufferError):
        fastsha.many("sha256", [memoryview(b"abcd")[::2]])
    with pytest.raises(TypeError):
        fastsha.many("sha256", 5)
    with pytest.raises(ValueError, match="unsupported hash type"):
        fastsha.many("md5", [b""])
    with pytest.raises(TypeError):
        fastsha.many("sha256")
    # a failure releases every buffer taken before it
    ba = bytearray(b"abc")
    with pytest.raises(TypeError):
        fastsha.many("sha256", [ba, None])
    ba.extend(b"d")


def test_batches_name_the_bad_item(tmp_path):
    """A TypeError for one item of a batch says which (counted from 0) and
    of which argument, before the message a lone call gives; still a
    TypeError. Other exceptions (a strided view's BufferError) are the
    exporter's as they were."""
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    strs = "Strings must be encoded before hashing"
    nonbuf = "object supporting the buffer API required"
    cases = [
        (lambda: fastsha.many("sha256", [b"a", b"b", b"c", "text"]),
         f"many(): item 3 of buffers: {strs}"),
        (lambda: fastsha.many("sha256", (m for m in [bytearray(b"a"), None])),
         f"many(): item 1 of buffers: {nonbuf}"),
        (lambda: fastsha.many("shake_128", [b"", 5], length=8),
         f"many(): item 1 of buffers: {nonbuf}"),
        (lambda: fastsha.many_detect("sha1dc", ["x"]),
         f"many_detect(): item 0 of buffers: {strs}"),
        (lambda: fastsha.hmac_many("sha256", b"k", [b"m", b"m", "x"]),
         f"hmac_many(): item 2 of buffers: {strs}"),
        (lambda: fastsha.pbkdf2_hmac_many("sha256", [b"a", 1.5], b"s", 1),
         f"pbkdf2_hmac_many(): item 1 of passwords: {nonbuf}"),
        (lambda: fastsha.pbkdf2_hmac_many("sha256", [b"a", b"b"], [b"s", "t"], 1),
         f"pbkdf2_hmac_many(): item 1 of salts: {strs}"),
        (lambda: fastsha.files([p, str(p), 5], "sha1"),
         "files(): item 2 of paths: expected str, bytes or os.PathLike object, not int"),
        (lambda: fastsha.files([p, None], "sha1", threads=2),
         "files(): item 1 of paths: expected str, bytes or os.PathLike object, not NoneType"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as e:
            call()
        assert type(e.value) is TypeError and str(e.value) == message
    with pytest.raises(BufferError) as e:
        fastsha.many("sha256", [b"", memoryview(b"abcd")[::2]])
    assert "item" not in str(e.value)


@pytest.mark.parametrize("single", [b"abc", bytearray(b"abc"), memoryview(b"abc"), "abc", b""],
                         ids=["bytes", "bytearray", "memoryview", "str", "empty"])
def test_batches_refuse_a_single_message(single):
    # One message where a batch wants an iterable of them: iterated, bytes
    # gave ints and the call raised "object supporting the buffer API
    # required" for an argument that is one (an empty one passed as an
    # empty batch); now a TypeError says what went wrong.
    want = rf"buffers must be an iterable of bytes-like objects, not a single {type(single).__name__}"
    with pytest.raises(TypeError, match=r"many\(\): " + want):
        fastsha.many("sha256", single)
    with pytest.raises(TypeError, match=r"many_detect\(\): " + want):
        fastsha.many_detect("sha1dc", single)
    with pytest.raises(TypeError, match=r"many\(\): " + want):
        fastsha.many("shake_128", single, 16)
    with pytest.raises(TypeError, match=r"hmac_many\(\): " + want):
        fastsha.hmac_many("sha256", b"key", single)
    with pytest.raises(TypeError, match=r"pbkdf2_hmac_many\(\): passwords must be an iterable"):
        fastsha.pbkdf2_hmac_many("sha256", single, b"salt", 1)
    # a buffer whose items are buffers is still a batch: a 2-D numpy
    # array is one of its rows
    if np is not None:
        rows = np.arange(12, dtype=np.uint8).reshape(3, 4)
        assert fastsha.many("sha256", rows) == [hashlib.sha256(r.tobytes()).digest() for r in rows]


@pytest.mark.parametrize("alg", ["sha1", "sha256", "sha512"])
def test_many_large_batch(alg):
    """10,000 x 4 KiB, the benchmark's shape, and a batch long enough to keep
    lanes busy with messages of uneven length."""
    msgs = [os.urandom(4096) for _ in range(10_000)]
    assert fastsha.many(alg, msgs) == [hashlib.new(alg, m).digest() for m in msgs]
    uneven = [os.urandom(n) for n in range(0, 5000, 7)]
    assert fastsha.many(alg, uneven) == [hashlib.new(alg, m).digest() for m in uneven]


# ---- many_packed -------------------------------------------------------------

@pytest.mark.parametrize("alg", ALL)
@pytest.mark.parametrize("record", [1, 16, 55, 64, 65, 128, 1000, 4096])
def test_many_packed_matches_hashlib(alg, record):
    n = 37
    buf = os.urandom(n * record)
    got = fastsha.many_packed(alg, buf, record)
    assert type(got) is bytes and len(got) == n * DIGEST_SIZE[alg]
    want = b"".join(hashlib.new(alg, buf[i * record:(i + 1) * record]).digest()
                    for i in range(n))
    assert got == want


class Index:
    """An integer that is no int, as numpy's are: only __index__."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_many_packed_errors():
    with pytest.raises(ValueError, match="not a multiple of record_size"):
        fastsha.many_packed("sha256", b"x" * 10, 3)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="record_size must be positive"):
            fastsha.many_packed("sha256", b"x" * 10, bad)
    with pytest.raises(TypeError):
        fastsha.many_packed("sha256", b"x" * 10, 2.0)
    # an integer through __index__ (numpy's) is an int, as everywhere else
    assert fastsha.many_packed("sha256", b"x" * 10, Index(5)) == \
        fastsha.many_packed("sha256", b"x" * 10, 5)
    with pytest.raises(OverflowError):
        fastsha.many_packed("sha256", b"x" * 10, Index(2**70))
    with pytest.raises(TypeError, match="Strings must be encoded"):
        fastsha.many_packed("sha256", "abc", 1)
    with pytest.raises(BufferError):
        fastsha.many_packed("sha256", memoryview(b"abcd")[::2], 1)
    assert fastsha.many_packed("sha256", b"", 5) == b""
    assert fastsha.many_packed("sha256", bytearray(b"abcdef"), 3) == \
        hashlib.sha256(b"abc").digest() + hashlib.sha256(b"def").digest()
    # argument counts and names, checked before anything else
    with pytest.raises(TypeError, match=r"missing required argument 'record_size' \(pos 3\)"):
        fastsha.many_packed("sha256", b"x" * 10)
    with pytest.raises(TypeError, match=re.escape(unknown_keyword("many_packed", "size"))):
        fastsha.many_packed("sha256", b"x" * 10, 5, size=5)
    # an XOF's output of 0 bytes a record is hashlib's digest(0): nothing
    assert fastsha.many_packed("shake_128", b"x" * 10, 5, 0) == b"" == \
        hashlib.shake_128(b"xxxxx").digest(0) * 2


@needs_numpy
def test_many_packed_numpy():
    """Fixed-size records straight from numpy: a (n, k) uint8 array and a
    structured 'V' array; a non-contiguous view is refused as by hashlib."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, size=(1000, 48), dtype=np.uint8)
    want = b"".join(hashlib.sha1(row.tobytes()).digest() for row in a)
    assert fastsha.many_packed("sha1", a, 48) == want
    assert fastsha.many_packed("sha1", a.view("V48").ravel(), 48) == want
    digests = np.frombuffer(fastsha.many_packed("sha256", a, 48), dtype="V32")
    assert len(digests) == 1000 and digests[7].tobytes() == hashlib.sha256(a[7].tobytes()).digest()
    # a strided view: numpy's own error, as hashlib gets it
    with pytest.raises(ValueError, match="not C-contiguous"):
        hashlib.sha1(a[:, :16])
    with pytest.raises(ValueError, match="not C-contiguous"):
        fastsha.many_packed("sha1", a[:, :16], 16)
    with pytest.raises(ValueError):
        fastsha.many_packed("sha1", a, 47)
    # many() takes numpy rows too
    assert fastsha.many("sha1", list(a)) == [hashlib.sha1(r.tobytes()).digest() for r in a]


# ---- arrays past the address space (32-bit builds) --------------------------

# On a 64-bit build no batch that fits in memory sizes an array past 2**63
# bytes, so only a 32-bit one can check that a batch whose arrays would
# take 4 GiB or more is refused before any is written: there the product
# wrapped to a short buffer, written in full (a crash, or a heap overflow).
# Each of these needs about 1.5 GiB of address space and a few seconds.
needs_32bit = pytest.mark.skipif(sys.maxsize > 2**32, reason="needs a 32-bit CPython")


@needs_32bit
def test_hmac_many_tags_past_4gib():
    # 2**26 + 1 SHA-512 tags: 64 bytes past 4 GiB, wrapped to 64 bytes
    with pytest.raises(MemoryError):
        fastsha.hmac_many("sha512", b"k", [b""] * (2**26 + 1))


@needs_32bit
def test_many_views_past_4gib():
    # a Py_buffer (44 bytes on i386) per item that is not bytes
    n = -(-2**32 // struct.calcsize("PPnniiPPPPP"))
    with pytest.raises(MemoryError):
        fastsha.many("sha256", [bytearray()] * n)


@needs_32bit
def test_many_packed_xof_records_past_4gib():
    # an XOF's records go to fastsha_many_xof() as one fastsha_msg each
    # (8 bytes on i386): 2**29 one-byte records, of pages never touched
    with mmap.mmap(-1, 2**29) as m:
        with pytest.raises(MemoryError):
            fastsha.many_packed("shake_128", m, 1, length=0)


# ---- file and files -----------------------------------------------------------

SIZES = [0, 1, 63, 64, 65, 4096, 128 * 1024 - 1, 128 * 1024, 128 * 1024 + 1, 3 * 1024 * 1024 + 17]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    d = tmp_path_factory.mktemp("files")
    paths = []
    for i, n in enumerate(SIZES):
        p = d / f"f{i}.bin"
        p.write_bytes(os.urandom(n))
        paths.append(p)
    return paths


@pytest.mark.parametrize("alg", ALL)
def test_file_matches_hashlib(alg, tree):
    for p in tree:
        want = hashlib.new(alg, p.read_bytes()).digest()
        assert fastsha.file(p, alg) == want
        assert fastsha.file(str(p), alg) == want
        assert fastsha.file(os.fsencode(p), alg) == want


@pytest.mark.parametrize("threads", [1, 2, 3, 0, 64])
def test_files_matches_hashlib(threads, tree):
    paths = tree * 3
    got = fastsha.files(paths, "sha256", threads=threads)
    assert got == [hashlib.sha256(p.read_bytes()).digest() for p in paths]


def test_files_threads_that_find_no_work(tmp_path):
    # files() counted its started threads without the mutex their ends take:
    # a thread that found every path claimed and ended at once could lose
    # its decrement, and the call then waited for ever (0.3.8 hung in 3 of 3
    # runs of this loop on an Intel Xeon). In a child, so a hang fails.
    for i in range(40):
        (tmp_path / f"f{i}").write_bytes(os.urandom(100))
    code = ("import fastsha, sys\n"
            "paths = [f'{sys.argv[1]}/f{i}' for i in range(40)]\n"
            "want = fastsha.files(paths, 'sha256')\n"
            "for _ in range(2000):\n"
            "    assert fastsha.files(paths, 'sha256', threads=64) == want\n")
    try:
        r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                           text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("files(threads=64) did not return within 120 s")
    assert r.returncode == 0, r.stderr


def test_file_errors(tmp_path):
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as e:
        fastsha.file(missing, "sha256")
    assert e.value.filename == missing
    with pytest.raises(IsADirectoryError):
        fastsha.file(tmp_path, "sha256")
    with pytest.raises(ValueError, match="unsupported hash type"):
        fastsha.file(tmp_path, "md5")
    with pytest.raises(TypeError):
        fastsha.file(5, "sha256")
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.write_bytes(b"x")
        locked.chmod(0)
        with pytest.raises(PermissionError):
            fastsha.file(locked, "sha256")


def test_files_errors(tmp_path, tree, monkeypatch):
    missing = tmp_path / "missing"
    for threads in (1, 4):
        with pytest.raises(FileNotFoundError) as e:
            fastsha.files([tree[0], missing, tree[1]], "sha1", threads=threads)
        assert e.value.filename == missing
    with pytest.raises(ValueError, match="threads must be >= 0"):
        fastsha.files([tree[0]], "sha1", threads=-1)
    with pytest.raises(TypeError):
        fastsha.files([tree[0]], "sha1", threads=1.0)
    assert fastsha.files([tree[0]], "sha1", threads=Index(2)) == \
        fastsha.files([tree[0]], "sha1", threads=1)
    with pytest.raises(TypeError):
        fastsha.files([tree[0], 5], "sha1")
    assert fastsha.files([], "sha1", threads=4) == []
    assert fastsha.files(iter([tree[2]]), "sha1") == [hashlib.sha1(tree[2].read_bytes()).digest()]
    with pytest.raises(TypeError, match="not iterable"):
        fastsha.files(5, "sha1")
    # one path where files() wants an iterable of them: a str was iterated
    # and each character opened as a path ("/" raised IsADirectoryError; in
    # a folder with files named by the characters, their digests came back)
    monkeypatch.chdir(tmp_path)
    for c in "ab":
        Path(c).write_bytes(c.encode())
    for single in ("ab", b"ab", str(tree[0]), os.fsencode(tree[0])):
        with pytest.raises(TypeError, match=r"files\(\): paths must be an iterable of "
                           r"paths, not a single (str|bytes)$"):
            fastsha.files(single, "sha1")
    assert fastsha.files(["a", b"b"], "sha1") == [hashlib.sha1(c).digest() for c in (b"a", b"b")]
    # a thread count whose __index__ fails, and one no C long holds
    with pytest.raises(TypeError, match="__index__ returned non-int"):
        fastsha.files([tree[0]], "sha1", threads=Index("2"))
    with pytest.raises(OverflowError):
        fastsha.files([tree[0]], "sha1", threads=2**100)
    # more threads than the call will start (256) is no error: capped, and
    # then at one a path
    paths = [tree[0]] * 3
    assert fastsha.files(paths, "sha1", threads=10**6) == fastsha.files(paths, "sha1")
    # threads and length are keyword-only; file() takes length by name only
    with pytest.raises(TypeError,
                       match=r"files\(\) takes exactly 2 positional arguments \(3 given\)"):
        fastsha.files([tree[0]], "sha1", 2)
    with pytest.raises(TypeError, match=r"missing required argument 'name' \(pos 2\)"):
        fastsha.files([tree[0]])
    with pytest.raises(TypeError,
                       match=r"file\(\) takes exactly 2 positional arguments \(3 given\)"):
        fastsha.file(tree[0], "shake_128", 16)
    with pytest.raises(TypeError, match=r"missing required argument 'name' \(pos 2\)"):
        fastsha.file(tree[0])


class LateWriter:
    """A thread that writes each FIFO's own name into it, the i-th after
    delays[i] more seconds (its open() waits for a reader). close() lets
    an open() still waiting go on, so a call that never read a FIFO fails
    its test instead of hanging it."""

    def __init__(self, fifos, delays):
        import threading
        self.fifos = fifos
        self.thread = threading.Thread(target=self._write, args=(delays,))
        self.thread.start()

    def _write(self, delays):
        for p, delay in zip(self.fifos, delays):
            time.sleep(delay)
            try:
                fd = os.open(p, os.O_WRONLY)
                try:
                    os.write(fd, p.name.encode())
                finally:
                    os.close(fd)
            except OSError:  # EPIPE: the reader went away
                pass

    def close(self):
        while self.thread.is_alive():
            for p in self.fifos:  # a reader for a writer still in open()
                try:
                    os.close(os.open(p, os.O_RDONLY | os.O_NONBLOCK))
                except OSError:
                    pass
            self.thread.join(0.05)


def test_files_error_in_a_worker_thread(tmp_path, tree):
    """A path that opens but cannot be read (a directory: read() fails with
    EISDIR) raises what open() and read() raise in Python, whichever thread
    met it: the first path (a FIFO filled after 50 ms) keeps the calling
    thread busy while the other thread takes the directories."""
    with pytest.raises(IsADirectoryError):
        with open(tmp_path, "rb") as f:
            f.read()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = LateWriter([fifo], [0.05])
    try:
        with pytest.raises(IsADirectoryError) as e:
            fastsha.files([fifo, tmp_path, tree[0], tmp_path], "sha256", threads=2)
    finally:
        writer.close()
    assert e.value.filename == tmp_path


def test_files_wait_for_a_slower_thread(tmp_path):
    """The thread that is done first waits for the others: the calling
    thread runs the signal handlers every 100 ms while it waits (a
    condition wait is not interrupted by a signal), then returns every
    digest in order. The second FIFO is written 300 ms after the first, so
    whichever thread got the first one waits for the other."""
    fifos = [tmp_path / "a", tmp_path / "b"]
    for p in fifos:
        os.mkfifo(p)
    writer = LateWriter(fifos, [0, 0.3])
    try:
        got = fastsha.files(fifos, "sha256", threads=2)
    finally:
        writer.close()
    assert got == [hashlib.sha256(b"a").digest(), hashlib.sha256(b"b").digest()]


def test_file_special_names(tmp_path):
    """Names with spaces, newlines, backslashes and non-UTF-8 bytes."""
    for name in ("a b", "new\nline", "back\\slash", "caf\u00e9"):
        p = tmp_path / name
        p.write_bytes(name.encode() * 100)
        assert fastsha.file(p, "sha1") == hashlib.sha1(name.encode() * 100).digest()
    raw = os.path.join(os.fsencode(tmp_path), b"\xff\xfe")
    with open(raw, "wb") as f:
        f.write(b"raw")
    assert fastsha.file(raw, "sha1") == hashlib.sha1(b"raw").digest()
    assert fastsha.files([raw, Path(os.fsdecode(raw))], "sha1") == [hashlib.sha1(b"raw").digest()] * 2


def test_file_fifo(tmp_path):
    """A FIFO is read to EOF like a pipe (short reads)."""
    import threading
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = os.urandom(300_000)

    def write():
        with open(fifo, "wb") as f:
            for i in range(0, len(data), 1000):
                f.write(data[i:i + 1000])

    t = threading.Thread(target=write)
    t.start()
    got = fastsha.file(fifo, "sha256")
    t.join()
    assert got == hashlib.sha256(data).digest()


# ---- backends -----------------------------------------------------------------

def test_backend_queries():
    for alg in ALL:
        rows = fastsha.backends(alg)
        names = [r[0] for r in rows]
        assert "portable" in names and "reference" in names
        assert fastsha.backend(alg) in names
        for name, ok, lanes in rows:
            assert isinstance(name, str) and isinstance(ok, bool) and lanes >= 1
        assert fastsha.many_lanes(alg) >= 1
    assert fastsha.backends("sha224") == fastsha.backends("sha256")
    assert fastsha.backends("sha384") == fastsha.backends("sha512")
    with pytest.raises(ValueError):
        fastsha.backend("md5")
    with pytest.raises(ValueError, match="not built"):
        fastsha.use_backend("sha256", "no-such-backend")
    with pytest.raises(TypeError):
        fastsha.use_backend("sha256", 5)
    with pytest.raises(TypeError, match=r"takes exactly 2 arguments \(1 given\)"):
        fastsha.use_backend("sha256")
    with pytest.raises(TypeError, match="name must be a string"):
        fastsha.backend(b"sha256")
    # a backend name no C string can spell (a lone surrogate) names none:
    # UnicodeEncodeError, a ValueError, and the choice is unchanged
    before = fastsha.backend("sha256")
    with pytest.raises(ValueError):
        fastsha.use_backend("sha256", "\udc80")
    assert fastsha.backend("sha256") == before


def test_use_backend_this_cpu_cannot_run():
    """A row that was built but needs what this CPU lacks (AVX-512 on a Zen 2)
    is refused with its own message, and the choice stays as it was."""
    for family in ("sha1", "sha256", "sha512", "keccak"):
        lacking = [name for name, runs, _ in fastsha.backends(family) if not runs]
        if lacking:
            break
    else:
        pytest.skip("this CPU runs every backend that was built")
    before = fastsha.backend(family)
    with pytest.raises(ValueError, match=f"^backend '{lacking[0]}' of {family}: "
                                         "this CPU cannot run it$"):
        fastsha.use_backend(family, lacking[0])
    assert fastsha.backend(family) == before
