// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the per-ACK core that TIMELY, patched TIMELY and
 * SQCC share (modules/timely/timely_law.c), driven through the calls
 * tcp_timely.c makes for all three: timely_cfg_resolve() of a parameter
 * snapshot, timely_on_init(), timely_on_ack() with nanosecond samples
 * and timely_on_change() when it says a decision is due, and the events (timely_save_undo/timely_on_loss on recovery and RTO,
 * timely_on_recovered, timely_on_undo, timely_on_restart after idle).
 *
 * The input decodes into one snapshot of the module parameters, each
 * inside its range (T_low and T_high anywhere in 1 us .. 1 s, the config
 * keeps T_low < T_high; relative or absolute thresholds; alpha, beta,
 * delta, D_minRTT, a fixed or measured base RTT, seg, C, rate floor, HAI,
 * loss cut, initial rate, RTT filter; RTT_ref for patched TIMELY; N
 * source, n_flows and the T_high cut for SQCC), the variant, the MSS and
 * max pacing rate, and a stream of events: ACKs at 1 us .. 1 s RTTs with
 * sub-microsecond parts (or none), delayed and app-limited flags, any
 * byte count and gaps up to 5 s (beyond 2^32 ns); recovery and RTO,
 * recovery ending, undo, idle restarts, expiry of the windowed minimum
 * RTT, changes of this host's SQCC flow count, and direct calls of the
 * SQCC helpers with any N, gradient and rate.
 *
 * Checked after every call (abort on failure): the config is the exact
 * conversion of the parameters (bit fields wide enough); the rate in
 * [rate_min, max(rate_min, rate_max)]; the decision in force (the last
 * one the core reported: at init, a due decision, a loss cut) exact for
 * the state and the base RTT it was taken with (with the first-window cap
 * before the first completion), i.e. no ACK that moved the rate or the
 * gradient history went without a decision; after an idle restart, an RTO
 * or an undo, and while no base RTT is known, the next ACK decides; per
 * completion: the window's RTT one of its samples (the min or the last,
 * delayed ACKs only as the fallback), bytes >= seg, span >= D_minRTT
 * (with the base RTT of the ACK: a completion is a decision); N as the
 * source says;
 * g in [-64, 64], w in [0, 1], the error in [-1, 1/beta] (patched) or
 * [0, 1/beta] (SQCC) and 0 for TIMELY, the delay d, an app-limited
 * completion never raising the rate; SQCC's k = max(1, floor(log10 N)),
 * T_low in [1, max(1, T_high / 2)] and delta in [1, delta0]; rtt_diff
 * within 2^30 ns and prev_rtt <= 2^30 ns; one loss cut per episode, undo
 * restoring the rate; N samples and the N median in [1, 65535].  UBSan
 * and ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/timely.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

/* struct timely of tcp_timely.c, plus what the kernel socket holds */
struct sock_model {
	struct timely_state st;
	struct timely_cfg c;
	struct dcc_decision d;
	u32 mss;
	u64 max_pacing;		/* sk_max_pacing_rate */
	u32 min_rtt_ns;		/* tcp_min_rtt(), 0 before any sample */
	u32 local_flows;	/* sqcc_dst_flows[] of this destination */
	u64 now_ns;
	/* the decision in force: taken with this min RTT; current (matches
	 * the state) unless an event moved the state since
	 */
	u32 dec_min_rtt_ns;
	bool dec_current;
	bool must_decide;	/* the next ACK decides (TIMELY_S_STALE) */
	/* the open window's samples, to check the one it picks */
	u32 win_min, win_last, win_dly_min;
	bool regain_armed;	/* a cut armed the regain (until the undo) */
	u8 empty_cnt;		/* st.empty_cnt before this ACK's decision */
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
	p->loss_regain = fz_bool(in);
	p->delay_mode = fz_bool(in);
	p->init_rate_kbps = fz_bool(in) ? 0 : (u32)fz_span(in, 0, 800000000);
	p->rtt_filter = fz_bool(in);
	p->rtt_ref_us = fz_rtt_us(in);
	p->n_source = (u32)fz_span(in, 0, 3);
	p->n_flows = (u32)fz_span(in, 0, 65535);
	p->thigh_max_cut = fz_bool(in);
	p->empty_hai = fz_bool(in);
	p->update_clock = (u32)fz_span(in, 0, 2);
	/* the link-rate defaults: any of these left at 0 derives from C */
	if (fz_bool(in)) {
		p->t_low_us = fz_bool(in) ? 0 : p->t_low_us;
		p->t_high_us = fz_bool(in) ? 0 : p->t_high_us;
		p->delta_kbps = fz_bool(in) ? 0 : p->delta_kbps;
		p->rate_min_kbps = fz_bool(in) ? 0 : p->rate_min_kbps;
		p->rtt_ref_us = fz_bool(in) ? 0 : p->rtt_ref_us;
	}
}

