// SPDX-License-Identifier: GPL-2.0
/*
 * CCC: CiD-sensitive congestion control (Jiang et al., "CCC:
 * Re-architecting Delay-based Congestion Control in Datacenter Networks",
 * NSDI'26), for Linux as tcp_congestion_ops "ccc".
 *
 * Theory.  Delay-based CCs deduce congestion information (CiD: queue
 * length, its growth, the aggregate arrival rate) from the RTT and its
 * gradient, and that deduction is wrong in three "delay ambiguity
 * conditions": an idle link (delay and gradient are 0 whatever the
 * spare capacity), a large queue (the delay lags the state by a queueing
 * delay), a turbulent queue (sparse samples miss its changes).  CCC does
 * not detect them; it judges where a deduction can be trusted.  With
 *
 *	q   = RTT - RTT_min				(eq. 2)
 *	q_v = EWMA of dRTT/dt over ACK time = (R - C)/C	(eq. 3-4)
 *	delta = 0.5 log2(q_B / q) - q_v			(eq. 5, eq. 10's log2)
 *
 * the curve delta = 0 passes through the target (q_B, 0); together with
 * the lines q = q_B and q_v = 0 it cuts the (q, q_v) plane into six
 * regions (ccc_region(): reconstructed, the paper only draws them).  Near
 * the target, in A^i, the deduction is trusted and an analytical
 * (sliding-mode) step makes the state cross delta = 0 within an RTT:
 *
 *	u = delta(q + Itv q_v) * M / RTT_min	per ACK of M bytes (eq. 8)
 *
 * i.e. r *= 1 + delta per RTT.  Everywhere else only the sign of delta is
 * used, by AIMD probing shaped to steer the state into A:
 *
 *	increase (H_1^i, H_2^i):	u = rho v_ai w_ai f S
 *	decrease (A^d, H_1^d, H_2^d):	u = rho w_md f r
 *
 * with rho = min(1, Itv/RTT_min) (spreads one step over an RTT_min and
 * makes the steps independent of how many ACKs carry them), S ~ C/N the
 * mean of the rates recorded when the aggregate was near C, v_ai = 2^n
 * after n idle RTTs, w_ai = 0.5 Irr/R_l max(0, 1-2r/R_l) or 0.1 Irr/R_l,
 * w_md = -0.25 min(|q - q_B|/q_B, 1), and the fairness gate f: with the
 * flow-independent reference Irr = R_l max(0, 1 - q/q_B) (eq. 6), only
 * flows below Irr increase and only flows above it decrease (eq. 9).
 *
 * Paper symbol -> code:
 *	r, S, q_v, n (v_ai = 2^n)	ccc->st.rate, .basis, .qv, .n_ai
 *	q_B, R_l, gamma, RTT_min	ccc_cfg .qb_us, .line_bytes_ps, .gamma_q16,
 *					.rttmin_us (from the per-socket snapshot)
 *	Itv, M				ccc_ack .itv_us, .acked_bytes
 *	regions A^i..H_2^d		enum ccc_region (include/dcc/ccc.h)
 * The law itself is plain C in ccc_law.c (userspace-tested).
 *
 * Linux adaptations (spec ccc.md 6.7; what the paper leaves open):
 *  - RTT from rs->rtt_us (software, us); q_v from least squares over
 *    batches of >= min_samples ACKs spanning >= span_pct of RTT_min, then
 *    eq. 4's EWMA: eq. 4's two-point slope is meaningless under software
 *    timestamp noise;
 *  - stretch ACKs, GRO: the analytical step is per byte acked and the
 *    probing steps per unit of time (rho), so the number of ACKs that
 *    carry a window does not matter;
 *  - RTT_min: base_rtt_us, else tcp_min_rtt() (shared per destination,
 *    looked up once per RTT round); R_l: line_rate_mbps, else an
 *    estimate (highest delivery rate + 25% of the namespace's flows
 *    through the same device, windowed: dcc_shared_line_rate);
 *  - start at R_l (the paper's NS-3 convention, start_mode 0) or at
 *    IW/RTT (start_mode 1); RTO halves r (undone if spurious); restart
 *    after idle forgets the gradient; no increase on app-limited ACKs;
 *  - losses bound the window (dcc_lib's loss bound, dcc.h): r's floor
 *    r_min = max(R_l/1024, 2 MSS/RTT_min) times 1000 flows is 115 times
 *    a 20 Mbit/s link, and without the bound those flows filled 5.6-6.0
 *    of its 20 Mbit/s; with it 15.5-16.5 (test_many_flows.sh);
 *  - cwnd = r (RTT_min + q_B) * cwnd_gain (the paper: r RTT_min, which
 *    would bind below r at the target).
 *
 * All state lives in icsk_ca_priv (104 bytes); nothing sleeps or allocates.
 * Lifecycle as in dcc.h: hooks before init leave the state alone.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/ccc.h"

#define CREATE_TRACE_POINTS
#include "ccc_trace.h"

/* ---- tunables (validated; snapshotted per socket in ccc_init) --------- */

