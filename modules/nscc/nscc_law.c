// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC / MNSCC per-ACK control law, plain C (tcp_nscc.ko and the unit
 * tests compile this file).  Scales: include/dcc/nscc.h.  Theory and the
 * design decisions: modules/nscc/tcp_nscc.c.  Citations: [N] "Notes on
 * Network Signal Congestion Control", [M] "Congestion Control for
 * Spraying with Congested Paths", [H] the UE reference simulator
 * (uet-htsim, uec.cpp).
 *
 * nscc_on_ack() is the one per-ACK entry point, in nanoseconds on the
 * neutral sample (include/dcc/sample.h), "now" = s->rx_ns.  Its steps:
 *	nscc_count_bytes	fulfill / QA / post-QA byte counters
 *	nscc_age_md		keep the MD stamp from aliasing (32-bit ns)
 *	nscc_median_delay	MNSCC: median of the last H raw delays
 *	nscc_is_mark		CE echo, or a delay-derived mark
 *	nscc_update_delay	the trust-biased EWMA
 *	nscc_on_loss		a NACK: EWMA, cwnd -= lost bytes, QA trigger
 *	nscc_quick_adapt	once per base RTT + target: reset if starved
 *	nscc_quadrant		proportional / fair / MD / steer
 *	nscc_fulfill		apply the batched credit, eta per network RTT
 *	nscc_decision_holds	does the decision in force still stand?
 *	nscc_decide_at		if not: pacing rate and window for the glue
 * The configuration it reads (struct nscc_cfg) is resolved by
 * nscc_resolve() at socket init and when its inputs change, never per ACK.
 */
#include "dcc/median.h"
#include "dcc/nscc.h"

/*
 * The rare paths (quick adapt, a loss, a changed decision) stay out of
 * nscc_on_ack() in the kernel, whose frame and registers they would
 * otherwise burden on every ACK.  The userspace build (tests, bench) has
 * no noinline and lets the compiler choose (the bench counts the same).
 */
#ifndef noinline
#define noinline
#endif

const struct nscc_params nscc_params_default = {
	.nic_mbps = 0,			/* the egress NIC's, else UE's reference */
	.network_rtt_us = 0,		/* per flow: its base RTT (ours) */
	.target_us = 0,
	.target_pct = 100,		/* no trimming: 1.0 network RTT [H] */
	.prop_gain_x100 = 400,		/* alpha = 4 MSS scale_a / rtt */
	.fi_x100 = 500,			/* fi = 5 MSS scale_a */
	.eta_x100 = 15,			/* eta = 0.15 MSS scale_a */
	.fi_scale_x100 = 25,		/* fi_scale = 0.25 scale_a */
	.fi_thresh_us = 0,		/* [H]'s 1 us at 12 us, scaled */
	.gamma_pct = 80,
	.md_floor_pct = 50,
	.delay_alpha_ppm = 12500,	/* 0.0125 */
	.qa_gate = 3,			/* maxwnd / 8 */
	.qa_thresh_pct = 400,		/* 4 x target */
	.fulfill_bytes = 8 * NSCC_MTU_REF,
	.maxwnd_pct = 150,
	.init_cwnd_pct = 100,		/* start at maxwnd, as [H] and [M] */
	.noecn_mark_pct = 125,		/* ours: tcp_nscc.c */
	.ecn_backstop_pct = 150,
	.ecn_backstop_mode = NSCC_BACKSTOP_OFF,	/* UE: see nscc.h */
	.median_hmax = NSCC_MED_HMAX,
	.median_ewma = 0,
	.median_lower = 1,
	.cwnd_limited_only = 1,
	.pacing_gain_pct = 120,		/* ours: [H] does not pace */
};

/* The emergency EWMA branch's gain is hard-wired in [H]: 0.0125 per ACK. */
#define NSCC_EWMA_EMERG_PPM	12500
#define NSCC_LOSS_EWMA_MAX	8	/* EWMA updates per lossy ACK (ours) */

static u32 sat_add32(u32 a, u64 b)
{
	u64 r = (u64)a + b;

	return r > U32_MAX ? U32_MAX : (u32)r;
}

/* a + b saturated, both u32: the carry is the overflow */
static u32 sat_add_u32(u32 a, u32 b)
{
	u32 r = a + b;

	return r < a ? U32_MAX : r;
}

static u32 sat_sub32(u32 a, u32 b)
{
	return a > b ? a - b : 0;
}

static u32 clamp_u64_u32(u64 v)
{
	return v > U32_MAX ? U32_MAX : (u32)v;
}

/* a * b >> shift for a 128-bit product, saturated to u64 */
static u64 mul_shr_sat(u64 a, u64 b, unsigned int shift)
{
	dcc_u128 p = ((dcc_u128)a * b) >> shift;

	return p > U64_MAX ? U64_MAX : (u64)p;
}

/* pct of v, u32 result saturated (v, pct are u32) */
static u32 pct_of(u32 v, u32 pct)
{
	return clamp_u64_u32((u64)v * pct / 100);
}

