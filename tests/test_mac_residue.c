/* SPDX-License-Identifier: MIT */
/*
 * What the keyed entry points (fastsha/mac.h) leave on the stack below
 * their caller once they return, under one backend of one family, every
 * algorithm of the family in turn.
 *
 * Each entry point runs from a function of its own after the 64 KiB below
 * that frame have been painted with a pattern; a third function then copies
 * those bytes (volatile byte reads, outside any object: not instrumented by
 * ASan) to static memory, where they are searched for the call's secrets:
 * every 8-byte window, at any offset, of the key (password, IKM), its
 * padded blocks (key ^ ipad, key ^ opad, over the key's bytes), the keyed
 * chaining words after them, the PRK, PBKDF2's U values, HKDF's extract
 * digest and T values, each as stored and with each word's bytes reversed
 * (a word loaded big-endian and stored native); for SHA-1 and SHA-256 also
 * each aligned 4-byte word of those. Everything the test itself holds
 * (keys, messages, outputs, the expected secrets) is static, so a match
 * below the caller is a copy a library frame left: a named buffer not
 * wiped, or a spill slot or a kernel's saved register the compiler made.
 * The deepest byte that is no longer the pattern is how much stack the
 * call used. Painted bytes cannot match (no secret holds the pattern), and
 * the 4-byte words are few (about a hundred a call), so a chance match of
 * an unrelated value in the few KiB a call writes is about 1 in 10^5 a
 * run; the 8-byte ones never.
 *
 PBKDF2 must leave none in every build (it clears 32 KiB of stack), every
 * other call none in a library built with FASTSHA_WIPE_STACK (mac.h: they
 * then clear the stack their work used, fsha_wipe_stack()). Without that
 * option their residue is reported with -v, not asserted: before the
 * clearing this failed under every row for the one-shot HMAC, HKDF and
 * key_init, and hmac_final and hmac_many left the outer words under
 * SHA-NI, avx2_x8 and the portable SHA-512. "-v" prints the table for every call (bytes of
 * each secret left, deepest match, stack used: the clearing's zeros
 * count). On x86-64 it also says which secrets the xmm registers hold
 * right after the call: reported, never a failure (mac.h). What the test
 * does not look for: the inner hash's running state after message blocks
 * (it depends on the message, and the context holds it anyway).
 *
 * Skipped under valgrind (the bytes below the stack pointer are undefined
 * to memcheck, rightly) and run, but not asserted, under ASan: its
 * instrumented frames hold fake-stack redzones and its runtime's, so the
 * layout measured is not the release build's (the release run asserts).
 *
 * Usage: test_mac_residue FAMILY BACKEND [-v]; BACKEND "auto" keeps the
 * automatic choice.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsha/mac.h"
#include "testutil.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RESIDUE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RESIDUE_ASAN 1
#endif
#ifndef RESIDUE_ASAN
#define RESIDUE_ASAN 0
#endif
/* Whether the library clears after HMAC and HKDF too (CMakeLists.txt's
 * FASTSHA_WIPE_STACK, defined for the tests as for the library). */
#if defined(FASTSHA_WIPE_STACK) && FASTSHA_WIPE_STACK
#define RESIDUE_ALL 1
#else
#define RESIDUE_ALL 0
#endif

/* Painted below the caller's frame, and searched: PBKDF2 clears 32 KiB,
 * the deepest call measured used under 20 KiB. */
enum { PAINT = 72 * 1024, SCAN = 64 * 1024 };
#define PATTERN 0xa7

/* The secrets' kinds, one column each in the table. */
enum kind { K_KEY, K_PAD, K_CV, K_PRK, K_MID, K_OUT, NKINDS };
static const char *const kind_name[NKINDS] = { "key", "pad", "cv", "prk", "mid", "out" };

/* The secrets of the call under test, as needles. */
struct needle8 {
	uint64_t v;
	int kind;
};
struct needle4 {
	uint32_t v;
	int kind;
};
static struct needle8 n8[8192];
static struct needle4 n4[1024];
static size_t nn8, nn4;
static int kinds_used; /* bit per kind with needles */

/* Word size of the family's chaining words: 4, or 8 for SHA-512's. */
static size_t wsz(void)
{
	return BS() == 128 ? 8 : 4;
}

/* Secret @p (@n bytes) of kind @kind: its 8-byte windows at every offset,
 * as stored and with each word reversed, and its aligned 4-byte words both
 * ways for the 32-bit families. */
