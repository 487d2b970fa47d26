/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_SPONGE_H
#define FSHA_CORE_SPONGE_H

/*
 * The one sponge engine (FIPS 202 section 4), for every Keccak-based
 * algorithm: absorbing bytes at a rate, the pad10*1 padding after a domain
 * suffix, squeezing. It knows no algorithm: each caller passes its rate,
 * its domain byte and its round count, and the permutation comes from the
 * Keccak family's active row (src/keccak/keccak_impl.h). The SHA-1/SHA-2
 * counterpart is md.h.
 *
 * The domain byte holds the bits FIPS 202 appends to the message, LSB
 * first, followed by the first bit of pad10*1: 0x06 for SHA-3 (suffix 01),
 * 0x1f for SHAKE (1111), 0x01 for the original Keccak (none; Ethereum's
 * Keccak-256), TurboSHAKE's D (0x01..0x7f) as RFC 9861 defines it. The
 * last bit of the padding is 0x80 in the block's last byte.
 *
 * Byte i of the state is byte i % 8 (little-endian) of lane i / 8.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../cpu/cpu.h"
#include "../keccak/keccak_impl.h"
#include "fastsha/sha3.h"
#include "wipe.h"

/* XOR @n bytes at @p into the state's bytes from @pos on. */
static inline void fsha_sponge_xor(uint64_t a[25], size_t pos, const uint8_t *p, size_t n)
{
	if (!FSHA_BIG_ENDIAN) {
		/* Little-endian lanes: the state's bytes. Eight at a time, then
		 * 4, 2, 1: the byte loop (vectorised, with its scalar prologue and
		 * tail) took 106 instructions an update of 13-byte SHA3-256
		 * pieces in the typed update against OpenSSL's 86 for the whole
		 * EVP_DigestUpdate (callgrind, bmi2, Zen 2; counts after in the
		 * commit). */
		uint8_t *s = (uint8_t *)a + pos;
		size_t i = 0;
		for (; i + 8 <= n; i += 8) {
			uint64_t x, y;
			memcpy(&x, s + i, 8);
			memcpy(&y, p + i, 8);
			x ^= y;
			memcpy(s + i, &x, 8);
		}
		if (n & 4) {
			uint32_t x, y;
			memcpy(&x, s + i, 4);
			memcpy(&y, p + i, 4);
			x ^= y;
			memcpy(s + i, &x, 4);
			i += 4;
		}
		if (n & 2) {
			uint16_t x, y;
			memcpy(&x, s + i, 2);
			memcpy(&y, p + i, 2);
			x ^= y;
			memcpy(s + i, &x, 2);
			i += 2;
		}
		if (n & 1)
			s[i] ^= p[i];
		return;
	}
	for (size_t i = 0; i < n; i++, pos++)
		a[pos / 8] ^= (uint64_t)p[i] << (8 * (pos % 8));
}

/* Copy @n of the state's bytes from @pos on to @out. */
static inline void fsha_sponge_extract(const uint64_t a[25], size_t pos, uint8_t *out, size_t n)
{
	if (!FSHA_BIG_ENDIAN) {
		memcpy(out, (const uint8_t *)a + pos, n);
		return;
	}
	for (size_t i = 0; i < n; i++, pos++)
		out[i] = (uint8_t)(a[pos / 8] >> (8 * (pos % 8)));
}

/* Start @s for @rate bytes a block, domain byte @domain, @rounds rounds. */
static inline void fsha_sponge_init(struct fastsha3_state *s, size_t rate, uint8_t domain,
				    unsigned rounds)
{
	memset(s, 0, sizeof(*s));
	s->rate = (uint16_t)rate;
	s->domain = domain;
	s->rounds = (uint8_t)rounds;
}

/* Absorb @len bytes at @data (NULL when @len is 0). Whole blocks go to the
 * backend straight from the caller's memory. */
