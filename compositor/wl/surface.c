/* SPDX-License-Identifier: MIT */
/*
 * surface.c - wl_compositor and wl_surface.
 *
 * Surface state is double-buffered: attach, damage and frame only touch
 * the pending state, commit makes it current at once (or, for a
 * synchronized subsurface, adds it to a cache that its parent's commit
 * applies: subcompositor.c). The compositor
 * reads the committed buffer whenever it repaints, so the buffer stays
 * "busy" until a later commit replaces it; that is when it is released.
 *
 * Buffer scale, buffer transform and the viewport (viewporter.c) decide
 * how the buffer becomes the surface: its size in surface coordinates,
 * and the transform through which the scene samples it
 * (surface_geometry). Each is checked at commit against the buffer
 * committed with it, so no combination reaches the scene that samples
 * outside the buffer or makes a size that is not one.
 */
#include <stdio.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "log.h"
#include "viewporter-server-protocol.h"
#include "wl.h"

/* wl_surface */

struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
}

static void surface_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

/* A pending or cached buffer may be destroyed before it is applied:
 * forget it. */
static void state_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface_state *st =
		wl_container_of(listener, st, buffer_destroy);

	wl_list_remove(&st->buffer_destroy.link);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer = NULL;
}

static void state_init(struct wlseal_surface_state *st)
{
	*st = (struct wlseal_surface_state){ 0 };
	st->scale = 1;
	pixman_region32_init(&st->damage);
	pixman_region32_init(&st->buffer_damage);
	pixman_region32_init(&st->opaque);
	pixman_region32_init(&st->input);
	wl_list_init(&st->frame_callbacks);
	wl_list_init(&st->feedbacks);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer_destroy.notify = state_buffer_destroyed;
}

static void state_set_buffer(struct wlseal_surface_state *st,
			     struct wl_resource *buffer)
{
	wl_list_remove(&st->buffer_destroy.link);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer = buffer;
	if (buffer)
		wl_resource_add_destroy_listener(buffer, &st->buffer_destroy);
}

/* Adds @from (then empty) to @into: a later attach or opaque region
 * replaces an earlier one, damage and callbacks accumulate. A committed
 * buffer replaced before it was ever shown is released here, unless it
 * is @current, the one on screen. */
static void state_merge(struct wlseal_surface_state *into,
			struct wlseal_surface_state *from,
			struct wl_resource *current)
{
	if (from->attached) {
		if (into->buffer && into->buffer != from->buffer &&
		    into->buffer != current)
			wl_buffer_send_release(into->buffer);
		state_set_buffer(into, from->buffer);
		into->attached = true;
		state_set_buffer(from, NULL);
		from->attached = false;
	}
	/* Both sides hold at most 33 rectangles (region.c): O(1). */
	pixman_region32_union(&into->damage, &into->damage, &from->damage);
	wlseal_region_bound(&into->damage);
	pixman_region32_clear(&from->damage);
	pixman_region32_union(&into->buffer_damage, &into->buffer_damage,
			      &from->buffer_damage);
	wlseal_region_bound(&into->buffer_damage);
	pixman_region32_clear(&from->buffer_damage);
	if (from->scale_set) {
		into->scale = from->scale;
		into->scale_set = true;
		from->scale_set = false;
	}
	if (from->transform_set) {
		into->transform = from->transform;
		into->transform_set = true;
		from->transform_set = false;
	}
	if (from->viewport_set) {
		into->viewport = from->viewport;
		into->viewport_set = true;
		from->viewport_set = false;
	}
	if (from->opaque_set) {
		pixman_region32_copy(&into->opaque, &from->opaque);
		into->opaque_set = true;
		from->opaque_set = false;
	}
	if (from->input_set) {
		pixman_region32_copy(&into->input, &from->input);
		into->input_all = from->input_all;
		into->input_set = true;
		from->input_set = false;
	}
	wl_list_insert_list(into->frame_callbacks.prev, &from->frame_callbacks);
	wl_list_init(&from->frame_callbacks);
	wl_list_insert_list(into->feedbacks.prev, &from->feedbacks);
	wl_list_init(&from->feedbacks);
}

/* The shown buffer was destroyed: there is nothing left to read, so the
 * surface shows nothing until the next attach. */
static void current_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface *s = wl_container_of(listener, s, buffer_destroy);

	wl_list_remove(&s->buffer_destroy.link);
	wl_list_init(&s->buffer_destroy.link);
	s->buffer = NULL;
	if (s->view.mapped)
		wlseal_scene_damage_view(&s->server->scene, &s->view, NULL);
	wlseal_scene_request_frame(&s->server->scene);
}

