// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink as Documentation/userspace-api/netlink/intro.rst (510156a7f0cb,
 * "docs: netlink: basic introduction to Netlink", 6.1) describes it to
 * user space, checked on raw sockets:
 *
 *   - the generic netlink controller, "nlctrl", has the fixed id
 *     GENL_ID_CTRL and resolves family names and ids with
 *     CTRL_CMD_GETFAMILY; an unknown family is ENOENT; a dump lists every
 *     family and ends with NLMSG_DONE; CTRL_CMD_GETPOLICY is a dump and
 *     maps each of nlctrl's ops to its policies;
 *   - NLMSG_ERROR carries the error and the request's header; on an error
 *     it also echoes the request's payload unless NETLINK_CAP_ACK is set
 *     (then NLM_F_CAPPED); an ACK (error 0) comes only for NLM_F_ACK;
 *   - with NETLINK_EXT_ACK the kernel adds TLVs (NLM_F_ACK_TLVS): a
 *     message (NLMSGERR_ATTR_MSG) and the offset of the attribute at fault
 *     (NLMSGERR_ATTR_OFFS); a dump that fails says so in NLMSG_DONE, whose
 *     payload is the error, with the message (6.1 puts only the message
 *     there, not the offset);
 *   - NETLINK_GET_STRICT_CHK makes rtnetlink reject junk in headers and
 *     unknown attributes; the option reads back;
 *   - a too small receive buffer truncates (MSG_TRUNC), and MSG_PEEK |
 *     MSG_TRUNC tells the full length;
 *   - the first socket of a process gets its pid as port id; a port id
 *     can be bound only once.
 *
 * Values are pinned to 6.1.192 (nlctrl version 2, family maxattr 0: its
 * policies are per operation).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "nl_util.h"
#include "../kconform_fuzz.h"
#include "../kconform_util.h"

FIXTURE(genl) {
	int fd;
	char buf[BUF_SIZE];
	struct req r;
};

FIXTURE_SETUP(genl)
{
	self->fd = nl_open(NETLINK_GENERIC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(genl)
{
	close(self->fd);
}

/* GETFAMILY "nlctrl": the controller describes itself. */
TEST_F(genl, getfamily_by_name_describes_nlctrl)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	struct nlattr *a, *ops, *op;
	int n_ops = 0;
	__u32 flags[16] = {};

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
	EXPECT_EQ(nh->nlmsg_seq, SEQ);
	EXPECT_EQ(g->cmd, CTRL_CMD_NEWFAMILY);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_ID);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u16 *)ATTR_DATA(a), GENL_ID_CTRL);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "nlctrl");
	a = genl_attr(nh, CTRL_ATTR_VERSION);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u32 *)ATTR_DATA(a), 2);
	a = genl_attr(nh, CTRL_ATTR_HDRSIZE);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u32 *)ATTR_DATA(a), 0);
	a = genl_attr(nh, CTRL_ATTR_MAXATTR);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u32 *)ATTR_DATA(a), 0);

	/* Its two operations, with what each supports. */
	ops = genl_attr(nh, CTRL_ATTR_OPS);
	ASSERT_NE(ops, NULL);
	for (op = ATTR_DATA(ops);
	     (char *)op + NLA_HDRLEN <= (char *)ops + ops->nla_len;
	     op = (struct nlattr *)((char *)op + NLA_ALIGN(op->nla_len))) {
		char *end = (char *)op + op->nla_len;
		struct nlattr *id = attr_find(ATTR_DATA(op), end,
					      CTRL_ATTR_OP_ID);
		struct nlattr *fl = attr_find(ATTR_DATA(op), end,
					      CTRL_ATTR_OP_FLAGS);

		ASSERT_NE(id, NULL);
		ASSERT_NE(fl, NULL);
		if (*(__u32 *)ATTR_DATA(id) < ARRAY_SIZE(flags))
			flags[*(__u32 *)ATTR_DATA(id)] = *(__u32 *)ATTR_DATA(fl);
		n_ops++;
	}
	EXPECT_EQ(n_ops, 2);
	EXPECT_EQ(flags[CTRL_CMD_GETFAMILY],
		  GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL);
	EXPECT_EQ(flags[CTRL_CMD_GETPOLICY],
		  GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL);

	/* Its multicast group "notify". */
	a = genl_attr(nh, CTRL_ATTR_MCAST_GROUPS);
	ASSERT_NE(a, NULL);
	a = attr_find(ATTR_DATA(a), (char *)a + a->nla_len, 1);
	ASSERT_NE(a, NULL);
	a = attr_find(ATTR_DATA(a), (char *)a + a->nla_len,
		      CTRL_ATTR_MCAST_GRP_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "notify");
}

TEST_F(genl, getfamily_by_id)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	__u16 id = GENL_ID_CTRL;
	struct nlattr *a;

	genl_req(&self->r, CTRL_CMD_GETFAMILY, 0);
	req_attr(&self->r, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
	a = genl_attr(nh, CTRL_ATTR_FAMILY_NAME);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "nlctrl");
}

/*
 * An unknown family: NLMSG_ERROR with -ENOENT, the request's header
 * echoed, and its payload too (no NETLINK_CAP_ACK).
 */
TEST_F(genl, unknown_family_is_enoent_with_request_echoed)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	ssize_t n;

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "kconform-none"), 0);
	n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(e->error, -ENOENT);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_CAPPED, 0);
	EXPECT_EQ(n, NLMSG_HDRLEN + sizeof(*e) - sizeof(e->msg) +
		  NLMSG_ALIGN(self->r.nh.nlmsg_len));
	EXPECT_EQ(memcmp(&e->msg, &self->r.nh, self->r.nh.nlmsg_len), 0);
}

/* With NETLINK_CAP_ACK only the request's header comes back. */
TEST_F(genl, cap_ack_caps_the_echo)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	ssize_t n;

	ASSERT_EQ(set_opt(self->fd, NETLINK_CAP_ACK, 1), 0);
	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "kconform-none"), 0);
	n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(e->error, -ENOENT);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_CAPPED, NLM_F_CAPPED);
	EXPECT_EQ(n, NLMSG_HDRLEN + sizeof(*e));
	EXPECT_EQ(e->msg.nlmsg_len, self->r.nh.nlmsg_len);
	EXPECT_EQ(e->msg.nlmsg_seq, SEQ);
	EXPECT_EQ(e->msg.nlmsg_type, GENL_ID_CTRL);
}

/*
 * Success with NLM_F_ACK: the reply, then an ACK (error 0) with the
 * header only; without NLM_F_ACK no ACK comes.
 */
