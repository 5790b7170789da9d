// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of OSCAR's control law (modules/oscar/oscar_law.c) as
 * tcp_oscar.c drives it: the BLS estimator closes a batch, the law takes
 * one step, and the glue applies r = u * mu and w = min(u D_target mu,
 * BDP_base) on every ACK.
 *
 * The input decodes into one socket's parameter snapshot, each parameter
 * inside its dcc_param_range() (mu set or estimated, RTT_base set or
 * following the flow's minimum RTT), and a stream of events: ACKs with
 * RTTs of 1 us .. 1 s, any packet count, inflight and app-limited flag,
 * idle gaps, reordered send times, RTOs and idle restarts (batch reset),
 * and expiry of the windowed minimum RTT (RTT_base may rise).  The glue's
 * cfg, tau and stale computations are mirrored below line for line.
 *
 * Checked after every event (abort on failure): u in [u_min, 1] (Q20);
 * a decision's u_w, u_r <= 2^21 (oscar.h); an app-limited batch never
 * lowers u; mu within 1 Mbit/s .. 800 Gbit/s; r = u mu exactly and <= mu;
 * the window is the exact min(u D_target mu, BDP_base); tau >= 2 us.
 * UBSan and ASan catch overflow, division by zero and stray accesses.
 */
#include <string.h>

#include "dcc/bls.h"
#include "dcc/oscar.h"
#include "fuzz.h"

#define MAX_EVENTS 20000	/* ACKs and other events per input */

/* The module parameters (tcp_oscar.c), decoded inside their ranges. */
struct oscar_params {
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
};

/* One socket: struct oscar of tcp_oscar.c, plus what the kernel holds. */
struct sock_model {
	struct dcc_bls bls;
	u32 u, base_us, mu_kbps;
	u32 u_ai, u_hai, u_min;
	u16 eps_us, dt_pct, hyst_us, app_lim;
	u8 min_samples, tau_pct;
	bool auto_mu, auto_base;
	u32 mss;
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 before any sample */
	u64 now_us;		/* tcp_mstamp */
};

static u32 mu_est_kbps;		/* the host-wide estimate (estimate mode) */
static u32 init_rate_mbps;

static void read_params(struct fz *in, struct oscar_params *p)
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
}

/* ---- the glue, mirrored from tcp_oscar.c ------------------------------- */

static u32 mu_seed_kbps(void)
{
	return max(mu_est_kbps, init_rate_mbps * 1000);
}

static void oscar_cfg(const struct sock_model *ca, struct oscar_law_cfg *c)
{
	u32 base = max_t(u32, ca->base_us, 1);

	c->mu_bytes_ps = (u64)ca->mu_kbps * 125;
	c->base_us = base;
	c->dt_us = (u32)div_u64((u64)base * ca->dt_pct, 100);
	c->eps_us = ca->eps_us ? ca->eps_us : max_t(u32, 2, base / 12);
	c->hyst_us = ca->hyst_us;
	c->u_ai = ca->u_ai;
	c->u_hai = ca->u_hai;
	c->u_min = ca->u_min;
}

static u32 oscar_stale_us(const struct sock_model *ca,
			  const struct oscar_law_cfg *c, u32 tau)
{
	u64 need = dcc_mul_div((u64)2 * ca->min_samples * ca->mss,
			       DCC_USEC_PER_SEC,
			       max_t(u64, oscar_rate(c, ca->u), 1));

	return (u32)min_t(u64, max_t(u64, 4ULL * tau, need), U32_MAX);
}

static u32 oscar_tau_us(const struct sock_model *ca)
{
	return max_t(u32, 2, (u32)div_u64((u64)ca->base_us * ca->tau_pct, 100));
}

