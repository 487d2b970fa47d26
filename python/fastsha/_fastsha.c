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
 * Beyond hashlib: many() marshals every buffer under the GIL, then releases
 * it once for the whole batch and calls fastsha_many() (the multi-buffer
 * lanes where the CPU has them); many_packed() hands a flat buffer of
 * fixed-size records to fastsha_chunks(); file()/files() open, read and hash
 * in C with the GIL released, files() on up to `threads` POSIX threads, and
 * stop on Ctrl-C (see "Ctrl-C" below).
 *
 * Algorithm names are hashlib.new()'s, from the binding's own table
 * (alg_names), not the library's more lenient fastsha_alg_from_name().
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
	PyTypeObject *hash_type;
	PyObject *names[FASTSHA_ALG_COUNT]; /* interned canonical names */
} modstate;

typedef struct {
	PyObject_HEAD
	/* NULL until the first update that releases the GIL; from then on
	 * every read or write of ctx holds it. */
	PyThread_type_lock lock;
	fastsha_alg alg;
	fastsha_ctx ctx;
} hashobj;

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
 * METH_FASTCALL | METH_KEYWORDS parsing (the Limited API has no
 * _PyArg_Parser): p[0..npos) may come by position or name, p[npos..nall)
 * only by name, p[0..nrequired) must come. Messages as CPython's.
 */
static int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
		      PyObject *kwnames, struct param *p, int npos, int nall, int nrequired)
{
	if (nargs > npos) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional argument%s (%zd given)",
			     fname, npos, npos == 1 ? "" : "s", nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		p[i].value = args[i];
	Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
	for (Py_ssize_t k = 0; k < nkw; k++) {
		PyObject *key = PyTuple_GetItem(kwnames, k);
		int i = 0;
		while (i < nall && PyUnicode_CompareWithASCIIString(key, p[i].name) != 0)
			i++;
		if (i == nall) {
			PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for %s()",
				     key, fname);
			return -1;
		}
		if (p[i].value) {
			PyErr_Format(PyExc_TypeError,
				     "argument for %s() given by name ('%s') and position (%d)", fname,
				     p[i].name, i + 1);
			return -1;
		}
		p[i].value = args[nargs + k];
	}
	for (int i = 0; i < nrequired; i++) {
		if (!p[i].value) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)",
				     fname, p[i].name, i + 1);
			return -1;
		}
	}
	return 0;
}

/*
 * The names hashlib.new() takes for our algorithms, and only those (CPython
 * 3.11 on OpenSSL 3.0, found by asking hashlib.new() itself about OpenSSL's
 * aliases, OIDs, case and separator variants; python/tests/test_names.py
 * holds this table to hashlib.new() at run time). hashlib tries CPython's
 * own case-sensitive table first, then OpenSSL's EVP_MD_fetch(), which
 * ignores ASCII case and knows the default provider's names (`openssl list
 * -digest-algorithms`, "Provided"), not the legacy aliases (RSA-SHA256,
 * sha256WithRSAEncryption). Of CPython's names only "sha512_224" and
 * "SHA512_224" (and _256) are not also OpenSSL's: they match exactly,
 * everything else in any ASCII case. fastsha_alg_from_name() is more lenient
 * on purpose (the command's -a): hashlib refuses "sha512/224", "sha_256".
 * A new algorithm is one more row per name.
 */
