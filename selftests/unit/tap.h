/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the dcc userspace unit tests.
 *
 * A subtest is one property checked over many cases:
 *
 *	tap_begin("bls: linear data b=%s", name);
 *	for (...)
 *		CHECK(got == want, "n=%u got=%lld want=%lld", n, got, want);
 *	tap_end();			// prints "ok N - ..." or "not ok N - ..."
 *
 * Failed CHECKs print "# file:line: expr: context" diagnostics (the first
 * TAP_MAX_DIAG of each subtest; the rest are counted).  tap_done() prints
 * the plan ("1..N", trailing plan is valid TAP) and returns the exit code.
 *
 * The PRNG is splitmix64 with a fixed seed (override: DCC_SEED=n in the
 * environment) so failures reproduce.
 */
#ifndef _DCC_TAP_H
#define _DCC_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TAP_MAX_DIAG 5

static int tap_n;		/* subtests finished */
static int tap_nfail;		/* subtests failed */
static char tap_name[256];	/* current subtest */
static unsigned long tap_sub_fail;	/* failed checks in current subtest */
static unsigned long tap_sub_checks;	/* checks in current subtest */

static inline void __attribute__((format(printf, 1, 2)))
tap_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tap_name, sizeof(tap_name), fmt, ap);
	va_end(ap);
	tap_sub_fail = 0;
	tap_sub_checks = 0;
}

static inline void __attribute__((format(printf, 1, 2)))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 4, 5)))
tap_check_failed(const char *file, int line, const char *expr,
		 const char *fmt, ...)
{
	va_list ap;

	tap_sub_fail++;
	if (tap_sub_fail > TAP_MAX_DIAG)
		return;
	printf("# %s:%d: [%s] check failed: %s: ", file, line, tap_name, expr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* Record one check; on failure print the context (printf-style). */
#define CHECK(cond, ...)						\
	({								\
		int __ok = !!(cond);					\
		tap_sub_checks++;					\
		if (!__ok)						\
			tap_check_failed(__FILE__, __LINE__, #cond,	\
					 __VA_ARGS__);			\
		__ok;							\
	})

/* Finish the current subtest; returns 1 if it passed. */
static inline int tap_end(void)
{
	int ok = tap_sub_fail == 0 && tap_sub_checks > 0;

	tap_n++;
	if (tap_sub_fail > TAP_MAX_DIAG)
		tap_diag("... %lu more failed checks not shown",
			 tap_sub_fail - TAP_MAX_DIAG);
	if (ok) {
		printf("ok %d - %s (%lu checks)\n", tap_n, tap_name,
		       tap_sub_checks);
	} else {
		tap_nfail++;
		if (!tap_sub_checks)
			printf("not ok %d - %s (no checks ran)\n", tap_n,
			       tap_name);
		else
			printf("not ok %d - %s (%lu of %lu checks failed)\n",
			       tap_n, tap_name, tap_sub_fail, tap_sub_checks);
	}
	fflush(stdout);
	return ok;
}

/*
 * Finish a subtest that documents a known, not yet fixed limitation: TAP's
 * TODO directive ("not ok N - name # TODO reason") reports it without
 * failing the run; a pass is reported as "ok ... # TODO" (fixed: drop it).
 */
static inline void tap_end_todo(const char *reason)
{
	tap_n++;
	if (tap_sub_fail > TAP_MAX_DIAG)
		tap_diag("... %lu more failed checks not shown",
			 tap_sub_fail - TAP_MAX_DIAG);
	printf("%s %d - %s (%lu of %lu checks failed) # TODO %s\n",
	       tap_sub_fail ? "not ok" : "ok", tap_n, tap_name, tap_sub_fail,
	       tap_sub_checks, reason);
	fflush(stdout);
}

static inline void tap_header(void)
{
	printf("TAP version 13\n");
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_nfail)
		tap_diag("%d of %d subtests failed", tap_nfail, tap_n);
	fflush(stdout);
	return tap_nfail ? 1 : 0;
}

/* ---- deterministic PRNG (splitmix64) -------------------------------- */

static uint64_t tap_rng_state = 0x6463632d756e6974ULL;	/* "dcc-unit" */

static inline void tap_seed_from_env(void)
{
	const char *s = getenv("DCC_SEED");

	if (s && *s)
		tap_rng_state = strtoull(s, NULL, 0);
	tap_diag("seed 0x%llx (set DCC_SEED to reproduce)",
		 (unsigned long long)tap_rng_state);
}

static inline uint64_t rnd64(void)
{
	uint64_t z = (tap_rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] (inclusive), hi - lo < 2^64 - 1 */
static inline uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo + 1;

	if (!span)
		return rnd64();
	return lo + (uint64_t)(((unsigned __int128)rnd64() * span) >> 64);
}

/* uniform double in [0, 1) */
static inline double rnd_unit(void)
{
	return (double)(rnd64() >> 11) * 0x1p-53;
}

/* a value with a uniformly random bit length 0..bits (then random bits) */
static inline uint64_t rnd_bits(unsigned int bits)
{
	unsigned int len = (unsigned int)rnd_range(0, bits);

	if (!len)
		return 0;
	if (len >= 64)
		return rnd64();
	return (rnd64() & ((1ULL << len) - 1)) | (1ULL << (len - 1));
}

#endif /* _DCC_TAP_H */
