# SPDX-License-Identifier: MIT
"""The Keccak algorithms fastsha has and hashlib has not: Keccak-256
(Ethereum's), TurboSHAKE128/256 with a domain byte and KangarooTwelve
(KT128) with a customisation string, against RFC 9861's vectors, the stored
Keccak-256 answers and pycryptodome on random cases; their names, objects,
and KangarooTwelve's one-shot rule for a customisation string."""

import array
import hashlib
import inspect
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastsha
from support import OWN_KECCAK, keccak_answers, other_thread_ran_during, pycryptodome

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def outcome(call):
    """("ok", result) or (exception type, message)."""
    try:
        return "ok", call()
    except Exception as e:  # noqa: BLE001 (any exception is an outcome to compare)
        return type(e), str(e)


@pytest.fixture(scope="module")
def ref():
    return pycryptodome()


def test_stored_answers():
    """RFC 9861's TurboSHAKE and KT128 vectors (outputs to 10,032 bytes,
    messages to 24 MB, customisation strings, every domain the RFC uses)
    and Ethereum's Keccak-256 values, through the constructors, new() where
    the defaults apply, and the batch call."""
    answers = [a for a in keccak_answers() if a[0] in OWN_KECCAK]
    assert len(answers) >= 50
    for alg, msg, custom, domain, n, last, md, where in answers:
        if alg == "keccak256":
            hs = [fastsha.keccak256(msg), fastsha.new("keccak256", msg)]
            got = [h.digest() for h in hs] + fastsha.many(alg, [msg])
        elif alg == "k12":
            hs = [fastsha.k12(msg, custom=custom)] + ([fastsha.new("k12", msg)] if not custom
                                                      else [])
            got = [h.digest(n) for h in hs]
            if not custom:
                got += fastsha.many("k12", [msg], n)
        else:
            hs = [getattr(fastsha, alg)(msg, domain=domain)] + (
                [fastsha.new(alg, msg)] if domain == 0x1F else [])
            got = [h.digest(n) for h in hs]
            if domain == 0x1F:
                got += fastsha.many(alg, [msg], n)
        for g in got:
            assert (g[-last:] if last else g).hex() == md, where


def test_stored_answers_agree_with_pycryptodome(ref):
    """The oracle of the random tests below, on the same vectors."""
    for alg, msg, custom, domain, n, last, md, where in keccak_answers():
        if alg not in OWN_KECCAK or len(msg) > 100_000:
            continue
        if alg == "keccak256":
            g = ref.keccak256(msg)
        elif alg == "k12":
            g = ref.k12(msg, n, custom)
        else:
            g = getattr(ref, alg)(msg, n, domain)
        assert (g[-last:] if last else g).hex() == md, where


# ---- random cases against pycryptodome --------------------------------------

# Around the rates (136, 168) and KangarooTwelve's 8 KiB chunks.
sizes = st.one_of(
    st.integers(0, 400),
    st.builds(lambda r, k, d: max(0, r * k + d), st.sampled_from([136, 168, 8192]),
              st.integers(1, 5), st.integers(-2, 2)),
    st.integers(0, 70_000),
)
payload = sizes.map(lambda n: bytes((11 * i + n) & 255 for i in range(n)))
lengths = st.one_of(st.integers(0, 3 * 168 + 1), st.sampled_from([135, 136, 137, 167, 168, 169]))
domains = st.integers(0x01, 0x7F)


@SETTINGS
@given(data=payload, cuts=st.lists(st.integers(0, 1 << 17), max_size=6))
def test_keccak256_random(ref, data, cuts):
    h = fastsha.keccak256()
    prev = 0
    for p in sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]:
        h.update(data[prev:p])
        prev = p
    assert h.digest() == ref.keccak256(data)
    assert h.hexdigest() == ref.keccak256(data).hex()


@SETTINGS
@given(data=payload, n=lengths, custom=st.one_of(st.just(b""), st.binary(max_size=300)),
       cuts=st.lists(st.integers(0, 1 << 17), max_size=6))
