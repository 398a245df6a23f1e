/* SPDX-License-Identifier: MIT */
/*
 * wlseal-wlcs.c - wlseal's integration module for WLCS, the Wayland
 * Conformance Test Suite (README.md beside this file).
 *
 * WLCS's runner loads this shared object and, for every test, makes a
 * display server (create_server), starts it, connects its clients to
 * it, drives fake input devices, and stops it. Here each server is the
 * real compositor: the library wlseal-compositor is built from
 * (compositor/wlseal.h), run on a thread of its own with the headless
 * backend, options parsed as on the command line (WLSEAL_WLCS_OPTIONS
 * adds to them), a fresh server per start.
 *
 * Threads: WLCS calls in from its test thread; the server's objects are
 * touched only on the server's thread. Every call that needs the server
 * (a client socket, a window moved, an input event) is queued, an
 * eventfd wakes the server's loop, which runs the queue, and the caller
 * waits until its call has run: synchronous, in order.
 *
 * Process-global state, reset at every start: getopt's (optind = 0),
 * the log's verbosity; the compositor resets its own (account/cpu.c's
 * worsts, shm/closer.c's thread state; account/connections.c and
 * fd-guard.c clear theirs at finish). The interposers of the executable
 * (compositor/interpose.c: epoll_wait, recvmsg, sendmsg) are not in
 * this module: account/cpu.c and account/fd-guard.c say why, and how
 * the CPU of each turn is measured instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client-core.h>
#include <wayland-client-protocol.h>
#include <wayland-server-core.h>

#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

#include "input.h"
#include "log.h"
#include "server.h"
#include "seat.h"
#include "surface.h"
#include "wlseal.h"

#include "wlcs-server.h"

/* --- the server's life ------------------------------------------------------ */

