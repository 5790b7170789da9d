// SPDX-License-Identifier: GPL-2.0
/*
 * SQCC ("sqcc"): the shared TIMELY glue (tcp_timely.c) built with SQCC's
 * in-band law and N-adaptive T_low/delta (Alg. 3).  No code of its own.
 */
#define TIMELY_VARIANT 2	/* TV_SQCC */
#define TIMELY_FN(f) sqcc_##f	/* hook symbols: sqcc_cong_control, ... */
#include "tcp_timely.c"
