// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-line fixed-point helpers; see include/dcc/fixp.h.  Plain C,
 * shared by dcc_lib.ko and the userspace tests.
 */
#include "dcc/fixp.h"

u32 dcc_log2_q16(u64 x)
{
	u64 frac;
	int i;

	if (!x)
		return 0;
	i = fls64(x) - 1;		/* x in [2^i, 2^(i+1)) */
	frac = x - (1ULL << i);		/* chord offset, < 2^i */
	/* frac / 2^i as Q16, truncated (keeps the under-estimate) */
	frac = i >= 16 ? frac >> (i - 16) : frac << (16 - i);
	return ((u32)i << 16) + (u32)frac;
}
DCC_EXPORT(dcc_log2_q16);