/* bytes per packet of a sample (>= 1 by sample.h; never divide by 0) */
static u32 nscc_mss(const struct dcc_sample *s)
{
	return max_t(u32, s->mss, 1);
}

/* a u32 duration in ns, clamped to [1 us, 1 s] */
static u32 nscc_dur_ns(u64 ns)
{
	return (u32)clamp_t(u64, ns, 1000, DCC_SAMPLE_RTT_MAX_NS);
}

/*
 * The delay EWMA's gain per acked byte, Q48, for a network BDP of @nbdp
 * bytes.  [H] applies its gain (delay_alpha, 0.0125) once per ACK, and
 * its ACKs each carry an MSS_ref packet: ref_bdp / MSS_ref = 36.6 ACKs
 * per RTT at the reference network, a time constant of 80 ACKs = 2.2
 * RTTs.  A Linux flow at another BDP or MSS sends another number of ACKs
 * per RTT (at the testbed's 100 Mbit/s, 10 ms and 1448-byte segments, 86),
 * so a per-ACK gain would make the EWMA that much faster or slower in
 * RTTs, unlike every other gain here (scaled by the BDP).  So the gain is
 * spread over the bytes the reference RTT carries:
 *	gain per byte = delay_alpha * ref_bdp / (MSS_ref * nbdp),
 * and each ACK applies it times the bytes it acked (nscc_update_delay()):
 * the reference's per-RTT decay at any BDP, MSS or ACK aggregation.
 * alpha_ppm * ref_bdp <= 1.5e11, times 2^48 in 128 bits, over 4.1e9: the
 * first quotient < 36.7 * 2^48 < 2^54; nbdp >= 1.
 */
static u64 nscc_ewma_per_byte(u32 alpha_ppm, u64 nbdp)
{
	u64 ref = dcc_mul_div((u64)alpha_ppm * NSCC_REF_BDP, 1ULL << 48,
			      1000000ULL * NSCC_MSS_REF);

	return div64_u64(ref, max_t(u64, nbdp, 1));
}

/*
 * The per-RTT increases (alpha's step and fi, applied per acked byte over
 * cwnd: once per the flow's own RTT) times base / nrtt, the ratio clamped
 * to [1/8, 8]: per second of wall clock every flow then gains the same,
 * whatever its base RTT.  [H] gives every flow the same per-RTT steps (one
 * fabric, one RTT), so a flow of twice the base RTT grows half as fast
 * and settles at a smaller share.  Identity when base = nrtt (one RTT for
 * every flow, or network_rtt_us 0: fi then already scales with the own
 * BDP, alpha does not).  Measured in the packet model (test_nscc_law,
 * 4 + 4 flows of base RTT 10 and 20/40 ms, network_rtt_us 10000, target
 * 5 ms): the long class's share of the link 0.27 -> 0.37 (NSCC, 2x),
 * 0.13 -> 0.30 (4x).  alpha < 2^50 and fi < 2^40 times <= 8: no overflow.
 */
static void nscc_rtt_fair(struct nscc_cfg *c, u32 base, u32 nrtt)
{
	u64 b = clamp_t(u64, base, nrtt / 8, 8ULL * nrtt);

	c->alpha_q40 = dcc_mul_div(c->alpha_q40, b, nrtt);
	c->fi = dcc_mul_div(c->fi, b, nrtt);
}

void nscc_resolve(const struct nscc_params *p, u64 base_ns, u32 mss,
		  bool ecn, bool mnscc, struct nscc_cfg *c)
{
	nscc_resolve_nic(p, 0, base_ns, mss, ecn, mnscc, c);
}

/*
 * The host link rate sets the BDP, maxwnd and every gain.  UE configures
 * it; a reference of 100 Gbit/s on a 25 Gbit/s host gave windows of 6
 * BDPs and gains four times too large, a queue of 5 BDP at 8 us (userspace
 * model, the module's defaults), so the glue passes the egress NIC's
 * speed where it knows one (dcc_egress_speed_mbps()).
 */
