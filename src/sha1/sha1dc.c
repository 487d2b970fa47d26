/* SPDX-License-Identifier: MIT */
/*
 * SHA-1 with collision detection (SHA1DC): the public one-message functions
 * (fastsha/sha1dc.h) on the one engine (core/md.h), the detection result,
 * and the descriptor's hooks (src/alg.c). The blocks go through
 * fsha1dc_compress() (sha1dc_driver.c); batches are sha1dc_many.c's. How
 * SHA1DC fits together, and which file holds what: sha1dc_impl.h.
 */
#include <string.h>

#include "fastsha/sha1dc.h"
#include "../core/family.h"
#include "../core/md.h"
#include "sha1dc_impl.h"

static int result(const fsha1dc_state *st, fastsha1dc_result *res)
{
	if (res) {
		memset(res, 0, sizeof(*res));
		if (st->hits) {
			const struct fsha1dc_dv *v = &fsha1dc_dvs[st->hit_dv];
			res->detected = 1;
			res->flagged = st->hits;
			res->block = st->hit_block;
			res->dv_type = v->type;
			res->dv_k = v->k;
			res->dv_b = v->b;
			res->dv_index = st->hit_dv;
		}
	}
	return st->hits != 0;
}

void fastsha1dc_init(fastsha1dc_ctx *ctx)
{
	fsha_md_init(&fsha1dc_shape, ctx, &fsha1dc_iv);
}

void fastsha1dc_init_opts(fastsha1dc_ctx *ctx, unsigned options)
{
	fsha_md_init(&fsha1dc_shape, ctx, &fsha1dc_iv);
	ctx->s.options = options & (FASTSHA1DC_SAFE_HASH | FASTSHA1DC_REDUCED_ROUND);
}

void fastsha1dc_update(fastsha1dc_ctx *ctx, const void *data, size_t len)
{
	fsha_md_absorb(&fsha1dc_shape, ctx, data, len);
}

/* The digest of streaming state @st plus @nbits bits of @last; the detection
 * result of the whole message. */
static int final_of(const void *st, uint8_t last, unsigned nbits, uint8_t *out,
		    fastsha1dc_result *res)
{
	const uint8_t *b = fsha_cpu_clean_upper(st); /* before any SSE instruction: cpu.h */
	fsha1dc_state s;
	memcpy(&s, b, sizeof(s));
	fsha_md_finish(&s, b + fsha1dc_shape.off_buf,
		       *(const uint32_t *)(b + fsha1dc_shape.off_buflen),
		       *(const uint64_t *)(b + fsha1dc_shape.off_nbytes), last, nbits & 7, 64, 8,
		       fsha1dc_compress);
	fsha_md_output(&fsha1dc_shape, s.h, out, 20);
	return result(&s, res);
}

int fastsha1dc_final_result(const fastsha1dc_ctx *ctx, uint8_t out[20], fastsha1dc_result *res)
{
	return final_of(ctx, 0, 0, out, res);
}

int fastsha1dc_final(const fastsha1dc_ctx *ctx, uint8_t out[20])
{
	return final_of(ctx, 0, 0, out, NULL);
}

int fastsha1dc_final_bits(const fastsha1dc_ctx *ctx, uint8_t last, unsigned nbits, uint8_t out[20])
{
	return final_of(ctx, last, nbits, out, NULL);
}

int fastsha1dc_opts(const void *data, size_t len, unsigned options, uint8_t out[20],
		    fastsha1dc_result *res)
{
	static const uint8_t none[1];
	const fsha1dc_state *v = fsha_cpu_clean_upper(&fsha1dc_iv); /* before any SSE: cpu.h */
	fsha1dc_state s = *v;
	s.options = options & (FASTSHA1DC_SAFE_HASH | FASTSHA1DC_REDUCED_ROUND);
	/*
	 * The message's last blocks are copied with its padding and hashed in
	 * one call, those before them (whole runs of FSHA1DC_REC_CHUNK blocks)
	 * straight from @data: one filter run for the last at most 32 blocks,
	 * padding included, where hashing the body and then the padded tail
	 * took one run for the body's last partial run and one for the tail (a
	 * run costs about the same for 1 block as for 32; with AVX2, up to 10
	 * blocks take a filter per block instead). A short message is all tail.
	 */
	_Alignas(64) uint8_t buf[(FSHA1DC_REC_CHUNK + 2) * 64];
	const uint8_t *p = data;
	const size_t nfull = len / 64, tail = len % 64;
	const size_t npad = fsha_md_pad_blocks(tail, 64, 8);
	size_t front = (nfull + npad - 1) / FSHA1DC_REC_CHUNK * FSHA1DC_REC_CHUNK;
	if (front > nfull)
		front = nfull;
	if (front)
		fsha1dc_compress(&s, p, front);
	const size_t body = 64 * (nfull - front);
	if (body)
		memcpy(buf, p + 64 * front, body);
	const size_t k = fsha_md_pad(buf + body, len ? p + 64 * nfull : none, tail, len, 0, 0, 64, 8);
	fsha1dc_compress(&s, buf, nfull - front + k);
	fsha_md_output(&fsha1dc_shape, s.h, out, 20);
	return result(&s, res);
}

int fastsha1dc(const void *data, size_t len, uint8_t out[20])
{
	return fastsha1dc_opts(data, len, FASTSHA1DC_DEFAULT, out, NULL);
}

/* The descriptor's hooks (src/alg.c): the generic context's final, and a
 * one-shot with the digest only. */
static int final_detect(const void *st, uint8_t last, unsigned nbits, uint8_t *out)
{
	return final_of(st, last, nbits, out, NULL);
}

static void oneshot(const void *data, size_t len, uint8_t *out)
{
	fastsha1dc(data, len, out);
}

static size_t many_detect(const fastsha_msg *msgs, size_t n, uint8_t *out, uint8_t *detected)
{
	return fastsha1dc_many(msgs, n, (uint8_t(*)[20])out, detected);
}

static void absorb(void *st, const void *data, size_t len)
{
	fsha_md_absorb(&fsha1dc_shape, st, data, len);
}

const struct fsha_variant fsha_variant_1dc = { &fsha1dc_shape, &fsha1_family, &fsha1dc_iv, 20,
					       oneshot, final_detect, many_detect, absorb };
