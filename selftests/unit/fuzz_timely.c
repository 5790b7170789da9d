// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the rate law that TIMELY, patched TIMELY and SQCC
 * share (modules/timely/timely_law.c), as tcp_timely.c drives it for all
 * three: the completion-event window (timely_win_*), one
 * timely_law_update() per completion with the cfg timely_cfg() builds,
 * SQCC's N (fixed, this host's flows, or the sender-side estimate
 * timely_n_sample() through the 3-tap median timely_nest) and the glue's
 * loss cut, undo and idle restart.
 *
 * The input decodes into one snapshot of the module parameters, each
 * inside its range (T_low < T_high as the write check keeps them; relative
 * or absolute thresholds; alpha, beta, delta, D_minRTT, seg, C, rate
 * floor, HAI, loss cut, initial rate, RTT filter; RTT_ref for patched
 * TIMELY; N source, n_flows and the T_high cut for SQCC), the variant, the
 * MSS and max pacing rate, and a stream of events: ACKs with RTTs of
 * 1 us .. 1 s (or none), delayed and app-limited flags and any byte count;
 * recovery and RTO (one cut per episode, gradient forgotten), recovery
 * ending, undo, idle restarts, expiry of the windowed minimum RTT, changes
 * of this host's SQCC flow count, and direct calls of the SQCC helpers
 * with any N, gradient and rate.
 *
 * Checked after every call (abort on failure): the rate in [rate_min,
 * max(rate_min, rate_max)]; per completion: the window's RTT one of its
 * samples, bytes >= seg, span >= D_minRTT; g in [-64, 64], w in [0, 1],
 * the error in [-1, 1/beta] (patched) or [0, 1/beta] (SQCC) and 0 for
 * TIMELY, the branch, the delay d, an app-limited completion never
 * raising the rate; SQCC's k = max(1, floor(log10 N)), T_low in
 * [1, max(1, T_high / 2)] and delta in [1, delta0]; the state's rtt_diff
 * within 2^28 (Q8) and prev_rtt <= 2^20; N samples and the N median in
 * [1, 65535]; the cwnd cap exact.  UBSan and ASan catch overflow,
 * division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/timely.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

enum { N_AUTO, N_FIXED, N_LOCAL, N_ESTIMATE };

struct timely_params {
	u32 t_low_us, t_high_us;	/* 1..1e6 each (init keeps tl < th) */
	u32 alpha_ppm;			/* 1..1e6 */
	u32 beta_ppm;			/* 1..1e6 */
	u32 delta_kbps;			/* 1..1e8 */
	u32 min_rtt_us;			/* 0..1e6, 0 = base RTT */
	u32 base_rtt_us;		/* 0..1e6, 0 = tcp_min_rtt() */
	u32 seg_bytes;			/* 1448..4194304 */
	u32 link_mbps;			/* 0..800000 */
	u32 rate_min_kbps;		/* 1..1e8 */
	u32 hai_thresh;			/* 0..255 */
	u32 loss_md_pct;		/* 0..100 */
	u32 delay_mode;			/* 0..1 */
	u32 init_rate_kbps;		/* 0..8e8 */
	u32 rtt_filter;			/* 0..1 */
	u32 rtt_ref_us;			/* 1..1e6 (patched TIMELY) */
	u32 n_source;			/* 0..3 (SQCC) */
	u32 n_flows;			/* 0..65535 (SQCC) */
	u32 thigh_max_cut;		/* 0..1 (SQCC) */
};

/* struct timely of tcp_timely.c, plus what the kernel socket holds */
struct sock_model {
	struct timely_law_state law;
	struct timely_win win;
	struct timely_nest nest;
	u32 base_us, prior_rate;
	u32 t_low_us, t_high_us, rtt_ref_us, alpha_q16, beta_q20;
	u32 delta_kbps, dmin_us, link_mbps, rate_min_kbps, seg_bytes;
	u16 n_flows, n_est;
	u8 kind, hai_thresh, n_source, loss_md_pct;
	bool relative, rtt_last, max_cut, auto_base, cut;
	u32 mss;
	u64 max_pacing;		/* sk_max_pacing_rate */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u32 local_flows;	/* sqcc_dst_flows[] of this destination */
	u64 now_us;
	/* the open window's samples, to check the one it picks */
	u32 win_min, win_last, win_dly_min;
};

