/* SPDX-License-Identifier: MIT */
#ifndef FSHA_MAC_IMPL_H
#define FSHA_MAC_IMPL_H

/*
 * What HMAC (hmac.c), PBKDF2 and HKDF (kdf.c) share: the algorithms they
 * take, the prepared key's two chaining values, and the keyed hash of a
 * message from them. All on the family engine (src/core/md.h) and its lane
 * rows (src/core/lanes.c): no second copy of SHA.
 *
 * The cores below are always inlined with the family's sizes as constants
 * (FSHA_MAC_SIZED): with run-time sizes every copy, fill and padding was a
 * library call, and an HMAC of 64 bytes under a prepared key spent about a
 * third of its time outside the three compressions it needs.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastsha/mac.h"
#include "../core/family.h"

#define FSHA_ALWAYS static inline __attribute__((always_inline))

/* A key's words are checked against this (with the algorithm mixed in)
 * before use: a wiped or never-prepared key or context is refused. */
#define FSHA_MAC_MAGIC(alg) (0x4d414331u ^ (uint32_t)(alg))

/* The variant HMAC runs on for @alg, or NULL: out of range, or SHA1DC. */
const struct fsha_variant *fsha_mac_variant(int alg);

/*
 * FN(S, d, ...) with S the sizes of @v's family as constants (and its
 * streaming-state offsets and compression from the family's shape) and d
 * its digest length: SHA-1, SHA-256 and SHA-512 each get a copy with
 * every size known; SHA-224 and SHA-384/512-t share their family's with d
 * at run time.
 */
#define FSHA_MAC_SHAPE(v, B, LS, W, WS)                                                            \
	(&(const struct fsha_md_shape){ .bsize = B, .lsize = LS, .words = W, .wsize = WS,          \
					.ssize = (W) * (WS),                                       \
					.off_buflen = (v)->shape->off_buflen,                      \
					.off_nbytes = (v)->shape->off_nbytes,                      \
					.off_buf = (v)->shape->off_buf,                            \
					.compress = (v)->shape->compress,                          \
					.mac_end = (v)->shape->mac_end })
#define FSHA_MAC_SIZED(v, FN, ...)                                                                 \
	do {                                                                                       \
		const struct fsha_md_shape *S_ = (v)->shape;                                       \
		if (S_->bsize == 64 && S_->words == 5)                                             \
			FN(FSHA_MAC_SHAPE(v, 64, 8, 5, 4), 20, __VA_ARGS__);                       \
		else if (S_->bsize == 64 && (v)->outlen == 32)                                     \
			FN(FSHA_MAC_SHAPE(v, 64, 8, 8, 4), 32, __VA_ARGS__);                       \
		else if (S_->bsize == 64)                                                          \
			FN(FSHA_MAC_SHAPE(v, 64, 8, 8, 4), (v)->outlen, __VA_ARGS__);              \
		else if ((v)->outlen == 64)                                                        \
			FN(FSHA_MAC_SHAPE(v, 128, 16, 8, 8), 64, __VA_ARGS__);                     \
		else                                                                               \
			FN(FSHA_MAC_SHAPE(v, 128, 16, 8, 8), (v)->outlen, __VA_ARGS__);            \
	} while (0)

/*
 * RFC 2104's prepared key: the chaining words after the block of @key
 * XOR ipad (@inner) and XOR opad (@outer), @key first hashed when longer
 * than a block. The two blocks go through fsha_two_blocks() together.
 * The padded blocks and the hashed key are wiped.
 */
