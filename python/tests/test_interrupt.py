# SPDX-License-Identifier: MIT
"""Ctrl-C: file() and files() raise KeyboardInterrupt soon after SIGINT
while they open or read, as hashlib.file_digest() does, and leave no file
descriptor or thread behind. The signal comes from a timer thread
(os.kill(os.getpid(), SIGINT)) while the call blocks in the main thread:
in open() of a FIFO nobody writes to, in read() of a FIFO whose writer
stalls, or hashing a large regular file (whose read() a signal does not
interrupt)."""

import hashlib
import os
import signal
import threading
import time

import pytest

import fastsha

DELAY = 0.3   # the signal comes this long after the call starts
LIMIT = 2.0   # and KeyboardInterrupt must come before this, after the signal


def open_fds():
    return sorted(os.listdir("/proc/self/fd"))


def os_threads(want=None):
    """How many OS threads this process has; with @want, after waiting up
    to ten seconds for it: a joined Python thread still has its last steps
    to run, which a loaded machine may put off, and a thread that leaked
    stays whatever the wait."""
    for _ in range(1000):
        n = len(os.listdir("/proc/self/task"))
        if want is None or n == want:
            break
        time.sleep(0.01)
    return n


@pytest.fixture(autouse=True)
def main_thread_and_default_handler():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled in the main thread only")
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")


class Stalled:
    """A writer that opens @fifo, writes @data, then holds it open without
    writing until close(); with data=None it never opens it (open() of the
    FIFO for reading blocks)."""

    def __init__(self, fifo, data=None):
        self.fifo, self.stop = fifo, threading.Event()
        self.thread = None
        if data is not None:
            self.thread = threading.Thread(target=self._write, args=(data,))
            self.thread.start()

    def _write(self, data):
        try:
            fd = os.open(self.fifo, os.O_WRONLY)  # waits for the reader
        except OSError:
            return
        try:
            os.write(fd, data)
            self.stop.wait()
        except OSError:  # the reader went away (EPIPE)
            pass
        finally:
            os.close(fd)

    def close(self):
        """Release the writer and, if no reader ever came, its open()."""
        self.stop.set()
        if self.thread:
            while self.thread.is_alive():
                try:  # an open() for writing still waiting for a reader
                    os.close(os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK))
                except OSError:
                    pass
                self.thread.join(0.05)


def unblock(fifo):
    """Let a reader blocked in open() or read() of @fifo reach EOF."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:  # ENXIO: no reader is waiting
        pass


def interrupted(call, fifos=(), data=None):
    """Run call() with SIGINT sent after DELAY; fail unless it raised
    KeyboardInterrupt before LIMIT (then without leaving a call blocked).
    With @data, each FIFO has a Stalled writer of it. Then, the writers
    gone: the same file descriptors and OS threads as before."""
    fds, threads = open_fds(), os_threads()
    writers = [Stalled(f, data) for f in fifos] if data is not None else []
    # Both limits count from the signal as sent, not from the call's start:
    # the timer thread may itself run late on a loaded machine, and that
    # is no delay of the call's. A call that never looks for the signal
    # still fails (the rescue then ends it without KeyboardInterrupt), and
    # one slow to look for it fails past LIMIT.
    sent, fired, finished = [], threading.Event(), threading.Event()

    def send():
        sent.append(time.monotonic())
        fired.set()
        os.kill(os.getpid(), signal.SIGINT)
    timer = threading.Timer(DELAY, send)

    def rescue_call():  # past LIMIT: let the call finish, a failure must not hang
        fired.wait()
        if finished.wait(LIMIT + 1):
            return
        for w in writers:
            w.stop.set()
        for f in fifos:
            unblock(f)
    rescue = threading.Thread(target=rescue_call)
    start = time.monotonic()
    timer.start()
    rescue.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        end = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
        finished.set()
        fired.set()  # a timer cancelled before it fired
        rescue.join()
        for w in writers:
            w.close()
    assert sent and sent[0] - start >= DELAY and end - sent[0] < LIMIT, (start, sent, end)
    assert open_fds() == fds
    assert os_threads(threads) == threads


@pytest.fixture
def fifos(tmp_path):
    made = []

    def make(n=1):
        for _ in range(n):
            made.append(tmp_path / f"fifo{len(made)}")
            os.mkfifo(made[-1])
        return made[-n:]
    return make


@pytest.fixture
def regular(tmp_path):
    p = tmp_path / "regular"
    p.write_bytes(os.urandom(300_000))
    return p


def test_file_open_no_writer(fifos):
    (fifo,) = fifos()
    interrupted(lambda: fastsha.file(fifo, "sha256"), [fifo])


def test_file_read_stalled(fifos):
    (fifo,) = fifos()
    interrupted(lambda: fastsha.file(fifo, "sha1"), [fifo], b"x" * 1000)


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_files_open_no_writer(fifos, regular, threads):
    """Every thread blocked in open(): the caller's and files()'s own."""
    fs = fifos(threads)
    paths = [regular] + [p for f in fs for p in (f, regular)]
    interrupted(lambda: fastsha.files(paths, "sha256", threads=threads), fs)


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_files_read_stalled(fifos, regular, threads):
    """Every thread blocked in read() of a FIFO that sent some bytes."""
    fs = fifos(threads)
    paths = [regular] + fs + [regular]
    interrupted(lambda: fastsha.files(paths, "sha512", threads=threads), fs, os.urandom(5000))


def test_files_one_thread_stuck(fifos, regular):
    """The calling thread is done and waits for one other blocked thread."""
    (fifo,) = fifos()
    paths = [fifo] + [regular] * 20
    interrupted(lambda: fastsha.files(paths, "sha1", threads=2), [fifo], b"abc")


@pytest.fixture
def huge(tmp_path):
    """A sparse 64 GiB file: minutes of hashing, no disk used."""
    p = tmp_path / "huge"
    with open(p, "wb") as f:
        try:
            f.truncate(64 << 30)
        except OSError:
            pytest.skip("no sparse files here")
    yield p
    p.unlink()  # not left among pytest's kept temporary directories


def test_file_regular_reading(huge):
    interrupted(lambda: fastsha.file(huge, "sha256"))


@pytest.mark.parametrize("threads", [1, 2])
def test_files_regular_reading(huge, threads):
    interrupted(lambda: fastsha.files([huge, huge], "sha256", threads=threads))


def test_other_signals_are_retried(fifos):
    """A handler that returns lets the call go on (PEP 475)."""
    (fifo,) = fifos()
    seen = []
    old = signal.signal(signal.SIGUSR1, lambda *a: seen.append(1))
    data = os.urandom(100_000)

    def write():
        time.sleep(DELAY)
        os.kill(os.getpid(), signal.SIGUSR1)  # while file() waits in open()
        time.sleep(DELAY)
        with open(fifo, "wb") as f:
            f.write(data[:50_000])
            f.flush()
            time.sleep(DELAY)
            os.kill(os.getpid(), signal.SIGUSR1)  # while it waits in read()
            time.sleep(DELAY)
            f.write(data[50_000:])

    t = threading.Thread(target=write)
    t.start()
    try:
        assert fastsha.file(fifo, "sha256") == hashlib.sha256(data).digest()
    finally:
        t.join()
        signal.signal(signal.SIGUSR1, old)
    assert len(seen) == 2
