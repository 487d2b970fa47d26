/* SPDX-License-Identifier: MIT */
/*
 * fastsha._fastsha: the Python binding, on the Limited API of CPython 3.11
 * (Py_LIMITED_API comes from CMake: python_add_library(... USE_SABI 3.11)),
 * so one abi3 wheel serves every CPython from 3.11 on. It is a thin layer
 * over the public API of include/fastsha/fastsha.h: the algorithm
 * descriptor, the pointer-free fastsha_ctx, fastsha_many/fastsha_chunks for
 * batches, and the backend queries. Nothing here knows about backends.
 *
 * hashlib's rules, taken from CPython's Modules/hashlib.h and
 * Modules/_hashopenssl.c (3.11) and kept on purpose:
 * - Input: a str is refused ("Strings must be encoded before hashing"), a
 *   non-buffer too ("object supporting the buffer API required"); any
 *   C-contiguous buffer is hashed as its raw bytes (PyBUF_SIMPLE), so
 *   array('I') and 2-D C-contiguous memoryviews work and strided views
 *   raise BufferError from the exporter.
 * - The GIL is released for inputs of HASHLIB_GIL_MINSIZE (2048) bytes and
 *   more. An object gets a lock on its first such update and from then on
 *   every access to its state takes that lock, so updates from several
 *   threads are atomic and digest()/copy() never see half an update. Unlike
 *   CPython 3.11, a small update on a locked object keeps the GIL: it tries
 *   the lock first and only waits for it (GIL released) when another thread
 *   holds it, as CPython's ENTER_HASHLIB does for digest().
 * - The constructors take the data positionally, as data= (3.14's spelling)
 *   or as string= (3.11-3.13's); usedforsecurity is accepted and ignored.
 *
 * SHA-3 and SHAKE as hashlib has them (CPython 3.11 on OpenSSL): the
 * extendable-output algorithms (SHAKE, and fastsha's own TurboSHAKE and
 * KangarooTwelve) are objects of a second type, HashXOF, whose digest() and
 * hexdigest() take the length, as hashlib's HASHXOF. Keccak-256, TurboSHAKE
 * with a domain byte and KangarooTwelve with a customisation string are
 * fastsha's own constructors, outside hashlib's names.
 *
 * Beyond hashlib: many() marshals every buffer under the GIL, then releases
 * it once for the whole batch and calls fastsha_many() (the multi-buffer
 * lanes where the CPU has them; fastsha_many_xof() with a length for an
 * XOF); many_packed() hands a flat buffer of fixed-size records to
 * fastsha_chunks(); file()/files() open, read and hash in C with the GIL
 * released, files() on up to `threads` POSIX threads, and stop on Ctrl-C
 * (see "Ctrl-C" below).
 *
 * Algorithm names are hashlib.new()'s, from the binding's own table
 * (alg_names), not the library's fastsha_alg_from_name(), which has rules
 * of its own (see alg_names).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fastsha/fastsha.h"
#include "fastsha/mac.h"
#include "fastsha/sha3.h"

/* CPython's HASHLIB_GIL_MINSIZE: smaller inputs keep the GIL. */
#define GIL_MINSIZE 2048

/*
 * The read size of file()/files(): 128 KiB, as the CLI, where 16 KiB cost
 * 4% more CPU per GiB and 64 KiB..1 MiB measured equal (tools/fastsha/cli_read.c,
 * docs/benchmarks-history.md, "CLI").
 */
#define READ_SIZE ((size_t)128 * 1024)

/* files() never starts more threads than this, whatever it is asked: each
 * has a READ_SIZE buffer, and past a few per core only slow storage gains. */
#define FILES_MAX_THREADS 256

typedef struct {
	PyTypeObject *hash_type; /* fixed-size digests */
	PyTypeObject *xof_type;  /* extendable output: digest(length) */
	PyTypeObject *hmac_type;
	PyObject *names[FASTSHA_ALG_COUNT];      /* interned canonical names */
	PyObject *hmac_names[FASTSHA_ALG_COUNT]; /* "hmac-" and the name */
	/* HMAC digestmods that are ours: constructor -> algorithm (int) */
	PyObject *digestmods;
	PyObject *std_hmac[2]; /* the standard hmac.new and hmac.digest, or NULL */
	/* 1 where mac.h takes the algorithm (SHA-1 and SHA-2; the library is
	 * asked at import, not assumed, by a call that hashes nothing: see
	 * module_exec) */
	unsigned char mac_ok[FASTSHA_ALG_COUNT];
} modstate;

/* A hash object's state: the descriptor's context, or for TurboSHAKE with
 * a domain byte of its own the sponge API's (the descriptor's has 0x1f). */
union hash_state {
	fastsha_ctx ctx;
	fastsha3_ctx sponge;
};

typedef struct {
	PyObject_HEAD
	/* NULL until the first update that releases the GIL; from then on
	 * every read or write of the state holds it. */
	PyThread_type_lock lock;
	fastsha_alg alg;
	/* TurboSHAKE's domain byte when it is not the default: u.sponge is
	 * the state, driven by fastturboshake_*(). 0: u.ctx is. */
	uint8_t domain;
	/*
	 * KangarooTwelve with a customisation string: a tuple of the message
	 * and the string (bytes), for fastsha_k12() at each digest(), and u
	 * is unused. One pointer, not two: with two the object was 520 bytes
	 * on a 64-bit build, past pymalloc's 512 (SMALL_REQUEST_THRESHOLD),
	 * and every constructor and copy() went to malloc() and free() (about
	 * 200 instructions a call under callgrind; see the assertion below).
	 * The library's streaming K12 ends the message with the empty string's
	 * encoding, and no sequence of updates turns that into another
	 * string's, so such an object takes its data in the constructor only.
	 * A tuple of bytes holds no object that can refer back to us: no cycle
	 * can pass through it, and the type needs no GC support. NULL for
	 * every other object.
	 */
	PyObject *k12;
	union hash_state u;
} hashobj;

/* Small enough for pymalloc (CPython's SMALL_REQUEST_THRESHOLD, 512 since
 * 3.8), where the object header is the usual 16 bytes (not a
 * Py_TRACE_REFS or free-threaded build). */
#if !defined(Py_TRACE_REFS) && !defined(Py_GIL_DISABLED) && SIZE_MAX == UINT64_MAX
_Static_assert(sizeof(hashobj) <= 512, "hashobj outgrew pymalloc's 512-byte objects");
#endif

static modstate *state_of_module(PyObject *module)
{
	return (modstate *)PyModule_GetState(module);
}

static modstate *state_of_hash(PyObject *self)
{
	return (modstate *)PyType_GetModuleState(Py_TYPE(self));
}

/* ---- arguments ---------------------------------------------------------- */

/* One parameter: positional-or-keyword when its index is below npos. */
struct param {
	const char *name;
	PyObject *value; /* borrowed; NULL when not given */
};

/*
 * The running Python's words for a keyword that names no parameter, as
 * pieces around the function's name and the keyword: "'foo' is an invalid
 * keyword argument for f()" to 3.12, "f() got an unexpected keyword
 * argument 'foo'" from 3.13. These are 3.11's; unknown_keyword_words()
 * reads the running Python's once, at import, off the TypeError of an
 * Argument Clinic function that every CPython has (int.to_bytes(), whose
 * words are hashlib's: both come from _PyArg_UnpackKeywords()), rather
 * than keep a table of versions. Anything it cannot read leaves these.
 */
static struct {
	int name_first; /* the function's name comes before the keyword */
	char pre[64], mid[64], post[64];
} unknown_kw = { 0, "'", "' is an invalid keyword argument for ", "()" };

/* @len bytes of @src into @dst (a piece of unknown_kw): 0, or -1 when they
 * do not fit. */
static int kw_piece(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		return -1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

static void unknown_keyword_words(void)
{
	static const char fname[] = "to_bytes", key[] = "fastsha_probe";
	PyObject *zero = PyLong_FromLong(0), *f = NULL, *noargs = NULL, *kw = NULL;
	PyObject *type = NULL, *value = NULL, *tb = NULL, *msg = NULL;
	if (!zero || !(f = PyObject_GetAttrString(zero, fname)) || !(noargs = PyTuple_New(0)) ||
	    !(kw = Py_BuildValue("{s:i}", key, 0)))
		goto done;
	PyObject *r = PyObject_Call(f, noargs, kw);
	if (r) { /* no error: keep 3.11's words */
		Py_DECREF(r);
		goto done;
	}
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (type != PyExc_TypeError || !value || !(msg = PyObject_Str(value)))
		goto done;
	Py_ssize_t len;
	const char *m = PyUnicode_AsUTF8AndSize(msg, &len);
	const char *n = m ? strstr(m, fname) : NULL, *k = m ? strstr(m, key) : NULL;
	if (!n || !k || strstr(n + 1, fname) || strstr(k + 1, key))
		goto done;
	int name_first = n < k;
	const char *a = name_first ? n : k, *b = name_first ? k : n;
	size_t alen = name_first ? sizeof fname - 1 : sizeof key - 1;
	size_t blen = name_first ? sizeof key - 1 : sizeof fname - 1;
	char pre[sizeof unknown_kw.pre], mid[sizeof unknown_kw.mid], post[sizeof unknown_kw.post];
	if (a + alen > b || kw_piece(pre, sizeof pre, m, (size_t)(a - m)) < 0 ||
	    kw_piece(mid, sizeof mid, a + alen, (size_t)(b - a - alen)) < 0 ||
	    kw_piece(post, sizeof post, b + blen, (size_t)(m + len - b - blen)) < 0)
		goto done;
	unknown_kw.name_first = name_first;
	memcpy(unknown_kw.pre, pre, sizeof pre);
	memcpy(unknown_kw.mid, mid, sizeof mid);
	memcpy(unknown_kw.post, post, sizeof post);
done:
	PyErr_Clear(); /* a failure to read them is no failure to import */
	Py_XDECREF(msg);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	Py_XDECREF(kw);
	Py_XDECREF(noargs);
	Py_XDECREF(f);
	Py_XDECREF(zero);
}

/*
 * METH_FASTCALL | METH_KEYWORDS parsing (the Limited API has no
 * _PyArg_Parser): p[0..npos) may come by position or name, p[npos..nall)
 * only by name, p[0..nrequired) must come. The checks and messages come in
 * the order Argument Clinic's come (CPython 3.11 to 3.13,
 * _PyArg_UnpackKeywords): too many arguments, too many positional ones, a
 * missing one, then a keyword that repeats a positional argument or names
 * no parameter, in the running Python's words (unknown_kw).
 */
static int parse_args_kw(const char *fname, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames, struct param *p, int npos, int nall, int nrequired)
{
	Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
	if (nargs + nkw > nall) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d %sargument%s (%zd given)",
			     fname, nall, nargs == 0 ? "keyword " : "", nall == 1 ? "" : "s",
			     nargs + nkw);
		return -1;
	}
	if (nargs > npos) {
		if (npos == 0)
			PyErr_Format(PyExc_TypeError, "%s() takes no positional arguments", fname);
		else
			PyErr_Format(PyExc_TypeError,
				     "%s() takes %s %d positional argument%s (%zd given)", fname,
				     nrequired < npos ? "at most" : "exactly", npos,
				     npos == 1 ? "" : "s", nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		p[i].value = args[i];
	Py_ssize_t used = 0;
	for (int i = (int)nargs; i < nall; i++) {
		for (Py_ssize_t k = 0; used < nkw && k < nkw && !p[i].value; k++) {
			if (PyUnicode_CompareWithASCIIString(PyTuple_GetItem(kwnames, k),
							     p[i].name) == 0) {
				p[i].value = args[nargs + k];
				used++;
			}
		}
		if (!p[i].value && i < nrequired) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)",
				     fname, p[i].name, i + 1);
			return -1;
		}
	}
	if (used == nkw)
		return 0;
	for (Py_ssize_t i = 0; i < nargs; i++) {
		for (Py_ssize_t k = 0; k < nkw; k++) {
			if (PyUnicode_CompareWithASCIIString(PyTuple_GetItem(kwnames, k),
							     p[i].name) == 0) {
				PyErr_Format(PyExc_TypeError,
					     "argument for %s() given by name ('%s') and position (%zd)",
					     fname, p[i].name, i + 1);
				return -1;
			}
		}
	}
	for (Py_ssize_t k = 0; k < nkw; k++) {
		PyObject *key = PyTuple_GetItem(kwnames, k);
		int i = 0;
		while (i < nall && PyUnicode_CompareWithASCIIString(key, p[i].name) != 0)
			i++;
		if (i == nall) {
			if (unknown_kw.name_first)
				PyErr_Format(PyExc_TypeError, "%s%s%s%U%s", unknown_kw.pre, fname,
					     unknown_kw.mid, key, unknown_kw.post);
			else
				PyErr_Format(PyExc_TypeError, "%s%U%s%s%s", unknown_kw.pre, key,
					     unknown_kw.mid, fname, unknown_kw.post);
			return -1;
		}
	}
	PyErr_Format(PyExc_TypeError, "invalid keyword argument for %s()", fname);
	return -1;
}

/* parse_args_kw(), with the usual call (enough positional arguments, no
 * keywords) inline in each caller: measurably cheaper for new(name, data). */
static inline int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
			     PyObject *kwnames, struct param *p, int npos, int nall, int nrequired)
{
	if (!kwnames && nargs >= nrequired && nargs <= npos) {
		for (Py_ssize_t i = 0; i < nargs; i++)
			p[i].value = args[i];
		return 0;
	}
	return parse_args_kw(fname, args, nargs, kwnames, p, npos, nall, nrequired);
}

/*
 * The names hashlib.new() takes for our algorithms, and only those (CPython
 * 3.11 on OpenSSL 3.0, found by asking hashlib.new() itself about OpenSSL's
 * aliases, OIDs, case and separator variants; python/tests/test_names.py
 * holds this table to hashlib.new() at run time). hashlib tries CPython's
 * own case-sensitive table first, then OpenSSL's EVP_MD_fetch(), which
 * ignores ASCII case and knows the default provider's names (`openssl list
 * -digest-algorithms`, "Provided"), not the legacy aliases (RSA-SHA256,
 * sha256WithRSAEncryption), then (3.11) its built-in modules' exact names.
 * Of CPython's names "sha512_224" and "SHA512_224" (and _256) and the
 * SHA-3 ones ("sha3_256", "shake_128"; "SHA3_256" is refused) are not also
 * OpenSSL's: they match exactly, everything else in any ASCII case.
 * fastsha_alg_from_name() ignores case, '-', '_' and '/', so it takes
 * "sha512/224", "sha_256", "sha2_256" and "sha3256", which hashlib
 * refuses, and not the OIDs, which hashlib takes; the command's -a has
 * names of its own. Those rules are the C library's for fastsha's own
 * algorithms, which hashlib has no rules for: alg_find() hands it any
 * ASCII name the table lacks and takes its answer when that is one of
 * them ("keccak-256", "KT-128", "kangarootwelve"), never one of hashlib's.
 * A new algorithm is one more row per name; algorithms_available is every
 * algorithm with a row of hashlib's.
 */
enum name_rule {
	ANY_CASE, /* hashlib's, in any ASCII case */
	EXACT,    /* hashlib's, exactly so */
	OWN       /* fastsha's own algorithms, which hashlib has not: any case,
		   * and any other spelling fastsha_alg_from_name() takes */
};

