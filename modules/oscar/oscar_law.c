// SPDX-License-Identifier: GPL-2.0
/*
 * OSCAR's per-ACK core, plain C, nanoseconds: Algorithm 1 (batching) and
 * Algorithm 2 (the per-batch law) and every per-ACK policy around them.
 * See include/dcc/oscar.h for the units, scales and overflow bounds and
 * modules/oscar/tcp_oscar.c for the theory.  No kernel call here: the
 * kernel glue, the unit-test model, the fuzzer and the bench all run this
 * file as is.
 */
#include "dcc/oscar.h"

/*
 * eps: the p->eps_ns margin, or max(OSCAR_EPS_MIN_NS, RTT_ref / 12): the
 * paper's RTT_base / 12 where RTT_ref = RTT_base, and one margin for
 * near and far paths under the shared queue target (tcp_oscar.c).
 */
static u32 oscar_eps_ns(const struct oscar_params *p, u32 ref_ns)
{
	return p->eps_ns ? p->eps_ns : max_t(u32, OSCAR_EPS_MIN_NS, ref_ns / 12);
}

/*
 * RTT_ref applies to paths up to OSCAR_REF_SPAN times the nearest one; a
 * flow on a longer path (a WAN flow next to datacenter ones, or any flow
 * minutes after a test on a near path) keeps the paper's target, scaled
 * from its own RTT_base.  Within the span, RTT_ref is clamped to [lo,
 * RTT_base].  With eps given (p->eps_ns), lo
 * keeps the target queue, (dt_pct - 100) % of RTT_ref, at least twice
 * eps, so that every flow has delays between an empty queue (RTT_base +
 * eps) and D_target to accelerate in; never above RTT_base (the paper's
 * target, whatever eps).  An auto eps scales with RTT_ref like the target
 * queue: no bound needed.  eps <= 6.6e7: 2 eps * 100 < 2^34.
 */
void oscar_cfg_resolve(struct oscar_cfg *c, const struct oscar_params *p,
		       u64 mu_bytes_ps, u64 base_ns, u64 ref_ns)
{
	u32 base = (u32)clamp_val(base_ns, 1, (u64)OSCAR_BASE_MAX_NS);
	u32 q = p->dt_pct - 100;	/* >= 1 */
	/* rounded up: the floor in oscar_dt_ns() still leaves >= 2 eps */
	u64 lo = div_u64(2ULL * p->eps_ns * 100 + q - 1, q);

	c->p = p;
	c->mu_bytes_ps = mu_bytes_ps;
	c->base_ns = base;
	if (!ref_ns || ref_ns * OSCAR_REF_SPAN < base)
		ref_ns = base;	/* no nearer path, or none within the span */
	c->ref_ns = (u32)clamp_val(ref_ns, min_t(u64, max_t(u64, lo, 1), base), (u64)base);
}

/* RTT_base + eps: a batch delay at or below it means an empty queue, ns */
static u64 oscar_hai_ns(const struct oscar_cfg *c)
{
	return (u64)c->base_ns + oscar_eps_ns(c->p, c->ref_ns);
}

u64 oscar_rate(const struct oscar_cfg *c, u32 u)
{
	/* mu < 2^37, u <= 2^20: product < 2^57 */
	return (c->mu_bytes_ps * u) >> OSCAR_U_SHIFT;
}

u64 oscar_cwnd_bytes(const struct oscar_cfg *c, u32 u)
{
	u64 cap = dcc_rate_time_bytes(c->mu_bytes_ps, oscar_hai_ns(c),
				      DCC_NSEC_PER_SEC);
	u64 w = dcc_rate_time_bytes(oscar_rate(c, u), oscar_dt_ns(c),
				    DCC_NSEC_PER_SEC);

	/*
	 * Alg. 2 line 12 prints max(), but the paper's text says the window
	 * is never set above the base BDP ("would not increase throughput but
	 * only increase delay"), the artifact uses min(), and a 200-flow
	 * incast converging to a 230 KB queue (Fig. 20) is impossible with a
	 * per-flow floor of one BDP.  So: min.
	 *
	 * The cap is the BDP at RTT_base + eps, the delay the law itself
	 * calls an empty queue (oscar_hai_ns()), not at RTT_base: RTT_base is
	 * the minimum RTT (with RX stamps, without the receiving host's
	 * delay), while the ACK clock's loop carries the path's and the
	 * hosts' jitter, so a window of mu * RTT_base left a lone flow at
	 * RTT_base / loop RTT of the link (89.8-93% in the testbed).  The eps
	 * of window it adds queues at most eps, the margin the law already
	 * reads as "no queue" (tcp_oscar.c: differences from the paper).
	 */
	return min(w, cap);
}