FSHA_ALWAYS void fsha_mac_prepare_s(const struct fsha_md_shape *S, const size_t d,
				    const struct fsha_variant *v, const void *key, size_t keylen,
				    uint8_t *inner, uint8_t *outer)
{
	const size_t B = S->bsize, ssz = S->words * S->wsize;
	_Alignas(64) uint8_t ipad[FSHA_MAX_BLOCK], opad[FSHA_MAX_BLOCK];
	_Alignas(8) uint8_t hk[FASTSHA_MAX_DIGEST_SIZE];
	const uint8_t *k = key;
	if (keylen > B) { /* RFC 2104: a long key is hashed first */
		fsha_md_digest_from(S, v->iv, 0, k, keylen, hk, d);
		k = hk;
		keylen = d;
	}
#if defined(__SSE2__)
	/*
	 * In 16-byte pieces, each stored whole: the kernels load the blocks
	 * in 16-byte pieces, which the CPU takes from the store buffer only
	 * when one store holds all of a piece (byte stores made each load
	 * wait for them to reach the cache; HKDF prepares a key the step
	 * before it hashes it). A piece the key ends in is gathered in
	 * registers, a byte at a time: nothing past the key is read.
	 */
	for (size_t i = 0; i < B; i += 16) {
		__m128i kv;
		if (i + 16 <= keylen) {
			kv = _mm_loadu_si128((const __m128i *)(k + i));
		} else {
			uint64_t lo = 0, hi = 0;
			for (size_t j = i; j < keylen; j++) { /* the same work for every key byte */
				const uint64_t x = (uint64_t)k[j] << (8 * ((j - i) & 7));
				if (j - i < 8)
					lo |= x;
				else
					hi |= x;
			}
			kv = _mm_set_epi64x((long long)hi, (long long)lo);
		}
		_mm_store_si128((__m128i *)(ipad + i), _mm_xor_si128(kv, _mm_set1_epi8(0x36)));
		_mm_store_si128((__m128i *)(opad + i), _mm_xor_si128(kv, _mm_set1_epi8(0x5c)));
	}
#else
	memset(ipad, 0x36, B);
	memset(opad, 0x5c, B);
	for (size_t i = 0; i < keylen; i++) { /* the same work for every key byte */
		ipad[i] ^= k[i];
		opad[i] ^= k[i];
	}
#endif
	memcpy(inner, v->iv, ssz);
	memcpy(outer, v->iv, ssz);
	fsha_two_blocks(v, inner, ipad, outer, opad);
	fsha_wipe(ipad, B);
	fsha_wipe(opad, B);
	if (k == hk)
		fsha_wipe(hk, sizeof(hk));
}

/* The block of a message one block and one digest long whose digest is
 * that of chaining words @w: the digest, then padding that is the same for
 * every such message (HMAC's outer hash; both hashes of a PBKDF2
 * iteration). */
FSHA_ALWAYS void fsha_mac_block_s(const struct fsha_md_shape *S, const size_t d, const uint8_t *w,
				  uint8_t *blk)
{
	fsha_md_digest_block(S, w, blk, d);
}

/*
 * The digest of chaining words @w, @d bytes to @out, as fsha_md_output();
 * on x86-64 SHA-256's in two 16-byte stores: HKDF's next step loads its
 * PRK and T(i) in 16-byte pieces, which wait for 4-byte stores to reach
 * the cache (HKDF-SHA256 4.80-4.84x OpenSSL -> 4.88-4.91x, fastsha-bench
 * --mac, Intel Xeon). Not in fsha_md_output() itself: SSE2's byte swap is
 * five operations a piece, and plain 16-byte SHA-256 one-shots lost 2%.
 */
FSHA_ALWAYS void fsha_mac_output_s(const struct fsha_md_shape *S, const size_t d, const uint8_t *w,
				   uint8_t *out)
{
#if defined(__SSE2__)
	if (S->wsize == 4 && d % 16 == 0) {
		for (size_t i = 0; i < d; i += 16)
			_mm_storeu_si128((__m128i *)(out + i),
					 fsha_bswap32_sse2(_mm_loadu_si128((const __m128i *)(w + i))));
		return;
	}
#endif
	fsha_md_output(S, w, out, d);
}

