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
 *	q_B, gamma			ccc_params .qb_ns, .gamma_q16 (the shared
 *					parameter snapshot)
 *	R_l, RTT_min			ccc_cfg .line_bytes_ps, .rttmin_ns (the
 *					socket's resolved config)
 *	Itv, M				ccc_ack_info .itv_ns, dcc_sample .acked_bytes
 *	regions A^i..H_2^d		enum ccc_region (include/dcc/ccc.h)
 * The law itself is plain C in ccc_law.c (userspace-tested).
 *
 * Differences from the paper (what it leaves open or assumes away; the
 * figures are the userspace model's, selftests/unit/test_ccc_law.c, and
 * the guest's, selftests/test_ccc_*.sh; docs/ccc.md has the commands):
 *  - RTT and ACK times from dcc_sample (ns; the RTT is the stack's us
 *    sample today); q_v from least squares over batches of >= min_samples
 *    ACKs spanning >= span_pct of RTT_min, then eq. 4's EWMA: eq. 4's
 *    two-point slope is meaningless under software timestamp noise;
 *  - stretch ACKs, GRO: the analytical step is per byte acked and the
 *    probing steps per unit of time (rho), so the number of ACKs that
 *    carry a window does not matter;
 *  - the regions are reconstructed (the paper only draws them), an idle
 *    link (q_v ~ 0) counted in H_2^i, not H_1^i, whose max(0, 1 - 2r/R_l)
 *    would hold a lone flow at R_l/2 (ccc_region_of());
 *  - S is recorded whenever |q_v| < 0.05 with a queue, not only in A, and
 *    follows r down until the first record (ccc_basis_update(): S0 = R_l
 *    made the model's 8-to-1 incast swing between 0.4 and 3.7 C);
 *  - RTT_min: base_rtt_us, else tcp_min_rtt() (shared per destination,
 *    looked up once per RTT round, when the law asks: CCC_D_NEW_ROUND;
 *    a socket's own minimum misses the empty path when it starts on
 *    CCC's standing queue: a guest join once ended 80 vs 15 Mbit/s);
 *    R_l: line_rate_mbps, else the egress NIC's link speed, else an
 *    estimate (highest delivery rate + 25%
 *    of the namespace's flows through the same device, windowed:
 *    dcc_shared_line_rate, folded in once per round likewise);
 *  - start at R_l (the paper's NS-3 convention, start_mode 0) or at
 *    IW/RTT (start_mode 1); RTO halves r (undone if spurious); restart
 *    after idle forgets the gradient; no increase on app-limited ACKs;
 *    r is kept in [r_min, R_l], r_min = max(R_l/1024, 2 MSS/RTT_min);
 *  - losses bound the window (dcc_lib's loss bound, dcc.h): r_min times
 *    1000 flows is 115 times a 20 Mbit/s link, and without the bound
 *    those flows filled 5.6-6.0 of its 20 Mbit/s; with it 15.5-16.5
 *    (test_many_flows.sh);
 *  - the window is the paper's, r RTT_min (section 5; cwnd_qb = 0, the
 *    default), with 10% of headroom (cwnd_gain_pct 110).  At the target
 *    the RTT is RTT_min + q_B, so it binds below r: r settles at C/N (1 +
 *    q_B/RTT_min) / 1.1, self-clocking damping.  A lone flow is held at
 *    1.1 R_l RTT_min: a full link with a standing queue of ~0.1 RTT_min.
 *    The headroom is for the host's delay jitter: RTT_min is the
 *    smallest RTT ever seen, the typical unloaded RTT sits above it (the
 *    guest's by ~8%), and at gain 100 a lone flow's window covered less
 *    than that RTT: 94.0% of the link (payload ceiling 95.6%), so after
 *    a burst the link was back to >= 95% in 20-207 / 40-60 / 61-67 RTT
 *    for 1 / 3 / 7 joiners instead of 3.2-4.6 / 6.0-7.4 / 10.0-12.2
 *    (gain 110); the model,
 *    which has no host jitter, is the same at either gain (Fig. 7, T_L1,
 *    joins).  cwnd_qb = 1 adds q_B (r (RTT_min + q_B), binding only above
 *    the target, at gain 100: the window this module shipped before),
 *    which the model measures worse on every count: the queue falls to
 *    0-0.53 q_B after the first drain (paper's window: >= 0.91 q_B),
 *    14-16% of the time in A (44-48%), 22-32 A^i/A^d switches in 200 RTT
 *    (62-126), 8-to-1 incast T_L1 98 RTT_min (9.1); in the guest its
 *    16-flow incast on a deep buffer runs a ~50-RTT limit cycle between
 *    10 and 160 packets;
 *  - an additive fairness step (fair_ai_pml, ~R_l/32 per RTT_min per
 *    flow above R_l/4, 2 sqrt(r/R_l) of that below) while the aggregate
 *    is at C near the target: |q_v| < 0.05, the link busy, q < 2 q_B,
 *    fading linearly to 0 from q_B to 2 q_B (ccc_fair_step()).  There
 *    every step of the paper's law is rate-proportional (eq. 8 is per
 *    ACK; Irr ~ 0 closes f for every flow), so the law keeps whatever
 *    rate ratio a join made: a newcomer from its initial window stayed
 *    at 31.0 vs 64.7 Mbit/s for 10 s in the guest (Jain 0.898),
 *    530-1150 RTT_min in the model from 5-20% of C.  Equal (or concave)
 *    additive increases with the w_md r decreases are AIMD: guest within
 *    20% after 1.1-2.1 s (6 runs), model 50-55 RTT_min from 5% of C.
 *    The root scales the sum for large N (2 sqrt(N) steps instead of
 *    N): with N full steps a 16-flow incast kept the guest's backlog
 *    above one BDP for 440-460 RTT (T_L1); fair_ai_pml = 0, the paper's
 *    law, gives T_L1 63-69 RTT there but Jain 0.82-0.90.
 *
 * Parameters: a write publishes a new immutable snapshot (dcc.h:
 * parameter snapshots); each socket takes a reference to the snapshot current
 * at its init (8 bytes: the pointer in its ccc_cfg), so a running flow
 * never sees its parameters change, fair_ai_pml and share_base_rtt
 * included.  The socket's config (struct ccc_cfg: R_l, r_min, r_max,
 * RTT_min) is resolved at init and again only when the law asks for a
 * refresh (once per RTT round), never per ACK.
 *
 * Per-socket state in icsk_ca_priv (104 bytes, BUILD_BUG_ON'd): the law's
 * state (64), the resolved config (32), the round and RTO bookkeeping.
 * Nothing sleeps or allocates on the ACK path.  Lifecycle as in dcc.h:
 * hooks before init leave the state alone; release drops the snapshot
 * reference init took.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/ccc.h"
/* the law, in this object: its per-ACK step, ccc_ack(), inlines below */
#include "ccc_law.c"

#define CREATE_TRACE_POINTS
#include "ccc_trace.h"

/* ---- tunables (validated; one immutable snapshot per socket) ---------- */

static u32 q_b_us = 50;		/* q_B: paper 5 (NS-3), 20 (testbed); 50 for
				 * Linux software timestamps, above their noise
				 */
static u32 line_rate_mbps;	/* R_l; 0 = estimate */
static u32 base_rtt_us;		/* RTT_min; 0 = tcp_min_rtt() */
static u32 gamma_pct = 20;	/* gamma = 0.2 (6.1) */
static u32 ut_pct = 5;		/* under-utilised: q <= 5% RTT_min (4.3.4) */
static u32 qv_near_pct = 5;	/* |q_v| < 0.05 (4.3.4) */
static u32 span_pct = 25;	/* q_v batch >= RTT_min / 4 (Linux choice) */
static u32 min_samples = 8;	/* q_v batch >= 8 ACKs (eq. 4 uses 2) */
static u32 n_ai_max = 10;	/* v_ai <= 2^10 (the paper sets no cap) */
static u32 cwnd_gain_pct = 110;	/* cwnd = r RTT_min (section 5) * 1.1 */
static u32 cwnd_qb;		/* ... 1: + r q_B (not in the paper) */
static u32 start_mode;		/* 0: r0 = R_l (paper), 1: IW / RTT */
static u32 init_rate_mbps = 100;	/* estimate mode: R_l floor */
static u32 fair_ai_pml = 31;	/* additive fairness step near the target, per
				 * mille of R_l per RTT_min (~1/32); 0 =
				 * paper-exact
				 */
static u32 share_base_rtt = 1;	/* RTT_min: min over the netns's CCC flows to
				 * the destination (base_rtt_us = 0 only)
				 */

/* One immutable parameter set; sockets hold references (dcc.h). */
struct ccc_snap {
	struct dcc_snap snap;	/* first: dcc_lib allocates and frees it */
	struct ccc_params p;	/* the law's (ccc_cfg.p points here) */
	u64 line_bytes_ps;	/* line_rate_mbps; 0 = estimate */
	u64 init_line_bytes_ps;	/* init_rate_mbps: the estimate's floor */
	u32 base_rtt_ns;	/* base_rtt_us; 0 = tcp_min_rtt() */
	u8 start_mode;
	u8 share_base_rtt;
};

static void ccc_snap_fill(struct dcc_snap *ds)
{
	struct ccc_snap *s = container_of(ds, struct ccc_snap, snap);
	struct ccc_knobs k = {
		.q_b_us = READ_ONCE(q_b_us),
		.gamma_pct = READ_ONCE(gamma_pct),
		.ut_pct = READ_ONCE(ut_pct),
		.qv_near_pct = READ_ONCE(qv_near_pct),
		.span_pct = READ_ONCE(span_pct),
		.min_samples = READ_ONCE(min_samples),
		.n_ai_max = READ_ONCE(n_ai_max),
		.cwnd_gain_pct = READ_ONCE(cwnd_gain_pct),
		.cwnd_qb = READ_ONCE(cwnd_qb),
		.fair_ai_pml = READ_ONCE(fair_ai_pml),
	};

	ccc_params_init(&s->p, &k);
	s->line_bytes_ps = (u64)READ_ONCE(line_rate_mbps) * DCC_MBPS_TO_BPS;
	s->init_line_bytes_ps = (u64)READ_ONCE(init_rate_mbps) * DCC_MBPS_TO_BPS;
	s->base_rtt_ns = (u32)dcc_us_to_ns(READ_ONCE(base_rtt_us));
	s->start_mode = (u8)READ_ONCE(start_mode);
	s->share_base_rtt = (u8)READ_ONCE(share_base_rtt);
}

DEFINE_DCC_SNAPS(ccc_snaps, struct ccc_snap, snap, ccc_snap_fill);

/* each accepted write publishes a new snapshot (dcc_param_snap()) */
#define ccc_param(name, lo, hi, desc)					\
	dcc_param_snap(name, name, lo, hi, ccc_snaps, desc)

ccc_param(q_b_us, 1, 1000000, "target queueing delay q_B in us");
ccc_param(line_rate_mbps, 0, 800000,
	  "NIC line rate R_l in Mbit/s, 0 = the egress device's link speed (dcc_lib dev_speed), else estimated from delivery rates");
ccc_param(base_rtt_us, 0, 1000000,
	  "RTT_min in us, 0 = tcp_min_rtt() of each socket");
ccc_param(gamma_pct, 0, 99, "q_v EWMA weight of the old value, % (paper 20)");
ccc_param(ut_pct, 1, 100,
	  "link under-utilised while q <= this % of RTT_min (paper 5)");
ccc_param(qv_near_pct, 1, 50,
	  "|q_v| below this % counts as 0: S records, H_1^i/H_2^i boundary (paper 5)");
ccc_param(span_pct, 1, 400,
	  "q_v least-squares batch spans at least this % of RTT_min");
ccc_param(min_samples, 2, 255,
	  "q_v least-squares batch needs this many ACKs (2 = eq. 4's two-point slope)");
ccc_param(n_ai_max, 0, CCC_N_AI_MAX_LIMIT, "cap of n in v_ai = 2^n");
ccc_param(cwnd_gain_pct, 50, 255, "cwnd = r * RTT_min (+ r * q_B with cwnd_qb) * this / 100");
ccc_param(cwnd_qb, 0, 1,
	  "0: the paper's window (section 5), cwnd = r * RTT_min * cwnd_gain_pct / 100; 1: it adds q_B, r * (RTT_min + q_B) * cwnd_gain_pct / 100");
ccc_param(start_mode, 0, 1,
	  "initial rate: 0 = R_l (paper), 1 = initial window per RTT");
ccc_param(init_rate_mbps, 1, 800000,
	  "estimate mode only: R_l in Mbit/s before any delivery-rate sample");
ccc_param(fair_ai_pml, 0, 1000,
	  "additive fairness step while the aggregate is at C near the target (|q_v| < 0.05, q < 2 q_B, faded above q_B), per mille of R_l per RTT_min, times min(1, 2 sqrt(r / R_l)) (0 = paper-exact law)");
ccc_param(share_base_rtt, 0, 1,
	  "base_rtt_us = 0: use the lowest min RTT of the CCC flows of this network namespace to the same destination");

/*
 * Estimate mode (line_rate_mbps = 0): R_l is the egress device's link
 * speed where the device reports one (a NIC backed by hardware, by
 * default: dcc_lib's dev_speed), else the highest delivery rate,
 * + 25%, that any dcc flow of the socket's network namespace has measured
 * through the same egress device within tcp_min_rtt_wlen
 * (dcc_shared_line_rate), never below init_rate_mbps; shared, because
 * Irr = R_l (1 - q/q_B) must be the same for every flow on a bottleneck
 * (that is what makes it a reference).  A socket's R_l never falls.  The
 * paper takes R_l as the known NIC rate: operators should set it.
 */

/* ---- per-socket state: <= 104 bytes, BUILD_BUG_ON'd ------------------- */

#define CCC_F_INITED	0x01
#define CCC_F_SAVED	0x02	/* saved_share holds r before an RTO */

struct ccc {
	struct ccc_state st;	/* the law's state (64 B) */
	struct ccc_cfg cfg;	/* resolved config, snapshot pointer (32 B) */
	u32 round_end;		/* tp->delivered that ends this round */
	u16 saved_share;	/* r before an RTO, share of R_l Q16 (sat.) */
	u8 flags;		/* CCC_F_* */
};

static const struct ccc_snap *ccc_snap_of(const struct ccc *ca)
{
	return container_of(ca->cfg.p, struct ccc_snap, p);
}

/*
 * Estimate mode: the shared R_l after folding in this round's delivery
 * rate (@rs NULL: read only), bytes/s.
 */
static u64 ccc_line_shared(struct sock *sk, const struct ccc_snap *sn,
			   const struct rate_sample *rs)
{
	u64 rate = 0;

	if (rs && rs->interval_us > 0 && rs->delivered > 0) {
		/* bytes (< 2^31 pkts * 2^16) * 1e6: 128-bit product */
		rate = dcc_mul_div((u64)rs->delivered * tcp_sk(sk)->mss_cache,
				   USEC_PER_SEC, (u32)rs->interval_us);
		rate = min_t(u64, rate, DCC_RATE_MAX_BPS);  /* + 25% cannot wrap */
		rate += rate / 4;
	}
	return dcc_shared_line_rate(sk, rate, sn->init_line_bytes_ps);
}

/*
 * (Re-)resolve the socket's config from its snapshot and inputs: at init,
 * on the first RTT sample if none existed, and when the law asks
 * (CCC_D_NEW_ROUND: once per RTT round).  RTT_min: base_rtt_us, else
 * dcc_auto_base_rtt_us() (shared per destination, see below), else
 * @rtt_ns (the first sample); R_l: line_rate_mbps, else the shared
 * estimate, never falling.
 *
 * Shared RTT_min.  The paper takes RTT_min as known (4.3.1) and relies
 * on every flow of a bottleneck seeing the same q = RTT - RTT_min: that
 * is what makes Irr "the same for each flow" (eq. 6) and the target q_B
 * the same queue.  A flow that starts on CCC's standing queue (~q_B)
 * never sees the empty path with its own tcp_min_rtt(), reads q low by
 * up to q_B and takes the link (the guest once ended a join at 80 vs 15
 * Mbit/s).  So with base_rtt_us = 0 and share_base_rtt = 1, RTT_min is
 * dcc_shared_min_rtt_us(): the lowest min RTT of this network namespace's
 * dcc flows to the destination (dcc_lib.c: keying, expiry, limits).
 */
static void ccc_resolve(struct sock *sk, struct ccc *ca,
			const struct rate_sample *rs, u32 rtt_ns)
{
	const struct ccc_snap *sn = ccc_snap_of(ca);
	u32 old = ca->cfg.rttmin_ns, base = sn->base_rtt_ns, b;
	u64 line = sn->line_bytes_ps;

	if (!base) {
		b = dcc_auto_base_rtt_us(sk, sn->share_base_rtt);
		base = b ? (u32)min_t(u64, dcc_us_to_ns(b), CCC_RTT_MAX_NS) : old;
	}
	if (!base)
		base = rtt_ns;
	if (!line)
		line = max_t(u64, ccc_line(&ca->cfg), ccc_line_shared(sk, sn, rs));
	/* once per round: no division while R_l and RTT_min stay */
	ccc_cfg_refresh(&ca->cfg, line, base, tcp_sk(sk)->mss_cache,
			READ_ONCE(sk->sk_max_pacing_rate));
	ccc_cfg_changed(&ca->st, old, &ca->cfg);
}

/* pacing rate r and cwnd cap (the initial window until an RTT exists) */
static void ccc_apply(struct sock *sk, const struct ccc *ca,
		      const struct dcc_decision *d)
{
	u64 cwnd = d->cwnd_bytes;

	if (!ca->cfg.rttmin_ns)
		cwnd = (u64)TCP_INIT_CWND * tcp_sk(sk)->mss_cache;
	dcc_apply_bounded(sk, d->rate_bytes_ps, cwnd);
}

/*
 * A changed decision of the law with no loss bound in force: what
 * dcc_apply() would do, without its division.  r moves on most ACKs by
 * a small step, so the window in packets (dcc_cwnd_pkts(): ceil(cwnd /
 * mss) within [DCC_MIN_CWND, min(snd_cwnd_clamp, DCC_MAX_CWND)]) stays
 * snd_cwnd or moves by one packet: both are a multiply and compares
 * against snd_cwnd, and only a longer move (or a snd_cwnd the stack left
 * outside those bounds) takes dcc_apply()'s division.  The pacing rate
 * is a store, clamped as dcc_apply() clamps it.  cw <= 2^30, mss < 2^32:
 * (cw + 1) mss < 2^63.
 */
static __always_inline void ccc_apply_changed(struct sock *sk,
					      const struct dcc_decision *d)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1), cw = tcp_snd_cwnd(tp);
	u32 lim = min_t(u32, tp->snd_cwnd_clamp, DCC_MAX_CWND);
	u64 b = d->cwnd_bytes, top = (u64)cw * mss;

	if (cw < DCC_MIN_CWND || cw > lim)
		goto slow;
	if (b > top) {
		if (b > top + mss || cw == lim)
			goto slow;
		tcp_snd_cwnd_set(tp, cw + 1);
	} else if (cw > DCC_MIN_CWND && b <= top - mss) {
		/* to DCC_MIN_CWND from one above it: any smaller window */
		if (b <= top - 2 * (u64)mss && cw > DCC_MIN_CWND + 1)
			goto slow;
		tcp_snd_cwnd_set(tp, cw - 1);
	}
	WRITE_ONCE(sk->sk_pacing_rate,
		   (unsigned long)clamp_t(u64, d->rate_bytes_ps, mss,
					  READ_ONCE(sk->sk_max_pacing_rate)));
	return;
slow:
	dcc_apply(sk, d->rate_bytes_ps, d->cwnd_bytes);
}

static void ccc_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct ccc *ca = inet_csk_ca(sk);
	struct ccc_snap *sn = dcc_snap_get_as(&ccc_snaps, struct ccc_snap, snap);
	struct dcc_decision d;
	u64 r0;

	BUILD_BUG_ON(sizeof(struct ccc) > ICSK_CA_PRIV_SIZE);

	*ca = (struct ccc){ .flags = CCC_F_INITED };
	ca->cfg.p = &sn->p;
	ccc_resolve(sk, ca, NULL, 0);	/* RTT_min 0 if none yet */

	if (sn->start_mode == 1 && ca->cfg.rttmin_ns)
		r0 = div_u64((u64)TCP_INIT_CWND * tp->mss_cache * NSEC_PER_SEC,
			     ca->cfg.rttmin_ns);
	else
		r0 = ccc_line(&ca->cfg);	/* line rate, as in 3.1 */
	ccc_state_init(&ca->st, &ca->cfg, r0);

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	ccc_decide(&ca->st, &ca->cfg, &d);
	ccc_apply(sk, ca, &d);
}

static void ccc_release(struct sock *sk)
{
	struct ccc *ca = inet_csk_ca(sk);

	if (!(ca->flags & CCC_F_INITED))
		return;
	dcc_snap_put(&ccc_snaps, (struct dcc_snap *)&ccc_snap_of(ca)->snap);
	ca->flags &= ~CCC_F_INITED;
}

/*
 * Apply what ccc_on_ack() decided.  snd_cwnd and sk_pacing_rate hold the
 * decision in force, so an unchanged one needs nothing, unless the loss
 * bound moves the window on this ACK (@hold, dcc_loss_ack()): then it is
 * re-applied through the bound; a changed one goes through the bound
 * while one is in force (@bound).  The stack moves them under a
 * cong_control module only
 * there (tcp_enter_loss: state Loss; recovery and CWR: ssthresh, so a
 * bound; undo: ccc_undo_cwnd, which asks for a re-decision), when an
 * MTU probe succeeds (tcp_mtup_probe_success() rescales snd_cwnd to the
 * new MSS) and when SO_MAX_PACING_RATE lowers sk_pacing_rate: those wait
 * for the next changed decision, at the latest the first ACK of the next
 * round (ccc_cfg_changed()).
 */
static __always_inline void ccc_apply_ack(struct sock *sk, struct ccc *ca,
					  struct dcc_decision *d, bool bound,
					  bool hold)
{
	u32 flags = d->flags;

	if (d->changed) {
		if (bound)
			ccc_apply(sk, ca, d);
		else
			ccc_apply_changed(sk, d);
	} else if (hold) {
		ccc_decide(&ca->st, &ca->cfg, d);
		d->flags = flags;
		ccc_apply(sk, ca, d);
	}
}

/*
 * One ACK with the law's telemetry for the tracepoint: out of line, so
 * that the ACK path without it keeps no ccc_ack_info (which the kernel's
 * stack auto-initialisation would zero on every ACK).
 */
static noinline void ccc_ack_traced(struct sock *sk, struct ccc *ca,
				    const struct dcc_sample *s, bool round_start,
				    struct dcc_decision *d, bool bound, bool hold)
{
	struct ccc_ack_info i;

	ccc_on_ack(&ca->st, &ca->cfg, s, round_start, d, &i);
	ccc_apply_ack(sk, ca, d, bound, hold);
	trace_ccc_ack(sk, i.q_ns / NSEC_PER_USEC, ca->st.qv, i.delta,
		      i.region, i.f, i.rho, i.step, ca->st.rate,
		      ca->st.basis, ca->st.n_ai, tcp_snd_cwnd(tcp_sk(sk)));
}

static void ccc_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct ccc *ca = inet_csk_ca(sk);
	/* filled before they are read: no auto-initialisation per ACK */
	struct dcc_decision d __uninitialized;
	struct dcc_sample s __uninitialized;
	bool round_start, bound, hold = false;

	if (unlikely(!(ca->flags & CCC_F_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	/*
	 * dcc_loss_ack(), its test kept for this ACK: nothing before the
	 * decision is applied sets or lifts a bound (__dcc_loss_ack() only
	 * raises one), so it still holds when the decision is applied
	 */
	bound = dcc_loss_bound_active(sk);
	if (bound)
		hold = __dcc_loss_ack(sk, rs);

	if (!dcc_sample_get(sk, rs, &s, 0)) {
		/* no law step: the decision in force stands, bound or not */
		if (hold) {
			ccc_decide(&ca->st, &ca->cfg, &d);
			ccc_apply(sk, ca, &d);
		}
		return;
	}
	if (unlikely(!ca->cfg.rttmin_ns))	/* the first RTT sample */
		ccc_resolve(sk, ca, NULL, max_t(u32, s.rtt_ns, 1));

	/* BBR-style delivered-based RTT rounds (the paper leaves them open) */
	round_start = !before(rs->prior_delivered, ca->round_end);
	if (round_start)
		ca->round_end = tp->delivered;

	if (trace_ccc_ack_enabled()) {
		ccc_ack_traced(sk, ca, &s, round_start, &d, bound, hold);
	} else {
		ccc_ack(&ca->st, &ca->cfg, &s, round_start, &d, NULL);
		ccc_apply_ack(sk, ca, &d, bound, hold);
	}
	if (d.flags & CCC_D_NEW_ROUND)	/* once per RTT: shared inputs */
		ccc_resolve(sk, ca, rs, 0);
}

static void ccc_set_state(struct sock *sk, u8 new_state)
{
	struct ccc *ca = inet_csk_ca(sk);

	if (new_state != TCP_CA_Loss || !(ca->flags & CCC_F_INITED))
		return;
	/* RTO (not in the paper: its fabric is lossless): halve r */
	ca->saved_share = (u16)min_t(u32, ccc_share(&ca->cfg, ca->st.rate),
				     U16_MAX);
	ca->flags |= CCC_F_SAVED;
	ca->st.rate = max_t(u64, ca->cfg.r_min, ca->st.rate / 2);
	ca->st.flags |= CCC_S_REDECIDE;	/* r moved outside the law */
	ccc_state_forget(&ca->st);
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
	    dcc_tx_start_after_idle(sk, ca->cfg.rttmin_ns / NSEC_PER_USEC))
		ccc_state_forget(&ca->st);
}

static u32 ccc_ssthresh(struct sock *sk)
{
	const struct ccc *ca = inet_csk_ca(sk);

	/* r follows delay alone, as in the paper; dcc.h bounds the window */
	if (!(ca->flags & CCC_F_INITED))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	return dcc_loss_ssthresh(sk);
}

static u32 ccc_undo_cwnd(struct sock *sk)
{
	struct ccc *ca = inet_csk_ca(sk);
	const struct ccc_cfg *c = &ca->cfg;

	if ((ca->flags & (CCC_F_INITED | CCC_F_SAVED)) ==
	    (CCC_F_INITED | CCC_F_SAVED)) {	/* the RTO was spurious */
		ca->st.rate = clamp_t(u64, (ccc_line(c) * ca->saved_share) >> CCC_Q,
				      c->r_min, ccc_rmax(c));
		ca->st.flags |= CCC_S_REDECIDE;	/* r moved outside the law */
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
	info->bbr.bbr_min_rtt = READ_ONCE(ca->cfg.rttmin_ns) / NSEC_PER_USEC;
	info->bbr.bbr_pacing_gain = (u32)READ_ONCE(ca->st.region) << 8;
	info->bbr.bbr_cwnd_gain = READ_ONCE(ca->st.basis) >> (CCC_Q - 8);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops tcp_ccc __read_mostly = {
	.name		= "ccc",
	.owner		= THIS_MODULE,
	.init		= ccc_init,
	.release	= ccc_release,
	.cong_control	= ccc_cong_control,
	.ssthresh	= ccc_ssthresh,
	.undo_cwnd	= ccc_undo_cwnd,
	.set_state	= ccc_set_state,
	.cwnd_event	= ccc_cwnd_event,
	.get_info	= ccc_get_info,
};

DCC_ACK_HOOK(ccc_cong_control);	/* modinfo: what the tools time and check */

static int __init ccc_register(void)
{
	int err;

	err = dcc_snaps_init(&ccc_snaps);
	if (err)
		return err;
	err = dcc_register_ca(&tcp_ccc);
	if (err)
		dcc_snaps_exit(&ccc_snaps);
	return err;
}

static void __exit ccc_unregister(void)
{
	dcc_unregister_ca(&tcp_ccc);
	/* no socket is left (each held a module reference) */
	dcc_snaps_exit(&ccc_snaps);
}

module_init(ccc_register);
module_exit(ccc_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CCC: CiD-sensitive delay-based congestion control (NSDI'26)");