/* rate (bytes/s) -> share of mu in Q20; rate is clamped to 2 * mu first */
static u32 oscar_ratio(const struct oscar_cfg *c, u64 rate_bytes_ps)
{
	rate_bytes_ps = min(rate_bytes_ps, 2 * c->mu_bytes_ps);
	/* <= 2^38 * 2^20 / mu: fits; result <= 2^21 */
	return (u32)dcc_mul_div(rate_bytes_ps, OSCAR_U_ONE, c->mu_bytes_ps);
}

/*
 * The refill (oscar_on_batch() starts it): an empty batch doubles the rate
 * that batch was sent at, its reference state (4.1.2), not u itself.  The
 * batches that close in the RTT after a step were sent before it; doubling
 * u on each would compound to 8x per round trip at tau = RTT_base / 2,
 * doubling their rate gives 2x per round trip whatever tau is, so the
 * flows overshoot the link by at most 2x when the queue comes back (two
 * long flows on a 1-BDP drop-tail buffer: 0-1 drops, 14 with u doubled,
 * test_oscar_law).  A stale batch has no rate: HAI alone.  2 mu * 2 in
 * Q20 <= 2^22.
 */
static u32 oscar_refill_step(const struct oscar_cfg *c,
			     const struct dcc_bls_out *b, u32 u,
			     struct oscar_step *d)
{
	if (!b->rate_bytes_ps)
		return u;
	d->branch = OSCAR_REFILL;
	return min(max(u, 2 * oscar_ratio(c, b->rate_bytes_ps)), OSCAR_U_ONE);
}

/*
 * U_AI per batch, scaled by RTT_base / RTT_ref (at most OSCAR_REF_SPAN
 * times: oscar_cfg_resolve() keeps RTT_ref in [RTT_base / OSCAR_REF_SPAN,
 * RTT_base], >= 1): a flow's batches are tau_pct % of its own RTT_base long, so
 * under the shared queue target a flow on a path k times the nearest one
 * closes k times fewer batches per second, and a fixed U_AI per batch left
 * it about a k-th of the others' increase per second -- the split AI
 * settles at (model, 1 and 6 ms flows started together: 0.79/0.21 of the
 * link; 0.97 Jain with the scaling).  1 when RTT_ref = RTT_base (the
 * paper).  u_ai <= 0.1 (2^17 in Q20) * 1e9 < 2^47.
 */
static u32 oscar_ai(const struct oscar_cfg *c)
{
	return (u32)div_u64((u64)c->p->u_ai * c->base_ns, c->ref_ns);
}

void oscar_law_step(const struct oscar_cfg *c, const struct dcc_bls_out *b,
		    u32 u, bool app_limited, enum oscar_phase phase,
		    struct oscar_step *d)
{
	const struct oscar_params *p = c->p;
	bool start = phase == OSCAR_P_START;
	u32 old = u;
	s32 g;

	*d = (struct oscar_step){ 0 };

