/* SPDX-License-Identifier: MIT */
/*
 * pointer.c - wl_pointer: which surface is under the cursor, and what
 * it is told.
 *
 * The cursor (input/input.c keeps it, in output coordinates) is over
 * the topmost visible surface whose input region holds it
 * (wlseal_scene_view_at, subsurfaces included). That surface has the
 * pointer focus: its client's wl_pointers get enter (with a serial and
 * the surface-local position) and leave when the cursor goes elsewhere,
 * motion in surface-local coordinates, button, and axis events, each
 * group closed by frame (version 5 on) as the device's SYN_REPORT
 * closes it. A button pressed on a surface holds the focus there (the
 * implicit grab) until every button pressed on it is released: motion
 * meanwhile goes to that surface in its coordinates, wherever the
 * cursor is (even off the surface, negative or past its size), and no
 * other surface gets enter; at the last release the surface under the
 * cursor is found again. The grab ends early when the surface is
 * unmapped or destroyed (it is left, as below).
 *
 * An interactive move (xdg_toplevel.move, wl_shell_surface.move, through
 * wlseal_seat_move) is granted while a button pressed on the window (or
 * its subsurfaces) is held and the request carries that press's serial:
 * the window is left, and the cursor's motion moves it (its role_move)
 * until the last button is released, when the surface under the cursor
 * is found again. No client gets pointer events meanwhile; the move
 * ends early if the window goes. An interactive resize
 * (xdg_toplevel.resize, wlseal_seat_resize) is the same, the cursor's
 * motion dragging the window's edges (its role_resize) instead.
 *
 * Views the compositor draws itself (server-side window frames,
 * decor.c) take the pointer through their scene hooks
 * (wlseal_scene_pointer) instead of a client: over one, the client's
 * surface is left, and a button pressed there goes to the hook and
 * holds the pointer for that view until its release (a title bar
 * dragged follows the cursor however fast it moves). Such a view is
 * forgotten the moment it stops showing (wlseal_pointer_unmapped:
 * decor.c unmaps its views before it frees them).
 *
 * When the scene changes under a cursor that stays put (a view mapped,
 * unmapped, moved, restacked, resized, or given a new input region),
 * the focus is found again lazily: the scene counts such changes
 * (scene.layout), and wlseal_pointer_frame_start, at the start of each
 * repaint, hit-tests once if the count moved since the last hit test.
 * A hit test walks every visible view of every client; run per map or
 * unmap, one client's requests would cost in proportion to all the
 * others' views (12 clients of 4000 windows each locked new clients out,
 * and tore down in 32 s). Once a frame it costs no more than the
 * repaint's own walk of the views, and a map or unmap costs O(1) here.
 * Only losing the focus is not left for later: an unmapped focus gets
 * leave at once (wlseal_pointer_unmapped, O(depth of its tree)).
 *
 * Nor is a change within the window that has the focus: when a commit
 * of one of its surfaces is applied (server->events.commit_applied,
 * wlseal_pointer_committed), the cursor is looked for again in that
 * window's tree only, so that the client, which moved a subsurface
 * under the cursor and then asked for a roundtrip, gets the enter,
 * leave or motion before the roundtrip's done. The cost is O(depth +
 * the committing client's own tree), which that client's subsurface
 * budget bounds and which the commit's own apply already walked; no
 * other client's view is visited. It is done only while the focus is
 * in that very window (the cursor was within the tree's old bounds, and
 * nothing of another window was above it there), only if the scene
 * changed since the last hit test, and only with a pointer device
 * (seat.c). When nothing of the window is under the cursor any more,
 * or a view of the compositor's own is, what lies below is for the
 * next frame's hit test, as are windows moving under a cursor that was
 * not on them, and anything another window did meanwhile.
 *
 * Events go to the focused client's own wl_pointers (seat-client.c),
 * never through a walk of every client's.
 *
 * A client's pointer lock or confinement (pointer-constraints.c) is
 * told of every focus change and motion (wlseal_constraint_update); a
 * locked pointer sends no motion. This file never moves the cursor:
 * input/ asks the seat where it may go before it moves.
 *
 * set_cursor keeps only the role check: the cursor surface is never
 * drawn. In the VM, QEMU's window shows the host's cursor over the
 * tablet's position, and the host tests have no screen to show one on.
 */
