/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel-configure.c - the xdg_toplevel role's states, configures
 * and acks, and placement: the window mapped, placed and unmapped at its
 * commits.
 *
 * A toplevel's life is short: the first commit
 * (without a buffer) asks for a configure, the client acks it and commits
 * a buffer, and the surface is mapped into the scene at the next cascade
 * slot. A floating window picks its own size (configure 0x0), which keeps
 * frames deterministic. set_maximized and set_fullscreen are granted:
 * the configure carries the state and the output's size (there are no
 * panels, so a maximized window gets the whole output too), and once the
 * client acked it and committed, the window sits at 0,0. unset_* sends
 * 0x0 again (or the size an interactive resize chose) and the window
 * returns to its cascade slot.
 *
 * Placement puts the window geometry's origin (xdg_surface.
 * set_window_geometry) at the spot, not the surface's: a client that
 * draws a title bar in a subsurface above its surface (foot) declares
 * it part of the window. Without geometry the surface origin goes there.
 * A frame the compositor draws (decor.c, a server_side decoration) is
 * outside the window geometry: its top-left corner goes to the spot,
 * and a maximized window's configure leaves room for it (a fullscreen
 * one has none). The spot is the next cascade slot (scene.c), moved
 * left or up as far as the window then fits on the output, and to 0
 * on an axis where it cannot fit at all: a window as large as the
 * output, or larger, sits at its origin whole-sized, never cut off at
 * the right or bottom by the slot's offset.
 *
 * The ACTIVATED state follows the seat's keyboard focus (seat.c picks
 * the toplevel, xdg-shell.c's role_activate brings it here).
 */
#include <string.h>

#include <wayland-server-core.h>

#include "connections.h"
#include "log.h"
#include "xdg.h"
#include "xdg-shell-server-protocol.h"
#include "xdg-toplevel.h"

/* The frame around the window in state @st: none while fullscreen. */
static struct wlseal_xdg_frame frame_in(const struct wlseal_xdg_toplevel *tl,
					struct wlseal_xdg_state st)
{
	struct wlseal_xdg_frame none = { 0 };

	return st.fullscreen ? none : tl->frame;
}

void wlseal_xdg_toplevel_changed(struct wlseal_xdg_toplevel *tl)
{
	wl_signal_emit(&tl->changed_signal, tl);
}

static void send_configure(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_surface *xs = tl->xs;
	struct wlseal_xdg_state st = tl->wanted;
	struct wl_array states;
	int32_t w = 0, h = 0;
	uint32_t serial, *p;

	if (!xs)
		return;
	/* A client that does not ack gets no more than a few; what it
	 * asked for meanwhile follows its next ack. */
	if (tl->n_sent == WLSEAL_XDG_CONFIGURES) {
		tl->resend = true;
		return;
	}
	wl_array_init(&states);
	if (st.maximized && (p = wl_array_add(&states, sizeof(*p))))
		*p = XDG_TOPLEVEL_STATE_MAXIMIZED;
	if (st.fullscreen && (p = wl_array_add(&states, sizeof(*p))))
		*p = XDG_TOPLEVEL_STATE_FULLSCREEN;
	if (st.activated && (p = wl_array_add(&states, sizeof(*p))))
		*p = XDG_TOPLEVEL_STATE_ACTIVATED;
	if (st.resizing && (p = wl_array_add(&states, sizeof(*p))))
		*p = XDG_TOPLEVEL_STATE_RESIZING;
	/* 0x0: "pick your own size", unless an interactive resize chose
	 * one; maximized or fullscreen: the output, less the frame's room
	 * (the window geometry excludes it). */
	w = st.width;
	h = st.height;
	if (st.maximized || st.fullscreen) {
		struct wlseal_xdg_frame f = frame_in(tl, st);

		w = xs->server->output.width - f.left - f.right;
		h = xs->server->output.height - f.top - f.bottom;
		w = w > 1 ? w : 1;
		h = h > 1 ? h : 1;
	}
	xdg_toplevel_send_configure(tl->resource, w, h, &states);
	wl_array_release(&states);
	serial = wl_display_next_serial(xs->server->display);
	xdg_surface_send_configure(xs->resource, serial);
	tl->sent[tl->n_sent].serial = serial;
	tl->sent[tl->n_sent].state = st;
	tl->n_sent++;
}