	if (b->delay <= oscar_hai_ns(c)) {
		/*
		 * Alg. 2 line 4-5: the queue is empty, both signals are blind:
		 * u += U_HAI, or by pct % of itself if more: u doubles (at
		 * least) in the start phase, grows by u_hmi_pct (off by
		 * default) after it.  u <= 2^20, pct <= 1000: < 2^30.
		 */
		u32 pct = start ? max_t(u32, p->hmi_pct, 100) : p->hmi_pct;
		u32 mi = (u32)div_u64((u64)u * pct, 100);

		u = min(u + max(p->u_hai, mi), OSCAR_U_ONE);
		d->branch = OSCAR_HAI;
		if (phase == OSCAR_P_REFILL)
			u = oscar_refill_step(c, b, u, d);
	} else {
		/*
		 * line 7, <delay, window>: u_w = inflight / (delay * mu), i.e.
		 * the reference window scaled by D_target / delay, as a share
		 * of D_target * mu.  infl * 1e9 < 2^40 * 2^30: 128-bit
		 * product in dcc_mul_div (saturates, then clamped to 2 mu).
		 */
		u64 r_w = dcc_mul_div(b->infl_bytes, DCC_NSEC_PER_SEC,
				      max_t(u64, b->delay, 1));

		d->u_w = oscar_ratio(c, r_w);

		/*
		 * line 8, <gradient, rate>: u_r = rate / ((1 + g) * mu).  With
		 * g >= -0.9 the divisor 1 + g is >= 0.1 (6554 in Q16).  A
		 * stale or degenerate batch has no rate signal; the window
		 * loop stands in for it (artifact).
		 */
		if (b->grad_valid && b->rate_bytes_ps) {
			g = max_t(s32, b->grad_q16, OSCAR_GRAD_FLOOR_Q16);
			d->u_r = oscar_ratio(c, dcc_mul_div(b->rate_bytes_ps,
							    DCC_Q16_ONE, DCC_Q16_ONE + g));
		} else {
			d->u_r = d->u_w;
		}

		/* lines 9-10: the delay target decides the direction */
		if (b->delay + p->hyst_ns < oscar_dt_ns(c)) {
			u = max(d->u_w, d->u_r);
			d->branch = OSCAR_ACCEL;
		} else {
			u = min(d->u_w, d->u_r);
			d->branch = OSCAR_DECEL;
		}
		/* line 11: AI after every MIMD step, for fairness (Thm D.3) */
		u += oscar_ai(c);
		/* the start phase doubles below the target too (see init) */
		if (start && d->branch == OSCAR_ACCEL)
			u = max(u, 2 * old);
	}

	u = clamp_val(u, p->u_min, OSCAR_U_ONE);
	if (app_limited && u < old) {
		u = old;
		d->held = true;
	}
	d->u = u;
}

/* ---- per-ACK steps ------------------------------------------------------ */

static void oscar_batch_reset(struct oscar_core *st)
{
	dcc_bls_reset(&st->bls);
	st->app_lim = 0;
	st->flags &= ~OSCAR_S_OPEN;
}

/*
 * A flow starts at line rate (4.2), which a lossless fabric absorbs, or
 * at p->start_u for one that drops (start_u_ppm).  Below line rate it
 * starts in the start phase: u at least doubles on every batch whose
 * delay is below D_target (empty queue or accelerating), until the first
 * batch at or above it (the law takes over; HAI is additive again) or
 * u = 1 -- slow start's doubling, per batch, with a delay exit.  Exiting
 * at the first queue instead would leave a joiner at its start share
 * wherever others already hold the target queue (the law scales rates,
 * it does not equalise them; only U_AI does, slowly).  Only a starting
 * flow doubles: flows that find an empty queue later (after others left)
 * do not all double at once (tcp_oscar.c: differences from the paper).
 */
void oscar_core_init(struct oscar_core *st, const struct oscar_params *p)
{
	u32 u = p->start_u ? clamp_val(p->start_u, max_t(u32, p->u_min, 1),
				       OSCAR_U_ONE) : OSCAR_U_ONE;

	*st = (struct oscar_core){
		.u = u,
		.flags = OSCAR_S_INIT | (u < OSCAR_U_ONE ? OSCAR_S_START : 0),
	};
}

void oscar_on_rto(struct oscar_core *st)
{
	oscar_batch_reset(st);
}

void oscar_on_idle_restart(struct oscar_core *st)
{
	oscar_batch_reset(st);
}

