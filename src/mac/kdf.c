/* SPDX-License-Identifier: MIT */
/*
 * Key derivation on HMAC: PBKDF2 (RFC 8018, 5.2) and HKDF (RFC 5869).
 *
 * PBKDF2's output block i is F(P, S, c, i) = U1 ^ U2 ^ ... ^ Uc with
 * U1 = HMAC(P, S || INT(i)) and Uj = HMAC(P, Uj-1). After U1 every
 * iteration is two one-block compressions of the same shape, and the
 * blocks of one password, and of many passwords, are independent chains:
 * they run side by side in the lane kernels (fsha_chains(), lanes.c).
 */
#include <string.h>

#include "fastsha/mac.h"
#include "mac_impl.h"

/* How many chains one call of fsha_chains() takes: enough to fill the
 * widest lane row twice, few enough for the stack (about 8 KiB). */
enum { CHAINS = 2 * FSHA_MAX_LANES };

/* The words of a password's prepared key. */
struct pkey {
	_Alignas(64) uint8_t inner[64], outer[64];
};

/* Room for any family's streaming state (struct fastsha512_state). */
#define STATE_ROOM 208

/*
 * Chain @c for output block @blk of a password whose key is @key: U1, its
 * words as the sum so far, and the block holding U1 for the next
 * iteration. The inner hash of U1 takes the salt and INT(blk) through the
 * streaming engine; everything after it is fixed-shape.
 */
FSHA_ALWAYS void chain_init_s(const struct fsha_md_shape *S, const size_t d,
			      struct fsha_chain *c, const struct pkey *key, const void *salt,
			      size_t saltlen, uint32_t blk)
{
	_Alignas(64) uint8_t st[STATE_ROOM], w[64];
	const uint8_t be[4] = { (uint8_t)(blk >> 24), (uint8_t)(blk >> 16), (uint8_t)(blk >> 8),
				(uint8_t)blk };
	const size_t ssz = S->words * S->wsize;
	fsha_mac_start_s(S, st, key->inner);
	fsha_md_absorb(S, st, salt, saltlen);
	fsha_md_absorb(S, st, be, 4);
	memcpy(w, st, ssz);
	fsha_md_finish_w(w, st + S->off_buf, *(const uint32_t *)(st + S->off_buflen),
			 *(const uint64_t *)(st + S->off_nbytes), 0, 0, S->bsize, S->lsize,
			 S->compress, 1);
	fsha_mac_block_s(S, d, w, c->u);
	memcpy(w, key->outer, ssz);
	S->compress(w, c->u, 1);
	fsha_md_digest_block(S, w, c->u, d); /* U1 in place of the inner digest */
	memcpy(c->acc, w, ssz);
	c->inner = key->inner;
	c->outer = key->outer;
	fsha_wipe(st, sizeof(st));
	fsha_wipe(w, sizeof(w));
}

static void chain_init(const struct fsha_variant *v, struct fsha_chain *c, const struct pkey *key,
		       const void *salt, size_t saltlen, uint32_t blk)
{
	FSHA_MAC_SIZED(v, chain_init_s, c, key, salt, saltlen, blk);
}

/* Whether PBKDF2 can give @outlen bytes with @v (RFC 8018: at most
 * (2^32 - 1) blocks) and @iterations is allowed. */
static int pbkdf2_ok(const struct fsha_variant *v, uint32_t iterations, size_t outlen)
{
	if (!v || !iterations || !outlen)
		return 0;
	return (outlen - 1) / v->outlen < UINT32_MAX;
}

/*
 * PBKDF2 of @n passwords, @outlen bytes each into @out, the chains of
 * several passwords (and of several blocks of one) in each round of
 * fsha_chains(). Not inlined: its frame must lie below the entry point's,
 * where fsha_wipe_stack() clears it (GCC 12 spills a password's outer
 * words here).
 */