/* ---- the kernel facts, as tcp_timely.c reads them ---------------------- */

static u64 rate_max(const struct sock_model *ca)
{
	return min_t(u64, ca->max_pacing, DCC_RATE_MAX_BPS);
}

static u32 base_ns(const struct sock_model *ca)
{
	return timely_base_ns(&ca->c, ca->min_rtt_ns);
}

/*
 * The core reported a decision now (init, an ACK, a loss cut): it is the
 * one in force, for the state and base now.  @settles: init or an ACK's,
 * which end the staleness, unless no base RTT was known.
 */
static void decided(struct sock_model *ca, bool settles)
{
	ca->dec_min_rtt_ns = ca->min_rtt_ns;
	ca->dec_current = true;
	if (settles)
		ca->must_decide = !base_ns(ca);
}

/* an event moved what the decision depends on: the next ACK decides */
static void moved(struct sock_model *ca)
{
	ca->dec_current = false;
	ca->must_decide = true;
}

/* N as the config's source says, from the state before an update */
static u32 want_n(const struct sock_model *ca)
{
	u32 local = max_t(u32, ca->local_flows, 1);
	u32 med = dcc_med3(ca->st.nest[0], ca->st.nest[1], ca->st.nest[2]);

	if (ca->c.kind != TIMELY_LAW_SQCC)
		return 1;
	switch (ca->c.n_source) {
	case TIMELY_N_FIXED:
		return max_t(u32, (u32)ca->c.n_flows, 1);
	case TIMELY_N_ESTIMATE:
		return min_t(u32, max_t(u32, local, med), TIMELY_N_MAX);
	default:
		return min_t(u32, local, TIMELY_N_MAX);
	}
}

static void win_forget(struct sock_model *ca)
{
	ca->win_min = U32_MAX;
	ca->win_dly_min = U32_MAX;
	ca->win_last = 0;
}

/* ---- the checks -------------------------------------------------------- */

/*
 * The config against the parameters, the link-rate defaults recomputed
 * here from their definition (timely.h): C = link_mbps, else @nic.
 */