/*
 * The bounds of a batch, fixed when it opens: when the last one closed
 * (oscar_on_ack_slow(); again by oscar_on_refresh() if the glue's refresh
 * then moved the config), or at the first point after a reset.  u, the
 * flags, the config and the mss are those of that moment; u and the
 * config change only between batches.  A batch older than its staleness
 * limit spans an idle gap (stale): 4 tau (artifact), or, for a flow too
 * slow to collect min_samples ACKs in 4 tau, twice the time it needs for
 * them at its current rate -- otherwise every batch of a slow flow would
 * close stale and its rate loop would never act.  The limit saturates at
 * U32_MAX ns (4.29 s); the microsecond code it replaces was bounded the
 * same way by the BLS's x range (2^22 us = 4.19 s).  The shift is the
 * smallest that lets a batch of that span fit x, and at least
 * OSCAR_BLS_SHIFT_MIN.  tau and the points the batch needs go to the BLS
 * for oscar_batch_push() (dcc_bls_push()).
 */
static void oscar_batch_open(struct oscar_core *st, const struct oscar_cfg *c,
			     u32 mss)
{
	/* 2 * 255 * 2^32 * 1e9: 128-bit product in dcc_mul_div */
	u64 need = dcc_mul_div((u64)2 * c->p->min_samples * mss,
			       DCC_NSEC_PER_SEC,
			       max_t(u64, oscar_rate(c, st->u), 1));
	u64 stale = max_t(u64, 4ULL * oscar_tau_ns(c), need);

	st->stale_ns = (u32)min_t(u64, stale, U32_MAX);
	st->shift = max_t(u8, OSCAR_BLS_SHIFT_MIN,
			  dcc_bls_shift_for(((u64)st->stale_ns + 3) / 4));
	dcc_bls_push_bounds(&st->bls, oscar_tau_ns(c), oscar_min_samples(st, c));
	st->flags |= OSCAR_S_OPEN;
}

/*
 * Alg. 1: one point (send time, RTT) of the open batch, the whole way
 * (oscar_batch_push() took the ordinary ones); true if it closed.
 */
static bool oscar_batch_add(struct oscar_core *st, const struct oscar_cfg *c,
			    const struct dcc_sample *s, struct dcc_bls_out *out)
{
	struct dcc_bls_cfg cfg;
	struct dcc_bls_sample bs = {
		.send_ts = s->tx_ns,
		.delay = s->rtt_ns,
		.pkts = s->acked,
		.infl = s->infl_pkts,
	};

	if (!(st->flags & OSCAR_S_OPEN))
		oscar_batch_open(st, c, s->mss);
	cfg = (struct dcc_bls_cfg){
		.tau = oscar_tau_ns(c),
		.stale = st->stale_ns,
		.units_per_sec = DCC_NSEC_PER_SEC,
		.min_samples = oscar_min_samples(st, c),
		.bytes_per_pkt = s->mss,
		.shift = st->shift,
	};
	return dcc_bls_add(&st->bls, &cfg, &bs, out);
}

/*
 * The refill.  A batch that finds the queue empty right after one that saw
 * it means the queue drained away: flows left, and the link has room that
 * nobody measured -- the drain lasted (D_target - RTT_base) / (1 - sum u),
 * about half an RTT, which a slow flow's batch spans with a few samples
 * among many from before it, so its gradient is diluted (model: g = -0.08
 * for a true -0.94) and the rate loop never sees the room.  U_HAI's +0.01
 * per batch then refills the link in (1 - sum u) / 0.01 batches: 45 RTT
 * after 3 of 4 flows left, not within 80 RTT after 7 of 8 (model, defaults).
 * So from that batch on, while the queue stays empty, every batch doubles
 * its own send rate (oscar_refill_step()) and closes after
 * OSCAR_REFILL_SAMPLES ACKs: an empty-queue step uses no estimate that
 * needs min_samples.  The refill ends at the first batch with a queue (the
 * law takes over with a valid gradient) or at u = 1.  It scales every
 * remaining flow alike, so their ratios stay what the law made them.
 *
 * Two guards.  The first empty batch is still a full one (min_samples): 3
 * samples can look empty under timestamp noise (tried: closing it after 3
 * made an 8-flow incast under +-30% noise unfair, Jain 0.64-0.69 in
 * test_oscar_law).  And the queue must have stood for OSCAR_QUEUED_MIN
 * batches since it was last empty (oscar_count_queued()).  Flows that start or join together
 * swing the queue from twice the target to empty every 3-5 batches for
 * tens of RTTs; a refill on each of those empty batches kept whatever
 * split the swing left, where U_HAI's equal steps even it out (guest, 4
 * flows starting together: Jain 0.78-0.91 against 0.98-1.00 without the
 * refill; join/leave's 4-flow phase 0.63-0.75 against 0.97-0.99).  A drain
 * after a queue that stood is others leaving; a drain in a swing is the
 * flows' own undershoot, which HAI handles as the paper has it.  (Gating
 * on the queue's level instead -- within half the target queue of it --
 * missed the guest's steady state, which sits below that band.)  Not in
 * the start phase, which doubles anyway.  Parameter refill (on by
 * default; what it costs after a join: tcp_oscar.c, differences from the
 * paper).
 */
