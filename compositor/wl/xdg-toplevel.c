/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel.c - the xdg_toplevel role: configures, states, placement.
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
 * set_parent stacks a window above its parent (a dialog over the window
 * it belongs to): whenever a window maps or gets a parent, it and each
 * of its ancestors in turn go under the lowest shown window of their
 * subtree, so a parent that maps after its dialog (GTK sets a dialog's
 * parent before either window maps, and which of the two maps first is
 * a race) still ends under it. A parent not yet mapped is kept, as
 * weston does, where the protocol text would drop it (only a mapped
 * window may have children): the race would otherwise decide. When a
 * mapped parent unmaps or goes, its children take its parent. Every
 * walk is of the client's own windows (parent links, children lists;
 * the scene's order is read from the views' numbers, not by walking
 * its list of every client's windows), and none goes further than
 * FAMILY_WALK windows: up the parents (the loop check, the stacking)
 * or down a subtree (its lowest shown window). A hostile client's
 * chain of 4000 windows would otherwise make each 12-byte set_parent
 * walk 4000 of them. A parent whose ancestors go further up than that
 * is not linked (the window stacks as one without a parent; no loop
 * can form through a link never made), and a family larger than that
 * below one window is stacked by the first FAMILY_WALK of it, depth
 * first: dialogs come by the handful. An unmap reparents O(the
 * children).
 *
 * The ACTIVATED state follows the seat's keyboard focus (seat.c picks
 * the toplevel, xdg-shell.c's role_activate brings it here). No
 * configure_bounds or wm_capabilities: xdg_wm_base is advertised at
 * version 3 (xdg-shell.c), which has neither.
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "connections.h"
#include "log.h"
#include "wl.h"
#include "xdg-shell-server-protocol.h"

static bool state_equal(struct wlseal_xdg_state a, struct wlseal_xdg_state b)
{
	return a.maximized == b.maximized && a.fullscreen == b.fullscreen &&
	       a.activated == b.activated && a.resizing == b.resizing &&
	       a.width == b.width && a.height == b.height;
}

/* The frame around the window in state @st: none while fullscreen. */
static struct wlseal_xdg_frame frame_in(const struct wlseal_xdg_toplevel *tl,
					struct wlseal_xdg_state st)
{
	struct wlseal_xdg_frame none = { 0 };

	return st.fullscreen ? none : tl->frame;
}

static void changed(struct wlseal_xdg_toplevel *tl)
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
static void window_size(struct wlseal_xdg_toplevel *tl, int64_t *w, int64_t *h)
{
	const struct wlseal_xdg_geometry *g = &tl->xs->geometry;
	const struct wlseal_scene_view *v = &tl->xs->surface->view;

	*w = g->set ? g->width : v->width;
	*h = g->set ? g->height : v->height;
}

static const char *title(struct wlseal_xdg_toplevel *tl)
{
	return tl->title.s ? tl->title.s : "";
}

static int client_pid(struct wlseal_surface *s)
{
	return (int)wlseal_client_pid(wl_resource_get_client(s->resource));
}

static void place(struct wlseal_xdg_toplevel *tl)
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
		     title(tl), x, y, tl->acked.maximized ? " maximized" : "",
		     tl->acked.fullscreen ? " fullscreen" : "");
}

/* --- stacking above the parent (set_parent) ----------------------------- */

static struct wlseal_scene_view *shown_view(struct wlseal_xdg_toplevel *tl)
{
	/* An xdg_surface outlives its wl_surface when the client destroys
	 * the wl_surface first (xdg-shell.c sets surface NULL then). */
	if (!tl->xs || !tl->xs->surface || !tl->xs->surface->view.mapped)
		return NULL;
	return &tl->xs->surface->view;
}

/* How far a walk of one family goes (above). */
#define FAMILY_WALK 64

/* The lowest (@highest: the highest) shown window among @tl's
 * descendants (the first *@left of them, depth first), into *@best. */
static void extreme_in(struct wlseal_xdg_toplevel *tl, bool highest,
		       struct wlseal_xdg_toplevel **best, int *left)
{
	struct wlseal_xdg_toplevel *c;

	wl_list_for_each(c, &tl->children, child_link) {
		struct wlseal_scene_view *v = shown_view(c);
		struct wlseal_scene_view *b = *best ? shown_view(*best) : NULL;

		if ((*left)-- <= 0)
			return;
		if (v && (!b || (highest ? wlseal_scene_under(b, v) :
					   wlseal_scene_under(v, b))))
			*best = c;
		extreme_in(c, highest, best, left);
	}
}

/* The lowest shown window below @tl in its family, or NULL. */
static struct wlseal_scene_view *lowest_below(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *low = NULL;
	int left = FAMILY_WALK;

	extreme_in(tl, false, &low, &left);
	return low ? shown_view(low) : NULL;
}

/* The highest shown window below @tl in its family, or NULL. */
static struct wlseal_xdg_toplevel *highest_below(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *high = NULL;
	int left = FAMILY_WALK;

	extreme_in(tl, true, &high, &left);
	return high;
}

