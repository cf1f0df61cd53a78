/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw netlink requests and replies for netlink_intro's tests: build a
 * request in a struct req, send it, receive into a buffer, find
 * attributes and extended ACK TLVs, read a family's policies
 * (CTRL_CMD_GETPOLICY).
 */
#ifndef NL_UTIL_H
#define NL_UTIL_H

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define BUF_SIZE	32768
#define SEQ		0x4b43

struct req {
	struct nlmsghdr nh;
	char body[1024];
};

static inline int nl_open(int proto)
{
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static inline int set_opt(int fd, int opt, int val)
{
	return setsockopt(fd, SOL_NETLINK, opt, &val, sizeof(val));
}

static inline void req_init(struct req *r, __u16 type, __u16 flags)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_HDRLEN;
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nh.nlmsg_seq = SEQ;
}

/* Append @len bytes of fixed header or payload. */
static inline void *req_put(struct req *r, const void *data, size_t len)
{
	char *at = (char *)r + NLMSG_ALIGN(r->nh.nlmsg_len);

	memcpy(at, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + len;
	return at;
}

/* Append an attribute; returns its offset from the start of the message. */
static inline int req_attr(struct req *r, __u16 type, const void *data, size_t len)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
	int off = NLMSG_ALIGN(r->nh.nlmsg_len);

	req_put(r, &nla, sizeof(nla));
	if (len)
		memcpy((char *)r + off + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = off + NLA_ALIGN(NLA_HDRLEN + len);
	return off;
}

/* A generic netlink request to the family @id. */
static inline void genl_req_to(struct req *r, __u16 id, __u8 cmd,
			       __u16 flags)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	req_init(r, id, flags);
	req_put(r, &g, sizeof(g));
}

static inline void genl_req(struct req *r, __u8 cmd, __u16 flags)
{
	genl_req_to(r, GENL_ID_CTRL, cmd, flags);
}

/* Open a nest (NLA_F_NESTED); returns its offset for req_nest_end(). */
static inline int req_nest_start(struct req *r, __u16 type)
{
	return req_attr(r, type | NLA_F_NESTED, NULL, 0);
}

static inline void req_nest_end(struct req *r, int off)
{
	struct nlattr *nla = (struct nlattr *)((char *)r + off);

	nla->nla_len = r->nh.nlmsg_len - off;
}

static inline int nl_send(int fd, struct req *r)
{
	return send(fd, &r->nh, r->nh.nlmsg_len, 0) == r->nh.nlmsg_len ?
		0 : -errno;
}

