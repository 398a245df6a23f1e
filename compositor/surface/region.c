/* SPDX-License-Identifier: MIT */
/*
 * region.c - wl_region, kept only as pixman regions, since wlseal has no
 * input and treats every surface as possibly translucent; and the bound on
 * rectangles that every region a client builds obeys (surface damage too).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/*
 * Bounded work per request. Every union or subtract costs time in
 * proportion to the rectangles a region already holds, so a client
 * sending thousands of scattered 1x1 rectangles would make each request
 * dearer than the last (quadratic in total), and the repaint after them
 * as slow, stalling every other client (measured: 20,000 rectangles cost
 * 300-500 ms a commit). Past WLSEAL_MAX_RECTS a region collapses to its
 * extents, so no add, subtract or damage request ever works on more than
 * WLSEAL_MAX_RECTS + 1 rectangles: O(1) each, whatever the client sends.
 * For damage that repaints more pixels than asked, never fewer, and the
 * repaint stays bounded by the surface's area, so its cost follows the
 * pixels that change, not the client's count of rectangles. The input
 * region is ignored (wlseal has no input). The opaque region must never
 * grow (the scene would then ignore alpha the client did not declare
 * opaque): a wl_region that collapsed is remembered as grown, and as an
 * opaque region it counts as empty (wlseal_region_opaque), which only
 * costs a blend where a copy would have done.
 */
#define WLSEAL_MAX_RECTS 32

/* Returns true when @region was collapsed (and so grew). */
static bool region_bound(pixman_region32_t *region)
{
	pixman_box32_t extents;

	if (pixman_region32_n_rects(region) <= WLSEAL_MAX_RECTS)
		return false;
	extents = *pixman_region32_extents(region);
	pixman_region32_reset(region, &extents);
	return true;
}

void wlseal_region_bound(pixman_region32_t *region)
{
	region_bound(region);
}

/* A wl_region: its rectangles, whether collapsing made it grow, and the
 * budget it is counted in (regions per client, account/objects.c; with at
 * most WLSEAL_MAX_RECTS + 1 boxes each, their memory is bounded too). */
struct region {
	pixman_region32_t region;
	bool grown;
	struct wlseal_account *account;
};

void wlseal_region_opaque(struct wl_resource *r, pixman_region32_t *out)
{
	struct region *region = wl_resource_get_user_data(r);

	if (region->grown)
		pixman_region32_clear(out);
	else
		pixman_region32_copy(out, &region->region);
}

static void region_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

bool wlseal_region_box(int32_t x, int32_t y, int32_t w, int32_t h,
		       pixman_box32_t *box)
{
	/* In 64 bits: x + w passes INT32_MAX for any x > 0 with Mesa's
	 * INT32_MAX, and pixman refuses (and logs) such a rectangle. Past
	 * INT32_MAX nothing can be on a surface anyway. */
	int64_t x2 = (int64_t)x + w, y2 = (int64_t)y + h;

	if (w <= 0 || h <= 0)
		return false;
	*box = (pixman_box32_t){ x, y, x2 > INT32_MAX ? INT32_MAX : (int32_t)x2,
				 y2 > INT32_MAX ? INT32_MAX : (int32_t)y2 };
	return box->x1 < box->x2 && box->y1 < box->y2;
}

static void region_add(struct wl_client *client, struct wl_resource *r,
		       int32_t x, int32_t y, int32_t w, int32_t h)
{
	struct region *region = wl_resource_get_user_data(r);
	pixman_box32_t b;

	if (wlseal_region_box(x, y, w, h, &b)) {
		pixman_region32_union_rect(&region->region, &region->region,
					   b.x1, b.y1, (unsigned)(b.x2 - b.x1),
					   (unsigned)(b.y2 - b.y1));
		if (region_bound(&region->region))
			region->grown = true;
	}
}

static void region_subtract(struct wl_client *client, struct wl_resource *r,
			    int32_t x, int32_t y, int32_t w, int32_t h)
{
	struct region *region = wl_resource_get_user_data(r);
	pixman_region32_t rect;
	pixman_box32_t b;

	if (!wlseal_region_box(x, y, w, h, &b))
		return;
	pixman_region32_init_with_extents(&rect, &b);
	pixman_region32_subtract(&region->region, &region->region, &rect);
	pixman_region32_fini(&rect);
	if (region_bound(&region->region))
		region->grown = true;
}

static const struct wl_region_interface region_impl = {
	.destroy = region_destroy,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_resource_destroy(struct wl_resource *r)
{
	struct region *region = wl_resource_get_user_data(r);

	pixman_region32_fini(&region->region);
	wlseal_budget_put(region->account, WLSEAL_BUDGET_REGIONS);
	free(region);
}

void wlseal_region_create(struct wlseal_server *server,
			  struct wl_client *client, uint32_t id)
{
	struct wlseal_account *account;
	struct region *region;
	struct wl_resource *res = NULL;

	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_REGIONS);
	if (!account)
		return;
	region = calloc(1, sizeof(*region));
	if (region)
		res = wl_resource_create(client, &wl_region_interface, 1, id);
	if (!res) {
		free(region);
		wlseal_budget_put(account, WLSEAL_BUDGET_REGIONS);
		wl_client_post_no_memory(client);
		return;
	}
	pixman_region32_init(&region->region);
	region->account = account;
	wl_resource_set_implementation(res, &region_impl, region,
				       region_resource_destroy);
}
