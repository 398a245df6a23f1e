/* SPDX-License-Identifier: MIT */
/*
 * region.c - wl_region, kept only as pixman regions, since wlseal has no
 * input and treats every surface as possibly translucent; and the bound on
 * rectangles that every region a client builds obeys (surface damage too).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "wl.h"

/*
 * Bounded work per request. Every union or subtract costs time in
 * proportion to the rectangles a region already holds, so a client
 * sending thousands of scattered 1x1 rectangles would make each request
 * dearer than the last (quadratic in total), and the repaint after them
 * as slow, stalling every other client (issue 11: 20,000 rectangles cost
 * 300-500 ms a commit). Past WLSEAL_MAX_RECTS a region collapses to its
 * extents: for damage that repaints more pixels than asked, never fewer,
 * and the repaint stays bounded by the surface's area, so its cost follows
 * the pixels that change, not the client's count of rectangles. wl_region
 * is only ever a hint wlseal ignores (opaque and input regions), so
 * collapsing it changes nothing; should an opaque region ever be used, it
 * must collapse the other way (to nothing), never grow.
 */
#define WLSEAL_MAX_RECTS 32

void wlseal_region_bound(pixman_region32_t *region)
{
	pixman_box32_t extents;

	if (pixman_region32_n_rects(region) <= WLSEAL_MAX_RECTS)
		return;
	extents = *pixman_region32_extents(region);
	pixman_region32_reset(region, &extents);
}

static void region_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void region_add(struct wl_client *client, struct wl_resource *r,
		       int32_t x, int32_t y, int32_t w, int32_t h)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);

	if (w > 0 && h > 0) {
		pixman_region32_union_rect(region, region, x, y, w, h);
		wlseal_region_bound(region);
	}
}

static void region_subtract(struct wl_client *client, struct wl_resource *r,
			    int32_t x, int32_t y, int32_t w, int32_t h)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);
	pixman_region32_t rect;

	if (w <= 0 || h <= 0)
		return;
	pixman_region32_init_rect(&rect, x, y, w, h);
	pixman_region32_subtract(region, region, &rect);
	pixman_region32_fini(&rect);
	wlseal_region_bound(region);
}

static const struct wl_region_interface region_impl = {
	.destroy = region_destroy,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_resource_destroy(struct wl_resource *r)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);

	pixman_region32_fini(region);
	free(region);
}

void wlseal_region_create(struct wl_client *client, uint32_t id)
{
	pixman_region32_t *region;
	struct wl_resource *res;

	region = malloc(sizeof(*region));
	if (!region) {
		wl_client_post_no_memory(client);
		return;
	}
	res = wl_resource_create(client, &wl_region_interface, 1, id);
	if (!res) {
		free(region);
		wl_client_post_no_memory(client);
		return;
	}
	pixman_region32_init(region);
	wl_resource_set_implementation(res, &region_impl, region,
				       region_resource_destroy);
}