static u8 oscar_queued(const struct oscar_core *st)
{
	return (st->flags & OSCAR_S_QUEUED) >> OSCAR_S_QUEUED_SHIFT;
}

/*
 * A queue that stood: a batch delay above RTT_base + 2 eps.  The window cap
 * (oscar_cwnd_bytes()) lets a lone flow keep up to eps queued, so its own
 * batches sit around RTT_base + eps and, under timestamp noise, above it
 * for six in a row now and then: counted from RTT_base + eps, that armed
 * the refill of a flow that had been alone, and the first swing of a join
 * doubled it (guest, one flow joined by three: the incumbent at 0.87 of
 * the link, then 0.39 against the joiners' 0.12-0.31 for the whole
 * 100-RTT burst).  The law's own target queue is at least 2 eps
 * (oscar_cfg_resolve()), so flows that share a queue still count.
 */
static u64 oscar_queued_ns(const struct oscar_cfg *c)
{
	return oscar_hai_ns(c) + oscar_eps_ns(c->p, c->ref_ns);
}

/*
 * Count the batches that saw a queue that stood, until one finds the queue
 * empty (RTT_base + eps); a batch in between leaves the count as it is:
 * the batch that straddles the drain is one, and resetting on it left the
 * drain's first empty batch without a count (model, one of two flows
 * leaving, 3 samples per batch: 11.5 RTT instead of 3).
 *
 * From the first empty batch on, the same bits count the empty batches in
 * a row (OSCAR_S_EMPTYRUN), if at least OSCAR_RUN_ARM batches saw a queue
 * before it (else the run stays at 0, disarmed: a flow that never saw a
 * queue, or one whose base RTT holds a standing queue, has nothing that
 * drained).  App-limited batches do not lengthen the run: their empty
 * queue is the application's.
 */
static void oscar_count_queued(struct oscar_core *st, const struct oscar_cfg *c,
			       u64 delay, bool app_limited)
{
	bool run = st->flags & OSCAR_S_EMPTYRUN;
	u8 n = oscar_queued(st);

	if (delay > oscar_queued_ns(c)) {
		n = run ? 1 : min_t(u8, n + 1, OSCAR_QUEUED_MAX);
		run = false;
	} else if (delay <= oscar_hai_ns(c)) {
		if (!run)
			n = n >= OSCAR_RUN_ARM ? 1 : 0;
		else if (n && !app_limited)
			n = min_t(u8, n + 1, OSCAR_QUEUED_MAX);
		run = true;
	}

	st->flags = (st->flags & ~(OSCAR_S_QUEUED | OSCAR_S_EMPTYRUN)) |
		    (n << OSCAR_S_QUEUED_SHIFT) | (run ? OSCAR_S_EMPTYRUN : 0);
}

/*
 * This empty batch @b starts the refill: it follows OSCAR_QUEUED_MIN
 * batches that saw the queue stand (the drain itself), or, with refill =
 * 2, it is the OSCAR_EMPTY_RUN-th empty one in a row after at least
 * OSCAR_RUN_ARM queued ones (an armed run).  The run catches the drains
 * the first rule misses: a queue that stood for fewer batches, because
 * the flows still rang from an earlier change when the others left
 * (model, 4 -> 2 -> 1 on a 1-BDP drop-tail buffer, the second leave 0-20
 * RTT after the first: 7 RTT instead of 25.5, test_oscar_law; guest,
 * join/leave's 4 -> 1: 7 (0.6-21.5) RTT instead of 71), or because a
 * burst's losses had emptied the queue for a while and it stood again
 * only for its last few batches (guest, test_oscar_burst once in CI: HAI
 * alone, 82 RTT).  Not the default: in the guest it also fires after
 * joins and leaves whose swings empty the queue for longer than the
 * model's, and the refill keeps the split it finds (join/leave's 8 -> 4
 * phase Jain 0.94 (0.90-0.95) against 0.99 (0.98-0.99), 4 flows starting
 * together 0.94 (0.89-0.99) against 0.97 (0.95-0.99); tcp_oscar.c).
 */