void nscc_resolve_nic(const struct nscc_params *p, u32 nic_mbps, u64 base_ns,
		      u32 mss, bool ecn, bool mnscc, struct nscc_cfg *c)
{
	u32 mbps = p->nic_mbps ? p->nic_mbps : nic_mbps ? nic_mbps : NSCC_NIC_REF_MBPS;
	u64 rate = min_t(u64, (u64)mbps * DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);	/* < 2^37 */
	u32 base = nscc_dur_ns(base_ns ? base_ns : 1000000);	/* unknown: 1 ms */
	u32 nrtt = p->network_rtt_us ? nscc_dur_ns(dcc_us_to_ns(p->network_rtt_us)) : base;
	/* network BDP, <= 1e11 B (800 Gbit/s * 1 s) */
	u64 nbdp = dcc_rate_time_bytes(rate, nrtt, DCC_NSEC_PER_SEC);
	u64 bdp = dcc_rate_time_bytes(rate, base, DCC_NSEC_PER_SEC);
	u32 mark_pct;

	mss = mss ? mss : 1;
	*c = (struct nscc_cfg){ 0 };
	c->rate_bytes_ps = rate;
	c->base_ns = base;
	c->nrtt_ns = nrtt;
	/*
	 * alpha [H]: 4 * MSS_ref * scale_a * scale_b / target, with
	 * scale_b = target / 12 us, i.e. 4 * MSS_ref * scale_a / 12 us: a
	 * per-RTT proportional step alpha * (target - d) that is 4 MSS_ref
	 * per reference RTT of missing queue.  The "12 us" is the reference
	 * RTT at which [H] derived it; we use the network RTT instead (the
	 * same at the reference network), so that the step stays a fixed
	 * fraction of the BDP per RTT of missing queue at any RTT (at 10 ms,
	 * 12 us would make the step 800 x the BDP).  scale_a / nrtt =
	 * rate / ref_bdp, so alpha only depends on the rate:
	 *	alpha = gain * MSS_ref * rate / ref_bdp  (bytes per s of delay)
	 * Q40 bytes/ns: rate * gain * 4096 (< 2^37 * 2^14 * 2^12 = 2^63)
	 * times 2^40 in 128 bits, divided by 100 * ref_bdp * 1e9 = 1.5e16:
	 * < 2^50.
	 */
	c->alpha_q40 = dcc_mul_div(rate * p->prop_gain_x100 * NSCC_MSS_REF, 1ULL << 40,
				   100ULL * NSCC_REF_BDP * DCC_NSEC_PER_SEC);
	/* fi, eta: x100 * MSS_ref * nbdp / ref_bdp; nbdp * 2^26 < 2^63 */
	c->fi = dcc_mul_div(nbdp, (u64)p->fi_x100 * NSCC_MSS_REF,
			    100ULL * NSCC_REF_BDP);
	nscc_rtt_fair(c, base, nrtt);
	c->eta = dcc_mul_div(nbdp, (u64)p->eta_x100 * NSCC_MSS_REF,
			     100ULL * NSCC_REF_BDP);
	/* fi_scale Q16: x100/100 * nbdp / ref_bdp; nbdp << 16 < 2^53 */
	c->fi_scale_q16 = dcc_mul_div(nbdp << 16, p->fi_scale_x100,
				      100ULL * NSCC_REF_BDP);

	c->mss = mss;
	c->min_cwnd = clamp_u64_u32(2ULL * mss);	/* DCC_MIN_CWND packets */
	c->maxwnd = clamp_u64_u32(dcc_mul_div(bdp, p->maxwnd_pct, 100));
	c->maxwnd = max(c->maxwnd, c->min_cwnd);
	/* [H] starts at maxwnd (line rate); 0 = Linux's IW10 */
	c->init_cwnd = p->init_cwnd_pct ? pct_of(c->maxwnd, p->init_cwnd_pct) :
					  clamp_u64_u32(10ULL * mss);
	c->init_cwnd = clamp_val(c->init_cwnd, c->min_cwnd, c->maxwnd);

	c->target_ns = nscc_dur_ns(p->target_us ? dcc_us_to_ns(p->target_us) :
				   (u64)nrtt * p->target_pct / 100);
	c->fi_thresh_ns = p->fi_thresh_us ? nscc_dur_ns(dcc_us_to_ns(p->fi_thresh_us)) :
					    nscc_dur_ns(nrtt / 12);
	c->qa_ns = c->base_ns + c->target_ns;		/* <= 2e9 < 2^32 */
	c->emerg_ns = clamp_u64_u32(5ULL * c->base_ns);
	c->untrusted_ns = c->base_ns / 4;
	/* <= 1e9 * 1e4 / 100 = 1e11 ns: u64 */
	c->qa_thresh_ns = (u64)c->target_ns * p->qa_thresh_pct / 100;
	c->fulfill_bytes = p->fulfill_bytes;
	mark_pct = !ecn ? p->noecn_mark_pct :
		   p->ecn_backstop_mode == NSCC_BACKSTOP_OFF ? 0 : p->ecn_backstop_pct;
	c->mark_ns = mark_pct ? max_t(u64, (u64)c->target_ns * mark_pct / 100, 1) : U64_MAX;
	/* without ECN no CE comes: the delay marks are all there is */
	c->mark_disarm = ecn && p->ecn_backstop_mode == NSCC_BACKSTOP_UNTIL_CE ?
			 NSCC_S_SAW_CE : 0;
	c->gamma_q16 = (u32)((u64)p->gamma_pct * 65536 / 100);
	c->floor_q16 = (u32)((u64)p->md_floor_pct * 65536 / 100);
	c->ewma_pb_q48 = nscc_ewma_per_byte(p->delay_alpha_ppm, nbdp);
	c->emerg_pb_q48 = nscc_ewma_per_byte(NSCC_EWMA_EMERG_PPM, nbdp);
	c->pacing_gain_pct = p->pacing_gain_pct;
	c->qa_gate = (u8)min_t(u32, p->qa_gate, 31);
	c->hmax = mnscc ? (u8)clamp_t(u32, p->median_hmax, 1, NSCC_MED_HMAX) : 0;
	c->med_full_cwnd = 2ULL * c->hmax * mss;	/* < 2^35 */
	c->median_ewma = mnscc && p->median_ewma;
	c->median_lower = p->median_lower;
	c->cwnd_limited_only = p->cwnd_limited_only;
}

