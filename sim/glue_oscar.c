// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_oscar's glue (modules/oscar/tcp_oscar.c) on a simulated socket
 * (dcc_sim.h): the same module parameters and defaults, the same hooks,
 * around the same core (modules/oscar/oscar_law.c).  tcp_oscar.c explains
 * each step; what differs is only what the simulator lacks: no parameter
 * snapshots (a run's parameters do not change under it), no tracepoint,
 * no idle-restart test (ns-3 raises no CA_EVENT_TX_START).
 */
#include "dcc_sim.h"
#include "dcc/oscar.h"

/* the module parameters, with tcp_oscar's defaults */
static u32 line_rate_mbps;
static u32 base_rtt_us;
static u32 dtarget_pct;
static u32 tau_pct;
static u32 u_ai_ppm;
static u32 u_hai_ppm;
static u32 u_min_ppm;
static u32 eps_us;
static u32 hyst_us;
static u32 init_rate_mbps;
static u32 min_samples;
static u32 u_hmi_pct;
static u32 refill;
static u32 start_u_ppm;
static u32 share_base_rtt;
static u32 shared_target;

static struct dcc_sim_param oscar_sim_params[] = {
	{ "line_rate_mbps", &line_rate_mbps, 0, 0, 800000 },
	{ "base_rtt_us", &base_rtt_us, 0, 0, 1000000 },
	{ "dtarget_pct", &dtarget_pct, 150, 101, 1000 },
	{ "tau_pct", &tau_pct, 50, 10, 200 },
	{ "u_ai_ppm", &u_ai_ppm, 1000, 0, 100000 },
	{ "u_hai_ppm", &u_hai_ppm, 10000, 0, 1000000 },
	{ "u_min_ppm", &u_min_ppm, 1000, 1, 1000000 },
	{ "eps_us", &eps_us, 0, 0, 65535 },
	{ "hyst_us", &hyst_us, 0, 0, 65535 },
	{ "min_samples", &min_samples, OSCAR_MIN_SAMPLES_DEFAULT, 3, 255 },
	{ "start_u_ppm", &start_u_ppm, 1000000, 1, 1000000 },
	{ "u_hmi_pct", &u_hmi_pct, 0, 0, 1000 },
	{ "refill", &refill, 1, 0, 2 },
	{ "init_rate_mbps", &init_rate_mbps, 100, 1, 800000 },
	{ "share_base_rtt", &share_base_rtt, 1, 0, 1 },
	{ "shared_target", &shared_target, 1, 0, 1 },
	{ NULL }
};

struct oscar_sim {
	struct oscar_core st;
	struct oscar_cfg c;
	struct oscar_params p;	/* the socket's snapshot */
	u32 line_rate_mbps, base_rtt_us;
};

/* oscar_snap_fill() */
static void oscar_sim_snap(struct oscar_sim *ca)
{
	ca->p = (struct oscar_params){
		.u_ai = OSCAR_PPM_TO_U(u_ai_ppm),
		.u_hai = OSCAR_PPM_TO_U(u_hai_ppm),
		.u_min = OSCAR_PPM_TO_U(u_min_ppm) ? OSCAR_PPM_TO_U(u_min_ppm) : 1,
		.eps_ns = (u32)dcc_us_to_ns(eps_us),
		.hyst_ns = (u32)dcc_us_to_ns(hyst_us),
		.dt_pct = dtarget_pct,
		.tau_pct = tau_pct,
		.min_samples = min_samples,
		.hmi_pct = u_hmi_pct,
		.refill = refill,
		.start_u = OSCAR_PPM_TO_U(start_u_ppm),
	};
	ca->line_rate_mbps = line_rate_mbps;
	ca->base_rtt_us = base_rtt_us;
}

static u64 oscar_sim_mu_shared(struct dcc_sim_sock *sk, u64 rate)
{
	return dcc_sim_shared_line_rate(sk, rate,
					(u64)init_rate_mbps * DCC_MBPS_TO_BPS);
}

static u32 oscar_sim_ref_us(struct dcc_sim_sock *sk, u32 base_us)
{
	return shared_target ? dcc_sim_shared_ref_rtt_us(sk, base_us) : base_us;
}

/* oscar_refresh_inputs() */
static bool oscar_sim_refresh(struct dcc_sim_sock *sk, struct oscar_sim *ca,
			      const struct oscar_batch *b)
{
	u64 mu = ca->c.mu_bytes_ps, base_ns = ca->c.base_ns, ref_ns = ca->c.ref_ns;
	struct oscar_cfg nc;

	if (!ca->line_rate_mbps && b->bls.rate_bytes_ps && !b->app_limited) {
		u64 r = b->bls.rate_bytes_ps < DCC_RATE_MAX_BPS ?
			b->bls.rate_bytes_ps : DCC_RATE_MAX_BPS;
		u64 m = oscar_sim_mu_shared(sk, r * 5 / 4);

		mu = m > mu ? m : mu;
	}
	if (!ca->base_rtt_us) {
		u32 us = dcc_sim_auto_base_rtt_us(sk, share_base_rtt);

		if (us) {
			base_ns = dcc_us_to_ns(us);
			ref_ns = dcc_us_to_ns(oscar_sim_ref_us(sk, us));
		}
	}
	oscar_cfg_resolve(&nc, &ca->p, mu, base_ns, ref_ns);
	if (nc.mu_bytes_ps == ca->c.mu_bytes_ps && nc.base_ns == ca->c.base_ns &&
	    nc.ref_ns == ca->c.ref_ns)
		return false;
	ca->c.mu_bytes_ps = nc.mu_bytes_ps;
	ca->c.base_ns = nc.base_ns;
	ca->c.ref_ns = nc.ref_ns;
	return true;
}

static void oscar_sim_init(struct dcc_sim_sock *sk)
{
	struct oscar_sim *ca = sk->ca;
	struct dcc_decision d;
	u32 base_us, ref_us = 0;
	u64 mu;

	oscar_sim_snap(ca);
	mu = ca->line_rate_mbps ? (u64)ca->line_rate_mbps * DCC_MBPS_TO_BPS :
				  oscar_sim_mu_shared(sk, 0);
	base_us = ca->base_rtt_us;
	if (!base_us) {
		base_us = dcc_sim_auto_base_rtt_us(sk, share_base_rtt);
		ref_us = oscar_sim_ref_us(sk, base_us);
	}
	if (!base_us)
		base_us = 1000;
	oscar_core_init(&ca->st, &ca->p);
	oscar_cfg_resolve(&ca->c, &ca->p, mu, dcc_us_to_ns(base_us),
			  dcc_us_to_ns(ref_us));
	sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;	/* no slow start */
	oscar_decide(&ca->st, &ca->c, &d);
	dcc_sim_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
}

static void oscar_sim_apply_decided(struct dcc_sim_sock *sk, struct oscar_sim *ca)
{
	struct dcc_decision d;

	oscar_decide(&ca->st, &ca->c, &d);
	dcc_sim_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
}

/* oscar_cong_control(), oscar_ack_bounded() and oscar_ack_slow() in one */
static void oscar_sim_cong_control(struct dcc_sim_sock *sk,
				   const struct dcc_sample *s)
{
	struct oscar_sim *ca = sk->ca;
	struct dcc_decision d = { 0 };
	struct oscar_batch b;
	bool hold = dcc_sim_loss_ack(sk, s->acked);

	if (oscar_on_ack_fast(&ca->st, s)) {
		if (hold)
			oscar_sim_apply_decided(sk, ca);
		return;
	}
	oscar_on_ack_slow(&ca->st, &ca->c, s, &d, &b);
	if (!d.changed) {
		if (hold)
			oscar_sim_apply_decided(sk, ca);
		return;
	}
	if (oscar_sim_refresh(sk, ca, &b))
		oscar_on_refresh(&ca->st, &ca->c, s->mss, &d);
	dcc_sim_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
}

static u32 oscar_sim_ssthresh(struct dcc_sim_sock *sk)
{
	return dcc_sim_loss_ssthresh(sk);
}

static void oscar_sim_set_state(struct dcc_sim_sock *sk, u8 new_state)
{
	struct oscar_sim *ca = sk->ca;

	if (new_state == DCC_SIM_CA_LOSS)
		oscar_on_rto(&ca->st);
}

const struct dcc_sim_alg dcc_sim_oscar = {
	.name = "oscar",
	.priv_size = sizeof(struct oscar_sim),
	.params = oscar_sim_params,
	.init = oscar_sim_init,
	.cong_control = oscar_sim_cong_control,
	.ssthresh = oscar_sim_ssthresh,
	.set_state = oscar_sim_set_state,
};
