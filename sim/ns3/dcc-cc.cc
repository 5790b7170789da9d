// SPDX-License-Identifier: GPL-2.0
/*
 * ns3::DccCongestionOps (dcc-cc.h): ns-3's TCP in place of Linux's around
 * a dcc glue.  What maps to what:
 *
 *   Linux (dcc_sample_get(), tcp_sock)   ns-3 (TcpSocketState, rate sample)
 *   rx_ns: the ACK's arrival             Simulator::Now(), exact (as a NIC
 *                                        hardware stamp without host delay)
 *   rtt_ns: rs->rtt_us, the RTT of the   the same, from the socket's Tx and
 *     newest segment this ACK newly      Rx traces (OnTx(), OnRx()): each
 *     acked, else newly SACKed; none     sent segment's last send time, and
 *     from retransmitted ones (Karn)     per ACK the newest never-
 *                                        retransmitted segment its
 *                                        cumulative ACK covers, else its
 *                                        SACK blocks (ns-3's own RTT is
 *                                        measured only when snd_una moves:
 *                                        under reordering, on the late
 *                                        packets alone)
 *   acked: packets newly (S)ACKed        rs.m_ackedSacked / mss
 *   infl_pkts: rs->delivered             rs.m_delivered / mss
 *   ce: CE-marked packets on this ACK    the ACK's ECE (m_ecnState ==
 *                                        ECN_ECE_RCVD: the receiver echoes
 *                                        each packet's CE, DCTCP-style)
 *   losses: rs->losses                   rs.m_bytesLoss / mss
 *   app_limited, first_window            rs.m_isAppLimited, m_priorDelivered
 *                                        == 0 (sent before any delivery)
 *   snd_cwnd, snd_ssthresh (packets)     m_cWnd, m_ssThresh (bytes)
 *   sk_pacing_rate                       m_pacingRate (m_pacing on)
 *   packets_out                          m_bytesInFlight / mss
 *   tcp_min_rtt()                        m_minRtt
 *   srtt                                 the valid samples' EWMA, gain 1/8
 *                                        (tcp_rtt_estimator())
 *   icsk_ca_state, set_state             m_congState, CongestionStateSet();
 *                                        ns-3 enters and leaves CWR without
 *                                        calling it, SyncState() does then;
 *                                        Recovery is told after ssthresh,
 *                                        in Linux's order (GetSsThresh())
 *
 * Not in ns-3: an undo of a spurious recovery.
 */
#include "dcc-cc.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

extern "C" {
#include "dcc_sim.h"
}
#undef min
#undef max

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DccCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(DccCongestionOps);

TypeId
DccCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DccCongestionOps")
                            .SetParent<TcpCongestionOps>()
                            .SetGroupName("Internet")
                            .AddConstructor<DccCongestionOps>();
    return tid;
}

DccCongestionOps::DccCongestionOps()
    : m_sk(new dcc_sim_sock())
{
}

DccCongestionOps::DccCongestionOps(const DccCongestionOps& other)
    : TcpCongestionOps(other),
      m_alg(other.m_alg),
      m_host(other.m_host),
      m_nicRate(other.m_nicRate),
      m_sk(new dcc_sim_sock())
{
}

DccCongestionOps::~DccCongestionOps()
{
    if (m_started)
        dcc_sim_sock_release(m_sk.get());
}

void
DccCongestionOps::Configure(const struct dcc_sim_alg* alg, struct dcc_sim_host* host,
                            DataRate nicRate)
{
    m_alg = alg;
    m_host = host;
    m_nicRate = nicRate;
}

void
DccCongestionOps::SetRttSink(std::function<void(uint64_t)> sink)
{
    m_rttSink = std::move(sink);
}

/* @seq as a 64-bit sequence number: within 2 GB of the last reference */
uint64_t
DccCongestionOps::Unwrap(uint32_t seq) const
{
    return m_ref + (int64_t)(int32_t)(seq - m_refSeq);
}

