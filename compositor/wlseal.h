/* SPDX-License-Identifier: MIT */
/*
 * wlseal.h - the compositor as a library: its options, and a server made
 * from them, run and destroyed.
 *
 * This is the public face of libwlseal-server (compositor/meson.build):
 * wlseal-compositor (main.c) is this header and the libc interposers of
 * interpose.c; the WLCS module (tests/wlcs/) is this header, run on a
 * thread of the test runner. Everything else in compositor/ is behind it.
 *
 *	struct wlseal_options o;
 *
 *	wlseal_options_defaults(&o);
 *	if (wlseal_options_parse(argc, argv, &o) != WLSEAL_PARSE_OK) ...
 *	server = wlseal_server_create(&o);
 *	wlseal_server_run(server);	(until a signal or wlseal_server_stop)
 *	wlseal_server_destroy(server);
 *
 * One server at a time in a process: the accounting layer (account/)
 * keeps per-process tables, and the CPU clock it reads is the thread's.
 */
#ifndef WLSEAL_H
#define WLSEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "account.h"	/* WLSEAL_BUDGET_KINDS */
#include "shm.h"	/* the shm modes, policy presets and settings */

struct wlseal_server;

/* The command line, in one struct: each layer gets its own part of it
 * from wlseal_server_create(). */
struct wlseal_options {
	const char *backend;	/* "drm" or "headless"; NULL: by the device */
	const char *drm_device;
	int width, height;	/* headless size; preferred DRM mode */
	const char *socket;
	int max_clients;	/* --max-clients, 0: derived from the fd table */
	enum wlseal_shm_mode shm;
	enum wlseal_policy policy;
	/* Policy settings from the command line, applied over the --policy
	 * preset; --policy-file is applied last (and again on SIGHUP). */
	struct wlseal_policy_setting policy_settings[16];
	int n_policy_settings;
	const char *policy_file;
	bool verbose;
	bool print_frames;
	bool composite_only;	/* --scanout=composite */
	const char *screenshot;	/* PNG path */
	uint64_t screenshot_frame; /* 0: only on SIGUSR1 */
	int exit_after;		/* seconds, 0: never */
	int max_pools_per_client; /* live wl_shm_pools per client */
	uint64_t max_pool_memory;  /* --max-pool-memory, 0: derived */
	bool residency_check;	/* --residency-check=on|off */
	bool resize_moves;	/* --pool-resize=move */
	int oom_score_adj;
	int max_objects[WLSEAL_BUDGET_KINDS]; /* --max-*-per-client */
	/* --input paths (input/): streams of struct input_event. */
	const char *inputs[8];
	int n_inputs;
	bool xdg_early_map;	/* --xdg-early-buffer=map */
	bool list_globals;	/* --list-globals: print the table, run nothing */

	/*
	 * Not an option: the program links interpose.c, whose recvmsg(),
	 * sendmsg() and epoll_wait() the C library's callers in
	 * libwayland-server reach. Then the fd guard counts every fd a
	 * client sends, a read is where a client's turn starts, and the
	 * loop is wl_display_run(). Without them (a module loaded with
	 * dlopen(), which cannot interpose: account/cpu.c says why) the
	 * turn starts at the client's first request, the fds are not
	 * counted, and wlseal_server_run() waits with poll() between the
	 * CPU accounting's switch points. main.c sets it.
	 */
	bool interposed;
};

/* The defaults of wlseal-compositor with no option. */
void wlseal_options_defaults(struct wlseal_options *o);

enum wlseal_parse {
	WLSEAL_PARSE_OK,
	WLSEAL_PARSE_HELP,	/* --help: the usage was printed on stdout */
	WLSEAL_PARSE_BAD,	/* the reason was printed on stderr */
};
/* The command line over @o (getopt_long: the caller resets optind to 0
 * before a second parse in one process). Strings point into @argv. */
enum wlseal_parse wlseal_options_parse(int argc, char **argv,
				       struct wlseal_options *o);
void wlseal_options_usage(FILE *f);
/* The options' shm policy builds (server.c): false with the reason in
 * @err. wlseal_server_create() checks it again. */
bool wlseal_options_check(const struct wlseal_options *o, char *err,
			  size_t len);

/* Every global the compositor offers, one line each (globals.c). */
void wlseal_globals_print(FILE *f);

/* A server listening on its socket, its globals made, its backend
 * showing; NULL with the reason logged. @o must outlive the server. */
struct wlseal_server *wlseal_server_create(const struct wlseal_options *o);
/* Runs the loop until SIGTERM, SIGINT, --exit-after or
 * wlseal_server_stop(). */
void wlseal_server_run(struct wlseal_server *server);
/* From the server's own thread (one of its event sources): the loop
 * ends after this turn. */
void wlseal_server_stop(struct wlseal_server *server);
/* Clients, globals, backend and socket gone; @server freed. */
void wlseal_server_destroy(struct wlseal_server *server);

#endif
