/* SPDX-License-Identifier: MIT */
/*
 * xdg-popup.c - the xdg_popup role: menus, tooltips, popovers.
 *
 * A popup's life: get_popup copies its positioner's rules; the initial
 * commit is answered with xdg_popup.configure (where the rules put it,
 * relative to the parent's window geometry) and xdg_surface.configure;
 * once the client acked and committed a buffer, its view is shown as a
 * child view of the parent's, stacked above the parent and above every
 * popup made before it (scene.h). Its window geometry's origin sits at
 * the configured place, wherever the parent is; it moves with it.
 *
 * Placement (xdg-positioner.c) keeps the popup on the output as far as
 * the constraint adjustments allow. reposition places it again with a
 * new positioner: repositioned (the client's token), configure, and the
 * new place once acked. A reactive popup is placed again whenever its
 * parent commits, and configured when that changes where it goes.
 *
 * Popups nest: a popup's parent may be another popup, at most
 * MAX_DEPTH deep. A popup is dismissed (unmapped, popup_done) when its
 * parent is unmapped or dismissed, when it commits a NULL buffer, or
 * when a grab it belongs to is broken; popups on top of it are
 * dismissed first, top-down, as the protocol orders. A dismissed popup
 * stays inert until the client destroys it.
 *
 * Grabs: xdg_popup.grab (before the initial commit) makes the popup
 * take the seat's grab when it is mapped; a grabbing popup's parent is
 * a toplevel or another grabbing popup, so grabbing popups form a
 * chain. The seat (seat.c) gives the keyboard to the topmost grabbing
 * popup, and a button pressed on a surface that is not the popup
 * client's, or on no surface, dismisses the whole chain (grab_impl
 * below, the seat's only way back here): "If the user clicks a surface
 * that doesn't belong to the client owning the popup surface, the
 * compositor sends popup_done" (xdg_popup.grab); a click on the
 * client's own parent window goes to it and dismisses nothing, as in
 * weston and wlroots. A new toplevel mapped takes the keyboard and
 * breaks the grab too (seat.c).
 * When the topmost grabbing popup goes, its parent gets the grab back;
 * when the chain is gone, the keyboard returns to the focused toplevel.
 * A grab taken while another chain holds the seat dismisses that chain
 * first. Pointer events still go wherever the cursor is: no client is
 * kept from its events while another holds a grab.
 *
 * Lifetimes: a popup follows its parent's xdg_surface through the
 * parent's detach_signal (it or its wl_surface goes: the popup is
 * hidden and its view leaves the parent's stack), the parent's
 * wl_surface through apply_signal (a commit that unmapped the parent
 * dismisses the popup) and a toplevel parent's xdg_toplevel through
 * its destroy_signal (dismissed with it). A popup's children are in its own list, so
 * dismissing walks the client's own popups only, at most MAX_DEPTH
 * levels.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "log.h"
#include "xdg.h"
#include "xdg-shell-server-protocol.h"

/* How deep popups nest (a popup on a toplevel is level 1). Each level
 * adds a view level in the scene and a step to every walk of a grab
 * chain; menus nest two or three levels. */
#define MAX_DEPTH 16

/* Configures sent and not acked that are remembered (xdg_surface
 * serials); an ack of an older one is accepted and changes nothing. */
#define CONFIGURES 4

struct wlseal_xdg_popup {
	struct wl_resource *resource;
	struct wlseal_xdg_surface *xs;	/* NULL once the xdg_surface is gone */
	int depth;			/* 1: the parent is a toplevel */

	/* The parent, until it goes (forget_parent). */
	struct wlseal_xdg_surface *parent;
	struct wl_listener parent_detach;	/* parent->detach_signal */
	struct wl_listener parent_apply;	/* its surface's apply_signal */
	/* A toplevel parent's destroy_signal: its xdg_toplevel may go
	 * before its xdg_surface, unmapping it without a commit. */
	struct wl_listener parent_toplevel_destroy;
	struct wlseal_xdg_popup *parent_popup;	/* the parent's popup role */
	struct wl_list link;		/* parent_popup->children */
	struct wl_list children;	/* popups on this one, oldest first */

	struct wlseal_positioner_rules rules;
	struct wlseal_box box;		/* the acked place and size */
	struct {
		uint32_t serial;
		struct wlseal_box box;
	} sent[CONFIGURES];
	int n_sent;
	bool any_sent;
	uint32_t first_serial, last_serial;	/* of all sent */