static inline void fsha_sponge_absorb(struct fastsha3_state *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	const size_t rate = s->rate;
	if (!len)
		return;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	const struct fsha_keccak_backend *b = fsha_keccak_active();
	if (s->pos) {
		size_t take = rate - s->pos < len ? rate - s->pos : len;
		fsha_sponge_xor(s->a, s->pos, p, take);
		s->pos += (uint32_t)take;
		p += take;
		len -= take;
		if (s->pos < rate)
			return;
		b->permute(s->a, s->rounds);
		s->pos = 0;
	}
	if (len >= rate) {
		size_t n = len / rate;
		b->absorb(s->a, p, n, rate, s->rounds);
		p += n * rate;
		len -= n * rate;
	}
	if (len) {
		fsha_sponge_xor(s->a, 0, p, len);
		s->pos = (uint32_t)len;
	}
}

/*
 * Pad what was absorbed and permute: the domain byte at the current
 * position, then @nbits (0..7) message bits taken from the top of @last
 * before it (FIPS 202 writes bit strings LSB first in a byte, so the
 * message's next bits, first to last, go from bit 0 up, and the domain
 * bits after them), 0x80 in the block's last byte. The domain's top bit
 * is pad10*1's first 1; when it lands on the block's last bit (135 bytes
 * and 5 bits for SHA3-256), the closing 1 ends a block of its own. Afterwards
 * the state squeezes from byte 0.
 */
static inline void fsha_sponge_pad(struct fastsha3_state *s, uint8_t last, unsigned nbits)
{
	const size_t rate = s->rate;
	uint8_t pad[2] = { 0, 0 };
	/* The message bits, reversed into LSB-first order. */
	for (unsigned i = 0; i < nbits; i++)
		pad[0] |= (uint8_t)(((last >> (7 - i)) & 1) << i);
	unsigned v = (unsigned)s->domain << nbits; /* up to 15 bits */
	pad[0] |= (uint8_t)v;
	pad[1] = (uint8_t)(v >> 8);
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	const struct fsha_keccak_backend *b = fsha_keccak_active();
	fsha_sponge_xor(s->a, s->pos, pad, 1);
	if (pad[1]) { /* the domain spilled into the next byte */
		if (s->pos + 1 == rate) {
			b->permute(s->a, s->rounds);
			s->pos = 0;
			fsha_sponge_xor(s->a, 0, pad + 1, 1);
		} else {
			fsha_sponge_xor(s->a, s->pos + 1, pad + 1, 1);
		}
	} else if (v >> 7 == 1 && s->pos + 1 == rate) {
		/* pad10*1's first 1 (the domain's top bit) took the block's last
		 * bit: the closing 1 goes alone at the end of another block */
		b->permute(s->a, s->rounds);
		s->pos = 0;
	}
	const uint8_t end = 0x80;
	fsha_sponge_xor(s->a, rate - 1, &end, 1);
	b->permute(s->a, s->rounds);
	s->pos = 0;
	s->squeezing = 1;
}

/* The next @n output bytes of a padded state. */
static inline void fsha_sponge_squeeze(struct fastsha3_state *s, uint8_t *out, size_t n)
{
	const size_t rate = s->rate;
	const struct fsha_keccak_backend *b = NULL;
	if (!rate) /* a context TurboSHAKE's init refused: no output (the loop would never end) */
		return;
	while (n) {
		if (s->pos == rate) {
			if (!b) {
				(void)fsha_cpu_clean_upper(NULL);
				b = fsha_keccak_active();
			}
			b->permute(s->a, s->rounds);
			s->pos = 0;
		}
		size_t take = rate - s->pos < n ? rate - s->pos : n;
		fsha_sponge_extract(s->a, s->pos, out, take);
		s->pos += (uint32_t)take;
		out += take;
		n -= take;
	}
}

/* The first @n output bytes of what @s absorbed, @s unchanged. */
static inline void fsha_sponge_final(const struct fastsha3_state *s, uint8_t last, unsigned nbits,
				     uint8_t *out, size_t n)
{
	struct fastsha3_state t = *s;
	fsha_sponge_pad(&t, last, nbits);
	fsha_sponge_squeeze(&t, out, n);
	fsha_wipe(&t, sizeof(t));
}

#endif
