/* SPDX-License-Identifier: MIT */
/*
 * main.c - wlseal-compositor: the command line (options.c parses it), a
 * server (server.c) made from it, run until a signal, and destroyed.
 *
 * The program links interpose.c, which the library does not: its
 * recvmsg(), sendmsg() and epoll_wait() are what lets the accounting
 * layer see every read, every fd and every sleep (wlseal.h, interposed).
 */
#include <stdio.h>

#include "wlseal.h"

int main(int argc, char **argv)
{
	struct wlseal_options o;
	struct wlseal_server *server;
	char err[256];

	wlseal_options_defaults(&o);
	o.interposed = true;
	switch (wlseal_options_parse(argc, argv, &o)) {
	case WLSEAL_PARSE_OK:
		break;
	case WLSEAL_PARSE_HELP:
		return 0;
	case WLSEAL_PARSE_BAD:
		return 2;
	}
	if (o.list_globals) {
		wlseal_globals_print(stdout);
		return 0;
	}
	/* The policy, checked before anything starts. */
	if (!wlseal_options_check(&o, err, sizeof(err))) {
		fprintf(stderr, "wlseal-compositor: %s\n", err);
		return 2;
	}
	server = wlseal_server_create(&o);
	if (!server)
		return 1;
	wlseal_server_run(server);
	wlseal_server_destroy(server);
	return 0;
}
