// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY, patched TIMELY and SQCC: rate-based, delay-driven congestion
 * control (Tang et al., "SQCC: Stable Queue Congestion Control", Alg. 1-3;
 * TIMELY: Mittal et al., SIGCOMM'15; patched TIMELY: Zhu et al.,
 * CoNEXT'16), as tcp_congestion_ops "timely", "timely_p" and "sqcc".
 *
 * This one file is the kernel glue of all three; it is compiled once per
 * module with TIMELY_VARIANT set (tcp_timely.c itself: TIMELY,
 * tcp_timely_p.c: patched, tcp_sqcc.c: SQCC), and the three share one
 * plain-C per-ACK core in timely_law.c (include/dcc/timely.h): the glue
 * snapshots the parameters into a config once per socket
 * (timely_cfg_resolve_nic, with the egress NIC's link speed), hands
 * every ACK to timely_on_ack() as a dcc_sample (nanoseconds, "now" = the
 * sample's rx_ns), and only when it says a decision is due (about once
 * per seg bytes acked) reads the kernel's facts (the measured min RTT,
 * SQCC's per-destination flow count, the max pacing rate) for
 * timely_on_change() and applies the rate and window it returns; the
 * events (init, loss and RTO, undo, idle restart) are the core's too.
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
 * Paper symbol -> field (struct timely_state st, struct timely_cfg cfg):
 *	rate, rttDiff, prevRTT	st.rate (B/s), st.rtt_diff (ns), st.prev_rtt_ns
 *	newRTT			the completion's RTT (st.win, min over window)
 *	alpha, beta, delta	cfg.alpha_q16, cfg.beta_q20, cfg.delta_bytes_ps
 *	T_low, T_high, RTT_ref	cfg.t_low_ns, t_high_ns, rtt_ref_ns (queueing
 *				delay in relative mode, the default)
 *	D_minRTT		cfg.dmin_ns, 0 = the base RTT (tcp_min_rtt)
 *	seg			cfg.seg_bytes; C: cfg.link_bytes_ps; N: st.n_hat
 *
 * Linux adaptations (each reduces to the paper in its setting):
 * completion events from ACK aggregation (the paper's per-completion
 * update, Eq. 3), thresholds relative to the base RTT, N from a
 * parameter, a per-destination count of this host's SQCC flows, or the
 * sender-side estimate C (1 + g) / R (the receiver's echo of N, §III, is
 * out of a CC module's reach), loss handling (the paper's network is
 * lossless: one 50 % cut per recovery episode, undo restores), a rate
 * floor and ceiling, app-limited completions never raise the rate.
 *
 * Differences from the paper beyond those adaptations, each measured with
 * 1000 flows through a 20 Mbit/s, 10 ms link and a 2000-packet drop-tail
 * queue (test_many_flows.sh), where rate_min times N is 50 times C:
 *  - losses bound the window (dcc_lib's loss bound, dcc.h), as the paper's
 *    lossless fabric never needs;
 *  - the first window: before the first completion the cap is one BDP at
 *    the rate over the base RTT (at least the initial window), not the
 *    law's 2 rate (base + T_high) (timely_decide()).  1000 flows at the
 *    line rate each sent a receive window (45 packets) into a 2000-packet
 *    queue before the first ACK came back 1.2 s later; 43000 of them were
 *    lost and the 6 s run was spent on timeouts: 9-11 of 20 Mbit/s.
 *  - the regain after a loss cut (loss_regain, on by default; 0 = the
 *    paper's additive increase): until the rate is back at 7/8 of its
 *    reference, a completion window closes every D_minRTT whatever it
 *    acked, and one whose delay is below T_low / 2 at least doubles the
 *    rate (timely_on_loss()).  The reference is the rate before the cut,
 *    or the rate of the last window (outside a regain) that saw the
 *    queue below T_low if that was higher.  Measured on a 1-BDP drop-tail
 *    buffer at 100 Mbit/s and 10 ms (test_timely_law, with 0 and 1):
 *    T_high lies beyond such a buffer and beta = 0.008 is too gentle to
 *    stop a rate that crossed C before it overflows, so a lone patched
 *    TIMELY or SQCC flow loses packets every cycle and climbed back at
 *    delta = 200 kbit/s per completion: 0.81 of C, 0.96 with the regain;
 *    16 flows starting at C: util 0.93-0.96 -> 0.99, Jain 0.84-0.90 ->
 *    0.93, 53-56 -> 135-138 drops in 3 s.  With the rate before the cut
 *    alone as the reference the regain did not bring long flows back
 *    after a 40-RTT burst of 16 flows (6-10 % of C for the next 100 RTT):
 *    the law had cut them for the burst's queue before its losses, and
 *    each later episode of the burst started from a lower rate.  The
 *    rate of the last window with a short queue is what they had before
 *    the burst, and it holds still through the burst (no window with a
 *    short queue, none written during a regain): DCC_SEED 1-8, with the
 *    module defaults, the long flows carry >= 0.9 C again 5-7 RTT
 *    (timely_p) and 6-12 (sqcc) after the burst (33-49 before) and
 *    22-37 RTT (timely, with empty_hai below; never before), and the 16
 *    flows that stay lose as many packets as before (0.3-0.5 % timely,
 *    1.3-1.5 % timely_p and sqcc).  In the guest (test_timely_burst.sh,
 *    3 runs): 41.2, 50.2, 30.8 (timely), 13.8, 11.6, 15.8 (timely_p),
 *    14.0, 2.0, 9.2 (sqcc) RTT to 90 % of the wire rate, against 31-43
 *    and 28-51 before and never for timely.  It is not free at a
 *    microsecond scale: at 25 Gbit/s and 8 us, where the 1-BDP buffer
 *    (25 KB) is shallower than T_low, 16 flows that start at C lose
 *    9.3 % of their packets over the run instead of 5.6 % (same
 *    utilisation, Jain 0.998): every window is short-queued there, so
 *    the reference stays the rate of the window before a chain of cuts.
 *    Tried and not kept: forgetting the reference when a regain that had
 *    doubled is cut (5.6 -> 6.7 % there, but timely's long flows came
 *    back in 39-999 RTT: the burst's own swings let them double and cut
 *    them again).  Tried before it, in the same model, each bringing the
 *    long flows back, for what 16 flows that stay (started at C) then
 *    lost in 3 s: keeping the highest target over a chain of episodes
 *    (8-76 RTT; 11000-18000 drops), halving it on each failed regain
 *    (never; 600-900), doubling without a target until the first queue
 *    (7-8 RTT; 62-66 % of their packets), the same capped at twice the
 *    delivered rate (20-113 RTT; 16-22 %).
 *  - empty_hai (on; 0 = the paper's law): once the flow has had a loss
 *    cut (the network drops), a completion whose delay is below T_low / 4
 *    credits the next window (one update per RTT, not per seg bytes: a
 *    flow a burst left at 1/30 of C needs 16 RTTs for 64 KB), and from
 *    the 7th such completion in a row the step below T_low is HAI's
 *    5 delta, 10 delta from the 8th on.  The burst above (test_timely_law,
 *    DCC_SEED 1-8, before the regain's reference above): the long flows
 *    carry >= 0.9 C in every RTT of 10 from 33-49 RTT after it (52-74 with
 *    5 delta throughout; never without), Jain 0.98-1.0 after; the 16
 *    flows that stay: Jain 0.92-0.97, 1.3-1.5 % drops (0.4-0.6 %
 *    without).  Why these constants: near empty at T_low / 2 fires in
 *    the short standing queues of 16 flows sharing the link (3-17 %
 *    drops); a streak under 6 adds drops there; a multiplicative step
 *    (rate / 4) instead of HAI's overshoots so far that the law's gentle
 *    decrease holds a lone flow's queue at ~100 ms on a lossless link,
 *    hence also the arming by a loss: on a lossless fabric
 *    (test_timely_law's lossless scenarios) nothing changes.  TIMELY's
 *    own law drains the queue for tens of RTTs in every cycle (beta 0.8):
 *    with the same rule its 16 flows got Jain 0.81-0.98 and 1.7-2.2 %
 *    drops, so in TIMELY's law the per-RTT windows start at the 7th
 *    near-empty completion in a row, add delta in proportion to the
 *    bytes they carried (its increase per byte, only on a faster clock),
 *    and HAI's step waits for the 20th (timely_empty_credit(),
 *    timely_empty_streak(); the variants measured are listed there): the
 *    16 flows lose 0.3-0.5 % and keep Jain >= 0.951 over 48 seeds (0.947
 *    without), and TIMELY's long flows are back 22-37 RTT after the
 *    burst instead of 56-78 with the regain alone (model); in the guest
 *    30.8-50.2 instead of 210 (there the gradient cut hit the long flows
 *    again on the transient queue the regain's doubling left, and delta
 *    per 64 KB took the rest).  Its cost in the guest (tools/bench, 2
 *    runs each): incast 4 at 87.7 % with 1.3 % loss (90.7 %, 0.55 %
 *    without), join/leave's median step 103 RTT (19); docs/timely.md.
 *  - update_clock 1: one update per D_minRTT whatever was acked,
 *    instead of the completion event.  In the model
 *    (test_timely_law) it reproduces Table II (500:1: error-only SQCC a
 *    mean of 280 packets, full SQCC 164 with std 1, the paper 273 and
 *    149 with std 14) where the completion clock does not (3501; 134
 *    swinging 1..520: a flow at C/500 updates once per 26 ms), but not
 *    Fig. 1d (ratio 0.65 against ~0.2; the completion clock 0.15), and
 *    16 flows on a 1-BDP drop-tail buffer lose 4.5 % of their packets
 *    (1.3-1.5 %): so at and below the papers' 10 Gbit/s the default
 *    (update_clock 2) is the papers' completion clock.
 *  - the link-rate defaults (t_low_us, t_high_us, rtt_ref_us, delta_kbps,
 *    rate_min_kbps 0, update_clock 2, the defaults): C is link_mbps, else
 *    the egress NIC's link speed (dcc_egress_speed_mbps(): a NIC backed
 *    by hardware; a veth has none), the initial rate and SQCC's C; the
 *    papers' 10 Gbit/s values scale with it: T_low0 = seg/C, T_high =
 *    10 seg/C, RTT_ref = T_low0, delta = C/1000, rate_min = C/10^4 (at
 *    least 1 Mbit/s); above 10 Gbit/s one update per max(base RTT,
 *    seg/C) (a line-rate flow's completion event, for every flow), which
 *    normalises g too.  C unknown: the 10 Gbit/s values (50, 500 us,
 *    10 Mbit/s, 1 Mbit/s, the completion clock).  SQCC's automatic N
 *    source still follows link_mbps alone (the estimate's known limit,
 *    below).  Measured in the model (test_timely_law, 100 Gbit/s with a
 *    12 us base RTT and 25 Gbit/s with 8 us, NIC = link, lossless): with
 *    the 10 Gbit/s values a lone flow took 11112 and 2632 RTT to 0.9 C
 *    (delta 10 Mbit/s per 64 KB), TIMELY's 16 flows sat at the 1 Mbit/s
 *    floor (a 64 KB completion there takes 0.5 s), SQCC's too at 100
 *    Gbit/s, timely_p's and SQCC's held 4.2-4.5 ms of queue at 25 Gbit/s
 *    (T_high 0.5 ms); with the link-rate defaults a lone flow is at C
 *    from the first RTT and 16 flows carry 0.95-1.0 of C, Jain >= 0.998,
 *    queue 3-63 us (T_high 52 and 210 us).  Each part was needed: the
 *    NIC's C alone fixed the lone flow only; the RTT clock with the
 *    10 Gbit/s thresholds left TIMELY at 0.72-0.84 of C; without the
 *    seg/C gate TIMELY got 0.76 at 25 Gbit/s; with a 1 Mbit/s floor SQCC
 *    left flows at the floor for good.  Known limit: after a line-rate
 *    start the laws cut to the floor, one packet per 600 RTT at 25 Gbit/s
 *    and 8 us: the 16 flows settle from RTT 1800-2300 there (300 at 100).
 *
 * Known limit, not changed: SQCC's sender-side N estimate (n_source 3,
 * the auto choice when link_mbps is set) is C (1 + g) / R with R the
 * flow's delivery rate over a completion window.  With a queue the
 * delivery rates already add up to C, so (1 + g) counts the queue's
 * growth twice: in the testbed model at 32-40 fair flows it reads N 2x
 * high and the link idles 40-54 % of the time (test_timely_law).  C / R
 * reads it right there, but in the guest (32 flows from a line-rate start
 * into a 1000-packet buffer) flows the start left unequal read their own
 * small share as N = 71-98 and stayed small: Jain 0.59-0.63 against
 * 0.83-0.98.  Neither is right for unequal flows.
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
#define TIMELY_BETA_DEFAULT 800000	/* 0.8 as in [17] */
#define TIMELY_HAI_DEFAULT 5		/* [17]; 0 = Alg. 1 literally */
#define TIMELY_EMPTY_HAI_DEFAULT 1	/* ours: drop-tail networks */
#define TIMELY_DESC "TIMELY: RTT-gradient rate control (SIGCOMM'15; SQCC Alg. 1)"
#elif TIMELY_VARIANT == TV_PATCHED
#define TIMELY_NAME "timely_p"
#define TIMELY_TRACE_SYSTEM timely_p
#define TIMELY_BETA_DEFAULT 8000	/* §II.B, §IV */
#define TIMELY_HAI_DEFAULT 0		/* no HAI in Alg. 2 */
#define TIMELY_EMPTY_HAI_DEFAULT 1	/* ours: drop-tail networks */
#define TIMELY_DESC "patched TIMELY: weighted gradient and RTT_ref error (CoNEXT'16; SQCC Alg. 2)"
#elif TIMELY_VARIANT == TV_SQCC
#define TIMELY_NAME "sqcc"
#define TIMELY_TRACE_SYSTEM sqcc
#define TIMELY_BETA_DEFAULT 8000	/* §IV */
#define TIMELY_HAI_DEFAULT 0		/* no HAI in Alg. 3 */
#define TIMELY_EMPTY_HAI_DEFAULT 1	/* ours: drop-tail networks */
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
 * A variant file sets TIMELY_FN before including this one; the module's
 * metadata names its own (DCC_ACK_HOOK(), below the ops).
 */
#ifndef TIMELY_FN
#define TIMELY_FN(f) timely_##f
#endif

#define CREATE_TRACE_POINTS
#include "timely_trace.h"

/* ---- tunables (validated; snapshotted per socket in timely_init) ------ */

/* 0 = the link-rate default (timely.h): seg/C, 10 seg/C, C/1000, C/10^4;
 * C unknown: §IV's 50 us, 500 us, 10 Mbit/s and 1 Mbit/s
 */
static u32 t_low_us;			/* SQCC: the initial T_low0 */
static u32 t_high_us;
static u32 alpha_ppm = 875000;		/* §IV, HPCC's ns-3 TIMELY */
static u32 beta_ppm = TIMELY_BETA_DEFAULT;
static u32 delta_kbps;			/* SQCC: delta0 */
static u32 min_rtt_us;			/* D_minRTT; 0 = base RTT (see below) */
static u32 base_rtt_us;			/* 0 = tcp_min_rtt() */
static u32 seg_bytes = 65536;		/* 64 KB completions ([17]) */
static u32 link_mbps;			/* C; 0 = the egress NIC's, if known */
static u32 rate_min_kbps;		/* floor (the paper has none) */
static u32 hai_thresh = TIMELY_HAI_DEFAULT;
static u32 loss_md_pct = 50;		/* not in the paper (lossless) */
static u32 loss_regain = 1;		/* not in the paper (lossless) */
static u32 empty_hai = TIMELY_EMPTY_HAI_DEFAULT;	/* not in the paper */
static u32 update_clock = TIMELY_CLOCK_AUTO;	/* 0 completion (Eq. 3), 1 per RTT */
static u32 delay_mode;			/* 0 relative, 1 absolute (paper) */
static u32 rtt_filter;			/* 0 min over the window, 1 last */
static u32 init_rate_kbps;		/* 0 = C if known, or cwnd / RTT (ours) */

/*
 * T_low < T_high is enforced on every write, against the other's current
 * value unless either is 0 (the link-rate default): to raise both, write
 * t_high_us first; to lower both, t_low_us first (modprobe applies its
 * arguments in order).
 */
static int timely_set_thresh(const char *val, const struct kernel_param *kp)
{
	bool is_low = kp->arg == &t_low_us;
	u32 v, other;

	if (kstrtou32(val, 0, &v) || v > USEC_PER_SEC)
		return -EINVAL;
	other = READ_ONCE(*(is_low ? &t_high_us : &t_low_us));
	if (v && other && (is_low ? v >= other : v <= other))
		return -EINVAL;
	WRITE_ONCE(*(u32 *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops timely_thresh_ops = {
	.set = timely_set_thresh,
	.get = param_get_uint,
};
module_param_cb(t_low_us, &timely_thresh_ops, &t_low_us, 0644);
MODULE_PARM_DESC(t_low_us, "T_low in us (queueing delay in relative mode; SQCC: T_low0); 0 = seg/C, 50 with C unknown [0..t_high_us-1]");
module_param_cb(t_high_us, &timely_thresh_ops, &t_high_us, 0644);
MODULE_PARM_DESC(t_high_us, "T_high in us (queueing delay in relative mode); 0 = 10 seg/C, 500 with C unknown [t_low_us+1..1000000]");

dcc_param_range(alpha_ppm, alpha_ppm, 1, 1000000, 0644,
		"EWMA weight alpha of the new RTT difference, ppm");
dcc_param_range(beta_ppm, beta_ppm, 1, 1000000, 0644,
		"multiplicative decrease factor beta, ppm");
dcc_param_range(delta_kbps, delta_kbps, 0, 100000000, 0644,
		"additive increase delta, kbit/s (SQCC: delta0, the cap of C k / N^2); 0 = C/1000, 10000 with C unknown");
dcc_param_range(min_rtt_us, min_rtt_us, 0, 1000000, 0644,
		"D_minRTT (gradient normaliser and update gate), us; 0 = the base RTT");
dcc_param_range(base_rtt_us, base_rtt_us, 0, 1000000, 0644,
		"base RTT for relative thresholds, us; 0 = tcp_min_rtt() of each socket");
dcc_param_range(seg_bytes, seg_bytes, 1448, 4194304, 0644,
		"bytes acknowledged per completion event (seg)");
dcc_param_range(update_clock, update_clock, 0, 2, 0644,
		"rate updates: 0 = per completion event (seg_bytes acked and >= D_minRTT, the paper's), 1 = once per D_minRTT whatever was acked, 2 = above 10 Gbit/s once per max(D_minRTT, seg/C), else 0");
dcc_param_range(link_mbps, link_mbps, 0, 800000, 0644,
		"link capacity C in Mbit/s (initial rate, SQCC's delta, the link-rate defaults; set: SQCC's N estimate); 0 = the egress NIC's link speed (dcc_lib dev_speed), else unknown");
dcc_param_range(rate_min_kbps, rate_min_kbps, 0, 100000000, 0644,
		"rate floor, kbit/s (must be <= C/N); 0 = C/10^4, at least 1000");
dcc_param_range(hai_thresh, hai_thresh, 0, 255, 0644,
		"hyperactive increase (5 x delta) after this many completions with g < 0; 0 = off");
dcc_param_range(loss_md_pct, loss_md_pct, 0, 100, 0644,
		"rate cut per loss recovery episode, percent");
dcc_param_range(loss_regain, loss_regain, 0, 1, 0644,
		"after a loss cut, double the rate per RTT while the queue is near empty, back to 7/8 of the rate before the cut or of the last rate that saw the queue below T_low, whichever is higher; 0 = additive only");
dcc_param_range(empty_hai, empty_hai, 0, 1, 0644,
		"after the flow's first loss cut: while the queue stays near empty (below T_low/4) update once per RTT (timely: from the 7th such update in a row, delta pro rata), and from the 7th (timely: 20th) such update in a row add 5 x delta (10 x after); 0 = the paper's law");
dcc_param_range(delay_mode, delay_mode, 0, 1, 0644,
		"0 = thresholds are queueing delay above the base RTT, 1 = absolute RTT (paper)");
dcc_param_range(init_rate_kbps, init_rate_kbps, 0, 800000000, 0644,
		"initial rate, kbit/s; 0 = C (link_mbps, else the egress NIC's) if known, else the initial window over the handshake RTT");
dcc_param_range(rtt_filter, rtt_filter, 0, 1, 0644,
		"completion RTT: 0 = min over the window's samples, 1 = last sample");

#if TIMELY_VARIANT == TV_PATCHED
static u32 rtt_ref_us;			/* §II.A: RTT_ref = T_low (0) */
dcc_param_range(rtt_ref_us, rtt_ref_us, 0, 1000000, 0644,
		"RTT_ref of the error function, us (relative mode: queueing delay); 0 = T_low");
#define TIMELY_RTT_REF() READ_ONCE(rtt_ref_us)
#else
#define TIMELY_RTT_REF() 0U	/* only patched TIMELY has RTT_ref */
#endif

#if IS_SQCC
static u32 n_source;		/* auto: estimate if link_mbps, else local */
static u32 n_flows;
static u32 thigh_max_cut;
dcc_param_range(n_source, n_source, 0, 3, 0644,
		"incast degree N: 0 auto (3 if link_mbps is set, else 2), 1 fixed n_flows, 2 this host's sqcc flows to the destination, 3 max(2, C(1+g)/R median)");
dcc_param_range(n_flows, n_flows, 0, 65535, 0644,
		"N for n_source=1 (0 = 1)");
dcc_param_range(thigh_max_cut, thigh_max_cut, 0, 1, 0644,
		"above T_high cut as at error = 1/beta instead of the paper's gentle cut");

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

struct timely {
	struct timely_state st;	/* 48 B: rate, gradient, window, N median */
	struct timely_cfg cfg;	/* 56 B: the parameter snapshot, resolved */
};

/* the measured base RTT in ns (tcp_min_rtt, else srtt; 0 = none yet) */
static u32 timely_min_rtt_ns(const struct sock *sk)
{
	return (u32)dcc_us_to_ns(dcc_base_rtt_us(sk, 0));	/* <= 4.29 s */
}

/* the base RTT in force, us (idle detection, get_info) */
static u32 timely_base_us(const struct sock *sk, const struct timely *ca)
{
	return dcc_ns_to_us(timely_base_ns(&ca->cfg, timely_min_rtt_ns(sk)));
}

/* the highest rate the core may choose: the socket's max pacing rate */
static u64 timely_rate_max(const struct sock *sk)
{
	return min_t(u64, READ_ONCE(sk->sk_max_pacing_rate), DCC_RATE_MAX_BPS);
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

/* This host's SQCC flows to the socket's destination (n_source 2, 3). */
static u32 timely_n_local(const struct timely *ca)
{
#if IS_SQCC
	return max(atomic_read(&sqcc_dst_flows[ca->cfg.n_key]), 1);
#else
	return 1;
#endif
}

/*
 * Give back SQCC's per-destination flow count, if this socket holds one:
 * every initialised SQCC socket does, until release.
 */
static void timely_uncount(struct timely *ca)
{
#if IS_SQCC
	if (ca->st.flags & TIMELY_S_INITED) {
		atomic_dec(&sqcc_dst_flows[ca->cfg.n_key]);
		ca->st.flags &= ~TIMELY_S_INITED;
	}
#endif
}

static void timely_apply(struct sock *sk, const struct dcc_decision *d)
{
	dcc_apply_bounded(sk, d->rate_bytes_ps, d->cwnd_bytes);
}

/* the module parameters now, in their sysfs units */
static void timely_params_get(struct timely_params *p)
{
	*p = (struct timely_params){
		.t_low_us = READ_ONCE(t_low_us),
		.t_high_us = READ_ONCE(t_high_us),
		.rtt_ref_us = TIMELY_RTT_REF(),
		.alpha_ppm = READ_ONCE(alpha_ppm),
		.beta_ppm = READ_ONCE(beta_ppm),
		.delta_kbps = READ_ONCE(delta_kbps),
		.min_rtt_us = READ_ONCE(min_rtt_us),
		.base_rtt_us = READ_ONCE(base_rtt_us),
		.seg_bytes = READ_ONCE(seg_bytes),
		.link_mbps = READ_ONCE(link_mbps),
		.rate_min_kbps = READ_ONCE(rate_min_kbps),
		.init_rate_kbps = READ_ONCE(init_rate_kbps),
		.hai_thresh = READ_ONCE(hai_thresh),
		.loss_md_pct = READ_ONCE(loss_md_pct),
		.loss_regain = READ_ONCE(loss_regain),
		.empty_hai = READ_ONCE(empty_hai),
		.update_clock = READ_ONCE(update_clock),
		.delay_mode = READ_ONCE(delay_mode),
		.rtt_filter = READ_ONCE(rtt_filter),
#if IS_SQCC
		.n_source = READ_ONCE(n_source),
		.n_flows = READ_ONCE(n_flows),
		.thigh_max_cut = READ_ONCE(thigh_max_cut),
#endif
	};
}

static void TIMELY_FN(init)(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct timely *ca = inet_csk_ca(sk);
	struct timely_params p;
	struct dcc_decision d;

	BUILD_BUG_ON(sizeof(struct timely) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(TV_TIMELY != TIMELY_LAW_GRADIENT ||
		     TV_PATCHED != TIMELY_LAW_PATCHED || TV_SQCC != TIMELY_LAW_SQCC);
	BUILD_BUG_ON(TIMELY_INIT_CWND != TCP_INIT_CWND);

	/*
	 * The stack inits once per assignment; should a second init ever
	 * come, the first one's flow count must not leak.
	 */
	timely_uncount(ca);

	timely_params_get(&p);
	timely_cfg_resolve_nic(&ca->cfg, TIMELY_VARIANT, &p,
			       dcc_egress_speed_mbps(sk));
	timely_on_init(&ca->st, &ca->cfg, timely_params_init_rate(&p),
		       tp->tcp_clock_cache, timely_min_rtt_ns(sk),
		       (u64)tcp_snd_cwnd(tp) * tp->mss_cache, tp->mss_cache,
		       timely_rate_max(sk), &d);
#if IS_SQCC
	ca->cfg.n_key = sqcc_dst_bucket(sk);
	atomic_inc(&sqcc_dst_flows[ca->cfg.n_key]);
#endif

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	timely_apply(sk, &d);
}

static void TIMELY_FN(release)(struct sock *sk)
{
	/* release also runs for sockets whose init never did (zeroed priv) */
	timely_uncount(inet_csk_ca(sk));
}

/* the tracepoint keeps its us fields: rtt_us, d_us, t_low_us */
static void timely_trace(struct sock *sk, const struct timely *ca,
			 const struct timely_update *u)
{
	if (!trace_rate_update_enabled())
		return;
	trace_rate_update(sk, dcc_ns_to_us(u->win.rtt_ns),
			  dcc_ns_to_us(u->law.d_ns), u->law.g_q16,
			  u->law.w_q16, u->law.err_q16,
			  dcc_ns_to_us(u->law.t_low_ns), u->law.delta_bytes_ps,
			  u->n, ca->st.rate, tcp_snd_cwnd(tcp_sk(sk)),
			  u->law.branch);
}

/*
 * A decision is due on this ACK (timely_on_ack()): the completion if the
 * window closes, with the kernel facts only a decision needs (the base
 * RTT, SQCC's flow count, the max pacing rate), and the new rate and
 * window, applied.  Out of line, so that cong_control's common path
 * carries none of its frame.
 */
static noinline void timely_change(struct sock *sk, struct timely *ca,
				   const struct dcc_sample *s)
{
	struct timely_update u;
	struct dcc_decision d;

	timely_on_change(&ca->st, &ca->cfg, s, timely_min_rtt_ns(sk),
			 timely_n_local(ca), timely_rate_max(sk), &d, &u);
	timely_apply(sk, &d);
	if (d.flags & TIMELY_D_UPDATE)
		timely_trace(sk, ca, &u);
}

/*
 * The loss bound moves the window on this ACK (dcc.h, dcc_loss_ack()):
 * the decision in force, applied through it again.
 */
static noinline void timely_hold(struct sock *sk, struct timely *ca, u32 mss)
{
	struct dcc_decision d;

	timely_decide(&ca->st, &ca->cfg, timely_min_rtt_ns(sk), mss, &d);
	timely_apply(sk, &d);
}

/*
 * Per ACK: the sample into the completion window, and nothing else unless
 * a decision is due (a window closes, about once per seg bytes, or an
 * event left the decision stale) or the loss bound is in force
 * (@bounded: its per-ACK step first, __dcc_loss_ack(), and the decision in
 * force applied through it on the ACKs where that step says the window
 * moves).  Between decisions snd_cwnd and sk_pacing_rate hold the last
 * one: the stack changes neither for a cong_control module but through
 * the loss bound's hooks (ssthresh, the Loss state's one packet: the
 * bound re-applies) and
 * undo_cwnd (the rate comes back on the next ACK: timely_on_undo marks
 * the decision stale).  What only moves the window cap between
 * completions (the base RTT, the MSS) moves it at the next one: the cap is
 * 2 rate (base + T_high), loose by design, and pacing binds.
 */
static __always_inline void timely_ack(struct sock *sk,
				       const struct rate_sample *rs,
				       struct timely *ca, bool bounded)
{
	/* dcc_sample_get() writes every field: no per-ACK zeroing (dcc.h) */
	struct dcc_sample s __uninitialized;

	bool hold = false;

	if (bounded)	/* dcc_loss_ack(), its test done by the caller */
		hold = __dcc_loss_ack(sk, rs);
	/* delayed-ACK samples are kept, but only as the window's fallback */
	dcc_sample_get(sk, rs, &s, DCC_SAMPLE_KEEP_DELAYED);
	if (unlikely(timely_on_ack(&ca->st, &ca->cfg, &s)))
		timely_change(sk, ca, &s);
	else if (hold)
		timely_hold(sk, ca, s.mss);
}

/* an ACK while the loss bound is in force: out of the common path */
static noinline void timely_ack_bounded(struct sock *sk,
					const struct rate_sample *rs,
					struct timely *ca)
{
	timely_ack(sk, rs, ca, true);
}

static void TIMELY_FN(cong_control)(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct timely *ca = inet_csk_ca(sk);

	if (unlikely(!(ca->st.flags & TIMELY_S_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	/* dcc.h: the loss bound; its test once, not per step */
	if (dcc_loss_bound_active(sk))
		timely_ack_bounded(sk, rs, ca);
	else
		timely_ack(sk, rs, ca, false);
}

static void TIMELY_FN(set_state)(struct sock *sk, u8 new_state)
{
	struct timely *ca = inet_csk_ca(sk);
	struct dcc_decision d;

	if (!(ca->st.flags & TIMELY_S_INITED))
		return;
	if (new_state == TCP_CA_Open) {
		timely_on_recovered(&ca->st);
		return;
	}
	if (new_state != TCP_CA_Recovery && new_state != TCP_CA_Loss)
		return;
	if (timely_on_loss(&ca->st, &ca->cfg, new_state == TCP_CA_Loss,
			   tcp_sk(sk)->tcp_clock_cache, timely_min_rtt_ns(sk),
			   tcp_sk(sk)->mss_cache, &d))
		timely_apply(sk, &d);
}

static void TIMELY_FN(cwnd_event)(struct sock *sk, enum tcp_ca_event ev)
{
	struct timely *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: no difference may span the gap.  Not every
	 * TX_START: a window that one ACK clears raises it every round, and
	 * each reset would lose the completion in progress.
	 */
	if (ev == CA_EVENT_TX_START && (ca->st.flags & TIMELY_S_INITED) &&
	    dcc_tx_start_after_idle(sk, timely_base_us(sk, ca)))
		timely_on_restart(&ca->st, tcp_sk(sk)->tcp_clock_cache);
}

static u32 TIMELY_FN(ssthresh)(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);

	if (!(ca->st.flags & TIMELY_S_INITED))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	/* called on entering recovery/loss, before set_state: save for undo */
	timely_save_undo(&ca->st);
	return dcc_loss_ssthresh(sk);	/* dcc.h: loss bound */
}

static u32 TIMELY_FN(undo_cwnd)(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);

	if (ca->st.flags & TIMELY_S_INITED)
		timely_on_undo(&ca->st);
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
	u64 rate = READ_ONCE(ca->st.rate);

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)rate;
	info->bbr.bbr_bw_hi = (u32)(rate >> 32);
	info->bbr.bbr_min_rtt = timely_base_us(sk, ca);
	info->bbr.bbr_pacing_gain = (u32)READ_ONCE(ca->st.last_w) << 1; /* Q8 */
	info->bbr.bbr_cwnd_gain = IS_SQCC ? (u32)READ_ONCE(ca->st.n_hat) << 8 : 0;
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

DCC_ACK_HOOK(TIMELY_FN(cong_control));	/* modinfo: the variant's own symbol */

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