static void add_secret(int kind, const uint8_t *p, size_t n)
{
	const size_t w = wsz();
	uint8_t sw[256];
	if (n > sizeof(sw))
		n = sizeof(sw);
	/* Byte-reverse each whole word; a ragged end stays as it is. */
	memcpy(sw, p, n);
	for (size_t i = 0; i + w <= n; i += w)
		for (size_t j = 0; j < w; j++)
			sw[i + j] = p[i + w - 1 - j];
	kinds_used |= 1 << kind;
	for (int way = 0; way < 2; way++) {
		const uint8_t *s = way ? sw : p;
		for (size_t i = 0; i + 8 <= n && nn8 < sizeof(n8) / sizeof(n8[0]); i++) {
			memcpy(&n8[nn8].v, s + i, 8);
			n8[nn8++].kind = kind;
		}
		for (size_t i = 0; w == 4 && i + 4 <= n && nn4 < sizeof(n4) / sizeof(n4[0]); i += 4) {
			memcpy(&n4[nn4].v, s + i, 4);
			n4[nn4++].kind = kind;
		}
	}
}

/* A key's secrets: its bytes, its padded blocks over them, its two
 * chaining values (the prepared key's words, which a long key's hash
 * stands behind). @kk is the key's kind: K_KEY, or K_PRK for HKDF's. */
static void add_key(int kk, const uint8_t *key, size_t keylen)
{
	uint8_t hk[DMAX], pad[256];
	add_secret(kk, key, keylen);
	if (keylen > BS()) {
		fastsha_digest(test_alg, key, keylen, hk);
		key = hk;
		keylen = DS();
		add_secret(kk, key, keylen);
	}
	for (int p = 0; p < 2; p++) {
		for (size_t i = 0; i < keylen; i++)
			pad[i] = key[i] ^ (p ? 0x5c : 0x36);
		add_secret(K_PAD, pad, keylen);
	}
	static fastsha_hmac_key k;
	fastsha_hmac_key_init(&k, test_alg, key, keylen);
	/* The state's bytes: 20 of SHA-1's, 32 of SHA-256's and SHA-224's, 64
	 * of SHA-512's and its cuts. */
	const size_t ssz = BS() == 128 ? 64 : DS() == 20 ? 20 : 32;
	add_secret(K_CV, k.u.bytes, ssz);
	add_secret(K_CV, k.u.bytes + 64, ssz);
	fastsha_hmac_key_wipe(&k);
}

static int cmp8(const void *a, const void *b)
{
	uint64_t x = ((const struct needle8 *)a)->v, y = ((const struct needle8 *)b)->v;
	return x < y ? -1 : x > y;
}

static int cmp4(const void *a, const void *b)
{
	uint32_t x = ((const struct needle4 *)a)->v, y = ((const struct needle4 *)b)->v;
	return x < y ? -1 : x > y;
}

/* The test's inputs and outputs: static, never on the stack searched. */
static uint8_t key[300], msg[1000], salt[40], info[40], out[17 * 3 * 64], tmp[4 * 64];
static fastsha_hmac_key pk;
static fastsha_hmac_ctx ctx;
static fastsha_msg msgs[17], pws[17], salts[17];

/* The calls, each one entry point (or the streaming triple). */
enum call {
	C_HMAC64, C_HMAC1000, C_HMAC_LONGKEY, C_KEY_INIT, C_INIT_UPDATE, C_FINAL, C_MANY1,
	C_MANY3, C_MANY17, C_HKDF, C_EXTRACT, C_EXPAND, C_PBKDF2, C_PBKDF2_MANY, NCALLS
};
static const char *const call_name[NCALLS] = {
	"hmac 64 B",   "hmac 1000 B",  "hmac long key", "hmac_key_init", "init+update",
	"hmac_final",  "hmac_many 1",  "hmac_many 3",  "hmac_many 17",  "hkdf 42 B",     "hkdf_extract",
	"hkdf_expand", "pbkdf2",       "pbkdf2_many 17",
};

enum { KEYLEN = 32, HKDF_SALT = 13, HKDF_IKM = 22, HKDF_INFO = 10, HKDF_OUT = 42 };

