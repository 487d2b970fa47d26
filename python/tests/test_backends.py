# SPDX-License-Identifier: MIT
"""The binding under every backend this CPU runs, as ctest runs the C tests:
one-shot, streaming and the batch calls against hashlib, per backend of
each family. A backend this CPU lacks is a skipped test, never a pass."""

import hashlib
import os
import subprocess
import sys

import pytest

import fastsha

# One algorithm per output shape of each family's table.
ALGS = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_256")


def rows():
    for alg in ALGS:
        for name, ok, lanes in fastsha.backends(alg):
            marks = [] if ok else [pytest.mark.skip(reason=f"this CPU cannot run {name}")]
            yield pytest.param(alg, name, lanes, id=f"{alg}-{name}", marks=marks)


MSGS = [bytes((i * 7 + n) & 255 for i in range(n)) for n in range(0, 300)] + \
       [os.urandom(n) for n in (1000, 4096, 65537, 300_000)]


@pytest.mark.parametrize("alg,backend,lanes", list(rows()))
def test_backend_against_hashlib(alg, backend, lanes):
    fastsha.use_backend(alg, backend)
    try:
        assert fastsha.backend(alg) == backend
        if lanes > 1:
            assert fastsha.many_lanes(alg) == lanes
        want = [hashlib.new(alg, m).digest() for m in MSGS]
        assert [fastsha.new(alg, m).digest() for m in MSGS] == want
        for m, w in zip(MSGS[::17], want[::17]):
            h = fastsha.new(alg)
            for i in range(0, len(m), 61):
                h.update(m[i:i + 61])
            assert h.digest() == w
        assert fastsha.many(alg, MSGS) == want
        packed = os.urandom(129 * 40)
        assert fastsha.many_packed(alg, packed, 129) == b"".join(
            hashlib.new(alg, packed[i:i + 129]).digest() for i in range(0, len(packed), 129))
    finally:
        fastsha.use_backend(alg, None)


def test_environment_variable_is_honoured():
    """FASTSHA_BACKEND is read by the library on first use, as for C."""
    code = ("import fastsha; print(fastsha.backend('sha1'), fastsha.backend('sha512'), "
            "fastsha.sha1(b'abc').hexdigest())")
    env = dict(os.environ, FASTSHA_BACKEND="portable")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["portable", "portable", hashlib.sha1(b"abc").hexdigest()]