static const struct alg_name {
	const char *name;
	fastsha_alg alg;
	enum name_rule rule;
} alg_names[] = {
	/* hashlib's own names first: the usual call finds them soonest */
	{ "sha1", FASTSHA_SHA1, ANY_CASE },
	{ "sha256", FASTSHA_SHA256, ANY_CASE },
	{ "sha512", FASTSHA_SHA512, ANY_CASE },
	{ "sha224", FASTSHA_SHA224, ANY_CASE },
	{ "sha384", FASTSHA_SHA384, ANY_CASE },
	{ "sha512_224", FASTSHA_SHA512_224, EXACT },
	{ "SHA512_224", FASTSHA_SHA512_224, EXACT },
	{ "sha512_256", FASTSHA_SHA512_256, EXACT },
	{ "SHA512_256", FASTSHA_SHA512_256, EXACT },
	{ "sha3_256", FASTSHA_SHA3_256, EXACT },
	{ "sha3_224", FASTSHA_SHA3_224, EXACT },
	{ "sha3_384", FASTSHA_SHA3_384, EXACT },
	{ "sha3_512", FASTSHA_SHA3_512, EXACT },
	{ "shake_128", FASTSHA_SHAKE128, EXACT },
	{ "shake_256", FASTSHA_SHAKE256, EXACT },
	/* OpenSSL 3.0's default provider */
	{ "sha-1", FASTSHA_SHA1, ANY_CASE },
	{ "ssl3-sha1", FASTSHA_SHA1, ANY_CASE },
	{ "1.3.14.3.2.26", FASTSHA_SHA1, ANY_CASE },
	{ "sha-224", FASTSHA_SHA224, ANY_CASE },
	{ "sha2-224", FASTSHA_SHA224, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.4", FASTSHA_SHA224, ANY_CASE },
	{ "sha-256", FASTSHA_SHA256, ANY_CASE },
	{ "sha2-256", FASTSHA_SHA256, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.1", FASTSHA_SHA256, ANY_CASE },
	{ "sha-384", FASTSHA_SHA384, ANY_CASE },
	{ "sha2-384", FASTSHA_SHA384, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.2", FASTSHA_SHA384, ANY_CASE },
	{ "sha-512", FASTSHA_SHA512, ANY_CASE },
	{ "sha2-512", FASTSHA_SHA512, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.3", FASTSHA_SHA512, ANY_CASE },
	{ "sha512-224", FASTSHA_SHA512_224, ANY_CASE },
	{ "sha-512/224", FASTSHA_SHA512_224, ANY_CASE },
	{ "sha2-512/224", FASTSHA_SHA512_224, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.5", FASTSHA_SHA512_224, ANY_CASE },
	{ "sha512-256", FASTSHA_SHA512_256, ANY_CASE },
	{ "sha-512/256", FASTSHA_SHA512_256, ANY_CASE },
	{ "sha2-512/256", FASTSHA_SHA512_256, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.6", FASTSHA_SHA512_256, ANY_CASE },
	{ "sha3-224", FASTSHA_SHA3_224, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.7", FASTSHA_SHA3_224, ANY_CASE },
	{ "sha3-256", FASTSHA_SHA3_256, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.8", FASTSHA_SHA3_256, ANY_CASE },
	{ "sha3-384", FASTSHA_SHA3_384, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.9", FASTSHA_SHA3_384, ANY_CASE },
	{ "sha3-512", FASTSHA_SHA3_512, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.10", FASTSHA_SHA3_512, ANY_CASE },
	{ "shake128", FASTSHA_SHAKE128, ANY_CASE },
	{ "shake-128", FASTSHA_SHAKE128, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.11", FASTSHA_SHAKE128, ANY_CASE },
	{ "shake256", FASTSHA_SHAKE256, ANY_CASE },
	{ "shake-256", FASTSHA_SHAKE256, ANY_CASE },
	{ "2.16.840.1.101.3.4.2.12", FASTSHA_SHAKE256, ANY_CASE },
	/* fastsha's own, which hashlib does not have: SHA-1 with collision
	 * detection (what git uses), Ethereum's Keccak-256, TurboSHAKE and
	 * KangarooTwelve (RFC 9861 calls it KT128), in any case */
	{ "sha1dc", FASTSHA_SHA1DC, OWN },
	{ "keccak256", FASTSHA_KECCAK256, OWN },
	{ "turboshake128", FASTSHA_TURBOSHAKE128, OWN },
	{ "turboshake256", FASTSHA_TURBOSHAKE256, OWN },
	{ "k12", FASTSHA_K12, OWN },
	{ "kt128", FASTSHA_K12, OWN },
};

/* @a equals @b (lower case), ignoring the ASCII case of @a only: not
 * strcasecmp(), whose idea of case follows the locale. */
static int ascii_caseeq(const char *a, const char *b)
{
	for (; *a; a++, b++) {
		unsigned char c = (unsigned char)*a;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (c != (unsigned char)*b)
			return 0;
	}
	return !*b;
}

/* @alg is one of fastsha's own algorithms (it has an OWN row), which
 * hashlib has not. */
static int alg_is_own(int alg)
{
	for (size_t i = 0; i < sizeof alg_names / sizeof alg_names[0]; i++)
		if ((int)alg_names[i].alg == alg)
			return alg_names[i].rule == OWN;
	return 0;
}

/* The algorithm named by @name as hashlib.new() decides, or for one of
 * fastsha's own algorithms as fastsha_alg_from_name() does; -1 with no
 * exception set for anything else (not a str, a NUL, a lone surrogate,
 * a name neither takes). */
static int alg_find(PyObject *name)
{
	if (!PyUnicode_Check(name))
		return -1;
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(name, &len);
	if (!s || (size_t)len != strlen(s)) {
		PyErr_Clear();
		return -1;
	}
	for (size_t i = 0; i < sizeof alg_names / sizeof alg_names[0]; i++) {
		const struct alg_name *e = &alg_names[i];
		if (e->rule == EXACT ? strcmp(s, e->name) == 0 : ascii_caseeq(s, e->name))
			return (int)e->alg;
	}
	/* ASCII only: the library's case folding is tolower()'s, which
	 * follows the locale */
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c >= 0x80)
			return -1;
	int alg = fastsha_alg_from_name(s);
	return alg >= 0 && alg_is_own(alg) ? alg : -1;
}

/* The algorithm named by @name, exactly as hashlib.new() decides. */
static int alg_of(PyObject *name)
{
	int alg = alg_find(name);
	if (alg >= 0)
		return alg;
	Py_ssize_t len;
	const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
	if (!s || (size_t)len != strlen(s)) {
		/* hashlib's message for a NUL or a lone surrogate in the name too */
		PyErr_Clear();
		PyErr_SetString(PyExc_TypeError, "name must be a string");
	} else {
		PyErr_Format(PyExc_ValueError, "unsupported hash type %U", name);
	}
	return -1;
}

/*
 * hashlib's GET_BUFFER_VIEW_OR_ERROR: the bytes of @obj in @view, which
 * the caller releases with PyBuffer_Release().
 */
static int get_view(PyObject *obj, Py_buffer *view)
{
	if (PyUnicode_Check(obj)) {
		PyErr_SetString(PyExc_TypeError, "Strings must be encoded before hashing");
		return -1;
	}
	if (!PyObject_CheckBuffer(obj)) {
		PyErr_SetString(PyExc_TypeError, "object supporting the buffer API required");
		return -1;
	}
	if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
		return -1;
	if (view->ndim > 1) {
		PyErr_SetString(PyExc_BufferError, "Buffer must be single dimension");
		PyBuffer_Release(view);
		return -1;
	}
	return 0;
}

/* ---- the hash object ---------------------------------------------------- */

static hashobj *hash_alloc(PyTypeObject *tp, fastsha_alg alg)
{
	hashobj *h = PyObject_Malloc(sizeof *h);
	if (!h)
		return (hashobj *)PyErr_NoMemory();
	PyObject_Init((PyObject *)h, tp); /* takes a reference to the heap type */
	h->lock = NULL;
	h->alg = alg;
	h->domain = 0;
	h->k12 = NULL;
#ifdef Py_GIL_DISABLED
	/* No GIL to make the lazy allocation below atomic: lock from the start. */
	h->lock = PyThread_allocate_lock();
	if (!h->lock) {
		Py_DECREF(h);
		return (hashobj *)PyErr_NoMemory();
	}
#endif
	return h;
}

static void hash_dealloc(PyObject *self)
{
	hashobj *h = (hashobj *)self;
	PyTypeObject *tp = Py_TYPE(self);
	if (h->lock)
		PyThread_free_lock(h->lock);
	Py_XDECREF(h->k12);
	PyObject_Free(h);
	Py_DECREF(tp);
}

/* Take @lock, with the GIL held on entry and exit; waits without it. */
static void enter(PyThread_type_lock lock)
{
	if (!PyThread_acquire_lock(lock, NOWAIT_LOCK)) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(lock, WAIT_LOCK);
		Py_END_ALLOW_THREADS
	}
}

/* fastsha_update() or fastsha_hmac_update() on a context */
typedef void (*update_fn)(void *ctx, const void *data, size_t len);

/*
 * Add @len bytes to the context @ctx of an object other threads may share,
 * whose lock is *@lock (NULL until it needs one). The rules of hash and
 * HMAC objects alike, in this one place.
 */
static void shared_update(PyThread_type_lock *lock, update_fn update, void *ctx,
			  const void *data, size_t len)
{
	/* Allocated under the GIL, so two threads cannot both make one. If
	 * allocation fails the object stays unlocked and keeps the GIL, as in
	 * CPython: slower for threads, never wrong. */
	if (!*lock && len >= GIL_MINSIZE)
		*lock = PyThread_allocate_lock();
	if (!*lock) {
		update(ctx, data, len);
	} else if (len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(*lock, WAIT_LOCK);
		update(ctx, data, len);
		PyThread_release_lock(*lock);
		Py_END_ALLOW_THREADS
	} else {
		enter(*lock);
		update(ctx, data, len);
		PyThread_release_lock(*lock);
	}
}

/* Add @len bytes to the state of @h (the hash object itself is @obj). */
static void hash_update_fn(void *obj, const void *data, size_t len)
{
	hashobj *h = obj;
	if (h->domain)
		fastturboshake_update(&h->u.sponge, data, len);
	else
		fastsha_update(&h->u.ctx, data, len);
}

/* The digest so far; returns 1 when a collision attack was detected
 * (sha1dc only). Fixed-size algorithms only: their state is always u.ctx. */
static int hash_final(hashobj *h, uint8_t *out)
{
	int d;
	if (h->lock) {
		enter(h->lock);
		d = fastsha_final_detect(&h->u.ctx, out);
		PyThread_release_lock(h->lock);
	} else {
		d = fastsha_final_detect(&h->u.ctx, out);
	}
	return d;
}

PyDoc_STRVAR(update_doc, "update($self, obj, /)\n--\n\n"
			 "Update this hash object's state with the provided bytes-like object.");

static PyObject *hash_update(PyObject *self, PyObject *obj)
{
	hashobj *h = (hashobj *)self;
	if (h->k12) {
		PyErr_SetString(PyExc_ValueError,
				"a k12 object with a customisation string takes its data in the "
				"constructor only: k12(data, custom=...)");
		return NULL;
	}
	if (PyBytes_CheckExact(obj)) {
		/* The common case without the buffer protocol's cost: a bytes
		 * object is immutable and our caller holds a reference to it. */
		shared_update(&h->lock, hash_update_fn, h, PyBytes_AsString(obj),
			      (size_t)PyBytes_Size(obj));
		Py_RETURN_NONE;
	}
	Py_buffer view;
	if (get_view(obj, &view) < 0)
		return NULL;
	shared_update(&h->lock, hash_update_fn, h, view.buf, (size_t)view.len);
	PyBuffer_Release(&view);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(digest_doc, "digest($self, /)\n--\n\n"
			 "Return the digest value as a bytes object.");

static PyObject *hash_digest(PyObject *self, PyObject *unused)
{
	(void)unused;
	hashobj *h = (hashobj *)self;
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	hash_final(h, out);
	return PyBytes_FromStringAndSize((const char *)out,
					 (Py_ssize_t)fastsha_alg_digest_size(h->alg));
}

/*
 * Lower-case hex of @n bytes into @hex (2 * @n characters). @p may be
 * @hex + @n (hex in place): the bytes at and after p[i] are still unread
 * when hex[2i] and hex[2i + 1], both below @hex + @n + i + 1, are written.
 */
static void to_hex(char *hex, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		hex[2 * i] = digits[b >> 4];
		hex[2 * i + 1] = digits[b & 15];
	}
}

PyDoc_STRVAR(hexdigest_doc, "hexdigest($self, /)\n--\n\n"
			    "Return the digest value as a string of hexadecimal digits.");

static PyObject *hash_hexdigest(PyObject *self, PyObject *unused)
{
	(void)unused;
	hashobj *h = (hashobj *)self;
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	char hex[2 * FASTSHA_MAX_DIGEST_SIZE];
	size_t n = fastsha_alg_digest_size(h->alg);
	hash_final(h, out);
	to_hex(hex, out, n);
	return PyUnicode_DecodeASCII(hex, (Py_ssize_t)(2 * n), NULL);
}

PyDoc_STRVAR(copy_doc, "copy($self, /)\n--\n\n"
		       "Return a copy of the hash object.");

static PyObject *hash_copy(PyObject *self, PyObject *unused)
{
	(void)unused;
	hashobj *h = (hashobj *)self;
	hashobj *c = hash_alloc(Py_TYPE(self), h->alg);
	if (!c)
		return NULL;
	c->domain = h->domain;
	if (h->k12) { /* immutable: shared, never changed */
		Py_INCREF(h->k12);
		c->k12 = h->k12;
	}
	if (h->lock) {
		enter(h->lock);
		c->u = h->u; /* pointer-free: assignment forks the computation */
		PyThread_release_lock(h->lock);
	} else {
		c->u = h->u;
	}
	return (PyObject *)c;
}

static PyObject *hash_get_name(PyObject *self, void *closure)
{
	(void)closure;
	PyObject *name = state_of_hash(self)->names[((hashobj *)self)->alg];
	Py_INCREF(name);
	return name;
}

static PyObject *hash_get_digest_size(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromSize_t(fastsha_alg_digest_size(((hashobj *)self)->alg));
}

static PyObject *hash_get_detected(PyObject *self, void *closure)
{
	(void)closure;
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	return PyBool_FromLong(hash_final((hashobj *)self, out));
}

static PyObject *hash_get_block_size(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromSize_t(fastsha_alg_block_size(((hashobj *)self)->alg));
}

static PyObject *hash_repr(PyObject *self)
{
	return PyUnicode_FromFormat("<%U fastsha.Hash object @ %p>",
				    state_of_hash(self)->names[((hashobj *)self)->alg], self);
}

static PyMethodDef hash_methods[] = {
	{ "update", hash_update, METH_O, update_doc },
	{ "digest", hash_digest, METH_NOARGS, digest_doc },
	{ "hexdigest", hash_hexdigest, METH_NOARGS, hexdigest_doc },
	{ "copy", hash_copy, METH_NOARGS, copy_doc },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef hash_getset[] = {
	{ "name", hash_get_name, NULL, "The canonical name of the algorithm, as hashlib spells it.",
	  NULL },
	{ "digest_size", hash_get_digest_size, NULL, "The size of the digest in bytes.", NULL },
	{ "block_size", hash_get_block_size, NULL, "The internal block size of the hash in bytes.",
	  NULL },
	{ "detected", hash_get_detected, NULL,
	  "True when the data so far is one half of a SHA-1 collision attack (sha1dc; its\n"
	  "digest() is then the safe hash, not SHA-1). Always False for other algorithms.",
	  NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyDoc_STRVAR(hash_doc, "A hash object, as hashlib's: made by fastsha.sha1() .. sha3_512(),\n"
		       "keccak256() and fastsha.new(), never directly. update() from several\n"
		       "threads at once is safe and each call is atomic.");

static PyType_Slot hash_slots[] = {
	{ Py_tp_dealloc, (void *)hash_dealloc },
	{ Py_tp_repr, (void *)hash_repr },
	{ Py_tp_methods, hash_methods },
	{ Py_tp_getset, hash_getset },
	{ Py_tp_doc, (void *)hash_doc },
	{ 0, NULL },
};

/* Like _hashlib.HASH: final, immutable, and only our constructors make one
 * (an instance without an initialised context would hash garbage). It
 * holds no references, so it needs no GC support. */
static PyType_Spec hash_spec = {
	.name = "fastsha.Hash",
	.basicsize = (int)sizeof(hashobj),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
	.slots = hash_slots,
};

/* ---- the extendable-output object ---- */

/*
 * An output length as hashlib's HASHXOF.digest() takes it (Argument
 * Clinic's Py_ssize_t converter: __index__, OverflowError past
 * PY_SSIZE_T_MAX). A negative one is the ValueError later CPythons give
 * (3.11's OpenSSL object raises SystemError or MemoryError there).
 */
static int xof_length(PyObject *obj, Py_ssize_t *n)
{
	PyObject *i = PyNumber_Index(obj);
	if (!i)
		return -1;
	*n = PyLong_AsSsize_t(i);
	Py_DECREF(i);
	if (*n == -1 && PyErr_Occurred())
		return -1;
	if (*n < 0) {
		PyErr_SetString(PyExc_ValueError, "negative digest length");
		return -1;
	}
	return 0;
}

/*
 * The first @n bytes of @h's output into @out, @h unchanged: its state is
 * copied under the lock and the copy squeezed, without the GIL from
 * GIL_MINSIZE bytes of work (the object itself stays usable meanwhile).
 */
static void xof_read(hashobj *h, uint8_t *out, size_t n)
{
	if (h->k12) {
		/* bytes: immutable, and kept alive by @h, which our caller holds */
		PyObject *msg = PyTuple_GetItem(h->k12, 0), *custom = PyTuple_GetItem(h->k12, 1);
		const char *m = PyBytes_AsString(msg);
		const char *c = PyBytes_AsString(custom);
		size_t mlen = (size_t)PyBytes_Size(msg);
		size_t clen = (size_t)PyBytes_Size(custom);
		if (mlen + n >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			fastsha_k12(m, mlen, c, clen, out, n);
			Py_END_ALLOW_THREADS
		} else {
			fastsha_k12(m, mlen, c, clen, out, n);
		}
		return;
	}
	union hash_state s;
	if (h->lock) {
		enter(h->lock);
		s = h->u;
		PyThread_release_lock(h->lock);
	} else {
		s = h->u;
	}
	int sponge = h->domain != 0;
	if (n >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		if (sponge)
			fastturboshake_squeeze(&s.sponge, out, n);
		else
			(void)fastsha_squeeze(&s.ctx, out, n);
		Py_END_ALLOW_THREADS
	} else if (sponge) {
		fastturboshake_squeeze(&s.sponge, out, n);
	} else {
		(void)fastsha_squeeze(&s.ctx, out, n);
	}
}

PyDoc_STRVAR(xof_digest_doc, "digest($self, /, length)\n--\n\n"
			     "Return the first length bytes of the output as a bytes object.\n"
			     "The object is not altered: call it again, or go on updating.");

static PyObject *xof_digest(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			    PyObject *kwnames)
{
	struct param p[] = { { "length", NULL } };
	Py_ssize_t n;
	if (parse_args("digest", args, nargs, kwnames, p, 1, 1, 1) < 0 ||
	    xof_length(p[0].value, &n) < 0)
		return NULL;
	PyObject *result = PyBytes_FromStringAndSize(NULL, n);
	if (!result)
		return NULL;
	/* A new bytes object is ours to fill until it is returned. */
	xof_read((hashobj *)self, (uint8_t *)PyBytes_AsString(result), (size_t)n);
	return result;
}

PyDoc_STRVAR(xof_hexdigest_doc, "hexdigest($self, /, length)\n--\n\n"
				"Like digest(length), as a string of 2 * length hexadecimal digits.");

static PyObject *xof_hexdigest(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			       PyObject *kwnames)
{
	struct param p[] = { { "length", NULL } };
	Py_ssize_t n;
	if (parse_args("hexdigest", args, nargs, kwnames, p, 1, 1, 1) < 0 ||
	    xof_length(p[0].value, &n) < 0)
		return NULL;
	if (n > PY_SSIZE_T_MAX / 2)
		return PyErr_NoMemory();
	char *hex = PyMem_Malloc(n ? 2 * (size_t)n : 1);
	if (!hex)
		return PyErr_NoMemory();
	xof_read((hashobj *)self, (uint8_t *)hex + n, (size_t)n); /* the upper half... */
	to_hex(hex, (const uint8_t *)hex + n, (size_t)n);          /* ...spelt out in place */
	PyObject *result = PyUnicode_DecodeASCII(hex, 2 * n, NULL);
	PyMem_Free(hex);
	return result;
}

static PyObject *xof_get_digest_size(PyObject *self, void *closure)
{
	(void)self;
	(void)closure;
	return PyLong_FromLong(0); /* hashlib's for SHAKE: no fixed size */
}

static PyObject *xof_repr(PyObject *self)
{
	return PyUnicode_FromFormat("<%U fastsha.HashXOF object @ %p>",
				    state_of_hash(self)->names[((hashobj *)self)->alg], self);
}

static PyMethodDef xof_methods[] = {
	{ "update", hash_update, METH_O, update_doc },
	{ "digest", (PyCFunction)(void (*)(void))xof_digest, METH_FASTCALL | METH_KEYWORDS,
	  xof_digest_doc },
	{ "hexdigest", (PyCFunction)(void (*)(void))xof_hexdigest, METH_FASTCALL | METH_KEYWORDS,
	  xof_hexdigest_doc },
	{ "copy", hash_copy, METH_NOARGS, copy_doc },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef xof_getset[] = {
	{ "name", hash_get_name, NULL, "The canonical name of the algorithm, as hashlib spells it.",
	  NULL },
	{ "digest_size", xof_get_digest_size, NULL,
	  "0, as hashlib's SHAKE objects: the output has any length (digest(length)).", NULL },
	{ "block_size", hash_get_block_size, NULL, "The rate of the sponge in bytes.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyDoc_STRVAR(xof_doc,
	     "An extendable-output hash object, as hashlib's SHAKE objects: made by\n"
	     "fastsha.shake_128(), shake_256(), turboshake128(), turboshake256(), k12()\n"
	     "and fastsha.new(), never directly. digest(length) and hexdigest(length)\n"
	     "give any length of output. update() from several threads at once is safe\n"
	     "and each call is atomic.");

static PyType_Slot xof_slots[] = {
	{ Py_tp_dealloc, (void *)hash_dealloc },
	{ Py_tp_repr, (void *)xof_repr },
	{ Py_tp_methods, xof_methods },
	{ Py_tp_getset, xof_getset },
	{ Py_tp_doc, (void *)xof_doc },
	{ 0, NULL },
};

/* As Hash, but a type of its own rather than a subclass (hashlib's HASHXOF
 * is one of HASH, which it can extend; Hash is final). */
static PyType_Spec xof_spec = {
	.name = "fastsha.HashXOF",
	.basicsize = (int)sizeof(hashobj),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
	.slots = xof_slots,
};

/* ---- constructors ------------------------------------------------------- */

/* TurboSHAKE's default domain byte (RFC 9861), which the descriptor uses */
#define TURBOSHAKE_DOMAIN 0x1f

/*
 * A new hash object of @alg over @data (may be NULL: no data); for
 * TurboSHAKE with @domain other than 0 and TURBOSHAKE_DOMAIN, on the sponge
 * API with that domain byte.
 */
static PyObject *make_hash(PyObject *module, fastsha_alg alg, uint8_t domain, PyObject *data)
{
	modstate *st = state_of_module(module);
	hashobj *h = hash_alloc(fastsha_alg_is_xof(alg) ? st->xof_type : st->hash_type, alg);
	if (!h)
		return NULL;
	if (domain && domain != TURBOSHAKE_DOMAIN) {
		h->domain = domain;
		if (alg == FASTSHA_TURBOSHAKE128)
			(void)fastturboshake128_init(&h->u.sponge, domain);
		else
			(void)fastturboshake256_init(&h->u.sponge, domain);
	} else {
		fastsha_init(&h->u.ctx, alg);
	}
	if (!data)
		return (PyObject *)h;
	Py_buffer view;
	const void *p;
	size_t len;
	int have_view = 0;
	if (PyBytes_CheckExact(data)) {
		p = PyBytes_AsString(data);
		len = (size_t)PyBytes_Size(data);
	} else {
		if (get_view(data, &view) < 0) {
			Py_DECREF(h);
			return NULL;
		}
		have_view = 1;
		p = view.buf;
		len = (size_t)view.len;
	}
	/* No other thread can see the new object yet: no lock needed. */
	if (len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		hash_update_fn(h, p, len);
		Py_END_ALLOW_THREADS
	} else {
		hash_update_fn(h, p, len);
	}
	if (have_view)
		PyBuffer_Release(&view);
	return (PyObject *)h;
}

/* The data argument: data= and string= are one parameter (gh-134696). */
static int pick_data(PyObject **data, PyObject *string)
{
	if (string) {
		if (*data) {
			PyErr_SetString(PyExc_TypeError,
					"'data' and 'string' are mutually exclusive and support "
					"for 'string' keyword parameter is slated for removal in "
					"a future version.");
			return -1;
		}
		*data = string;
	}
	return 0;
}

static PyObject *construct(PyObject *module, fastsha_alg alg, const char *fname,
			   PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	if (nargs == 1 && !kwnames) /* the usual call: sha256(b) */
		return make_hash(module, alg, 0, args[0]);
	struct param p[] = { { "data", NULL }, { "usedforsecurity", NULL }, { "string", NULL } };
	if (parse_args(fname, args, nargs, kwnames, p, 1, 3, 0) < 0 ||
	    pick_data(&p[0].value, p[2].value) < 0)
		return NULL;
	return make_hash(module, alg, 0, p[0].value);
}

#define CONSTRUCTOR(fn, ALG, label)                                                              \
	PyDoc_STRVAR(fn##_doc,                                                                   \
		     #fn "($module, /, data=b'', *, usedforsecurity=True, string=None)\n--\n\n"  \
			 "Return a new " label " hash object; optionally initialized with a "    \
			 "bytes-like object.\n\nusedforsecurity is accepted and ignored; string= " \
			 "is hashlib's older name for data.");                                   \
	static PyObject *py_##fn(PyObject *module, PyObject *const *args, Py_ssize_t nargs,      \
				 PyObject *kwnames)                                              \
	{                                                                                        \
		return construct(module, ALG, #fn, args, nargs, kwnames);                        \
	}

CONSTRUCTOR(sha1, FASTSHA_SHA1, "SHA-1")
CONSTRUCTOR(sha224, FASTSHA_SHA224, "SHA-224")
CONSTRUCTOR(sha256, FASTSHA_SHA256, "SHA-256")
CONSTRUCTOR(sha384, FASTSHA_SHA384, "SHA-384")
CONSTRUCTOR(sha512, FASTSHA_SHA512, "SHA-512")
CONSTRUCTOR(sha1dc, FASTSHA_SHA1DC, "SHA-1 with collision detection (SHA1DC)")
CONSTRUCTOR(sha3_224, FASTSHA_SHA3_224, "SHA3-224")
CONSTRUCTOR(sha3_256, FASTSHA_SHA3_256, "SHA3-256")
CONSTRUCTOR(sha3_384, FASTSHA_SHA3_384, "SHA3-384")
CONSTRUCTOR(sha3_512, FASTSHA_SHA3_512, "SHA3-512")
CONSTRUCTOR(shake_128, FASTSHA_SHAKE128, "SHAKE128 (extendable output: digest(length))")
CONSTRUCTOR(shake_256, FASTSHA_SHAKE256, "SHAKE256 (extendable output: digest(length))")
CONSTRUCTOR(keccak256, FASTSHA_KECCAK256,
	    "Keccak-256 (Ethereum's: SHA3-256 with the original Keccak padding)")

/* A TurboSHAKE domain byte: an int (__index__) 0x01..0x7f (RFC 9861). */
static int turbo_domain(PyObject *obj, uint8_t *domain)
{
	PyObject *i = PyNumber_Index(obj);
	if (!i)
		return -1;
	int overflow;
	long v = PyLong_AsLongAndOverflow(i, &overflow);
	Py_DECREF(i);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (overflow || v < 0x01 || v > 0x7f) {
		PyErr_Format(PyExc_ValueError, "domain must be 0x01 to 0x7f (RFC 9861), not %R",
			     obj);
		return -1;
	}
	*domain = (uint8_t)v;
	return 0;
}

static PyObject *turboshake(PyObject *module, fastsha_alg alg, const char *fname,
			    PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	struct param p[] = { { "data", NULL },
			     { "usedforsecurity", NULL },
			     { "string", NULL },
			     { "domain", NULL } };
	uint8_t domain = TURBOSHAKE_DOMAIN;
	if (parse_args(fname, args, nargs, kwnames, p, 1, 4, 0) < 0 ||
	    pick_data(&p[0].value, p[2].value) < 0 ||
	    (p[3].value && turbo_domain(p[3].value, &domain) < 0))
		return NULL;
	return make_hash(module, alg, domain, p[0].value);
}

PyDoc_STRVAR(turboshake128_doc,
	     "turboshake128($module, /, data=b'', *, domain=31, usedforsecurity=True,\n"
	     "              string=None)\n--\n\n"
	     "Return a new TurboSHAKE128 (RFC 9861) hash object with the domain byte domain\n"
	     "(0x01 to 0x7f; 0x1f by default); optionally initialized with a bytes-like\n"
	     "object. Extendable output: digest(length).");

static PyObject *py_turboshake128(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				  PyObject *kwnames)
{
	return turboshake(module, FASTSHA_TURBOSHAKE128, "turboshake128", args, nargs, kwnames);
}

PyDoc_STRVAR(turboshake256_doc,
	     "turboshake256($module, /, data=b'', *, domain=31, usedforsecurity=True,\n"
	     "              string=None)\n--\n\n"
	     "As turboshake128(), TurboSHAKE256.");

static PyObject *py_turboshake256(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				  PyObject *kwnames)
{
	return turboshake(module, FASTSHA_TURBOSHAKE256, "turboshake256", args, nargs, kwnames);
}

/* The bytes of a buffer argument as they are now: a bytes object itself
 * (immutable), or a copy of any other buffer (hashlib's rules). */
static PyObject *bytes_of(PyObject *obj)
{
	if (PyBytes_CheckExact(obj)) {
		Py_INCREF(obj);
		return obj;
	}
	Py_buffer view;
	if (get_view(obj, &view) < 0)
		return NULL;
	PyObject *b = PyBytes_FromStringAndSize(view.buf, view.len);
	PyBuffer_Release(&view);
	return b;
}

PyDoc_STRVAR(k12_doc,
	     "k12($module, /, data=b'', *, custom=b'', usedforsecurity=True, string=None)\n"
	     "--\n\n"
	     "Return a new KangarooTwelve (KT128, RFC 9861) hash object with the\n"
	     "customisation string custom; optionally initialized with a bytes-like\n"
	     "object. Extendable output: digest(length). With a non-empty custom the\n"
	     "object takes its data here only (update() raises ValueError): the\n"
	     "library's streaming KangarooTwelve has the empty string.");

static PyObject *py_k12(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			PyObject *kwnames)
{
	struct param p[] = { { "data", NULL },
			     { "usedforsecurity", NULL },
			     { "string", NULL },
			     { "custom", NULL } };
	if (parse_args("k12", args, nargs, kwnames, p, 1, 4, 0) < 0 ||
	    pick_data(&p[0].value, p[2].value) < 0)
		return NULL;
	PyObject *custom = p[3].value ? bytes_of(p[3].value) : NULL;
	if (p[3].value && !custom)
		return NULL;
	if (!custom || PyBytes_Size(custom) == 0) {
		Py_XDECREF(custom);
		return make_hash(module, FASTSHA_K12, 0, p[0].value);
	}
	PyObject *msg = p[0].value ? bytes_of(p[0].value) : PyBytes_FromStringAndSize(NULL, 0);
	PyObject *pair = msg ? PyTuple_Pack(2, msg, custom) : NULL;
	Py_XDECREF(msg);
	Py_DECREF(custom);
	hashobj *h = pair ? hash_alloc(state_of_module(module)->xof_type, FASTSHA_K12) : NULL;
	if (!h) {
		Py_XDECREF(pair);
		return NULL;
	}
	fastsha_init(&h->u.ctx, FASTSHA_K12); /* unused, but never garbage */
	h->k12 = pair;
	return (PyObject *)h;
}

PyDoc_STRVAR(new_doc,
	     "new($module, /, name, data=b'', *, usedforsecurity=True, string=None)\n--\n\n"
	     "Return a new hash object using the named algorithm, optionally initialized\n"
	     "with data (a bytes-like object). The names are hashlib.new()'s: those in\n"
	     "algorithms_available and OpenSSL's ('SHA2-256', 'sha-512/256', 'SHA3-256',\n"
	     "OIDs such as '2.16.840.1.101.3.4.2.1'), in any case; see docs/python.md.\n"
	     "Also fastsha's own: 'sha1dc', 'keccak256', 'turboshake128',\n"
	     "'turboshake256', 'k12' (their default domain byte and customisation),\n"
	     "spelled as the C library takes them: any case, '-', '_' and '/'\n"
	     "ignored ('keccak-256', 'KT128', 'kangarootwelve').");

static PyObject *py_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			PyObject *kwnames)
{
	struct param p[] = { { "name", NULL },
			     { "data", NULL },
			     { "usedforsecurity", NULL },
			     { "string", NULL } };
	if (parse_args("new", args, nargs, kwnames, p, 2, 4, 1) < 0 ||
	    pick_data(&p[1].value, p[3].value) < 0)
		return NULL;
	int alg = alg_of(p[0].value);
	if (alg < 0)
		return NULL;
	return make_hash(module, (fastsha_alg)alg, 0, p[1].value);
}

/* ---- batches ------------------------------------------------------------ */

/*
 * PyMem_Malloc() of @n elements of @size bytes (one byte for none), or NULL
 * when that is more than PY_SSIZE_T_MAX bytes. Every array of a batch is
 * sized here: on a 32-bit build a batch that fits in memory can ask for
 * 4 GiB or more (2^26 SHA-512 tags; a Py_buffer per item of 98 million
 * bytearrays), and the product would wrap to a short buffer that is then
 * written in full.
 */
static void *alloc_array(size_t n, size_t size)
{
	if (size && n > (size_t)PY_SSIZE_T_MAX / size)
		return NULL;
	return PyMem_Malloc(n && size ? n * size : 1);
}

PyDoc_STRVAR(many_doc,
	     "many($module, /, name, buffers, length=None)\n--\n\n"
	     "Return the digests of every buffer in the iterable buffers, in order, as a\n"
	     "list of bytes: [new(name, b).digest() for b in buffers], with the GIL\n"
	     "released once for the whole batch and messages hashed together on the\n"
	     "multi-buffer lanes where this CPU has them (many_lanes(name)). An\n"
	     "extendable-output algorithm (shake_128, ...) needs length, the bytes of\n"
	     "output per message: [new(name, b).digest(length) for b in buffers]; the\n"
	     "others take none.");

/* The messages of a batch: every item of an iterable of buffers. */
struct batch {
	PyObject *items;   /* a tuple of the items */
	fastsha_msg *msgs; /* n: where each item's bytes are */
	Py_buffer *views;  /* the items that are not bytes, held until release */
	Py_ssize_t n, nviews;
	size_t total;      /* the bytes of all items */
};

static void batch_release(struct batch *b)
{
	while (b->nviews)
		PyBuffer_Release(&b->views[--b->nviews]);
	PyMem_Free(b->views);
	PyMem_Free(b->msgs);
	Py_CLEAR(b->items);
	b->views = NULL;
	b->msgs = NULL;
}

/*
 * A single message or path where a batch call wants an iterable of them
 * (many("sha256", data), files("a.bin", ...)): a TypeError naming the
 * mistake. Iterated, a str gives its characters, which files() opened as
 * paths (files("ab", ...) hashed the files "a" and "b" if they existed, and
 * else raised the first one's FileNotFoundError), and bytes, bytearray and
 * a memoryview give ints, which many() refused as "object supporting the
 * buffer API required" for an argument that is one; only an empty one
 * passed, as an empty batch. Other buffers stay iterables: a 2-D numpy
 * array is a batch of its rows. Return: 0, or -1 with the exception set.
 */
static int refuse_single(PyObject *obj, const char *fname, const char *arg, const char *what)
{
	if (!PyUnicode_Check(obj) && !PyBytes_Check(obj) && !PyByteArray_Check(obj) &&
	    !PyMemoryView_Check(obj))
		return 0;
	PyObject *tname = PyType_GetName(Py_TYPE(obj));
	if (tname)
		PyErr_Format(PyExc_TypeError, "%s(): %s must be an iterable of %s, not a single %U",
			     fname, arg, what, tname);
	Py_XDECREF(tname);
	return -1;
}

/*
 * The TypeError just raised for item @i (counted from 0) of the iterable
 * @arg of @fname, again with its message led by where it was: "many(): item
 * 3 of buffers: Strings must be encoded before hashing", where a batch of
 * thousands said only the last part. Any other exception, a TypeError's
 * subclass included, is left as it is.
 */
static void name_item(const char *fname, const char *arg, Py_ssize_t i)
{
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	if (type == PyExc_TypeError) /* the value as str() shows it, not as given */
		PyErr_NormalizeException(&type, &value, &tb);
	PyObject *msg = type == PyExc_TypeError && value ? PyObject_Str(value) : NULL;
	if (!msg) {
		PyErr_Clear(); /* PyObject_Str()'s failure: raise the first one */
		PyErr_Restore(type, value, tb);
		return;
	}
	Py_DECREF(type);
	Py_DECREF(value);
	Py_XDECREF(tb);
	PyErr_Format(PyExc_TypeError, "%s(): item %zd of %s: %U", fname, i, arg, msg);
	Py_DECREF(msg);
}

/*
 * Take every item of @iterable (the argument @arg of @fname) into @b, each
 * by hashlib's rules (get_view()); a TypeError says which item. Return: 0,
 * or -1 with an exception set and @b released.
 */
static int batch_get(struct batch *b, PyObject *iterable, const char *fname, const char *arg)
{
	*b = (struct batch){ 0 };
	if (refuse_single(iterable, fname, arg, "bytes-like objects") < 0)
		return -1;
	/* A tuple: nothing can change the sequence while we hold pointers
	 * into its items (a list could, through a Python __buffer__). */
	if (!(b->items = PySequence_Tuple(iterable)))
		return -1;
	b->n = PyTuple_Size(b->items);
	/* bytes items are read in place (immutable, kept alive by the tuple);
	 * every other exporter is held through a Py_buffer until we are done. */
	Py_ssize_t nothers = 0;
	for (Py_ssize_t i = 0; i < b->n; i++)
		nothers += !PyBytes_CheckExact(PyTuple_GetItem(b->items, i));
	b->msgs = alloc_array((size_t)b->n, sizeof *b->msgs);
	b->views = alloc_array((size_t)nothers, sizeof *b->views);
	if (!b->msgs || !b->views) {
		PyErr_NoMemory();
		batch_release(b);
		return -1;
	}
	for (Py_ssize_t i = 0; i < b->n; i++) {
		PyObject *o = PyTuple_GetItem(b->items, i);
		if (PyBytes_CheckExact(o)) {
			b->msgs[i].data = PyBytes_AsString(o);
			b->msgs[i].len = (size_t)PyBytes_Size(o);
		} else {
			if (get_view(o, &b->views[b->nviews]) < 0) {
				name_item(fname, arg, i);
				batch_release(b);
				return -1;
			}
			b->msgs[i].data = b->views[b->nviews].buf;
			b->msgs[i].len = (size_t)b->views[b->nviews].len;
			b->nviews++;
		}
		b->total += b->msgs[i].len;
	}
	return 0;
}

/* A list of @n bytes objects of @each bytes, the i-th from @out + i * @each. */
static PyObject *bytes_list(const uint8_t *out, Py_ssize_t n, size_t each)
{
	PyObject *list = PyList_New(n);
	for (Py_ssize_t i = 0; list && i < n; i++) {
		PyObject *d = PyBytes_FromStringAndSize((const char *)out + (size_t)i * each,
							(Py_ssize_t)each);
		if (!d || PyList_SetItem(list, i, d) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/*
 * The bytes of output per message of a batch or file call: the digest
 * size, or for an extendable-output algorithm @length, which it must have
 * (hashlib's digest(length) rules); for the others @length must be absent
 * or None.
 */
static int out_length(const char *fname, PyObject *module, fastsha_alg alg, PyObject *length,
		      size_t *each)
{
	PyObject *name = state_of_module(module)->names[alg];
	int given = length && length != Py_None;
	if (!fastsha_alg_is_xof(alg)) {
		if (given) {
			PyErr_Format(PyExc_TypeError,
				     "%s(): %U has a fixed digest size; length is for the "
				     "extendable-output algorithms",
				     fname, name);
			return -1;
		}
		*each = fastsha_alg_digest_size(alg);
		return 0;
	}
	if (!given) {
		PyErr_Format(PyExc_TypeError,
			     "%s() missing required argument 'length': %U has extendable output",
			     fname, name);
		return -1;
	}
	Py_ssize_t n;
	if (xof_length(length, &n) < 0)
		return -1;
	*each = (size_t)n;
	return 0;
}

/* many() and, with @flags, many_detect(). */
static PyObject *many_impl(PyObject *module, const char *fname, PyObject *const *args,
			   Py_ssize_t nargs, PyObject *kwnames, int flags)
{
	struct param p[] = { { "name", NULL }, { "buffers", NULL }, { "length", NULL } };
	if (parse_args(fname, args, nargs, kwnames, p, 3, 3, 2) < 0)
		return NULL;
	int alg = alg_of(p[0].value);
	size_t each;
	if (alg < 0 || out_length(fname, module, (fastsha_alg)alg, p[2].value, &each) < 0)
		return NULL;
	int xof = fastsha_alg_is_xof((fastsha_alg)alg);
	struct batch b;
	if (batch_get(&b, p[1].value, fname, "buffers") < 0)
		return NULL;
	Py_ssize_t n = b.n;
	PyObject *result = NULL, *detected = NULL;
	uint8_t *out = alloc_array((size_t)n, each), *det = alloc_array((size_t)n, 1);
	if (!out || !det) {
		PyErr_NoMemory();
		goto done;
	}
	/* an XOF's output may be the larger part of the work */
	if (b.total + (xof ? (size_t)n * each : 0) >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		if (xof)
			(void)fastsha_many_xof((fastsha_alg)alg, b.msgs, (size_t)n, out, each);
		else
			fastsha_many_detect((fastsha_alg)alg, b.msgs, (size_t)n, out, det);
		Py_END_ALLOW_THREADS
	} else if (xof) {
		(void)fastsha_many_xof((fastsha_alg)alg, b.msgs, (size_t)n, out, each);
	} else {
		fastsha_many_detect((fastsha_alg)alg, b.msgs, (size_t)n, out, det);
	}
	if (xof)
		memset(det, 0, n ? (size_t)n : 1);
	result = bytes_list(out, n, each);
	if (result && flags) {
		detected = PyList_New(n);
		for (Py_ssize_t i = 0; detected && i < n; i++)
			if (PyList_SetItem(detected, i, PyBool_FromLong(det[i])) < 0)
				Py_CLEAR(detected);
		PyObject *pair = detected ? PyTuple_Pack(2, result, detected) : NULL;
		Py_XDECREF(detected);
		Py_DECREF(result); /* Py_SETREF is not in the limited API */
		result = pair;
	}
done:
	PyMem_Free(det);
	PyMem_Free(out);
	batch_release(&b);
	return result;
}

static PyObject *py_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames)
{
	return many_impl(module, "many", args, nargs, kwnames, 0);
}

PyDoc_STRVAR(many_detect_doc,
	     "many_detect($module, /, name, buffers, length=None)\n--\n\n"
	     "As many(), and which messages were detected as one half of a SHA-1\n"
	     "collision attack: returns (digests, detected), two lists in input order,\n"
	     "detected[i] a bool (always False but for 'sha1dc').");

static PyObject *py_many_detect(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	return many_impl(module, "many_detect", args, nargs, kwnames, 1);
}

PyDoc_STRVAR(many_packed_doc,
	     "many_packed($module, /, name, buffer, record_size, length=None)\n--\n\n"
	     "Hash every record_size-byte record of one C-contiguous buffer (bytes, a\n"
	     "numpy array of fixed-size records, ...) and return the digests\n"
	     "concatenated, in order: n * digest_size bytes for n records (n * length\n"
	     "for an extendable-output algorithm, which needs length). The buffer's\n"
	     "length must be a multiple of record_size (ValueError otherwise).");

/* The @n records of @rs bytes at @buf into @out, @each bytes of an XOF's
 * output per record. Return: 0, or -1 when out of memory. */
static int records_xof(fastsha_alg alg, const uint8_t *buf, size_t n, size_t rs, uint8_t *out,
		       size_t each)
{
	/* malloc(), for this may run without the GIL, with alloc_array()'s
	 * check: 2^29 one-byte records need 4 GiB of these on a 32-bit build */
	if (n > SIZE_MAX / sizeof(fastsha_msg))
		return -1;
	fastsha_msg *msgs = malloc((n ? n : 1) * sizeof *msgs);
	if (!msgs)
		return -1;
	for (size_t i = 0; i < n; i++)
		msgs[i] = (fastsha_msg){ .data = buf + i * rs, .len = rs };
	(void)fastsha_many_xof(alg, msgs, n, out, each);
	free(msgs);
	return 0;
}

static PyObject *py_many_packed(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	struct param p[] = { { "name", NULL },
			     { "buffer", NULL },
			     { "record_size", NULL },
			     { "length", NULL } };
	if (parse_args("many_packed", args, nargs, kwnames, p, 4, 4, 3) < 0)
		return NULL;
	int alg = alg_of(p[0].value);
	size_t ds;
	if (alg < 0 || out_length("many_packed", module, (fastsha_alg)alg, p[3].value, &ds) < 0)
		return NULL;
	int xof = fastsha_alg_is_xof((fastsha_alg)alg);
	if (!PyIndex_Check(p[2].value)) { /* an int, or a numpy integer (__index__) */
		PyErr_SetString(PyExc_TypeError, "record_size must be an int");
		return NULL;
	}
	Py_ssize_t rs = PyNumber_AsSsize_t(p[2].value, PyExc_OverflowError);
	if (rs == -1 && PyErr_Occurred())
		return NULL;
	if (rs <= 0) {
		PyErr_SetString(PyExc_ValueError, "record_size must be positive");
		return NULL;
	}
	Py_buffer view;
	if (get_view(p[1].value, &view) < 0)
		return NULL;
	PyObject *result = NULL;
	size_t n = (size_t)view.len / (size_t)rs;
	if (view.len % rs) {
		PyErr_Format(PyExc_ValueError,
			     "buffer length %zd is not a multiple of record_size %zd", view.len, rs);
	} else if (ds && n > (size_t)PY_SSIZE_T_MAX / ds) {
		PyErr_NoMemory();
	} else if ((result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * ds)))) {
		/* A new bytes object is ours to fill until it is returned. */
		uint8_t *out = (uint8_t *)PyBytes_AsString(result);
		int rc = 0;
		if ((size_t)view.len + (xof ? n * ds : 0) >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			if (xof)
				rc = records_xof((fastsha_alg)alg, view.buf, n, (size_t)rs, out, ds);
			else
				fastsha_chunks((fastsha_alg)alg, view.buf, (size_t)view.len,
					       (size_t)rs, out);
			Py_END_ALLOW_THREADS
		} else if (xof) {
			rc = records_xof((fastsha_alg)alg, view.buf, n, (size_t)rs, out, ds);
		} else {
			fastsha_chunks((fastsha_alg)alg, view.buf, (size_t)view.len, (size_t)rs, out);
		}
		if (rc < 0) {
			Py_CLEAR(result);
			PyErr_NoMemory();
		}
	}
	PyBuffer_Release(&view);
	return result;
}

/* ---- HMAC, PBKDF2 and HKDF ---------------------------------------------- */

/*
 * include/fastsha/mac.h under hashlib's and hmac's rules. The drop-ins,
 * pbkdf2_hmac() and fastsha.hmac's new(), HMAC() and digest(), hand a hash
 * they cannot do here (md5, sha3_256, blake2b, sha1dc, a module with .new,
 * a constructor of another package) to hashlib or the standard hmac module
 * with the arguments as given, so those calls get the standard answer or
 * the standard exception. The checks they make themselves are CPython
 * 3.11's (hashlib.pbkdf2_hmac, hmac.HMAC and hmac.digest on OpenSSL), in
 * the same order, with the same messages. fastsha's own calls
 * (pbkdf2_hmac_many, hmac_many, hkdf*) take this module's names only.
 *
 * Secrets: keys and passwords are read in place from the caller's
 * buffers, never copied. What the binding holds that derives from them (a
 * prepared key on the stack, an HMAC object's context, a batch's output
 * buffer) is wiped when done with; the bytes returned are the caller's.
 */

/* hashlib hands lengths, iteration counts and key lengths to OpenSSL as
 * int: its limits, which the drop-ins keep. */
#define HASHLIB_INT_MAX 2147483647L

/* Argument Clinic's Py_buffer converter, which hashlib.pbkdf2_hmac and
 * hmac.digest use: any C-contiguous buffer; a str or a non-buffer raises
 * CPython's "a bytes-like object is required, not 'str'". */
static int get_arg_buffer(PyObject *obj, Py_buffer *view, const char *fname, const char *arg)
{
	if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
		return -1;
	if (!PyBuffer_IsContiguous(view, 'C')) {
		PyObject *tname = PyType_GetName(Py_TYPE(obj));
		if (tname)
			PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be contiguous buffer, not %U",
				     fname, arg, tname);
		Py_XDECREF(tname);
		PyBuffer_Release(view);
		return -1;
	}
	return 0;
}

/* An optional buffer argument: absent or None is empty. */
static int get_opt_buffer(PyObject *obj, Py_buffer *view, const char *fname, const char *arg)
{
	if (!obj || obj == Py_None) {
		*view = (Py_buffer){ .buf = NULL, .obj = NULL, .len = 0 };
		return 0;
	}
	return get_arg_buffer(obj, view, fname, arg);
}

static void release_opt_buffer(Py_buffer *view)
{
	if (view->obj)
		PyBuffer_Release(view);
}

/* Call @f with a vectorcall's arguments as they came (PyObject_Vectorcall
 * is not in the 3.11 Limited API). Consumes the reference to @f (may be
 * NULL: an exception is set). */
static PyObject *call_as_given(PyObject *f, PyObject *const *args, Py_ssize_t nargs,
			       PyObject *kwnames)
{
	if (!f)
		return NULL;
	PyObject *tuple = PyTuple_New(nargs), *kw = NULL, *result = NULL;
	if (!tuple)
		goto done;
	for (Py_ssize_t i = 0; i < nargs; i++) {
		Py_INCREF(args[i]);
		PyTuple_SetItem(tuple, i, args[i]); /* steals the reference */
	}
	Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
	if (nkw) {
		if (!(kw = PyDict_New()))
			goto done;
		for (Py_ssize_t k = 0; k < nkw; k++)
			if (PyDict_SetItem(kw, PyTuple_GetItem(kwnames, k), args[nargs + k]) < 0)
				goto done;
	}
	result = PyObject_Call(f, tuple, kw);
done:
	Py_XDECREF(kw);
	Py_XDECREF(tuple);
	Py_DECREF(f);
	return result;
}

/* @module.@attr, a new reference, or NULL with an exception set. */
static PyObject *import_attr(const char *module, const char *attr)
{
	PyObject *mod = PyImport_ImportModule(module);
	if (!mod)
		return NULL;
	PyObject *f = PyObject_GetAttrString(mod, attr);
	Py_DECREF(mod);
	return f;
}

/*
 * hashlib's pbkdf2_hmac, taken from _hashlib (OpenSSL's, which hashlib
 * re-exports) so that code that put fastsha's in hashlib's place
 * (hashlib.pbkdf2_hmac = fastsha.pbkdf2_hmac) does not send the call back
 * here; hashlib's own where CPython has no _hashlib.
 */
static PyObject *hashlib_pbkdf2(void)
{
	PyObject *f = import_attr("_hashlib", "pbkdf2_hmac");
	if (f || !PyErr_ExceptionMatches(PyExc_ImportError))
		return f;
	PyErr_Clear();
	return import_attr("hashlib", "pbkdf2_hmac");
}

/*
 * The standard hmac module's new() (@which 0) or digest() (1): as
 * fastsha.hmac found them when it was imported (st->std_hmac), so that
 * code that then puts fastsha's in their place (hmac.new =
 * fastsha.hmac.new) does not send a fallback back here; the module's
 * current ones when fastsha.hmac was not imported.
 */
static PyObject *std_hmac(modstate *st, int which)
{
	PyObject *f = st->std_hmac[which];
	if (f) {
		Py_INCREF(f);
		return f;
	}
	return import_attr("hmac", which ? "digest" : "new");
}

/* sha1dc (@name, any spelling) in a keyed call: a ValueError that says why
 * (mac.h: collision detection guards content digests). Every keyed call
 * raises it, the drop-ins too: hashlib knows no sha1dc, so its answer
 * ("[digital envelope routines] unsupported" from pbkdf2_hmac) said
 * nothing of what fastsha has. Returns -1. */
static int refuse_detecting(PyObject *name)
{
	PyErr_Format(PyExc_ValueError,
		     "unsupported hash type %U for HMAC: use sha1 (HMAC-SHA1 does not rest "
		     "on SHA-1's collision resistance)",
		     name);
	return -1;
}

/* The algorithm named by @name for fastsha's own MAC calls: alg_of(), with
 * those mac.h refuses refused: sha1dc with a word on why, the Keccak
 * family as a name we do not have (as hmac_many() and hkdf() refused
 * sha3_256 before it had one). */
static int mac_alg_of(modstate *st, PyObject *name)
{
	int alg = alg_of(name);
	if (alg >= 0 && fastsha_alg_detects((fastsha_alg)alg))
		return refuse_detecting(name);
	if (alg >= 0 && !st->mac_ok[alg]) {
		PyErr_Format(PyExc_ValueError, "unsupported hash type %U", name);
		return -1;
	}
	return alg;
}

/* digestmod_alg()'s answer for a name of sha1dc: the caller raises
 * refuse_detecting() where it would have checked the name. */
#define DIGESTMOD_REFUSED (-2)

/*
 * The algorithm of an HMAC digestmod when it is one of ours: a name
 * hashlib.new() takes, or a constructor registered in st->digestmods
 * (fastsha's and hashlib's); DIGESTMOD_REFUSED for a name of sha1dc; -1,
 * no exception, for anything else.
 */
static int digestmod_alg(modstate *st, PyObject *digestmod)
{
	long alg;
	if (PyUnicode_Check(digestmod)) {
		alg = alg_find(digestmod);
		if (alg >= 0 && fastsha_alg_detects((fastsha_alg)alg))
			return DIGESTMOD_REFUSED;
	} else {
		/* an unhashable digestmod is not ours either: the standard
		 * module decides what it is */
		PyObject *v = PyDict_GetItemWithError(st->digestmods, digestmod);
		if (!v) {
			PyErr_Clear();
			return -1;
		}
		alg = PyLong_AsLong(v);
	}
	return alg >= 0 && st->mac_ok[alg] ? (int)alg : -1;
}

/* ---- the HMAC object ---- */

typedef struct {
	PyObject_HEAD
	PyThread_type_lock lock; /* as hashobj's: NULL until shared_update() needs it */
	fastsha_alg alg;
	fastsha_hmac_ctx ctx; /* holds the key's outer chaining value: wiped at the end */
} hmacobj;

static hmacobj *hmac_alloc(PyTypeObject *tp, fastsha_alg alg)
{
	hmacobj *h = PyObject_Malloc(sizeof *h);
	if (!h)
		return (hmacobj *)PyErr_NoMemory();
	PyObject_Init((PyObject *)h, tp);
	h->lock = NULL;
	h->alg = alg;
	memset(&h->ctx, 0, sizeof h->ctx);
#ifdef Py_GIL_DISABLED
	h->lock = PyThread_allocate_lock();
	if (!h->lock) {
		Py_DECREF(h);
		return (hmacobj *)PyErr_NoMemory();
	}
#endif
	return h;
}

static void hmac_dealloc(PyObject *self)
{
	hmacobj *h = (hmacobj *)self;
	PyTypeObject *tp = Py_TYPE(self);
	if (h->lock)
		PyThread_free_lock(h->lock);
	fastsha_wipe(&h->ctx, sizeof h->ctx);
	PyObject_Free(h);
	Py_DECREF(tp);
}

static void hmac_update_fn(void *ctx, const void *data, size_t len)
{
	fastsha_hmac_update(ctx, data, len);
}

/* The tag so far, the object unchanged: fastsha_hmac_final() finishes
 * (and wipes) a copy. */
static void hmac_tag(hmacobj *h, uint8_t *out)
{
	fastsha_hmac_ctx c;
	if (h->lock) {
		enter(h->lock);
		c = h->ctx;
		PyThread_release_lock(h->lock);
	} else {
		c = h->ctx;
	}
	fastsha_hmac_final(&c, out);
}

/*
 * A new HMAC object, as hmac.new(key, msg, digestmod) and hmac.HMAC(...)
 * check: the key's type, then the digestmod (any false value is a missing
 * one), then the key's length, then msg. A missing digestmod goes to the
 * standard hmac.new() too, which raises its own TypeError before any work:
 * its words change ("Missing required parameter 'digestmod'." to 3.12,
 * "argument" from 3.13). So does a digestmod that is not ours, as given.
 */
static PyObject *hmac_make(modstate *st, PyObject *key, PyObject *msg, PyObject *digestmod)
{
	if (!PyBytes_Check(key) && !PyByteArray_Check(key)) {
		PyObject *tname = PyType_GetName(Py_TYPE(key));
		if (tname)
			PyErr_Format(PyExc_TypeError, "key: expected bytes or bytearray, but got %R",
				     tname);
		Py_XDECREF(tname);
		return NULL;
	}
	int given = digestmod ? PyObject_IsTrue(digestmod) : 0;
	if (given < 0)
		return NULL;
	if (!msg)
		msg = Py_None;
	int alg = given ? digestmod_alg(st, digestmod) : -1;
	if (alg == -1) {
		/* not given: the standard default, '' */
		PyObject *a[3] = { key, msg, digestmod };
		return call_as_given(std_hmac(st, 0), a, digestmod ? 3 : 2, NULL);
	}
	Py_buffer kv;
	if (PyObject_GetBuffer(key, &kv, PyBUF_SIMPLE) < 0)
		return NULL;
	if (kv.len > HASHLIB_INT_MAX) {
		PyBuffer_Release(&kv);
		PyErr_SetString(PyExc_OverflowError, "key is too long.");
		return NULL;
	}
	/* sha1dc: after the key's length, where the standard hmac_new() looks
	 * at the name */
	if (alg == DIGESTMOD_REFUSED) {
		PyBuffer_Release(&kv);
		refuse_detecting(digestmod);
		return NULL;
	}
	hmacobj *h = hmac_alloc(st->hmac_type, (fastsha_alg)alg);
	if (!h) {
		PyBuffer_Release(&kv);
		return NULL;
	}
	/* A key longer than a block is hashed first: a long one without the GIL. */
	fastsha_hmac_key k;
	if (kv.len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		fastsha_hmac_key_init(&k, (fastsha_alg)alg, kv.buf, (size_t)kv.len);
		Py_END_ALLOW_THREADS
	} else {
		fastsha_hmac_key_init(&k, (fastsha_alg)alg, kv.buf, (size_t)kv.len);
	}
	PyBuffer_Release(&kv);
	fastsha_hmac_init(&h->ctx, &k);
	fastsha_hmac_key_wipe(&k);
	if (msg != Py_None) {
		Py_buffer mv;
		if (get_view(msg, &mv) < 0) {
			Py_DECREF(h);
			return NULL;
		}
		/* No other thread can see the new object yet: no lock needed. */
		if (mv.len >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			fastsha_hmac_update(&h->ctx, mv.buf, (size_t)mv.len);
			Py_END_ALLOW_THREADS
		} else {
			fastsha_hmac_update(&h->ctx, mv.buf, (size_t)mv.len);
		}
		PyBuffer_Release(&mv);
	}
	return (PyObject *)h;
}

static PyObject *hmac_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "key", "msg", "digestmod", NULL };
	PyObject *key, *msg = NULL, *digestmod = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:HMAC", kwlist, &key, &msg,
					 &digestmod))
		return NULL;
	return hmac_make((modstate *)PyType_GetModuleState(tp), key, msg, digestmod);
}

PyDoc_STRVAR(hmac_update_doc, "update($self, /, msg)\n--\n\n"
			      "Feed data from msg (a bytes-like object) into this HMAC object.");

/* msg by position or by name: the standard update(self, msg) is a Python
 * method, which takes both (hashlib's update(obj, /) takes no name). */
static PyObject *hmac_update(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			     PyObject *kwnames)
{
	hmacobj *h = (hmacobj *)self;
	struct param p[] = { { "msg", NULL } };
	if (parse_args("update", args, nargs, kwnames, p, 1, 1, 1) < 0)
		return NULL;
	PyObject *obj = p[0].value;
	if (PyBytes_CheckExact(obj)) { /* as hash_update() */
		shared_update(&h->lock, hmac_update_fn, &h->ctx, PyBytes_AsString(obj),
			      (size_t)PyBytes_Size(obj));
		Py_RETURN_NONE;
	}
	Py_buffer view;
	if (get_view(obj, &view) < 0)
		return NULL;
	shared_update(&h->lock, hmac_update_fn, &h->ctx, view.buf, (size_t)view.len);
	PyBuffer_Release(&view);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(hmac_digest_method_doc,
	     "digest($self, /)\n--\n\n"
	     "Return the HMAC of the data so far as bytes. The object is not altered:\n"
	     "call it again, or go on updating.");

static PyObject *hmac_digest_method(PyObject *self, PyObject *unused)
{
	(void)unused;
	hmacobj *h = (hmacobj *)self;
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	hmac_tag(h, out);
	return PyBytes_FromStringAndSize((const char *)out,
					 (Py_ssize_t)fastsha_alg_digest_size(h->alg));
}

PyDoc_STRVAR(hmac_hexdigest_doc, "hexdigest($self, /)\n--\n\n"
				 "Like digest(), as a string of hexadecimal digits.");

static PyObject *hmac_hexdigest(PyObject *self, PyObject *unused)
{
	(void)unused;
	hmacobj *h = (hmacobj *)self;
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	char hex[2 * FASTSHA_MAX_DIGEST_SIZE];
	size_t n = fastsha_alg_digest_size(h->alg);
	hmac_tag(h, out);
	to_hex(hex, out, n);
	return PyUnicode_DecodeASCII(hex, (Py_ssize_t)(2 * n), NULL);
}

PyDoc_STRVAR(hmac_copy_doc, "copy($self, /)\n--\n\n"
			    "Return a separate copy of this HMAC object.");

static PyObject *hmac_copy(PyObject *self, PyObject *unused)
{
	(void)unused;
	hmacobj *h = (hmacobj *)self;
	hmacobj *c = hmac_alloc(Py_TYPE(self), h->alg);
	if (!c)
		return NULL;
	if (h->lock) {
		enter(h->lock);
		c->ctx = h->ctx; /* pointer-free: assignment forks the computation */
		PyThread_release_lock(h->lock);
	} else {
		c->ctx = h->ctx;
	}
	return (PyObject *)c;
}

/* copy.copy() and copy.deepcopy() as copy(): the standard HMAC's work too. */
static PyObject *hmac_deepcopy(PyObject *self, PyObject *memo)
{
	(void)memo;
	return hmac_copy(self, NULL);
}

static PyObject *hmac_get_name(PyObject *self, void *closure)
{
	(void)closure;
	modstate *st = (modstate *)PyType_GetModuleState(Py_TYPE(self));
	PyObject *name = st->hmac_names[((hmacobj *)self)->alg];
	Py_INCREF(name);
	return name;
}

static PyObject *hmac_get_digest_size(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromSize_t(fastsha_alg_digest_size(((hmacobj *)self)->alg));
}

static PyObject *hmac_get_block_size(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromSize_t(fastsha_alg_block_size(((hmacobj *)self)->alg));
}

static PyObject *hmac_repr(PyObject *self)
{
	modstate *st = (modstate *)PyType_GetModuleState(Py_TYPE(self));
	return PyUnicode_FromFormat("<%U fastsha.hmac.HMAC object @ %p>",
				    st->hmac_names[((hmacobj *)self)->alg], self);
}

static PyMethodDef hmac_methods[] = {
	{ "update", (PyCFunction)(void (*)(void))hmac_update, METH_FASTCALL | METH_KEYWORDS,
	  hmac_update_doc },
	{ "digest", hmac_digest_method, METH_NOARGS, hmac_digest_method_doc },
	{ "hexdigest", hmac_hexdigest, METH_NOARGS, hmac_hexdigest_doc },
	{ "copy", hmac_copy, METH_NOARGS, hmac_copy_doc },
	{ "__copy__", hmac_copy, METH_NOARGS, NULL },
	{ "__deepcopy__", hmac_deepcopy, METH_O, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef hmac_getset[] = {
	{ "name", hmac_get_name, NULL, "'hmac-' and the hash's name, as the standard HMAC's.",
	  NULL },
	{ "digest_size", hmac_get_digest_size, NULL, "The size of the tag in bytes.", NULL },
	{ "block_size", hmac_get_block_size, NULL, "The block size of the hash in bytes.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyDoc_STRVAR(hmac_type_doc,
	     "HMAC(key, msg=None, digestmod='')\n--\n\n"
	     "An HMAC object, as the standard hmac.HMAC: key is bytes or bytearray,\n"
	     "digestmod is required (a name hashlib.new() takes, or a hash\n"
	     "constructor). For a hash fastsha does not have, the standard module's\n"
	     "hmac.HMAC object is returned instead. update() from several threads at\n"
	     "once is safe and each call is atomic.");

static PyType_Slot hmac_slots[] = {
	{ Py_tp_new, (void *)hmac_tp_new },
	{ Py_tp_dealloc, (void *)hmac_dealloc },
	{ Py_tp_repr, (void *)hmac_repr },
	{ Py_tp_methods, hmac_methods },
	{ Py_tp_getset, hmac_getset },
	{ Py_tp_doc, (void *)hmac_type_doc },
	{ 0, NULL },
};

/* Final, like Hash. Not an immutable type: the standard HMAC has the class
 * attribute blocksize (64), which module_exec sets, and only a mutable
 * heap type takes one in the Limited API. */
static PyType_Spec hmac_spec = {
	.name = "fastsha.hmac.HMAC",
	.basicsize = (int)sizeof(hmacobj),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = hmac_slots,
};

/* ---- fastsha.hmac's functions ---- */

PyDoc_STRVAR(hmac_new_doc,
	     "new($module, /, key, msg=None, digestmod='')\n--\n\n"
	     "Return a new HMAC object, as the standard hmac.new(): key is bytes or\n"
	     "bytearray, msg an optional bytes-like object, digestmod required (a name\n"
	     "hashlib.new() takes, a fastsha or hashlib constructor). For any other\n"
	     "digestmod (md5, sha3_256, a module with .new, ...) the standard\n"
	     "hmac.new() is called and its object returned; 'sha1dc' raises\n"
	     "ValueError (no HMAC on it: use sha1).");

static PyObject *py_hmac_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			     PyObject *kwnames)
{
	struct param p[] = { { "key", NULL }, { "msg", NULL }, { "digestmod", NULL } };
	if (parse_args("new", args, nargs, kwnames, p, 3, 3, 1) < 0)
		return NULL;
	return hmac_make(state_of_module(module), p[0].value, p[1].value, p[2].value);
}

PyDoc_STRVAR(hmac_digest_doc,
	     "digest($module, /, key, msg, digest)\n--\n\n"
	     "Return the HMAC of msg under key (bytes-like objects) as bytes, as the\n"
	     "standard hmac.digest(); digest names the hash (a name hashlib.new() takes,\n"
	     "a fastsha or hashlib constructor). Any other digest goes to the standard\n"
	     "hmac.digest(). The GIL is released for 2048 bytes and more.");

static PyObject *py_hmac_digest(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	struct param p[] = { { "key", NULL }, { "msg", NULL }, { "digest", NULL } };
	if (parse_args("digest", args, nargs, kwnames, p, 3, 3, 3) < 0)
		return NULL;
	modstate *st = state_of_module(module);
	int alg = digestmod_alg(st, p[2].value);
	if (alg == -1)
		return call_as_given(std_hmac(st, 1), args, nargs, kwnames);
	Py_buffer key, msg;
	if (get_arg_buffer(p[0].value, &key, "hmac_digest", "key") < 0)
		return NULL;
	if (get_arg_buffer(p[1].value, &msg, "hmac_digest", "msg") < 0) {
		PyBuffer_Release(&key);
		return NULL;
	}
	PyObject *result = NULL;
	if (key.len > HASHLIB_INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "key is too long.");
	} else if (alg == DIGESTMOD_REFUSED) {
		/* after the key's checks, where the standard digest() looks at the name */
		refuse_detecting(p[2].value);
	} else {
		uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
		if ((size_t)key.len + (size_t)msg.len >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			fastsha_hmac((fastsha_alg)alg, key.buf, (size_t)key.len, msg.buf,
				     (size_t)msg.len, out);
			Py_END_ALLOW_THREADS
		} else {
			fastsha_hmac((fastsha_alg)alg, key.buf, (size_t)key.len, msg.buf,
				     (size_t)msg.len, out);
		}
		result = PyBytes_FromStringAndSize(
			(const char *)out, (Py_ssize_t)fastsha_alg_digest_size((fastsha_alg)alg));
	}
	PyBuffer_Release(&msg);
	PyBuffer_Release(&key);
	return result;
}

PyDoc_STRVAR(register_doc,
	     "_register_hmac_digestmod($module, constructor, name, /)\n--\n\n"
	     "Make fastsha.hmac treat digestmod=constructor as the algorithm called name\n"
	     "(fastsha.hmac registers hashlib's constructors when imported).");

static PyObject *py_register_hmac_digestmod(PyObject *module, PyObject *const *args,
					    Py_ssize_t nargs)
{
	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError,
			     "_register_hmac_digestmod() takes exactly 2 arguments (%zd given)", nargs);
		return NULL;
	}
	int alg = mac_alg_of(state_of_module(module), args[1]);
	if (alg < 0)
		return NULL;
	PyObject *v = PyLong_FromLong(alg);
	int rc = v ? PyDict_SetItem(state_of_module(module)->digestmods, args[0], v) : -1;
	Py_XDECREF(v);
	if (rc < 0)
		return NULL;
	Py_RETURN_NONE;
}

PyDoc_STRVAR(fallbacks_doc,
	     "_set_hmac_fallbacks($module, new, digest, /)\n--\n\n"
	     "The standard hmac.new and hmac.digest, which fastsha.hmac hands the hashes\n"
	     "fastsha does not have to (fastsha.hmac sets them when imported).");

static PyObject *py_set_hmac_fallbacks(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError,
			     "_set_hmac_fallbacks() takes exactly 2 arguments (%zd given)", nargs);
		return NULL;
	}
	modstate *st = state_of_module(module);
	for (int i = 0; i < 2; i++) {
		if (!PyCallable_Check(args[i])) {
			PyErr_SetString(PyExc_TypeError, "_set_hmac_fallbacks() takes two callables");
			return NULL;
		}
	}
	for (int i = 0; i < 2; i++) {
		/* The new one stored before the old one is dropped: dropping it
		 * can run Python code (a finaliser), which must not find the
		 * slot pointing at a freed object (Py_XSETREF's order). */
		PyObject *old = st->std_hmac[i];
		Py_INCREF(args[i]);
		st->std_hmac[i] = args[i];
		Py_XDECREF(old);
	}
	Py_RETURN_NONE;
}

/* Defined apart from module_methods so that their __name__ is the
 * standard module's ("new", "digest"); module_exec adds them as
 * hmac_new and hmac_digest. */
static PyMethodDef hmac_functions[] = {
	{ "new", (PyCFunction)(void (*)(void))py_hmac_new, METH_FASTCALL | METH_KEYWORDS,
	  hmac_new_doc },
	{ "digest", (PyCFunction)(void (*)(void))py_hmac_digest, METH_FASTCALL | METH_KEYWORDS,
	  hmac_digest_doc },
	{ NULL, NULL, 0, NULL },
};

/* ---- PBKDF2 ---- */

/* hashlib.pbkdf2_hmac()'s checks after parsing, in its order and words
 * (CPython 3.11), but for dklen: the lengths and iteration count. */
static int pbkdf2_check(Py_ssize_t pwlen, Py_ssize_t saltlen, long iterations)
{
	if (pwlen > HASHLIB_INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "password is too long.");
		return -1;
	}
	if (saltlen > HASHLIB_INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "salt is too long.");
		return -1;
	}
	if (iterations < 1) {
		PyErr_SetString(PyExc_ValueError, "iteration value must be greater than 0.");
		return -1;
	}
	if (iterations > HASHLIB_INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "iteration value is too great.");
		return -1;
	}
	return 0;
}

/* The iterations argument: an int (or __index__), as hashlib's "long"
 * converter takes it. */
static int pbkdf2_iterations(PyObject *obj, long *iterations)
{
	*iterations = PyLong_AsLong(obj);
	return *iterations == -1 && PyErr_Occurred() ? -1 : 0;
}

/* dklen: None for the digest size, else 1 .. INT_MAX (hashlib's limit;
 * PBKDF2's own, (2^32 - 1) digests, is larger for every algorithm). */
static int pbkdf2_dklen(PyObject *obj, size_t ds, long *dklen)
{
	if (!obj || obj == Py_None) {
		*dklen = (long)ds;
		return 0;
	}
	*dklen = PyLong_AsLong(obj);
	if (*dklen == -1 && PyErr_Occurred())
		return -1;
	if (*dklen < 1) {
		PyErr_SetString(PyExc_ValueError, "key length must be greater than 0.");
		return -1;
	}
	if (*dklen > HASHLIB_INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "key length is too great.");
		return -1;
	}
	return 0;
}

PyDoc_STRVAR(pbkdf2_hmac_doc,
	     "pbkdf2_hmac($module, /, hash_name, password, salt, iterations, dklen=None)\n--\n\n"
	     "Password based key derivation function 2 (PKCS #5 v2.0, RFC 8018) with\n"
	     "HMAC as pseudorandom function: hashlib.pbkdf2_hmac(), same arguments,\n"
	     "limits and exceptions. The GIL is released while it runs. A hash_name\n"
	     "fastsha does not have (md5, sha3_256, ...) is handed to\n"
	     "hashlib.pbkdf2_hmac(); sha1dc raises ValueError (no HMAC on it: use sha1).");

static PyObject *py_pbkdf2_hmac(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL },
			     { "password", NULL },
			     { "salt", NULL },
			     { "iterations", NULL },
			     { "dklen", NULL } };
	if (parse_args("pbkdf2_hmac", args, nargs, kwnames, p, 5, 5, 4) < 0)
		return NULL;
	int alg = alg_find(p[0].value);
	int refused = alg >= 0 && fastsha_alg_detects((fastsha_alg)alg);
	if (alg < 0 || (!state_of_module(module)->mac_ok[alg] && !refused))
		return call_as_given(hashlib_pbkdf2(), args, nargs, kwnames);
	Py_buffer pw, salt;
	long iterations, dklen;
	PyObject *result = NULL;
	if (get_arg_buffer(p[1].value, &pw, "pbkdf2_hmac", "password") < 0)
		return NULL;
	if (get_arg_buffer(p[2].value, &salt, "pbkdf2_hmac", "salt") < 0) {
		PyBuffer_Release(&pw);
		return NULL;
	}
	/* sha1dc refused where hashlib looks the name up: after the
	 * arguments' conversions, before their checks */
	if (pbkdf2_iterations(p[3].value, &iterations) == 0 &&
	    (!refused || refuse_detecting(p[0].value) == 0) &&
	    pbkdf2_check(pw.len, salt.len, iterations) == 0 &&
	    pbkdf2_dklen(p[4].value, fastsha_alg_digest_size((fastsha_alg)alg), &dklen) == 0 &&
	    (result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)dklen))) {
		/* A new bytes object is ours to fill until it is returned. */
		uint8_t *out = (uint8_t *)PyBytes_AsString(result);
		int rc;
		Py_BEGIN_ALLOW_THREADS
		rc = fastsha_pbkdf2((fastsha_alg)alg, pw.buf, (size_t)pw.len, salt.buf,
				    (size_t)salt.len, (uint32_t)iterations, out, (size_t)dklen);
		Py_END_ALLOW_THREADS
		if (rc < 0) { /* cannot happen: every argument was checked */
			Py_CLEAR(result);
			PyErr_SetString(PyExc_SystemError, "fastsha_pbkdf2() refused its arguments");
		}
	}
	PyBuffer_Release(&salt);
	PyBuffer_Release(&pw);
	return result;
}

