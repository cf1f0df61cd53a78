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
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "../kselftest_harness.h"
#include "iter_util.h"
#include "tcp_iter.skel.h"

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

TEST_HARNESS_MAIN
