#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate ubc_filter.inc, ubc_slices.inc and ubc_bydv.inc, SHA1DC's filter, from ubc_relations.tsv and dvs.tsv.

The filter says which of the 32 disturbance vectors (DVs) may have built the
block in hand: DV d survives when every relation "bit j of W[i] XOR bit l of
W[k] == c" listed for it holds on the block's expanded message W.

The output is a list of C statements, included inside a function that has
declared:
  FSHA1DC_V   the word type: an unsigned scalar, or a GCC/Clang vector of
              lanes of 16 bits or more whose every byte is one block's;
  b0[t], b3[t] for t = 35..64: byte 0 (W[t] & 0xff) and byte 3 (W[t] >> 24)
              of W[t], each in a byte of its own (a vector: one block per
              byte; a scalar: in its low byte, the rest 0). Every bit a
              relation reads is in them (W bits 0..7 and 28..30);
  FSHA1DC_BIT(b) for b = 0..7: a FSHA1DC_V-compatible constant with bit b
              of every byte set;
  m[4]        FSHA1DC_V, assigned here: bit d % 8 of a block's byte of m[d / 8]
              is set when DV d survives; no other bit of that byte.
It uses only shifts by constants (0..7 bits: a bit at position 0..7 of a
byte lands at another position 0..7 of the same byte, so shifting a whole
16- or 32-bit lane moves nothing that is read between bytes), AND, XOR and
NOT, so one text serves a scalar build, SSE2, AVX2, AVX-512 and NEON alike,
with twice the blocks a vector of the 16-bit lanes an earlier version used.

How: every relation of DV d is aligned to one bit position p(d) of the
byte: its two terms are shifted so that the bits they read land on p, and
T = term1 ^ term2 holds the relation's value at bit p. The DV survives when
bit p of AND(T for c = 1, ~T for c = 0) is set. A shifted byte and a T are
computed once however many DVs use them, and p(d) is chosen to need the
fewest distinct shifts and terms (a deterministic greedy pass, so the
output is reproducible).

It also writes ubc_slices.inc, the same filter cut in pieces of two DVs that
a compression loop runs between its blocks (generate_slices()),
ubc_bydv.inc, the filter for one block at a time with the DVs in the lanes
of a vector, for a few blocks where a run of the filter above would cost
as much for 1 block as for 32 (generate_bydv()), and ubc_dvs.inc, the DV
table (type, K, b, testt) for sha1dc_check.c.

Usage: gen_ubc.py [--check] [DIR]   (DIR defaults to this folder; --check
compares the files there with the output instead of writing, exit 1 on a
difference).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NOTICE = ("Copyright (c) 2017 Marc Stevens (Cryptology Group, Centrum Wiskunde & Informatica),\n"
          "Dan Shumow (Microsoft Research). Distributed under the MIT License.")


def file_head(about, after=()):
    """A generated file's head comment: the lines @about (what it is), the
    relations' provenance and MIT notice, then the lines @after."""
    head = ['/* SPDX-License-Identifier: MIT */', '/*']
    head += [' * ' + line for line in about]
    head += [' *', ' * The relations are data of the SHA1DC project (PROVENANCE.md):', ' *']
    head += [' * ' + line for line in NOTICE.split('\n')]
    return head + [' * ' + line if line else ' *' for line in after] + [' */']


def rows(name):
    with open(os.path.join(HERE, name)) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            yield line.split()


def load():
    dvs = []
    for r in rows('dvs.tsv'):
        if r[0] == 'dv_index':
            continue
        idx, typ, k, b = int(r[0]), r[1], int(r[2]), int(r[3])
        assert idx == len(dvs), 'dvs.tsv out of order'
        dvs.append((typ, k, b))
    index = {d: n for n, d in enumerate(dvs)}
    rels = [[] for _ in dvs]
    for r in rows('ubc_relations.tsv'):
        if r[0] == 'dv_type':
            continue
        typ, k, b, i, j, kk, l, c = r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]), int(r[7])
        assert 35 <= i <= 64 and 35 <= kk <= 64 and c in (0, 1)
        rels[index[(typ, k, b)]].append((i, pos(j), kk, pos(l), c))
    assert len(dvs) == 32 and sum(map(len, rels)) == 373
    return dvs, rels


def pos(bit):
    """A W bit as (byte, bit in it): byte 0 (bits 0..7) or byte 3 (24..31)."""
    assert bit < 8 or bit >= 24, 'relation reads bit %d, outside the bytes kept' % bit
    return (0, bit) if bit < 8 else (3, bit - 24)


