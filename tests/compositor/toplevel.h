/* SPDX-License-Identifier: MIT */
/*
 * toplevel.h - a raw test client with xdg toplevels, solid sealed
 * buffers, frame waits and screenshots, which the screenshot and
 * protocol suites build on (test-subsurface, test-xdg-*, and through
 * input-client.h and popup.h the input and popup tests).
 *
 * After each step a test waits for a frame (a frame callback on a
 * surface without a role, which fires with the first frame that shows
 * everything committed before it), asks for a screenshot (SIGUSR1) and
 * reads pixels back.
 */
#ifndef WLSEAL_TEST_TOPLEVEL_H
#define WLSEAL_TEST_TOPLEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "harness.h"
#include "viewporter-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

/* Must match compositor/scene/scene.h. */
#define BACKGROUND 0xff203040u

#define RED	0xffff0000u
#define GREEN	0xff00ff00u
#define BLUE	0xff0000ffu
#define YELLOW	0xffffff00u
#define WHITE	0xffffffffu

/* Must match compositor/scene/scene.h: where a new window goes, and
 * how far the cascade moves the next one. */
#define CASCADE_X0 32
#define CASCADE_Y0 32
#define CASCADE_STEP 48

/* The output t_start() asks for (--size=320x240). */
#define OUT_W 320
#define OUT_H 240

/* The compositor (320x240, --verbose) and our connection to it. */
struct t {
	struct comp c;
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	/* NULL unless advertised: the tests that need one check. */
	struct wl_subcompositor *subcompositor;
	struct zxdg_decoration_manager_v1 *deco;
	struct wp_viewporter *viewporter;
	struct wl_surface *probe;	/* no role: only frame callbacks */
	size_t log_from;		/* compositor output read so far */
	int ox, oy;			/* expect_rect's 0,0 in the output */
	char error[1024];		/* expect_error's protocol error text */
	uint8_t *rgb;			/* the last screenshot */
	unsigned int shot_w, shot_h;
};

/* One toplevel and what its last configure said. */
struct win {
	struct t *t;
	struct wl_surface *s;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;
	int configures;			/* xdg_surface.configure events */
	uint32_t serial;
	int32_t w, h;			/* of the last xdg_toplevel.configure */
	bool maximized, fullscreen, activated, resizing, other_state;
	int closes;			/* xdg_toplevel.close events */
};

/* Starts the compositor and connects; wl_compositor, wl_shm and
 * xdg_wm_base must be there. */
void t_start(struct t *t);
/* The same with more compositor options (NULL-terminated). */
void t_start_args(struct t *t, const char *const extra[]);
/* Connects @t (zeroed) to the compositor already started: another
 * client of it, with globals and a probe of its own; @t->c stays unused.
 * wl_display_disconnect ends it. */
void t_connect(struct t *t);
/* Checks that the compositor refused nothing, disconnects, stops it. */
void t_stop(struct t *t);
/* The last request must end the connection with this protocol error;
 * connects again afterwards (t->error keeps the error's text). */
void expect_error(struct t *t, const char *what, const char *iface,
		  uint32_t code);

struct wl_surface *surface(struct t *t);
/* A w x h buffer of one colour from a SEAL_SHRINK-sealed memfd. */
struct wl_buffer *solid(struct t *t, int w, int h, uint32_t color);
/* A w x h buffer in four quadrants: RED top left, GREEN top right, BLUE
 * bottom left, YELLOW bottom right (w and h even). */
struct wl_buffer *quadrants(struct t *t, int w, int h);
/* Attaches solid(@w, @h, @color) to @s, damages it all and commits. */
void show(struct t *t, struct wl_surface *s, int w, int h, uint32_t color);

/* A toplevel without a buffer; nothing committed yet. */
void win_create(struct t *t, struct win *w);
/* Waits for the configure after the @n-th one the window saw. */
void wait_configure(struct win *w, int n, const char *what);
/* The initial commit and its configure. */
void win_initial_commit(struct win *w);
/* Acks the last configure and commits a w x h buffer in @color. */
void win_draw(struct win *w, int width, int height, uint32_t color);
/* The compositor's next "mapped" line: where the window went. */
void wait_mapped(struct t *t, int *x, int *y, const char *what);
/* The same, which must be at @x, @y. */
void expect_mapped_at(struct t *t, int x, int y, const char *what);
/* The compositor's next "placed" line (a mapped window moved) must be
 * at @x, @y. */
void expect_placed_at(struct t *t, int x, int y, const char *what);

/* The last xdg_toplevel.configure said @width x @height, maximized and
 * fullscreen as given, and no state besides those, activated and
 * resizing (other_state). */
void expect_configure(struct win *w, bool maximized, bool fullscreen,
		      int32_t width, int32_t height, const char *what);
/* Sends @req and waits for the configure that answers it. */
void win_request(struct win *w, void (*req)(struct xdg_toplevel *),
		 const char *what);
/* xdg_toplevel.set_fullscreen on the compositor's choice of output: a
 * @req for win_request(). */
void set_fullscreen(struct xdg_toplevel *tl);

/* Waits for a frame that shows everything committed so far, then takes
 * a screenshot into t->rgb. */
void screenshot(struct t *t);
/* The screenshot's pixel at output coordinates (@x, @y). */
uint32_t at(struct t *t, int x, int y);
/* Every pixel of the rectangle (relative to t->ox, t->oy) is @color. */
void expect_rect(struct t *t, int x, int y, int w, int h, uint32_t color,
		 const char *what);

/* A floating 100x80 RED window mapped from @w (made by win_create):
 * its initial configure 0x0 without states, at the first cascade slot
 * in a screenshot, nothing above it. */
void map_floating(struct t *t, struct win *w);

#endif
