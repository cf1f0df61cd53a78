// SPDX-License-Identifier: GPL-2.0
/*
 * STATX_DIOALIGN as statx(2) and open(2) describe it (825cf206ed51,
 * "statx: add direct I/O alignment information", and the block device,
 * ext4, f2fs and xfs support that came with it in 6.1):
 *
 *   - asked for, STATX_DIOALIGN reports stx_dio_mem_align, the alignment
 *     of user memory, and stx_dio_offset_align, the alignment of file
 *     offsets and lengths, for O_DIRECT on that file; both 0 when the file
 *     supports no direct I/O; not asked for, ext4, f2fs and xfs leave the
 *     bit clear, and files that are not regular never set it;
 *   - for a block device node the values are the device's (dma_alignment
 *     + 1 and logical_block_size in /sys/block/<dev>/queue), whatever file
 *     system holds the node, also through AT_EMPTY_PATH on an open fd; a
 *     node with no disk behind it is no error, just no STATX_DIOALIGN;
 *   - the values work: O_DIRECT with memory and offset aligned to them
 *     succeeds, and moving either by half the alignment fails with EINVAL
 *     (where the code promises EINVAL rather than a buffered fall-back).
 *
 * Each fixture makes a loop device over a sparse file on the guest's
 * tmpfs with LOOP_CONFIGURE, at a logical block size of 512 or 4096,
 * and for the file systems runs Debian's mkfs (copied next to the test)
 * and mounts it. Pinned to 6.1.192: ext4 and xfs report the device's
 * dma_alignment + 1 and logical block size, f2fs its block size for both.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "../kconform_util.h"

#define BACKING_SIZE	(320 << 20)	/* mkfs.xfs wants 300 MiB at least */
#define FILE_SIZE	(64 << 10)
#define MNT		"/tmp/kconform-statx-mnt"

struct loopdev {
	int backing;
	int fd;
	int nr;
	char dev[32];
	char backing_path[64];
};

