/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcc fixed-point helpers, shared by the kernel modules and the userspace
 * unit tests.
 *
 * Everything in this header (and in the plain-C math files that include
 * it: bls.c, median.c, fixp.c, shtbl.c) compiles both as kernel code and as
 * ordinary hosted C, so the same arithmetic that runs in softirq context is
 * exercised by the sanitizer-instrumented unit tests and the fuzzers.
 *
 * Conventions used across dcc:
 *   - time is an unsigned 64-bit count of a caller-chosen unit (us in the
 *     Linux 6.1 modules, where tcp_mstamp and rtt_us are microseconds; ns
 *     where a nanosecond source exists).  DCC_USEC_PER_SEC etc. convert.
 *   - rates are u64 bytes per second: 1 Mbit/s = 125000 B/s up to
 *     800 Gbit/s = 1e11 B/s < 2^37.
 *   - "Qn" means a fixed-point value scaled by 2^n; each use names its n.
 *   - no floating point, no 128-bit division: 128-bit intermediates are
 *     only multiplied/added and normalised by shifts before a 64-bit
 *     division (the kernel does not link __divti3).
 */
#ifndef _DCC_FIXP_H
#define _DCC_FIXP_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/log2.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/minmax.h>
/* Symbols of the helper module; algorithm modules link against them. */
#define DCC_EXPORT(sym) EXPORT_SYMBOL_GPL(sym)
#else /* userspace build of the same math */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#define DCC_EXPORT(sym)
#define S64_MAX INT64_MAX
#define S64_MIN INT64_MIN
#define U64_MAX UINT64_MAX
#define U32_MAX UINT32_MAX
#define S32_MAX INT32_MAX
#define S32_MIN INT32_MIN
#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int ilog2_u64(u64 x) { return fls64(x) - 1; }
#define ilog2(x) ilog2_u64(x)
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)(((unsigned __int128)a * b) / c);
}
#endif /* __KERNEL__ */

#ifndef __SIZEOF_INT128__
#error "dcc needs a compiler with 128-bit multiply (64-bit targets: x86_64, arm64)"
#endif
typedef __int128 dcc_s128;
typedef unsigned __int128 dcc_u128;

#define DCC_USEC_PER_SEC 1000000ULL
#define DCC_NSEC_PER_SEC 1000000000ULL
#define DCC_MBPS_TO_BPS 125000ULL		/* 1 Mbit/s in bytes/s */
#define DCC_RATE_MAX_BPS 100000000000ULL	/* 800 Gbit/s in bytes/s */

/* Q16.16 unit used for dimensionless ratios such as the delay gradient. */
#define DCC_Q16_ONE (1 << 16)

/*
 * a * b / c for u64 operands without overflow (128-bit product).  Returns
 * U64_MAX when c == 0 or the quotient does not fit, so callers clamp
 * rather than wrap.  Uses the kernel's mul_u64_u64_div_u64() in-kernel.
 */
static inline u64 dcc_mul_div(u64 a, u64 b, u64 c)
{
	if (unlikely(c == 0))
		return U64_MAX;
	/* quotient fits in 64 bits iff a*b < c*2^64 (both sides < 2^128) */
	if ((dcc_u128)a * b >= ((dcc_u128)c << 64))
		return U64_MAX;
	return mul_u64_u64_div_u64(a, b, c);
}

/* Saturating u64 add (used by accumulators that must never wrap). */
static inline u64 dcc_sat_add_u64(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

/*
 * Bytes in flight for @rate_bytes_ps bytes/s sustained over @t time units of
 * which there are @units_per_sec per second: rate * t / units_per_sec.
 * Exact for the whole dcc range (128-bit product, saturates at U64_MAX).
 */
static inline u64 dcc_rate_time_bytes(u64 rate_bytes_ps, u64 t, u64 units_per_sec)
{
	return dcc_mul_div(rate_bytes_ps, t, units_per_sec);
}

/*
 * A u64 quantity kept in 16 bits where a relative error of 2^-10 is
 * enough (a rate remembered for later, in a full per-socket area): an
 * 11-bit mantissa m and a 5-bit exponent e, value m << e.  Packing
 * truncates (never rounds up) and saturates at 2047 << 31 (~4.4e12:
 * rates up to 800 Gbit/s = 1e11 B/s fit).  Values below 2^11 are exact.
 */
#define DCC_F16_MANT_BITS 11
#define DCC_F16_MANT_MAX ((1U << DCC_F16_MANT_BITS) - 1)
#define DCC_F16_EXP_MAX 31

static inline u16 dcc_f16_pack(u64 x)
{
	int e = fls64(x) - DCC_F16_MANT_BITS;

	if (e <= 0)
		return (u16)x;
	if (e > DCC_F16_EXP_MAX)
		return (u16)(DCC_F16_EXP_MAX << DCC_F16_MANT_BITS |
			     DCC_F16_MANT_MAX);
	return (u16)((u32)e << DCC_F16_MANT_BITS | (u32)(x >> e));
}

static inline u64 dcc_f16_unpack(u16 f)
{
	return (u64)(f & DCC_F16_MANT_MAX) << (f >> DCC_F16_MANT_BITS);
}

/* Rate in bytes/s from @bytes delivered over @t units (0 if t == 0). */
static inline u64 dcc_bytes_per_sec(u64 bytes, u64 t, u64 units_per_sec)
{
	if (!t)
		return 0;
	return dcc_mul_div(bytes, units_per_sec, t);
}

/*
 * Piecewise-linear log2 in Q16 (CCC eq. 10): for x in [2^i, 2^(i+1)),
 *	log2(x) ~= i + (x - 2^i) / 2^i
 * i.e. the chord between consecutive powers of two.  Exact at powers of
 * two; everywhere else it under-estimates by at most 0.0861 (the maximum
 * of log2(1+f) - f over f in [0,1), at f = 1/ln2 - 1).  dcc_log2_q16(0)
 * returns 0 by convention (callers floor their argument first).
 * Result range: [0, 64 << 16).
 */
u32 dcc_log2_q16(u64 x);

#endif /* _DCC_FIXP_H */
