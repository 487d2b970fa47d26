/* SPDX-License-Identifier: MIT */
#ifndef FASTSHA_BENCH_MAC_H
#define FASTSHA_BENCH_MAC_H

/* fastsha-bench --mac: HMAC, HKDF and PBKDF2 against OpenSSL (bench_mac.c).
 * Takes the arguments after --mac; returns the exit status. */
int bench_mac_main(int argc, char **argv);

#endif