static u32 q_b_us = 50;		/* q_B: paper 5 (NS-3), 20 (testbed); 50 for
				 * Linux software timestamps (spec 5)
				 */
static u32 line_rate_mbps;	/* R_l; 0 = estimate */
static u32 base_rtt_us;		/* RTT_min; 0 = tcp_min_rtt() */
static u32 gamma_pct = 20;	/* gamma = 0.2 (6.1) */
static u32 ut_pct = 5;		/* under-utilised: q <= 5% RTT_min (4.3.4) */
static u32 qv_near_pct = 5;	/* |q_v| < 0.05 (4.3.4) */
static u32 span_pct = 25;	/* q_v batch >= RTT_min / 4 (spec 5) */
static u32 min_samples = 8;	/* q_v batch >= 8 ACKs (spec 5) */
static u32 n_ai_max = 10;	/* v_ai <= 2^10 (spec 8-8) */
static u32 cwnd_gain_pct = 100;	/* cwnd = r (RTT_min + q_B) */
static u32 start_mode;		/* 0: r0 = R_l (paper), 1: IW / RTT */
static u32 init_rate_mbps = 100;	/* estimate mode: R_l floor */
static u32 fair_ai_pml = 31;	/* stalled-H^i additive step, per mille of
				 * R_l per RTT_min (~1/32); 0 = paper-exact
				 */
static u32 share_base_rtt = 1;	/* RTT_min: min over the netns's CCC flows to
				 * the destination (base_rtt_us = 0 only)
				 */

dcc_param_range(q_b_us, q_b_us, 1, 1000000,  0644,
		"target queueing delay q_B in us");
dcc_param_range(line_rate_mbps, line_rate_mbps, 0, 800000, 0644,
		"NIC line rate R_l in Mbit/s, 0 = estimate from delivery rates");
dcc_param_range(base_rtt_us, base_rtt_us, 0, 1000000, 0644,
		"RTT_min in us, 0 = tcp_min_rtt() of each socket");
dcc_param_range(gamma_pct, gamma_pct, 0, 99, 0644,
		"q_v EWMA weight of the old value, % (paper 20)");
dcc_param_range(ut_pct, ut_pct, 1, 100, 0644,
		"link under-utilised while q <= this % of RTT_min (paper 5)");
dcc_param_range(qv_near_pct, qv_near_pct, 1, 50, 0644,
		"|q_v| below this % counts as 0: S records, H_1^i/H_2^i boundary (paper 5)");
dcc_param_range(span_pct, span_pct, 1, 400, 0644,
		"q_v least-squares batch spans at least this % of RTT_min");
dcc_param_range(min_samples, min_samples, 2, 255, 0644,
		"q_v least-squares batch needs this many ACKs (2 = eq. 4's two-point slope)");
dcc_param_range(n_ai_max, n_ai_max, 0, CCC_N_AI_MAX_LIMIT, 0644,
		"cap of n in v_ai = 2^n");
