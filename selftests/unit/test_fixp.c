// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc/fixp.h and modules/dcc_lib/fixp.c:
 * dcc_log2_q16, dcc_mul_div, dcc_rate_time_bytes, dcc_bytes_per_sec,
 * dcc_sat_add_u64.
 */
#include <math.h>
#include <string.h>

#include "dcc/fixp.h"
#include "tap.h"

typedef unsigned __int128 u128;

/* chord log2 under-estimates by at most max(log2(1+f) - f) = 0.086071... */
#define LOG2_MAX_ERR (0.0861 + 1.0 / 65536)

static long double log2_err(u64 x, u32 q)
{
	return log2l((long double)x) - (long double)q / 65536.0L;
}

static void test_log2_pow2(void)
{
	tap_begin("log2: exact at every power of two 2^0..2^63");
	for (int k = 0; k < 64; k++) {
		u32 q = dcc_log2_q16(1ULL << k);

		CHECK(q == (u32)k << 16, "x=2^%d got=0x%x want=0x%x", k, q,
		      (u32)k << 16);
	}
	CHECK(dcc_log2_q16(0) == 0, "log2(0) got=%u want 0 (convention)",
	      dcc_log2_q16(0));
	tap_end();
}

static void check_log2_bound(u64 x)
{
	u32 q = dcc_log2_q16(x);
	long double e = log2_err(x, q);

	CHECK(e >= -1e-12L && e <= LOG2_MAX_ERR,
	      "x=%llu (0x%llx) approx=%u (%.6Lf) log2=%.9Lf err=%.9Lf",
	      (unsigned long long)x, (unsigned long long)x, q,
	      (long double)q / 65536, log2l((long double)x), e);
	CHECK(q < (64U << 16), "x=%llu approx=%u >= 64<<16",
	      (unsigned long long)x, q);
}

static void test_log2_bound(void)
{
	long double worst = 0;
	u64 worst_x = 0;

	tap_begin("log2: 0 <= log2(x) - approx <= 0.0861 + 2^-16 (edges, 2^k+-1, random)");
	check_log2_bound(1);
	check_log2_bound(U64_MAX);
	for (int k = 1; k < 64; k++) {
		u64 p = 1ULL << k;

		check_log2_bound(p - 1);
		check_log2_bound(p + 1);
		/* the worst case of the chord: f = 1/ln2 - 1 */
		check_log2_bound(p + (u64)((long double)p * (1.0L / logl(2.0L) - 1.0L)));
	}
	for (int i = 0; i < 200000; i++) {
		u64 x = rnd_bits(64);
		long double e;

		if (!x)
			continue;
		check_log2_bound(x);
		e = log2_err(x, dcc_log2_q16(x));
		if (e > worst) {
			worst = e;
			worst_x = x;
		}
	}
	tap_diag("log2 worst under-estimate %.6Lf at x=%llu", worst,
		 (unsigned long long)worst_x);
	/* the bound is tight: a much better "approximation" is a different one */
	CHECK(worst > 0.08, "worst random error %.6Lf: not the chord?", worst);
	tap_end();
}

static void test_log2_monotone(void)
{
	u32 prev = 0;

	tap_begin("log2: monotone non-decreasing (dense 0..2^20, around 2^k, sorted random)");
	for (u64 x = 0; x <= (1U << 20); x++) {
		u32 q = dcc_log2_q16(x);

		if (!CHECK(q >= prev, "x=%llu q=%u prev=%u",
			   (unsigned long long)x, q, prev))
			break;
		prev = q;
	}
	for (int k = 2; k < 64; k++) {
		u64 p = 1ULL << k;

		u64 x0 = k > 10 ? p - 1000 : p / 2;

		prev = dcc_log2_q16(x0);
		for (u64 x = x0; x <= p + 1000; x++) {
			u32 q = dcc_log2_q16(x);

			CHECK(q >= prev, "x=%llu q=%u prev=%u",
			      (unsigned long long)x, q, prev);
			prev = q;
		}
	}
	/* random ascending walks with random step sizes */
	for (int w = 0; w < 200; w++) {
		u64 x = rnd_bits(62);

		prev = dcc_log2_q16(x);
		for (int i = 0; i < 500; i++) {
			u64 step = rnd_bits((unsigned int)rnd_range(0, 40));
			u32 q;

			if (x + step < x)
				break;
			x += step;
			q = dcc_log2_q16(x);
			CHECK(q >= prev, "x=%llu step=%llu q=%u prev=%u",
			      (unsigned long long)x, (unsigned long long)step,
			      q, prev);
			prev = q;
		}
	}
	CHECK(dcc_log2_q16(U64_MAX) >= dcc_log2_q16(U64_MAX - 1), "U64_MAX");
	tap_end();
}