/* What the keyed calls of the library (mac.h) take: not every name of
 * algorithms_available, whose SHA-3 and SHAKE have no HMAC here. */
#define MAC_NAMES_DOC                                                                  \
	"hash_name: sha1, sha224, sha256, sha384, sha512, sha512_224 or\n"             \
	"sha512_256, by any name new() takes for them; others (sha1dc, the\n"         \
	"SHA-3 and SHAKE algorithms, md5) raise ValueError."

PyDoc_STRVAR(pbkdf2_hmac_many_doc,
	     "pbkdf2_hmac_many($module, /, hash_name, passwords, salts, iterations,\n"
	     "                 dklen=None)\n--\n\n"
	     "Return [pbkdf2_hmac(hash_name, p, s, iterations, dklen) for p, s in\n"
	     "zip(passwords, salts)] as a list of bytes, in order: passwords is an\n"
	     "iterable of bytes-like objects; salts is one bytes-like object, the salt\n"
	     "of every password, or an iterable of as many as there are passwords.\n"
	     "pbkdf2_hmac()'s limits and exceptions apply to each. The GIL is released\n"
	     "once for the whole batch, whose chains run side by side on the\n"
	     "multi-buffer lanes where this CPU has them.\n\n" MAC_NAMES_DOC);

static PyObject *py_pbkdf2_hmac_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				     PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL },
			     { "passwords", NULL },
			     { "salts", NULL },
			     { "iterations", NULL },
			     { "dklen", NULL } };
	if (parse_args("pbkdf2_hmac_many", args, nargs, kwnames, p, 5, 5, 4) < 0)
		return NULL;
	int alg = mac_alg_of(state_of_module(module), p[0].value);
	if (alg < 0)
		return NULL;
	struct batch pws, salts = { 0 };
	Py_buffer one = { .obj = NULL };
	fastsha_msg *each = NULL;
	uint8_t *out = NULL;
	size_t outlen = 0;
	long iterations, dklen;
	PyObject *result = NULL;
	if (batch_get(&pws, p[1].value, "pbkdf2_hmac_many", "passwords") < 0)
		return NULL;
	Py_ssize_t n = pws.n;
	if (PyUnicode_Check(p[2].value)) {
		PyErr_SetString(PyExc_TypeError,
				"salts must be a bytes-like object or an iterable of them, not str");
		goto done;
	}
	if (PyObject_CheckBuffer(p[2].value)) {
		/* one salt for all: every entry points at it */
		if (get_arg_buffer(p[2].value, &one, "pbkdf2_hmac_many", "salts") < 0)
			goto done;
		if (!(each = alloc_array((size_t)n, sizeof *each))) {
			PyErr_NoMemory();
			goto done;
		}
		for (Py_ssize_t i = 0; i < n; i++)
			each[i] = (fastsha_msg){ .data = one.buf, .len = (size_t)one.len };
	} else {
		if (batch_get(&salts, p[2].value, "pbkdf2_hmac_many", "salts") < 0)
			goto done;
		if (salts.n != n) {
			PyErr_Format(PyExc_ValueError, "pbkdf2_hmac_many(): %zd salts for %zd passwords",
				     salts.n, n);
			goto done;
		}
	}
	const fastsha_msg *saltv = each ? each : salts.msgs;
	if (pbkdf2_iterations(p[3].value, &iterations) < 0)
		goto done;
	for (Py_ssize_t i = 0; i < n; i++)
		if (pbkdf2_check((Py_ssize_t)pws.msgs[i].len, (Py_ssize_t)saltv[i].len, 1) < 0)
			goto done;
	if (pbkdf2_check(0, 0, iterations) < 0 ||
	    pbkdf2_dklen(p[4].value, fastsha_alg_digest_size((fastsha_alg)alg), &dklen) < 0)
		goto done;
	if (!(out = alloc_array((size_t)n, (size_t)dklen))) {
		PyErr_NoMemory();
		goto done;
	}
	outlen = (size_t)n * (size_t)dklen;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = fastsha_pbkdf2_many((fastsha_alg)alg, pws.msgs, saltv, (size_t)n,
				 (uint32_t)iterations, out, (size_t)dklen);
	Py_END_ALLOW_THREADS
	if (rc < 0)
		PyErr_SetString(PyExc_SystemError, "fastsha_pbkdf2_many() refused its arguments");
	else
		result = bytes_list(out, n, (size_t)dklen);
