// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_tai: read or set the kernel's TAI - UTC offset (adjtimex ADJ_TAI),
 * for the RX-timestamp test: with the offset at 0 (a guest nothing sets
 * it in) CLOCK_TAI and CLOCK_REALTIME read the same, so a NIC stamp in
 * the wrong timescale cannot be told from a right one.
 *
 *   dcc_tai          prints the offset in seconds
 *   dcc_tai SECONDS  sets it (0..1000; needs CAP_SYS_TIME), prints it
 *
 * Exit 0 on success, 1 if the kernel refused, 2 on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>

static int usage(void)
{
	fprintf(stderr, "usage: dcc_tai [SECONDS]  (SECONDS: 0..1000)\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct timex tx = { 0 };
	char *end;
	long s;

	if (argc > 2)
		return usage();
	if (argc == 2) {
		errno = 0;
		s = strtol(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || s < 0 || s > 1000)
			return usage();
		tx.modes = ADJ_TAI;
		tx.constant = s;
	}
	if (adjtimex(&tx) < 0) {
		fprintf(stderr, "dcc_tai: adjtimex: %s\n", strerror(errno));
		return 1;
	}
	if (argc == 2) {	/* read back what the kernel holds now */
		memset(&tx, 0, sizeof(tx));
		if (adjtimex(&tx) < 0) {
			fprintf(stderr, "dcc_tai: adjtimex: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("%d\n", tx.tai);
	return 0;
}