static u64 ref_mul_div(u64 a, u64 b, u64 c)
{
	u128 q;

	if (!c)
		return U64_MAX;
	q = (u128)a * b / c;
	return q > U64_MAX ? U64_MAX : (u64)q;
}

static void check_mul_div(u64 a, u64 b, u64 c)
{
	u64 got = dcc_mul_div(a, b, c), want = ref_mul_div(a, b, c);

	CHECK(got == want, "a=%llu b=%llu c=%llu got=%llu want=%llu",
	      (unsigned long long)a, (unsigned long long)b,
	      (unsigned long long)c, (unsigned long long)got,
	      (unsigned long long)want);
}

static void test_mul_div(void)
{
	static const u64 edge[] = {
		0, 1, 2, 3, 1000, 1000000, 1000000000, 125000,
		100000000000ULL, (1ULL << 32) - 1, 1ULL << 32, (1ULL << 32) + 1,
		1ULL << 63, (1ULL << 63) - 1, U64_MAX - 1, U64_MAX,
	};
	const int ne = sizeof(edge) / sizeof(edge[0]);

	tap_begin("mul_div: equals 128-bit a*b/c, U64_MAX on c==0 or overflow");
	for (int i = 0; i < ne; i++)
		for (int j = 0; j < ne; j++)
			for (int k = 0; k < ne; k++)
				check_mul_div(edge[i], edge[j], edge[k]);
	for (int i = 0; i < 300000; i++)
		check_mul_div(rnd_bits(64), rnd_bits(64), rnd_bits(64));
	/* quotient exactly U64_MAX, and just above it */
	check_mul_div(U64_MAX, 3, 3);
	check_mul_div(U64_MAX, U64_MAX, U64_MAX);
	check_mul_div(1ULL << 63, 4, 2);		/* 2^64: saturates */
	check_mul_div((1ULL << 63) + 1, 2, 2);
	/* explicit values of the contract, independent of the reference */
	CHECK(dcc_mul_div(5, 7, 0) == U64_MAX, "c == 0");
	CHECK(dcc_mul_div(0, 0, 0) == U64_MAX, "c == 0, a*b == 0");
	CHECK(dcc_mul_div(U64_MAX, U64_MAX, 1) == U64_MAX, "overflow");
	CHECK(dcc_mul_div(U64_MAX, U64_MAX, U64_MAX) == U64_MAX, "max/max");
	CHECK(dcc_mul_div(U64_MAX, 2, 4) == U64_MAX / 2, "got %llu",
	      (unsigned long long)dcc_mul_div(U64_MAX, 2, 4));
	CHECK(dcc_mul_div(7, 3, 2) == 10, "floor");
	tap_end();
}

static void test_sat_add(void)
{
	tap_begin("sat_add_u64: saturates at U64_MAX, exact otherwise");
	for (int i = 0; i < 100000; i++) {
		u64 a = rnd_bits(64), b = rnd_bits(64);
		u128 s = (u128)a + b;
		u64 want = s > U64_MAX ? U64_MAX : (u64)s;
		u64 got = dcc_sat_add_u64(a, b);

		CHECK(got == want, "a=%llu b=%llu got=%llu",
		      (unsigned long long)a, (unsigned long long)b,
		      (unsigned long long)got);
	}
	CHECK(dcc_sat_add_u64(U64_MAX, 1) == U64_MAX, "max+1");
	CHECK(dcc_sat_add_u64(U64_MAX - 1, 1) == U64_MAX, "max-1+1");
	CHECK(dcc_sat_add_u64(U64_MAX, U64_MAX) == U64_MAX, "max+max");
	tap_end();
}

/*
 * f16: exact below 2^11, otherwise within 2^-10 below the value (never
 * above it), monotone, saturating past 2047 << 31
 */
