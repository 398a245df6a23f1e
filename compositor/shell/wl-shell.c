/* SPDX-License-Identifier: MIT */
/*
 * wl-shell.c - wl_shell and wl_shell_surface, version 1: the core
 * protocol's old shell, which some clients (and WLCS 1.5's test
 * windows) still use.
 *
 * A wl_shell_surface gives its wl_surface the shell role
 * (get_shell_surface on a surface with another role is the wl_shell
 * "role" error). Nothing shows until the client says what the surface
 * is and commits a buffer:
 *
 * - set_toplevel: a floating window, mapped like a floating
 *   xdg_toplevel: on top, at the next cascade slot, moved back as far as
 *   it then fits on the output (wlseal_scene_fit), or where an embedder
 *   put it (role_place: the WLCS module's position_window_absolute).
 * - set_maximized, set_fullscreen: configure with the output's size
 *   (edges none), the window at 0,0. There are no panels: maximized is
 *   the whole output too. set_toplevel again returns it to its slot.
 * - set_transient, set_popup: a child view of the parent's surface at
 *   (x, y) in the parent's surface coordinates, above the parent and its
 *   subsurfaces, moving with it, hidden with it. The parent must be a
 *   wl_shell surface; children nest at most MAX_DEPTH deep, and a
 *   surface that has children cannot become one (so no cycle, and the
 *   depth of a tree is known when it is made). A popup takes the seat's
 *   grab when it maps: the keyboard goes to it, and a button pressed on
 *   a surface of another client ends the grab with popup_done (the
 *   client then destroys the popup). Any other request for the parent
 *   (a surface without the shell role) leaves the surface unmapped.
 *
 * Root windows (toplevel, maximized, fullscreen) take the keyboard
 * focus like xdg toplevels: the seat gives it through role_activate,
 * which here has nothing to tell the client (wl_shell has no activated
 * state). Changing the kind of a mapped surface unmaps it and maps it
 * again as the new kind.
 *
 * One ping per shell surface, when it is made; the pong is noted. move
 * moves a floating window with the cursor while the button pressed on it
 * is held (wlseal_seat_move, as for xdg_toplevel.move); resize is
 * accepted and does nothing; set_title keeps the title for the log,
 * set_class is ignored.
 *
 * The wl_shell_surface has no destroy request: it goes with its
 * wl_surface, destroyed here (the client learns it from delete_id), so
 * that a client making and destroying windows holds no dead objects.
 * Each wl_shell and wl_shell_surface is a resource counted by the
 * objects budget (account/objects.c), one shell surface per surface.
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "connections.h"
#include "log.h"
#include "xdg.h"

/* Transients and popups on transients and popups: at most this deep. */
#define MAX_DEPTH 8

enum kind {
	KIND_NONE,		/* no set_* yet: never shown */
	KIND_TOPLEVEL,
	KIND_MAXIMIZED,
	KIND_FULLSCREEN,
	KIND_TRANSIENT,
	KIND_POPUP,
};

struct shell_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wlseal_surface *surface;	/* NULL once it is gone */
	struct wl_listener surface_destroy;
	enum kind kind;
	/* TRANSIENT, POPUP: the parent (NULL once it is gone) and the
	 * offset in its surface coordinates; depth 1 on a root window. */
	struct shell_surface *parent;
	struct wl_list link;		/* the parent's children */
	int32_t offset_x, offset_y;
	int depth;
	struct wl_list children;	/* shell_surface.link */
	bool child_view;		/* the view is in the parent's stack */
	/* The floating window's slot, once given; an embedder's place
	 * (role_place) replaces it. */
	bool has_slot;
	int32_t slot_x, slot_y;
	struct wlseal_kept_string title;	/* charged to the client */
	uint32_t ping_serial;
	bool ping_pending;
	/* A mapped popup's grab of the seat. */
	struct wlseal_grab grab;
	bool grabbing;
};

