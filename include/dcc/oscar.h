/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OSCAR's per-ACK core (Zhang et al., NSDI'26, Algorithms 1 and 2), plain
 * C, in nanoseconds.  tcp_oscar.ko, the unit tests (selftests/unit/
 * test_oscar_law.c, through the shared bottleneck model
 * selftests/unit/model.c), the fuzzer (fuzz_oscar.c) and the
 * callgrind bench (bench_oscar.c) all call oscar_on_ack(); the theory is
 * in modules/oscar/tcp_oscar.c, the steps in modules/oscar/oscar_law.c.
 *
 * Per ACK (oscar_on_ack, the shape of tcp_bbr's bbr_main), inline here
 * (oscar_on_ack_fast), no division, no call:
 *   oscar_sample_usable()	first-window and invalid samples join no batch
 *   oscar_count_app_limited()	app-limited samples of the open batch
 *   oscar_batch_push()		one BLS point (Alg. 1) of the open batch,
 *				within the bounds fixed when it opened
 * and, for the ACK that begins a batch after a reset, falls outside its
 * bounds or closes it, in oscar_law.c (oscar_on_ack_slow):
 *   oscar_batch_add()		the BLS's full step (dcc_bls_add)
 *   oscar_on_batch()		a batch closed: Alg. 2's step, app-limited hold
 *   oscar_batch_open()		the next batch's bounds: staleness limit,
 *				shift, tau, min_samples
 *   oscar_decide()		pacing rate u * mu and window
 *				min(u * D_target * mu, mu * (RTT_base + eps))
 * u moves only when a batch closes, so the decision is made then and
 * stands in between (dcc_decision.changed).  What the core cannot do
 * itself -- refresh the shared base RTT and fold a batch's rate into the
 * shared mu estimate, both kernel lookups -- it asks of its caller with
 * OSCAR_D_BATCH, once per batch, never per ACK; if that moves the config,
 * oscar_on_refresh() makes the decision and the open batch's bounds again.
 *
 * Units and fixed-point scales (ranges: RTT 1 us .. 1 s, mu 1 Mbit/s ..
 * 800 Gbit/s = 1.25e5 .. 1e11 B/s < 2^37):
 *   times: ns.  rtt, delay <= 1e9 (dcc_sample clamps rtt_ns to 1 s) < 2^30;
 *	RTT_base, RTT_ref <= 1e9 (u32); D_target = RTT_base + RTT_ref *
 *	(dt_pct - 100) / 100 <= 1e10 (u64); tau = RTT_base * tau_pct / 100
 *	in [100 ns, 2 s] (u32); eps, delta <= 65535 us = 6.6e7 ns (u32);
 *	U_AI * RTT_base / RTT_ref <= 2^17 * 2^30 (u64); staleness limit <= U32_MAX ns
 *	(4.29 s, see oscar_batch_open()).
 *   u, u_w, u_r, U_AI, U_HAI, u_min: Q20 share of mu (OSCAR_U_ONE = 1.0);
 *	u in [u_min, 1] fits 21 bits; u_w, u_r are computed from rates
 *	clamped to 2 mu, hence <= 2^21.
 *   gradient: Q16 (BLS), clamped to >= -0.9 (OSCAR_GRAD_FLOOR_Q16).
 *   rates: bytes/s (u64).  r = mu * u >> 20 < 2^37 * 2^20 = 2^57.
 *   windows: bytes.  BDP = mu * RTT_base / 1e9 <= 1e11 B; u D_target mu
 *	<= 1e12 B; both through dcc_mul_div (128-bit product, no overflow).
 *   u_w = inflight / (delay * mu): inflight <= 2^24 pkts * 2^16 B = 2^40 B
 *	(BLS caps), times 1e9 < 2^30: 2^70 in dcc_mul_div's 128 bits; a
 *	quotient above 2^64 saturates and is clamped to 2 mu like any other.
 *   u_r = rate / ((1 + g) * mu): rate * 2^16 / (2^16 + g), 2^16 + g >=
 *	6554: 128-bit product again.
 *   ratio: min(rate, 2 mu) * 2^20 / mu <= 2^21.
 *   BLS (include/dcc/bls.h) in ns: x = send offset >> shift <= 2^22,
 *	y = delay - y0 (>> shift) <= 2^28.  The shift is chosen per batch so
 *	that the staleness limit (the longest span a batch may have) fits x,
 *	and is at least OSCAR_BLS_SHIFT_MIN = 2 so that any delay excursion up
 *	to 2^30 ns (1.07 s > the 1 s RTT bound) fits y: at shift 0 a ns batch
 *	would clamp excursions above 2^28 ns = 268 ms.  Time resolution inside
 *	a batch is 2^shift ns: 4 ns for tau <= ~1 ms, at most 1.02 us (shift
 *	10, a 4.29 s staleness limit).
 *   app-limited count: u16, saturating (a batch holds <= 4096 points).
 */
#ifndef _DCC_OSCAR_H
#define _DCC_OSCAR_H

#include "fixp.h"
#include "bls.h"
#include "sample.h"

#define OSCAR_U_SHIFT 20
#define OSCAR_U_ONE (1U << OSCAR_U_SHIFT)
#define OSCAR_PPM_TO_U(ppm) ((u32)(((u64)(ppm) << OSCAR_U_SHIFT) / 1000000))
/*
 * Samples (ACKs) a batch needs before it may close.  Alg. 1 says 3 ("to
 * avoid tiny denominators"); with software timestamps a slow flow's 3-sample
 * batch gives a noisy rate, and min(u_w, u_r) when decelerating turns that
 * noise into a downward bias that traps slow flows (8-flow incast under
 * +-300 us noise: Jain 0.74 with 3, 0.99 with 16, in test_oscar_law; the
 * same trap in the VM).  16 leaves fast flows' batches at tau and stretches
 * slow flows' to 16 ACKs.  Module parameter min_samples; 3 = paper.
 */
#define OSCAR_MIN_SAMPLES_DEFAULT 16

/* gradient floor -0.9 in Q16 (artifact): at most a 10x rate increase */
#define OSCAR_GRAD_FLOOR_Q16 (-58982)

/* Empty-queue margin eps when not set: max(2 us, RTT_base / 12). */
#define OSCAR_EPS_MIN_NS 2000U
/* BLS shift floor: y excursions up to 2^(28+2) ns fit (see above). */
#define OSCAR_BLS_SHIFT_MIN 2
/*
 * RTT_ref is used by flows whose RTT_base is at most this many times it
 * (oscar_cfg_resolve()); so U_AI's RTT_base / RTT_ref scaling is <= it.
 */
#define OSCAR_REF_SPAN 8
/* RTT_base bounds, ns: 1 ns .. 1 s (the parameter's range is 1 us .. 1 s) */
#define OSCAR_BASE_MAX_NS 1000000000U

/*
 * The module parameters a socket runs with, converted once to the core's
 * units (tcp_oscar.c publishes one immutable copy per parameter write; a
 * socket keeps a pointer to the copy current at its init).
 */
struct oscar_params {
	u32 u_ai;	/* U_AI, Q20 */
	u32 u_hai;	/* U_HAI, Q20 */
	u32 u_min;	/* u floor, Q20, >= 1 */
	u32 eps_ns;	/* HAI margin: delay <= base + eps is an empty queue;
			 * 0 = max(OSCAR_EPS_MIN_NS, RTT_base / 12)
			 */
	u32 hyst_ns;	/* delta: accelerate iff delay + delta < D_target */
	u16 dt_pct;	/* D_target, % of RTT_base (101..1000) */
	u8 tau_pct;	/* tau, % of RTT_base (10..200) */
	u8 min_samples;	/* points a batch needs to close (3..255) */
	u16 hmi_pct;	/* empty queue: u grows by at least hmi_pct % of
			 * itself per batch (0..1000; 0 = the paper's
			 * additive U_HAI only)
			 */
	u8 refill;	/* refill after a drain: 0 off, 1 on, 2 also after an
			 * armed empty run (oscar_refill_due())
			 */
	u32 start_u;	/* u at a flow's start, Q20; 0 = 1, line rate
			 * (the paper); clamped to [u_min, 1]
			 */
};

/*
 * One socket's configuration: the parameters and the three inputs that
 * vary per socket: mu, RTT_base and the reference RTT the queue target is
 * scaled from.  Resolved by oscar_cfg_resolve() at init and again only
 * when an input changes (the glue's per-batch refresh); 24 bytes, so the
 * kernel keeps it in icsk_ca_priv next to the state.  D_target, eps and
 * tau are one multiply and a division by a constant each and are derived
 * where used (oscar_dt_ns(), oscar_hai_ns(), oscar_tau_ns()).
 */
struct oscar_cfg {
	const struct oscar_params *p;
	u64 mu_bytes_ps;	/* bottleneck (line) rate mu, bytes/s */
	u32 base_ns;		/* RTT_base, 1 .. OSCAR_BASE_MAX_NS */
	u32 ref_ns;		/* RTT_ref, 1 .. base_ns: D_target =
				 * RTT_base + (dt_pct - 100) % of RTT_ref
				 * (= RTT_base: the paper's dt_pct % of it)
				 */
};

/*
 * Per-socket state, 80 bytes; zero-filled memory is "not initialised".
 * The open batch's tau and min_samples are kept in the BLS (push_tau,
 * push_min_n), in room its 64 bytes had spare.
 */
struct oscar_core {
	struct dcc_bls bls;	/* Alg. 1 batch sums (64 B) */
	u32 u;			/* unified ratio, Q20 */
	u32 stale_ns;		/* open batch: span beyond which it is stale */
	u32 last_delay_ns;	/* mean delay of the last closed batch */
	u16 app_lim;		/* app-limited samples in the open batch */
	u8 shift;		/* open batch: BLS shift */
	u8 flags;		/* OSCAR_S_* */
};

#define OSCAR_S_INIT	0x1	/* oscar_core_init() ran */
#define OSCAR_S_OPEN	0x2	/* the open batch's bounds are set: stale_ns,
				 * shift, and tau and min_samples in the BLS
				 */
#define OSCAR_S_START	0x4	/* start phase: u doubles below D_target */
#define OSCAR_S_REFILL	0x8	/* refill: the queue drained away; u doubles
				 * its batch's rate per empty batch
				 */

/*
 * Batches that saw a queue that stood (delay above RTT_base + 2 eps) since
 * the last that found it empty (at most RTT_base + eps), up to
 * OSCAR_QUEUED_MAX, in flags' OSCAR_S_QUEUED bits; a refill starts at the
 * first empty batch after OSCAR_QUEUED_MIN of them.  From an empty batch
 * on (OSCAR_S_EMPTYRUN set) the same bits count the empty batches in a
 * row, from 1 if at least OSCAR_RUN_ARM batches saw a queue before them
 * (0: disarmed), and with refill = 2 the OSCAR_EMPTY_RUN-th starts a
 * refill too (oscar_count_queued(), oscar_refill_due()).
 */
#define OSCAR_S_QUEUED_SHIFT 4
#define OSCAR_S_QUEUED	(0x7 << OSCAR_S_QUEUED_SHIFT)
#define OSCAR_S_EMPTYRUN 0x80
#define OSCAR_QUEUED_MAX 7
#define OSCAR_QUEUED_MIN 6
#define OSCAR_RUN_ARM 3
#define OSCAR_EMPTY_RUN 7

/* Samples an empty-queue batch needs in the refill (Alg. 1's minimum). */
#define OSCAR_REFILL_SAMPLES 3

/* dcc_decision.flags */
#define OSCAR_D_BATCH	0x1	/* a batch closed (struct oscar_batch valid):
				 * refresh the shared inputs now
				 */

enum oscar_branch {
	OSCAR_HAI = 0,		/* empty queue: hyper additive increase */
	OSCAR_ACCEL = 1,	/* delay < D_target: max(u_w, u_r) + U_AI */
	OSCAR_DECEL = 2,	/* delay >= D_target: min(u_w, u_r) + U_AI */
	OSCAR_REFILL = 3,	/* empty queue in the refill: HAI, and u at
				 * least twice the batch's send rate
				 */
};

/* What the flow is doing besides the law (oscar_law_step()'s @phase). */
enum oscar_phase {
	OSCAR_P_LAW = 0,	/* Algorithm 2 as published */
	OSCAR_P_START,		/* start phase (OSCAR_S_START) */
	OSCAR_P_REFILL,		/* refill (OSCAR_S_REFILL) */
};

/* One per-batch step of Algorithm 2. */
struct oscar_step {
	u32 u;		/* new unified ratio, Q20 */
	u32 u_w;	/* <delay, window> loop, Q20 (0 in HAI) */
	u32 u_r;	/* <gradient, rate> loop, Q20 (0 in HAI) */
	u8 branch;	/* enum oscar_branch */
	bool held;	/* app-limited batch: a decrease was not applied */
};

/* What oscar_on_ack() reports when OSCAR_D_BATCH is set (caller's stack). */
struct oscar_batch {
	struct dcc_bls_out bls;	/* the closed batch (ns, bytes, bytes/s) */
	struct oscar_step step;	/* the law's decision on it */
	bool app_limited;	/* most of its samples were app-limited: its
				 * rate is no estimate of mu
				 */
};

/*
 * Resolve @c from @p, mu, RTT_base (clamped to 1 .. OSCAR_BASE_MAX_NS) and
 * RTT_ref (clamped to 1 .. RTT_base; 0 = RTT_base).
 */
void oscar_cfg_resolve(struct oscar_cfg *c, const struct oscar_params *p,
		       u64 mu_bytes_ps, u64 base_ns, u64 ref_ns);

/*
 * D_target = RTT_base + the target queue, (dt_pct - 100) % of RTT_ref, ns:
 * dt_pct % of RTT_base when RTT_ref = RTT_base (tcp_oscar.c: the shared
 * queue target).  ref <= 1e9, dt_pct - 100 <= 900: < 2^40.
 */
static inline u64 oscar_dt_ns(const struct oscar_cfg *c)
{
	return c->base_ns + div_u64((u64)c->ref_ns * (c->p->dt_pct - 100), 100);
}

/* tau, ns: tau_pct % of RTT_base, >= 2; base * 200 <= 2e11, tau <= 2e9 */
static inline u32 oscar_tau_ns(const struct oscar_cfg *c)
{
	return max_t(u32, 2, (u32)div_u64((u64)c->base_ns * c->p->tau_pct, 100));
}

/*
 * Points a batch needs to close: min_samples (Alg. 1: 3; see
 * OSCAR_MIN_SAMPLES_DEFAULT), OSCAR_REFILL_SAMPLES in the refill
 * (oscar_phase_of()).  Fixed for a batch: the flags change when one closes.
 */
static inline u32 oscar_min_samples(const struct oscar_core *st,
				    const struct oscar_cfg *c)
{
	return st->flags & OSCAR_S_REFILL ? OSCAR_REFILL_SAMPLES :
					    c->p->min_samples;
}

/* Start a flow: u = p->start_u (0: 1, line rate, 4.2), empty batch. */
void oscar_core_init(struct oscar_core *st, const struct oscar_params *p);

/*
 * oscar_on_ack() for the samples oscar_on_ack_fast() leaves (oscar_law.c):
 * @d must have flags 0 and changed false.
 */
void oscar_on_ack_slow(struct oscar_core *st, const struct oscar_cfg *c,
		       const struct dcc_sample *s, struct dcc_decision *d,
		       struct oscar_batch *b);

/*
 * A packet of the initial window left while the window was still filling:
 * its inflight is a point on the 0 -> cwnd ramp, so a batch of them makes
 * u_w = inflight / (delay * mu) read about half the flow's real window,
 * and min(u_w, u_r) at a join then cuts the joiner to ~half the
 * incumbent's share, which only U_AI undoes (measured: a 34/61 Mbit/s
 * split after a join, 4 s to within 20%).  The reference-state rule
 * (4.1.2) needs the state the signal was produced with; during the ramp
 * there is none, so OSCAR's first batch starts with the first packet sent
 * after an ACK.  The flow runs at line rate with a base-BDP window
 * meanwhile, as 4.2 has it.  Samples without a usable RTT (Karn,
 * dupacks, delayed ACKs) join no batch either.
 */
static inline bool oscar_sample_usable(const struct dcc_sample *s)
{
	return !s->why && !s->first_window;
}

/* App-limited batches may raise u, not lower it: count their samples. */
static inline void oscar_count_app_limited(struct oscar_core *st,
					   const struct dcc_sample *s)
{
	if (unlikely(s->app_limited) && st->app_lim < 0xffff)	/* u16 */
		st->app_lim++;
}

/*
 * Alg. 1 for an ordinary point of the open batch, accumulated inline
 * (dcc_bls_push()) under the bounds oscar_batch_open() fixed for it: the
 * staleness limit and shift (the limit also keeps x in range), and the
 * tau and min_samples it gave the BLS.  False, and nothing done, for any
 * other point.
 */
static inline bool oscar_batch_push(struct oscar_core *st,
				    const struct dcc_sample *s)
{
	struct dcc_bls_sample bs = {
		.send_ts = s->tx_ns,
		.delay = s->rtt_ns,
		.pkts = s->acked,
		.infl = s->infl_pkts,
	};

	return dcc_bls_push(&st->bls, &bs, st->stale_ns, st->shift);
}

/*
 * The common ACK, inline: a test of the sample, the app-limited count and
 * the BLS's few adds and multiplies; no division, no call.  True when
 * that was all (the sample is unusable, or an ordinary point of the open
 * batch): the decision stands.  False: oscar_on_ack_slow() must see it.
 */
static inline bool oscar_on_ack_fast(struct oscar_core *st,
				     const struct dcc_sample *s)
{
	if (!oscar_sample_usable(s))
		return true;
	oscar_count_app_limited(st, s);
	/*
	 * A batch the BLS has begun is open (OSCAR_S_OPEN): a reset clears
	 * both, and dcc_bls_push() takes no point of a reset BLS.
	 */
	return oscar_batch_push(st, s);
}

/*
 * One ACK: @s is the neutral sample (ns).  When a batch closes, u moves
 * and @d gets the new pacing rate and window (d->changed) and
 * OSCAR_D_BATCH, and @b the batch; on every other ACK the decision stands
 * (d->changed false, rate and window untouched) and only the batch's sums
 * move, inline (oscar_on_ack_fast()).
 */
static inline void oscar_on_ack(struct oscar_core *st, const struct oscar_cfg *c,
				const struct dcc_sample *s,
				struct dcc_decision *d, struct oscar_batch *b)
{
	d->flags = 0;
	d->changed = false;
	if (!oscar_on_ack_fast(st, s))
		oscar_on_ack_slow(st, c, s, d, b);
}

/*
 * The glue's refresh moved the config (mu, RTT_base or RTT_ref) right
 * after a batch closed: the batch that just opened takes its bounds from
 * the new config (@mss: the ACK's), and @d gets the decision under it.
 */
void oscar_on_refresh(struct oscar_core *st, const struct oscar_cfg *c,
		      u32 mss, struct dcc_decision *d);

/* RTO: the open batch spans the stall; forget it (u is kept). */
void oscar_on_rto(struct oscar_core *st);

/* Restart after idle: no batch may span the gap (u is kept). */
void oscar_on_idle_restart(struct oscar_core *st);

/* Rate and window for the current u under @c (idempotent). */
void oscar_decide(const struct oscar_core *st, const struct oscar_cfg *c,
		  struct dcc_decision *d);

/* Alg. 2 lines 4-13 on one closed batch; exposed for the unit tests. */
void oscar_law_step(const struct oscar_cfg *c, const struct dcc_bls_out *b,
		    u32 u, bool app_limited, enum oscar_phase phase,
		    struct oscar_step *d);

/* r = u * mu, bytes/s */
u64 oscar_rate(const struct oscar_cfg *c, u32 u);

/* w = min(u * D_target * mu, mu * (RTT_base + eps)), bytes (see .c) */
u64 oscar_cwnd_bytes(const struct oscar_cfg *c, u32 u);

#endif /* _DCC_OSCAR_H */
