/* SPDX-License-Identifier: MIT */
/*
 * pointer-constraints.c - zwp_pointer_constraints_v1: a client locks
 * the pointer where it is (games and 3D views that turn by relative
 * motion) or confines it to a region of one of its surfaces.
 *
 * A surface holds at most one constraint (there is one seat); asking
 * for a second while the first lives is already_constrained. The
 * constraint's region is its wl_region (none: everywhere) within the
 * surface's input region and size, taken anew from the committed state
 * at each use, so a new input region or size counts at once. A
 * constraint is active while its surface has the pointer focus and its
 * window has the keyboard focus (the window the user works in, as in
 * weston and sway: a window that is not active holds no pointer); it
 * becomes active when both hold and the cursor is in the region (at the
 * request, at a focus change, a motion, or a commit of the surface),
 * and sends locked or confined then. It ends when either focus leaves
 * (unlocked, unconfined): a oneshot one is spent and never comes back,
 * a persistent one waits for the next time. The keyboard focus comes
 * through server->events.keyboard_focus; a change looks at the one
 * constraint of the pointer's focus. A seat without a keyboard has no
 * keyboard focus, and so no constraint is ever active.
 * The cursor is never warped into a region: the user brings it there.
 *
 * While a lock is active the cursor does not move (input/'s constrain
 * hook, through seat.c and wlseal_constraint_clamp, keeps it where it
 * is) and no wl_pointer.motion is sent (pointer.c asks
 * wlseal_constraint_locked); relative motion still goes to the
 * client's relative pointers (relative-pointer.c), buttons and axes as
 * always. While a confinement is active, a motion that would leave the
 * region stops at the point of the region nearest to where it would
 * have gone (per motion, not along its path: a region with a hole
 * lets a fast enough motion jump across it, never out). A confinement
 * whose region no longer holds the cursor after a commit (set_region,
 * a new input region, a smaller buffer) ends, as the protocol allows,
 * rather than moving the cursor; a persistent one comes back when the
 * cursor is in the region again.
 *
 * set_region and set_cursor_position_hint are double-buffered: they
 * wait for the surface's state to be applied (its apply_signal, which
 * also carries a synchronized subsurface's cached commit). The hint is
 * kept and not used: nothing warps the cursor on unlock (a client that
 * draws its own cursor sees the real one where the lock left it).
 *
 * Work: each focus change, motion and commit looks at the focused
 * surface's one constraint and intersects three regions of at most 33
 * rectangles each (region.c bounds them); nothing walks other clients'
 * objects. A constraint is a resource counted like any other
 * (account/objects.c). This file reads the pointer's focus and position
 * (struct wlseal_pointer, devices.h) and calls no other file of seat/ but
 * surface-request.c (wlseal_surface_from_resource).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "log.h"
#include "devices.h"
#include "pointer-constraints-unstable-v1-server-protocol.h"

enum kind { LOCK, CONFINE };

/* The global's state: the keyboard focus, and the seat's pointer once
 * a constraint named it (every wl_pointer is the one pointer's). */
struct constraints {
	struct wlseal_pointer *pointer;
	struct wlseal_focus keyboard;
	struct wl_listener keyboard_focus;	/* server->events */
	struct wl_listener display_destroy;
};

struct wlseal_constraint {
	struct wl_resource *resource;
	/* NULL once the surface is gone: the object is defunct. */
	struct wlseal_surface *surface;
	struct wlseal_pointer *pointer;	/* the seat's */
	struct constraints *manager;
	enum kind kind;
	bool persistent;
	bool active;
	bool spent;			/* a oneshot that was deactivated */

	/* Committed: the region (surface coordinates), has_region false:
	 * the whole input region. */
	bool has_region;
	pixman_region32_t region;
	/* Pending until the surface's state is applied. */
	bool region_set, pending_has_region;
	pixman_region32_t pending_region;
	bool hint_set;
	wl_fixed_t pending_hint_x, pending_hint_y;
	bool has_hint;
	wl_fixed_t hint_x, hint_y;

	struct wl_listener surface_destroy;	/* surface->destroy_signal */
	struct wl_listener surface_apply;	/* surface->apply_signal */
};

static const char *const event_names[2][2] = {
	[LOCK] = { "unlocked", "locked" },
	[CONFINE] = { "unconfined", "confined" },
};