void
DccCongestionOps::OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    uint32_t len = p->GetSize();
    uint32_t seq = h.GetSequenceNumber().GetValue();

    if (!len)
        return;
    if (!m_seqKnown)
    {
        m_seqKnown = true;
        m_ref = seq;
        m_refSeq = seq;
    }
    uint64_t start = Unwrap(seq);
    uint64_t now = Simulator::Now().GetNanoSeconds();
    auto it = m_out.find(start);
    if (it != m_out.end())
    {
        it->second.sentNs = now;
        it->second.retrans = true;
        it->second.end = std::max(it->second.end, start + len);
    }
    else
        m_out.emplace(start, Sent{start + len, now, false});
}

/*
 * tcp_clean_rtx_queue()'s sample, on the ACK's segments: ca_rtt_us from
 * the newest never-retransmitted segment the cumulative ACK covers, else
 * from the newest such segment its SACK blocks newly cover.  Each segment
 * counts once (SACKed ones leave the scoreboard).
 */
void
DccCongestionOps::OnRx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    uint64_t now = Simulator::Now().GetNanoSeconds();
    uint64_t ackNewest = 0, sackNewest = 0;

    m_ackRttNs = -1;
    if (!m_seqKnown || !(h.GetFlags() & TcpHeader::ACK))
        return;
    uint64_t ack = Unwrap(h.GetAckNumber().GetValue());
    while (!m_out.empty() && m_out.begin()->second.end <= ack)
    {
        const Sent& s = m_out.begin()->second;
        if (!s.retrans)
            ackNewest = std::max(ackNewest, s.sentNs);
        m_out.erase(m_out.begin());
    }
    m_ref = ack;
    m_refSeq = h.GetAckNumber().GetValue();
    Ptr<const TcpOptionSack> sack = DynamicCast<const TcpOptionSack>(h.GetOption(TcpOption::SACK));
    if (sack)
        for (const auto& blk : sack->GetSackList())
        {
            uint64_t l = Unwrap(blk.first.GetValue()), r = Unwrap(blk.second.GetValue());
            for (auto it = m_out.lower_bound(l); it != m_out.end() && it->second.end <= r;)
            {
                if (!it->second.retrans)
                    sackNewest = std::max(sackNewest, it->second.sentNs);
                it = m_out.erase(it);
            }
        }
    if (ackNewest)
        m_ackRttNs = (int64_t)(now - ackNewest);
    else if (sackNewest)
        m_ackRttNs = (int64_t)(now - sackNewest);
}

std::string
DccCongestionOps::GetName() const
{
    return m_alg ? std::string("dcc-") + m_alg->name : "dcc";
}

void
DccCongestionOps::Init(Ptr<TcpSocketState> tcb)
{
    m_tcb = tcb;
    tcb->m_pacing = true; /* dcc_pacing_init(): the stack paces */
    tcb->m_paceInitialWindow = true;
    /*
     * TCP_CONG_NEEDS_ECN: Linux sends every packet of such a socket ECT,
     * the SYN, pure ACKs and retransmissions included (tcp_ecn_send_syn()
     * and INET_ECN_xmit()), so a marking switch marks them where it drops
     * non-ECT packets.  ns-3's classic ECN leaves the SYN and pure ACKs
     * non-ECT, and its RED drops those above K: in a 32-flow start, 8
     * SYNs were lost and their flows waited for the 3 s SYN timer.
     * DctcpEcn is ns-3's name for Linux's behaviour (it changes only the
     * codepoint of what is sent).
     */
    if (m_alg && m_alg->needs_ecn)
    {
        tcb->m_useEcn = TcpSocketState::On;
        tcb->m_ecnMode = TcpSocketState::DctcpEcn;
        tcb->m_ectCodePoint = TcpSocketState::Ect0;
    }
}