static void check_cfg(const struct timely_cfg *c, u8 kind,
		      const struct timely_params *p, u32 nic)
{
	u64 C = (u64)min_t(u32, p->link_mbps ? p->link_mbps : nic, 800000) *
		DCC_MBPS_TO_BPS;
	u64 segc = C ? min_t(u64, (u64)p->seg_bytes * 1000000000ULL / C, 100000000) : 0;
	u64 delta = p->delta_kbps ? (u64)p->delta_kbps * 125 :
		    C ? C / 1000 : 10000 * 125ULL;
	u64 rmin = p->rate_min_kbps ? (u64)p->rate_min_kbps * 125 :
		   max_t(u64, C / 10000, 1000 * 125ULL);
	bool rtt_clock = p->update_clock == 1 ||
			 (p->update_clock == 2 && C > 10000 * DCC_MBPS_TO_BPS);
	bool floor = rtt_clock && p->update_clock == 2 && !p->min_rtt_us;

	FUZZ_ASSERT(c->kind == kind, "kind %u", (unsigned)c->kind);
	FUZZ_ASSERT(c->t_low_ns >= 1000 && c->t_low_ns < c->t_high_ns &&
		    c->t_high_ns >= 2000 && c->t_high_ns <= 1000000000,
		    "T_low %u T_high %u", c->t_low_ns, c->t_high_ns);
	if (p->t_low_us && p->t_high_us && p->t_low_us < p->t_high_us && p->t_high_us >= 2)
		FUZZ_ASSERT(c->t_low_ns == p->t_low_us * 1000 &&
			    c->t_high_ns == p->t_high_us * 1000,
			    "T_low %u T_high %u given", c->t_low_ns, c->t_high_ns);
	if (!p->t_low_us && !p->t_high_us)
		FUZZ_ASSERT(C ? c->t_low_ns == max_t(u64, segc, 1000) &&
				c->t_high_ns == 10 * max_t(u64, segc, 1000) :
			    c->t_low_ns == 50000 && c->t_high_ns == 500000,
			    "T_low %u T_high %u from C %llu", c->t_low_ns,
			    c->t_high_ns, (unsigned long long)C);
	FUZZ_ASSERT((u64)c->delta_bytes_ps == max_t(u64, delta, 1) &&
		    (u64)c->rate_min_bytes_ps == rmin && c->link_bytes_ps == C,
		    "rates %llu %llu %llu", (unsigned long long)c->delta_bytes_ps,
		    (unsigned long long)c->rate_min_bytes_ps,
		    (unsigned long long)c->link_bytes_ps);
	FUZZ_ASSERT(floor ? c->dmin_floor && c->dmin_ns == segc :
			    !c->dmin_floor && c->dmin_ns == p->min_rtt_us * 1000,
		    "D_minRTT %u floor %u (segc %llu)", c->dmin_ns,
		    (unsigned)c->dmin_floor, (unsigned long long)segc);
	FUZZ_ASSERT(c->seg_bytes == (rtt_clock ? 0 : p->seg_bytes), "seg %u",
		    c->seg_bytes);
	FUZZ_ASSERT(c->alpha_q16 >= 1 && c->alpha_q16 <= TIMELY_ONE &&
		    c->beta_q20 >= 1 && c->beta_q20 <= (1u << TIMELY_BETA_Q),
		    "alpha %u beta %u", c->alpha_q16, c->beta_q20);
	FUZZ_ASSERT(c->base_ns == p->base_rtt_us * 1000 &&
		    c->hai_thresh == p->hai_thresh &&
		    c->loss_md_pct == p->loss_md_pct &&
		    c->regain == p->loss_regain &&
		    c->empty_hai == p->empty_hai &&
		    c->relative == !p->delay_mode &&
		    c->rtt_last == p->rtt_filter, "config fields");
	if (kind == TIMELY_LAW_SQCC)
		FUZZ_ASSERT(c->n_flows == p->n_flows &&
			    c->n_source != TIMELY_N_AUTO &&
			    c->thigh_max_cut == p->thigh_max_cut,
			    "SQCC N source %u", (unsigned)c->n_source);
	FUZZ_ASSERT(kind == TIMELY_LAW_PATCHED ?
		    c->rtt_ref_ns == (p->rtt_ref_us ? p->rtt_ref_us * 1000 : c->t_low_ns) :
		    !c->rtt_ref_ns,
		    "RTT_ref %u", c->rtt_ref_ns);
}

/*
 * The state's bounds, and the decision in force: exactly the cwnd the law
 * asks for the state and the base RTT it was taken with, unless an event
 * moved the state since (then the next ACK decides: must_decide).
 */
static void check_state(const struct sock_model *ca)
{
	const struct timely_cfg *c = &ca->c;
	u64 hi = max_t(u64, c->rate_min_bytes_ps, rate_max(ca));
	u64 rate = ca->st.rate, horizon;
	u64 base = timely_base_ns(c, ca->dec_min_rtt_ns);
	fz_u128 want;

	FUZZ_ASSERT(rate >= c->rate_min_bytes_ps && rate <= hi,
		    "rate %llu outside [%llu, %llu]", (unsigned long long)rate,
		    (unsigned long long)c->rate_min_bytes_ps,
		    (unsigned long long)hi);
	FUZZ_ASSERT(ca->st.prev_rtt_ns <= TIMELY_RTT_MAX_NS, "prev_rtt %u",
		    ca->st.prev_rtt_ns);
	FUZZ_ASSERT(ca->st.rtt_diff <= (1 << 30) && ca->st.rtt_diff >= -(1 << 30),
		    "rtt_diff %d", ca->st.rtt_diff);
	FUZZ_ASSERT(!(ca->st.flags & TIMELY_S_STALE) == !ca->must_decide,
		    "stale %u, want %d", ca->st.flags & TIMELY_S_STALE,
		    ca->must_decide);
	FUZZ_ASSERT(ca->dec_current || ca->must_decide, "a moved decision waits");
	FUZZ_ASSERT(!ca->st.empty_cnt ||
		    (c->empty_hai && (ca->st.flags & TIMELY_S_LOSSY)),
		    "a streak unarmed: %u", ca->st.empty_cnt);
	if (!ca->dec_current)
		return;
	horizon = c->relative ? base + c->t_high_ns : max_t(u64, c->t_high_ns, base);
	want = 2 * ((fz_u128)rate * horizon / DCC_NSEC_PER_SEC) + 3ULL * ca->mss;
	if (!ca->st.prev_rtt_ns) {	/* the first-window cap */
		fz_u128 bdp = (fz_u128)rate * base / DCC_NSEC_PER_SEC;
		fz_u128 iw = (fz_u128)TIMELY_INIT_CWND * ca->mss;

		want = min(want, max(iw, bdp));
	}
	FUZZ_ASSERT(ca->d.rate_bytes_ps == rate && ca->d.cwnd_bytes == (u64)want,
		    "decision %llu B/s cwnd %llu, want %llu B/s cwnd %llu",
		    (unsigned long long)ca->d.rate_bytes_ps,
		    (unsigned long long)ca->d.cwnd_bytes,
		    (unsigned long long)rate, (unsigned long long)want);
}