def test_k12_random(ref, data, n, custom, cuts):
    want = ref.k12(data, n, custom)
    assert fastsha.k12(data, custom=custom).digest(n) == want
    assert fastsha.k12(bytearray(data), custom=memoryview(custom)).hexdigest(n) == want.hex()
    if not custom:
        h = fastsha.k12()
        prev = 0
        for p in sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]:
            h.update(data[prev:p])
            prev = p
        assert h.digest(n) == want


@SETTINGS
@given(alg=st.sampled_from(["turboshake128", "turboshake256"]), data=payload, n=lengths,
       domain=domains, cuts=st.lists(st.integers(0, 1 << 17), max_size=6))
def test_turboshake_random(ref, alg, data, n, domain, cuts):
    h = getattr(fastsha, alg)(domain=domain)
    prev = 0
    for p in sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]:
        h.update(data[prev:p])
        prev = p
    c = h.copy()
    want = getattr(ref, alg)(data, n, domain)
    assert h.digest(n) == c.digest(n) == want
    c.update(b"more")
    assert c.digest(n) == getattr(ref, alg)(data + b"more", n, domain)
    assert h.digest(n) == want


def oracle(ref, alg, data, n):
    if alg == "keccak256":
        return ref.keccak256(data)
    return ref.k12(data, n) if alg == "k12" else getattr(ref, alg)(data, n)


@SETTINGS
@given(alg=st.sampled_from(OWN_KECCAK), msgs=st.lists(payload, max_size=12), n=lengths,
       record=st.integers(1, 300), count=st.integers(0, 12))
def test_batches_random(ref, alg, msgs, n, record, count):
    kw = {} if alg == "keccak256" else {"length": n}
    assert fastsha.many(alg, msgs, **kw) == [oracle(ref, alg, m, n) for m in msgs]
    buf = bytes((3 * i + record) & 255 for i in range(record * count))
    assert fastsha.many_packed(alg, buf, record, **kw) == b"".join(
        oracle(ref, alg, buf[i:i + record], n) for i in range(0, len(buf), record))


# ---- the objects ------------------------------------------------------------

def test_names_and_attributes():
    assert not set(OWN_KECCAK) & fastsha.algorithms_available
    for alg, rate, xof in (("keccak256", 136, False), ("turboshake128", 168, True),
                           ("turboshake256", 136, True), ("k12", 168, True)):
        for h in (getattr(fastsha, alg)(), fastsha.new(alg), fastsha.new(alg.upper())):
            assert h.name == alg and h.block_size == rate
            assert type(h) is (fastsha.HashXOF if xof else fastsha.Hash)
            assert h.digest_size == (0 if xof else 32)
            with pytest.raises(ValueError):
                hashlib.new(alg)
    assert fastsha.new("KT128").name == "k12"
    assert str(inspect.signature(fastsha.keccak256)) == \
        "(data=b'', *, usedforsecurity=True, string=None)"
    assert str(inspect.signature(fastsha.k12)) == \
        "(data=b'', *, custom=b'', usedforsecurity=True, string=None)"
    assert str(inspect.signature(fastsha.turboshake128)) == \
        "(data=b'', *, domain=31, usedforsecurity=True, string=None)"


def test_turboshake_domain(ref):
    """0x01..0x7f (RFC 9861), any int-like; the default is 0x1f, which is
    what new() gives."""
    for alg in ("turboshake128", "turboshake256"):
        cons = getattr(fastsha, alg)
        assert cons(b"abc", domain=0x1F).digest(50) == fastsha.new(alg, b"abc").digest(50)
        assert cons(b"abc", domain=True).digest(50) == getattr(ref, alg)(b"abc", 50, 1)
        for bad in (0, 0x80, -1, 256, 2**70):
            with pytest.raises(ValueError, match=r"^domain must be 0x01 to 0x7f \(RFC 9861\), "):
                cons(domain=bad)
        for bad in (1.0, "7", None, b"\x07"):
            with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
                cons(domain=bad)
        with pytest.raises(TypeError, match="takes at most 1 positional argument"):
            cons(b"abc", 7)


