/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_FASTSHA_H
#define FASTSHA_FASTSHA_H

#include <stddef.h>
#include <stdint.h>

/* FASTSHA_API marks the public symbols; everything else is hidden. */
#if defined(FASTSHA_STATIC)
#define FASTSHA_API
#elif defined(_WIN32)
#if defined(FASTSHA_BUILDING)
#define FASTSHA_API __declspec(dllexport)
#else
#define FASTSHA_API __declspec(dllimport)
#endif
#else
#define FASTSHA_API __attribute__((visibility("default")))
#endif

/*
 * The version, by semantic versioning of the C API and ABI (CHANGELOG.md):
 * while the major number is 0, the minor number rises with any
 * incompatible change and the patch number otherwise. This string is the
 * one source: CMakeLists.txt, the wheel's metadata (pyproject.toml), the
 * command and fastsha_version() all read it.
 */
#define FASTSHA_VERSION_MAJOR 0
#define FASTSHA_VERSION_MINOR 3
#define FASTSHA_VERSION_PATCH 11
#define FASTSHA_VERSION_STRING "0.3.11"
/*
 * The binary interface's number: the shared library's soname is
 * libfastsha.so.FASTSHA_ABI_VERSION, and it rises whenever a program built
 * against an older header could break with the new library (a public
 * struct changing size, a function changing its signature). 0 was 0.1 and
 * 0.2; 1 is 0.3, where fastsha_ctx grew to hold KangarooTwelve.
 */
#define FASTSHA_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fastsha_version() - the version of the library actually linked.
 *
 * Return: a static string such as "0.1.0"; it may differ from
 * FASTSHA_VERSION_STRING when a program runs against a newer shared library.
 * Thread-safe.
 */
FASTSHA_API const char *fastsha_version(void);

/**
 * fastsha1_backend() - the name of the SHA-1 backend that hashing uses now.
 *
 * The first call resolves the backend (best this CPU runs, or the one named
 * by the FASTSHA_BACKEND environment variable when this CPU can run it).
 * No init call is needed. Thread-safe.
 *
 * Return: a static string, e.g. "shani" or "portable".
 */
FASTSHA_API const char *fastsha1_backend(void);

/**
 * fastsha1_backend_count() - how many SHA-1 backends this library was built with.
 *
 * Backends are numbered 0..count-1 in the order of preference, best first
 * (the spec-literal "reference" backend is last and never chosen on its own).
 * Thread-safe.
 */
FASTSHA_API size_t fastsha1_backend_count(void);

/**
 * fastsha1_backend_name() - the name of built backend @i.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: a static string, or NULL when @i is out of range. Thread-safe.
 */
FASTSHA_API const char *fastsha1_backend_name(size_t i);

/**
 * fastsha1_backend_supported() - whether this CPU (and OS) can run backend @i.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: 1 when it can, 0 when it cannot or @i is out of range. Thread-safe.
 */
FASTSHA_API int fastsha1_backend_supported(size_t i);

/**
 * fastsha1_backend_lanes() - how many messages backend @i hashes at once.
 * @i: 0..fastsha1_backend_count()-1.
 *
 * Return: 1 for a single-stream backend, more for a multi-buffer one,
 * 0 when @i is out of range. Thread-safe.
 */
FASTSHA_API unsigned fastsha1_backend_lanes(size_t i);

/** Results of fastsha1_use_backend(). */
enum fastsha_select_result {
	FASTSHA_SELECT_OK = 0,          /* the backend is now in use */
	FASTSHA_SELECT_UNKNOWN = -1,    /* no backend of that name was built */
	FASTSHA_SELECT_UNSUPPORTED = -2 /* built, but this CPU cannot run it */
};

