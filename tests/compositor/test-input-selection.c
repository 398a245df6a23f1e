/* SPDX-License-Identifier: MIT */
/*
 * test-input-selection - the selection (wl_data_device_manager) between
 * two clients of a headless compositor, which follows the keyboard
 * focus of a FIFO input device (--input): offered to the focused
 * client, received through the setter's source, replaced, ignored with
 * a stale serial, and the errors of a source used twice and of
 * drag-and-drop's set_actions on a selection offer.
 *
 * Usage: test-input-selection TEST (TAP output).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "input-client.h"

/* The selection as one client sees it on its wl_data_device. */
struct clip {
	struct wl_data_offer *offer;	/* the last data_offer */
	char mimes[256];		/* its types, each followed by ' ' */
	struct wl_data_offer *selection;
	int selections;			/* selection events */
};

static void clip_offer_mime(void *data, struct wl_data_offer *o,
			    const char *mime)
{
	struct clip *c = data;
	size_t n = strlen(c->mimes);

	snprintf(c->mimes + n, sizeof(c->mimes) - n, "%s ", mime);
}

static void clip_offer_actions(void *data, struct wl_data_offer *o,
			       uint32_t actions)
{
}

static const struct wl_data_offer_listener clip_offer_listener = {
	.offer = clip_offer_mime,
	.source_actions = clip_offer_actions,
	.action = clip_offer_actions,
};

static void clip_data_offer(void *data, struct wl_data_device *d,
			    struct wl_data_offer *o)
{
	struct clip *c = data;

	c->offer = o;
	c->mimes[0] = 0;
	wl_data_offer_add_listener(o, &clip_offer_listener, c);
}

static void clip_enter(void *data, struct wl_data_device *d, uint32_t serial,
		       struct wl_surface *s, wl_fixed_t x, wl_fixed_t y,
		       struct wl_data_offer *o)
{
}

static void clip_none(void *data, struct wl_data_device *d)
{
}

static void clip_motion(void *data, struct wl_data_device *d, uint32_t time,
			wl_fixed_t x, wl_fixed_t y)
{
}

static void clip_selection(void *data, struct wl_data_device *d,
			   struct wl_data_offer *o)
{
	struct clip *c = data;

	c->selection = o;
	c->selections++;
}

static const struct wl_data_device_listener clip_listener = {
	.data_offer = clip_data_offer,
	.enter = clip_enter,
	.leave = clip_none,
	.motion = clip_motion,
	.drop = clip_none,
	.selection = clip_selection,
};

/* A source: send writes "hello <type>"; cancelled is counted. */
static int cancelled;

static void src_target(void *data, struct wl_data_source *s, const char *mime)
{
}

static void src_send(void *data, struct wl_data_source *s, const char *mime,
		     int32_t fd)
{
	char text[128];
	int n = snprintf(text, sizeof(text), "hello %s", mime);

	if (write(fd, text, (size_t)n) != n)
		fail("writing the selection: %s", strerror(errno));
	close(fd);
}

static void src_cancelled(void *data, struct wl_data_source *s)
{
	cancelled++;
}

static void src_none(void *data, struct wl_data_source *s)
{
}

static void src_action(void *data, struct wl_data_source *s, uint32_t a)
{
}

static const struct wl_data_source_listener src_listener = {
	.target = src_target,
	.send = src_send,
	.cancelled = src_cancelled,
	.dnd_drop_performed = src_none,
	.dnd_finished = src_none,
	.action = src_action,
};

static struct wl_data_source *source(struct wl_data_device_manager *m,
				     const char *mime)
{
	struct wl_data_source *s = wl_data_device_manager_create_data_source(m);

	wl_data_source_add_listener(s, &src_listener, NULL);
	wl_data_source_offer(s, mime);
	return s;
}

/* @offer's @mime read through a pipe while @src_display dispatches
 * the source's send; what came, up to EOF. */