/*
 * The outer hash of the digest of the inner hash's final chaining words
 * @w, from the @outer words: @w becomes its chaining words. The outer
 * message is one block and a digest long, so its one block is the digest
 * and constant padding, built here without the general engine.
 */
FSHA_ALWAYS void fsha_mac_outer_words_s(const struct fsha_md_shape *S, const size_t d, uint8_t *w,
					const uint8_t *outer)
{
	_Alignas(64) uint8_t blk[FSHA_MAX_BLOCK];
	fsha_mac_block_s(S, d, w, blk);
	memcpy(w, outer, S->words * S->wsize);
	S->compress(w, blk, 1);
	fsha_wipe(blk, sizeof(blk));
}

/* The tag from the inner hash's final chaining words @w
 * (fsha_mac_outer_words_s()), into @out. @w is wiped. */
FSHA_ALWAYS void fsha_mac_outer_s(const struct fsha_md_shape *S, const size_t d, uint8_t *w,
				  const uint8_t *outer, uint8_t *out)
{
	fsha_mac_outer_words_s(S, d, w, outer);
	fsha_mac_output_s(S, d, w, out);
	fsha_wipe(w, 64);
}

/*
 * The active backend's fused HMAC end (core/backend.h, fsha_mac_end_fn) for
 * shape @S and digest length @d, or NULL. Only where the digest is the
 * whole state; SHA-1's and SHA-256's SHA-NI rows have one (the inner
 * hash's last blocks and the outer hash in registers, one call). Decided
 * by constants first, so the other sizes' copies carry no test.
 */
FSHA_ALWAYS fsha_mac_end_fn fsha_mac_end_of(const struct fsha_md_shape *S, const size_t d)
{
	if (d != S->words * S->wsize || !S->mac_end)
		return NULL;
	return S->mac_end();
}

/*
 * The tag from @n >= 1 padded blocks at @blocks (wiped here) still to go
 * into the inner words @w, through @end (fsha_mac_end_of(), not NULL).
 * @w is wiped.
 */
FSHA_ALWAYS void fsha_mac_fused_s(const struct fsha_md_shape *S, const size_t d,
				  fsha_mac_end_fn end, uint8_t *w, uint8_t *blocks, size_t n,
				  const uint8_t *outer, uint8_t *out)
{
	end(w, blocks, n, outer);
	fsha_mac_output_s(S, d, w, out);
	fsha_wipe(w, 64);
	fsha_wipe(blocks, n * S->bsize);
}

/*
 * The last blocks of an inner message of @len bytes at @msg (not NULL),
 * padded, into @blk (room for 3 * FSHA_MAX_BLOCK): its last whole block,
 * if any, in front of the padding, so that a fused end takes both.
 * Returns how many; the whole blocks before them (len / B - 1 when that
 * is more than 0) are compressed in place.
 */
FSHA_ALWAYS size_t fsha_mac_tail_s(const struct fsha_md_shape *S, const uint8_t *msg, size_t len,
				   uint8_t *blk)
{
	const size_t B = S->bsize, nb = len / B;
	size_t k = 0;
	if (nb) {
		memcpy(blk, msg + (nb - 1) * B, B);
		k = 1;
	}
	return k + fsha_md_pad(blk + k * B, msg + nb * B, len - nb * B, B + len, 0, 0, B,
			       S->lsize);
}

/* The tag of @len bytes at @msg under prepared words through @end
 * (fsha_mac_end_of()), the message's last @k blocks already in @blk
 * (fsha_mac_tail_s(); wiped here). */
FSHA_ALWAYS void fsha_mac_tail_end_s(const struct fsha_md_shape *S, const size_t d,
				     fsha_mac_end_fn end, const uint8_t *inner,
				     const uint8_t *outer, const uint8_t *msg, size_t len,
				     uint8_t *blk, size_t k, uint8_t *out)
{
	_Alignas(64) uint8_t w[64];
	memcpy(w, inner, S->words * S->wsize);
	if (len / S->bsize > 1)
		S->compress(w, msg, len / S->bsize - 1);
	fsha_mac_fused_s(S, d, end, w, blk, k, outer, out);
}

