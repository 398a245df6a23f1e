/* SPDX-License-Identifier: MIT */
/*
 * feedback-queue.c - presented feedbacks go out a slice per loop turn.
 *
 * A presented wp_presentation_feedback costs its client one
 * sync_output event for each wl_output the client bound, the
 * presented event, and the resource's destruction. Each client is held
 * to its own budgets (--max-feedbacks-per-client, --max-outputs-per-
 * client: account/objects.c), but all clients together are not: four
 * connections at both budgets make one frame's presentation a quarter of
 * a million events, 18-27 ms of the compositor's CPU when it was sent in
 * the turn the frame was shown (found by wlseal-fuzz --stall), and every
 * other client waited for it.
 *
 * So the turn a frame is shown only queues that frame's feedbacks, each
 * with the frame it was presented in, and the queue is worked off at
 * most PRESENT_EVENTS_PER_TURN events and PRESENT_SLICE_NS of CPU a
 * turn, in the order the frames were shown. What a turn sends is
 * bounded by those, whatever the number of clients, feedbacks or
 * outputs (a feedback is never cut: a turn overshoots by at most
 * PRESENT_CLOCK_EVERY events and one feedback's, bounded by the output
 * budget). An eventfd, readable while the queue is not empty,
 * brings the loop back for the rest: other clients' requests and the
 * next repaint are served between slices.
 *
 * Frame callbacks are not queued (surface.c answers them in the frame's
 * turn): one event each, they are what paces every client's drawing.
 * A feedback waiting here is still its client's (its budget stays
 * taken until it is sent), so a client cannot queue more than its
 * budget; one whose feedbacks are still queued when the next frame is
 * shown finds the new ones behind them, and its presentation times are
 * still the frames' own. A client that goes takes its feedbacks out of
 * the queue (the resource's destructor unlinks it).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "log.h"
#include "presentation-time-server-protocol.h"
#include "surface-impl.h"

/*
 * A slice is at most PRESENT_EVENTS_PER_TURN events and at most
 * PRESENT_SLICE_NS of the loop thread's CPU, whichever comes first: an
 * event's price depends on the host (8192 events were 3.0-3.7 ms on one
 * 2-core host and 10-15 ms on another, whose guest kernel makes every
 * sendmsg() flush dear), so the count alone bounded nothing. The clock
 * is read every PRESENT_CLOCK_EVERY events (a read of the thread's CPU
 * clock is a system call, about 1 us there).
 */
#define PRESENT_EVENTS_PER_TURN 8192
#define PRESENT_SLICE_NS 2000000ull
#define PRESENT_CLOCK_EVERY 256

static void queue_arm(struct wlseal_server *server, bool readable)
{
	uint64_t n = 1;

	if (readable) {
		if (write(server->present_efd, &n, sizeof(n)) != sizeof(n))
			wlseal_log("presentation queue eventfd: %s",
				   strerror(errno));
	} else if (read(server->present_efd, &n, sizeof(n)) != sizeof(n) &&
		   errno != EAGAIN) {
		wlseal_log("presentation queue eventfd: %s", strerror(errno));
	}
}

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Send queued feedbacks, oldest first, until @budget events or
 * PRESENT_SLICE_NS of CPU are spent (at least one feedback a call, so
 * the queue always moves). */
static void queue_work(struct wlseal_server *server, unsigned int budget)
{
	struct wlseal_feedback *fb;
	unsigned int sent = 0, clock_at = PRESENT_CLOCK_EVERY;
	uint64_t t0 = thread_ns();

	while (sent < budget && !wl_list_empty(&server->presenting)) {
		fb = wl_container_of(server->presenting.next, fb, link);
		/* presented() destroys the feedback, which unlinks it. */
		sent += fb->impl->presented(fb, &fb->frame);
		if (sent >= clock_at) {
			clock_at = sent + PRESENT_CLOCK_EVERY;
			if (thread_ns() - t0 > PRESENT_SLICE_NS)
				break;
		}
	}
	if (wl_list_empty(&server->presenting))
		queue_arm(server, false);
	else
		wlseal_debug("presentation: %u events sent this turn, more queued",
			     sent);
}

static int queue_ready(int fd, uint32_t mask, void *data)
{
	wlseal_cpu_loop();
	queue_work(data, PRESENT_EVENTS_PER_TURN);
	return 0;
}

void wlseal_feedback_queue_add(struct wlseal_server *server,
			       struct wl_list *feedbacks,
			       const struct wlseal_frame_done *frame)
{
	struct wlseal_feedback *fb;
	bool was_empty = wl_list_empty(&server->presenting);

	if (wl_list_empty(feedbacks))
		return;
	wl_list_for_each(fb, feedbacks, link) {
		fb->frame = *frame;
		if (fb->zero_copy)
			fb->frame.flags |= WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY;
	}
	wl_list_insert_list(server->presenting.prev, feedbacks);
	wl_list_init(feedbacks);
	if (server->present_efd < 0) {
		/* No eventfd: everything now, as before the queue. */
		queue_work(server, UINT32_MAX);
		return;
	}
	if (was_empty)
		queue_arm(server, true);
	/* This turn's slice: a frame with few feedbacks goes out at once. */
	queue_work(server, PRESENT_EVENTS_PER_TURN);
}

void wlseal_feedback_queue_init(struct wlseal_server *server)
{
	struct wl_event_loop *loop = wl_display_get_event_loop(server->display);

	wl_list_init(&server->presenting);
	server->present_source = NULL;
	server->present_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (server->present_efd >= 0)
		server->present_source =
			wl_event_loop_add_fd(loop, server->present_efd,
					     WL_EVENT_READABLE, queue_ready,
					     server);
	if (!server->present_source) {
		wlseal_log("presentation queue: no eventfd source (%s); feedbacks are sent in the frame's turn",
			   strerror(errno));
		if (server->present_efd >= 0)
			close(server->present_efd);
		server->present_efd = -1;
	}
}

void wlseal_feedback_queue_finish(struct wlseal_server *server)
{
	if (!server->presenting.next)
		return;		/* never started */
	/* The clients are gone by now, and their feedbacks with them. */
	if (server->present_source)
		wl_event_source_remove(server->present_source);
	if (server->present_efd >= 0)
		close(server->present_efd);
	server->present_source = NULL;
	server->present_efd = -1;
}