static void nscc_clamp(struct nscc_state *st, const struct nscc_cfg *c)
{
	st->cwnd = clamp_val(st->cwnd, c->min_cwnd, c->maxwnd);
}

/*
 * ns since @stamp (the low 32 bits of an earlier "now"): exact below
 * 4.29 s - DCC_RX_BACK_MAX_NS, which every stamp is kept within (nscc.h:
 * clocks); 0 when now is behind the stamp (rx_ns may step back: sample.h).
 */
static u32 nscc_age(u64 now, u32 stamp)
{
	return dcc_rx_age32(now, stamp);
}

void nscc_state_init(struct nscc_state *st, const struct nscc_cfg *c,
		     u64 now_ns)
{
	*st = (struct nscc_state){ 0 };
	st->cwnd = c->init_cwnd;
	st->last_adjust = (u32)now_ns;
	st->last_dec = (u32)now_ns - c->base_ns - 1;	/* an MD may come at once */
	st->flags = NSCC_S_INITED;	/* no decision in force yet: dec_cwnd 0 */
}

/*
 * W is "cwnd in packets" [M Eq. 9], and H counts ACKs.  On Linux (one ACK
 * per MSS-sized segment with quickack) that is cwnd / mss.  W counted in
 * 4160-byte reference packets (htsim's) instead would, with 1448-byte
 * segments, shrink H to 1 (no filter) below 8 KB... 33 KB of cwnd, i.e.
 * exactly when outliers have already pushed the window down: in the
 * packet model (test_nscc_law, 1 of 4 paths +30 ms) MNSCC then collapsed
 * like NSCC.
 *
 * H = clamp((cwnd / mss) / 2, 1, hmax) without the division: H >= h
 * exactly when cwnd >= 2 h mss (floor(cwnd / mss) >= 2 h).  A window of
 * 2 hmax packets or more (the usual case) costs one compare against
 * med_full_cwnd; below it, H counts down from hmax - 1 (2 * 4 * mss <
 * 2^35 in u64).
 */
u16 nscc_median_h(const struct nscc_cfg *c, u32 cwnd)
{
	u32 h = c->hmax;

	if (cwnd >= c->med_full_cwnd)
		return (u16)h;
	while (h > 1 && cwnd < 2ULL * h * c->mss)
		h--;
	return (u16)h;
}

u32 nscc_md_keep_q16(const struct nscc_cfg *c, u32 avg_ns)
{
	u64 cut;

	if (avg_ns <= c->target_ns)
		return 65536;
	/* gamma (<= 2^16) * (avg - target) (< 2^32) < 2^48; / avg < 2^16 */
	cut = div64_u64((u64)c->gamma_q16 * (avg_ns - c->target_ns), avg_ns);
	return max_t(u32, 65536 - (u32)min_t(u64, cut, 65536), c->floor_q16);
}

/*
 * Byte counters [H processAck]: what fulfill, the QA window and the
 * post-QA ECN filter count.
 */
static void nscc_count_bytes(struct nscc_state *st, u32 b)
{
	st->received = sat_add_u32(st->received, b);
	st->achieved = sat_add_u32(st->achieved, b);
	if (unlikely(st->ignore_left))	/* only just after a QA */
		st->ignore_left = sat_sub32(st->ignore_left, b);
}

/*
 * MNSCC's window [M III-B]: the newest med_n (<= H) raw delays, in a ring
 * of NSCC_MED_HMAX slots.  A push writes the next slot and holds at most
 * H samples, the newest: exactly a sliding window whose H may change from
 * push to push (it follows cwnd), as the older samples past med_n are
 * never read again.  med_pos is a u8: 256 is a multiple of the ring size,
 * so its wrap keeps the slot order.
 */
static void nscc_med_push(struct nscc_state *st, u32 v, u32 h)
{
	st->med[st->med_pos++ & (NSCC_MED_HMAX - 1)] = v;
	st->med_n = (u8)min_t(u32, st->med_n + 1u, h);
}

/* the i-th newest sample of the ring (0 = the last pushed) */
static u32 nscc_med_at(const struct nscc_state *st, u32 i)
{
	return st->med[(st->med_pos - 1u - i) & (NSCC_MED_HMAX - 1)];
}

/* the lower median of a, b (@lower), or their mean rounded down */
static u32 nscc_med_mid(u32 a, u32 b, bool lower)
{
	u32 lo = min(a, b);

	return lower ? lo : lo + (max(a, b) - lo) / 2;	/* no overflow */
}

