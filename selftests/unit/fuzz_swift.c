// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the Swift family's control law
 * (modules/swift/swift_law.c) as tcp_swift.c drives it for swift, lswift
 * and mswift, including MSwift's median window (swift_median_h() and the
 * dcc_medwin / dcc_medbuf window of dcc_lib, with the 3-sample fallback
 * when its allocation fails).
 *
 * The input decodes into one socket's parameter snapshot, each parameter
 * inside its dcc_param_range() (relative or absolute target, hops, flow
 * scaling, ai, beta, max_mdf, min/initial cwnd, retx_reset, h_cap, pctl,
 * pacing_pct), the variant, MSS and cwnd clamp, and a stream of events:
 * ACKs with RTTs of 1 us .. 1 s, any acked and SACKed segment counts and
 * cwnd-limited flag; SACK-detected losses (with LSwift's gate either way);
 * RTOs, recovery ending, spurious-loss undo, restarts after idle and
 * gaps that empty the median window.  swift_cfg(), swift_apply() and the
 * event handlers are mirrored from the glue line for line.
 *
 * Checked after every call into the law (abort on failure): cwnd in
 * [min_cwnd, max_cwnd] with min_cwnd >= 1 (Q16) and max_cwnd <= 2^30
 * packets; the target is target_base + fs with fs in [0, fs_range]; the
 * pacing rate is the exact cwnd mss / srtt (times pacing_pct at one packet
 * or more); snd_cwnd >= 1; MSwift's H in [1, h_cap], the window never
 * holding more than H samples, and its median or percentile inside the
 * window's range.  UBSan and ASan catch overflow, division by zero and
 * stray accesses.  The initial window is clamped as swift_init() clamps
 * it, so every bound holds from the first instant.
 */
#include <string.h>

#include "dcc/median.h"
#include "dcc/swift.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

enum { V_SWIFT, V_LSWIFT, V_MSWIFT };

struct swift_params {
	u32 base_target_us;	/* 1..1e6 */
	u32 target_mode;	/* 0..1 */
	u32 hops;		/* 0..255 */
	u32 hop_us;		/* 0..100000 */
	u32 fs_range_us;	/* 0..1e6 */
	u32 fs_min_cwnd_mpkt;	/* 1..65535 */
	u32 fs_max_cwnd;	/* 1..1e9 */
	u32 ai_mpkt;		/* 1..65535 */
	u32 beta_pm;		/* 0..1000 */
	u32 max_mdf_pm;		/* 1..1000 */
	u32 min_cwnd_mpkt;	/* 1..65535 */
	u32 init_cwnd;		/* 1..65535 */
	u32 retx_reset;		/* 1..255 */
	u32 h_cap;		/* 1..1024 */
	u32 pctl;		/* 0..100 */
	u32 pacing_pct;		/* 100..1000 */
};

/* struct swift of tcp_swift.c, plus what the kernel socket holds */
struct sock_model {
	struct swift_law law;
	struct dcc_medbuf med;
	u32 prior_cwnd, base_us, fs_range_us, fs_rmin, fs_rmax, last_push_us;
	u16 ai_mpkt, min_cwnd_mpkt, beta_pm, max_mdf_pm, h_cap, spa_q8;
	u16 pacing_pct;
	u8 retx_reset, pctl, variant;
	bool abs_target, lazy, median, in_loss;
	u32 mss, cwnd_clamp;	/* tp->mss_cache, tp->snd_cwnd_clamp */
	u32 srtt_us;		/* tp->srtt_us >> 3, 0 before any sample */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u64 now_us;
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
	p->h_cap = (u32)fz_span(in, 1, 1024);
	p->pctl = fz_bool(in) ? 50 : (u32)fz_span(in, 0, 100);
	p->pacing_pct = (u32)fz_span(in, 100, 1000);
}

/* ---- the glue, mirrored from tcp_swift.c ------------------------------- */

static void swift_cfg(const struct sock_model *ca, struct swift_law_cfg *c)
{
	u64 base = ca->base_us;

	if (!ca->abs_target)
		base += ca->min_rtt_us;
	*c = (struct swift_law_cfg){
		.target_base_ns = base * 1000,
		.fs_range_ns = (u64)ca->fs_range_us * 1000,
		.fs_rmin = ca->fs_rmin,
		.fs_rmax = ca->fs_rmax,
		.min_cwnd = SWIFT_MPKT_TO_Q16(ca->min_cwnd_mpkt),
		.max_cwnd = min_t(u64, (u64)ca->cwnd_clamp << SWIFT_SHIFT,
				  SWIFT_CWND_MAX),
		.ai = (u32)(((u64)ca->ai_mpkt << SWIFT_SHIFT) / 1000),
		.beta = SWIFT_PM_TO_Q16(ca->beta_pm),
		.max_mdf = SWIFT_PM_TO_Q16(ca->max_mdf_pm),
		.retx_reset = ca->retx_reset,
	};
	c->max_cwnd = max(c->max_cwnd, c->min_cwnd);
}

static u32 swift_srtt(const struct sock_model *ca)
{
	return ca->srtt_us ? ca->srtt_us : 1000;
}

static int sock_init(struct sock_model *ca, const struct swift_params *p,
		     u8 variant, u32 mss, u32 clamp)
{
	struct swift_law_cfg c = { .fs_range_ns = 1 };

	memset(ca, 0, sizeof(*ca));
	ca->base_us = (u32)min_t(u64, (u64)p->base_target_us +
				 (u64)p->hops * p->hop_us, U32_MAX);
	ca->fs_range_us = p->fs_range_us;
	ca->ai_mpkt = (u16)p->ai_mpkt;
	ca->min_cwnd_mpkt = (u16)p->min_cwnd_mpkt;
	ca->beta_pm = (u16)p->beta_pm;
	ca->max_mdf_pm = (u16)p->max_mdf_pm;
	ca->h_cap = (u16)p->h_cap;
	ca->spa_q8 = 256;
	ca->pacing_pct = (u16)p->pacing_pct;
	ca->retx_reset = (u8)p->retx_reset;
	ca->pctl = (u8)p->pctl;
	ca->variant = variant;
	ca->abs_target = p->target_mode;
	ca->lazy = variant != V_SWIFT;
	ca->median = variant == V_MSWIFT;
	ca->mss = mss;
	ca->cwnd_clamp = clamp;
	ca->now_us = 1000000;
	swift_cfg_fs(&c, SWIFT_MPKT_TO_Q16(p->fs_min_cwnd_mpkt),
		     (u64)p->fs_max_cwnd << SWIFT_SHIFT);
	ca->fs_rmin = (u32)min_t(u64, c.fs_rmin, U32_MAX);
	ca->fs_rmax = (u32)min_t(u64, c.fs_rmax, U32_MAX);
	swift_cfg(ca, &c);
	ca->law.cwnd = clamp_t(u64, (u64)p->init_cwnd << SWIFT_SHIFT,
			       c.min_cwnd, c.max_cwnd);
	if (ca->median)
		return dcc_medbuf_init(&ca->med, ca->h_cap);
	return 0;
}

static void median_reset(struct sock_model *ca)
{
	if (ca->median && ca->med.buf)
		dcc_medwin_init(&ca->med.w, ca->med.w.cap);
}

/* ---- the checks -------------------------------------------------------- */

/* swift_apply(): what snd_cwnd and sk_pacing_rate become */
static void check_apply(const struct sock_model *ca)
{
	u64 cwnd = ca->law.cwnd, rate;
	u32 srtt = swift_srtt(ca), pct = ca->pacing_pct;
	fz_u128 want;

	rate = swift_pacing_rate(cwnd, ca->mss, srtt, ca->pacing_pct);
	if (cwnd < SWIFT_ONE)
		pct = 100;
	want = (fz_u128)min_t(u64, cwnd, SWIFT_CWND_MAX) * ca->mss *
	       DCC_USEC_PER_SEC * pct / (((fz_u128)srtt * 100) << SWIFT_SHIFT);
	if (want > U64_MAX)
		want = U64_MAX;
	FUZZ_ASSERT(rate == (u64)want, "pacing %llu want %llu",
		    (unsigned long long)rate, (unsigned long long)want);
	FUZZ_ASSERT(swift_cwnd_pkts(cwnd) >= 1, "snd_cwnd 0");
}

/* After a call into the law (@prev: the window before it): the window is
 * inside its clamps.
 */
static void check_law(const struct sock_model *ca, u64 prev)
{
	struct swift_law_cfg c;
	u64 fs;

	swift_cfg(ca, &c);
	FUZZ_ASSERT(c.min_cwnd >= 1 && c.max_cwnd <= SWIFT_CWND_MAX &&
		    c.min_cwnd <= c.max_cwnd, "clamps [%llu, %llu]",
		    (unsigned long long)c.min_cwnd, (unsigned long long)c.max_cwnd);
	(void)prev;
	FUZZ_ASSERT(ca->law.cwnd >= c.min_cwnd && ca->law.cwnd <= c.max_cwnd,
		    "cwnd %llu outside [%llu, %llu]",
		    (unsigned long long)ca->law.cwnd,
		    (unsigned long long)c.min_cwnd, (unsigned long long)c.max_cwnd);
	fs = swift_fs_ns(&c, ca->law.cwnd);
	FUZZ_ASSERT(fs <= c.fs_range_ns, "fs %llu > range %llu",
		    (unsigned long long)fs, (unsigned long long)c.fs_range_ns);
	FUZZ_ASSERT(swift_target_ns(&c, ca->law.cwnd) == c.target_base_ns + fs,
		    "target is not base + fs");
	check_apply(ca);
}

static void check_median(const struct sock_model *ca, u16 h, u32 got)
{
	const struct dcc_medwin *w = &ca->med.w;
	u32 lo = dcc_medwin_percentile(w, ca->med.buf, 0);
	u32 hi = dcc_medwin_percentile(w, ca->med.buf, 100);

	FUZZ_ASSERT(h >= 1 && h <= ca->h_cap, "H %u outside [1, %u]", h,
		    ca->h_cap);
	FUZZ_ASSERT(w->n >= 1 && w->n <= h && w->n <= w->cap,
		    "window holds %u, H %u, cap %u", w->n, h, w->cap);
	FUZZ_ASSERT(got >= lo && got <= hi, "median %u outside [%u, %u]", got,
		    lo, hi);
}

/* ---- events ------------------------------------------------------------ */

/* swift_median_delay() */
static u32 median_delay(struct sock_model *ca, u32 rtt_us, u32 now32, u32 srtt)
{
	u32 d;
	u16 h;

	if (!ca->med.buf)
		return rtt_us;
	if (ca->med.w.n && (u32)(now32 - ca->last_push_us) > 2 * srtt)
		median_reset(ca);
	ca->last_push_us = now32;
	h = swift_median_h(ca->law.cwnd, ca->spa_q8, ca->h_cap);
	dcc_medwin_push(&ca->med.w, ca->med.buf, rtt_us, h);
	if (ca->pctl == 50)
		d = dcc_medwin_median(&ca->med.w, ca->med.buf);
	else
		d = dcc_medwin_percentile(&ca->med.w, ca->med.buf, ca->pctl);
	check_median(ca, h, d);
	return d;
}

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = fz_rtt_us(in), srtt, delay, acked;
	struct swift_law_cfg c;
	u64 target, want, prev;

	ca->now_us += f & 1 ? fz_span(in, 0, 5000000) : fz_raw(in, 1);
	acked = f & 2 ? (u32)fz_span(in, 1, 1U << 16) : 1;
	srtt = swift_srtt(ca);
	swift_cfg(ca, &c);

	if (acked) {		/* rs->acked_sacked > 0 */
		u32 seg = min_t(u32, acked, 255) << 8;

		ca->spa_q8 = (u16)((ca->spa_q8 * 7U + seg) / 8);
	}
	/* rs->losses > 0 outside Loss; the LSwift gate either way */
	if ((f & 4) && !ca->in_loss && (!ca->lazy || (f & 8))) {
		ca->prior_cwnd = (u32)min_t(u64, ca->law.cwnd >> SWIFT_SHIFT,
					    U32_MAX);	/* ssthresh */
		prev = ca->law.cwnd;
		swift_on_fast_recovery(&ca->law, &c, ca->now_us, srtt);
		check_law(ca, prev);
	}
	if (f & 16)
		return;		/* no valid sample */

	/* the kernel's RTT estimators see the sample first */
	ca->srtt_us = ca->srtt_us ? (7 * ca->srtt_us + rtt) / 8 : rtt;
	if (!ca->min_rtt_us || rtt < ca->min_rtt_us)
		ca->min_rtt_us = rtt;
	swift_cfg(ca, &c);
	srtt = swift_srtt(ca);

	delay = rtt;
	if (ca->median)
		delay = median_delay(ca, rtt, (u32)ca->now_us, srtt);
	want = swift_target_ns(&c, ca->law.cwnd);
	prev = ca->law.cwnd;
	swift_on_ack(&ca->law, &c, ca->now_us, srtt, (u64)delay * 1000,
		     acked, f & 32, &target);
	FUZZ_ASSERT(target == want, "target %llu, want %llu",
		    (unsigned long long)target, (unsigned long long)want);
	check_law(ca, prev);
}

