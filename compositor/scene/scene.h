/* SPDX-License-Identifier: MIT */
/*
 * scene.h - where things are on the output, and drawing them (scene.c).
 *
 * The scene knows rectangles and pixels, nothing of Wayland objects: a
 * view has a position, a size and a pixel source it asks for an image at
 * draw time. wl/surface.c embeds one view in every wl_surface.
 */
#ifndef WLSEAL_SCENE_H
#define WLSEAL_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include <pixman.h>
#include <wayland-util.h>

/* The background every frame starts from (opaque, a8r8g8b8). */
#define WLSEAL_BACKGROUND 0xff203040u

/* Where views appear: a cascade so that several stay visible. */
#define WLSEAL_CASCADE_X0 32
#define WLSEAL_CASCADE_Y0 32
#define WLSEAL_CASCADE_STEP 48
#define WLSEAL_CASCADE_SLOTS 8

struct wlseal_scene_view;

/* Where a view's pixels come from, asked once per repaint. */
struct wlseal_scene_source {
	/* An image wrapping the pixels to draw, or NULL: nothing to draw.
	 * A non-NULL image is unreffed by the scene, then end() is called. */
	pixman_image_t *(*begin)(struct wlseal_scene_view *view);
	void (*end)(struct wlseal_scene_view *view);
};

struct wlseal_scene_view {
	int32_t x, y;			/* output coordinates, valid while mapped */
	int32_t width, height;		/* what damage and placement use */
	bool mapped;
	struct wl_list link;		/* wlseal_scene.views */
	const struct wlseal_scene_source *source;
	/* View coordinates: where the pixels are opaque whatever their
	 * alpha says (wl_surface.set_opaque_region); NULL or empty: only
	 * what the format says (x8r8g8b8 is opaque everywhere). */
	const pixman_region32_t *opaque;
};

/* The views, bottom to top, and what changed. */
struct wlseal_scene {
	int width, height;
	struct wl_list views;		/* wlseal_scene_view.link, bottom first */
	pixman_region32_t damage;	/* output coords, since the last repaint */
	pixman_region32_t prev_damage;	/* what the previous repaint drew */
	unsigned int cascade_next;
};

void wlseal_scene_init(struct wlseal_scene *scene, int width, int height);
void wlseal_scene_finish(struct wlseal_scene *scene);
void wlseal_scene_view_init(struct wlseal_scene_view *view,
			    const struct wlseal_scene_source *source);
/* Places @view on top (the cascade) and damages it. */
void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_scene_view *view);
void wlseal_scene_unmap(struct wlseal_scene *scene,
			struct wlseal_scene_view *view);
/* @damage in view coordinates; NULL means the whole view. */
void wlseal_scene_damage_view(struct wlseal_scene *scene,
			      struct wlseal_scene_view *view,
			      pixman_region32_t *damage);
bool wlseal_scene_has_damage(struct wlseal_scene *scene);
/* Draws into @target, whose content is @age frames old (0: unknown).
 * Returns the number of pixels drawn; @drawn (if not NULL, initialized)
 * receives where. */
uint64_t wlseal_scene_render(struct wlseal_scene *scene,
			     pixman_image_t *target, int age,
			     pixman_region32_t *drawn);

#endif