/**
 * fastsha1_use_backend() - choose the SHA-1 backend for the whole process.
 * @name: a backend name as listed by fastsha1_backend_name(), or NULL to go
 *        back to automatic choice (which again honours FASTSHA_BACKEND).
 *
 * Meant for tools, benchmarks and tests; programs need not call it. Every
 * backend keeps the same state, so switching while other threads hash is
 * safe: each block is compressed by one backend or the other and the digest
 * is the same. Thread-safe.
 *
 * Return: FASTSHA_SELECT_OK, or a negative enum fastsha_select_result and
 * the backend in use is unchanged.
 */
FASTSHA_API int fastsha1_use_backend(const char *name);

/*
 * The algorithm descriptor: every algorithm by number and name, its sizes,
 * and one init/update/final that serves them all, so that a program taking
 * the algorithm as data (a command's option, a binding) switches on it in
 * one place, here. The per-algorithm headers (sha1.h, sha256.h, sha512.h)
 * are the direct, typed way to the same functions.
 */
typedef enum fastsha_alg {
	FASTSHA_SHA1 = 0,
	FASTSHA_SHA224 = 1,
	FASTSHA_SHA256 = 2,
	FASTSHA_SHA384 = 3,
	FASTSHA_SHA512 = 4,
	FASTSHA_SHA512_224 = 5,
	FASTSHA_SHA512_256 = 6,
	/* SHA-1 with collision detection (fastsha/sha1dc.h): the digest of
	 * SHA-1, except for a message detected as half of a collision attack.
	 * Runs on the SHA-1 backends. */
	FASTSHA_SHA1DC = 7,
	/* The Keccak family (fastsha/sha3.h), on the Keccak backends. */
	FASTSHA_SHA3_224 = 8,
	FASTSHA_SHA3_256 = 9,
	FASTSHA_SHA3_384 = 10,
	FASTSHA_SHA3_512 = 11,
	/* Extendable output (fastsha_alg_is_xof()): fastsha_xof() and
	 * fastsha_squeeze() give any length; the digest functions give the
	 * default length, fastsha_alg_digest_size(). */
	FASTSHA_SHAKE128 = 12,
	FASTSHA_SHAKE256 = 13,
	/* Keccak-256 as Ethereum uses it: SHA3-256 with the original padding. */
	FASTSHA_KECCAK256 = 14,
	/* TurboSHAKE128/256 (RFC 9861) with the default domain byte 0x1f;
	 * others through fastturboshake128() (sha3.h). XOFs. */
	FASTSHA_TURBOSHAKE128 = 15,
	FASTSHA_TURBOSHAKE256 = 16,
	/* KangarooTwelve (KT128, RFC 9861) with an empty customisation
	 * string; others through fastsha_k12(). An XOF. */
	FASTSHA_K12 = 17
} fastsha_alg;

/* How many algorithms there are: valid values are 0..FASTSHA_ALG_COUNT-1. */
#define FASTSHA_ALG_COUNT 18
/* The largest digest (SHA-512, SHA3-512; an XOF's default output is no
 * longer) and block (SHAKE128's rate) of any algorithm. */
#define FASTSHA_MAX_DIGEST_SIZE 64
#define FASTSHA_MAX_BLOCK_SIZE 168

/**
 * fastsha_alg_from_name() - the algorithm called @name.
 * @name: "sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224",
 *        "sha512_256", "sha1dc", "sha3_224", "sha3_256", "sha3_384",
 *        "sha3_512", "shake_128", "shake_256", "keccak256",
 *        "turboshake128", "turboshake256" or "k12" (also "kt128" and
 *        "kangarootwelve"); also OpenSSL 3's names for these: "ssl3-sha1",
 *        "sha2-224", "sha2-256", "sha2-384", "sha2-512", "sha2-512/224"
 *        and "sha2-512/256" (its others, "SHA-512/224", "SHA512-224",
 *        "SHA3-256", "SHAKE-128", "KECCAK-256", are the names above with
 *        separators). Case is ignored, and so are '-', '_' and '/' (so
 *        "SHA-256", "sha512/224", "sha3-256" and "shake128" are found
 *        too); nothing else is (no OIDs, no signature names such as
 *        "RSA-SHA256"). May be NULL.
 *
 * Return: the fastsha_alg, or -1 when no algorithm has that name.
 * Thread-safe.
 */