static void check_window(const struct sock_model *ca,
			 const struct timely_win_out *wo, u32 gap)
{
	u32 want = ca->c.rtt_last ? ca->win_last : ca->win_min;

	if (want == U32_MAX || !want)
		want = ca->win_dly_min;
	FUZZ_ASSERT(wo->rtt_ns == want, "window RTT %u want %u", wo->rtt_ns,
		    want);
	FUZZ_ASSERT(wo->rtt_ns >= 1 && wo->rtt_ns <= DCC_SAMPLE_RTT_MAX_NS,
		    "RTT %u", wo->rtt_ns);
	FUZZ_ASSERT(wo->bytes >= ca->c.seg_bytes && wo->span_ns >= gap,
		    "bytes %u (seg %u) span %llu (gap %u)", wo->bytes,
		    ca->c.seg_bytes, (unsigned long long)wo->span_ns, gap);
}

/* the regain's reference: the rate at the cut, or the good rate if higher */
static u64 regain_ref(const struct timely_state *st)
{
	return max(dcc_f16_unpack(st->undo_rate), dcc_f16_unpack(st->good_rate));
}

static void check_update(const struct sock_model *ca,
			 const struct timely_update *u, u32 n, bool app_limited,
			 u64 old)
{
	const struct timely_cfg *c = &ca->c;
	const struct timely_law_out *o = &u->law;
	u32 r = clamp_t(u32, u->win.rtt_ns, 1, TIMELY_RTT_MAX_NS), b = base_ns(ca);
	u32 d = !c->relative ? r : r > b ? r - b : 0;
	s64 emax = (s64)timely_emax_q16(c->beta_q20);

	FUZZ_ASSERT(u->n == n, "N %u want %u", u->n, n);
	FUZZ_ASSERT(o->d_ns == d, "d %u want %u", o->d_ns, d);
	FUZZ_ASSERT(o->branch <= TIMELY_BR_EMPTY, "branch %u", o->branch);
	/*
	 * empty_hai: armed by a loss cut; the streak counts completions
	 * below T_low / 4 (saturating), HAI's step from the 7th in a row
	 * (20th in TIMELY's law; twice it from the next), and a window after
	 * one of them (the 7th in TIMELY's) is credited (one per RTT).
	 */
	if (o->branch == TIMELY_BR_FIRST)	/* after init, RTO, restart */
		FUZZ_ASSERT(!ca->st.empty_cnt && !ca->empty_cnt,
			    "streak %u at a first sample", ca->st.empty_cnt);
	else if (c->empty_hai && (ca->st.flags & TIMELY_S_LOSSY) &&
		 o->d_ns < o->t_low_ns / TIMELY_EMPTY_DIV && !app_limited)
		FUZZ_ASSERT(ca->st.empty_cnt ==
			    min_t(u32, ca->empty_cnt + 1, timely_empty_streak(c->kind)),
			    "streak %u after %u", ca->st.empty_cnt, ca->empty_cnt);
	else
		FUZZ_ASSERT(!ca->st.empty_cnt, "streak %u without room",
			    ca->st.empty_cnt);
	if (o->branch == TIMELY_BR_EMPTY) {
		u64 step = (ca->empty_cnt >= timely_empty_streak(c->kind) ? 2 : 1) *
			   TIMELY_HAI_MULT * o->delta_bytes_ps;
		u64 want = clamp_t(u64, old + step,
				   c->rate_min_bytes_ps,
				   max_t(u64, c->rate_min_bytes_ps, rate_max(ca)));

		if (app_limited)	/* held */
			want = old;
		FUZZ_ASSERT(ca->empty_cnt >= timely_empty_streak(c->kind) - 1 &&
			    ca->st.rate == want,
			    "empty step %llu -> %llu want %llu after %u",
			    (unsigned long long)old, (unsigned long long)ca->st.rate,
			    (unsigned long long)want, ca->empty_cnt);
	}
	/* below T_low: at most delta (a share of it for TIMELY's early windows) */
	if (o->branch == TIMELY_BR_LOW)
		FUZZ_ASSERT(ca->st.rate <= max_t(u64, old + o->delta_bytes_ps,
						 c->rate_min_bytes_ps),
			    "low step %llu -> %llu delta %llu", (unsigned long long)old,
			    (unsigned long long)ca->st.rate,
			    (unsigned long long)o->delta_bytes_ps);
	if (timely_empty_credited(&ca->st, c->kind))
		FUZZ_ASSERT(ca->st.win.bytes >= c->seg_bytes,
			    "an uncredited window in a streak: bytes %u",
			    ca->st.win.bytes);
	/*
	 * The regain: only while armed (by a cut, with loss_regain), below
	 * T_low / 2, never past twice the old rate nor above max(target,
	 * old + delta); the flag outlives no completion that reached the
	 * target.
	 */
	if (o->branch == TIMELY_BR_REGAIN) {
		u64 ref = regain_ref(&ca->st);
		u64 target = ref - (ref >> TIMELY_REGAIN_SHIFT);

		FUZZ_ASSERT(c->regain && ca->regain_armed && o->d_ns < o->t_low_ns / 2,
			    "regain unarmed or with a queue: d %u", o->d_ns);
		FUZZ_ASSERT(ca->st.rate <= max_t(u64, 2 * old, c->rate_min_bytes_ps) &&
			    ca->st.rate <= max(target, old + o->delta_bytes_ps),
			    "regain %llu -> %llu (target %llu)", (unsigned long long)old,
			    (unsigned long long)ca->st.rate, (unsigned long long)target);
	}
	if (ca->st.flags & TIMELY_S_REGAIN) {
		u64 ref = regain_ref(&ca->st);

		FUZZ_ASSERT(c->regain && ca->st.rate < ref - (ref >> TIMELY_REGAIN_SHIFT) &&
			    ca->st.win.bytes >= c->seg_bytes,
			    "regain past its target, or an uncredited window: rate %llu ref %llu bytes %u",
			    (unsigned long long)ca->st.rate, (unsigned long long)ref, ca->st.win.bytes);
	}
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
		FUZZ_ASSERT(o->t_low_ns >= 1 &&
			    o->t_low_ns <= max_t(u32, 1, c->t_high_ns / 2),
			    "T_low %u, T_high %u", o->t_low_ns, c->t_high_ns);
		FUZZ_ASSERT(o->delta_bytes_ps >= 1 &&
			    o->delta_bytes_ps <= (u64)c->delta_bytes_ps,
			    "delta %llu, delta0 %llu",
			    (unsigned long long)o->delta_bytes_ps,
			    (unsigned long long)c->delta_bytes_ps);
	} else {
		FUZZ_ASSERT(o->t_low_ns == c->t_low_ns &&
			    o->delta_bytes_ps == (u64)c->delta_bytes_ps,
			    "T_low/delta moved");
	}
	FUZZ_ASSERT(!app_limited ||
		    ca->st.rate <= max_t(u64, old, c->rate_min_bytes_ps),
		    "app-limited completion raised %llu -> %llu",
		    (unsigned long long)old, (unsigned long long)ca->st.rate);
	FUZZ_ASSERT(timely_nest_get(&ca->st) >= 1 &&
		    timely_nest_get(&ca->st) <= TIMELY_N_MAX, "N median %u",
		    timely_nest_get(&ca->st));
	FUZZ_ASSERT(ca->st.n_hat == n, "n_hat %u", ca->st.n_hat);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = 0, gap, n = want_n(ca);
	bool delayed = f & 2, app_limited = f & 16;
	u64 old = ca->st.rate;
	struct timely_update u;
	struct dcc_sample s;

	if (!(f & 1))	/* us RTTs as the kernel has them, or any ns */
		rtt = f & 32 ? (u32)fz_span(in, 1, DCC_SAMPLE_RTT_MAX_NS) :
			       fz_rtt_us(in) * 1000;
	ca->now_ns += f & 4 ? fz_span(in, 0, 5000000000ULL) : fz_raw(in, 3);
	s = (struct dcc_sample){
		.rx_ns = ca->now_ns, .tx_ns = ca->now_ns - rtt, .rtt_ns = rtt,
		.mss = ca->mss, .why = rtt ? 0 : DCC_SAMPLE_NO_RTT,
		.delayed = delayed, .app_limited = app_limited,
		.acked_bytes = f & 8 ? (u32)fz_span(in, 0, U32_MAX) :
			(u32)min_t(u64, (u64)ca->mss * (fz_raw(in, 1) + 1), U32_MAX),
	};
	s.acked = s.acked_bytes / ca->mss;
	if (rtt && (!ca->min_rtt_ns || rtt < ca->min_rtt_ns))
		ca->min_rtt_ns = rtt;

	if (rtt) {	/* the model of the window's choice */
		if (delayed) {
			ca->win_dly_min = min(ca->win_dly_min, rtt);
		} else {
			ca->win_min = min(ca->win_min, rtt);
			ca->win_last = rtt;
		}
	}
	gap = ca->c.dmin_ns ? ca->c.dmin_ns : base_ns(ca);
	ca->empty_cnt = ca->st.empty_cnt;
	if (!timely_on_ack(&ca->st, &ca->c, &s)) {
		/* the decision in force stands */
		FUZZ_ASSERT(!ca->must_decide, "a due decision was not taken");
		FUZZ_ASSERT(ca->st.rate == old, "rate moved without a decision");
		check_state(ca);
		return;
	}
	timely_on_change(&ca->st, &ca->c, &s, ca->min_rtt_ns, ca->local_flows,
			 rate_max(ca), &ca->d, &u);
	FUZZ_ASSERT(ca->d.changed, "a decision that did not change");
	decided(ca, true);
	if (ca->d.flags & TIMELY_D_UPDATE) {
		check_window(ca, &u.win, gap);
		win_forget(ca);
		check_update(ca, &u, n, app_limited, old);
	}
	check_state(ca);
}