/* floor() without libm, for a cursor position within int range. */
static int ifloor(double v)
{
	int i = (int)v;

	return (double)i > v ? i - 1 : i;
}

/* Where the constraint holds, in surface coordinates: its region within
 * the surface's input region and size. False: nowhere. */
static bool effective_region(struct wlseal_constraint *c, pixman_region32_t *out)
{
	struct wlseal_surface *s = c->surface;

	pixman_region32_init_rect(out, 0, 0, (unsigned int)s->view.width,
				  (unsigned int)s->view.height);
	if (s->view.input)
		pixman_region32_intersect(out, out, &s->input);
	if (c->has_region)
		pixman_region32_intersect(out, out, &c->region);
	return pixman_region32_not_empty(out);
}

/* The surface's origin in output coordinates. */
static void origin(struct wlseal_constraint *c, double *ox, double *oy)
{
	int64_t x, y;

	wlseal_scene_view_origin(&c->surface->view, &x, &y);
	*ox = (double)x;
	*oy = (double)y;
}

static void send_state(struct wlseal_constraint *c, bool active)
{
	struct wl_client *client = wl_resource_get_client(c->resource);

	c->active = active;
	if (c->kind == LOCK) {
		if (active)
			zwp_locked_pointer_v1_send_locked(c->resource);
		else
			zwp_locked_pointer_v1_send_unlocked(c->resource);
	} else {
		if (active)
			zwp_confined_pointer_v1_send_confined(c->resource);
		else
			zwp_confined_pointer_v1_send_unconfined(c->resource);
	}
	wlseal_debug("pointer %s pid=%d wl_surface@%u%s",
		     event_names[c->kind][active], (int)wlseal_client_pid(client),
		     wl_resource_get_id(c->surface->resource),
		     !active && !c->persistent ? " (oneshot: spent)" : "");
}

static void deactivate(struct wlseal_constraint *c)
{
	if (!c->persistent)
		c->spent = true;
	send_state(c, false);
}

/* The constraint's window has the keyboard focus: O(depth). */
static bool has_keyboard(struct wlseal_constraint *c)
{
	struct wlseal_surface *k = c->manager->keyboard.surface;
	struct wlseal_scene_view *v = &c->surface->view;

	if (!k)
		return false;
	while (v->parent && v != &k->view)
		v = v->parent;
	return v == &k->view;
}

/* The surface has the pointer focus: activate if its window has the
 * keyboard focus and the cursor is in the region; a confinement whose
 * region lost the cursor ends, and any constraint whose window lost the
 * keyboard. */
static void check(struct wlseal_constraint *c)
{
	const struct wlseal_pointer *p = c->pointer;
	pixman_region32_t r;
	double ox, oy;
	bool in, keyboard;

	if (c->spent)
		return;
	keyboard = has_keyboard(c);
	origin(c, &ox, &oy);
	in = effective_region(c, &r) &&
	     pixman_region32_contains_point(&r, ifloor(p->x - ox),
					    ifloor(p->y - oy), NULL);
	pixman_region32_fini(&r);
	if (!c->active && in && keyboard)
		send_state(c, true);
	else if (c->active && (!keyboard || (!in && c->kind == CONFINE)))
		deactivate(c);
}

void wlseal_constraint_update(struct wlseal_pointer *p,
			      struct wlseal_surface *old)
{
	struct wlseal_surface *s = p->focus.surface;

	if (old && old != s && old->constraint && old->constraint->active)
		deactivate(old->constraint);
	if (s && s->constraint)
		check(s->constraint);
}

static struct wlseal_constraint *active_of(const struct wlseal_pointer *p)
{
	struct wlseal_surface *s = p->focus.surface;

	return s && s->constraint && s->constraint->active ? s->constraint
							   : NULL;
}

