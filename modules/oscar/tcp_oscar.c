// SPDX-License-Identifier: GPL-2.0
/*
 * OSCAR: O(1)-step convergence, delay-based congestion control
 * (Zhang et al., "OSCAR: O(1)-Step Convergence And Readily-deployable
 * Congestion Control", NSDI'26), for Linux as tcp_congestion_ops "oscar".
 *
 * Theory.  With a standing bottleneck queue, the RTT d reflects the
 * aggregate window (d = sum(w)/mu when flows are window-bound) and the
 * delay gradient g = dd/dt reflects the aggregate arrival rate
 * (1 + g = sum(r)/mu when flows are rate-bound).  A multiplicative step
 * whose factor comes from such a measurement of the aggregate lands every
 * flow on target at once, whatever n is: scale windows by D_target/d, or
 * rates by 1/(1 + g).  So OSCAR keeps one unified ratio u (a share of the
 * line rate mu), sets
 *
 *	cwnd = min(u * D_target * mu, BDP_base),   pacing rate = u * mu,
 *
 * and every batch of ACKs (tau ~ RTT_base/2 of send time) recomputes u from
 * the batch itself:
 *
 *	delay <= RTT_base + eps:  u += U_HAI			(empty queue)
 *	else:  u_w = inflight / (delay * mu)			(delay -> window)
 *	       u_r = rate / ((1 + g) * mu)			(gradient -> rate)
 *	       u = delay < D_target ? max(u_w, u_r) : min(u_w, u_r)
 *	       u += U_AI					(fairness)
 *
 * where delay, g, inflight and rate are the batch's mean RTT, least-squares
 * slope of RTT over send time, mean inflight at send and send rate
 * (dcc_lib's BLS estimator).  Because inflight and rate are those of the
 * very packets that produced the signal, a stale signal re-applied to its
 * stale state gives the same u again instead of compounding (no
 * overreaction), which is what allows a multiplicative step every half
 * RTT.  An imprecise signal only under-states its magnitude, hence max()
 * when accelerating and min() when decelerating.  U_AI after every MIMD
 * step raises Jain's index monotonically (Thm D.3).
 *
 * Paper symbol -> field:
 *	u			oscar->u (Q20, 1.0 = OSCAR_U_ONE)
 *	mu			oscar->mu_kbps (kbit/s; bytes/s = kbps * 125)
 *	RTT_base		oscar->base_us
 *	D_target		base_us * dt_pct / 100 (oscar_cfg())
 *	tau			base_us * tau_pct / 100
 *	U_AI, U_HAI, eps	oscar->u_ai, ->u_hai (Q20), ->eps_us
 *	"counts >= 3" (Alg. 1)	oscar->min_samples (default 16, see oscar.h)
 *	sendTs, recvTs		dcc_sample.tx_us, .rx_us (tcp_mstamp clock)
 *	pktInfl			dcc_sample.infl_pkts (rs->delivered)
 *	BE (Alg. 1)		oscar->bls (struct dcc_bls)
 *
 * What the paper leaves open, done as spec oscar.md recommends:
 *  - loss/RTO/recovery: u has no loss-driven decrease (the paper has
 *    none), but the window does: dcc_lib's loss bound (dcc.h) holds cwnd
 *    to half of what was in flight at each loss, growing back per round
 *    until u's own window fits.  Without it, 1000 flows that each start
 *    at u = 1 overflowed a 2000-packet drop-tail queue for the whole run
 *    and filled 10.5-11.2 of 20 Mbit/s; with it 19.7-19.9
 *    (test_many_flows.sh).  The batch is reset on RTO since its samples
 *    span the stall (8-11);
 *  - idle restart (CA_EVENT_TX_START): u is kept, the batch is reset so
 *    no batch spans the idle gap (8-14); batches longer than 4 tau are
 *    discarded as stale anyway (8-7);
 *  - app-limited batches (most samples app-limited): u may rise, not fall
 *    (8-12);
 *  - the initial window's packets (sent before the first ACK) join no
 *    batch: their inflight is a ramp, not a reference state (see
 *    oscar_cong_control());
 *  - mu: module parameter; 0 = estimate (see oscar_mu_observe());
 *    RTT_base: parameter, else tcp_min_rtt() lowered to the shared
 *    per-destination minimum, once per batch (8-9; see
 *    oscar_update_base()).
 *
 * Lifecycle as in dcc.h: hooks before init leave the state alone.
 *
 * All state lives in icsk_ca_priv; nothing here sleeps or allocates.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/oscar.h"

#define CREATE_TRACE_POINTS
#include "oscar_trace.h"

/* ---- tunables (validated; snapshotted per socket in oscar_init) ------- */