static bool oscar_refill_due(const struct oscar_core *st,
			     const struct oscar_cfg *c,
			     const struct oscar_batch *b)
{
	u64 empty = oscar_hai_ns(c);
	u8 n = oscar_queued(st);

	if (!c->p->refill || b->bls.delay > empty)
		return false;
	if (st->flags & OSCAR_S_EMPTYRUN)
		return c->p->refill >= 2 && n && n + 1 >= OSCAR_EMPTY_RUN &&
		       !b->app_limited;
	return st->last_delay_ns > empty && n >= OSCAR_QUEUED_MIN;
}

static enum oscar_phase oscar_phase_of(struct oscar_core *st,
				       const struct oscar_cfg *c,
				       const struct oscar_batch *b)
{
	if (st->flags & OSCAR_S_START)
		return OSCAR_P_START;
	if (oscar_refill_due(st, c, b))
		st->flags |= OSCAR_S_REFILL;
	return st->flags & OSCAR_S_REFILL ? OSCAR_P_REFILL : OSCAR_P_LAW;
}

/* One closed batch: Alg. 2 lines 4-13, held if the batch was app-limited. */
static void oscar_on_batch(struct oscar_core *st, const struct oscar_cfg *c,
			   struct oscar_batch *b)
{
	b->app_limited = st->app_lim * 2 > b->bls.samples;
	oscar_law_step(c, &b->bls, st->u, b->app_limited,
		       oscar_phase_of(st, c, b), &b->step);
	st->u = b->step.u;
	/* the start phase ends at the target delay, or at line rate */
	if (b->step.branch == OSCAR_DECEL || st->u >= OSCAR_U_ONE)
		st->flags &= ~OSCAR_S_START;
	/* the refill ends when the queue is back, or at line rate */
	if (b->step.branch == OSCAR_ACCEL || b->step.branch == OSCAR_DECEL ||
	    st->u >= OSCAR_U_ONE)
		st->flags &= ~OSCAR_S_REFILL;
	oscar_count_queued(st, c, b->bls.delay, b->app_limited);
	st->last_delay_ns = (u32)min_t(u64, b->bls.delay, U32_MAX);
	st->app_lim = 0;
}

void oscar_decide(const struct oscar_core *st, const struct oscar_cfg *c,
		  struct dcc_decision *d)
{
	d->rate_bytes_ps = oscar_rate(c, st->u);
	d->cwnd_bytes = oscar_cwnd_bytes(c, st->u);
	d->changed = true;
}

/*
 * The rest of oscar_on_ack(): a point that begins, restarts or closes a
 * batch, or falls outside it.  u moves only here, when a batch closes,
 * and so does the decision: it is made again then, and only then (and by
 * oscar_on_refresh() when the glue's refresh moves the config).  The next
 * batch opens at once, so that the ACKs that fill it, whichever way they
 * go, divide nothing.
 */
void oscar_on_ack_slow(struct oscar_core *st, const struct oscar_cfg *c,
		       const struct dcc_sample *s, struct dcc_decision *d,
		       struct oscar_batch *b)
{
	if (!oscar_batch_add(st, c, s, &b->bls))
		return;
	oscar_on_batch(st, c, b);
	oscar_batch_open(st, c, s->mss);
	d->flags |= OSCAR_D_BATCH;
	oscar_decide(st, c, d);
}

void oscar_on_refresh(struct oscar_core *st, const struct oscar_cfg *c,
		      u32 mss, struct dcc_decision *d)
{
	/* a batch that holds points keeps the bounds it began with */
	if ((st->flags & OSCAR_S_OPEN) && !st->bls.n)
		oscar_batch_open(st, c, mss);
	oscar_decide(st, c, d);
}
