# SPDX-License-Identifier: MIT
"""Differential tests against hashlib with hypothesis: random data, random
update splits, random buffer kinds, copies at random points, every
algorithm; and the batch calls on random batches."""

import array
import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastsha
from support import ALL

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

algs = st.sampled_from(ALL)
# Lengths cluster around block boundaries (64, 128) and the GIL threshold.
payload = st.one_of(
    st.binary(max_size=300),
    st.binary(min_size=2000, max_size=2200),
    st.integers(0, 20000).map(lambda n: bytes((7 * i + n) & 255 for i in range(n))),
)


def as_kind(data, kind):
    if kind == "bytes":
        return data
    if kind == "bytearray":
        return bytearray(data)
    if kind == "memoryview":
        return memoryview(b"<" + data + b">")[1:-1]
    return array.array("B", data)


kinds = st.sampled_from(["bytes", "bytearray", "memoryview", "array"])


@SETTINGS
@given(alg=algs, data=payload, cuts=st.lists(st.integers(0, 1 << 16), max_size=8), kind=kinds)
def test_random_splits(alg, data, cuts, kind):
    points = sorted({c % (len(data) + 1) for c in cuts})
    h = fastsha.new(alg)
    prev = 0
    for p in points + [len(data)]:
        h.update(as_kind(data[prev:p], kind))
        prev = p
    assert h.digest() == hashlib.new(alg, data).digest()
    assert h.hexdigest() == hashlib.new(alg, data).hexdigest()


@SETTINGS
@given(alg=algs, data=payload, at=st.integers(0, 1 << 16), tail=st.binary(max_size=200))
def test_copy_at_random_point(alg, data, at, tail):
    at %= len(data) + 1
    h = fastsha.new(alg, data[:at])
    c = h.copy()
    h.update(data[at:])
    c.update(tail)
    assert h.digest() == hashlib.new(alg, data).digest()
    assert c.digest() == hashlib.new(alg, data[:at] + tail).digest()


@SETTINGS
@given(alg=algs, msgs=st.lists(payload, max_size=40), kind=kinds)
def test_many_random(alg, msgs, kind):
    got = fastsha.many(alg, [as_kind(m, kind) for m in msgs])
    assert got == [hashlib.new(alg, m).digest() for m in msgs]


@SETTINGS
@given(alg=algs, record=st.integers(1, 300), count=st.integers(0, 64), seed=st.integers(0, 255))
def test_many_packed_random(alg, record, count, seed):
    buf = bytes((seed + 13 * i) & 255 for i in range(record * count))
    got = fastsha.many_packed(alg, buf, record)
    want = b"".join(hashlib.new(alg, buf[i:i + record]).digest()
                    for i in range(0, len(buf), record))
    assert got == want