static void surface_attach(struct wl_client *client, struct wl_resource *r,
			   struct wl_resource *buffer, int32_t x, int32_t y)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	int32_t w, h;

	/* x, y: toplevels are placed by the compositor */
	if (buffer && !wlseal_buffer_get_size(buffer, &w, &h)) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SIZE,
				       "only wl_shm buffers are supported");
		return;
	}
	if (buffer && s->role_attach && !s->role_attach(s))
		return;
	s->pending.attached = true;
	state_set_buffer(&s->pending, buffer);
}

/* x + w may pass INT32_MAX (Mesa sends 0, 0, INT32_MAX, INT32_MAX on
 * every swap, and any x with it): clamped (wlseal_region_box), the
 * rectangle reaches the surface's far edge instead of being lost. */
static void add_damage(pixman_region32_t *region, int32_t x, int32_t y,
		       int32_t w, int32_t h)
{
	pixman_box32_t b;

	if (!wlseal_region_box(x, y, w, h, &b))
		return;
	pixman_region32_union_rect(region, region, b.x1, b.y1,
				   (unsigned)(b.x2 - b.x1),
				   (unsigned)(b.y2 - b.y1));
	wlseal_region_bound(region);
}

static void surface_damage(struct wl_client *client, struct wl_resource *r,
			   int32_t x, int32_t y, int32_t w, int32_t h)
{
	add_damage(&wlseal_surface_from_resource(r)->pending.damage, x, y, w, h);
}

/* Buffer coordinates: surface_apply turns them into surface damage. */
static void surface_damage_buffer(struct wl_client *client,
				  struct wl_resource *r, int32_t x, int32_t y,
				  int32_t w, int32_t h)
{
	add_damage(&wlseal_surface_from_resource(r)->pending.buffer_damage,
		   x, y, w, h);
}

static void callback_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
	wlseal_budget_put(wl_resource_get_user_data(r), WLSEAL_BUDGET_CALLBACKS);
}

static void surface_frame(struct wl_client *client, struct wl_resource *r,
			  uint32_t id)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	struct wlseal_account *account;
	struct wl_resource *cb;

	/* A callback lives until its frame is done, and a client may ask
	 * for any number before it commits: budgeted (account/objects.c),
	 * which also bounds frame_done's walk. */
	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_CALLBACKS);
	if (!account)
		return;
	cb = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!cb) {
		wlseal_budget_put(account, WLSEAL_BUDGET_CALLBACKS);
		wl_client_post_no_memory(client);
		return;
	}
	/* The data is the account; callbacks have no requests. */
	wl_resource_set_implementation(cb, NULL, account,
				       callback_resource_destroy);
	wl_list_insert(s->pending.frame_callbacks.prev,
		       wl_resource_get_link(cb));
}

/* Where the pointer finds the surface (seat.c, through the scene's
 * view.input): double-buffered, NULL means all of it. */
static void surface_set_input_region(struct wl_client *client,
				     struct wl_resource *r,
				     struct wl_resource *region)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (region)
		pixman_region32_copy(&s->pending.input,
				     wl_resource_get_user_data(region));
	else
		pixman_region32_clear(&s->pending.input);
	s->pending.input_all = !region;
	s->pending.input_set = true;
}

/* The opaque region lets the scene write a covered pixel once (scene.c):
 * double-buffered like the rest of the state, NULL means empty. */
static void surface_set_opaque_region(struct wl_client *client,
				      struct wl_resource *r,
				      struct wl_resource *region)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (region)
		wlseal_region_opaque(region, &s->pending.opaque);
	else
		pixman_region32_clear(&s->pending.opaque);
	s->pending.opaque_set = true;
}

static void surface_set_buffer_transform(struct wl_client *client,
					 struct wl_resource *r, int32_t t)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (t < WL_OUTPUT_TRANSFORM_NORMAL || t > WL_OUTPUT_TRANSFORM_FLIPPED_270) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_TRANSFORM,
				       "buffer transform %d is not a wl_output.transform",
				       t);
		return;
	}
	s->pending.transform = t;
	s->pending.transform_set = true;
}

static void surface_set_buffer_scale(struct wl_client *client,
				     struct wl_resource *r, int32_t scale)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (scale < 1) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SCALE,
				       "buffer scale %d is not positive", scale);
		return;
	}
	s->pending.scale = scale;
	s->pending.scale_set = true;
}

/* x' = a x + b y + c, y' = d x + e y + f */
struct affine {
	double a, b, c, d, e, f;
};

