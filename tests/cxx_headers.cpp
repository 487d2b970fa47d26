// SPDX-License-Identifier: MIT
// Every installed header in one C++ translation unit (the cxx_headers test
// compiles it with -fsyntax-only, -std=c++11 -pedantic, warnings as errors):
// the headers' extern "C" blocks promise C++ callers, and a struct nested in
// another (C's file scope, C++'s member scope) once broke sha256.h and
// sha512.h there. The calls check the declarations' C++ view.
#include <fastsha/fastsha.h>
#include <fastsha/mac.h>
#include <fastsha/sha1.h>
#include <fastsha/sha1dc.h>
#include <fastsha/sha256.h>
#include <fastsha/sha3.h>
#include <fastsha/sha512.h>

int main()
{
	uint8_t out[64];
	fastsha224_ctx c224;
	fastsha224_init(&c224);
	fastsha224_update(&c224, "abc", 3);
	fastsha224_final(&c224, out);
	fastsha384_ctx c384;
	fastsha384_init(&c384);
	fastsha512_224_ctx c512_224;
	fastsha512_224_init(&c512_224);
	fastsha512_256_ctx c512_256;
	fastsha512_256_init(&c512_256);
	fastsha1dc_ctx dc;
	fastsha1dc_init(&dc);
	fastsha3_ctx s3;
	fastsha3_256_init(&s3);
	fastsha_ctx ctx;
	fastsha_init(&ctx, FASTSHA_SHA256);
	fastsha_hmac_key k;
	fastsha_hmac_key_init(&k, FASTSHA_SHA256, "key", 3);
	fastsha_hmac_key_wipe(&k);
	const fastsha_msg m = { "abc", 3 };
	fastsha_many(FASTSHA_SHA256, &m, 1, out);
	return fastsha_digest(static_cast<fastsha_alg>(fastsha_alg_from_name("sha256")), "abc", 3,
			      out);
}
