// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of CCC's per-ACK core (modules/ccc/ccc_law.c) as
 * tcp_ccc.c drives it: ccc_on_ack() on dcc_samples in nanoseconds.
 *
 * The input decodes into one parameter snapshot, each parameter inside
 * its range (R_l set or estimated from delivery rates, RTT_min set or
 * following the flow's minimum RTT, either start mode, any fair_ai_pml),
 * the socket's MSS and max pacing rate, and a stream of events: ACKs with
 * RTTs of 1 us .. 1 s (any ns), ACK gaps of 0 .. 5 s (any ns; the sample
 * clock starts anywhere in u64, so the core's 32-bit clocks wrap), any
 * byte and packet count, app-limited flags, delivered-based round starts,
 * samples without an RTT; RTOs (r halved, gradient forgotten),
 * spurious-RTO undo, restarts after idle, and expiry of the windowed
 * minimum RTT.  The glue (ccc_resolve(), the hooks) is mirrored from
 * tcp_ccc.c: the config is resolved at init, on the first RTT sample and
 * when the decision asks (CCC_D_NEW_ROUND), never otherwise.
 *
 * Checked after every event (abort on failure): r in [r_min, r_max] and
 * r_min <= r_max <= R_l <= 800 Gbit/s; S <= 1.0 of R_l; q_v in [-1, 16];
 * the S records, v_ai exponent, region and LSQ batch inside their ranges;
 * the decision in force (the last one reported changed: the glue applies
 * no other) is rate = r and cwnd the exact r (RTT_min + q_B) gain of the
 * cfg the law ran with, i.e. a decision reported unchanged was unchanged;
 * q = RTT - RTT_min, f a bit, |u(k)| <= 2 r_max, delta-hat below eq.
 * 10's bound (3 - q_v), Itv the sample clock's difference.  The law
 * divides by q_B, RTT_min and R_l through reciprocals: rho, Irr/R_l,
 * delta-hat (dcc_log2_q16), the share of R_l and the step of A^i (eq.
 * 8's analytical step plus the additive fairness step) and of the
 * decrease regions (w_md r plus the fairness step) are checked equal to
 * the quotients a division gives.  UBSan and
 * ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/ccc.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

/* tcp_ccc.c's struct ccc_snap: the law's parameters and the glue's */
struct snap {
	struct ccc_params p;
	u64 line_bytes_ps;	/* 0 = estimate */
	u64 init_line_bytes_ps;
	u32 base_rtt_ns;	/* 0 = tcp_min_rtt() */
	u8 start_mode;
};

/* struct ccc of tcp_ccc.c, plus what the kernel socket holds */
struct sock_model {
	struct ccc_state st;
	struct ccc_cfg cfg;
	u32 round_end, delivered;
	u16 saved_share;
	bool saved;
	u32 mss;
	u64 max_pacing;		/* sk_max_pacing_rate */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u64 now_ns;
	u64 last_rx_ns;		/* the previous valid sample's rx_ns */
	bool have_prev;
	struct ccc_cfg law_c;	/* the cfg of the last call into the law */
	struct dcc_decision dk;	/* the decision in force */
};

static u64 line_est_bps;	/* host-wide estimate (dcc_shared_line_rate) */
static struct snap sn;

static void read_params(struct fz *in, struct snap *p)
{
	struct ccc_knobs k;

	k.q_b_us = fz_rtt_us(in);
	p->line_bytes_ps = fz_bool(in) ? 0 :
		fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX) * DCC_MBPS_TO_BPS;
	p->base_rtt_ns = fz_bool(in) ? 0 : fz_rtt_us(in) * 1000;
	k.gamma_pct = (u32)fz_span(in, 0, 99);
	k.ut_pct = (u32)fz_span(in, 1, 100);
	k.qv_near_pct = (u32)fz_span(in, 1, 50);
	k.span_pct = (u32)fz_span(in, 1, 400);
	k.min_samples = (u32)fz_span(in, 2, 255);
	k.n_ai_max = (u32)fz_span(in, 0, CCC_N_AI_MAX_LIMIT);
	k.cwnd_gain_pct = (u32)fz_span(in, 50, 255);
	k.cwnd_qb = fz_bool(in);
	p->start_mode = fz_bool(in);
	p->init_line_bytes_ps = fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX) * DCC_MBPS_TO_BPS;
	k.fair_ai_pml = (u32)fz_span(in, 0, 1000);
	ccc_params_init(&p->p, &k);
}

/* ---- the glue, mirrored from tcp_ccc.c --------------------------------- */

/* dcc_shared_line_rate(): fold in @rate (0: read), at least the floor */
static u64 line_shared(u64 rate)
{
	rate = min_t(u64, rate, DCC_RATE_MAX_BPS);
	if (rate > line_est_bps)
		line_est_bps = rate;
	return max(line_est_bps, sn.init_line_bytes_ps);
}

/* ccc_resolve(): @delivered packets over @interval_us (0: none) */
static void resolve(struct sock_model *ca, u32 delivered, u32 interval_us,
		    u32 rtt_ns)
{
	u32 old = ca->cfg.rttmin_ns, base = sn.base_rtt_ns;
	u64 line = sn.line_bytes_ps, rate = 0;
	struct ccc_cfg fresh;
	bool ok;

	if (!base)	/* dcc_auto_base_rtt_us(): tcp_min_rtt() */
		base = ca->min_rtt_us ? ca->min_rtt_us * 1000 : old;
	if (!base)
		base = rtt_ns;
	if (!line) {
		if (delivered && interval_us) {
			rate = dcc_mul_div((u64)delivered * ca->mss, 1000000,
					   interval_us);
			rate = min_t(u64, rate, DCC_RATE_MAX_BPS);
			rate += rate / 4;
		}
		line = max(ccc_line(&ca->cfg), line_shared(rate));
	}
	/* the glue refreshes; the cfg is the one a fresh resolve gives */
	ok = ccc_cfg_refresh(&ca->cfg, line, base, ca->mss, ca->max_pacing);
	FUZZ_ASSERT(ok == (ca->cfg.rttmin_ns != 0), "resolve %d", ok);
	FUZZ_ASSERT(ccc_cfg_resolve(&fresh, &sn.p, line, base, ca->mss,
				    ca->max_pacing) == ok &&
		    !memcmp(&fresh, &ca->cfg, sizeof(fresh)),
		    "refreshed cfg differs: R_l %llu RTT_min %u",
		    (unsigned long long)line, base);
	/* r_min by division, as the law had it before it had reciprocals */
	FUZZ_ASSERT(ca->cfg.r_min ==
		    min_t(u64, min(max_t(u64, ccc_line(&ca->cfg) >> 10,
					 (u64)2 * max_t(u32, ca->mss, 1) * DCC_NSEC_PER_SEC /
					 max_t(u32, ca->cfg.rttmin_ns, 1)),
				   ccc_rmax(&ca->cfg)), U32_MAX),
		    "r_min %u", ca->cfg.r_min);
	ccc_cfg_changed(&ca->st, old, &ca->cfg);
}

static void sock_init(struct sock_model *ca, u32 mss, u64 max_pacing,
		      u32 handshake_rtt_us, u64 t0)
{
	u64 r0;

	memset(ca, 0, sizeof(*ca));
	ca->mss = mss;
	ca->max_pacing = max_pacing;
	ca->now_ns = t0;
	ca->min_rtt_us = handshake_rtt_us;
	ca->cfg.p = &sn.p;
	resolve(ca, 0, 0, 0);
	if (sn.start_mode == 1 && ca->cfg.rttmin_ns)
		r0 = div_u64((u64)10 * mss * DCC_NSEC_PER_SEC, ca->cfg.rttmin_ns);
	else
		r0 = ccc_line(&ca->cfg);
	ccc_state_init(&ca->st, &ca->cfg, r0);
	ca->law_c = ca->cfg;
	ccc_decide(&ca->st, &ca->cfg, &ca->dk);	/* ccc_init() applies it */
}

/* ---- the checks -------------------------------------------------------- */

static void check_state(const struct sock_model *ca)
{
	const struct ccc_state *s = &ca->st;
	const struct ccc_cfg *c = &ca->cfg;

	FUZZ_ASSERT(ccc_line(c) >= DCC_MBPS_TO_BPS && ccc_line(c) <= DCC_RATE_MAX_BPS,
		    "R_l %llu", (unsigned long long)ccc_line(c));
	FUZZ_ASSERT(c->r_min <= ccc_rmax(c) && ccc_rmax(c) <= ccc_line(c),
		    "r_min %u r_max %llu R_l %llu", c->r_min,
		    (unsigned long long)ccc_rmax(c), (unsigned long long)ccc_line(c));
	FUZZ_ASSERT(c->rttmin_ns <= CCC_RTT_MAX_NS, "RTT_min %u", c->rttmin_ns);
	/*
	 * r is kept inside the bounds of the cfg it was last computed with:
	 * a new R_l estimate or a lower RTT_min raises r_min at once, and r
	 * follows on the next valid ACK (or RTO), not before.
	 */
	FUZZ_ASSERT(s->rate >= ca->law_c.r_min && s->rate <= ccc_rmax(&ca->law_c),
		    "r %llu outside [%u, %llu]", (unsigned long long)s->rate,
		    ca->law_c.r_min, (unsigned long long)ccc_rmax(&ca->law_c));
	FUZZ_ASSERT(s->rate <= ccc_rmax(c), "r %llu above r_max %llu",
		    (unsigned long long)s->rate, (unsigned long long)ccc_rmax(c));
	/* the share of R_l by reciprocal: the quotient a division gives */
	FUZZ_ASSERT(ccc_share(c, s->rate) ==
		    min_t(u64, (s->rate << CCC_Q) / ccc_line(c), CCC_SHARE_ONE),
		    "share %u of r %llu, R_l %llu", ccc_share(c, s->rate),
		    (unsigned long long)s->rate, (unsigned long long)ccc_line(c));
	FUZZ_ASSERT(s->basis <= CCC_SHARE_ONE, "S %u above R_l", s->basis);
	FUZZ_ASSERT(s->qv >= -CCC_ONE && s->qv <= CCC_QV_MAX * CCC_ONE,
		    "q_v %d", s->qv);
	FUZZ_ASSERT(s->rec_idx < CCC_NREC, "record idx %u", s->rec_idx);
	FUZZ_ASSERT(s->n_ai <= sn.p.n_ai_max, "n_ai %u > %u", s->n_ai,
		    sn.p.n_ai_max);
	FUZZ_ASSERT(s->region < CCC_NREGIONS, "region %u", s->region);
	FUZZ_ASSERT(s->lsq_n <= CCC_LSQ_N_MAX, "lsq_n %u", s->lsq_n);
}

/* delta-hat at @q (eq. 5 with eq. 10's log2, floored at q_B / 64) */
static s32 ref_delta(const struct ccc_cfg *c, u32 q, s32 qv)
{
	s32 l2q = (s32)max(dcc_log2_q16(q), c->p->l2floor);

	return ((s32)c->p->l2qb - l2q) / 2 - qv;
}

/*
 * The analytical step of A^i (eq. 8) by division: delta-hat at q + Itv
 * q_v (Itv per packet, at most RTT_min) times M / RTT_min, at most r_max.
 * @qv: q_v of the step (the law's after this ACK's batch).
 */
static s64 ref_analytical(const struct ccc_cfg *c, const struct dcc_sample *a,
			  u32 q, u32 itv, s32 qv)
{
	u32 itv_pkt = min(itv / max_t(u32, a->acked, 1), c->rttmin_ns);
	s64 qp = (s64)q + (((s64)itv_pkt * qv) >> CCC_Q);
	s32 dp = ref_delta(c, (u32)clamp_t(s64, qp, 0, U32_MAX), qv);
	fz_u128 mag;

	if (dp <= 0)
		return 0;
	mag = (fz_u128)((u64)dp * a->acked_bytes) * DCC_NSEC_PER_SEC /
	      ((u64)c->rttmin_ns << CCC_Q);
	return (s64)min_t(fz_u128, mag, ccc_rmax(c));
}

/*
 * The additive fairness step by division, when it is on (not app-limited,
 * fair_ai set, the link busy, q < 2 q_B, |q_v| < qv_near): rho fair_ai
 * R_l min(1, 2 sqrt(r/R_l)), fading linearly above q_B to 0 at 2 q_B; 0
 * when off.  @r: the rate before this ACK's step.  The root is the law's
 * (ccc_sqrt_q16(), checked against sqrt() in test_ccc_law).
 */
static s64 ref_fair(const struct ccc_cfg *c, const struct dcc_sample *a,
		    u32 q, u32 rho, s32 qv, u64 r)
{
	u32 qb = c->p->qb_ns;
	u64 line = ccc_line(c);
	u64 share = r >= line ? CCC_ONE : ((u64)r << CCC_Q) / line;
	u32 scale = share >= CCC_ONE / 4 ? CCC_ONE :
		    2 * ccc_sqrt_q16((u32)max_t(u64, share, 1));
	u64 mag;

	if (a->app_limited || !c->p->fair_ai || !ccc_busy(c, q) ||
	    q >= 2ULL * qb || qv <= -(s32)c->p->qv_near ||
	    qv >= (s32)c->p->qv_near)
		return 0;
	mag = (ccc_line(c) * c->p->fair_ai) >> CCC_Q;
	mag = (mag * scale) >> CCC_Q;
	if (q > qb)
		mag = (mag * (CCC_ONE - ((u64)(q - qb) << CCC_Q) / qb)) >> CCC_Q;
	mag = (mag * rho) >> CCC_Q;
	return (s64)min_t(u64, mag, ccc_rmax(c));
}

/*
 * The probing decrease of A^d, H_1^d, H_2^d (4.3.4) by division: rho w_md
 * r, w_md = min(|q - q_B| / q_B, 1) / 4, each product floored; @r: the
 * rate before this ACK's step.
 */
static s64 ref_probe_down(const struct ccc_cfg *c, u64 r, u32 q, u32 rho)
{
	u32 qb = c->p->qb_ns;
	u32 dist = q > qb ? q - qb : qb - q;
	u32 w_md = (u32)((dist >= qb ? CCC_ONE : ((u64)dist << CCC_Q) / qb) / 4);

	return -(s64)((((r * w_md) >> CCC_Q) * rho) >> CCC_Q);
}

static void check_decision(const struct sock_model *ca, const struct dcc_sample *a,
			   const struct dcc_decision *d, const struct ccc_ack_info *i,
			   bool round_start, u64 itv, u64 r_prev)
{
	const struct ccc_cfg *c = &ca->law_c;
	const struct dcc_decision *k = &ca->dk;
	u32 q = a->rtt_ns > c->rttmin_ns ? a->rtt_ns - c->rttmin_ns : 0;
	u32 qb = c->p->qb_ns;
	s64 mag = i->step < 0 ? -i->step : i->step;
	fz_u128 want;

	FUZZ_ASSERT(i->q_ns == q, "q %u want %u", i->q_ns, q);
	FUZZ_ASSERT(i->itv_ns == (u32)itv, "Itv %u want %llu", i->itv_ns,
		    (unsigned long long)itv);
	/* rho, Irr/R_l, delta-hat: what a division and dcc_log2_q16 give */
	FUZZ_ASSERT(i->rho == (itv >= c->rttmin_ns ? CCC_ONE :
			       ((u64)itv << CCC_Q) / c->rttmin_ns),
		    "rho %u, Itv %llu RTT_min %u", i->rho,
		    (unsigned long long)itv, c->rttmin_ns);
	FUZZ_ASSERT(i->irr_frac == (q >= qb ? 0 : CCC_ONE - ((u64)q << CCC_Q) / qb),
		    "Irr/R_l %u, q %u q_B %u", i->irr_frac, q, qb);
	FUZZ_ASSERT(i->delta == ref_delta(c, q, ca->st.qv), "delta %d want %d",
		    i->delta, ref_delta(c, q, ca->st.qv));
	FUZZ_ASSERT(i->f <= 1 && i->region < CCC_NREGIONS, "f %u region %u",
		    i->f, i->region);
	/* the per-ACK path's split copy of the region rules (ccc_place_of) */
	FUZZ_ASSERT(i->region == ccc_region(c, q, ca->st.qv, i->delta),
		    "region %u, ccc_region() %u", i->region,
		    ccc_region(c, q, ca->st.qv, i->delta));
	FUZZ_ASSERT((u64)mag <= 2 * ccc_rmax(c), "step %lld, r_max %llu",
		    (long long)i->step, (unsigned long long)ccc_rmax(c));
	if (i->region == CCC_AI) {
		s64 w = ref_analytical(c, a, q, (u32)itv, ca->st.qv) +
			ref_fair(c, a, q, i->rho, ca->st.qv, r_prev);

		FUZZ_ASSERT(i->step == w, "A^i step %lld want %lld",
			    (long long)i->step, (long long)w);
	} else if (i->region == CCC_AD || i->region == CCC_H1D ||
		   i->region == CCC_H2D) {
		/* a decrease region: w_md r if f, plus the fairness step */
		s64 w = (i->f ? ref_probe_down(c, r_prev, q, i->rho) : 0) +
			ref_fair(c, a, q, i->rho, ca->st.qv, r_prev);

		FUZZ_ASSERT(i->step == w, "region %u step %lld want %lld",
			    i->region, (long long)i->step, (long long)w);
	}
	/* log2(q_B / max(q, q_B/64)) <= 6 exactly (log-domain floor) */
	FUZZ_ASSERT(i->delta <= 3 * CCC_ONE - ca->st.qv + 1 &&
		    i->delta > -(32 * CCC_ONE), "delta %d q_v %d", i->delta, ca->st.qv);
	FUZZ_ASSERT(!!(d->flags & CCC_D_NEW_ROUND) == round_start, "flags %x", d->flags);
	/* the decision in force is r's, on the cfg the law ran with */
	FUZZ_ASSERT(k->rate_bytes_ps == ca->st.rate, "decision rate %llu, r %llu",
		    (unsigned long long)k->rate_bytes_ps,
		    (unsigned long long)ca->st.rate);
	want = (fz_u128)ca->st.rate *
	       ((u64)c->rttmin_ns + (c->p->cwnd_qb ? c->p->qb_ns : 0)) / DCC_NSEC_PER_SEC;
	want = want * c->p->cwnd_gain_pct / 100;
	FUZZ_ASSERT(k->cwnd_bytes == (u64)want, "cwnd %llu want %llu",
		    (unsigned long long)k->cwnd_bytes, (unsigned long long)want);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	struct ccc_ack_info info;
	struct dcc_decision d;
	struct dcc_sample a;
	u32 rtt = (u32)fz_span(in, 1000, DCC_SAMPLE_RTT_MAX_NS), pkts;
	u32 delivered = 0, interval = 0;
	bool round_start;
	u64 itv, r_prev;

	ca->now_ns += f & 1 ? fz_span(in, 0, 5000000000ULL) : fz_raw(in, 2);
	pkts = f & 2 ? (u32)fz_span(in, 1, 1U << 16) : 1;
	if (f & 4) {
		delivered = (u32)fz_span(in, 1, 1U << 20);
		interval = (u32)fz_span(in, 0, 2000000);
	}
	if (!ca->min_rtt_us || rtt / 1000 < ca->min_rtt_us)
		ca->min_rtt_us = max_t(u32, rtt / 1000, 1);
	ca->delivered += pkts;
	if (f & 8)
		return;		/* no valid sample: the last decision applies */

	if (!ca->cfg.rttmin_ns)	/* the first RTT sample */
		resolve(ca, 0, 0, rtt);
	a = (struct dcc_sample){
		.rx_ns = ca->now_ns,
		.tx_ns = ca->now_ns - rtt,
		.rtt_ns = rtt,
		.acked = pkts,
		.acked_bytes = (u32)min_t(u64, (u64)pkts * ca->mss, U32_MAX),
		.mss = ca->mss,
		.app_limited = f & 16,
	};
	round_start = f & 32;
	/*
	 * The core's clock is 32 bits (4.29 s), and a step back of up to
	 * DCC_RX_BACK_MAX_NS (rx_ns is not monotonic: sample.h) reads as 0,
	 * the later time staying t(k-1): so does a wrapped gap that lands
	 * there.
	 */
	itv = ca->have_prev ? (u32)(ca->now_ns - ca->last_rx_ns) : 0;
	if (itv > U32_MAX - DCC_RX_BACK_MAX_NS)
		itv = 0;
	if (itv || !ca->have_prev)
		ca->last_rx_ns = ca->now_ns;
	ca->have_prev = true;
	ca->law_c = ca->cfg;
	r_prev = ca->st.rate;
	ccc_on_ack(&ca->st, &ca->cfg, &a, round_start, &d, &info);
	if (d.changed)
		ca->dk = d;	/* the glue applies it */
	check_decision(ca, &a, &d, &info, round_start, itv, r_prev);
	if (d.flags & CCC_D_NEW_ROUND)
		resolve(ca, delivered, interval, 0);
}

static void forget(struct sock_model *ca)
{
	ccc_state_forget(&ca->st);
	ca->have_prev = false;
}

/* ccc_set_state(TCP_CA_Loss) */
static void on_rto(struct sock_model *ca)
{
	ca->saved_share = (u16)min_t(u32, ccc_share(&ca->cfg, ca->st.rate), 65535);
	ca->saved = true;
	ca->st.rate = max_t(u64, ca->cfg.r_min, ca->st.rate / 2);
	ca->st.flags |= CCC_S_REDECIDE;
	ca->law_c = ca->cfg;
	forget(ca);
}

static void on_undo(struct sock_model *ca)
{
	const struct ccc_cfg *c = &ca->cfg;

	if (!ca->saved)
		return;
	ca->st.rate = clamp_t(u64, (ccc_line(c) * ca->saved_share) >> CCC_Q,
			      c->r_min, ccc_rmax(c));
	ca->st.flags |= CCC_S_REDECIDE;
	ca->law_c = ca->cfg;
	ca->saved = false;
}

/* one ACK of a replayed run (fz_replay) */
static void replay_step(void *ctx, struct fz *in)
{
	on_ack(ctx, in);
	check_state(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct sock_model ca;
	u64 max_pacing, t0;
	u32 mss, hs_rtt;

	line_est_bps = fz_bool(&in) ? 0 : fz_span(&in, 0, DCC_RATE_MAX_BPS);
	read_params(&in, &sn);
	mss = fz_mss(&in);
	max_pacing = fz_bool(&in) ? U64_MAX :
		     fz_span(&in, DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	hs_rtt = fz_bool(&in) ? 0 : fz_rtt_us(&in);
	t0 = fz_raw(&in, 8);	/* anywhere on the u64 ns clock */
	sock_init(&ca, mss, max_pacing, hs_rtt, t0);
	check_state(&ca);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 11:
			on_rto(&ca);
			break;
		case 12:
			on_undo(&ca);
			break;
		case 13:	/* CA_EVENT_TX_START: restart after idle */
			forget(&ca);
			break;
		case 14:	/* the windowed min RTT expired: it may rise */
			ca.min_rtt_us = fz_rtt_us(&in);
			break;
		case 15:	/* a run of ACKs replaying one event */
			i += fz_replay(&in, replay_step, &ca);
			break;
		default:
			on_ack(&ca, &in);
			break;
		}
		check_state(&ca);
	}
	return 0;
}