#include <wayland-server-protocol.h>

#include "log.h"
#include "devices.h"

/* One wheel click: wl_pointer.axis in surface pixels, as most
 * compositors scroll. */
#define AXIS_PER_CLICK 10

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void pointer_set_cursor(struct wl_client *c, struct wl_resource *r,
			       uint32_t serial, struct wl_resource *surface,
			       int32_t x, int32_t y)
{
	struct wlseal_surface *s = surface ? wlseal_surface_from_resource(surface)
					   : NULL;

	/* The cursor role is never given (nothing draws it), so any role
	 * at all is another role. */
	if (s && s->role) {
		wl_resource_post_error(r, WL_POINTER_ERROR_ROLE,
				       "cursor wl_surface@%u already has a role",
				       wl_resource_get_id(surface));
		return;
	}
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = pointer_set_cursor,
	.release = resource_destroy,
};

static void unlink_resource(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static struct wl_client *focus_client(struct wlseal_pointer *p);
static struct wl_list *pointers_of(struct wl_client *client);
static void pending(struct wlseal_pointer *p, struct wl_resource *r);

static void focus_gone(struct wl_listener *l, void *data)
{
	struct wlseal_pointer *p = wl_container_of(l, p, focus.destroy);
	struct wl_list *pointers = pointers_of(focus_client(p));
	struct wl_resource *r;

	/* The surface is being destroyed (its resource's destroy signal:
	 * the object still exists on the wire): its client is told of the
	 * leave now, before the object's delete_id, so that it never sees
	 * an enter elsewhere without a leave. A client that destroyed it
	 * itself gets the leave with a NULL surface (libwayland-client
	 * names no destroyed object), as wlroots sends it. A departing
	 * client has no wl_pointers left to tell (seat-client.c). The
	 * implicit grab ends with the surface. */
	if (pointers) {
		uint32_t serial = wl_display_next_serial(p->server->display);

		wl_resource_for_each(r, pointers) {
			wl_pointer_send_leave(r, serial, p->focus.surface->resource);
			pending(p, r);
		}
	}
	wlseal_focus_set(&p->focus, NULL);
	p->held = 0;
	wlseal_pointer_frame(p);
}

static void moving_gone(struct wl_listener *l, void *data)
{
	struct wlseal_pointer *p = wl_container_of(l, p, moving.destroy);

	/* The window is being destroyed: the move ends with it. */
	wlseal_focus_set(&p->moving, NULL);
}

/* The move or resize ends (the window stays, if it does). */
static void end_move(struct wlseal_pointer *p)
{
	struct wlseal_surface *w = p->moving.surface;

	wlseal_focus_set(&p->moving, NULL);
	if (w && p->resize_edges && w->role_resize)
		w->role_resize(w, 0, 0, 0);
	p->resize_edges = 0;
}

void wlseal_pointer_init(struct wlseal_pointer *p, struct wlseal_server *server)
{
	*p = (struct wlseal_pointer){ .server = server };
	wl_list_init(&p->focus.destroy.link);
	p->focus.destroy.notify = focus_gone;
	wl_list_init(&p->moving.destroy.link);
	p->moving.destroy.notify = moving_gone;
	p->x = server->output.width / 2;
	p->y = server->output.height / 2;
}

void wlseal_pointer_finish(struct wlseal_pointer *p)
{
	wlseal_focus_set(&p->moving, NULL);
	wlseal_focus_set(&p->focus, NULL);
}

static struct wl_client *focus_client(struct wlseal_pointer *p)
{
	return p->focus.surface ? wl_resource_get_client(p->focus.surface->resource)
				: NULL;
}

/* @client's wl_pointers (seat-client.c), or NULL: it holds none. */
static struct wl_list *pointers_of(struct wl_client *client)
{
	struct wlseal_seat_client *sc = wlseal_seat_client_find(client);

	return sc ? &sc->pointers : NULL;
}

/* Every wl_pointer of @client, if it has any. */
#define for_each_pointer(r, client)					\
	for (struct wl_list *l_ = pointers_of(client); l_; l_ = NULL)	\
		wl_resource_for_each(r, l_)

/* @r's client got an event: it gets the next frame. */
static void pending(struct wlseal_pointer *p, struct wl_resource *r)
{
	struct wl_client *client = wl_resource_get_client(r);

	if (p->frame_clients[0] != client && p->frame_clients[1] != client)
		p->frame_clients[p->frame_clients[0] ? 1 : 0] = client;
}

static void send_enter_to(struct wlseal_pointer *p, struct wl_resource *r,
			  double sx, double sy)
{
	wl_pointer_send_enter(r, p->enter_serial, p->focus.surface->resource,
			      wl_fixed_from_double(sx), wl_fixed_from_double(sy));
	p->sx = sx;
	p->sy = sy;
	pending(p, r);
}

void wlseal_pointer_create(struct wlseal_pointer *p,
			   struct wlseal_seat_client *sc,
			   struct wl_client *client, uint32_t version,
			   uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_pointer_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &pointer_impl, p, unlink_resource);
	wl_list_insert(&sc->pointers, wl_resource_get_link(r));
	/* Made while the cursor is over one of its client's surfaces: the
	 * position on it follows from its origin, O(depth), without a hit
	 * test. Should the scene have changed since the focus was found,
	 * the next frame's hit test corrects it with leave and enter. */
	if (focus_client(p) == client) {
		int64_t x, y;

		wlseal_scene_view_origin(&p->focus.surface->view, &x, &y);
		send_enter_to(p, r, p->x - (double)x, p->y - (double)y);
		wlseal_pointer_frame(p);
	}
}

