/* SPDX-License-Identifier: MIT */
/*
 * surface.h - inside wl/: what the files of wl_surface lend each other.
 * Calls go one way: surface.c (wl_compositor, a surface's life, frame
 * pacing) calls surface-request.c, surface-apply.c, surface-state.c and
 * surface-source.c; surface-request.c (the requests) calls
 * surface-apply.c and surface-state.c; surface-apply.c (a state made
 * current) calls surface-geometry.c and surface-state.c;
 * surface-state.c, surface-geometry.c and surface-source.c call none of
 * them.
 */
#ifndef WLSEAL_WL_SURFACE_H
#define WLSEAL_WL_SURFACE_H

#include <stdbool.h>

#include <wayland-server-core.h>

#include "wl.h"

/* surface-state.c: the double-buffered state (pending, cached). */

void wlseal_surface_state_init(struct wlseal_surface_state *st);
/* @st holds @buffer (NULL: none), forgotten if it is destroyed. */
void wlseal_surface_state_set_buffer(struct wlseal_surface_state *st,
				     struct wl_resource *buffer);
/* Adds @from (then empty) to @into; @current is the buffer on screen. */
void wlseal_surface_state_merge(struct wlseal_surface_state *into,
				struct wlseal_surface_state *from,
				struct wl_resource *current);
void wlseal_surface_state_finish(struct wlseal_surface_state *st);
/* Destroys every wl_callback of @list. */
void wlseal_surface_callbacks_destroy(struct wl_list *list);
/* Discards every feedback of @list. */
void wlseal_surface_feedbacks_discard(struct wl_list *list);

/* surface-geometry.c: the size and the scene's sampling transform from
 * the committed buffer, scale, transform and viewport; false with the
 * error posted. */
bool wlseal_surface_geometry(struct wlseal_surface *s);

/* surface-apply.c */

/* Makes @st (the pending or the cached state) current. */
void wlseal_surface_apply(struct wlseal_surface *s,
			  struct wlseal_surface_state *st);
/* The notify of a surface's buffer_destroy: the shown buffer went. */
void wlseal_surface_buffer_destroyed(struct wl_listener *listener,
				     void *data);

/* surface-request.c: @s->resource gets the wl_surface requests, and
 * @destroy as its destructor. */
void wlseal_surface_set_implementation(struct wlseal_surface *s,
				       wl_resource_destroy_func_t destroy);

/* surface-source.c: @s's view reads its committed buffer (the scene's
 * source) and waits for its pool's pages (shm/resident.c). */
void wlseal_surface_source_init(struct wlseal_surface *s);

#endif