static __attribute__((noinline)) void pbkdf2_run(const struct fsha_variant *v,
						  const fastsha_msg *pws, const fastsha_msg *salts,
						  size_t n, uint32_t iterations, uint8_t *out,
						  size_t outlen)
{
	const size_t d = v->outlen;
	/* per password; not (outlen + d - 1) / d, which wraps a 32-bit size_t
	 * for outlen within d of SIZE_MAX (a length pbkdf2_ok() allows) */
	const uint64_t nblk = outlen / d + (outlen % d != 0);
	struct fsha_chain c[CHAINS];
	struct pkey keys[CHAINS];
	_Alignas(8) uint8_t t[FASTSHA_MAX_DIGEST_SIZE];
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	/* Walk (password, block) pairs in order, CHAINS at a time. */
	size_t p = 0, used_c = 0, used_k = 0;
	uint64_t b = 0;
	while (p < n) {
		size_t k = 0, kp = 0, p0 = p;
		uint64_t b0 = b;
		/* Prepare each password of this round once. */
		for (; k < CHAINS && p < n; k++) {
			if (b == 0 || k == 0) {
				fsha_mac_prepare(v, pws[p].data, pws[p].len, keys[kp].inner,
						 keys[kp].outer);
				kp++;
			}
			chain_init(v, &c[k], &keys[kp - 1], salts[p].data, salts[p].len,
				   (uint32_t)(b + 1));
			if (++b == nblk) {
				b = 0;
				p++;
			}
		}
		used_c = k > used_c ? k : used_c;
		used_k = kp > used_k ? kp : used_k;
		fsha_chains(v, c, k, iterations - 1);
		/* Write the round's blocks where they go. */
		size_t q = p0;
		uint64_t bb = b0;
		for (size_t j = 0; j < k; j++) {
			size_t off = (size_t)bb * d, take = outlen - off < d ? outlen - off : d;
			fsha_md_output(v->shape, c[j].acc, t, d);
			memcpy(out + q * outlen + off, t, take);
			if (++bb == nblk) {
				bb = 0;
				q++;
			}
		}
	}
	/* The entries the rounds filled, not the whole arrays: those are
	 * sized for twice the widest row (12 KiB), and clearing all of them
	 * cost every call about 2,000 instructions (callgrind, one password,
	 * one block), whatever it used. */
	fsha_wipe(c, used_c * sizeof(c[0]));
	fsha_wipe(keys, used_k * sizeof(keys[0]));
	fsha_wipe(t, sizeof(t));
}

/*
 * How much stack PBKDF2 clears below its entry point when done (with
 * fsha_wipe_stack()): where pbkdf2_run() and what it called (the lane
 * kernels among them) had their frames. test_mac found keyed words 15-19
 * KiB below the caller under every SHA-1, SHA-256 and SHA-512 backend
 * without it (x86-64, GCC 12 -O3, 2026-12-05); 32 KiB leaves room for
 * other compilers and targets. 0.34 us on Zen 2: nothing against a
 * password's thousands of iterations. Twice that under AddressSanitizer,
 * whose redzones make every frame larger: with SHA-256's and SHA-512's
 * avx512_x16 pinned (a 16-lane kernel hashing one message), test_mac
 * found keyed words 36 and 47 KiB below its frame with 32 KiB cleared
 * (clang 14 ASan, Intel Xeon, 2026-12-05; the first ASan run on AVX-512).
 */
#if defined(__SANITIZE_ADDRESS__)
#define PBKDF2_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PBKDF2_ASAN 1
#endif
#endif
#ifdef PBKDF2_ASAN
enum { PBKDF2_STACK = 65536 };
#else
enum { PBKDF2_STACK = 32768 };
#endif

int fastsha_pbkdf2(fastsha_alg alg, const void *pw, size_t pwlen, const void *salt,
		   size_t saltlen, uint32_t iterations, uint8_t *out, size_t outlen)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!pbkdf2_ok(v, iterations, outlen))
		return -1;
	const fastsha_msg p = { pw, pwlen }, s = { salt, saltlen };
	pbkdf2_run(v, &p, &s, 1, iterations, out, outlen);
	fsha_wipe_stack(PBKDF2_STACK);
	fsha_cpu_clear_vregs(); /* the chain kernels keep the keyed words in registers */
	return 0;
}

int fastsha_pbkdf2_many(fastsha_alg alg, const fastsha_msg *pws, const fastsha_msg *salts,
			size_t n, uint32_t iterations, uint8_t *out, size_t outlen)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!pbkdf2_ok(v, iterations, outlen) || !fsha_fits(n, outlen))
		return -1;
	if (n) {
		pbkdf2_run(v, pws, salts, n, iterations, out, outlen);
		fsha_wipe_stack(PBKDF2_STACK);
		fsha_cpu_clear_vregs(); /* as fastsha_pbkdf2() */
	}
	return 0;
}

int fastsha_hkdf_extract(fastsha_alg alg, const void *salt, size_t saltlen, const void *ikm,
			 size_t ikmlen, uint8_t *prk)
{
	/* An absent salt is a digest length of zeros (RFC 5869, 2.2), which
	 * as an HMAC key pads to the same block as the empty key. */
	return fastsha_hmac(alg, salt, saltlen, ikm, ikmlen, prk);
}

