// SPDX-License-Identifier: GPL-2.0
/*
 * dcc-ns3: one dumbbell (or leaf-spine), one congestion control, one run;
 * a summary line.
 *
 *	sender 0 --\                                 (bottleneck)
 *	sender 1 ----- switch ==[rate, buffer, ECN K]==> receiver
 *	sender N --/
 *
 * Every sender is its own host (its own NIC at --nic-gbit, its own dcc
 * host tables, or with --one-host one table for all, as flows from one
 * machine share) with one bulk TCP flow to the receiver; the bottleneck is
 * the switch's port towards the receiver: a FIFO of --buffer-kb (drop-tail;
 * 0 = 64 MB, lossless in effect), CE-marking above --ecn-kb (DCTCP's step
 * marking, RED with QW = 1) when ECN is on.  Base RTT --rtt-us: a quarter
 * on each of the four link crossings; --rtt-mix-us gives odd flows another.
 * The receiver ACKs every segment (DelAckCount 1, as dcc's hosts should:
 * README) and echoes CE per packet (DCTCP-style ECE; --classic-ece: ECE
 * until CWR).
 *
 * With --spines P, a leaf-spine instead (every port a switch port of
 * --buffer-kb, marking ECT packets above K and tail-dropping only when full):
 *
 *	senders -- leaf A ==(P spines, per-packet random ECMP)== leaf B -- receiver
 *	                      spine j <-- elephant j            leaf B --> its sink
 *
 * an eighth of the base RTT on each of the eight crossings; the first
 * --congested spines each carry an elephant (--elephant-cc, else --cc) from
 * a host on that spine to a host on leaf B, which loads the spine's port to
 * leaf B: the congested paths, a fraction q = congested / P of the sprayed
 * packets.  --reorder sets the senders' duplicate-ACK threshold (their
 * reordering tolerance).  The queue reported is the first congested port
 * (else the port to the receiver); drops and marks are every port's.
 *
 * Flows: --flows long flows from t = 0 (spread over one base RTT, or all
 * at once with --together), --late more from --late-start-ms to
 * --late-stop-ms (a join/leave or a burst).  The measured window is
 * [--warmup-ms, end); per base-RTT bins give the recovery times.
 *
 * --cc is a dcc module's name (its glue and core, sim/glue_<alg>.c, at the
 * module's defaults; --param NAME=VALUE,... sets module parameters as
 * modprobe would, refused when out of range) or an ns-3 baseline: cubic,
 * newreno, dctcp, bbr.
 *
 * Output: one tab-separated "key=value" line on stdout (docs/sim.md says
 * what each field is), and with --series FILE the per-bin series (CSV).
 * Bad input: a message on stderr and exit status 2.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "dcc-cc.h"

extern "C" {
#include "dcc_sim.h"
}
#undef min
#undef max

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kMss = 1460;     /* 1500-byte IP packets, no TCP options */
const uint32_t kWire = 1500 + 2; /* + the point-to-point header */

/* ---- a bulk sender that knows its congestion control ------------------- */

class DccSender : public Application
{
  public:
    /* @retx: duplicate ACKs before fast retransmit (the reordering tolerance) */
    void Setup(Address peer, Ptr<TcpCongestionOps> cc, bool ecn, uint32_t sndbuf, uint32_t retx)
    {
        m_peer = peer;
        m_cc = cc;
        m_ecn = ecn;
        m_sndbuf = sndbuf;
        m_retx = retx;
    }

    Ptr<TcpCongestionOps> Cc() const
    {
        return m_cc;
    }