	bool initial_sent;		/* the initial commit was answered */
	bool configured;		/* a configure was acked */
	bool mapped;
	bool dismissed;
	bool grab_requested;		/* xdg_popup.grab came */
	bool grabbing;			/* it holds the grab or a chain on it */
	struct wlseal_grab grab;
};

static struct wlseal_surface *surface_of(struct wlseal_xdg_popup *p)
{
	return p->xs ? p->xs->surface : NULL;
}

static struct wlseal_server *server_of(struct wlseal_xdg_popup *p)
{
	return p->xs ? p->xs->server : NULL;
}

/* An xdg_wm_base error: on the xdg_wm_base the xdg_surface came from,
 * or on @r once that is gone. */
static void wm_base_error(struct wlseal_xdg_surface *xs, struct wl_resource *r,
			  uint32_t code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void wm_base_error(struct wlseal_xdg_surface *xs, struct wl_resource *r,
			  uint32_t code, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wl_resource_post_error(xs && xs->wm_base ? xs->wm_base : r, code, "%s",
			       msg);
}

/* The grab chain: a grabbing popup's grabbing parent popup, or NULL. */
static struct wlseal_xdg_popup *chain_parent(struct wlseal_xdg_popup *p)
{
	return p->parent_popup && p->parent_popup->grabbing ? p->parent_popup
							      : NULL;
}

/* Placement */

static int32_t clamp32(int64_t v)
{
	return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* Where the parent's window geometry starts on the output. */
static void parent_origin(struct wlseal_xdg_popup *p, int64_t *x, int64_t *y)
{
	const struct wlseal_xdg_geometry *g = &p->parent->geometry;

	wlseal_scene_view_origin(&p->parent->surface->view, x, y);
	if (g->set) {
		*x += g->x;
		*y += g->y;
	}
}

/* Where the rules put the popup now, relative to the parent's window
 * geometry, kept on the output. */
static struct wlseal_box constrain(struct wlseal_xdg_popup *p)
{
	const struct wlseal_output_info *o = &p->xs->server->output;
	int64_t x, y;

	parent_origin(p, &x, &y);
	return wlseal_positioner_place(&p->rules, (struct wlseal_box){
		clamp32(-x), clamp32(-y), o->width, o->height });
}

static bool box_equal(struct wlseal_box a, struct wlseal_box b)
{
	return a.x == b.x && a.y == b.y && a.width == b.width &&
	       a.height == b.height;
}

static void send_configure(struct wlseal_xdg_popup *p, bool repositioned,
			   uint32_t token)
{
	struct wlseal_box box = constrain(p);
	uint32_t serial;

	if (repositioned &&
	    wl_resource_get_version(p->resource) >= XDG_POPUP_REPOSITIONED_SINCE_VERSION)
		xdg_popup_send_repositioned(p->resource, token);
	xdg_popup_send_configure(p->resource, box.x, box.y, box.width,
				 box.height);
	serial = wl_display_next_serial(p->xs->server->display);
	xdg_surface_send_configure(p->xs->resource, serial);
	if (p->n_sent == CONFIGURES) {
		p->n_sent--;
		memmove(p->sent, p->sent + 1, sizeof(p->sent[0]) * (size_t)p->n_sent);
	}
	p->sent[p->n_sent].serial = serial;
	p->sent[p->n_sent].box = box;
	p->n_sent++;
	if (!p->any_sent)
		p->first_serial = serial;
	p->any_sent = true;
	p->last_serial = serial;
	wlseal_debug("popup pid=%d configure %d,%d %dx%d%s",
		     (int)wlseal_client_pid(wl_resource_get_client(p->resource)),
		     box.x, box.y, box.width, box.height,
		     repositioned ? " repositioned" : "");
}

/* The view's offset from the parent surface's origin: the acked place,
 * from the parent's window geometry to the popup's own. */
static void place_view(struct wlseal_xdg_popup *p)
{
	struct wlseal_surface *s = surface_of(p);
	const struct wlseal_xdg_geometry *pg = &p->parent->geometry;
	const struct wlseal_xdg_geometry *g = &p->xs->geometry;
	int64_t x = (int64_t)p->box.x, y = (int64_t)p->box.y;
	struct wlseal_scene_view *top;

	if (pg->set) {
		x += pg->x;
		y += pg->y;
	}
	if (g->set) {
		x -= g->x;
		y -= g->y;
	}
	if (clamp32(x) != s->view.x || clamp32(y) != s->view.y)
		wlseal_scene_move(&s->server->scene, &s->view, clamp32(x),
				  clamp32(y));
	/* Above everything else on the parent: its subsurfaces too, even
	 * those added after the popup was shown. O(1). */
	top = wl_container_of(s->view.stack->prev, top, link);
	if (top != &s->view)
		wlseal_scene_place(&s->server->scene, &s->view, top, true);
}

/* Dismissal */

/* Hidden, the grab handed back; no event. */
static void hide(struct wlseal_xdg_popup *p)
{
	struct wlseal_surface *s = surface_of(p);
	struct wlseal_server *server = server_of(p);

	p->dismissed = true;
	if (p->grabbing) {
		struct wlseal_xdg_popup *up = chain_parent(p);

		p->grabbing = false;
		/* The grab goes back to the parent, if it holds one. */
		if (server && server->seat &&
		    wlseal_seat_grab(server->seat) == &p->grab)
			wlseal_seat_set_grab(server->seat,
					     up && !up->dismissed ? &up->grab : NULL);
	}
	if (p->mapped && s) {
		p->mapped = false;
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_scene_request_frame(&s->server->scene);
	}
}

/* Dismissed with every popup on it, top-down; @notify: popup_done to
 * each (not while the client or the objects go). */
static void dismiss(struct wlseal_xdg_popup *p, bool notify)
{
	struct wlseal_xdg_popup *child;

	if (p->dismissed)
		return;
	wl_list_for_each_reverse(child, &p->children, link)
		dismiss(child, notify);
	hide(p);
	if (notify)
		xdg_popup_send_popup_done(p->resource);
}

/* Every tie to the parent cut: listeners, the parent's list of
 * children, the view out of the parent's stack. */
static void forget_parent(struct wlseal_xdg_popup *p)
{
	struct wlseal_surface *s = surface_of(p);

	if (!p->parent)
		return;
	hide(p);
	wl_list_remove(&p->parent_detach.link);
	wl_list_remove(&p->parent_apply.link);
	wl_list_remove(&p->parent_toplevel_destroy.link);
	wl_list_remove(&p->link);
	wl_list_init(&p->link);
	if (s && s->view.parent)
		wlseal_scene_remove_child(&s->server->scene, &s->view);
	p->parent = NULL;
	p->parent_popup = NULL;
}

/* The popups on @p lose it as their parent (it goes). */
static void orphan_children(struct wlseal_xdg_popup *p)
{
	struct wlseal_xdg_popup *child, *tmp;

	wl_list_for_each_safe(child, tmp, &p->children, link) {
		dismiss(child, false);
		forget_parent(child);
	}
}

/* The seat's way back (seat.c). */

/* Any surface of the popup's own client: O(1). */
static bool grab_contains(struct wlseal_grab *grab, struct wlseal_surface *s)
{
	struct wlseal_xdg_popup *top = wl_container_of(grab, top, grab);

	return wl_resource_get_client(s->resource) ==
	       wl_resource_get_client(top->resource);
}

static void grab_dismiss(struct wlseal_grab *grab)
{
	struct wlseal_xdg_popup *bottom = wl_container_of(grab, bottom, grab);
	struct wlseal_server *server = server_of(bottom);

	while (chain_parent(bottom))
		bottom = chain_parent(bottom);
	wlseal_debug("popup grab broken: chain of pid=%d dismissed",
		     (int)wlseal_client_pid(wl_resource_get_client(bottom->resource)));
	/* The keyboard goes straight back to the toplevel, not through
	 * each popup of the chain in turn. */
	if (server && server->seat)
		wlseal_seat_set_grab(server->seat, NULL);
	dismiss(bottom, true);
}

static const struct wlseal_grab_impl grab_impl = {
	.contains = grab_contains,
	.dismiss = grab_dismiss,
};

/* The grab, once the popup is mapped. */
static void take_grab(struct wlseal_xdg_popup *p)
{
	struct wlseal_seat *seat = p->xs->server->seat;
	struct wlseal_grab *current;
	struct wlseal_xdg_popup *up = p->parent_popup;

	if (!seat)
		return;
	current = wlseal_seat_grab(seat);
	/* Another chain holds the seat (another client's, or a branch
	 * this one left open): it is broken first. */
	if (current && !(up && current == &up->grab))
		current->impl->dismiss(current);
	if (p->dismissed)
		return;			/* that took our parent with it */
	p->grabbing = true;
	p->grab.impl = &grab_impl;
	p->grab.focus = surface_of(p);
	wlseal_seat_set_grab(seat, &p->grab);
}

/* The parent */

static void parent_detached(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_popup *p = wl_container_of(l, p, parent_detach);

	dismiss(p, false);
	forget_parent(p);
}

/* A toplevel parent's role object goes: so does the popup (told so,
 * unless the client is going). */
static void parent_toplevel_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_popup *p = wl_container_of(l, p, parent_toplevel_destroy);
	struct wlseal_xdg_toplevel *tl = data;

	dismiss(p, tl->destroy_requested);
	forget_parent(p);
}

/* The parent committed: unmapped, it takes the popup with it; moved or
 * with a new geometry, the popup follows (a reactive one is placed
 * anew); new subsurfaces on it stay under the popup. */
static void parent_applied(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_popup *p = wl_container_of(l, p, parent_apply);

	if (!p->mapped)
		return;
	if (!wlseal_scene_view_visible(&p->parent->surface->view)) {
		dismiss(p, true);
		return;
	}
	if (p->rules.reactive && p->n_sent == 0 &&
	    !box_equal(constrain(p), p->box))
		send_configure(p, false, 0);
	place_view(p);
}

/* xdg_popup requests */

static void popup_destroy(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_popup *p = wl_resource_get_user_data(r);
	struct wlseal_xdg_popup *child;

	/* Only the topmost popup may go: none on it that still shows or
	 * waits to (dismissed ones are the client's to clean up). */
	wl_list_for_each(child, &p->children, link) {
		if (!child->dismissed) {
			wm_base_error(p->xs, r,
				      XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP,
				      "xdg_popup@%u destroyed while xdg_popup@%u "
				      "is still on it",
				      wl_resource_get_id(r),
				      wl_resource_get_id(child->resource));
			return;
		}
	}
	wl_resource_destroy(r);
}

static void popup_grab(struct wl_client *c, struct wl_resource *r,
		       struct wl_resource *seat, uint32_t serial)
{
	struct wlseal_xdg_popup *p = wl_resource_get_user_data(r);

	if (p->initial_sent) {
		wl_resource_post_error(r, XDG_POPUP_ERROR_INVALID_GRAB,
				       "grab after the popup's initial commit");
		return;
	}
	if (p->parent_popup && !p->parent_popup->grab_requested) {
		wl_resource_post_error(r, XDG_POPUP_ERROR_INVALID_GRAB,
				       "grab on a popup whose parent popup "
				       "took no grab");
		return;
	}
	/* The serial is not checked against input: a grab for a stale
	 * event only costs the client's own popup, dismissed by the next
	 * click outside. */
	p->grab_requested = true;
}

static void popup_reposition(struct wl_client *c, struct wl_resource *r,
			     struct wl_resource *positioner, uint32_t token)
{
	struct wlseal_xdg_popup *p = wl_resource_get_user_data(r);
	struct wlseal_positioner_rules rules;

	if (!wlseal_positioner_rules(positioner, &rules)) {
		wm_base_error(p->xs, r, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			      "reposition with an incomplete xdg_positioner "
			      "(it needs set_size and set_anchor_rect)");
		return;
	}
	/* A dismissed popup, or one whose parent went, is not placed. */
	if (p->dismissed || !p->parent || !surface_of(p))
		return;
	p->rules = rules;
	/* Before the initial commit, the initial configure carries it. */
	if (p->initial_sent)
		send_configure(p, true, token);
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = popup_destroy,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

static void popup_resource_destroy(struct wl_resource *r)
{
	struct wlseal_xdg_popup *p = wl_resource_get_user_data(r);

	orphan_children(p);
	hide(p);
	forget_parent(p);
	if (p->xs)
		p->xs->popup = NULL;
	free(p);
}

/* Called by xdg-shell.c */

void wlseal_xdg_popup_commit(struct wlseal_xdg_popup *p)
{
	struct wlseal_surface *s = surface_of(p);

	/* A dismissed popup shows nothing, whatever it commits. */
	if (p->dismissed || !p->parent || !s)
		return;
	if (!p->initial_sent) {
		p->initial_sent = true;
		send_configure(p, false, 0);
		if (!s->server->xdg_early_map)
			return;
	}
	if (!p->configured) {
		/* --xdg-early-buffer=map: a buffer before any ack maps
		 * the popup at the newest place sent, as if acked. */
		if (!s->server->xdg_early_map || !s->has_content ||
		    p->n_sent == 0)
			return;
		p->box = p->sent[p->n_sent - 1].box;
		p->configured = true;
	}
	if (s->has_content && !p->mapped) {
		/* The parent must show first; otherwise the popup is
		 * dismissed at once. */
		if (!wlseal_scene_view_visible(&p->parent->surface->view)) {
			dismiss(p, true);
			return;
		}
		p->mapped = true;
		place_view(p);
		wlseal_scene_map(&s->server->scene, &s->view);
		wlseal_debug("mapped popup pid=%d at %d,%d size %dx%d",
			     (int)wlseal_client_pid(wl_resource_get_client(p->resource)),
			     p->box.x, p->box.y, s->view.width, s->view.height);
		if (p->grab_requested)
			take_grab(p);
	} else if (!s->has_content && p->mapped) {
		/* A NULL buffer: the popup is done. */
		dismiss(p, true);
	} else if (p->mapped) {
		place_view(p);
	}
}

bool wlseal_xdg_popup_configure_sent(const struct wlseal_xdg_popup *p)
{
	return p->initial_sent;
}

bool wlseal_xdg_popup_ack(struct wlseal_xdg_popup *p, uint32_t serial)
{
	int i;

	for (i = 0; i < p->n_sent && p->sent[i].serial != serial; i++)
		;
	if (i == p->n_sent)
		/* One that was sent and forgotten (more came unacked). */
		return p->any_sent &&
		       serial - p->first_serial <= p->last_serial - p->first_serial;
	p->box = p->sent[i].box;
	p->configured = true;
	p->n_sent -= i + 1;
	memmove(p->sent, p->sent + i + 1, sizeof(p->sent[0]) * (size_t)p->n_sent);
	return true;
}

void wlseal_xdg_popup_detach(struct wlseal_xdg_popup *p)
{
	orphan_children(p);
	hide(p);
	forget_parent(p);
	p->xs->popup = NULL;
	p->xs = NULL;
}

void wlseal_xdg_popup_create(struct wlseal_xdg_surface *xs,
			     struct wl_client *client, uint32_t version,
			     uint32_t id, struct wlseal_xdg_surface *parent,
			     struct wl_resource *positioner)
{
	struct wlseal_positioner_rules rules;
	struct wlseal_xdg_popup *p;
	int depth = 1;

	if (!parent || parent == xs || !parent->surface ||
	    (!parent->toplevel && !parent->popup)) {
		wm_base_error(xs, xs->resource,
			      XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
			      "a popup's parent must be another xdg_surface "
			      "with a toplevel or popup role");
		return;
	}
	if (parent->popup)
		depth = parent->popup->depth + 1;
	if (depth > MAX_DEPTH) {
		wl_client_post_implementation_error(client,
			"wlseal nests popups at most %d levels deep", MAX_DEPTH);
		return;
	}
	if (!wlseal_positioner_rules(positioner, &rules)) {
		wm_base_error(xs, xs->resource,
			      XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			      "get_popup with an incomplete xdg_positioner "
			      "(it needs set_size and set_anchor_rect)");
		return;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		wl_client_post_no_memory(client);
		return;
	}
	p->resource = wl_resource_create(client, &xdg_popup_interface,
					 (int)version, id);
	if (!p->resource) {
		free(p);
		wl_client_post_no_memory(client);
		return;
	}
	p->xs = xs;
	p->depth = depth;
	p->rules = rules;
	wl_list_init(&p->children);
	wl_list_init(&p->link);
	p->parent = parent;
	p->parent_popup = parent->popup;
	if (p->parent_popup)
		wl_list_insert(p->parent_popup->children.prev, &p->link);
	p->parent_detach.notify = parent_detached;
	wl_signal_add(&parent->detach_signal, &p->parent_detach);
	p->parent_apply.notify = parent_applied;
	wl_signal_add(&parent->surface->apply_signal, &p->parent_apply);
	wl_list_init(&p->parent_toplevel_destroy.link);
	if (parent->toplevel) {
		p->parent_toplevel_destroy.notify = parent_toplevel_destroyed;
		wl_signal_add(&parent->toplevel->destroy_signal,
			      &p->parent_toplevel_destroy);
	}
	/* Hidden on the parent's stack until mapped. */
	wlseal_scene_add_child(&xs->server->scene, &parent->surface->view,
			       &xs->surface->view);
	xs->popup = p;
	wl_resource_set_implementation(p->resource, &popup_impl, p,
				       popup_resource_destroy);
}
