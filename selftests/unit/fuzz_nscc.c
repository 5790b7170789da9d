// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the NSCC / MNSCC control law
 * (modules/nscc/nscc_law.c) as tcp_nscc.c drives it: nscc_resolve() on
 * every ACK from the parameter snapshot and the flow's current base RTT,
 * then nscc_on_ack(); nscc_on_rto() and nscc_on_idle_restart() on the
 * matching events.  MNSCC's median window (dcc_med4) is part of the law.
 *
 * The input decodes into one snapshot of the module parameters, each
 * inside its range, the variant (nscc or mnscc), ECN negotiated or not and
 * the MSS, and a stream of events: ACKs with RTTs of 1 us .. 1 s (or no
 * valid sample), any acked bytes, inflight, CE echo, losses and
 * cwnd-limited flag; RTOs, spurious-recovery undo, idle restarts, and
 * expiry of the windowed minimum RTT (the base RTT may rise, so maxwnd
 * and the gains move under the state).
 *
 * Checked after every call into the law (abort on failure): the resolved
 * cfg is consistent (min_cwnd <= init_cwnd <= maxwnd, target >= 1, EWMA
 * gain >= 1, H <= 4); cwnd in [min_cwnd, maxwnd] after an ACK and
 * >= min_cwnd after an RTO; the filtered delay <= 2^28 (Q8, nscc.h); the
 * MNSCC window holds at most H <= 4 samples and the decision delay lies
 * inside it; the decision (quadrant, raw delay, mark, MD, QA) is
 * consistent; the pacing rate the glue computes is exact.  UBSan and ASan
 * catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/nscc.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

struct sock_model {
	struct nscc_state st;
	struct nscc_params p;
	bool mnscc, ecn, in_loss;
	u32 mss;
	u32 srtt_us;		/* tp->srtt_us >> 3, 0 before any sample */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u32 prior_cwnd;		/* tp->prior_cwnd, packets */
	u64 now_us;
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
}

/* nscc_cfg() of the glue: the snapshot and this flow's base RTT now */
static void nscc_cfg(const struct sock_model *ca, struct nscc_cfg *c)
{
	nscc_resolve(&ca->p, ca->min_rtt_us, ca->mss, ca->ecn, ca->mnscc, c);
}

/* ---- the checks -------------------------------------------------------- */

static void check_cfg(const struct sock_model *ca, const struct nscc_cfg *c)
{
	FUZZ_ASSERT(c->min_cwnd <= c->init_cwnd && c->init_cwnd <= c->maxwnd,
		    "min %u init %u max %u", c->min_cwnd, c->init_cwnd, c->maxwnd);
	FUZZ_ASSERT(c->min_cwnd == 2 * ca->mss, "min_cwnd %u, MSS %u",
		    c->min_cwnd, ca->mss);
	FUZZ_ASSERT(c->target_us >= 1 && c->ewma_q16 >= 1 && c->base_us >= 1 &&
		    c->nrtt_us >= 1, "target %u ewma %u base %u nrtt %u",
		    c->target_us, c->ewma_q16, c->base_us, c->nrtt_us);
	FUZZ_ASSERT(c->hmax <= NSCC_MED_HMAX && (!!c->hmax == ca->mnscc),
		    "hmax %u", c->hmax);
	FUZZ_ASSERT(c->qa_gate <= 16 && c->gamma_q16 <= 65536 &&
		    c->floor_q16 < 65536, "qa_gate %u gamma %u floor %u",
		    c->qa_gate, c->gamma_q16, c->floor_q16);
}

/* nscc_apply(): the pacing rate; the glue divides by srtt (or base RTT) */
static void check_apply(const struct sock_model *ca, const struct nscc_cfg *c)
{
	u32 srtt = ca->srtt_us ? ca->srtt_us : c->base_us;
	u64 rate = dcc_mul_div((u64)ca->st.cwnd * ca->p.pacing_gain_pct,
			       DCC_USEC_PER_SEC, (u64)max_t(u32, srtt, 1) * 100);
	fz_u128 want = (fz_u128)ca->st.cwnd * ca->p.pacing_gain_pct *
		       DCC_USEC_PER_SEC / ((u64)max_t(u32, srtt, 1) * 100);

	FUZZ_ASSERT(rate == (u64)want && want <= U64_MAX, "pacing %llu",
		    (unsigned long long)rate);
}

static void check_state(const struct sock_model *ca, const struct nscc_cfg *c)
{
	const struct nscc_state *s = &ca->st;

	FUZZ_ASSERT(s->avg_q8 <= (1U << 28), "avg_q8 %u above 2^28", s->avg_q8);
	FUZZ_ASSERT(s->quadrant <= NSCC_Q_LOSS, "quadrant %u", s->quadrant);
	FUZZ_ASSERT(s->med.w.n <= c->hmax, "median window holds %u (H max %u)",
		    s->med.w.n, c->hmax);
	FUZZ_ASSERT(s->flags & NSCC_S_INITED, "flags %#x", s->flags);
	check_apply(ca, c);
}

