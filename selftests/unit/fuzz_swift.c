// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the Swift family's per-ACK core
 * (modules/swift/swift_law.c, include/dcc/swift.h) as tcp_swift.c drives
 * it for swift, lswift and mswift: the same entry points, nothing copied.
 *
 * The input decodes into one parameter set, each parameter inside its
 * dcc_param_range() (relative or absolute target, hops, flow scaling, ai,
 * beta, max_mdf, min/initial cwnd, retx_reset, lswift_k, h_cap, pctl,
 * pacing_pct), converted once by swift_cfg_init() as the module does; the
 * variant, MSS and snd_cwnd_clamp; and a stream of events:
 *  - ACKs (swift_on_ack) with RTT samples of 1 us .. 1 s in ns, samples
 *    rejected (no delay), any acked count, losses with any missing-run
 *    length (LSwift's gate either way), in or out of the Loss state,
 *    cwnd-limited or not, clock steps of 0 .. 5 s;
 *  - RTOs (swift_on_rto), recovery starts and spurious-loss undos,
 *    restarts after idle, the min RTT changing (relative target), the
 *    clamp changing, and the window set anywhere in its range (0.001 ..
 *    2^30 packets: what init_cwnd alone cannot reach).
 * The stack's srtt follows the samples as Linux's does (1/8 EWMA; 1 ms
 * before the first).  With every MSS of 64 .. 65535 B and RTT of 1 us ..
 * 1 s, the window range covers rates of 1 Mbit/s .. 800 Gbit/s and beyond.
 *
 * Checked after every call (abort on failure): cwnd in [min_cwnd,
 * max_cwnd(clamp)], min_cwnd >= 1 (Q16), max_cwnd <= 2^30 packets; the
 * target the law used is target_base (+ min RTT if relative) + fs with fs
 * in [0, fs_range], and the one-entry fs cache holds fs of its window; a
 * decision the core makes (changed) has a pacing rate of exactly
 * pct/100 * cwnd * mss / rtt (128-bit reference; pct 100 and rtt capped at
 * max(target, last delay) below one packet) and a window of
 * max(1, floor(cwnd)) * mss, and is then the one in force; an ACK whose
 * decision stands leaves the decision's fields alone, and the one in
 * force is within swift.h's rule (at least one packet, the same
 * whole-packet window, window within 1/32 and srtt within 1/16 of its
 * own, no RTO or undo since); MSwift's window never holds more than H
 * samples, H in [1, h_cap], its median or percentile inside the window's
 * range; an RTO count reaching retx_reset leaves cwnd = min_cwnd; an AI
 * never shrinks the window and an MD never grows it beyond max_mdf.
 * UBSan and ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/median.h"
#include "dcc/swift.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

enum { V_SWIFT, V_LSWIFT, V_MSWIFT };

struct fuzz_sock {
	struct swift_cfg cfg;
	struct swift_core st;
	struct swift_in in;
	u32 mss;
	u32 srtt_us;		/* tp->srtt_us >> 3; 0 before any sample */
	u32 min_rtt_us;		/* tcp_min_rtt(); 0 before any sample */
	/* the decision in force (the socket's), and what it was made of */
	struct dcc_decision d;
	u64 d_cwnd, d_srtt_ns;
	bool must_decide;	/* the stack set its own snd_cwnd (RTO, undo) */
};

static void read_params(struct fz *in, struct swift_params *p)
{
	p->base_target_us = fz_rtt_us(in);
	p->target_mode = fz_bool(in);
	p->hops = (u32)fz_span(in, 0, 255);
	p->hop_us = (u32)fz_span(in, 0, 100000);
	p->fs_range_us = (u32)fz_span(in, 0, 1000000);
	p->fs_min_cwnd_mpkt = (u32)fz_span(in, 1, 65535);
	p->fs_max_cwnd = (u32)fz_span(in, 1, 1000000000);
	p->ai_mpkt = (u32)fz_span(in, 1, 65535);
	p->beta_pm = (u32)fz_span(in, 0, 1000);
	p->max_mdf_pm = (u32)fz_span(in, 1, 1000);
	p->min_cwnd_mpkt = (u32)fz_span(in, 1, 65535);
	p->init_cwnd = (u32)fz_span(in, 1, 65535);
	p->retx_reset = (u32)fz_span(in, 1, 255);
	p->lswift_k = (u32)fz_span(in, 1, 255);
	p->h_cap = (u32)fz_span(in, 1, 1024);
	p->pctl = fz_bool(in) ? 50 : (u32)fz_span(in, 0, 100);
	p->pacing_pct = (u32)fz_span(in, 100, 1000);
	p->hop_ttl = fz_bool(in);	/* after the rest: an input keeps its parameters */
}

