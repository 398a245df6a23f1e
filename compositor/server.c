/* SPDX-License-Identifier: MIT */
/*
 * server.c - a server's life (wlseal.h): made from its options, run,
 * stopped and destroyed. The one file that sees every layer: it hands
 * each its part of the options, makes the globals of globals.c, and
 * tears down in the reverse order.
 *
 * Signals are handled through signalfd (wl_event_loop_add_signal), never
 * through a handler, so the compositor's SigCgt mask stays empty: with
 * the secure shm policy there is no SIGBUS to catch, and nothing here
 * pretends otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "backend.h"
#include "connections.h"
#include "cpu.h"
#include "fd-guard.h"
#include "globals.h"
#include "heap.h"
#include "input.h"
#include "log.h"
#include "repaint.h"
#include "server.h"
#include "shm.h"
#include "socket.h"
#include "seat.h"
#include "shell.h"
#include "surface.h"
#include "wlseal.h"

/* How far wlseal_server_create() got: what teardown() undoes. */
enum stage {
	STAGE_NONE,
	STAGE_DISPLAY,	/* display, loop, fd guard */
	STAGE_BACKEND,	/* backend, repaint, and the globals tried */
	STAGE_INPUT,	/* input devices */
	STAGE_READY,	/* listening */
};

struct wlseal_top {
	const struct wlseal_options *options;
	enum stage stage;
	struct wlseal_socket sock;
	struct wlseal_input input;
	bool stop;	/* the poll loop's end (wlseal_server_stop) */
};

/* Per-client bookkeeping of the top level: the heap is trimmed after a client
 * leaves. The connect and disconnect lines are account/connections.c's. */
struct wlseal_client {
	struct wl_listener destroy;
};

static void client_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_client *c = wl_container_of(listener, c, destroy);

	wl_list_remove(&c->destroy.link);
	free(c);
	wlseal_heap_client_gone();
}

static void client_created(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, client_created);
	struct wl_client *client = data;
	struct wlseal_client *c;

	/* Every object of the client is counted from its first request
	 * on (account/objects.c); without memory for that, no client. */
	if (!wlseal_account_open(&server->ledger, client)) {
		wl_client_post_no_memory(client);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return;
	c->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &c->destroy);
}

static bool shm_releasing(void *data)
{
	return wlseal_shm_releasing(data);
}

static int on_term(int sig, void *data)
{
	struct wlseal_server *server = data;

	wlseal_log("signal %d, exiting", sig);
	wlseal_server_stop(server);
	return 0;
}

static int on_usr1(int sig, void *data)
{
	struct wlseal_server *server = data;

	wlseal_screenshot(server, server->screenshot ?
				 server->screenshot : "wlseal-screenshot.png");
	return 0;
}

static bool build_policy(const struct wlseal_options *o,
			 struct wlseal_shm_policy *p, char *err, size_t len)
{
	return wlseal_policy_build(o->policy, o->policy_settings,
				   o->n_policy_settings, o->policy_file, p,
				   err, len);
}

/*
 * SIGHUP: read --policy-file again and announce the result. A file that
 * does not parse leaves the policy as it was; an unchanged policy is not
 * announced again.
 */
static int on_hup(int sig, void *data)
{
	struct wlseal_server *server = data;
	const struct wlseal_options *options = server->top->options;
	struct wlseal_shm_policy next;
	char err[256];

	if (!options->policy_file) {
		wlseal_log("SIGHUP: no --policy-file, policy unchanged");
		return 0;
	}
	if (!build_policy(options, &next, err, sizeof(err))) {
		wlseal_log("SIGHUP: policy unchanged: %s", err);
		return 0;
	}
	if (wlseal_policy_equal(&next, &server->shm.policy)) {
		wlseal_log("SIGHUP: %s: policy unchanged", options->policy_file);
		return 0;
	}
	wlseal_shm_policy_update(&server->shm, &next);
	return 0;
}

static int on_exit_timer(void *data)
{
	struct wlseal_server *server = data;

	wlseal_log("--exit-after reached, exiting");
	wlseal_server_stop(server);
	return 0;
}

static const char *shm_name(const struct wlseal_options *o)
{
	if (o->shm == WLSEAL_SHM_LIBWAYLAND)
		return "libwayland";
	return o->policy == WLSEAL_POLICY_SECURE ? "wlseal-secure"
						 : "wlseal-permissive";
}

/*
 * Every page of a pool the compositor reads is in its RSS, and a page it
 * faults into a hole is charged to it too: to the kernel's OOM killer the
 * compositor looks like the biggest process there is, while the client
 * that made those pages (and any memfd pages it keeps unmapped) counts
 * for nothing. The pool budget (account/pools.c) keeps what the compositor maps
 * below what the machine can afford; this keeps the OOM killer, when
 * clients run the machine out of memory by other means, from picking the
 * one process every client needs.
 */