/* ssthresh, then CA_EVENT_LOSS (tcp_enter_loss), then set_state(Loss) */
static void on_rto(struct sock_model *ca)
{
	struct swift_law_cfg c;
	u64 prev = ca->law.cwnd;

	ca->prior_cwnd = (u32)min_t(u64, ca->law.cwnd >> SWIFT_SHIFT, U32_MAX);
	swift_cfg(ca, &c);
	swift_on_rto(&ca->law, &c, ca->now_us, swift_srtt(ca));
	median_reset(ca);
	check_law(ca, prev);
	ca->in_loss = true;
}

/*
 * undo_cwnd (a spurious loss): LSwift and MSwift take the cut back, never
 * above max_cwnd (the prior window was inside the clamps).
 */
static void on_undo(struct sock_model *ca)
{
	struct swift_law_cfg c;

	if (ca->lazy)
		ca->law.cwnd = max_t(u64, ca->law.cwnd,
				     (u64)ca->prior_cwnd << SWIFT_SHIFT);
	swift_cfg(ca, &c);
	FUZZ_ASSERT(ca->law.cwnd <= c.max_cwnd,
		    "undo: cwnd %llu above %llu", (unsigned long long)ca->law.cwnd,
		    (unsigned long long)c.max_cwnd);
	check_apply(ca);
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
	struct sock_model ca;
	u8 variant;
	u32 mss, clamp;

	read_params(&in, &p);
	variant = (u8)(fz_raw(&in, 1) % 3);
	mss = fz_mss(&in);
	clamp = fz_bool(&in) ? U32_MAX : (u32)fz_span(&in, 1, 65535);
	dcc_medbuf_fail_allocs = fz_bool(&in);
	sock_init(&ca, &p, variant, mss, clamp);
	dcc_medbuf_fail_allocs = 0;
	check_apply(&ca);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 10:
			on_rto(&ca);
			break;
		case 11:	/* recovery ends: TCP_CA_Open */
			ca.in_loss = false;
			break;
		case 12:
			on_undo(&ca);
			break;
		case 13:	/* CA_EVENT_TX_START, set_state(Loss) */
			median_reset(&ca);
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
	}
	dcc_medbuf_release(&ca.med);
	return 0;
}