/* the stack's fields, into the glue's socket; a CA state change it missed */
void
DccCongestionOps::SyncIn(const TcpSocketState* tcb)
{
    dcc_sim_sock* sk = m_sk.get();
    uint32_t mss = std::max<uint32_t>(tcb->m_segmentSize, 1);
    Time minRtt = tcb->m_minRtt;

    sk->now_ns = Simulator::Now().GetNanoSeconds();
    sk->mss = mss;
    sk->packets_out = tcb->m_bytesInFlight.Get() / mss;
    if (minRtt != Time::Max() && minRtt.IsStrictlyPositive())
        sk->min_rtt_us = std::max<uint64_t>(minRtt.GetMicroSeconds(), 1);
    sk->srtt_us = (uint32_t)(m_srtt8Ns / 8000);
    sk->snd_cwnd = std::max<uint32_t>(tcb->m_cWnd.Get() / mss, 1);
    sk->snd_ssthresh = tcb->m_ssThresh.Get() >= DCC_SIM_INF_SSTHRESH
                           ? DCC_SIM_INF_SSTHRESH
                           : tcb->m_ssThresh.Get() / mss;
    sk->ecn_ok = tcb->m_ecnState != TcpSocketState::ECN_DISABLED;
    if (!m_holdState)
        SyncState(tcb);
    else
        sk->ca_state = m_state;
}

/*
 * A CA state the glue has not been told of: CWR entered or left (ns-3 does
 * not call CongestionStateSet for it), or the Recovery CongestionStateSet()
 * held back until ssthresh ran.
 */
void
DccCongestionOps::SyncState(const TcpSocketState* tcb)
{
    if (tcb->m_congState.Get() != m_state)
    {
        m_state = tcb->m_congState.Get();
        if (m_alg->set_state)
            m_alg->set_state(m_sk.get(), m_state);
    }
    m_sk->ca_state = m_state;
}

/* the glue's window, bound and rate, into the stack */
void
DccCongestionOps::SyncOut(TcpSocketState* tcb)
{
    const dcc_sim_sock* sk = m_sk.get();
    uint64_t cwnd = (uint64_t)sk->snd_cwnd * sk->mss;

    tcb->m_cWnd = (uint32_t)std::min<uint64_t>(cwnd, 0x7fffffffU);
    tcb->m_cWndInfl = tcb->m_cWnd.Get();
    tcb->m_ssThresh = sk->snd_ssthresh == DCC_SIM_INF_SSTHRESH
                          ? UINT32_MAX
                          : (uint32_t)std::min<uint64_t>((uint64_t)sk->snd_ssthresh * sk->mss,
                                                         UINT32_MAX - 1);
    tcb->m_pacingRate = DataRate(sk->pacing_rate * 8);
}

void
DccCongestionOps::Start()
{
    NS_ABORT_MSG_IF(!m_alg || !m_host || !m_tcb, "DccCongestionOps: Configure() and Init() first");
    dcc_sim_sock* sk = m_sk.get();

    *sk = dcc_sim_sock();
    sk->max_pacing_rate = m_nicRate.GetBitRate() / 8;
    m_state = m_tcb->m_congState.Get();
    /* the handshake's RTT seeds srtt, as in Linux */
    if (m_tcb->m_lastRtt.Get().IsStrictlyPositive())
        m_srtt8Ns = 8 * (uint64_t)m_tcb->m_lastRtt.Get().GetNanoSeconds();
    SyncIn(PeekPointer(m_tcb));
    sk->snd_ssthresh = DCC_SIM_INF_SSTHRESH;
    sk->prior_ssthresh = DCC_SIM_INF_SSTHRESH;
    NS_ABORT_MSG_IF(dcc_sim_sock_init(sk, m_alg, m_host), "dcc_sim_sock_init failed");
    m_started = true;
    SyncOut(PeekPointer(m_tcb));
}

uint32_t
DccCongestionOps::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    if (!m_started || !m_alg->ssthresh)
        return tcb->m_ssThresh;
    /*
     * Linux runs ssthresh before it sets the new state (tcp_enter_recovery,
     * tcp_enter_cwr, tcp_enter_loss); ns-3's EnterRecovery sets the state
     * first.  So the state change waits until ssthresh has run (a glue
     * may save what its set_state is about to cut: TIMELY's regain rate).
     */
    m_holdState = true;
    SyncIn(PeekPointer(tcb));
    m_holdState = false;
    m_sk->packets_out = bytesInFlight / m_sk->mss;
    m_sk->snd_ssthresh = m_alg->ssthresh(m_sk.get());
    SyncState(PeekPointer(tcb));
    if (m_sk->snd_ssthresh == DCC_SIM_INF_SSTHRESH)
        return UINT32_MAX;
    return (uint32_t)std::min<uint64_t>((uint64_t)m_sk->snd_ssthresh * m_sk->mss, UINT32_MAX - 1);
}