/* @m, then @n. */
static struct affine affine_then(struct affine m, struct affine n)
{
	return (struct affine){
		.a = n.a * m.a + n.b * m.d,
		.b = n.a * m.b + n.b * m.e,
		.c = n.a * m.c + n.b * m.f + n.c,
		.d = n.d * m.a + n.e * m.d,
		.e = n.d * m.b + n.e * m.e,
		.f = n.d * m.c + n.e * m.f + n.f,
	};
}

/*
 * Undoes buffer transform @t in surface units: a point of the surface
 * (@w x @h) to the point of the buffer, scaled down to surface units,
 * that shows there. wl_output.transform rotates counter-clockwise,
 * flipped ones mirror around the vertical axis first: the client
 * applied that to its content, so a surface point goes where the
 * transform takes it. 90: the surface's top right corner (w, 0) is the
 * buffer's top left, so (x, y) -> (y, w - x).
 */
static struct affine untransform(int32_t t, double w, double h)
{
	/* The linear part; the translations follow from it below. */
	static const struct affine m[8] = {
		[WL_OUTPUT_TRANSFORM_NORMAL] = { 1, 0, 0, 0, 1, 0 },
		[WL_OUTPUT_TRANSFORM_90] = { 0, 1, 0, -1, 0, 0 },
		[WL_OUTPUT_TRANSFORM_180] = { -1, 0, 0, 0, -1, 0 },
		[WL_OUTPUT_TRANSFORM_270] = { 0, -1, 0, 1, 0, 0 },
		[WL_OUTPUT_TRANSFORM_FLIPPED] = { -1, 0, 0, 0, 1, 0 },
		[WL_OUTPUT_TRANSFORM_FLIPPED_90] = { 0, 1, 0, 1, 0, 0 },
		[WL_OUTPUT_TRANSFORM_FLIPPED_180] = { 1, 0, 0, 0, -1, 0 },
		[WL_OUTPUT_TRANSFORM_FLIPPED_270] = { 0, -1, 0, -1, 0, 0 },
	};
	struct affine r = m[t];

	/* A coordinate that runs backwards starts at the far side: -x
	 * adds the width, -y the height. */
	r.c = (r.a < 0 ? w : 0) + (r.b < 0 ? h : 0);
	r.f = (r.d < 0 ? w : 0) + (r.e < 0 ? h : 0);
	return r;
}

/* A whole number of small size (the matrix entries here are). */
static bool is_integer(double v)
{
	return v > -1e9 && v < 1e9 && v == (double)(int64_t)v;
}

static bool is_unit(double a, double b)
{
	return (a == 0 && (b == 1 || b == -1)) || (b == 0 && (a == 1 || a == -1));
}

/* wp_viewport's bad_size or out_of_buffer, found at commit, goes to the
 * surface's viewport (viewporter.c sets viewport_resource). */
static void viewport_post_error(struct wlseal_surface *s, uint32_t code,
				const char *msg)
{
	/* Without its viewport (destroyed, the unset not yet applied) the
	 * surface carries the error, as wl_surface's invalid_size. */
	if (s->viewport_resource)
		wl_resource_post_error(s->viewport_resource, code, "%s", msg);
	else
		wl_resource_post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE,
				       "%s", msg);
}

/*
 * The surface's size and the scene's sampling transform, from the
 * committed buffer, scale, transform and viewport. Each check is one
 * step of "the scene never samples outside the buffer, and the size is
 * a size": the buffer's sides (transformed) are multiples of the scale,
 * so the buffer is a whole number of surface units (wl_surface
 * invalid_size); a source rectangle lies inside that (wp_viewport
 * out_of_buffer; with PAD repeat a bilinear tap past the edge reads the
 * edge pixel, never memory outside); without a destination the source
 * size is whole (bad_size); a destination is 1..WLSEAL_VIEWPORT_MAX
 * (viewporter.c), so a position plus a size stays within int32_t.
 * Returns false with the error posted.
 */
