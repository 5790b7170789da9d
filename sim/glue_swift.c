// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_swift's glue (modules/swift/tcp_swift.c) on a simulated socket
 * (dcc_sim.h): the same three algorithms "swift", "lswift" and "mswift"
 * from one code base, one module parameter set shared by the three with
 * the module's names, defaults and ranges, the same hooks, around the
 * same core (include/dcc/swift.h, modules/swift/swift_law.c).
 * tcp_swift.c explains each step; what differs is only what the
 * simulator lacks:
 *
 *  - no parameter snapshots (a run's parameters do not change under it):
 *    each socket converts the parameters into its own struct swift_cfg at
 *    init, what the module's snapshot holds; no medbuf_fallbacks counter
 *    (a read-only parameter: the fallback still works, uncounted);
 *  - no tracepoint, no get_info, no min_tso_segs (no TSO);
 *  - no undo_cwnd (ns-3 has no undo): LSwift/MSwift's spurious-loss undo
 *    never runs, a fast-recovery cut is kept as Swift keeps it;
 *  - no idle-restart test (ns-3 raises no CA_EVENT_TX_START): the median
 *    window still empties itself after 2 srtt without a sample;
 *  - no pacing-stamp bound (swift_bound_wstamp(): Linux's tcp_wstamp_ns
 *    and pacing timer, which the simulator's pacer does not expose);
 *  - snd_cwnd_clamp is Linux's default (~0U, no route clamp);
 *  - two facts of the stack dcc_sim_sock does not carry, re-stated here:
 *    tcp_is_cwnd_limited() (the send path's latch, below, over
 *    packets_out, as the unit tests' model does) and LSwift/MSwift's
 *    missing run at snd_una (swift_missing_run() walks the SACK
 *    scoreboard): here the packets the stack marked lost on this ACK, up
 *    to lswift_k, which is the run when the ACK's losses are one hole at
 *    the head, a drop-tail overflow's usual pattern.
 */
#include "dcc_sim.h"
#include "dcc/swift.h"

/* tcp_init_sock()'s snd_cwnd_clamp: no route or sysctl clamp */
#define SWIFT_SIM_CWND_CLAMP (~0U)

/* the module parameters, with tcp_swift's defaults (one set, three ops) */
static u32 base_target_us;
static u32 target_mode;
static u32 hops;
static u32 hop_us;
static u32 hop_ttl;
static u32 fs_range_us;
static u32 fs_min_cwnd_mpkt;
static u32 fs_max_cwnd;
static u32 ai_mpkt;
static u32 beta_pm;
static u32 max_mdf_pm;
static u32 min_cwnd_mpkt;
static u32 init_cwnd;
static u32 retx_reset;
static u32 lswift_k;
static u32 h_cap;
static u32 pctl;
static u32 pacing_pct;
static u32 share_base_rtt;

static struct dcc_sim_param swift_sim_params[] = {
	{ "base_target_us", &base_target_us, 25, 1, 1000000 },
	{ "target_mode", &target_mode, 0, 0, 1 },
	{ "hops", &hops, 0, 0, 255 },
	{ "hop_us", &hop_us, 1, 0, 100000 },
	{ "hop_ttl", &hop_ttl, 1, 0, 1 },
	{ "fs_range_us", &fs_range_us, 100, 0, 1000000 },
	{ "fs_min_cwnd_mpkt", &fs_min_cwnd_mpkt, 100, 1, 65535 },
	{ "fs_max_cwnd", &fs_max_cwnd, 256, 1, 1000000000 },
	{ "ai_mpkt", &ai_mpkt, 1000, 1, 65535 },
	{ "beta_pm", &beta_pm, 800, 0, 1000 },
	{ "max_mdf_pm", &max_mdf_pm, 500, 1, 1000 },
	{ "min_cwnd_mpkt", &min_cwnd_mpkt, 1, 1, 65535 },
	{ "init_cwnd", &init_cwnd, 10, 1, 65535 },
	{ "retx_reset", &retx_reset, 3, 1, 255 },
	{ "lswift_k", &lswift_k, 5, 1, 255 },
	{ "h_cap", &h_cap, 128, 1, 1024 },
	{ "pctl", &pctl, 50, 0, 100 },
	{ "pacing_pct", &pacing_pct, 200, 100, 1000 },
	{ "share_base_rtt", &share_base_rtt, 1, 0, 1 },
	{ NULL }
};

enum swift_sim_variant { SWIFT_V_SWIFT = 0, SWIFT_V_LSWIFT = 1, SWIFT_V_MSWIFT = 2 };

struct swift_sim {
	struct swift_core core;
	struct swift_cfg cfg;	/* the socket's snapshot */
	bool share;		/* share_base_rtt, relative mode only */
	/* tcp_is_cwnd_limited()'s latch (the stack's, not in dcc_sim_sock) */
	bool is_limited;
	u32 max_out;
	u64 round_end_ns;
};

static u8 swift_sim_variant_of(const struct dcc_sim_sock *sk);

/* swift_params_now() and swift_snap_fill() */
static void swift_sim_snap(struct swift_sim *ca)
{
	const struct swift_params p = {
		.base_target_us = base_target_us,
		.target_mode = target_mode,
		.hops = hops,
		.hop_us = hop_us,
		.hop_ttl = hop_ttl,
		.fs_range_us = fs_range_us,
		.fs_min_cwnd_mpkt = fs_min_cwnd_mpkt,
		.fs_max_cwnd = fs_max_cwnd,
		.ai_mpkt = ai_mpkt,
		.beta_pm = beta_pm,
		.max_mdf_pm = max_mdf_pm,
		.min_cwnd_mpkt = min_cwnd_mpkt,
		.init_cwnd = init_cwnd,
		.retx_reset = retx_reset,
		.lswift_k = lswift_k,
		.h_cap = h_cap,
		.pctl = pctl,
		.pacing_pct = pacing_pct,
	};

	swift_cfg_init(&ca->cfg, &p);
	ca->share = ca->cfg.relative && share_base_rtt;
}

/* swift_srtt_ns(): 1 ms before the first sample */
static u64 swift_sim_srtt_ns(const struct dcc_sim_sock *sk)
{
	return sk->srtt_us ? (u64)sk->srtt_us * 1000 : SWIFT_SRTT_DEFAULT_NS;
}

/* swift_base_rtt_ns(): min RTT lowered to the shared read, else srtt, else 0 */
static u64 swift_sim_base_rtt_ns(const struct dcc_sim_sock *sk,
				 const struct swift_sim *ca)
{
	u32 min_rtt = sk->min_rtt_us;
	u32 shared = ca->core.glue_base_us;

	if (min_rtt)
		return (u64)(shared && shared < min_rtt ? shared : min_rtt) * 1000;
	if (sk->srtt_us)
		return (u64)sk->srtt_us * 1000;
	return 0;
}

/*
 * swift_flow_base_ns(): the relative base, plus with hop_ttl the hop term;
 * the simulator carries no TTL, so the count is the parameter hops, as
 * for a kernel socket without an RX record
 */
static u64 swift_sim_flow_base_ns(const struct dcc_sim_sock *sk,
				  const struct swift_sim *ca)
{
	return (ca->cfg.relative ? swift_sim_base_rtt_ns(sk, ca) : 0) +
	       swift_hop_term_ns(&ca->core, &ca->cfg);
}

/* dcc_share_due(): delivered crossed a multiple of DCC_SHARE_PKTS (128) */
static bool swift_sim_share_due(const struct dcc_sim_sock *sk, u32 acked)
{
	return (sk->delivered ^ (sk->delivered - acked)) >= 128;
}

/* swift_share_read(): the host's lowest min RTT, at the first sample, then per 128 */
static void swift_sim_share_read(struct dcc_sim_sock *sk, struct swift_sim *ca,
				 u32 acked)
{
	if (!sk->min_rtt_us)
		return;
	if (ca->core.glue_base_us && !swift_sim_share_due(sk, acked))
		return;
	ca->core.glue_base_us = dcc_sim_auto_base_rtt_us(sk, true);
}

/* swift_in_get(): the stack's facts for an event */
static void swift_sim_in_get(const struct dcc_sim_sock *sk,
			     const struct swift_sim *ca, struct swift_in *in)
{
	*in = (struct swift_in){
		.now_ns = sk->now_ns,
		.srtt_ns = swift_sim_srtt_ns(sk),
		/* relative mode: 0 before any RTT sample */
		.base_ns = swift_sim_flow_base_ns(sk, ca),
		.cwnd_clamp = SWIFT_SIM_CWND_CLAMP,
		.in_loss = sk->ca_state == DCC_SIM_CA_LOSS,
	};
}

/*
 * tcp_is_cwnd_limited() at this ACK, with the send path's latch
 * (tcp_cwnd_validate()) re-stated on the packets out before it: a round
 * (one srtt, as snd_una passing cwnd_usage_seq) is cwnd-limited once
 * they reached snd_cwnd in it; in slow start (ssthresh is infinite for
 * Swift), also while snd_cwnd < 2 * the round's most packets out.
 */
static bool swift_sim_cwnd_limited(const struct dcc_sim_sock *sk,
				   struct swift_sim *ca, u32 acked, u64 srtt_ns)
{
	u32 out = sk->packets_out + acked;
	u32 cwnd = sk->snd_cwnd ? sk->snd_cwnd : 1;

	if (sk->now_ns >= ca->round_end_ns) {
		ca->round_end_ns = sk->now_ns + srtt_ns;
		ca->is_limited = false;
		ca->max_out = 0;
	}
	ca->is_limited |= out >= cwnd;
	if (out > ca->max_out)
		ca->max_out = out;
	if (ca->is_limited)
		return true;
	return cwnd < sk->snd_ssthresh && cwnd < 2 * ca->max_out;
}

/*
 * LSwift/MSwift gate input, swift_missing_run()'s stand-in: the packets
 * the stack marked lost on this ACK, counted up to @k (no scoreboard).
 */
static u32 swift_sim_missing_run(const struct dcc_sample *s, u32 k)
{
	return s->losses < k ? s->losses : k;
}

/* swift_set_rate(): never 0, at most sk_max_pacing_rate (0: none known) */
static void swift_sim_set_rate(struct dcc_sim_sock *sk, u64 rate)
{
	if (!rate)
		rate = 1;
	if (sk->max_pacing_rate && rate > sk->max_pacing_rate)
		rate = sk->max_pacing_rate;
	sk->pacing_rate = rate;
}

/* swift_apply() without the pacing-stamp bound: rate, whole-packet window */
static void swift_sim_apply(struct dcc_sim_sock *sk, const struct swift_sim *ca,
			    u64 rate_bytes_ps)
{
	u32 pkts = swift_cwnd_pkts(ca->core.cwnd);

	swift_sim_set_rate(sk, rate_bytes_ps);
	if (pkts > SWIFT_SIM_CWND_CLAMP)
		pkts = SWIFT_SIM_CWND_CLAMP;
	sk->snd_cwnd = pkts < DCC_SIM_MAX_CWND ? pkts : DCC_SIM_MAX_CWND;
}

static void swift_sim_init(struct dcc_sim_sock *sk)
{
	struct swift_sim *ca = sk->ca;
	u8 v = swift_sim_variant_of(sk);
	struct dcc_decision d;
	struct swift_in in;

	swift_sim_snap(ca);
	/* -ENOMEM: the 3-sample fallback window (the module counts it) */
	swift_core_init(&ca->core, &ca->cfg,
			(v != SWIFT_V_SWIFT ? SWIFT_LAZY : 0) |
			(v == SWIFT_V_MSWIFT ? SWIFT_MEDIAN : 0),
			SWIFT_SIM_CWND_CLAMP);
	sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;	/* no slow start */
	swift_sim_in_get(sk, ca, &in);
	swift_decide(&ca->core, &ca->cfg, &in, sk->mss, &d);
	swift_sim_apply(sk, ca, d.rate_bytes_ps);
}

static void swift_sim_release(struct dcc_sim_sock *sk)
{
	struct swift_sim *ca = sk->ca;

	swift_core_release(&ca->core);
}

/* swift_ack(): the stack's facts, the core, a new decision applied */
static void swift_sim_ack(struct dcc_sim_sock *sk, struct swift_sim *ca,
			  const struct dcc_sample *s)
{
	const struct swift_cfg *c = &ca->cfg;
	u64 srtt_ns = swift_sim_srtt_ns(sk);
	/* read by the core only on an ACK that marks losses */
	bool in_loss = s->losses && sk->ca_state == DCC_SIM_CA_LOSS;
	const struct swift_in in = {
		.srtt_ns = srtt_ns,
		.base_ns = swift_sim_flow_base_ns(sk, ca),
		.cwnd_clamp = SWIFT_SIM_CWND_CLAMP,
		.cwnd_limited = swift_sim_cwnd_limited(sk, ca, s->acked, srtt_ns),
		.in_loss = in_loss,
		/* LSwift/MSwift's gate, only on an ACK that marks losses */
		.missing = s->losses && (ca->core.flags & SWIFT_LAZY) && !in_loss ?
			   swift_sim_missing_run(s, c->lswift_k) : 0,
	};
	struct dcc_decision d = { 0 };

	swift_on_ack(&ca->core, c, &in, s, &d);
	if (d.changed)
		swift_sim_apply(sk, ca, d.rate_bytes_ps);
}

static void swift_sim_cong_control(struct dcc_sim_sock *sk,
				   const struct dcc_sample *s)
{
	struct swift_sim *ca = sk->ca;

	if (ca->share)
		swift_sim_share_read(sk, ca, s->acked);
	swift_sim_ack(sk, ca, s);
}

/* every RTO (set_state(Loss)): cut, count; only the rate changes now */
static void swift_sim_set_state(struct dcc_sim_sock *sk, u8 new_state)
{
	struct swift_sim *ca = sk->ca;
	struct dcc_decision d;
	struct swift_in in;

	if (new_state != DCC_SIM_CA_LOSS)
		return;
	swift_sim_in_get(sk, ca, &in);
	swift_on_rto(&ca->core, &ca->cfg, &in);
	swift_decide(&ca->core, &ca->cfg, &in, sk->mss, &d);
	swift_sim_set_rate(sk, d.rate_bytes_ps);
}

/* recovery or RTO begins: remember the window (for an undo ns-3 never does) */
static u32 swift_sim_ssthresh(struct dcc_sim_sock *sk)
{
	struct swift_sim *ca = sk->ca;

	swift_on_recovery_start(&ca->core);
	return sk->snd_ssthresh;	/* the core cuts nothing itself */
}

#define SWIFT_SIM_OPS(str) {				\
	.name		= str,				\
	.priv_size	= sizeof(struct swift_sim),	\
	.params		= swift_sim_params,		\
	.init		= swift_sim_init,		\
	.release	= swift_sim_release,		\
	.cong_control	= swift_sim_cong_control,	\
	.ssthresh	= swift_sim_ssthresh,		\
	.set_state	= swift_sim_set_state,		\
}

const struct dcc_sim_alg dcc_sim_swift = SWIFT_SIM_OPS("swift");
const struct dcc_sim_alg dcc_sim_lswift = SWIFT_SIM_OPS("lswift");
const struct dcc_sim_alg dcc_sim_mswift = SWIFT_SIM_OPS("mswift");

/* Which of the three a socket runs: its ops pointer says. */
static u8 swift_sim_variant_of(const struct dcc_sim_sock *sk)
{
	if (sk->alg == &dcc_sim_mswift)
		return SWIFT_V_MSWIFT;
	if (sk->alg == &dcc_sim_lswift)
		return SWIFT_V_LSWIFT;
	return SWIFT_V_SWIFT;
}