done:
	if (out) {
		fastsha_wipe(out, outlen);
		PyMem_Free(out);
	}
	PyMem_Free(each);
	release_opt_buffer(&one);
	batch_release(&salts);
	batch_release(&pws);
	return result;
}

/* ---- HMAC batches ---- */

PyDoc_STRVAR(hmac_many_doc,
	     "hmac_many($module, /, hash_name, key, buffers)\n--\n\n"
	     "Return the HMACs under key (a bytes-like object) of every buffer in the\n"
	     "iterable buffers, in order, as a list of bytes: [hmac.digest(key, b,\n"
	     "hash_name) for b in buffers], the key prepared once, the GIL released\n"
	     "once for the whole batch (from 2048 bytes in all) and messages hashed\n"
	     "together on the multi-buffer lanes where this CPU has them.\n\n" MAC_NAMES_DOC);

static PyObject *py_hmac_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			      PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL }, { "key", NULL }, { "buffers", NULL } };
	if (parse_args("hmac_many", args, nargs, kwnames, p, 3, 3, 3) < 0)
		return NULL;
	int alg = mac_alg_of(state_of_module(module), p[0].value);
	if (alg < 0)
		return NULL;
	Py_buffer key;
	struct batch b;
	if (get_arg_buffer(p[1].value, &key, "hmac_many", "key") < 0)
		return NULL;
	if (batch_get(&b, p[2].value, "hmac_many", "buffers") < 0) {
		PyBuffer_Release(&key);
		return NULL;
	}
	size_t ds = fastsha_alg_digest_size((fastsha_alg)alg);
	PyObject *result = NULL;
	uint8_t *out = alloc_array((size_t)b.n, ds);
	if (!out) {
		PyErr_NoMemory();
	} else {
		fastsha_hmac_key k;
		if (b.total + (size_t)key.len >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			fastsha_hmac_key_init(&k, (fastsha_alg)alg, key.buf, (size_t)key.len);
			fastsha_hmac_many(&k, b.msgs, (size_t)b.n, out);
			Py_END_ALLOW_THREADS
		} else {
			fastsha_hmac_key_init(&k, (fastsha_alg)alg, key.buf, (size_t)key.len);
			fastsha_hmac_many(&k, b.msgs, (size_t)b.n, out);
		}
		fastsha_hmac_key_wipe(&k);
		result = bytes_list(out, b.n, ds);
		PyMem_Free(out);
	}
	batch_release(&b);
	PyBuffer_Release(&key);
	return result;
}

