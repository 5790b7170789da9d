/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the control-law fuzz targets (fuzz_<law>.c) share: an input reader
 * that never runs dry (zeros once the input is used up), decoders of a
 * value inside a validated parameter range, and an assertion that aborts
 * so that libFuzzer keeps the input that broke a bound.
 *
 * Every decoder returns a value inside [lo, hi] whatever the bytes are, so
 * a target only ever builds configurations the module parameters' range
 * checks would accept.  rd_span() spreads its values over the decades of a
 * wide range (1 us .. 1 s, 1 Mbit/s .. 800 Gbit/s) instead of crowding
 * them at the top, and hits both ends often.
 */
#ifndef _DCC_FUZZ_H
#define _DCC_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "dcc/fixp.h"

#define FUZZ_ASSERT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: assertion failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

typedef unsigned __int128 fz_u128;

struct fz {
	const u8 *p;
	size_t n;
};

/* @bytes little-endian bytes; zeros once the input is used up */
static inline u64 fz_raw(struct fz *in, int bytes)
{
	u64 v = 0;

	for (int i = 0; i < bytes; i++) {
		u64 b = 0;

		if (in->n) {
			b = *in->p++;
			in->n--;
		}
		v |= b << (8 * i);
	}
	return v;
}

static inline bool fz_bool(struct fz *in)
{
	return fz_raw(in, 1) & 1;
}

/* uniform-ish in [lo, hi] */
static inline u64 fz_range(struct fz *in, u64 lo, u64 hi)
{
	u64 v = fz_raw(in, 8);

	if (hi <= lo)
		return lo;
	if (hi - lo == U64_MAX)
		return v;
	return lo + v % (hi - lo + 1);
}

/*
 * In [lo, hi], spread over the decades: a selector byte picks the low end,
 * the high end, or a random bit width, then a value of that width.
 */
static inline u64 fz_span(struct fz *in, u64 lo, u64 hi)
{
	u8 sel = (u8)fz_raw(in, 1);
	int width = fls64(hi - lo);
	u64 v;

	if (hi <= lo)
		return lo;
	if (sel < 16)
		return lo;
	if (sel < 32)
		return hi;
	width = 1 + (sel % (width ? width : 1));
	v = fz_raw(in, (width + 7) / 8);
	if (width < 64)
		v &= (1ULL << width) - 1;
	return v > hi - lo ? hi : lo + v;
}

/* The dcc ranges every law is promised (fixp.h, bls.h). */
#define FZ_RTT_MIN_US 1
#define FZ_RTT_MAX_US 1000000
#define FZ_MBPS_MIN 1
#define FZ_MBPS_MAX 800000

static inline u32 fz_rtt_us(struct fz *in)
{
	return (u32)fz_span(in, FZ_RTT_MIN_US, FZ_RTT_MAX_US);
}

/* A segment size Linux can have: 48 (IPv4 minimum) .. 65535 (loopback GSO). */
static inline u32 fz_mss(struct fz *in)
{
	static const u32 common[] = { 1448, 1460, 8948, 536, 48, 65483 };
	u8 sel = (u8)fz_raw(in, 1);

	if (sel < 6 * 32)
		return common[sel / 32];
	return (u32)fz_range(in, 48, 65535);
}

/*
 * A run of ACKs replaying one event (the targets' op 15): a count of 8 to
 * 2040, then @step(@ctx, @in) that many times, each from the same input
 * position, so one short input drives a long steady state.  Returns the
 * count, which the caller charges to its event budget.
 */
static inline u32 fz_replay(struct fz *in, void (*step)(void *ctx, struct fz *in),
			    void *ctx)
{
	u32 n = (u32)fz_raw(in, 1) * 8;
	const u8 *p0 = in->p;
	size_t n0 = in->n;

	for (u32 k = 0; k < n; k++) {
		in->p = p0;
		in->n = n0;
		step(ctx, in);
	}
	return n;
}

#endif /* _DCC_FUZZ_H */
