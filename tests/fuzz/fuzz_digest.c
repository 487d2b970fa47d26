/* SPDX-License-Identifier: MIT */
/*
 * Differential fuzz target (libFuzzer): the input hashed under every
 * algorithm and every backend this CPU runs, each digest compared with
 * OpenSSL's EVP digest and with the portable backend. Public API only; the
 * algorithms and backends are enumerated, so new ones are fuzzed without a
 * change here. Any difference calls __builtin_trap(), so libFuzzer saves the
 * input. Run it with `make fuzz FUZZ_SECONDS=N`; replay a saved input with
 * `build/asan/tests/fuzz/fuzz_digest FILE`.
 *
 * Input: a 3-byte header, the split points, then the message.
 *   byte 0  bits 0-3: how many update split points follow (0..15);
 *           bits 4-6: nbits, the trailing bits of the bit-length message;
 *           bit 7: also check a running digest at the first split point
 *   byte 1  the partial byte of the bit-length message (its top nbits count;
 *           the low bits are junk the library must ignore)
 *   byte 2  bits 0-3: how far the message sits from a 16-byte boundary;
 *           bits 4-7: the chunk size for fastsha_chunks() (chunk_sizes[])
 *   2 bytes per split point, little-endian, taken modulo (length + 1)
 * Missing header bytes read as 0. tests/fuzz/corpus/ holds the seeds
 * (gen_corpus.py writes them: lengths around the block boundaries).
 *
 * Per algorithm and backend:
 * - one-shot fastsha_digest() == EVP;
 * - init, update over the splits (an empty piece passes NULL), final ==
 *   EVP; final leaves the context as it was; with byte 0 bit 7, final after
 *   the first piece == EVP of that prefix, and hashing goes on after it;
 * - final_bits(ctx, last, nbits) == portable's, == final when nbits is 0,
 *   and does not depend on the low bits of last;
 * - fastsha_digest_bits() of the same bits == final_bits, == portable's;
 * - fastsha_many() over a batch made of the pieces between the split
 *   points (each in a heap block of its own size), the whole message, and
 *   the pieces again in reverse order (lengths and count from the input):
 *   each digest == EVP of that message; a lane backend runs its kernel;
 * - fastsha_chunks() of the message == EVP of each chunk.
 * OpenSSL has no bit-length API, so bit messages are compared with portable
 * (itself checked against NIST's bit vectors by the ctest suite). OpenSSL
 * 3.0 has no Keccak-256, TurboSHAKE or KangarooTwelve: for those the
 * answers come from the spec-literal reference backend; SHAKE's from
 * EVP_DigestFinalXOF() at the default output length.
 *
 * Buffers end where the message ends (the fuzzer's own input, and heap
 * copies sized exactly), so AddressSanitizer sees any read past it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "fastsha/fastsha.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SPLITS 15
#define MAX_BATCH (2 * (MAX_SPLITS + 1) + 1)

/* Chunk sizes around the block and padding edges of both block sizes. */
static const size_t chunk_sizes[16] = { 16, 55, 56, 63, 64, 65, 111, 112,
					 119, 127, 128, 129, 192, 255, 256, 1000 };

static const EVP_MD *evp[FASTSHA_ALG_COUNT];