  private:
    void StartApplication() override
    {
        m_sock = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(m_sock);
        tcp->SetAttribute("SndBufSize", UintegerValue(m_sndbuf));
        tcp->SetRetxThresh(m_retx); /* also the SACK loss test's DupAckThresh */
        if (m_ecn)
            tcp->SetAttribute("UseEcn", EnumValue(TcpSocketState::On));
        tcp->SetCongestionControlAlgorithm(m_cc);
        Ptr<DccCongestionOps> dcc = DynamicCast<DccCongestionOps>(m_cc);
        if (dcc)
        {
            tcp->TraceConnectWithoutContext("Tx", MakeCallback(&DccCongestionOps::OnTx, dcc));
            tcp->TraceConnectWithoutContext("Rx", MakeCallback(&DccCongestionOps::OnRx, dcc));
        }
        m_sock->Bind();
        m_sock->SetConnectCallback(MakeCallback(&DccSender::Connected, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        m_sock->SetSendCallback(MakeCallback(&DccSender::Room, this));
        m_sock->Connect(m_peer);
        m_running = true;
    }

    void StopApplication() override
    {
        /* the application stops writing; what is buffered still drains */
        m_running = false;
        if (m_sock)
            m_sock->Close();
    }

    void Connected(Ptr<Socket>)
    {
        Ptr<DccCongestionOps> dcc = DynamicCast<DccCongestionOps>(m_cc);
        if (dcc)
            dcc->Start();
        Fill();
    }

    void Room(Ptr<Socket>, uint32_t)
    {
        Fill();
    }

    void Fill()
    {
        while (m_running && m_sock->GetTxAvailable() >= kMss)
            if (m_sock->Send(Create<Packet>(kMss), 0) < 0)
                break;
    }

    Ptr<Socket> m_sock;
    Address m_peer;
    Ptr<TcpCongestionOps> m_cc;
    bool m_ecn{false};
    bool m_running{false};
    uint32_t m_sndbuf{0};
    uint32_t m_retx{3};
};

/* ---- a fabric switch port ------------------------------------------------ */

/*
 * A FIFO that CE-marks each ECT packet arriving to a backlog of K packets
 * or more (DCTCP's step, on the instantaneous queue) and tail-drops only
 * when full: a switch that marks ECT traffic and lets non-ECT traffic queue
 * (RED, the dumbbell's port, drops non-ECT packets above K instead, so a
 * loss-based elephant could never hold a deep queue on a marking port).
 */
class StepEcnQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::DccStepEcnQueueDisc")
                .SetParent<QueueDisc>()
                .AddConstructor<StepEcnQueueDisc>()
                .AddAttribute("MaxSize", "the buffer",
                              QueueSizeValue(QueueSize("1000p")),
                              MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                              MakeQueueSizeChecker())
                .AddAttribute("K", "mark ECT packets arriving to this backlog, packets (0 = never)",
                              UintegerValue(0),
                              MakeUintegerAccessor(&StepEcnQueueDisc::m_k),
                              MakeUintegerChecker<uint32_t>());
        return tid;
    }

    StepEcnQueueDisc()
        : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE)
    {
    }

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        if (GetCurrentSize() + item > GetMaxSize())
        {
            DropBeforeEnqueue(item, "full");
            return false;
        }
        if (m_k && GetInternalQueue(0)->GetNPackets() >= m_k)
            Mark(item, "above K"); /* false (nothing) for a non-ECT packet */
        return GetInternalQueue(0)->Enqueue(item);
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        return GetInternalQueue(0)->Dequeue();
    }

    bool CheckConfig() override
    {
        if (GetNQueueDiscClasses() || GetNPacketFilters())
            return false;
        if (!GetNInternalQueues())
            AddInternalQueue(CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>(
                "MaxSize", QueueSizeValue(GetMaxSize())));
        return GetNInternalQueues() == 1;
    }

    void InitializeParams() override
    {
    }

    uint32_t m_k{0};
};

NS_OBJECT_ENSURE_REGISTERED(StepEcnQueueDisc);

/* ---- what is measured ---------------------------------------------------- */

struct Stats
{
    double bin_s;                 /* bin length, s (one base RTT) */
    double t0_s, t1_s;            /* measured window */
    std::vector<std::vector<uint64_t>> flow_bin_bytes;
    std::vector<double> q_bin_area; /* byte*s per bin */
    std::vector<uint64_t> link_bin_bytes; /* TCP payload through the bottleneck */
    uint64_t bin_ns;              /* the same, ns */
    double q_area{0};
    uint64_t q_last_ns{0};
    uint32_t q_bytes{0}, q_max{0};
    uint64_t drops{0}, marks{0};
    std::vector<uint64_t> rtt_ns;   /* the samples the cores saw, in the window */
    std::vector<double> q_samples;  /* the queue every bin / 10, in the window */
};

Stats g;

size_t
BinOf(double t)
{
    return (size_t)((uint64_t)std::llround(t * 1e9) / g.bin_ns);
}

/* integrate the queue up to @now: in whole ns, so that bin edges are exact */
void
QueueAdvance(double now)
{
    uint64_t t = g.q_last_ns, end_ns = (uint64_t)std::llround(now * 1e9);
    uint64_t w0 = (uint64_t)std::llround(g.t0_s * 1e9), w1 = (uint64_t)std::llround(g.t1_s * 1e9);

    while (t < end_ns)
    {
        size_t b = t / g.bin_ns;
        uint64_t e = std::min<uint64_t>(end_ns, (b + 1) * g.bin_ns);

        if (b < g.q_bin_area.size())
            g.q_bin_area[b] += g.q_bytes * (e - t) * 1e-9;
        if (t >= w0 && t < w1)
            g.q_area += g.q_bytes * (std::min(e, w1) - t) * 1e-9;
        t = e;
    }
    g.q_last_ns = std::max(g.q_last_ns, end_ns);
}

