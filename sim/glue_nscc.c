// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_nscc's glue (modules/nscc/tcp_nscc.c) on a simulated socket
 * (dcc_sim.h): one module, two ops, "nscc" and "mnscc" (the median-filtered
 * variant), both TCP_CONG_NEEDS_ECN; the same module parameters and
 * defaults, shared by both as in the module, the same hooks, around the
 * same core (modules/nscc/nscc_law.c).  tcp_nscc.c explains each step;
 * what differs is only what the simulator lacks:
 *  - no parameter snapshots (a run's parameters do not change under it):
 *    init copies them into the socket, as the snapshot it would reference;
 *    the config (struct nscc_conf) lives in the socket itself, so there is
 *    no allocation that can fail, no unresolved per-ACK path
 *    (nscc_ack_unresolved()) and no release (it only frees the two);
 *  - no tracepoint, no get_info, no log line for a socket without ECN;
 *  - no undo_cwnd (ns-3 has no undo of a spurious recovery);
 *  - cwnd_event: the RTO (CA_EVENT_LOSS) only.  The ECN events drive the
 *    receiver's per-packet CE echo (dcc_ecn_echo(): DCTCP's state machine,
 *    which sends ACKs), which is the simulator's receiver's to do, not a
 *    sender's glue's; the idle restart (CA_EVENT_TX_START) needs
 *    dcc_tx_start_after_idle(), which reads tp->app_limited and
 *    tp->delivered_mstamp, which the simulated socket does not carry, and
 *    ns-3 raises no CA_EVENT_TX_START;
 *  - the per-ACK ECN count is the per-ACK change of tp->delivered_ce, as
 *    tcp_nscc.c takes it (the adapter keeps sk->delivered_ce; in the
 *    simulator it equals the sample's own ce);
 *  - tcp_is_cwnd_limited(), which the core reads, has no field in the
 *    simulated socket: nscc_sim_cwnd_limited() re-states it from
 *    packets_out (see there).
 * Before init no hook runs here (dcc_sim_sock_init() runs init at once),
 * so the hooks do not test NSCC_S_INITED.
 */
#include "dcc_sim.h"
#include "dcc/nscc.h"

/* the module parameters, with tcp_nscc's defaults */
static u32 nic_mbps;
static u32 network_rtt_us;
static u32 target_us;
static u32 target_pct;
static u32 prop_gain_x100;
static u32 fi_x100;
static u32 eta_x100;
static u32 fi_scale_x100;
static u32 fi_thresh_us;
static u32 gamma_pct;
static u32 md_floor_pct;
static u32 delay_alpha_ppm;
static u32 qa_gate;
static u32 qa_thresh_pct;
static u32 fulfill_bytes;
static u32 maxwnd_pct;
static u32 init_cwnd_pct;
static u32 noecn_mark_pct;
static u32 ecn_backstop_pct;
static u32 ecn_backstop_mode;
static u32 median_hmax;
static u32 median_ewma;
static u32 median_lower;
static u32 cwnd_limited_only;
static u32 pacing_gain_pct;
static u32 base_rtt_us;
static u32 share_base_rtt;

static struct dcc_sim_param nscc_sim_params[] = {
	{ "nic_mbps", &nic_mbps, 0, 0, 800000 },
	{ "network_rtt_us", &network_rtt_us, 0, 0, 1000000 },
	{ "target_us", &target_us, 0, 0, 1000000 },
	{ "target_pct", &target_pct, 100, 1, 1000 },
	{ "prop_gain_x100", &prop_gain_x100, 400, 0, 10000 },
	{ "fi_x100", &fi_x100, 500, 0, 10000 },
	{ "eta_x100", &eta_x100, 15, 0, 10000 },
	{ "fi_scale_x100", &fi_scale_x100, 25, 0, 10000 },
	{ "fi_thresh_us", &fi_thresh_us, 0, 0, 1000000 },
	{ "gamma_pct", &gamma_pct, 80, 1, 100 },
	{ "md_floor_pct", &md_floor_pct, 50, 1, 99 },
	{ "delay_alpha_ppm", &delay_alpha_ppm, 12500, 1, 1000000 },
	{ "qa_gate", &qa_gate, 3, 0, 16 },
	{ "qa_thresh_pct", &qa_thresh_pct, 400, 100, 10000 },
	{ "fulfill_bytes", &fulfill_bytes, 8 * NSCC_MTU_REF, 1, 1073741824 },
	{ "maxwnd_pct", &maxwnd_pct, 150, 100, 1000 },
	{ "init_cwnd_pct", &init_cwnd_pct, 100, 0, 100 },
	{ "noecn_mark_pct", &noecn_mark_pct, 125, 0, 10000 },
	{ "ecn_backstop_pct", &ecn_backstop_pct, 150, 0, 10000 },
	{ "ecn_backstop_mode", &ecn_backstop_mode, NSCC_BACKSTOP_OFF, 0, 2 },
	{ "median_hmax", &median_hmax, NSCC_MED_HMAX, 1, 4 },
	{ "median_ewma", &median_ewma, 0, 0, 1 },
	{ "median_lower", &median_lower, 1, 0, 1 },
	{ "cwnd_limited_only", &cwnd_limited_only, 1, 0, 1 },
	{ "pacing_gain_pct", &pacing_gain_pct, 120, 100, 1000 },
	{ "base_rtt_us", &base_rtt_us, 0, 0, 1000000 },
	{ "share_base_rtt", &share_base_rtt, 1, 0, 1 },
	{ NULL }
};

/* struct nscc_state.glue bits (the law never touches them) */
#define NSCC_G_MNSCC	0x01	/* this socket runs mnscc */

#define NSCC_SIM_SHARE_PKTS 128	/* dcc.h's DCC_SHARE_PKTS */

/* defined at the end (tcp_nscc.c declares tcp_mnscc so too) */
const struct dcc_sim_alg dcc_sim_mnscc;

/*
 * struct nscc and its struct nscc_conf in one: the law's state, the
 * socket's parameters and resolved config, what it was resolved from and
 * what the last decision applied left on the socket.
 */
struct nscc_sim {
	struct nscc_state st;		/* the law's state */
	struct nscc_params p;		/* parameters at init (the snapshot) */
	u32 snap_base_rtt_us;		/* the snapshot's base_rtt_us */
	bool share;			/* the snapshot's share_base_rtt */
	struct nscc_cfg c;		/* c.mss: the MSS it was resolved for */
	u32 base_us;			/* nscc_sim_base_of() c was resolved for */
	u32 shared_us;			/* the shared minimum last read; 0: none */
	bool ecn;			/* ECN c was resolved for */
	/* the fast per-ACK check (nscc_sim_current) */
	u32 min_rtt_us;			/* tcp_min_rtt() at the last check */
	u32 mss_cache;			/* the MSS then; 0: check every ACK */
	u32 snd_cwnd;			/* snd_cwnd the last decision set */
	u64 max_rate;			/* sk_max_pacing_rate it was capped to */
	u32 prev_delivered_ce;		/* tp->delivered_ce at the last ACK */
	/* tcp_is_cwnd_limited()'s inputs (nscc_sim_cwnd_limited) */
	u32 max_packets_out;		/* the most in flight this window */
	u64 cwnd_usage_end;		/* tp->delivered that ends the window */
};

/* nscc_snap_fill() */
static void nscc_sim_snap(struct nscc_sim *ca)
{
	ca->p = (struct nscc_params){
		.nic_mbps = nic_mbps,
		.network_rtt_us = network_rtt_us,
		.target_us = target_us,
		.target_pct = target_pct,
		.prop_gain_x100 = prop_gain_x100,
		.fi_x100 = fi_x100,
		.eta_x100 = eta_x100,
		.fi_scale_x100 = fi_scale_x100,
		.fi_thresh_us = fi_thresh_us,
		.gamma_pct = gamma_pct,
		.md_floor_pct = md_floor_pct,
		.delay_alpha_ppm = delay_alpha_ppm,
		.qa_gate = qa_gate,
		.qa_thresh_pct = qa_thresh_pct,
		.fulfill_bytes = fulfill_bytes,
		.maxwnd_pct = maxwnd_pct,
		.init_cwnd_pct = init_cwnd_pct,
		.noecn_mark_pct = noecn_mark_pct,
		.ecn_backstop_pct = ecn_backstop_pct,
		.ecn_backstop_mode = ecn_backstop_mode,
		.median_hmax = median_hmax,
		.median_ewma = median_ewma,
		.median_lower = median_lower,
		.cwnd_limited_only = cwnd_limited_only,
		.pacing_gain_pct = pacing_gain_pct,
	};
	ca->snap_base_rtt_us = base_rtt_us;
	ca->share = share_base_rtt;
}

/* nscc_base_of(): the own minimum, lowered to base_rtt_us and @shared_us */
static u32 nscc_sim_base_of(const struct dcc_sim_sock *sk,
			    const struct nscc_sim *ca, u32 shared_us)
{
	u32 b = dcc_sim_base_rtt_us(sk);

	if (ca->snap_base_rtt_us && (!b || ca->snap_base_rtt_us < b))
		b = ca->snap_base_rtt_us;
	if (shared_us && (!b || shared_us < b))
		b = shared_us;
	return b;
}

/* nscc_share_read(): dcc_shared_min_rtt_us() with the own minimum folded in */
static void nscc_sim_share_read(struct dcc_sim_sock *sk, struct nscc_sim *ca)
{
	if (ca->share && sk->min_rtt_us)
		ca->shared_us = dcc_sim_auto_base_rtt_us(sk, true);
}

/* nscc_conf_refresh() */
static void nscc_sim_refresh(struct dcc_sim_sock *sk, struct nscc_sim *ca)
{
	u32 mss = sk->mss ? sk->mss : 1;
	bool ecn = sk->ecn_ok;
	u32 base_us;

	nscc_sim_share_read(sk, ca);
	base_us = nscc_sim_base_of(sk, ca, ca->shared_us);
	if (base_us != ca->base_us || mss != ca->c.mss || ecn != ca->ecn) {
		nscc_resolve_nic(&ca->p, dcc_sim_egress_speed_mbps(sk),
				 dcc_us_to_ns(base_us), mss, ecn,
				 ca->st.glue & NSCC_G_MNSCC, &ca->c);
		ca->base_us = base_us;
		ca->ecn = ecn;
		nscc_decision_stale(&ca->st);	/* new bounds */
	} else if (ca->snd_cwnd != sk->snd_cwnd ||
		   ca->max_rate != sk->max_pacing_rate) {
		nscc_decision_stale(&ca->st);
	}
	ca->min_rtt_us = sk->min_rtt_us;
	ca->mss_cache = sk->min_rtt_us ? sk->mss : 0;
}

/* dcc_share_due(): this ACK carried tp->delivered across DCC_SHARE_PKTS */
static bool nscc_sim_share_due(const struct dcc_sim_sock *sk, u32 acked)
{
	u32 delivered = (u32)sk->delivered;

	return (delivered ^ (delivered - acked)) >= NSCC_SIM_SHARE_PKTS;
}

/* nscc_conf_current() */
static bool nscc_sim_current(const struct dcc_sim_sock *sk,
			     const struct nscc_sim *ca, u32 acked)
{
	return ca->min_rtt_us == sk->min_rtt_us && ca->mss_cache == sk->mss &&
	       ca->ecn == sk->ecn_ok && ca->snd_cwnd == sk->snd_cwnd &&
	       ca->max_rate == sk->max_pacing_rate &&
	       !(ca->share && nscc_sim_share_due(sk, acked));
}

/* nscc_cfg(): the resolved config, refreshed, outside the per-ACK path */
static const struct nscc_cfg *nscc_sim_cfg(struct dcc_sim_sock *sk,
					   struct nscc_sim *ca)
{
	nscc_sim_refresh(sk, ca);
	nscc_decision_stale(&ca->st);
	return &ca->c;
}

/* nscc_srtt_ns() */
static u64 nscc_sim_srtt_ns(const struct dcc_sim_sock *sk)
{
	return (u64)sk->srtt_us * 1000;
}

/* nscc_apply(): a changed decision, and what it left on the socket */
static void nscc_sim_apply(struct dcc_sim_sock *sk, struct nscc_sim *ca,
			   const struct dcc_decision *d)
{
	dcc_sim_apply(sk, d->rate_bytes_ps, d->cwnd_bytes);
	ca->snd_cwnd = sk->snd_cwnd;
	ca->max_rate = sk->max_pacing_rate;
}

/*
 * tcp_is_cwnd_limited() with snd_ssthresh infinite, as NSCC keeps it
 * (tcp_in_slow_start()): snd_cwnd < 2 max_packets_out, the most packets
 * in flight in the current window (tcp_cwnd_validate() starts a window
 * when snd_una passes what was sent at the last start).  The simulated
 * socket has neither, so: in flight before this ACK (packets_out after
 * it, plus what it (S)ACKed: what the last sends left), at most over the
 * window that began when the last start's flight was delivered.
 * (Linux's is_cwnd_limited flag adds nothing here: a send loop stopped
 * by cwnd leaves packets_out = snd_cwnd >= 2, and this test holds.)
 */
static bool nscc_sim_cwnd_limited(const struct dcc_sim_sock *sk,
				  struct nscc_sim *ca, u32 acked)
{
	u32 out = sk->packets_out + acked;

	if (sk->delivered >= ca->cwnd_usage_end) {
		ca->max_packets_out = out;
		ca->cwnd_usage_end = sk->delivered + out;
	} else if (out > ca->max_packets_out) {
		ca->max_packets_out = out;
	}
	return sk->snd_cwnd < 2ULL * ca->max_packets_out;
}

static void nscc_sim_init(struct dcc_sim_sock *sk)
{
	struct nscc_sim *ca = sk->ca;
	u8 mnscc = sk->alg == &dcc_sim_mnscc ? NSCC_G_MNSCC : 0;
	const struct nscc_cfg *c;
	struct dcc_decision d;

	nscc_sim_snap(ca);
	ca->st.glue = mnscc;
	c = nscc_sim_cfg(sk, ca);
	nscc_state_init(&ca->st, c, sk->now_ns);
	ca->st.glue = mnscc;
	ca->prev_delivered_ce = (u32)sk->delivered_ce;

	sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;	/* no slow start */
	nscc_decide(&ca->st, c, nscc_sim_srtt_ns(sk), &d);
	nscc_sim_apply(sk, ca, &d);
}

/* nscc_ack(): one ACK through the law; a changed decision is applied */
static void nscc_sim_ack(struct dcc_sim_sock *sk, struct nscc_sim *ca,
			 const struct dcc_sample *s)
{
	struct dcc_sample a = *s;
	struct dcc_decision d;
	struct nscc_out o;
	bool cwnd_limited = nscc_sim_cwnd_limited(sk, ca, s->acked);

	/* NSCC's ECN bit is this ACK's: the per-ACK change of delivered_ce */
	a.ce = (u32)sk->delivered_ce - ca->prev_delivered_ce;
	ca->prev_delivered_ce = (u32)sk->delivered_ce;
	nscc_on_ack(&ca->st, &ca->c, &a, nscc_sim_srtt_ns(sk), sk->packets_out,
		    cwnd_limited, sk->ca_state == DCC_SIM_CA_LOSS, &d, &o);
	if (d.changed)
		nscc_sim_apply(sk, ca, &d);
}

static void nscc_sim_cong_control(struct dcc_sim_sock *sk,
				  const struct dcc_sample *s)
{
	struct nscc_sim *ca = sk->ca;

	if (!nscc_sim_current(sk, ca, s->acked))
		nscc_sim_refresh(sk, ca);
	nscc_sim_ack(sk, ca, s);
}

static void nscc_sim_cwnd_event(struct dcc_sim_sock *sk, int ev)
{
	struct nscc_sim *ca = sk->ca;

	/* RTO: one packet less [H] (the law conserves packets while in Loss) */
	if (ev == DCC_SIM_EV_LOSS)
		nscc_on_rto(&ca->st, nscc_sim_cfg(sk, ca), sk->mss ? sk->mss : 1);
}

static u32 nscc_sim_ssthresh(struct dcc_sim_sock *sk)
{
	/* ECE (CWR), recovery, RTO: NSCC cuts cwnd itself, not the core */
	return sk->snd_ssthresh;
}

/* the two ops of tcp_nscc.c: one glue, the variant read from sk->alg */
#define NSCC_SIM_OPS(str) {					\
	.name = str,						\
	.priv_size = sizeof(struct nscc_sim),			\
	.params = nscc_sim_params,				\
	.needs_ecn = true,					\
	.init = nscc_sim_init,					\
	.cong_control = nscc_sim_cong_control,			\
	.ssthresh = nscc_sim_ssthresh,				\
	.cwnd_event = nscc_sim_cwnd_event,			\
}

const struct dcc_sim_alg dcc_sim_nscc = NSCC_SIM_OPS("nscc");
const struct dcc_sim_alg dcc_sim_mnscc = NSCC_SIM_OPS("mnscc");
