// SPDX-License-Identifier: GPL-2.0
/*
 * What the BPF TCP iterator (iter/tcp) visits when it is read in
 * several read()s and the sockets change in between: each socket of
 * the reader's netns once, none skipped.
 *
 * "bpf: tcp: Avoid socket skips and repeats during iteration" and its
 * companions (6.1.183; Debian 6.1.187-1) made a new read() resume a
 * bucket at the cookies of the sockets not yet shown; 6.1.170-3 resumes
 * it at an offset, the number of sockets shown from it, so a socket
 * already shown that is closed between two read()s makes the iterator
 * skip one not yet shown.
 *
 * And what a sock_ops program is told of a connection's RTT
 * (BPF_SOCK_OPS_RTT_CB, the rtt_cb case): since v6.10 the sample and
 * the smoothed RTT it makes, on 6.1 nothing.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "iter_util.h"
#include "progs/records.h"
#include "tcp_iter.skel.h"
#include "tcp_rtt.skel.h"

#ifndef SO_COOKIE
#define SO_COOKIE	57
#endif

/* listeners sharing one address and port, so one listening hash bucket */
#define LISTENERS	6
/* the first read() shows this many of them */
#define FIRST		2

static void lo_up(struct __test_metadata *_metadata)
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	ASSERT_GE(fd, 0);
	strcpy(ifr.ifr_name, "lo");
	ASSERT_EQ(ioctl(fd, SIOCGIFFLAGS, &ifr), 0);
	ifr.ifr_flags |= IFF_UP;
	ASSERT_EQ(ioctl(fd, SIOCSIFFLAGS, &ifr), 0);
	close(fd);
}

/* LISTENERS SO_REUSEPORT listeners on 127.0.0.1:P, their cookies */
static void listeners(struct __test_metadata *_metadata, int *fd,
		      __u64 *cookie)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int i, one = 1;

	for (i = 0; i < LISTENERS; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM, 0);
		ASSERT_GE(fd[i], 0);
		ASSERT_EQ(setsockopt(fd[i], SOL_SOCKET, SO_REUSEPORT, &one,
				     sizeof(one)), 0);
		ASSERT_EQ(bind(fd[i], (struct sockaddr *)&sa, sizeof(sa)), 0);
		ASSERT_EQ(listen(fd[i], 1), 0);
		if (!i)
			ASSERT_EQ(getsockname(fd[i], (struct sockaddr *)&sa,
					      &len), 0);
		len = sizeof(cookie[i]);
		ASSERT_EQ(getsockopt(fd[i], SOL_SOCKET, SO_COOKIE, &cookie[i],
				     &len), 0);
	}
}

static int index_of(const __u64 *cookie, __u64 c)
{
	int i;

	for (i = 0; i < LISTENERS; i++)
		if (cookie[i] == c)
			return i;
	return -1;
}

/*
 * LISTENERS listeners in one bucket of the listening hash, in a netns
 * of their own; the first read() is FIRST records long, then the first
 * listener it showed is closed, then the rest is read to the end: it
 * shows every listener not shown yet exactly once, and no other.
 * 6.1.170-3 shows one fewer (LISTENERS - FIRST - 1): the skipped one is
 * the one after the offset in the bucket that lost a socket before it.
 */
