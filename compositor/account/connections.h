/* SPDX-License-Identifier: MIT */
/*
 * connections.h - admission control (connections.c): the compositor
 * accepts its clients itself, at most --max-clients of them, evicting
 * the connection that never mapped a window when a new one comes, and
 * survives a full fd table without spinning.
 *
 * One instance per process, like the log: the protocol side tells it
 * that a client mapped a window by the wl_client alone.
 */
#ifndef WLSEAL_CONNECTIONS_H
#define WLSEAL_CONNECTIONS_H

#include <stdbool.h>

struct wl_display;
struct wl_client;

/* Ceiling of the default --max-clients (connections.c says why). */
#define WLSEAL_MAX_CLIENTS_DEFAULT_MAX 1024

/* Accept clients on @listen_fd (bound, listening, non-blocking; it
 * stays the caller's to close, after wlseal_connections_finish()), at
 * most @max_clients at once (0: the default for this fd table). */
bool wlseal_connections_init(struct wl_display *display, int listen_fd,
			     int max_clients);
/* After wl_display_destroy_clients(). */
void wlseal_connections_finish(void);

/* The client's toplevel surface was mapped: from now on it is never
 * evicted to make room (shell/xdg-toplevel-configure.c). */
void wlseal_connections_mark_mapped(struct wl_client *client);

/* fd-guard.c, once a read's complete requests are handled: the client
 * holds @held fds it sent that no request has taken (the fds of a
 * message still arriving, or sent with a request that takes none).
 * May evict clients, so never from inside a client's dispatch. */
void wlseal_connections_parked(struct wl_client *client, unsigned int held);

/* The default --max-clients for a table of @nofile fds of which the
 * compositor holds @own itself. */
int wlseal_connections_default_max(unsigned long long nofile, int own);

#endif
