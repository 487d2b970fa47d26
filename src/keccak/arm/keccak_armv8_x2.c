/* SPDX-License-Identifier: MIT */
/*
 * armv8_x2: Keccak-p[1600, n] on two states at once with the ARMv8.2 SHA3
 * instructions (AArch64): state l in element l of 25 q registers, so one
 * EOR3, RAX1, XAR or BCAX does a step for both (keccak_armv8.h has the
 * round). The 25 vectors, five D and the round constant fit AArch64's 32
 * vector registers.
 *
 * Needs: FEAT_SHA3 (Linux hwcap HWCAP_SHA3, FSHA_CPU_ARM_SHA3) and NEON;
 * built with -march=armv8.2-a+sha3, this file only.
 *
 * Contract (src/keccak/keccak_impl.h, a lane row with lanes = 2):
 * - permute_lanes and absorb_lanes take exactly two states back to back,
 *   st[0] and st[1], and touch nothing past them;
 * - absorb_lanes reads exactly data[l][0 .. rate * nblocks) for l = 0, 1,
 *   at any alignment (8-byte vld1_u8 loads), the pointers may be equal;
 *   both states advance the same nblocks;
 * - permute and absorb are the single-state code of keccak_armv8.c (the
 *   same kernel with element 1 unused), so that pinning this row serves
 *   one message too.
 *
 * Counted with objdump (GCC 12.2 -O3): 75 instructions a round for both
 * states, as for one (64 SHA3, 2 EOR, LD1R, 6 spills, the loop), against
 * 151 for one state of portable: 37.5 a state, a quarter. A block of
 * absorb_lanes adds about 80 (each message lane's 8 bytes from both
 * pointers, merged with INS, then EOR), a per-block cost beside the 900
 * or 1,800 of the rounds. Lower bounds a round for the two states from
 * the vendors' tables (see keccak_armv8.c; arithmetic, not measurements):
 * Cortex-X4 16.5 cycles (8 a state; scalar about 16), Cortex-A720 33
 * (16.5; scalar 31), Neoverse V2 64 (32 a state; scalar 21, so slower
 * than portable there), Cortex-A520 at least 45 from RAX1 (22.5 a state;
 * scalar at least 63). Where the SHA3 instructions have a single pipe
 * (V2, and by a transcription A715) a better kernel would move work to
 * the other vector pipes (EOR3 as two EOR, BCAX as BIC and EOR) or run a
 * third state in the integer pipes beside the two vector ones (the
 * hybrid of Becker and Kannwischer, "Hybrid scalar/vector implementations
 * of Keccak and SPHINCS+ on AArch64", TCHES 2022, as recalled); not done,
 * since only hardware can tune such a mix.
 *
 * Use: FSHA_AUTO_MANY, the batch row wherever the SHA3 hwcap is set. The
 * Keccak batch path does not call lane entries yet (it runs each message
 * on the row's single-state entries); tests/test_keccak_kernels.c checks
 * them against portable until it does.
 *
 * Speed: not measured (no AArch64 hardware here; qemu-aarch64 says
 * nothing about speed). With hardware: time permute_lanes against two
 * portable permutes, and, once batches use lane rows, fastsha_many() of
 * SHA3-256 and KangarooTwelve's leaves pinned to armv8_x2 against
 * portable, on a Neoverse V1 or V2 first.
 */
#include "keccak_armv8.h"

static void permute(uint64_t st[25], unsigned rounds)
{
	fsha_ka8_permute1(st, rounds);
}

static void absorb(uint64_t st[25], const uint8_t *data, size_t nblocks, size_t rate,
		   unsigned rounds)
{
	fsha_ka8_absorb1(st, data, nblocks, rate, rounds);
}

static void permute_lanes(uint64_t (*st)[25], unsigned rounds)
{
	uint64x2_t a[25];
	fsha_ka8_load2(a, st);
	fsha_ka8_rounds(a, rounds);
	fsha_ka8_store2(st, a);
}

static void absorb_lanes(uint64_t (*st)[25], const uint8_t *const *data, size_t nblocks,
			 size_t rate, unsigned rounds)
{
	uint64x2_t a[25];
	const uint8_t *p[2] = { data[0], data[1] };
	fsha_ka8_load2(a, st);
	fsha_ka8_absorb(a, p, 2, nblocks, rate, rounds);
	fsha_ka8_store2(st, a);
}

const struct fsha_keccak_backend fsha_keccak_backend_armv8_x2 = {
	{ "armv8_x2", FSHA_CPU_ARM_SHA3 | FSHA_CPU_NEON, 2, FSHA_AUTO_MANY, 0, 0 }, permute, absorb,
	permute_lanes, absorb_lanes };