/* Leave the old surface, enter @s at (@sx, @sy); nothing if unchanged. */
static bool set_focus(struct wlseal_pointer *p, struct wlseal_surface *s,
		      double sx, double sy)
{
	struct wlseal_surface *old = p->focus.surface;
	struct wl_resource *r;
	struct wl_client *client;

	if (old == s)
		return false;
	if ((client = focus_client(p))) {
		uint32_t serial = wl_display_next_serial(p->server->display);

		for_each_pointer(r, client) {
			wl_pointer_send_leave(r, serial,
					      p->focus.surface->resource);
			pending(p, r);
		}
	}
	wlseal_focus_set(&p->focus, s);
	p->held = 0;
	if (s) {
		client = focus_client(p);
		p->enter_serial = wl_display_next_serial(p->server->display);
		for_each_pointer(r, client)
			send_enter_to(p, r, sx, sy);
		wlseal_debug("pointer focus pid=%d wl_surface@%u at %.2f,%.2f",
			     (int)wlseal_client_pid(client),
			     wl_resource_get_id(s->resource), sx, sy);
	}
	/* The old focus's lock or confinement ends; the new one's may
	 * begin, after its enter. */
	wlseal_constraint_update(p, old);
	return true;
}

/* The surface under the cursor, and where on it; NULL when there is
 * none or a view of the compositor's own is there (p->over). */
static struct wlseal_surface *hit(struct wlseal_pointer *p, double *sx,
				  double *sy)
{
	struct wlseal_scene_view *v;
	struct wlseal_surface *s;

	/* Found for the scene as it is now: until it changes, there is
	 * nothing to find again (wlseal_pointer_frame_start). */
	p->layout = p->server->scene.layout;
	p->over = NULL;
	v = wlseal_scene_view_at(&p->server->scene, p->x, p->y, sx, sy);
	if (!v)
		return NULL;
	if (v->pointer) {
		p->over = v;
		return NULL;
	}
	/* Every other view is a wl_surface's (surface.c). */
	s = wl_container_of(v, s, view);
	return s;
}