static u32 line_rate_mbps;		/* mu; 0 = estimate */
static u32 base_rtt_us;			/* 0 = tcp_min_rtt() */
static u32 dtarget_pct = 150;		/* D_target = 1.5 RTT_base (Table 4) */
static u32 tau_pct = 50;		/* tau = 0.5 RTT_base (4.4) */
static u32 u_ai_ppm = 1000;		/* U_AI = 0.001 (Table 4) */
static u32 u_hai_ppm = 10000;		/* U_HAI = 0.01 (Table 4) */
static u32 u_min_ppm = 1000;		/* u floor 0.001 (artifact) */
static u32 eps_us;			/* 0 = auto: max(2, RTT_base / 12) */
static u32 hyst_us;			/* delta, 0 as the paper writes it */
static u32 init_rate_mbps = 100;	/* estimate mode: mu before any sample */
static u32 min_samples = OSCAR_MIN_SAMPLES_DEFAULT;	/* see oscar.h */
static u32 share_base_rtt = 1;		/* auto RTT_base: min over the netns's
					 * dcc flows to the destination
					 */

dcc_param_range(line_rate_mbps, line_rate_mbps, 0, 800000, 0644,
		"bottleneck (line) rate mu in Mbit/s, 0 = estimate from delivery rate");
dcc_param_range(base_rtt_us, base_rtt_us, 0, 1000000, 0644,
		"base RTT in us, 0 = tcp_min_rtt() of each socket");
dcc_param_range(dtarget_pct, dtarget_pct, 101, 1000, 0644,
		"target delay D_target as % of the base RTT");
dcc_param_range(tau_pct, tau_pct, 10, 200, 0644,
		"batch length / control period tau as % of the base RTT");
dcc_param_range(u_ai_ppm, u_ai_ppm, 0, 100000, 0644,
		"additive increase U_AI per batch, ppm of mu");
dcc_param_range(u_hai_ppm, u_hai_ppm, 0, 1000000, 0644,
		"hyper additive increase U_HAI on an empty queue, ppm of mu");
dcc_param_range(u_min_ppm, u_min_ppm, 1, 1000000, 0644,
		"floor of the unified ratio u, ppm of mu");
dcc_param_range(eps_us, eps_us, 0, 65535, 0644,
		"empty-queue margin epsilon in us, 0 = max(2, base RTT / 12)");
dcc_param_range(hyst_us, hyst_us, 0, 65535, 0644,
		"hysteresis delta on the accelerate test, us");
dcc_param_range(init_rate_mbps, init_rate_mbps, 1, 800000, 0644,
		"estimate mode only: mu in Mbit/s before any delivery-rate sample");
dcc_param_range(min_samples, min_samples, 3, 255, 0644,
		"ACKs a batch needs before it closes (paper: 3; 16 resists timestamp noise)");
dcc_param_range(share_base_rtt, share_base_rtt, 0, 1, 0644,
		"base_rtt_us = 0: use the lowest min RTT of the dcc flows of this network namespace to the same destination");

/*
 * Estimate mode (line_rate_mbps = 0): mu is the highest batch send rate,
 * with 25% headroom, that any dcc flow of the socket's network namespace
 * has measured through the same egress device within tcp_min_rtt_wlen
 * (dcc_shared_line_rate), never below init_rate_mbps.  Shared so that
 * the flows of a host agree on mu (u is a share of it, and U_AI must be
 * the same absolute step for fairness).  Each batch's rate is at most
 * u * mu <= mu, so the headroom lets mu grow by up to 1.25x per batch
 * until the path, not mu, limits the rate; a socket's mu never falls.
 * Operators who know their line rate should set it: the paper assumes mu
 * is known.
 */

/* ---- per-socket state: 104 bytes, BUILD_BUG_ON'd ---------------------- */

#define OSCAR_F_INITED	0x1
#define OSCAR_F_AUTO_MU	0x2	/* mu estimated (line_rate_mbps = 0) */
#define OSCAR_F_AUTO_BASE 0x4	/* RTT_base follows tcp_min_rtt() */

