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
 * The three steps a fault-injection case repeats: link @prog, make an
 * iterator of the link, read it once into @buf. Returns 0 or the -errno
 * of the first step that failed; *@it (or -1) and *@len (or -2 when no
 * read was made) say how far it got. The caller closes *@it and
 * destroys *@link.
 */
static inline int iter_link_read_once(struct bpf_program *prog,
				      union bpf_iter_link_info *linfo,
				      struct bpf_link **link, void *buf,
				      size_t size, int *it, ssize_t *len)
{
	int ret = iter_link(prog, linfo, link);

	*it = -1;
	*len = -2;
	if (!ret) {
		*it = bpf_iter_create(bpf_link__fd(*link));
		if (*it < 0)
			ret = -errno;
	}
	if (!ret) {
		*len = read(*it, buf, size);
		if (*len < 0)
			ret = -errno;
	}
	return ret;
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