dcc_param_range(cwnd_gain_pct, cwnd_gain_pct, 50, 255, 0644,
		"cwnd = r * (RTT_min + q_B) * this / 100");
dcc_param_range(start_mode, start_mode, 0, 1, 0644,
		"initial rate: 0 = R_l (paper), 1 = initial window per RTT");
dcc_param_range(init_rate_mbps, init_rate_mbps, 1, 800000, 0644,
		"estimate mode only: R_l in Mbit/s before any delivery-rate sample");
dcc_param_range(fair_ai_pml, fair_ai_pml, 0, 1000, 0644,
		"additive fairness step while the state is stalled below q_B, per mille of R_l per RTT_min (0 = paper-exact law)");
dcc_param_range(share_base_rtt, share_base_rtt, 0, 1, 0644,
		"base_rtt_us = 0: use the lowest min RTT of the CCC flows of this network namespace to the same destination");

/*
 * Estimate mode (line_rate_mbps = 0): R_l is the highest delivery rate,
 * + 25%, that any dcc flow of the socket's network namespace has measured
 * through the same egress device within tcp_min_rtt_wlen
 * (dcc_shared_line_rate), never below init_rate_mbps; shared, because
 * Irr = R_l (1 - q/q_B) must be the same for every flow on a bottleneck
 * (that is what makes it a reference).  A socket's R_l never falls.  The
 * paper takes R_l as the known NIC rate: operators should set it.
 */

/* ---- per-socket state: <= 104 bytes, BUILD_BUG_ON'd ------------------- */

#define CCC_F_INITED	0x01
#define CCC_F_AUTO_LINE	0x02	/* R_l estimated */
#define CCC_F_AUTO_BASE	0x04	/* RTT_min follows tcp_min_rtt() */
#define CCC_F_HAVE_PREV	0x08	/* last_rx_us is t(k-1) */
#define CCC_F_SAVED	0x10	/* saved_share holds r before an RTO */

struct ccc {
	struct ccc_state st;	/* the law's state (72 B) */
	u32 rttmin_us;		/* RTT_min in use */
	u32 last_rx_us;		/* t(k-1), us, low 32 bits */
	u32 round_end;		/* tp->delivered that ends this round */
	u32 saved_share;	/* r before an RTO, share of R_l Q16 */
	u32 qb_us;		/* snapshot: q_B */
	u32 line_kbps;		/* R_l in kbit/s (<= 8e8) */
	u8 gamma_pct;		/* snapshots ... */
	u8 ut_pct;
	u8 qv_near_pct;
	u8 min_samples;
	u8 n_ai_max;
	u8 cwnd_gain_pct;
	u8 span_pct;		/* <= 400 does not fit: stored / 2, see init */
	u8 flags;		/* CCC_F_* */
};

/* Resolve the law's config from this socket's snapshot. */
static void ccc_cfg_of(const struct sock *sk, const struct ccc *ca,
		       struct ccc_cfg *c)
{
	u32 mss = max_t(u32, tcp_sk(sk)->mss_cache, 1);
	u32 rtt = max_t(u32, ca->rttmin_us, 1);
	u64 line = max_t(u64, (u64)ca->line_kbps * 125, 1);

	*c = (struct ccc_cfg){
		.line_bytes_ps = line,
		/* spec 4.5: max(R_l / 1024, 2 MSS per RTT_min) */
		.r_min = max_t(u64, line >> 10,
			       div_u64((u64)2 * mss * USEC_PER_SEC, rtt)),
		.r_max = min_t(u64, line, READ_ONCE(sk->sk_max_pacing_rate)),
		.qb_us = max_t(u32, ca->qb_us, 1),
		.rttmin_us = rtt,
		.ut_us = max_t(u32, 2, (u32)div_u64((u64)rtt * ca->ut_pct, 100)),
		.span_us = max_t(u32, 1,
				 (u32)div_u64((u64)rtt * ca->span_pct * 2, 100)),
		.gamma_q16 = (u32)(((u64)ca->gamma_pct << CCC_Q) / 100),
		.qv_near = (u32)(((u64)ca->qv_near_pct << CCC_Q) / 100),
		/* read live: icsk_ca_priv has no room for one more snapshot */
		.fair_ai = (u32)(((u64)READ_ONCE(fair_ai_pml) << CCC_Q) / 1000),
		.l2qb = dcc_log2_q16((u64)max_t(u32, ca->qb_us, 1) << CCC_L2_SHIFT),
		.min_samples = ca->min_samples,
		.n_ai_max = ca->n_ai_max,
	};
	c->r_min = min(c->r_min, c->r_max);
}

