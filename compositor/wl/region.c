/* SPDX-License-Identifier: MIT */
/*
 * region.c - wl_region, kept only as pixman regions, since wlseal has no
 * input and treats every surface as possibly translucent.
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "wl.h"

static void region_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void region_add(struct wl_client *client, struct wl_resource *r,
		       int32_t x, int32_t y, int32_t w, int32_t h)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);

	if (w > 0 && h > 0)
		pixman_region32_union_rect(region, region, x, y, w, h);
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