static void set_oom_score_adj(int adj)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "we");

	if (!f || fprintf(f, "%d\n", adj) < 0 || fclose(f) != 0) {
		/* Lowering it needs CAP_SYS_RESOURCE: not fatal. */
		wlseal_log("oom_score_adj %d not set: %s", adj, strerror(errno));
		return;
	}
	wlseal_debug("oom_score_adj %d", adj);
}

/*
 * Every pool keeps its fd while its wl_shm_pool resource lives (resize
 * needs it), every client is a socket, every keymap a file: the default
 * soft limit of 1024 would let a few clients within their budgets fill
 * the table. The pool budget (account/pools.c) keeps a share of whatever
 * the limit is for light clients; raising the soft limit to the hard one
 * makes that share as large as the process may have.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			wlseal_log("cannot raise the fd limit: %m");
	}
}

bool wlseal_options_check(const struct wlseal_options *o, char *err,
			  size_t len)
{
	struct wlseal_shm_policy p;

	return build_policy(o, &p, err, len);
}

struct wlseal_server *wlseal_server_create(const struct wlseal_options *o)
{
	struct wlseal_server *server = calloc(1, sizeof(*server));
	struct wlseal_top *top = calloc(1, sizeof(*top));
	const char *backend = o->backend;
	int width = o->width, height = o->height;

	if (!server || !top) {
		wlseal_log("cannot start: out of memory");
		free(server);
		free(top);
		return NULL;
	}
	server->top = top;
	top->options = o;
	top->sock = (struct wlseal_socket){ .fd = -1, .lock_fd = -1 };
	if (!backend)
		backend = access(o->drm_device, F_OK) == 0 ? "drm" : "headless";
	if (!width && !strcmp(backend, "headless")) {
		width = 1024;
		height = 768;
	}
	raise_fd_limit();
	/* Lines on stdout (WLSEAL-FRAME) must reach a pipe at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* The policy, checked before anything starts. */
	{
		char err[256];

		if (!build_policy(o, &server->shm.policy, err, sizeof(err))) {
			wlseal_log("%s", err);
			goto fail;
		}
	}

	server->display = wl_display_create();
	if (!server->display)
		goto fail;
	server->loop = wl_display_get_event_loop(server->display);
	if (!wlseal_fd_guard_init(server->display, o->interposed)) {
		wl_display_destroy(server->display);
		goto fail;
	}
	top->stage = STAGE_DISPLAY;
	server->shm.display = server->display;
	server->shm.mode = o->shm;
	server->shm.residency_check = o->residency_check;
	server->shm.resize_moves = o->resize_moves;
	server->ledger.pools.per_client = o->max_pools_per_client;
	server->ledger.pools.max_bytes = o->max_pool_memory;	/* 0: derived */
	memcpy(server->ledger.objects.per_client, o->max_objects,
	       sizeof(server->ledger.objects.per_client));
	wlseal_ledger_init(&server->ledger);
	set_oom_score_adj(o->oom_score_adj);
	server->print_frames = o->print_frames;
	server->direct_scanout = !o->composite_only;
	server->screenshot = o->screenshot;
	server->screenshot_frame = o->screenshot_frame;
	server->xdg_early_map = o->xdg_early_map;

	server->backend = wlseal_backend_create(backend, server->loop,
						o->drm_device, width, height);
	if (!server->backend) {
		wlseal_log("cannot start the %s backend", backend);
		goto fail;
	}
	top->stage = STAGE_BACKEND;

	wlseal_repaint_init(server);
	/* Pools that can hold a full-screen frame keep their fd for it
	 * (shm/pool.c). */
	if (server->direct_scanout)
		server->shm.scanout_min_bytes = (uint64_t)server->output.width *
						(uint64_t)server->output.height * 4;
	if (!wlseal_globals_create(server) ||
	    !wlseal_heap_init(server->loop, shm_releasing, &server->shm)) {
		wlseal_log("cannot create the globals");
		goto fail;
	}

	/* Input: the VM's devices on the drm backend, and --input. */
	wlseal_input_init(&top->input, server->loop, server->output.width,
			  server->output.height, &wlseal_seat_input, server->seat);
	top->stage = STAGE_INPUT;
	if (!strcmp(server->backend->name, "drm"))
		wlseal_input_scan(&top->input, "/dev/input");
	for (int i = 0; i < o->n_inputs; i++)
		if (!wlseal_input_add_path(&top->input, o->inputs[i]))
			goto fail;
	wlseal_input_start(&top->input);

	server->client_created.notify = client_created;
	wl_display_add_client_created_listener(server->display,
					       &server->client_created);
	server->sigterm = wl_event_loop_add_signal(server->loop, SIGTERM, on_term, server);
	server->sigint = wl_event_loop_add_signal(server->loop, SIGINT, on_term, server);
	server->sigusr1 = wl_event_loop_add_signal(server->loop, SIGUSR1, on_usr1, server);
	server->sighup = wl_event_loop_add_signal(server->loop, SIGHUP, on_hup, server);
	if (o->exit_after > 0) {
		server->exit_timer = wl_event_loop_add_timer(server->loop,
							     on_exit_timer, server);
		wl_event_source_timer_update(server->exit_timer, o->exit_after * 1000);
	}

	/* Our own socket, accepted by admission control. */
	if (!wlseal_socket_open(&top->sock, o->socket))
		goto fail;
	if (!wlseal_connections_init(server->display, top->sock.fd,
				     o->max_clients)) {
		wlseal_log("cannot listen for clients");
		goto fail;
	}
	top->stage = STAGE_READY;
	server->socket_name = top->sock.name;
	wlseal_log("backend=%s size=%dx%d shm=%s",
		   server->backend->name, server->backend->width,
		   server->backend->height, shm_name(o));
	{
		char desc[160];

		wlseal_policy_describe(&server->shm.policy, desc, sizeof(desc));
		wlseal_log("policy %s%s%s", desc,
			   o->policy_file ? " file=" : "",
			   o->policy_file ? o->policy_file : "");
	}
	wlseal_log("ready WAYLAND_DISPLAY=%s", server->socket_name);
	return server;

