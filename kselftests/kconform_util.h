/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kconform's kselftests share: the path of a file installed next to
 * the test, running a command with its output kept, the Internet
 * checksum of packets built by hand, the running kernel's version.
 */
#ifndef KCONFORM_UTIL_H
#define KCONFORM_UTIL_H

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* @name in the test program's own folder (a static buffer). */
static inline const char *here(const char *name)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t len;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		return name;
	exe[len] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dirname(exe), name);
	return path;
}

/* Runs @cmd through the shell; returns its exit status, output in @buf. */
static inline int capture(const char *cmd, char *buf, size_t size)
{
	size_t len = 0;
	FILE *p;
	int st;

	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (len + 1 < size && fgets(buf + len, size - len, p))
		len += strlen(buf + len);
	buf[len] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The Internet checksum (RFC 1071) of @len bytes at @data, added to the
 * partial sum @sum (a pseudo header's 16-bit words), folded and inverted.
 */
static inline unsigned short kc_inet_csum(const void *data, int len,
					  unsigned int sum)
{
	const unsigned short *p = data;

	for (; len > 1; len -= 2)
		sum += *p++;
	if (len)
		sum += *(const unsigned char *)p;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Whether the running kernel is @major.@minor or later: for a case whose
 * documented behaviour changed upstream, which of the two it must show.
 */
static inline int kernel_since(int major, int minor)
{
	struct utsname u;
	int ma, mi;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return -1;
	return ma > major || (ma == major && mi >= minor);
}

/*
 * The same for a stable release, @major.@minor.@sub or later (a later
 * @major.@minor is later too), or -1 when unknown. The version is
 * /proc/version's; a Debian package's kernel says @major.@minor.0 there
 * (its ABI name, 6.1.0-57-amd64) and its stable release after "Debian ".
 */
static inline int kernel_since_stable(int major, int minor, int sub)
{
	char buf[512], *deb;
	int ma, mi, su, n;
	FILE *f;

	f = fopen("/proc/version", "r");
	if (!f)
		return -1;
	n = fgets(buf, sizeof(buf), f) ? 1 : 0;
	fclose(f);
	if (!n || sscanf(buf, "Linux version %d.%d.%d", &ma, &mi, &su) != 3)
		return -1;
	deb = strstr(buf, " Debian ");
	if (!su && deb && sscanf(deb, " Debian %d.%d.%d", &ma, &mi, &su) != 3)
		return -1;
	if (ma != major || mi != minor)
		return ma > major || (ma == major && mi > minor);
	return su >= sub;
}

#endif
