// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_lib's socket-side helpers and the algorithm registry, for the
 * simulated socket of dcc_sim.h.  Each function re-states its dcc_lib
 * namesake (modules/dcc_lib/dcc_lib.c) on struct dcc_sim_sock; the
 * comments there (and in include/dcc/dcc.h) explain why they do what
 * they do.  Differences, all from what a simulation has:
 *
 *  - the host-wide tables hold one destination and one device, and never
 *    expire (a run is shorter than tcp_min_rtt_wlen's 300 s);
 *  - dcc_sim_shared_ref_rtt_us() never skips (no loopback routes here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc_sim.h"

#define SIM_RATE_STEP_BPS 8000ULL	/* dcc.h's DCC_RATE_STEP_BPS */

/* ---- registry ----------------------------------------------------------- */

const struct dcc_sim_alg *dcc_sim_alg_find(const char *name)
{
	int i;

	for (i = 0; i < DCC_SIM_NALGS; i++)
		if (dcc_sim_algs[i] && !strcmp(dcc_sim_algs[i]->name, name))
			return dcc_sim_algs[i];
	return NULL;
}

int dcc_sim_param_set(const struct dcc_sim_alg *alg, const char *assign,
		      char *err, unsigned int errlen)
{
	const char *eq = strchr(assign, '=');
	struct dcc_sim_param *p;
	unsigned long v;
	char *end;

	if (!eq || eq == assign) {
		snprintf(err, errlen, "%s: expected NAME=VALUE, got '%s'",
			 alg->name, assign);
		return -1;
	}
	for (p = alg->params; p && p->name; p++) {
		if (strlen(p->name) != (size_t)(eq - assign) ||
		    strncmp(p->name, assign, eq - assign))
			continue;
		v = strtoul(eq + 1, &end, 0);
		if (!eq[1] || *end || eq[1] == '-' || v < p->min || v > p->max) {
			snprintf(err, errlen, "%s: %s must be an integer in [%u, %u], got '%s'",
				 alg->name, p->name, p->min, p->max, eq + 1);
			return -1;
		}
		*p->val = (u32)v;
		return 0;
	}
	snprintf(err, errlen, "%s: no parameter '%.*s'", alg->name,
		 (int)(eq - assign), assign);
	return -1;
}

void dcc_sim_params_reset(const struct dcc_sim_alg *alg)
{
	struct dcc_sim_param *p;

	for (p = alg->params; p && p->name; p++)
		*p->val = p->def;
}

int dcc_sim_sock_init(struct dcc_sim_sock *sk, const struct dcc_sim_alg *alg,
		      struct dcc_sim_host *host)
{
	sk->alg = alg;
	sk->host = host;
	sk->ca = calloc(1, alg->priv_size ? alg->priv_size : 1);
	if (!sk->ca)
		return -1;
	if (!sk->snd_ssthresh)
		sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;
	host->nflows++;
	alg->init(sk);
	return 0;
}

void dcc_sim_sock_release(struct dcc_sim_sock *sk)
{
	if (!sk->ca)
		return;
	if (sk->alg->release)
		sk->alg->release(sk);
	sk->host->nflows--;
	free(sk->ca);
	sk->ca = NULL;
}

/* ---- apply, and the loss bound (dcc_lib.c) ------------------------------ */

static u32 sim_cwnd_pkts(const struct dcc_sim_sock *sk, u64 cwnd_bytes)
{
	u32 mss = sk->mss ? sk->mss : 1;
	u64 max = (u64)DCC_SIM_MAX_CWND * mss;
	u64 cwnd = ((cwnd_bytes < max ? cwnd_bytes : max) + mss - 1) / mss;

	if (cwnd < DCC_SIM_MIN_CWND)
		cwnd = DCC_SIM_MIN_CWND;
	return (u32)(cwnd < DCC_SIM_MAX_CWND ? cwnd : DCC_SIM_MAX_CWND);
}

static u32 sim_loss_half(u32 in_flight)
{
	return in_flight / 2 > DCC_SIM_MIN_CWND ? in_flight / 2 : DCC_SIM_MIN_CWND;
}

static u32 sim_loss_bound(struct dcc_sim_sock *sk, u32 cwnd)
{
	if (sk->ca_state == DCC_SIM_CA_LOSS) {
		u32 grown = sk->snd_cwnd + sk->snd_cwnd_cnt;

		if (sk->snd_ssthresh == DCC_SIM_INF_SSTHRESH)
			sk->snd_ssthresh = sim_loss_half(sk->packets_out);
		cwnd = cwnd < grown ? cwnd : grown;
		sk->snd_cwnd_cnt = 0;
	}
	if (cwnd > sk->snd_ssthresh)
		cwnd = sk->snd_ssthresh;
	else if (sk->ca_state == DCC_SIM_CA_OPEN)
		sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;
	return cwnd > DCC_SIM_MIN_CWND ? cwnd : DCC_SIM_MIN_CWND;
}

static void sim_apply_cwnd(struct dcc_sim_sock *sk, u64 rate, u64 cwnd_bytes,
			   bool bounded)
{
	u32 mss = sk->mss ? sk->mss : 1;
	u32 cwnd = sim_cwnd_pkts(sk, cwnd_bytes);

	if (rate < mss)
		rate = mss;
	if (sk->max_pacing_rate && rate > sk->max_pacing_rate)
		rate = sk->max_pacing_rate;
	sk->pacing_rate = rate;
	if (bounded && dcc_sim_loss_bound_active(sk))
		cwnd = sim_loss_bound(sk, cwnd);
	sk->snd_cwnd = cwnd;
}

void dcc_sim_apply(struct dcc_sim_sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes)
{
	sim_apply_cwnd(sk, rate_bytes_ps, cwnd_bytes, false);
}

void dcc_sim_apply_bounded(struct dcc_sim_sock *sk, u64 rate_bytes_ps,
			   u64 cwnd_bytes)
{
	sim_apply_cwnd(sk, rate_bytes_ps, cwnd_bytes, true);
}

u32 dcc_sim_loss_ssthresh(struct dcc_sim_sock *sk)
{
	u32 used = sk->snd_cwnd < sk->packets_out ? sk->snd_cwnd : sk->packets_out;

	if (sk->prior_ssthresh == DCC_SIM_INF_SSTHRESH || !sk->prior_ssthresh)
		sk->prior_ssthresh = used > DCC_SIM_MIN_CWND ? used : DCC_SIM_MIN_CWND;
	return sim_loss_half(used);
}

bool dcc_sim_loss_bound_active(const struct dcc_sim_sock *sk)
{
	return sk->snd_ssthresh != DCC_SIM_INF_SSTHRESH ||
	       sk->ca_state == DCC_SIM_CA_LOSS;
}

bool dcc_sim_loss_ack(struct dcc_sim_sock *sk, u32 acked_sacked)
{
	u32 bound = sk->snd_ssthresh, step;

	if (!dcc_sim_loss_bound_active(sk))
		return false;
	if (sk->ca_state == DCC_SIM_CA_LOSS) {
		sk->snd_cwnd_cnt = acked_sacked < DCC_SIM_MAX_CWND ?
				   acked_sacked : DCC_SIM_MAX_CWND;
		return true;
	}
	if (bound == DCC_SIM_INF_SSTHRESH)
		return false;
	if (sk->snd_cwnd > bound)
		return true;
	if (!acked_sacked || sk->ca_state != DCC_SIM_CA_OPEN)
		return false;
	sk->snd_cwnd_cnt += acked_sacked;
	if (sk->snd_cwnd_cnt < bound)
		return false;
	sk->snd_cwnd_cnt = 0;
	step = bound >> 3 ? bound >> 3 : 1;
	sk->snd_ssthresh = bound + step < DCC_SIM_MAX_CWND ? bound + step :
							     DCC_SIM_MAX_CWND;
	return true;
}

/* ---- the host-wide tables (dcc_lib.c) ----------------------------------- */

u32 dcc_sim_base_rtt_us(const struct dcc_sim_sock *sk)
{
	return sk->min_rtt_us ? sk->min_rtt_us : sk->srtt_us;
}

u32 dcc_sim_auto_base_rtt_us(struct dcc_sim_sock *sk, bool share)
{
	struct dcc_sim_host *h = sk->host;
	u32 b = dcc_sim_base_rtt_us(sk);

	if (!b || !share)
		return b;
	if (!h->min_rtt_us || b < h->min_rtt_us)
		h->min_rtt_us = b;
	return h->min_rtt_us;
}

u32 dcc_sim_shared_ref_rtt_us(struct dcc_sim_sock *sk, u32 base_us)
{
	struct dcc_sim_host *h = sk->host;

	if (base_us && (!h->ref_rtt_us || base_us < h->ref_rtt_us))
		h->ref_rtt_us = base_us;
	return h->ref_rtt_us ? h->ref_rtt_us : base_us;
}

u64 dcc_sim_shared_line_rate(struct dcc_sim_sock *sk, u64 rate, u64 floor)
{
	struct dcc_sim_host *h = sk->host;
	u64 r;

	if (h->dev_mbps)
		return (u64)h->dev_mbps * DCC_MBPS_TO_BPS;
	r = (rate < DCC_RATE_MAX_BPS ? rate : DCC_RATE_MAX_BPS) /
	    SIM_RATE_STEP_BPS * SIM_RATE_STEP_BPS;
	if (r > h->line_rate)
		h->line_rate = r;
	return h->line_rate > floor ? h->line_rate : floor;
}

u32 dcc_sim_egress_speed_mbps(const struct dcc_sim_sock *sk)
{
	return sk->host->dev_mbps;
}