static bool surface_geometry(struct wlseal_surface *s)
{
	const struct wlseal_viewport_state *vp = &s->viewport;
	int32_t bw, bh, tw, th, lw, lh, w, h;
	struct affine m;
	double sx, sy, ox, oy;

	wlseal_buffer_get_size(s->buffer, &bw, &bh);
	tw = s->transform & 1 ? bh : bw;	/* 90 and 270 swap the sides */
	th = s->transform & 1 ? bw : bh;
	if (tw % s->scale || th % s->scale) {
		wl_resource_post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE,
				       "buffer %dx%d is not a multiple of its scale %d",
				       bw, bh, s->scale);
		return false;
	}
	lw = tw / s->scale;
	lh = th / s->scale;
	if (vp->has_src &&
	    ((int64_t)vp->src_x + vp->src_w > (int64_t)lw * 256 ||
	     (int64_t)vp->src_y + vp->src_h > (int64_t)lh * 256)) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "source %.2f,%.2f %.2fx%.2f is outside the buffer (%dx%d in surface units)",
			 wl_fixed_to_double(vp->src_x), wl_fixed_to_double(vp->src_y),
			 wl_fixed_to_double(vp->src_w), wl_fixed_to_double(vp->src_h),
			 lw, lh);
		viewport_post_error(s, WP_VIEWPORT_ERROR_OUT_OF_BUFFER, msg);
		return false;
	}
	if (vp->has_dst) {
		w = vp->dst_w;
		h = vp->dst_h;
	} else if (vp->has_src) {
		if (vp->src_w % 256 || vp->src_h % 256) {
			viewport_post_error(s, WP_VIEWPORT_ERROR_BAD_SIZE,
						   "a source size that is not whole needs a destination");
			return false;
		}
		w = vp->src_w / 256;
		h = vp->src_h / 256;
	} else {
		w = lw;
		h = lh;
	}
	wlseal_scene_set_size(&s->server->scene, &s->view, w, h);
	if (s->scale == 1 && s->transform == WL_OUTPUT_TRANSFORM_NORMAL &&
	    !vp->has_src && !vp->has_dst) {
		s->view.transform = NULL;
		return true;
	}

	/* Surface point -> the buffer's whole surface-unit rectangle
	 * (viewport) -> before the transform -> buffer pixels (scale). */
	sx = vp->has_src ? wl_fixed_to_double(vp->src_w) / w : (double)lw / w;
	sy = vp->has_src ? wl_fixed_to_double(vp->src_h) / h : (double)lh / h;
	ox = vp->has_src ? wl_fixed_to_double(vp->src_x) : 0;
	oy = vp->has_src ? wl_fixed_to_double(vp->src_y) : 0;
	m = (struct affine){ sx, 0, ox, 0, sy, oy };
	m = affine_then(m, untransform(s->transform, lw, lh));
	m = affine_then(m, (struct affine){ s->scale, 0, 0, 0, s->scale, 0 });

	pixman_transform_init_identity(&s->xform);
	s->xform.matrix[0][0] = pixman_double_to_fixed(m.a);
	s->xform.matrix[0][1] = pixman_double_to_fixed(m.b);
	s->xform.matrix[0][2] = pixman_double_to_fixed(m.c);
	s->xform.matrix[1][0] = pixman_double_to_fixed(m.d);
	s->xform.matrix[1][1] = pixman_double_to_fixed(m.e);
	s->xform.matrix[1][2] = pixman_double_to_fixed(m.f);
	s->view.transform = &s->xform;
	/* Whole numbers only (rotations, flips, whole offsets): every
	 * surface pixel is one buffer pixel, copied exactly. */
	s->view.filter = is_integer(m.a) && is_integer(m.b) && is_integer(m.c) &&
			 is_integer(m.d) && is_integer(m.e) && is_integer(m.f) &&
			 is_unit(m.a, m.b) && is_unit(m.d, m.e) ?
			 PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR;
	return true;
}

/*
 * A buffer of a copied pool (--unsealed=copy) is read from its file at
 * commit, only the rows that may have changed: the commit's buffer damage
 * (buffer coordinates) and its surface damage (the same coordinates
 * without a scale, transform or viewport; through one, every row). A new
 * buffer on the surface is read whole: its file was written against
 * another buffer's content, and only the client knows how far back. Other
 * buffers cost a function call: they are read in place at repaint.
 */
static void surface_copy_damage(struct wlseal_surface *s,
				struct wlseal_surface_state *st, bool new_buffer)
{
	struct wlseal_row_span spans[WLSEAL_ROW_SPANS_MAX];
	pixman_region32_t *regions[2] = { &st->buffer_damage, &st->damage };
	int i, k, nb, n = 0;
	pixman_box32_t *b;

	if (!wlseal_buffer_is_copied(s->buffer))
		return;
	if (new_buffer || (s->view.transform &&
			   pixman_region32_not_empty(&st->damage))) {
		wlseal_buffer_commit(s->buffer, NULL, -1);
		return;
	}
	for (k = 0; k < 2; k++) {
		b = pixman_region32_rectangles(regions[k], &nb);
		for (i = 0; i < nb; i++) {
			if (n == WLSEAL_ROW_SPANS_MAX) {
				wlseal_buffer_commit(s->buffer, NULL, -1);
				return;
			}
			spans[n++] = (struct wlseal_row_span){ b[i].y1, b[i].y2 };
		}
	}
	wlseal_buffer_commit(s->buffer, spans, n);
}

