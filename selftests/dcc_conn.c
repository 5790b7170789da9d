// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_conn: TCP connection driver for the selection-path selftests.
 *
 * The selection tests open thousands of short connections per congestion
 * control and selection path, and check on both ends which congestion
 * control each socket really runs.  An iperf3 (or any exec) per connection
 * costs ~30 ms in the TCG guest; this tool opens them from one process.
 * It holds the client and the server side at once: it enters the server's
 * network namespace to create the listener, then the client's, so every
 * accepted socket is its own and can be read with getsockopt too.
 *
 *   dcc_conn short --client-ns NS --server-ns NS --addr IP [options]
 *	N sequential connections: connect, accept, BYTES client->server and
 *	BYTES back, server closes first (its TIME_WAIT is in the server
 *	namespace, so client ports are free again at once), client closes.
 *	Every connection's client and accepted socket are checked with
 *	getsockopt(TCP_CONGESTION) against --expect.  Exit 1 on any failure
 *	(a connection error, a CC mismatch, an unexpected setsockopt result).
 *   dcc_conn many --client-ns NS --server-ns NS --addr IP -n M -t SEC
 *	M concurrent bulk flows client->server (epoll); they start sending
 *	together once all are connected (at most 20 s), prints "connected M",
 *	runs SEC seconds and prints the goodput of the window after --warmup.
 *	Every client socket's CC is checked as in short.
 *   dcc_conn rr --client-ns NS --server-ns NS --addr IP [options]
 *	One connection, N request/response exchanges of BYTES each way:
 *	every request leaves with nothing in flight (CA_EVENT_TX_START).
 *	Without --pause-us it leaves a moment after the previous response,
 *	the round-by-round restart a congestion control must not take for an
 *	idle period; with it, after a real idle gap.  Both sockets' CC
 *	checked as in short.
 *   dcc_conn unload MODULE
 *	delete_module(MODULE, O_NONBLOCK); prints "ok" or the errno name and
 *	exits 0 / 1 (rmmod checks the refcount itself and never asks the
 *	kernel while a module is in use).
 *
 * Options of short and many:
 *   --port P		server port (default 5400)
 *   -n N		connections (short, default 2000) or flows (many)
 *   --bytes B		short: bytes each way (default 2048, 0..1 MB)
 *   --cc NAME		setsockopt(TCP_CONGESTION, NAME) ...
 *   --when before|after	... before connect()/listen() (default) or after
 *			connect()/accept()
 *   --side both|client|server	where --cc is set (default both)
 *   --expect NAME	the CC getsockopt must report (default: --cc)
 *   --refuse ERRNO	every setsockopt must fail with ERRNO (EPERM,
 *			ENOENT, ...) and leave the socket's CC as it was
 *   --uid UID		after creating the listener (root is needed to
 *			enter the namespaces), drop to UID/GID with no
 *			capabilities; every setsockopt then runs unprivileged
 *   -t SEC, --warmup SEC	many: run time and unmeasured start (0.5)
 *   --pause-us US	rr: idle time before each request (default 0)
 *
 * Output: one summary line on stdout ("short: ..." / "many: ..."); the first
 * failures on stderr.  Bad arguments: a message and exit 2.
 *
 * Build: cc -O2 -static (selftests/Makefile, target helpers), so the binary
 * runs in the guest's initramfs without a C library of its own.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CC_LEN		16	/* TCP_CA_NAME_MAX */
#define MAX_BYTES	(1 << 20)
#define MAX_REPORTS	5	/* failures printed in detail */

enum when { WHEN_BEFORE, WHEN_AFTER };
enum side { SIDE_BOTH, SIDE_CLIENT, SIDE_SERVER };

struct opts {
	const char *client_ns, *server_ns, *addr;
	const char *cc, *expect;
	int port, n, bytes, refuse, uid, pause_us;
	enum when when;
	enum side side;
	double secs, warmup;
};