FASTSHA_API int fastsha_alg_from_name(const char *name);

/**
 * fastsha_alg_name() - the canonical name of @alg, as hashlib spells it.
 * @alg: an algorithm.
 *
 * Return: a static string ("sha256", "sha512_224", "shake_128", ...), or
 * NULL when @alg is out of range. Thread-safe.
 */
FASTSHA_API const char *fastsha_alg_name(fastsha_alg alg);

/**
 * fastsha_alg_digest_size() - the digest length of @alg in bytes.
 * @alg: an algorithm.
 *
 * For an extendable-output algorithm, the length its digest functions
 * give: 32 bytes for SHAKE128, TurboSHAKE128 and KangarooTwelve, 64 for
 * SHAKE256 and TurboSHAKE256 (twice the security level).
 *
 * Return: 20, 28, 32, 48 or 64; 0 when @alg is out of range. Thread-safe.
 */
FASTSHA_API size_t fastsha_alg_digest_size(fastsha_alg alg);

/**
 * fastsha_alg_block_size() - the block length of @alg in bytes.
 * @alg: an algorithm.
 *
 * Return: 64 (SHA-1, SHA-224, SHA-256), 128 (the SHA-512 family), or the
 * rate of a Keccak algorithm (72 to 168); 0 when @alg is out of range.
 * Thread-safe.
 */
FASTSHA_API size_t fastsha_alg_block_size(fastsha_alg alg);

/**
 * fastsha_alg_is_xof() - whether @alg has extendable output.
 * @alg: an algorithm.
 *
 * Return: 1 for SHAKE128/256, TurboSHAKE128/256 and KangarooTwelve, else
 * 0 (out of range included). Thread-safe.
 */
FASTSHA_API int fastsha_alg_is_xof(fastsha_alg alg);

/**
 * struct fastsha_ctx - a computation in progress of any algorithm.
 *
 * The fields are private. Like the per-algorithm contexts it holds no
 * pointers: it may live on the stack, and copying it by assignment forks
 * the computation (an XOF's squeezing too). A context fastsha_init()
 * refused is refused by every call on it (see there); one it never set
 * up (uninitialised memory, or zeroed, which reads as SHA-1 from a zero
 * state) cannot be told apart from a real one and gives wrong digests.
 */
typedef struct fastsha_ctx {
	uint32_t alg;       /* the fastsha_alg */
	uint32_t reserved;
	union {
		uint64_t align; /* the per-algorithm context lives here */
		uint8_t bytes[464]; /* KangarooTwelve's two sponges; 208 before 0.3 */
	} u;
} fastsha_ctx;

/**
 * fastsha_init() - start a computation of algorithm @alg.
 * @ctx: the context to (re)initialise.
 * @alg: the algorithm.
 *
 * Any previous computation in @ctx is discarded, on failure too.
 *
 * Return: 0, or -1 when @alg is out of range: @ctx is then refused until
 * initialised again (fastsha_update() leaves it as it is,
 * fastsha_final() and fastsha_final_bits() write nothing,
 * fastsha_squeeze() and fastsha_final_detect() return -1).
 * Thread-safe for distinct contexts.
 */
FASTSHA_API int fastsha_init(fastsha_ctx *ctx, fastsha_alg alg);

/**
 * fastsha_update() - add @len bytes at @data to the message.
 * @ctx:  a context set up by fastsha_init(); it changes. A refused one
 *        (fastsha_init() failed) is left as it is.
 * @data: the bytes; may be NULL when @len is 0. Any alignment.
 * @len:  how many bytes; any size_t.
 *
 * After fastsha_squeeze() has begun on an XOF the input has ended: the
 * bytes are ignored. Thread-safe for distinct contexts.
 */
