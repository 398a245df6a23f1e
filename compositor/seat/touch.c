/* SPDX-License-Identifier: MIT */
/*
 * touch.c - wl_touch: touch points, the surface each went down on, and
 * what its client is told.
 *
 * A point goes down at an output position: the topmost visible surface
 * whose input region holds it (wlseal_scene_view_at, subsurfaces
 * included) owns the point until it goes up, wherever it moves (the
 * implicit grab of wl_touch: down, motion and up of one point go to one
 * surface). Its client's wl_touch objects get down with a serial and the
 * surface-local position, motion in the coordinates of that surface
 * (its origin found again at each motion, O(depth): the surface may
 * have moved), up with a serial, and frame after each group of events
 * (the device's SYN_REPORT). A point that lands on no surface is
 * remembered, so that its motion and up are dropped and not sent to
 * whatever lies under them later. When the owning surface is destroyed
 * its client is told the point went up (up and frame: the point was the
 * surface's, and the surface is gone), and the point stays for the
 * device, with no owner: its motion and up go nowhere. When the
 * seat loses its touch capability, every client that owns a point gets
 * cancel.
 *
 * Work per event is bounded by the owning client's own objects
 * (seat-client.c), never by other clients'; a down costs one hit test,
 * as a pointer's motion does. At most WLSEAL_TOUCH_POINTS points are
 * down at once; a down beyond that is dropped (logged).
 *
 * What feeds it: input/'s handler (seat.c). No evdev stream yields
 * touch yet (input/ decodes no multitouch slots); the WLCS module's
 * touch device does (tests/wlcs/).
 */
#include <wayland-server-protocol.h>

#include "log.h"
#include "devices.h"

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct wl_touch_interface touch_impl = {
	.release = resource_destroy,
};

static void unlink_resource(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static struct wl_list *touches_of(struct wl_client *client);
static struct wl_client *point_client(const struct wlseal_touch_point *pt);

#define for_each_touch(r, client)					\
	for (struct wl_list *l_ = touches_of(client); l_; l_ = NULL)	\
		wl_resource_for_each(r, l_)

static void point_focus_gone(struct wl_listener *l, void *data)
{
	struct wlseal_touch_point *pt = wl_container_of(l, pt, focus.destroy);
	struct wlseal_touch *t = pt->touch;
	struct wl_client *client = point_client(pt);
	struct wl_resource *r;
	uint32_t serial = wl_display_next_serial(t->server->display);

	/* The surface is being destroyed: the point is over for its
	 * client (a client that is going holds no wl_touch any more:
	 * seat-client.c forgets them first), and goes on unowned. */
	for_each_touch(r, client) {
		wl_touch_send_up(r, serial, t->time, pt->id);
		wl_touch_send_frame(r);
	}
	wlseal_focus_set(&pt->focus, NULL);
}

void wlseal_touch_init(struct wlseal_touch *t, struct wlseal_server *server)
{
	*t = (struct wlseal_touch){ .server = server };
	for (int i = 0; i < WLSEAL_TOUCH_POINTS; i++) {
		t->points[i].touch = t;
		wl_list_init(&t->points[i].focus.destroy.link);
		t->points[i].focus.destroy.notify = point_focus_gone;
	}
}

void wlseal_touch_finish(struct wlseal_touch *t)
{
	for (int i = 0; i < WLSEAL_TOUCH_POINTS; i++)
		wlseal_focus_set(&t->points[i].focus, NULL);
}

void wlseal_touch_create(struct wlseal_touch *t, struct wlseal_seat_client *sc,
			 struct wl_client *client, uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_touch_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &touch_impl, t, unlink_resource);
	wl_list_insert(&sc->touches, wl_resource_get_link(r));
}

/* @client's wl_touch objects (seat-client.c), or NULL: it holds none. */
static struct wl_list *touches_of(struct wl_client *client)
{
	struct wlseal_seat_client *sc = wlseal_seat_client_find(client);

	return sc ? &sc->touches : NULL;
}

static struct wl_client *point_client(const struct wlseal_touch_point *pt)
{
	return pt->focus.surface ?
	       wl_resource_get_client(pt->focus.surface->resource) : NULL;
}

/* @client gets the next frame. */
static void pending(struct wlseal_touch *t, struct wl_client *client)
{
	int i;

	for (i = 0; i < t->n_frame_clients; i++)
		if (t->frame_clients[i] == client)
			return;
	/* At most one client per point: never more than the array. */
	if (t->n_frame_clients < WLSEAL_TOUCH_POINTS)
		t->frame_clients[t->n_frame_clients++] = client;
}