static const char *prog = "dcc_conn";
static long failures;

static void usage_exit(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s short|many|rr --client-ns NS --server-ns NS --addr IP [-n N]\n"
		"         [--port P] [--bytes B] [--cc NAME] [--when before|after]\n"
		"         [--side both|client|server] [--expect NAME] [--refuse ERRNO]\n"
		"         [--uid UID] [-t SEC] [--warmup SEC] [--pause-us US]\n"
		"       %s unload MODULE\n", prog, prog);
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

/* A failure of a check: counted, the first few described. */
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (++failures > MAX_REPORTS)
		return;
	fprintf(stderr, "%s: FAIL: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_exit("%s: '%s' is not a number in %ld..%ld", opt, s, lo, hi);
	return v;
}

static double parse_secs(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 3600))
		usage_exit("%s: '%s' is not a number of seconds in 0..3600", opt, s);
	return v;
}

static int errno_by_name(const char *s)
{
	static const struct { const char *name; int val; } tab[] = {
		{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EBUSY", EBUSY },
		{ "EINVAL", EINVAL }, { "EACCES", EACCES }, { "EEXIST", EEXIST },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(s, tab[i].name))
			return tab[i].val;
	usage_exit("--refuse: unknown errno name '%s' (EPERM, ENOENT, EBUSY, EINVAL, EACCES, EEXIST)", s);
	return 0;
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void enter_ns(const char *name)
{
	char path[256];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: netns %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	if (setns(fd, CLONE_NEWNET))
		die("setns");
	close(fd);
}

/* uid/gid UID, no supplementary groups; no capability may survive */
static void drop_privileges(int uid)
{
	char line[256];
	FILE *f;

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		die("dropping privileges");
	f = fopen("/proc/self/status", "r");
	if (!f)
		die("/proc/self/status");
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "CapEff:", 7) &&
		    strtoull(line + 7, NULL, 16) != 0) {
			fprintf(stderr, "%s: still has capabilities after setresuid(%d): %s",
				prog, uid, line);
			exit(1);
		}
	}
	fclose(f);
}

static void raise_nofile(long need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit");
	if ((long)rl.rlim_cur >= need)
		return;
	if ((long)rl.rlim_max < need)
		rl.rlim_max = need;	/* root may raise the hard limit */
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE)");
}

static int get_cc(int fd, char *buf)
{
	socklen_t len = CC_LEN;

	memset(buf, 0, CC_LEN + 1);
	return getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, buf, &len);
}

/*
 * setsockopt(TCP_CONGESTION) as the options ask: succeed, or (with
 * --refuse) fail with that errno and leave the CC the socket had.
 */
static void set_cc(const struct opts *o, int fd, const char *who, long i)
{
	char before[CC_LEN + 1], after[CC_LEN + 1];
	int rc, e;

	if (o->refuse && get_cc(fd, before))
		die("getsockopt(TCP_CONGESTION)");
	rc = setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, o->cc, strlen(o->cc));
	e = errno;
	if (!o->refuse) {
		if (rc)
			fail("#%ld %s: setsockopt(TCP_CONGESTION, %s): %s", i, who, o->cc, errname(e));
		return;
	}
	if (!rc) {
		fail("#%ld %s: setsockopt(TCP_CONGESTION, %s) succeeded, expected %s",
		     i, who, o->cc, errname(o->refuse));
		return;
	}
	if (e != o->refuse)
		fail("#%ld %s: setsockopt(TCP_CONGESTION, %s): %s, expected %s",
		     i, who, o->cc, errname(e), errname(o->refuse));
	if (get_cc(fd, after))
		die("getsockopt(TCP_CONGESTION)");
	if (strcmp(before, after))
		fail("#%ld %s: refused setsockopt changed the CC %s -> %s", i, who, before, after);
}

static bool set_client(const struct opts *o)
{
	return o->cc && o->side != SIDE_SERVER;
}