/*
 * Median of the window's med_n (1..4) samples.  Even windows take the
 * lower median (nearest rank, @lower: n = 4 -> the 2nd smallest) or the
 * mean of the middle two, rounded down.  Compare-exchanges, no sorting:
 * of two pairs' minima and maxima, the larger minimum and the smaller
 * maximum are the middle two of four, in either order.  A full window
 * (all four slots, in any order) is the usual case.
 */
static u32 nscc_med_get(const struct nscc_state *st, bool lower)
{
	const u32 *m = st->med;

	if (likely(st->med_n == NSCC_MED_HMAX))
		return nscc_med_mid(max(min(m[0], m[1]), min(m[2], m[3])),
				    min(max(m[0], m[1]), max(m[2], m[3])), lower);
	if (st->med_n == 3)
		return dcc_med3(nscc_med_at(st, 0), nscc_med_at(st, 1),
				nscc_med_at(st, 2));
	if (st->med_n == 2)
		return nscc_med_mid(nscc_med_at(st, 0), nscc_med_at(st, 1), lower);
	return nscc_med_at(st, 0);
}

/*
 * MNSCC's decision delay: the median of the last H raw delays ([M]
 * III-B), H = max(min(W/2, 4), 1) from cwnd; with no new sample, the
 * median of the window still held; with an empty window, the EWMA.
 */
static u32 nscc_median_delay(struct nscc_state *st, const struct nscc_cfg *c,
			     bool valid, u32 raw)
{
	if (valid)
		nscc_med_push(st, raw, nscc_median_h(c, st->cwnd));
	if (!st->med_n)
		return st->avg_ns;
	return nscc_med_get(st, c->median_lower);
}

/*
 * "skip" is the ECN echo.  A delay at or above mark_ns counts as a mark
 * too: without ECN negotiated (mark_ns = noecn_mark_pct of target) NSCC
 * would otherwise have no decrease at all, and with ECN on a path that
 * never marks (the backstop) it would grow until loss (see tcp_nscc.c).
 * The backstop is an option (ecn_backstop_mode; off by default, as in
 * UE): mode 1 ends it at the flow's first CE echo (c->mark_disarm: the
 * path marks, and UE's NSCC decides on its marks alone), mode 2 keeps it.
 * The ECN bit itself is never median-filtered ([M] filters the delay
 * signals); the delay-derived mark uses the decision delay, so MNSCC's is
 * filtered.
 */
static bool nscc_is_mark(struct nscc_state *st, const struct nscc_cfg *c,
			 bool ce, bool valid, u32 delay)
{
	if (ce) {
		st->flags |= NSCC_S_SAW_CE;
		return true;
	}
	/* mark_ns U64_MAX (none) is above every u32 delay */
	return delay >= c->mark_ns && (valid || c->hmax) &&
	       !(st->flags & c->mark_disarm);
}

/*
 * Three-case EWMA with trust bias [N 4d, H update_delay]: a high delay
 * without ECN is not trusted (it may be another path's queue, or noise), so
 * a small constant (base/4) is fed instead; a huge delay (> 5 base RTTs) is
 * always fed, with the hard-wired gain.  Each gain is per acked byte
 * (nscc_ewma_per_byte()): this ACK's is that times the @bytes it acked,
 * between 1 and 65536 (1.0) in Q16.  @d and the result are ns.
 */
static void nscc_update_delay(struct nscc_state *st, const struct nscc_cfg *c,
			      u32 d, bool skip, u32 bytes)
{
	u64 pb = c->ewma_pb_q48;
	u32 gain, avg = st->avg_ns;
	u32 sample = d;

	if (!skip && d > c->target_ns)
		sample = c->untrusted_ns;
	else if (d > c->emerg_ns)	/* (u64)d > 5 base: emerg_ns saturates */
		pb = c->emerg_pb_q48;
	/* bytes < 2^32, pb < 2^54: 128-bit product, then at most 1.0 */
	gain = (u32)clamp_val(mul_shr_sat(bytes, pb, 32), 1, 65536);
	/* sign-safe: shift magnitudes only; |diff| (< 2^32) * gain < 2^48 */
	if (sample >= avg)
		st->avg_ns = avg + (u32)(((u64)(sample - avg) * gain) >> 16);
	else
		st->avg_ns = avg - (u32)(((u64)(avg - sample) * gain) >> 16);
}

/*
 * Quick Adapt [N 5, H quick_adapt]: once per base_rtt + target of wall
 * clock (checked when an ACK arrives), if something bad happened (a loss,
 * or the ACK closing the window saw delay > qa_threshold) and the flow
 * delivered less than maxwnd >> qa_gate in the window, set cwnd to what
 * was delivered and ignore the ECN echoes of what is already in flight.
 * Returns true when this ACK must not be used further.  Out of line: on
 * most ACKs nscc_qa_due() says there is nothing to do.
 */
