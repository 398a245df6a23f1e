/* SPDX-License-Identifier: MIT */
/*
 * popup.c - xdg_popup and xdg_positioner for the popup tests (popup.h).
 */
#include <string.h>

#include "popup.h"

static void pop_xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct pop *p = data;

	p->configures++;
	p->serial = serial;
}

static const struct xdg_surface_listener pop_xs_listener = {
	.configure = pop_xs_configure,
};

static void pop_configure(void *data, struct xdg_popup *xp, int32_t x,
			  int32_t y, int32_t w, int32_t h)
{
	struct pop *p = data;

	p->x = x;
	p->y = y;
	p->w = w;
	p->h = h;
	if (p->sc)
		note(p->sc, "popup-configure %s %d %d %d %d", p->name, x, y, w, h);
}

static void pop_done(void *data, struct xdg_popup *xp)
{
	struct pop *p = data;

	p->done = true;
	if (p->sc)
		note(p->sc, "popup-done %s", p->name);
}

static void pop_repositioned(void *data, struct xdg_popup *xp, uint32_t token)
{
	struct pop *p = data;

	p->has_token = true;
	p->token = token;
	if (p->sc)
		note(p->sc, "popup-repositioned %s %u", p->name, token);
}

static const struct xdg_popup_listener pop_listener = {
	.configure = pop_configure,
	.popup_done = pop_done,
	.repositioned = pop_repositioned,
};

struct xdg_positioner *positioner(struct t *t, int w, int h, int rx, int ry,
				  int rw, int rh, uint32_t anchor,
				  uint32_t gravity, uint32_t adjust, int ox,
				  int oy)
{
	struct xdg_positioner *pos = xdg_wm_base_create_positioner(t->wm_base);

	xdg_positioner_set_size(pos, w, h);
	xdg_positioner_set_anchor_rect(pos, rx, ry, rw, rh);
	xdg_positioner_set_anchor(pos, anchor);
	xdg_positioner_set_gravity(pos, gravity);
	xdg_positioner_set_constraint_adjustment(pos, adjust);
	xdg_positioner_set_offset(pos, ox, oy);
	return pos;
}

void pop_create(struct t *t, struct pop *p, const char *name,
		struct xdg_surface *parent, struct xdg_positioner *pos)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->name = name;
	p->s = wl_compositor_create_surface(t->compositor);
	p->xs = xdg_wm_base_get_xdg_surface(t->wm_base, p->s);
	p->p = xdg_surface_get_popup(p->xs, parent, pos);
	xdg_surface_add_listener(p->xs, &pop_xs_listener, p);
	xdg_popup_add_listener(p->p, &pop_listener, p);
	xdg_positioner_destroy(pos);
}

void pop_wait_configure(struct pop *p, int n, const char *what)
{
	while (p->configures <= n)
		if (wl_display_dispatch(p->t->display) < 0)
			fail("%s: no configure (%s)", what, last_client_log);
}

void pop_initial_commit(struct pop *p)
{
	int n = p->configures;

	wl_surface_commit(p->s);
	pop_wait_configure(p, n, "popup initial commit");
}

void pop_draw(struct pop *p, uint32_t color)
{
	xdg_surface_ack_configure(p->xs, p->serial);
	show(p->t, p->s, p->w, p->h, color);
	if (wl_display_roundtrip(p->t->display) < 0)
		fail("connection lost after a popup commit: %s", last_client_log);
}

void pop_destroy(struct pop *p)
{
	xdg_popup_destroy(p->p);
	xdg_surface_destroy(p->xs);
	wl_surface_destroy(p->s);
}

void pop_expect_configure(struct pop *p, int x, int y, int w, int h,
			  const char *what)
{
	check(p->x == x && p->y == y && p->w == w && p->h == h,
	      "%s: configure %d,%d %dx%d (expected %d,%d %dx%d)", what, p->x,
	      p->y, p->w, p->h, x, y, w, h);
}

void toplevel(struct t *t, struct win *w, int width, int height, int *x,
	      int *y)
{
	win_create(t, w);
	win_initial_commit(w);
	win_draw(w, width, height, RED);
	wait_mapped(t, x, y, "toplevel");
}

void toplevel_at_32(struct t *t, struct win *w, int width, int height)
{
	int x, y;

	toplevel(t, w, width, height, &x, &y);
	check(x == 32 && y == 32, "the toplevel at 32,32 (%d,%d)", x, y);
}