def terms(rel, p):
    """The relation's two ((byte, word), shift) terms aligned at bit p, in a canonical order."""
    i, (bi, j), k, (bk, l), c = rel
    return tuple(sorted((((bi, i), p - j), ((bk, k), p - l))))


def cost(rels, choice):
    shifts, ts = set(), set()
    for d, rs in enumerate(rels):
        for r in rs:
            t = terms(r, choice[d])
            ts.add(t)
            shifts.update(x for x in t if x[1])
    return len(shifts) + len(ts)


def choose(rels):
    choice = []
    for rs in rels:  # start from each DV's most used position, smallest first on ties
        ps = [r[1][1] for r in rs]
        choice.append(min(set(ps), key=lambda p: (-ps.count(p), p)))
    for _ in range(3):
        for d, rs in enumerate(rels):
            cands = range(8)
            choice[d] = min(cands, key=lambda p: (cost(rels, choice[:d] + [p] + choice[d + 1:]), p))
    return choice


def word_expr(word):
    (byte, t) = word
    return 'b%d[%d]' % (byte, t)


def shift_expr(word, sh):
    w = word_expr(word)
    if sh > 0:
        return '(%s << %d)' % (w, sh)
    if sh < 0:
        return '(%s >> %d)' % (w, -sh)
    return w


