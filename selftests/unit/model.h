/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One bottleneck, packet by packet, in nanoseconds: the userspace model
 * every algorithm's unit tests drive their plain-C core through.
 *
 * A core is what the kernel module runs: it takes a struct dcc_sample per
 * ACK and returns a struct dcc_decision (include/dcc/sample.h).  The model
 * plays the network and the stack around it:
 *
 *	sender --(base_rtt/2)--> FIFO served at rate --(slow path?)--> receiver
 *	  ^                                                                |
 *	  +------------------------(base_rtt/2, ACK per packet)-----------+
 *
 *  - each flow paces at decision.rate_bytes_ps and keeps at most
 *    decision.cwnd_bytes in flight (in whole packets, at least
 *    min_cwnd_pkts, as dcc_lib's glue applies a decision); a decision
 *    takes over only when the core marks it changed, as in the kernel
 *    glue: otherwise the one in force stands;
 *  - the FIFO serves mss-byte packets at link.rate_bytes_ps; with a byte
 *    limit it drops at the tail, with ecn_k_bytes it CE-marks a packet
 *    that finds more than K bytes queued (a step marker, as DCTCP's);
 *  - a packet may take a slow path after the bottleneck (probability
 *    slow_ppm, extra delay slow_ns): per-packet spraying over paths of
 *    which some are congested, with the reordering that comes with it;
 *    with slow_ce that path CE-marks every packet, as a congested queue
 *    past its marking threshold does;
 *  - every delivered packet is ACKed at once (the receivers of the
 *    delay-based tests ACK every segment); the ACK carries an RTT sample,
 *    infl_pkts as Linux's rs->delivered (deliveries while the packet was
 *    in flight), the CE mark, and first_window for packets sent before
 *    the first ACK;
 *  - sample noise (noise_ns) is on the receive time, where the kernel has
 *    it: dcc_sample_get() takes rx_ns from the stack's clock when it
 *    processes the ACK (host delay included) and tx_ns = rx_ns - rtt_ns
 *    is the exact send time.  So rx_ns = the ACK's arrival + a uniform
 *    draw in +-noise_ns (never at or before the send time), tx_ns is the
 *    packet's send time, rtt_ns = rx_ns - tx_ns (clamped to 1 s, tx_ns
 *    then follows rx_ns as in the kernel).  The noise is measurement
 *    only: the packet's real timing is unchanged.  Being independent per
 *    ACK and zero-mean, it lets rx_ns of successive ACKs step back by up
 *    to 2 * noise_ns (a kernel socket's rx_ns does not): a core that
 *    takes rx_ns as its clock must compare it wrap-safe;
 *  - a dropped packet is reported one base RTT after its drop, as an
 *    ACK-less sample (losses = 1, why = NO_ACKED | NO_RTT): the moment a
 *    SACK-based sender would learn of it.  Nothing is retransmitted: the
 *    model counts goodput (delivered bytes) only;
 *  - each packet carries its flow's send sequence number (in packets, from
 *    0).  The samples do not (a dcc_sample has none), but the adapter may
 *    read, from inside its on_ack callback, struct model_flow's ack_seq
 *    (the packet this ACK or loss report is for) and next_seq (the next
 *    packet to be sent, Linux's snd_nxt in packets): enough to keep a
 *    scoreboard, i.e. to see the holes a slow path or a drop leaves and
 *    play the stack's SACK loss detection, recovery and undo around the
 *    core.  Every packet sent is ACKed or reported lost exactly once.
 *
 * The model is event-driven on a u64 ns clock (a binary heap, ties broken
 * by insertion order), so it is exact at 1 us RTTs and 800 Gbit/s alike
 * and deterministic for a given seed.  Statistics: per-flow delivered
 * bytes and RTT samples, the time-weighted mean and the maximum of the
 * queue, drops and marks; model_reset_stats() starts a new measurement
 * window.
 */
#ifndef _DCC_MODEL_H
#define _DCC_MODEL_H

#include "dcc/sample.h"

#define MODEL_MAX_FLOWS 1024

/* A core behind the model: its per-ACK entry point and its state. */
struct model_cc {
	void (*on_ack)(void *cc, const struct dcc_sample *s,
		       struct dcc_decision *d);
	void *cc;
};

struct model_link {
	u64 rate_bytes_ps;	/* bottleneck service rate */
	u32 mss;		/* bytes per packet (default 1500) */
	u64 limit_bytes;	/* drop-tail limit, 0 = unlimited */
	u64 ecn_k_bytes;	/* CE-mark above this many bytes queued, 0 = never */
	u32 noise_ns;		/* receive-time noise, uniform in +-noise_ns */
	u32 slow_ppm;		/* per-packet chance of the slow path, ppm */
	u64 slow_ns;		/* the slow path's extra one-way delay */
	bool slow_ce;		/* the slow path CE-marks (ECN-capable flows):
				 * a congested queue, not only a long path */
	u32 min_cwnd_pkts;	/* floor of the applied window (default 2) */
	u64 seed;		/* RNG seed (noise, slow path) */
};

struct model_flow {
	u32 base_rtt_ns;	/* propagation RTT, without queueing */
	struct model_cc cc;
	struct dcc_decision d;	/* the decision in force (initial one) */
	bool on;		/* sending */
	/*
	 * Readable from the flow's on_ack callback (and after model_run):
	 * ack_seq is the send sequence number (packets, from 0) of the
	 * packet the sample in hand ACKs or reports lost; next_seq the
	 * sequence number the flow's next packet will carry (so packets
	 * [0, next_seq) have been sent).  Neither is written by a core.
	 */
	u64 ack_seq;
	u64 next_seq;
	/* internal */
	u64 next_send_ns;
	u32 inflight;		/* packets sent, neither ACKed nor reported lost */
	u64 delivered;		/* packets delivered (Linux's tp->delivered) */
	bool send_armed;	/* a send event is queued */
	bool acked_once;
	/* statistics (model_reset_stats() clears them) */
	u64 bytes;		/* delivered bytes */
	u64 rtt_sum_ns, rtt_n;	/* RTT samples (as measured, with noise) */
	u32 rtt_min_ns, rtt_max_ns;
	u64 drops, marks;
};

struct model_stats {
	u64 t0_ns;		/* start of the measurement window */
	double q_area;		/* integral of queued bytes over time, byte*ns */
	u64 q_max_bytes;
	u64 drops, marks;
};

struct model {
	struct model_link link;
	u64 now_ns;
	u64 q_bytes;		/* bytes in the FIFO, the one in service included */
	u64 q_last_ns;		/* last change of q_bytes */
	u64 busy_until_ns;	/* when the FIFO finishes what it holds */
	struct model_stats st;
	int nflows;
	struct model_flow f[MODEL_MAX_FLOWS];
	/* event heap */
	struct model_ev *ev;
	u32 nev, cap;
	u64 seq;
	u64 rng;
};

/* Fill @m for @link (zeroed fields take their defaults). */
void model_init(struct model *m, const struct model_link *link);
void model_free(struct model *m);

/*
 * Add a flow that starts now with decision @d0 (its initial rate and
 * window: a core's init) behind @cc; returns its index, or -1 when full.
 */
int model_add_flow(struct model *m, u32 base_rtt_ns, struct model_cc cc,
		   struct dcc_decision d0);

/*
 * Stop a flow sending: its packets in flight still arrive, and their ACKs
 * still reach its core, as a real sender's do after its last write.
 */
void model_stop_flow(struct model *m, int i);

/* Run until @until_ns (absolute model time). */
void model_run(struct model *m, u64 until_ns);

/* Start a new measurement window: per-flow and queue statistics. */
void model_reset_stats(struct model *m);

/* Over the current window: mean queue (bytes), a flow's rate (bytes/s). */
double model_mean_q_bytes(const struct model *m);
double model_flow_rate(const struct model *m, int i);
/* Jain's index of the rates of flows [first, first + n) */
double model_jain(const struct model *m, int first, int n);

/*
 * Recovery and landing times from per-window verdicts: the first of @n
 * windows from which @len in a row are all ok (non-zero), in RTTs (@w_rtt
 * per window); MODEL_NEVER if there is none.
 */
#define MODEL_NEVER 999
double model_sustained_from(const u8 *ok_w, int n, int len, double w_rtt);

#endif /* _DCC_MODEL_H */
