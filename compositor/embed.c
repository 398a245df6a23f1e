/* SPDX-License-Identifier: MIT */
/*
 * embed.c - the event loop of a compositor embedded in another process
 * (embed.h; built only into the WLCS module, tests/wlcs/).
 *
 * wl_display_run() is flush, then wl_event_loop_dispatch() with no
 * timeout, whose epoll_wait() the executable interposes to charge the
 * sleep to nobody (account/cpu.c). In a module loaded with dlopen() that
 * interposer is not reached (cpu.c says why), so this loop waits by
 * itself: idle work first, as the dispatch would do before sleeping,
 * then poll() on the loop's epoll fd between wlseal_cpu_wait_begin()
 * and _end(), then the dispatch with a zero timeout, whose epoll_wait()
 * returns at once. Every stretch of the thread is charged as in the
 * executable.
 *
 * The loop ends when the embedder sets wlseal_embed->stop from one of
 * its sources, on this thread: wl_display_terminate() is not safe from
 * another thread, and no other thread touches the server.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include <wayland-server-core.h>

#include "cpu.h"
#include "embed.h"
#include "log.h"
#include "server.h"

struct wlseal_embed *wlseal_embed;

void wlseal_embedded_run(struct wlseal_server *server)
{
	struct wlseal_embed *e = wlseal_embed;
	struct pollfd pfd = {
		.fd = wl_event_loop_get_fd(server->loop),
		.events = POLLIN,
	};

	if (e->ready)
		e->ready(server, e->data);
	while (!e->stop) {
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
	if (e->done)
		e->done(server, e->data);
}
