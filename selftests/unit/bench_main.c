// SPDX-License-Identifier: GPL-2.0
/*
 * Driver of the per-ACK userspace benchmark (see bench.h):
 *	bench_<alg> [ACKS]	runs bench_ack() ACKS times (default 100000)
 * and prints "acks N result R".  Under callgrind with
 * --toggle-collect=bench_ack only the per-ACK work is counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 100000;
	void (*volatile ack)(uint32_t) = bench_ack;
	uint32_t i;

	bench_setup();
	for (i = 0; i < n; i++)
		ack(i);
	printf("acks %u result %llu\n", n, (unsigned long long)bench_result());
	return 0;
}
