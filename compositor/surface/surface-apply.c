/* SPDX-License-Identifier: MIT */
/*
 * surface-apply.c - a committed state made current (surface-request.c's
 * commit, or a parent's commit for a synchronized subsurface's cache):
 * the buffer replaced (the old one released, unless the display still
 * holds it) or lost when the client destroys it, the geometry checked
 * (surface-geometry.c), a copied buffer's damaged rows read, damage,
 * the regions, frame callbacks and feedbacks made current, the role
 * told, and wl_surface.enter/leave for the output.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "log.h"
#include "surface-impl.h"

/* The shown buffer was destroyed: there is nothing left to read, so the
 * surface shows nothing until the next attach. */
void wlseal_surface_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface *s = wl_container_of(listener, s, buffer_destroy);

	wl_list_remove(&s->buffer_destroy.link);
	wl_list_init(&s->buffer_destroy.link);
	s->buffer = NULL;
	s->buffer_info = (struct wlseal_buffer_info){ 0 };
	if (s->view.mapped)
		wlseal_scene_damage_view(&s->server->scene, &s->view, NULL);
	wlseal_scene_request_frame(&s->server->scene);
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

	if (!s->buffer_info.copied)
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
void wlseal_surface_apply(struct wlseal_surface *s,
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
		s->buffer_info = st->buffer_info;
		s->has_content = s->buffer != NULL;
		if (s->buffer)
			wl_resource_add_destroy_listener(s->buffer,
							 &s->buffer_destroy);
		else
			wlseal_scene_set_size(&server->scene, &s->view, 0, 0);
		wlseal_surface_state_set_buffer(st, NULL, NULL);
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
	if (s->buffer && (attached || geometry_set) &&
	    !wlseal_surface_geometry(s))
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

void wlseal_surface_apply_cached(struct wlseal_surface *s)
{
	if (s->has_cached)
		wlseal_surface_apply(s, &s->cached);
}
