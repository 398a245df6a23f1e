/* SPDX-License-Identifier: MIT */
/*
 * input-client.c - the input tests' client: a seat whose every event
 * becomes a line of text, waiting for the lines, and the input
 * protocols' globals (input-client.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input-client.h"

void note(struct sc *sc, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sc->log + sc->len, sizeof(sc->log) - sc->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 2 >= sizeof(sc->log) - sc->len)
		fail("event log full");
	sc->len += (size_t)n;
	sc->log[sc->len++] = '\n';
	sc->log[sc->len] = 0;
}

const char *surface_name(struct sc *sc, struct wl_surface *s)
{
	static const char *const names[] = { "A", "B", "C", "D" };

	/* A surface this client destroyed arrives as NULL. */
	if (!s)
		return "(destroyed)";
	for (int i = 0; i < 4; i++)
		if (sc->named[i] == s)
			return names[i];
	return "?";
}

/* wl_keyboard */

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format,
		      int32_t fd, uint32_t size)
{
	struct sc *sc = data;

	if (sc->keymap_fd >= 0)
		close(sc->keymap_fd);
	sc->keymap_fd = fd;
	sc->keymap_format = format;
	sc->keymap_size = size;
	note(sc, "keymap");
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s, struct wl_array *keys)
{
	struct sc *sc = data;
	char buf[128] = "";
	uint32_t *key;
	size_t n = 0;

	wl_array_for_each(key, keys)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %u", *key);
	note(sc, "kb-enter %s keys%s", surface_name(sc, s), buf);
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s)
{
	note(data, "kb-leave %s", surface_name(data, s));
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial,
		   uint32_t time, uint32_t key, uint32_t state)
{
	struct sc *sc = data;

	if (serial <= sc->last_serial)
		note(sc, "BAD-SERIAL %u after %u", serial, sc->last_serial);
	sc->last_serial = serial;
	note(sc, "key %u %s", key, state ? "pressed" : "released");
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial,
			 uint32_t dep, uint32_t lat, uint32_t lock, uint32_t group)
{
	note(data, "mods %u %u %u %u", dep, lat, lock, group);
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate,
		      int32_t delay)
{
	struct sc *sc = data;

	sc->repeat_rate = rate;
	sc->repeat_delay = delay;
}

static const struct wl_keyboard_listener kb_listener = {
	.keymap = kb_keymap, .enter = kb_enter, .leave = kb_leave,
	.key = kb_key, .modifiers = kb_modifiers, .repeat_info = kb_repeat,
};

/* wl_pointer */

static void ptr_enter(void *data, struct wl_pointer *p, uint32_t serial,
		      struct wl_surface *s, wl_fixed_t x, wl_fixed_t y)
{
	note(data, "ptr-enter %s %.2f %.2f", surface_name(data, s),
	     wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void ptr_leave(void *data, struct wl_pointer *p, uint32_t serial,
		      struct wl_surface *s)
{
	note(data, "ptr-leave %s", surface_name(data, s));
}

static void ptr_motion(void *data, struct wl_pointer *p, uint32_t time,
		       wl_fixed_t x, wl_fixed_t y)
{
	note(data, "ptr-motion %.2f %.2f", wl_fixed_to_double(x),
	     wl_fixed_to_double(y));
}

static void ptr_button(void *data, struct wl_pointer *p, uint32_t serial,
		       uint32_t time, uint32_t button, uint32_t state)
{
	((struct sc *)data)->button_serial = serial;
	note(data, "ptr-button %u %s", button, state ? "pressed" : "released");
}

static void ptr_axis(void *data, struct wl_pointer *p, uint32_t time,
		     uint32_t axis, wl_fixed_t value)
{
	note(data, "ptr-axis %u %.2f", axis, wl_fixed_to_double(value));
}

static void ptr_frame(void *data, struct wl_pointer *p)
{
	note(data, "ptr-frame");
}

static void ptr_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
	note(data, "ptr-axis-source %u", source);
}

static void ptr_axis_stop(void *data, struct wl_pointer *p, uint32_t time,
			  uint32_t axis)
{
	note(data, "ptr-axis-stop %u", axis);
}

static void ptr_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis,
			      int32_t discrete)
{
	note(data, "ptr-axis-discrete %u %d", axis, discrete);
}

static void ptr_axis_value120(void *data, struct wl_pointer *p, uint32_t axis,
			      int32_t v)
{
	note(data, "ptr-axis-value120 %u %d", axis, v);
}

static const struct wl_pointer_listener ptr_listener = {
	.enter = ptr_enter, .leave = ptr_leave, .motion = ptr_motion,
	.button = ptr_button, .axis = ptr_axis, .frame = ptr_frame,
	.axis_source = ptr_axis_source, .axis_stop = ptr_axis_stop,
	.axis_discrete = ptr_axis_discrete, .axis_value120 = ptr_axis_value120,
};

/* wl_seat */

static void seat_caps(void *data, struct wl_seat *s, uint32_t caps)
{
	struct sc *sc = data;

	sc->caps = caps;
	note(sc, "caps %u", caps);
}

static void seat_name(void *data, struct wl_seat *s, const char *n)
{
}

static const struct wl_seat_listener seat_listener = {
	.capabilities = seat_caps, .name = seat_name,
};

static uint32_t seat_version;

static void reg_global(void *data, struct wl_registry *r, uint32_t id,
		       const char *iface, uint32_t version)
{
	struct sc *sc = data;

	if (!strcmp(iface, "wl_seat") && !sc->seat) {
		sc->seat = wl_registry_bind(r, id, &wl_seat_interface,
					    seat_version);
		wl_seat_add_listener(sc->seat, &seat_listener, sc);
	}
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t id)
{
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global, .global_remove = reg_remove,
};