static void on_restart(struct sock_model *ca)
{
	timely_on_restart(&ca->st, ca->now_ns);
	FUZZ_ASSERT(!ca->st.prev_rtt_ns && !ca->st.rtt_diff && !ca->st.neg_cnt &&
		    !ca->st.win.bytes && ca->st.win.start_ns == ca->now_ns,
		    "restart kept history");
	win_forget(ca);
	moved(ca);	/* the first-window cap, from the next ACK */
	check_state(ca);
}

/* ssthresh (saves the rate), then set_state(Recovery or Loss) */
static void on_loss(struct sock_model *ca, bool rto)
{
	bool was_cut = ca->st.flags & TIMELY_S_CUT;
	u64 old = ca->st.rate, old_good = dcc_f16_unpack(ca->st.good_rate), want;

	timely_save_undo(&ca->st);
	if (rto) {
		win_forget(ca);
		moved(ca);	/* the gradient history is gone */
	}
	if (timely_on_loss(&ca->st, &ca->c, rto, ca->now_ns, ca->min_rtt_ns,
			   ca->mss, &ca->d)) {
		ca->regain_armed = ca->st.flags & TIMELY_S_REGAIN;
		want = max_t(u64, ca->c.rate_min_bytes_ps,
			     old * (100 - ca->c.loss_md_pct) / 100);
		FUZZ_ASSERT(!was_cut && ca->st.rate == want,
			    "cut %llu -> %llu want %llu", (unsigned long long)old,
			    (unsigned long long)ca->st.rate, (unsigned long long)want);
		/* the reference: the rate at the cut, or the good rate (the
		 * cut leaves it) if higher; the target is 7/8 of it
		 */
		FUZZ_ASSERT(dcc_f16_unpack(ca->st.good_rate) == old_good &&
			    dcc_f16_unpack(ca->st.undo_rate) ==
			    dcc_f16_unpack(dcc_f16_pack(old)) &&
			    !!(ca->st.flags & TIMELY_S_REGAIN) ==
			    (ca->c.regain && ca->st.rate < regain_ref(&ca->st) -
			     (regain_ref(&ca->st) >> TIMELY_REGAIN_SHIFT)),
			    "good %llu was %llu, rate %llu -> %llu, regain %d",
			    (unsigned long long)dcc_f16_unpack(ca->st.good_rate),
			    (unsigned long long)old_good, (unsigned long long)old,
			    (unsigned long long)ca->st.rate,
			    !!(ca->st.flags & TIMELY_S_REGAIN));
		decided(ca, false);	/* the glue applies it */
	} else {
		FUZZ_ASSERT(was_cut && ca->st.rate == old, "second cut");
	}
	FUZZ_ASSERT(!rto || !ca->st.prev_rtt_ns, "RTO kept the gradient");
	check_state(ca);
}

