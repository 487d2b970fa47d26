# SPDX-License-Identifier: MIT
"""sha1dc in the binding: SHA-1 with collision detection, hashlib-style.

The five public colliding files come from Debian's
librust-sha1collisiondetection-dev (.ci/run unpacks them into
build/sha1dc-files); the tests that need them skip, saying why, where they
are absent. Expected values: ../shared/design/sha1dc/README.md.
"""
import hashlib
import os
import pathlib
import random

import pytest

import fastsha

ROOT = pathlib.Path(__file__).resolve().parents[2]
FILES = pathlib.Path(os.environ.get("FASTSHA_SHA1DC_FILES", ROOT / "build" / "sha1dc-files"))

# name: (plain SHA-1, SHA1DC with the safe hash, detected)
EXPECTED = {
    "shattered-1.pdf": ("38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
                        "16e96b70000dd1e7c85b8368ee197754400e58ec", True),
    "shattered-2.pdf": ("38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
                        "e1761773e6a35916d99f891b77663e6405313587", True),
    "sha-mbles-1.bin": ("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
                        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14", True),
    "sha-mbles-2.bin": ("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0",
                        "9ed5d77a4f48be1dbf3e9e15650733eb850897f2", True),
    "sha1_reducedsha_coll.bin": ("a56374e1cf4c3746499bc7c0acb39498ad2ee185",
                                 "a56374e1cf4c3746499bc7c0acb39498ad2ee185", False),
}


def colliding(name):
    path = FILES / name
    if not path.is_file():
        pytest.skip(f"{path} absent: .ci/run unpacks Debian's librust-sha1collisiondetection-dev there")
    return path.read_bytes()


def test_names_and_surface():
    assert "sha1dc" not in fastsha.algorithms_available  # hashlib has no such name
    for name in ("sha1dc", "SHA1DC", "Sha1Dc"):
        h = fastsha.new(name, b"abc")
        assert h.name == "sha1dc" and h.digest_size == 20 and h.block_size == 64
    assert fastsha.sha1dc(b"abc").hexdigest() == hashlib.sha1(b"abc").hexdigest()
    assert fastsha.sha1dc(b"abc").detected is False
    assert fastsha.sha256(b"abc").detected is False


def test_random_messages_are_sha1():
    rng = random.Random(1)
    msgs = [rng.randbytes(n) for n in list(range(0, 200)) + [rng.randrange(20000) for _ in range(20)]]
    for m in msgs:
        h = fastsha.sha1dc(m)
        assert h.digest() == hashlib.sha1(m).digest() and not h.detected
    digests, detected = fastsha.many_detect("sha1dc", msgs)
    assert digests == [hashlib.sha1(m).digest() for m in msgs]
    assert detected == [False] * len(msgs)
    assert fastsha.many("sha1dc", msgs) == digests


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_colliding_files(name):
    data = colliding(name)
    plain, safe, flagged = EXPECTED[name]
    assert hashlib.sha1(data).hexdigest() == plain
    h = fastsha.sha1dc(data)
    assert h.hexdigest() == safe and h.detected is flagged
    # streamed in pieces, and copied half way
    h = fastsha.new("sha1dc")
    for i in range(0, len(data), 1000):
        h.update(data[i:i + 1000])
        if i == 0:
            c = h.copy()
    assert h.hexdigest() == safe and h.detected is flagged
    c.update(data[1000:])
    assert c.hexdigest() == safe


def test_batches_with_colliding_files():
    blobs = [colliding(n) for n in sorted(EXPECTED)]
    rng = random.Random(2)
    msgs, want = [], []
    for b, n in zip(blobs, sorted(EXPECTED)):
        msgs += [rng.randbytes(rng.randrange(5000)), b]
        want += [(None, False), (EXPECTED[n][1], EXPECTED[n][2])]
    digests, detected = fastsha.many_detect("sha1dc", msgs)
    for m, d, f, (w, wf) in zip(msgs, digests, detected, want):
        assert d.hex() == (w or hashlib.sha1(m).hexdigest())
        assert f is wf
    assert fastsha.many("sha1dc", msgs) == digests


def test_prefix_320_319():
    data = colliding("shattered-1.pdf")
    assert fastsha.sha1dc(data[:320]).detected
    h = fastsha.sha1dc(data[:319])
    assert not h.detected and h.digest() == hashlib.sha1(data[:319]).digest()