struct oscar {
	struct dcc_bls bls;	/* Alg. 1 batch sums (64 B) */
	u32 u;			/* unified ratio, Q20 */
	u32 base_us;		/* RTT_base in use */
	u32 mu_kbps;		/* mu in kbit/s (<= 8e8 fits u32) */
	u32 last_delay_us;	/* last batch mean delay (get_info) */
	u32 u_ai;		/* snapshot, Q20 */
	u32 u_hai;		/* snapshot, Q20 */
	u32 u_min;		/* snapshot, Q20 */
	u16 eps_us;		/* snapshot, 0 = auto */
	u8 min_samples;		/* snapshot */
	u8 pad;
	u16 dt_pct;		/* snapshot */
	u16 hyst_us;		/* snapshot */
	u16 app_lim;		/* app-limited samples in the open batch */
	u8 tau_pct;		/* snapshot */
	u8 flags;		/* OSCAR_F_* */
};

/* mu as bytes/s: kbit/s * 125 (< 2^37 at 800 Gbit/s) */
static u64 oscar_mu_bytes_ps(const struct oscar *ca)
{
	return (u64)READ_ONCE(ca->mu_kbps) * 125;
}

/* Resolve the law's inputs for this socket from its snapshot. */
static void oscar_cfg(const struct oscar *ca, struct oscar_law_cfg *c)
{
	/* base_us and mu_kbps change per batch; get_info reads them too */
	u32 base = max_t(u32, READ_ONCE(ca->base_us), 1);

	c->mu_bytes_ps = oscar_mu_bytes_ps(ca);
	c->base_us = base;
	c->dt_us = (u32)div_u64((u64)base * ca->dt_pct, 100);
	c->eps_us = ca->eps_us ? ca->eps_us : max_t(u32, 2, base / 12);
	c->hyst_us = ca->hyst_us;
	c->u_ai = ca->u_ai;
	c->u_hai = ca->u_hai;
	c->u_min = ca->u_min;
}

/*
 * A batch older than this is stale (spans an idle gap): 4 tau (artifact),
 * or, for a flow too slow to collect min_samples ACKs in 4 tau, twice the
 * time it needs for them at its current rate -- otherwise every batch of a
 * slow flow would close stale and its rate loop would never act.
 * rate >= mss bytes/s (dcc_apply's floor) bounds the result to ~2*255 s.
 */
static u32 oscar_stale_us(const struct oscar *ca,
			  const struct oscar_law_cfg *c, u32 tau, u32 mss)
{
	u64 need = dcc_mul_div((u64)2 * ca->min_samples * mss, DCC_USEC_PER_SEC,
			       max_t(u64, oscar_rate(c, ca->u), 1));

	return (u32)min_t(u64, max_t(u64, 4ULL * tau, need), U32_MAX);
}

/* tau in us, never below 2 us (a batch needs spread in us send times) */
static u32 oscar_tau_us(const struct oscar *ca)
{
	return max_t(u32, 2, (u32)div_u64((u64)ca->base_us * ca->tau_pct, 100));
}

/* Estimate mode: the shared mu after folding in @rate_bytes_ps (0: read), kbit/s */
static u32 oscar_mu_shared_kbps(const struct sock *sk, u64 rate_bytes_ps)
{
	u64 floor = (u64)READ_ONCE(init_rate_mbps) * DCC_MBPS_TO_BPS;
	u64 mu = dcc_shared_line_rate(sk, rate_bytes_ps, floor);	/* <= 1e11 */

	return (u32)div_u64(mu, 125);
}

/* Estimate mode: fold a measured send rate into the shared mu. */
static void oscar_mu_observe(const struct sock *sk, struct oscar *ca,
			     u64 rate_bytes_ps)
{
	/* 25% headroom; rate_bytes_ps <= 2^40 in any batch (BLS), no overflow */
	u32 kbps = oscar_mu_shared_kbps(sk, rate_bytes_ps * 5 / 4);

	if (kbps > ca->mu_kbps)
		WRITE_ONCE(ca->mu_kbps, kbps);
}

/* cwnd and pacing from u: idempotent, run on every ACK. */
static void oscar_apply(struct sock *sk, const struct oscar *ca,
			const struct oscar_law_cfg *c)
{
	dcc_apply_bounded(sk, oscar_rate(c, ca->u), oscar_cwnd_bytes(c, ca->u));
}

