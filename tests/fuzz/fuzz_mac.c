/* SPDX-License-Identifier: MIT */
/*
 * Differential fuzz target (libFuzzer) for fastsha/mac.h: HMAC, PBKDF2 and
 * HKDF of the input under every SHA-1/SHA-2 algorithm and every backend
 * this CPU runs (lane rows included), each result compared with OpenSSL's
 * HMAC(), PKCS5_PBKDF2_HMAC() and EVP_KDF "HKDF". Any difference calls
 * __builtin_trap(), so libFuzzer saves the input. Run with `make fuzz`;
 * replay a saved input with `build/asan/tests/fuzz/fuzz_mac FILE`.
 *
 * Input: a 4-byte header, then the bytes the pieces are cut from.
 *   byte 0  the key's length (0..255, plus 45 when bit 0 of byte 3 is set,
 *           so keys reach 300 bytes: past two SHA-512 blocks)
 *   byte 1  the split point of the message, modulo its length + 1
 *   byte 2  bits 0-3: PBKDF2's iterations - 1 (1..16); bits 6-7: how many
 *           output blocks, 1..4, cut short by byte 3's bits 1-5 bytes
 *   byte 3  bit 0: longer key (above); bits 1-5: bytes cut from the
 *           output; bits 6-7: the HKDF info length, 0, 1, 13 or 200 bytes
 * The key comes first (as much as there is), the message is the rest; the
 * PBKDF2 password is the key, its salt the message; HKDF's IKM is the
 * message, its salt the key. Pieces sit at the end of heap blocks of their
 * own size, so AddressSanitizer sees any read past them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "fastsha/fastsha.h"
#include "fastsha/mac.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c))                                                                          \
			__builtin_trap();                                                          \
	} while (0)

static const EVP_MD *md_of(fastsha_alg a)
{
	switch (a) {
	case FASTSHA_SHA1: return EVP_sha1();
	case FASTSHA_SHA224: return EVP_sha224();
	case FASTSHA_SHA256: return EVP_sha256();
	case FASTSHA_SHA384: return EVP_sha384();
	case FASTSHA_SHA512: return EVP_sha512();
	case FASTSHA_SHA512_224: return EVP_sha512_224();
	case FASTSHA_SHA512_256: return EVP_sha512_256();
	default: return NULL;
	}
}

/* A heap copy of @n bytes ending where its block ends (NULL when n is 0). */
static uint8_t *piece(const uint8_t *p, size_t n)
{
	if (!n)
		return NULL;
	uint8_t *q = malloc(n);
	memcpy(q, p, n);
	return q;
}

/* OpenSSL's HKDF of @outlen bytes; 0 on success. */
static int ossl_hkdf(fastsha_alg a, const uint8_t *salt, size_t sl, const uint8_t *ikm, size_t il,
		     const uint8_t *info, size_t nl, uint8_t *out, size_t outlen)
{
	static EVP_KDF *kdf;
	if (!kdf)
		kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
	static const uint8_t empty[1];
	OSSL_PARAM p[5], *q = p;
	*q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						(char *)EVP_MD_get0_name(md_of(a)), 0);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, il ? (void *)ikm : (void *)empty,
						 il);
	if (sl)
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, sl);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
						 nl ? (void *)info : (void *)empty, nl);
	*q = OSSL_PARAM_construct_end();
	int r = EVP_KDF_derive(c, out, outlen, p) == 1 ? 0 : -1;
	EVP_KDF_CTX_free(c);
	return r;
}

