// SPDX-License-Identifier: GPL-2.0
/*
 * Driver of the per-ACK userspace benchmark (see bench.h):
 *
 *	bench_<alg> [ACKS]		runs bench_ack() ACKS times (default
 *					100000), prints "acks N events E
 *					result R"
 *	bench_<alg> ACKS common		the same ACKs twice: once to learn
 *					which ones are events (bench_ack()
 *					returned non-zero: the decision
 *					changed), then again from a fresh
 *					bench_setup(), the others through
 *					bench_common()
 *
 * Under callgrind with --toggle-collect=bench_ack only the per-ACK work is
 * counted (every ACK, event or not: the amortised cost); with
 * --toggle-collect=bench_common only the ACKs that changed nothing (the
 * common path), plus bench_common's own call (3 instructions at -O2).
 * The replay is exact because bench_setup() resets every piece of state,
 * the synthetic load's seed included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

static int (*volatile ack)(uint32_t) = bench_ack;

/* the common-path ACKs of the replay: callgrind counts only in here */
int __attribute__((noinline)) bench_common(uint32_t i)
{
	return ack(i);
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 100000;
	int common = argc > 2 && !strcmp(argv[2], "common");
	int (*volatile com)(uint32_t) = bench_common;
	unsigned char *ev = NULL;
	uint32_t i, events = 0;

	if (common && !(ev = calloc(n ? n : 1, 1))) {
		perror("bench");
		return 1;
	}
	bench_setup();
	for (i = 0; i < n; i++) {
		int e = ack(i) != 0;

		events += e;
		if (ev)
			ev[i] = (unsigned char)e;
	}
	if (common) {
		bench_setup();
		for (i = 0; i < n; i++)
			if (ev[i])
				ack(i);
			else
				com(i);
		free(ev);
	}
	printf("acks %u events %u result %llu\n", n, events,
	       (unsigned long long)bench_result());
	return 0;
}
