# SPDX-License-Identifier: MIT
"""Processes: the binding in children made by fork (os.fork(), and
multiprocessing's fork, forkserver and spawn start methods), and a signal
handler that forks while file() or files() waits in the main thread. The
library keeps no lock, thread or file between calls (its caches are atomic
pointers, and a child inherits the parent's), so children hash as the
parent does. What a child cannot do is hashlib's limit too: use an object
that another thread of the parent was updating when it forked (docs/python.md,
"hashlib's interface")."""

import hashlib
import hmac
import multiprocessing
import os
import select
import signal
import threading
import warnings

import pytest

import fastsha
from fastsha import hmac as fhmac

LIMIT = 10.0  # a child that has not reported by then is stuck


def work(n):
    """Each kind of call once, as a worker of a pool runs it; True when
    every answer is hashlib's."""
    data = bytes(range(256)) * n
    return (fastsha.sha256(data).digest() == hashlib.sha256(data).digest()
            and fastsha.many("sha3_256", [data] * 5)[4] == hashlib.sha3_256(data).digest()
            and fhmac.new(b"k", data, "sha512").digest() == hmac.new(b"k", data, "sha512").digest()
            and fastsha.pbkdf2_hmac("sha1", data, b"s", 3) == hashlib.pbkdf2_hmac("sha1", data, b"s", 3))


@pytest.mark.parametrize("method", multiprocessing.get_all_start_methods())
def test_pool_workers(method):
    ctx = multiprocessing.get_context(method)
    with warnings.catch_warnings():
        # 3.12+: fork with threads alive (pytest-xdist's) is deprecated
        warnings.simplefilter("ignore", DeprecationWarning)
        with ctx.Pool(2) as pool:
            assert pool.map_async(work, range(1, 40, 3)).get(60) == [True] * 13


def forked_in_handler(call, fifo, data):
    """Run call() in the main thread while it waits for @fifo, whose writer
    comes only after a SIGUSR1 handler has forked and the child's call has
    ended. Return (the parent's result, what the child's call raised or
    returned, as a string)."""
    parent = os.getpid()
    r, w = os.pipe()
    pids = []

    def handler(signum, frame):
        if pids:
            return
        with warnings.catch_warnings():  # 3.12+: the timer thread is alive
            warnings.simplefilter("ignore", DeprecationWarning)
            pids.append(os.fork())
        if pids[0] == 0:  # a child stuck in the call dies
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.alarm(int(LIMIT))

    def writer():
        os.kill(parent, signal.SIGUSR1)
        # the child's report (or nothing, if it is stuck), then the data
        select.select([r], [], [], LIMIT)
        fd = os.open(fifo, os.O_WRONLY)
        os.write(fd, data)
        os.close(fd)

    old = signal.signal(signal.SIGUSR1, handler)
    # The signal must come while the call waits in the FIFO's open(): one
    # that came before the call began would make the child call too. A
    # second is far more than the few bytecodes before the call take, even
    # on a loaded machine (0.3 s was the first choice).
    t = threading.Timer(1.0, writer)
    try:
        t.start()
        try:
            result = call()
        except BaseException as e:  # noqa: B036 (the child reports anything)
            result = e
        if os.getpid() != parent:
            try:
                os.write(w, f"{type(result).__name__}: {result}".encode())
            finally:
                os._exit(0)
    finally:
        if os.getpid() == parent:
            signal.signal(signal.SIGUSR1, old)
            t.join()
    ready = select.select([r], [], [], LIMIT)[0]
    report = os.read(r, 4096).decode() if ready else "no report"
    os.close(r)
    os.close(w)
    if pids and pids[0] > 0:
        if not ready:
            os.kill(pids[0], signal.SIGKILL)
        os.waitpid(pids[0], 0)
    return result, report


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_fork_in_signal_handler(tmp_path, threads):
    """A child forked by a signal handler returns into the call and must
    not go on: it used to wait for ever for files()'s threads, which it
    does not have (threads=2), or read the FIFO the parent reads (a file
    shares its offset between the two), so that each got part of the data
    and both digests were wrong. It now raises RuntimeError, and the
    parent's digests are right."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled in the main thread only")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    other = tmp_path / "other"
    other.write_bytes(b"y" * 100_000)
    data = os.urandom(1 << 20)
    if threads is None:
        result, report = forked_in_handler(lambda: fastsha.file(fifo, "sha256"), fifo, data)
        assert result == hashlib.sha256(data).digest()
    else:
        result, report = forked_in_handler(
            lambda: fastsha.files([fifo, other], "sha256", threads=threads), fifo, data)
        assert result == [hashlib.sha256(data).digest(), hashlib.sha256(b"y" * 100_000).digest()]
    assert report.startswith("RuntimeError: a signal handler forked"), report
