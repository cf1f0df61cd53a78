/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kconform's kselftests share: the path of a file installed next to
 * the test, and running a command with its output kept.
 */
#ifndef KCONFORM_UTIL_H
#define KCONFORM_UTIL_H

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
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

#endif
