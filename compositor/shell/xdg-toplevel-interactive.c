/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel-interactive.c - interactive move and resize of an
 * xdg_toplevel: the move and resize requests, granted while the button
 * pressed on the window with their serial stays held (seat.c; the
 * pointer then drags the window through the surface's role_move and
 * role_resize, which xdg-shell.c forwards here), and a frame's title
 * bar dragged (decor.c). A maximized or fullscreen window does neither.
 */
#include <wayland-server-core.h>

#include "log.h"
#include "xdg.h"
#include "xdg-shell-server-protocol.h"
#include "xdg-toplevel.h"

/* An interactive move, while the button pressed on the window with
 * @serial stays held (seat.c); a maximized or fullscreen window does
 * not move. */
void wlseal_xdg_toplevel_request_move(struct wl_client *c,
				      struct wl_resource *r,
				      struct wl_resource *seat,
				      uint32_t serial)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	if (!s || !s->view.mapped || tl->acked.maximized || tl->acked.fullscreen)
		return;
	if (!wlseal_seat_move(wl_resource_get_user_data(seat), s, serial))
		wlseal_debug("toplevel \"%s\" move ignored: no button held "
			     "on it with serial %u",
			     wlseal_xdg_toplevel_title(tl), serial);
}

/* An interactive resize, like the move above: @edges follow the
 * cursor while the button stays held (wlseal_xdg_toplevel_resize). */
void wlseal_xdg_toplevel_request_resize(struct wl_client *c,
					struct wl_resource *r,
					struct wl_resource *seat,
					uint32_t serial, uint32_t edges)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	/* The edges and corners: one bit of top and bottom at most, one
	 * of left and right. */
	if (edges > XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT ||
	    (edges & 3) == 3 || (edges & 12) == 12) {
		wl_resource_post_error(r, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE,
				       "resize edge %u", edges);
		return;
	}
	if (!edges || !s || !s->view.mapped || tl->acked.maximized ||
	    tl->acked.fullscreen)
		return;
	if (!wlseal_seat_resize(wl_resource_get_user_data(seat), s, serial,
				edges))
		wlseal_debug("toplevel \"%s\" resize ignored: no button held "
			     "on it with serial %u",
			     wlseal_xdg_toplevel_title(tl), serial);
}

void wlseal_xdg_toplevel_move(struct wlseal_xdg_toplevel *tl, int32_t dx,
			      int32_t dy)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;
	int64_t x = (int64_t)tl->cascade_x + dx, y = (int64_t)tl->cascade_y + dy;

	if (!s || !s->view.mapped || tl->acked.maximized || tl->acked.fullscreen)
		return;
	/* Anywhere, as long as some of the top edge (where the title bar
	 * is grabbed) stays on the output. */
	wlseal_scene_keep_grabbable(&x, &y, s->view.width,
				    s->server->output.width,
				    s->server->output.height);
	tl->cascade_x = (int32_t)x;
	tl->cascade_y = (int32_t)y;
	wlseal_xdg_toplevel_to_spot(tl);
}

/* Sizes past this are no window a screen shows. */
#define SIZE_LIMIT (1 << 16)

static int32_t clamp_size(int64_t v)
{
	return v < 1 ? 1 : v > SIZE_LIMIT ? SIZE_LIMIT : (int32_t)v;
}

/*
 * An interactive resize: the window's size when it began, dragged by
 * (@dx, @dy) at @edges, is asked for in configures with the resizing
 * state (as many as the client acks: send_configure's bound, in
 * xdg-toplevel-configure.c). The dragged top or left edge moves the
 * window at once, as far as the asked size shrank or grew, so that the
 * opposite edge stays where it was for a client that draws the size
 * asked for; one that keeps its size keeps it with its corner where the
 * drag put it. The size stays the window's floating size afterwards.
 */
void wlseal_xdg_toplevel_resize(struct wlseal_xdg_toplevel *tl, uint32_t edges,
				int32_t dx, int32_t dy)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;
	int32_t w, h;

	if (!s)
		return;
	if (!edges) {
		if (tl->wanted.resizing) {
			tl->wanted.resizing = false;
			wlseal_xdg_toplevel_configure(tl);
		}
		return;
	}
	if (!tl->wanted.resizing) {
		int64_t w0, h0;

		wlseal_xdg_toplevel_window_size(tl, &w0, &h0);
		tl->resize_w0 = clamp_size(w0);
		tl->resize_h0 = clamp_size(h0);
		tl->resize_x0 = tl->cascade_x;
		tl->resize_y0 = tl->cascade_y;
		tl->wanted.resizing = true;
	}
	w = clamp_size((int64_t)tl->resize_w0 +
		       (edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT ? dx :
			edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT ? -(int64_t)dx : 0));
	h = clamp_size((int64_t)tl->resize_h0 +
		       (edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM ? dy :
			edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP ? -(int64_t)dy : 0));
	tl->wanted.width = w;
	tl->wanted.height = h;
	if (edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT)
		tl->cascade_x = tl->resize_x0 + (tl->resize_w0 - w);
	if (edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP)
		tl->cascade_y = tl->resize_y0 + (tl->resize_h0 - h);
	if (s->view.mapped)
		wlseal_xdg_toplevel_to_spot(tl);
	wlseal_xdg_toplevel_configure(tl);
	wlseal_xdg_toplevel_changed(tl);
}