FASTSHA_API void fastsha_update(fastsha_ctx *ctx, const void *data, size_t len);

/**
 * fastsha_final() - the digest of everything added so far.
 * @ctx: the context; not changed, so it may go on (a running digest).
 * @out: fastsha_alg_digest_size() bytes, big-endian as the *sum tools print.
 *
 * For an extendable-output algorithm: its first fastsha_alg_digest_size()
 * bytes (after fastsha_squeeze() has begun: the next ones, @ctx unchanged).
 * A refused context (fastsha_init() failed): nothing written.
 *
 * Thread-safe for distinct contexts and for concurrent readers of one.
 */
FASTSHA_API void fastsha_final(const fastsha_ctx *ctx, uint8_t *out);

/**
 * fastsha_final_bits() - the digest of a message ending in a partial byte.
 * @ctx:   the context holding the whole bytes; not changed.
 * @last:  the trailing bits, in its most significant bits, first bit
 *         highest (for the Keccak family too, whose FIPS 202 strings
 *         fill a byte from its lowest bit: the library reverses them).
 * @nbits: how many bits of @last belong to the message, 0..7 (mod 8).
 * @out:   fastsha_alg_digest_size() bytes.
 *
 * KangarooTwelve has no bit-length messages: @nbits is ignored for it.
 * After fastsha_squeeze() has begun the message has ended: @last and
 * @nbits are ignored and the output is fastsha_final()'s. A refused
 * context: nothing written.
 *
 * Thread-safe as fastsha_final().
 */
FASTSHA_API void fastsha_final_bits(const fastsha_ctx *ctx, uint8_t last, unsigned nbits,
				    uint8_t *out);

/**
 * fastsha_digest() - the digest of one buffer under algorithm @alg.
 * @alg:  the algorithm.
 * @data: the message; may be NULL when @len is 0.
 * @len:  its length in bytes.
 * @out:  fastsha_alg_digest_size(@alg) bytes.
 *
 * Return: 0, or -1 (nothing written) when @alg is out of range.
 * Thread-safe.
 */
FASTSHA_API int fastsha_digest(fastsha_alg alg, const void *data, size_t len, uint8_t *out);

/**
 * fastsha_digest_bits() - the digest of a message given as a bit count.
 * @alg:   the algorithm.
 * @data:  ceil(@nbits / 8) bytes, the last one's bits from the top; may be
 *         NULL when @nbits is 0.
 * @nbits: the message length in bits.
 * @out:   fastsha_alg_digest_size(@alg) bytes.
 *
 * KangarooTwelve has no bit-length messages: a whole number of bytes is
 * hashed, a partial byte refused (fastsha_final_bits() ignores @nbits for
 * it instead: it cannot fail).
 *
 * Return: 0, or -1 (nothing written) when @alg is out of range, or is
 * KangarooTwelve and @nbits is not a multiple of 8, or @nbits / 8 bytes
 * would not fit a size_t (2^35 bits and more where it has 32 bits).
 * Thread-safe.
 */
FASTSHA_API int fastsha_digest_bits(fastsha_alg alg, const void *data, uint64_t nbits,
				    uint8_t *out);

/**
 * fastsha_xof() - @outlen bytes of an extendable-output algorithm's output.
 * @alg:    SHAKE128/256, TurboSHAKE128/256 or KangarooTwelve.
 * @data:   the message; may be NULL when @len is 0.
 * @len:    its length.
 * @out:    @outlen bytes; may be NULL when @outlen is 0.
 * @outlen: any length; 0 writes nothing.
 *
 * The first fastsha_alg_digest_size() bytes are fastsha_digest()'s.
 *
 * Return: 0, or -1 (nothing written) when @alg is out of range or not an
 * XOF. Thread-safe.
 */
