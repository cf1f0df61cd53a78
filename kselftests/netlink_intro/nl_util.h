/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw netlink requests and replies for netlink_intro's tests: build a
 * request in a struct req, send it, receive into a buffer, find
 * attributes and extended ACK TLVs.
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

#endif