static void receive(struct wl_display *d, struct wl_data_offer *offer,
		    struct wl_display *src_display, const char *mime,
		    char *out, size_t len)
{
	int p[2];
	size_t got = 0;
	ssize_t n;

	if (pipe(p) < 0)
		fail("pipe: %s", strerror(errno));
	wl_data_offer_receive(offer, mime, p[1]);
	close(p[1]);
	if (wl_display_roundtrip(d) < 0 || wl_display_roundtrip(src_display) < 0)
		fail("receive: %s", last_client_log);
	while (got + 1 < len && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = 0;
	close(p[0]);
}

/*
 * The selection: client A (keyboard focus) sets one; client B, which
 * has no focus, is offered nothing until its window takes the focus;
 * then an offer with A's type, whose receive A's source answers. A new
 * selection cancels the old source and is offered to B at once, and
 * the old offer reads nothing; a set_selection whose serial is not
 * newer is ignored; a source used twice is an error. The serial is not
 * checked against the events sent (data-device.c says why).
 */
static void test_selection(void)
{
	static struct sc sc;
	static struct t tb;
	static struct win a, b;
	struct wl_data_device_manager *ma = NULL, *mb = NULL;
	struct wl_seat *seat_b = NULL;
	struct wl_data_device *da, *db;
	struct wl_data_source *s1, *s2, *s3;
	struct wl_data_offer *old;
	static struct clip ca, cb;
	char text[128];
	int x, y;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_window(&sc, &a, 0, 40, RED, &x, &y);
	expect(&sc, "kb-", "kb-enter A keys");
	{
		const struct global_want want[] = {
			{ "wl_data_device_manager", &wl_data_device_manager_interface,
			  3, (void **)&ma },
		};

		bind_globals(sc.t.display, want, 1);
	}
	da = wl_data_device_manager_get_data_device(ma, sc.seat);
	wl_data_device_add_listener(da, &clip_listener, &ca);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("get_data_device: %s", last_client_log);
	check(ca.selections == 1 && !ca.selection,
	      "the focused client's new device: no selection yet (%d)",
	      ca.selections);
	s1 = source(ma, "text/plain");
	wl_data_device_set_selection(da, s1, 5);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("set_selection: %s", last_client_log);
	check(ca.selections == 2 && ca.selection &&
	      !strcmp(ca.mimes, "text/plain "),
	      "the setter, focused, is offered its own selection (%s)", ca.mimes);

	t_connect(&tb);
	{
		const struct global_want want[] = {
			{ "wl_seat", &wl_seat_interface, 1, (void **)&seat_b },
			{ "wl_data_device_manager", &wl_data_device_manager_interface,
			  3, (void **)&mb },
		};

		bind_globals(tb.display, want, 2);
	}
	db = wl_data_device_manager_get_data_device(mb, seat_b);
	wl_data_device_add_listener(db, &clip_listener, &cb);
	if (wl_display_roundtrip(tb.display) < 0)
		fail("client B: %s", last_client_log);
	check(cb.selections == 0, "a client without the focus is offered nothing");

	win_create(&tb, &b);
	win_initial_commit(&b);
	win_draw(&b, 40, 40, GREEN);
	check(cb.selections == 1 && cb.selection && cb.selection == cb.offer &&
	      !strcmp(cb.mimes, "text/plain "),
	      "B's window took the focus: offered the selection (%d, %s)",
	      cb.selections, cb.mimes);
	receive(tb.display, cb.selection, sc.t.display, "text/plain", text,
		sizeof(text));
	check(!strcmp(text, "hello text/plain"),
	      "received through the source's send: '%s'", text);

	old = cb.selection;
	s2 = source(ma, "text/html");
	wl_data_device_set_selection(da, s2, 6);
	if (wl_display_roundtrip(sc.t.display) < 0 ||
	    wl_display_roundtrip(tb.display) < 0)
		fail("second selection: %s", last_client_log);
	check(cancelled == 1, "the replaced source cancelled (%d)", cancelled);
	check(cb.selections == 2 && cb.selection != old &&
	      !strcmp(cb.mimes, "text/html "),
	      "the focused client offered the new selection at once (%s)",
	      cb.mimes);
	receive(tb.display, old, sc.t.display, "text/plain", text, sizeof(text));
	check(!text[0], "the old offer reads nothing ('%s')", text);

	s3 = source(ma, "text/uri-list");
	wl_data_device_set_selection(da, s3, 6);
	if (wl_display_roundtrip(sc.t.display) < 0 ||
	    wl_display_roundtrip(tb.display) < 0)
		fail("stale selection: %s", last_client_log);
	check(cb.selections == 2 && cancelled == 1,
	      "a serial not newer than the selection's: ignored");

	/* Drag-and-drop's requests on selection offers: accept is
	 * feedback and does nothing, destroy lets go of the old offer,
	 * set_actions is an error (a selection has no actions). */
	wl_data_offer_accept(old, 0, "text/plain");
	wl_data_offer_destroy(old);
	if (wl_display_roundtrip(tb.display) < 0)
		fail("accept and destroy of an old offer: %s", last_client_log);
	wl_data_offer_set_actions(cb.selection, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY,
				  WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	expect_error(&tb, "set_actions on a selection offer", "wl_data_offer",
		     WL_DATA_OFFER_ERROR_INVALID_OFFER);

	wl_data_device_set_selection(da, s1, 7);
	expect_error(&sc.t, "a source used twice", "wl_data_device", 1);
	(void)s3;
	wl_display_disconnect(tb.display);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "input-selection", test_selection },
};

int main(int argc, char **argv)
{
	return harness_main("test-input-selection", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