FASTSHA_API int fastsha_xof(fastsha_alg alg, const void *data, size_t len, uint8_t *out,
			    size_t outlen);

/**
 * fastsha_squeeze() - the next @outlen bytes of an XOF computation.
 * @ctx:    a context of an extendable-output algorithm; it changes.
 * @out:    @outlen bytes; may be NULL when @outlen is 0.
 * @outlen: any length; calls of any sizes give the same bytes as one.
 *
 * The first call ends the input (one of 0 bytes too): fastsha_update() after it is ignored
 * (fastsha_final() still gives a copy's output without ending anything).
 *
 * Return: 0, or -1 (nothing written) when @ctx's algorithm is not an XOF
 * or @ctx was refused (fastsha_init() failed). Thread-safe for distinct
 * contexts.
 */
FASTSHA_API int fastsha_squeeze(fastsha_ctx *ctx, uint8_t *out, size_t outlen);

/**
 * fastsha_k12() - KangarooTwelve (KT128, RFC 9861) with a customisation string.
 * @data:      the message; may be NULL when @len is 0.
 * @len:       its length.
 * @custom:    the customisation string C; may be NULL when @customlen is 0.
 * @customlen: its length.
 * @out:       @outlen bytes; may be NULL when @outlen is 0.
 * @outlen:    any length.
 *
 * Long messages run their 8 KiB leaves side by side in the Keccak lane
 * rows where the CPU has them. Thread-safe.
 */
FASTSHA_API void fastsha_k12(const void *data, size_t len, const void *custom, size_t customlen,
			     uint8_t *out, size_t outlen);

/**
 * fastsha_alg_detects() - whether @alg looks for collision attacks.
 * @alg: an algorithm.
 *
 * Return: 1 for FASTSHA_SHA1DC, else 0 (out of range included): the *_detect
 * functions below then always report 0. Thread-safe.
 */
FASTSHA_API int fastsha_alg_detects(fastsha_alg alg);

/**
 * fastsha_final_detect() - fastsha_final(), and whether an attack was found.
 * @ctx: the context; not changed.
 * @out: fastsha_alg_digest_size() bytes.
 *
 * For FASTSHA_SHA1DC with the default options (fastsha1dc_init_opts() in
 * sha1dc.h sets others): the safe-hash digest when detected.
 *
 * Return: 1 when the message was detected as one half of a collision
 * attack (FASTSHA_SHA1DC only), else 0; -1 (nothing written) when @ctx was
 * refused (fastsha_init() failed). Thread-safe as fastsha_final().
 */
FASTSHA_API int fastsha_final_detect(const fastsha_ctx *ctx, uint8_t *out);

/**
 * fastsha_digest_detect() - fastsha_digest(), and whether an attack was found.
 * @alg:  the algorithm.
 * @data: the message; may be NULL when @len is 0.
 * @len:  its length in bytes.
 * @out:  fastsha_alg_digest_size(@alg) bytes.
 *
 * Return: 1 when detected (FASTSHA_SHA1DC only), 0 when not, -1 (nothing
 * written) when @alg is out of range. Thread-safe.
 */
FASTSHA_API int fastsha_digest_detect(fastsha_alg alg, const void *data, size_t len,
				      uint8_t *out);

/**
 * struct fastsha_msg - one message of a batch.
 * @data: its bytes; may be NULL when @len is 0. Any alignment.
 * @len:  its length in bytes.
 */
typedef struct fastsha_msg {
	const void *data;
	size_t len;
} fastsha_msg;

