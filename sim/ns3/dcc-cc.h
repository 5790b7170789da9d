/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ns3::DccCongestionOps: a dcc algorithm (sim/glue_<alg>.c around its
 * plain-C core) as an ns-3 TcpCongestionOps.  ns-3's TcpSocketBase plays
 * the Linux stack: it calls CongControl() after each ACK's processing
 * (Linux's cong_control, with a rate sample), GetSsThresh() where Linux
 * calls ssthresh (entering recovery, CWR, an RTO) and CongestionStateSet()
 * where Linux calls set_state, and it paces at tcb->m_pacingRate.  The
 * adapter turns each into the glue's hook on a struct dcc_sim_sock, copying
 * the stack's fields in before and the glue's window, bound and pacing
 * rate out after (dcc-cc.cc says how each field maps).
 *
 * Life: SetCongestionControlAlgorithm() runs Init() at socket creation,
 * before the handshake; Linux runs a CC's init when the connection is
 * established, with the handshake's RTT known.  So the sender calls
 * Start() from its connection-succeeded callback, and the glue's init
 * runs there.
 */
#ifndef DCC_NS3_CC_H
#define DCC_NS3_CC_H

#include "ns3/tcp-congestion-ops.h"
#include "ns3/data-rate.h"

#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"

#include <functional>
#include <map>
#include <memory>

struct dcc_sim_alg;
struct dcc_sim_sock;
struct dcc_sim_host;

namespace ns3
{

class DccCongestionOps : public TcpCongestionOps
{
  public:
    static TypeId GetTypeId();

    DccCongestionOps();
    DccCongestionOps(const DccCongestionOps& other);
    ~DccCongestionOps() override;

    /* which glue (a module's name: oscar, swift, ...), on which host */
    void Configure(const struct dcc_sim_alg* alg, struct dcc_sim_host* host, DataRate nicRate);
    /* the connection is established: run the glue's init */
    void Start();
    /* every valid RTT sample the core sees, ns */
    void SetRttSink(std::function<void(uint64_t)> sink);
    /*
     * The socket's "Tx" and "Rx" traces (the sender connects them): each
     * data segment sent, each ACK before ns-3 processes it.  From them the
     * RTT of the ACK's newest newly (S)ACKed segment, as Linux's
     * rs->rtt_us (dcc-cc.cc).
     */
    void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> sock);
    void OnRx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> sock);

    std::string GetName() const override;
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
    bool HasCongControl() const override;
    void CongControl(Ptr<TcpSocketState> tcb,
                     const TcpRateOps::TcpRateConnection& rc,
                     const TcpRateOps::TcpRateSample& rs) override;
    Ptr<TcpCongestionOps> Fork() override;

  private:
    void SyncIn(const TcpSocketState* tcb);
    void SyncOut(TcpSocketState* tcb);
    void SyncState(const TcpSocketState* tcb);

    const struct dcc_sim_alg* m_alg{nullptr};
    struct dcc_sim_host* m_host{nullptr};
    DataRate m_nicRate;
    std::unique_ptr<struct dcc_sim_sock> m_sk;
    Ptr<TcpSocketState> m_tcb;
    bool m_started{false};
    /* a segment sent and not yet (S)ACKed: its end, its last send, retransmitted? */
    struct Sent
    {
        uint64_t end;
        uint64_t sentNs;
        bool retrans;
    };
    uint64_t Unwrap(uint32_t seq) const;
    std::map<uint64_t, Sent> m_out; /* by start sequence, unwrapped */
    bool m_seqKnown{false};
    uint64_t m_ref{0};           /* an unwrapped sequence number ... */
    uint32_t m_refSeq{0};        /* ... and its 32-bit form */
    int64_t m_ackRttNs{-1};      /* this ACK's RTT sample, ns; -1: none */
    uint8_t m_state{0};          /* the CA state the glue last saw */
    uint64_t m_srtt8Ns{0};       /* srtt x 8, ns */
    bool m_holdState{false};     /* GetSsThresh(): no state change yet */
    std::function<void(uint64_t)> m_rttSink;
};

} // namespace ns3

#endif /* DCC_NS3_CC_H */
