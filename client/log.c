/* SPDX-License-Identifier: MIT */
/*
 * log.c - the client's one way to say something: a "wlseal-client: ..."
 * line on stderr. Every other file of the client calls it; it calls none.
 */
#include <stdarg.h>
#include <stdio.h>

#include "client.h"

void client_log(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "wlseal-client: %s\n", line);
}
