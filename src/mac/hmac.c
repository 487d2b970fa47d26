/* SPDX-License-Identifier: MIT */
/*
 * HMAC (RFC 2104, FIPS 198-1) on the family engine: prepared keys, the
 * one-shot, streaming, batches under one key, and the constant-time
 * comparison. A prepared key is the two chaining values after the padded
 * key's blocks (BearSSL's br_hmac_key_context and OpenSSL's HMAC_CTX keep
 * the same), so an HMAC of an n-block message costs n + 1 inner
 * compressions and one outer, as a hash of it would cost n + 1.
 */
#include <string.h>

#include "fastsha/mac.h"
#include "fastsha/sha1.h"
#include "fastsha/sha256.h"
#include "fastsha/sha512.h"
#include "mac_impl.h"

/* The streaming state of any family fits the context's room for it. */
_Static_assert(sizeof(struct fastsha512_state) <= sizeof(((fastsha_hmac_ctx *)0)->inner.bytes),
	       "fastsha_hmac_ctx too small for the SHA-512 state");
_Static_assert(sizeof(struct fastsha256_state) <= sizeof(((fastsha_hmac_ctx *)0)->inner.bytes),
	       "fastsha_hmac_ctx too small for the SHA-256 state");
_Static_assert(sizeof(fastsha1_ctx) <= sizeof(((fastsha_hmac_ctx *)0)->inner.bytes),
	       "fastsha_hmac_ctx too small for the SHA-1 state");

const struct fsha_variant *fsha_mac_variant(int alg)
{
	const struct fsha_variant *v = fsha_variant_of(alg);
	/* SHA1DC: refused, see mac.h. */
	return v && !v->many_detect ? v : NULL;
}

/*
 * What preparing a key leaves where fsha_mac_prepare_s()'s wipes do not
 * reach. The compression kernels load the padded key's blocks into vector
 * registers: those are cleared here, in every build (a few cycles, once per
 * prepared key; whatever runs next may save them to the stack, as ld.so's
 * lazy binding saved 12 bytes of key XOR ipad in the command's Release
 * build). At -O0 the compiler also spills every one of them to the
 * kernels' frames (a Debug build's SHA-NI lane kernel left 16-byte pieces
 * of key XOR opad there, found by the command's cli_hmac_key), so an
 * unoptimised build overwrites the 16 KB of stack below this frame too,
 * as deep as those frames go with room to spare. Optimised builds spill
 * far less and leave that to the option FASTSHA_WIPE_STACK (mac_impl.h):
 * 16 KB a call would take HKDF-SHA256 from 0.58 to about 0.9 us.
 */
__attribute__((noinline)) static void scrub_after_prepare(void)
{
#if !defined(__OPTIMIZE__)
	fsha_wipe_stack(16384);
#endif
	fsha_cpu_clear_vregs();
}

/* Its frame and its callees' lie below the entry point's, where
 * fsha_wipe_stack() clears them in a build that does (FSHA_MAC_FRAME). */
FSHA_MAC_FRAME_EXTERN void fsha_mac_prepare(const struct fsha_variant *v, const void *key,
					    size_t keylen, uint8_t *inner, uint8_t *outer)
{
	FSHA_MAC_SIZED(v, fsha_mac_prepare_s, v, key, keylen, inner, outer);
	scrub_after_prepare();
}

/* The prepared key @k's variant, or NULL when @k is not a prepared key. */
static const struct fsha_variant *key_variant(const fastsha_hmac_key *k)
{
	if (!k || k->reserved != FSHA_MAC_MAGIC(k->alg))
		return NULL;
	return fsha_mac_variant((int)k->alg);
}

int fastsha_hmac_key_init(fastsha_hmac_key *k, fastsha_alg alg, const void *key, size_t keylen)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!v) {
		/* Refused, not left as it was: a caller that ignores the -1
		 * must not go on under the key @k held before. */
		fastsha_hmac_key_wipe(k);
		return -1;
	}
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	memset(k, 0, sizeof(*k));
	fsha_mac_prepare(v, key, keylen, k->u.bytes, k->u.bytes + 64);
	k->alg = (uint32_t)alg;
	k->reserved = FSHA_MAC_MAGIC(alg);
	fsha_mac_wipe_stack(FSHA_MAC_STACK_ONESHOT); /* the kernels' spills of the two blocks */
	return 0;
}

void fastsha_hmac_key_wipe(fastsha_hmac_key *k)
{
	if (!k)
		return;
	fsha_wipe(k, sizeof(*k));
	k->alg = UINT32_MAX; /* refused from now on: no algorithm, no magic */
}

/* fastsha_hmac() at constant sizes. */
FSHA_ALWAYS void hmac_s(const struct fsha_md_shape *S, const size_t d,
			const struct fsha_variant *v, const void *key, size_t keylen,
			const uint8_t *msg, size_t len, uint8_t *out)
{
	_Alignas(64) uint8_t inner[64], outer[64];
	const fsha_mac_end_fn end = fsha_mac_end_of(S, d);
	if (end) {
		/* The message's last blocks first: their stores reach the
		 * cache while the key's blocks are hashed. Built after, the
		 * inner hash's 16-byte loads of them, which the store buffer
		 * cannot serve from the copy's and the padding's overlapping
		 * stores, waited for those stores, which wait in turn for the
		 * key's compression to retire. */
		_Alignas(64) uint8_t blk[3 * FSHA_MAX_BLOCK];
		const size_t k = fsha_mac_tail_s(S, msg, len, blk);
		fsha_mac_prepare_s(S, d, v, key, keylen, inner, outer);
		fsha_mac_tail_end_s(S, d, end, inner, outer, msg, len, blk, k, out);
	} else {
		fsha_mac_prepare_s(S, d, v, key, keylen, inner, outer);
		fsha_mac_oneshot_s(S, d, inner, outer, msg, len, out);
	}
	fsha_wipe(inner, sizeof(inner));
	fsha_wipe(outer, sizeof(outer));
}