bool wlseal_constraint_locked(const struct wlseal_pointer *p)
{
	struct wlseal_constraint *c = active_of(p);

	return c && c->kind == LOCK;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void wlseal_constraint_clamp(const struct wlseal_pointer *p, double from_x,
			     double from_y, double *x, double *y)
{
	struct wlseal_constraint *c = active_of(p);
	const pixman_box32_t *b;
	pixman_region32_t r;
	double ox, oy, lx, ly, best = -1, bx = 0, by = 0;
	int n;

	if (!c)
		return;
	if (c->kind == LOCK) {
		*x = from_x;
		*y = from_y;
		return;
	}
	origin(c, &ox, &oy);
	lx = *x - ox;
	ly = *y - oy;
	if (!effective_region(c, &r) ||
	    pixman_region32_contains_point(&r, ifloor(lx), ifloor(ly), NULL)) {
		pixman_region32_fini(&r);
		return;
	}
	/* The nearest point of the region: of each rectangle's, the
	 * closest (its last pixel is x2 - 1, as the output's is). */
	b = pixman_region32_rectangles(&r, &n);
	for (int i = 0; i < n; i++) {
		double cx = clampd(lx, b[i].x1, b[i].x2 - 1);
		double cy = clampd(ly, b[i].y1, b[i].y2 - 1);
		double d = (cx - lx) * (cx - lx) + (cy - ly) * (cy - ly);

		if (best < 0 || d < best) {
			best = d;
			bx = cx;
			by = cy;
		}
	}
	pixman_region32_fini(&r);
	*x = bx + ox;
	*y = by + oy;
}

/* The surface is gone, or the object: they part. */
static void detach(struct wlseal_constraint *c)
{
	if (!c->surface)
		return;
	wl_list_remove(&c->surface_destroy.link);
	wl_list_remove(&c->surface_apply.link);
	c->surface->constraint = NULL;
	c->surface = NULL;
	c->active = false;
}

static void surface_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_constraint *c = wl_container_of(l, c, surface_destroy);

	/* The pointer forgot the surface already (its focus listener is
	 * on the resource, which goes first): nothing is locked any more.
	 * The object is defunct; no event, the client destroyed it. */
	detach(c);
}

/* The surface's pending state was applied: so is the constraint's. */
static void surface_applied(struct wl_listener *l, void *data)
{
	struct wlseal_constraint *c = wl_container_of(l, c, surface_apply);

	if (c->region_set) {
		pixman_region32_copy(&c->region, &c->pending_region);
		c->has_region = c->pending_has_region;
		c->region_set = false;
	}
	if (c->hint_set) {
		c->hint_x = c->pending_hint_x;
		c->hint_y = c->pending_hint_y;
		c->has_hint = true;
		c->hint_set = false;
	}
	/* The region, the input region or the size may have changed. */
	if (c->pointer->focus.surface == c->surface)
		check(c);
}

static void constraint_destroy(struct wl_resource *r)
{
	struct wlseal_constraint *c = wl_resource_get_user_data(r);

	/* Destroyed by its client: the lock ends without an event. */
	detach(c);
	pixman_region32_fini(&c->region);
	pixman_region32_fini(&c->pending_region);
	free(c);
}

static void resource_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void set_region(struct wl_client *client, struct wl_resource *r,
		       struct wl_resource *region)
{
	struct wlseal_constraint *c = wl_resource_get_user_data(r);

	if (region)
		pixman_region32_copy(&c->pending_region,
				     wl_resource_get_user_data(region));
	else
		pixman_region32_clear(&c->pending_region);
	c->pending_has_region = region != NULL;
	c->region_set = true;
}

static void set_cursor_position_hint(struct wl_client *client,
				     struct wl_resource *r, wl_fixed_t x,
				     wl_fixed_t y)
{
	struct wlseal_constraint *c = wl_resource_get_user_data(r);

	c->pending_hint_x = x;
	c->pending_hint_y = y;
	c->hint_set = true;
}

static const struct zwp_locked_pointer_v1_interface locked_impl = {
	.destroy = resource_destroy,
	.set_cursor_position_hint = set_cursor_position_hint,
	.set_region = set_region,
};

static const struct zwp_confined_pointer_v1_interface confined_impl = {
	.destroy = resource_destroy,
	.set_region = set_region,
};