/* Estimate mode: the shared R_l after folding in @rate_bytes_ps (0: read), kbit/s */
static u32 ccc_line_shared_kbps(const struct sock *sk, u64 rate_bytes_ps)
{
	u64 floor = (u64)READ_ONCE(init_rate_mbps) * DCC_MBPS_TO_BPS;

	return (u32)div_u64(dcc_shared_line_rate(sk, rate_bytes_ps, floor), 125);
}

/*
 * Estimate mode: fold the delivery rate of a round's first ACK into the
 * shared R_l (once per round: the table is a host-wide cache line).
 */
static void ccc_line_observe(struct sock *sk, struct ccc *ca,
			     const struct rate_sample *rs)
{
	u64 rate;
	u32 kbps;

	if (!(ca->flags & CCC_F_AUTO_LINE) || rs->interval_us <= 0 ||
	    rs->delivered <= 0)
		return;
	/* bytes (< 2^31 pkts * 2^16) * 1e6 needs 67 bits: 128-bit product */
	rate = dcc_mul_div((u64)rs->delivered * tcp_sk(sk)->mss_cache, USEC_PER_SEC,
			   (u32)rs->interval_us);
	rate = min_t(u64, rate, DCC_RATE_MAX_BPS);	/* + 25% cannot wrap */
	kbps = ccc_line_shared_kbps(sk, rate + rate / 4);
	if (kbps > ca->line_kbps)
		WRITE_ONCE(ca->line_kbps, kbps);
}

/* pacing rate r and cwnd cap: idempotent, run on every ACK */
static void ccc_apply(struct sock *sk, const struct ccc *ca,
		      const struct ccc_cfg *c)
{
	u64 cwnd;

	if (!ca->rttmin_us)	/* no RTT yet: initial window */
		cwnd = (u64)TCP_INIT_CWND * tcp_sk(sk)->mss_cache;
	else
		cwnd = ccc_cwnd_bytes(c, ca->st.rate, ca->cwnd_gain_pct);
	dcc_apply_bounded(sk, ca->st.rate, cwnd);
}

static void ccc_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct ccc *ca = inet_csk_ca(sk);
	u32 line = READ_ONCE(line_rate_mbps);
	u32 base = READ_ONCE(base_rtt_us);
	struct ccc_cfg c;
	u64 r0;

	BUILD_BUG_ON(sizeof(struct ccc) > ICSK_CA_PRIV_SIZE);

	*ca = (struct ccc){
		.qb_us = READ_ONCE(q_b_us),
		.gamma_pct = READ_ONCE(gamma_pct),
		.ut_pct = READ_ONCE(ut_pct),
		.qv_near_pct = READ_ONCE(qv_near_pct),
		.min_samples = READ_ONCE(min_samples),
		.n_ai_max = READ_ONCE(n_ai_max),
		.cwnd_gain_pct = READ_ONCE(cwnd_gain_pct),
		.span_pct = DIV_ROUND_UP(READ_ONCE(span_pct), 2),
		.flags = CCC_F_INITED | (line ? 0 : CCC_F_AUTO_LINE) |
			 (base ? 0 : CCC_F_AUTO_BASE),
	};
	ca->line_kbps = line ? line * 1000 : ccc_line_shared_kbps(sk, 0);
	ca->rttmin_us = base ? base :			/* 0 if none yet */
		dcc_auto_base_rtt_us(sk, READ_ONCE(share_base_rtt));

	ccc_cfg_of(sk, ca, &c);
	if (READ_ONCE(start_mode) == 1 && ca->rttmin_us)
		r0 = div_u64((u64)TCP_INIT_CWND * tp->mss_cache * USEC_PER_SEC,
			     ca->rttmin_us);
	else
		r0 = c.line_bytes_ps;	/* line rate (spec 4.6) */
	ccc_state_init(&ca->st, &c, r0);

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	ccc_apply(sk, ca, &c);
}