/* The tag of @len bytes at @msg (not NULL) under prepared words, on a
 * backend without a fused end (with one: fsha_mac_tail_s() and
 * fsha_mac_tail_end_s(), as hmac.c's hmac_s() does). */
FSHA_ALWAYS void fsha_mac_oneshot_s(const struct fsha_md_shape *S, const size_t d,
				    const uint8_t *inner, const uint8_t *outer, const uint8_t *msg,
				    size_t len, uint8_t *out)
{
	_Alignas(64) uint8_t w[64];
	memcpy(w, inner, S->words * S->wsize);
	fsha_md_oneshot(w, S->bsize, msg, len, 0, 0, S->bsize, S->lsize, S->compress, 1);
	fsha_mac_outer_s(S, d, w, outer, out);
}

/* The tag of the inner streaming state @st (not changed) and @outer. */
FSHA_ALWAYS void fsha_mac_final_s(const struct fsha_md_shape *S, const size_t d,
				  const uint8_t *st, const uint8_t *outer, uint8_t *out)
{
	_Alignas(64) uint8_t w[64];
	memcpy(w, st, S->words * S->wsize);
	const uint8_t *tail = st + S->off_buf;
	const uint32_t tlen = *(const uint32_t *)(st + S->off_buflen);
	const uint64_t nbytes = *(const uint64_t *)(st + S->off_nbytes);
	const fsha_mac_end_fn end = fsha_mac_end_of(S, d);
	if (end) {
		_Alignas(64) uint8_t blk[2 * FSHA_MAX_BLOCK];
		size_t k = fsha_md_pad(blk, tail, tlen, nbytes, 0, 0, S->bsize, S->lsize);
		fsha_mac_fused_s(S, d, end, w, blk, k, outer, out);
		return;
	}
	fsha_md_finish_w(w, tail, tlen, nbytes, 0, 0, S->bsize, S->lsize, S->compress, 1);
	fsha_mac_outer_s(S, d, w, outer, out);
}

/* A streaming inner state @st from prepared words @inner: the engine's
 * state as fsha_md_init() leaves it, with the key's block counted. */
FSHA_ALWAYS void fsha_mac_start_s(const struct fsha_md_shape *S, uint8_t *st,
				  const uint8_t *inner)
{
	memcpy(st, inner, S->words * S->wsize);
	*(uint32_t *)(st + S->off_buflen) = 0;
	*(uint64_t *)(st + S->off_nbytes) = S->bsize;
}

/*
 * How much stack below a keyed entry point its work may leave keyed words
 * in (spills, the kernels' saved registers), which it clears with
 * fsha_wipe_stack() once done: test_mac_residue's deepest use under any
 * SHA-1, SHA-256 or SHA-512 row this project could run, x86-64 GCC 12 -O3,
 * Zen 2, with room to spare (AVX-512 rows: FSHA_MAC_STACK_AVX512 below):
 * - ONESHOT: fastsha_hmac(), key_init, hkdf_extract: 4.8 KiB (avx2_x8's
 *   SHA-256 lanes hashing the key's two blocks; SHA-NI 2.8 KiB);
 * - KDF: fastsha_hkdf(), hkdf_expand: 5.9 KiB (the same);
 * - FINAL: fastsha_hmac_final(), hmac_many of one message: 3.1 KiB
 *   (avx2_x8's SHA-256 outer hash; SHA-NI 0.7 KiB);
 * - BATCH: hmac_many of two or more: 14 KiB (the lane scheduler's frame).
 * At 0.074 instructions a byte (fsha_wipe_stack()), ONESHOT adds 485 to a
 * 64-byte fastsha_hmac(): 9.3% of HMAC-SHA1's 5,206 under avx2, 4.5% and
 * 4.0% of SHA-256's and SHA-512's (callgrind, 2026-12); FINAL adds 329 to
 * a prepared key's init/update/final of 64 bytes, 9.9% for SHA-1. Under
 * SHA-NI, which callgrind cannot run, an HMAC is fewer instructions and
 * the share larger (about a third for SHA-1, by the kernels' sizes).
 */
