// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_timely's glue (modules/timely/tcp_timely.c) on a simulated socket
 * (dcc_sim.h), for its three modules: "timely", "timely_p" and "sqcc".
 * The kernel compiles tcp_timely.c once per module (TIMELY_VARIANT); here
 * one file holds the three, each with its own module parameters and
 * defaults, and the hooks are shared: the variant is the config's kind
 * (cfg.kind, the in-band law), fixed at init.  The same core
 * (modules/timely/timely_law.c); tcp_timely.c explains each step.
 *
 * What differs is only what the simulator lacks or has otherwise:
 *  - no tracepoint (rate_update), no get_info;
 *  - no undo_cwnd (ns-3 has no undo): timely_on_undo() never runs, the
 *    rate saved by ssthresh is only the regain's target;
 *  - no idle-restart test (cwnd_event): ns-3 raises no CA_EVENT_TX_START,
 *    and dcc_tx_start_after_idle() reads stack state (app_limited,
 *    delivered_mstamp) the simulated socket does not have;
 *  - the sample is the adapter's: it flags no ACK as delayed, so every
 *    RTT goes into the window as a regular one (the kernel takes it with
 *    DCC_SAMPLE_KEEP_DELAYED, the delayed ones as a fallback only), and
 *    rx_ns is the simulator's exact clock (no RX-timestamp specifics);
 *  - t_low_us and t_high_us are range-checked as the module does, but the
 *    module's cross-check of the pair (T_low < T_high when both are set)
 *    is not in a parameter table: timely_cfg_resolve_nic() keeps
 *    T_low < T_high for a pair out of order, as for a reader that sees
 *    one half of a two-write change;
 *  - SQCC's per-destination flow count (n_source 2 and 3; sqcc_dst_flows
 *    and its read-only dst_flows parameter) is the host's dcc sockets,
 *    host->nflows: one destination per table in a simulation, taken by
 *    dcc_sim_sock_init() and given back by dcc_sim_sock_release(), which
 *    is why there is no release hook.  It counts every dcc socket of the
 *    host, so a run that mixes algorithms on one host over-counts (which
 *    only makes SQCC's delta smaller);
 *  - the base RTT is dcc_base_rtt_us(sk, 0)'s: the socket's min RTT, else
 *    its srtt (the simulated socket's srtt_us is plain us, not << 3);
 *  - the initial window is the socket's snd_cwnd at init, the kernel's
 *    TCP_INIT_CWND if the adapter set none yet.
 * The parameters are snapshotted per socket as in the module: the config
 * is resolved once, at init.
 */
#include "dcc_sim.h"
#include "dcc/timely.h"

/* ---- the module parameters, with each module's defaults ---------------- */

/*
 * tcp_timely.c's per-variant defaults: TIMELY_BETA_DEFAULT,
 * TIMELY_HAI_DEFAULT, TIMELY_EMPTY_HAI_DEFAULT
 */
#define TIMELY_SIM_BETA		800000	/* timely: 0.8 */
#define TIMELY_SIM_HAI		5
#define TIMELY_SIM_EMPTY_HAI	1
#define TIMELY_P_SIM_BETA	8000	/* timely_p and sqcc: 0.008 */
#define TIMELY_P_SIM_HAI	0
#define TIMELY_P_SIM_EMPTY_HAI	1

/*
 * The live values, one set per module, in struct timely_params: its
 * fields are the module parameters, under the same names
 * (tcp_timely.c's timely_params_get() copies each into its namesake).
 * What a variant does not have stays 0, as the kernel's snapshot leaves it;
 * the rest take the tables' defaults below (dcc_sim_params_reset()).
 */
static struct timely_params timely_vals, timely_p_vals, sqcc_vals;

/* the parameters all three modules have, in tcp_timely.c's order */
#define TIMELY_SIM_PARAMS(v, beta, hai, ehai)				\
	{ "t_low_us", &(v).t_low_us, 0, 0, 1000000 },			\
	{ "t_high_us", &(v).t_high_us, 0, 0, 1000000 },			\
	{ "alpha_ppm", &(v).alpha_ppm, 875000, 1, 1000000 },		\
	{ "beta_ppm", &(v).beta_ppm, (beta), 1, 1000000 },		\
	{ "delta_kbps", &(v).delta_kbps, 0, 0, 100000000 },		\
	{ "min_rtt_us", &(v).min_rtt_us, 0, 0, 1000000 },		\
	{ "base_rtt_us", &(v).base_rtt_us, 0, 0, 1000000 },		\
	{ "seg_bytes", &(v).seg_bytes, 65536, 1448, 4194304 },		\
	{ "update_clock", &(v).update_clock, TIMELY_CLOCK_AUTO, 0, 2 },	\
	{ "link_mbps", &(v).link_mbps, 0, 0, 800000 },			\
	{ "rate_min_kbps", &(v).rate_min_kbps, 0, 0, 100000000 },	\
	{ "hai_thresh", &(v).hai_thresh, (hai), 0, 255 },		\
	{ "loss_md_pct", &(v).loss_md_pct, 50, 0, 100 },		\
	{ "loss_regain", &(v).loss_regain, 1, 0, 1 },			\
	{ "empty_hai", &(v).empty_hai, (ehai), 0, 1 },			\
	{ "delay_mode", &(v).delay_mode, 0, 0, 1 },			\
	{ "init_rate_kbps", &(v).init_rate_kbps, 0, 0, 800000000 },	\
	{ "rtt_filter", &(v).rtt_filter, 0, 0, 1 }

static struct dcc_sim_param timely_sim_params[] = {
	TIMELY_SIM_PARAMS(timely_vals, TIMELY_SIM_BETA, TIMELY_SIM_HAI,
			  TIMELY_SIM_EMPTY_HAI),
	{ NULL }
};

static struct dcc_sim_param timely_p_sim_params[] = {
	TIMELY_SIM_PARAMS(timely_p_vals, TIMELY_P_SIM_BETA, TIMELY_P_SIM_HAI,
			  TIMELY_P_SIM_EMPTY_HAI),
	/* only patched TIMELY has RTT_ref (0 = T_low) */
	{ "rtt_ref_us", &timely_p_vals.rtt_ref_us, 0, 0, 1000000 },
	{ NULL }
};

static struct dcc_sim_param sqcc_sim_params[] = {
	TIMELY_SIM_PARAMS(sqcc_vals, TIMELY_P_SIM_BETA, TIMELY_P_SIM_HAI,
			  TIMELY_P_SIM_EMPTY_HAI),
	/* auto: estimate if link_mbps, else local */
	{ "n_source", &sqcc_vals.n_source, 0, 0, 3 },
	{ "n_flows", &sqcc_vals.n_flows, 0, 0, 65535 },
	{ "thigh_max_cut", &sqcc_vals.thigh_max_cut, 0, 0, 1 },
	{ NULL }
};

/* ---- per-socket state -------------------------------------------------- */

struct timely_sim {
	struct timely_state st;	/* rate, gradient, window, N median */
	struct timely_cfg cfg;	/* the parameter snapshot, resolved */
};

/* timely_min_rtt_ns(): dcc_base_rtt_us(sk, 0) in ns (0 = none yet) */
static u32 timely_sim_min_rtt_ns(const struct dcc_sim_sock *sk)
{
	u32 us = dcc_sim_base_rtt_us(sk);

	return (u32)dcc_us_to_ns(us);	/* <= 4.29 s */
}

/* timely_rate_max(): the socket's max pacing rate (0: none set) */
static u64 timely_sim_rate_max(const struct dcc_sim_sock *sk)
{
	u64 r = sk->max_pacing_rate ? sk->max_pacing_rate : DCC_RATE_MAX_BPS;

	return min_t(u64, r, DCC_RATE_MAX_BPS);
}

/* timely_n_local(): this host's SQCC flows (see the top comment) */
static u32 timely_sim_n_local(const struct dcc_sim_sock *sk,
			      const struct timely_sim *ca)
{
	if (ca->cfg.kind != TIMELY_LAW_SQCC)
		return 1;
	return max_t(u32, sk->host->nflows, 1);
}

static void timely_sim_apply(struct dcc_sim_sock *sk,
			     const struct dcc_decision *d)
{
	dcc_sim_apply_bounded(sk, d->rate_bytes_ps, d->cwnd_bytes);
}

/* the initial window in bytes: tcp_snd_cwnd() x mss_cache */
static u64 timely_sim_iw_bytes(const struct dcc_sim_sock *sk)
{
	u32 cwnd = sk->snd_cwnd ? sk->snd_cwnd : TIMELY_INIT_CWND;

	return (u64)cwnd * sk->mss;
}

/* TIMELY_FN(init), for the module of @kind whose parameters are @p */
static void timely_sim_init(struct dcc_sim_sock *sk, u8 kind,
			    const struct timely_params *p)
{
	struct timely_sim *ca = sk->ca;
	struct dcc_decision d;

	timely_cfg_resolve_nic(&ca->cfg, kind, p,
			       dcc_sim_egress_speed_mbps(sk));
	timely_on_init(&ca->st, &ca->cfg, timely_params_init_rate(p),
		       sk->now_ns, timely_sim_min_rtt_ns(sk),
		       timely_sim_iw_bytes(sk), sk->mss,
		       timely_sim_rate_max(sk), &d);

	sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;	/* no slow start */
	timely_sim_apply(sk, &d);
}

static void timely_sim_init_timely(struct dcc_sim_sock *sk)
{
	timely_sim_init(sk, TIMELY_LAW_GRADIENT, &timely_vals);
}

static void timely_sim_init_timely_p(struct dcc_sim_sock *sk)
{
	timely_sim_init(sk, TIMELY_LAW_PATCHED, &timely_p_vals);
}

static void timely_sim_init_sqcc(struct dcc_sim_sock *sk)
{
	timely_sim_init(sk, TIMELY_LAW_SQCC, &sqcc_vals);
}

/* timely_change(): a decision is due on this ACK */
static void timely_sim_change(struct dcc_sim_sock *sk, struct timely_sim *ca,
			      const struct dcc_sample *s)
{
	struct timely_update u;
	struct dcc_decision d;

	timely_on_change(&ca->st, &ca->cfg, s, timely_sim_min_rtt_ns(sk),
			 timely_sim_n_local(sk, ca), timely_sim_rate_max(sk),
			 &d, &u);
	timely_sim_apply(sk, &d);
}

/* timely_hold(): the loss bound moves the window, the decision in force */
static void timely_sim_hold(struct dcc_sim_sock *sk, struct timely_sim *ca,
			    u32 mss)
{
	struct dcc_decision d;

	timely_decide(&ca->st, &ca->cfg, timely_sim_min_rtt_ns(sk), mss, &d);
	timely_sim_apply(sk, &d);
}

/* TIMELY_FN(cong_control) and timely_ack() in one */
static void timely_sim_cong_control(struct dcc_sim_sock *sk,
				    const struct dcc_sample *s)
{
	struct timely_sim *ca = sk->ca;
	bool hold;

	if (!(ca->st.flags & TIMELY_S_INITED))
		return;
	/* dcc_loss_ack(): false while no loss bound is in force */
	hold = dcc_sim_loss_ack(sk, s->acked);
	if (timely_on_ack(&ca->st, &ca->cfg, s))
		timely_sim_change(sk, ca, s);
	else if (hold)
		timely_sim_hold(sk, ca, s->mss);
}

static void timely_sim_set_state(struct dcc_sim_sock *sk, u8 new_state)
{
	struct timely_sim *ca = sk->ca;
	struct dcc_decision d;

	if (!(ca->st.flags & TIMELY_S_INITED))
		return;
	if (new_state == DCC_SIM_CA_OPEN) {
		timely_on_recovered(&ca->st);
		return;
	}
	if (new_state != DCC_SIM_CA_RECOVERY && new_state != DCC_SIM_CA_LOSS)
		return;
	if (timely_on_loss(&ca->st, &ca->cfg, new_state == DCC_SIM_CA_LOSS,
			   sk->now_ns, timely_sim_min_rtt_ns(sk), sk->mss, &d))
		timely_sim_apply(sk, &d);
}

static u32 timely_sim_ssthresh(struct dcc_sim_sock *sk)
{
	struct timely_sim *ca = sk->ca;

	if (!(ca->st.flags & TIMELY_S_INITED))
		return sk->snd_ssthresh;
	/* called on entering recovery/loss, before set_state */
	timely_save_undo(&ca->st);
	return dcc_sim_loss_ssthresh(sk);
}

/* the three modules' ops: their own parameters and init, shared hooks */
#define TIMELY_SIM_OPS(str, params_, init_) {			\
	.name = str,						\
	.priv_size = sizeof(struct timely_sim),			\
	.params = params_,					\
	.init = init_,						\
	.cong_control = timely_sim_cong_control,		\
	.ssthresh = timely_sim_ssthresh,			\
	.set_state = timely_sim_set_state,			\
}

const struct dcc_sim_alg dcc_sim_timely =
	TIMELY_SIM_OPS("timely", timely_sim_params, timely_sim_init_timely);
const struct dcc_sim_alg dcc_sim_timely_p =
	TIMELY_SIM_OPS("timely_p", timely_p_sim_params, timely_sim_init_timely_p);
const struct dcc_sim_alg dcc_sim_sqcc =
	TIMELY_SIM_OPS("sqcc", sqcc_sim_params, timely_sim_init_sqcc);