static const char *title(const struct shell_surface *ss)
{
	return ss->title.s ? ss->title.s : "";
}

static int client_pid(const struct shell_surface *ss)
{
	return (int)wlseal_client_pid(wl_resource_get_client(ss->resource));
}

static bool is_root(enum kind k)
{
	return k == KIND_TOPLEVEL || k == KIND_MAXIMIZED || k == KIND_FULLSCREEN;
}

/* The popup grab */

static void release_grab(struct shell_surface *ss)
{
	struct wlseal_seat *seat = ss->server->seat;

	if (!ss->grabbing)
		return;
	ss->grabbing = false;
	if (seat && wlseal_seat_grab(seat) == &ss->grab)
		wlseal_seat_set_grab(seat, NULL);
}

/* A click on a surface of the popup's own client keeps the grab. */
static bool grab_contains(struct wlseal_grab *grab, struct wlseal_surface *s)
{
	struct shell_surface *ss = wl_container_of(grab, ss, grab);

	return wl_resource_get_client(s->resource) ==
	       wl_resource_get_client(ss->resource);
}

static void grab_dismiss(struct wlseal_grab *grab)
{
	struct shell_surface *ss = wl_container_of(grab, ss, grab);

	release_grab(ss);
	wl_shell_surface_send_popup_done(ss->resource);
}

static const struct wlseal_grab_impl grab_impl = {
	.contains = grab_contains,
	.dismiss = grab_dismiss,
};

static void take_grab(struct shell_surface *ss)
{
	struct wlseal_seat *seat = ss->server->seat;
	struct wlseal_grab *current;

	if (!seat)
		return;
	/* Whoever holds the seat loses it (an xdg popup chain, another
	 * client's popup). */
	current = wlseal_seat_grab(seat);
	if (current)
		current->impl->dismiss(current);
	ss->grab.impl = &grab_impl;
	ss->grab.focus = ss->surface;
	ss->grabbing = true;
	wlseal_seat_set_grab(seat, &ss->grab);
}

/* Mapping */

static void unmap(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;

	if (!s)
		return;
	release_grab(ss);
	if (s->view.mapped) {
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_scene_request_frame(&s->server->scene);
	}
	if (ss->child_view) {
		wlseal_scene_remove_child(&s->server->scene, &s->view);
		ss->child_view = false;
	}
}

/* Where a mapped surface goes: its slot, 0,0 or its offset on the
 * parent. */
static void place(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;
	int32_t x = 0, y = 0;

	if (ss->kind == KIND_TOPLEVEL) {
		x = ss->slot_x;
		y = ss->slot_y;
	} else if (!is_root(ss->kind)) {
		x = ss->offset_x;
		y = ss->offset_y;
	}
	if (x == s->view.x && y == s->view.y)
		return;
	wlseal_scene_move(&s->server->scene, &s->view, x, y);
	/* Also outside a commit (an embedder's place): shown, and the
	 * pointer finds what is under it, with the next frame. */
	wlseal_scene_request_frame(&s->server->scene);
	wlseal_debug("placed pid=%d wl_shell_surface \"%s\" at %d,%d",
		     client_pid(ss), title(ss), x, y);
}

static void map_root(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;
	const struct wlseal_output_info *out = &ss->server->output;

	/* On top, at the next cascade slot; the seat gives it the focus. */
	wlseal_scene_map(&s->server->scene, &s->view);
	if (ss->kind == KIND_TOPLEVEL && !ss->has_slot) {
		ss->slot_x = wlseal_scene_fit(s->view.x, s->view.width, out->width);
		ss->slot_y = wlseal_scene_fit(s->view.y, s->view.height, out->height);
		ss->has_slot = true;
	}
	place(ss);
}