static struct wlseal_touch_point *find(struct wlseal_touch *t, int32_t id)
{
	for (int i = 0; i < WLSEAL_TOUCH_POINTS; i++)
		if (t->points[i].down && t->points[i].id == id)
			return &t->points[i];
	return NULL;
}

void wlseal_touch_down(struct wlseal_touch *t, uint32_t time, int32_t id,
		       double x, double y)
{
	struct wlseal_touch_point *pt = find(t, id);
	struct wlseal_scene_view *v;
	struct wlseal_surface *s = NULL;
	struct wl_client *client;
	struct wl_resource *r;
	double sx = 0, sy = 0;
	uint32_t serial;

	t->time = time;
	if (pt) {
		wlseal_log("touch point %d went down twice: the second ignored",
			   (int)id);
		return;
	}
	for (int i = 0; i < WLSEAL_TOUCH_POINTS && !pt; i++)
		if (!t->points[i].down)
			pt = &t->points[i];
	if (!pt) {
		wlseal_log("touch point %d dropped: %d points are down already",
			   (int)id, WLSEAL_TOUCH_POINTS);
		return;
	}
	pt->down = true;
	pt->id = id;
	v = wlseal_scene_view_at(&t->server->scene, x, y, &sx, &sy);
	/* Every view in the scene is a wl_surface's (surface.c). */
	if (v)
		s = wl_container_of(v, s, view);
	wlseal_focus_set(&pt->focus, s);
	client = point_client(pt);
	if (!client)
		return;
	serial = wl_display_next_serial(t->server->display);
	for_each_touch(r, client)
		wl_touch_send_down(r, serial, time, s->resource, id,
				   wl_fixed_from_double(sx),
				   wl_fixed_from_double(sy));
	pending(t, client);
	wlseal_debug("touch %d down pid=%d wl_surface@%u at %.2f,%.2f", (int)id,
		     (int)wlseal_client_pid(client),
		     wl_resource_get_id(s->resource), sx, sy);
}

void wlseal_touch_motion(struct wlseal_touch *t, uint32_t time, int32_t id,
			 double x, double y)
{
	struct wlseal_touch_point *pt = find(t, id);
	struct wl_client *client = pt ? point_client(pt) : NULL;
	struct wl_resource *r;
	int64_t ox, oy;

	t->time = time;
	if (!client)
		return;
	wlseal_scene_view_origin(&pt->focus.surface->view, &ox, &oy);
	for_each_touch(r, client)
		wl_touch_send_motion(r, time, id,
				     wl_fixed_from_double(x - (double)ox),
				     wl_fixed_from_double(y - (double)oy));
	pending(t, client);
}

void wlseal_touch_up(struct wlseal_touch *t, uint32_t time, int32_t id)
{
	struct wlseal_touch_point *pt = find(t, id);
	struct wl_client *client = pt ? point_client(pt) : NULL;
	struct wl_resource *r;
	uint32_t serial;

	t->time = time;
	if (!pt)
		return;
	if (client) {
		serial = wl_display_next_serial(t->server->display);
		for_each_touch(r, client)
			wl_touch_send_up(r, serial, time, id);
		pending(t, client);
	}
	pt->down = false;
	wlseal_focus_set(&pt->focus, NULL);
}

void wlseal_touch_frame(struct wlseal_touch *t)
{
	struct wl_resource *r;

	for (int i = 0; i < t->n_frame_clients; i++)
		for_each_touch(r, t->frame_clients[i])
			wl_touch_send_frame(r);
	t->n_frame_clients = 0;
}

void wlseal_touch_cancel(struct wlseal_touch *t)
{
	struct wl_resource *r;

	/* Sent once to each owning client: cancel ends all its points. */
	for (int i = 0; i < WLSEAL_TOUCH_POINTS; i++) {
		struct wl_client *client = point_client(&t->points[i]);
		bool told = false;

		for (int j = 0; j < i && client; j++)
			if (point_client(&t->points[j]) == client)
				told = true;
		if (client && !told)
			for_each_touch(r, client)
				wl_touch_send_cancel(r);
	}
	for (int i = 0; i < WLSEAL_TOUCH_POINTS; i++) {
		t->points[i].down = false;
		wlseal_focus_set(&t->points[i].focus, NULL);
	}
	t->n_frame_clients = 0;
}
