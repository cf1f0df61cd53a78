/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bpf_security's tests read in a verifier log: the line that says
 * why a program was refused, and whether the log ends with given words.
 */
#ifndef VERIFIER_LOG_H
#define VERIFIER_LOG_H

#include <stdbool.h>
#include <string.h>

/* The verifier's line that says why: the last one before its statistics. */
static inline const char *why_line(char *log)
{
	char *p;

	for (;;) {
		size_t len = strlen(log);

		while (len && log[len - 1] == '\n')
			log[--len] = '\0';
		p = strrchr(log, '\n');
		p = p ? p + 1 : log;
		if (p == log || (strncmp(p, "processed ", 10) &&
				 strncmp(p, "verification time ", 18) &&
				 strncmp(p, "stack depth ", 12)))
			return p;
		*p = '\0';
	}
}

/*
 * Whether the verifier's last words before its statistics are @msg (one
 * line, or several, each ending in a newline; the first may be the end
 * of a line): the check that refused the program, not one whose words
 * it printed before going on. Cuts the statistics off @log.
 */
static inline bool ends_with(char *log, const char *msg)
{
	size_t len, n = strlen(msg);

	why_line(log);
	len = strlen(log);
	if (n && msg[n - 1] == '\n')
		n--;
	return len >= n && !strncmp(log + len - n, msg, n);
}

#endif