/* The cursor in @v's coordinates. */
static void view_local(struct wlseal_pointer *p, struct wlseal_scene_view *v,
		       double *sx, double *sy)
{
	int64_t x, y;

	wlseal_scene_view_origin(v, &x, &y);
	*sx = p->x - (double)x;
	*sy = p->y - (double)y;
}

void wlseal_pointer_leave(struct wlseal_pointer *p)
{
	p->over = p->grab = NULL;
	end_move(p);
	if (set_focus(p, NULL, 0, 0))
		wlseal_pointer_frame(p);
}

/* motion to the focus's client, at (@sx, @sy) on the focus. */
static void send_motion(struct wlseal_pointer *p, uint32_t time, double sx,
			double sy)
{
	struct wl_resource *r;

	for_each_pointer(r, focus_client(p)) {
		wl_pointer_send_motion(r, time, wl_fixed_from_double(sx),
				       wl_fixed_from_double(sy));
		pending(p, r);
	}
	p->sx = sx;
	p->sy = sy;
}

void wlseal_pointer_motion(struct wlseal_pointer *p, uint32_t time,
			   double x, double y)
{
	struct wlseal_surface *s;
	double sx = 0, sy = 0;

	p->x = x;
	p->y = y;
	p->time = time;
	if (p->moving.surface) {
		/* An interactive move: the window follows the cursor, in
		 * whole pixels from where the move began. */
		struct wlseal_surface *w = p->moving.surface;
		int64_t tx = (int64_t)(x - p->move_x0);
		int64_t ty = (int64_t)(y - p->move_y0);

		if ((tx != p->moved_x || ty != p->moved_y) && p->resize_edges &&
		    w->role_resize)
			w->role_resize(w, p->resize_edges, (int32_t)tx,
				       (int32_t)ty);
		else if ((tx != p->moved_x || ty != p->moved_y) && w->role_move)
			w->role_move(w, (int32_t)(tx - p->moved_x),
				     (int32_t)(ty - p->moved_y));
		p->moved_x = tx;
		p->moved_y = ty;
		return;
	}
	if (p->grab) {
		/* Held by the compositor's view: it follows, no one else
		 * hears of it. */
		view_local(p, p->grab, &sx, &sy);
		p->grab->pointer->drag(p->grab, sx, sy);
		return;
	}
	if (p->held && p->focus.surface) {
		/* The implicit grab: the surface a button was pressed on
		 * keeps the focus, no hit test. */
		s = p->focus.surface;
		view_local(p, &s->view, &sx, &sy);
	} else {
		s = hit(p, &sx, &sy);
	}
	/* enter already carries the position. */
	if (set_focus(p, s, sx, sy) || !s)
		return;
	/* A locked pointer sends no motion (the cursor stays put, input/
	 * was told so through the seat); the client's relative pointers
	 * still get the mouse's. */
	if (!wlseal_constraint_locked(p))
		send_motion(p, time, sx, sy);
	/* Into the region of a constraint of the focus: it begins. */
	wlseal_constraint_update(p, s);
}

void wlseal_pointer_rehit(struct wlseal_pointer *p)
{
	struct wlseal_surface *s;
	double sx = 0, sy = 0;

	s = hit(p, &sx, &sy);
	if (set_focus(p, s, sx, sy)) {
		wlseal_pointer_frame(p);
	} else if (s && (sx != p->sx || sy != p->sy)) {
		/* The surface moved under a cursor that stayed: the
		 * cursor moved on it (not while it is locked). */
		if (!wlseal_constraint_locked(p)) {
			send_motion(p, p->time, sx, sy);
			wlseal_pointer_frame(p);
		}
		wlseal_constraint_update(p, s);
	} else {
		wlseal_constraint_update(p, s);	/* the surface moved */
	}
}

