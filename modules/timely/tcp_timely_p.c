// SPDX-License-Identifier: GPL-2.0
/*
 * Patched TIMELY ("timely_p"): the shared TIMELY glue (tcp_timely.c) built
 * with the patched in-band law (Alg. 2).  No code of its own.
 */
#define TIMELY_VARIANT 1	/* TV_PATCHED */
#define TIMELY_FN(f) timely_p_##f	/* hook symbols: timely_p_cong_control, ... */
#include "tcp_timely.c"