/* wl_surface.enter when a commit shows the surface, leave when one
 * hides it. There is one output, and a view shows on it wherever it
 * is. The event names one of the client's wl_output objects (output.c's
 * list of its own): all stand for the same output, and a client that
 * bound it 64 times is not sent 64 events for every surface it shows
 * (libwayland drops a client whose unread events fill its buffer). A
 * surface shown or hidden by its parent's commit learns it at its own
 * next commit. */
static void output_enter_leave(struct wlseal_surface *s)
{
	bool shows = wlseal_scene_view_visible(&s->view);
	struct wl_list *outputs;
	struct wl_resource *o;

	if (shows == s->on_output)
		return;
	s->on_output = shows;
	outputs = wlseal_output_resources(wl_resource_get_client(s->resource));
	if (!outputs || wl_list_empty(outputs))
		return;
	o = wl_resource_from_link(outputs->next);
	if (shows)
		wl_surface_send_enter(s->resource, o);
	else
		wl_surface_send_leave(s->resource, o);
}

/* Makes @st (the pending or the cached state) current. */
static void surface_apply(struct wlseal_surface *s,
			  struct wlseal_surface_state *st)
{
	struct wlseal_server *server = s->server;
	struct wlseal_feedback *fb, *tmp;
	int32_t old_w = s->view.width, old_h = s->view.height;
	bool geometry_set = st->scale_set || st->transform_set ||
			    st->viewport_set;
	bool attached = st->attached;
	bool was_mapped = s->view.mapped;
	struct wl_resource *prev_buffer = s->buffer;

	s->has_cached = false;
	if (st->attached) {
		struct wl_resource *old = s->buffer;

		/* The committed buffer is read at repaint time, so the old
		 * one is done with as soon as another replaces it. */
		wl_list_remove(&s->buffer_destroy.link);
		wl_list_init(&s->buffer_destroy.link);
		if (old && old != st->buffer &&
		    !wlseal_scanout_defer_release(old))
			wl_buffer_send_release(old);
		if (st->buffer)
			wlseal_scanout_attached(st->buffer);
		s->buffer = st->buffer;
		s->has_content = s->buffer != NULL;
		if (s->buffer)
			wl_resource_add_destroy_listener(s->buffer,
							 &s->buffer_destroy);
		else
			wlseal_scene_set_size(&server->scene, &s->view, 0, 0);
		state_set_buffer(st, NULL);
		st->attached = false;
		/* --verbose: one line per committed buffer, so tools can
		 * tell which client kept drawing, and at what size. */
		if (s->buffer)
			wlseal_debug("commit pid=%d surface %u buffer %dx%d",
				     (int)wlseal_client_pid(wl_resource_get_client(s->resource)),
				     wl_resource_get_id(s->resource),
				     s->view.width, s->view.height);
	}

	if (st->scale_set)
		s->scale = st->scale;
	if (st->transform_set)
		s->transform = st->transform;
	if (st->viewport_set)
		s->viewport = st->viewport;
	st->scale_set = st->transform_set = st->viewport_set = false;
	/* A buffer destroyed while shown (NULL, has_content) keeps the
	 * size it had: there is nothing to measure. */
	if (s->buffer && (attached || geometry_set) && !surface_geometry(s))
		return;
	if (s->buffer)
		surface_copy_damage(s, st, attached && s->buffer != prev_buffer);
	/* Buffer damage is surface damage when the two agree; through a
	 * scale, transform or viewport it damages the whole surface (a
	 * bounded, conservative choice). */
	if (pixman_region32_not_empty(&st->buffer_damage)) {
		if (s->view.transform)
			geometry_set = true;
		else
			pixman_region32_union(&st->damage, &st->damage,
					      &st->buffer_damage);
		pixman_region32_clear(&st->buffer_damage);
	}

	if (st->opaque_set) {
		/* Where the region says opaque, the scene ignores the
		 * buffer's alpha: a changed region can change pixels. */
		if (s->view.mapped &&
		    !pixman_region32_equal(&s->opaque, &st->opaque))
			wlseal_scene_damage_view(&server->scene, &s->view, NULL);
		pixman_region32_copy(&s->opaque, &st->opaque);
		st->opaque_set = false;
	}
	if (st->input_set) {
		pixman_region32_copy(&s->input, &st->input);
		wlseal_scene_set_input(&server->scene, &s->view,
				       st->input_all ? NULL : &s->input);
		st->input_set = false;
	}

