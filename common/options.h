/* SPDX-License-Identifier: MIT */
/*
 * options.h - checked parsing of command-line values, shared by
 * wlseal-compositor and wlseal-client. Each returns false on anything but
 * a complete, in-range value; the caller names the option in its error.
 */
#ifndef WLSEAL_OPTIONS_H
#define WLSEAL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* Prints the message and a newline on stderr; returns false. */
bool wlseal_option_bad(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The index of @arg in the NULL-terminated @names, or -1. */
int wlseal_option_choice(const char *arg, const char *const *names);
/* "WxH", both from 1 to @max. */
bool wlseal_option_size(const char *arg, long max, int *w, int *h);
/* A decimal number from @min to @max, nothing after it. */
bool wlseal_option_uint(const char *arg, uint64_t min, uint64_t max,
			uint64_t *out);

#endif