/* Reads events for up to @ms; false: the connection broke. */
bool dispatch_for(struct wl_display *d, int ms)
{
	struct pollfd p = { .fd = wl_display_get_fd(d), .events = POLLIN };

	while (wl_display_prepare_read(d) != 0)
		if (wl_display_dispatch_pending(d) < 0)
			return false;
	wl_display_flush(d);
	if (poll(&p, 1, ms) <= 0) {
		wl_display_cancel_read(d);
		return true;
	}
	return wl_display_read_events(d) >= 0 &&
	       wl_display_dispatch_pending(d) >= 0;
}

long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The next line of the log (after what was expected already) that
 * starts with @prefix must be exactly @line; waits for it. */
void expect(struct sc *sc, const char *prefix, const char *line)
{
	long long deadline = ms_now() + TIMEOUT_MS;

	for (;;) {
		char *p = sc->log + sc->from;

		while (*p) {
			char *eol = strchr(p, '\n');
			size_t n = (size_t)(eol - p);

			if (!strncmp(p, prefix, strlen(prefix))) {
				sc->from = (size_t)(eol + 1 - sc->log);
				if (n != strlen(line) || strncmp(p, line, n))
					fail("expected '%s', got '%.*s'; log:\n%s",
					     line, (int)n, p, sc->log);
				tap_ok("%s", line);
				return;
			}
			p = eol + 1;
		}
		if (ms_now() >= deadline)
			fail("no '%s' within %d ms; log:\n%s", line, TIMEOUT_MS,
			     sc->log);
		if (!dispatch_for(sc->t.display, (int)(deadline - ms_now())))
			fail("connection lost waiting for '%s': %s", line,
			     last_client_log);
	}
}

void sc_sync(struct sc *sc)
{
	if (wl_display_roundtrip(sc->t.display) < 0)
		fail("connection lost: %s", last_client_log);
}

void none_since(struct sc *sc, size_t mark, const char *prefix,
		const char *what)
{
	const char *p = sc->log + mark;
	bool found = false;

	while (*p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			found = true;
		p = strchr(p, '\n') + 1;
	}
	if (found)
		fail("%s; the log since:\n%s", what, sc->log + mark);
	tap_ok("%s", what);
}

/* Starts the compositor reading the FIFO and binds wl_seat @version. */
void sc_start(struct sc *sc, uint32_t version)
{
	const char *args[] = { NULL, NULL };

	memset(sc, 0, sizeof(*sc));
	sc->keymap_fd = -1;
	fifo_create(&sc->f);
	args[0] = sc->f.arg;
	t_start_args(&sc->t, args);
	fifo_open(&sc->f);
	seat_version = version;
	sc->registry = wl_display_get_registry(sc->t.display);
	wl_registry_add_listener(sc->registry, &reg_listener, sc);
	if (wl_display_roundtrip(sc->t.display) < 0 || !sc->seat)
		fail("no wl_seat");
	expect(sc, "caps", "caps 3");
}

void sc_keyboard(struct sc *sc)
{
	sc->kb = wl_seat_get_keyboard(sc->seat);
	wl_keyboard_add_listener(sc->kb, &kb_listener, sc);
	expect(sc, "keymap", "keymap");
}

void sc_pointer(struct sc *sc)
{
	sc->ptr = wl_seat_get_pointer(sc->seat);
	wl_pointer_add_listener(sc->ptr, &ptr_listener, sc);
}

void sc_stop(struct sc *sc)
{
	check(!strstr(sc->log, "BAD-SERIAL"), "key serials grow");
	if (sc->keymap_fd >= 0)
		close(sc->keymap_fd);
	fifo_close(&sc->f);
	t_stop(&sc->t);
}

/* A mapped @w x @h toplevel named in the log; waits until it is
 * activated (it is the newest) and returns where it went. */
void sc_window(struct sc *sc, struct win *w, int slot, int size,
		      uint32_t color, int *x, int *y)
{
	win_create(&sc->t, w);
	sc->named[slot] = w->s;
	win_initial_commit(w);
	win_draw(w, size, size, color);
	wait_mapped(&sc->t, x, y, "window");
}

/* Waits for a configure of @w with (or without) the activated state,
 * and acks it with a commit. */
void expect_activated(struct sc *sc, struct win *w, bool activated,
			     const char *what)
{
	long long deadline = ms_now() + TIMEOUT_MS;

	while (w->activated != activated) {
		if (ms_now() >= deadline)
			fail("%s: activated never became %d", what, activated);
		if (!dispatch_for(sc->t.display, (int)(deadline - ms_now())))
			fail("connection lost: %s", last_client_log);
	}
	xdg_surface_ack_configure(w->xs, w->serial);
	wl_surface_commit(w->s);
	tap_ok("%s: %s", what, activated ? "activated" : "not activated");
}

struct input_globals input_globals(struct wl_display *d)
{
	struct input_globals g = { 0 };
	const struct global_want want[] = {
		{ "zwp_pointer_constraints_v1",
		  &zwp_pointer_constraints_v1_interface, 1,
		  (void **)&g.constraints },
		{ "zwp_relative_pointer_manager_v1",
		  &zwp_relative_pointer_manager_v1_interface, 1,
		  (void **)&g.relative },
		{ "zwp_text_input_manager_v3",
		  &zwp_text_input_manager_v3_interface, 1,
		  (void **)&g.text_input },
		{ "wl_seat", &wl_seat_interface, 5, (void **)&g.seat },
	};

	bind_globals(d, want, 4);
	return g;
}