static void read_params(struct fz *in, struct timely_params *p)
{
	p->t_low_us = fz_rtt_us(in);
	p->t_high_us = fz_rtt_us(in);
	p->alpha_ppm = (u32)fz_span(in, 1, 1000000);
	p->beta_ppm = (u32)fz_span(in, 1, 1000000);
	p->delta_kbps = (u32)fz_span(in, 1, 100000000);
	p->min_rtt_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->base_rtt_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->seg_bytes = (u32)fz_span(in, 1448, 4194304);
	p->link_mbps = fz_bool(in) ? 0 : (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->rate_min_kbps = (u32)fz_span(in, 1, 100000000);
	p->hai_thresh = (u32)fz_span(in, 0, 255);
	p->loss_md_pct = (u32)fz_span(in, 0, 100);
	p->delay_mode = fz_bool(in);
	p->init_rate_kbps = fz_bool(in) ? 0 : (u32)fz_span(in, 0, 800000000);
	p->rtt_filter = fz_bool(in);
	p->rtt_ref_us = fz_rtt_us(in);
	p->n_source = (u32)fz_span(in, 0, 3);
	p->n_flows = (u32)fz_span(in, 0, 65535);
	p->thigh_max_cut = fz_bool(in);
}

/* ---- the glue, mirrored from tcp_timely.c ------------------------------ */

static void timely_cfg(const struct sock_model *ca, struct timely_law_cfg *c)
{
	u64 max_rate = min_t(u64, ca->max_pacing, DCC_RATE_MAX_BPS);

	*c = (struct timely_law_cfg){
		.kind = ca->kind,
		.hai_thresh = ca->hai_thresh,
		.relative = ca->relative,
		.thigh_max_cut = ca->max_cut,
		.t_low_us = ca->t_low_us,
		.t_high_us = ca->t_high_us,
		.rtt_ref_us = ca->rtt_ref_us,
		.base_us = ca->base_us,
		.dmin_us = ca->dmin_us ? ca->dmin_us : max_t(u32, ca->base_us, 1),
		.alpha_q16 = ca->alpha_q16,
		.beta_q20 = ca->beta_q20,
		.delta_bytes_ps = (u64)ca->delta_kbps * 125,
		.link_bytes_ps = (u64)ca->link_mbps * DCC_MBPS_TO_BPS,
		.rate_min_bytes_ps = (u64)ca->rate_min_kbps * 125,
		.rate_max_bytes_ps = max_rate,
	};
}

static u32 timely_n(const struct sock_model *ca)
{
	u32 local = max_t(u32, ca->local_flows, 1);

	if (ca->kind != TIMELY_LAW_SQCC)
		return 1;
	switch (ca->n_source) {
	case N_FIXED:
		return max_t(u32, ca->n_flows, 1);
	case N_ESTIMATE:
		return min_t(u32, max_t(u32, local, ca->n_est), TIMELY_N_MAX);
	default:
		return min_t(u32, local, TIMELY_N_MAX);
	}
}

static void win_reset(struct sock_model *ca)
{
	timely_win_reset(&ca->win, (u32)ca->now_us);
	ca->win_min = U32_MAX;
	ca->win_dly_min = U32_MAX;
	ca->win_last = 0;
}

static void sock_init(struct sock_model *ca, const struct timely_params *p,
		      u8 kind, u32 hs_rtt)
{
	u32 tl = p->t_low_us, th = p->t_high_us;
	struct timely_law_cfg c;
	u64 rate;

	if (tl >= th)
		tl = max_t(u32, th / 2, 1);
	ca->kind = kind;
	ca->t_low_us = tl;
	ca->t_high_us = max_t(u32, th, 2);
	ca->rtt_ref_us = kind == TIMELY_LAW_PATCHED ? p->rtt_ref_us : 0;
	ca->alpha_q16 = max_t(u32, TIMELY_PPM_TO_Q16(p->alpha_ppm), 1);
	ca->beta_q20 = max_t(u32, TIMELY_PPM_TO_Q20(p->beta_ppm), 1);
	ca->delta_kbps = p->delta_kbps;
	ca->dmin_us = p->min_rtt_us;
	ca->link_mbps = p->link_mbps;
	ca->rate_min_kbps = p->rate_min_kbps;
	ca->seg_bytes = p->seg_bytes;
	ca->hai_thresh = (u8)p->hai_thresh;
	ca->loss_md_pct = (u8)p->loss_md_pct;
	ca->relative = !p->delay_mode;
	ca->rtt_last = p->rtt_filter;
	ca->auto_base = !p->base_rtt_us;
	ca->n_est = 1;
	if (kind == TIMELY_LAW_SQCC) {
		ca->n_flows = (u16)p->n_flows;
		ca->n_source = (u8)p->n_source;
		if (ca->n_source == N_AUTO)
			ca->n_source = ca->link_mbps ? N_ESTIMATE : N_LOCAL;
		ca->max_cut = p->thigh_max_cut;
	}
	timely_nest_init(&ca->nest, 1);
	ca->min_rtt_us = hs_rtt;
	ca->base_us = p->base_rtt_us ? p->base_rtt_us : hs_rtt;
	win_reset(ca);

	if (p->init_rate_kbps)
		rate = (u64)p->init_rate_kbps * 125;
	else if (ca->link_mbps)
		rate = (u64)ca->link_mbps * DCC_MBPS_TO_BPS;
	else
		rate = dcc_rate_time_bytes(10ULL * ca->mss, DCC_USEC_PER_SEC,
					   ca->base_us ? ca->base_us : 1000);
	timely_cfg(ca, &c);
	ca->law.rate = clamp_t(u64, rate, c.rate_min_bytes_ps,
			       max(c.rate_min_bytes_ps, c.rate_max_bytes_ps));
}

/* ---- the checks -------------------------------------------------------- */

static void check_rate(const struct sock_model *ca)
{
	struct timely_law_cfg c;
	u64 hi, cwnd;
	u32 horizon;
	fz_u128 want;

	timely_cfg(ca, &c);
	hi = max(c.rate_min_bytes_ps, c.rate_max_bytes_ps);
	FUZZ_ASSERT(ca->law.rate >= c.rate_min_bytes_ps && ca->law.rate <= hi,
		    "rate %llu outside [%llu, %llu]",
		    (unsigned long long)ca->law.rate,
		    (unsigned long long)c.rate_min_bytes_ps, (unsigned long long)hi);
	FUZZ_ASSERT(ca->law.prev_rtt <= TIMELY_RTT_MAX, "prev_rtt %u",
		    ca->law.prev_rtt);
	FUZZ_ASSERT(ca->law.rtt_diff <= (1 << 28) && ca->law.rtt_diff >= -(1 << 28),
		    "rtt_diff %d", ca->law.rtt_diff);
	cwnd = timely_cwnd_bytes(&c, ca->law.rate, ca->mss);
	horizon = c.relative ? c.base_us + c.t_high_us :
			       max(c.t_high_us, c.base_us);
	want = 2 * ((fz_u128)ca->law.rate * horizon / DCC_USEC_PER_SEC) +
	       3ULL * ca->mss;
	FUZZ_ASSERT(cwnd == (u64)want, "cwnd %llu want %llu",
		    (unsigned long long)cwnd, (unsigned long long)want);
}

static void check_update(const struct sock_model *ca,
			 const struct timely_law_cfg *c, u32 rtt, u32 n,
			 bool app_limited, u64 old,
			 const struct timely_law_out *o)
{
	u32 r = clamp_t(u32, rtt, 1, TIMELY_RTT_MAX);
	u32 d = !c->relative ? r : r > c->base_us ? r - c->base_us : 0;
	s64 emax = (s64)timely_emax_q16(c->beta_q20);

	FUZZ_ASSERT(o->d_us == d, "d %u want %u", o->d_us, d);
	FUZZ_ASSERT(o->branch <= TIMELY_BR_BLEND, "branch %u", o->branch);
	FUZZ_ASSERT(o->g_q16 >= -64 * TIMELY_ONE && o->g_q16 <= 64 * TIMELY_ONE,
		    "g %d", o->g_q16);
	FUZZ_ASSERT(o->w_q16 <= TIMELY_ONE, "w %u", o->w_q16);
	if (c->kind == TIMELY_LAW_PATCHED)
		FUZZ_ASSERT(o->err_q16 >= -TIMELY_ONE && o->err_q16 <= emax,
			    "error %lld, E_MAX %lld", (long long)o->err_q16,
			    (long long)emax);
	else if (c->kind == TIMELY_LAW_SQCC)
		FUZZ_ASSERT(o->err_q16 >= 0 && o->err_q16 <= emax,
			    "error %lld, E_MAX %lld", (long long)o->err_q16,
			    (long long)emax);
	else
		FUZZ_ASSERT(o->err_q16 == 0 && o->w_q16 == 0, "TIMELY err/w");
	if (c->kind == TIMELY_LAW_SQCC) {
		FUZZ_ASSERT(o->k >= 1 && o->k <= 4 && o->k == timely_sqcc_k(n),
			    "k %u for N %u", o->k, n);
		FUZZ_ASSERT(o->t_low_us >= 1 &&
			    o->t_low_us <= max_t(u32, 1, c->t_high_us / 2),
			    "T_low %u, T_high %u", o->t_low_us, c->t_high_us);
		FUZZ_ASSERT(o->delta_bytes_ps >= 1 && o->delta_bytes_ps <= c->delta_bytes_ps,
			    "delta %llu, delta0 %llu",
			    (unsigned long long)o->delta_bytes_ps,
			    (unsigned long long)c->delta_bytes_ps);
	} else {
		FUZZ_ASSERT(o->t_low_us == c->t_low_us &&
			    o->delta_bytes_ps == c->delta_bytes_ps, "T_low/delta moved");
	}
	FUZZ_ASSERT(!app_limited || ca->law.rate <= max(old, c->rate_min_bytes_ps),
		    "app-limited completion raised %llu -> %llu",
		    (unsigned long long)old, (unsigned long long)ca->law.rate);
	check_rate(ca);
}

static void check_window(const struct sock_model *ca,
			 const struct timely_win_out *wo, u32 gap)
{
	u32 want = ca->rtt_last ? ca->win_last : ca->win_min;

	if (want == U32_MAX || !want)
		want = ca->win_dly_min;
	FUZZ_ASSERT(wo->rtt_us == want, "window RTT %u want %u", wo->rtt_us,
		    want);
	FUZZ_ASSERT(wo->rtt_us >= 1 && wo->rtt_us <= FZ_RTT_MAX_US, "RTT %u",
		    wo->rtt_us);
	FUZZ_ASSERT(wo->bytes >= ca->seg_bytes && wo->span_us >= gap,
		    "bytes %u (seg %u) span %u (gap %u)", wo->bytes,
		    ca->seg_bytes, wo->span_us, gap);
}

/* ---- events ------------------------------------------------------------ */

/* timely_completion() */
static void completion(struct sock_model *ca, const struct timely_win_out *wo,
		       bool app_limited)
{
	struct timely_law_cfg c;
	struct timely_law_out o;
	u32 n = timely_n(ca);
	u64 old = ca->law.rate;

	timely_cfg(ca, &c);
	timely_law_update(&c, &ca->law, wo->rtt_us, n, app_limited, &o);
	check_update(ca, &c, wo->rtt_us, n, app_limited, old, &o);
	if (ca->kind == TIMELY_LAW_SQCC && ca->n_source == N_ESTIMATE &&
	    c.link_bytes_ps && o.d_us >= c.t_low_us && wo->span_us && !app_limited) {
		u64 own = dcc_bytes_per_sec(wo->bytes, wo->span_us,
					    DCC_USEC_PER_SEC);
		u32 smp = timely_n_sample(c.link_bytes_ps, o.g_q16, own);

		FUZZ_ASSERT(own ? smp >= 1 && smp <= TIMELY_N_MAX : !smp,
			    "N sample %u (own %llu)", smp, (unsigned long long)own);
		ca->n_est = (u16)timely_nest_push(&ca->nest, smp);
		FUZZ_ASSERT(ca->n_est >= 1, "N median %u", ca->n_est);
	}
}

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = f & 1 ? 0 : fz_rtt_us(in), bytes, gap;
	bool delayed = f & 2;
	struct timely_win_out wo;

	ca->now_us += f & 4 ? fz_span(in, 0, 5000000) : fz_raw(in, 2);
	bytes = f & 8 ? (u32)fz_span(in, 0, U32_MAX) :
		(u32)min_t(u64, (u64)ca->mss * (fz_raw(in, 1) + 1), U32_MAX);
	if (rtt && (!ca->min_rtt_us || rtt < ca->min_rtt_us))
		ca->min_rtt_us = rtt;
	if (ca->auto_base && ca->min_rtt_us)
		ca->base_us = ca->min_rtt_us;

	if (rtt) {	/* the model of the window's choice */
		if (delayed) {
			ca->win_dly_min = min(ca->win_dly_min, rtt);
		} else {
			ca->win_min = min(ca->win_min, rtt);
			ca->win_last = rtt;
		}
	}
	gap = ca->dmin_us ? ca->dmin_us : ca->base_us;
	if (timely_win_add(&ca->win, (u32)ca->now_us, rtt, delayed, bytes,
			   ca->seg_bytes, gap, !ca->rtt_last, &wo)) {
		check_window(ca, &wo, gap);
		ca->win_min = U32_MAX;
		ca->win_dly_min = U32_MAX;
		ca->win_last = 0;
		completion(ca, &wo, f & 16);
	}
	check_rate(ca);
}

