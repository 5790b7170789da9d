// SPDX-License-Identifier: GPL-2.0
/*
 * dcc-ns3: one dumbbell, one congestion control, one run; a summary line.
 *
 *	sender 0 --\                                 (bottleneck)
 *	sender 1 ----- switch ==[rate, buffer, ECN K]==> receiver
 *	sender N --/
 *
 * Every sender is its own host (its own NIC at --nic-gbit, its own dcc
 * host tables) with one bulk TCP flow to the receiver; the bottleneck is
 * the switch's port towards the receiver: a FIFO of --buffer-kb (drop-tail;
 * 0 = 64 MB, lossless in effect), CE-marking above --ecn-kb (DCTCP's step
 * marking, RED with QW = 1) when ECN is on.  Base RTT --rtt-us: a quarter
 * on each of the four link crossings; --rtt-mix-us gives odd flows another.
 * The receiver ACKs every segment (DelAckCount 1, as dcc's hosts should:
 * README) and echoes CE per packet (DCTCP-style ECE).
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
    void Setup(Address peer, Ptr<TcpCongestionOps> cc, bool ecn, uint32_t sndbuf)
    {
        m_peer = peer;
        m_cc = cc;
        m_ecn = ecn;
        m_sndbuf = sndbuf;
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
        if (m_ecn)
            tcp->SetAttribute("UseEcn", EnumValue(TcpSocketState::On));
        tcp->SetCongestionControlAlgorithm(m_cc);
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
};

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

    /* the congestion control: a dcc glue, or one of ns-3's */
    const struct dcc_sim_alg* alg = dcc_sim_alg_find(cc.c_str());
    std::string baseline;
    if (!alg)
    {
        if (cc == "cubic")
            baseline = "ns3::TcpCubic";
        else if (cc == "newreno")
            baseline = "ns3::TcpNewReno";
        else if (cc == "dctcp")
            baseline = "ns3::TcpDctcp";
        else if (cc == "bbr")
            baseline = "ns3::TcpBbr";
        else
            Usage("unknown --cc '" + cc + "'");
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
    NodeContainer senders, sw, rcv;
    senders.Create(n);
    sw.Create(1);
    rcv.Create(1);
    InternetStackHelper stack;
    stack.InstallAll();
    /* the receiver echoes CE per packet (ns-3's DCTCP receiver) */
    rcv.Get(0)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                         TypeIdValue(TcpDctcp::GetTypeId()));

    PointToPointHelper bott;
    bott.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)(rateGbit * 1e9))));
    bott.SetChannelAttribute("Delay", TimeValue(NanoSeconds((uint64_t)(rttUs * 250))));
    bott.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer bdev = bott.Install(sw.Get(0), rcv.Get(0));

    /* the bottleneck queue: FIFO, CE-marking above K when ECN is on */
    TrafficControlHelper tch;
    if (ecnKb > 0)
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
    addr.SetBase("10.255.0.0", "255.255.255.0");
    /* before Assign(), which would install ns-3's default queue discs */
    QueueDiscContainer qd = tch.Install(bdev.Get(0));
    big.Install(bdev.Get(1));
    Ipv4InterfaceContainer rif = addr.Assign(bdev);
    Ipv4Address dst = rif.GetAddress(1);

    std::vector<struct dcc_sim_host> hosts(n);
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

    for (uint32_t i = 0; i < n; i++)
    {
        double rtt = (rttMixUs > 0 && i % 2) ? rttMixUs : rttUs;
        /* the bottleneck link's quarter is shared; this access link takes the rest */
        double accessNs = std::max(0.0, rtt * 500 - rttUs * 250);
        PointToPointHelper acc;
        acc.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)(nicGbit * 1e9))));
        acc.SetChannelAttribute("Delay", TimeValue(NanoSeconds((uint64_t)accessNs)));
        acc.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
        NetDeviceContainer d = acc.Install(senders.Get(i), sw.Get(0));
        big.Install(d);
        std::ostringstream base;
        base << "10." << (i >> 8) << "." << (i & 255) << ".0";
        addr.SetBase(base.str().c_str(), "255.255.255.0");
        addr.Assign(d);

        hosts[i].dev_mbps = (uint32_t)(nicGbit * 1000);
        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(rcv.Get(0));
        sa.Start(Seconds(0));
        sa.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, (size_t)i));

        Ptr<TcpCongestionOps> ops;
        if (alg)
        {
            Ptr<DccCongestionOps> d = CreateObject<DccCongestionOps>();
            d->Configure(alg, &hosts[i], DataRate((uint64_t)(nicGbit * 1e9)));
            d->SetRttSink(&OnRtt);
            ops = d;
        }
        else
        {
            ObjectFactory f;
            f.SetTypeId(baseline);
            ops = f.Create<TcpCongestionOps>();
        }
        Ptr<DccSender> app = CreateObject<DccSender>();
        uint32_t sndbuf = (uint32_t)std::min(64e6, std::max(4 * bdpBytes, 256e3));
        app->Setup(InetSocketAddress(dst, port), ops, ecn, sndbuf);
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
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<QueueDisc> q = qd.Get(0);
    q->TraceConnectWithoutContext("BytesInQueue", MakeCallback(&OnQueueBytes));
    q->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
    q->TraceConnectWithoutContext("Dequeue", MakeCallback(&OnDequeue));
    q->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));
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
    long tFair = -1, tRegain = -1, tDrain = -1;
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
        if (lateStopMs > 0)
        {
            size_t ls = BinOf(lateStopMs * 1e-3) + 1;
            long r = SustainedFrom(ls, nbins - 1, 5, [&](size_t b) { return util(b) >= 0.9; });
            long d = SustainedFrom(ls, nbins - 1, 5, [&](size_t b) { return qdelay(b) < rttUs * 1e-6; });
            tRegain = r < 0 ? -1 : r - (long)ls + 1;
            tDrain = d < 0 ? -1 : d - (long)ls + 1;
        }
    }

    std::vector<double> qs = g.q_samples;
    std::printf("cc=%s\trate_gbit=%g\trtt_us=%g\tflows=%u\tlate=%u\tbuffer_kb=%g\tecn_kb=%.1f\t"
                "util=%.4f\tjain=%.4f\tmin_share=%.3f\tq_mean_kb=%.2f\tq_p99_kb=%.2f\t"
                "q_max_kb=%.2f\tq_mean_rtt=%.3f\tdrops=%llu\tmarks=%llu\t"
                "rtt_p50_us=%.2f\trtt_p99_us=%.2f\tt_fair_rtt=%ld\tt_regain_rtt=%ld\t"
                "t_drain_rtt=%ld\n",
                cc.c_str(), rateGbit, rttUs, flows, late, bufferKb, ecnKb,
                total / ceil, Jain(rates), minShare, qMean / 1000, Pct(qs, 99) / 1000,
                g.q_max / 1000.0, qMean / rate / (rttUs * 1e-6),
                (unsigned long long)g.drops, (unsigned long long)g.marks,
                Pct(g.rtt_ns, 50) / 1000, Pct(g.rtt_ns, 99) / 1000, tFair, tRegain, tDrain);

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