static noinline bool nscc_quick_adapt(struct nscc_state *st, const struct nscc_cfg *c,
				      u64 now, u32 inflight_pkts, u32 mss, bool is_loss,
				      bool skip, u32 delay, struct nscc_out *o)
{
	bool done = false;

	if (st->ignore_left && skip) {
		done = true;
		o->quadrant = NSCC_Q_IGNORED;
	} else if (!(st->flags & NSCC_S_QA_ARMED) ||
		   nscc_age(now, st->qa_start) > c->qa_ns) {
		/* a saturated achieved count is "a lot", never "too little" */
		if ((st->flags & NSCC_S_QA_ARMED) &&
		    ((st->flags & NSCC_S_TRIGGER_QA) || is_loss || delay > c->qa_thresh_ns) &&
		    st->achieved != U32_MAX && st->achieved < (c->maxwnd >> c->qa_gate)) {
			st->cwnd = max(st->achieved, c->min_cwnd);
			st->ignore_left = clamp_u64_u32((u64)inflight_pkts * mss);
			st->flags &= ~NSCC_S_TRIGGER_QA;
			done = true;
			o->qa = true;
			o->quadrant = NSCC_Q_QA;
		}
		st->achieved = 0;
		st->qa_start = (u32)now;
		st->flags |= NSCC_S_QA_ARMED;
	}
	if (done) {
		st->inc_acc = 0;
		st->received = 0;
	}
	return done;
}

/* Anything for nscc_quick_adapt() to do: post-QA ECN, or a window ended? */
static bool nscc_qa_due(const struct nscc_state *st, const struct nscc_cfg *c,
			u64 now, bool skip)
{
	return (st->ignore_left && skip) || !(st->flags & NSCC_S_QA_ARMED) ||
	       nscc_age(now, st->qa_start) > c->qa_ns;
}

/*
 * A loss is a NACK of the lost bytes [H updateCwndOnNack_NSCC]: the EWMA
 * is fed a network RTT per lost packet (at most NSCC_LOSS_EWMA_MAX), QA
 * is asked to check, and cwnd loses the bytes.  True if QA fired.
 */
static noinline bool nscc_on_loss(struct nscc_state *st, const struct nscc_cfg *c,
				  u64 now, u32 lost_pkts, u32 mss, u32 inflight_pkts,
				  struct nscc_out *o)
{
	u32 i, n = min_t(u32, max_t(u32, lost_pkts, 1), NSCC_LOSS_EWMA_MAX);
	u32 lost_bytes = clamp_u64_u32((u64)lost_pkts * mss);

	st->ignore_left = sat_sub32(st->ignore_left, lost_bytes);
	for (i = 0; i < n; i++)
		nscc_update_delay(st, c, c->nrtt_ns, true, mss);
	st->flags |= NSCC_S_TRIGGER_QA;
	if (nscc_quick_adapt(st, c, now, inflight_pkts, mss, true, true, 0, o))
		return true;
	st->cwnd = max(sat_sub32(st->cwnd, lost_bytes), c->min_cwnd);
	o->quadrant = NSCC_Q_LOSS;
	return false;
}

/* "The pipe is empty": multiplicative growth, applied at once [H]. */
static bool nscc_fast_increase(struct nscc_state *st, const struct nscc_cfg *c,
			       u32 b, u32 d)
{
	if (d < c->fi_thresh_ns) {
		st->fi_count = sat_add_u32(st->fi_count, b);
		if (st->fi_count > st->cwnd || (st->flags & NSCC_S_INCREASE)) {
			/* b < 2^32, fi_scale < 2^54: 128-bit product */
			st->cwnd = sat_add32(st->cwnd, mul_shr_sat(b, c->fi_scale_q16, 16));
			st->flags |= NSCC_S_INCREASE;
			return true;
		}
	} else {
		st->fi_count = 0;
	}
	st->flags &= ~NSCC_S_INCREASE;
	return false;
}

/* Proportional increase credit: alpha * (target - d) * b [N 3a]. */
static void nscc_prop_credit(struct nscc_state *st, const struct nscc_cfg *c,
			     u32 b, u32 d)
{
	/*
	 * dd = target - d < 2^30 (target <= 1 s), b < 2^32: dd * b < 2^62
	 * in u64, then alpha (< 2^50) times it < 2^112 in one 64x64 -> 128
	 * multiply, >> 40
	 */
	dcc_u128 cr = (dcc_u128)c->alpha_q40 * ((u64)(c->target_ns - d) * b);

	cr >>= 40;
	st->inc_acc = dcc_sat_add_u64(st->inc_acc, cr > U64_MAX ? U64_MAX : (u64)cr);
}

/*
 * Multiplicative decrease, sized by the EWMA, at most once per base RTT
 * [N 3b, H]: @md_ok, a base RTT since the last one (nscc_age_md).
 */
