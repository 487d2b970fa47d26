# SPDX-License-Identifier: MIT
"""Threads: one object (hash or HMAC) updated from several threads gives
the one-thread digest (a per-object lock makes each update atomic),
digest() and copy() never see half an update, and the GIL is released for
large inputs and for PBKDF2 so other Python threads run meanwhile."""

import hashlib
import hmac
import sys
import threading
import time

import pytest

import fastsha
import fastsha.hmac as fhmac
from support import NAMED, other_thread_ran_during, race_readers


@pytest.mark.parametrize("alg", NAMED)
def test_threaded_hashing(alg):
    """test_hashlib's check: five threads share one object and feed it the
    same periodic data in chunks of len // 10**k (1.6 MB down to 160 B, so
    both sides of the 2048-byte GIL threshold); every chunk is a whole
    number of periods, so any interleaving gives the same message."""
    hasher = fastsha.new(alg)
    period = b"swineflu"
    data = period * 200000
    nthreads = 5

    def feed(chunk):
        for i in range(0, len(data), chunk):
            hasher.update(data[i:i + chunk])

    threads = []
    for k in range(nthreads):
        chunk = len(data) // 10 ** k
        assert chunk > 0 and chunk % len(period) == 0
        threads.append(threading.Thread(target=feed, args=(chunk,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert hasher.hexdigest() == hashlib.new(alg, data * nthreads).hexdigest()


def test_readers_never_see_half_an_update():
    """While one thread appends 64 KiB chunks (GIL released, lock held),
    others call digest() and copy(): each answer must be the digest of a
    whole number of chunks."""
    chunk = bytes(range(256)) * 256
    n = 256
    prefixes = {hashlib.sha256(chunk * k).digest() for k in range(n + 1)}
    h = fastsha.sha256()
    bad, seen = race_readers(h, chunk, n, lambda: (h.digest(), h.copy().digest()), prefixes)
    assert not bad
    assert h.digest() == hashlib.sha256(chunk * n).digest()
    assert hashlib.sha256(chunk * n).digest() in seen
    # the readers ran while the writer did: race_readers has the writer
    # wait halfway for a read, so this holds however the threads are run
    assert hashlib.sha256(chunk * (n // 2)).digest() in seen


def test_many_threads_many_objects():
    """Distinct objects in distinct threads, large and small updates mixed."""
    data = [bytes([i]) * (97 * i + 5000 * (i % 3)) for i in range(16)]
    out = [None] * len(data)

    def work(i):
        h = fastsha.sha512()
        for j in range(0, len(data[i]), 3001):
            h.update(data[i][j:j + 3001])
        out[i] = h.digest()

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(data))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [hashlib.sha512(d).digest() for d in data]


# ---- is the GIL released? ---------------------------------------------------

@pytest.fixture(scope="module")
def big():
    return bytes(range(256)) * (256 * 1024)  # 64 MiB: tens of ms on any backend


def test_gil_detector_sees_a_call_that_keeps_it():
    """The detector itself: sorting a list of ints is one C call that never
    lets go of the GIL, so no other thread may run in its middle. One try:
    with the detector's long switch interval nothing else can take the GIL
    between its start stamp and the call, however loaded the machine."""
    xs = list(range(3_000_000, 0, -1))
    for _ in range(5):
        ran, took = other_thread_ran_during(lambda: sorted(xs), tries=1)
        assert took > 0.03, "sort too quick to judge on this machine"
        assert not ran, f"a thread ran in the middle of sorted() ({took * 1e3:.0f} ms)"


def test_gil_detector_sees_a_call_that_lets_go(big):
    """And the other way: hashlib releases the GIL for inputs of 2 KiB and
    more, and time.sleep always does."""
    for call in (lambda: hashlib.sha256(big), lambda: time.sleep(0.05)):
        ran, took = other_thread_ran_during(call)
        assert ran, f"no other thread ran ({took * 1e3:.0f} ms)"


@pytest.mark.parametrize("what", ["update", "constructor", "many", "many_packed",
                                  "file", "files"])
def test_gil_released_for_large_inputs(what, big, tmp_path):
    path = tmp_path / "big.bin"
    if what.startswith("file"):
        path.write_bytes(big)
        fastsha.file(path, "sha256")  # into the page cache
    h = fastsha.sha256()
    calls = {
        "update": lambda: h.update(big),
        "constructor": lambda: fastsha.sha256(big),
        "many": lambda: fastsha.many("sha256", [memoryview(big)[i::1] for i in (0, 1, 2, 3)]),
        "many_packed": lambda: fastsha.many_packed("sha256", big, 1 << 20),
        "file": lambda: fastsha.file(path, "sha256"),
        "files": lambda: fastsha.files([path, path], "sha256"),
    }
    ran, took = other_thread_ran_during(calls[what])
    assert ran, f"no other thread ran during {what} ({took * 1e3:.0f} ms)"


@pytest.mark.parametrize("what", ["pbkdf2_hmac", "pbkdf2_hmac_many", "hmac.digest",
                                  "hmac.new", "HMAC.update", "hmac_many", "hkdf",
                                  "hkdf_extract", "hkdf_expand"])
def test_gil_released_by_mac_calls(what, big):
    """PBKDF2 always (a million iterations here: 50 ms and more), the rest
    for large inputs, as the hashes."""
    h = fhmac.new(b"key", digestmod="sha256")
    calls = {
        "pbkdf2_hmac": lambda: fastsha.pbkdf2_hmac("sha256", b"pw", b"salt", 1_000_000),
        "pbkdf2_hmac_many": lambda: fastsha.pbkdf2_hmac_many("sha1", [b"a", b"b"], b"salt",
                                                             500_000),
        "hmac.digest": lambda: fhmac.digest(b"key", big, "sha256"),
        "hmac.new": lambda: fhmac.new(b"key", big, "sha256"),
        "HMAC.update": lambda: h.update(big),
        "hmac_many": lambda: fastsha.hmac_many("sha256", b"key", [big, big]),
        "hkdf": lambda: fastsha.hkdf("sha256", big),
        "hkdf_extract": lambda: fastsha.hkdf_extract("sha256", big),
        "hkdf_expand": lambda: fastsha.hkdf_expand("sha256", bytes(32), info=big),
    }
    ran, took = other_thread_ran_during(calls[what])
    assert ran, f"no other thread ran during {what} ({took * 1e3:.0f} ms)"


def test_hmac_threaded_updates():
    """test_threaded_hashing's check on one HMAC object."""
    key = b"k" * 70
    h = fhmac.new(key, digestmod="sha512")
    period = b"swineflu"
    data = period * 200000

    def feed(chunk):
        for i in range(0, len(data), chunk):
            h.update(data[i:i + chunk])

    threads = [threading.Thread(target=feed, args=(len(data) // 10 ** k,)) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.digest() == hmac.digest(key, data * 5, "sha512")


def test_hmac_readers_never_see_half_an_update():
    chunk = bytes(range(256)) * 256
    n = 128
    key = b"reader key"
    prefixes = {hmac.digest(key, chunk * k, "sha256") for k in range(n + 1)}
    h = fhmac.new(key, digestmod="sha256")
    bad, seen = race_readers(h, chunk, n,
                             lambda: (h.digest(), h.copy().digest(), bytes.fromhex(h.hexdigest())),
                             prefixes)
    assert not bad
    assert h.digest() == hmac.digest(key, chunk * n, "sha256")
    assert hmac.digest(key, chunk * (n // 2), "sha256") in seen  # read mid-message


def test_kdfs_from_many_threads():
    """Independent PBKDF2, HKDF and HMAC calls in parallel threads (the GIL
    released in each) give each its own answer."""
    jobs = [(alg, bytes([i]) * (i + 1), bytes([255 - i]) * 9) for i, alg in
            enumerate(["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224",
                       "sha512_256", "sha256"])]
    out = [None] * len(jobs)

    def work(i):
        alg, pw, salt = jobs[i]
        out[i] = (fastsha.pbkdf2_hmac(alg, pw, salt, 20_000, 70),
                  fastsha.hkdf(alg, pw * 1000, salt=salt, length=100),
                  fhmac.digest(pw, salt * 1000, alg))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for (alg, pw, salt), got in zip(jobs, out):
        assert got[0] == hashlib.pbkdf2_hmac(alg, pw, salt, 20_000, 70)
        assert got[1] == fastsha.hkdf(alg, pw * 1000, salt=salt, length=100)
        assert got[2] == hmac.digest(pw, salt * 1000, alg)


def test_small_updates_keep_working_with_a_switch_interval():
    """Many tiny updates from two threads on one object (the try-lock path
    after the object got its lock) with a tiny switch interval."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        h = fastsha.sha1(b"z" * 4096)  # constructor: no lock yet
        h.update(b"z" * 4096)          # now it has one
        piece = b"0123456789abcdef"

        def feed():
            for _ in range(20000):
                h.update(piece)

        ts = [threading.Thread(target=feed) for _ in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert h.hexdigest() == hashlib.sha1(b"z" * 8192 + piece * 40000).hexdigest()
