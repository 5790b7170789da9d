// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_ccc's glue (modules/ccc/tcp_ccc.c) on a simulated socket
 * (dcc_sim.h): the same module parameters and defaults, the same hooks,
 * around the same core (modules/ccc/ccc_law.c).  tcp_ccc.c explains each
 * step; what differs is only what the simulator lacks:
 *  - no parameter snapshots (a run's parameters do not change under it):
 *    init copies them into the socket, as the snapshot it would reference;
 *  - no tracepoint, no get_info;
 *  - no undo_cwnd (ns-3 has no undo of a spurious RTO), so the share of
 *    R_l that set_state saves for it (saved_share, CCC_F_SAVED) is not
 *    kept: nothing would read it;
 *  - no idle restart (cwnd_event): dcc_tx_start_after_idle() reads
 *    tp->app_limited and tp->delivered_mstamp, which the simulated socket
 *    does not carry, and ns-3 raises no CA_EVENT_TX_START; CCC's
 *    cwnd_event does nothing else, so there is none here;
 *  - no release: it only gives back the snapshot reference init took;
 *  - ccc_apply_changed() is dcc_apply() without its division (tcp_ccc.c):
 *    here dcc_sim_apply() itself;
 *  - the estimate of R_l (line_rate_mbps = 0, no device speed on the
 *    host) folds in a delivery rate once per RTT round, as tcp_ccc.c
 *    does with the rate sample's rs->delivered / rs->interval_us; the
 *    simulated ACK carries no rate sample, so the rate is what the socket
 *    delivered over the round that just ended (tp->delivered and the
 *    clock at the previous round start): the same flight, measured on
 *    the ACK clock;
 *  - the round's start (tcp_ccc.c: rs->prior_delivered) is tp->delivered
 *    less the sample's infl_pkts (rs->delivered), as the unit tests'
 *    adapter computes it.
 * Before init no hook runs here (dcc_sim_sock_init() runs init at once),
 * so the hooks do not test CCC_F_INITED.
 */
#include "dcc_sim.h"
#include "dcc/ccc.h"

#define CCC_SIM_INIT_CWND 10	/* Linux's TCP_INIT_CWND */

/* the module parameters, with tcp_ccc's defaults */
static u32 q_b_us;
static u32 line_rate_mbps;
static u32 base_rtt_us;
static u32 gamma_pct;
static u32 ut_pct;
static u32 qv_near_pct;
static u32 span_pct;
static u32 min_samples;
static u32 n_ai_max;
static u32 cwnd_gain_pct;
static u32 cwnd_qb;
static u32 start_mode;
static u32 init_rate_mbps;
static u32 fair_ai_pml;
static u32 share_base_rtt;

static struct dcc_sim_param ccc_sim_params[] = {
	{ "q_b_us", &q_b_us, 50, 1, 1000000 },
	{ "line_rate_mbps", &line_rate_mbps, 0, 0, 800000 },
	{ "base_rtt_us", &base_rtt_us, 0, 0, 1000000 },
	{ "gamma_pct", &gamma_pct, 20, 0, 99 },
	{ "ut_pct", &ut_pct, 5, 1, 100 },
	{ "qv_near_pct", &qv_near_pct, 5, 1, 50 },
	{ "span_pct", &span_pct, 25, 1, 400 },
	{ "min_samples", &min_samples, 8, 2, 255 },
	{ "n_ai_max", &n_ai_max, 10, 0, CCC_N_AI_MAX_LIMIT },
	{ "cwnd_gain_pct", &cwnd_gain_pct, 110, 50, 255 },
	{ "cwnd_qb", &cwnd_qb, 0, 0, 1 },
	{ "start_mode", &start_mode, 0, 0, 1 },
	{ "init_rate_mbps", &init_rate_mbps, 100, 1, 800000 },
	{ "fair_ai_pml", &fair_ai_pml, 31, 0, 1000 },
	{ "share_base_rtt", &share_base_rtt, 1, 0, 1 },
	{ NULL }
};

struct ccc_sim {
	struct ccc_state st;	/* the law's state */
	struct ccc_cfg cfg;	/* resolved config; cfg.p points at p */
	struct ccc_params p;	/* the socket's snapshot (struct ccc_snap) */
	u64 line_bytes_ps;	/* line_rate_mbps; 0 = estimate */
	u64 init_line_bytes_ps;	/* init_rate_mbps: the estimate's floor */
	u32 base_rtt_ns;	/* base_rtt_us; 0 = tcp_min_rtt() */
	u8 start_mode;
	u8 share_base_rtt;
	u32 round_end;		/* tp->delivered that ends this round */
	/* the R_l estimate's delivery rate (see the top comment) */
	u64 round_delivered;	/* tp->delivered at the last round start */
	u64 round_ns;		/* its time; 0 = no round started yet */
};

/* ccc_snap_fill() */
static void ccc_sim_snap(struct ccc_sim *ca)
{
	struct ccc_knobs k = {
		.q_b_us = q_b_us,
		.gamma_pct = gamma_pct,
		.ut_pct = ut_pct,
		.qv_near_pct = qv_near_pct,
		.span_pct = span_pct,
		.min_samples = min_samples,
		.n_ai_max = n_ai_max,
		.cwnd_gain_pct = cwnd_gain_pct,
		.cwnd_qb = cwnd_qb,
		.fair_ai_pml = fair_ai_pml,
	};

	ccc_params_init(&ca->p, &k);
	ca->line_bytes_ps = (u64)line_rate_mbps * DCC_MBPS_TO_BPS;
	ca->init_line_bytes_ps = (u64)init_rate_mbps * DCC_MBPS_TO_BPS;
	ca->base_rtt_ns = (u32)dcc_us_to_ns(base_rtt_us);
	ca->start_mode = (u8)start_mode;
	ca->share_base_rtt = (u8)share_base_rtt;
}

/*
 * The delivery rate of the round that ended now, + 25% (0 before the
 * first round has ended), and the new round's start noted.
 */
static u64 ccc_sim_round_rate(struct dcc_sim_sock *sk, struct ccc_sim *ca)
{
	u64 rate = 0;

	if (ca->round_ns && sk->now_ns > ca->round_ns &&
	    sk->delivered > ca->round_delivered) {
		rate = dcc_bytes_per_sec((sk->delivered - ca->round_delivered) *
					 sk->mss, sk->now_ns - ca->round_ns,
					 DCC_NSEC_PER_SEC);
		rate = min_t(u64, rate, DCC_RATE_MAX_BPS);  /* + 25% cannot wrap */
		rate += rate / 4;
	}
	ca->round_delivered = sk->delivered;
	ca->round_ns = sk->now_ns ? sk->now_ns : 1;
	return rate;
}

/* ccc_line_shared(): @fold, once per round; else only read */
static u64 ccc_sim_line_shared(struct dcc_sim_sock *sk, struct ccc_sim *ca,
			       bool fold)
{
	u64 rate = fold ? ccc_sim_round_rate(sk, ca) : 0;

	return dcc_sim_shared_line_rate(sk, rate, ca->init_line_bytes_ps);
}

/* ccc_resolve(): at init, on the first RTT sample, once per round (@fold) */
static void ccc_sim_resolve(struct dcc_sim_sock *sk, struct ccc_sim *ca,
			    bool fold, u32 rtt_ns)
{
	u32 old = ca->cfg.rttmin_ns, base = ca->base_rtt_ns, b;
	u64 line = ca->line_bytes_ps;
	u64 max_pacing = sk->max_pacing_rate ? sk->max_pacing_rate : U64_MAX;

	if (!base) {
		b = dcc_sim_auto_base_rtt_us(sk, ca->share_base_rtt);
		base = b ? (u32)min_t(u64, dcc_us_to_ns(b), CCC_RTT_MAX_NS) : old;
	}
	if (!base)
		base = rtt_ns;
	if (!line)
		line = max_t(u64, ccc_line(&ca->cfg),
			     ccc_sim_line_shared(sk, ca, fold));
	ccc_cfg_refresh(&ca->cfg, line, base, sk->mss, max_pacing);
	ccc_cfg_changed(&ca->st, old, &ca->cfg);
}

/* ccc_apply(): pacing rate r and cwnd cap (IW until an RTT exists) */
static void ccc_sim_apply(struct dcc_sim_sock *sk, const struct ccc_sim *ca,
			  const struct dcc_decision *d)
{
	u64 cwnd = d->cwnd_bytes;

	if (!ca->cfg.rttmin_ns)
		cwnd = (u64)CCC_SIM_INIT_CWND * sk->mss;
	dcc_sim_apply_bounded(sk, d->rate_bytes_ps, cwnd);
}

static void ccc_sim_init(struct dcc_sim_sock *sk)
{
	struct ccc_sim *ca = sk->ca;
	struct dcc_decision d;
	u64 r0;

	ccc_sim_snap(ca);
	ca->cfg.p = &ca->p;
	ccc_sim_resolve(sk, ca, false, 0);	/* RTT_min 0 if none yet */

	if (ca->start_mode == 1 && ca->cfg.rttmin_ns)
		r0 = (u64)CCC_SIM_INIT_CWND * sk->mss * DCC_NSEC_PER_SEC /
		     ca->cfg.rttmin_ns;
	else
		r0 = ccc_line(&ca->cfg);	/* line rate, as in 3.1 */
	ccc_state_init(&ca->st, &ca->cfg, r0);

	sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;	/* no slow start */
	ccc_decide(&ca->st, &ca->cfg, &d);
	ccc_sim_apply(sk, ca, &d);
}

/* the decision in force, applied again (the loss bound moved the window) */
static void ccc_sim_apply_decided(struct dcc_sim_sock *sk, struct ccc_sim *ca)
{
	struct dcc_decision d;

	ccc_decide(&ca->st, &ca->cfg, &d);
	ccc_sim_apply(sk, ca, &d);
}

/* ccc_apply_ack() */
static void ccc_sim_apply_ack(struct dcc_sim_sock *sk, struct ccc_sim *ca,
			      const struct dcc_decision *d, bool bound,
			      bool hold)
{
	if (d->changed) {
		if (bound)
			ccc_sim_apply(sk, ca, d);
		else	/* ccc_apply_changed() */
			dcc_sim_apply(sk, d->rate_bytes_ps, d->cwnd_bytes);
	} else if (hold) {
		ccc_sim_apply_decided(sk, ca);
	}
}

/* the BBR-style delivered-based RTT round (tcp_ccc.c) */
static bool ccc_sim_round_start(struct dcc_sim_sock *sk, struct ccc_sim *ca,
				const struct dcc_sample *s)
{
	u32 prior_delivered = (u32)(sk->delivered - s->infl_pkts);

	if ((s32)(prior_delivered - ca->round_end) < 0)	/* before() */
		return false;
	ca->round_end = (u32)sk->delivered;
	return true;
}

static void ccc_sim_cong_control(struct dcc_sim_sock *sk,
				 const struct dcc_sample *s)
{
	struct ccc_sim *ca = sk->ca;
	struct dcc_decision d;
	bool round_start, bound, hold = false;

	/*
	 * dcc_loss_ack(), its test kept for this ACK: nothing before the
	 * decision is applied sets or lifts a bound
	 */
	bound = dcc_sim_loss_bound_active(sk);
	if (bound)
		hold = dcc_sim_loss_ack(sk, s->acked);

	if (s->why) {
		/* no law step: the decision in force stands, bound or not */
		if (hold)
			ccc_sim_apply_decided(sk, ca);
		return;
	}
	if (!ca->cfg.rttmin_ns)		/* the first RTT sample */
		ccc_sim_resolve(sk, ca, false, max_t(u32, s->rtt_ns, 1));

	round_start = ccc_sim_round_start(sk, ca, s);
	ccc_on_ack(&ca->st, &ca->cfg, s, round_start, &d, NULL);
	ccc_sim_apply_ack(sk, ca, &d, bound, hold);
	if (d.flags & CCC_D_NEW_ROUND)	/* once per RTT: shared inputs */
		ccc_sim_resolve(sk, ca, true, 0);
}

static void ccc_sim_set_state(struct dcc_sim_sock *sk, u8 new_state)
{
	struct ccc_sim *ca = sk->ca;

	if (new_state != DCC_SIM_CA_LOSS)
		return;
	/* RTO (not in the paper: its fabric is lossless): halve r */
	ca->st.rate = max_t(u64, ca->cfg.r_min, ca->st.rate / 2);
	ca->st.flags |= CCC_S_REDECIDE;	/* r moved outside the law */
	ccc_state_forget(&ca->st);
}

static u32 ccc_sim_ssthresh(struct dcc_sim_sock *sk)
{
	/* r follows delay alone, as in the paper; dcc.h bounds the window */
	return dcc_sim_loss_ssthresh(sk);
}

const struct dcc_sim_alg dcc_sim_ccc = {
	.name = "ccc",
	.priv_size = sizeof(struct ccc_sim),
	.params = ccc_sim_params,
	.init = ccc_sim_init,
	.cong_control = ccc_sim_cong_control,
	.ssthresh = ccc_sim_ssthresh,
	.set_state = ccc_sim_set_state,
};
