/* SPDX-License-Identifier: MIT */
/*
 * options.c - checked parsing of command-line values (options.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

bool wlseal_option_bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return false;
}

int wlseal_option_choice(const char *arg, const char *const *names)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

bool wlseal_option_size(const char *s, long max, int *w, int *h)
{
	char *end;
	long lw, lh;

	lw = strtol(s, &end, 10);
	if (*end != 'x')
		return false;
	lh = strtol(end + 1, &end, 10);
	if (*end || lw <= 0 || lh <= 0 || lw > max || lh > max)
		return false;
	*w = (int)lw;
	*h = (int)lh;
	return true;
}

bool wlseal_option_uint(const char *s, uint64_t min, uint64_t max,
			uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts a sign and leading blanks; a count takes neither. */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}