/* OpenSSL's name for an algorithm: "sha512_224" -> "SHA512-224". */
static void evp_name(fastsha_alg alg, char *out, size_t cap)
{
	const char *n = fastsha_alg_name(alg);
	size_t i = 0;
	for (; n[i] && i + 1 < cap; i++)
		out[i] = n[i] == '_' ? '-' : (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 32 : n[i]);
	out[i] = '\0';
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		char name[32];
		evp_name((fastsha_alg)a, name, sizeof(name));
		/* SHA1DC is SHA-1 on every message that is not half of a
		 * collision attack, and no fuzzed input is one (the colliding
		 * files have tests of their own): OpenSSL's SHA-1 is its
		 * reference here, and portable's SHA1DC that of its backends. */
		if (fastsha_alg_detects((fastsha_alg)a))
			strcpy(name, "SHA1");
		if (a == FASTSHA_SHAKE128 || a == FASTSHA_SHAKE256)
			strcpy(name, a == FASTSHA_SHAKE128 ? "SHAKE128" : "SHAKE256");
		/* OpenSSL 3.0 has no Keccak-256, TurboSHAKE or KangarooTwelve:
		 * their answers come from the spec-literal reference backend
		 * (itself held to RFC 9861 and Ethereum's values by ctest). */
		if (a == FASTSHA_KECCAK256 || a == FASTSHA_TURBOSHAKE128 ||
		    a == FASTSHA_TURBOSHAKE256 || a == FASTSHA_K12)
			continue;
		evp[a] = EVP_get_digestbyname(name);
		if (!evp[a] || (!fastsha_alg_is_xof(a) &&
				(size_t)EVP_MD_get_size(evp[a]) != fastsha_alg_digest_size(a))) {
			fprintf(stderr, "fuzz_digest: OpenSSL has no digest %s of the right size\n",
				name);
			abort();
		}
	}
	/* Say what is fuzzed: a backend this CPU lacks is not. */
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		fprintf(stderr, "fuzz_digest: %s:", fastsha_alg_name(a));
		for (size_t i = 0; i < fastsha_backend_count(a); i++)
			fprintf(stderr, " %s%s", fastsha_backend_name(a, i),
				fastsha_backend_supported(a, i) ? "" : " (not on this CPU)");
		fputc('\n', stderr);
	}
	return 0;
}

/* What the current input is, for the report of a difference. */
static struct {
	size_t len;
	unsigned nsplit, nbits, off;
	size_t split[MAX_SPLITS];
} in;

static void differ(fastsha_alg alg, const char *backend, const char *what)
{
	fprintf(stderr, "fuzz_digest: %s, backend %s: %s (message %zu bytes + %u bits, "
		"misaligned by %u, splits:", fastsha_alg_name(alg), backend, what, in.len,
		in.nbits, in.off);
	for (unsigned i = 0; i < in.nsplit; i++)
		fprintf(stderr, " %zu", in.split[i]);
	fprintf(stderr, ")\n");
	__builtin_trap();
}

/* The batch for the current input, and what EVP says of it per algorithm. */
static struct {
	fastsha_msg m[MAX_BATCH];
	size_t n;
	uint8_t want[MAX_BATCH][FASTSHA_MAX_DIGEST_SIZE];
	size_t chunk, nchunks;
	uint8_t *want_chunks; /* nchunks digests */
	uint8_t *got;         /* room for MAX_BATCH or nchunks digests */
} batch;

static void expect(fastsha_alg alg, const char *backend, const char *what, const uint8_t *got,
		   const uint8_t *want)
{
	if (memcmp(got, want, fastsha_alg_digest_size(alg)) != 0)
		differ(alg, backend, what);
}

static void evp_digest(fastsha_alg alg, const uint8_t *msg, size_t len, uint8_t *out)
{
	if (!evp[alg]) { /* see LLVMFuzzerInitialize() */
		fastsha_use_backend(alg, "reference");
		fastsha_digest(alg, len ? msg : NULL, len, out);
		fastsha_use_backend(alg, NULL);
		return;
	}
	if (fastsha_alg_is_xof(alg)) { /* SHAKE: the default output length */
		EVP_MD_CTX *c = EVP_MD_CTX_new();
		if (!c || !EVP_DigestInit_ex(c, evp[alg], NULL) || !EVP_DigestUpdate(c, msg, len) ||
		    !EVP_DigestFinalXOF(c, out, fastsha_alg_digest_size(alg))) {
			fprintf(stderr, "fuzz_digest: EVP XOF failed for %s\n", fastsha_alg_name(alg));
			abort();
		}
		EVP_MD_CTX_free(c);
		return;
	}
	unsigned int n = 0;
	if (!EVP_Digest(msg, len, out, &n, evp[alg], NULL) || n != fastsha_alg_digest_size(alg)) {
		fprintf(stderr, "fuzz_digest: EVP_Digest failed for %s\n", fastsha_alg_name(alg));
		abort();
	}
}

/*
 * Everything one backend computes for the current input. @bits is the
 * message followed by the partial byte, exactly ceil(nbits total / 8)
 * bytes long; @portable holds portable's bit digest, or NULL when this is
 * portable itself (which then fills @bit_out).
 */