/* The secrets of call @c under test_alg, into the needle arrays. */
static void secrets_of(enum call c)
{
	nn8 = nn4 = 0;
	kinds_used = 0;
	const size_t d = DS();
	switch (c) {
	case C_HMAC_LONGKEY:
		add_key(K_KEY, key, BS() + 17);
		break;
	case C_HKDF:
	case C_EXTRACT:
	case C_EXPAND: {
		uint8_t prk[DMAX], blk[128 + HKDF_IKM], inner[DMAX], t[2 * 64];
		fastsha_hkdf_extract(test_alg, salt, HKDF_SALT, key, HKDF_IKM, prk);
		if (c != C_EXPAND) { /* the caller's own PRK is not the call's secret */
			add_secret(K_KEY, key, HKDF_IKM);
			/* The inner hash of extract: H((salt ^ ipad) || IKM), which
			 * with the salt's public outer words gives the PRK. */
			memset(blk, 0x36, BS());
			for (size_t i = 0; i < HKDF_SALT; i++)
				blk[i] ^= salt[i];
			memcpy(blk + BS(), key, HKDF_IKM);
			fastsha_digest(test_alg, blk, BS() + HKDF_IKM, inner);
			add_secret(K_MID, inner, d);
			add_secret(K_PRK, prk, d);
		}
		if (c != C_EXTRACT) {
			add_key(K_PRK, prk, d);
			memcpy(tmp, prk, d); /* expand's PRK, the caller's */
			/* Whole T values, past the output's end too. */
			fastsha_hkdf_expand(test_alg, prk, d, info, HKDF_INFO, t, 2 * d);
			add_secret(K_OUT, t, 2 * d);
		}
		break;
	}
	case C_PBKDF2:
	case C_PBKDF2_MANY: {
		add_key(K_KEY, key, 20);
		const uint32_t nblk = c == C_PBKDF2 ? 3 : 1;
		uint8_t s[40], u[64];
		for (uint32_t b = 1; b <= nblk; b++) {
			memcpy(s, salt, 4);
			s[4] = 0, s[5] = 0, s[6] = 0, s[7] = (uint8_t)b;
			fastsha_hmac(test_alg, key, 20, s, 8, u);
			add_secret(K_MID, u, d);
			for (int j = 2; j <= 3; j++) {
				fastsha_hmac(test_alg, key, 20, u, d, u);
				add_secret(K_MID, u, d);
			}
		}
		fastsha_pbkdf2(test_alg, key, 20, salt, 4, 3, tmp, nblk * d);
		add_secret(K_OUT, tmp, nblk * d);
		break;
	}
	case C_MANY1:
	case C_MANY3:
	case C_MANY17: {
		/* And each message's inner digest, H((key ^ ipad) || m): with
		 * the key's public-to-nobody outer words it gives the tag, and
		 * the lanes write it to their tail blocks for the outer hash. */
		add_key(K_KEY, key, KEYLEN);
		const size_t nm = c == C_MANY1 ? 1 : c == C_MANY3 ? 3 : 17;
		uint8_t pad[128], inner[DMAX];
		memset(pad, 0x36, BS());
		for (size_t i = 0; i < KEYLEN; i++)
			pad[i] ^= key[i];
		for (size_t i = 0; i < nm; i++) {
			fastsha_ctx x;
			fastsha_init(&x, test_alg);
			fastsha_update(&x, pad, BS());
			fastsha_update(&x, msgs[i].data, msgs[i].len);
			fastsha_final(&x, inner);
			add_secret(K_MID, inner, d);
		}
		break;
	}
	default:
		add_key(K_KEY, key, KEYLEN);
	}
	qsort(n8, nn8, sizeof(n8[0]), cmp8);
	qsort(n4, nn4, sizeof(n4[0]), cmp4);
}

static __attribute__((noinline)) void paint_stack(void)
{
	uint8_t b[PAINT];
	memset(b, PATTERN, sizeof(b));
	__asm__ __volatile__("" : : "r"(b) : "memory"); /* the stores stay */
}

/* The xmm registers right after the call (x86-64), and the top of the
 * calling frame. */
static uint8_t xmm[16 * 16];
static const volatile uint8_t *call_top;

#if defined(__x86_64__)
#define SAVE_XMM()                                                                                 \
	__asm__ __volatile__("movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\t"                   \
			     "movdqu %%xmm2, 32(%0)\n\tmovdqu %%xmm3, 48(%0)\n\t"                  \
			     "movdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"                  \
			     "movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)\n\t"                 \
			     "movdqu %%xmm8, 128(%0)\n\tmovdqu %%xmm9, 144(%0)\n\t"                \
			     "movdqu %%xmm10, 160(%0)\n\tmovdqu %%xmm11, 176(%0)\n\t"              \
			     "movdqu %%xmm12, 192(%0)\n\tmovdqu %%xmm13, 208(%0)\n\t"              \
			     "movdqu %%xmm14, 224(%0)\n\tmovdqu %%xmm15, 240(%0)"                  \
			     :                                                                     \
			     : "r"(xmm)                                                            \
			     : "memory")