static const struct alg_name {
	const char *name;
	fastsha_alg alg;
	int exact_case;
} alg_names[] = {
	/* hashlib's own names first: the usual call finds them soonest */
	{ "sha1", FASTSHA_SHA1, 0 },
	{ "sha256", FASTSHA_SHA256, 0 },
	{ "sha512", FASTSHA_SHA512, 0 },
	{ "sha224", FASTSHA_SHA224, 0 },
	{ "sha384", FASTSHA_SHA384, 0 },
	{ "sha512_224", FASTSHA_SHA512_224, 1 },
	{ "SHA512_224", FASTSHA_SHA512_224, 1 },
	{ "sha512_256", FASTSHA_SHA512_256, 1 },
	{ "SHA512_256", FASTSHA_SHA512_256, 1 },
	/* OpenSSL 3.0's default provider */
	{ "sha-1", FASTSHA_SHA1, 0 },
	{ "ssl3-sha1", FASTSHA_SHA1, 0 },
	{ "1.3.14.3.2.26", FASTSHA_SHA1, 0 },
	{ "sha-224", FASTSHA_SHA224, 0 },
	{ "sha2-224", FASTSHA_SHA224, 0 },
	{ "2.16.840.1.101.3.4.2.4", FASTSHA_SHA224, 0 },
	{ "sha-256", FASTSHA_SHA256, 0 },
	{ "sha2-256", FASTSHA_SHA256, 0 },
	{ "2.16.840.1.101.3.4.2.1", FASTSHA_SHA256, 0 },
	{ "sha-384", FASTSHA_SHA384, 0 },
	{ "sha2-384", FASTSHA_SHA384, 0 },
	{ "2.16.840.1.101.3.4.2.2", FASTSHA_SHA384, 0 },
	{ "sha-512", FASTSHA_SHA512, 0 },
	{ "sha2-512", FASTSHA_SHA512, 0 },
	{ "2.16.840.1.101.3.4.2.3", FASTSHA_SHA512, 0 },
	{ "sha512-224", FASTSHA_SHA512_224, 0 },
	{ "sha-512/224", FASTSHA_SHA512_224, 0 },
	{ "sha2-512/224", FASTSHA_SHA512_224, 0 },
	{ "2.16.840.1.101.3.4.2.5", FASTSHA_SHA512_224, 0 },
	{ "sha512-256", FASTSHA_SHA512_256, 0 },
	{ "sha-512/256", FASTSHA_SHA512_256, 0 },
	{ "sha2-512/256", FASTSHA_SHA512_256, 0 },
	{ "2.16.840.1.101.3.4.2.6", FASTSHA_SHA512_256, 0 },
	/* fastsha's own, which hashlib does not have: SHA-1 with collision
	 * detection (what git uses), in any case */
	{ "sha1dc", FASTSHA_SHA1DC, 0 },
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

/* The algorithm named by @name, exactly as hashlib.new() decides. */
static int alg_of(PyObject *name)
{
	if (!PyUnicode_Check(name)) {
		PyErr_SetString(PyExc_TypeError, "name must be a string");
		return -1;
	}
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(name, &len);
	if (!s || (size_t)len != strlen(s)) {
		/* hashlib's message for a NUL or a lone surrogate in the name */
		PyErr_Clear();
		PyErr_SetString(PyExc_TypeError, "name must be a string");
		return -1;
	}
	for (size_t i = 0; i < sizeof alg_names / sizeof alg_names[0]; i++) {
		const struct alg_name *e = &alg_names[i];
		if (e->exact_case ? strcmp(s, e->name) == 0 : ascii_caseeq(s, e->name))
			return (int)e->alg;
	}
	PyErr_Format(PyExc_ValueError, "unsupported hash type %U", name);
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
	PyObject_Free(h);
	Py_DECREF(tp);
}

/* Take @h's lock, with the GIL held on entry and exit; waits without it. */
static void enter(hashobj *h)
{
	if (!PyThread_acquire_lock(h->lock, NOWAIT_LOCK)) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(h->lock, WAIT_LOCK);
		Py_END_ALLOW_THREADS
	}
}

/* Add @len bytes to a hash object other threads may share. */
static void shared_update(hashobj *h, const void *data, size_t len)
{
	/* Allocated under the GIL, so two threads cannot both make one. If
	 * allocation fails the object stays unlocked and keeps the GIL, as in
	 * CPython: slower for threads, never wrong. */
	if (!h->lock && len >= GIL_MINSIZE)
		h->lock = PyThread_allocate_lock();
	if (!h->lock) {
		fastsha_update(&h->ctx, data, len);
	} else if (len >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(h->lock, WAIT_LOCK);
		fastsha_update(&h->ctx, data, len);
		PyThread_release_lock(h->lock);
		Py_END_ALLOW_THREADS
	} else {
		enter(h);
		fastsha_update(&h->ctx, data, len);
		PyThread_release_lock(h->lock);
	}
}

/* The digest so far; returns 1 when a collision attack was detected
 * (sha1dc only). */
