// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the NSCC / MNSCC control law
 * (modules/nscc/nscc_law.c) as tcp_nscc.c drives it: nscc_resolve() at
 * init and again whenever one of its inputs changes (the base RTT, which
 * may fall with a sample or rise when the windowed minimum expires), then
 * nscc_on_ack() with a struct dcc_sample in nanoseconds; nscc_on_rto() and
 * nscc_on_idle_restart() on the matching events.  MNSCC's median window
 * (the law's ring of up to 4 delays) is part of the law.
 *
 * The input decodes into one snapshot of the module parameters, each
 * inside its range, the variant (nscc or mnscc), ECN negotiated or not and
 * the MSS, a start time anywhere in the u64 ns clock (so its low 32 bits
 * wrap, every 4.29 s), and a stream of events: ACKs with RTTs of 1 us ..
 * 1 s plus sub-microsecond jitter (or no valid sample), gaps between ACKs
 * of 0 .. 5 s (beyond the 32-bit ns wrap), any acked packets, inflight,
 * CE echo, losses, cwnd-limited and CA_Loss; RTOs, spurious-recovery undo,
 * idle restarts, and expiry of the windowed minimum RTT (the base RTT may
 * rise, so maxwnd and the gains move under the state).  Rates 1 Mbit/s ..
 * 800 Gbit/s come from nic_mbps.  As tcp_nscc.c, a new config, an RTO and
 * an undo (the stack writes snd_cwnd) mark the decision stale.
 *
 * Checked after every call into the law (abort on failure): the resolved
 * cfg is consistent (min_cwnd <= init_cwnd <= maxwnd, durations in
 * [1 us, 1 s], EWMA gain >= 1, H <= 4); cwnd in [min_cwnd, maxwnd] after
 * an ACK and >= min_cwnd after an RTO; the filtered delay never exceeds
 * the largest delay fed to it; the MNSCC window holds at most H <= 4
 * samples and the decision delay lies inside it, and window and median
 * are exactly those of dcc_lib's sliding window (dcc_med4, fed the same
 * delays with H = max(min((cwnd / mss) / 2, hmax), 1) by division); the
 * decision (quadrant,
 * raw delay, mark, MD, QA) is consistent; a changed decision's pacing rate
 * and window are exact (128-bit reference, packet conservation in
 * CA_Loss), and an unchanged one still holds: the decision in force has
 * this window, was made outside CA_Loss, with no stale mark since, and
 * srtt is inside the band of its rate (NSCC_SRTT_FALL/RISE).
 * UBSan and ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/median.h"
#include "dcc/nscc.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

struct sock_model {
	struct nscc_state st;
	struct nscc_cfg c;	/* resolved for min_rtt_us */
	u32 dev_mbps;		/* the egress NIC's speed the glue passes */
	struct nscc_params p;
	bool mnscc, ecn;
	bool saw_ce;		/* a CE echo came: the backstop may end */
	u32 mss;
	u32 cfg_base_us;	/* the base RTT c was resolved for */
	u64 srtt_ns;		/* the kernel's srtt, 0 before any sample */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u32 max_delay_ns;	/* largest delay the EWMA may have been fed */
	u32 prior_cwnd;		/* tp->prior_cwnd, packets */
	u64 now_ns;
	struct dcc_decision dec;	/* the decision in force (last changed) */
	u64 dec_srtt;		/* srtt (or base RTT) it was made for, ns */
	bool dec_loss;		/* made in CA_Loss (a conserved window) */
	bool stale;		/* marked stale since */
	struct dcc_med4 ref;	/* MNSCC's window, as dcc_lib keeps one */
};

