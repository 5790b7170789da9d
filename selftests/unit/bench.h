/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace per-ACK cost of an algorithm's math, for `make bench`
 * (tools/bench-callgrind runs bench_main.c + bench_<alg>.c under callgrind
 * and divides the instructions spent inside bench_ack() by the ACK count;
 * a second run counts only the ACKs that changed no decision, and the
 * divisions executed: bench_main.c).
 *
 * To add an algorithm, drop selftests/unit/bench_<alg>.c defining:
 *
 *	void bench_setup(void);		   before the first ACK: (re)sets
 *					   every piece of state, the load's
 *					   seed included, so that a second
 *					   run replays the first exactly
 *	int bench_ack(uint32_t i);	   ACK number i: exactly the math the
 *					   module runs per ACK (estimators,
 *					   control law when it fires), fed by a
 *					   deterministic synthetic sample;
 *					   returns non-zero when the core's
 *					   decision changed (dcc_decision.
 *					   changed: the glue applies it),
 *					   0 on the common path
 *	uint64_t bench_result(void);	   something derived from the state,
 *					   printed so the compiler cannot drop
 *					   the work
 *
 * and, on its first lines, which plain-C files it needs besides the shared
 * dcc_lib math (selftests/unit/Makefile's LIB_SRC), paths from the repo root:
 *
 *	// bench-sources: modules/<alg>/<alg>_law.c
 *
 * bench_ack must stay a real function (bench_main.c calls it through a
 * pointer, and callgrind is told to count only inside it).
 */
#ifndef _DCC_BENCH_H
#define _DCC_BENCH_H

#include <stdint.h>

void bench_setup(void);
int bench_ack(uint32_t i);
uint64_t bench_result(void);

/* deterministic noise for synthetic samples: splitmix64 */
static inline uint64_t bench_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The common synthetic load's queueing delay at time @t_us (us): a queue
 * that builds from 0 to 8 ms over 20 ms and drains back over the next 20,
 * so a law sees both its increase and its decrease branch every 40 ms.
 */
static inline uint32_t bench_queue_us(uint64_t t_us)
{
	uint32_t phase = (uint32_t)(t_us % 40000);

	return phase < 20000 ? phase * 2 / 5 : (40000 - phase) * 2 / 5;
}

#endif /* _DCC_BENCH_H */