static void reset(struct sock_model *ca)
{
	timely_law_reset_grad(&ca->law);
	win_reset(ca);
}

/* ssthresh (saves the rate), then set_state(Recovery or Loss) */
static void on_loss(struct sock_model *ca, bool rto)
{
	struct timely_law_cfg c;

	ca->prior_rate = (u32)min_t(u64, ca->law.rate >> 6, U32_MAX);
	if (rto)
		reset(ca);
	if (ca->cut)
		return;
	ca->cut = true;
	timely_cfg(ca, &c);
	ca->law.rate = max(c.rate_min_bytes_ps,
			   div_u64(ca->law.rate * (100 - ca->loss_md_pct), 100));
	check_rate(ca);
}

static void on_undo(struct sock_model *ca)
{
	ca->law.rate = max(ca->law.rate, (u64)ca->prior_rate << 6);
	ca->cut = false;
	check_rate(ca);
}

/* the SQCC helpers on their own, over their whole input ranges */
static void sqcc_helpers(struct fz *in, const struct sock_model *ca)
{
	struct timely_law_cfg c;
	u32 n = (u32)fz_span(in, 1, TIMELY_N_MAX), smp, med;
	s32 g = (s32)fz_raw(in, 4);
	u64 own = fz_span(in, 0, DCC_RATE_MAX_BPS);
	struct timely_nest e;
	u8 k = timely_sqcc_k(n);
	u64 delta;

	timely_cfg(ca, &c);
	FUZZ_ASSERT(k >= 1 && k <= 4, "k %u", k);
	FUZZ_ASSERT(timely_sqcc_t_low(&c, k) >= 1, "T_low 0");
	delta = timely_sqcc_delta(&c, n, k);
	FUZZ_ASSERT(delta >= 1 && delta <= max_t(u64, c.delta_bytes_ps, 1),
		    "delta %llu", (unsigned long long)delta);
	smp = timely_n_sample(c.link_bytes_ps ? c.link_bytes_ps : DCC_MBPS_TO_BPS, g, own);
	FUZZ_ASSERT(own ? smp >= 1 && smp <= TIMELY_N_MAX : !smp, "N sample %u",
		    smp);
	timely_nest_init(&e, (u16)n);
	for (int i = 0; i < 4; i++) {
		med = timely_nest_push(&e, (u32)fz_raw(in, 4));
		FUZZ_ASSERT(med >= 1 && med <= TIMELY_N_MAX, "N median %u", med);
	}
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
	struct timely_params p;
	struct sock_model ca;
	u8 kind;

	memset(&ca, 0, sizeof(ca));
	kind = (u8)(fz_raw(&in, 1) % 3);
	read_params(&in, &p);
	ca.mss = fz_mss(&in);
	ca.max_pacing = fz_bool(&in) ? U64_MAX :
			fz_span(&in, DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	ca.local_flows = (u32)fz_span(&in, 1, 70000);
	ca.now_us = fz_raw(&in, 5);
	sock_init(&ca, &p, kind, fz_bool(&in) ? 0 : fz_rtt_us(&in));
	check_rate(&ca);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 8:
			on_loss(&ca, false);
			break;
		case 9:
			on_loss(&ca, true);
			break;
		case 10:	/* recovery ends: TCP_CA_Open */
			ca.cut = false;
			break;
		case 11:
			on_undo(&ca);
			break;
		case 12:	/* CA_EVENT_TX_START: restart after idle */
			reset(&ca);
			break;
		case 13:	/* the windowed min RTT expired; flows come and go */
			ca.min_rtt_us = fz_rtt_us(&in);
			ca.local_flows = (u32)fz_span(&in, 1, 70000);
			break;
		case 14:
			sqcc_helpers(&in, &ca);
			break;
		case 15:	/* a run of ACKs replaying one event */
			i += fz_replay(&in, replay_step, &ca);
			break;
		default:
			on_ack(&ca, &in);
			break;
		}
	}
	return 0;
}
