/* SPDX-License-Identifier: MIT */
/*
 * embed.h - the compositor inside another process (the WLCS module,
 * tests/wlcs/): main.c built again with WLSEAL_EMBEDDED, its main()
 * renamed, run on a thread of the embedder's, with the loop of embed.c.
 *
 * Nothing here exists in the executable.
 */
#ifndef WLSEAL_EMBED_H
#define WLSEAL_EMBED_H

#ifdef WLSEAL_EMBEDDED
#include <stdbool.h>

struct wlseal_server;

/* main.c's main(): options as on the command line, returns the exit
 * status. One server at a time in a process; the caller resets getopt
 * (optind = 0) before each call. */
#define main wlseal_embedded_main
int wlseal_embedded_main(int argc, char **argv);

/* What the embedder hands the next wlseal_embedded_main() call. */
struct wlseal_embed {
	/* On the server's thread, once clients can connect: the embedder
	 * adds its own event sources to server->loop. */
	void (*ready)(struct wlseal_server *server, void *data);
	/* On the server's thread, once the loop ended, before the clients
	 * are destroyed: the embedder removes what it added. */
	void (*done)(struct wlseal_server *server, void *data);
	void *data;
	/* Set on the server's thread (from one of the embedder's event
	 * sources): the loop ends after this turn. */
	bool stop;
};
extern struct wlseal_embed *wlseal_embed;

/* embed.c: main.c's loop in the embedded build, in place of
 * wl_display_run(). */
void wlseal_embedded_run(struct wlseal_server *server);
#endif

#endif
