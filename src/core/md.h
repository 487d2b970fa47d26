/* SPDX-License-Identifier: MIT */
#ifndef FSHA_CORE_MD_H
#define FSHA_CORE_MD_H

/*
 * The one buffering and padding engine (Merkle-Damgard strengthening, FIPS
 * 180-4 5.1), for every family. It knows no family: each caller passes its
 * block size (64 or 128 bytes), its length-field size (8 or 16 bytes) and a
 * compression thunk. The functions are static inline and every call site
 * passes constants, so each family compiles to code specialised for its
 * sizes (fixed-size copies matter: see fsha_md_finish).
 *
 * Each entry below (init, absorb, final, digest) starts with
 * fsha_cpu_clean_upper(): a caller's dirty upper ymm state costs about 350
 * cycles at the first legacy-SSE instruction, and this engine's own copies
 * are such instructions, ahead of any kernel (cpu.h, docs/benchmarks.md).
 *
 * The message length is one uint64_t byte count. The bit length is
 * 8*nbytes + nbits modulo 2^64, which is exact for every message FIPS 180-4
 * allows SHA-1 and SHA-256 (under 2^64 bits); for the 128-bit length field
 * of SHA-384/512 the high word is nbytes >> 61, exact for any message of
 * fewer than 2^64 bytes, more than a size_t API can deliver.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "bytes.h"
#include "wipe.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "../cpu/cpu.h"

/* Compress @nblocks >= 1 whole blocks at @data into @state (the family's). */
typedef void (*fsha_compress_fn)(void *state, const uint8_t *data, size_t nblocks);

/* The largest block of any family: SHA-384/512's 128 bytes. */
#define FSHA_MAX_BLOCK 128

/*
 * Copy @n < FSHA_MAX_BLOCK bytes (a partial block) from @s to @d, which do
 * not overlap: a few fixed-size moves, the last of each size overlapping
 * the one before (0 < n < 8 takes at most three). A variable memcpy here
 * was a libc call (PLT, size dispatch, return) on every small update, and
 * the registers kept across it cost pushes in the update's frame: 46 + 12
 * instructions an update of 13-byte SHA-256 pieces in the typed update and
 * libc (callgrind, avx2, Zen 2); see the commit for the counts after.
 */