	/* A new size damaged the old and the new area already
	 * (wlseal_scene_set_size); the scene clips the client's damage to
	 * the surface, however far it reaches. */
	if (s->view.mapped && s->view.width == old_w &&
	    s->view.height == old_h)
		wlseal_scene_damage_view(&server->scene, &s->view,
					 geometry_set ? NULL : &st->damage);
	pixman_region32_clear(&st->damage);

	/* Feedback for an update that never reached the screen is
	 * discarded once a newer update replaces it. */
	wl_list_for_each_safe(fb, tmp, &s->feedbacks, link)
		fb->impl->discarded(fb);
	wl_list_insert_list(&s->feedbacks, &st->feedbacks);
	wl_list_init(&st->feedbacks);
	wl_list_insert_list(s->frame_callbacks.prev, &st->frame_callbacks);
	wl_list_init(&st->frame_callbacks);
	/* Waiting for the next repaint (frame_start): once in the list. */
	if ((!wl_list_empty(&s->frame_callbacks) ||
	     !wl_list_empty(&s->feedbacks)) && wl_list_empty(&s->link))
		wl_list_insert(server->surfaces.prev, &s->link);

	/* The role (xdg_toplevel, wl_subsurface) decides about mapping
	 * and configure; then the subsurfaces waiting for this surface. */
	if (s->role_commit)
		s->role_commit(s);
	wl_signal_emit(&s->apply_signal, s);
	output_enter_leave(s);

	/* A surface that was mapped and is no more (a desynchronized
	 * subsurface's NULL attach) left damage, and the pointer's focus
	 * is found again with the frame: it needs one too. */
	if (!wl_list_empty(&s->frame_callbacks) || s->view.mapped ||
	    was_mapped)
		wlseal_scene_request_frame(&server->scene);
}

static void surface_commit(struct wl_client *client, struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	/* What this surface's subsurfaces asked of it (position, order)
	 * goes with this commit, cached or applied. */
	wl_signal_emit(&s->commit_signal, s);
	/* A synchronized subsurface's commit waits for its parent. */
	if (s->role_cache && s->role_cache(s)) {
		state_merge(&s->cached, &s->pending, s->buffer);
		s->has_cached = true;
		return;
	}
	/* A desynchronized one applies what was cached with it. */
	if (s->has_cached) {
		state_merge(&s->cached, &s->pending, s->buffer);
		surface_apply(s, &s->cached);
	} else {
		surface_apply(s, &s->pending);
	}
	wl_signal_emit(&s->server->events.commit_applied, s);
}

void wlseal_surface_apply_cached(struct wlseal_surface *s)
{
	if (s->has_cached)
		surface_apply(s, &s->cached);
}

static const struct wl_surface_interface surface_impl = {
	.destroy = surface_destroy,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
};

static void destroy_callbacks(struct wl_list *list)
{
	struct wl_resource *cb, *tmp;

	wl_resource_for_each_safe(cb, tmp, list)
		wl_resource_destroy(cb);
}

static void destroy_feedbacks(struct wl_list *list)
{
	struct wlseal_feedback *fb, *tmp;

	wl_list_for_each_safe(fb, tmp, list, link)
		fb->impl->discarded(fb);
}

static void state_finish(struct wlseal_surface_state *st)
{
	wl_list_remove(&st->buffer_destroy.link);
	destroy_callbacks(&st->frame_callbacks);
	destroy_feedbacks(&st->feedbacks);
	pixman_region32_fini(&st->damage);
	pixman_region32_fini(&st->buffer_damage);
	pixman_region32_fini(&st->opaque);
	pixman_region32_fini(&st->input);
}

static void surface_resource_destroy(struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	/* The role goes first: it may unmap the surface. */
	wl_signal_emit(&s->destroy_signal, s);
	if (s->view.mapped)
		wlseal_scene_unmap(&s->server->scene, &s->view);
	wlseal_scene_request_frame(&s->server->scene);

	state_finish(&s->pending);
	state_finish(&s->cached);
	wl_list_remove(&s->buffer_destroy.link);
	destroy_callbacks(&s->frame_callbacks);
	destroy_feedbacks(&s->feedbacks);
	pixman_region32_fini(&s->opaque);
	pixman_region32_fini(&s->input);
	wl_list_remove(&s->link);
	wlseal_resident_waiter_finish(&s->resident);
	wlseal_budget_put(s->account, WLSEAL_BUDGET_SURFACES);
	free(s);
}

