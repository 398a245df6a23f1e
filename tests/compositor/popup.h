/* SPDX-License-Identifier: MIT */
/*
 * popup.h - xdg_popup and xdg_positioner for the popup tests
 * (test-popup, test-popup-place): a popup on a toplevel (toplevel.h)
 * or on another popup, what its configures said, and its events as
 * lines of a seat client's log (input-client.h) when it has one.
 */
#ifndef WLSEAL_TEST_POPUP_H
#define WLSEAL_TEST_POPUP_H

#include <stdbool.h>
#include <stdint.h>

#include "input-client.h"
#include "toplevel.h"

#define A(n) XDG_POSITIONER_ANCHOR_##n
#define G(n) XDG_POSITIONER_GRAVITY_##n
#define C(n) XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_##n

/* One popup and what it was told. */
struct pop {
	struct t *t;
	struct sc *sc;			/* events noted in its log, or NULL */
	const char *name;
	struct wl_surface *s;
	struct xdg_surface *xs;
	struct xdg_popup *p;
	int configures;			/* xdg_surface.configure events */
	uint32_t serial;
	int32_t x, y, w, h;		/* the last xdg_popup.configure */
	bool done;			/* popup_done came */
	bool has_token;
	uint32_t token;			/* the last repositioned */
};

/* A complete positioner: size @w x @h, the anchor rectangle, anchor,
 * gravity, constraint adjustments and offset. */
struct xdg_positioner *positioner(struct t *t, int w, int h, int rx, int ry,
				  int rw, int rh, uint32_t anchor,
				  uint32_t gravity, uint32_t adjust, int ox,
				  int oy);
/* A popup on @parent placed by @pos (destroyed here), not committed. */
void pop_create(struct t *t, struct pop *p, const char *name,
		struct xdg_surface *parent, struct xdg_positioner *pos);
/* Waits for the configure after the @n-th one the popup saw. */
void pop_wait_configure(struct pop *p, int n, const char *what);
/* The initial commit and its configure. */
void pop_initial_commit(struct pop *p);
/* Acks the last configure and commits a buffer of the configured size. */
void pop_draw(struct pop *p, uint32_t color);
void pop_destroy(struct pop *p);
/* The last xdg_popup.configure was @x, @y (in the parent's window
 * geometry), @w x @h. */
void pop_expect_configure(struct pop *p, int x, int y, int w, int h,
			  const char *what);

/* A mapped @width x @height RED toplevel, a popup's parent; *@x, *@y:
 * where it went. */
void toplevel(struct t *t, struct win *w, int width, int height, int *x,
	      int *y);
/* The same, at the first cascade slot, 32,32. */
void toplevel_at_32(struct t *t, struct win *w, int width, int height);

#endif