static int loop_make(struct loopdev *l, unsigned int lbs, const char *tag)
{
	struct loop_config cfg = {};
	int ctl;

	l->fd = -1;
	l->backing = -1;
	snprintf(l->backing_path, sizeof(l->backing_path),
		 "/tmp/kconform-statx-%s.img", tag);
	l->backing = open(l->backing_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (l->backing < 0 || ftruncate(l->backing, BACKING_SIZE))
		return -errno;
	ctl = open("/dev/loop-control", O_RDWR);
	if (ctl < 0)
		return -errno;
	l->nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (l->nr < 0)
		return -errno;
	snprintf(l->dev, sizeof(l->dev), "/dev/loop%d", l->nr);
	l->fd = open(l->dev, O_RDWR);
	if (l->fd < 0)
		return -errno;
	cfg.fd = l->backing;
	cfg.block_size = lbs;
	if (ioctl(l->fd, LOOP_CONFIGURE, &cfg))
		return -errno;
	return 0;
}

static void loop_remove(struct loopdev *l)
{
	if (l->fd >= 0) {
		ioctl(l->fd, LOOP_CLR_FD, 0);
		close(l->fd);
	}
	if (l->backing >= 0)
		close(l->backing);
	unlink(l->backing_path);
}

/* A number from /sys/block/loopN/queue/@name, or -1. */
static long queue_value(const struct loopdev *l, const char *name)
{
	char path[96], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/loop%d/queue/%s", l->nr,
		 name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int dio_statx(int dirfd, const char *path, int flags,
		     unsigned int mask, struct statx *stx)
{
	memset(stx, 0xa5, sizeof(*stx));
	if (statx(dirfd, path, flags, mask, stx))
		return -errno;
	return 0;
}

/* STATX_DIOALIGN reported, with these two values. */
static void expect_dioalign(struct __test_metadata *_metadata,
			    const struct statx *stx, __u32 mem, __u32 off)
{
	EXPECT_TRUE(stx->stx_mask & STATX_DIOALIGN);
	EXPECT_EQ(stx->stx_dio_mem_align, mem);
	EXPECT_EQ(stx->stx_dio_offset_align, off);
}

/*
 * One O_DIRECT pread of @len bytes at @off into memory @mem_off bytes
 * past a 64 KiB boundary: bytes read, or -errno.
 */
static ssize_t dio_read(const char *path, off_t off, size_t len,
			size_t mem_off)
{
	static char *area;
	ssize_t n;
	int fd;

	if (!area && posix_memalign((void **)&area, 65536, 4 * 65536))
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return -errno;
	n = pread(fd, area + mem_off, len, off);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/*
 * The values work for O_DIRECT; half of the offset alignment fails with
 * EINVAL, and so does half of the memory alignment where the reported
 * value is the real limit (@mem_is_limit). Memory is aligned to
 * dio_mem_align but, where that is less than dio_offset_align,
 * deliberately not to more.
 */
static void expect_values_work(struct __test_metadata *_metadata,
			       const char *path, const struct statx *stx,
			       bool mem_is_limit)
{
	__u32 mem = stx->stx_dio_mem_align, off = stx->stx_dio_offset_align;
	size_t mem_off = mem < off ? mem : 0;

	ASSERT_GT(mem, 0);
	ASSERT_GT(off, 0);
	EXPECT_EQ(dio_read(path, off, off, mem_off), off)
		TH_LOG("aligned: offset %u, memory %zu", off, mem_off);
	EXPECT_EQ(dio_read(path, off + off / 2, off, mem_off), -EINVAL)
		TH_LOG("offset %u", off + off / 2);
	if (mem_is_limit)
		EXPECT_EQ(dio_read(path, off, off, mem_off + mem / 2), -EINVAL)
			TH_LOG("memory %zu past a %u boundary", mem_off + mem / 2,
			       mem);
}

FIXTURE(bdev) {
	struct loopdev l;
};

FIXTURE_VARIANT(bdev) {
	unsigned int lbs;
};

FIXTURE_VARIANT_ADD(bdev, lbs_512) { .lbs = 512 };
FIXTURE_VARIANT_ADD(bdev, lbs_4096) { .lbs = 4096 };

FIXTURE_SETUP(bdev)
{
	ASSERT_EQ(loop_make(&self->l, variant->lbs, "bdev"), 0)
		TH_LOG("loop device: %s", strerror(errno));
}

FIXTURE_TEARDOWN(bdev)
{
	loop_remove(&self->l);
}

TEST_F(bdev, values_are_the_queue_limits)
{
	struct statx stx;

	ASSERT_EQ(queue_value(&self->l, "logical_block_size"), variant->lbs);
	ASSERT_EQ(dio_statx(AT_FDCWD, self->l.dev, 0, STATX_DIOALIGN, &stx),
		  0);
	EXPECT_EQ(stx.stx_dio_mem_align,
		  queue_value(&self->l, "dma_alignment") + 1);
	expect_dioalign(_metadata, &stx, 512, variant->lbs);
}

TEST_F(bdev, empty_path_on_an_open_fd)
{
	struct statx stx;

	ASSERT_EQ(dio_statx(self->l.fd, "", AT_EMPTY_PATH, STATX_DIOALIGN,
			    &stx), 0);
	expect_dioalign(_metadata, &stx, 512, variant->lbs);
}

TEST_F(bdev, not_asked_for_not_reported)
{
	struct statx stx;

	ASSERT_EQ(dio_statx(AT_FDCWD, self->l.dev, 0, STATX_BASIC_STATS, &stx),
		  0);
	EXPECT_FALSE(stx.stx_mask & STATX_DIOALIGN);
}

/* A node of the same device made on tmpfs reports the device. */
TEST_F(bdev, node_elsewhere_reports_the_device)
{
	const char *node = "/tmp/kconform-statx-node";
	struct statx stx;
	struct stat st;

	ASSERT_EQ(fstat(self->l.fd, &st), 0);
	unlink(node);
	ASSERT_EQ(mknod(node, S_IFBLK | 0600, st.st_rdev), 0);
	EXPECT_EQ(dio_statx(AT_FDCWD, node, 0, STATX_DIOALIGN, &stx), 0);
	unlink(node);
	expect_dioalign(_metadata, &stx, 512, variant->lbs);
}

TEST_F(bdev, values_work_for_o_direct)
{
	struct statx stx;

	ASSERT_EQ(dio_statx(AT_FDCWD, self->l.dev, 0, STATX_DIOALIGN, &stx),
		  0);
	expect_values_work(_metadata, self->l.dev, &stx, true);
}

TEST(bdev_node_without_disk_has_no_dioalign)
{
	const char *node = "/tmp/kconform-statx-nodisk";
	struct statx stx;

	unlink(node);
	ASSERT_EQ(mknod(node, S_IFBLK | 0600, makedev(240, 99)), 0);
	EXPECT_EQ(dio_statx(AT_FDCWD, node, 0, STATX_DIOALIGN, &stx), 0);
	unlink(node);
	EXPECT_FALSE(stx.stx_mask & STATX_DIOALIGN);
	EXPECT_TRUE(stx.stx_mask & STATX_TYPE);
}

/* A file system on a loop device, mounted, with one file of data. */
FIXTURE(fs) {
	struct loopdev l;
	char file[PATH_MAX];
	int mounted;
};

FIXTURE_VARIANT(fs) {
	const char *type;
	unsigned int lbs;
	const char *mkfs_args;
	/* what 6.1.192 reports for a regular file: 0 = the device's */
	unsigned int mem_align, offset_align;
	/*
	 * f2fs reports its block size for memory too, more than the device's
	 * dma_alignment + 1 that its direct I/O really needs: memory aligned
	 * to half of it still works, and that is no bug.
	 */
	bool mem_above_limit;
};

FIXTURE_VARIANT_ADD(fs, ext4_lbs_512) {
	.type = "ext4", .lbs = 512, .mkfs_args = "-q -F -b 4096",
};

FIXTURE_VARIANT_ADD(fs, ext4_lbs_4096) {
	.type = "ext4", .lbs = 4096, .mkfs_args = "-q -F -b 4096",
};

FIXTURE_VARIANT_ADD(fs, xfs_lbs_512) {
	.type = "xfs", .lbs = 512, .mkfs_args = "-q -f",
};

FIXTURE_VARIANT_ADD(fs, xfs_lbs_4096) {
	.type = "xfs", .lbs = 4096, .mkfs_args = "-q -f",
};

FIXTURE_VARIANT_ADD(fs, f2fs_lbs_4096) {
	.type = "f2fs", .lbs = 4096, .mkfs_args = "-q -f",
	.mem_align = 4096, .offset_align = 4096, .mem_above_limit = true,
};

FIXTURE_SETUP(fs)
{
	char cmd[PATH_MAX * 2], out[4096], data[4096];
	int fd, i;

	self->mounted = 0;
	umount(MNT);
	ASSERT_EQ(loop_make(&self->l, variant->lbs, variant->type), 0)
		TH_LOG("loop device: %s", strerror(errno));
	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1",
		 here(variant->type[0] == 'e' ? "mkfs.ext4" :
		      variant->type[0] == 'x' ? "mkfs.xfs" : "mkfs.f2fs"),
		 variant->mkfs_args, self->l.dev);
	ASSERT_EQ(capture(cmd, out, sizeof(out)), 0) TH_LOG("%s: %s", cmd, out);
	mkdir(MNT, 0755);
	ASSERT_EQ(mount(self->l.dev, MNT, variant->type, 0, NULL), 0)
		TH_LOG("mount %s: %s", variant->type, strerror(errno));
	self->mounted = 1;
	snprintf(self->file, sizeof(self->file), "%s/data", MNT);
	fd = open(self->file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(fd, 0);
	memset(data, 'k', sizeof(data));
	for (i = 0; i < FILE_SIZE / (int)sizeof(data); i++)
		ASSERT_EQ(write(fd, data, sizeof(data)), sizeof(data));
	ASSERT_EQ(fsync(fd), 0);
	close(fd);
}

FIXTURE_TEARDOWN(fs)
{
	if (self->mounted)
		umount(MNT);
	loop_remove(&self->l);
}

static void want_values(FIXTURE_VARIANT(fs) const *variant, __u32 *mem,
			__u32 *off)
{
	*mem = variant->mem_align ? variant->mem_align : 512;
	*off = variant->offset_align ? variant->offset_align : variant->lbs;
}

TEST_F(fs, regular_file_reports_values)
{
	struct statx stx;
	__u32 mem, off;

	want_values(variant, &mem, &off);
	ASSERT_EQ(dio_statx(AT_FDCWD, self->file, 0, STATX_DIOALIGN, &stx), 0);
	expect_dioalign(_metadata, &stx, mem, off);
}

TEST_F(fs, values_work_for_o_direct)
{
	struct statx stx;

	ASSERT_EQ(dio_statx(AT_FDCWD, self->file, 0, STATX_DIOALIGN, &stx), 0);
	expect_values_work(_metadata, self->file, &stx,
			   !variant->mem_above_limit);
}

TEST_F(fs, not_asked_for_not_reported)
{
	struct statx stx;

	ASSERT_EQ(dio_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS, &stx),
		  0);
	EXPECT_FALSE(stx.stx_mask & STATX_DIOALIGN);
}

/* A directory, a symlink (not followed) and a FIFO: no DIOALIGN. */
TEST_F(fs, non_regular_files_do_not_report)
{
	static const char *const names[] = { "dir", "link", "fifo" };
	char path[PATH_MAX + 16];
	struct statx stx;
	unsigned int i;

	snprintf(path, sizeof(path), "%s/dir", MNT);
	ASSERT_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/link", MNT);
	ASSERT_EQ(symlink("data", path), 0);
	snprintf(path, sizeof(path), "%s/fifo", MNT);
	ASSERT_EQ(mkfifo(path, 0600), 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", MNT, names[i]);
		ASSERT_EQ(dio_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
				    STATX_DIOALIGN, &stx), 0);
		EXPECT_FALSE(stx.stx_mask & STATX_DIOALIGN)
			TH_LOG("%s", names[i]);
	}
}

/*
 * ext4 files that take no direct I/O report STATX_DIOALIGN with both
 * values 0: a file with data journaling (chattr +j, which ext4 honours
 * only without delayed allocation, hence nodelalloc), and a small file
 * kept inline in its inode (mkfs -O inline_data).
 */
FIXTURE(ext4_no_dio) {
	struct loopdev l;
	int mounted;
};

FIXTURE_VARIANT(ext4_no_dio) {
	const char *mkfs_args;
	const char *mount_opts;
	int journal_data;
};

FIXTURE_VARIANT_ADD(ext4_no_dio, journaled_data) {
	.mkfs_args = "-q -F -b 4096", .mount_opts = "nodelalloc",
	.journal_data = 1,
};

FIXTURE_VARIANT_ADD(ext4_no_dio, inline_data) {
	.mkfs_args = "-q -F -b 4096 -O inline_data", .journal_data = 0,
};

FIXTURE_SETUP(ext4_no_dio)
{
	char cmd[PATH_MAX * 2], out[4096];

	self->mounted = 0;
	umount(MNT);
	ASSERT_EQ(loop_make(&self->l, 512, "ext4-no-dio"), 0)
		TH_LOG("loop device: %s", strerror(errno));
	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1", here("mkfs.ext4"),
		 variant->mkfs_args, self->l.dev);
	ASSERT_EQ(capture(cmd, out, sizeof(out)), 0) TH_LOG("%s: %s", cmd, out);
	mkdir(MNT, 0755);
	ASSERT_EQ(mount(self->l.dev, MNT, "ext4", 0, variant->mount_opts), 0)
		TH_LOG("mount: %s", strerror(errno));
	self->mounted = 1;
}

FIXTURE_TEARDOWN(ext4_no_dio)
{
	if (self->mounted)
		umount(MNT);
	loop_remove(&self->l);
}

TEST_F(ext4_no_dio, reports_zero)
{
	const char *path = MNT "/small";
	struct statx stx;
	int fd, flags;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "kconform", 8), 8);
	if (variant->journal_data) {
		ASSERT_EQ(ioctl(fd, FS_IOC_GETFLAGS, &flags), 0);
		flags |= FS_JOURNAL_DATA_FL;
		ASSERT_EQ(ioctl(fd, FS_IOC_SETFLAGS, &flags), 0)
			TH_LOG("chattr +j: %s", strerror(errno));
	}
	ASSERT_EQ(fsync(fd), 0);
	close(fd);
	ASSERT_EQ(dio_statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx), 0);
	expect_dioalign(_metadata, &stx, 0, 0);
	/* The same file system's normal files do take direct I/O. */
	if (!variant->journal_data)
		return;
	fd = open(MNT "/plain", O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(dio_statx(AT_FDCWD, MNT "/plain", 0, STATX_DIOALIGN, &stx),
		  0);
	expect_dioalign(_metadata, &stx, 512, 512);
}

TEST_HARNESS_MAIN