static void oscar_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct oscar *ca = inet_csk_ca(sk);
	struct oscar_law_cfg c;
	u32 mu = READ_ONCE(line_rate_mbps);
	u32 base = READ_ONCE(base_rtt_us);

	BUILD_BUG_ON(sizeof(struct oscar) > ICSK_CA_PRIV_SIZE);

	*ca = (struct oscar){
		.u = OSCAR_U_ONE,	/* start at line rate (4.6) */
		.u_ai = OSCAR_PPM_TO_U(READ_ONCE(u_ai_ppm)),
		.u_hai = OSCAR_PPM_TO_U(READ_ONCE(u_hai_ppm)),
		.u_min = max_t(u32, 1, OSCAR_PPM_TO_U(READ_ONCE(u_min_ppm))),
		.eps_us = READ_ONCE(eps_us),
		.min_samples = READ_ONCE(min_samples),
		.dt_pct = READ_ONCE(dtarget_pct),
		.hyst_us = READ_ONCE(hyst_us),
		.tau_pct = READ_ONCE(tau_pct),
		.flags = OSCAR_F_INITED | (mu ? 0 : OSCAR_F_AUTO_MU) |
			 (base ? 0 : OSCAR_F_AUTO_BASE),
	};
	ca->mu_kbps = mu ? mu * 1000 : oscar_mu_shared_kbps(sk, 0);
	/* before any RTT sample: 1 ms, replaced as soon as one exists */
	ca->base_us = base ? base :
		dcc_auto_base_rtt_us(sk, READ_ONCE(share_base_rtt));
	if (!ca->base_us)
		ca->base_us = USEC_PER_MSEC;

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	oscar_cfg(ca, &c);
	oscar_apply(sk, ca, &c);
}

/*
 * Auto base RTT follows tcp_min_rtt() (a windowed min, 300 s default),
 * lowered to the shared per-destination minimum (share_base_rtt, read
 * live).  The paper takes RTT_base as known (8-9).  A flow that joins
 * while the others hold a queue near D_target never sees the empty path
 * on its own: its RTT_base includes that queue, so its D_target = 1.5
 * RTT_base sits above the queue the others hold, it keeps increasing
 * while they decrease, and it takes the link (bench joinleave, 4 -> 8
 * flows from one host, 10 s phases: three newcomers at RTT_base 11.9-12.2
 * vs 10.0 ms, Jain 0.30 and 0.35 in two of three repetitions).  dcc_lib.c
 * explains the table's limits.  Looked up once per batch: the table is a
 * host-wide cache line and the base moves on the scale of RTTs.
 */
static void oscar_update_base(struct sock *sk, struct oscar *ca)
{
	u32 b;

	if (!(ca->flags & OSCAR_F_AUTO_BASE))
		return;
	b = dcc_auto_base_rtt_us(sk, READ_ONCE(share_base_rtt));
	if (b)
		WRITE_ONCE(ca->base_us, b);
}

/* One closed batch: Alg. 2 lines 4-13. */
static void oscar_on_batch(struct sock *sk, struct oscar *ca,
			   const struct dcc_bls_out *b)
{
	struct oscar_law_cfg c;
	struct oscar_decision d;
	bool app_limited = ca->app_lim * 2 > b->samples;

	if (b->rate_bytes_ps && !app_limited && (ca->flags & OSCAR_F_AUTO_MU))
		oscar_mu_observe(sk, ca, b->rate_bytes_ps);
	oscar_cfg(ca, &c);
	oscar_law_step(&c, b, ca->u, app_limited, &d);
	WRITE_ONCE(ca->u, d.u);
	WRITE_ONCE(ca->last_delay_us, (u32)min_t(u64, b->delay, U32_MAX));
	ca->app_lim = 0;
	/* the next batch's tau and target follow the base RTT */
	oscar_update_base(sk, ca);

	oscar_apply(sk, ca, &c);	/* c was resolved after mu_observe */
	trace_oscar_batch(sk, ca->last_delay_us, b->grad_q16, b->infl_bytes,
			  b->rate_bytes_ps, b->samples, d.u_w, d.u_r, d.u, d.branch,
			  tcp_snd_cwnd(tcp_sk(sk)), READ_ONCE(sk->sk_pacing_rate));
}

