/* SPDX-License-Identifier: MIT */
/*
 * KangarooTwelve (KT128, RFC 9861) on TurboSHAKE128: the input S = M || C
 * || length_encode(|C|) is cut in 8 KiB chunks; up to one chunk, the hash
 * is TurboSHAKE128(S, 0x07). Past it, the final node takes S_0, the bytes
 * 03 00 00 00 00 00 00 00, then the 32-byte chaining value of each further
 * chunk (a leaf: TurboSHAKE128(S_i, 0x0B)), length_encode(n - 1) and
 * FF FF, and is hashed with domain 0x06.
 *
 * Streaming keeps the final node's sponge and the current leaf's: the
 * node absorbs S_0 as it comes, turns to tree mode (the 8-byte marker) when
 * the byte after S_0 arrives, and takes each leaf's chaining value when
 * the leaf's 8 KiB are in. Whole leaves handed over at once go to the lane
 * rows side by side where the CPU has them (leaves(): one long message
 * uses every lane, which no SHA-2 can).
 */
#include <string.h>

#include "../core/family.h"
#include "../core/sponge.h"
#include "keccak_family.h"

#define CHUNK 8192u
#define RATE 168u

void fsha_k12_init(struct fsha_k12_state *k)
{
	memset(k, 0, sizeof(*k));
	fsha_sponge_init(&k->node, RATE, 0x07, 12);
}

/* The chaining value of a complete leaf into the node. */
static void leaf_done(struct fsha_k12_state *k)
{
	uint8_t cv[32];
	fsha_sponge_pad(&k->leaf, 0, 0);
	fsha_sponge_squeeze(&k->leaf, cv, sizeof(cv));
	fsha_sponge_absorb(&k->node, cv, sizeof(cv));
	k->nleaves++;
}

/* @n whole leaves at @p, each CHUNK bytes, their chaining values into the
 * node in order: a batch of equal messages for the lane rows
 * (fsha_sponge_many()), a group at a time. */
static void leaves(struct fsha_k12_state *k, const uint8_t *p, size_t n)
{
	enum { GROUP = 4 * FSHA_MAX_LANES };
	fastsha_msg m[GROUP];
	uint8_t cv[GROUP * 32];
	while (n) {
		size_t g = n < GROUP ? n : GROUP;
		for (size_t i = 0; i < g; i++) {
			m[i].data = p + i * CHUNK;
			m[i].len = CHUNK;
		}
		fsha_sponge_many(RATE, 0x0b, 12, m, g, cv, 32);
		fsha_sponge_absorb(&k->node, cv, g * 32);
		k->nleaves += g;
		p += g * CHUNK;
		n -= g;
	}
}

void fsha_k12_update(struct fsha_k12_state *k, const void *data, size_t len)
{
	const uint8_t *p = data;
	while (len) {
		if (k->nbytes < CHUNK) { /* S_0 goes to the final node itself */
			size_t take = CHUNK - k->nbytes < len ? (size_t)(CHUNK - k->nbytes) : len;
			fsha_sponge_absorb(&k->node, p, take);
			k->nbytes += take, p += take, len -= take;
			continue;
		}
		if (k->nbytes == CHUNK) { /* more than one chunk: tree mode */
			static const uint8_t marker[8] = { 0x03 };
			fsha_sponge_absorb(&k->node, marker, sizeof(marker));
		}
		size_t pos = (size_t)((k->nbytes - CHUNK) % CHUNK);
		if (pos == 0 && len >= CHUNK) { /* whole leaves, straight from @p */
			size_t n = len / CHUNK;
			leaves(k, p, n);
			k->nbytes += (uint64_t)n * CHUNK, p += n * CHUNK, len -= n * CHUNK;
			continue;
		}
		if (pos == 0)
			fsha_sponge_init(&k->leaf, RATE, 0x0b, 12);
		size_t take = CHUNK - pos < len ? CHUNK - pos : len;
		fsha_sponge_absorb(&k->leaf, p, take);
		k->nbytes += take, p += take, len -= take;
		if (pos + take == CHUNK)
			leaf_done(k);
	}
}

/* length_encode(x) of RFC 9861: x big-endian without leading zeros, then
 * the count of those bytes; into @out (9 bytes), returning its length. */
static size_t length_encode(uint64_t x, uint8_t *out)
{
	size_t n = 0;
	for (uint64_t v = x; v && n < 8; v >>= 8) /* a uint64_t has 8 bytes */
		n++;
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
	out[n] = (uint8_t)n;
	return n + 1;
}

void fsha_k12_finish(struct fsha_k12_state *k, const void *custom, size_t customlen)
{
	uint8_t enc[9];
	fsha_k12_update(k, custom, customlen);
	fsha_k12_update(k, enc, length_encode(customlen, enc));
	if (k->nbytes <= CHUNK) { /* one chunk: TurboSHAKE128(S, 0x07) */
		fsha_sponge_pad(&k->node, 0, 0);
		return;
	}
	if ((k->nbytes - CHUNK) % CHUNK) /* the last leaf is short */
		leaf_done(k);
	size_t n = length_encode(k->nleaves, enc);
	fsha_sponge_absorb(&k->node, enc, n);
	/* Two bytes absorbed; eight in the object because the sponge XORs a
	 * word at a time (sponge.h), and GCC 12's -Warray-bounds on i686 took
	 * its word paths, which two bytes never reach, for reads past a
	 * two-byte array. */
	static const uint8_t ffff[8] = { 0xff, 0xff };
	fsha_sponge_absorb(&k->node, ffff, 2);
	k->node.domain = 0x06;
	fsha_sponge_pad(&k->node, 0, 0);
	fsha_wipe(&k->leaf, sizeof(k->leaf));
}

void fsha_k12_oneshot(const void *data, size_t len, const void *custom, size_t customlen,
		      uint8_t *out, size_t outlen)
{
	struct fsha_k12_state k;
	fsha_k12_init(&k);
	fsha_k12_update(&k, data, len);
	fsha_k12_finish(&k, custom, customlen);
	fsha_sponge_squeeze(&k.node, out, outlen);
	fsha_wipe(&k, sizeof(k));
}