/* Everything for algorithm @a under the backend in use. */
static void check_alg(fastsha_alg a, const uint8_t *key, size_t kl, const uint8_t *msg, size_t ml,
		      size_t split, uint32_t iters, size_t outlen, const uint8_t *info, size_t nl)
{
	const size_t d = fastsha_alg_digest_size(a);
	uint8_t ours[64], theirs[64];
	unsigned tl = 0;
	static const uint8_t empty[1];

	/* HMAC: one-shot, streaming in two pieces, a batch. */
	CHECK(HMAC(md_of(a), kl ? key : empty, (int)kl, ml ? msg : empty, ml, theirs, &tl));
	CHECK(fastsha_hmac(a, key, kl, msg, ml, ours) == 0 && memcmp(ours, theirs, d) == 0);
	fastsha_hmac_key k;
	fastsha_hmac_ctx c;
	CHECK(fastsha_hmac_key_init(&k, a, key, kl) == 0 && fastsha_hmac_init(&c, &k) == 0);
	fastsha_hmac_update(&c, split ? msg : NULL, split);
	fastsha_hmac_update(&c, ml - split ? msg + split : NULL, ml - split);
	CHECK(fastsha_hmac_final(&c, ours) == 0 && memcmp(ours, theirs, d) == 0);
	fastsha_msg m[3] = { { msg, split }, { msg, ml }, { msg ? msg + split : NULL, ml - split } };
	uint8_t many[3 * 64];
	CHECK(fastsha_hmac_many(&k, m, 3, many) == 0 && memcmp(many + d, theirs, d) == 0);
	for (int i = 0; i < 3; i += 2) {
		CHECK(HMAC(md_of(a), kl ? key : empty, (int)kl, m[i].len ? m[i].data : empty,
			   m[i].len, theirs, &tl));
		CHECK(memcmp(many + i * d, theirs, d) == 0);
	}
	fastsha_hmac_key_wipe(&k);

	/* PBKDF2: the key as password, the message as salt; a batch of the
	 * same and of the pieces. */
	uint8_t po[4 * 64], pt[4 * 64];
	CHECK(PKCS5_PBKDF2_HMAC((const char *)(kl ? key : empty), (int)kl, ml ? msg : empty,
				(int)ml, (int)iters, md_of(a), (int)outlen, pt));
	CHECK(fastsha_pbkdf2(a, key, kl, msg, ml, iters, po, outlen) == 0 &&
	      memcmp(po, pt, outlen) == 0);
	uint8_t pm[3 * 4 * 64];
	fastsha_msg pw[3] = { { key, kl }, { key, kl / 2 }, { key, kl } };
	CHECK(fastsha_pbkdf2_many(a, pw, m, 3, iters, pm, outlen) == 0);
	for (int i = 0; i < 3; i++) {
		CHECK(PKCS5_PBKDF2_HMAC((const char *)(pw[i].len ? pw[i].data : empty),
					(int)pw[i].len, m[i].len ? m[i].data : empty, (int)m[i].len,
					(int)iters, md_of(a), (int)outlen, pt));
		CHECK(memcmp(pm + i * outlen, pt, outlen) == 0);
	}

	/* HKDF: the message as IKM, the key as salt; outputs to past a few
	 * digests, and the whole allowed range's end refused past it. */
	uint8_t ho[4 * 64], ht[4 * 64];
	CHECK(ossl_hkdf(a, key, kl, msg, ml, info, nl, ht, outlen) == 0);
	CHECK(fastsha_hkdf(a, key, kl, msg, ml, info, nl, ho, outlen) == 0 &&
	      memcmp(ho, ht, outlen) == 0);
	uint8_t prk[64];
	CHECK(fastsha_hkdf_extract(a, key, kl, msg, ml, prk) == 0);
	CHECK(fastsha_hkdf_expand(a, prk, d, info, nl, ho, outlen) == 0 &&
	      memcmp(ho, ht, outlen) == 0);
	CHECK(fastsha_hkdf(a, key, kl, msg, ml, info, nl, ho, 255 * d + 1) == -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t h[4] = { 0 };
	memcpy(h, data, size < 4 ? size : 4);
	const uint8_t *rest = data + (size < 4 ? size : 4);
	size_t left = size < 4 ? 0 : size - 4;
	size_t kl = h[0] + (h[3] & 1 ? 45u : 0u);
	if (kl > left)
		kl = left;
	size_t ml = left - kl, split = ml ? h[1] % (ml + 1) : 0;
	uint32_t iters = (h[2] & 15) + 1u;
	size_t nblk = (size_t)(h[2] >> 6) + 1, cut = (h[3] >> 1) & 31;
	static const size_t infolens[4] = { 0, 1, 13, 200 };
	size_t nl = infolens[h[3] >> 6];
	uint8_t *key = piece(rest, kl), *msg = piece(rest + kl, ml);
	uint8_t *info = malloc(nl + 1);
	for (size_t i = 0; i < nl; i++)
		info[i] = (uint8_t)(i * 7 + h[1]);

	for (fastsha_alg a = 0; a < FASTSHA_ALG_COUNT; a++) {
		if (!md_of(a))
			continue;
		size_t d = fastsha_alg_digest_size(a), outlen = nblk * d;
		outlen = cut < outlen ? outlen - cut : 1;
		/* Every backend of the family this CPU runs, then automatic;
		 * not the spec-literal reference, a hundred times slower, which
		 * ctest holds to the same answers (test_mac). */
		for (size_t i = 0; i < fastsha_backend_count(a); i++) {
			if (!fastsha_backend_supported(a, i) ||
			    strcmp(fastsha_backend_name(a, i), "reference") == 0)
				continue;
			CHECK(fastsha_use_backend(a, fastsha_backend_name(a, i)) == FASTSHA_SELECT_OK);
			check_alg(a, key, kl, msg, ml, split, iters, outlen, info, nl);
		}
		fastsha_use_backend(a, NULL);
		check_alg(a, key, kl, msg, ml, split, iters, outlen, info, nl);
	}
	free(key);
	free(msg);
	free(info);
	return 0;
}