TEST_F(genl, ack_only_when_asked)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, NLM_F_ACK,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	EXPECT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf), 0),
		  NLMSG_HDRLEN + sizeof(*e));
	EXPECT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(e->error, 0);
	EXPECT_EQ(e->msg.nlmsg_seq, SEQ);

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);
}

/* A family dump: nlctrl among them, NLM_F_MULTI, then NLMSG_DONE. */
TEST_F(genl, family_dump_ends_with_done)
{
	int found = 0, done = 0, msgs = 0;
	ssize_t n;

	genl_req(&self->r, CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	while (!done) {
		struct nlmsghdr *nh;

		n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
		ASSERT_GT(n, 0);
		for (nh = (struct nlmsghdr *)self->buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlattr *a;

			EXPECT_EQ(nh->nlmsg_flags & NLM_F_MULTI, NLM_F_MULTI);
			if (nh->nlmsg_type == NLMSG_DONE) {
				EXPECT_EQ(*(int *)NLMSG_DATA(nh), 0);
				done = 1;
				break;
			}
			ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
			msgs++;
			a = genl_attr(nh, CTRL_ATTR_FAMILY_ID);
			if (a && *(__u16 *)ATTR_DATA(a) == GENL_ID_CTRL)
				found++;
		}
	}
	EXPECT_EQ(found, 1);
	EXPECT_GE(msgs, 1);
}

/*
 * A family dump with an attribute type nlctrl's policy does not know
 * (CTRL_ATTR_VERSION, 3: the policy's maxattr is 2). 6.1 parses no
 * attribute of a GETFAMILY dump: the whole dump comes, then DONE 0.
 * Since aba22ca8ccd6 ("genetlink: convert control family to split ops",
 * v6.2) the dump op has the family policy and genl_start() parses
 * strictly: NLMSG_ERROR -EINVAL, "Unknown attribute type", and OFFS at
 * the attribute (after nlmsghdr and genlmsghdr); no dump.
 */
TEST_F(genl, family_dump_unknown_attribute_refused_since_6_2)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	int since = kernel_since(6, 2), off, done = 0;
	struct nlattr *a;
	__u32 zero = 0;
	ssize_t n;

	ASSERT_GE(since, 0) TH_LOG("uname: no version in the release");
	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
	genl_req(&self->r, CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	off = req_attr(&self->r, CTRL_ATTR_VERSION, &zero, sizeof(zero));
	ASSERT_EQ(off, NLMSG_HDRLEN + GENL_HDRLEN);
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	if (since) {
		ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
		ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
		EXPECT_EQ(e->error, -EINVAL);
		a = ack_tlv(nh, NLMSGERR_ATTR_MSG);
		ASSERT_NE(a, NULL);
		EXPECT_STREQ((char *)ATTR_DATA(a), "Unknown attribute type");
		a = ack_tlv(nh, NLMSGERR_ATTR_OFFS);
		ASSERT_NE(a, NULL);
		EXPECT_EQ(*(__u32 *)ATTR_DATA(a), (__u32)off);
		return;
	}
	while (!done) {
		n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
		ASSERT_GT(n, 0);
		for (nh = (struct nlmsghdr *)self->buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE) {
				EXPECT_EQ(*(int *)NLMSG_DATA(nh), 0);
				done = 1;
				break;
			}
			ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL) TH_LOG("6.1: the dump");
		}
	}
}

/*
 * Where a family dump's NLMSG_DONE comes. 6.1's ctrl_dumpfamily returns
 * skb->len after its last family, so DONE is made by the next call, with
 * nothing else: a datagram of its own, 20 bytes (the header and the int
 * 0). Since 87d381973e49 ("genetlink: fit NLMSG_DONE into same read() as
 * families", v6.9; with b5a899154aa9, "netlink: handle EMSGSIZE errors in
 * the core") it returns 0 once every family is in and netlink_dump()
 * appends DONE to the datagram carrying the last families. (Only a last
 * part full to within 20 bytes would still send DONE alone: the guest's
 * families leave more room than that.)
 */
TEST_F(genl, family_dump_done_shares_last_read_since_6_9)
{
	int since = kernel_since(6, 9), done = 0, families = 0;
	struct nlmsghdr *nh = NULL;
	ssize_t n = 0, left;

	ASSERT_GE(since, 0) TH_LOG("uname: no version in the release");
	genl_req(&self->r, CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	while (!done) {
		n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
		ASSERT_GT(n, 0);
		/* The families in the datagram that carries DONE. */
		families = 0;
		left = n;
		for (nh = (struct nlmsghdr *)self->buf; NLMSG_OK(nh, left);
		     nh = NLMSG_NEXT(nh, left)) {
			if (nh->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			ASSERT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
			families++;
		}
	}
	EXPECT_EQ(*(int *)NLMSG_DATA(nh), 0);
	EXPECT_EQ(nh->nlmsg_len, NLMSG_LENGTH(sizeof(int)));
	/* DONE is the datagram's last message. */
	EXPECT_EQ((char *)nh + NLMSG_ALIGN(nh->nlmsg_len), self->buf + n);
	if (since) {
		EXPECT_GE(families, 1) TH_LOG("6.9: DONE after the last families");
		EXPECT_GT(n, NLMSG_LENGTH(sizeof(int)));
	} else {
		EXPECT_EQ(families, 0) TH_LOG("6.1: DONE alone");
		EXPECT_EQ(n, NLMSG_LENGTH(sizeof(int)));
	}
}

/* GETPOLICY is a dump only: as a do request it is EOPNOTSUPP. */
TEST_F(genl, getpolicy_do_is_eopnotsupp)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETPOLICY, 0,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(e->error, -EOPNOTSUPP);
}

/*
 * nlctrl's own op map in a GETPOLICY dump (CTRL_CMD_GETFAMILY 3,
 * CTRL_CMD_GETPOLICY 10; policy 0 is ctrl_policy_family's two
 * attributes, 1 ctrl_policy_policy's three). 6.1 gives the legacy
 * GETFAMILY op only CTRL_ATTR_POLICY_DO = 0: its dump has
 * GENL_DONT_VALIDATE_DUMP, which ctrl_dumppolicy_put_op() takes for "no
 * dump policy". Since aba22ca8ccd6 ("genetlink: convert control family
 * to split ops", v6.2) the dump is a split op of its own with the same
 * policy: CTRL_ATTR_POLICY_DUMP = 0 too. GETPOLICY (dump only): DUMP = 1
 * on both.
 */
TEST_F(genl, nlctrl_getfamily_dump_policy_since_6_2)
{
	struct policies *p = malloc(sizeof(*p));
	int since = kernel_since(6, 2);

	ASSERT_GE(since, 0) TH_LOG("uname: no version in the release");
	ASSERT_NE(p, NULL);
	ASSERT_EQ(getpolicy(self->fd, GENL_ID_CTRL, p), 0);
	EXPECT_EQ(p->do_idx[CTRL_CMD_GETFAMILY], 0);
	EXPECT_EQ(p->dump_idx[CTRL_CMD_GETFAMILY], since ? 0 : -1);
	EXPECT_EQ(p->do_idx[CTRL_CMD_GETPOLICY], -1);
	EXPECT_EQ(p->dump_idx[CTRL_CMD_GETPOLICY], 1);
	EXPECT_EQ(p->n_attrs[0], 2);
	EXPECT_EQ(p->n_attrs[1], 3);
	EXPECT_EQ(p->n_attrs[2], 0);
	free(p);
}

/* A buffer too small for the reply: MSG_TRUNC, and PEEK|TRUNC says how big. */
TEST_F(genl, small_buffer_truncates)
{
	struct msghdr mh = {};
	struct iovec iov;
	ssize_t full, n;

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "nlctrl"), 0);
	full = nl_recv(self->fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
	ASSERT_GT(full, 64);
	iov.iov_base = self->buf;
	iov.iov_len = 64;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	n = recvmsg(self->fd, &mh, 0);
	EXPECT_EQ(n, 64);
	EXPECT_EQ(mh.msg_flags & MSG_TRUNC, MSG_TRUNC);
	/* The rest of that message is gone. */
	EXPECT_EQ(nl_recv(self->fd, self->buf, sizeof(self->buf),
			  MSG_DONTWAIT), -EAGAIN);
}