static int hash_final(hashobj *h, uint8_t *out)
{
	int d;
	if (h->lock) {
		enter(h);
		d = fastsha_final_detect(&h->ctx, out);
		PyThread_release_lock(h->lock);
	} else {
		d = fastsha_final_detect(&h->ctx, out);
	}
	return d;
}

PyDoc_STRVAR(update_doc, "update($self, obj, /)\n--\n\n"
			 "Update this hash object's state with the provided bytes-like object.");

static PyObject *hash_update(PyObject *self, PyObject *obj)
{
	hashobj *h = (hashobj *)self;
	if (PyBytes_CheckExact(obj)) {
		/* The common case without the buffer protocol's cost: a bytes
		 * object is immutable and our caller holds a reference to it. */
		shared_update(h, PyBytes_AsString(obj), (size_t)PyBytes_Size(obj));
		Py_RETURN_NONE;
	}
	Py_buffer view;
	if (get_view(obj, &view) < 0)
		return NULL;
	shared_update(h, view.buf, (size_t)view.len);
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

/* Lower-case hex of @n bytes into @hex (2 * @n characters). */
static void to_hex(char *hex, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[p[i] >> 4];
		hex[2 * i + 1] = digits[p[i] & 15];
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
	if (h->lock) {
		enter(h);
		c->ctx = h->ctx; /* pointer-free: assignment forks the computation */
		PyThread_release_lock(h->lock);
	} else {
		c->ctx = h->ctx;
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

PyDoc_STRVAR(hash_doc, "A hash object, as hashlib's: made by fastsha.sha1() .. sha512() and\n"
		       "fastsha.new(), never directly. update() from several threads at once\n"
		       "is safe and each call is atomic.");

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

/* ---- constructors ------------------------------------------------------- */

/* A new hash object of @alg over @data (may be NULL: no data). */
static PyObject *make_hash(PyObject *module, fastsha_alg alg, PyObject *data)
{
	hashobj *h = hash_alloc(state_of_module(module)->hash_type, alg);
	if (!h)
		return NULL;
	fastsha_init(&h->ctx, alg);
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
		fastsha_update(&h->ctx, p, len);
		Py_END_ALLOW_THREADS
	} else {
		fastsha_update(&h->ctx, p, len);
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
		return make_hash(module, alg, args[0]);
	struct param p[] = { { "data", NULL }, { "usedforsecurity", NULL }, { "string", NULL } };
	if (parse_args(fname, args, nargs, kwnames, p, 1, 3, 0) < 0 ||
	    pick_data(&p[0].value, p[2].value) < 0)
		return NULL;
	return make_hash(module, alg, p[0].value);
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

PyDoc_STRVAR(new_doc,
	     "new($module, /, name, data=b'', *, usedforsecurity=True, string=None)\n--\n\n"
	     "Return a new hash object using the named algorithm, optionally initialized\n"
	     "with data (a bytes-like object). The names are hashlib.new()'s: those in\n"
	     "algorithms_available and OpenSSL's ('SHA2-256', 'sha-512/256', OIDs\n"
	     "such as '2.16.840.1.101.3.4.2.1'), in any case; see docs/python.md.");

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
	return make_hash(module, (fastsha_alg)alg, p[1].value);
}

/* ---- batches ------------------------------------------------------------ */

PyDoc_STRVAR(many_doc,
	     "many($module, /, name, buffers)\n--\n\n"
	     "Return the digests of every buffer in the iterable buffers, in order, as a\n"
	     "list of bytes: [new(name, b).digest() for b in buffers], with the GIL\n"
	     "released once for the whole batch and messages hashed together on the\n"
	     "multi-buffer lanes where this CPU has them (many_lanes(name)).");

/* many() and, with @flags, many_detect(). */
static PyObject *many_impl(const char *fname, PyObject *const *args, Py_ssize_t nargs,
			   PyObject *kwnames, int flags)
{
	struct param p[] = { { "name", NULL }, { "buffers", NULL } };
	if (parse_args(fname, args, nargs, kwnames, p, 2, 2, 2) < 0)
		return NULL;
	int alg = alg_of(p[0].value);
	if (alg < 0)
		return NULL;
	/* A tuple: nothing can change the sequence while we hold pointers
	 * into its items (a list could, through a Python __buffer__). */
	PyObject *items = PySequence_Tuple(p[1].value);
	if (!items)
		return NULL;
	Py_ssize_t n = PyTuple_Size(items);
	size_t ds = fastsha_alg_digest_size((fastsha_alg)alg);
	PyObject *result = NULL, *detected = NULL;
	fastsha_msg *msgs = NULL;
	Py_buffer *views = NULL;
	uint8_t *out = NULL, *det = NULL;
	Py_ssize_t nviews = 0, nothers = 0;
	size_t total = 0;

	/* bytes items are read in place (immutable, kept alive by the tuple);
	 * every other exporter is held through a Py_buffer until we are done. */
	for (Py_ssize_t i = 0; i < n; i++)
		nothers += !PyBytes_CheckExact(PyTuple_GetItem(items, i));
	msgs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *msgs);
	views = PyMem_Malloc((size_t)(nothers ? nothers : 1) * sizeof *views);
	out = PyMem_Malloc((n ? (size_t)n : 1) * ds);
	det = PyMem_Malloc(n ? (size_t)n : 1);
	if (!msgs || !views || !out || !det) {
		PyErr_NoMemory();
		goto done;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *b = PyTuple_GetItem(items, i);
		if (PyBytes_CheckExact(b)) {
			msgs[i].data = PyBytes_AsString(b);
			msgs[i].len = (size_t)PyBytes_Size(b);
		} else {
			if (get_view(b, &views[nviews]) < 0)
				goto done;
			msgs[i].data = views[nviews].buf;
			msgs[i].len = (size_t)views[nviews].len;
			nviews++;
		}
		total += msgs[i].len;
	}
	if (total >= GIL_MINSIZE) {
		Py_BEGIN_ALLOW_THREADS
		fastsha_many_detect((fastsha_alg)alg, msgs, (size_t)n, out, det);
		Py_END_ALLOW_THREADS
	} else {
		fastsha_many_detect((fastsha_alg)alg, msgs, (size_t)n, out, det);
	}
	result = PyList_New(n);
	for (Py_ssize_t i = 0; result && i < n; i++) {
		PyObject *d = PyBytes_FromStringAndSize((const char *)out + (size_t)i * ds,
							(Py_ssize_t)ds);
		if (!d || PyList_SetItem(result, i, d) < 0)
			Py_CLEAR(result);
	}
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
	while (nviews)
		PyBuffer_Release(&views[--nviews]);
	PyMem_Free(det);
	PyMem_Free(out);
	PyMem_Free(views);
	PyMem_Free(msgs);
	Py_DECREF(items);
	return result;
}

static PyObject *py_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames)
{
	(void)module;
	return many_impl("many", args, nargs, kwnames, 0);
}

PyDoc_STRVAR(many_detect_doc,
	     "many_detect($module, /, name, buffers)\n--\n\n"
	     "As many(), and which messages were detected as one half of a SHA-1\n"
	     "collision attack: returns (digests, detected), two lists in input order,\n"
	     "detected[i] a bool (always False but for 'sha1dc').");

static PyObject *py_many_detect(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	(void)module;
	return many_impl("many_detect", args, nargs, kwnames, 1);
}

PyDoc_STRVAR(many_packed_doc,
	     "many_packed($module, /, name, buffer, record_size)\n--\n\n"
	     "Hash every record_size-byte record of one C-contiguous buffer (bytes, a\n"
	     "numpy array of fixed-size records, ...) and return the digests\n"
	     "concatenated, in order: n * digest_size bytes for n records. The buffer's\n"
	     "length must be a multiple of record_size (ValueError otherwise).");

static PyObject *py_many_packed(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
				PyObject *kwnames)
{
	(void)module;
	struct param p[] = { { "name", NULL }, { "buffer", NULL }, { "record_size", NULL } };
	if (parse_args("many_packed", args, nargs, kwnames, p, 3, 3, 3) < 0)
		return NULL;
	int alg = alg_of(p[0].value);
	if (alg < 0)
		return NULL;
	if (!PyLong_Check(p[2].value)) {
		PyErr_SetString(PyExc_TypeError, "record_size must be an int");
		return NULL;
	}
	Py_ssize_t rs = PyLong_AsSsize_t(p[2].value);
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
	size_t ds = fastsha_alg_digest_size((fastsha_alg)alg);
	size_t n = (size_t)view.len / (size_t)rs;
	if (view.len % rs) {
		PyErr_Format(PyExc_ValueError,
			     "buffer length %zd is not a multiple of record_size %zd", view.len, rs);
	} else if (n > (size_t)PY_SSIZE_T_MAX / ds) {
		PyErr_NoMemory();
	} else if ((result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * ds)))) {
		/* A new bytes object is ours to fill until it is returned. */
		uint8_t *out = (uint8_t *)PyBytes_AsString(result);
		if (view.len >= GIL_MINSIZE) {
			Py_BEGIN_ALLOW_THREADS
			fastsha_chunks((fastsha_alg)alg, view.buf, (size_t)view.len, (size_t)rs, out);
			Py_END_ALLOW_THREADS
		} else {
			fastsha_chunks((fastsha_alg)alg, view.buf, (size_t)view.len, (size_t)rs, out);
		}
	}
	PyBuffer_Release(&view);
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
	fastsha_init(&r->ctx, alg);
	return 0;
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
 * *@ts, and release it again. Return: 0, or INTERRUPTED with the handler's
 * exception set (KeyboardInterrupt).
 */