#else
#define SAVE_XMM() ((void)0)
#endif

/* What call @c starts from: hmac_final() a context with a message in it. */
static void prep(enum call c)
{
	if (c == C_FINAL) {
		fastsha_hmac_init(&ctx, &pk);
		fastsha_hmac_update(&ctx, msg, 64 + 10);
	}
}

/* Call @c, from a frame of its own just below the painted caller's. */
static __attribute__((noinline)) void call(enum call c)
{
	const fastsha_alg a = test_alg;
	const size_t d = DS(), B = BS();
	call_top = (const volatile uint8_t *)__builtin_frame_address(0);
	switch (c) {
	case C_HMAC64:
		fastsha_hmac(a, key, KEYLEN, msg, 64, out);
		break;
	case C_HMAC1000:
		fastsha_hmac(a, key, KEYLEN, msg, 1000, out);
		break;
	case C_HMAC_LONGKEY:
		fastsha_hmac(a, key, B + 17, msg, 64, out);
		break;
	case C_KEY_INIT:
		fastsha_hmac_key_init(&pk, a, key, KEYLEN);
		break;
	case C_INIT_UPDATE:
		fastsha_hmac_init(&ctx, &pk);
		fastsha_hmac_update(&ctx, msg, 10);
		fastsha_hmac_update(&ctx, msg + 10, 2 * B + 3);
		break;
	case C_FINAL: /* on the context prep() left */
		fastsha_hmac_final(&ctx, out);
		break;
	case C_MANY1:
		fastsha_hmac_many(&pk, msgs, 1, out);
		break;
	case C_MANY3: /* fewer messages than most lane rows have lanes */
		fastsha_hmac_many(&pk, msgs, 3, out);
		break;
	case C_MANY17:
		fastsha_hmac_many(&pk, msgs, 17, out);
		break;
	case C_HKDF:
		fastsha_hkdf(a, salt, HKDF_SALT, key, HKDF_IKM, info, HKDF_INFO, out, HKDF_OUT);
		break;
	case C_EXTRACT:
		fastsha_hkdf_extract(a, salt, HKDF_SALT, key, HKDF_IKM, out);
		break;
	case C_EXPAND:
		fastsha_hkdf_expand(a, tmp, d, info, HKDF_INFO, out, HKDF_OUT);
		break;
	case C_PBKDF2:
		fastsha_pbkdf2(a, key, 20, salt, 4, 3, out, 3 * d);
		break;
	case C_PBKDF2_MANY:
		fastsha_pbkdf2_many(a, pws, salts, 17, 3, out, d);
		break;
	default:
		break;
	}
	SAVE_XMM();
}

/* The SCAN bytes below the caller's frame, copied as they are. */
static uint8_t snap[SCAN];
static const volatile uint8_t *snap_top;

static __attribute__((noinline, no_sanitize_address)) void snapshot(void)
{
	const volatile uint8_t *top = (const volatile uint8_t *)__builtin_frame_address(0);
	const volatile uint8_t *b = top - SCAN;
	for (size_t i = 0; i < SCAN; i++)
		snap[i] = b[i];
	snap_top = top;
}

/* Which kinds the 8- and 4-byte windows of @p (@n bytes) match, per byte
 * in @mark (a kind bit per byte); returns the kind bits of all. */
static int search(const uint8_t *p, size_t n, uint8_t *mark)
{
	int all = 0;
	for (size_t i = 0; i + 4 <= n; i++) {
		if (i + 8 <= n) {
			struct needle8 k;
			memcpy(&k.v, p + i, 8);
			const struct needle8 *f = bsearch(&k, n8, nn8, sizeof(n8[0]), cmp8);
			if (f) {
				for (size_t j = 0; j < 8; j++)
					mark[i + j] |= (uint8_t)(1 << f->kind);
				all |= 1 << f->kind;
			}
		}
		struct needle4 k4;
		memcpy(&k4.v, p + i, 4);
		const struct needle4 *f4 = nn4 ? bsearch(&k4, n4, nn4, sizeof(n4[0]), cmp4) : NULL;
		if (f4) {
			for (size_t j = 0; j < 4; j++)
				mark[i + j] |= (uint8_t)(1 << f4->kind);
			all |= 1 << f4->kind;
		}
	}
	return all;
}

static int verbose;

