/* SPDX-License-Identifier: MIT */
/*
 * input-client.h - the input tests' client (input-client.c): a raw
 * client (toplevel.h) with a wl_seat, whose keyboard and pointer events
 * become lines of text in order, and a compositor reading a FIFO
 * (--input, evdev-fifo.h) that the test writes input_event records
 * into (test-input-*, test-constraints, test-text-input, test-popup,
 * test-decor, test-focus, test-relative-pointer).
 */
#ifndef WLSEAL_TEST_INPUT_CLIENT_H
#define WLSEAL_TEST_INPUT_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "evdev-fifo.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "toplevel.h"

/* The test client: a struct t (toplevel.h) with a seat, and every input
 * event it got as a line of text in @log, in order. */
struct sc {
	struct t t;
	struct fifo f;
	struct wl_registry *registry;
	struct wl_seat *seat;
	uint32_t caps;
	struct wl_keyboard *kb;
	struct wl_pointer *ptr;
	int keymap_fd;
	uint32_t keymap_format, keymap_size;
	int32_t repeat_rate, repeat_delay;
	uint32_t last_serial;		/* key serials must grow */
	uint32_t button_serial;		/* of the last button event */
	struct wl_surface *named[4];	/* "A", "B", ... in the log */
	char log[32768];
	size_t len, from;		/* from: expect() has read so far */
};

/* Appends a line to the log. */
void note(struct sc *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* @s as the log names it: "A" + its slot in @sc->named, "(destroyed)"
 * for NULL (a surface this client destroyed), "?" for another. */
const char *surface_name(struct sc *sc, struct wl_surface *s);
long long ms_now(void);
/* Reads and dispatches what arrives within @ms; false: connection lost. */
bool dispatch_for(struct wl_display *d, int ms);
/* The next line of the log (after what was expected already) that
 * starts with @prefix must be exactly @line; waits for it. */
void expect(struct sc *sc, const char *prefix, const char *line);
/* A roundtrip: everything the compositor sent before it is in the log. */
void sc_sync(struct sc *sc);
/* The log since @mark (an earlier sc->len) holds no line starting with
 * @prefix. */
void none_since(struct sc *sc, size_t mark, const char *prefix,
		const char *what);
/* Starts the compositor reading the FIFO and binds wl_seat @version;
 * the capabilities must be pointer and keyboard. */
void sc_start(struct sc *sc, uint32_t version);
/* wl_seat.get_keyboard, and its keymap event. */
void sc_keyboard(struct sc *sc);
void sc_pointer(struct sc *sc);
void sc_stop(struct sc *sc);
/* A mapped @size x @size toplevel, "A" + @slot in the log; *@x, *@y:
 * where the compositor put it. */
void sc_window(struct sc *sc, struct win *w, int slot, int size,
	       uint32_t color, int *x, int *y);
/* Waits for a configure of @w with (or without) the activated state,
 * and acks it with a commit. */
void expect_activated(struct sc *sc, struct win *w, bool activated,
		      const char *what);

/* The input protocols' globals besides the seat's own (sc_start). */
struct input_globals {
	struct zwp_pointer_constraints_v1 *constraints;
	struct zwp_relative_pointer_manager_v1 *relative;
	struct zwp_text_input_manager_v3 *text_input;
	struct wl_seat *seat;		/* version 5 */
};
/* Binds each of them on @d; fails naming every one not advertised. */
struct input_globals input_globals(struct wl_display *d);

#endif