def dv_statement(dvs, d, rs, p, term, m):
    """DV d's comment and the statement that ors its bit into m[d / 8]: the AND
    of its terms (term(t) names or spells term t) aligned at bit p."""
    ordered = sorted(rs, key=lambda r: -r[4])  # c = 1 first: no NOT on the first term
    chain = ' & '.join(('' if r[4] else '~') + term(terms(r, p)) for r in ordered)
    bit = d % 8
    move = '(%s)' % chain
    if p > bit:
        move = '(%s >> %d)' % (move, p - bit)
    elif p < bit:
        move = '(%s << %d)' % (move, bit - p)
    typ, k, b = dvs[d]
    return ('/* DV %d: %s(%d,%d), %d relations at bit %d */' % (d, typ, k, b, len(rs), p),
            '%s[%d] |= %s & FSHA1DC_BIT(%d);' % (m, d // 8, move, bit))


def generate():
    dvs, rels = load()
    choice = choose(rels)
    shift_names, t_names = {}, {}
    # Each DV's terms come right before its AND chain, and its bit is or-ed
    # into lo or hi at once: short live ranges, fewer spills (a first
    # version with every term first and the chains last ran the AVX2
    # filter at twice the time).
    out = ['\tm[0] = m[1] = m[2] = m[3] = (FSHA1DC_V){ 0 };']
    for d, rs in enumerate(rels):
        p = choice[d]
        for r in rs:
            t = terms(r, p)
            for x in t:
                if x[1] and x not in shift_names:
                    shift_names[x] = 's%d' % len(shift_names)
                    out.append('\tconst FSHA1DC_V %s = %s;' % (shift_names[x], shift_expr(*x)))
            if t not in t_names:
                t_names[t] = 't%d' % len(t_names)
                a, b = (shift_names.get(x, word_expr(x[0])) for x in t)
                out.append('\tconst FSHA1DC_V %s = %s ^ %s;' % (t_names[t], a, b))
        comment, stmt = dv_statement(dvs, d, rs, p, lambda t: t_names[t], 'm')
        out.append('\t' + comment)
        out.append('\t' + stmt)
    head = file_head(['Generated by src/sha1/dc/gen_ubc.py from ubc_relations.tsv and dvs.tsv:',
                      'do not edit; run the generator (the test sha1dc_ubc_generated checks that',
                      'this file is its output). SHA1DC\'s filter: see the generator for the',
                      'contract (FSHA1DC_V, b0 and b3[35..64], FSHA1DC_BIT, m[4]).'],
                     ['', '%d relations, %d distinct shifted bytes, %d distinct terms.' %
                      (sum(map(len, rels)), len(shift_names), len(t_names))])
    body = ['{'] + out + ['}']
    return '\n'.join(head + body) + '\n'


SLICES = 16


def generate_slices():
    """The filter cut in SLICES pieces of 32 / SLICES DVs each, each piece on its own.

    FSHA1DC_SLICE_k(b0, b3, m) ors DVs 2k and 2k + 1 into m[] exactly as the
    whole filter (ubc_filter.inc) does, with the same contract, but shares
    nothing with the other pieces: each works out its own shifted bytes and
    terms (the compiler merges the repeats within a piece). A compression
    loop runs one piece after each block it compresses, on the blocks of an
    earlier chunk, so the filter's work fills the gaps of the compression's
    dependency chain instead of running after it (sha1_shani.c).
    """
    dvs, rels = load()
    choice = choose(rels)
    per = 32 // SLICES
    out = []
    for k in range(SLICES):
        out.append('#define FSHA1DC_SLICE_%d(b0, b3, m) \\' % k)
        out.append('\tdo { \\')
        for d in range(per * k, per * k + per):
            comment, stmt = dv_statement(dvs, d, rels[d], choice[d],
                                         lambda t: '(%s ^ %s)' % tuple(shift_expr(*x) for x in t), '(m)')
            out.append('\t\t' + comment + ' \\')
            out.append('\t\t' + stmt + ' \\')
        out.append('\t} while (0)')
    head = file_head(['Generated by src/sha1/dc/gen_ubc.py from ubc_relations.tsv and dvs.tsv:',
                      'do not edit (the test sha1dc_ubc_generated checks that this file is its',
                      'output). SHA1DC\'s filter in %d pieces FSHA1DC_SLICE_0..%d(b0, b3, m),' % (SLICES, SLICES - 1),
                      'each of two DVs and on its own: see generate_slices() in the generator.',
                      'The contract is ubc_filter.inc\'s (b0, b3, FSHA1DC_BIT, FSHA1DC_V, m[4]),',
                      'but m is not cleared here: the caller zeroes it before the first piece.'])
    return '\n'.join(head + out) + '\n'


def bydv_place(t, byte):
    """Where byte 0 or 3 of W[t] sits in the narrowed bytes of one block
    (sha1_impl.h, nar): 16-byte table q (qwords 2q and 2q + 1 of the nine)
    and its index there."""
    g, r = (t - 32) // 4, (t - 32) % 4
    return g // 2, 8 * (g % 2) + (4 if byte == 3 else 0) + (3 - r)


def bydv_layout(rels):
    """Each DV's relations in slots 0..S-1 (S: the most any DV has), each
    with its two terms in a chosen order: slot[d][s] = (relation, swapped)
    or None. Chosen to need few table lookups: a slot's first (second) terms
    across the 32 DVs cost one lookup per distinct table they read. Start
    from each DV's relations sorted by their tables, then swap slots and
    terms while the count falls (a fixed order: reproducible)."""
    nslots = max(map(len, rels))

    def tables(d, e):
        i, (bi, _), k, (bk, _), _ = rels[d][e[0]]
        ta, tb = bydv_place(i, bi)[0], bydv_place(k, bk)[0]
        return (tb, ta) if e[1] else (ta, tb)

    slot = []
    for d, rs in enumerate(rels):  # lower table first, relations by their tables
        order = sorted(range(len(rs)), key=lambda n: sorted(tables(d, (n, False))) + [n])
        es = [(n, tables(d, (n, False))[0] > tables(d, (n, False))[1]) for n in order]
        slot.append(es + [None] * (nslots - len(es)))

    def cost(*ss):  # the lookups of slots ss
        return sum(len({tables(d, slot[d][s])[side] for d in range(32) if slot[d][s]})
                   for s in set(ss) for side in (0, 1))

    improved = True
    while improved:
        improved = False
        for d in range(32):
            for a in range(nslots):
                for b in range(a + 1, nslots):
                    before = cost(a, b)
                    slot[d][a], slot[d][b] = slot[d][b], slot[d][a]
                    if cost(a, b) < before:
                        improved = True
                    else:
                        slot[d][a], slot[d][b] = slot[d][b], slot[d][a]
                if slot[d][a]:
                    e, before = slot[d][a], cost(a)
                    slot[d][a] = (e[0], not e[1])
                    if cost(a) < before:
                        improved = True
                    else:
                        slot[d][a] = e
    best = cost(*range(nslots))
    return slot, best


def generate_bydv():
    """The filter for one block at a time, the 32 DVs in the 32 byte lanes
    of one vector (see the file's head comment below)."""
    dvs, rels = load()
    slot, nlook = bydv_layout(rels)
    rows, names = [], {}

    def row(vals):
        vals = tuple(vals)
        if vals not in names:
            names[vals] = len(rows)
            rows.append(vals)
        return names[vals]

    body = []
    for s in range(len(slot[0])):
        terms = [[None] * 32, [None] * 32]  # side -> lane d -> (table, index, bit)
        cs = [0] * 32
        for d in range(32):
            e = slot[d][s]
            if not e:
                continue
            i, (bi, j), k, (bk, l), c = rels[d][e[0]]
            x, y = (i, bi, j), (k, bk, l)
            if e[1]:
                x, y = y, x
            for side, (t, byte, bit) in enumerate((x, y)):
                terms[side][d] = bydv_place(t, byte) + (bit,)
            cs[d] = c
        picks = []
        for side in (0, 1):
            qs = sorted({v[0] for v in terms[side] if v})
            picks.append(' | '.join(
                'FSHA1DC_PICK(%d, %d)' % (q, row(v[1] if v and v[0] == q else 0x80
                                                    for v in terms[side])) for q in qs))
        ma = row(1 << v[2] if v else 0 for v in terms[0])
        ea = row((1 << v[2] if cs[d] else 0) if v else 0 for d, v in enumerate(terms[0]))
        mb = row(1 << v[2] if v else 0 for v in terms[1])
        used = sum(1 for d in range(32) if slot[d][s])
        body.append('\t\t/* slot %d: %d DVs */ \\' % (s, used))
        body.append('\t\ta_ = %s; \\' % picks[0])
        body.append('\t\tb_ = %s; \\' % picks[1])
        body.append('\t\t(f) |= FSHA1DC_TEST(a_, %d, %d) ^ FSHA1DC_TESTZ(b_, %d); \\' % (ma, ea, mb))
        body.append('\t\tFSHA1DC_BYDV_FENCE(); \\')
    head = file_head([
        'Generated by src/sha1/dc/gen_ubc.py from ubc_relations.tsv and dvs.tsv:',
        'do not edit (the test sha1dc_ubc_generated checks that this file is its',
        'output). SHA1DC\'s filter for one block at a time: byte lane d of a',
        '32-byte vector is DV d, and slot s is the s-th relation of each DV',
        '(%d slots, %d table lookups). The block\'s narrowed bytes (sha1_impl.h,' % (len(slot[0]), nlook),
        'nar) are five 16-byte tables, qwords 2q and 2q + 1 in table q. A',
        'slot\'s terms are picked from them by byte shuffles with the constant',
        'rows fsha1dc_bydv_k[] (0x80: nothing), their bits tested with a mask',
        'row: for lane d, FSHA1DC_TEST(a, m, e) is all ones when its bit of',
        'the first term equals c of the relation (row e), FSHA1DC_TESTZ(b, m)',
        'when its bit of the second term is 0; the XOR of the two is all ones',
        'where the relation fails. FSHA1DC_BYDV_FAIL(f) ors those into f:',
        'byte lane d of f is all ones when a relation of DV d fails, 0 when',
        'DV d survives. The includer defines FSHA1DC_BYDV_T (a vector of 32',
        'bytes), FSHA1DC_PICK(q, r) (table q shuffled by row r), FSHA1DC_TEST',
        'and FSHA1DC_TESTZ, FSHA1DC_BYDV_FENCE() (run after each slot: it may',
        'keep the compiler from hoisting every lookup to the top, as GCC 12',
        'does, and spilling them), and declares vectors a_ and b_.'])
    out = ['#define FSHA1DC_BYDV_NK %d' % len(rows),
           'static const FSHA1DC_BYDV_T fsha1dc_bydv_k[FSHA1DC_BYDV_NK] = {']
    for r in rows:
        out.append('\t{ ' + ', '.join('0x%02x' % v for v in r) + ' },')
    out.append('};')
    out.append('#define FSHA1DC_BYDV_FAIL(f) \\')
    out.append('\tdo { \\')
    out += body
    out.append('\t} while (0)')
    return '\n'.join(head + out) + '\n'


def generate_dvs():
    """The DV table's rows for sha1dc_check.c: { type, K, b, testt }, in mask-bit order."""
    out = ['/* SPDX-License-Identifier: MIT */',
           '/* Generated by src/sha1/dc/gen_ubc.py from dvs.tsv: do not edit. The 32 DVs,',
           ' * { type, K, b, testt } in the order of the filter\'s mask bits. (The DVs are',
           ' * data of the SHA1DC project, PROVENANCE.md: ' + NOTICE.replace('\n', ' ') + ') */']
    for r in rows('dvs.tsv'):
        if r[0] == 'dv_index':
            continue
        out.append('{ %d, %s, %s, %s }, /* %s: %s(%s,%s) */' %
                   (1 if r[1] == 'I' else 2, r[2], r[3], r[4], r[0], r[1], r[2], r[3]))
    return '\n'.join(out) + '\n'


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    outdir = args[0] if args else HERE
    status = 0
    for name, text in (('ubc_filter.inc', generate()), ('ubc_slices.inc', generate_slices()),
                       ('ubc_bydv.inc', generate_bydv()), ('ubc_dvs.inc', generate_dvs())):
        path = os.path.join(outdir, name)
        if check:
            with open(path) as f:
                if f.read() != text:
                    print('%s differs from the output of gen_ubc.py' % path, file=sys.stderr)
                    status = 1
        else:
            with open(path, 'w') as f:
                f.write(text)
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