FIXTURE(rtnl) {
	int fd;
	char buf[BUF_SIZE];
	struct req r;
};

FIXTURE_SETUP(rtnl)
{
	self->fd = nl_open(NETLINK_ROUTE);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(set_opt(self->fd, NETLINK_EXT_ACK, 1), 0);
}

FIXTURE_TEARDOWN(rtnl)
{
	close(self->fd);
}

TEST_F(rtnl, strict_check_reads_back)
{
	socklen_t len = sizeof(int);
	int val = -1;

	ASSERT_EQ(getsockopt(self->fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK,
			     &val, &len), 0);
	EXPECT_EQ(val, 0);
	ASSERT_EQ(set_opt(self->fd, NETLINK_GET_STRICT_CHK, 1), 0);
	ASSERT_EQ(getsockopt(self->fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK,
			     &val, &len), 0);
	EXPECT_EQ(val, 1);
}

/*
 * Strict checking, a link dump with junk in its header: the dump fails,
 * NLMSG_DONE carries -EINVAL and the extack message (NLM_F_ACK_TLVS).
 * Without strict checking the same request dumps the links.
 */
TEST_F(rtnl, strict_dump_with_junk_header_fails_in_done)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct ifinfomsg ifm = { .ifi_family = AF_UNSPEC, .ifi_flags = 1 };
	struct nlattr *msg;
	ssize_t n;

	req_init(&self->r, RTM_GETLINK, NLM_F_DUMP);
	req_put(&self->r, &ifm, sizeof(ifm));
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
	ASSERT_GT(n, 0);
	EXPECT_EQ(nh->nlmsg_type, RTM_NEWLINK) TH_LOG("not strict: links");
	while (nh->nlmsg_type != NLMSG_DONE) {
		n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
		ASSERT_GT(n, 0);
		for (nh = (struct nlmsghdr *)self->buf;
		     NLMSG_OK(nh, n) && nh->nlmsg_type != NLMSG_DONE;
		     nh = NLMSG_NEXT(nh, n))
			;
		if (!NLMSG_OK(nh, n))
			nh = (struct nlmsghdr *)self->buf;
	}

	ASSERT_EQ(set_opt(self->fd, NETLINK_GET_STRICT_CHK, 1), 0);
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	n = nl_recv(self->fd, self->buf, sizeof(self->buf), 0);
	nh = (struct nlmsghdr *)self->buf;
	ASSERT_GT(n, 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_DONE);
	EXPECT_EQ(*(int *)NLMSG_DATA(nh), -EINVAL);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	msg = ack_tlv(nh, NLMSGERR_ATTR_MSG);
	ASSERT_NE(msg, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(msg),
		     "Invalid values in header for link dump request");
	/* 6.1 reports no offset in a dump's DONE. */
	EXPECT_EQ(ack_tlv(nh, NLMSGERR_ATTR_OFFS), NULL);
}

/*
 * Strict checking, a link dump with an attribute type the policy does
 * not know: the dump fails, NLMSG_DONE carries -EINVAL and the message.
 * Before 6.10 a dump's DONE carries only the message; since 8af4f60472fc
 * ("netlink: support all extack types in dumps", v6.10) it also carries
 * OFFS, the offset of that attribute in the request, as an ack does
 * (linux-source-6.12 has it).
 */
TEST_F(rtnl, strict_dump_unknown_attribute_offset_since_6_10)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct ifinfomsg ifm = { .ifi_family = AF_UNSPEC };
	int since = kernel_since(6, 10), off;
	struct nlattr *a;
	__u32 zero = 0;

	ASSERT_GE(since, 0) TH_LOG("uname: no version in the release");
	ASSERT_EQ(set_opt(self->fd, NETLINK_GET_STRICT_CHK, 1), 0);
	req_init(&self->r, RTM_GETLINK, NLM_F_DUMP);
	req_put(&self->r, &ifm, sizeof(ifm));
	off = req_attr(&self->r, IFLA_MAX + 1, &zero, sizeof(zero));
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_DONE);
	EXPECT_EQ(*(int *)NLMSG_DATA(nh), -EINVAL);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	a = ack_tlv(nh, NLMSGERR_ATTR_MSG);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "Unknown attribute type");
	a = ack_tlv(nh, NLMSGERR_ATTR_OFFS);
	if (since) {
		ASSERT_NE(a, NULL) TH_LOG("since 6.10 DONE has OFFS (8af4f60472fc)");
		EXPECT_EQ(*(__u32 *)ATTR_DATA(a), (__u32)off);
	} else {
		EXPECT_EQ(a, NULL) TH_LOG("before 6.10 DONE has only the message");
	}
}

/*
 * Strict checking, a link get with an attribute type the policy does
 * not know: NLMSG_ERROR -EINVAL, the message, and OFFS = the offset of
 * that attribute in the request.
 */