/* The scene reads the committed buffer whenever it repaints. */
static pixman_image_t *surface_source_begin(struct wlseal_scene_view *view)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_pixels *px = &s->reading;
	pixman_format_code_t fmt;
	pixman_image_t *image;

	if (!s->buffer || !wlseal_buffer_begin(s->buffer, px))
		return NULL;
	fmt = px->format == WL_SHM_FORMAT_ARGB8888 ? PIXMAN_a8r8g8b8
						   : PIXMAN_x8r8g8b8;
	/* Wraps the client's pages, no copy; pixman only reads them. */
	image = pixman_image_create_bits_no_clear(fmt, px->width, px->height,
						  px->data, px->stride);
	if (!image)
		wlseal_buffer_end(px);
	return image;
}

static void surface_source_end(struct wlseal_scene_view *view)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);

	wlseal_buffer_end(&s->reading);
}

/* Direct scanout (scene.c asks, for the topmost full-output view): the
 * committed buffer as it lies in its file, when nothing about the
 * surface changes its pixels on the way (the scene checked that the
 * view is the buffer at 1:1). */
static bool surface_source_scanout(struct wlseal_scene_view *view,
				   struct wlseal_scene_scanout *out,
				   char *why, size_t why_len)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);

	if (!s->buffer || wlseal_buffer_is_copied(s->buffer))
		return false;
	return wlseal_scanout_describe(s->buffer, out, why, why_len);
}

/* What the scene's @part of the view samples of the buffer. */
static void surface_sampling(const struct wlseal_surface *s,
			     const struct wlseal_scene_box *part,
			     struct wlseal_sampling *out)
{
	/* The part lies within the view, whose size is an int32_t. */
	*out = (struct wlseal_sampling){
		.x1 = (int32_t)part->x1, .y1 = (int32_t)part->y1,
		.x2 = (int32_t)part->x2, .y2 = (int32_t)part->y2,
		.transformed = s->view.transform != NULL,
		.bilinear = s->view.filter != PIXMAN_FILTER_NEAREST &&
			    s->view.filter != PIXMAN_FILTER_FAST,
	};
	if (s->view.transform)
		for (int r = 0; r < 2; r++)
			for (int c = 0; c < 3; c++)
				out->m[r][c] = s->view.transform->matrix[r][c];
}

/* A pool's pages the view samples are in memory (shm/resident.c). */
static bool surface_source_ready(struct wlseal_scene_view *view,
				 const struct wlseal_scene_box *part)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_sampling sampling;

	surface_sampling(s, part, &sampling);
	return wlseal_buffer_resident(s->buffer, &sampling, &s->resident);
}

static uint64_t surface_source_ready_cost_ns(struct wlseal_scene_view *view,
					     const struct wlseal_scene_box *part)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_sampling sampling;

	surface_sampling(s, part, &sampling);
	return wlseal_buffer_sample_cost_ns(s->buffer, &sampling);
}

/* The pages it waited for are in (or a populate slot of its client came
 * free): drawn again, all of it, with the next frame. */
static void surface_populated(struct wlseal_resident_waiter *w)
{
	struct wlseal_surface *s = wl_container_of(w, s, resident);

	if (!wlseal_scene_view_visible(&s->view))
		return;
	wlseal_scene_damage_view(&s->server->scene, &s->view, NULL);
	wlseal_scene_request_frame(&s->server->scene);
}

static const struct wlseal_scene_source surface_source = {
	.begin = surface_source_begin,
	.end = surface_source_end,
	.scanout = surface_source_scanout,
	.ready = surface_source_ready,
	.ready_cost_ns = surface_source_ready_cost_ns,
};

static void compositor_create_surface(struct wl_client *client,
				      struct wl_resource *r, uint32_t id)
{
	struct wlseal_server *server = wl_resource_get_user_data(r);
	struct wlseal_account *account;
	struct wlseal_surface *s;