/*
 * swift_in_get() of the glue; the flow's base is the min RTT in either
 * mode: in absolute mode it stands for a per-path hop term, any value the
 * glue may pass
 */
static void refresh_in(struct fuzz_sock *k)
{
	k->in.srtt_ns = k->srtt_us ? (u64)k->srtt_us * 1000 : SWIFT_SRTT_DEFAULT_NS;
	k->in.base_ns = (u64)k->min_rtt_us * 1000;
}

/* ---- the checks -------------------------------------------------------- */

static void check_window(const struct fuzz_sock *k)
{
	const struct swift_cfg *c = &k->cfg;
	u64 max = swift_max_cwnd(c, k->in.cwnd_clamp);

	FUZZ_ASSERT(c->min_cwnd >= 1 && max <= SWIFT_CWND_MAX && c->min_cwnd <= max,
		    "clamps [%llu, %llu]", (unsigned long long)c->min_cwnd,
		    (unsigned long long)max);
	FUZZ_ASSERT(k->st.cwnd >= c->min_cwnd && k->st.cwnd <= max,
		    "cwnd %llu outside [%llu, %llu]", (unsigned long long)k->st.cwnd,
		    (unsigned long long)c->min_cwnd, (unsigned long long)max);
	/* fs_cwnd 0: no window cached (fs_ns is then the last one's fs) */
	FUZZ_ASSERT(!k->st.fs_cwnd || k->st.fs_ns == swift_fs_ns(c, k->st.fs_cwnd),
		    "fs cache %u for cwnd %u, want %llu", k->st.fs_ns,
		    k->st.fs_cwnd, (unsigned long long)swift_fs_ns(c, k->st.fs_cwnd));
}

/* The decision against a 128-bit reference. */
static void check_decision(const struct fuzz_sock *k, const struct dcc_decision *d)
{
	const struct swift_cfg *c = &k->cfg;
	u64 cwnd = k->st.cwnd, rtt = k->in.srtt_ns;
	u32 pct = c->pacing_pct;
	fz_u128 want;

	if (cwnd < SWIFT_ONE) {
		u64 t = swift_target_ns(c, k->in.base_ns, cwnd);
		u64 cap = t > k->st.last_delay_ns ? t : k->st.last_delay_ns;

		pct = 100;
		if (rtt > cap)
			rtt = cap ? cap : 1;
	}
	want = (fz_u128)cwnd * k->mss * DCC_NSEC_PER_SEC * pct /
	       (((fz_u128)rtt * 100) << SWIFT_SHIFT);
	if (want > U64_MAX)
		want = U64_MAX;
	/* the core saturates at U64_MAX before its final / 2^16 */
	FUZZ_ASSERT(d->rate_bytes_ps == (u64)want ||
		    (d->rate_bytes_ps == U64_MAX && want >= (U64_MAX >> SWIFT_SHIFT)),
		    "pacing %llu want %llu", (unsigned long long)d->rate_bytes_ps,
		    (unsigned long long)want);
	FUZZ_ASSERT(d->cwnd_bytes == (u64)swift_cwnd_pkts(cwnd) * k->mss &&
		    d->cwnd_bytes >= k->mss, "window %llu B for cwnd %llu",
		    (unsigned long long)d->cwnd_bytes, (unsigned long long)cwnd);
}

/*
 * A decision the core made (changed): exact, and now the one in force,
 * with the window and srtt it was made of.
 */
static void take_decision(struct fuzz_sock *k, const struct dcc_decision *d)
{
	check_decision(k, d);
	k->d = *d;
	k->d_cwnd = k->st.cwnd;
	k->d_srtt_ns = k->in.srtt_ns;
	k->must_decide = false;
}

