/* SPDX-License-Identifier: MIT */
/*
 * log.h - wlseal-compositor's log lines on stderr.
 *
 * Every layer logs through here and nothing else: one
 * "wlseal-compositor: ..." line per call, written at once so that lines
 * of several writers never mix. wlseal_debug() lines appear only with
 * --verbose (wlseal_log_set_verbose()).
 */
#ifndef WLSEAL_LOG_H
#define WLSEAL_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct wl_client;

void wlseal_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wlseal_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wlseal_log_set_verbose(bool verbose);

/*
 * A rate limit for lines that others can cause (clients, connections):
 * at most @burst lines a second pass wlseal_log_limit_take(); the rest
 * are counted in @dropped, for the next line that passes to say.
 */
struct wlseal_log_limit {
	int64_t start_ms;
	int lines;
	int dropped;
};
bool wlseal_log_limit_take(struct wlseal_log_limit *limit, int burst);

/* The pid log lines name a client by (0 if unknown). */
pid_t wlseal_client_pid(struct wl_client *client);

#endif