/*
 * HKDF-Expand's message for counter @ctr, T(i-1) || info || ctr with @pre
 * (0 or the digest length) bytes of T first, padded for a hash that has
 * taken the key's block, into @m (two blocks): T's bytes zero, for
 * put_t() to fill. Returns its blocks.
 */
FSHA_ALWAYS size_t expand_msg(const struct fsha_md_shape *S, uint8_t *m, size_t pre,
			      const void *info, size_t infolen, uint8_t ctr)
{
	const size_t B = S->bsize, len = pre + infolen + 1;
	const size_t k = (len + 1 + S->lsize + B - 1) / B;
	memset(m, 0, pre);
	if (infolen)
		memcpy(m + pre, info, infolen);
	m[len - 1] = ctr;
	memset(m + len, 0, k * B - len);
	m[len] = 0x80;
	fsha_store_be64(m + k * B - 8, (uint64_t)(B + len) * 8);
	return k;
}

/*
 * T(i-1), the digest of chaining words @w, into the first @d bytes of the
 * message @m (expand_msg()). On x86-64 in 16-byte stores, the last piece
 * merged with the message bytes after it: the compression's 16-byte loads
 * of @m are then served from the store buffer, where the digest's 4- or
 * 8-byte stores made them wait for the cache.
 */
FSHA_ALWAYS void put_t(const struct fsha_md_shape *S, const size_t d, const uint8_t *w,
		       uint8_t *m)
{
#if defined(__SSE2__)
	/* the first n < 16 bytes of a piece: from 16 - n */
	static const uint8_t ones[32] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	for (size_t i = 0; i < d; i += 16) {
		__m128i v = fsha_bswap32_sse2(_mm_loadu_si128((const __m128i *)(w + i)));
		if (S->wsize == 8) /* a 64-bit word's swapped halves trade places */
			v = _mm_shuffle_epi32(v, 0xb1);
		if (i + 16 > d) {
			const __m128i keep = _mm_loadu_si128((const __m128i *)(ones + 16 - (d - i)));
			v = _mm_or_si128(_mm_and_si128(keep, v),
					 _mm_andnot_si128(keep, _mm_loadu_si128((const __m128i *)(m + i))));
		}
		_mm_storeu_si128((__m128i *)(m + i), v);
	}
#else
	fsha_md_output(S, w, m, d);
#endif
}

/*
 * HKDF-Expand from prepared words (RFC 5869, 2.3): T(i) = HMAC(PRK,
 * T(i-1) || info || i), T(0) empty.
 *
 * Each message is at most two blocks when info is short (TLS 1.3's labels
 * are): built whole, the next counter's a step ahead in a second buffer,
 * so that only T's own 16-byte stores lie between one HMAC and the next
 * (put_t()), and hashed with the backend's fused end where it has one. A
 * compression's 16-byte loads of a message written in smaller pieces
 * since the compression before it wait for those stores to reach the
 * cache, which they do only after that compression retires. Intel Xeon,
 * fastsha-bench --mac --jobs hkdf, alternating builds: three streaming
 * updates and a final per T, 4.41-4.46x OpenSSL; one one-shot HMAC of the
 * joined message, 4.47-4.50x (both before the fused end); this, 4.97-5.07x
 * against 4.91-4.95x for that one-shot with the fused end (SHA-1, which
 * has no fused end: 4.84-4.96x from 4.57-4.59x). Building counters 1 and
 * 2 before Extract as well gained nothing (4.97-5.04x). Longer info goes
 * through streaming updates.
 */