static void check_ack(const struct sock_model *ca, const struct nscc_cfg *c,
		      const struct nscc_ack *a, const struct nscc_out *o)
{
	const struct nscc_state *s = &ca->st;
	u32 raw = a->rtt_valid && a->rtt_us > c->base_us ?
		  a->rtt_us - c->base_us : 0;

	FUZZ_ASSERT(s->cwnd >= c->min_cwnd && s->cwnd <= c->maxwnd,
		    "cwnd %u outside [%u, %u]", s->cwnd, c->min_cwnd, c->maxwnd);
	FUZZ_ASSERT(o->raw_us == raw, "raw %u want %u", o->raw_us, raw);
	FUZZ_ASSERT(o->quadrant == s->quadrant, "quadrant %u, state %u",
		    o->quadrant, s->quadrant);
	FUZZ_ASSERT(!a->ce || o->mark, "CE echo not a mark");
	FUZZ_ASSERT(!o->md || o->quadrant == NSCC_Q_MD, "MD in quadrant %u",
		    o->quadrant);
	FUZZ_ASSERT(!o->qa || o->quadrant == NSCC_Q_QA, "QA in quadrant %u",
		    o->quadrant);
	if (c->hmax && s->med.w.n) {
		u32 lo = dcc_medwin_percentile(&s->med.w, s->med.buf, 0);
		u32 hi = dcc_medwin_percentile(&s->med.w, s->med.buf, 100);

		FUZZ_ASSERT(o->delay_us >= lo && o->delay_us <= hi,
			    "median %u outside [%u, %u]", o->delay_us, lo, hi);
	}
	if (!c->hmax && a->rtt_valid)
		FUZZ_ASSERT(o->delay_us == raw, "delay %u, raw %u", o->delay_us,
			    raw);
	check_state(ca, c);
}

/* ---- events ------------------------------------------------------------ */

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = fz_rtt_us(in), pkts, losses = 0;
	struct nscc_cfg c;
	struct nscc_ack a;
	struct nscc_out o;
	bool valid = !(f & 1);

	ca->now_us += f & 2 ? fz_span(in, 0, 5000000) : fz_raw(in, 1);
	pkts = f & 4 ? (u32)fz_span(in, 0, 1U << 16) : 1;
	if (f & 8)
		losses = (u32)fz_span(in, 1, 1U << 16);
	if (valid) {	/* the kernel's RTT estimators see the sample first */
		ca->srtt_us = ca->srtt_us ? (7 * ca->srtt_us + rtt) / 8 : rtt;
		if (!ca->min_rtt_us || rtt < ca->min_rtt_us)
			ca->min_rtt_us = rtt;
	}
	nscc_cfg(ca, &c);
	check_cfg(ca, &c);
	a = (struct nscc_ack){
		.now_us = (u32)ca->now_us,
		.acked_bytes = (u32)min_t(u64, (u64)pkts * ca->mss, U32_MAX),
		.rtt_us = rtt,
		.rtt_valid = valid,
		.ce = f & 16,
		.inflight_bytes = f & 32 ? (u32)fz_raw(in, 4) :
				  (u32)min_t(u64, 10ULL * ca->mss, U32_MAX),
		.lost_bytes = (u32)min_t(u64, (u64)losses * ca->mss, U32_MAX),
		.lost_pkts = losses,
		.cwnd_limited = f & 64,
	};
	nscc_on_ack(&ca->st, &c, &a, &o);
	check_ack(ca, &c, &a, &o);
}

/* ssthresh: tp->prior_cwnd = snd_cwnd, which dcc_apply() rounded up */
static void save_prior(struct sock_model *ca)
{
	ca->prior_cwnd = (ca->st.cwnd + ca->mss - 1) / ca->mss;
}

static void on_rto(struct sock_model *ca)
{
	struct nscc_cfg c;
	u32 prev = ca->st.cwnd;

	save_prior(ca);
	nscc_cfg(ca, &c);
	nscc_on_rto(&ca->st, &c, ca->mss);
	FUZZ_ASSERT(ca->st.cwnd >= c.min_cwnd && ca->st.cwnd <= max(prev, c.min_cwnd),
		    "RTO: cwnd %u -> %u (min %u)", prev, ca->st.cwnd, c.min_cwnd);
	check_state(ca, &c);
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
	struct nscc_cfg c;

	memset(&ca, 0, sizeof(ca));
	read_params(&in, &ca.p);
	ca.mnscc = fz_bool(&in);
	ca.ecn = fz_bool(&in);
	ca.mss = fz_mss(&in);
	ca.now_us = fz_raw(&in, 4);	/* the 32-bit clock may wrap */
	ca.min_rtt_us = fz_bool(&in) ? 0 : fz_rtt_us(&in);	/* handshake */
	ca.srtt_us = ca.min_rtt_us;
	nscc_cfg(&ca, &c);
	check_cfg(&ca, &c);
	nscc_state_init(&ca.st, &c, (u32)ca.now_us);
	ca.prior_cwnd = (ca.st.cwnd + ca.mss - 1) / ca.mss;
	check_state(&ca, &c);

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
			nscc_on_idle_restart(&ca.st, (u32)ca.now_us);
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
