/* SPDX-License-Identifier: GPL-2.0 */
/* What kconform's kselftests share: run a command, keep its output. */
#ifndef KCONFORM_CAPTURE_H
#define KCONFORM_CAPTURE_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

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