/* Above the parent and everything already on it. */
static bool map_child(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;
	struct wlseal_surface *ps = ss->parent ? ss->parent->surface : NULL;
	struct wlseal_scene_view *top;

	if (!ps)
		return false;
	if (!ss->child_view) {
		wlseal_scene_add_child(&s->server->scene, &ps->view, &s->view);
		ss->child_view = true;
	}
	top = wl_container_of(s->view.stack->prev, top, link);
	if (top != &s->view)
		wlseal_scene_place(&s->server->scene, &s->view, top, true);
	place(ss);
	wlseal_scene_map(&s->server->scene, &s->view);
	if (ss->kind == KIND_POPUP && wlseal_scene_view_visible(&s->view))
		take_grab(ss);
	return true;
}

static void map(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;

	if (is_root(ss->kind))
		map_root(ss);
	else if (!map_child(ss))
		return;
	/* A window on screen: its connection is never evicted to make
	 * room for new ones (account/connections.c). */
	wlseal_connections_mark_mapped(wl_resource_get_client(s->resource));
	wlseal_scene_request_frame(&s->server->scene);
	wlseal_debug("mapped pid=%d wl_shell_surface \"%s\" at %d,%d size %dx%d",
		     client_pid(ss), title(ss), s->view.x, s->view.y,
		     s->view.width, s->view.height);
}

static void role_commit(struct wlseal_surface *s)
{
	struct shell_surface *ss = s->role;

	if (ss->kind == KIND_NONE)
		return;
	if (s->has_content && !s->view.mapped && !ss->child_view)
		map(ss);
	else if (!s->has_content && (s->view.mapped || ss->child_view))
		unmap(ss);
	else if (s->view.mapped)
		place(ss);
}

/* wl_shell has no activated state: the focus is the seat's alone. */
static void role_activate(struct wlseal_surface *s, bool activated)
{
}

/* An embedder's place: the surface's origin at @x, @y, kept as the
 * floating window's slot. */
static void role_place(struct wlseal_surface *s, int32_t x, int32_t y)
{
	struct shell_surface *ss = s->role;

	ss->slot_x = x;
	ss->slot_y = y;
	ss->has_slot = true;
	if (s->view.mapped && ss->kind == KIND_TOPLEVEL)
		place(ss);
}

/* An interactive move (seat.c): a floating window's slot moves. */
static void role_move(struct wlseal_surface *s, int32_t dx, int32_t dy)
{
	struct shell_surface *ss = s->role;
	int64_t x = (int64_t)ss->slot_x + dx, y = (int64_t)ss->slot_y + dy;

	if (ss->kind != KIND_TOPLEVEL || !s->view.mapped)
		return;
	wlseal_scene_keep_grabbable(&x, &y, s->view.width,
				    ss->server->output.width,
				    ss->server->output.height);
	ss->slot_x = (int32_t)x;
	ss->slot_y = (int32_t)y;
	place(ss);
}

/* Children lose their parent: unmapped, shown again only after a new
 * set_* request. */
static void orphan_children(struct shell_surface *ss)
{
	struct shell_surface *child, *tmp;

	wl_list_for_each_safe(child, tmp, &ss->children, link) {
		unmap(child);
		wl_list_remove(&child->link);
		wl_list_init(&child->link);
		child->parent = NULL;
	}
}

static void leave_parent(struct shell_surface *ss)
{
	wl_list_remove(&ss->link);
	wl_list_init(&ss->link);
	ss->parent = NULL;
}

/* @ss becomes @kind: unmapped if it showed, mapped again as the new
 * kind if it has a buffer. */
static void set_kind(struct shell_surface *ss, enum kind kind,
		     struct shell_surface *parent, int32_t x, int32_t y)
{
	struct wlseal_surface *s = ss->surface;

	if (!s)
		return;
	unmap(ss);
	leave_parent(ss);
	ss->kind = kind;
	ss->depth = 0;
	if (parent) {
		ss->parent = parent;
		ss->depth = parent->depth + 1;
		wl_list_insert(parent->children.prev, &ss->link);
		ss->offset_x = x;
		ss->offset_y = y;
	}
	/* Only root windows take the keyboard focus (and an embedder's
	 * place); the seat finds none on a child. */
	s->role_activate = is_root(kind) ? role_activate : NULL;
	s->role_place = is_root(kind) ? role_place : NULL;
	s->role_move = kind == KIND_TOPLEVEL ? role_move : NULL;
	if (s->has_content)
		map(ss);
}