static inline void fsha_md_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n >= 16) {
		for (size_t i = 0; i + 16 < n; i += 16)
			memcpy(d + i, s + i, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/*
 * Add @len bytes at @data to a streaming computation: @state, a partial
 * block @buf of *@buflen bytes, *@nbytes so far. Whole blocks go to the
 * backend straight from the caller's memory; only a partial block is copied.
 */
static inline void fsha_md_update(void *state, uint8_t *buf, uint32_t *buflen, uint64_t *nbytes,
				  const void *data, size_t len, const size_t bsize,
				  fsha_compress_fn compress)
{
	const uint8_t *p = data;
	if (len == 0)
		return;
	*nbytes += len;
	if (*buflen) {
		size_t take = bsize - *buflen;
		if (take > len)
			take = len;
		fsha_md_copy(buf + *buflen, p, take);
		*buflen += (uint32_t)take;
		p += take;
		len -= take;
		if (*buflen < bsize)
			return;
		compress(state, buf, 1);
		*buflen = 0;
	}
	if (len >= bsize) {
		size_t n = len / bsize;
		compress(state, p, n);
		p += n * bsize;
		len -= n * bsize;
	}
	if (len) {
		fsha_md_copy(buf, p, len);
		*buflen = (uint32_t)len;
	}
}

/* How many blocks the padded tail of a message takes, 1 or 2, for a tail of
 * @tlen < bsize whole bytes (fsha_md_pad()): the 1 bit and the @lsize-byte
 * length field must fit after them. */
static inline size_t fsha_md_pad_blocks(size_t tlen, const size_t bsize, const size_t lsize)
{
	return tlen + 1 + lsize <= bsize ? 1 : 2;
}

/*
 * Write the padded tail of a message into @block (room for 2 * @bsize):
 * @tail holds its last @tlen < bsize whole bytes, followed by @nbits (0..7)
 * bits taken from the top of @last; @nbytes is the whole-byte length of the
 * message. @lsize is the length field's size, 8 or 16. Returns how many
 * blocks it takes, 1 or 2.
 */
static inline size_t fsha_md_pad(uint8_t *block, const uint8_t *tail, size_t tlen, uint64_t nbytes,
				 uint8_t last, unsigned nbits, const size_t bsize, const size_t lsize)
{
	/*
	 * The 1 bit and the zeros come from a constant, copied whole (bsize
	 * bytes from tlen on reach the length field for one block of padding
	 * or two). A fixed-size copy is a few 16-byte stores; a variable
	 * memset plus a byte store wrote the block in pieces that the
	 * backend's 16-byte loads could not take straight from the store
	 * buffer. With the copy of the tail skipped when empty, 64-byte SHA-1
	 * one-shots went from 1.15x to 1.25x OpenSSL with shani (fastsha-bench,
	 * Zen 3).
	 */
	static const uint8_t one_then_zeros[FSHA_MAX_BLOCK] = { 0x80 };
	if (tlen) /* no library call for whole-block messages */
		memcpy(block, tail, tlen);
	memcpy(block + tlen, one_then_zeros, bsize);
	/* A trailing partial byte: the message's next bits, then the 1 bit. */
	if (nbits)
		block[tlen] = (uint8_t)((last & (0xff00u >> nbits)) | (0x80u >> nbits));
	const size_t total = fsha_md_pad_blocks(tlen, bsize, lsize) * bsize;
	/* nbytes*8 has its low 3 bits clear, so adding nbits cannot carry. */
	fsha_store_be64(block + total - 8, nbytes * 8 + nbits);
	if (lsize == 16)
		fsha_store_be64(block + total - 16, nbytes >> 61);
	return total / bsize;
}

/* Pad the tail of a message as fsha_md_pad() and compress it into @state;
 * with @wipe (a constant: keyed callers) the block is cleared afterwards. */
static inline void fsha_md_finish_w(void *state, const uint8_t *tail, size_t tlen,
				    uint64_t nbytes, uint8_t last, unsigned nbits,
				    const size_t bsize, const size_t lsize, fsha_compress_fn compress,
				    const int wipe)
{
	/* Cache-line aligned: where the frame put it, 64-byte SHA-384
	 * one-shots ran 1.03x OpenSSL against 1.13x aligned, for the same
	 * code, in every one of 6 alternating runs (fastsha-bench, Zen 3).
	 * The cause is not pinned down: the avx2 backend's 16-byte loads of
	 * an aligned block do not split lines. */
	_Alignas(64) uint8_t block[2 * FSHA_MAX_BLOCK];
	size_t n = fsha_md_pad(block, tail, tlen, nbytes, last, nbits, bsize, lsize);
	compress(state, block, n);
	if (wipe)
		fsha_wipe(block, n * bsize);
}

static inline void fsha_md_finish(void *state, const uint8_t *tail, size_t tlen, uint64_t nbytes,
				  uint8_t last, unsigned nbits, const size_t bsize,
				  const size_t lsize, fsha_compress_fn compress)
{
	fsha_md_finish_w(state, tail, tlen, nbytes, last, nbits, bsize, lsize, compress, 0);
}

/*
 * A whole message in one call: @len bytes at @p (not NULL), then @nbits
 * bits of @last, on a @state that has already taken @prefix bytes (0 for a
 * plain hash; a block for HMAC, whose state starts from the padded key).
 * Whole blocks are compressed in place; only the tail is copied, and with
 * @wipe (a constant) cleared afterwards.
 */
static inline void fsha_md_oneshot(void *state, uint64_t prefix, const uint8_t *p, size_t len,
				   uint8_t last, unsigned nbits, const size_t bsize,
				   const size_t lsize, fsha_compress_fn compress, const int wipe)
{
	size_t n = len / bsize;
	if (n == 1) {
		/* One whole block: copied in front of the padding, so both
		 * (or all three) blocks go through one compression call: one
		 * backend entry and exit (state loads, shuffles, stores) fewer.
		 * 64-byte one-shots: SHA-256 1.14x -> 1.26x OpenSSL, SHA-1
		 * 1.48x -> 1.64x (shani, fastsha-bench, Zen 3). */
		_Alignas(64) uint8_t block[3 * FSHA_MAX_BLOCK];
		memcpy(block, p, bsize);
		compress(state, block,
			 1 + fsha_md_pad(block + bsize, p + bsize, len - bsize, prefix + len, last,
					 nbits, bsize, lsize));
		if (wipe)
			fsha_wipe(block, sizeof(block));
		return;
	}
	if (n)
		compress(state, p, n);
	fsha_md_finish_w(state, p + n * bsize, len % bsize, prefix + len, last, nbits, bsize, lsize,
			 compress, wipe);
}


/*
 * A family's constants, as the engine needs them: block and length-field
 * sizes, the chaining state as @words words of @wsize (4 or 8) bytes, where
 * its streaming state keeps the buffer fill, byte count and partial block
 * (the chaining words come first, at offset 0), and the compression thunk.
 * Each family keeps one as a static const; its typed functions pass it to
 * the inline engine, which the compiler then specialises for its sizes.
 */
struct fsha_md_shape {
	size_t bsize, lsize, words, wsize;
	/* Bytes of compression state at the start of the streaming state:
	 * the chaining words, and for SHA1DC its detection record after them
	 * (words * wsize for every other family; at most 64). */
	size_t ssize;
	size_t off_buflen, off_nbytes, off_buf; /* uint32_t, uint64_t, uint8_t[bsize] */
	fsha_compress_fn compress;
	/* The active backend's fused HMAC end, or NULL (none, or none in
	 * this family: SHA-1's and SHA-224/256's shapes have it): for the
	 * algorithm whose digest is the whole state (SHA-256, not SHA-224). */
	fsha_mac_end_fn (*mac_end)(void);
};

/* Serialise the chaining state big-endian and keep its first @outlen bytes
 * (SHA-224, SHA-384 and SHA-512/t truncate; FIPS 180-4 5.3.6). Only a
 * 64-bit word is ever cut in the middle (SHA-512/224's 28 bytes). */
static inline void fsha_md_output(const struct fsha_md_shape *S, const void *h, uint8_t *out,
				  size_t outlen)
{
	/*
	 * Each word is stored straight to @out. Staging the words in a local
	 * array and copying the first @outlen bytes from it made the copy's
	 * 16-byte loads wait on the word stores (a load cannot be forwarded
	 * from several smaller stores): with that copy gone the 64-byte
	 * SHA-256 and SHA-512 one-shots went from 0.94x and 1.03x to 1.13x
	 * OpenSSL, and 64-byte batches from 1.52x to 1.85x and more
	 * (fastsha-bench, Zen 3, docs/benchmarks.md).
	 */
	size_t whole = outlen / S->wsize, rest = outlen % S->wsize;
	for (size_t i = 0; i < whole; i++) {
		if (S->wsize == 4)
			fsha_store_be32(out + 4 * i, ((const uint32_t *)h)[i]);
		else
			fsha_store_be64(out + 8 * i, ((const uint64_t *)h)[i]);
	}
	if (rest) { /* SHA-512/224 ends inside a word: its first bytes only */
		uint8_t w[8];
		fsha_store_be64(w, ((const uint64_t *)h)[whole]);
		memcpy(out + whole * S->wsize, w, rest);
	}
}

#if defined(__SSE2__)
/* Each 32-bit word of @x byte-swapped: bytes within 16-bit halves, then
 * the halves (SSE2 has no byte shuffle). */
static inline __m128i fsha_bswap32_sse2(__m128i x)
{
	x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
	return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
}
#endif

/*
 * The block of a message one block and one digest long (HMAC's outer hash;
 * both hashes of a PBKDF2 iteration) whose digest is that of chaining
 * words @w: the digest's @d bytes, then the padding, the same for every
 * such message. Reads the 16-byte pieces of @w that hold the digest (a
 * caller's buffer of 64 bytes has them).
 *
 * On x86-64 the block is written in 16-byte stores: a compression kernel's
 * 16-byte loads of a block written as 4- or 8-byte words cannot be
 * forwarded from the store buffer and wait for the stores to reach the
 * cache, about 2.3 ns of a 48 ns SHA-256 block with SHA-NI when the block
 * depends on the compression before it (a scratch loop, Zen 3).
 */
static inline void fsha_md_digest_block(const struct fsha_md_shape *S, const void *w, uint8_t *blk,
					size_t d)
{
	const size_t B = S->bsize;
	const uint64_t bits = (uint64_t)(B + d) * 8;
#if defined(__SSE2__)
	/* A byte mask of the first n < 16 bytes, and 0x80 at byte n, from
	 * 16 - n into these. */
	static const uint8_t ones[32] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mark[32] = { [16] = 0x80 };
	const uint8_t *src = w;
	for (size_t i = 0; i < B; i += 16) {
		__m128i v = _mm_setzero_si128();
		if (i < d) {
			v = fsha_bswap32_sse2(_mm_loadu_si128((const __m128i *)(src + i)));
			if (S->wsize == 8) /* a 64-bit word's swapped halves trade places */
				v = _mm_shuffle_epi32(v, 0xb1);
		}
		if (i <= d && d < i + 16) { /* the digest ends in this piece */
			size_t n = d - i;
			v = _mm_and_si128(v, _mm_loadu_si128((const __m128i *)(ones + 16 - n)));
			v = _mm_or_si128(v, _mm_loadu_si128((const __m128i *)(mark + 16 - n)));
		}
		if (i + 16 == B)
			v = _mm_or_si128(v, _mm_set_epi64x((long long)__builtin_bswap64(bits), 0));
		_mm_storeu_si128((__m128i *)(blk + i), v);
	}
#else
	fsha_md_output(S, w, blk, d);
	memset(blk + d, 0, B - d);
	blk[d] = 0x80;
	fsha_store_be64(blk + B - 8, bits);
#endif
}

/* Start a streaming state @st from the chaining words @iv. */
static inline void fsha_md_init(const struct fsha_md_shape *S, void *st, const void *iv)
{
	iv = fsha_cpu_clean_upper(iv); /* before any SSE instruction: see cpu.h */
	uint8_t *b = st;
	memcpy(st, iv, S->ssize);
	*(uint32_t *)(b + S->off_buflen) = 0;
	*(uint64_t *)(b + S->off_nbytes) = 0;
}

/* Add @len bytes at @data (NULL when @len is 0) to the streaming state @st. */
static inline void fsha_md_absorb(const struct fsha_md_shape *S, void *st, const void *data,
				  size_t len)
{
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	uint8_t *b = st;
	fsha_md_update(st, b + S->off_buf, (uint32_t *)(b + S->off_buflen),
		       (uint64_t *)(b + S->off_nbytes), data, len, S->bsize, S->compress);
}

/*
 * The digest of the streaming state @st plus @nbits (0..7) bits of @last,
 * cut to @outlen bytes. @st is not changed, so a context may go on after it.
 */
static inline void fsha_md_final(const struct fsha_md_shape *S, const void *st, uint8_t last,
				 unsigned nbits, uint8_t *out, size_t outlen)
{
	(void)fsha_cpu_clean_upper(NULL); /* before any SSE instruction: see cpu.h */
	const uint8_t *b = st;
	uint64_t w[8]; /* room for any family's compression state, aligned for either word size */
	memcpy(w, st, S->ssize);
	fsha_md_finish(w, b + S->off_buf, *(const uint32_t *)(b + S->off_buflen),
		       *(const uint64_t *)(b + S->off_nbytes), last, nbits, S->bsize, S->lsize,
		       S->compress);
	fsha_md_output(S, w, out, outlen);
}

/* The digest of a whole message from the chaining words @iv: @len bytes at
 * @p (not NULL), then @nbits bits of @last. */
static inline void fsha_md_digest(const struct fsha_md_shape *S, const void *iv, const uint8_t *p,
				  size_t len, uint8_t last, unsigned nbits, uint8_t *out,
				  size_t outlen)
{
	iv = fsha_cpu_clean_upper(iv); /* before any SSE instruction: see cpu.h */
	_Alignas(64) uint64_t w[8];
	memcpy(w, iv, S->ssize);
	fsha_md_oneshot(w, 0, p, len, last, nbits, S->bsize, S->lsize, S->compress, 0);
	fsha_md_output(S, w, out, outlen);
}

/*
 * The digest of @len bytes at @p (not NULL) hashed on from chaining words
 * @from that have taken @prefix bytes already (HMAC's keyed states, one
 * block), cut to @outlen bytes. Every buffer of its frame that held the
 * state or the message is wiped before it returns.
 */
static inline void fsha_md_digest_from(const struct fsha_md_shape *S, const void *from,
				       uint64_t prefix, const uint8_t *p, size_t len, uint8_t *out,
				       size_t outlen)
{
	from = fsha_cpu_clean_upper(from); /* before any SSE instruction: see cpu.h */
	_Alignas(64) uint64_t w[8];
	memcpy(w, from, S->words * S->wsize);
	fsha_md_oneshot(w, prefix, p, len, 0, 0, S->bsize, S->lsize, S->compress, 1);
	fsha_md_output(S, w, out, outlen);
	fsha_wipe(w, sizeof(w));
}

/* The shape of family state type @T (chaining words h first, then buflen,
 * nbytes, buf): its offsets, so no family writes the engine's glue. */
#define FSHA_MD_SHAPE(T, bsize, lsize, words, wsize, compress)                               \
	FSHA_MD_SHAPE_S(T, bsize, lsize, words, wsize, (words) * (wsize), compress)
/* The same with @ssize bytes of compression state (see struct fsha_md_shape). */
#define FSHA_MD_SHAPE_S(T, bsize, lsize, words, wsize, ssize, compress)                        \
	FSHA_MD_SHAPE_M(T, bsize, lsize, words, wsize, ssize, compress, NULL)
/* The same with a fused HMAC end (struct fsha_md_shape, mac_end). */
#define FSHA_MD_SHAPE_M(T, bsize, lsize, words, wsize, ssize, compress, mac_end)               \
	{ (bsize), (lsize), (words), (wsize), (ssize), offsetof(T, buflen), offsetof(T, nbytes), \
	  offsetof(T, buf), (compress), (mac_end) }

#endif