static void test_f16(void)
{
	u64 sat = (u64)DCC_F16_MANT_MAX << DCC_F16_EXP_MAX;
	u16 prev = 0;

	tap_begin("f16: exact below 2^11, truncated within 2^-10 of x above, monotone, saturates at 2047 << 31");
	for (u64 x = 0; x < 4096; x++) {
		u64 y = dcc_f16_unpack(dcc_f16_pack(x));

		CHECK(x < 2048 ? y == x : y <= x && x - y < (x >> 10) + 1,
		      "x=%llu y=%llu", (unsigned long long)x,
		      (unsigned long long)y);
	}
	for (int i = 0; i < 200000; i++) {
		u64 x = rnd_bits(1 + (int)(rnd_bits(6) % 43));
		u64 y = dcc_f16_unpack(dcc_f16_pack(x));

		if (x >= sat)
			CHECK(y == sat, "x=%llu sat", (unsigned long long)x);
		else
			CHECK(y <= x && (x - y) <= (x >> 10),
			      "x=%llu y=%llu", (unsigned long long)x,
			      (unsigned long long)y);
	}
	for (int k = 0; k < 64; k++) {
		u16 f = dcc_f16_pack(1ULL << k);

		CHECK(k >= 42 || dcc_f16_unpack(f) == 1ULL << k, "2^%d", k);
		CHECK(dcc_f16_unpack(f) >= dcc_f16_unpack(prev), "monotone 2^%d", k);
		prev = f;
	}
	CHECK(dcc_f16_unpack(dcc_f16_pack(U64_MAX)) == sat, "U64_MAX");
	CHECK(dcc_f16_unpack(dcc_f16_pack(100000000000ULL)) <= 100000000000ULL &&
	      dcc_f16_unpack(dcc_f16_pack(100000000000ULL)) > 99900000000ULL,
	      "800 Gbit/s");
	tap_end();
}

/* rate 1 Mbit/s .. 800 Gbit/s, t 1 unit .. 1 s(+), us and ns */
static void test_rate_helpers(void)
{
	static const u64 ups_list[] = { DCC_USEC_PER_SEC, DCC_NSEC_PER_SEC };
	static const u64 rates[] = {
		DCC_MBPS_TO_BPS, 1250000, 125000000, 1250000000ULL,
		12500000000ULL, 50000000000ULL, DCC_RATE_MAX_BPS,
	};

	tap_begin("rate_time_bytes / bytes_per_sec: exact over 1 Mb/s..800 Gb/s, 1 unit..10 s, us and ns");
	for (int u = 0; u < 2; u++) {
		u64 ups = ups_list[u];

		for (int i = 0; i < 200000; i++) {
			u64 rate = i < 7 * 64 ? rates[i % 7] :
				rnd_range(DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
			u64 t = i < 7 * 64 ? 1ULL << ((i / 7) % 40) :
				rnd_range(1, 10 * ups);
			u64 bytes = dcc_rate_time_bytes(rate, t, ups);
			u64 want = (u64)((u128)rate * t / ups);
			u64 back, want_back;

			CHECK(bytes == want,
			      "rate=%llu t=%llu ups=%llu got=%llu want=%llu",
			      (unsigned long long)rate, (unsigned long long)t,
			      (unsigned long long)ups, (unsigned long long)bytes,
			      (unsigned long long)want);
			back = dcc_bytes_per_sec(bytes, t, ups);
			want_back = (u64)((u128)bytes * ups / t);
			CHECK(back == want_back,
			      "bytes=%llu t=%llu ups=%llu got=%llu want=%llu",
			      (unsigned long long)bytes, (unsigned long long)t,
			      (unsigned long long)ups, (unsigned long long)back,
			      (unsigned long long)want_back);
			/* round trip loses at most one byte's worth of rate */
			CHECK(back <= rate && rate - back <= ups / t + 1,
			      "round trip rate=%llu t=%llu ups=%llu back=%llu",
			      (unsigned long long)rate, (unsigned long long)t,
			      (unsigned long long)ups, (unsigned long long)back);
		}
		CHECK(dcc_bytes_per_sec(12345, 0, ups) == 0, "t == 0 -> 0");
		CHECK(dcc_bytes_per_sec(0, 5, ups) == 0, "0 bytes -> 0");
		/* a second at 800 Gb/s */
		CHECK(dcc_rate_time_bytes(DCC_RATE_MAX_BPS, ups, ups) ==
		      DCC_RATE_MAX_BPS, "1 s at 800G");
		CHECK(dcc_bytes_per_sec(DCC_RATE_MAX_BPS, ups, ups) ==
		      DCC_RATE_MAX_BPS, "1e11 B in 1 s");
		/* 1 byte in 1 unit: 1e6 / 1e9 B/s */
		CHECK(dcc_bytes_per_sec(1, 1, ups) == ups, "1 B per unit");
		/* saturation instead of wrap */
		CHECK(dcc_bytes_per_sec(U64_MAX, 1, ups) == U64_MAX, "saturate");
		CHECK(dcc_rate_time_bytes(U64_MAX, U64_MAX, ups) == U64_MAX,
		      "saturate");
	}
	CHECK(dcc_rate_time_bytes(1, 1, 0) == U64_MAX, "units_per_sec 0");
	tap_end();
}

int main(void)
{
	tap_header();
	tap_seed_from_env();
	test_log2_pow2();
	test_log2_bound();
	test_log2_monotone();
	test_mul_div();
	test_sat_add();
	test_rate_helpers();
	test_f16();
	return tap_done();
}
