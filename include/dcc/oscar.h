/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OSCAR control law (Zhang et al., NSDI'26, Algorithm 2), as plain C shared
 * by tcp_oscar.ko and the userspace unit tests.  The kernel glue and the
 * theory are in modules/oscar/tcp_oscar.c.
 *
 * Fixed-point scales:
 *   u, u_w, u_r, U_AI, U_HAI, u_min: Q20 share of mu (OSCAR_U_ONE = 1.0),
 *	u in [u_min, 1] so it fits 21 bits; u_w/u_r are computed from rates
 *	clamped to 2 * mu, hence <= 2^21.
 *   gradient: Q16 (from the BLS estimator), clamped to >= -0.9.
 *   mu, rates: bytes/s (u64, <= 1e11 < 2^37); times: us (u32, <= 1e6).
 */
#ifndef _DCC_OSCAR_H
#define _DCC_OSCAR_H

#include "fixp.h"
#include "bls.h"

#define OSCAR_U_SHIFT 20
#define OSCAR_U_ONE (1U << OSCAR_U_SHIFT)
#define OSCAR_PPM_TO_U(ppm) ((u32)(((u64)(ppm) << OSCAR_U_SHIFT) / 1000000))
/*
 * Samples (ACKs) a batch needs before it may close.  Alg. 1 says 3 ("to
 * avoid tiny denominators"); with software timestamps a slow flow's 3-sample
 * batch gives a noisy rate, and min(u_w, u_r) when decelerating turns that
 * noise into a downward bias that traps slow flows (8-flow incast under
 * +-300 us noise: Jain 0.59 with 3, 0.97 with 16, in test_oscar_law; the
 * same trap in the VM).  16 leaves fast flows' batches at tau and stretches
 * slow flows' to 16 ACKs.  Module parameter min_samples; 3 = paper.
 */
#define OSCAR_MIN_SAMPLES_DEFAULT 16

/* gradient floor -0.9 in Q16 (artifact): at most a 10x rate increase */
#define OSCAR_GRAD_FLOOR_Q16 (-58982)

/* What one socket's law needs, resolved from its parameter snapshot. */
struct oscar_law_cfg {
	u64 mu_bytes_ps;	/* bottleneck (line) rate mu, bytes/s */
	u32 base_us;	/* RTT_base */
	u32 dt_us;	/* D_target */
	u32 eps_us;	/* HAI margin: delay <= base + eps means empty queue */
	u32 hyst_us;	/* delta: accelerate iff delay + delta < D_target */
	u32 u_ai;	/* Q20 */
	u32 u_hai;	/* Q20 */
	u32 u_min;	/* Q20 */
};

enum oscar_branch {
	OSCAR_HAI = 0,		/* empty queue: hyper additive increase */
	OSCAR_ACCEL = 1,	/* delay < D_target: max(u_w, u_r) + U_AI */
	OSCAR_DECEL = 2,	/* delay >= D_target: min(u_w, u_r) + U_AI */
};

struct oscar_decision {
	u32 u;		/* new unified ratio, Q20 */
	u32 u_w;	/* <delay, window> loop, Q20 (0 in HAI) */
	u32 u_r;	/* <gradient, rate> loop, Q20 (0 in HAI) */
	u8 branch;	/* enum oscar_branch */
	bool held;	/* app-limited batch: a decrease was not applied */
};

/*
 * One per-batch step of Algorithm 2.  @u is the current ratio; @app_limited
 * says most of the batch's samples were app-limited, in which case u may
 * rise but not fall (spec 8-12: an idle application is not congestion).
 */
void oscar_law_step(const struct oscar_law_cfg *c, const struct dcc_bls_out *b,
		    u32 u, bool app_limited, struct oscar_decision *d);

/* r = u * mu, bytes/s */
u64 oscar_rate(const struct oscar_law_cfg *c, u32 u);

/* w = min(u * D_target * mu, BDP_base), bytes (min, not max: see .c) */
u64 oscar_cwnd_bytes(const struct oscar_law_cfg *c, u32 u);

#endif /* _DCC_OSCAR_H */
