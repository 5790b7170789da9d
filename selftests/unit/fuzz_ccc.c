// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of CCC's per-ACK control law (modules/ccc/ccc_law.c)
 * as tcp_ccc.c drives it.
 *
 * The input decodes into one socket's parameter snapshot, each parameter
 * inside its dcc_param_range() (R_l set or estimated from delivery rates,
 * RTT_min set or following the flow's minimum RTT, either start mode, any
 * fair_ai_pml), the socket's max pacing rate, and a stream of events: ACKs
 * with RTTs of 1 us .. 1 s, any interval, byte and packet count,
 * app-limited and round-start flags; RTOs (r halved, gradient forgotten),
 * spurious-RTO undo, restarts after idle, and expiry of the windowed
 * minimum RTT.  ccc_cfg_of() and the event handlers are mirrored from the
 * glue line for line.
 *
 * Checked after every event (abort on failure): r in [r_min, r_max] and
 * r_min <= r_max <= R_l <= 800 Gbit/s; S <= 1.0 of R_l; q_v in [-1, 16];
 * the S records, v_ai exponent, region and LSQ batch inside their ranges;
 * per decision: q = RTT - RTT_min, rho and Irr/R_l in [0, 1], f a bit,
 * |u(k)| <= 2 r_max, delta-hat below eq. 10's bound; the cwnd cap is the
 * exact r (RTT_min + q_B) gain.  UBSan and ASan catch overflow, division
 * by zero and stray accesses.
 */
#include <string.h>

#include "dcc/ccc.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

struct ccc_params {
	u32 q_b_us;		/* 1..1e6 */
	u32 line_rate_mbps;	/* 0..800000, 0 = estimate */
	u32 base_rtt_us;	/* 0..1e6, 0 = tcp_min_rtt() */
	u32 gamma_pct;		/* 0..99 */
	u32 ut_pct;		/* 1..100 */
	u32 qv_near_pct;	/* 1..50 */
	u32 span_pct;		/* 1..400 */
	u32 min_samples;	/* 2..255 */
	u32 n_ai_max;		/* 0..20 */
	u32 cwnd_gain_pct;	/* 50..255 */
	u32 start_mode;		/* 0..1 */
	u32 init_rate_mbps;	/* 1..800000 */
	u32 fair_ai_pml;	/* 0..1000 */
};

/* struct ccc of tcp_ccc.c, plus what the kernel socket holds */
struct sock_model {
	struct ccc_state st;
	u32 rttmin_us, last_rx_us, saved_share, qb_us, line_kbps;
	u8 gamma_pct, ut_pct, qv_near_pct, min_samples, n_ai_max;
	u8 cwnd_gain_pct, span_pct;
	bool auto_line, auto_base, have_prev, saved;
	u32 mss;
	u64 max_pacing;		/* sk_max_pacing_rate */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u64 now_us;
	struct ccc_cfg law_c;	/* the cfg of the last call into the law */
};

static u32 line_est_kbps;	/* host-wide estimate */
static struct ccc_params prm;