static void send_output_configure(struct shell_surface *ss)
{
	const struct wlseal_output_info *out = &ss->server->output;

	wl_shell_surface_send_configure(ss->resource, WL_SHELL_SURFACE_RESIZE_NONE,
					out->width, out->height);
}

/* The parent of a transient or popup: a wl_shell surface that can
 * take one more level, never @ss itself; NULL otherwise. @ss must have
 * no children of its own. */
static struct shell_surface *child_parent(struct shell_surface *ss,
					  struct wl_resource *parent_resource,
					  const char *what)
{
	struct wlseal_surface *ps = wlseal_surface_from_resource(parent_resource);
	struct shell_surface *parent;

	if (ps->role_commit != role_commit) {
		wlseal_debug("wl_shell_surface %s: parent wl_surface@%u is no "
			     "wl_shell surface; not shown", what,
			     wl_resource_get_id(parent_resource));
		return NULL;
	}
	parent = ps->role;
	if (parent == ss || !wl_list_empty(&ss->children) ||
	    parent->depth + 1 > MAX_DEPTH) {
		wlseal_debug("wl_shell_surface %s: parent refused (itself, "
			     "children of its own, or %d levels deep); not shown",
			     what, MAX_DEPTH);
		return NULL;
	}
	return parent;
}

/* wl_shell_surface */

static void shell_surface_pong(struct wl_client *c, struct wl_resource *r,
			       uint32_t serial)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	/* wlseal never judges clients unresponsive; the pong is noted. */
	if (ss->ping_pending && serial == ss->ping_serial) {
		ss->ping_pending = false;
		wlseal_debug("wl_shell_surface pid=%d pong %u", client_pid(ss),
			     serial);
	}
}

/* An interactive move of a floating window (seat.c). */
static void shell_surface_move(struct wl_client *c, struct wl_resource *r,
			       struct wl_resource *seat, uint32_t serial)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	if (ss->surface && ss->surface->role_move && ss->surface->view.mapped &&
	    !wlseal_seat_move(wl_resource_get_user_data(seat), ss->surface, serial))
		wlseal_debug("wl_shell_surface move ignored: no button held "
			     "on it with serial %u", serial);
}

static void shell_surface_resize(struct wl_client *c, struct wl_resource *r,
				 struct wl_resource *seat, uint32_t serial,
				 uint32_t edges)
{
}

static void shell_surface_set_toplevel(struct wl_client *c,
				       struct wl_resource *r)
{
	set_kind(wl_resource_get_user_data(r), KIND_TOPLEVEL, NULL, 0, 0);
}

static void shell_surface_set_transient(struct wl_client *c,
					struct wl_resource *r,
					struct wl_resource *parent,
					int32_t x, int32_t y, uint32_t flags)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);
	struct shell_surface *p = child_parent(ss, parent, "set_transient");

	set_kind(ss, KIND_TRANSIENT, p, x, y);
}

static void shell_surface_set_fullscreen(struct wl_client *c,
					 struct wl_resource *r, uint32_t method,
					 uint32_t framerate,
					 struct wl_resource *output)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	set_kind(ss, KIND_FULLSCREEN, NULL, 0, 0);
	send_output_configure(ss);
}

static void shell_surface_set_popup(struct wl_client *c, struct wl_resource *r,
				    struct wl_resource *seat, uint32_t serial,
				    struct wl_resource *parent, int32_t x,
				    int32_t y, uint32_t flags)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);
	struct shell_surface *p = child_parent(ss, parent, "set_popup");

	set_kind(ss, KIND_POPUP, p, x, y);
}