static void mu_observe(struct sock_model *ca, u64 rate_bytes_ps)
{
	u64 kbps = div_u64(rate_bytes_ps, 125) * 5 / 4;

	if (!ca->auto_mu)
		return;
	kbps = min_t(u64, kbps, 800000000ULL);
	if (kbps > mu_est_kbps)
		mu_est_kbps = (u32)kbps;
	ca->mu_kbps = max(ca->mu_kbps, mu_seed_kbps());
}

static void sock_init(struct sock_model *ca, const struct oscar_params *p,
		      u32 mss)
{
	memset(ca, 0, sizeof(*ca));
	ca->u = OSCAR_U_ONE;
	ca->u_ai = OSCAR_PPM_TO_U(p->u_ai_ppm);
	ca->u_hai = OSCAR_PPM_TO_U(p->u_hai_ppm);
	ca->u_min = max_t(u32, 1, OSCAR_PPM_TO_U(p->u_min_ppm));
	ca->eps_us = (u16)p->eps_us;
	ca->min_samples = (u8)p->min_samples;
	ca->dt_pct = (u16)p->dtarget_pct;
	ca->hyst_us = (u16)p->hyst_us;
	ca->tau_pct = (u8)p->tau_pct;
	ca->auto_mu = !p->line_rate_mbps;
	ca->auto_base = !p->base_rtt_us;
	ca->mu_kbps = p->line_rate_mbps ? p->line_rate_mbps * 1000 :
		      mu_seed_kbps();
	ca->base_us = p->base_rtt_us ? p->base_rtt_us : 1000;
	ca->mss = mss;
	ca->now_us = 1000000;
}

static void update_base(struct sock_model *ca)
{
	if (ca->auto_base && ca->min_rtt_us)
		ca->base_us = ca->min_rtt_us;
}

/* ---- the checks -------------------------------------------------------- */

static void check_apply(const struct sock_model *ca)
{
	struct oscar_law_cfg c;
	fz_u128 bdp, w;
	u64 rate, cwnd;

	oscar_cfg(ca, &c);
	FUZZ_ASSERT(c.mu_bytes_ps >= DCC_MBPS_TO_BPS && c.mu_bytes_ps <= DCC_RATE_MAX_BPS,
		    "mu %llu B/s", (unsigned long long)c.mu_bytes_ps);
	FUZZ_ASSERT(ca->u >= ca->u_min && ca->u <= OSCAR_U_ONE,
		    "u %u outside [%u, %u]", ca->u, ca->u_min, OSCAR_U_ONE);
	rate = oscar_rate(&c, ca->u);
	FUZZ_ASSERT(rate <= c.mu_bytes_ps, "rate %llu > mu %llu",
		    (unsigned long long)rate, (unsigned long long)c.mu_bytes_ps);
	FUZZ_ASSERT(rate == (u64)(((fz_u128)c.mu_bytes_ps * ca->u) >> OSCAR_U_SHIFT),
		    "rate %llu is not u mu", (unsigned long long)rate);
	cwnd = oscar_cwnd_bytes(&c, ca->u);
	bdp = (fz_u128)c.mu_bytes_ps * c.base_us / DCC_USEC_PER_SEC;
	w = (fz_u128)rate * c.dt_us / DCC_USEC_PER_SEC;
	FUZZ_ASSERT(cwnd == (u64)(w < bdp ? w : bdp),
		    "cwnd %llu, want min(%llu, %llu)", (unsigned long long)cwnd,
		    (unsigned long long)w, (unsigned long long)bdp);
}

static void check_decision(const struct oscar_decision *d, u32 old,
			   bool app_limited)
{
	FUZZ_ASSERT(d->u_w <= 2 * OSCAR_U_ONE && d->u_r <= 2 * OSCAR_U_ONE,
		    "u_w %u u_r %u above 2^21", d->u_w, d->u_r);
	FUZZ_ASSERT(d->branch <= OSCAR_DECEL, "branch %u", d->branch);
	FUZZ_ASSERT(!app_limited || d->u >= old,
		    "app-limited batch lowered u %u -> %u", old, d->u);
	FUZZ_ASSERT(!d->held || d->u == old, "held, but u %u -> %u", old, d->u);
}