static void check_backend(fastsha_alg alg, const char *name, const uint8_t *msg,
			  const uint8_t *bits, uint8_t last, int running, const uint8_t *want,
			  const uint8_t *want_prefix, const uint8_t *portable, uint8_t *bit_out)
{
	uint8_t d[FASTSHA_MAX_DIGEST_SIZE], e[FASTSHA_MAX_DIGEST_SIZE];
	const size_t len = in.len;

	if (fastsha_digest(alg, len ? msg : NULL, len, d) != 0)
		differ(alg, name, "fastsha_digest() failed");
	expect(alg, name, "one-shot digest differs from OpenSSL's", d, want);

	fastsha_ctx ctx, copy;
	fastsha_init(&ctx, alg);
	size_t at = 0;
	for (unsigned i = 0; i <= in.nsplit; i++) {
		size_t end = i < in.nsplit ? in.split[i] : len;
		fastsha_update(&ctx, end > at ? msg + at : NULL, end - at);
		at = end;
		if (i == 0 && running && in.nsplit > 0) {
			fastsha_final(&ctx, d);
			expect(alg, name, "running digest after the first piece differs from "
			       "OpenSSL's", d, want_prefix);
		}
	}
	copy = ctx;
	fastsha_final(&ctx, d);
	expect(alg, name, "streamed digest differs from OpenSSL's", d, want);
	if (memcmp(&copy, &ctx, sizeof(ctx)) != 0)
		differ(alg, name, "fastsha_final() changed the context");

	const uint8_t mask = (uint8_t)(0xff00u >> in.nbits);
	fastsha_final_bits(&ctx, last, in.nbits, d);
	fastsha_final_bits(&ctx, last & mask, in.nbits, e);
	expect(alg, name, "final_bits depends on the bits below nbits", d, e);
	if (in.nbits == 0)
		expect(alg, name, "final_bits with 0 bits differs from OpenSSL's", d, want);
	if (portable)
		expect(alg, name, "final_bits differs from portable's", d, portable);
	else
		memcpy(bit_out, d, fastsha_alg_digest_size(alg));

	const uint64_t nbits = (uint64_t)len * 8 + in.nbits;
	if (alg == FASTSHA_K12 && in.nbits) { /* no bit-length messages: refused */
		if (fastsha_digest_bits(alg, bits, nbits, e) != -1)
			differ(alg, name, "fastsha_digest_bits() of a partial byte not refused");
	} else {
		fastsha_digest_bits(alg, nbits ? bits : NULL, nbits, e);
		expect(alg, name, "fastsha_digest_bits() differs from final_bits", e, d);
	}

	const size_t ds = fastsha_alg_digest_size(alg);
	if (fastsha_many(alg, batch.m, batch.n, batch.got) != 0)
		differ(alg, name, "fastsha_many() failed");
	for (size_t i = 0; i < batch.n; i++)
		expect(alg, name, "a fastsha_many() digest differs from OpenSSL's",
		       batch.got + i * ds, batch.want[i]);
	if (fastsha_chunks(alg, len ? msg : NULL, len, batch.chunk, batch.got) != batch.nchunks)
		differ(alg, name, "fastsha_chunks() returned a wrong count");
	for (size_t i = 0; i < batch.nchunks; i++)
		expect(alg, name, "a fastsha_chunks() digest differs from OpenSSL's",
		       batch.got + i * ds, batch.want_chunks + i * ds);
}