void
OnQueueBytes(uint32_t, uint32_t v)
{
    double now = Simulator::Now().GetSeconds();

    QueueAdvance(now);
    g.q_bytes = v;
    if (now >= g.t0_s)
        g.q_max = std::max(g.q_max, v);
}

/* a packet leaves the bottleneck queue: its TCP payload (no options here) */
void
OnDequeue(Ptr<const QueueDiscItem> item)
{
    size_t b = BinOf(Simulator::Now().GetSeconds());
    uint32_t size = item->GetSize();

    if (b < g.link_bin_bytes.size() && size > 40)
        g.link_bin_bytes[b] += size - 40;
}

void
OnDrop(Ptr<const QueueDiscItem>)
{
    if (Simulator::Now().GetSeconds() >= g.t0_s)
        g.drops++;
}

void
OnMark(Ptr<const QueueDiscItem>, const char*)
{
    if (Simulator::Now().GetSeconds() >= g.t0_s)
        g.marks++;
}

void
QueueSample()
{
    double now = Simulator::Now().GetSeconds();

    if (now >= g.t0_s)
        g.q_samples.push_back(g.q_bytes);
    if (now + g.bin_s / 10 < g.t1_s)
        Simulator::Schedule(Seconds(g.bin_s / 10), &QueueSample);
}

void
OnRx(size_t flow, Ptr<const Packet> p, const Address&)
{
    size_t b = BinOf(Simulator::Now().GetSeconds());

    if (b < g.flow_bin_bytes[flow].size())
        g.flow_bin_bytes[flow][b] += p->GetSize();
}

void
OnRtt(uint64_t ns)
{
    double now = Simulator::Now().GetSeconds();

    if (now >= g.t0_s && now < g.t1_s)
        g.rtt_ns.push_back(ns);
}

double
Jain(const std::vector<double>& x)
{
    double s = 0, s2 = 0;

    for (double v : x)
    {
        s += v;
        s2 += v * v;
    }
    return s2 > 0 ? s * s / (x.size() * s2) : 0;
}

template <typename T>
double
Pct(std::vector<T> v, double p)
{
    if (v.empty())
        return NAN;
    size_t k = std::min(v.size() - 1, (size_t)(p / 100 * v.size()));
    std::nth_element(v.begin(), v.begin() + k, v.end());
    return (double)v[k];
}

/* first bin >= @from where @ok holds for @len bins in a row; -1 if none */
template <typename F>
long
SustainedFrom(size_t from, size_t to, size_t len, F ok)
{
    size_t run = 0;

    for (size_t b = from; b < to; b++)
    {
        run = ok(b) ? run + 1 : 0;
        if (run == len)
            return (long)(b + 1 - len);
    }
    return -1;
}

[[noreturn]] void
Usage(const std::string& msg)
{
    std::fprintf(stderr, "dcc-ns3: %s (--help lists the options)\n", msg.c_str());
    std::exit(2);
}

/*
 * The command line as a user types it: ns-3's parser takes "--name=value"
 * only and exits 1 on anything else; here "--name value" is joined into
 * "--name=value", and an unknown option or a value that is not a number
 * where one is due is refused with exit 2 before ns-3 sees it.
 */
struct Opt
{
    std::string name;
    char kind; /* 'd' number, 'u' unsigned integer, 'b' flag, 's' text */
};

/* the kind of value an option's variable takes */
char
KindOf(const double&)
{
    return 'd';
}

char
KindOf(const uint32_t&)
{
    return 'u';
}

char
KindOf(const bool&)
{
    return 'b';
}

char
KindOf(const std::string&)
{
    return 's';
}

/* one option, declared once: to ns-3's parser and to NormalizeArgs() */
template <typename T>
void
AddOpt(CommandLine& cmd, std::vector<Opt>& opts, const char* name, const char* help, T& var)
{
    opts.push_back({name, KindOf(var)});
    cmd.AddValue(name, help, var);
}

const Opt*
FindOpt(const std::vector<Opt>& opts, const std::string& name)
{
    for (const Opt& o : opts)
        if (name == o.name)
            return &o;
    return nullptr;
}

bool
ValueOk(char kind, const std::string& v)
{
    char* end = nullptr;

    if (kind == 's')
        return true;
    if (kind == 'b')
        return v == "true" || v == "false" || v == "1" || v == "0";
    if (v.empty())
        return false;
    if (kind == 'u')
    {
        if (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 9)
            return false;
        return true;
    }
    double d = std::strtod(v.c_str(), &end);
    return *end == '\0' && std::isfinite(d);
}