void
DccCongestionOps::IncreaseWindow(Ptr<TcpSocketState>, uint32_t)
{
    /* cong_control modules grow nothing here */
}

void
DccCongestionOps::PktsAcked(Ptr<TcpSocketState>, uint32_t, const Time&)
{
}

void
DccCongestionOps::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                     const TcpSocketState::TcpCongState_t newState)
{
    if (!m_started)
        return;
    SyncIn(PeekPointer(tcb));
    /* Recovery: after ssthresh (GetSsThresh() tells the glue, see there) */
    if (newState == TcpSocketState::CA_RECOVERY)
        return;
    m_state = newState;
    if (m_alg->set_state)
        m_alg->set_state(m_sk.get(), newState);
    m_sk->ca_state = newState;
    SyncOut(PeekPointer(tcb));
}

void
DccCongestionOps::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
    if (!m_started || !m_alg->cwnd_event || event != TcpSocketState::CA_EVENT_LOSS)
        return;
    SyncIn(PeekPointer(tcb));
    m_alg->cwnd_event(m_sk.get(), DCC_SIM_EV_LOSS);
    SyncOut(PeekPointer(tcb));
}

bool
DccCongestionOps::HasCongControl() const
{
    return true;
}

void
DccCongestionOps::CongControl(Ptr<TcpSocketState> tcb,
                              const TcpRateOps::TcpRateConnection& rc,
                              const TcpRateOps::TcpRateSample& rs)
{
    if (!m_started)
        return;
    dcc_sim_sock* sk = m_sk.get();
    SyncIn(PeekPointer(tcb));
    uint32_t mss = sk->mss;
    uint32_t acked = (rs.m_ackedSacked + mss - 1) / mss;
    int64_t rttNs = m_ackRttNs;
    dcc_sample s{};

    m_ackRttNs = -1; /* one ACK, one sample */
    s.rx_ns = sk->now_ns;
    s.mss = mss;
    s.acked = acked;
    s.acked_bytes = acked * mss;
    s.infl_pkts = rs.m_delivered > 0 ? (uint32_t)rs.m_delivered / mss : 0;
    s.losses = rs.m_bytesLoss / mss;
    s.app_limited = rs.m_isAppLimited;
    s.first_window = rs.m_priorDelivered == 0;
    s.rx_src = DCC_RX_HW;
    if (tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD)
        s.ce = acked;
    sk->delivered = rc.m_delivered / mss;
    sk->delivered_ce += s.ce;
    if (!acked)
        s.why = DCC_SAMPLE_NO_ACKED | DCC_SAMPLE_NO_RTT;
    else if (rttNs <= 0)
        s.why = DCC_SAMPLE_NO_RTT;
    if (!s.why)
    {
        uint64_t ns = std::min<uint64_t>((uint64_t)rttNs, DCC_SAMPLE_RTT_MAX_NS);

        s.rtt_ns = (uint32_t)ns;
        /* tcp_rtt_estimator()'s srtt: gain 1/8, kept x8 */
        m_srtt8Ns = m_srtt8Ns ? m_srtt8Ns - m_srtt8Ns / 8 + ns : ns * 8;
        sk->srtt_us = std::max<uint32_t>((uint32_t)(m_srtt8Ns / 8000), 1);
        if (m_rttSink)
            m_rttSink(ns);
    }
    s.tx_ns = s.rx_ns - s.rtt_ns;
    m_alg->cong_control(sk, &s);
    SyncOut(PeekPointer(tcb));
}

Ptr<TcpCongestionOps>
DccCongestionOps::Fork()
{
    return CopyObject<DccCongestionOps>(this);
}

} // namespace ns3