/* ---- HKDF ---- */

/* HKDF's output length: None for a digest, else 1 .. 255 digests. */
static int hkdf_length(PyObject *obj, fastsha_alg alg, const char *fname, modstate *st,
		       size_t *len)
{
	size_t ds = fastsha_alg_digest_size(alg);
	if (!obj || obj == Py_None) {
		*len = ds;
		return 0;
	}
	int overflow;
	long v = PyLong_AsLongAndOverflow(obj, &overflow);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (overflow || v < 1 || (unsigned long)v > 255 * ds) {
		PyErr_Format(PyExc_ValueError,
			     "%s(): length must be 1 to %zu (255 %U digests), not %R", fname,
			     255 * ds, st->names[alg], obj);
		return -1;
	}
	*len = (size_t)v;
	return 0;
}

PyDoc_STRVAR(hkdf_doc,
	     "hkdf($module, /, hash_name, ikm, *, salt=b'', info=b'', length=None)\n--\n\n"
	     "HKDF (RFC 5869): extract a pseudorandom key from the input keying\n"
	     "material ikm and salt, then expand it with info into length bytes (None:\n"
	     "one digest; at most 255 digests), returned as bytes. ikm, salt and info\n"
	     "are bytes-like objects; salt and info may be None (empty: an empty salt\n"
	     "is the RFC's string of a digest length of zeros).\n\n" MAC_NAMES_DOC);