void wlseal_xdg_toplevel_configure(struct wlseal_xdg_toplevel *tl)
{
	if (tl->initial_sent)
		send_configure(tl);
}

/* An ack of a configure that went out before the unmap reset is no
 * error: the client sent it before it knew. It changes nothing; the
 * window waits for the ack of its new initial configure. Serials wrap,
 * so "between" is measured as a distance from the first. */
static bool serial_is_stale(const struct wlseal_xdg_toplevel *tl,
			    uint32_t serial)
{
	return tl->has_stale &&
	       serial - tl->stale_first <= tl->stale_last - tl->stale_first;
}

bool wlseal_xdg_toplevel_ack(struct wlseal_xdg_toplevel *tl, uint32_t serial)
{
	int i;

	for (i = 0; i < tl->n_sent && tl->sent[i].serial != serial; i++)
		;
	if (i == tl->n_sent)
		return serial_is_stale(tl, serial);
	tl->has_stale = false;
	/* Acking one configure drops those sent before it. */
	tl->acked = tl->sent[i].state;
	tl->configured = true;
	tl->n_sent -= i + 1;
	memmove(tl->sent, tl->sent + i + 1, sizeof(tl->sent[0]) * (size_t)tl->n_sent);
	if (tl->resend) {
		tl->resend = false;
		send_configure(tl);
	}
	return true;
}

/* Where the view goes: the frame's corner (without one, the window
 * geometry's origin) at the cascade slot, or at 0,0 while maximized or
 * fullscreen. */
static int32_t spot(struct wlseal_xdg_toplevel *tl, bool x)
{
	const struct wlseal_xdg_geometry *g = &tl->xs->geometry;
	struct wlseal_xdg_frame f = frame_in(tl, tl->acked);
	int32_t v = x ? tl->cascade_x : tl->cascade_y;

	if (tl->acked.maximized || tl->acked.fullscreen)
		v = 0;
	v += x ? f.left : f.top;
	if (g->set)
		v -= x ? g->x : g->y;
	return v;
}

/* The window geometry's size, or the surface's without one. */
void wlseal_xdg_toplevel_window_size(struct wlseal_xdg_toplevel *tl,
				     int64_t *w, int64_t *h)
{
	const struct wlseal_xdg_geometry *g = &tl->xs->geometry;
	const struct wlseal_scene_view *v = &tl->xs->surface->view;

	*w = g->set ? g->width : v->width;
	*h = g->set ? g->height : v->height;
}

const char *wlseal_xdg_toplevel_title(struct wlseal_xdg_toplevel *tl)
{
	return tl->title.s ? tl->title.s : "";
}

static int client_pid(struct wlseal_surface *s)
{
	return (int)wlseal_client_pid(wl_resource_get_client(s->resource));
}

void wlseal_xdg_toplevel_to_spot(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs->surface;
	int32_t x = spot(tl, true), y = spot(tl, false);

	if (x == s->view.x && y == s->view.y)
		return;
	wlseal_scene_move(&s->server->scene, &s->view, x, y);
	/* Not only at a commit (an embedder's place, a frame dragged):
	 * the move is shown, and the pointer finds what is under it,
	 * with the next frame. */
	wlseal_scene_request_frame(&s->server->scene);
	wlseal_debug("placed pid=%d toplevel \"%s\" at %d,%d%s%s", client_pid(s),
		     wlseal_xdg_toplevel_title(tl), x, y,
		     tl->acked.maximized ? " maximized" : "",
		     tl->acked.fullscreen ? " fullscreen" : "");
}

void wlseal_xdg_toplevel_unmap(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	if (s && s->view.mapped) {
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_scene_request_frame(&s->server->scene);
		wlseal_xdg_toplevel_orphan_children(tl);
	}
}

/* The first buffer: on the output, at the next cascade slot as far as
 * the window fits there. */