static void read_params(struct fz *in, struct ccc_params *p)
{
	p->q_b_us = fz_rtt_us(in);
	p->line_rate_mbps = fz_bool(in) ? 0 :
			    (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->base_rtt_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->gamma_pct = (u32)fz_span(in, 0, 99);
	p->ut_pct = (u32)fz_span(in, 1, 100);
	p->qv_near_pct = (u32)fz_span(in, 1, 50);
	p->span_pct = (u32)fz_span(in, 1, 400);
	p->min_samples = (u32)fz_span(in, 2, 255);
	p->n_ai_max = (u32)fz_span(in, 0, CCC_N_AI_MAX_LIMIT);
	p->cwnd_gain_pct = (u32)fz_span(in, 50, 255);
	p->start_mode = fz_bool(in);
	p->init_rate_mbps = (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->fair_ai_pml = (u32)fz_span(in, 0, 1000);
}

/* ---- the glue, mirrored from tcp_ccc.c --------------------------------- */

static void ccc_cfg_of(const struct sock_model *ca, struct ccc_cfg *c)
{
	u32 mss = max_t(u32, ca->mss, 1);
	u32 rtt = max_t(u32, ca->rttmin_us, 1);
	u64 line = max_t(u64, (u64)ca->line_kbps * 125, 1);

	*c = (struct ccc_cfg){
		.line_bytes_ps = line,
		.r_min = max_t(u64, line >> 10,
			       div_u64((u64)2 * mss * DCC_USEC_PER_SEC, rtt)),
		.r_max = min_t(u64, line, ca->max_pacing),
		.qb_us = max_t(u32, ca->qb_us, 1),
		.rttmin_us = rtt,
		.ut_us = max_t(u32, 2, (u32)div_u64((u64)rtt * ca->ut_pct, 100)),
		.span_us = max_t(u32, 1,
				 (u32)div_u64((u64)rtt * ca->span_pct * 2, 100)),
		.gamma_q16 = (u32)(((u64)ca->gamma_pct << CCC_Q) / 100),
		.qv_near = (u32)(((u64)ca->qv_near_pct << CCC_Q) / 100),
		.fair_ai = (u32)(((u64)prm.fair_ai_pml << CCC_Q) / 1000),
		.l2qb = dcc_log2_q16((u64)max_t(u32, ca->qb_us, 1) << CCC_L2_SHIFT),
		.min_samples = ca->min_samples,
		.n_ai_max = ca->n_ai_max,
	};
	c->r_min = min(c->r_min, c->r_max);
}

static u32 line_seed_kbps(void)
{
	return max(line_est_kbps, prm.init_rate_mbps * 1000);
}

/* ccc_line_observe(): rs->delivered packets over rs->interval_us */
static void line_observe(struct sock_model *ca, u32 delivered, u32 interval_us)
{
	u64 kbps;

	if (!ca->auto_line || !interval_us || !delivered)
		return;
	kbps = div_u64((u64)delivered * ca->mss * 8000, interval_us) * 5 / 4;
	kbps = min_t(u64, kbps, 800000000ULL);
	if (kbps > line_est_kbps)
		line_est_kbps = (u32)kbps;
	ca->line_kbps = max(ca->line_kbps, line_seed_kbps());
}

static void sock_init(struct sock_model *ca, u32 mss, u64 max_pacing,
		      u32 handshake_rtt)
{
	struct ccc_cfg c;
	u64 r0;

	memset(ca, 0, sizeof(*ca));
	ca->qb_us = prm.q_b_us;
	ca->gamma_pct = (u8)prm.gamma_pct;
	ca->ut_pct = (u8)prm.ut_pct;
	ca->qv_near_pct = (u8)prm.qv_near_pct;
	ca->min_samples = (u8)prm.min_samples;
	ca->n_ai_max = (u8)prm.n_ai_max;
	ca->cwnd_gain_pct = (u8)prm.cwnd_gain_pct;
	ca->span_pct = (u8)((prm.span_pct + 1) / 2);
	ca->auto_line = !prm.line_rate_mbps;
	ca->auto_base = !prm.base_rtt_us;
	ca->mss = mss;
	ca->max_pacing = max_pacing;
	ca->now_us = 1000000;
	ca->min_rtt_us = handshake_rtt;
	ca->line_kbps = prm.line_rate_mbps ? prm.line_rate_mbps * 1000 :
			line_seed_kbps();
	/* dcc_base_rtt_us(sk, base): the parameter, else min RTT, else 0 */
	ca->rttmin_us = prm.base_rtt_us ? prm.base_rtt_us : handshake_rtt;

	ccc_cfg_of(ca, &c);
	if (prm.start_mode == 1 && ca->rttmin_us)
		r0 = div_u64((u64)10 * mss * DCC_USEC_PER_SEC, ca->rttmin_us);
	else
		r0 = c.line_bytes_ps;
	ccc_state_init(&ca->st, &c, r0);
	ca->law_c = c;
}

/* ---- the checks -------------------------------------------------------- */

static void check_state(const struct sock_model *ca)
{
	const struct ccc_state *s = &ca->st;
	struct ccc_cfg c;
	u64 cwnd;
	fz_u128 want;

	ccc_cfg_of(ca, &c);
	FUZZ_ASSERT(c.line_bytes_ps >= DCC_MBPS_TO_BPS && c.line_bytes_ps <= DCC_RATE_MAX_BPS,
		    "R_l %llu", (unsigned long long)c.line_bytes_ps);
	FUZZ_ASSERT(c.r_min <= c.r_max && c.r_max <= c.line_bytes_ps,
		    "r_min %llu r_max %llu R_l %llu", (unsigned long long)c.r_min,
		    (unsigned long long)c.r_max, (unsigned long long)c.line_bytes_ps);
	/*
	 * r is kept inside the bounds of the cfg it was last computed with:
	 * a new R_l estimate or a lower RTT_min raises r_min at once, and r
	 * follows on the next valid ACK (or RTO), not before.
	 */
	FUZZ_ASSERT(s->rate >= ca->law_c.r_min && s->rate <= ca->law_c.r_max,
		    "r %llu outside [%llu, %llu]", (unsigned long long)s->rate,
		    (unsigned long long)ca->law_c.r_min,
		    (unsigned long long)ca->law_c.r_max);
	FUZZ_ASSERT(s->rate <= c.r_max, "r %llu above r_max %llu",
		    (unsigned long long)s->rate, (unsigned long long)c.r_max);
	FUZZ_ASSERT(s->basis <= CCC_SHARE_ONE, "S %u above R_l", s->basis);
	FUZZ_ASSERT(s->qv >= -CCC_ONE && s->qv <= CCC_QV_MAX * CCC_ONE,
		    "q_v %d", s->qv);
	FUZZ_ASSERT(s->rec_cnt <= CCC_NREC && s->rec_idx < CCC_NREC,
		    "records %u idx %u", s->rec_cnt, s->rec_idx);
	FUZZ_ASSERT(s->n_ai <= ca->n_ai_max, "n_ai %u > %u", s->n_ai,
		    ca->n_ai_max);
	FUZZ_ASSERT(s->region < CCC_NREGIONS, "region %u", s->region);
	FUZZ_ASSERT(s->lsq_n <= CCC_LSQ_N_MAX, "lsq_n %u", s->lsq_n);

	if (!ca->rttmin_us)
		return;		/* the glue applies the initial window */
	cwnd = ccc_cwnd_bytes(&c, s->rate, ca->cwnd_gain_pct);
	want = (fz_u128)s->rate * ((u64)c.rttmin_us + c.qb_us) / DCC_USEC_PER_SEC;
	want = want * ca->cwnd_gain_pct / 100;
	FUZZ_ASSERT(cwnd == (u64)want, "cwnd %llu want %llu",
		    (unsigned long long)cwnd, (unsigned long long)want);
}

static void check_decision(const struct ccc_cfg *c, const struct ccc_ack *a,
			   const struct ccc_decision *d)
{
	u32 q = a->rtt_us > c->rttmin_us ? a->rtt_us - c->rttmin_us : 0;
	s64 mag = d->step < 0 ? -d->step : d->step;

	FUZZ_ASSERT(d->q_us == q, "q %u want %u", d->q_us, q);
	FUZZ_ASSERT(d->rho <= CCC_ONE && d->irr_frac <= CCC_ONE,
		    "rho %u Irr/R_l %u", d->rho, d->irr_frac);
	FUZZ_ASSERT(d->f <= 1 && d->region < CCC_NREGIONS, "f %u region %u",
		    d->f, d->region);
	FUZZ_ASSERT((u64)mag <= 2 * c->r_max, "step %lld, r_max %llu",
		    (long long)d->step, (unsigned long long)c->r_max);
	/* log2(q_B / max(q, q_B/64)) <= 6 (+ log2's 0.0861 error), q_v >= -1 */
	FUZZ_ASSERT(d->delta <= 4 * CCC_ONE + CCC_ONE / 8 &&
		    d->delta > -(128 * CCC_ONE), "delta %d", d->delta);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	struct ccc_decision d;
	struct ccc_cfg c;
	struct ccc_ack a;
	u32 rtt = fz_rtt_us(in), pkts, rx;

	ca->now_us += f & 1 ? fz_span(in, 0, 5000000) : fz_raw(in, 1);
	pkts = f & 2 ? (u32)fz_span(in, 1, 1U << 16) : 1;
	if (f & 4)
		line_observe(ca, (u32)fz_span(in, 1, 1U << 20),
			     (u32)fz_span(in, 0, 2000000));
	if (!ca->min_rtt_us || rtt < ca->min_rtt_us)
		ca->min_rtt_us = rtt;
	if (f & 8)
		return;		/* no valid sample: cfg + apply only */

	if (ca->auto_base) {
		if (ca->min_rtt_us)
			ca->rttmin_us = ca->min_rtt_us;
	} else if (!ca->rttmin_us) {
		ca->rttmin_us = prm.base_rtt_us ? prm.base_rtt_us : rtt;
	}
	if (!ca->rttmin_us)
		ca->rttmin_us = max_t(u32, rtt, 1);
	ccc_cfg_of(ca, &c);

	rx = (u32)ca->now_us;
	a = (struct ccc_ack){
		.rx_us = rx,
		.rtt_us = rtt,
		.itv_us = ca->have_prev ? rx - ca->last_rx_us : 0,
		.acked_bytes = (u32)min_t(u64, (u64)pkts * ca->mss, U32_MAX),
		.pkts = pkts,
		.app_limited = f & 16,
		.round_start = f & 32,
	};
	ca->last_rx_us = rx;
	ca->have_prev = true;
	ccc_on_ack(&ca->st, &c, &a, &d);
	ca->law_c = c;
	check_decision(&c, &a, &d);
}

static void forget(struct sock_model *ca)
{
	ccc_state_reset_grad(&ca->st);
	ca->st.n_ai = 0;
	ca->have_prev = false;
}

/* ccc_set_state(TCP_CA_Loss) */
static void on_rto(struct sock_model *ca)
{
	struct ccc_cfg c;

	ccc_cfg_of(ca, &c);
	ca->saved_share = (u32)min_t(u64, div64_u64(ca->st.rate << CCC_Q,
						    c.line_bytes_ps), U32_MAX);
	ca->saved = true;
	ca->st.rate = max(c.r_min, ca->st.rate / 2);
	ca->law_c = c;
	forget(ca);
}

static void on_undo(struct sock_model *ca)
{
	struct ccc_cfg c;

	if (!ca->saved)
		return;
	ccc_cfg_of(ca, &c);
	ca->st.rate = clamp_t(u64, (c.line_bytes_ps * ca->saved_share) >> CCC_Q,
			      c.r_min, c.r_max);
	ca->law_c = c;
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
	u64 max_pacing;
	u32 mss, hs_rtt;

	line_est_kbps = fz_bool(&in) ? 0 : (u32)fz_span(&in, 0, 800000000);
	read_params(&in, &prm);
	mss = fz_mss(&in);
	max_pacing = fz_bool(&in) ? U64_MAX :
		     fz_span(&in, DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	hs_rtt = fz_bool(&in) ? 0 : fz_rtt_us(&in);
	sock_init(&ca, mss, max_pacing, hs_rtt);
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