/**
 * fastsha_many() - the digests of @n independent messages at once.
 * @alg:  the algorithm.
 * @msgs: the messages; they may overlap or repeat, @out must overlap none.
 *        @msgs and @out may be NULL when @n is 0.
 * @n:    how many; 0 does nothing.
 * @out:  @n * fastsha_alg_digest_size(@alg) bytes: digest i at
 *        i * digest size, in input order.
 *
 * Each digest equals fastsha_digest() of that message. On a CPU with a
 * multi-buffer (lane) backend several messages advance together, which is
 * faster per message than one at a time; see fastsha_many_lanes(). No
 * allocation. Thread-safe.
 *
 * Return: 0, or -1 (nothing written, @msgs not read) when @alg is out of
 * range or the @n digests would pass SIZE_MAX bytes (no buffer holds them).
 */
FASTSHA_API int fastsha_many(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out);

/**
 * fastsha_many_xof() - @outlen bytes of output for each of @n messages.
 * @alg:    an extendable-output algorithm.
 * @msgs:   the messages.
 * @n:      how many; 0 does nothing.
 * @out:    @n * @outlen bytes: message i's at i * @outlen; may be NULL
 *          when that is 0 (@msgs too when @n is 0).
 * @outlen: each message's output length; 0 writes nothing.
 *
 * Each equals fastsha_xof() of that message (post-quantum matrices: many
 * SHAKE128 outputs of a few blocks each). Thread-safe.
 *
 * Return: 0, or -1 (nothing written, @msgs not read) when @alg is out of
 * range or not an XOF, or @n * @outlen would pass SIZE_MAX.
 */
FASTSHA_API int fastsha_many_xof(fastsha_alg alg, const fastsha_msg *msgs, size_t n, uint8_t *out,
				 size_t outlen);

/**
 * fastsha_many_detect() - fastsha_many(), and which messages were detected.
 * @alg:      the algorithm.
 * @msgs:     the messages.
 * @n:        how many; 0 does nothing.
 * @out:      @n digests, as fastsha_many() (NULL, with @msgs, when @n is 0).
 * @detected: @n bytes: 1 where that message was detected as one half of a
 *            collision attack (FASTSHA_SHA1DC only), else 0; may be NULL.
 *
 * Each result equals fastsha_digest_detect() of that message. Thread-safe.
 *
 * Return: how many messages were detected (0 for other algorithms), or -1
 * (nothing written) when @alg is out of range or the @n digests would pass
 * SIZE_MAX bytes.
 */
FASTSHA_API long fastsha_many_detect(fastsha_alg alg, const fastsha_msg *msgs, size_t n,
				     uint8_t *out, uint8_t *detected);

/**
 * fastsha_chunks() - the digest of every @chunk-byte piece of one buffer.
 * @alg:   the algorithm.
 * @data:  the buffer; may be NULL when @len is 0.
 * @len:   its length.
 * @chunk: the piece size (BitTorrent v1 pieces, dm-verity and fs-verity
 *         blocks, dedup chunks). The last piece is shorter when @len is
 *         not a multiple of it and is hashed as it is; dm-verity and
 *         fs-verity hash their last block padded with zeros to @chunk,
 *         so give them a buffer padded so.
 * @out:   one digest per piece, in order; may be NULL when @len is 0.
 *
 * Thread-safe.
 *
 * Return: the number of pieces, ceil(@len / @chunk); 0 when @len or @chunk
 * is 0, @alg is out of range or the digests would pass SIZE_MAX bytes
 * (nothing written).
 */
FASTSHA_API size_t fastsha_chunks(fastsha_alg alg, const void *data, size_t len, size_t chunk,
				  uint8_t *out);

/**
 * fastsha_many_lanes() - how many messages fastsha_many() hashes at once.
 * @alg: the algorithm.
 *
 * A caller that queues messages should hand over at least this many per
 * call, and a few times more where it can. 1 means the batch calls hash
 * one message after another (no lane backend on this CPU, or one chosen).
 *
 * Return: the lane count, 0 when @alg is out of range. Thread-safe.
 */
FASTSHA_API unsigned fastsha_many_lanes(fastsha_alg alg);

