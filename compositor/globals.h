/* SPDX-License-Identifier: MIT */
/*
 * globals.h - the table of globals (globals.c): what the top level makes
 * when a server starts.
 */
#ifndef WLSEAL_GLOBALS_H
#define WLSEAL_GLOBALS_H

#include <stdbool.h>
#include <stdint.h>

struct wlseal_server;

struct wlseal_global {
	const char *interface;	/* as the registry announces it */
	uint32_t version;	/* the highest this compositor offers */
	const char *file;	/* under compositor/: where it is implemented */
	const char *charges;	/* what it may charge a client (account/) */
	bool privileged;	/* only for clients the user allowed */
	/* Makes the global at @version; false with nothing made. */
	bool (*init)(struct wlseal_server *server, uint32_t version);
};

/* Every global of the table, in its order; false at the first that
 * cannot be made (logged). */
bool wlseal_globals_create(struct wlseal_server *server);

#endif