/* The kind names of bits @k, as "key,cv", or "-". */
static const char *kinds_str(int k, char *buf)
{
	buf[0] = 0;
	for (int i = 0; i < NKINDS; i++)
		if (k & (1 << i)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, kind_name[i]);
		}
	if (!buf[0])
		strcpy(buf, "-");
	return buf;
}

static void run_call(enum call c)
{
	static uint8_t mark[SCAN];
	secrets_of(c);
	prep(c);
	call(c); /* once unmeasured: the first call of a libc function through the
		  * PLT saves the vector registers on the stack as it binds */
	prep(c);
	paint_stack();
	call(c);
	snapshot();
	/* From the snapshot's frame top down to the call's frame top: the
	 * bytes between are the caller's side (this frame's return address
	 * and saved registers), not the call's. */
	if (call_top > snap_top || snap_top - call_top > 512) {
		fprintf(stderr, "FAIL: frames not as expected (call %p, snapshot %p)\n",
			(const void *)call_top, (const void *)snap_top);
		exit(1);
	}
	const size_t skip = (size_t)(snap_top - call_top);
	size_t used = 0;
	for (size_t i = 0; i + skip < SCAN; i++)
		if (snap[i] != PATTERN) {
			used = SCAN - skip - i;
			break;
		}
	memset(mark, 0, sizeof(mark));
	search(snap, SCAN - skip, mark);
	size_t bytes[NKINDS] = { 0 }, total = 0, deepest = 0;
	for (size_t i = 0; i + skip < SCAN; i++)
		if (mark[i]) {
			total++;
			if (!deepest)
				deepest = SCAN - skip - i;
			for (int k = 0; k < NKINDS; k++)
				if (mark[i] & (1 << k))
					bytes[k]++;
		}
	static uint8_t xmark[sizeof(xmm)];
	memset(xmark, 0, sizeof(xmark));
	char xk[64];
	kinds_str(search(xmm, sizeof(xmm), xmark), xk);
	const int fail = total && !RESIDUE_ASAN &&
			 (RESIDUE_ALL || c == C_PBKDF2 || c == C_PBKDF2_MANY);
	if (verbose || fail) {
		printf("%-11s %-15s stack used %6zu  residue %5zu B, deepest %6zu  [", fastsha_alg_name(test_alg),
		       call_name[c], used, total, deepest);
		for (int k = 0; k < NKINDS; k++)
			if (kinds_used & (1 << k))
				printf(" %s %zu", kind_name[k], bytes[k]);
		printf(" ]  xmm: %s\n", xk);
	}
	if (verbose) /* the whole table: count, do not stop at CHECK's limit */
		test_failures += fail;
	else
		CHECK(!fail,
		      "%s %s left %zu bytes of its secrets on the stack, the deepest %zu bytes below "
		      "its caller",
		      fastsha_alg_name(test_alg), call_name[c], total, deepest);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s FAMILY BACKEND [-v]\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[2], "auto") == 0) {
		test_fam = test_family(argv[1]);
		test_alg = test_fam->algs[0];
	} else {
		test_use_backend(argv[1], argv[2]);
	}
	verbose = argc > 3 && strcmp(argv[3], "-v") == 0;
	const char *pre = getenv("LD_PRELOAD");
	if (pre && strstr(pre, "vgpreload")) {
		printf("SKIP: valgrind calls the stack below the caller undefined\n");
		return TEST_SKIP;
	}
	if (RESIDUE_ASAN)
		printf("ASan build: figures reported, not asserted (its frames are not the "
		       "release build's)\n");
	else if (!RESIDUE_ALL)
		printf("built without FASTSHA_WIPE_STACK: only PBKDF2's residue asserted (HMAC's "
		       "and HKDF's reported with -v)\n");
	prng_seed(0x726573);
	prng_fill(key, sizeof(key));
	prng_fill(msg, sizeof(msg));
	prng_fill(salt, sizeof(salt));
	prng_fill(info, sizeof(info));
	for (size_t i = 0; i < 17; i++) {
		msgs[i] = (fastsha_msg){ msg + i, 64 };
		pws[i] = (fastsha_msg){ key, 20 };
		salts[i] = (fastsha_msg){ salt, 4 };
	}
	for (size_t i = 0; i < test_fam->nalgs; i++) {
		test_alg = test_fam->algs[i];
		fastsha_hmac_key_init(&pk, test_alg, key, KEYLEN);
		for (int c = 0; c < NCALLS; c++)
			run_call((enum call)c);
		fastsha_hmac_key_wipe(&pk);
	}
	return test_finish("test_mac_residue");
}