static void create(struct wl_client *client, struct wl_resource *manager,
		   uint32_t id, struct wl_resource *surface,
		   struct wl_resource *pointer, struct wl_resource *region,
		   uint32_t lifetime, enum kind kind)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface);
	struct wlseal_constraint *c;

	if (lifetime != ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT &&
	    lifetime != ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT) {
		/* The protocol has no error for it: the display's. */
		wl_resource_post_error(wl_client_get_object(client, 1),
				       WL_DISPLAY_ERROR_INVALID_METHOD,
				       "pointer constraint lifetime %u is neither "
				       "oneshot nor persistent", lifetime);
		return;
	}
	if (s->constraint) {
		wl_resource_post_error(manager,
				       ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED,
				       "wl_surface@%u has a pointer constraint already",
				       wl_resource_get_id(surface));
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->resource = wl_resource_create(client,
		kind == LOCK ? &zwp_locked_pointer_v1_interface
			     : &zwp_confined_pointer_v1_interface,
		wl_resource_get_version(manager), id);
	if (!c->resource) {
		free(c);
		wl_client_post_no_memory(client);
		return;
	}
	pixman_region32_init(&c->region);
	pixman_region32_init(&c->pending_region);
	wl_resource_set_implementation(c->resource,
		kind == LOCK ? (const void *)&locked_impl
			     : (const void *)&confined_impl,
		c, constraint_destroy);
	c->kind = kind;
	c->persistent = lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT;
	/* wl_pointer objects are pointer.c's, each with the seat's pointer. */
	c->pointer = wl_resource_get_user_data(pointer);
	c->manager = wl_resource_get_user_data(manager);
	c->manager->pointer = c->pointer;
	if (region) {
		pixman_region32_copy(&c->region, wl_resource_get_user_data(region));
		c->has_region = true;
	}
	c->surface = s;
	s->constraint = c;
	c->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&s->destroy_signal, &c->surface_destroy);
	c->surface_apply.notify = surface_applied;
	wl_signal_add(&s->apply_signal, &c->surface_apply);
	/* Asked for while the surface has the pointer: now, if the cursor
	 * is in the region. */
	if (c->pointer->focus.surface == s)
		check(c);
}

static void lock_pointer(struct wl_client *client, struct wl_resource *r,
			 uint32_t id, struct wl_resource *surface,
			 struct wl_resource *pointer, struct wl_resource *region,
			 uint32_t lifetime)
{
	create(client, r, id, surface, pointer, region, lifetime, LOCK);
}

static void confine_pointer(struct wl_client *client, struct wl_resource *r,
			    uint32_t id, struct wl_resource *surface,
			    struct wl_resource *pointer,
			    struct wl_resource *region, uint32_t lifetime)
{
	create(client, r, id, surface, pointer, region, lifetime, CONFINE);
}

static const struct zwp_pointer_constraints_v1_interface manager_impl = {
	.destroy = resource_destroy,
	.lock_pointer = lock_pointer,
	.confine_pointer = confine_pointer,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &zwp_pointer_constraints_v1_interface,
			       (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

/* The keyboard focus moved: the pointer's focus's constraint, if it
 * has one, is looked at again. O(depth). */
static void keyboard_focus(struct wl_listener *l, void *data)
{
	struct constraints *m = wl_container_of(l, m, keyboard_focus);
	struct wlseal_surface *s = m->pointer ? m->pointer->focus.surface : NULL;

	wlseal_focus_set(&m->keyboard, data);
	if (s && s->constraint)
		check(s->constraint);
}

static void keyboard_gone(struct wl_listener *l, void *data)
{
	struct constraints *m = wl_container_of(l, m, keyboard.destroy);

	wlseal_focus_set(&m->keyboard, NULL);
}

/* After the clients: no constraint is left to point here. */
static void display_destroyed(struct wl_listener *l, void *data)
{
	struct constraints *m = wl_container_of(l, m, display_destroy);

	wlseal_focus_set(&m->keyboard, NULL);
	wl_list_remove(&m->keyboard_focus.link);
	wl_list_remove(&m->display_destroy.link);
	free(m);
}

bool wlseal_pointer_constraints_init(struct wlseal_server *server,
				     uint32_t version)
{
	struct constraints *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	wl_list_init(&m->keyboard.destroy.link);
	m->keyboard.destroy.notify = keyboard_gone;
	if (!wl_global_create(server->display,
			      &zwp_pointer_constraints_v1_interface, version, m,
			      manager_bind)) {
		free(m);
		return false;
	}
	m->keyboard_focus.notify = keyboard_focus;
	wl_signal_add(&server->events.keyboard_focus, &m->keyboard_focus);
	m->display_destroy.notify = display_destroyed;
	wl_display_add_destroy_listener(server->display, &m->display_destroy);
	return true;
}