void wlseal_pointer_committed(struct wlseal_pointer *p,
			      struct wlseal_surface *s)
{
	struct wlseal_scene_view *root, *froot, *v;
	struct wlseal_surface *hit_s;
	double sx = 0, sy = 0;

	if (!p->focus.surface || p->held || p->grab || p->moving.surface ||
	    p->layout == p->server->scene.layout)
		return;
	/* The same window: O(depth) each, at most 32 levels. */
	for (root = &s->view; root->parent; root = root->parent)
		;
	for (froot = &p->focus.surface->view; froot->parent;
	     froot = froot->parent)
		;
	if (root != froot)
		return;
	v = wlseal_scene_view_at_within(&p->server->scene, root, p->x, p->y,
					&sx, &sy);
	if (!v || v->pointer)
		return;
	hit_s = wl_container_of(v, hit_s, view);
	if (set_focus(p, hit_s, sx, sy)) {
		wlseal_pointer_frame(p);
	} else if (sx != p->sx || sy != p->sy) {
		/* It moved under the cursor: the cursor moved on it. */
		if (!wlseal_constraint_locked(p)) {
			send_motion(p, p->time, sx, sy);
			wlseal_pointer_frame(p);
		}
		wlseal_constraint_update(p, hit_s);
	}
}

void wlseal_pointer_frame_start(struct wlseal_pointer *p)
{
	/* However many views were mapped, unmapped or moved since the last
	 * hit test, one finds where the cursor is now; while a view of the
	 * compositor's holds the pointer, at its release. */
	if (!p->grab && !p->held && !p->moving.surface &&
	    p->layout != p->server->scene.layout)
		wlseal_pointer_rehit(p);
}

void wlseal_pointer_unmapped(struct wlseal_pointer *p)
{
	/* The focus, or a parent of it, went: leave now, as the client
	 * would see it gone from the screen. O(its depth), at most 32
	 * subsurface levels (subcompositor.c). What is under the cursor
	 * instead is found with the next frame. */
	if (p->over && !wlseal_scene_view_visible(p->over))
		p->over = NULL;
	if (p->grab && !wlseal_scene_view_visible(p->grab))
		p->grab = NULL;
	if (p->moving.surface &&
	    !wlseal_scene_view_visible(&p->moving.surface->view))
		end_move(p);
	if (p->focus.surface &&
	    !wlseal_scene_view_visible(&p->focus.surface->view) &&
	    set_focus(p, NULL, 0, 0))
		wlseal_pointer_frame(p);
}

/* A button over, or held by, a view of the compositor's own. */
static void view_button(struct wlseal_pointer *p, uint32_t button,
			bool pressed)
{
	struct wlseal_scene_view *v = p->grab;
	double sx, sy;

	if (v) {
		/* Other buttons meanwhile go nowhere. */
		if (pressed || button != p->grab_button)
			return;
		p->grab = NULL;
		view_local(p, v, &sx, &sy);
		v->pointer->button(v, button, false, sx, sy);
		/* Where the cursor is now, with whatever moved. */
		wlseal_pointer_rehit(p);
		return;
	}
	v = p->over;
	if (!pressed)
		return;
	p->grab = v;
	p->grab_button = button;
	view_local(p, v, &sx, &sy);
	v->pointer->button(v, button, true, sx, sy);
}

void wlseal_pointer_button(struct wlseal_pointer *p, uint32_t time,
			   uint32_t button, bool pressed)
{
	struct wl_client *client = focus_client(p);
	struct wl_resource *r;
	uint32_t serial;

	if (p->moving.surface) {
		/* During a move no client hears of buttons; the last
		 * release ends it. */
		if (pressed)
			p->move_buttons++;
		else if (--p->move_buttons <= 0) {
			end_move(p);
			wlseal_pointer_rehit(p);
		}
		return;
	}
	if (p->grab || (!client && p->over)) {
		view_button(p, button, pressed);
		return;
	}
	if (!client)
		return;
	serial = wl_display_next_serial(p->server->display);
	if (pressed)
		p->button_serial = serial;
	for_each_pointer(r, client) {
		wl_pointer_send_button(r, serial, time, button,
				       pressed ? WL_POINTER_BUTTON_STATE_PRESSED
					       : WL_POINTER_BUTTON_STATE_RELEASED);
		pending(p, r);
	}
	/* The implicit grab: held while any button pressed here is;
	 * after the last release, the focus goes where the cursor is. */
	if (pressed)
		p->held++;
	else if (p->held > 0 && --p->held == 0)
		wlseal_pointer_rehit(p);
}