/* ---- events ------------------------------------------------------------ */

static void on_batch(struct sock_model *ca, const struct dcc_bls_out *b)
{
	struct oscar_law_cfg c;
	struct oscar_decision d;
	bool app_limited = ca->app_lim * 2 > b->samples;
	u32 old = ca->u;

	if (b->rate_bytes_ps && !app_limited)
		mu_observe(ca, b->rate_bytes_ps);
	oscar_cfg(ca, &c);
	oscar_law_step(&c, b, ca->u, app_limited, &d);
	check_decision(&d, old, app_limited);
	ca->u = d.u;
	ca->app_lim = 0;
}

static void on_ack(struct sock_model *ca, struct fz *in)
{
	u8 f = (u8)fz_raw(in, 1);
	u32 rtt = fz_rtt_us(in);
	u64 tx;
	struct oscar_law_cfg c;
	struct dcc_bls_cfg cfg;
	struct dcc_bls_sample bs;
	struct dcc_bls_out out;
	u32 tau;

	ca->now_us += f & 1 ? fz_span(in, 0, 2000000) : fz_raw(in, 1);
	tx = ca->now_us - rtt;
	if (f & 2)		/* reordered: sent before earlier samples */
		tx -= fz_span(in, 0, 4000000);
	if (!ca->min_rtt_us || rtt < ca->min_rtt_us)
		ca->min_rtt_us = rtt;
	if (f & 4)		/* not a valid sample (or the first window) */
		return;

	update_base(ca);
	oscar_cfg(ca, &c);
	tau = oscar_tau_us(ca);
	FUZZ_ASSERT(tau >= 2, "tau %u", tau);
	cfg = (struct dcc_bls_cfg){
		.tau = tau,
		.stale = oscar_stale_us(ca, &c, tau),
		.units_per_sec = DCC_USEC_PER_SEC,
		.min_samples = ca->min_samples,
		.bytes_per_pkt = ca->mss,
		.shift = dcc_bls_shift_for(tau),
	};
	bs = (struct dcc_bls_sample){
		.send_ts = tx,
		.delay = rtt,
		.pkts = f & 8 ? (u32)fz_span(in, 1, 1U << 20) : 1,
		.infl = f & 16 ? (u32)fz_span(in, 0, 1U << 26) : 10,
	};
	if ((f & 32) && ca->app_lim < 0xffff)
		ca->app_lim++;
	if (dcc_bls_add(&ca->bls, &cfg, &bs, &out))
		on_batch(ca, &out);
}

static void reset_batch(struct sock_model *ca)
{
	dcc_bls_reset(&ca->bls);
	ca->app_lim = 0;
}

/* one ACK of a replayed run (fz_replay) */
static void replay_step(void *ctx, struct fz *in)
{
	on_ack(ctx, in);
	check_apply(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct oscar_params p;
	struct sock_model ca;
	u32 mss;

	mu_est_kbps = fz_bool(&in) ? 0 : (u32)fz_span(&in, 0, 800000000);
	read_params(&in, &p);
	init_rate_mbps = p.init_rate_mbps;
	mss = fz_mss(&in);
	sock_init(&ca, &p, mss);
	check_apply(&ca);

	for (int i = 0; in.n && i < MAX_EVENTS; i++) {
		u8 op = (u8)fz_raw(&in, 1);

		switch (op % 16) {
		case 13:	/* RTO (set_state Loss) or restart after idle */
			reset_batch(&ca);
			break;
		case 14:	/* the windowed min RTT expired: it may rise */
			ca.min_rtt_us = fz_rtt_us(&in);
			break;
		case 15:	/* a burst of ACKs at one RTT */
			i += fz_replay(&in, replay_step, &ca);
			break;
		default:
			on_ack(&ca, &in);
			break;
		}
		check_apply(&ca);
	}
	return 0;
}
