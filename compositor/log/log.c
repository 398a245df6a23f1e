/* SPDX-License-Identifier: MIT */
/*
 * log.c - the compositor's log lines (log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

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

bool wlseal_log_limit_take(struct wlseal_log_limit *l, int burst)
{
	struct timespec ts;
	int64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	if (now - l->start_ms >= 1000) {
		l->start_ms = now;
		l->lines = 0;
	}
	if (l->lines < burst) {
		l->lines++;
		return true;
	}
	l->dropped++;
	return false;
}