/* @tl, then each of its ancestors, goes under @low (the lowest shown
 * window below it in the family) if it is above it; each one shown
 * is the lowest for the next. */
static void stack_under(struct wlseal_scene *scene,
			struct wlseal_xdg_toplevel *tl,
			struct wlseal_scene_view *low)
{
	for (int n = 0; tl && n < FAMILY_WALK; tl = tl->parent, n++) {
		struct wlseal_scene_view *v = shown_view(tl);

		if (!v)
			continue;
		if (low && wlseal_scene_under(low, v))
			wlseal_scene_put_under(scene, v, low);
		low = v;
	}
}

struct wlseal_surface *wlseal_xdg_toplevel_front(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *high = highest_below(tl);

	return high ? high->xs->surface : tl->xs->surface;
}

static void unlink_parent(struct wlseal_xdg_toplevel *tl)
{
	if (tl->parent)
		wl_list_remove(&tl->child_link);
	wl_list_init(&tl->child_link);
	tl->parent = NULL;
}

static void link_parent(struct wlseal_xdg_toplevel *tl,
			struct wlseal_xdg_toplevel *parent)
{
	unlink_parent(tl);
	tl->parent = parent;
	if (parent)
		wl_list_insert(parent->children.prev, &tl->child_link);
}

/* @tl unmapped or goes: its children take its parent. */
static void orphan_children(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *c, *tmp;

	wl_list_for_each_safe(c, tmp, &tl->children, child_link)
		link_parent(c, tl->parent);
}

static void unmap(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	if (s && s->view.mapped) {
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_scene_request_frame(&s->server->scene);
		orphan_children(tl);
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
	stack_under(&s->server->scene, tl, lowest_below(tl));
	/* A window on screen: its connection is never evicted to make room
	 * for new ones (account/connections.c). */
	wlseal_connections_mark_mapped(wl_resource_get_client(s->resource));
	/* Mapped maximized or fullscreen, its size says nothing of the
	 * floating one: the slot stays as it is for then. */
	window_size(tl, &w, &h);
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
		     client_pid(s), title(tl), s->view.x, s->view.y,
		     s->view.width, s->view.height);
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
		unmap(tl);
	} else if (s->view.mapped) {
		place(tl);
	}
	changed(tl);
}

/* xdg_toplevel */

static void toplevel_destroy(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	tl->destroy_requested = true;
	wl_resource_destroy(r);
}

static void toplevel_set_parent(struct wl_client *c, struct wl_resource *r,
				struct wl_resource *parent_resource)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_toplevel *parent =
		parent_resource ? wl_resource_get_user_data(parent_resource) : NULL;
	struct wlseal_scene_view *low, *d;
	int n = 0;

	for (struct wlseal_xdg_toplevel *a = parent; a; a = a->parent) {
		if (a == tl) {
			wl_resource_post_error(r, XDG_TOPLEVEL_ERROR_INVALID_PARENT,
					       parent == tl ? "a toplevel cannot be its own parent" :
					       "the parent is a descendant of this toplevel");
			return;
		}
		if (++n > FAMILY_WALK) {
			wlseal_debug("set_parent pid=%d: the parent has more than %d ancestors, not linked",
				     (int)wlseal_client_pid(c), FAMILY_WALK);
			parent = NULL;
			break;
		}
	}
	if (parent == tl->parent)
		return;
	link_parent(tl, parent);
	if (!parent || !tl->xs || !tl->xs->surface)
		return;
	/* Its parent and their ancestors go under it, or under its
	 * lowest shown descendant. */
	low = shown_view(tl);
	d = lowest_below(tl);
	if (d && (!low || wlseal_scene_under(d, low)))
		low = d;
	stack_under(&tl->xs->surface->server->scene, parent, low);
}

static void toplevel_set_title(struct wl_client *c, struct wl_resource *r,
			       const char *title)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	/* One string per toplevel, replaced, at most a message long
	 * (libwayland's 4 KiB), and charged to the client's string budget
	 * (account/objects.c): a refusal ends the client. */
	if (!wlseal_kept_string_set(&tl->title, c, title))
		return;
	changed(tl);
}

static void toplevel_set_string(struct wl_client *c, struct wl_resource *r,
				const char *s)
{
}

static void toplevel_show_window_menu(struct wl_client *c,
				      struct wl_resource *r,
				      struct wl_resource *seat, uint32_t serial,
				      int32_t x, int32_t y)
{
}

/* An interactive move, while the button pressed on the window with
 * @serial stays held (seat.c); a maximized or fullscreen window does
 * not move. */
static void toplevel_move(struct wl_client *c, struct wl_resource *r,
			  struct wl_resource *seat, uint32_t serial)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	if (!s || !s->view.mapped || tl->acked.maximized || tl->acked.fullscreen)
		return;
	if (!wlseal_seat_move(wl_resource_get_user_data(seat), s, serial))
		wlseal_debug("toplevel \"%s\" move ignored: no button held "
			     "on it with serial %u", title(tl), serial);
}