/* Send nlctrl's @cmd for the family called @name: 0 or -errno. */
static inline int ctrl_send(int fd, struct req *r, __u8 cmd, __u16 flags,
			    const char *name)
{
	genl_req(r, cmd, flags);
	req_attr(r, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	return nl_send(fd, r);
}

/* One datagram into @buf: its length, or -errno. */
static inline ssize_t nl_recv(int fd, void *buf, size_t size, int flags)
{
	ssize_t n = recv(fd, buf, size, flags);

	return n < 0 ? -errno : n;
}

/* The attribute @type among those from @start to @end, or NULL. */
static inline struct nlattr *attr_find(void *start, void *end, __u16 type)
{
	struct nlattr *a = start;

	while ((char *)a + NLA_HDRLEN <= (char *)end &&
	       a->nla_len >= NLA_HDRLEN &&
	       (char *)a + a->nla_len <= (char *)end) {
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return NULL;
}

#define ATTR_DATA(a)	((void *)((char *)(a) + NLA_HDRLEN))
#define ATTR_U32(a)	(*(__u32 *)ATTR_DATA(a))

/* The attribute @type inside the nest @nest, or NULL. */
static inline struct nlattr *nest_attr(struct nlattr *nest, __u16 type)
{
	return attr_find(ATTR_DATA(nest), (char *)nest + nest->nla_len, type);
}

/* The attributes of a generic netlink message. */
static inline struct nlattr *genl_attr(struct nlmsghdr *nh, __u16 type)
{
	return attr_find((char *)NLMSG_DATA(nh) + GENL_HDRLEN,
			 (char *)nh + nh->nlmsg_len, type);
}

/*
 * The extack TLVs of an NLMSG_ERROR or NLMSG_DONE: after the echoed
 * request for an error, after the int for DONE.
 */
static inline struct nlattr *ack_tlv(struct nlmsghdr *nh, __u16 type)
{
	struct nlmsgerr *e = NLMSG_DATA(nh);
	char *tlvs;

	if (nh->nlmsg_type == NLMSG_DONE)
		tlvs = (char *)NLMSG_DATA(nh) + sizeof(int);
	else if (nh->nlmsg_flags & NLM_F_CAPPED)
		tlvs = (char *)(e + 1);
	else
		tlvs = (char *)&e->msg + NLMSG_ALIGN(e->msg.nlmsg_len);
	return attr_find(tlvs, (char *)nh + nh->nlmsg_len, type);
}

/* One attribute of a policy, as CTRL_CMD_GETPOLICY describes it. */
struct pol_attr {
	__u32 type;
	int has_u, has_s, has_len, has_idx;
	__u64 min_u, max_u;
	__s64 min_s, max_s;
	__u32 max_len, idx, maxtype;
};

#define N_POL	8
struct policies {
	int do_idx[16], dump_idx[16];	/* by op, -1: none */
	struct pol_attr attr[N_POL][16];	/* [policy][attr], type 0: none */
	int n_attrs[N_POL];
};

/* Copy attribute @type of @nest, @len bytes, to @to; 1 if it is there. */
static inline int pol_get(struct nlattr *nest, int type, void *to, size_t len)
{
	struct nlattr *a = nest_attr(nest, type);

	if (a)
		memcpy(to, ATTR_DATA(a), len);
	return !!a;
}

static inline void pol_attr_read(struct nlattr *nest, struct pol_attr *p)
{
	memset(p, 0, sizeof(*p));
	pol_get(nest, NL_POLICY_TYPE_ATTR_TYPE, &p->type, 4);
	p->has_u = pol_get(nest, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, &p->min_u, 8);
	if (p->has_u)
		pol_get(nest, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, &p->max_u, 8);
	p->has_s = pol_get(nest, NL_POLICY_TYPE_ATTR_MIN_VALUE_S, &p->min_s, 8);
	if (p->has_s)
		pol_get(nest, NL_POLICY_TYPE_ATTR_MAX_VALUE_S, &p->max_s, 8);
	p->has_len = pol_get(nest, NL_POLICY_TYPE_ATTR_MAX_LENGTH,
			     &p->max_len, 4);
	p->has_idx = pol_get(nest, NL_POLICY_TYPE_ATTR_POLICY_IDX, &p->idx, 4);
	if (p->has_idx)
		pol_get(nest, NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE, &p->maxtype, 4);
}

/*
 * CTRL_CMD_GETPOLICY of the family @fam, dumped into @p: each op's do and
 * dump policy (by command), each policy's attributes. Returns NLMSG_DONE's
 * error (0), or -1 on a malformed or failed dump.
 */
static inline int getpolicy(int fd, __u16 fam, struct policies *p)
{
	static char buf[BUF_SIZE];
	struct req r;
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 16; i++) {
		p->do_idx[i] = -1;
		p->dump_idx[i] = -1;
	}
	genl_req(&r, CTRL_CMD_GETPOLICY, NLM_F_ACK | NLM_F_DUMP);
	req_attr(&r, CTRL_ATTR_FAMILY_ID, &fam, sizeof(fam));
	if (nl_send(fd, &r))
		return -1;
	for (;;) {
		ssize_t n = nl_recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n <= 0)
			return -1;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlattr *a, *pol, *at;

			if (nh->nlmsg_type == NLMSG_DONE)
				return *(int *)NLMSG_DATA(nh);
			if (nh->nlmsg_type != GENL_ID_CTRL)
				return -1;
			a = genl_attr(nh, CTRL_ATTR_OP_POLICY);
			if (a) {
				struct nlattr *op = ATTR_DATA(a), *x;
				__u16 cmd = op->nla_type & NLA_TYPE_MASK;

				if (cmd >= 16)
					return -1;
				x = nest_attr(op, CTRL_ATTR_POLICY_DO);
				if (x)
					p->do_idx[cmd] = ATTR_U32(x);
				x = nest_attr(op, CTRL_ATTR_POLICY_DUMP);
				if (x)
					p->dump_idx[cmd] = ATTR_U32(x);
				continue;
			}
			a = genl_attr(nh, CTRL_ATTR_POLICY);
			if (!a)
				return -1;
			pol = ATTR_DATA(a);
			at = ATTR_DATA(pol);
			i = pol->nla_type & NLA_TYPE_MASK;
			if (i >= N_POL ||
			    (at->nla_type & NLA_TYPE_MASK) >= 16)
				return -1;
			pol_attr_read(at, &p->attr[i][at->nla_type &
						      NLA_TYPE_MASK]);
			p->n_attrs[i]++;
		}
	}
}

#endif