fail:
	wlseal_server_destroy(server);
	return NULL;
}

/*
 * The loop without interposers (wlseal_options.interposed false: a module
 * loaded with dlopen()). wl_display_run() is flush, then
 * wl_event_loop_dispatch() with no timeout, whose epoll_wait() the
 * executable interposes to charge the sleep to nobody (account/cpu.c).
 * Where that interposer is not reached, this loop waits by itself: idle
 * work first, as the dispatch would do before sleeping, then poll() on
 * the loop's epoll fd between wlseal_cpu_wait_begin() and _end(), then
 * the dispatch with a zero timeout, whose epoll_wait() returns at once.
 * Every stretch of the thread is charged as in the executable.
 */
static void run_polling(struct wlseal_server *server)
{
	struct pollfd pfd = {
		.fd = wl_event_loop_get_fd(server->loop),
		.events = POLLIN,
	};

	while (!server->top->stop) {
		int n;

		wl_display_flush_clients(server->display);
		wl_event_loop_dispatch_idle(server->loop);
		wlseal_cpu_wait_begin();
		n = poll(&pfd, 1, -1);
		wlseal_cpu_wait_end();
		if (n < 0 && errno != EINTR) {
			wlseal_log("poll on the event loop: %s", strerror(errno));
			break;
		}
		if (wl_event_loop_dispatch(server->loop, 0) < 0 &&
		    errno != EINTR) {
			wlseal_log("event loop dispatch: %s", strerror(errno));
			break;
		}
	}
}

void wlseal_server_run(struct wlseal_server *server)
{
	wlseal_cpu_start();
	if (server->top->options->interposed)
		wl_display_run(server->display);
	else
		run_polling(server);
}

void wlseal_server_stop(struct wlseal_server *server)
{
	server->top->stop = true;
	wl_display_terminate(server->display);
}

/* Undoes wlseal_server_create() from the stage it reached. */
void wlseal_server_destroy(struct wlseal_server *server)
{
	struct wlseal_top *top = server->top;

	if (top->stage >= STAGE_READY) {
		wl_display_destroy_clients(server->display);
		wlseal_cpu_report();
		wlseal_shm_finish(&server->shm);
	}
	if (top->stage >= STAGE_INPUT)
		wlseal_input_finish(&top->input);
	if (top->stage >= STAGE_BACKEND) {
		wlseal_seat_destroy(server->seat);
		/* Event sources are not owned by the loop: remove them
		 * ourselves. */
		if (server->sigterm)
			wl_event_source_remove(server->sigterm);
		if (server->sigint)
			wl_event_source_remove(server->sigint);
		if (server->sigusr1)
			wl_event_source_remove(server->sigusr1);
		if (server->sighup)
			wl_event_source_remove(server->sighup);
		if (server->exit_timer)
			wl_event_source_remove(server->exit_timer);
		wlseal_heap_finish();
		wlseal_repaint_finish(server);
	}
	if (top->stage >= STAGE_DISPLAY) {
		wl_display_destroy_clients(server->display);
		wlseal_compositor_finish(server);
		wlseal_connections_finish();
		wlseal_socket_close(&top->sock);
		wlseal_fd_guard_finish();
		wl_display_destroy(server->display);
	}
	free(top);
	free(server);
}