static void oscar_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct oscar *ca = inet_csk_ca(sk);
	struct dcc_sample s;
	struct dcc_bls_out out;
	struct dcc_bls_cfg cfg;
	struct dcc_bls_sample bs;
	struct oscar_law_cfg c;
	u32 tau;

	if (unlikely(!(ca->flags & OSCAR_F_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	dcc_loss_ack(sk, rs);	/* dcc.h: loss bound */

	/*
	 * A packet of the initial window left while the window was still
	 * filling: its inflight is a point on the 0 -> cwnd ramp, so a batch
	 * of them makes u_w = inflight / (delay * mu) read about half the
	 * flow's real window, and min(u_w, u_r) at a join then cuts the
	 * joiner to ~half the incumbent's share, which only U_AI undoes
	 * (measured: a 34/61 Mbit/s split after a join, 4 s to within 20%).
	 * The reference-state rule (4.1.2) needs the state the signal was
	 * produced with; during the ramp there is none, so OSCAR's first
	 * batch starts with the first packet sent after an ACK.  The flow
	 * runs at line rate with a base-BDP window meanwhile, as 4.6 has it.
	 */
	if (!dcc_sample_get(sk, rs, &s, 0) || s.first_window) {
		oscar_cfg(ca, &c);
		goto apply;
	}

	oscar_cfg(ca, &c);	/* once per ACK: stale limit and apply share it */
	tau = oscar_tau_us(ca);
	cfg = (struct dcc_bls_cfg){
		.tau = tau,
		.stale = oscar_stale_us(ca, &c, tau, tcp_sk(sk)->mss_cache),
		.units_per_sec = DCC_USEC_PER_SEC,
		.min_samples = ca->min_samples,	/* Alg. 1: 3; see oscar.h */
		.bytes_per_pkt = tcp_sk(sk)->mss_cache,
		.shift = dcc_bls_shift_for(tau),
	};
	bs = (struct dcc_bls_sample){
		.send_ts = s.tx_us,
		.delay = s.rtt_us,
		.pkts = s.acked,
		.infl = s.infl_pkts,
	};
	if (s.app_limited && ca->app_lim < U16_MAX)
		ca->app_lim++;
	if (dcc_bls_add(&ca->bls, &cfg, &bs, &out)) {
		oscar_on_batch(sk, ca, &out);
		return;
	}
apply:
	oscar_apply(sk, ca, &c);
}

static void oscar_reset_batch(struct oscar *ca)
{
	dcc_bls_reset(&ca->bls);
	ca->app_lim = 0;
}

static void oscar_set_state(struct sock *sk, u8 new_state)
{
	struct oscar *ca = inet_csk_ca(sk);

	/* RTO: samples across the stall are stale; u is kept (spec 8-11) */
	if (new_state == TCP_CA_Loss && (ca->flags & OSCAR_F_INITED))
		oscar_reset_batch(ca);
}

static void oscar_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct oscar *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: no batch may span the gap (spec 8-14).  Not
	 * every TX_START: a small window that one ACK clears raises it every
	 * round, and each reset would throw the open batch away.
	 */
	if (ev == CA_EVENT_TX_START && (ca->flags & OSCAR_F_INITED) &&
	    dcc_tx_start_after_idle(sk, ca->base_us))
		oscar_reset_batch(ca);
}

static u32 oscar_ssthresh(struct sock *sk)
{
	const struct oscar *ca = inet_csk_ca(sk);

	/* u is kept (the paper has no loss response); the window is bounded */
	if (!(ca->flags & OSCAR_F_INITED))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	return dcc_loss_ssthresh(sk);
}

static u32 oscar_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti: reuses the BBR info layout, which ss prints in full:
 *	bw		pacing rate u * mu (bytes/s)
 *	mrtt		RTT_base (us)
 *	pacing_gain	u (ss shows it / 256: 1.0 = line rate)
 *	cwnd_gain	last batch delay / D_target (1.0 = on target)
 */
static size_t oscar_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct oscar *ca = inet_csk_ca(sk);
	struct oscar_law_cfg c;
	u32 u, delay;
	u64 bw;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	/* ss may read while an ACK updates: each per-batch field once */
	u = READ_ONCE(ca->u);
	delay = READ_ONCE(ca->last_delay_us);
	oscar_cfg(ca, &c);
	bw = oscar_rate(&c, u);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = c.base_us;
	info->bbr.bbr_pacing_gain = u >> (OSCAR_U_SHIFT - 8);
	info->bbr.bbr_cwnd_gain = c.dt_us ?
		(u32)div_u64((u64)delay << 8, c.dt_us) : 0;
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops tcp_oscar __read_mostly = {
	.name		= "oscar",
	.owner		= THIS_MODULE,
	.init		= oscar_init,
	.cong_control	= oscar_cong_control,
	.ssthresh	= oscar_ssthresh,
	.undo_cwnd	= oscar_undo_cwnd,
	.set_state	= oscar_set_state,
	.cwnd_event	= oscar_cwnd_event,
	.get_info	= oscar_get_info,
};

static int __init oscar_register(void)
{
	return dcc_register_ca(&tcp_oscar);
}

static void __exit oscar_unregister(void)
{
	dcc_unregister_ca(&tcp_oscar);
}

module_init(oscar_register);
module_exit(oscar_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("OSCAR: O(1)-step convergence delay-based congestion control (NSDI'26)");