/*
 * Shared RTT_min (issue 8).  The paper takes RTT_min as known (4.3.1) and
 * relies on every flow of a bottleneck seeing the same q = RTT - RTT_min:
 * that is what makes Irr "the same for each flow" (eq. 6) and the target
 * q_B the same queue.  A flow that starts on CCC's standing queue (~q_B)
 * never sees the empty path with its own tcp_min_rtt(), reads q low by
 * up to q_B and takes the link (the guest once ended a join at 80 vs 15
 * Mbit/s; the model's join, selftests/unit/test_ccc_law.c, ends at 99.9
 * vs 0.1).  So with base_rtt_us = 0 and share_base_rtt = 1, RTT_min is
 * dcc_shared_min_rtt_us(): the lowest min RTT of this network namespace's
 * dcc flows to the destination (dcc_lib.c: keying, expiry, limits), looked
 * up once per RTT round.
 */
static void ccc_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct ccc *ca = inet_csk_ca(sk);
	struct ccc_decision d;
	struct dcc_sample s;
	struct ccc_cfg c;
	struct ccc_ack a;
	bool round_start;
	u32 rx, b;

	if (unlikely(!(ca->flags & CCC_F_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	dcc_loss_ack(sk, rs);	/* dcc.h: loss bound */

	/* BBR-style delivered-based RTT rounds (spec 8-8) */
	round_start = !before(rs->prior_delivered, ca->round_end);
	if (round_start)
		ccc_line_observe(sk, ca, rs);
	if (!dcc_sample_get(sk, rs, &s, 0)) {
		ccc_cfg_of(sk, ca, &c);
		goto apply;
	}
	if ((ca->flags & CCC_F_AUTO_BASE) && (round_start || !ca->rttmin_us)) {
		b = dcc_auto_base_rtt_us(sk, READ_ONCE(share_base_rtt));
		if (b)
			WRITE_ONCE(ca->rttmin_us, b);
	}
	if (!ca->rttmin_us)
		WRITE_ONCE(ca->rttmin_us, max_t(u32, s.rtt_us, 1));
	ccc_cfg_of(sk, ca, &c);

	rx = (u32)s.rx_us;
	a = (struct ccc_ack){
		.rx_us = rx,
		.rtt_us = s.rtt_us,
		/* Itv: 0 after an idle restart or RTO (rho = 0, no step) */
		.itv_us = (ca->flags & CCC_F_HAVE_PREV) ? rx - ca->last_rx_us : 0,
		.acked_bytes = s.acked_bytes,
		.pkts = s.acked,
		.app_limited = s.app_limited,
		.round_start = round_start,
	};
	if (a.round_start)
		ca->round_end = tp->delivered;
	ca->last_rx_us = rx;
	ca->flags |= CCC_F_HAVE_PREV;

	ccc_on_ack(&ca->st, &c, &a, &d);
	ccc_apply(sk, ca, &c);
	trace_ccc_ack(sk, d.q_us, ca->st.qv, d.delta, d.region, d.f,
		      d.rho, d.step, ca->st.rate, ca->st.basis, ca->st.n_ai,
		      tcp_snd_cwnd(tp));
	return;
apply:
	ccc_apply(sk, ca, &c);
}

/* Forget the gradient and the ACK clock (RTO, idle restart: spec 4.7). */
static void ccc_forget(struct ccc *ca)
{
	ccc_state_reset_grad(&ca->st);
	ca->st.n_ai = 0;
	ca->flags &= ~CCC_F_HAVE_PREV;
}

static void ccc_set_state(struct sock *sk, u8 new_state)
{
	struct ccc *ca = inet_csk_ca(sk);
	struct ccc_cfg c;

	if (new_state != TCP_CA_Loss || !(ca->flags & CCC_F_INITED))
		return;
	/* RTO (the paper's fabric is lossless; spec 4.7 [R]): halve r */
	ccc_cfg_of(sk, ca, &c);
	ca->saved_share = (u32)min_t(u64, div64_u64(ca->st.rate << CCC_Q,
						    c.line_bytes_ps), U32_MAX);
	ca->flags |= CCC_F_SAVED;
	ca->st.rate = max(c.r_min, ca->st.rate / 2);
	ccc_forget(ca);
}

static void ccc_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct ccc *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: an Itv spanning the gap would make rho 1.  Not
	 * every TX_START: a window that one ACK clears raises it every round,
	 * and there Itv is a real inter-ACK time.
	 */
	if (ev == CA_EVENT_TX_START && (ca->flags & CCC_F_INITED) &&
	    dcc_tx_start_after_idle(sk, ca->rttmin_us))
		ccc_forget(ca);
}

static u32 ccc_ssthresh(struct sock *sk)
{
	const struct ccc *ca = inet_csk_ca(sk);

	/* r follows delay alone (spec 6.1); the window is bounded (dcc.h) */
	if (!(ca->flags & CCC_F_INITED))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	return dcc_loss_ssthresh(sk);
}

static u32 ccc_undo_cwnd(struct sock *sk)
{
	struct ccc *ca = inet_csk_ca(sk);
	struct ccc_cfg c;

	if ((ca->flags & (CCC_F_INITED | CCC_F_SAVED)) ==
	    (CCC_F_INITED | CCC_F_SAVED)) {	/* the RTO was spurious */
		ccc_cfg_of(sk, ca, &c);
		ca->st.rate = clamp_t(u64, (c.line_bytes_ps * ca->saved_share) >> CCC_Q,
				      c.r_min, c.r_max);
		ca->flags &= ~CCC_F_SAVED;
	}
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti: the BBR info layout, which ss prints in full:
 *	bw		r, the pacing rate (bytes/s)
 *	mrtt		RTT_min in use (us)
 *	pacing_gain	region << 8: ss shows the region number
 *			(0 A^i, 1 A^d, 2 H_1^i, 3 H_2^i, 4 H_1^d, 5 H_2^d)
 *	cwnd_gain	S / R_l << 8: ss shows the basis S as a share of R_l
 */
static size_t ccc_get_info(struct sock *sk, u32 ext, int *attr,
			   union tcp_cc_info *info)
{
	const struct ccc *ca = inet_csk_ca(sk);
	/* ss may read while an ACK updates: each per-ACK field once */
	u64 rate = READ_ONCE(ca->st.rate);

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)rate;
	info->bbr.bbr_bw_hi = (u32)(rate >> 32);
	info->bbr.bbr_min_rtt = READ_ONCE(ca->rttmin_us);
	info->bbr.bbr_pacing_gain = (u32)READ_ONCE(ca->st.region) << 8;
	info->bbr.bbr_cwnd_gain = READ_ONCE(ca->st.basis) >> (CCC_Q - 8);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops tcp_ccc __read_mostly = {
	.name		= "ccc",
	.owner		= THIS_MODULE,
	.init		= ccc_init,
	.cong_control	= ccc_cong_control,
	.ssthresh	= ccc_ssthresh,
	.undo_cwnd	= ccc_undo_cwnd,
	.set_state	= ccc_set_state,
	.cwnd_event	= ccc_cwnd_event,
	.get_info	= ccc_get_info,
};

static int __init ccc_register(void)
{
	return dcc_register_ca(&tcp_ccc);
}

static void __exit ccc_unregister(void)
{
	dcc_unregister_ca(&tcp_ccc);
}

module_init(ccc_register);
module_exit(ccc_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CCC: CiD-sensitive delay-based congestion control (NSDI'26)");