def test_turboshake_domain_long_output(ref):
    """A domain byte other than the default puts the object on the sponge
    API, whose output of GIL_MINSIZE bytes and more is squeezed without the
    GIL: a path of its own, held to pycryptodome like the short one."""
    n = fastsha.GIL_MINSIZE + 1000
    for alg in ("turboshake128", "turboshake256"):
        h = getattr(fastsha, alg)(b"abc", domain=0x07)
        want = getattr(ref, alg)(b"abc", n, 0x07)
        assert h.digest(n) == want
        assert h.hexdigest(n) == want.hex()
        assert h.digest(10) == want[:10]  # the long read did not move the object on


@pytest.mark.parametrize("alg", ["turboshake128", "k12"])
def test_constructor_argument_errors(alg):
    """The Keccak constructors of our own check their data as hashlib's
    constructors do: data and string both given, a str, a non-buffer and a
    strided view raise what hashlib.sha256() raises on them (k12 with a
    customisation string too, which takes its data by another path)."""
    cons = getattr(fastsha, alg)
    with pytest.raises(TypeError):
        hashlib.sha256(b"a", string=b"b")
    with pytest.raises(TypeError, match="mutually exclusive"):
        cons(b"a", string=b"b")
    with pytest.raises(TypeError, match="takes at most 1 positional argument"):
        cons(b"a", b"b")
    extra = [{}, {"custom": b"c"}] if alg == "k12" else [{}]
    for kw in extra:
        for bad in ("text", 5, memoryview(b"abcdef")[::2]):
            want = outcome(lambda: hashlib.sha256(bad))
            assert want[0] != "ok"
            assert outcome(lambda: cons(bad, **kw)) == want, (bad, kw)


def test_k12_customisation_is_one_shot(ref):
    """The library's streaming KangarooTwelve has the empty customisation
    string, and no updates can turn its ending into another string's: with
    a non-empty one the object takes its data in the constructor, as it is
    then (a later change to a bytearray is not seen), and refuses update()."""
    buf = bytearray(b"message " * 2000)
    h = fastsha.k12(buf, custom=b"app v1")
    want = ref.k12(bytes(buf), 300, b"app v1")
    buf[:8] = b"changed!"
    buf.extend(b"and longer")  # no export of buf is held
    assert h.digest(300) == want and h.digest(10) == want[:10]
    with pytest.raises(ValueError, match="customisation string takes its data in the "
                                         "constructor only"):
        h.update(b"more")
    with pytest.raises(ValueError, match="constructor only"):
        h.update("not even checked as a buffer first")
    c = h.copy()
    assert type(c) is fastsha.HashXOF and c.digest(300) == want
    assert fastsha.k12(custom=b"c").digest(32) == ref.k12(b"", 32, b"c")
    assert fastsha.k12(string=b"m", custom=array.array("B", b"c")).digest(32) == \
        ref.k12(b"m", 32, b"c")
    # an empty customisation string is the streaming object
    s = fastsha.k12(b"ab", custom=b"")
    s.update(b"c")
    assert s.digest(40) == ref.k12(b"abc", 40)
    for bad in ("str", 5, None):
        with pytest.raises(TypeError):
            fastsha.k12(b"", custom=bad)


def test_k12_customised_from_threads(ref):
    """A customised object read from several threads at once (each digest
    of a long message releases the GIL)."""
    data = bytes(range(256)) * 4096
    h = fastsha.k12(data, custom=b"shared")
    want = ref.k12(data, 64, b"shared")
    got = []
    ts = [threading.Thread(target=lambda: got.append(h.digest(64))) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert got == [want] * 4
    ran, took = other_thread_ran_during(lambda: fastsha.k12(data * 16, custom=b"c").digest(32))
    assert ran, f"no other thread ran during k12 with custom ({took * 1e3:.0f} ms)"
