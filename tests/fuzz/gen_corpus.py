#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz_digest.c to tests/fuzz/corpus/ (run from
anywhere; the output is the same every time).

Each seed is fuzz_digest's input: header byte 0 (split count | nbits << 4 |
running << 7), byte 1 (the partial byte), byte 2 (misalignment), two bytes
per split point, then the message. Messages have lengths around the 64- and
128-byte block boundaries, where padding spills into another block; the
split seeds put update boundaries there too. File names say what is in them.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")


def noise(n, seed):
    """n bytes of xorshift64 noise: not compressible, not all zero."""
    s = (0x9E3779B97F4A7C15 ^ (seed * 0x100000001B3)) & (2**64 - 1)
    out = bytearray()
    for _ in range(n):
        s ^= (s << 13) & (2**64 - 1)
        s ^= s >> 7
        s ^= (s << 17) & (2**64 - 1)
        out.append((s >> 24) & 0xFF)
    return bytes(out)


def seed(length, splits=(), nbits=0, last=0, off=0, running=False):
    head = bytes([len(splits) | nbits << 4 | (0x80 if running else 0), last, off])
    return head + b"".join(struct.pack("<H", p) for p in splits) + noise(length, length)


def main():
    seeds = {}
    # One-shot lengths around the boundaries: SHA-1/224/256 pad past 55
    # bytes of a 64-byte block, SHA-384/512 past 111 of a 128-byte block.
    for i, n in enumerate([0, 1, 3, 55, 56, 57, 63, 64, 65, 111, 112, 113, 119, 120,
                           127, 128, 129, 191, 192, 255, 256, 257, 1000]):
        nbits = i % 8  # every bit count 0..7 occurs
        seeds[f"len{n:04d}-nbits{nbits}-off{i % 16}"] = seed(n, nbits=nbits, last=0xA5 ^ i,
                                                            off=i % 16)
    # Update boundaries on and around the block edges.
    seeds["len0128-split-63-64-65"] = seed(128, (63, 64, 65))
    seeds["len0256-split-1-55-56-64-111-112-128"] = seed(256, (1, 55, 56, 64, 111, 112, 128),
                                                         running=True)
    seeds["len0300-split-127-128-129-255-256"] = seed(300, (127, 128, 129, 255, 256), nbits=7,
                                                      last=0xFF, off=3)
    seeds["len0200-split-every-13"] = seed(200, tuple(range(13, 200, 13)), nbits=1, last=0x80)
    seeds["len0129-split-0-0-129"] = seed(129, (0, 0, 129), running=True)
    seeds["len0064-split-32-running"] = seed(64, (32,), nbits=4, last=0x5A, off=15,
                                             running=True)
    seeds["len1024-split-64-640"] = seed(1024, (64, 640), off=8)
    seeds["len4000-split-2048"] = seed(4000, (2048,), nbits=3, last=0x3C, off=1,
                                       running=True)

    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    for name, data in sorted(seeds.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds)} seeds to {OUT}")


if __name__ == "__main__":
    main()