static void on_undo(struct sock_model *ca)
{
	u64 want = max_t(u64, ca->st.rate, dcc_f16_unpack(ca->st.undo_rate));

	timely_on_undo(&ca->st);
	ca->regain_armed = false;
	FUZZ_ASSERT(ca->st.rate == want && !(ca->st.flags & TIMELY_S_CUT), "undo");
	moved(ca);	/* the rate comes back on the next ACK */
	check_state(ca);
}

/* the SQCC helpers on their own, over their whole input ranges */
static void sqcc_helpers(struct fz *in, const struct sock_model *ca)
{
	u32 n = (u32)fz_span(in, 1, TIMELY_N_MAX), smp, med;
	s32 g = (s32)fz_raw(in, 4);
	u64 own = fz_span(in, 0, DCC_RATE_MAX_BPS);
	u64 link = ca->c.link_bytes_ps ? ca->c.link_bytes_ps : DCC_MBPS_TO_BPS;
	struct timely_state e = { 0 };
	u8 k = timely_sqcc_k(n);
	u64 delta;

	FUZZ_ASSERT(k >= 1 && k <= 4, "k %u", k);
	FUZZ_ASSERT(timely_sqcc_t_low(&ca->c, k) >= 1, "T_low 0");
	delta = timely_sqcc_delta(&ca->c, n, k);
	FUZZ_ASSERT(delta >= 1 && delta <= max_t(u64, ca->c.delta_bytes_ps, 1),
		    "delta %llu", (unsigned long long)delta);
	smp = timely_n_sample(link, g, own);
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
	u32 nic;
	u8 kind;

	memset(&ca, 0, sizeof(ca));
	kind = (u8)(fz_raw(&in, 1) % 3);
	read_params(&in, &p);
	ca.mss = fz_mss(&in);
	ca.max_pacing = fz_bool(&in) ? U64_MAX :
			fz_span(&in, DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	ca.local_flows = (u32)fz_span(&in, 1, 70000);
	ca.now_ns = fz_raw(&in, 8) >> 2;	/* any clock up to 2^62 ns */
	ca.min_rtt_ns = fz_bool(&in) ? 0 : fz_rtt_us(&in) * 1000;

	nic = fz_bool(&in) ? 0 : (u32)fz_span(&in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	timely_cfg_resolve_nic(&ca.c, kind, &p, nic);
	check_cfg(&ca.c, kind, &p, nic);
	timely_on_init(&ca.st, &ca.c, timely_params_init_rate(&p), ca.now_ns,
		       ca.min_rtt_ns, (u64)TIMELY_INIT_CWND * ca.mss, ca.mss,
		       rate_max(&ca), &ca.d);
	decided(&ca, true);
	win_forget(&ca);
	check_state(&ca);

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
			timely_on_recovered(&ca.st);
			break;
		case 11:
			on_undo(&ca);
			break;
		case 12:	/* CA_EVENT_TX_START: restart after idle */
			on_restart(&ca);
			break;
		case 13:	/* the windowed min RTT expired; flows come and go
				 * (the decision in force stands: the next
				 * decision reads them)
				 */
			ca.min_rtt_ns = fz_rtt_us(&in) * 1000;
			ca.local_flows = (u32)fz_span(&in, 1, 70000);
			check_state(&ca);
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
