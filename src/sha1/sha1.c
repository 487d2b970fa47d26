/* SPDX-License-Identifier: MIT */
/*
 * init/update/final and the one-shot functions: the only place that buffers
 * partial blocks and pads. Backends see whole blocks only.
 */
#include <string.h>

#include "fastsha/sha1.h"
#include "sha1_impl.h"

static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

void fastsha1_init(fastsha1_ctx *ctx)
{
	memcpy(ctx->h, iv, sizeof(iv));
	ctx->buflen = 0;
	ctx->nbytes = 0;
}

void fastsha1_update(fastsha1_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	if (len == 0)
		return;
	ctx->nbytes += len;
	if (ctx->buflen) {
		size_t take = 64 - ctx->buflen;
		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->buflen, p, take);
		ctx->buflen += (uint32_t)take;
		p += take;
		len -= take;
		if (ctx->buflen < 64)
			return;
		fsha1_active()->blocks(ctx->h, ctx->buf, 1);
		ctx->buflen = 0;
	}
	if (len >= 64) {
		size_t n = len / 64;
		fsha1_active()->blocks(ctx->h, p, n);
		p += n * 64;
		len -= n * 64;
	}
	if (len) {
		memcpy(ctx->buf, p, len);
		ctx->buflen = (uint32_t)len;
	}
}

/*
 * Pad and compress the tail of a message: @tail holds its last @tlen < 64
 * whole bytes, followed by @nbits (0..7) bits taken from the top of @last.
 * @nbytes is the message length in whole bytes. The bit length is
 * 8*nbytes + nbits modulo 2^64, as FIPS 180-4 defines it for every message
 * it allows (under 2^64 bits).
 */
static void finish(uint32_t h[5], const uint8_t *tail, size_t tlen, uint64_t nbytes, uint8_t last,
		   unsigned nbits, uint8_t out[20])
{
	/*
	 * The 1 bit and the zeros come from a constant, copied whole (64
	 * bytes from tlen on reach the length field for one block of padding
	 * or two). A fixed-size copy is four 16-byte stores; a variable memset
	 * plus a byte store wrote the block in pieces that the backend's
	 * 16-byte loads could not take straight from the store buffer. With
	 * the copy of the tail skipped when empty, 64-byte one-shots went
	 * from 1.15x to 1.25x OpenSSL with shani (fastsha-bench, Zen 3).
	 */
	static const uint8_t one_then_zeros[64] = { 0x80 };
	uint8_t block[128];
	if (tlen) /* no library call for whole-block messages */
		memcpy(block, tail, tlen);
	memcpy(block + tlen, one_then_zeros, 64);
	/* A trailing partial byte: the message's next bits, then the 1 bit. */
	if (nbits)
		block[tlen] = (uint8_t)((last & (0xff00u >> nbits)) | (0x80u >> nbits));
	size_t total = tlen + 1 + 8 <= 64 ? 64 : 128;
	uint64_t bits = nbytes * 8 + nbits;
	fsha1_store_be32(block + total - 8, (uint32_t)(bits >> 32));
	fsha1_store_be32(block + total - 4, (uint32_t)bits);
	fsha1_active()->blocks(h, block, total / 64);
	for (int i = 0; i < 5; i++)
		fsha1_store_be32(out + 4 * i, h[i]);
}

void fastsha1_final_bits(const fastsha1_ctx *ctx, uint8_t last, unsigned nbits, uint8_t out[20])
{
	uint32_t h[5];
	memcpy(h, ctx->h, sizeof(h));
	finish(h, ctx->buf, ctx->buflen, ctx->nbytes, last, nbits & 7, out);
}

void fastsha1_final(const fastsha1_ctx *ctx, uint8_t out[20])
{
	fastsha1_final_bits(ctx, 0, 0, out);
}

static void oneshot(const uint8_t *p, size_t len, uint8_t last, unsigned nbits, uint8_t out[20])
{
	uint32_t h[5];
	memcpy(h, iv, sizeof(h));
	size_t n = len / 64;
	if (n)
		fsha1_active()->blocks(h, p, n);
	finish(h, p + n * 64, len % 64, len, last, nbits, out);
}

void fastsha1(const void *data, size_t len, uint8_t out[20])
{
	/* A NULL pointer with len 0 must not reach memcpy, even for 0 bytes. */
	static const uint8_t none[1];
	oneshot(len ? data : none, len, 0, 0, out);
}

void fastsha1_bits(const void *data, uint64_t nbits, uint8_t out[20])
{
	static const uint8_t none[1];
	const uint8_t *p = nbits ? data : none;
	size_t len = (size_t)(nbits / 8);
	unsigned rem = (unsigned)(nbits % 8);
	oneshot(p, len, rem ? p[len] : 0, rem, out);
}