/* An interactive resize, like the move above: @edges follow the
 * cursor while the button stays held (wlseal_xdg_toplevel_resize). */
static void toplevel_resize(struct wl_client *c, struct wl_resource *r,
			    struct wl_resource *seat, uint32_t serial,
			    uint32_t edges)
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
			     "on it with serial %u", title(tl), serial);
}

static void toplevel_set_size(struct wl_client *c, struct wl_resource *r,
			      int32_t w, int32_t h)
{
}

static void toplevel_no_args(struct wl_client *c, struct wl_resource *r)
{
}

/* Every state request is answered with a configure, changed or not. */
static void toplevel_want(struct wl_resource *r, struct wlseal_xdg_state st)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	if (!state_equal(st, tl->wanted))
		wlseal_debug("toplevel \"%s\"%s%s", title(tl),
			     st.maximized ? " maximized" : "",
			     st.fullscreen ? " fullscreen" :
			     st.maximized ? "" : " floating");
	tl->wanted = st;
	wlseal_xdg_toplevel_configure(tl);
}

static void toplevel_set_maximized(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.maximized = true;
	toplevel_want(r, st);
}

static void toplevel_unset_maximized(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.maximized = false;
	toplevel_want(r, st);
}

/* One output: @output, if any, can only be it. */
static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *r,
				    struct wl_resource *output)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.fullscreen = true;
	toplevel_want(r, st);
}

static void toplevel_unset_fullscreen(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.fullscreen = false;
	toplevel_want(r, st);
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = toplevel_destroy,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_string,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_no_args,
};

static void toplevel_resource_destroy(struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	wl_signal_emit(&tl->destroy_signal, tl);
	/* Before the unmap: the seat, losing its focus there, must find
	 * no toplevel to configure (xdg-shell.c's role_activate). */
	if (tl->xs)
		tl->xs->toplevel = NULL;
	unmap(tl);
	/* Children of a window that never mapped keep a parent too. */
	orphan_children(tl);
	unlink_parent(tl);
	wlseal_kept_string_clear(&tl->title);
	free(tl);
}

void wlseal_xdg_toplevel_create(struct wlseal_xdg_surface *xs,
				struct wl_client *client, uint32_t version,
				uint32_t id)
{
	struct wlseal_xdg_toplevel *tl = calloc(1, sizeof(*tl));

	if (!tl) {
		wl_client_post_no_memory(client);
		return;
	}
	tl->resource = wl_resource_create(client, &xdg_toplevel_interface,
					  (int)version, id);
	if (!tl->resource) {
		free(tl);
		wl_client_post_no_memory(client);
		return;
	}
	tl->xs = xs;
	wl_list_init(&tl->children);
	wl_list_init(&tl->child_link);
	wl_signal_init(&tl->destroy_signal);
	wl_signal_init(&tl->changed_signal);
	xs->toplevel = tl;
	wl_resource_set_implementation(tl->resource, &toplevel_impl, tl,
				       toplevel_resource_destroy);
	/* --xdg-early-buffer=map: the first configure goes out now, not
	 * at the initial commit, for clients that attach their first
	 * buffer on the strength of a configure they never asked for
	 * with a commit. A state asked for before the initial commit
	 * comes in a configure of its own. */
	if (xs->server->xdg_early_map) {
		tl->initial_sent = true;
		send_configure(tl);
	}
}

void wlseal_xdg_toplevel_detach(struct wlseal_xdg_toplevel *tl)
{
	unmap(tl);
	tl->xs = NULL;
	changed(tl);
}

void wlseal_xdg_toplevel_set_activated(struct wlseal_xdg_toplevel *tl,
				       bool activated)
{
	if (tl->wanted.activated == activated)
		return;
	tl->wanted.activated = activated;
	wlseal_debug("toplevel \"%s\" %s", title(tl),
		     activated ? "activated" : "deactivated");
	wlseal_xdg_toplevel_configure(tl);
	changed(tl);
}

void wlseal_xdg_toplevel_set_frame(struct wlseal_xdg_toplevel *tl,
				   const struct wlseal_xdg_frame *frame)
{
	tl->frame = *frame;
	if (tl->xs && tl->xs->surface && tl->xs->surface->view.mapped)
		place(tl);
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
	place(tl);
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
 * state (as many as the client acks: send_configure's bound). The
 * dragged top or left edge moves the window at once, as far as the
 * asked size shrank or grew, so that the opposite edge stays where it
 * was for a client that draws the size asked for; one that keeps its
 * size keeps it with its corner where the drag put it. The size stays
 * the window's floating size afterwards.
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

		window_size(tl, &w0, &h0);
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
		place(tl);
	wlseal_xdg_toplevel_configure(tl);
	changed(tl);
}

void wlseal_xdg_toplevel_close(struct wlseal_xdg_toplevel *tl)
{
	wlseal_debug("toplevel \"%s\" asked to close", title(tl));
	xdg_toplevel_send_close(tl->resource);
}

struct wlseal_xdg_toplevel *wlseal_xdg_toplevel_from_resource(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
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
	place(tl);
}
