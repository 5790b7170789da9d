// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of OSCAR's per-ACK core (modules/oscar/oscar_law.c):
 * oscar_on_ack() on neutral samples in nanoseconds, its event entry points
 * (RTO, idle restart), and what tcp_oscar.c does when the core reports a
 * closed batch (refresh mu and RTT_base, oscar_cfg_resolve()).  Only that
 * refresh -- kernel lookups in the module -- is modelled here; the rest is
 * the core itself.
 *
 * The input decodes into one socket's parameter snapshot, each parameter
 * inside its module parameter range and converted as tcp_oscar.c's
 * oscar_snap_fill() does (mu set or estimated, RTT_base set or following
 * the flow's minimum RTT), and a stream of events: ACKs with RTTs of
 * 1 us .. 1 s in ns (sub-microsecond parts included), any packet count,
 * inflight, mss and app-limited flag, invalid and first-window samples,
 * idle gaps up to 2 s, reordered send times, RTOs and idle restarts, and
 * expiry of the windowed minimum RTT (RTT_base may rise).
 *
 * Checked after every event (abort on failure): u in [u_min, 1] (Q20);
 * a step's u_w, u_r <= 2^21 (oscar.h); an app-limited batch never lowers
 * u; a batch's mean delay is no more than the largest RTT fed; mu within
 * 1 Mbit/s .. 800 Gbit/s, RTT_base within 1 ns .. 1 s, tau >= 2 ns; the
 * open batch's staleness limit is >= 4 tau (unless saturated) and fits
 * the BLS x range at its shift (>= 2); r = u mu exactly and <= mu; the
 * window is the exact min(u D_target mu, mu (RTT_base + eps)) in 128-bit math;
 * the decision in force (the last that changed) is the one for the current
 * u and config; the inline path changes nothing a reference fed only
 * through oscar_on_ack_slow() would not (ref_on_ack(): the same state
 * after every event, the same batches and decisions).
 * UBSan and ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/bls.h"
#include "dcc/oscar.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

/* The module parameters (tcp_oscar.c), decoded inside their ranges. */
struct oscar_params_in {
	u32 line_rate_mbps;	/* 0..800000, 0 = estimate */
	u32 base_rtt_us;	/* 0..1e6, 0 = tcp_min_rtt() */
	u32 dtarget_pct;	/* 101..1000 */
	u32 tau_pct;		/* 10..200 */
	u32 u_ai_ppm;		/* 0..100000 */
	u32 u_hai_ppm;		/* 0..1e6 */
	u32 u_min_ppm;		/* 1..1e6 */
	u32 eps_us;		/* 0..65535 */
	u32 hyst_us;		/* 0..65535 */
	u32 init_rate_mbps;	/* 1..800000 */
	u32 min_samples;	/* 3..255 */
	u32 u_hmi_pct;		/* 0..1000 */
	u32 refill;		/* 0..2 */
	u32 start_u_ppm;	/* 1..1e6 */
};

/* One socket: struct oscar of tcp_oscar.c, plus what the kernel holds. */
struct sock_model {
	struct oscar_core st;
	struct oscar_core ref;	/* the same socket, no inline path (ref_on_ack()) */
	struct oscar_cfg c;
	struct dcc_decision d;	/* the last decision (applied) */
	const struct oscar_params *p;
	bool auto_mu, auto_base;
	u32 mss;
	u64 min_rtt_ns;		/* tcp_min_rtt() (us in the kernel), 0 = none */
	u64 now_ns;		/* the stack's clock */
	u32 max_rtt_ns;		/* largest RTT fed so far */
};

static u64 mu_est_bps;		/* the host-wide estimate (estimate mode) */
static u64 init_rate_bps;
static u64 ref_min_ns;		/* the host-wide RTT_ref entry, 0 = empty */

static void read_params(struct fz *in, struct oscar_params_in *p)
{
	p->line_rate_mbps = fz_bool(in) ? 0 :
			    (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->base_rtt_us = fz_bool(in) ? 0 : fz_rtt_us(in);
	p->dtarget_pct = (u32)fz_span(in, 101, 1000);
	p->tau_pct = (u32)fz_span(in, 10, 200);
	p->u_ai_ppm = (u32)fz_span(in, 0, 100000);
	p->u_hai_ppm = (u32)fz_span(in, 0, 1000000);
	p->u_min_ppm = (u32)fz_span(in, 1, 1000000);
	p->eps_us = (u32)fz_span(in, 0, 65535);
	p->hyst_us = (u32)fz_span(in, 0, 65535);
	p->init_rate_mbps = (u32)fz_span(in, FZ_MBPS_MIN, FZ_MBPS_MAX);
	p->min_samples = (u32)fz_span(in, 3, 255);
	p->u_hmi_pct = (u32)fz_span(in, 0, 1000);
	p->refill = (u32)fz_span(in, 0, 2);
	p->start_u_ppm = (u32)fz_span(in, 1, 1000000);
}

/* ---- the glue's side, as tcp_oscar.c ---------------------------------- */

/* oscar_snap_fill(): the parameters in the core's units */
static void snap_fill(const struct oscar_params_in *in, struct oscar_params *p)
{
	*p = (struct oscar_params){
		.u_ai = OSCAR_PPM_TO_U(in->u_ai_ppm),
		.u_hai = OSCAR_PPM_TO_U(in->u_hai_ppm),
		.u_min = max_t(u32, 1, OSCAR_PPM_TO_U(in->u_min_ppm)),
		.eps_ns = (u32)dcc_us_to_ns(in->eps_us),
		.hyst_ns = (u32)dcc_us_to_ns(in->hyst_us),
		.dt_pct = (u16)in->dtarget_pct,
		.tau_pct = (u8)in->tau_pct,
		.min_samples = (u8)in->min_samples,
		.hmi_pct = (u16)in->u_hmi_pct,
		.refill = in->refill,
		.start_u = OSCAR_PPM_TO_U(in->start_u_ppm),
	};
}

/* dcc_shared_line_rate(): the highest rate reported, >= the floor */
static u64 mu_shared(u64 rate_bytes_ps)
{
	rate_bytes_ps = min_t(u64, rate_bytes_ps, DCC_RATE_MAX_BPS);
	if (rate_bytes_ps > mu_est_bps)
		mu_est_bps = rate_bytes_ps;
	return max(mu_est_bps, init_rate_bps);
}

/* oscar_ref_us() (shared_target): the lowest base any socket folded in */
static u64 ref_shared(u64 base_ns)
{
	if (!ref_min_ns || base_ns < ref_min_ns)
		ref_min_ns = base_ns;
	return ref_min_ns;
}

/* oscar_refresh_inputs(): once per closed batch */
static void refresh_inputs(struct sock_model *ca, const struct oscar_batch *b)
{
	u64 mu = ca->c.mu_bytes_ps, base = ca->c.base_ns, ref = ca->c.ref_ns;

	if (ca->auto_mu && b->bls.rate_bytes_ps && !b->app_limited) {
		u64 r = min_t(u64, b->bls.rate_bytes_ps, DCC_RATE_MAX_BPS);

		FUZZ_ASSERT(r * 5 / 4 >= r, "mu fold overflows");
		mu = max(mu, mu_shared(r * 5 / 4));
	}
	if (ca->auto_base && ca->min_rtt_ns) {
		base = ca->min_rtt_ns;
		ref = ref_shared(base);
	}
	if (mu != ca->c.mu_bytes_ps || base != ca->c.base_ns || ref != ca->c.ref_ns) {
		struct dcc_decision rd;

		oscar_cfg_resolve(&ca->c, ca->p, mu, base, ref);
		oscar_on_refresh(&ca->st, &ca->c, ca->mss, &ca->d);
		oscar_on_refresh(&ca->ref, &ca->c, ca->mss, &rd);
	}
}

static void sock_init(struct sock_model *ca, const struct oscar_params_in *in,
		      const struct oscar_params *p, u32 mss)
{
	u64 mu = in->line_rate_mbps ? in->line_rate_mbps * DCC_MBPS_TO_BPS :
		 mu_shared(0);

	memset(ca, 0, sizeof(*ca));
	ca->p = p;
	ca->auto_mu = !in->line_rate_mbps;
	ca->auto_base = !in->base_rtt_us;
	ca->mss = mss;
	ca->now_ns = 1000000000;
	oscar_core_init(&ca->st, p);
	oscar_core_init(&ca->ref, p);
	oscar_cfg_resolve(&ca->c, p, mu,
			  dcc_us_to_ns(in->base_rtt_us ? in->base_rtt_us : 1000),
			  in->base_rtt_us ? 0 : ref_min_ns);
	oscar_decide(&ca->st, &ca->c, &ca->d);
}

/* ---- the checks -------------------------------------------------------- */

static void check_state(const struct sock_model *ca)
{
	const struct oscar_cfg *c = &ca->c;
	const struct oscar_core *st = &ca->st;
	fz_u128 bdp, w;
	u64 rate, cwnd, dt, eps;

	FUZZ_ASSERT(c->mu_bytes_ps >= DCC_MBPS_TO_BPS && c->mu_bytes_ps <= DCC_RATE_MAX_BPS,
		    "mu %llu B/s", (unsigned long long)c->mu_bytes_ps);
	FUZZ_ASSERT(c->base_ns >= 1 && c->base_ns <= OSCAR_BASE_MAX_NS,
		    "base %u ns", c->base_ns);
	FUZZ_ASSERT(c->ref_ns >= 1 && c->ref_ns <= c->base_ns &&
		    (u64)c->ref_ns * OSCAR_REF_SPAN >= c->base_ns,
		    "ref %u ns outside [base %u / span, base]", c->ref_ns, c->base_ns);
	FUZZ_ASSERT(oscar_tau_ns(c) >= 2, "tau %u ns", oscar_tau_ns(c));
	FUZZ_ASSERT(st->u >= ca->p->u_min && st->u <= OSCAR_U_ONE,
		    "u %u outside [%u, %u]", st->u, ca->p->u_min, OSCAR_U_ONE);
	if (st->flags & OSCAR_S_OPEN) {
		FUZZ_ASSERT(st->shift >= OSCAR_BLS_SHIFT_MIN, "shift %u", st->shift);
		FUZZ_ASSERT(st->stale_ns == U32_MAX ||
			    st->stale_ns >= 4ULL * oscar_tau_ns(c),
			    "stale %u < 4 tau %u", st->stale_ns, oscar_tau_ns(c));
		FUZZ_ASSERT((st->stale_ns >> st->shift) <= DCC_BLS_X_MAX,
			    "stale %u does not fit x at shift %u", st->stale_ns,
			    st->shift);
	}
	/* the decision applied is the one for this u and config */
	rate = oscar_rate(c, st->u);
	FUZZ_ASSERT(ca->d.rate_bytes_ps == rate, "decision rate %llu, u mu %llu",
		    (unsigned long long)ca->d.rate_bytes_ps, (unsigned long long)rate);
	FUZZ_ASSERT(rate <= c->mu_bytes_ps, "rate %llu > mu %llu",
		    (unsigned long long)rate, (unsigned long long)c->mu_bytes_ps);
	FUZZ_ASSERT(rate == (u64)(((fz_u128)c->mu_bytes_ps * st->u) >> OSCAR_U_SHIFT),
		    "rate %llu is not u mu", (unsigned long long)rate);
	cwnd = ca->d.cwnd_bytes;
	/* D_target: RTT_base + the target queue, scaled from RTT_ref */
	dt = c->base_ns + (u64)c->ref_ns * (c->p->dt_pct - 100) / 100;
	/* the cap: the BDP at RTT_base + eps (eps 0 = auto: RTT_ref / 12) */
	eps = c->p->eps_ns ? c->p->eps_ns :
	      (c->ref_ns / 12 > OSCAR_EPS_MIN_NS ? c->ref_ns / 12 : OSCAR_EPS_MIN_NS);
	/* a given eps: the target queue RTT_ref * (dt_pct - 100) % >= 2 eps */
	FUZZ_ASSERT(!c->p->eps_ns || c->ref_ns == c->base_ns ||
		    (u64)c->ref_ns * (c->p->dt_pct - 100) / 100 >= 2ULL * c->p->eps_ns,
		    "ref %u ns leaves a target queue under 2 eps %u", c->ref_ns, c->p->eps_ns);
	bdp = (fz_u128)c->mu_bytes_ps * ((u64)c->base_ns + eps) / DCC_NSEC_PER_SEC;
	w = (fz_u128)rate * dt / DCC_NSEC_PER_SEC;
	FUZZ_ASSERT(cwnd == (u64)(w < bdp ? w : bdp),
		    "cwnd %llu, want min(%llu, %llu = mu (RTT_base + eps))", (unsigned long long)cwnd,
		    (unsigned long long)w, (unsigned long long)bdp);
}

static void check_batch(const struct sock_model *ca, const struct oscar_batch *b,
			u32 old)
{
	const struct oscar_step *d = &b->step;

	FUZZ_ASSERT(d->u_w <= 2 * OSCAR_U_ONE && d->u_r <= 2 * OSCAR_U_ONE,
		    "u_w %u u_r %u above 2^21", d->u_w, d->u_r);
	FUZZ_ASSERT(d->branch <= OSCAR_REFILL, "branch %u", d->branch);
	FUZZ_ASSERT((d->branch != OSCAR_HAI && d->branch != OSCAR_REFILL) ||
		    d->u >= old, "an empty queue lowered u %u -> %u", old, d->u);
	FUZZ_ASSERT(!b->app_limited || d->u >= old,
		    "app-limited batch lowered u %u -> %u", old, d->u);
	FUZZ_ASSERT(!d->held || d->u == old, "held, but u %u -> %u", old, d->u);
	FUZZ_ASSERT(d->u == ca->st.u, "step u %u, state u %u", d->u, ca->st.u);
	FUZZ_ASSERT(b->bls.delay <= ca->max_rtt_ns,
		    "batch delay %llu ns above the largest RTT fed %u",
		    (unsigned long long)b->bls.delay, ca->max_rtt_ns);
}

/*
 * The start phase (a start below line rate): while in it, a batch below
 * D_target at least doubles u (up to 1); it ends at the first batch at or
 * above D_target or at u = 1, and never comes back.
 */
static void check_start(const struct sock_model *ca, const struct oscar_batch *b,
			u32 old, bool was_start)
{
	const struct oscar_step *d = &b->step;
	bool in = ca->st.flags & OSCAR_S_START;

	FUZZ_ASSERT(!in || was_start, "the start phase came back (u %u)", d->u);
	FUZZ_ASSERT(!in || (d->branch != OSCAR_DECEL && d->u < OSCAR_U_ONE),
		    "still in the start phase after branch %u, u %u", d->branch, d->u);
	FUZZ_ASSERT(!was_start || d->branch == OSCAR_DECEL ||
		    d->u >= (2 * old < OSCAR_U_ONE ? 2 * old : OSCAR_U_ONE),
		    "start phase, branch %u: u %u -> %u, not doubled", d->branch, old, d->u);
}

/*
 * The refill (parameter refill): only with the parameter, never in the
 * start phase, never started before OSCAR_QUEUED_MIN batches in a row saw
 * a queue, unless (refill 2) by an armed run of OSCAR_EMPTY_RUN empty batches (the
 * counter then at OSCAR_EMPTY_RUN - 1 before this one); a refill step
 * doubles the batch's rate (up to 1) and never lowers u; a batch that saw
 * a queue (ACCEL/DECEL) or u = 1 ends it.
 */
static void check_refill(const struct sock_model *ca, const struct oscar_batch *b,
			 u32 old, u8 flags_before)
{
	const struct oscar_step *d = &b->step;
	bool in = ca->st.flags & OSCAR_S_REFILL;
	bool was_in = flags_before & OSCAR_S_REFILL;
	u8 queued = (flags_before & OSCAR_S_QUEUED) >> OSCAR_S_QUEUED_SHIFT;
	u64 r2 = 2 * (u64)dcc_mul_div(min_t(u64, b->bls.rate_bytes_ps,
					    2 * ca->c.mu_bytes_ps),
				      OSCAR_U_ONE, ca->c.mu_bytes_ps);

	FUZZ_ASSERT(ca->p->refill || (!in && d->branch != OSCAR_REFILL),
		    "refill without the parameter (branch %u)", d->branch);
	FUZZ_ASSERT(!in || !(ca->st.flags & OSCAR_S_START),
		    "refill and start phase at once");
	FUZZ_ASSERT(!in || (d->branch != OSCAR_ACCEL && d->branch != OSCAR_DECEL &&
			    d->u < OSCAR_U_ONE),
		    "still in the refill after branch %u, u %u", d->branch, d->u);
	FUZZ_ASSERT(was_in || (!in && d->branch != OSCAR_REFILL) ||
		    (flags_before & OSCAR_S_EMPTYRUN ?
		     ca->p->refill >= 2 && queued + 1 >= OSCAR_EMPTY_RUN &&
		     !b->app_limited :
		     queued >= OSCAR_QUEUED_MIN),
		    "a refill started after %u batches with a queue (< %u) or %u empty (< %u)",
		    queued, OSCAR_QUEUED_MIN, queued, OSCAR_EMPTY_RUN);
	FUZZ_ASSERT(d->branch != OSCAR_REFILL ||
		    d->u >= min_t(u64, max_t(u64, r2, old), OSCAR_U_ONE),
		    "refill: u %u -> %u, batch rate %llu not doubled", old, d->u,
		    (unsigned long long)b->bls.rate_bytes_ps);
}

/* ---- events ------------------------------------------------------------ */

/* An RTT in ns over 1 us .. 1 s, with a sub-microsecond part. */
static u32 fz_rtt_ns(struct fz *in)
{
	u64 ns = dcc_us_to_ns(fz_rtt_us(in)) + fz_raw(in, 1) * 4;

	return (u32)min_t(u64, ns, DCC_SAMPLE_RTT_MAX_NS);
}

/*
 * oscar_on_ack() without its inline part: every usable sample goes
 * through oscar_on_ack_slow(), every point through dcc_bls_add().  The
 * inline path (oscar_on_ack_fast(), dcc_bls_push()) must be invisible:
 * after every event the reference holds the very same state, and a batch
 * closes on the same ACK with the same figures and decision.
 */
static void ref_on_ack(struct sock_model *ca, const struct dcc_sample *s,
		       struct dcc_decision *d, struct oscar_batch *b)
{
	*d = (struct dcc_decision){ 0 };
	if (!oscar_sample_usable(s))
		return;
	oscar_count_app_limited(&ca->ref, s);
	oscar_on_ack_slow(&ca->ref, &ca->c, s, d, b);
}

static void check_ref(const struct sock_model *ca)
{
	FUZZ_ASSERT(!memcmp(&ca->st, &ca->ref, sizeof(ca->st)),
		    "the inline path diverged: u %u/%u, n %u/%u, app_lim %u/%u, flags %#x/%#x",
		    ca->st.u, ca->ref.u, ca->st.bls.n, ca->ref.bls.n,
		    ca->st.app_lim, ca->ref.app_lim, ca->st.flags, ca->ref.flags);
}

static void check_ref_batch(const struct sock_model *ca,
			    const struct dcc_decision *rd,
			    const struct oscar_batch *b, const struct oscar_batch *rb)
{
	const struct dcc_bls_out *o = &b->bls, *r = &rb->bls;

	FUZZ_ASSERT(rd->changed == ca->d.changed && rd->flags == ca->d.flags,
		    "changed %d/%d flags %#x/%#x (reference second)", ca->d.changed,
		    rd->changed, ca->d.flags, rd->flags);
	if (!rd->changed)
		return;
	FUZZ_ASSERT(rd->rate_bytes_ps == ca->d.rate_bytes_ps &&
		    rd->cwnd_bytes == ca->d.cwnd_bytes, "decision differs");
	FUZZ_ASSERT(o->delay == r->delay && o->infl_bytes == r->infl_bytes &&
		    o->rate_bytes_ps == r->rate_bytes_ps && o->span == r->span &&
		    o->grad_q16 == r->grad_q16 && o->samples == r->samples &&
		    o->pkts == r->pkts && o->grad_valid == r->grad_valid &&
		    o->stale == r->stale && b->app_limited == rb->app_limited &&
		    b->step.u == rb->step.u && b->step.branch == rb->step.branch,
		    "batch differs: delay %llu/%llu samples %u/%u",
		    (unsigned long long)o->delay, (unsigned long long)r->delay,
		    o->samples, r->samples);
}

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = fz_rtt_ns(in);
	struct dcc_sample s = { 0 };
	struct oscar_batch b, rb;
	struct dcc_decision rd;
	u32 old = ca->st.u;
	bool was_start;
	u8 flags;

	/* idle gaps up to 2 s, or a few ns */
	ca->now_ns += f & 1 ? fz_span(in, 0, 2000000000) : fz_raw(in, 2);
	s.rx_ns = ca->now_ns;
	s.rtt_ns = rtt;
	s.tx_ns = s.rx_ns - rtt;
	if (f & 2)		/* reordered: sent before earlier samples */
		s.tx_ns -= fz_span(in, 0, 4000000000ULL);
	if (!ca->min_rtt_ns || rtt < ca->min_rtt_ns)
		ca->min_rtt_ns = rtt;
	s.acked = f & 8 ? (u32)fz_span(in, 1, 1U << 20) : 1;
	s.infl_pkts = f & 16 ? (u32)fz_span(in, 0, 1U << 26) : 10;
	s.mss = ca->mss;
	s.acked_bytes = s.acked * ca->mss;
	s.app_limited = f & 32;
	if (f & 4) {		/* not a valid sample, or the first window */
		if (f & 64)
			s.first_window = true;
		else
			s.why = DCC_SAMPLE_NO_RTT;
	}
	if (!s.why && !s.first_window && rtt > ca->max_rtt_ns)
		ca->max_rtt_ns = rtt;

	was_start = ca->st.flags & OSCAR_S_START;
	flags = ca->st.flags;
	oscar_on_ack(&ca->st, &ca->c, &s, &ca->d, &b);
	ref_on_ack(ca, &s, &rd, &rb);
	check_ref_batch(ca, &rd, &b, &rb);
	if (ca->d.flags & OSCAR_D_BATCH) {
		check_batch(ca, &b, old);
		check_start(ca, &b, old, was_start);
		check_refill(ca, &b, old, flags);
		refresh_inputs(ca, &b);
	} else {
		FUZZ_ASSERT(ca->st.u == old, "u %u -> %u without a batch", old,
			    ca->st.u);
	}
}

/* one ACK of a replayed run (fz_replay) */
static void replay_step(void *ctx, struct fz *in)
{
	on_ack(ctx, in);
	check_state(ctx);
	check_ref(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct oscar_params_in pin;
	struct oscar_params p;
	struct sock_model ca;
	u32 mss;

	mu_est_bps = fz_bool(&in) ? 0 :
		     fz_span(&in, 0, 800000000) * 125;	/* kbit/s -> B/s */
	read_params(&in, &pin);
	init_rate_bps = pin.init_rate_mbps * DCC_MBPS_TO_BPS;
	snap_fill(&pin, &p);
	mss = fz_mss(&in);
	/* another socket's RTT_ref entry, or none */
	ref_min_ns = fz_bool(&in) ? 0 : fz_span(&in, 1, OSCAR_BASE_MAX_NS);
	sock_init(&ca, &pin, &p, mss);
	check_state(&ca);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 12:	/* RTO (set_state Loss) */
			oscar_on_rto(&ca.st);
			oscar_on_rto(&ca.ref);
			break;
		case 13:	/* restart after idle */
			oscar_on_idle_restart(&ca.st);
			oscar_on_idle_restart(&ca.ref);
			break;
		case 14:	/* the windowed min RTT expired: it may rise */
			ca.min_rtt_ns = fz_rtt_ns(&in);
			break;
		case 15:	/* a burst of ACKs at one RTT */
			i += fz_replay(&in, replay_step, &ca);
			break;
		default:
			on_ack(&ca, &in);
			break;
		}
		check_state(&ca);
		check_ref(&ca);
	}
	return 0;
}