static PyObject *py_hkdf(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL },
			     { "ikm", NULL },
			     { "salt", NULL },
			     { "info", NULL },
			     { "length", NULL } };
	if (parse_args("hkdf", args, nargs, kwnames, p, 2, 5, 2) < 0)
		return NULL;
	int alg = mac_alg_of(state_of_module(module), p[0].value);
	if (alg < 0)
		return NULL;
	Py_buffer ikm, salt = { .obj = NULL }, info = { .obj = NULL };
	PyObject *result = NULL;
	size_t len;
	if (get_arg_buffer(p[1].value, &ikm, "hkdf", "ikm") < 0)
		return NULL;
	if (get_opt_buffer(p[2].value, &salt, "hkdf", "salt") < 0 ||
	    get_opt_buffer(p[3].value, &info, "hkdf", "info") < 0 ||
	    hkdf_length(p[4].value, (fastsha_alg)alg, "hkdf", state_of_module(module), &len) < 0 ||
	    !(result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len)))
		goto done;
	uint8_t *out = (uint8_t *)PyBytes_AsString(result);
	int rc;
	if ((size_t)ikm.len + (size_t)salt.len + (size_t)info.len + len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		rc = fastsha_hkdf((fastsha_alg)alg, salt.buf, (size_t)salt.len, ikm.buf,
				  (size_t)ikm.len, info.buf, (size_t)info.len, out, len);
		Py_END_ALLOW_THREADS
	} else {
		rc = fastsha_hkdf((fastsha_alg)alg, salt.buf, (size_t)salt.len, ikm.buf,
				  (size_t)ikm.len, info.buf, (size_t)info.len, out, len);
	}
	if (rc < 0) {
		Py_CLEAR(result);
		PyErr_SetString(PyExc_SystemError, "fastsha_hkdf() refused its arguments");
	}
done:
	release_opt_buffer(&info);
	release_opt_buffer(&salt);
	PyBuffer_Release(&ikm);
	return result;
}

PyDoc_STRVAR(hkdf_extract_doc,
	     "hkdf_extract($module, /, hash_name, ikm, *, salt=b'')\n--\n\n"
	     "HKDF-Extract (RFC 5869, 2.2): the pseudorandom key HMAC(salt, ikm), one\n"
	     "digest of bytes. salt may be None (empty).\n\n" MAC_NAMES_DOC);

static PyObject *py_hkdf_extract(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				 PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL }, { "ikm", NULL }, { "salt", NULL } };
	if (parse_args("hkdf_extract", args, nargs, kwnames, p, 2, 3, 2) < 0)
		return NULL;
	int alg = mac_alg_of(state_of_module(module), p[0].value);
	if (alg < 0)
		return NULL;
	Py_buffer ikm, salt;
	if (get_arg_buffer(p[1].value, &ikm, "hkdf_extract", "ikm") < 0)
		return NULL;
	if (get_opt_buffer(p[2].value, &salt, "hkdf_extract", "salt") < 0) {
		PyBuffer_Release(&ikm);
		return NULL;
	}
	uint8_t prk[FASTSHA_MAX_DIGEST_SIZE];
	if ((size_t)ikm.len + (size_t)salt.len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		fastsha_hkdf_extract((fastsha_alg)alg, salt.buf, (size_t)salt.len, ikm.buf,
				     (size_t)ikm.len, prk);
		Py_END_ALLOW_THREADS
	} else {
		fastsha_hkdf_extract((fastsha_alg)alg, salt.buf, (size_t)salt.len, ikm.buf,
				     (size_t)ikm.len, prk);
	}
	release_opt_buffer(&salt);
	PyBuffer_Release(&ikm);
	PyObject *result = PyBytes_FromStringAndSize(
		(const char *)prk, (Py_ssize_t)fastsha_alg_digest_size((fastsha_alg)alg));
	fastsha_wipe(prk, sizeof prk);
	return result;
}

PyDoc_STRVAR(hkdf_expand_doc,
	     "hkdf_expand($module, /, hash_name, prk, *, info=b'', length=None)\n--\n\n"
	     "HKDF-Expand (RFC 5869, 2.3): length bytes (None: one digest; at most 255\n"
	     "digests) from the pseudorandom key prk (at least a digest long) and info.\n"
	     "info may be None (empty).\n\n" MAC_NAMES_DOC);