/*
 * An ACK whose decision stands (changed false): the decision in force is
 * still within the rule of swift.h's SWIFT_DEC_*: at least one packet
 * (below, every ACK decides), the same whole-packet window, the window
 * within 1/32 and srtt within 1/16 of the decision's, no RTO or undo
 * since (the stack has set its own snd_cwnd then).  Its rate is exact for
 * that window and srtt (take_decision).
 */
static void check_standing(const struct fuzz_sock *k)
{
	u64 cwnd = k->st.cwnd, dc = k->d_cwnd, srtt = k->in.srtt_ns, ds = k->d_srtt_ns;

	FUZZ_ASSERT(!k->must_decide, "decision held after an RTO or undo");
	FUZZ_ASSERT(dc >= SWIFT_ONE && cwnd >= SWIFT_ONE,
		    "decision held below one packet: %llu -> %llu",
		    (unsigned long long)dc, (unsigned long long)cwnd);
	FUZZ_ASSERT(cwnd >> SWIFT_SHIFT == dc >> SWIFT_SHIFT &&
		    k->d.cwnd_bytes == (u64)swift_cwnd_pkts(cwnd) * k->mss,
		    "snd_cwnd moved under a standing decision: %llu -> %llu",
		    (unsigned long long)dc, (unsigned long long)cwnd);
	FUZZ_ASSERT((cwnd > dc ? cwnd - dc : dc - cwnd) <= dc >> 5,
		    "window moved over 1/32: %llu -> %llu", (unsigned long long)dc,
		    (unsigned long long)cwnd);
	FUZZ_ASSERT((srtt > ds ? srtt - ds : ds - srtt) <= ds >> 4,
		    "srtt moved over 1/16: %llu -> %llu", (unsigned long long)ds,
		    (unsigned long long)srtt);
}

static void check_target(const struct fuzz_sock *k, u64 cwnd_before)
{
	const struct swift_cfg *c = &k->cfg;
	u64 fs = swift_fs_ns(c, cwnd_before);
	u64 base = c->target_base_ns + k->in.base_ns;
	u64 t = swift_law_target_ns(&k->st, c, k->in.base_ns);

	FUZZ_ASSERT(fs <= c->fs_range_ns, "fs %llu > range %llu",
		    (unsigned long long)fs, (unsigned long long)c->fs_range_ns);
	FUZZ_ASSERT(t == base + fs, "target %llu, want %llu + %llu",
		    (unsigned long long)t, (unsigned long long)base,
		    (unsigned long long)fs);
}