static bool set_server(const struct opts *o)
{
	return o->cc && o->side != SIDE_CLIENT;
}

static long check_cc(const struct opts *o, int fd, const char *who, long i)
{
	char got[CC_LEN + 1];

	if (get_cc(fd, got)) {
		fail("#%ld %s: getsockopt(TCP_CONGESTION): %s", i, who, errname(errno));
		return 1;
	}
	if (o->expect && strcmp(got, o->expect)) {
		fail("#%ld %s socket runs %s, expected %s", i, who, got, o->expect);
		return 1;
	}
	return 0;
}

static int listener(const struct sockaddr_in *sa)
{
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		die("SO_REUSEADDR");
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)))
		die("bind");
	return fd;
}

static int io_full(int fd, char *buf, int len, bool wr)
{
	int done = 0;
	ssize_t r;

	while (done < len) {
		r = wr ? send(fd, buf + done, len - done, MSG_NOSIGNAL) :
			 recv(fd, buf + done, len - done, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

/*
 * Common set-up: the listener in the server namespace, then the client
 * namespace for everything created afterwards, then (--uid) the drop.
 */
static int setup(const struct opts *o, struct sockaddr_in *sa, int backlog)
{
	int lfd;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(o->port);
	if (inet_pton(AF_INET, o->addr, &sa->sin_addr) != 1)
		usage_exit("--addr: '%s' is not an IPv4 address", o->addr);
	enter_ns(o->server_ns);
	lfd = listener(sa);
	enter_ns(o->client_ns);
	if (o->uid >= 0)
		drop_privileges(o->uid);
	if (set_server(o) && o->when == WHEN_BEFORE)
		set_cc(o, lfd, "listener", -1);
	if (listen(lfd, backlog))
		die("listen");
	return lfd;
}

static int run_short(const struct opts *o)
{
	long mism_c = 0, mism_s = 0, conn_err = 0, i;
	struct sockaddr_in sa;
	char *out, *in;
	double t0;
	int lfd;

	out = malloc(o->bytes + 1);
	in = malloc(o->bytes + 1);
	if (!out || !in)
		die("malloc");
	memset(out, 'd', o->bytes);
	lfd = setup(o, &sa, 128);
	t0 = now_s();
	for (i = 0; i < o->n; i++) {
		int c, a;
		char eof;

		c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c < 0)
			die("socket");
		if (set_client(o) && o->when == WHEN_BEFORE)
			set_cc(o, c, "client", i);
		if (connect(c, (struct sockaddr *)&sa, sizeof(sa))) {
			fail("#%ld connect: %s", i, errname(errno));
			conn_err++;
			close(c);
			continue;
		}
		a = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (a < 0)
			die("accept");
		if (o->when == WHEN_AFTER) {
			if (set_client(o))
				set_cc(o, c, "client", i);
			if (set_server(o))
				set_cc(o, a, "accepted", i);
		}
		if (io_full(c, out, o->bytes, true) || io_full(a, in, o->bytes, false) ||
		    io_full(a, out, o->bytes, true)) {
			fail("#%ld data client->server: %s", i, strerror(errno));
			conn_err++;
		}
		mism_c += check_cc(o, c, "client", i);
		mism_s += check_cc(o, a, "accepted", i);
		close(a);	/* the server closes first: TIME_WAIT stays there */
		if (io_full(c, in, o->bytes, false) || recv(c, &eof, 1, 0) != 0) {
			fail("#%ld data server->client or FIN: %s", i, strerror(errno));
			conn_err++;
		}
		close(c);
	}
	close(lfd);
	printf("short: n=%d bytes=%d cc=%s when=%s side=%s expect=%s refuse=%s uid=%d "
	       "conn_errors=%ld client_mismatch=%ld server_mismatch=%ld failures=%ld seconds=%.2f\n",
	       o->n, o->bytes, o->cc ? o->cc : "-", o->when == WHEN_BEFORE ? "before" : "after",
	       o->side == SIDE_BOTH ? "both" : o->side == SIDE_CLIENT ? "client" : "server",
	       o->expect ? o->expect : "-", o->refuse ? errname(o->refuse) : "-", o->uid,
	       conn_err, mism_c, mism_s, failures, now_s() - t0);
	if (failures)
		fprintf(stderr, "%s: short: %ld failure(s)\n", prog, failures);
	return failures ? 1 : 0;
}

static int run_rr(const struct opts *o)
{
	struct sockaddr_in sa;
	char *out, *in;
	long mism, i;
	double t0;
	int lfd, c, a;

	out = malloc(o->bytes + 1);
	in = malloc(o->bytes + 1);
	if (!out || !in)
		die("malloc");
	memset(out, 'r', o->bytes);
	lfd = setup(o, &sa, 1);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0)
		die("socket");
	if (set_client(o) && o->when == WHEN_BEFORE)
		set_cc(o, c, "client", 0);
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	a = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (a < 0)
		die("accept");
	if (o->when == WHEN_AFTER) {
		if (set_client(o))
			set_cc(o, c, "client", 0);
		if (set_server(o))
			set_cc(o, a, "accepted", 0);
	}
	t0 = now_s();
	for (i = 0; i < o->n; i++) {
		/* request, served, response, read: one round trip each */
		if (o->pause_us)
			usleep(o->pause_us);
		if (io_full(c, out, o->bytes, true) || io_full(a, in, o->bytes, false) ||
		    io_full(a, out, o->bytes, true) || io_full(c, in, o->bytes, false)) {
			fail("exchange #%ld: %s", i, strerror(errno));
			break;
		}
	}
	mism = check_cc(o, c, "client", 0) + check_cc(o, a, "accepted", 0);
	close(a);
	close(c);
	close(lfd);
	printf("rr: n=%ld bytes=%d cc=%s mismatch=%ld failures=%ld seconds=%.3f\n",
	       i, o->bytes, o->cc ? o->cc : "-", mism, failures, now_s() - t0);
	return failures ? 1 : 0;
}

/* many: epoll data is a client's index, or a tag | an accepted fd */
#define TAG_LISTEN	(1ULL << 62)
#define TAG_SRV		(1ULL << 61)

static int run_many(const struct opts *o)
{
	static char buf[65536];
	struct epoll_event ev, evs[256];
	long connected = 0, accepted = 0, mism = 0, i;
	unsigned long long bytes = 0, bytes0 = 0;
	double t0, t_up = 0, t_end = 0, t_meas = 0, now;
	struct sockaddr_in sa;
	int lfd, ep, *cfd;
	bool measuring = false;
	char *up;

	raise_nofile(2L * o->n + 64);
	cfd = calloc(o->n, sizeof(*cfd));
	up = calloc(o->n, 1);
	if (!cfd || !up)
		die("calloc");
	lfd = setup(o, &sa, o->n > 4096 ? 4096 : o->n);
	if (fcntl(lfd, F_SETFL, O_NONBLOCK))	/* accept until EAGAIN */
		die("fcntl(O_NONBLOCK)");
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		die("epoll_create1");
	ev.events = EPOLLIN;
	ev.data.u64 = TAG_LISTEN;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev))
		die("epoll_ctl");
	memset(buf, 'm', sizeof(buf));
	t0 = now_s();
	for (i = 0; i < o->n; i++) {
		int c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

		if (c < 0)
			die("socket");
		if (set_client(o) && o->when == WHEN_BEFORE)
			set_cc(o, c, "client", i);
		if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) && errno != EINPROGRESS)
			die("connect");
		cfd[i] = c;
		ev.events = EPOLLOUT;
		ev.data.u64 = i;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev))
			die("epoll_ctl");
	}
	for (;;) {
		int k, nev = epoll_wait(ep, evs, 256, 100);

		if (nev < 0 && errno != EINTR)
			die("epoll_wait");
		now = now_s();
		if (!t_up && connected == o->n && accepted == o->n) {
			/* all up: now every flow sends (see below) */
			t_up = now;
			t_meas = t_up + o->warmup;
			t_end = t_up + o->secs;
			for (i = 0; i < o->n; i++) {
				ev.events = EPOLLOUT;
				ev.data.u64 = i;
				if (epoll_ctl(ep, EPOLL_CTL_MOD, cfd[i], &ev))
					die("epoll_ctl");
			}
			printf("connected %ld in %.2f s\n", connected, t_up - t0);
			fflush(stdout);
		}
		if (!t_up && now - t0 > 20) {
			fprintf(stderr, "%s: many: only %ld connected, %ld accepted after 20 s\n",
				prog, connected, accepted);
			return 1;
		}
		if (t_up && !measuring && now >= t_meas) {
			measuring = true;
			bytes0 = bytes;
			t_meas = now;
		}
		if (t_up && now >= t_end)
			break;
		for (k = 0; k < nev; k++) {
			unsigned long long tag = evs[k].data.u64;

			if (tag == TAG_LISTEN) {
				int a;

				while ((a = accept4(lfd, NULL, NULL,
						    SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
					accepted++;
					ev.events = EPOLLIN;
					ev.data.u64 = TAG_SRV | (unsigned int)a;
					if (epoll_ctl(ep, EPOLL_CTL_ADD, a, &ev))
						die("epoll_ctl");
				}
				continue;
			}
			if (tag & TAG_SRV) {
				int a = (int)(tag & 0xffffffffULL);
				ssize_t r;

				while ((r = recv(a, buf, sizeof(buf), 0)) > 0)
					bytes += r;
				if (r == 0 || (r < 0 && errno != EAGAIN)) {
					fail("accepted fd %d: %s", a, r ? strerror(errno) : "EOF");
					epoll_ctl(ep, EPOLL_CTL_DEL, a, NULL);
				}
				continue;
			}
			i = (long)tag;
			if (evs[k].events & (EPOLLERR | EPOLLHUP)) {
				int err = 0;
				socklen_t l = sizeof(err);

				getsockopt(cfd[i], SOL_SOCKET, SO_ERROR, &err, &l);
				fail("flow %ld: %s", i, err ? strerror(err) : "hangup");
				epoll_ctl(ep, EPOLL_CTL_DEL, cfd[i], NULL);
				continue;
			}
			if (!up[i]) {	/* the first EPOLLOUT: connected */
				up[i] = 1;
				connected++;
				if (set_client(o) && o->when == WHEN_AFTER)
					set_cc(o, cfd[i], "client", i);
				mism += check_cc(o, cfd[i], "client", i);
				/*
				 * No data before every flow is up: the first
				 * flows' data would crowd the later ones'
				 * handshakes out of the bottleneck's queue.
				 */
				ev.events = 0;
				ev.data.u64 = i;
				if (epoll_ctl(ep, EPOLL_CTL_MOD, cfd[i], &ev))
					die("epoll_ctl");
				continue;
			}
			while (send(cfd[i], buf, sizeof(buf), MSG_NOSIGNAL) > 0)
				;
		}
	}
	bytes -= bytes0;
	/*
	 * Reset, not close: a closed socket with data queued would go on
	 * sending it as an orphan, into whatever runs next on the path.
	 */
	for (i = 0; i < o->n; i++) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(cfd[i], SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(cfd[i]);
	}
	printf("many: flows=%d connected=%ld accepted=%ld cc=%s client_mismatch=%ld failures=%ld "
	       "bytes=%llu seconds=%.3f mbit=%.2f\n",
	       o->n, connected, accepted, o->cc ? o->cc : "-", mism, failures, bytes,
	       now - t_meas, bytes * 8 / 1e6 / (now - t_meas));
	return failures ? 1 : 0;
}

static int run_unload(int argc, char **argv)
{
	if (argc != 3)
		usage_exit("unload: exactly one MODULE");
	if (syscall(SYS_delete_module, argv[2], O_NONBLOCK)) {
		printf("%s\n", errname(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .port = 5400, .n = 2000, .bytes = 2048, .uid = -1,
			  .secs = 3, .warmup = 0.5 };
	const char *mode;
	int i;

	if (argc < 2)
		usage_exit("no mode");
	mode = argv[1];
	if (!strcmp(mode, "unload"))
		return run_unload(argc, argv);
	if (strcmp(mode, "short") && strcmp(mode, "many") && strcmp(mode, "rr"))
		usage_exit("unknown mode '%s'", mode);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage_exit("%s: missing value", a);
		i++;
		if (!strcmp(a, "--client-ns"))
			o.client_ns = v;
		else if (!strcmp(a, "--server-ns"))
			o.server_ns = v;
		else if (!strcmp(a, "--addr"))
			o.addr = v;
		else if (!strcmp(a, "--port"))
			o.port = parse_long(a, v, 1, 65535);
		else if (!strcmp(a, "-n"))
			o.n = parse_long(a, v, 1, 1000000);
		else if (!strcmp(a, "--bytes"))
			o.bytes = parse_long(a, v, 0, MAX_BYTES);
		else if (!strcmp(a, "--cc"))
			o.cc = v;
		else if (!strcmp(a, "--expect"))
			o.expect = v;
		else if (!strcmp(a, "--refuse"))
			o.refuse = errno_by_name(v);
		else if (!strcmp(a, "--uid"))
			o.uid = parse_long(a, v, 1, 65535);
		else if (!strcmp(a, "-t"))
			o.secs = parse_secs(a, v);
		else if (!strcmp(a, "--warmup"))
			o.warmup = parse_secs(a, v);
		else if (!strcmp(a, "--pause-us"))
			o.pause_us = parse_long(a, v, 0, 10000000);
		else if (!strcmp(a, "--when")) {
			if (!strcmp(v, "before"))
				o.when = WHEN_BEFORE;
			else if (!strcmp(v, "after"))
				o.when = WHEN_AFTER;
			else
				usage_exit("--when: before or after, not '%s'", v);
		} else if (!strcmp(a, "--side")) {
			if (!strcmp(v, "both"))
				o.side = SIDE_BOTH;
			else if (!strcmp(v, "client"))
				o.side = SIDE_CLIENT;
			else if (!strcmp(v, "server"))
				o.side = SIDE_SERVER;
			else
				usage_exit("--side: both, client or server, not '%s'", v);
		} else
			usage_exit("unknown option '%s'", a);
	}
	if (!o.client_ns || !o.server_ns || !o.addr)
		usage_exit("--client-ns, --server-ns and --addr are required");
	if (o.cc && strlen(o.cc) >= CC_LEN)
		usage_exit("--cc: '%s' is longer than %d characters", o.cc, CC_LEN - 1);
	if (o.refuse && !o.cc)
		usage_exit("--refuse needs --cc");
	if (!o.expect && !o.refuse)
		o.expect = o.cc;
	if (!strcmp(mode, "many")) {
		if (o.refuse)
			usage_exit("many: --refuse is for short");
		if (o.warmup >= o.secs)
			usage_exit("many: --warmup %.2f must be below -t %.2f", o.warmup, o.secs);
		if (o.when == WHEN_AFTER && set_server(&o))
			usage_exit("many: --when after sets the client side only (--side client)");
		return run_many(&o);
	}
	if (!strcmp(mode, "rr")) {
		if (o.refuse)
			usage_exit("rr: --refuse is for short");
		return run_rr(&o);
	}
	return run_short(&o);
}