FSHA_ALWAYS void expand_s(const struct fsha_md_shape *S, const size_t d, const struct pkey *key,
			  const void *info, size_t infolen, uint8_t *out, size_t outlen)
{
	const size_t B = S->bsize, ssz = S->words * S->wsize;
	_Alignas(8) uint8_t t[FASTSHA_MAX_DIGEST_SIZE];
	if (d + infolen + 1 + 1 + S->lsize <= 2 * B) {
		/* [0]: counter 1's message; [1], [2]: counter i's, i >= 2, by
		 * the parity of i */
		_Alignas(64) uint8_t m[3][2 * FSHA_MAX_BLOCK], w[64];
		const fsha_mac_end_fn end = fsha_mac_end_of(S, d);
		const size_t k1 = expand_msg(S, m[0], 0, info, infolen, 1);
		size_t k2 = 0;
		for (size_t done = 0, i = 1; done < outlen; i++) {
			uint8_t *const blk = i == 1 ? m[0] : m[1 + (i & 1)];
			const size_t k = i == 1 ? k1 : k2;
			if (i > 1)
				put_t(S, d, w, blk);
			if (done + d < outlen) /* the next counter's, ahead of the hash */
				k2 = expand_msg(S, m[1 + ((i + 1) & 1)], d, info, infolen,
						(uint8_t)(i + 1));
			memcpy(w, key->inner, ssz);
			if (end) {
				end(w, blk, k, key->outer);
			} else {
				S->compress(w, blk, k);
				fsha_mac_outer_words_s(S, d, w, key->outer);
			}
			fsha_mac_output_s(S, d, w, t);
			size_t take = outlen - done < d ? outlen - done : d;
			memcpy(out + done, t, take);
			done += take;
		}
		fsha_wipe(w, sizeof(w));
		fsha_wipe(m[1], 2 * B); /* T(i-1) and its pieces */
		fsha_wipe(m[2], 2 * B);
		fsha_wipe(t, sizeof(t));
		return;
	}
	_Alignas(64) uint8_t st[STATE_ROOM];
	for (size_t done = 0, i = 1; done < outlen; i++) {
		uint8_t ctr = (uint8_t)i;
		fsha_mac_start_s(S, st, key->inner);
		if (i > 1)
			fsha_md_absorb(S, st, t, d);
		fsha_md_absorb(S, st, info, infolen);
		fsha_md_absorb(S, st, &ctr, 1);
		fsha_mac_final_s(S, d, st, key->outer, t);
		size_t take = outlen - done < d ? outlen - done : d;
		memcpy(out + done, t, take);
		done += take;
	}
	fsha_wipe(st, sizeof(st));
	fsha_wipe(t, sizeof(t));
}

/* Whether HKDF-Expand can give @outlen bytes with @v (at most 255 blocks). */
static int expand_ok(const struct fsha_variant *v, size_t outlen)
{
	return v && outlen && outlen <= 255 * v->outlen;
}

/* HKDF-Expand under PRK @prk (@prklen bytes, at least a digest). */
FSHA_ALWAYS void hkdf_expand_s(const struct fsha_md_shape *S, const size_t d,
			       const struct fsha_variant *v, const void *prk, size_t prklen,
			       const void *info, size_t infolen, uint8_t *out, size_t outlen)
{
	struct pkey key;
	fsha_mac_prepare_s(S, d, v, prk, prklen, key.inner, key.outer);
	expand_s(S, d, &key, info, infolen, out, outlen);
	fsha_wipe(&key, sizeof(key));
}

/* fastsha_hkdf_expand()'s work, in a frame of its own for
 * fsha_wipe_stack() to clear where it does (FSHA_MAC_FRAME). */
FSHA_MAC_FRAME void expand_run(const struct fsha_variant *v, const void *prk, size_t prklen,
			       const void *info, size_t infolen, uint8_t *out, size_t outlen)
{
	FSHA_MAC_SIZED(v, hkdf_expand_s, v, prk, prklen, info, infolen, out, outlen);
}

int fastsha_hkdf_expand(fastsha_alg alg, const void *prk, size_t prklen, const void *info,
			size_t infolen, uint8_t *out, size_t outlen)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!expand_ok(v, outlen) || prklen < v->outlen)
		return -1;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	expand_run(v, prk, prklen, info, infolen, out, outlen);
	fsha_mac_wipe_stack(FSHA_MAC_STACK_KDF);
	return 0;
}

/* fastsha_hkdf()'s work: extract and expand in one frame of their own, so
 * that one fsha_wipe_stack() clears after both. */
FSHA_MAC_FRAME void hkdf_run(const struct fsha_variant *v, const void *salt, size_t saltlen,
			     const void *ikm, size_t ikmlen, const void *info,
			     size_t infolen, uint8_t *out, size_t outlen)
{
	_Alignas(8) uint8_t prk[FASTSHA_MAX_DIGEST_SIZE];
	struct pkey key;
	fsha_mac_hmac(v, salt, saltlen, ikm, ikmlen, prk);
	fsha_mac_prepare(v, prk, v->outlen, key.inner, key.outer);
	FSHA_MAC_SIZED(v, expand_s, &key, info, infolen, out, outlen);
	fsha_wipe(prk, sizeof(prk));
	fsha_wipe(&key, sizeof(key));
}

int fastsha_hkdf(fastsha_alg alg, const void *salt, size_t saltlen, const void *ikm,
		 size_t ikmlen, const void *info, size_t infolen, uint8_t *out, size_t outlen)
{
	const struct fsha_variant *v = fsha_mac_variant(alg);
	if (!expand_ok(v, outlen))
		return -1;
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	hkdf_run(v, salt, saltlen, ikm, ikmlen, info, infolen, out, outlen);
	fsha_mac_wipe_stack(FSHA_MAC_STACK_KDF);
	return 0;
}