void wlseal_pointer_axis(struct wlseal_pointer *p, uint32_t time,
			 bool vertical, int32_t clicks)
{
	struct wl_client *client = focus_client(p);
	uint32_t axis = vertical ? WL_POINTER_AXIS_VERTICAL_SCROLL
				 : WL_POINTER_AXIS_HORIZONTAL_SCROLL;
	/* REL_WHEEL is positive away from the user, which scrolls up:
	 * negative in wl_pointer's terms. REL_HWHEEL agrees with it. */
	int32_t steps = vertical ? -clicks : clicks;
	struct wl_resource *r;

	if (!client || !clicks)
		return;
	for_each_pointer(r, client) {
		int version = wl_resource_get_version(r);

		if (version >= WL_POINTER_AXIS_SOURCE_SINCE_VERSION)
			wl_pointer_send_axis_source(r, WL_POINTER_AXIS_SOURCE_WHEEL);
		if (version >= WL_POINTER_AXIS_VALUE120_SINCE_VERSION)
			wl_pointer_send_axis_value120(r, axis, steps * 120);
		else if (version >= WL_POINTER_AXIS_DISCRETE_SINCE_VERSION)
			wl_pointer_send_axis_discrete(r, axis, steps);
		wl_pointer_send_axis(r, time, axis,
				     wl_fixed_from_int(steps * AXIS_PER_CLICK));
		pending(p, r);
	}
}

void wlseal_pointer_frame(struct wlseal_pointer *p)
{
	struct wl_resource *r;

	/* To the clients that got something: the one left and the one
	 * entered may differ. */
	for (int i = 0; i < 2; i++)
		for_each_pointer(r, p->frame_clients[i])
			if (wl_resource_get_version(r) >=
			    WL_POINTER_FRAME_SINCE_VERSION)
				wl_pointer_send_frame(r);
	p->frame_clients[0] = p->frame_clients[1] = NULL;
}

/* A move (@edges 0) or a resize of @s. */
static bool begin_move(struct wlseal_pointer *p, struct wlseal_surface *s,
		       uint32_t serial, uint32_t edges)
{
	struct wlseal_scene_view *v;
	int buttons = p->held;

	if (!p->focus.surface || !buttons || serial != p->button_serial ||
	    !(edges ? s->role_resize != NULL : s->role_move != NULL) ||
	    p->moving.surface)
		return false;
	/* The press was on the window or one of its subsurfaces: O(depth). */
	for (v = &p->focus.surface->view; v->parent; v = v->parent)
		;
	if (v != &s->view)
		return false;
	if (set_focus(p, NULL, 0, 0))
		wlseal_pointer_frame(p);
	wlseal_focus_set(&p->moving, s);
	p->move_buttons = buttons;
	p->move_x0 = p->x;
	p->move_y0 = p->y;
	p->moved_x = p->moved_y = 0;
	p->resize_edges = edges;
	if (edges)
		s->role_resize(s, edges, 0, 0);
	wlseal_debug("interactive %s of wl_surface@%u", edges ? "resize" : "move",
		     wl_resource_get_id(s->resource));
	return true;
}

bool wlseal_pointer_move(struct wlseal_pointer *p, struct wlseal_surface *s,
			 uint32_t serial)
{
	return begin_move(p, s, serial, 0);
}

bool wlseal_pointer_resize(struct wlseal_pointer *p, struct wlseal_surface *s,
			   uint32_t serial, uint32_t edges)
{
	return edges && begin_move(p, s, serial, edges);
}