	/* Every frame walks all surfaces (frame_start): their number per
	 * client is budgeted (account/objects.c). */
	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_SURFACES);
	if (!account)
		return;
	s = calloc(1, sizeof(*s));
	if (s)
		s->resource = wl_resource_create(client, &wl_surface_interface,
						 wl_resource_get_version(r), id);
	if (!s || !s->resource) {
		free(s);
		wlseal_budget_put(account, WLSEAL_BUDGET_SURFACES);
		wl_client_post_no_memory(client);
		return;
	}
	s->server = server;
	s->account = account;
	s->scale = 1;
	state_init(&s->pending);
	state_init(&s->cached);
	pixman_region32_init(&s->opaque);
	pixman_region32_init(&s->input);
	wl_list_init(&s->buffer_destroy.link);
	s->buffer_destroy.notify = current_buffer_destroyed;
	wl_list_init(&s->frame_callbacks);
	wl_list_init(&s->feedbacks);
	wlseal_scene_view_init(&s->view, &surface_source);
	wlseal_resident_waiter_init(&s->resident, surface_populated);
	s->view.opaque = &s->opaque;
	/* The client's account is its key in the overdraw budget: one per
	 * client, alive as long as this surface. */
	s->view.owner = account;
	wl_signal_init(&s->destroy_signal);
	wl_signal_init(&s->apply_signal);
	wl_signal_init(&s->commit_signal);
	wl_list_init(&s->link);
	wl_resource_set_implementation(s->resource, &surface_impl, s,
				       surface_resource_destroy);
}

static void compositor_create_region(struct wl_client *client,
				     struct wl_resource *r, uint32_t id)
{
	wlseal_region_create(wl_resource_get_user_data(r), client, id);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void compositor_bind(struct wl_client *client, void *data,
			    uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_compositor_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &compositor_impl, data, NULL);
}

void wlseal_surface_add_feedback(struct wlseal_surface *s,
				 struct wlseal_feedback *fb)
{
	wl_list_insert(s->pending.feedbacks.prev, &fb->link);
}

/*
 * A repaint starts (repaint.c): move committed callbacks and feedback of
 * every surface to the server's in-flight lists.
 */
static void frame_start(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_start);
	struct wlseal_scene_view *scanned = data;
	struct wlseal_surface *s, *stmp;
	struct wlseal_feedback *fb, *tmp;

	/* The surfaces whose commits brought callbacks or feedback since
	 * the last frame, each once: work its clients' commits paid for,
	 * not a walk of every surface of every client. */
	wl_list_for_each_safe(s, stmp, &server->surfaces, link) {
		wl_list_remove(&s->link);
		wl_list_init(&s->link);
		wl_list_insert_list(server->frame_callbacks.prev,
				    &s->frame_callbacks);
		wl_list_init(&s->frame_callbacks);
		/* Only content that is on the screen gets "presented". */
		if (wlseal_scene_view_visible(&s->view) && s->buffer) {
			/* The scanned-out surface's frame is its own
			 * buffer: presented zero-copy. */
			wl_list_for_each(fb, &s->feedbacks, link)
				fb->zero_copy = scanned == &s->view;
			wl_list_insert_list(server->feedbacks.prev,
					    &s->feedbacks);
			wl_list_init(&s->feedbacks);
		} else {
			wl_list_for_each_safe(fb, tmp, &s->feedbacks, link)
				fb->impl->discarded(fb);
		}
	}
}

/*
 * The frame is on screen: tell the clients whose content it shows, so
 * that they draw their next frame now, paced by the display. Callbacks
 * committed since the repaint started wait for the next frame; their
 * commit already asked for it (wlseal_repaint_schedule above).
 */
static void frame_done(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_done);
	const struct wlseal_frame_done *frame = data;
	struct wl_resource *cb, *cbtmp;
	uint32_t msec = (uint32_t)(frame->when.tv_sec * 1000 +
				   frame->when.tv_nsec / 1000000);

	/* Every callback in flight: at most --max-callbacks-per-client
	 * per client (account/objects.c). */
	wl_resource_for_each_safe(cb, cbtmp, &server->frame_callbacks) {
		wl_callback_send_done(cb, msec);
		wl_resource_destroy(cb);
	}
	/* Feedbacks cost a client's bound outputs each: a bounded slice
	 * per turn (feedback-queue.c). */
	wlseal_feedback_queue_add(server, &server->feedbacks, frame);
}

bool wlseal_compositor_init(struct wlseal_server *server, uint32_t version)
{
	wl_list_init(&server->surfaces);
	wl_list_init(&server->frame_callbacks);
	wl_list_init(&server->feedbacks);
	wlseal_feedback_queue_init(server);
	server->frame_start.notify = frame_start;
	wl_signal_add(&server->events.frame_start, &server->frame_start);
	server->frame_done.notify = frame_done;
	wl_signal_add(&server->events.frame_done, &server->frame_done);
	/* Version 4 brings damage_buffer; later versions add offset and
	 * scale hints that wlseal has no use for. */
	return wl_global_create(server->display, &wl_compositor_interface, version,
				server, compositor_bind) != NULL;
}

void wlseal_compositor_finish(struct wlseal_server *server)
{
	wlseal_feedback_queue_finish(server);
}