static void check_median(const struct fuzz_sock *k, u16 h)
{
	const struct dcc_medwin *w = &k->st.med.w;
	u32 lo, hi;

	if (!k->st.med.buf)
		return;
	lo = dcc_medwin_percentile(w, k->st.med.buf, 0);
	hi = dcc_medwin_percentile(w, k->st.med.buf, 100);
	FUZZ_ASSERT(h >= 1 && h <= k->cfg.h_cap, "H %u outside [1, %u]", h,
		    k->cfg.h_cap);
	FUZZ_ASSERT(w->n >= 1 && w->n <= h && w->n <= w->cap,
		    "window holds %u, H %u, cap %u", w->n, h, w->cap);
	FUZZ_ASSERT(k->st.last_delay_ns >= lo && k->st.last_delay_ns <= hi,
		    "median %u outside [%u, %u]", k->st.last_delay_ns, lo, hi);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct fuzz_sock *k, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt_ns = fz_rtt_us(in) * 1000 - (u32)fz_range(in, 0, 999);
	struct dcc_sample s = { .mss = k->mss };
	/* a pattern the core must leave alone when the decision stands */
	struct dcc_decision d = { .rate_bytes_ps = 0x5a5a5a5a5a5a5a5aULL,
				  .cwnd_bytes = 0xa5a5a5a5a5a5a5a5ULL };
	u64 before;
	enum swift_action law, fr;

	k->in.now_ns += f & 1 ? fz_span(in, 0, 5000000000ULL) : fz_raw(in, 2);
	s.rx_ns = k->in.now_ns;
	s.acked = f & 2 ? (u32)fz_span(in, 0, 1U << 16) : 1;
	s.acked_bytes = s.acked * k->mss;
	if (f & 4) {
		s.losses = (u32)fz_span(in, 1, 64);
		k->in.missing = (u32)fz_span(in, 0, 300);
	}
	k->in.cwnd_limited = f & 32;
	if (f & 16 || !s.acked) {
		s.why = s.acked ? DCC_SAMPLE_NO_RTT : DCC_SAMPLE_NO_ACKED;
	} else {
		/* the stack's estimators see the sample first */
		u32 us = rtt_ns / 1000 ? rtt_ns / 1000 : 1;

		s.rtt_ns = rtt_ns;
		s.tx_ns = s.rx_ns - rtt_ns;
		k->srtt_us = k->srtt_us ? (7 * k->srtt_us + us) / 8 : us;
		if (!k->min_rtt_us || us < k->min_rtt_us)
			k->min_rtt_us = us;
		refresh_in(k);
	}

	before = k->st.cwnd;
	swift_on_ack(&k->st, &k->cfg, &k->in, &s, &d);
	law = SWIFT_D_LAW(d.flags);
	fr = SWIFT_D_FR(d.flags);
	check_window(k);
	if (d.changed) {
		take_decision(k, &d);
	} else {
		FUZZ_ASSERT(d.rate_bytes_ps == 0x5a5a5a5a5a5a5a5aULL &&
			    d.cwnd_bytes == 0xa5a5a5a5a5a5a5a5ULL,
			    "a standing decision wrote rate %llu, window %llu",
			    (unsigned long long)d.rate_bytes_ps,
			    (unsigned long long)d.cwnd_bytes);
		check_standing(k);
	}

	FUZZ_ASSERT(fr == SWIFT_NONE || fr == SWIFT_FR || fr == SWIFT_FR_HOLD,
		    "fr action %d", fr);
	FUZZ_ASSERT(fr == SWIFT_NONE ||
		    (s.losses && !k->in.in_loss &&
		     (!(k->st.flags & SWIFT_LAZY) || k->in.missing >= k->cfg.lswift_k)),
		    "SACK cut without its condition (lazy %d, missing %u, k %u)",
		    k->st.flags & SWIFT_LAZY, k->in.missing, k->cfg.lswift_k);
	if (s.why) {
		FUZZ_ASSERT(law == SWIFT_NONE, "law ran without a sample: %d", law);
		return;
	}
	FUZZ_ASSERT(law <= SWIFT_HOLD || law == SWIFT_NO_AI, "law action %d", law);
	if (fr == SWIFT_NONE || fr == SWIFT_FR_HOLD) {
		check_target(k, before);
		if (law == SWIFT_AI)
			FUZZ_ASSERT(k->st.cwnd >= before, "AI shrank %llu -> %llu",
				    (unsigned long long)before,
				    (unsigned long long)k->st.cwnd);
		if (law == SWIFT_MD || law == SWIFT_HOLD || law == SWIFT_NO_AI)
			FUZZ_ASSERT(k->st.cwnd <= before ||
				    before < k->cfg.min_cwnd, "no-growth step grew");
		if (law == SWIFT_MD)
			FUZZ_ASSERT(k->st.cwnd >= k->cfg.min_cwnd &&
				    (k->st.cwnd == k->cfg.min_cwnd ||
				     k->st.cwnd >= ((before * (SWIFT_ONE - k->cfg.max_mdf))
						    >> SWIFT_SHIFT)),
				    "MD cut beyond max_mdf");
	}
	FUZZ_ASSERT(k->st.retx_cnt == 0, "an ACK with a sample resets the RTO count");
	if (k->st.flags & SWIFT_MEDIAN)
		check_median(k, SWIFT_D_H(d.flags));
	else
		FUZZ_ASSERT(k->st.last_delay_ns == s.rtt_ns, "delay is the sample");
}

