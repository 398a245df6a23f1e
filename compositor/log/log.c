/* SPDX-License-Identifier: MIT */
/*
 * log.c - the compositor's log lines (log.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include <wayland-server-core.h>

#include "log.h"

static bool log_verbose;

static void log_line(const char *fmt, va_list ap)
{
	char line[512];

	/* One write per line, so lines of several writers never mix. */
	vsnprintf(line, sizeof(line) - 1, fmt, ap);
	fprintf(stderr, "wlseal-compositor: %s\n", line);
}

void wlseal_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(fmt, ap);
	va_end(ap);
}

void wlseal_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	log_line(fmt, ap);
	va_end(ap);
}

void wlseal_log_set_verbose(bool verbose)
{
	log_verbose = verbose;
}

pid_t wlseal_client_pid(struct wl_client *client)
{
	pid_t pid = 0;

	wl_client_get_credentials(client, &pid, NULL, NULL);
	return pid;
}