static void read_params(struct fz *in, struct nscc_params *p)
{
	p->nic_mbps = (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->network_rtt_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->target_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->target_pct = (u32)fz_span(in, 1, 1000);
	p->prop_gain_x100 = (u32)fz_span(in, 0, 10000);
	p->fi_x100 = (u32)fz_span(in, 0, 10000);
	p->eta_x100 = (u32)fz_span(in, 0, 10000);
	p->fi_scale_x100 = (u32)fz_span(in, 0, 10000);
	p->fi_thresh_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->gamma_pct = (u32)fz_span(in, 1, 100);
	p->md_floor_pct = (u32)fz_span(in, 1, 99);
	p->delay_alpha_ppm = (u32)fz_span(in, 1, 1000000);
	p->qa_gate = (u32)fz_span(in, 0, 16);
	p->qa_thresh_pct = (u32)fz_span(in, 100, 10000);
	p->fulfill_bytes = (u32)fz_span(in, 1, 1U << 30);
	p->maxwnd_pct = (u32)fz_span(in, 100, 1000);
	p->init_cwnd_pct = (u32)fz_span(in, 0, 100);
	p->noecn_mark_pct = (u32)fz_span(in, 0, 10000);
	p->ecn_backstop_pct = (u32)fz_span(in, 0, 10000);
	p->median_hmax = (u32)fz_span(in, 1, NSCC_MED_HMAX);
	p->median_ewma = fz_bool(in);
	p->median_lower = fz_bool(in);
	p->cwnd_limited_only = fz_bool(in);
	p->pacing_gain_pct = (u32)fz_span(in, 100, 1000);
	p->ecn_backstop_mode = (u32)fz_span(in, 0, 2);
}

/* nscc_cfg() of the glue: resolved again only when the base RTT moved */
static const struct nscc_cfg *nscc_cfg(struct sock_model *ca)
{
	if (ca->cfg_base_us != ca->min_rtt_us || !ca->c.mss) {
		nscc_resolve_nic(&ca->p, ca->dev_mbps, dcc_us_to_ns(ca->min_rtt_us),
				 ca->mss, ca->ecn, ca->mnscc, &ca->c);
		ca->cfg_base_us = ca->min_rtt_us;
		nscc_decision_stale(&ca->st);	/* nscc_conf_refresh() */
		ca->stale = true;
		/* the EWMA may be fed a network RTT (loss) or base / 4 */
		ca->max_delay_ns = max(max(ca->max_delay_ns, ca->c.nrtt_ns), ca->c.base_ns);
	}
	return &ca->c;
}

/* ---- the checks -------------------------------------------------------- */

static void check_cfg(const struct sock_model *ca, const struct nscc_cfg *c)
{
	FUZZ_ASSERT(c->min_cwnd <= c->init_cwnd && c->init_cwnd <= c->maxwnd,
		    "min %u init %u max %u", c->min_cwnd, c->init_cwnd, c->maxwnd);
	FUZZ_ASSERT(c->min_cwnd == 2 * ca->mss, "min_cwnd %u, MSS %u",
		    c->min_cwnd, ca->mss);
	/* nscc_update_delay()'s 128-bit product needs them below 2^54 */
	FUZZ_ASSERT(c->ewma_pb_q48 < (1ULL << 54) && c->emerg_pb_q48 < (1ULL << 54),
		    "EWMA per byte %llu / %llu", (unsigned long long)c->ewma_pb_q48,
		    (unsigned long long)c->emerg_pb_q48);
	FUZZ_ASSERT(c->target_ns >= 1000 && c->target_ns <= DCC_SAMPLE_RTT_MAX_NS &&
		    c->base_ns >= 1000 && c->base_ns <= DCC_SAMPLE_RTT_MAX_NS &&
		    c->nrtt_ns >= 1000 && c->nrtt_ns <= DCC_SAMPLE_RTT_MAX_NS &&
		    c->fi_thresh_ns >= 1000 && c->fi_thresh_ns <= DCC_SAMPLE_RTT_MAX_NS,
		    "target %u base %u nrtt %u fi_thresh %u", c->target_ns,
		    c->base_ns, c->nrtt_ns, c->fi_thresh_ns);
	FUZZ_ASSERT(c->hmax <= NSCC_MED_HMAX && (!!c->hmax == ca->mnscc),
		    "hmax %u", c->hmax);
	FUZZ_ASSERT(c->qa_gate <= 16 && c->gamma_q16 <= 65536 &&
		    c->floor_q16 < 65536, "qa_gate %u gamma %u floor %u",
		    c->qa_gate, c->gamma_q16, c->floor_q16);
}

/*
 * srtt the law paces on: the kernel's, at most base RTT + target, or the
 * base RTT before one
 */
static u64 pacing_srtt(const struct sock_model *ca, const struct nscc_cfg *c)
{
	u64 cap = (u64)c->base_ns + c->target_ns;

	return ca->srtt_ns ? (ca->srtt_ns < cap ? ca->srtt_ns : cap) : c->base_ns;
}

/*
 * A changed decision: pace at gain * cwnd / srtt (or base RTT), exact.
 * It becomes the decision in force.
 */
static void check_decision(struct sock_model *ca, const struct nscc_cfg *c,
			   const struct dcc_decision *d, bool in_loss)
{
	u64 srtt = pacing_srtt(ca, c);
	fz_u128 want = (fz_u128)ca->st.cwnd * ca->p.pacing_gain_pct *
		       DCC_NSEC_PER_SEC / ((fz_u128)srtt * 100);

	FUZZ_ASSERT(d->changed, "a decision must be reported changed");
	FUZZ_ASSERT(want <= U64_MAX && d->rate_bytes_ps == (u64)want,
		    "pacing %llu", (unsigned long long)d->rate_bytes_ps);
	ca->dec = *d;
	ca->dec_srtt = srtt;
	ca->dec_loss = in_loss;
	ca->stale = false;
}

/*
 * An unchanged decision: the one in force still holds.  Its window is
 * this cwnd, not a conserved one, nothing marked it stale, and srtt is
 * within the band of its rate: at most 1/32 below, 1/8 above.
 */
static void check_in_force(const struct sock_model *ca, const struct nscc_cfg *c,
			   bool in_loss)
{
	u64 srtt = pacing_srtt(ca, c), was = ca->dec_srtt;

	FUZZ_ASSERT(!in_loss && !ca->dec_loss && !ca->stale,
		    "unchanged in CA_Loss (%d), after it (%d) or stale (%d)",
		    in_loss, ca->dec_loss, ca->stale);
	FUZZ_ASSERT(ca->dec.cwnd_bytes == ca->st.cwnd, "window in force %llu, cwnd %u",
		    (unsigned long long)ca->dec.cwnd_bytes, ca->st.cwnd);
	FUZZ_ASSERT(srtt >= was - (was >> NSCC_SRTT_FALL) &&
		    srtt <= was + (was >> NSCC_SRTT_RISE),
		    "srtt %llu outside the band of %llu", (unsigned long long)srtt,
		    (unsigned long long)was);
}

/*
 * MNSCC: the reference window takes the ACK's raw delay as the law's ring
 * does (H from the window before the ACK), and must hold as many samples
 * and give the same median (the lower one, or the mean of the middle two).
 */
static void check_median(struct sock_model *ca, const struct nscc_cfg *c,
			 u32 cwnd_before, bool valid, u32 raw, const struct nscc_out *o)
{
	u32 w = max_t(u32, cwnd_before / c->mss, 1);
	u16 h = (u16)clamp_t(u32, w / 2, 1, c->hmax);
	u32 want;

	if (!c->hmax)
		return;
	FUZZ_ASSERT(nscc_median_h(c, cwnd_before) == h, "H %u want %u (cwnd %u mss %u)",
		    nscc_median_h(c, cwnd_before), h, cwnd_before, c->mss);
	if (valid)
		dcc_medwin_push(&ca->ref.w, ca->ref.buf, raw, h);
	FUZZ_ASSERT(ca->st.med_n == ca->ref.w.n, "window %u samples, reference %u",
		    ca->st.med_n, ca->ref.w.n);
	if (!ca->ref.w.n)
		return;
	want = c->median_lower ? dcc_medwin_percentile(&ca->ref.w, ca->ref.buf, 50) :
				 dcc_medwin_median(&ca->ref.w, ca->ref.buf);
	FUZZ_ASSERT(o->delay_ns == want, "median %u want %u (n %u)", o->delay_ns, want,
		    ca->ref.w.n);
}

/* the newest @i-th sample of the MNSCC ring (nscc_law.c) */
static u32 med_at(const struct nscc_state *s, u32 i)
{
	return s->med[(s->med_pos - 1u - i) % NSCC_MED_HMAX];
}

static void check_state(const struct sock_model *ca, const struct nscc_cfg *c)
{
	const struct nscc_state *s = &ca->st;

	FUZZ_ASSERT(s->avg_ns <= ca->max_delay_ns, "avg %u ns above every sample (%u)",
		    s->avg_ns, ca->max_delay_ns);
	FUZZ_ASSERT(s->quadrant <= NSCC_Q_LOSS, "quadrant %u", s->quadrant);
	FUZZ_ASSERT(s->med_n <= c->hmax, "median window holds %u (H max %u)",
		    s->med_n, c->hmax);
	FUZZ_ASSERT(s->flags & NSCC_S_INITED, "flags %#x", s->flags);
}

static void check_ack(struct sock_model *ca, const struct nscc_cfg *c,
		      const struct dcc_sample *a, u32 inflight_pkts, bool in_loss,
		      const struct dcc_decision *d, const struct nscc_out *o)
{
	const struct nscc_state *s = &ca->st;
	u32 raw = !a->why && a->rtt_ns > c->base_ns ? a->rtt_ns - c->base_ns : 0;
	u64 cwnd = s->cwnd;

	FUZZ_ASSERT(s->cwnd >= c->min_cwnd && s->cwnd <= c->maxwnd,
		    "cwnd %u outside [%u, %u]", s->cwnd, c->min_cwnd, c->maxwnd);
	if (in_loss)
		cwnd = min_t(u64, cwnd, ((u64)inflight_pkts + max_t(u32, a->acked, 1)) *
				   a->mss);
	if (d->changed)
		FUZZ_ASSERT(d->cwnd_bytes == cwnd, "window %llu want %llu",
			    (unsigned long long)d->cwnd_bytes, (unsigned long long)cwnd);
	FUZZ_ASSERT(o->raw_ns == raw, "raw %u want %u", o->raw_ns, raw);
	FUZZ_ASSERT(o->quadrant == s->quadrant, "quadrant %u, state %u",
		    o->quadrant, s->quadrant);
	{
		/* a mark: CE, or the decision delay at the mark threshold,
		 * unless the path has marked and the backstop ends there
		 */
		bool dmark = o->delay_ns >= c->mark_ns && (!a->why || c->hmax);
		bool off = ca->saw_ce && ca->ecn &&
			   ca->p.ecn_backstop_mode == NSCC_BACKSTOP_UNTIL_CE;

		FUZZ_ASSERT(o->mark == (a->ce || (dmark && !off)),
			    "mark %d: CE %u, delay %u, mark_ns %llu, CE seen %d",
			    o->mark, a->ce, o->delay_ns,
			    (unsigned long long)c->mark_ns, ca->saw_ce);
	}
	FUZZ_ASSERT(!o->md || o->quadrant == NSCC_Q_MD, "MD in quadrant %u",
		    o->quadrant);
	FUZZ_ASSERT(!o->qa || o->quadrant == NSCC_Q_QA, "QA in quadrant %u",
		    o->quadrant);
	if (c->hmax && s->med_n) {
		u32 lo = U32_MAX, hi = 0;

		for (u32 i = 0; i < s->med_n; i++) {
			lo = min(lo, med_at(s, i));
			hi = max(hi, med_at(s, i));
		}
		FUZZ_ASSERT(o->delay_ns >= lo && o->delay_ns <= hi,
			    "median %u outside [%u, %u]", o->delay_ns, lo, hi);
		if (!a->why)
			FUZZ_ASSERT(med_at(s, 0) == raw, "newest sample %u, raw %u",
				    med_at(s, 0), raw);
	}
	if (!c->hmax && !a->why)
		FUZZ_ASSERT(o->delay_ns == raw, "delay %u, raw %u", o->delay_ns,
			    raw);
	if (d->changed)
		check_decision(ca, c, d, in_loss);
	else
		check_in_force(ca, c, in_loss);
	check_state(ca, c);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	/* 1 us .. 1 s, plus sub-microsecond jitter (ns clocks) */
	u32 rtt_us = fz_rtt_us(in);
	u32 rtt = (u32)min_t(u64, dcc_us_to_ns(rtt_us) + fz_raw(in, 2) % 1000,
			     DCC_SAMPLE_RTT_MAX_NS);
	u32 pkts, losses = 0, inflight, cwnd_before;
	const struct nscc_cfg *c;
	struct dcc_decision d;
	struct dcc_sample a;
	struct nscc_out o;
	bool valid = !(f & 1), in_loss = (f & 128) && (f & 2);

	/* gaps up to 5 s: the stamps' low 32 bits wrap every 4.29 s */
	ca->now_ns += f & 2 ? fz_span(in, 0, 5000000000ULL) : fz_raw(in, 3);
	pkts = f & 4 ? (u32)fz_span(in, 0, 1U << 16) : 1;
	if (f & 8)
		losses = (u32)fz_span(in, 1, 1U << 16);
	if (valid) {	/* the kernel's RTT estimators see the sample first */
		ca->srtt_ns = ca->srtt_ns ? (7 * ca->srtt_ns + rtt) / 8 : rtt;
		if (!ca->min_rtt_us || rtt_us < ca->min_rtt_us)
			ca->min_rtt_us = rtt_us;
		ca->max_delay_ns = max(ca->max_delay_ns, rtt);
	}
	c = nscc_cfg(ca);
	check_cfg(ca, c);
	a = (struct dcc_sample){
		.rx_ns = ca->now_ns,
		.tx_ns = valid ? ca->now_ns - rtt : 0,
		.rtt_ns = valid ? rtt : 0,
		.acked = pkts,
		.acked_bytes = (u32)min_t(u64, (u64)pkts * ca->mss, U32_MAX),
		.mss = ca->mss,
		.ce = f & 16 ? (u32)fz_span(in, 1, pkts + 1) : 0,
		.losses = losses,
		.why = valid ? 0 : DCC_SAMPLE_NO_RTT,
	};
	inflight = f & 32 ? (u32)fz_raw(in, 4) : 10;
	cwnd_before = ca->st.cwnd;
	nscc_on_ack(&ca->st, c, &a, ca->srtt_ns, inflight, f & 64, in_loss, &d, &o);
	check_median(ca, c, cwnd_before, valid,
		     valid && rtt > c->base_ns ? rtt - c->base_ns : 0, &o);
	check_ack(ca, c, &a, inflight, in_loss, &d, &o);
	ca->saw_ce |= a.ce != 0;
}

/* ssthresh: tp->prior_cwnd = snd_cwnd, which dcc_apply() rounded up */
static void save_prior(struct sock_model *ca)
{
	ca->prior_cwnd = (ca->st.cwnd + ca->mss - 1) / ca->mss;
}

static void on_rto(struct sock_model *ca)
{
	const struct nscc_cfg *c = nscc_cfg(ca);
	u32 prev = ca->st.cwnd;

	save_prior(ca);
	nscc_on_rto(&ca->st, c, ca->mss);
	/* tcp_enter_loss() wrote snd_cwnd: nscc_conf_current() sees it */
	nscc_decision_stale(&ca->st);
	ca->stale = true;
	FUZZ_ASSERT(ca->st.cwnd >= c->min_cwnd && ca->st.cwnd <= max(prev, c->min_cwnd),
		    "RTO: cwnd %u -> %u (min %u)", prev, ca->st.cwnd, c->min_cwnd);
	check_state(ca, c);
}

/*
 * undo_cwnd: the loss cut is given back from tp->prior_cwnd (packets, so
 * up to one MSS above the byte window it came from, or above a maxwnd
 * that has since fallen with the base RTT).  The law clamps it again on
 * the next ACK; only the u32 range is promised here.
 */
static void on_undo(struct sock_model *ca)
{
	u64 prior = (u64)ca->prior_cwnd * ca->mss;

	if (prior > ca->st.cwnd)
		ca->st.cwnd = (u32)min_t(u64, prior, NSCC_CWND_MAX);
	/* the stack set snd_cwnd to what undo_cwnd returned */
	nscc_decision_stale(&ca->st);
	ca->stale = true;
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
	struct sock_model ca;
	const struct nscc_cfg *c;
	struct dcc_decision d;

	memset(&ca, 0, sizeof(ca));
	read_params(&in, &ca.p);
	ca.mnscc = fz_bool(&in);
	ca.ecn = fz_bool(&in);
	/* nic_mbps 0: the egress NIC's speed, or none known (0..800000) */
	if (fz_bool(&in)) {
		ca.dev_mbps = fz_bool(&in) ? ca.p.nic_mbps : 0;
		ca.p.nic_mbps = 0;
	}
	ca.mss = fz_mss(&in);
	/* anywhere in the u64 ns clock, below 2^63 (585 years / 2) */
	ca.now_ns = fz_raw(&in, 8) >> 1;
	ca.min_rtt_us = fz_bool(&in) ? 0 : fz_rtt_us(&in);	/* handshake */
	ca.srtt_ns = dcc_us_to_ns(ca.min_rtt_us);
	c = nscc_cfg(&ca);
	check_cfg(&ca, c);
	nscc_state_init(&ca.st, c, ca.now_ns);
	dcc_med4_init(&ca.ref);
	ca.prior_cwnd = (ca.st.cwnd + ca.mss - 1) / ca.mss;
	nscc_decide(&ca.st, c, ca.srtt_ns, &d);
	check_decision(&ca, c, &d, false);
	check_state(&ca, c);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 10:
			on_rto(&ca);
			break;
		case 11:	/* entering fast recovery: ssthresh */
			save_prior(&ca);
			break;
		case 12:
			on_undo(&ca);
			break;
		case 13:	/* CA_EVENT_TX_START after more than a base RTT */
			nscc_on_idle_restart(&ca.st, ca.now_ns);
			dcc_med4_init(&ca.ref);
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
	return 0;
}