/* Its frame lies below fastsha_hmac()'s, where fsha_wipe_stack() clears
 * it in a build that does (FSHA_MAC_FRAME_EXTERN). */
FSHA_MAC_FRAME_EXTERN void fsha_mac_hmac(const struct fsha_variant *v, const void *key,
					 size_t keylen, const uint8_t *msg, size_t len,
					 uint8_t *out)
{
	static const uint8_t none[1];
	FSHA_MAC_SIZED(v, hmac_s, v, key, keylen, len ? msg : none, len, out);
}

int fastsha_hmac(fastsha_alg alg, const void *key, size_t keylen, const void *msg, size_t len,
		 uint8_t *out)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!v)
		return -1;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	fsha_mac_hmac(v, key, keylen, msg, len, out);
	fsha_mac_wipe_stack(FSHA_MAC_STACK_ONESHOT);
	return 0;
}

int fastsha_hmac_init(fastsha_hmac_ctx *c, const fastsha_hmac_key *k)
{
	const struct fsha_variant *v = key_variant(k);
	if (!v) {
		/* Refused as a finished context is: a caller that ignores the
		 * -1 must not go on with the computation @c held before. */
		fsha_wipe(c, sizeof(*c));
		c->alg = UINT32_MAX;
		return -1;
	}
	/* Whole copies of fixed size: cheaper than the words alone at a
	 * run-time size (a library call). */
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	memcpy(c->inner.bytes, k->u.bytes, 64);
	memcpy(c->outer.bytes, k->u.bytes + 64, 64);
	*(uint32_t *)(c->inner.bytes + v->shape->off_buflen) = 0;
	*(uint64_t *)(c->inner.bytes + v->shape->off_nbytes) = v->shape->bsize;
	c->alg = k->alg;
	c->reserved = k->reserved;
	return 0;
}

/* The context @c's variant, or NULL when it is not a live context. */
static const struct fsha_variant *ctx_variant(const fastsha_hmac_ctx *c)
{
	if (c->reserved != FSHA_MAC_MAGIC(c->alg))
		return NULL;
	return fsha_mac_variant((int)c->alg);
}

void fastsha_hmac_update(fastsha_hmac_ctx *c, const void *data, size_t len)
{
	const struct fsha_variant *v = ctx_variant(c);
	if (v) /* the typed update's engine, specialised for the shape (family.h) */
		v->absorb(c->inner.bytes, data, len);
}

/* fastsha_hmac_final()'s hashing, in a frame of its own for
 * fsha_wipe_stack() to clear where it does (FSHA_MAC_FRAME). */
FSHA_MAC_FRAME void final_run(const struct fsha_variant *v, const fastsha_hmac_ctx *c,
			      uint8_t *out)
{
	FSHA_MAC_SIZED(v, fsha_mac_final_s, c->inner.bytes, c->outer.bytes, out);
}

int fastsha_hmac_final(fastsha_hmac_ctx *c, uint8_t *out)
{
	const struct fsha_variant *v = ctx_variant(c);
	if (!v)
		return -1;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	final_run(v, c, out);
	fsha_wipe(c, sizeof(*c));
	c->alg = UINT32_MAX; /* finished: refused until initialised again */
	/* The outer hash's kernel spills the outer words (SHA-NI's SHA-1 and
	 * SHA-256, avx2_x8, the portable SHA-512); update() leaves only the
	 * running inner state, which the context holds anyway. */
	fsha_mac_wipe_stack(FSHA_MAC_STACK_FINAL);
	return 0;
}

int fastsha_hmac_many(const fastsha_hmac_key *k, const fastsha_msg *msgs, size_t n, uint8_t *out)
{
	const struct fsha_variant *v = key_variant(k);
	if (!v || !fsha_fits(n, v->outlen))
		return -1;
	/* One batch: each lane runs a message's inner hash from the inner
	 * words, then at once the outer hash of its digest from the outer
	 * words (struct fsha_from), with no second pass over the batch. */
	const struct fsha_from f = { k->u.bytes, v->shape->bsize, 1, k->u.bytes + 64 };
	fsha_many_from(v, &f, msgs, n, out);
	/* The lanes' frames hold the inner and outer words: one message takes
	 * the one-shot's path, more the lane scheduler's larger frame. */
	if (n)
		fsha_mac_wipe_stack(n == 1 ? FSHA_MAC_STACK_FINAL : FSHA_MAC_STACK_BATCH);
	return 0;
}

void fastsha_wipe(void *p, size_t len)
{
	if (len)
		fsha_wipe(p, len);
}

int fastsha_equal(const void *a, const void *b, size_t len)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t diff = 0;
	/* Every byte is read whatever came before: no early exit. The
	 * volatile reads keep the compiler from making the loop stop at the
	 * first difference. */
	for (size_t i = 0; i < len; i++)
		diff |= (uint8_t)(x[i] ^ y[i]);
	/* 1 when diff is 0, without a branch on it. */
	return (int)(1 & ((diff - 1u) >> 8));
}
