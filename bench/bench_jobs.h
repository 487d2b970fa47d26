/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_BENCH_JOBS_H
#define FASTSHA_BENCH_JOBS_H

/* fastsha-bench --mac (HMAC, HKDF, PBKDF2) and --sha3 (the Keccak family)
 * against OpenSSL's calls for the same jobs (bench_jobs.c). Each takes the
 * arguments after its option and returns the exit status. */
int bench_mac_main(int argc, char **argv);
int bench_sha3_main(int argc, char **argv);

#endif