static void on_ready(struct wlseal_server *server, void *data)
{
	struct wlcs_server *s = data;

	s->server = server;
	wl_list_init(&s->clients);
	s->px = server->output.width / 2.0;
	s->py = server->output.height / 2.0;
	s->efd_source = wl_event_loop_add_fd(server->loop, s->efd,
					     WL_EVENT_READABLE, run_calls, s);
	if (!s->efd_source) {
		wlseal_log("wlcs: cannot watch the call eventfd");
		wlseal_server_stop(server);
		return;
	}
	set_caps(s);
	pthread_mutex_lock(&s->lock);
	s->ready = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void on_done(struct wlseal_server *server, void *data)
{
	struct wlcs_server *s = data;
	struct wlcs_client *c, *tmp;

	pthread_mutex_lock(&s->lock);
	s->ready = false;
	pthread_mutex_unlock(&s->lock);
	/* Nothing can be queued any more; what was is run now. */
	run_calls(s->efd, 0, s);
	if (s->efd_source)
		wl_event_source_remove(s->efd_source);
	s->efd_source = NULL;
	wl_list_for_each_safe(c, tmp, &s->clients, link) {
		if (c->client)
			wl_list_remove(&c->destroy.link);
		wl_list_remove(&c->link);
		free(c);
	}
	s->server = NULL;
}

static void *server_main(void *arg)
{
	struct wlcs_server *s = arg;
	char *argv[MAX_ARGS + 1];
	struct wlseal_options o;
	struct wlseal_server *server = NULL;
	char err[256];
	int status = 0;

	/* getopt permutes argv: a copy each run. */
	memcpy(argv, s->args, sizeof(s->args[0]) * (size_t)s->n_args);
	argv[s->n_args] = NULL;
	optind = 0;	/* GNU getopt: start afresh */
	wlseal_log_set_verbose(false);
	wlseal_options_defaults(&o);
	if (wlseal_options_parse(s->n_args, argv, &o) != WLSEAL_PARSE_OK) {
		status = 2;
	} else if (!wlseal_options_check(&o, err, sizeof(err))) {
		wlseal_log("%s", err);
		status = 2;
	} else if (!(server = wlseal_server_create(&o))) {
		status = 1;
	} else {
		on_ready(server, s);
		wlseal_server_run(server);
		on_done(server, s);
		wlseal_server_destroy(server);
	}
	pthread_mutex_lock(&s->lock);
	s->exited = true;
	s->status = status;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void server_start(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;
	sigset_t all, old;
	int err;

	if (s->started)
		die("start of a server already running");
	s->ready = s->exited = false;
	s->pointers = s->touches = 0;
	s->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->efd < 0)
		die("eventfd: %s", strerror(errno));
	/* The server's thread takes no signal: it reads its own through
	 * signalfd, and WLCS's threads keep theirs. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&s->thread, NULL, server_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		die("cannot start the server's thread: %s", strerror(err));
	s->started = true;
	pthread_mutex_lock(&s->lock);
	while (!s->ready && !s->exited)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (!s->ready) {
		pthread_join(s->thread, NULL);
		s->started = false;
		die("wlseal-compositor did not start (exit status %d; "
		    "its log above; WLSEAL_WLCS_OPTIONS='%s')", s->status,
		    getenv("WLSEAL_WLCS_OPTIONS") ? getenv("WLSEAL_WLCS_OPTIONS") : "");
	}
}

static void stop_call(struct wlseal_server *server, void *arg)
{
	(void)arg;
	wlseal_server_stop(server);
}

static void server_stop(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;

	if (!s->started)
		return;
	call(s, stop_call, s);
	pthread_join(s->thread, NULL);
	s->started = false;
	close(s->efd);
	s->efd = -1;
	if (s->status != 0)
		fprintf(stderr, "wlseal-wlcs: wlseal-compositor exited with status %d\n",
			s->status);
}

/* --- clients ---------------------------------------------------------------- */

static void client_gone(struct wl_listener *l, void *data)
{
	struct wlcs_client *c = wl_container_of(l, c, destroy);

	wl_list_remove(&c->destroy.link);
	c->client = NULL;
}

struct socket_call {
	struct wlcs_server *s;
	int server_fd, client_fd;
	bool ok;
};

static void socket_call(struct wlseal_server *server, void *arg)
{
	struct socket_call *sc = arg;
	struct wlcs_client *c = calloc(1, sizeof(*c));

	if (!c)
		return;
	/* As if accepted: account/connections.c, fd-guard.c and the
	 * account see it through the display's client_created. */
	c->client = wl_client_create(server->display, sc->server_fd);
	if (!c->client) {
		wlseal_log("wlcs: wl_client_create: %s", strerror(errno));
		free(c);
		return;
	}
	c->fd = sc->client_fd;
	c->destroy.notify = client_gone;
	wl_client_add_destroy_listener(c->client, &c->destroy);
	wl_list_insert(&sc->s->clients, &c->link);
	sc->ok = true;
}

static int server_create_client_socket(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;
	struct socket_call sc = { .s = s };
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		die("socketpair: %s", strerror(errno));
	sc.server_fd = fds[0];
	sc.client_fd = fds[1];
	call(s, socket_call, &sc);
	if (!sc.ok) {
		close(fds[0]);
		close(fds[1]);
		die("the server did not take a client socket (its log above)");
	}
	return fds[1];
}

/* The wl_client whose other end is WLCS's @fd: the newest such. */
static struct wl_client *client_of(struct wlcs_server *s, int fd)
{
	struct wlcs_client *c;

	wl_list_for_each(c, &s->clients, link)
		if (c->fd == fd)
			return c->client;
	return NULL;
}

struct position_call {
	struct wlcs_server *s;
	int fd;
	uint32_t id;
	int x, y;
};

static void position_call(struct wlseal_server *server, void *arg)
{
	struct position_call *pc = arg;
	struct wl_client *client = client_of(pc->s, pc->fd);
	struct wl_resource *r = client ? wl_client_get_object(client, pc->id) : NULL;
	struct wlseal_surface *surface;

	if (!r || strcmp(wl_resource_get_class(r), "wl_surface") != 0) {
		wlseal_log("wlcs: position_window_absolute: no wl_surface@%u in that client",
			   pc->id);
		return;
	}
	surface = wlseal_surface_from_resource(r);
	/* role_place: a window's role (an xdg_toplevel, a wl_shell
	 * toplevel) that an embedder may put somewhere. */
	if (!surface->role_place) {
		wlseal_log("wlcs: position_window_absolute: wl_surface@%u is no window; not moved",
			   pc->id);
		return;
	}
	surface->role_place(surface, pc->x, pc->y);
}

static void server_position_window_absolute(WlcsDisplayServer *base,
					    struct wl_display *display,
					    struct wl_surface *surface,
					    int x, int y)
{
	struct wlcs_server *s = (struct wlcs_server *)base;
	struct position_call pc = {
		.s = s,
		.fd = wl_display_get_fd(display),
		.id = wl_proxy_get_id((struct wl_proxy *)surface),
		.x = x, .y = y,
	};

	call(s, position_call, &pc);
}

/* --- the descriptor --------------------------------------------------------- */

/*
 * The globals a wlseal server advertises, read from a real one: a client
 * connects, lists the registry and goes. So the list is exactly what
 * wlseal offers under the options given, and follows the compositor as
 * globals are added, with no list kept here by hand.
 */
static WlcsExtensionDescriptor extensions[64];
static WlcsIntegrationDescriptor descriptor = {
	.version = WLCS_INTEGRATION_DESCRIPTOR_VERSION,
	.supported_extensions = extensions,
};
static bool have_descriptor;

static void registry_global(void *data, struct wl_registry *registry,
			    uint32_t name, const char *interface,
			    uint32_t version)
{
	size_t n = descriptor.num_extensions;

	if (n == sizeof(extensions) / sizeof(extensions[0]))
		die("more than %zu globals", n);
	extensions[n].name = strdup(interface);
	if (!extensions[n].name)
		die("out of memory");
	extensions[n].version = version;
	descriptor.num_extensions = n + 1;
}

static void registry_global_remove(void *data, struct wl_registry *registry,
				   uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void read_globals(struct wlcs_server *s)
{
	int fd = server_create_client_socket(&s->base);
	struct wl_display *display = wl_display_connect_to_fd(fd);
	struct wl_registry *registry;

	if (!display)
		die("cannot connect to the server to list its globals");
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	if (wl_display_roundtrip(display) < 0)
		die("listing the server's globals failed: %s", strerror(errno));
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	have_descriptor = true;
}

static const WlcsIntegrationDescriptor *server_get_descriptor(
	const WlcsDisplayServer *cbase)
{
	struct wlcs_server *s = (struct wlcs_server *)(uintptr_t)cbase;

	if (!have_descriptor) {
		if (s->started) {
			read_globals(s);
		} else {
			server_start(&s->base);
			read_globals(s);
			server_stop(&s->base);
		}
	}
	return &descriptor;
}

/* --- the integration -------------------------------------------------------- */

static void add_arg(struct wlcs_server *s, const char *arg)
{
	if (s->n_args == MAX_ARGS)
		die("more than %d compositor options", MAX_ARGS - 1);
	s->args[s->n_args] = strdup(arg);
	if (!s->args[s->n_args])
		die("out of memory");
	s->n_args++;
}

/* The runner has no runtime directory of its own (a test, a CI run):
 * the compositor's socket and lock file go to a private one. */
static void ensure_runtime_dir(void)
{
	static char dir[] = "/tmp/wlseal-wlcs-XXXXXX";

	if (getenv("XDG_RUNTIME_DIR"))
		return;
	if (!mkdtemp(dir))
		die("XDG_RUNTIME_DIR is unset and mkdtemp failed: %s",
		    strerror(errno));
	setenv("XDG_RUNTIME_DIR", dir, 1);
}

static WlcsDisplayServer *create_server(int argc, const char **argv)
{
	struct wlcs_server *s = calloc(1, sizeof(*s));
	const char *extra = getenv("WLSEAL_WLCS_OPTIONS");
	char adj[32] = "0";
	FILE *f;

	if (!s)
		die("out of memory");
	ensure_runtime_dir();
	s->base = (WlcsDisplayServer){
		.version = 2,
		.start = server_start,
		.stop = server_stop,
		.create_client_socket = server_create_client_socket,
		.position_window_absolute = server_position_window_absolute,
		.create_pointer = server_create_pointer,
		.create_touch = server_create_touch,
		.get_descriptor = server_get_descriptor,
	};
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->efd = -1;
	wl_list_init(&s->devices);
	add_arg(s, "wlseal-compositor");
	add_arg(s, "--backend=headless");
	/* The runner's own OOM score stays as it was. */
	f = fopen("/proc/self/oom_score_adj", "re");
	if (f) {
		if (!fgets(adj, sizeof(adj), f))
			strcpy(adj, "0");
		adj[strcspn(adj, "\n")] = '\0';
		fclose(f);
	}
	{
		char opt[64];

		snprintf(opt, sizeof(opt), "--oom-score-adj=%s", adj);
		add_arg(s, opt);
	}
	/* WLSEAL_WLCS_OPTIONS: more options, separated by spaces; later
	 * ones win, as on the command line. */
	if (extra) {
		char *copy = strdup(extra), *save = NULL, *tok;

		if (!copy)
			die("out of memory");
		for (tok = strtok_r(copy, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			if (!strcmp(tok, "--help"))
				die("WLSEAL_WLCS_OPTIONS: --help would exit the runner; "
				    "see wlseal-compositor --help");
			add_arg(s, tok);
		}
		free(copy);
	}
	(void)argc;
	(void)argv;
	return &s->base;
}

static void destroy_server(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;

	struct fake_device *d, *tmp;

	server_stop(base);
	/* Devices WLCS still holds forget the server. */
	wl_list_for_each_safe(d, tmp, &s->devices, link) {
		d->s = NULL;
		wl_list_remove(&d->link);
		wl_list_init(&d->link);
	}
	for (int i = 0; i < s->n_args; i++)
		free(s->args[i]);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

__attribute__((visibility("default")))
const WlcsServerIntegration wlcs_server_integration = {
	.version = 1,
	.create_server = create_server,
	.destroy_server = destroy_server,
};