static PyObject *py_hkdf_expand(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	struct param p[] = { { "hash_name", NULL },
			     { "prk", NULL },
			     { "info", NULL },
			     { "length", NULL } };
	if (parse_args("hkdf_expand", args, nargs, kwnames, p, 2, 4, 2) < 0)
		return NULL;
	int alg = mac_alg_of(state_of_module(module), p[0].value);
	if (alg < 0)
		return NULL;
	modstate *st = state_of_module(module);
	size_t ds = fastsha_alg_digest_size((fastsha_alg)alg);
	Py_buffer prk, info = { .obj = NULL };
	PyObject *result = NULL;
	size_t len;
	if (get_arg_buffer(p[1].value, &prk, "hkdf_expand", "prk") < 0)
		return NULL;
	if ((size_t)prk.len < ds) {
		PyErr_Format(PyExc_ValueError,
			     "hkdf_expand(): prk must be at least %zu bytes (a %U digest), not %zd", ds,
			     st->names[alg], prk.len);
		goto done;
	}
	if (get_opt_buffer(p[2].value, &info, "hkdf_expand", "info") < 0 ||
	    hkdf_length(p[3].value, (fastsha_alg)alg, "hkdf_expand", st, &len) < 0 ||
	    !(result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len)))
		goto done;
	uint8_t *out = (uint8_t *)PyBytes_AsString(result);
	int rc;
	if ((size_t)prk.len + (size_t)info.len + len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		rc = fastsha_hkdf_expand((fastsha_alg)alg, prk.buf, (size_t)prk.len, info.buf,
					 (size_t)info.len, out, len);
		Py_END_ALLOW_THREADS
	} else {
		rc = fastsha_hkdf_expand((fastsha_alg)alg, prk.buf, (size_t)prk.len, info.buf,
					 (size_t)info.len, out, len);
	}
	if (rc < 0) {
		Py_CLEAR(result);
		PyErr_SetString(PyExc_SystemError, "fastsha_hkdf_expand() refused its arguments");
	}
done:
	release_opt_buffer(&info);
	PyBuffer_Release(&prk);
	return result;
}

/* ---- files -------------------------------------------------------------- */

/*
 * Ctrl-C. CPython installs its SIGINT handler without SA_RESTART, so a
 * blocking open() (a FIFO without a writer) or read() (a pipe, a stalled
 * network file) in the thread that takes the signal fails with EINTR. The
 * thread that called file()/files() then does what CPython's own I/O does
 * (PEP 475): takes the GIL, runs the handlers (PyErr_CheckSignals) and
 * retries, or, when a handler raised, closes what it opened and returns
 * the exception. A read of a regular file is not interrupted, so that
 * thread also runs the handlers at least every CHECK_NS while it reads,
 * and a signal that lands between system calls is seen too. files()'s own
 * threads block every signal (so it goes to the Python thread) and are
 * cancelled (pthread_cancel) when that thread stops; they enable
 * cancellation only inside open() and read(), never while hashing or
 * holding a lock, and a cleanup handler closes their file.
 */
/* 100 ms: too short to notice after Ctrl-C; one GIL round trip per 100 ms
 * of hashing costs nothing measurable, and at most the switch interval
 * (5 ms) when other threads are running Python. */
#define CHECK_NS 100000000L

/* What the calling thread's helpers return when a signal handler raised. */
#define INTERRUPTED (-1)

/* A file being hashed: read() until EOF into one context. */
struct reader {
	int fd;
	fastsha_alg alg;
	fastsha_ctx ctx;
};

/* Open @path for hashing with @alg. Return: 0 or an errno value (EINTR
 * too: the caller decides whether to retry). */
static int reader_open(struct reader *r, const char *path, fastsha_alg alg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	r->fd = fd;
#ifdef POSIX_FADV_SEQUENTIAL
	(void)posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a hint only */
#endif
	r->alg = alg;
	fastsha_init(&r->ctx, alg);
	return 0;
}

/* The digest of what @r read into @out: @outlen bytes of output for an
 * XOF (squeezed from the reader's own context), the digest size else. */
static void reader_finish(struct reader *r, uint8_t *out, size_t outlen)
{
	if (fastsha_alg_is_xof(r->alg))
		(void)fastsha_squeeze(&r->ctx, out, outlen);
	else
		fastsha_final(&r->ctx, out);
}

/* Close; a failed close fails the file (no digest for data not read whole). */
static int reader_close(struct reader *r)
{
	int e = close(r->fd) < 0 && errno != EINTR ? errno : 0;
	r->fd = -1;
	return e;
}

/* Now plus CHECK_NS into @t. */
static void check_deadline(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_nsec += CHECK_NS;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int past(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* ---- the calling (Python) thread's side ---- */

/*
 * Run the Python signal handlers from a thread that released the GIL into
 * *@ts, and release it again. @pid is the process's id when the call
 * began. Return: 0, or INTERRUPTED with the handler's exception set
 * (KeyboardInterrupt), or with RuntimeError when a handler forked and this
 * is the child.
 *
 * A handler that calls os.fork() returns into this call in both processes.
 * The child must not go on: files()'s other threads were not copied (it
 * would wait for them for ever, then join threads it does not have), and
 * the files it has open share their offsets with the parent's, so a read
 * by either takes bytes from the other's digest. The child stops here,
 * before its next read, and the parent's digests are as if it had not
 * forked; the child gets an exception, as for Ctrl-C. (It keeps its
 * copies of the descriptors the parent's workers had open: nothing here
 * knows them.)
 */
static int run_handlers(PyThreadState **ts, pid_t pid)
{
	PyEval_RestoreThread(*ts);
	int rc = PyErr_CheckSignals();
	if (getpid() != pid) {
		if (rc == 0)
			PyErr_SetString(PyExc_RuntimeError,
					"a signal handler forked during file()/files(): the child "
					"cannot go on reading the parent's files");
		rc = -1;
	}
	*ts = PyEval_SaveThread();
	return rc < 0 ? INTERRUPTED : 0;
}

/*
 * The digest of file @path into @out (@outlen bytes), in a thread whose GIL
 * is released into *@ts, running the signal handlers on EINTR and every
 * CHECK_NS. Return: 0, an errno value, or INTERRUPTED (the file is closed).
 */
static int caller_hash_path(const char *path, fastsha_alg alg, uint8_t *buf, uint8_t *out,
			    size_t outlen, PyThreadState **ts, pid_t pid, struct timespec *check_at)
{
	struct reader r = { .fd = -1 };
	int e;
	while ((e = reader_open(&r, path, alg)) == EINTR)
		if (run_handlers(ts, pid) < 0)
			return INTERRUPTED;
	if (e)
		return e;
	for (;;) {
		if (past(check_at)) {
			if (run_handlers(ts, pid) < 0) {
				e = INTERRUPTED;
				break;
			}
			check_deadline(check_at);
		}
		ssize_t got = read(r.fd, buf, READ_SIZE);
		if (got > 0) {
			fastsha_update(&r.ctx, buf, (size_t)got);
		} else if (got == 0) {
			e = 0;
			break;
		} else if (errno != EINTR) {
			e = errno;
			break;
		} else if (run_handlers(ts, pid) < 0) {
			e = INTERRUPTED;
			break;
		}
	}
	int ce = reader_close(&r);
	if (!e)
		e = ce;
	if (!e)
		reader_finish(&r, out, outlen);
	return e;
}

/* Raise the OSError subclass for @err (FileNotFoundError, ...) on @path. */
static PyObject *raise_errno(int err, PyObject *path)
{
	errno = err;
	return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
}

PyDoc_STRVAR(file_doc, "file($module, /, path, name, *, length=None)\n--\n\n"
		       "Return the digest (bytes) of the file at path (str, bytes or\n"
		       "os.PathLike) under the algorithm called name (length bytes of output\n"
		       "for an extendable-output one, which needs length). The file is opened,\n"
		       "read and hashed in C with the GIL released; errors raise OSError.\n"
		       "Ctrl-C (any signal handler that raises) stops it while it opens or\n"
		       "reads.");

static PyObject *py_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames)
{
	struct param p[] = { { "path", NULL }, { "name", NULL }, { "length", NULL } };
	if (parse_args("file", args, nargs, kwnames, p, 2, 3, 2) < 0)
		return NULL;
	int alg = alg_of(p[1].value);
	size_t outlen;
	if (alg < 0 || out_length("file", module, (fastsha_alg)alg, p[2].value, &outlen) < 0)
		return NULL;
	PyObject *fspath = NULL; /* bytes */
	if (!PyUnicode_FSConverter(p[0].value, &fspath))
		return NULL;
	const char *path = PyBytes_AsString(fspath);
	/* A new bytes object is ours to fill until it is returned. */
	PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)outlen);
	uint8_t *buf = result ? malloc(READ_SIZE) : NULL;
	if (!buf) {
		Py_XDECREF(result);
		Py_DECREF(fspath);
		return result ? PyErr_NoMemory() : NULL;
	}
	uint8_t *out = (uint8_t *)PyBytes_AsString(result);
	struct timespec check_at;
	check_deadline(&check_at);
	PyThreadState *ts = PyEval_SaveThread();
	int e = caller_hash_path(path, (fastsha_alg)alg, buf, out, outlen, &ts, getpid(),
				 &check_at);
	PyEval_RestoreThread(ts);
	free(buf);
	if (e) {
		Py_CLEAR(result);
		if (e != INTERRUPTED) /* else a signal handler raised */
			raise_errno(e, p[0].value);
	}
	Py_DECREF(fspath);
	return result;
}

/* files(): the calling thread and up to threads - 1 POSIX threads claim
 * paths in input order until none is left, one failed or the caller was
 * interrupted. */
struct files_job {
	fastsha_alg alg;
	size_t n, ds;
	const char **paths;
	uint8_t *out;     /* n * ds */
	int *err;         /* errno per path; 0 when hashed or not reached */
	atomic_size_t next;
	atomic_int failed;
	pthread_mutex_t mutex;
	pthread_cond_t finished; /* signalled as each worker thread ends */
	long running;            /* worker threads not yet ended; under mutex */
	pid_t pid;               /* the process's id at the start (run_handlers) */
};

struct files_worker {
	struct files_job *job;
	uint8_t *buf;
	pthread_t thread;
	int started;
};

/* The next path to hash, or n when none is left or a path failed. */
static size_t files_claim(struct files_job *j)
{
	if (atomic_load_explicit(&j->failed, memory_order_relaxed))
		return j->n;
	size_t i = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
	return i < j->n ? i : j->n;
}

/* ---- files()'s own threads: no GIL, no signals, cancellable in I/O ---- */

static void close_fd(void *arg)
{
	int *fd = arg;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * open() and read() with cancellation enabled for just that call:
 * cancelled there, the thread unwinds through close_fd and ends; anywhere
 * else a cancel waits for the next such call.
 */
static int cancellable_open(struct reader *r, const char *path, fastsha_alg alg)
{
	int old, e;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	e = reader_open(r, path, alg);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	return e;
}

static ssize_t cancellable_read(int fd, uint8_t *buf)
{
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	ssize_t got = read(fd, buf, READ_SIZE);
	int e = errno;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	errno = e;
	return got;
}

/* The digest of file @path into @out (@outlen bytes). Return: 0 or an
 * errno value. */
static int worker_hash_path(const char *path, fastsha_alg alg, uint8_t *buf, uint8_t *out,
			    size_t outlen)
{
	struct reader r = { .fd = -1 };
	int e;
	pthread_cleanup_push(close_fd, &r.fd);
	/* No signal reaches this thread, but EINTR costs nothing to retry. */
	while ((e = cancellable_open(&r, path, alg)) == EINTR)
		;
	while (!e) {
		ssize_t got = cancellable_read(r.fd, buf);
		if (got > 0)
			fastsha_update(&r.ctx, buf, (size_t)got);
		else if (got == 0)
			break;
		else if (errno != EINTR)
			e = errno;
	}
	pthread_cleanup_pop(0);
	if (r.fd >= 0) {
		int ce = reader_close(&r);
		if (!e)
			e = ce;
		if (!e)
			reader_finish(&r, out, outlen);
	}
	return e;
}

static void *files_work(void *arg)
{
	struct files_worker *w = arg;
	struct files_job *j = w->job;
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	for (size_t i; (i = files_claim(j)) < j->n;) {
		int e = worker_hash_path(j->paths[i], j->alg, w->buf, j->out + i * j->ds, j->ds);
		if (e) {
			j->err[i] = e;
			atomic_store_explicit(&j->failed, 1, memory_order_relaxed);
		}
	}
	pthread_mutex_lock(&j->mutex);
	j->running--;
	pthread_cond_signal(&j->finished);
	pthread_mutex_unlock(&j->mutex);
	return NULL;
}

/*
 * Run @j on the calling thread (GIL released into *@ts) and @nworkers - 1
 * more threads. Return: 0 (every path hashed, or some failed: see j->err)
 * or INTERRUPTED, once every thread has ended either way.
 */
static int files_run(struct files_job *j, struct files_worker *workers, long nworkers,
		     PyThreadState **ts)
{
	struct timespec check_at;
	check_deadline(&check_at);
	sigset_t all, old;
	sigfillset(&all);
	pthread_condattr_t ca;
	int have_sync = 0;
	if (nworkers > 1 && pthread_condattr_init(&ca) == 0) {
		/* A monotonic clock for the timed wait: a clock change cannot stretch it. */
		have_sync = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
			    pthread_cond_init(&j->finished, &ca) == 0;
		if (have_sync && pthread_mutex_init(&j->mutex, NULL) != 0) {
			pthread_cond_destroy(&j->finished);
			have_sync = 0;
		}
		pthread_condattr_destroy(&ca);
	}
	/* New threads inherit the mask: all signals blocked, so SIGINT goes to
	 * a Python thread. A thread that cannot start leaves its share to the
	 * others; without the mutex and condition none starts. */
	j->running = 0;
	if (have_sync) {
		pthread_sigmask(SIG_BLOCK, &all, &old);
		/* Under the mutex: a worker that finds nothing left ends at once,
		 * and its j->running-- (under the mutex) raced an unlocked += here.
		 * A lost decrement left the count above zero and this thread
		 * waiting for ever (files() of 48 small files on 64 threads hung
		 * in the Python suite on an Intel Xeon, 2026-12-05). The workers
		 * take the mutex only as they end, so they wait here at most. */
		pthread_mutex_lock(&j->mutex);
		for (long t = 1; t < nworkers; t++) {
			workers[t].started = pthread_create(&workers[t].thread, NULL, files_work,
							    &workers[t]) == 0;
			j->running += workers[t].started;
		}
		pthread_mutex_unlock(&j->mutex);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	int rc = 0;
	for (size_t i; (i = files_claim(j)) < j->n;) {
		int e = caller_hash_path(j->paths[i], j->alg, workers[0].buf, j->out + i * j->ds,
					 j->ds, ts, j->pid, &check_at);
		if (e == INTERRUPTED) {
			rc = INTERRUPTED;
			break;
		}
		if (e) {
			j->err[i] = e;
			atomic_store_explicit(&j->failed, 1, memory_order_relaxed);
		}
	}
	/* In a child forked by a handler the workers do not exist: nothing to
	 * cancel or join, and the mutex may have been copied held by one. */
	if (!have_sync || (rc == INTERRUPTED && getpid() != j->pid))
		return rc;
	/* Wait for the other threads, running the handlers every CHECK_NS: a
	 * condition wait is not interrupted by a signal. */
	pthread_mutex_lock(&j->mutex);
	while (rc == 0 && j->running > 0) {
		if (pthread_cond_timedwait(&j->finished, &j->mutex, &check_at) == ETIMEDOUT) {
			pthread_mutex_unlock(&j->mutex);
			rc = run_handlers(ts, j->pid);
			if (rc == INTERRUPTED && getpid() != j->pid)
				return rc; /* as above */
			check_deadline(&check_at);
			pthread_mutex_lock(&j->mutex);
		}
	}
	pthread_mutex_unlock(&j->mutex);
	if (rc == INTERRUPTED) {
		atomic_store_explicit(&j->failed, 1, memory_order_relaxed);
		for (long t = 1; t < nworkers; t++)
			if (workers[t].started)
				pthread_cancel(workers[t].thread);
	}
	for (long t = 1; t < nworkers; t++)
		if (workers[t].started)
			pthread_join(workers[t].thread, NULL);
	pthread_cond_destroy(&j->finished);
	pthread_mutex_destroy(&j->mutex);
	return rc;
}

PyDoc_STRVAR(files_doc,
	     "files($module, /, paths, name, *, threads=1, length=None)\n--\n\n"
	     "Return the digests of the files at paths (an iterable of str, bytes or\n"
	     "os.PathLike), in order, as a list of bytes (length bytes each for an\n"
	     "extendable-output algorithm, which needs length). Reading and hashing run in C\n"
	     "with the GIL released, on up to threads threads (0: one per online CPU;\n"
	     "at most 256).\n"
	     "The first path that fails, in input order, raises its OSError; the\n"
	     "others are then not all read. Ctrl-C (any signal handler that raises)\n"
	     "stops every thread while it opens or reads, and closes their files.");

static PyObject *py_files(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			  PyObject *kwnames)
{
	struct param p[] = { { "paths", NULL },
			     { "name", NULL },
			     { "threads", NULL },
			     { "length", NULL } };
	if (parse_args("files", args, nargs, kwnames, p, 2, 4, 2) < 0)
		return NULL;
	int alg = alg_of(p[1].value);
	size_t outlen;
	if (alg < 0 || out_length("files", module, (fastsha_alg)alg, p[3].value, &outlen) < 0)
		return NULL;
	long threads = 1;
	if (p[2].value) {
		if (!PyIndex_Check(p[2].value)) { /* an int, or a numpy integer (__index__) */
			PyErr_SetString(PyExc_TypeError, "threads must be an int");
			return NULL;
		}
		PyObject *t = PyNumber_Index(p[2].value);
		if (!t)
			return NULL;
		threads = PyLong_AsLong(t);
		Py_DECREF(t);
		if (threads == -1 && PyErr_Occurred())
			return NULL;
		if (threads < 0) {
			PyErr_SetString(PyExc_ValueError, "threads must be >= 0");
			return NULL;
		}
	}
	if (threads == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus > 0 ? cpus : 1;
	}
	if (threads > FILES_MAX_THREADS)
		threads = FILES_MAX_THREADS;

	if (refuse_single(p[0].value, "files", "paths", "paths") < 0)
		return NULL;
	PyObject *items = PySequence_Tuple(p[0].value);
	if (!items)
		return NULL;
	Py_ssize_t n = PyTuple_Size(items);
	if ((Py_ssize_t)threads > n)
		threads = n ? (long)n : 1;
	PyObject *encoded = PyTuple_New(n); /* the bytes paths, kept alive */
	PyObject *result = NULL;
	struct files_job job = { .alg = (fastsha_alg)alg,
				 .n = (size_t)n,
				 .ds = outlen,
				 .pid = getpid() };
	atomic_init(&job.next, 0);
	atomic_init(&job.failed, 0);
	struct files_worker *workers = NULL;
	job.paths = alloc_array((size_t)n, sizeof *job.paths);
	job.out = alloc_array((size_t)n, job.ds);
	job.err = PyMem_Calloc((size_t)(n ? n : 1), sizeof *job.err);
	workers = PyMem_Calloc((size_t)threads, sizeof *workers);
	if (!encoded || !job.paths || !job.out || !job.err || !workers) {
		PyErr_NoMemory();
		goto done;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *b = NULL;
		if (!PyUnicode_FSConverter(PyTuple_GetItem(items, i), &b)) {
			name_item("files", "paths", i);
			goto done;
		}
		PyTuple_SetItem(encoded, i, b); /* steals b */
		job.paths[i] = PyBytes_AsString(b);
	}
	for (long t = 0; t < threads; t++) {
		workers[t].job = &job;
		workers[t].buf = malloc(READ_SIZE);
		if (!workers[t].buf) {
			PyErr_NoMemory();
			goto done;
		}
	}
	PyThreadState *ts = PyEval_SaveThread();
	int rc = files_run(&job, workers, threads, &ts);
	PyEval_RestoreThread(ts);
	if (rc == INTERRUPTED)
		goto done; /* a signal handler raised */

	for (Py_ssize_t i = 0; i < n; i++) {
		if (job.err[i]) {
			raise_errno(job.err[i], PyTuple_GetItem(items, i));
			goto done;
		}
	}
	result = PyList_New(n);
	for (Py_ssize_t i = 0; result && i < n; i++) {
		PyObject *d = PyBytes_FromStringAndSize((const char *)job.out + (size_t)i * job.ds,
							(Py_ssize_t)job.ds);
		if (!d || PyList_SetItem(result, i, d) < 0)
			Py_CLEAR(result);
	}
done:
	if (workers)
		for (long t = 0; t < threads; t++)
			free(workers[t].buf);
	PyMem_Free(workers);
	PyMem_Free(job.err);
	PyMem_Free(job.out);
	PyMem_Free(job.paths);
	Py_XDECREF(encoded);
	Py_DECREF(items);
	return result;
}

/* ---- backends ----------------------------------------------------------- */

/*
 * The algorithm a backend query is about: a name as alg_of() takes it, or
 * "keccak", the name FASTSHA_BACKEND gives the Keccak family's table, which
 * every SHA-3, SHAKE, Keccak-256, TurboSHAKE and KangarooTwelve algorithm
 * shares (sha1, sha256 and sha512, the other tables' names, are algorithms
 * too).
 */
static int query_alg_of(PyObject *name)
{
	if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "keccak") == 0)
		return FASTSHA_SHA3_256;
	return alg_of(name);
}