static void shell_surface_set_maximized(struct wl_client *c,
					struct wl_resource *r,
					struct wl_resource *output)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	set_kind(ss, KIND_MAXIMIZED, NULL, 0, 0);
	send_output_configure(ss);
}

static void shell_surface_set_title(struct wl_client *c, struct wl_resource *r,
				    const char *t)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	/* One string, replaced, at most a message long, charged to the
	 * client's string budget (account/objects.c). */
	wlseal_kept_string_set(&ss->title, c, t);
}

static void shell_surface_set_class(struct wl_client *c, struct wl_resource *r,
				    const char *class_)
{
}

static const struct wl_shell_surface_interface shell_surface_impl = {
	.pong = shell_surface_pong,
	.move = shell_surface_move,
	.resize = shell_surface_resize,
	.set_toplevel = shell_surface_set_toplevel,
	.set_transient = shell_surface_set_transient,
	.set_fullscreen = shell_surface_set_fullscreen,
	.set_popup = shell_surface_set_popup,
	.set_maximized = shell_surface_set_maximized,
	.set_title = shell_surface_set_title,
	.set_class = shell_surface_set_class,
};

/* The surface loses its role: children orphaned, unmapped, out of the
 * parent's list. */
static void detach(struct shell_surface *ss)
{
	struct wlseal_surface *s = ss->surface;

	if (!s)
		return;
	orphan_children(ss);
	/* Before the unmap: the seat, losing its focus there, must find
	 * no role to tell. */
	s->role_activate = NULL;
	s->role_place = NULL;
	s->role_move = NULL;
	unmap(ss);
	leave_parent(ss);
	s->role_commit = NULL;
	s->role = NULL;
	wl_list_remove(&ss->surface_destroy.link);
	ss->surface = NULL;
}

static void shell_surface_resource_destroy(struct wl_resource *r)
{
	struct shell_surface *ss = wl_resource_get_user_data(r);

	detach(ss);
	wlseal_kept_string_clear(&ss->title);
	free(ss);
}

/* The shell surface goes with its wl_surface (wl_shell_surface has no
 * destroy request). */
static void surface_destroyed(struct wl_listener *l, void *data)
{
	struct shell_surface *ss = wl_container_of(l, ss, surface_destroy);

	detach(ss);
	wl_resource_destroy(ss->resource);
}

/* wl_shell */

static void shell_get_shell_surface(struct wl_client *client,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *surface_resource)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface_resource);
	struct shell_surface *ss;

	if (s->role) {
		wl_resource_post_error(r, WL_SHELL_ERROR_ROLE,
				       "wl_surface@%u already has a role",
				       wl_resource_get_id(surface_resource));
		return;
	}
	ss = calloc(1, sizeof(*ss));
	if (!ss) {
		wl_client_post_no_memory(client);
		return;
	}
	ss->resource = wl_resource_create(client, &wl_shell_surface_interface,
					  wl_resource_get_version(r), id);
	if (!ss->resource) {
		free(ss);
		wl_client_post_no_memory(client);
		return;
	}
	ss->server = s->server;
	ss->surface = s;
	wl_list_init(&ss->children);
	wl_list_init(&ss->link);
	s->role = ss;
	s->role_commit = role_commit;
	ss->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&s->destroy_signal, &ss->surface_destroy);
	wl_resource_set_implementation(ss->resource, &shell_surface_impl, ss,
				       shell_surface_resource_destroy);
	ss->ping_serial = wl_display_next_serial(s->server->display);
	ss->ping_pending = true;
	wl_shell_surface_send_ping(ss->resource, ss->ping_serial);
}

static const struct wl_shell_interface shell_impl = {
	.get_shell_surface = shell_get_shell_surface,
};

static void shell_bind(struct wl_client *client, void *data, uint32_t version,
		       uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_shell_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &shell_impl, data, NULL);
}

bool wlseal_wl_shell_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &wl_shell_interface, version,
				server, shell_bind) != NULL;
}