static void nscc_md(struct nscc_state *st, const struct nscc_cfg *c,
		    u64 now, bool md_ok, struct nscc_out *o)
{
	u32 avg = st->avg_ns;

	st->flags &= ~NSCC_S_INCREASE;
	st->fi_count = 0;
	if (md_ok && avg > c->target_ns) {
		/* at min_cwnd already, any cut ends there: no division */
		if (st->cwnd > c->min_cwnd)
			st->cwnd = max((u32)(((u64)st->cwnd * nscc_md_keep_q16(c, avg)) >> 16),
				       c->min_cwnd);
		st->last_dec = (u32)now;
		o->md = true;
	}
}

/*
 * Is an MD allowed, a base RTT after the last one?  Then last_dec is
 * pinned at "base + 1 ns ago": kept that young, its age never aliases
 * while ACKs flow (nscc.h: clocks), and it still reads as allowed.
 */
static bool nscc_age_md(struct nscc_state *st, const struct nscc_cfg *c, u64 now)
{
	if (nscc_age(now, st->last_dec) <= c->base_ns)
		return false;
	st->last_dec = (u32)now - c->base_ns - 1;
	return true;
}

/* The four quadrants [N 2, H updateCwndOnAck_NSCC]. */
static void nscc_quadrant(struct nscc_state *st, const struct nscc_cfg *c,
			  u64 now, u32 b, u32 delay, bool mark, bool grow,
			  bool md_ok, struct nscc_out *o)
{
	if (!mark && delay >= c->target_ns) {
		o->quadrant = NSCC_Q_FAIR;
		if (grow)	/* fi (< 2^44) * b (< 2^32): 128-bit product */
			st->inc_acc = dcc_sat_add_u64(st->inc_acc, mul_shr_sat(c->fi, b, 0));
	} else if (!mark) {
		o->quadrant = NSCC_Q_PROP;
		if (grow && !nscc_fast_increase(st, c, b, delay))
			nscc_prop_credit(st, c, b, delay);
	} else if (delay >= c->target_ns) {
		o->quadrant = NSCC_Q_MD;
		nscc_md(st, c, now, md_ok, o);
	} else {
		/* steer only: the load balancer's business, cwnd unchanged */
		o->quadrant = NSCC_Q_STEER;
	}
}

/*
 * Apply the batched credit every fulfill_bytes or network RTT, and eta
 * once per network RTT [N 3c, H].  The window it grows is clamped again.
 */
static bool nscc_fulfill(struct nscc_state *st, const struct nscc_cfg *c,
			 u64 now, bool grow)
{
	u32 age = nscc_age(now, st->last_adjust);

	if (likely(st->received <= c->fulfill_bytes && age <= c->nrtt_ns))
		return false;
	/* the fairness division, skipped when the credit is under a byte */
	if (st->inc_acc >= st->cwnd)
		st->cwnd = sat_add32(st->cwnd, div64_u64(st->inc_acc, max_t(u32, st->cwnd, 1)));
	if (age >= c->nrtt_ns) {
		if (grow)
			st->cwnd = sat_add32(st->cwnd, c->eta);
		st->last_adjust = (u32)now;
	}
	st->inc_acc = 0;
	st->received = 0;
	nscc_clamp(st, c);
	return true;
}

/*
 * The decision in force still stands: it was made for this window (a
 * stale one, dec_cwnd 0, never was: cwnd >= min_cwnd >= 2 bytes) and
 * @srtt is inside the band of its rate (NSCC_SRTT_FALL/RISE: nscc.h).
 * One unsigned compare tests the band: below srtt_lo wraps to above.
 */
static bool nscc_decision_holds(const struct nscc_state *st, u64 srtt)
{
	return st->cwnd == st->dec_cwnd && srtt - st->srtt_lo <= st->srtt_span;
}

/*
 * Fill @d for the window and @srtt (ns, > 0); it becomes the one in
 * force.  Out of line: only changed decisions get here, and its 128-bit
 * division stays out of nscc_on_ack()'s frame.
 */
static noinline void nscc_decide_at(struct nscc_state *st, const struct nscc_cfg *c,
				    u64 srtt, struct dcc_decision *d)
{
	/* cwnd (< 2^32) * gain (<= 1000) * 1e9: 128-bit product */
	d->rate_bytes_ps = dcc_mul_div((u64)st->cwnd * c->pacing_gain_pct,
				       DCC_NSEC_PER_SEC, srtt * 100);
	d->cwnd_bytes = st->cwnd;
	d->flags = 0;
	d->changed = true;
	st->dec_cwnd = st->cwnd;
	/* srtt < 2^42 ns (nscc.h): lo and span cannot wrap */
	st->srtt_lo = srtt - (srtt >> NSCC_SRTT_FALL);
	st->srtt_span = (srtt >> NSCC_SRTT_FALL) + (srtt >> NSCC_SRTT_RISE);
}