PyDoc_STRVAR(backend_doc, "backend($module, name, /)\n--\n\n"
			  "Return the name of the backend that hashes single messages of the\n"
			  "algorithm called name now (e.g. 'shani', 'avx2', 'portable'); 'keccak'\n"
			  "names the table of the whole SHA-3 family.");

static PyObject *py_backend(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = query_alg_of(name);
	if (alg < 0)
		return NULL;
	return PyUnicode_FromString(fastsha_backend((fastsha_alg)alg));
}

PyDoc_STRVAR(many_lanes_doc,
	     "many_lanes($module, name, /)\n--\n\n"
	     "Return how many messages many() and many_packed() hash at once for the\n"
	     "algorithm called name ('keccak': the SHA-3 family's): 1 when no\n"
	     "multi-buffer backend runs on this CPU.");

static PyObject *py_many_lanes(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = query_alg_of(name);
	if (alg < 0)
		return NULL;
	return PyLong_FromUnsignedLong(fastsha_many_lanes((fastsha_alg)alg));
}

PyDoc_STRVAR(backends_doc,
	     "backends($module, name, /)\n--\n\n"
	     "Return the backends built for the algorithm called name ('keccak': the\n"
	     "SHA-3 family's), best first, as (backend, supported by this CPU, lanes)\n"
	     "tuples.");

static PyObject *py_backends(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = query_alg_of(name);
	if (alg < 0)
		return NULL;
	size_t count = fastsha_backend_count((fastsha_alg)alg);
	PyObject *list = PyList_New((Py_ssize_t)count);
	for (size_t i = 0; list && i < count; i++) {
		PyObject *t = Py_BuildValue("(sOI)", fastsha_backend_name((fastsha_alg)alg, i),
					    fastsha_backend_supported((fastsha_alg)alg, i) ? Py_True
											   : Py_False,
					    fastsha_backend_lanes((fastsha_alg)alg, i));
		if (!t || PyList_SetItem(list, (Py_ssize_t)i, t) < 0)
			Py_CLEAR(list);
	}
	return list;
}

PyDoc_STRVAR(use_backend_doc,
	     "use_backend($module, name, backend, /)\n--\n\n"
	     "Make the whole process hash the algorithm called name (and the rest of its\n"
	     "family: sha224 with sha256, sha384 with sha512, every SHA-3, SHAKE,\n"
	     "Keccak-256, TurboSHAKE and k12 algorithm together, which 'keccak' also\n"
	     "names) on backend, or, with None, go back to the automatic choice. For\n"
	     "tests and benchmarks. ValueError when no such backend was built or this\n"
	     "CPU cannot run it.");

static PyObject *py_use_backend(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
	(void)module;
	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError, "use_backend() takes exactly 2 arguments (%zd given)",
			     nargs);
		return NULL;
	}
	int alg = query_alg_of(args[0]);
	if (alg < 0)
		return NULL;
	const char *backend = NULL;
	if (args[1] != Py_None) {
		if (!PyUnicode_Check(args[1])) {
			PyErr_SetString(PyExc_TypeError, "backend must be a str or None");
			return NULL;
		}
		Py_ssize_t blen;
		if (!(backend = PyUnicode_AsUTF8AndSize(args[1], &blen)))
			return NULL;
		if ((size_t)blen != strlen(backend)) { /* "portable\0junk" names no backend */
			PyErr_Format(PyExc_ValueError, "backend %R of %U: not built", args[1],
				     args[0]);
			return NULL;
		}
	}
	switch (fastsha_use_backend((fastsha_alg)alg, backend)) {
	case FASTSHA_SELECT_OK:
		Py_RETURN_NONE;
	case FASTSHA_SELECT_UNSUPPORTED:
		PyErr_Format(PyExc_ValueError, "backend %R of %U: this CPU cannot run it", args[1],
			     args[0]);
		return NULL;
	default:
		PyErr_Format(PyExc_ValueError, "backend %R of %U: not built", args[1], args[0]);
		return NULL;
	}
}

/* ---- the module --------------------------------------------------------- */

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef module_methods[] = {
	{ "sha1", FASTCALL_KW(py_sha1), sha1_doc },
	{ "sha224", FASTCALL_KW(py_sha224), sha224_doc },
	{ "sha256", FASTCALL_KW(py_sha256), sha256_doc },
	{ "sha384", FASTCALL_KW(py_sha384), sha384_doc },
	{ "sha512", FASTCALL_KW(py_sha512), sha512_doc },
	{ "sha1dc", FASTCALL_KW(py_sha1dc), sha1dc_doc },
	{ "sha3_224", FASTCALL_KW(py_sha3_224), sha3_224_doc },
	{ "sha3_256", FASTCALL_KW(py_sha3_256), sha3_256_doc },
	{ "sha3_384", FASTCALL_KW(py_sha3_384), sha3_384_doc },
	{ "sha3_512", FASTCALL_KW(py_sha3_512), sha3_512_doc },
	{ "shake_128", FASTCALL_KW(py_shake_128), shake_128_doc },
	{ "shake_256", FASTCALL_KW(py_shake_256), shake_256_doc },
	{ "keccak256", FASTCALL_KW(py_keccak256), keccak256_doc },
	{ "turboshake128", FASTCALL_KW(py_turboshake128), turboshake128_doc },
	{ "turboshake256", FASTCALL_KW(py_turboshake256), turboshake256_doc },
	{ "k12", FASTCALL_KW(py_k12), k12_doc },
	{ "new", FASTCALL_KW(py_new), new_doc },
	{ "many", FASTCALL_KW(py_many), many_doc },
	{ "many_detect", FASTCALL_KW(py_many_detect), many_detect_doc },
	{ "many_packed", FASTCALL_KW(py_many_packed), many_packed_doc },
	{ "pbkdf2_hmac", FASTCALL_KW(py_pbkdf2_hmac), pbkdf2_hmac_doc },
	{ "pbkdf2_hmac_many", FASTCALL_KW(py_pbkdf2_hmac_many), pbkdf2_hmac_many_doc },
	{ "hmac_many", FASTCALL_KW(py_hmac_many), hmac_many_doc },
	{ "hkdf", FASTCALL_KW(py_hkdf), hkdf_doc },
	{ "hkdf_extract", FASTCALL_KW(py_hkdf_extract), hkdf_extract_doc },
	{ "hkdf_expand", FASTCALL_KW(py_hkdf_expand), hkdf_expand_doc },
	{ "_register_hmac_digestmod",
	  (PyCFunction)(void (*)(void))py_register_hmac_digestmod, METH_FASTCALL, register_doc },
	{ "_set_hmac_fallbacks", (PyCFunction)(void (*)(void))py_set_hmac_fallbacks,
	  METH_FASTCALL, fallbacks_doc },
	{ "file", FASTCALL_KW(py_file), file_doc },
	{ "files", FASTCALL_KW(py_files), files_doc },
	{ "backend", py_backend, METH_O, backend_doc },
	{ "backends", py_backends, METH_O, backends_doc },
	{ "many_lanes", py_many_lanes, METH_O, many_lanes_doc },
	{ "use_backend", (PyCFunction)(void (*)(void))py_use_backend, METH_FASTCALL,
	  use_backend_doc },
	{ NULL, NULL, 0, NULL },
};

/* module_exec()'s part for fastsha.hmac: the HMAC type, its names, the
 * digestmods that are ours, new() and digest(). */
static int hmac_exec(PyObject *m, modstate *st)
{
	st->hmac_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &hmac_spec, NULL);
	if (!st->hmac_type)
		return -1;
	PyObject *blocksize = PyLong_FromLong(64);
	int rc = blocksize ? PyObject_SetAttrString((PyObject *)st->hmac_type, "blocksize",
						    blocksize)
			   : -1;
	Py_XDECREF(blocksize);
	if (rc < 0 || PyModule_AddObjectRef(m, "HMAC", (PyObject *)st->hmac_type) < 0)
		return -1;
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++)
		if (!(st->hmac_names[a] = PyUnicode_FromFormat("hmac-%U", st->names[a])))
			return -1;
	if (!(st->digestmods = PyDict_New()))
		return -1;
	/* fastsha's own constructors; fastsha.hmac adds hashlib's */
	static const struct {
		const char *name;
		fastsha_alg alg;
	} own[] = { { "sha1", FASTSHA_SHA1 },
		    { "sha224", FASTSHA_SHA224 },
		    { "sha256", FASTSHA_SHA256 },
		    { "sha384", FASTSHA_SHA384 },
		    { "sha512", FASTSHA_SHA512 } };
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
		PyObject *f = PyObject_GetAttrString(m, own[i].name);
		PyObject *alg = f ? PyLong_FromLong(own[i].alg) : NULL;
		rc = alg ? PyDict_SetItem(st->digestmods, f, alg) : -1;
		Py_XDECREF(alg);
		Py_XDECREF(f);
		if (rc < 0)
			return -1;
	}
	PyObject *where = PyUnicode_FromString("fastsha.hmac");
	if (!where)
		return -1;
	static const char *const as[] = { "hmac_new", "hmac_digest" };
	for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
		PyObject *f = PyCFunction_NewEx(&hmac_functions[i], m, where);
		rc = f ? PyModule_AddObjectRef(m, as[i], f) : -1;
		Py_XDECREF(f);
		if (rc < 0)
			break;
	}
	Py_DECREF(where);
	return rc;
}

static int module_exec(PyObject *m)
{
	modstate *st = state_of_module(m);
	PyObject *names = NULL;
	unknown_keyword_words();
	st->hash_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &hash_spec, NULL);
	if (!st->hash_type)
		return -1;
	if (PyModule_AddObjectRef(m, "Hash", (PyObject *)st->hash_type) < 0)
		return -1;
	st->xof_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &xof_spec, NULL);
	if (!st->xof_type)
		return -1;
	if (PyModule_AddObjectRef(m, "HashXOF", (PyObject *)st->xof_type) < 0)
		return -1;
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		st->names[a] = PyUnicode_InternFromString(fastsha_alg_name((fastsha_alg)a));
		if (!st->names[a])
			return -1;
		/* An empty PBKDF2 batch: refused (-1) for exactly the
		 * algorithms mac.h refuses, and it hashes nothing. Preparing an
		 * empty key, as this did, hashed, and so fixed SHA-1's and
		 * SHA-2's backends from FASTSHA_BACKEND at import: a variable
		 * set after "import fastsha" and before the first hash (by a
		 * multiprocessing pool's initializer, in a worker that had
		 * imported fastsha with __main__ or inherited the import; by a
		 * test's monkeypatch) was honoured by the Keccak family alone. */
		uint8_t none[1];
		st->mac_ok[a] = fastsha_pbkdf2_many((fastsha_alg)a, NULL, NULL, 0, 1, none, 1) == 0;
	}
	/* algorithms_available is hashlib's: code that hands each name to
	 * hashlib.new() must not meet sha1dc, keccak256, turboshake or k12,
	 * fastsha's own, so it is the algorithms with a row of hashlib's. */
	if (!(names = PyList_New(0)))
		return -1;
	for (size_t i = 0; i < sizeof alg_names / sizeof alg_names[0]; i++) {
		if (alg_names[i].rule != OWN &&
		    PyList_Append(names, st->names[alg_names[i].alg]) < 0) {
			Py_DECREF(names);
			return -1;
		}
	}
	PyObject *available = PyFrozenSet_New(names);
	Py_DECREF(names);
	int added = available ? PyModule_AddObjectRef(m, "algorithms_available", available) : -1;
	Py_XDECREF(available);
	if (added < 0)
		return -1;
	if (PyModule_AddStringConstant(m, "__version__", fastsha_version()) < 0 ||
	    PyModule_AddIntConstant(m, "GIL_MINSIZE", GIL_MINSIZE) < 0)
		return -1;
	return hmac_exec(m, st);
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
	modstate *st = state_of_module(m);
	Py_VISIT(st->hash_type);
	Py_VISIT(st->xof_type);
	Py_VISIT(st->hmac_type);
	Py_VISIT(st->digestmods);
	Py_VISIT(st->std_hmac[0]);
	Py_VISIT(st->std_hmac[1]);
	return 0;
}

static int module_clear(PyObject *m)
{
	modstate *st = state_of_module(m);
	Py_CLEAR(st->hash_type);
	Py_CLEAR(st->xof_type);
	Py_CLEAR(st->hmac_type);
	Py_CLEAR(st->digestmods);
	Py_CLEAR(st->std_hmac[0]);
	Py_CLEAR(st->std_hmac[1]);
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		Py_CLEAR(st->names[a]);
		Py_CLEAR(st->hmac_names[a]);
	}
	return 0;
}

static void module_free(void *m)
{
	module_clear((PyObject *)m);
}

static PyModuleDef_Slot module_slots[] = {
	{ Py_mod_exec, (void *)module_exec },
#ifdef Py_mod_gil
	{ Py_mod_gil, Py_MOD_GIL_NOT_USED },
#endif
	{ 0, NULL },
};

PyDoc_STRVAR(module_doc, "fastsha's C core; import fastsha instead.");

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "fastsha._fastsha",
	.m_doc = module_doc,
	.m_size = sizeof(modstate),
	.m_methods = module_methods,
	.m_slots = module_slots,
	.m_traverse = module_traverse,
	.m_clear = module_clear,
	.m_free = module_free,
};

PyMODINIT_FUNC PyInit__fastsha(void); /* -Wmissing-prototypes */

PyMODINIT_FUNC PyInit__fastsha(void)
{
	return PyModuleDef_Init(&module_def);
}
