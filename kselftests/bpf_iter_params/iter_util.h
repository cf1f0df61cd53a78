/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cgroup_iter_test and task_iter_test share: make an iterator link
 * with given parameters, read it in chunks of a chosen size (a small
 * chunk makes every read() a new seq_file session, so the iterator
 * resumes through its stop()/start()), and look at the link from user
 * space: bpf_link_info, /proc/self/fdinfo and Debian's bpftool.
 */
#ifndef ITER_UTIL_H
#define ITER_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../kconform_util.h"
#include "../kconform_fuzz.h"

/* An iterator link for @prog, or -errno (libbpf 1.1 sets errno). */
static inline int iter_link(struct bpf_program *prog,
			    union bpf_iter_link_info *linfo,
			    struct bpf_link **link)
{
	LIBBPF_OPTS(bpf_iter_attach_opts, opts);

	if (linfo) {
		opts.link_info = linfo;
		opts.link_info_len = sizeof(*linfo);
	}
	*link = bpf_program__attach_iter(prog, &opts);
	if (!*link)
		return -errno;
	return 0;
}

/*
 * A fault-injection case of both tests (iter_fault_injection()): the
 * link of @prog with @linfo, an iterator of it and its first read() of
 * @size bytes into @buf; a read that goes through gives @want_len bytes
 * and a first record whose first field (of @first_size bytes: 4 or 8)
 * is @want_first. *@link is where the link is kept (and destroyed).
 */
struct iter_fault {
	struct bpf_program *prog;
	union bpf_iter_link_info linfo;
	struct bpf_link **link;
	size_t size;
	ssize_t want_len;
	size_t first_size;
	__u64 want_first;
	union {
		__u32 u32[16];
		__u64 u64[8];
	} buf;
	int it;		/* the iterator, or -1 */
	ssize_t len;	/* what read() gave, or -2 when none was made */
	int enomem;
};

/* Link, iterator, one read; returns 0 or the -errno of the step that failed. */
static inline int iter_fault_call(void *arg)
{
	struct iter_fault *f = arg;
	int ret = iter_link(f->prog, &f->linfo, f->link);

	f->it = -1;
	f->len = -2;
	if (!ret) {
		f->it = bpf_iter_create(bpf_link__fd(*f->link));
		if (f->it < 0)
			ret = -errno;
	}
	if (!ret) {
		f->len = read(f->it, &f->buf, f->size);
		if (f->len < 0)
			ret = -errno;
	}
	return ret;
}

static inline void iter_fault_check(struct __test_metadata *_metadata,
				    void *arg, int n, int ret, long left)
{
	struct iter_fault *f = arg;

	if (ret) {
		EXPECT_EQ(-ENOMEM, ret) TH_LOG("n = %d: link %p, iterator %d, read %zd",
					       n, *f->link, f->it, f->len);
		EXPECT_EQ(0, left);
		f->enomem++;
	} else {
		EXPECT_EQ(f->want_len, f->len) TH_LOG("n = %d", n);
		EXPECT_EQ(f->want_first, f->first_size == 4 ?
			  f->buf.u32[0] : f->buf.u64[0]);
	}
	if (f->it >= 0)
		close(f->it);
	bpf_link__destroy(*f->link);
	*f->link = NULL;
}

/*
 * Every step fails with ENOMEM (bpf(2), read(2)) or the read gives what
 * it should, for every n until the three make fewer than n.
 */
static inline void iter_fault_injection(struct __test_metadata *_metadata,
					struct iter_fault *f)
{
	int n;

	libbpf_set_print(NULL);
	n = kc_fail_nth_loop(_metadata, 5000, iter_fault_call, iter_fault_check, f);
	printf("# %d attempts: %d ENOMEM\n", n, f->enomem);
	fflush(stdout);
	EXPECT_GT(f->enomem, 0);
}

/* How a read to the end went: read() calls made, and -errno or 0 (EOF). */
struct iter_end {
	int reads;
	int err;
};

/*
 * Read a fresh iterator of @link in reads of @chunk bytes (less when @buf
 * has less room left) until EOF or a failing read(). Returns the bytes
 * read before either, or -errno if no iterator could be made; @end (may
 * be NULL) says how it ended.
 */
static inline ssize_t iter_read(struct bpf_link *link, void *buf, size_t size,
				size_t chunk, struct iter_end *end)
{
	struct iter_end e = {};
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0)
		return -errno;
	for (;;) {
		if (len == size) {
			e.err = -ENOBUFS;
			break;
		}
		e.reads++;
		n = read(fd, (char *)buf + len,
			 chunk < size - len ? chunk : size - len);
		if (n <= 0) {
			e.err = n ? -errno : 0;
			break;
		}
		len += n;
	}
	close(fd);
	if (end)
		*end = e;
	return len;
}

static inline int iter_info(struct bpf_link *link, struct bpf_link_info *info,
			    char *target, size_t target_size)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->iter.target_name = (__u64)(unsigned long)target;
	info->iter.target_name_len = target_size;
	if (bpf_obj_get_info_by_fd(bpf_link__fd(link), info, &len))
		return -errno;
	return 0;
}

/* Does /proc/self/fdinfo/<link fd> hold the line @want? */
static inline int fdinfo_has(struct bpf_link *link, const char *want)
{
	char path[64], line[512];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d",
		 bpf_link__fd(link));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, want);
	}
	fclose(f);
	return found;
}

/* Every line of fdinfo, for a failure message. */
static inline void fdinfo_text(struct bpf_link *link, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d",
		 bpf_link__fd(link));
	buf[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/*
 * `bpftool link show id <id>` of Debian's bpftool, installed next to
 * the test; its output in @out. Returns bpftool's exit status.
 */
static inline int bpftool_link_show(__u32 id, char *out, size_t size)
{
	char cmd[PATH_MAX + 96];

	snprintf(cmd, sizeof(cmd), "%s link show id %u 2>&1", here("bpftool"),
		 id);
	return capture(cmd, out, size);
}

#endif