/*
 * srtt for the pacing rate: the kernel's, at most the RTT the law aims at
 * (base RTT + target: c->qa_ns), or the base RTT before any sample.  At
 * most: the pacer is there to spread the window over a round trip, not to
 * brake.  After quick adapt cut an incast's windows to what they had
 * delivered, srtt still held the incast's queue (it falls by 1/8 per
 * ACK, and the flows now sent few), so cwnd / srtt paced them at ~0.1% of
 * the link and it stood idle for 35-300 base RTTs (userspace model with
 * the module's defaults, 16-64 flows at 25 and 100 Gbit/s; none with the
 * cap).  While a queue stands the window bounds the flow, as in [H].
 */
static u64 nscc_pacing_srtt(const struct nscc_cfg *c, u64 srtt_ns)
{
	return srtt_ns ? min_t(u64, srtt_ns, c->qa_ns) : c->base_ns;
}

void nscc_decide(struct nscc_state *st, const struct nscc_cfg *c,
		 u64 srtt_ns, struct dcc_decision *d)
{
	nscc_clamp(st, c);	/* dec_cwnd is a clamped window (nscc_on_ack) */
	nscc_decide_at(st, c, nscc_pacing_srtt(c, srtt_ns), d);
}

void nscc_on_ack(struct nscc_state *st, const struct nscc_cfg *c,
		 const struct dcc_sample *s, u64 srtt_ns, u32 inflight_pkts,
		 bool cwnd_limited, bool in_loss, struct dcc_decision *d,
		 struct nscc_out *o)
{
	u64 now = s->rx_ns;
	u32 b = s->acked_bytes, delay, raw = 0;
	bool valid = !s->why, mark, md_ok;
	/* increase only while cwnd-limited (ours: [H] is always backlogged) */
	bool grow = cwnd_limited || !c->cwnd_limited_only;

	nscc_count_bytes(st, b);
	md_ok = nscc_age_md(st, c, now);
	if (valid)	/* queueing delay: RTT above the base RTT */
		raw = sat_sub32(s->rtt_ns, c->base_ns);
	/*
	 * Decision delay.  NSCC: the raw queueing delay (RTT above the
	 * min-tracked base RTT), or the EWMA when the ACK has none.  MNSCC:
	 * the median (nscc_median_delay).
	 */
	if (c->hmax)
		delay = nscc_median_delay(st, c, valid, raw);
	else
		delay = valid ? raw : st->avg_ns;
	mark = nscc_is_mark(st, c, s->ce, valid, delay);
	*o = (struct nscc_out){ .delay_ns = delay, .raw_ns = raw, .mark = mark };
	if (valid)
		nscc_update_delay(st, c, c->median_ewma ? delay : raw, mark, b);

	if ((unlikely(s->losses) &&
	     nscc_on_loss(st, c, now, s->losses, nscc_mss(s), inflight_pkts, o)) ||
	    (nscc_qa_due(st, c, now, mark) &&
	     nscc_quick_adapt(st, c, now, inflight_pkts, nscc_mss(s), false, mark,
			      delay, o))) {
		nscc_clamp(st, c);
	} else {
		nscc_quadrant(st, c, now, b, delay, mark, grow, md_ok, o);
		/*
		 * Clamp a window that moved: since the decision in force
		 * (clamped) nothing changed it when it still equals dec_cwnd;
		 * a new config (new bounds) marks the decision stale.
		 */
		if (st->cwnd != st->dec_cwnd)
			nscc_clamp(st, c);
		o->fulfill = nscc_fulfill(st, c, now, grow);
	}
	st->quadrant = o->quadrant;

	/*
	 * srtt_ns 0 (no RTT sample yet: the rate paces on the base RTT) is
	 * below every band, so those few ACKs all decide.  Above the pacing
	 * cap (nscc_pacing_srtt()) srtt moves nothing: the band is the cap's.
	 */
	srtt_ns = min_t(u64, srtt_ns, c->qa_ns);
	if (likely(!in_loss && nscc_decision_holds(st, srtt_ns))) {
		d->changed = false;
		return;
	}
	nscc_decide_at(st, c, nscc_pacing_srtt(c, srtt_ns), d);
	/*
	 * After an RTO, packet conservation until recovery ends (ours): the
	 * window follows inflight, so every ACK in CA_Loss decides, and the
	 * first one after it too (stale: the socket holds a conserved window).
	 */
	if (in_loss) {
		d->cwnd_bytes = min_t(u64, d->cwnd_bytes,
				      ((u64)inflight_pkts + max_t(u32, s->acked, 1)) *
				      nscc_mss(s));
		nscc_decision_stale(st);
	}
}

void nscc_on_rto(struct nscc_state *st, const struct nscc_cfg *c, u32 mss)
{
	st->cwnd = max(sat_sub32(st->cwnd, mss), c->min_cwnd);
}

void nscc_on_idle_restart(struct nscc_state *st, u64 now_ns)
{
	st->flags &= ~(NSCC_S_QA_ARMED | NSCC_S_TRIGGER_QA | NSCC_S_INCREASE);
	st->fi_count = 0;
	st->inc_acc = 0;
	st->received = 0;
	st->last_adjust = (u32)now_ns;
	st->med_n = 0;
}