TEST(listening_bucket_resumes_after_a_shown_socket_closes)
{
	__u64 cookie[LISTENERS], rec[64];
	int fd[LISTENERS], seen[LISTENERS] = {};
	int i, it, first, other = 0, rest = 0;
	struct tcp_iter *skel;
	struct bpf_link *link;
	ssize_t n;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(unshare(CLONE_NEWNET), 0);
	lo_up(_metadata);
	skel = tcp_iter__open_and_load();
	ASSERT_NE(skel, NULL);
	ASSERT_EQ(iter_link(skel->progs.dump_tcp, NULL, &link), 0);
	listeners(_metadata, fd, cookie);

	it = bpf_iter_create(bpf_link__fd(link));
	ASSERT_GE(it, 0);
	n = read(it, rec, FIRST * sizeof(rec[0]));
	ASSERT_EQ(n, FIRST * sizeof(rec[0]));
	for (i = 0; i < FIRST; i++) {
		int k = index_of(cookie, rec[i]);

		ASSERT_GE(k, 0) TH_LOG("record %d: cookie %llu is no listener's",
				       i, (unsigned long long)rec[i]);
		seen[k]++;
	}
	first = index_of(cookie, rec[0]);
	ASSERT_EQ(close(fd[first]), 0);
	fd[first] = -1;

	while ((n = read(it, rec, sizeof(rec))) > 0) {
		for (i = 0; i < n / (ssize_t)sizeof(rec[0]); i++) {
			int k = index_of(cookie, rec[i]);

			if (k < 0) {
				other++;
				continue;
			}
			seen[k]++;
			rest++;
		}
	}
	EXPECT_EQ(n, 0) TH_LOG("read: %s", strerror(errno));
	EXPECT_EQ(other, 0);
	EXPECT_EQ(rest, LISTENERS - FIRST);
	for (i = 0; i < LISTENERS; i++) {
		unsigned long long c = cookie[i];

		EXPECT_EQ(seen[i], 1) TH_LOG("listener %d (cookie %llu)", i, c);
	}

	close(it);
	for (i = 0; i < LISTENERS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	bpf_link__destroy(link);
	tcp_iter__destroy(skel);
}

/*
 * BPF_SOCK_OPS_RTT_CB's arguments (progs/tcp_rtt.bpf.c, attached to a
 * cgroup of the test's own, in a netns of the test's own): the client
 * of a loopback connection asks for the call at TCP_CONNECT_CB, then
 * ROUNDS request/reply exchanges each make the server acknowledge new
 * data. tcp_rtt_estimator() calls it for the SYN's sample, and for the
 * first exchange's at least (snd_una passes rtt_seq), before the
 * client's read() returns: two calls or more. 6.1 passes no arguments:
 * args[0] and args[1] are 0 on every call. Since 48e2cd3e3dcf ("bpf:
 * add mrtt and srtt as BPF_SOCK_OPS_RTT_CB args", v6.10) args[0] is
 * the sample (mrtt, us) and args[1] the smoothed RTT it makes (srtt,
 * us << 3), which tcp_rtt_estimator() stores in tp->srtt_us only after
 * the call: the program's srtt_us is the one before, and args[1] is its
 * update by args[0], exactly: args[0] << 3 when srtt_us is 0 (no
 * previous sample), else srtt_us - srtt_us / 8 + args[0], at least 1.
 * The sample itself is a time: its value is not asserted.
 */
#define CG_RTT	"/sys/fs/cgroup/kconform-tcp-rtt"
#define ROUNDS	4

/* tcp_rtt_estimator()'s srtt from @srtt_us and the sample @mrtt (u32) */
static __u32 srtt_update(__u32 srtt_us, __u32 mrtt)
{
	return srtt_us ? srtt_us - (srtt_us >> 3) + mrtt : mrtt << 3;
}

/* Moves this process into the cgroup v2 directory @cg. */
static void join_cgroup(struct __test_metadata *_metadata, const char *cg)
{
	char procs[PATH_MAX];
	FILE *f;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	f = fopen(procs, "w");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", procs, strerror(errno));
	fprintf(f, "%d\n", getpid());
	ASSERT_EQ(0, fclose(f)) TH_LOG("%s: %s", procs, strerror(errno));
}

TEST(rtt_cb_args_since_6_10)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int since = kernel_since(6, 10), lfd, cfd, sfd, cg, i;
	socklen_t len = sizeof(sa);
	struct tcp_rtt *skel;
	struct bpf_link *link;
	char b = 'r';
	__u32 n;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(-1, since);
	ASSERT_EQ(unshare(CLONE_NEWNET), 0);
	lo_up(_metadata);
	/* A run that died left its cgroup, empty now: start clean. */
	rmdir(CG_RTT);
	ASSERT_EQ(0, mkdir(CG_RTT, 0755)) TH_LOG("%s: %s", CG_RTT, strerror(errno));
	cg = open(CG_RTT, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(cg, 0);
	join_cgroup(_metadata, CG_RTT);
	skel = tcp_rtt__open_and_load();
	ASSERT_NE(NULL, skel);
	link = bpf_program__attach_cgroup(skel->progs.rtt_cb, cg);
	ASSERT_NE(NULL, link) TH_LOG("attach: %s", strerror(errno));

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, listen(lfd, 1));
	ASSERT_EQ(0, getsockname(lfd, (struct sockaddr *)&sa, &len));
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(0, connect(cfd, (struct sockaddr *)&sa, sizeof(sa)));
	sfd = accept(lfd, NULL, NULL);
	ASSERT_GE(sfd, 0);
	for (i = 0; i < ROUNDS; i++) {
		ASSERT_EQ(1, write(cfd, &b, 1));
		ASSERT_EQ(1, read(sfd, &b, 1));
		ASSERT_EQ(1, write(sfd, &b, 1));
		ASSERT_EQ(1, read(cfd, &b, 1));
	}
	n = skel->bss->ncalls;

	EXPECT_EQ(1, skel->bss->connects);
	EXPECT_LE(2, n) TH_LOG("RTT_CB calls: %u", n);
	for (i = 0; i < (int)n && i < RTT_CB_RECS; i++) {
		const struct rtt_cb_rec *c = &skel->bss->calls[i];

		/* every call but the first follows a sample stored */
		if (i)
			EXPECT_NE(0, c->srtt_us) TH_LOG("call %d", i);
		if (since) {
			EXPECT_EQ(srtt_update(c->srtt_us, c->arg0), c->arg1)
				TH_LOG("call %d: srtt_us %u, args[0] %u", i,
				       c->srtt_us, c->arg0);
			if (c->srtt_us)
				EXPECT_NE(0, c->arg1) TH_LOG("call %d", i);
		} else {
			EXPECT_EQ(0, c->arg0) TH_LOG("call %d: args[0]", i);
			EXPECT_EQ(0, c->arg1) TH_LOG("call %d: args[1]", i);
		}
	}

	close(sfd);
	close(cfd);
	close(lfd);
	bpf_link__destroy(link);
	tcp_rtt__destroy(skel);
	close(cg);
	join_cgroup(_metadata, "/sys/fs/cgroup");
	EXPECT_EQ(0, rmdir(CG_RTT)) TH_LOG("%s: %s", CG_RTT, strerror(errno));
}

TEST_HARNESS_MAIN