TEST_F(rtnl, strict_unknown_attribute_points_at_it)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)self->buf;
	struct nlmsgerr *e = NLMSG_DATA(nh);
	struct ifinfomsg ifm = { .ifi_family = AF_UNSPEC, .ifi_index = 1 };
	struct nlattr *a;
	__u32 zero = 0;
	int off;

	ASSERT_EQ(set_opt(self->fd, NETLINK_GET_STRICT_CHK, 1), 0);
	req_init(&self->r, RTM_GETLINK, 0);
	req_put(&self->r, &ifm, sizeof(ifm));
	off = req_attr(&self->r, IFLA_MAX + 1, &zero, sizeof(zero));
	ASSERT_EQ(nl_send(self->fd, &self->r), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	ASSERT_EQ(nh->nlmsg_type, NLMSG_ERROR);
	EXPECT_EQ(e->error, -EINVAL);
	EXPECT_EQ(nh->nlmsg_flags & NLM_F_ACK_TLVS, NLM_F_ACK_TLVS);
	a = ack_tlv(nh, NLMSGERR_ATTR_MSG);
	ASSERT_NE(a, NULL);
	EXPECT_STREQ((char *)ATTR_DATA(a), "Unknown attribute type");
	a = ack_tlv(nh, NLMSGERR_ATTR_OFFS);
	ASSERT_NE(a, NULL);
	EXPECT_EQ(*(__u32 *)ATTR_DATA(a), off);
}

/* The first netlink socket of a process is bound to its pid. */
TEST(first_socket_port_id_is_the_pid)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sa);
	int fd = nl_open(NETLINK_ROUTE);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	EXPECT_EQ(sa.nl_pid, getpid());
	close(fd);
}

/* A chosen port id can be bound once per protocol. */
TEST(port_id_binds_once)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int a = nl_open(NETLINK_ROUTE), b = nl_open(NETLINK_ROUTE);

	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	sa.nl_pid = 0x4b430000 | (getpid() & 0xffff);
	ASSERT_EQ(bind(a, (struct sockaddr *)&sa, sizeof(sa)), 0);
	EXPECT_EQ(bind(b, (struct sockaddr *)&sa, sizeof(sa)), -1);
	EXPECT_EQ(errno, EADDRINUSE);
	close(a);
	close(b);
}

/* ---- socket options (netlink(7), intro.rst "Socket options") ------------ */

/* getsockopt(SOL_NETLINK, @opt) into @val: 0 or -errno (-1000: bad length). */
static int get_opt(int fd, int opt, int *val)
{
	socklen_t len = sizeof(*val);

	*val = -1;
	if (getsockopt(fd, SOL_NETLINK, opt, val, &len))
		return -errno;
	return len == sizeof(*val) ? 0 : -1000;
}

/*
 * A flag option reads back what was set: 0 on a new socket, 1 after any
 * non-zero value, 0 after 0. A value shorter than an int sets 0 (the
 * option is cleared, no error).
 */
static void flag_reads_back(struct __test_metadata *_metadata, int fd, int opt)
{
	int val, seven = 7;

	EXPECT_EQ(get_opt(fd, opt, &val), 0);
	EXPECT_EQ(val, 0) TH_LOG("option %d on a new socket", opt);
	ASSERT_EQ(setsockopt(fd, SOL_NETLINK, opt, &seven, sizeof(seven)), 0);
	EXPECT_EQ(get_opt(fd, opt, &val), 0);
	EXPECT_EQ(val, 1) TH_LOG("option %d set to 7", opt);
	ASSERT_EQ(set_opt(fd, opt, 0), 0);
	EXPECT_EQ(get_opt(fd, opt, &val), 0);
	EXPECT_EQ(val, 0) TH_LOG("option %d set to 0", opt);
	/* two bytes of a 1: no int, so 0 */
	ASSERT_EQ(set_opt(fd, opt, 1), 0);
	ASSERT_EQ(setsockopt(fd, SOL_NETLINK, opt, &seven, 2), 0);
	EXPECT_EQ(get_opt(fd, opt, &val), 0);
	EXPECT_EQ(val, 0) TH_LOG("option %d, a 2-byte value", opt);
}

TEST(flag_options_read_back)
{
	static const int opts[] = {
		NETLINK_PKTINFO, NETLINK_BROADCAST_ERROR, NETLINK_NO_ENOBUFS,
		NETLINK_CAP_ACK, NETLINK_EXT_ACK, NETLINK_GET_STRICT_CHK,
	};
	int fd = nl_open(NETLINK_ROUTE);
	unsigned int i;

	ASSERT_GE(fd, 0);
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		flag_reads_back(_metadata, fd, opts[i]);
	close(fd);
}

/*
 * NETLINK_LISTEN_ALL_NSID can be set but not read before 6.9: 6.1.192's
 * netlink_getsockopt() has no case for it (ENOPROTOOPT). Since 8b6d307f4391
 * ("net/netlink: Add getsockopt support for NETLINK_LISTEN_ALL_NSID",
 * v6.9) it reads back as the other flags do (linux-source-6.12 has it).
 */
TEST(listen_all_nsid_reads_back_since_6_9)
{
	int fd = nl_open(NETLINK_ROUTE), val = -1, since = kernel_since(6, 9);

	ASSERT_GE(fd, 0);
	ASSERT_GE(since, 0) TH_LOG("uname: no version in the release");
	if (since) {
		flag_reads_back(_metadata, fd, NETLINK_LISTEN_ALL_NSID);
	} else {
		EXPECT_EQ(set_opt(fd, NETLINK_LISTEN_ALL_NSID, 1), 0);
		EXPECT_EQ(get_opt(fd, NETLINK_LISTEN_ALL_NSID, &val), -ENOPROTOOPT)
			TH_LOG("before 6.9 the option cannot be read (8b6d307f4391 is v6.9)");
		EXPECT_EQ(set_opt(fd, NETLINK_LISTEN_ALL_NSID, 0), 0);
	}
	close(fd);
}

/*
 * The errors of netlink's setsockopt() and getsockopt(): another level or
 * an unknown option is ENOPROTOOPT, a negative or short length EINVAL,
 * a bad pointer EFAULT.
 */
TEST(option_errors)
{
	int fd = nl_open(NETLINK_ROUTE), val = 1;
	socklen_t len, *ro;

	ASSERT_GE(fd, 0);
	EXPECT_EQ(setsockopt(fd, SOL_IP, NETLINK_CAP_ACK, &val, sizeof(val)),
		  -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(set_opt(fd, 1000, 1), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, (void *)8,
			     sizeof(val)), -1);
	EXPECT_EQ(errno, EFAULT);

	len = sizeof(val);
	EXPECT_EQ(getsockopt(fd, SOL_IP, NETLINK_CAP_ACK, &val, &len), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(get_opt(fd, 1000, &val), -ENOPROTOOPT);
	len = -1;
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &val, &len), -1);
	EXPECT_EQ(errno, EINVAL);
	len = sizeof(val) - 1;
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &val, &len), -1);
	EXPECT_EQ(errno, EINVAL);
	len = sizeof(val);
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, (void *)8, &len),
		  -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &val,
			     (socklen_t *)8), -1);
	EXPECT_EQ(errno, EFAULT);
	/* a length that can be read but not written back */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(ro, MAP_FAILED);
	*ro = sizeof(val);
	ASSERT_EQ(mprotect(ro, 4096, PROT_READ), 0);
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &val, ro), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, &val,
			     ro), -1);
	EXPECT_EQ(errno, EFAULT);
	munmap(ro, 4096);
	close(fd);
}

