// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF program that hands a socket to bpf_map_update_elem() on a
 * sockhash (progs/sock_map_update.bpf.c). The helper's value is the
 * socket itself for a sockmap or sockhash: the verifier checks it as a
 * pointer to a socket (resolve_map_arg_type()), and allows the update
 * only in program types that cannot run with the socket locked
 * (may_update_sockmap(); for map iterators since 6550f2dddfab, "bpf:
 * sockmap: Enable map_update_elem from bpf_iter", v5.10, whose words are
 * "Allow passing a pointer to a BTF struct sock_common* when updating a
 * sockmap or sockhash").
 *  - a sockmap iterator copies a connected AF_UNIX stream socket (one
 *    end of a socketpair: the guest's loopback is down, and a unix
 *    socket needs no address) into the sockhash: it loads, the update
 *    returns 0, and the sockhash then holds that socket (a lookup from
 *    user space gives its SO_COOKIE);
 *  - an LSM program doing the same with the socket of a file being
 *    opened (file_open, bpf_sock_from_file(); the guest has no
 *    SECURITY_NETWORK, so no socket hooks) is refused with EINVAL,
 *    "cannot update sockmap in this context".
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../kselftest_harness.h"
#include "sock_map_update.skel.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

TEST(iterator_copies_socket_into_sockhash)
{
	static char log[1 << 20];
	union bpf_iter_link_info linfo = {};
	socklen_t len = sizeof(__u64);
	struct sock_map_update *skel;
	__u64 cookie, got = 0, val;
	struct bpf_link *link;
	__u32 key = 1;
	int sv[2], fd, iter;
	char buf[64];
	ssize_t n;
	struct bpf_iter_attach_opts opts = {
		.sz = sizeof(opts),
		.link_info = &linfo,
		.link_info_len = sizeof(linfo),
	};

	skel = sock_map_update__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_autoload(skel->progs.copy, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.copy, log, sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(skel->progs.copy, 1));
	ASSERT_EQ(0, sock_map_update__load(skel)) TH_LOG("verifier said: %.2000s", log);

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) TH_LOG("%s", strerror(errno));
	fd = sv[0];
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_COOKIE, &cookie, &len));
	val = fd;
	ASSERT_EQ(0, bpf_map_update_elem(bpf_map__fd(skel->maps.src), &key, &val,
					 BPF_ANY)) TH_LOG("src: %s", strerror(errno));

	linfo.map.map_fd = bpf_map__fd(skel->maps.src);
	link = bpf_program__attach_iter(skel->progs.copy, &opts);
	ASSERT_NE(NULL, link) TH_LOG("attach_iter: %s", strerror(errno));
	iter = bpf_iter_create(bpf_link__fd(link));
	ASSERT_LE(0, iter) TH_LOG("iter_create: %s", strerror(errno));
	while ((n = read(iter, buf, sizeof(buf))) > 0)
		;
	EXPECT_EQ(0, n) TH_LOG("read: %s", strerror(errno));

	/* a sockmap iterator visits every index, empty ones without a socket */
	EXPECT_EQ(4, skel->bss->elems);
	EXPECT_EQ(1, skel->bss->socks);
	EXPECT_EQ(0, skel->data->update_ret);
	EXPECT_EQ(0, bpf_map_lookup_elem(bpf_map__fd(skel->maps.dst), &key, &got))
		TH_LOG("dst: %s", strerror(errno));
	EXPECT_EQ(cookie, got);

	close(iter);
	bpf_link__destroy(link);
	close(sv[0]);
	close(sv[1]);
	sock_map_update__destroy(skel);
}

TEST(lsm_update_refused_einval)
{
	static char log[1 << 20];
	struct sock_map_update *skel;
	struct bpf_program *prog;
	int err;

	skel = sock_map_update__open();
	ASSERT_NE(NULL, skel);
	prog = skel->progs.remember_socket;
	ASSERT_EQ(0, bpf_program__set_autoload(prog, true));
	ASSERT_EQ(0, bpf_program__set_log_buf(prog, log, sizeof(log)));
	ASSERT_EQ(0, bpf_program__set_log_level(prog, 1));
	libbpf_set_print(quiet);	/* the refusal is expected */
	err = sock_map_update__load(skel);
	sock_map_update__destroy(skel);
	EXPECT_EQ(-EINVAL, err);
	EXPECT_NE(NULL, strstr(log, "cannot update sockmap in this context"))
		TH_LOG("verifier said: %.2000s", log);
}

TEST_HARNESS_MAIN