static void on_rto(struct fuzz_sock *k)
{
	struct dcc_decision d;
	enum swift_action a;

	swift_on_recovery_start(&k->st);	/* ssthresh, then set_state */
	a = swift_on_rto(&k->st, &k->cfg, &k->in);
	check_window(k);
	FUZZ_ASSERT(a == SWIFT_RTO || a == SWIFT_RESET, "rto action %d", a);
	FUZZ_ASSERT(a != SWIFT_RESET || k->st.cwnd == k->cfg.min_cwnd,
		    "reset leaves cwnd %llu", (unsigned long long)k->st.cwnd);
	FUZZ_ASSERT((a == SWIFT_RESET) == (k->st.retx_cnt >= k->cfg.retx_reset),
		    "reset after %u of %u RTOs", k->st.retx_cnt, k->cfg.retx_reset);
	if (k->st.med.buf)
		FUZZ_ASSERT(k->st.med.w.n == 0, "RTO leaves stale samples");
	/* set_state(Loss): the rate now; the stack's snd_cwnd = inflight + 1 */
	swift_decide(&k->st, &k->cfg, &k->in, k->mss, &d);
	check_decision(k, &d);
	k->must_decide = true;
}

static void on_undo(struct fuzz_sock *k)
{
	u64 before = k->st.cwnd, prior = (u64)k->st.prior_cwnd << SWIFT_SHIFT;
	u32 pkts = swift_on_undo(&k->st);

	FUZZ_ASSERT(pkts == swift_cwnd_pkts(k->st.cwnd), "undo returns snd_cwnd");
	if (k->st.flags & SWIFT_LAZY)
		FUZZ_ASSERT(k->st.cwnd == (before > prior ? before : prior), "lazy undo");
	else
		FUZZ_ASSERT(k->st.cwnd == before, "swift keeps its cut");
	/* the prior window was inside the clamps of its time */
	FUZZ_ASSERT(k->st.cwnd <= SWIFT_CWND_MAX, "undo above 2^30 packets");
	k->must_decide = true;	/* the stack's snd_cwnd = what undo returned */
}

/* one ACK of a replayed run (fz_replay) */
static void replay_step(void *ctx, struct fz *in)
{
	on_ack(ctx, in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct swift_params p;
	struct fuzz_sock k;
	struct dcc_decision d;
	u8 variant, flags;

	memset(&k, 0, sizeof(k));
	read_params(&in, &p);
	swift_cfg_init(&k.cfg, &p);
	variant = (u8)(fz_raw(&in, 1) % 3);
	flags = (variant != V_SWIFT ? SWIFT_LAZY : 0) |
		(variant == V_MSWIFT ? SWIFT_MEDIAN : 0);
	k.mss = fz_mss(&in);
	k.in.cwnd_clamp = fz_bool(&in) ? U32_MAX : (u32)fz_span(&in, 1, 65535);
	k.in.now_ns = fz_span(&in, 0, 1ULL << 62);
	refresh_in(&k);
	dcc_medbuf_fail_allocs = fz_bool(&in);
	swift_core_init(&k.st, &k.cfg, flags, k.in.cwnd_clamp);
	dcc_medbuf_fail_allocs = 0;
	check_window(&k);
	swift_decide(&k.st, &k.cfg, &k.in, k.mss, &d);	/* swift_init's */
	take_decision(&k, &d);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 8:		/* the window anywhere in its range */
			k.st.cwnd = fz_span(&in, k.cfg.min_cwnd,
					    swift_max_cwnd(&k.cfg, k.in.cwnd_clamp));
			break;
		case 9:		/* snd_cwnd_clamp rises (route, sysctl) */
			k.in.cwnd_clamp = fz_bool(&in) ? U32_MAX :
					  (u32)fz_span(&in, k.in.cwnd_clamp, U32_MAX);
			break;
		case 10:
			on_rto(&k);
			k.in.in_loss = true;
			break;
		case 11:	/* recovery ends: TCP_CA_Open */
			k.in.in_loss = false;
			break;
		case 12:
			on_undo(&k);
			break;
		case 13:	/* CA_EVENT_TX_START after idle */
			swift_on_idle_restart(&k.st);
			if (k.st.med.buf)
				FUZZ_ASSERT(k.st.med.w.n == 0, "idle leaves stale samples");
			break;
		case 14:	/* the windowed min RTT expired: it may rise */
			k.min_rtt_us = fz_rtt_us(&in);
			refresh_in(&k);
			break;
		case 15:	/* a run of ACKs replaying one event */
			i += fz_replay(&in, replay_step, &k);
			break;
		default:
			on_ack(&k, &in);
			break;
		}
	}
	swift_core_release(&k.st);
	return 0;
}