/* NETLINK_LIST_MEMBERSHIPS into @words (@len bytes): 0 or -errno. */
static int list_memberships(int fd, __u32 *words, socklen_t *len)
{
	return getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, words,
			  len) ? -errno : 0;
}

/*
 * Groups joined with NETLINK_ADD_MEMBERSHIP (1 ... the protocol's
 * number of groups; 0 and beyond are EINVAL) show in
 * NETLINK_LIST_MEMBERSHIPS, one bit per group (group g is bit g - 1),
 * until NETLINK_DROP_MEMBERSHIP. LIST_MEMBERSHIPS writes as many whole
 * u32 as fit in the buffer and always returns the length the whole set
 * needs: rtnetlink's RTNLGRP_MAX groups take ALIGN(BITS_TO_BYTES, 4).
 */
TEST(memberships_join_list_and_drop)
{
	int fd = nl_open(NETLINK_ROUTE);
	socklen_t want = (RTNLGRP_MAX + 31) / 32 * 4, len;
	__u32 words[8];

	ASSERT_GE(fd, 0);
	ASSERT_GT(RTNLGRP_MAX, 32);
	EXPECT_EQ(set_opt(fd, NETLINK_ADD_MEMBERSHIP, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_opt(fd, NETLINK_ADD_MEMBERSHIP, RTNLGRP_MAX + 1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_opt(fd, NETLINK_DROP_MEMBERSHIP, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(set_opt(fd, NETLINK_ADD_MEMBERSHIP, RTNLGRP_LINK), 0);
	ASSERT_EQ(set_opt(fd, NETLINK_ADD_MEMBERSHIP, RTNLGRP_MAX), 0);

	memset(words, 0xa5, sizeof(words));
	len = sizeof(words);
	ASSERT_EQ(list_memberships(fd, words, &len), 0);
	EXPECT_EQ(len, want);
	EXPECT_EQ(words[0], 1u << (RTNLGRP_LINK - 1));
	EXPECT_EQ(words[1], 1u << ((RTNLGRP_MAX - 1) % 32));
	EXPECT_EQ(words[2], 0xa5a5a5a5) TH_LOG("written past the set");

	/* room for one word: the first only, and the length needed */
	memset(words, 0xa5, sizeof(words));
	len = 4;
	ASSERT_EQ(list_memberships(fd, words, &len), 0);
	EXPECT_EQ(len, want);
	EXPECT_EQ(words[0], 1u << (RTNLGRP_LINK - 1));
	EXPECT_EQ(words[1], 0xa5a5a5a5);
	len = 0;
	ASSERT_EQ(list_memberships(fd, words, &len), 0);
	EXPECT_EQ(len, want);
	len = sizeof(words);
	EXPECT_EQ(list_memberships(fd, (__u32 *)8, &len), -EFAULT);

	ASSERT_EQ(set_opt(fd, NETLINK_DROP_MEMBERSHIP, RTNLGRP_LINK), 0);
	len = sizeof(words);
	ASSERT_EQ(list_memberships(fd, words, &len), 0);
	EXPECT_EQ(words[0], 0);
	EXPECT_EQ(words[1], 1u << ((RTNLGRP_MAX - 1) % 32));
	close(fd);
}

/* Drops every capability of this process (a forked child). */
static int drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};

	return syscall(SYS_capset, &h, d);
}

/*
 * Without CAP_NET_ADMIN: joining a group of a protocol that lets no
 * unprivileged socket listen (NETLINK_USERSOCK) is EPERM; so is an
 * rtnetlink group whose bind callback wants the capability
 * (RTNLGRP_IPV4_MROUTE_R), while RTNLGRP_LINK joins; without
 * CAP_NET_BROADCAST NETLINK_LISTEN_ALL_NSID is EPERM. The checks run in
 * a child that dropped every capability.
 */
TEST(unprivileged_options_are_eperm)
{
	int st;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (!pid) {
		int route = nl_open(NETLINK_ROUTE);
		int user = nl_open(NETLINK_USERSOCK);

		if (route < 0 || user < 0 || drop_caps())
			_exit(10);
		if (set_opt(user, NETLINK_ADD_MEMBERSHIP, 1) != -1 ||
		    errno != EPERM)
			_exit(11);
		if (set_opt(route, NETLINK_ADD_MEMBERSHIP,
			    RTNLGRP_IPV4_MROUTE_R) != -1 || errno != EPERM)
			_exit(12);
		if (set_opt(route, NETLINK_ADD_MEMBERSHIP, RTNLGRP_LINK))
			_exit(13);
		if (set_opt(route, NETLINK_LISTEN_ALL_NSID, 1) != -1 ||
		    errno != EPERM)
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st));
	/* 10: set-up; 11 ... 14: the checks above, in order */
	EXPECT_EQ(WEXITSTATUS(st), 0);

	/* with the capabilities both work */
	st = nl_open(NETLINK_USERSOCK);
	ASSERT_GE(st, 0);
	EXPECT_EQ(set_opt(st, NETLINK_ADD_MEMBERSHIP, 1), 0);
	EXPECT_EQ(set_opt(st, NETLINK_LISTEN_ALL_NSID, 1), 0);
	close(st);
}

/*
 * A GETFAMILY with NLM_F_ACK whose n-th slab allocation fails
 * (fail-nth), for every n until the request makes fewer than n: the
 * request itself (sendmsg ENOBUFS, nothing comes), nlctrl's reply
 * (NLMSG_ERROR -ENOBUFS instead of it) or the ACK after the reply
 * (netlink(7): the socket's error, ENOBUFS, which the next recv()
 * returns before the reply still queued), and an unknown family's
 * error ACK likewise. Every other request ends in exactly one
 * NLMSG_ERROR; the socket answers afterwards.
 */
struct ack_fault {
	int fd;
	__u16 id;
	struct req r;
	int lost;
	int no_reply;
};

static int ack_fault_call(void *arg)
{
	struct ack_fault *af = arg;

	return nl_send(af->fd, &af->r);
}

static void ack_fault_check(struct __test_metadata *_metadata, void *arg,
			    int n, int sent, long left)
{
	static char buf[BUF_SIZE];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct ack_fault *af = arg;
	int replies, acks, gone, err = 0;
	ssize_t got;

	if (sent) {
		EXPECT_EQ(sent, -ENOBUFS) TH_LOG("n = %d", n);
		EXPECT_EQ(nl_recv(af->fd, buf, sizeof(buf), MSG_DONTWAIT),
			  -EAGAIN);
		return;
	}
	replies = 0;
	acks = 0;
	gone = 0;
	while ((got = nl_recv(af->fd, buf, sizeof(buf), MSG_DONTWAIT)) !=
	       -EAGAIN) {
		if (got == -ENOBUFS) {
			gone++;
			continue;
		}
		ASSERT_GT(got, 0) TH_LOG("n = %d: %zd", n, got);
		if (nh->nlmsg_type != NLMSG_ERROR) {
			EXPECT_EQ(nh->nlmsg_type, GENL_ID_CTRL);
			replies++;
			continue;
		}
		acks++;
		err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	}
	EXPECT_EQ(acks + gone, 1)
		TH_LOG("n = %d: %d ACKs, %d ENOBUFS", n, acks, gone);
	if (gone) {
		/* only the ACK was lost: nlctrl's reply came */
		af->lost++;
		EXPECT_EQ(replies, af->id == GENL_ID_CTRL) TH_LOG("n = %d", n);
	} else if (err == -ENOBUFS) {
		af->no_reply++;
		EXPECT_EQ(replies, 0);
	} else if (af->id == GENL_ID_CTRL) {
		/* -ENOMEM: the attribute table; 0: all went well */
		EXPECT_EQ(err, replies ? 0 : -ENOMEM)
			TH_LOG("n = %d: %d, %d replies", n, err, replies);
	} else {
		EXPECT_TRUE(err == -ENOENT || err == -ENOMEM)
			TH_LOG("n = %d: %d", n, err);
		EXPECT_EQ(replies, 0);
	}
}

static void ack_faults(struct __test_metadata *_metadata, int fd, __u16 id,
		       int *lost, int *no_reply)
{
	struct ack_fault af = { .fd = fd, .id = id };
	int n;

	genl_req(&af.r, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	req_attr(&af.r, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	n = kc_fail_nth_loop(_metadata, 1000, ack_fault_call, ack_fault_check,
			     &af);
	*lost += af.lost;
	*no_reply += af.no_reply;
	printf("# family %#x: %d attempts, %d ACKs lost, %d replies not made\n",
	       id, n, *lost, *no_reply);
	fflush(stdout);
}

TEST_F_TIMEOUT(genl, ack_and_reply_allocation_faults, 120)
{
	int lost = 0, no_reply = 0, ret;

	ret = kc_failslab_setup();
	if (ret)
		SKIP(return, "no failslab in debugfs: %s", strerror(-ret));
	/* bound (autobind) and warm before the first armed send */
	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);

	ack_faults(_metadata, self->fd, GENL_ID_CTRL, &lost, &no_reply);
	EXPECT_GT(lost, 0) TH_LOG("no ACK after a reply was lost");
	EXPECT_GT(no_reply, 0) TH_LOG("no reply failed to allocate");
	lost = 0;
	no_reply = 0;
	ack_faults(_metadata, self->fd, 0xfff0, &lost, &no_reply);
	EXPECT_GT(lost, 0) TH_LOG("no error ACK was lost");

	ASSERT_EQ(ctrl_send(self->fd, &self->r, CTRL_CMD_GETFAMILY, 0,
			    "nlctrl"), 0);
	ASSERT_GT(nl_recv(self->fd, self->buf, sizeof(self->buf), 0), 0);
	EXPECT_EQ(((struct nlmsghdr *)self->buf)->nlmsg_type, GENL_ID_CTRL);
}

/* ---- seeded bad input -------------------------------------- */

#define NL_FUZZ_ITERS	2000
#define NL_FUZZ_MSGS	3

/* Random attributes at @p (at most @room bytes), nested up to @depth. */
static size_t rand_attrs(struct kc_rng *r, char *p, size_t room, int depth)
{
	size_t len = 0, plen, i;
	struct nlattr *a;

	while (room - len >= NLA_HDRLEN + 16 && kc_chance(r, 60)) {
		a = (struct nlattr *)(p + len);
		a->nla_type = kc_chance(r, 80) ? 1 + kc_below(r, 40) : kc_next(r);
		if (depth && kc_chance(r, 30)) {
			if (kc_chance(r, 70))
				a->nla_type |= NLA_F_NESTED;
			plen = rand_attrs(r, p + len + NLA_HDRLEN,
					  room - len - NLA_HDRLEN, depth - 1);
		} else {
			plen = kc_below(r, 17);
			for (i = 0; i < plen; i++)
				p[len + NLA_HDRLEN + i] = kc_next(r);
		}
		a->nla_len = NLA_HDRLEN + plen;
		if (kc_chance(r, 5))		/* a length that lies */
			a->nla_len = kc_below(r, 64);
		len += NLA_ALIGN(NLA_HDRLEN + plen);
	}
	return len;
}

/*
 * Errors that rtnetlink and generic netlink give in 6.1.192 for a bad
 * request, as netlink(7), rtnetlink(7) and intro.rst describe them.
 */
static bool nl_error_documented(int err)
{
	switch (-err) {
	case 0: case EINVAL: case ERANGE: case EOPNOTSUPP: case ENOENT:
	case ENODEV: case EAFNOSUPPORT: case EBUSY: case EMSGSIZE:
	case EPROTONOSUPPORT: case EPERM: case ENOBUFS:
		return true;
	}
	return false;
}

/*
 * Random datagrams of up to three messages to nlctrl (GENL_ID_CTRL or a
 * random family id, a random command) and to rtnetlink (GET requests:
 * no state changes; strict and non-strict sockets): random flags,
 * family headers and attributes nested at random (NLA_F_NESTED or not,
 * lengths that lie), and framing that is right or wrong (nlmsg_len
 * short of a header or past the datagram). netlink_rcv_skb() of
 * 6.1.192 must answer exactly: nothing for a message after bad
 * framing; an ACK (error 0) for a non-request or control message only
 * with NLM_F_ACK; for a request at most one NLMSG_ERROR or NLMSG_DONE
 * (exactly one with NLM_F_ACK), whose error is documented; and the
 * socket answers a valid request afterwards.
 */
TEST_F_TIMEOUT(genl, seeded_random_framing, 300)
{
	static char dgram[NL_FUZZ_MSGS * 1024], buf[BUF_SIZE];
	int i, j, k, fds[3], proto, nmsg, cut, errs[NL_FUZZ_MSGS], dones[NL_FUZZ_MSGS];
	__u32 seq0;
	size_t len, body;
	struct nlmsghdr *nh, *rep;
	long taint = kc_tainted();
	__u16 flags[NL_FUZZ_MSGS], type[NL_FUZZ_MSGS];
	struct kc_rng r;
	ssize_t n;

	kc_rng_init(&r, "netlink_intro.genl.seeded_random_framing");
	/* rtnetlink requests stay in a netns of their own */
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	fds[0] = self->fd;
	fds[1] = nl_open(NETLINK_ROUTE);
	fds[2] = nl_open(NETLINK_ROUTE);
	ASSERT_GE(fds[1], 0);
	ASSERT_GE(fds[2], 0);
	ASSERT_EQ(0, set_opt(fds[2], NETLINK_GET_STRICT_CHK, 1));
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, set_opt(fds[k], NETLINK_EXT_ACK, 1));

	for (i = 0; i < NL_FUZZ_ITERS; i++) {
		proto = kc_below(&r, 3);
		nmsg = 1 + kc_below(&r, NL_FUZZ_MSGS);
		seq0 = 1000 + i * NL_FUZZ_MSGS;
		cut = nmsg;
		len = 0;
		memset(dgram, 0, sizeof(dgram));
		for (j = 0; j < nmsg; j++) {
			nh = (struct nlmsghdr *)(dgram + len);
			if (proto == 0) {
				type[j] = kc_chance(&r, 70) ? GENL_ID_CTRL :
					  kc_below(&r, 0x10000);
			} else {
				type[j] = kc_chance(&r, 85) ?
					  RTM_BASE + 2 +
					  4 * kc_below(&r, (RTM_MAX - RTM_BASE) / 4) :
					  kc_below(&r, 0x10000);
				/* only GET requests: NEW, DEL and SET become GET */
				if (type[j] >= RTM_BASE && type[j] <= RTM_MAX)
					type[j] = (type[j] & ~3) | 2;
			}
			if (kc_chance(&r, 5))
				type[j] = kc_below(&r, NLMSG_MIN_TYPE);
			flags[j] = (kc_chance(&r, 90) ? NLM_F_REQUEST : 0) |
				   (kc_chance(&r, 50) ? NLM_F_ACK : 0) |
				   (kc_chance(&r, 30) ? NLM_F_DUMP : 0) |
				   (kc_chance(&r, 10) ? kc_next(&r) & 0xfff0 : 0);
			nh->nlmsg_type = type[j];
			nh->nlmsg_flags = flags[j];
			nh->nlmsg_seq = seq0 + j;
			body = kc_below(&r, 24);	/* genlmsghdr, ifinfomsg, ... */
			for (k = 0; k < (int)body; k++)
				dgram[len + NLMSG_HDRLEN + k] = kc_next(&r);
			body = NLMSG_ALIGN(body);
			body += rand_attrs(&r, dgram + len + NLMSG_HDRLEN + body,
					   1024 - NLMSG_HDRLEN - body - 16, 3);
			nh->nlmsg_len = NLMSG_HDRLEN + body;
			len += NLMSG_ALIGN(nh->nlmsg_len);
			if (cut == nmsg && kc_chance(&r, 8)) {
				/* bad framing: this one and the rest are dropped */
				cut = j;
				nh->nlmsg_len = kc_chance(&r, 50) ? kc_below(&r, NLMSG_HDRLEN) :
						 sizeof(dgram) + kc_below(&r, 1000);
			}
		}
		ASSERT_EQ((ssize_t)len, send(fds[proto], dgram, len, 0))
			TH_LOG("iteration %d: %s", i, strerror(errno));

		memset(errs, 0, sizeof(errs));
		memset(dones, 0, sizeof(dones));
		while ((n = nl_recv(fds[proto], buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			for (rep = (struct nlmsghdr *)buf; NLMSG_OK(rep, n);
			     rep = NLMSG_NEXT(rep, n)) {
				j = rep->nlmsg_seq - seq0;
				ASSERT_TRUE(j >= 0 && j < cut)
					TH_LOG("iteration %d: reply %u seq %u, %d msgs, cut %d",
					       i, rep->nlmsg_type, rep->nlmsg_seq, nmsg, cut);
				if (rep->nlmsg_type == NLMSG_ERROR) {
					errs[j]++;
					k = ((struct nlmsgerr *)NLMSG_DATA(rep))->error;
				} else if (rep->nlmsg_type == NLMSG_DONE) {
					dones[j]++;
					k = *(int *)NLMSG_DATA(rep);
				} else {
					continue;
				}
				EXPECT_TRUE(nl_error_documented(k))
					TH_LOG("iteration %d, message %d (%#x, %#x, proto %d): %d",
					       i, j, type[j], flags[j], proto, k);
				if (!(flags[j] & NLM_F_REQUEST) || type[j] < NLMSG_MIN_TYPE)
					EXPECT_EQ(0, k)
						TH_LOG("iteration %d: non-request answered %d",
						       i, k);
			}
		}
		EXPECT_EQ(-EAGAIN, n) TH_LOG("iteration %d", i);
		for (j = 0; j < cut; j++) {
			if (!(flags[j] & NLM_F_REQUEST) || type[j] < NLMSG_MIN_TYPE) {
				EXPECT_EQ(!!(flags[j] & NLM_F_ACK), errs[j] + dones[j])
					TH_LOG("iteration %d, message %d: type %#x flags %#x",
					       i, j, type[j], flags[j]);
				continue;
			}
			EXPECT_LE(errs[j] + dones[j], 1)
				TH_LOG("iteration %d, message %d: %d errors, %d done",
				       i, j, errs[j], dones[j]);
			if (flags[j] & NLM_F_ACK)
				EXPECT_EQ(1, errs[j] + dones[j])
					TH_LOG("iteration %d, message %d: %#x %#x proto %d",
					       i, j, type[j], flags[j], proto);
		}
		/* still answers: nlctrl's GETFAMILY, rtnetlink's lo */
		if (proto == 0) {
			ASSERT_EQ(0, ctrl_send(fds[0], &self->r, CTRL_CMD_GETFAMILY, 0, "nlctrl"));
		} else {
			struct ifinfomsg ifi = { .ifi_index = 1 };

			req_init(&self->r, RTM_GETLINK, 0);
			req_put(&self->r, &ifi, sizeof(ifi));
			ASSERT_EQ(0, nl_send(fds[proto], &self->r));
		}
		n = nl_recv(fds[proto], buf, sizeof(buf), 0);
		ASSERT_GT(n, 0);
		EXPECT_EQ(proto ? RTM_NEWLINK : GENL_ID_CTRL, ((struct nlmsghdr *)buf)->nlmsg_type)
			TH_LOG("iteration %d", i);
		ASSERT_EQ(taint, kc_tainted()) TH_LOG("tainted at iteration %d", i);
		if (!kc_passed(_metadata))
			break;
	}
	close(fds[1]);
	close(fds[2]);
}

/* -------- NETLINK_LISTEN_ALL_NSID -------- */

/* The nsid the netns of @ns_fd gets in the caller's netns */
#define PEER_NSID	7

/*
 * A bound rtnetlink socket with NETLINK_LISTEN_ALL_NSID in the caller's
 * netns; it joins no group yet.
 */
static int all_nsid_listener(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = nl_open(NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    set_opt(fd, NETLINK_LISTEN_ALL_NSID, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* RTM_NEWNSID: the netns of @ns_fd gets @nsid in the caller's netns. */
static int set_nsid(int ns_fd, int nsid)
{
	struct rtgenmsg g = { .rtgen_family = AF_UNSPEC };
	char buf[1024];
	struct req r;
	__u32 fd = ns_fd;
	ssize_t n;
	int sock = nl_open(NETLINK_ROUTE), ret = -EIO;

	if (sock < 0)
		return -errno;
	req_init(&r, RTM_NEWNSID, NLM_F_ACK);
	req_put(&r, &g, sizeof(g));
	req_attr(&r, NETNSA_NSID, &nsid, sizeof(nsid));
	req_attr(&r, NETNSA_FD, &fd, sizeof(fd));
	if (!nl_send(sock, &r)) {
		n = nl_recv(sock, buf, sizeof(buf), 0);
		if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
		    ((struct nlmsghdr *)buf)->nlmsg_type == NLMSG_ERROR)
			ret = ((struct nlmsgerr *)NLMSG_DATA(buf))->error;
	}
	close(sock);
	return ret;
}

/* What a listener got: messages, and how many had which nsid cmsg. */
struct nsid_seen {
	int msgs, with_nsid, nsid;
};

/*
 * Read what @fd was sent (the first within 2 s, the rest until 300 ms
 * pass without one) and count the NETLINK_LISTEN_ALL_NSID cmsgs.
 */
static void nsid_read(int fd, struct nsid_seen *seen)
{
	struct timeval tv = { .tv_sec = 2 };
	char buf[8192], ctl[CMSG_SPACE(sizeof(int)) * 4];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memset(seen, 0, sizeof(*seen));
	seen->nsid = -1;
	for (;;) {
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		mh.msg_control = ctl;
		mh.msg_controllen = sizeof(ctl);
		if (recvmsg(fd, &mh, 0) <= 0)
			return;
		seen->msgs++;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_NETLINK ||
			    c->cmsg_type != NETLINK_LISTEN_ALL_NSID)
				continue;
			seen->with_nsid++;
			memcpy(&seen->nsid, CMSG_DATA(c), sizeof(int));
		}
		tv.tv_sec = 0;
		tv.tv_usec = 300000;
	}
}

/* Bring lo up or down through @ioc, a socket of lo's netns. */
static int lo_set(int ioc, int up)
{
	struct ifreq ifr = {};

	strcpy(ifr.ifr_name, "lo");
	if (ioctl(ioc, SIOCGIFFLAGS, &ifr))
		return -errno;
	ifr.ifr_flags = up ? ifr.ifr_flags | IFF_UP : ifr.ifr_flags & ~IFF_UP;
	return ioctl(ioc, SIOCSIFFLAGS, &ifr) ? -errno : 0;
}

/*
 * "net: netlink: fix sending unassigned nsid after assigned one" (6.1.176;
 * Debian 6.1.176-1). Netns A gives netns B the nsid PEER_NSID; an
 * RTNLGRP_LINK listener with NETLINK_LISTEN_ALL_NSID in each; lo goes up
 * in B. The one in A gets B's events with the cmsg NETLINK_LISTEN_ALL_NSID
 * = PEER_NSID; the one in B, the sender's own netns, gets them with no
 * nsid cmsg, whichever listener joined first (netlink_broadcast() visits
 * the one that joined last first). 6.1.170-3's do_one_broadcast() never
 * clears nsid_is_set of the skb it hands on: when A's listener comes
 * first, the clone for B's copies the flag, its nsid is set to B's id
 * for itself, which is none, and B's listener gets a cmsg with nsid -1
 * (NETNSA_NSID_NOT_ASSIGNED; seen with the change reverted).
 */
TEST(listen_all_nsid_own_netns_gets_no_nsid)
{
	struct nsid_seen in_a, in_b;
	int order, ns_b, la, lb, ioc;

	if (geteuid())
		SKIP(return, "needs root");
	for (order = 0; order < 2; order++) {
		ASSERT_EQ(unshare(CLONE_NEWNET), 0);
		ns_b = open("/proc/self/ns/net", O_RDONLY);
		ASSERT_GE(ns_b, 0);
		lb = all_nsid_listener();
		ASSERT_GE(lb, 0);
		ioc = socket(AF_INET, SOCK_DGRAM, 0);
		ASSERT_GE(ioc, 0);
		ASSERT_EQ(unshare(CLONE_NEWNET), 0);
		la = all_nsid_listener();
		ASSERT_GE(la, 0);
		ASSERT_EQ(set_nsid(ns_b, PEER_NSID), 0);

		/* order 0: A's listener joins last, so it is visited first */
		ASSERT_EQ(set_opt(order ? la : lb, NETLINK_ADD_MEMBERSHIP,
				  RTNLGRP_LINK), 0);
		ASSERT_EQ(set_opt(order ? lb : la, NETLINK_ADD_MEMBERSHIP,
				  RTNLGRP_LINK), 0);
		ASSERT_EQ(lo_set(ioc, 1), 0);
		nsid_read(lb, &in_b);
		nsid_read(la, &in_a);
		TH_LOG("order %d: B's listener %d messages, %d with nsid %d; "
		       "A's %d, %d with nsid %d", order, in_b.msgs, in_b.with_nsid, in_b.nsid,
		       in_a.msgs, in_a.with_nsid, in_a.nsid);
		EXPECT_GE(in_b.msgs, 1);
		EXPECT_EQ(in_b.with_nsid, 0);
		EXPECT_GE(in_a.msgs, 1);
		EXPECT_EQ(in_a.with_nsid, in_a.msgs);
		EXPECT_EQ(in_a.nsid, PEER_NSID);
		close(la);
		close(lb);
		close(ioc);
		close(ns_b);
	}
}

TEST_HARNESS_MAIN