std::vector<std::string>
NormalizeArgs(const std::vector<Opt>& opts, int argc, char** argv)
{
    std::vector<std::string> out{argv[0]};

    for (int i = 1; i < argc; i++)
    {
        std::string a = argv[i];
        if (a == "--help" || a == "-h" || a.rfind("--Print", 0) == 0)
        {
            out.push_back(a == "-h" ? "--help" : a);
            continue;
        }
        if (a.rfind("--", 0) != 0)
            Usage("unexpected argument '" + a + "'");
        size_t eq = a.find('=');
        std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const Opt* o = FindOpt(opts, name);
        if (!o)
            Usage("unknown option --" + name);
        std::string v;
        if (eq != std::string::npos)
            v = a.substr(eq + 1);
        else if (o->kind == 'b')
            v = "true";
        else if (i + 1 < argc)
            v = argv[++i];
        else
            Usage("--" + name + " needs a value");
        if (!ValueOk(o->kind, v))
            Usage("--" + name + ": '" + v + "' is not " +
                  (o->kind == 'u' ? "a whole number" : o->kind == 'b' ? "true or false" : "a number"));
        out.push_back("--" + name + "=" + v);
    }
    return out;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string cc = "oscar", params, series;
    double rateGbit = 100, nicGbit = 0, rttUs = 12, rttMixUs = 0;
    double bufferKb = 0, ecnKb = -1, durationMs = 20, warmupMs = -1;
    double lateStartMs = 0, lateStopMs = 0;
    uint32_t flows = 2, late = 0;
    bool together = false;
    double rtoMinUs = 1000;
    uint32_t spines = 0, congested = 0, reorder = 3;
    std::string elephantCc;
    bool oneHost = false, classicEce = false;

    /*
     * picoseconds: at ns-3's default 1 ns a 1502-byte frame takes 120 ns at
     * 100 Gbit/s instead of 120.16, a link 0.13% faster than its rate
     */
    Time::SetResolution(Time::PS);
    CommandLine cmd(__FILE__);
    std::vector<Opt> opts;
    AddOpt(cmd, opts, "cc", "dcc module name (oscar, ccc, swift, lswift, mswift, nscc, mnscc, "
               "timely, timely_p, sqcc) or cubic, newreno, dctcp, bbr", cc);
    AddOpt(cmd, opts, "param", "module parameters NAME=VALUE[,NAME=VALUE...]", params);
    AddOpt(cmd, opts, "rate-gbit", "bottleneck rate, Gbit/s", rateGbit);
    AddOpt(cmd, opts, "nic-gbit", "each sender's NIC rate, Gbit/s (0 = the bottleneck's)", nicGbit);
    AddOpt(cmd, opts, "rtt-us", "base RTT, us", rttUs);
    AddOpt(cmd, opts, "rtt-mix-us", "base RTT of the odd-numbered flows, us (0 = --rtt-us)", rttMixUs);
    AddOpt(cmd, opts, "buffer-kb", "bottleneck buffer, kB (0 = 64 MB)", bufferKb);
    AddOpt(cmd, opts, "ecn-kb", "CE-mark above this backlog, kB (-1 = auto: BDP/7, at least "
               "10 packets, for ECN algorithms; 0 = off)", ecnKb);
    AddOpt(cmd, opts, "flows", "long flows from t = 0", flows);
    AddOpt(cmd, opts, "together", "start the long flows at once (else spread over one RTT)", together);
    AddOpt(cmd, opts, "late", "flows that join at --late-start-ms", late);
    AddOpt(cmd, opts, "late-start-ms", "when the late flows start, ms", lateStartMs);
    AddOpt(cmd, opts, "late-stop-ms", "when the late flows stop, ms (0 = never)", lateStopMs);
    AddOpt(cmd, opts, "duration-ms", "simulated time, ms", durationMs);
    AddOpt(cmd, opts, "warmup-ms", "start of the measured window, ms (-1 = half the run)", warmupMs);
    AddOpt(cmd, opts, "rto-min-us", "TCP's minimum RTO, us", rtoMinUs);
    AddOpt(cmd, opts, "spines", "a leaf-spine fabric of this many spines, packets sprayed over "
               "them at random (0 = the dumbbell)", spines);
    AddOpt(cmd, opts, "congested", "spines carrying an elephant "
               "to leaf B: the congested paths, q = congested / spines", congested);
    AddOpt(cmd, opts, "elephant-cc", "the elephants' congestion control (default: --cc's, at "
               "its defaults unless it is --cc)", elephantCc);
    AddOpt(cmd, opts, "one-host", "the senders share one host's dcc tables (base RTT, line rate, "
               "flow count), as flows from one machine do", oneHost);
    AddOpt(cmd, opts, "classic-ece", "the receivers echo CE as a classic Linux receiver does "
               "(ECE until CWR), not per packet", classicEce);
    AddOpt(cmd, opts, "reorder", "duplicate ACKs before fast retransmit (the senders' reordering "
               "tolerance; ns-3's ReTxThreshold)", reorder);
    AddOpt(cmd, opts, "series", "write per-bin goodput and queue to this CSV file", series);
    std::vector<std::string> args = NormalizeArgs(opts, argc, argv);
    cmd.Parse(args);

    if (!(rateGbit > 0 && rateGbit <= 800))
        Usage("--rate-gbit must be in (0, 800]");
    if (nicGbit == 0)
        nicGbit = rateGbit;
    if (!(nicGbit > 0 && nicGbit <= 800))
        Usage("--nic-gbit must be in (0, 800]");
    if (!(rttUs >= 1 && rttUs <= 1e6) || !(rttMixUs == 0 || (rttMixUs >= 1 && rttMixUs <= 1e6)))
        Usage("--rtt-us and --rtt-mix-us must be in [1, 1e6]");
    if (flows < 1 || flows + late > 4096)
        Usage("--flows must be >= 1 and --flows + --late <= 4096");
    if (!(durationMs > 0 && durationMs <= 60000))
        Usage("--duration-ms must be in (0, 60000]");
    if (warmupMs < 0)
        warmupMs = durationMs / 2;
    if (warmupMs >= durationMs)
        Usage("--warmup-ms must be below --duration-ms");
    if (bufferKb < 0 || rtoMinUs < 1)
        Usage("--buffer-kb must be >= 0 and --rto-min-us >= 1");
    if (spines > 256 || congested > spines)
        Usage("--spines must be <= 256 and --congested <= --spines");
    if (reorder < 1 || reorder > 100000)
        Usage("--reorder must be in [1, 100000]");
    if (!(ecnKb == -1 || ecnKb >= 0))
        Usage("--ecn-kb must be -1 (auto), 0 (off) or a backlog in kB");
    std::ofstream os; /* --series: refused before the run, not after it */
    if (!series.empty())
    {
        os.open(series);
        if (!os)
            Usage("cannot write " + series);
    }
    if (late && !(lateStartMs >= 0 && lateStartMs < durationMs &&
                  (lateStopMs == 0 || lateStopMs > lateStartMs)))
        Usage("--late-start-ms must be in [0, duration) and --late-stop-ms after it");

    /* a congestion control: a dcc glue, or one of ns-3's (its TypeId) */
    auto resolve = [](const std::string& name, const char* opt, std::string* baseline) {
        const struct dcc_sim_alg* a = dcc_sim_alg_find(name.c_str());
        static const char* const ns3cc[][2] = {{"cubic", "ns3::TcpCubic"},
                                               {"newreno", "ns3::TcpNewReno"},
                                               {"dctcp", "ns3::TcpDctcp"},
                                               {"bbr", "ns3::TcpBbr"}};
        baseline->clear();
        for (const auto& b : ns3cc)
            if (!a && name == b[0])
                *baseline = b[1];
        if (!a && baseline->empty())
            Usage(std::string("unknown ") + opt + " '" + name + "'");
        return a;
    };
    std::string baseline, ebaseline;
    const struct dcc_sim_alg* alg = resolve(cc, "--cc", &baseline);
    const struct dcc_sim_alg* ealg =
        resolve(elephantCc.empty() ? cc : elephantCc, "--elephant-cc", &ebaseline);
    if (!alg)
    {
        if (!params.empty())
            Usage("--param is for dcc modules");
    }
    else
    {
        std::stringstream ss(params);
        std::string kv;
        char err[200];

        dcc_sim_params_reset(alg);
        while (std::getline(ss, kv, ','))
            if (!kv.empty() && dcc_sim_param_set(alg, kv.c_str(), err, sizeof(err)))
                Usage(err);
    }
    bool ecn = baseline == "ns3::TcpDctcp" || (alg && alg->needs_ecn);
    bool eEcn = ebaseline == "ns3::TcpDctcp" || (ealg && ealg->needs_ecn);
    double bdpBytes = rateGbit * 1e9 / 8 * rttUs * 1e-6;
    if (ecnKb < 0)
        ecnKb = ecn ? std::max(bdpBytes / 7, 10.0 * kWire) / 1000 : 0;
    uint32_t bufPkts = bufferKb > 0 ? std::max<uint32_t>(1, (uint32_t)(bufferKb * 1000 / kWire))
                                    : (uint32_t)(64e6 / kWire);

    /* the stack: per-segment ACKs, no options but SACK, raw RTT samples */
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kMss));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(64 << 20));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(rtoMinUs)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
    Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate",
                       DataRateValue(DataRate((uint64_t)(nicGbit * 1e9))));

    uint32_t n = flows + late;
    bool fabric = spines > 0;
    /* per-packet spraying: every packet takes one of the equal-cost next hops at random */
    if (fabric)
        Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
    NodeContainer senders, sw, rcv, spine, eleph, esink;
    senders.Create(n);
    sw.Create(fabric ? 2 : 1); /* the senders' switch (leaf A); the receiver's leaf B */
    rcv.Create(1);
    spine.Create(spines);
    eleph.Create(congested);
    esink.Create(congested);
    InternetStackHelper stack;
    stack.InstallAll();
    /*
     * The receivers echo CE per packet (ns-3's DCTCP receiver), as a Linux
     * receiver running dctcp, nscc or mnscc does; --classic-ece: ECE on every
     * ACK from a CE until the sender's CWR, a Linux receiver running a classic
     * CC such as cubic (ns-3's default socket).
     */
    NodeContainer receivers(rcv, esink);
    for (uint32_t i = 0; i < receivers.GetN() && !classicEce; i++)
        receivers.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType", TypeIdValue(TcpDctcp::GetTypeId()));

    /* a switch port: FIFO, CE-marking above K when ECN is on */
    TrafficControlHelper tch;
    uint32_t kPkts = ecnKb > 0 ? (uint32_t)std::max(1.0, ecnKb * 1000 / kWire) : 0;
    if (fabric)
        tch.SetRootQueueDisc("ns3::DccStepEcnQueueDisc",
                             "K", UintegerValue(kPkts),
                             "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bufPkts)));
    else if (ecnKb > 0)
    {
        double k = std::max(1.0, ecnKb * 1000 / kWire);
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(kWire),
                             "QW", DoubleValue(1.0),
                             "MinTh", DoubleValue(k),
                             "MaxTh", DoubleValue(k + 1),
                             "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bufPkts)));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc",
                             "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bufPkts)));
    }
    /* every other queue: large FIFOs (senders pace; the NICs never drop) */
    TrafficControlHelper big;
    big.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("100000p"));

    Ipv4AddressHelper addr;
    QueueDiscContainer ports; /* the switch ports whose drops and marks are counted */
    /*
     * One point-to-point link from @a to @b in subnet @net/24: a switch
     * port's queue (tch) on an end that is a port (@aPort, @bPort), a large
     * FIFO on a host's; @aq receives @a's queue disc.
     */
    auto link = [&](Ptr<Node> a, bool aPort, Ptr<Node> b, bool bPort, double gbit, double delayNs,
                    const std::string& net, Ptr<QueueDisc>* aq) {
        PointToPointHelper p;
        p.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)(gbit * 1e9))));
        p.SetChannelAttribute("Delay", TimeValue(NanoSeconds((uint64_t)delayNs)));
        p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
        NetDeviceContainer d = p.Install(a, b);
        /* before Assign(), which would install ns-3's default queue discs */
        QueueDiscContainer qa = (aPort ? tch : big).Install(d.Get(0));
        QueueDiscContainer qb = (bPort ? tch : big).Install(d.Get(1));
        if (aPort)
            ports.Add(qa);
        if (bPort)
            ports.Add(qb);
        if (aq)
            *aq = qa.Get(0);
        addr.SetBase(net.c_str(), "255.255.255.0");
        return addr.Assign(d);
    };
    auto subnet = [](int a, uint32_t k) {
        std::ostringstream o;
        o << a << "." << (k >> 8) << "." << (k & 255) << ".0";
        return o.str();
    };

    /*
     * The dumbbell: one switch, the bottleneck its port to the receiver, a
     * quarter of the base RTT on each crossing.  The fabric: leaf A, @spines
     * spines, leaf B, an eighth of the base RTT on each crossing; every port
     * a switch port (the same buffer and marking); elephants enter at their
     * spine and leave at leaf B, so they load that spine's port to leaf B.
     */
    Ptr<QueueDisc> deliver, watch; /* the port to the receiver; the queue reported */
    double hopNs = rttUs * (fabric ? 125 : 250);
    Ipv4Address dst = link(sw.Get(fabric ? 1 : 0), true, rcv.Get(0), false, rateGbit, hopNs,
                           "10.255.0.0", &deliver)
                          .GetAddress(1);
    watch = deliver;
    std::vector<Ipv4Address> edst(congested);
    for (uint32_t j = 0; j < spines; j++)
    {
        Ptr<QueueDisc> down;
        link(sw.Get(0), true, spine.Get(j), true, rateGbit, hopNs, subnet(11, j), nullptr);
        link(spine.Get(j), true, sw.Get(1), true, rateGbit, hopNs, subnet(12, j), &down);
        if (j == 0 && congested)
            watch = down;
    }
    for (uint32_t j = 0; j < congested; j++)
    {
        link(eleph.Get(j), false, spine.Get(j), true, rateGbit, hopNs, subnet(13, j), nullptr);
        edst[j] = link(sw.Get(1), true, esink.Get(j), false, rateGbit, hopNs, subnet(14, j), nullptr)
                      .GetAddress(1);
    }

    std::vector<struct dcc_sim_host> hosts(n + congested);
    std::vector<Ptr<DccSender>> apps;
    double binS = rttUs * 1e-6;
    g.bin_ns = std::max<uint64_t>(1, (uint64_t)std::llround(rttUs * 1e3));
    g.bin_s = g.bin_ns * 1e-9;
    binS = g.bin_s;
    g.t0_s = warmupMs * 1e-3;
    g.t1_s = durationMs * 1e-3;
    size_t nbins = BinOf(g.t1_s) + 1;
    g.flow_bin_bytes.assign(n, std::vector<uint64_t>(nbins, 0));
    g.q_bin_area.assign(nbins, 0);
    g.link_bin_bytes.assign(nbins, 0);
    uint32_t sndbuf = (uint32_t)std::min(64e6, std::max(4 * bdpBytes, 256e3));

    /* host @h's congestion control: a dcc glue with its own host tables, or ns-3's */
    auto ccFor = [&](uint32_t h, bool measured, const struct dcc_sim_alg* a, const std::string& b) {
        Ptr<TcpCongestionOps> ops;
        hosts[h].dev_mbps = (uint32_t)(nicGbit * 1000);
        if (a)
        {
            Ptr<DccCongestionOps> d = CreateObject<DccCongestionOps>();
            d->Configure(a, &hosts[h], DataRate((uint64_t)(nicGbit * 1e9)));
            if (measured)
                d->SetRttSink(&OnRtt);
            ops = d;
        }
        else
        {
            ObjectFactory f;
            f.SetTypeId(b);
            ops = f.Create<TcpCongestionOps>();
        }
        return ops;
    };

    for (uint32_t i = 0; i < n; i++)
    {
        double rtt = (rttMixUs > 0 && i % 2) ? rttMixUs : rttUs;
        /* the shared crossings take their part of the base RTT; this access link the rest */
        double accessNs = std::max(0.0, rtt * 500 - (fabric ? 3 : 1) * hopNs);
        link(senders.Get(i), false, sw.Get(0), false, nicGbit, accessNs, subnet(10, i), nullptr);

        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(rcv.Get(0));
        sa.Start(Seconds(0));
        sa.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, (size_t)i));

        Ptr<DccSender> app = CreateObject<DccSender>();
        app->Setup(InetSocketAddress(dst, port), ccFor(oneHost ? 0 : i, true, alg, baseline), ecn,
                   sndbuf, reorder);
        senders.Get(i)->AddApplication(app);
        if (i < flows)
        {
            double s = together ? 0 : rttUs * 1e-6 * i / flows;
            app->SetStartTime(Seconds(s));
        }
        else
        {
            app->SetStartTime(MilliSeconds(lateStartMs));
            if (lateStopMs > 0)
                app->SetStopTime(MilliSeconds(lateStopMs));
        }
        apps.push_back(app);
    }
    /* the elephants: one bulk flow each (--elephant-cc, else --cc), from t = 0 */
    for (uint32_t j = 0; j < congested; j++)
    {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 6000));
        sink.Install(esink.Get(j)).Start(Seconds(0));
        Ptr<DccSender> app = CreateObject<DccSender>();
        app->Setup(InetSocketAddress(edst[j], 6000), ccFor(n + j, false, ealg, ebaseline), eEcn, sndbuf, 3);
        eleph.Get(j)->AddApplication(app);
        app->SetStartTime(Seconds(0));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    watch->TraceConnectWithoutContext("BytesInQueue", MakeCallback(&OnQueueBytes));
    deliver->TraceConnectWithoutContext("Dequeue", MakeCallback(&OnDequeue));
    for (uint32_t i = 0; i < ports.GetN(); i++)
    {
        ports.Get(i)->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
        ports.Get(i)->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));
    }
    Simulator::Schedule(Seconds(0), &QueueSample);

    Simulator::Stop(Seconds(g.t1_s));
    Simulator::Run();
    QueueAdvance(g.t1_s);

    /* ---- the summary ---- */
    double ceil = rateGbit * 1e9 / 8 * kMss / kWire; /* payload bytes/s */
    size_t b0 = BinOf(g.t0_s), b1 = std::min(nbins, BinOf(g.t1_s));
    double win = (b1 - b0) * binS;
    std::vector<double> rates;
    double total = 0;
    for (size_t b = b0; b < b1; b++)
        total += g.link_bin_bytes[b] / win;
    for (uint32_t i = 0; i < n; i++)
    {
        uint64_t by = 0;
        for (size_t b = b0; b < b1; b++)
            by += g.flow_bin_bytes[i][b];
        /* fairness among the flows that run through the whole window */
        bool whole = i < flows || (lateStartMs <= warmupMs && (lateStopMs == 0 || lateStopMs >= durationMs));
        if (whole)
            rates.push_back(by / win);
    }
    double fair = ceil / std::max<size_t>(rates.size(), 1);
    double minShare = rates.empty() ? 0 : *std::min_element(rates.begin(), rates.end()) / fair;
    double qMean = g.q_area / (g.t1_s - g.t0_s);
    double rate = rateGbit * 1e9 / 8;

    /* recovery times, in base RTTs (bins), after the late flows start and stop */
    auto util = [&](size_t b) { return g.link_bin_bytes[b] / binS / ceil; };
    auto qdelay = [&](size_t b) { return g.q_bin_area[b] / binS / rate; }; /* s */
    /* OSCAR's "target state" (its footnote 1): near-full utilisation and a shallow queue */
    auto target = [&](size_t b) { return util(b) >= 0.95 && qdelay(b) < rttUs * 1e-6; };
    long tFair = -1, tRegain = -1, tDrain = -1, tJoinTarget = -1, tLeaveTarget = -1;
    if (late)
    {
        size_t js = BinOf(lateStartMs * 1e-3) + 1;
        size_t je = lateStopMs > 0 ? BinOf(lateStopMs * 1e-3) : nbins - 1;
        /* each flow's goodput over 5 base RTTs from bin b: one RTT's few
         * packets per flow are too coarse for a share */
        long f = SustainedFrom(js, je > 4 ? je - 4 : js, 5, [&](size_t b) {
            std::vector<double> x;
            for (uint32_t i = 0; i < n; i++)
            {
                uint64_t by = 0;
                for (size_t k = b; k < b + 5; k++)
                    by += g.flow_bin_bytes[i][k];
                x.push_back((double)by);
            }
            return Jain(x) >= 0.9;
        });
        tFair = f < 0 ? -1 : f - (long)js + 1;
        long jt = SustainedFrom(js, je, 5, target);
        tJoinTarget = jt < 0 ? -1 : jt - (long)js + 1;
        if (lateStopMs > 0)
        {
            size_t ls = BinOf(lateStopMs * 1e-3) + 1;
            long r = SustainedFrom(ls, nbins - 1, 5, [&](size_t b) { return util(b) >= 0.9; });
            long d = SustainedFrom(ls, nbins - 1, 5, [&](size_t b) { return qdelay(b) < rttUs * 1e-6; });
            tRegain = r < 0 ? -1 : r - (long)ls + 1;
            tDrain = d < 0 ? -1 : d - (long)ls + 1;
            long lt = SustainedFrom(ls, nbins - 1, 5, target);
            tLeaveTarget = lt < 0 ? -1 : lt - (long)ls + 1;
        }
    }

    std::vector<double> qs = g.q_samples;
    std::printf("cc=%s\trate_gbit=%g\trtt_us=%g\tflows=%u\tlate=%u\tbuffer_kb=%g\tecn_kb=%.1f\t"
                "util=%.4f\tjain=%.4f\tmin_share=%.3f\tq_mean_kb=%.2f\tq_p99_kb=%.2f\t"
                "q_max_kb=%.2f\tq_mean_rtt=%.3f\tdrops=%llu\tmarks=%llu\t"
                "rtt_p50_us=%.2f\trtt_p99_us=%.2f\tt_fair_rtt=%ld\tt_regain_rtt=%ld\t"
                "t_drain_rtt=%ld\tt_join_target_rtt=%ld\tt_leave_target_rtt=%ld\n",
                cc.c_str(), rateGbit, rttUs, flows, late, bufferKb, ecnKb,
                total / ceil, Jain(rates), minShare, qMean / 1000, Pct(qs, 99) / 1000,
                g.q_max / 1000.0, qMean / rate / (rttUs * 1e-6),
                (unsigned long long)g.drops, (unsigned long long)g.marks,
                Pct(g.rtt_ns, 50) / 1000, Pct(g.rtt_ns, 99) / 1000, tFair, tRegain, tDrain,
                tJoinTarget, tLeaveTarget);

    if (!series.empty())
    {
        os << "t_s,queue_bytes";
        for (uint32_t i = 0; i < n; i++)
            os << ",flow" << i << "_gbit";
        os << "\n";
        for (size_t b = 0; b + 1 < nbins; b++)
        {
            os << b * binS << "," << g.q_bin_area[b] / binS;
            for (uint32_t i = 0; i < n; i++)
                os << "," << g.flow_bin_bytes[i][b] * 8 / binS / 1e9;
            os << "\n";
        }
        os.close();
        if (os.fail())
            Usage("writing " + series + " failed");
    }
    Simulator::Destroy();
    return 0;
}