/* @n bytes of heap ending exactly at @n (1 byte for 0: never NULL). */
static uint8_t *alloc_exact(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	if (!p)
		abort();
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 0;
#define NEXT() (pos < size ? data[pos++] : 0)
	const uint8_t b0 = NEXT(), last = NEXT(), b2 = NEXT();
	uint16_t raw[MAX_SPLITS];
	in.nsplit = b0 & 15;
	in.nbits = (b0 >> 4) & 7;
	in.off = b2 & 15;
	for (unsigned i = 0; i < in.nsplit; i++) {
		raw[i] = NEXT();
		raw[i] = (uint16_t)(raw[i] | NEXT() << 8);
	}
#undef NEXT
	const int running = b0 >> 7;
	in.len = size - pos;

	/* Split points in order (insertion sort: at most 15). */
	for (unsigned i = 0; i < in.nsplit; i++) {
		size_t s = raw[i] % (in.len + 1), j = i;
		for (; j > 0 && in.split[j - 1] > s; j--)
			in.split[j] = in.split[j - 1];
		in.split[j] = s;
	}

	/* The message at the chosen misalignment, ending where its buffer
	 * ends; the bit message likewise, one byte longer when nbits > 0. */
	uint8_t *mbuf = alloc_exact(in.off + in.len);
	uint8_t *bits = alloc_exact(in.len + (in.nbits ? 1 : 0));
	uint8_t *msg = mbuf + in.off;
	memcpy(msg, data + pos, in.len);
	memcpy(bits, msg, in.len);
	if (in.nbits)
		bits[in.len] = last;

	/* The batch: the pieces, each in an exact heap block, the whole
	 * message, the pieces backwards. */
	uint8_t *piece[MAX_SPLITS + 1];
	batch.n = 0;
	size_t at = 0;
	for (unsigned i = 0; i <= in.nsplit; i++) {
		size_t end = i < in.nsplit ? in.split[i] : in.len;
		piece[i] = alloc_exact(end - at);
		memcpy(piece[i], msg + at, end - at);
		batch.m[batch.n].data = piece[i];
		batch.m[batch.n++].len = end - at;
		at = end;
	}
	batch.m[batch.n].data = msg;
	batch.m[batch.n++].len = in.len;
	for (unsigned i = 0; i <= in.nsplit; i++)
		batch.m[batch.n++] = batch.m[in.nsplit - i];
	batch.chunk = chunk_sizes[b2 >> 4];
	batch.nchunks = (in.len + batch.chunk - 1) / batch.chunk;
	batch.want_chunks = alloc_exact(batch.nchunks * FASTSHA_MAX_DIGEST_SIZE);
	batch.got = alloc_exact((batch.nchunks > MAX_BATCH ? batch.nchunks : MAX_BATCH) *
				FASTSHA_MAX_DIGEST_SIZE);

	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		const fastsha_alg alg = (fastsha_alg)a;
		uint8_t want[FASTSHA_MAX_DIGEST_SIZE], want_prefix[FASTSHA_MAX_DIGEST_SIZE];
		uint8_t portable[FASTSHA_MAX_DIGEST_SIZE];
		const size_t ds = fastsha_alg_digest_size(alg);
		evp_digest(alg, msg, in.len, want);
		for (size_t i = 0; i < batch.n; i++)
			evp_digest(alg, batch.m[i].data, batch.m[i].len, batch.want[i]);
		for (size_t i = 0; i < batch.nchunks; i++) {
			size_t from = i * batch.chunk;
			size_t n = in.len - from < batch.chunk ? in.len - from : batch.chunk;
			evp_digest(alg, msg + from, n, batch.want_chunks + i * ds);
		}
		if (running && in.nsplit > 0)
			evp_digest(alg, msg, in.split[0], want_prefix);

		/* portable first: its bit digests are what the others must give. */
		if (fastsha_use_backend(alg, "portable") != FASTSHA_SELECT_OK)
			differ(alg, "portable", "no portable backend");
		check_backend(alg, "portable", msg, bits, last, running, want, want_prefix, NULL,
			      portable);
		for (size_t i = 0; i < fastsha_backend_count(alg); i++) {
			const char *name = fastsha_backend_name(alg, i);
			if (!fastsha_backend_supported(alg, i) || strcmp(name, "portable") == 0)
				continue;
			if (fastsha_use_backend(alg, name) != FASTSHA_SELECT_OK)
				differ(alg, name, "a supported backend cannot be chosen");
			check_backend(alg, name, msg, bits, last, running, want, want_prefix,
				      portable, NULL);
		}
		fastsha_use_backend(alg, NULL);
	}
	for (unsigned i = 0; i <= in.nsplit; i++)
		free(piece[i]);
	free(batch.want_chunks);
	free(batch.got);
	free(mbuf);
	free(bits);
	return 0;
}