/**
 * fastsha_many_backend() - the backend that fastsha_many() with @alg uses now.
 * @alg: an algorithm.
 *
 * A lane backend such as "shani_x4" on a CPU that has one, else the same
 * single-message backend as fastsha_backend(). Near the end of a batch the
 * last few messages may finish on the single-message backend (see
 * docs/benchmarks.md for the thresholds).
 *
 * Return: a static string, or NULL when @alg is out of range. Thread-safe.
 */
FASTSHA_API const char *fastsha_many_backend(fastsha_alg alg);

/*
 * Backends per algorithm. SHA-224 runs on the SHA-256 backends, SHA1DC on
 * the SHA-1 ones, SHA-384, SHA-512/224 and SHA-512/256 on the SHA-512 ones,
 * and every Keccak algorithm (SHA-3, SHAKE, Keccak-256, TurboSHAKE,
 * KangarooTwelve) on the Keccak ones: the queries for those algorithms
 * answer for the shared table, and choosing a backend for one chooses it
 * for its whole family. The environment variable FASTSHA_BACKEND chooses
 * at start-up: "portable" (every family that has a backend of that name),
 * or per family "sha256:shani,sha512:avx2" (family names sha1, sha256,
 * sha512, keccak); a name this CPU cannot run is ignored.
 */

/**
 * fastsha_backend() - the backend that hashing with @alg uses now.
 * @alg: an algorithm.
 *
 * The first call for a family resolves its backend; no init call is needed.
 *
 * Return: a static string such as "shani", or NULL when @alg is out of
 * range. Thread-safe.
 */
FASTSHA_API const char *fastsha_backend(fastsha_alg alg);

/**
 * fastsha_backend_count() - how many backends @alg's family was built with.
 * @alg: an algorithm.
 *
 * Backends are numbered 0..count-1 best first; "reference" is last and never
 * chosen on its own.
 *
 * Return: the count, 0 when @alg is out of range. Thread-safe.
 */
FASTSHA_API size_t fastsha_backend_count(fastsha_alg alg);

/**
 * fastsha_backend_name() - the name of @alg's built backend @i.
 * @alg: an algorithm.
 * @i:   0..fastsha_backend_count(@alg)-1.
 *
 * Return: a static string, or NULL when either is out of range. Thread-safe.
 */
FASTSHA_API const char *fastsha_backend_name(fastsha_alg alg, size_t i);

/**
 * fastsha_backend_supported() - whether this CPU and OS run @alg's backend @i.
 * @alg: an algorithm.
 * @i:   0..fastsha_backend_count(@alg)-1.
 *
 * Return: 1 when they do, 0 when not or when either is out of range.
 * Thread-safe.
 */
FASTSHA_API int fastsha_backend_supported(fastsha_alg alg, size_t i);

/**
 * fastsha_backend_lanes() - how many messages @alg's backend @i hashes at once.
 * @alg: an algorithm.
 * @i:   0..fastsha_backend_count(@alg)-1.
 *
 * Return: 1 for single-stream, more for multi-buffer, 0 when out of range.
 * Thread-safe.
 */
FASTSHA_API unsigned fastsha_backend_lanes(fastsha_alg alg, size_t i);

/**
 * fastsha_use_backend() - choose the backend of @alg's family for the process.
 * @alg:  an algorithm.
 * @name: a name as fastsha_backend_name() lists it, or NULL to go back to
 *        automatic choice (which again honours FASTSHA_BACKEND).
 *
 * Meant for tools, benchmarks and tests. Every backend of a family keeps
 * the same state, so switching while other threads hash is safe.
 * Thread-safe.
 *
 * Return: FASTSHA_SELECT_OK, or a negative enum fastsha_select_result (an
 * out-of-range @alg gives FASTSHA_SELECT_UNKNOWN) and nothing changes.
 */
FASTSHA_API int fastsha_use_backend(fastsha_alg alg, const char *name);

#ifdef __cplusplus
}
#endif

#endif
