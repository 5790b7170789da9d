// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY, patched TIMELY and SQCC: rate-based, delay-driven congestion
 * control (Tang et al., "SQCC: Stable Queue Congestion Control", Alg. 1-3;
 * TIMELY: Mittal et al., SIGCOMM'15; patched TIMELY: Zhu et al.,
 * CoNEXT'16), as tcp_congestion_ops "timely", "timely_p" and "sqcc".
 *
 * This one file is the kernel glue of all three; it is compiled once per
 * module with TIMELY_VARIANT set (tcp_timely.c itself: TIMELY,
 * tcp_timely_p.c: patched, tcp_sqcc.c: SQCC), and the three share the
 * rate law in timely_law.c (include/dcc/timely.h).
 *
 * Theory.  Each completion event (a chunk of seg bytes acknowledged, at
 * most once per D_minRTT: tau* = max(seg/R, D_minRTT), Eq. 3) gives one
 * RTT sample.  Its difference from the previous one, smoothed by an EWMA
 * and divided by D_minRTT, is the normalised gradient g ~ (sum R - C)/C,
 * the aggregate's excess arrival rate.  The delay d (queueing delay above
 * the base RTT by default) selects a band:
 *
 *	d < T_low:	rate += delta			(the queue is ~empty)
 *	d > T_high:	rate *= 1 - beta (1 - T_high/d)	(cut, at most beta)
 *	otherwise, per algorithm:
 *	  TIMELY	g <= 0: rate += delta (5 delta after 5 events with
 *			g < 0: HAI); g > 0: rate *= 1 - beta g
 *	  patched	rate = delta (1 - w) + rate (1 - beta err w),
 *			w = clamp(2g + 1/2, 0, 1), err = (d - RTT_ref)/RTT_ref
 *	  SQCC		as patched with err = T_high (d - T_low) /
 *			(T_low (T_high - d)) (Eq. 16), T_low = k T_low0 and
 *			delta = min(delta0, C k / N^2), k = max(1, lg N) (Eq. 25)
 *
 * TIMELY's gradient rule has no fixed point: the queue wanders between
 * T_low and T_high.  Patched TIMELY's blend holds the rate where
 * beta err w = delta (1 - w) / rate, i.e. at g = 0 (w = 1/2) with
 * err = E = delta N / (beta C): a fair fixed point whose queue grows
 * linearly with N and leaves the band once N >~ 80 at 10 Gbit/s (Eq. 6-8).
 * SQCC's err diverges at T_high, so its fixed point
 * d* = T_low T_high (1 + E) / (T_high + E T_low) stays inside the band for
 * every N (Eq. 17), and its self-adjusted T_low/delta keep E = k/(beta N)
 * small, i.e. the queue near k segments (Eq. 25, Fig. 4).
 *
 * Paper symbol -> field (struct timely, struct timely_law_state):
 *	rate, rttDiff, prevRTT	law.rate (B/s), law.rtt_diff (us Q8), law.prev_rtt
 *	newRTT			the completion's RTT (timely_win, min over window)
 *	alpha, beta, delta	alpha_q16, beta_q20, delta_kbps (snapshots)
 *	T_low, T_high, RTT_ref	t_low_us, t_high_us, rtt_ref_us (queueing
 *				delay in relative mode, the default)
 *	D_minRTT		dmin_us, 0 = the base RTT (tcp_min_rtt)
 *	seg			seg_bytes; C: link_mbps; N: n_hat
 *
 * Linux adaptations (spec sqcc.md; each reduces to the paper in its
 * setting): completion events from ACK aggregation (4.1), relative
 * thresholds (6.5), N from a parameter, a per-destination count of this
 * host's SQCC flows, or the sender-side estimate C (1 + g) / R (6.7),
 * loss handling (one 50 % cut per recovery episode, undo restores; G12),
 * rate floor/ceiling (G7), app-limited completions never raise the rate.
 *
 * Differences from the paper beyond those adaptations, each measured with
 * 1000 flows through a 20 Mbit/s, 10 ms link and a 2000-packet drop-tail
 * queue (test_many_flows.sh), where rate_min times N is 50 times C:
 *  - losses bound the window (dcc_lib's loss bound, dcc.h), as the paper's
 *    lossless fabric never needs;
 *  - the first window: before the first completion the cap is one BDP at
 *    the rate over the base RTT (at least the initial window), not the
 *    law's 2 rate (base + T_high) (timely_apply()).  1000 flows at the
 *    line rate each sent a receive window (45 packets) into a 2000-packet
 *    queue before the first ACK came back 1.2 s later; 43000 of them were
 *    lost and the 6 s run was spent on timeouts: 9-11 of 20 Mbit/s.
 *
 * All state lives in icsk_ca_priv; nothing here sleeps or allocates.
 * Lifecycle as in dcc.h: hooks before init leave the state alone; SQCC's
 * flow count is taken by init and given back by release.
 */
#include <linux/module.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <net/tcp.h>
#include <net/netns/hash.h>
#include <net/ipv6.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/timely.h"

/* the variant this compilation builds (numeric: usable in #if) */
#define TV_TIMELY 0
#define TV_PATCHED 1
#define TV_SQCC 2
#ifndef TIMELY_VARIANT
#define TIMELY_VARIANT TV_TIMELY
#endif

#if TIMELY_VARIANT == TV_TIMELY
#define TIMELY_NAME "timely"
#define TIMELY_TRACE_SYSTEM timely
#define TIMELY_BETA_DEFAULT 800000	/* [17]; spec G17 */
#define TIMELY_HAI_DEFAULT 5		/* [17]; 0 = Alg. 1 literally (G16) */
#define TIMELY_DESC "TIMELY: RTT-gradient rate control (SIGCOMM'15; SQCC Alg. 1)"
#elif TIMELY_VARIANT == TV_PATCHED
#define TIMELY_NAME "timely_p"
#define TIMELY_TRACE_SYSTEM timely_p
#define TIMELY_BETA_DEFAULT 8000	/* §II.B, §IV */
#define TIMELY_HAI_DEFAULT 0		/* no HAI in Alg. 2 (G16) */
#define TIMELY_DESC "patched TIMELY: weighted gradient and RTT_ref error (CoNEXT'16; SQCC Alg. 2)"
#elif TIMELY_VARIANT == TV_SQCC
#define TIMELY_NAME "sqcc"
#define TIMELY_TRACE_SYSTEM sqcc
#define TIMELY_BETA_DEFAULT 8000	/* §IV */
#define TIMELY_HAI_DEFAULT 0		/* no HAI in Alg. 3 (G16) */
#define TIMELY_DESC "SQCC: stable queue congestion control (SQCC Alg. 3)"
#else
#error "TIMELY_VARIANT must be TV_TIMELY, TV_PATCHED or TV_SQCC"
#endif
#define IS_SQCC (TIMELY_VARIANT == TV_SQCC)

/*
 * The tcp_congestion_ops hooks get the variant's own symbol names
 * (timely_cong_control, timely_p_cong_control, sqcc_cong_control, ...):
 * the three modules can be loaded together, and a kprobe by name
 * (tools/bench's per-ACK timing, bpftrace) must name one function.
 * A variant file sets TIMELY_FN before including this one; tools/bench
 * reads the prefix from that "#define TIMELY_FN(f) PREFIX##f" line.
 */
#ifndef TIMELY_FN
#define TIMELY_FN(f) timely_##f
#endif

#define CREATE_TRACE_POINTS
#include "timely_trace.h"

/* ---- tunables (validated; snapshotted per socket in timely_init) ------ */

static u32 t_low_us = 50;		/* §IV (SQCC: the initial T_low0) */
static u32 t_high_us = 500;		/* §IV */
static u32 alpha_ppm = 875000;		/* §IV, HPCC's ns-3 TIMELY */
static u32 beta_ppm = TIMELY_BETA_DEFAULT;
static u32 delta_kbps = 10000;		/* 10 Mbit/s (§IV; SQCC: delta0) */
static u32 min_rtt_us;			/* D_minRTT; 0 = base RTT (see below) */
static u32 base_rtt_us;			/* 0 = tcp_min_rtt() */
static u32 seg_bytes = 65536;		/* 64 KB completions ([17]) */
static u32 link_mbps;			/* C; 0 = unknown */
static u32 rate_min_kbps = 1000;	/* G7 */
static u32 hai_thresh = TIMELY_HAI_DEFAULT;
static u32 loss_md_pct = 50;		/* G12 */
static u32 delay_mode;			/* 0 relative (6.5), 1 absolute */
static u32 rtt_filter;			/* 0 min over the window, 1 last */
static u32 init_rate_kbps;		/* 0 = link rate or cwnd / RTT (G6) */

/*
 * T_low < T_high is enforced on every write, against the other's current
 * value: to raise both, write t_high_us first; to lower both, t_low_us
 * first (modprobe applies its arguments in order).
 */
static int timely_set_thresh(const char *val, const struct kernel_param *kp)
{
	bool is_low = kp->arg == &t_low_us;
	u32 v;

	if (kstrtou32(val, 0, &v) || v < 1 || v > USEC_PER_SEC)
		return -EINVAL;
	if (is_low ? v >= READ_ONCE(t_high_us) : v <= READ_ONCE(t_low_us))
		return -EINVAL;
	WRITE_ONCE(*(u32 *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops timely_thresh_ops = {
	.set = timely_set_thresh,
	.get = param_get_uint,
};
module_param_cb(t_low_us, &timely_thresh_ops, &t_low_us, 0644);
MODULE_PARM_DESC(t_low_us, "T_low in us (queueing delay in relative mode; SQCC: T_low0 = seg/C) [1..t_high_us-1]");
module_param_cb(t_high_us, &timely_thresh_ops, &t_high_us, 0644);
MODULE_PARM_DESC(t_high_us, "T_high in us (queueing delay in relative mode) [t_low_us+1..1000000]");

dcc_param_range(alpha_ppm, alpha_ppm, 1, 1000000, 0644,
		"EWMA weight alpha of the new RTT difference, ppm");
dcc_param_range(beta_ppm, beta_ppm, 1, 1000000, 0644,
		"multiplicative decrease factor beta, ppm");
dcc_param_range(delta_kbps, delta_kbps, 1, 100000000, 0644,
		"additive increase delta, kbit/s (SQCC: delta0, the cap of C k / N^2)");
dcc_param_range(min_rtt_us, min_rtt_us, 0, 1000000, 0644,
		"D_minRTT (gradient normaliser and update gate), us; 0 = the base RTT");
dcc_param_range(base_rtt_us, base_rtt_us, 0, 1000000, 0644,
		"base RTT for relative thresholds, us; 0 = tcp_min_rtt() of each socket");
dcc_param_range(seg_bytes, seg_bytes, 1448, 4194304, 0644,
		"bytes acknowledged per completion event (seg)");
dcc_param_range(link_mbps, link_mbps, 0, 800000, 0644,
		"link capacity C in Mbit/s (initial rate; SQCC's delta and N estimate); 0 = unknown");
dcc_param_range(rate_min_kbps, rate_min_kbps, 1, 100000000, 0644,
		"rate floor, kbit/s (must be <= C/N)");
dcc_param_range(hai_thresh, hai_thresh, 0, 255, 0644,
		"hyperactive increase (5 x delta) after this many completions with g < 0; 0 = off");
dcc_param_range(loss_md_pct, loss_md_pct, 0, 100, 0644,
		"rate cut per loss recovery episode, percent");
dcc_param_range(delay_mode, delay_mode, 0, 1, 0644,
		"0 = thresholds are queueing delay above the base RTT, 1 = absolute RTT (paper)");
dcc_param_range(init_rate_kbps, init_rate_kbps, 0, 800000000, 0644,
		"initial rate, kbit/s; 0 = link_mbps if set, else the initial window over the handshake RTT");
dcc_param_range(rtt_filter, rtt_filter, 0, 1, 0644,
		"completion RTT: 0 = min over the window's samples, 1 = last sample");

#if TIMELY_VARIANT == TV_PATCHED
static u32 rtt_ref_us = 50;		/* §II.A: RTT_ref = T_low (G19) */
dcc_param_range(rtt_ref_us, rtt_ref_us, 1, 1000000, 0644,
		"RTT_ref of the error function, us (relative mode: queueing delay)");
#define TIMELY_RTT_REF() READ_ONCE(rtt_ref_us)
#else
#define TIMELY_RTT_REF() 0U	/* only patched TIMELY has RTT_ref */
#endif

#if IS_SQCC
enum { SQCC_N_AUTO, SQCC_N_FIXED, SQCC_N_LOCAL, SQCC_N_ESTIMATE };
static u32 n_source;		/* auto: estimate if link_mbps, else local */
static u32 n_flows;
static u32 thigh_max_cut;
dcc_param_range(n_source, n_source, 0, 3, 0644,
		"incast degree N: 0 auto (3 if link_mbps is set, else 2), 1 fixed n_flows, 2 this host's sqcc flows to the destination, 3 max(2, C(1+g)/R median)");
dcc_param_range(n_flows, n_flows, 0, 65535, 0644,
		"N for n_source=1 (0 = 1)");
dcc_param_range(thigh_max_cut, thigh_max_cut, 0, 1, 0644,
		"above T_high cut as at error = 1/beta (spec G13) instead of the paper's gentle cut");

/*
 * n_source=2: SQCC flows of this host per destination, in 256 buckets
 * hashed from the destination address and the network namespace, as
 * dcc_lib's shared tables are (collisions over-count, which only makes
 * delta smaller).  Exact for single-host incast (iperf3 -P N); across
 * hosts it under-counts and SQCC degrades to its error-function-only form.
 * A socket holds one count from init to release; dst_flows shows the
 * total, 0 whenever no SQCC socket is open.
 */
static atomic_t sqcc_dst_flows[256];

static int sqcc_dst_flows_get(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(sqcc_dst_flows); i++)
		n += atomic_read(&sqcc_dst_flows[i]);
	return sysfs_emit(buf, "%d\n", n);
}

static const struct kernel_param_ops sqcc_dst_flows_ops = {
	.get = sqcc_dst_flows_get,
};
module_param_cb(dst_flows, &sqcc_dst_flows_ops, NULL, 0444);
MODULE_PARM_DESC(dst_flows,
		 "SQCC sockets counted per destination, all buckets (read-only)");
#endif

/* ---- per-socket state: <= 104 bytes, BUILD_BUG_ON'd ------------------- */

#define TIMELY_F_INITED		0x1
#define TIMELY_F_COUNTED	0x2	/* holds a sqcc_dst_flows reference */
#define TIMELY_F_CUT		0x4	/* this loss episode's cut is done */

#define TIMELY_O_RELATIVE	0x1
#define TIMELY_O_RTT_LAST	0x2
#define TIMELY_O_MAX_CUT	0x4
#define TIMELY_O_AUTO_BASE	0x8	/* base RTT follows tcp_min_rtt() */

struct timely {
	struct timely_law_state law;	/* 16 B */
	struct timely_win win;		/* 16 B: completion clock */
	struct timely_nest nest;	/* 8 B: SQCC N estimate median */
	u32 base_us;		/* base RTT in use */
	u32 prior_rate;		/* rate before the loss cut, B/s >> 6 */
	/* parameter snapshot */
	u32 t_low_us, t_high_us, rtt_ref_us;
	u32 alpha_q16, beta_q20;
	u32 delta_kbps, dmin_us, link_mbps, rate_min_kbps, seg_bytes;
	u16 n_flows;		/* SQCC fixed N */
	u16 n_hat;		/* N used by the last update (get_info) */
	u16 n_est;		/* SQCC estimate: median of the samples */
	u16 last_w;		/* w of the last update, Q8 (get_info) */
	u8 hai_thresh;
	u8 n_source;		/* resolved: never AUTO */
	u8 loss_md_pct;
	u8 opts;		/* TIMELY_O_* */
	u8 flags;		/* TIMELY_F_* */
	u8 dst_bucket;
};

/* the rate saved for undo is u32 in units of 64 B/s (<= 2.7e11 B/s) */
#define TIMELY_PRIOR_SHIFT 6

static void timely_cfg(const struct sock *sk, const struct timely *ca,
		       struct timely_law_cfg *c)
{
	u64 max_rate = min_t(u64, READ_ONCE(sk->sk_max_pacing_rate),
			     DCC_RATE_MAX_BPS);

	*c = (struct timely_law_cfg){
		.kind = TIMELY_VARIANT,
		.hai_thresh = ca->hai_thresh,
		.relative = ca->opts & TIMELY_O_RELATIVE,
		.thigh_max_cut = ca->opts & TIMELY_O_MAX_CUT,
		.t_low_us = ca->t_low_us,
		.t_high_us = ca->t_high_us,
		.rtt_ref_us = ca->rtt_ref_us,
		.base_us = ca->base_us,
		/*
		 * D_minRTT, spec G8: the paper's 20 us is its fabric's base
		 * RTT; 0 (default) uses this path's base RTT, which is the
		 * same thing there and the only sensible scale elsewhere.
		 */
		.dmin_us = ca->dmin_us ? ca->dmin_us : max_t(u32, ca->base_us, 1),
		.alpha_q16 = ca->alpha_q16,
		.beta_q20 = ca->beta_q20,
		.delta_bytes_ps = (u64)ca->delta_kbps * 125,
		.link_bytes_ps = (u64)ca->link_mbps * DCC_MBPS_TO_BPS,
		.rate_min_bytes_ps = (u64)ca->rate_min_kbps * 125,
		.rate_max_bytes_ps = max_rate,
	};
}

#if IS_SQCC
static u8 sqcc_dst_bucket(const struct sock *sk)
{
	u32 addr = (__force u32)sk->sk_daddr;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		addr = ipv6_addr_hash(&sk->sk_v6_daddr);
#endif
	return (u8)hash_32(jhash_2words(addr, net_hash_mix(sock_net(sk)), 0), 8);
}
#endif

/* SQCC's incast degree N for this update, in [1, TIMELY_N_MAX] */
static u32 timely_n(const struct timely *ca)
{
#if IS_SQCC
	u32 local = max(atomic_read(&sqcc_dst_flows[ca->dst_bucket]), 1);

	switch (ca->n_source) {
	case SQCC_N_FIXED:
		return max_t(u32, ca->n_flows, 1);
	case SQCC_N_ESTIMATE:
		return min_t(u32, max_t(u32, local, ca->n_est), TIMELY_N_MAX);
	default:
		return min_t(u32, local, TIMELY_N_MAX);
	}
#else
	return 1;
#endif
}

/* Give back SQCC's per-destination flow count, if this socket holds one. */
static void timely_uncount(struct timely *ca)
{
#if IS_SQCC
	if (ca->flags & TIMELY_F_COUNTED) {
		atomic_dec(&sqcc_dst_flows[ca->dst_bucket]);
		ca->flags &= ~TIMELY_F_COUNTED;
	}
#endif
}

/*
 * The window cap: 2 rate (base + T_high) (spec 6.3), so pacing binds.
 * Before the first completion (of the connection, or since an RTO or an
 * idle restart) no RTT has confirmed the rate yet, and that cap is tens
 * of BDPs: at most one BDP at the rate over the base RTT, or the initial
 * window, goes out.
 */
static void timely_apply(struct sock *sk, const struct timely *ca,
			 const struct timely_law_cfg *c)
{
	u32 mss = tcp_sk(sk)->mss_cache;
	u64 cwnd = timely_cwnd_bytes(c, ca->law.rate, mss);

	if (!ca->law.prev_rtt)
		cwnd = min(cwnd, max_t(u64, (u64)TCP_INIT_CWND * mss,
				       dcc_cwnd_bytes(ca->law.rate, ca->base_us,
						      256, mss)));
	dcc_apply_bounded(sk, ca->law.rate, cwnd);
}

static void TIMELY_FN(init)(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct timely *ca = inet_csk_ca(sk);
	struct timely_law_cfg c;
	u32 tl = READ_ONCE(t_low_us), th = READ_ONCE(t_high_us);
	u64 rate;

	BUILD_BUG_ON(sizeof(struct timely) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(TV_TIMELY != TIMELY_LAW_GRADIENT ||
		     TV_PATCHED != TIMELY_LAW_PATCHED || TV_SQCC != TIMELY_LAW_SQCC);

	/*
	 * The stack inits once per assignment; should a second init ever
	 * come, the first one's flow count must not leak.
	 */
	timely_uncount(ca);

	/* a reader may see one threshold of a two-write change: keep tl < th */
	if (tl >= th)
		tl = max_t(u32, th / 2, 1);
	*ca = (struct timely){
		.t_low_us = tl,
		.t_high_us = max_t(u32, th, 2),
		.rtt_ref_us = TIMELY_RTT_REF(),
		.alpha_q16 = max_t(u32, TIMELY_PPM_TO_Q16(READ_ONCE(alpha_ppm)), 1),
		.beta_q20 = max_t(u32, TIMELY_PPM_TO_Q20(READ_ONCE(beta_ppm)), 1),
		.delta_kbps = READ_ONCE(delta_kbps),
		.dmin_us = READ_ONCE(min_rtt_us),
		.link_mbps = READ_ONCE(link_mbps),
		.rate_min_kbps = READ_ONCE(rate_min_kbps),
		.seg_bytes = READ_ONCE(seg_bytes),
		.hai_thresh = READ_ONCE(hai_thresh),
		.loss_md_pct = READ_ONCE(loss_md_pct),
		.opts = (READ_ONCE(delay_mode) ? 0 : TIMELY_O_RELATIVE) |
			(READ_ONCE(rtt_filter) ? TIMELY_O_RTT_LAST : 0) |
			(READ_ONCE(base_rtt_us) ? 0 : TIMELY_O_AUTO_BASE),
		.n_hat = 1,
		.n_est = 1,
		.flags = TIMELY_F_INITED,
	};
#if IS_SQCC
	ca->n_flows = READ_ONCE(n_flows);
	ca->n_source = READ_ONCE(n_source);
	if (ca->n_source == SQCC_N_AUTO)
		ca->n_source = ca->link_mbps ? SQCC_N_ESTIMATE : SQCC_N_LOCAL;
	if (READ_ONCE(thigh_max_cut))
		ca->opts |= TIMELY_O_MAX_CUT;
	ca->dst_bucket = sqcc_dst_bucket(sk);
	atomic_inc(&sqcc_dst_flows[ca->dst_bucket]);
	ca->flags |= TIMELY_F_COUNTED;
#endif
	timely_nest_init(&ca->nest, 1);
	ca->base_us = dcc_base_rtt_us(sk, READ_ONCE(base_rtt_us));
	timely_win_reset(&ca->win, (u32)tp->tcp_mstamp);

	/*
	 * Initial rate (G6): init_rate_kbps if set; else the link rate when
	 * it is configured (the ns-3 convention), else the initial window
	 * over the handshake RTT.  Additive increase climbs delta per
	 * completion, so where RTTs are long an operator who knows the fair
	 * share should start there.
	 */
	if (READ_ONCE(init_rate_kbps))
		rate = (u64)READ_ONCE(init_rate_kbps) * 125;
	else if (ca->link_mbps)
		rate = (u64)ca->link_mbps * DCC_MBPS_TO_BPS;
	else
		rate = dcc_rate_time_bytes((u64)tcp_snd_cwnd(tp) * tp->mss_cache,
					   DCC_USEC_PER_SEC,
					   ca->base_us ? ca->base_us : USEC_PER_MSEC);
	timely_cfg(sk, ca, &c);
	ca->law.rate = clamp_t(u64, rate, c.rate_min_bytes_ps,
			       max(c.rate_min_bytes_ps, c.rate_max_bytes_ps));

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	timely_apply(sk, ca, &c);
}

static void TIMELY_FN(release)(struct sock *sk)
{
	/* release also runs for sockets whose init never did (zeroed priv) */
	timely_uncount(inet_csk_ca(sk));
}

/* One completion event: one evaluation of Alg. 1/2/3. */
static void timely_completion(struct sock *sk, struct timely *ca,
			      const struct timely_win_out *wo, bool app_limited)
{
	struct timely_law_cfg c;
	struct timely_law_out o;
	u32 n = timely_n(ca);

	timely_cfg(sk, ca, &c);
	timely_law_update(&c, &ca->law, wo->rtt_us, n, app_limited, &o);
	WRITE_ONCE(ca->n_hat, (u16)n);
	WRITE_ONCE(ca->last_w, (u16)(o.w_q16 >> 8));
#if IS_SQCC
	/* the sender-side N sample needs a queue (a saturated link) and C */
	if (ca->n_source == SQCC_N_ESTIMATE && c.link_bytes_ps &&
	    o.d_us >= c.t_low_us && wo->span_us && !app_limited) {
		u64 own = dcc_bytes_per_sec(wo->bytes, wo->span_us, DCC_USEC_PER_SEC);

		ca->n_est = (u16)timely_nest_push(&ca->nest,
				timely_n_sample(c.link_bytes_ps, o.g_q16, own));
	}
#endif
	timely_apply(sk, ca, &c);
	trace_rate_update(sk, wo->rtt_us, o.d_us, o.g_q16, o.w_q16, o.err_q16,
			  o.t_low_us, o.delta_bytes_ps, n, ca->law.rate,
			  tcp_snd_cwnd(tcp_sk(sk)), o.branch);
}

static void TIMELY_FN(cong_control)(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct timely *ca = inet_csk_ca(sk);
	struct timely_law_cfg c;
	struct timely_win_out wo;
	struct dcc_sample s;
	u32 rtt = 0;

	if (unlikely(!(ca->flags & TIMELY_F_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	dcc_loss_ack(sk, rs);	/* dcc.h: loss bound */

	/* delayed-ACK samples are kept, but only as the window's fallback */
	if (dcc_sample_get(sk, rs, &s, DCC_SAMPLE_KEEP_DELAYED))
		rtt = s.rtt_us;
	if (ca->opts & TIMELY_O_AUTO_BASE) {
		u32 b = dcc_base_rtt_us(sk, 0);	/* windowed min, 300 s */

		if (b)
			WRITE_ONCE(ca->base_us, b);
	}
	if (timely_win_add(&ca->win, (u32)tp->tcp_mstamp, rtt,
			   rs->is_ack_delayed, s.acked_bytes, ca->seg_bytes,
			   ca->dmin_us ? ca->dmin_us : ca->base_us,
			   !(ca->opts & TIMELY_O_RTT_LAST), &wo)) {
		timely_completion(sk, ca, &wo, rs->is_app_limited);
		return;
	}
	timely_cfg(sk, ca, &c);
	timely_apply(sk, ca, &c);
}

/* Forget the gradient and the open window; the rate is kept. */
static void timely_reset(struct sock *sk, struct timely *ca)
{
	timely_law_reset_grad(&ca->law);
	timely_win_reset(&ca->win, (u32)tcp_sk(sk)->tcp_mstamp);
}

static void TIMELY_FN(set_state)(struct sock *sk, u8 new_state)
{
	struct timely *ca = inet_csk_ca(sk);
	struct timely_law_cfg c;

	if (!(ca->flags & TIMELY_F_INITED))
		return;
	if (new_state == TCP_CA_Open) {
		ca->flags &= ~TIMELY_F_CUT;
		return;
	}
	if (new_state != TCP_CA_Recovery && new_state != TCP_CA_Loss)
		return;
	if (new_state == TCP_CA_Loss)
		timely_reset(sk, ca);	/* RTO: samples span the stall */
	if (ca->flags & TIMELY_F_CUT)
		return;
	/* G12: the paper's fabric is lossless; one cut per episode */
	ca->flags |= TIMELY_F_CUT;
	timely_cfg(sk, ca, &c);
	ca->law.rate = max(c.rate_min_bytes_ps,
			   div_u64(ca->law.rate * (100 - ca->loss_md_pct), 100));
	timely_apply(sk, ca, &c);
}

static void TIMELY_FN(cwnd_event)(struct sock *sk, enum tcp_ca_event ev)
{
	struct timely *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: no difference may span the gap.  Not every
	 * TX_START: a window that one ACK clears raises it every round, and
	 * each reset would lose the completion in progress.
	 */
	if (ev == CA_EVENT_TX_START && (ca->flags & TIMELY_F_INITED) &&
	    dcc_tx_start_after_idle(sk, ca->base_us))
		timely_reset(sk, ca);
}

static u32 TIMELY_FN(ssthresh)(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);

	if (!(ca->flags & TIMELY_F_INITED))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	/* called on entering recovery/loss, before set_state: save for undo */
	ca->prior_rate = (u32)min_t(u64, ca->law.rate >> TIMELY_PRIOR_SHIFT,
				    U32_MAX);
	return dcc_loss_ssthresh(sk);	/* dcc.h: loss bound */
}

static u32 TIMELY_FN(undo_cwnd)(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);

	if (!(ca->flags & TIMELY_F_INITED))
		return tcp_snd_cwnd(tcp_sk(sk));
	ca->law.rate = max(ca->law.rate,
			   (u64)ca->prior_rate << TIMELY_PRIOR_SHIFT);
	ca->flags &= ~TIMELY_F_CUT;
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti: reuses the BBR info layout, which ss prints in full:
 *	bw		rate (bytes/s; ss shows bit/s)
 *	mrtt		base RTT in use (us; ss shows ms)
 *	pacing_gain	w(g) of the last update (ss divides by 256: 0..1;
 *			always 0 for TIMELY, which has no weight)
 *	cwnd_gain	N of the last update (SQCC; ss divides by 256), else 0
 */
static size_t TIMELY_FN(get_info)(struct sock *sk, u32 ext, int *attr,
				  union tcp_cc_info *info)
{
	const struct timely *ca = inet_csk_ca(sk);
	/* ss may read while an ACK updates: each per-ACK field once */
	u64 rate = READ_ONCE(ca->law.rate);

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)rate;
	info->bbr.bbr_bw_hi = (u32)(rate >> 32);
	info->bbr.bbr_min_rtt = READ_ONCE(ca->base_us);
	info->bbr.bbr_pacing_gain = READ_ONCE(ca->last_w);
	info->bbr.bbr_cwnd_gain = IS_SQCC ? (u32)READ_ONCE(ca->n_hat) << 8 : 0;
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops tcp_timely_ops __read_mostly = {
	.name		= TIMELY_NAME,
	.owner		= THIS_MODULE,
	.init		= TIMELY_FN(init),
	.release	= TIMELY_FN(release),
	.cong_control	= TIMELY_FN(cong_control),
	.ssthresh	= TIMELY_FN(ssthresh),
	.undo_cwnd	= TIMELY_FN(undo_cwnd),
	.set_state	= TIMELY_FN(set_state),
	.cwnd_event	= TIMELY_FN(cwnd_event),
	.get_info	= TIMELY_FN(get_info),
};

static int __init timely_register(void)
{
	return dcc_register_ca(&tcp_timely_ops);
}

static void __exit timely_unregister(void)
{
	dcc_unregister_ca(&tcp_timely_ops);
}

module_init(timely_register);
module_exit(timely_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION(TIMELY_DESC);