enum {
	FSHA_MAC_STACK_ONESHOT = 6144,
	FSHA_MAC_STACK_KDF = 8192,
	FSHA_MAC_STACK_FINAL = 4096,
	FSHA_MAC_STACK_BATCH = 16384,
	/*
	 * More on a CPU with AVX-512, whose 16-lane rows keep bigger frames:
	 * test_mac_residue under SHA-512's avx512_x16 found keyed words 8.8
	 * KiB deep for the one-shot HMAC and hkdf_extract, 9.1 KiB for HKDF,
	 * 8.3 KiB for hmac_many of one message and 18.9 KiB of 17, and SHA-256's
	 * avx512_x16 4.2 KiB for hmac_final (the wipe build, Intel Xeon of the
	 * Emerald Rapids line, 2026-12-05); all four depths past the ones
	 * above, all within them plus this.
	 */
	FSHA_MAC_STACK_AVX512 = 8192,
};

/* How far below the entry point to clear for a call whose depth is @n
 * (an FSHA_MAC_STACK_ value) on this CPU. */
static inline size_t fsha_mac_stack(size_t n)
{
#if defined(__x86_64__)
	if (atomic_load_explicit(&fsha_cpu_cache, memory_order_relaxed) & FSHA_CPU_AVX512F)
		return n + FSHA_MAC_STACK_AVX512;
#endif
	return n;
}

/*
 * HMAC's and HKDF's clearing, only in a build with the option
 * FASTSHA_WIPE_STACK (CMakeLists.txt): at about 20 ns a KiB on Zen 2
 * (16-byte stores, one a cycle), 6 KiB took an HMAC of 64 bytes from 0.23
 * to 0.35 us under SHA-NI and the prepared key's init/update/final from
 * 0.16 to 0.24 (fastsha-bench --mac, 2026-12-05), below the 1.8x of
 * OpenSSL's keyed re-init that issue 28 asks. PBKDF2 always clears
 * (fsha_wipe_stack() directly).
 *
 * fsha_mac_wipe_stack() is that clearing. The work of a call that clears
 * after it runs in a frame of its own below the entry point's, where
 * fsha_wipe_stack() reaches it: out of line only in a build that clears,
 * inlined into the entry point otherwise, as before the option (out of
 * line, the prepared key's SHA-512 init/update/final took 0.48 us against
 * 0.46). FSHA_MAC_FRAME for static functions, FSHA_MAC_FRAME_EXTERN for
 * the ones kdf.c calls too.
 */
#if defined(FASTSHA_WIPE_STACK) && FASTSHA_WIPE_STACK
#define FSHA_MAC_FRAME static __attribute__((noinline))
#define FSHA_MAC_FRAME_EXTERN __attribute__((noinline))
#define fsha_mac_wipe_stack(n) fsha_wipe_stack(fsha_mac_stack(n))
#else
#define FSHA_MAC_FRAME FSHA_ALWAYS
#define FSHA_MAC_FRAME_EXTERN
#define fsha_mac_wipe_stack(n) ((void)(n))
#endif

/* fsha_mac_prepare_s() at @v's sizes. */
void fsha_mac_prepare(const struct fsha_variant *v, const void *key, size_t keylen,
		      uint8_t *inner, uint8_t *outer);

/* fastsha_hmac()'s work (@msg may be NULL when @len is 0), without its
 * stack clearing: for callers that clear once for all their work (HKDF). */
void fsha_mac_hmac(const struct fsha_variant *v, const void *key, size_t keylen,
		   const uint8_t *msg, size_t len, uint8_t *out);

#endif