static int run_handlers(PyThreadState **ts)
{
	PyEval_RestoreThread(*ts);
	int rc = PyErr_CheckSignals();
	*ts = PyEval_SaveThread();
	return rc < 0 ? INTERRUPTED : 0;
}

/*
 * The digest of file @path into @out, in a thread whose GIL is released
 * into *@ts, running the signal handlers on EINTR and every CHECK_NS.
 * Return: 0, an errno value, or INTERRUPTED (the file is closed).
 */
static int caller_hash_path(const char *path, fastsha_alg alg, uint8_t *buf, uint8_t *out,
			    PyThreadState **ts, struct timespec *check_at)
{
	struct reader r = { .fd = -1 };
	int e;
	while ((e = reader_open(&r, path, alg)) == EINTR)
		if (run_handlers(ts) < 0)
			return INTERRUPTED;
	if (e)
		return e;
	for (;;) {
		if (past(check_at)) {
			if (run_handlers(ts) < 0) {
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
		} else if (run_handlers(ts) < 0) {
			e = INTERRUPTED;
			break;
		}
	}
	int ce = reader_close(&r);
	if (!e)
		e = ce;
	if (!e)
		fastsha_final(&r.ctx, out);
	return e;
}

/* Raise the OSError subclass for @err (FileNotFoundError, ...) on @path. */
static PyObject *raise_errno(int err, PyObject *path)
{
	errno = err;
	return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
}

PyDoc_STRVAR(file_doc, "file($module, /, path, name)\n--\n\n"
		       "Return the digest (bytes) of the file at path (str, bytes or\n"
		       "os.PathLike) under the algorithm called name. The file is opened, read\n"
		       "and hashed in C with the GIL released; errors raise OSError. Ctrl-C\n"
		       "(any signal handler that raises) stops it while it opens or reads.");

static PyObject *py_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			 PyObject *kwnames)
{
	(void)module;
	struct param p[] = { { "path", NULL }, { "name", NULL } };
	if (parse_args("file", args, nargs, kwnames, p, 2, 2, 2) < 0)
		return NULL;
	int alg = alg_of(p[1].value);
	if (alg < 0)
		return NULL;
	PyObject *fspath = NULL; /* bytes */
	if (!PyUnicode_FSConverter(p[0].value, &fspath))
		return NULL;
	const char *path = PyBytes_AsString(fspath);
	uint8_t *buf = malloc(READ_SIZE);
	if (!buf) {
		Py_DECREF(fspath);
		return PyErr_NoMemory();
	}
	uint8_t out[FASTSHA_MAX_DIGEST_SIZE];
	struct timespec check_at;
	check_deadline(&check_at);
	PyThreadState *ts = PyEval_SaveThread();
	int e = caller_hash_path(path, (fastsha_alg)alg, buf, out, &ts, &check_at);
	PyEval_RestoreThread(ts);
	free(buf);
	PyObject *result = NULL;
	if (e == INTERRUPTED)
		; /* a signal handler raised */
	else if (e)
		raise_errno(e, p[0].value);
	else
		result = PyBytes_FromStringAndSize((const char *)out,
						   (Py_ssize_t)fastsha_alg_digest_size((fastsha_alg)alg));
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

/* The digest of file @path into @out. Return: 0 or an errno value. */
static int worker_hash_path(const char *path, fastsha_alg alg, uint8_t *buf, uint8_t *out)
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
			fastsha_final(&r.ctx, out);
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
		int e = worker_hash_path(j->paths[i], j->alg, w->buf, j->out + i * j->ds);
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
		for (long t = 1; t < nworkers; t++) {
			workers[t].started = pthread_create(&workers[t].thread, NULL, files_work,
							    &workers[t]) == 0;
			j->running += workers[t].started;
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	int rc = 0;
	for (size_t i; (i = files_claim(j)) < j->n;) {
		int e = caller_hash_path(j->paths[i], j->alg, workers[0].buf, j->out + i * j->ds,
					 ts, &check_at);
		if (e == INTERRUPTED) {
			rc = INTERRUPTED;
			break;
		}
		if (e) {
			j->err[i] = e;
			atomic_store_explicit(&j->failed, 1, memory_order_relaxed);
		}
	}
	if (!have_sync)
		return rc;
	/* Wait for the other threads, running the handlers every CHECK_NS: a
	 * condition wait is not interrupted by a signal. */
	pthread_mutex_lock(&j->mutex);
	while (rc == 0 && j->running > 0) {
		if (pthread_cond_timedwait(&j->finished, &j->mutex, &check_at) == ETIMEDOUT) {
			pthread_mutex_unlock(&j->mutex);
			rc = run_handlers(ts);
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
	     "files($module, /, paths, name, *, threads=1)\n--\n\n"
	     "Return the digests of the files at paths (an iterable of str, bytes or\n"
	     "os.PathLike), in order, as a list of bytes. Reading and hashing run in C\n"
	     "with the GIL released, on up to threads threads (0: one per online CPU;\n"
	     "at most 256).\n"
	     "The first path that fails, in input order, raises its OSError; the\n"
	     "others are then not all read. Ctrl-C (any signal handler that raises)\n"
	     "stops every thread while it opens or reads, and closes their files.");

static PyObject *py_files(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
			  PyObject *kwnames)
{
	(void)module;
	struct param p[] = { { "paths", NULL }, { "name", NULL }, { "threads", NULL } };
	if (parse_args("files", args, nargs, kwnames, p, 2, 3, 2) < 0)
		return NULL;
	int alg = alg_of(p[1].value);
	if (alg < 0)
		return NULL;
	long threads = 1;
	if (p[2].value) {
		if (!PyLong_Check(p[2].value)) {
			PyErr_SetString(PyExc_TypeError, "threads must be an int");
			return NULL;
		}
		threads = PyLong_AsLong(p[2].value);
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
				 .ds = fastsha_alg_digest_size((fastsha_alg)alg) };
	atomic_init(&job.next, 0);
	atomic_init(&job.failed, 0);
	struct files_worker *workers = NULL;
	job.paths = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *job.paths);
	job.out = PyMem_Malloc((size_t)(n ? n : 1) * job.ds);
	job.err = PyMem_Calloc((size_t)(n ? n : 1), sizeof *job.err);
	workers = PyMem_Calloc((size_t)threads, sizeof *workers);
	if (!encoded || !job.paths || !job.out || !job.err || !workers) {
		PyErr_NoMemory();
		goto done;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *b = NULL;
		if (!PyUnicode_FSConverter(PyTuple_GetItem(items, i), &b))
			goto done;
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

PyDoc_STRVAR(backend_doc, "backend($module, name, /)\n--\n\n"
			  "Return the name of the backend that hashes single messages of the\n"
			  "algorithm called name now (e.g. 'shani', 'avx2', 'portable').");

static PyObject *py_backend(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = alg_of(name);
	if (alg < 0)
		return NULL;
	return PyUnicode_FromString(fastsha_backend((fastsha_alg)alg));
}

PyDoc_STRVAR(many_lanes_doc,
	     "many_lanes($module, name, /)\n--\n\n"
	     "Return how many messages many() and many_packed() hash at once for the\n"
	     "algorithm called name: 1 when no multi-buffer backend runs on this CPU.");

static PyObject *py_many_lanes(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = alg_of(name);
	if (alg < 0)
		return NULL;
	return PyLong_FromUnsignedLong(fastsha_many_lanes((fastsha_alg)alg));
}

PyDoc_STRVAR(backends_doc,
	     "backends($module, name, /)\n--\n\n"
	     "Return the backends built for the algorithm called name, best first, as\n"
	     "(backend, supported by this CPU, lanes) tuples.");

static PyObject *py_backends(PyObject *module, PyObject *name)
{
	(void)module;
	int alg = alg_of(name);
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
	     "family: sha224 with sha256, sha384 with sha512) on backend, or, with None,\n"
	     "go back to the automatic choice. For tests and benchmarks. ValueError when\n"
	     "no such backend was built or this CPU cannot run it.");

static PyObject *py_use_backend(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
	(void)module;
	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError, "use_backend() takes exactly 2 arguments (%zd given)",
			     nargs);
		return NULL;
	}
	int alg = alg_of(args[0]);
	if (alg < 0)
		return NULL;
	const char *backend = NULL;
	if (args[1] != Py_None) {
		if (!PyUnicode_Check(args[1])) {
			PyErr_SetString(PyExc_TypeError, "backend must be a str or None");
			return NULL;
		}
		if (!(backend = PyUnicode_AsUTF8AndSize(args[1], NULL)))
			return NULL;
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
	{ "new", FASTCALL_KW(py_new), new_doc },
	{ "many", FASTCALL_KW(py_many), many_doc },
	{ "many_detect", FASTCALL_KW(py_many_detect), many_detect_doc },
	{ "many_packed", FASTCALL_KW(py_many_packed), many_packed_doc },
	{ "file", FASTCALL_KW(py_file), file_doc },
	{ "files", FASTCALL_KW(py_files), files_doc },
	{ "backend", py_backend, METH_O, backend_doc },
	{ "backends", py_backends, METH_O, backends_doc },
	{ "many_lanes", py_many_lanes, METH_O, many_lanes_doc },
	{ "use_backend", (PyCFunction)(void (*)(void))py_use_backend, METH_FASTCALL,
	  use_backend_doc },
	{ NULL, NULL, 0, NULL },
};

static int module_exec(PyObject *m)
{
	modstate *st = state_of_module(m);
	PyObject *names = NULL;
	st->hash_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &hash_spec, NULL);
	if (!st->hash_type)
		return -1;
	if (PyModule_AddObjectRef(m, "Hash", (PyObject *)st->hash_type) < 0)
		return -1;
	if (!(names = PyList_New(0)))
		return -1;
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++) {
		st->names[a] = PyUnicode_InternFromString(fastsha_alg_name((fastsha_alg)a));
		if (!st->names[a])
			goto fail;
		/* algorithms_available is hashlib's: code that hands each name
		 * to hashlib.new() must not meet sha1dc, fastsha's own. The
		 * Keccak family (8 and up) is not offered by this module yet. */
		if (!fastsha_alg_detects((fastsha_alg)a) && a < FASTSHA_SHA3_224 &&
		    PyList_Append(names, st->names[a]) < 0)
			goto fail;
	}
	PyObject *available = PyFrozenSet_New(names);
	int added = available ? PyModule_AddObjectRef(m, "algorithms_available", available) : -1;
	Py_XDECREF(available);
	if (added < 0)
		goto fail;
	Py_DECREF(names);
	if (PyModule_AddStringConstant(m, "__version__", fastsha_version()) < 0 ||
	    PyModule_AddIntConstant(m, "GIL_MINSIZE", GIL_MINSIZE) < 0)
		return -1;
	return 0;
fail:
	Py_DECREF(names);
	return -1;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
	modstate *st = state_of_module(m);
	Py_VISIT(st->hash_type);
	return 0;
}

static int module_clear(PyObject *m)
{
	modstate *st = state_of_module(m);
	Py_CLEAR(st->hash_type);
	for (int a = 0; a < FASTSHA_ALG_COUNT; a++)
		Py_CLEAR(st->names[a]);
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
