/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcc in a simulator: each algorithm's kernel glue, replayed in plain C
 * around the very control core (modules/<alg>/<alg>_law.c) the module
 * runs, behind a socket that a simulator's TCP drives.
 *
 * The kernel module is three layers: the stack (struct sock, loss
 * detection, recovery, pacing), the glue (tcp_<alg>.c: module parameters,
 * the hooks of tcp_congestion_ops, dcc_lib's loss bound and host-wide
 * tables) and the core (<alg>_law.c: per-ACK math, no kernel).  In ns-3
 * (sim/ns3/) the stack is ns-3's TcpSocketBase; the core is compiled
 * unchanged; the glue is what this header describes:
 *
 *  - struct dcc_sim_sock holds the stack's fields a glue reads and writes,
 *    under their Linux names and units (snd_cwnd and snd_ssthresh in
 *    packets, pacing rates in bytes/s, the CA state): the simulator's
 *    adapter copies them from its socket before each hook and back after;
 *  - struct dcc_sim_alg is tcp_congestion_ops: init, cong_control (with the
 *    ACK as a struct dcc_sample, what dcc_sample_get() builds), ssthresh,
 *    set_state, cwnd_event; the adapter calls them where the stack does;
 *  - the module parameters are a table per algorithm (name, default,
 *    range), with the module's defaults: a run with no --param is a run
 *    of what `modprobe tcp_<alg>` gives.  dcc_sim_param_set() validates
 *    as the module does (a value out of range is refused, the old kept);
 *  - dcc_lib's pieces a glue calls (dcc_apply(), the loss bound, the
 *    shared min-RTT and line-rate tables) are re-stated in dcc_sim.c on
 *    this socket, with the same semantics (dcc.h explains them).
 *
 * What the simulator does not have is not emulated: RX hardware stamps
 * (rx_ns is the simulator's exact clock: DCC_RX_HW without a host delay),
 * an undo of spurious recoveries (ns-3 has no undo_cwnd), TSO.
 */
#ifndef _DCC_SIM_H
#define _DCC_SIM_H

#include "dcc/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's TCP_INFINITE_SSTHRESH: no loss bound */
#define DCC_SIM_INF_SSTHRESH 0x7fffffffU

/* the CA states, Linux's (and ns-3's TcpCongState_t) numbering */
enum dcc_sim_ca_state {
	DCC_SIM_CA_OPEN = 0,
	DCC_SIM_CA_DISORDER = 1,
	DCC_SIM_CA_CWR = 2,
	DCC_SIM_CA_RECOVERY = 3,
	DCC_SIM_CA_LOSS = 4,
};

/* the cwnd events a glue may act on (a subset of Linux's tcp_ca_event) */
enum dcc_sim_ca_event {
	DCC_SIM_EV_TX_START,	/* first send after the pipe drained */
	DCC_SIM_EV_LOSS,	/* an RTO */
	DCC_SIM_EV_ECN_IS_CE,
	DCC_SIM_EV_ECN_NO_CE,
};

/*
 * The host-wide tables dcc_lib keeps (dcc.h: dcc_shared_min_rtt_us,
 * dcc_shared_line_rate, dcc_shared_ref_rtt_us), for one host with one
 * egress device and, in a simulation's topologies, one destination per
 * table.  The adapter gives every node its own; zero-initialised.
 */
struct dcc_sim_host {
	u32 min_rtt_us;		/* shared per-destination min RTT, 0 = none */
	u32 ref_rtt_us;		/* shortest RTT_base of the host's flows */
	u64 line_rate;		/* shared line-rate estimate, bytes/s */
	u32 nflows;		/* live dcc sockets (a glue's n_local) */
	u32 dev_mbps;		/* dcc_egress_speed_mbps(): the NIC's link
				 * speed, 0 = unknown (a virtual device) */
};

/* The stack's side of one socket, as a glue sees it. */
struct dcc_sim_sock {
	/* read by the glue, kept up to date by the adapter */
	u64 now_ns;		/* the stack's clock */
	u32 mss;		/* bytes per packet */
	u32 packets_out;	/* packets in flight */
	u32 min_rtt_us;		/* tcp_min_rtt(), 0 = no sample yet */
	u32 srtt_us;		/* smoothed RTT, 0 = none */
	u64 max_pacing_rate;	/* sk_max_pacing_rate: the NIC's rate, bytes/s */
	u64 delivered;		/* packets delivered so far (tp->delivered) */
	u64 delivered_ce;	/* of which CE-marked (tp->delivered_ce) */
	u8 ca_state;		/* enum dcc_sim_ca_state */
	bool ecn_ok;		/* the connection negotiated ECN */
	/* read and written by the glue; the adapter applies them */
	u32 snd_cwnd;		/* packets */
	u32 snd_ssthresh;	/* packets, DCC_SIM_INF_SSTHRESH = none */
	u32 prior_ssthresh;	/* what an undo would restore */
	u32 snd_cwnd_cnt;	/* the loss bound's ACK count */
	u64 pacing_rate;	/* sk_pacing_rate, bytes/s */
	/* the glue's */
	struct dcc_sim_host *host;
	const struct dcc_sim_alg *alg;
	void *ca;		/* inet_csk_ca(): alg->priv_size bytes, zeroed */
};

/* One module parameter: the module's name, default and accepted range. */
struct dcc_sim_param {
	const char *name;
	u32 *val;		/* the live value (the glue reads it) */
	u32 def, min, max;
};

/* tcp_congestion_ops, for a dcc_sim_sock */
struct dcc_sim_alg {
	const char *name;	/* the module's tcp_congestion_ops .name */
	unsigned int priv_size;
	struct dcc_sim_param *params;	/* NULL-name terminated */
	bool needs_ecn;		/* TCP_CONG_NEEDS_ECN */
	void (*init)(struct dcc_sim_sock *sk);
	void (*release)(struct dcc_sim_sock *sk);
	void (*cong_control)(struct dcc_sim_sock *sk, const struct dcc_sample *s);
	u32 (*ssthresh)(struct dcc_sim_sock *sk);
	void (*set_state)(struct dcc_sim_sock *sk, u8 new_state);
	void (*cwnd_event)(struct dcc_sim_sock *sk, int ev);
};

/* ---- the algorithms, and their module parameters ---------------------- */

/* every algorithm the simulator knows (sim/algs.c), in the modules' order */
#define DCC_SIM_NALGS 10
extern const struct dcc_sim_alg *const dcc_sim_algs[DCC_SIM_NALGS + 1];

const struct dcc_sim_alg *dcc_sim_alg_find(const char *name);

/* "NAME=VALUE" for @alg: 0, or -1 with a message in @err (@errlen bytes) */
int dcc_sim_param_set(const struct dcc_sim_alg *alg, const char *assign,
		      char *err, unsigned int errlen);

/*
 * every parameter of @alg to the module's default: the table's def is the
 * only statement of it (the glues' variables start at 0), so a run calls
 * this before anything else of @alg, as dcc-ns3 and test_glue do
 */
void dcc_sim_params_reset(const struct dcc_sim_alg *alg);

/* ---- socket life ------------------------------------------------------- */

/* a socket of @alg on @host: priv allocated and zeroed, init() run */
int dcc_sim_sock_init(struct dcc_sim_sock *sk, const struct dcc_sim_alg *alg,
		      struct dcc_sim_host *host);
void dcc_sim_sock_release(struct dcc_sim_sock *sk);

/* ---- dcc_lib, on the simulated socket (dcc.h) -------------------------- */

#define DCC_SIM_MIN_CWND 2		/* DCC_MIN_CWND */
#define DCC_SIM_MAX_CWND (1U << 30)	/* DCC_MAX_CWND */

void dcc_sim_apply(struct dcc_sim_sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes);
void dcc_sim_apply_bounded(struct dcc_sim_sock *sk, u64 rate_bytes_ps,
			   u64 cwnd_bytes);
u32 dcc_sim_loss_ssthresh(struct dcc_sim_sock *sk);
bool dcc_sim_loss_bound_active(const struct dcc_sim_sock *sk);
/* dcc_loss_ack(): @acked_sacked packets this ACK (S)ACKed */
bool dcc_sim_loss_ack(struct dcc_sim_sock *sk, u32 acked_sacked);

/* dcc_base_rtt_us(sk, 0): tcp_min_rtt(), else srtt, else 0 */
u32 dcc_sim_base_rtt_us(const struct dcc_sim_sock *sk);
/* dcc_auto_base_rtt_us(): dcc_sim_base_rtt_us(), lowered to the host's */
u32 dcc_sim_auto_base_rtt_us(struct dcc_sim_sock *sk, bool share);
/* dcc_shared_ref_rtt_us() */
u32 dcc_sim_shared_ref_rtt_us(struct dcc_sim_sock *sk, u32 base_us);
/*
 * dcc_shared_line_rate(): the device's speed when the host knows it, else
 * the highest rate folded in (@rate, 0: read), never below @floor
 */
u64 dcc_sim_shared_line_rate(struct dcc_sim_sock *sk, u64 rate, u64 floor);
/* dcc_egress_speed_mbps() */
u32 dcc_sim_egress_speed_mbps(const struct dcc_sim_sock *sk);

#ifdef __cplusplus
}
#endif

#endif /* _DCC_SIM_H */