static void map(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs->surface;
	struct wlseal_xdg_frame f = frame_in(tl, tl->acked);
	const struct wlseal_output_info *out = &s->server->output;
	int64_t w, h;

	/* The seat gives the keyboard to wlseal_xdg_toplevel_front()
	 * here: the topmost of its dialogs mapped before it, if any. */
	wlseal_scene_map(&s->server->scene, &s->view);
	/* On top, but under those dialogs. */
	wlseal_xdg_toplevel_stack_under(&s->server->scene, tl,
					wlseal_xdg_toplevel_lowest_below(tl));
	/* A window on screen: its connection is never evicted to make room
	 * for new ones (account/connections.c). */
	wlseal_connections_mark_mapped(wl_resource_get_client(s->resource));
	/* Mapped maximized or fullscreen, its size says nothing of the
	 * floating one: the slot stays as it is for then. */
	wlseal_xdg_toplevel_window_size(tl, &w, &h);
	if (tl->placed) {
		/* An embedder's place, taken as it is (wlseal_xdg_toplevel_place). */
		tl->cascade_x = tl->placed_x - f.left;
		tl->cascade_y = tl->placed_y - f.top;
	} else if (!tl->acked.maximized && !tl->acked.fullscreen) {
		tl->cascade_x = wlseal_scene_fit(s->view.x, w + f.left + f.right, out->width);
		tl->cascade_y = wlseal_scene_fit(s->view.y, h + f.top + f.bottom, out->height);
	} else {
		tl->cascade_x = s->view.x;
		tl->cascade_y = s->view.y;
	}
	wlseal_scene_move(&s->server->scene, &s->view, spot(tl, true),
			  spot(tl, false));
	wlseal_debug("mapped pid=%d toplevel \"%s\" at %d,%d size %dx%d",
		     client_pid(s), wlseal_xdg_toplevel_title(tl), s->view.x,
		     s->view.y, s->view.width, s->view.height);
}

void wlseal_xdg_toplevel_commit(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs->surface;

	if (!tl->configured) {
		/* The initial commit: answer with the first configure. */
		if (!tl->initial_sent) {
			tl->initial_sent = true;
			send_configure(tl);
		}
		if (!s->server->xdg_early_map || !s->has_content)
			return;
		/* --xdg-early-buffer=map: a buffer before any ack maps the
		 * window in the state of the newest configure sent, as if
		 * the client had acked it (a later ack of it, or of an
		 * older one, is still no error). */
		tl->acked = tl->n_sent > 0 ? tl->sent[tl->n_sent - 1].state :
					     tl->wanted;
		tl->configured = true;
	}
	if (s->has_content && !s->view.mapped) {
		map(tl);
	} else if (!s->has_content && s->view.mapped) {
		/* A NULL buffer unmaps; the client starts over with a new
		 * initial commit and configure. Reset first: the unmap
		 * takes the seat's focus away, and what that changes
		 * waits for the new initial configure, instead of going
		 * out with a serial forgotten here. */
		tl->configured = false;
		tl->initial_sent = false;
		if (tl->n_sent > 0) {
			tl->has_stale = true;
			tl->stale_first = tl->sent[0].serial;
			tl->stale_last = tl->sent[tl->n_sent - 1].serial;
		}
		tl->n_sent = 0;
		tl->resend = false;
		wlseal_xdg_toplevel_unmap(tl);
	} else if (s->view.mapped) {
		wlseal_xdg_toplevel_to_spot(tl);
	}
	wlseal_xdg_toplevel_changed(tl);
}

void wlseal_xdg_toplevel_set_activated(struct wlseal_xdg_toplevel *tl,
				       bool activated)
{
	if (tl->wanted.activated == activated)
		return;
	tl->wanted.activated = activated;
	wlseal_debug("toplevel \"%s\" %s", wlseal_xdg_toplevel_title(tl),
		     activated ? "activated" : "deactivated");
	wlseal_xdg_toplevel_configure(tl);
	wlseal_xdg_toplevel_changed(tl);
}

void wlseal_xdg_toplevel_set_frame(struct wlseal_xdg_toplevel *tl,
				   const struct wlseal_xdg_frame *frame)
{
	tl->frame = *frame;
	if (tl->xs && tl->xs->surface && tl->xs->surface->view.mapped)
		wlseal_xdg_toplevel_to_spot(tl);
}

/* The window geometry's origin to (@x, @y) from now on: its slot, kept
 * through later commits (place) until maximized or fullscreen, and
 * taken at the next map instead of a cascade slot. */
void wlseal_xdg_toplevel_place(struct wlseal_xdg_toplevel *tl, int32_t x,
			       int32_t y)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;
	struct wlseal_xdg_frame f = frame_in(tl, tl->acked);

	tl->placed = true;
	tl->placed_x = x;
	tl->placed_y = y;
	if (!s || !s->view.mapped)
		return;
	tl->cascade_x = x - f.left;
	tl->cascade_y = y - f.top;
	wlseal_xdg_toplevel_to_spot(tl);
}
