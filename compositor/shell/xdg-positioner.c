/* SPDX-License-Identifier: MIT */
/*
 * xdg-positioner.c - xdg_positioner: the rules that place a popup, and
 * the placement itself.
 *
 * A positioner is only a set of rules; xdg-popup.c copies them out when
 * a popup is made or repositioned, and asks wlseal_positioner_place
 * where they put the popup. Placement works in the parent's window
 * geometry coordinates: the anchor point on the anchor rectangle, the
 * popup's window geometry on the side of it the gravity says, moved by
 * the offset. If that leaves the bounds (the output, which the caller
 * gives in the same coordinates), the constraint adjustments apply per
 * axis in the protocol's order: flip, then slide, then resize.
 *
 * All arithmetic is in 64 bits: every value is any int32_t a client
 * chose, and their sums must not wrap; the result is clamped to int32_t.
 */
#include <stdint.h>
#include <stdlib.h>

#include <wayland-server-core.h>

#include "xdg.h"
#include "xdg-shell-server-protocol.h"

#define ADJUST_ALL (XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X | \
		    XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y | \
		    XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X | \
		    XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y | \
		    XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X | \
		    XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y)

/* The requests */

static struct wlseal_positioner_rules *rules_of(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
}

static void positioner_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void set_size(struct wl_client *c, struct wl_resource *r, int32_t w,
		     int32_t h)
{
	if (w <= 0 || h <= 0) {
		wl_resource_post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "size %dx%d: both must be positive", w, h);
		return;
	}
	rules_of(r)->width = w;
	rules_of(r)->height = h;
}

static void set_anchor_rect(struct wl_client *c, struct wl_resource *r,
			    int32_t x, int32_t y, int32_t w, int32_t h)
{
	if (w < 0 || h < 0) {
		wl_resource_post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor rectangle %dx%d: negative size",
				       w, h);
		return;
	}
	rules_of(r)->anchor_rect = (struct wlseal_box){ x, y, w, h };
	rules_of(r)->anchor_rect_set = true;
}

static void set_anchor(struct wl_client *c, struct wl_resource *r,
		       uint32_t anchor)
{
	if (anchor > XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT) {
		wl_resource_post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor %u is no xdg_positioner.anchor",
				       anchor);
		return;
	}
	rules_of(r)->anchor = anchor;
}

static void set_gravity(struct wl_client *c, struct wl_resource *r,
			uint32_t gravity)
{
	if (gravity > XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT) {
		wl_resource_post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "gravity %u is no xdg_positioner.gravity",
				       gravity);
		return;
	}
	rules_of(r)->gravity = gravity;
}

/* Bits the protocol does not define mean nothing: a newer client's
 * adjustments are ignored rather than refused. */
static void set_constraint_adjustment(struct wl_client *c,
				      struct wl_resource *r, uint32_t bits)
{
	rules_of(r)->adjustment = bits & ADJUST_ALL;
}

static void set_offset(struct wl_client *c, struct wl_resource *r, int32_t x,
		       int32_t y)
{
	rules_of(r)->offset_x = x;
	rules_of(r)->offset_y = y;
}

static void set_reactive(struct wl_client *c, struct wl_resource *r)
{
	rules_of(r)->reactive = true;
}

static void set_parent_size(struct wl_client *c, struct wl_resource *r,
			    int32_t w, int32_t h)
{
	rules_of(r)->parent_width = w;
	rules_of(r)->parent_height = h;
}

static void set_parent_configure(struct wl_client *c, struct wl_resource *r,
				 uint32_t serial)
{
	rules_of(r)->has_parent_configure = true;
	rules_of(r)->parent_configure = serial;
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = positioner_destroy,
	.set_size = set_size,
	.set_anchor_rect = set_anchor_rect,
	.set_anchor = set_anchor,
	.set_gravity = set_gravity,
	.set_constraint_adjustment = set_constraint_adjustment,
	.set_offset = set_offset,
	.set_reactive = set_reactive,
	.set_parent_size = set_parent_size,
	.set_parent_configure = set_parent_configure,
};

static void positioner_resource_destroy(struct wl_resource *r)
{
	free(rules_of(r));
}

void wlseal_positioner_create(struct wl_client *client, uint32_t version,
			      uint32_t id)
{
	struct wlseal_positioner_rules *rules = calloc(1, sizeof(*rules));
	struct wl_resource *r;

	if (!rules) {
		wl_client_post_no_memory(client);
		return;
	}
	r = wl_resource_create(client, &xdg_positioner_interface, (int)version,
			       id);
	if (!r) {
		free(rules);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &positioner_impl, rules,
				       positioner_resource_destroy);
}

bool wlseal_positioner_rules(struct wl_resource *positioner,
			     struct wlseal_positioner_rules *out)
{
	const struct wlseal_positioner_rules *rules = rules_of(positioner);

	*out = *rules;
	return rules->width > 0 && rules->anchor_rect_set;
}

/* Placement */

/* One axis of the problem: the anchor rectangle's span, the popup's
 * size, where the anchor and the gravity point (-1: towards smaller
 * coordinates, left or top; 1: larger; 0: the middle), the offset and
 * the bounds. */
struct axis {
	int64_t rect_pos, rect_len;
	int64_t len;
	int anchor, gravity;
	int64_t offset;
	int64_t lo, hi;			/* the bounds: [lo, hi) */
};

/* Where the popup starts on @a with @anchor and @gravity. */
static int64_t axis_pos(const struct axis *a, int anchor, int gravity)
{
	int64_t p = a->rect_pos + (anchor < 0 ? 0 : anchor > 0 ? a->rect_len
							      : a->rect_len / 2);

	p += a->offset;
	return gravity < 0 ? p - a->len : gravity > 0 ? p : p - a->len / 2;
}

static bool constrained(const struct axis *a, int64_t pos, int64_t len)
{
	return pos < a->lo || pos + len > a->hi;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/*
 * Sliding, as the protocol orders it: first towards the gravity, while
 * the trailing edge is out and the leading edge still in; then back
 * against the gravity, while the leading edge is out and the trailing
 * one in. A popup larger than the bounds ends with its left (top) edge
 * on the bounds' whichever way it came.
 */
static int64_t slide(const struct axis *a, int64_t pos, int64_t len)
{
	int64_t room_lo = max64(0, pos - a->lo);	/* free space before */
	int64_t room_hi = max64(0, a->hi - (pos + len));	/* and after */
	int64_t over_lo = max64(0, a->lo - pos);	/* out before */
	int64_t over_hi = max64(0, pos + len - a->hi);	/* out after */

	if (a->gravity >= 0) {
		pos += min64(over_lo, room_hi);
		room_lo = max64(0, pos - a->lo);
		over_hi = max64(0, pos + len - a->hi);
		pos -= min64(over_hi, room_lo);
	} else {
		pos -= min64(over_hi, room_lo);
		room_hi = max64(0, a->hi - (pos + len));
		over_lo = max64(0, a->lo - pos);
		pos += min64(over_lo, room_hi);
	}
	return pos;
}

/* Places the popup on one axis: *@pos and *@len. */
static void place_axis(const struct axis *a, bool flip, bool do_slide,
		       bool resize, int64_t *pos, int64_t *len)
{
	int64_t p = axis_pos(a, a->anchor, a->gravity), l = a->len;

	if (flip && constrained(a, p, l)) {
		int64_t q = axis_pos(a, -a->anchor, -a->gravity);

		/* A flip that is constrained too is not taken. */
		if (!constrained(a, q, l))
			p = q;
	}
	if (do_slide && constrained(a, p, l))
		p = slide(a, p, l);
	if (resize && constrained(a, p, l)) {
		int64_t lo = max64(p, a->lo), hi = min64(p + l, a->hi);

		/* Nothing left inside the bounds: the size stays. */
		if (hi > lo) {
			p = lo;
			l = hi - lo;
		}
	}
	*pos = p;
	*len = l;
}

/* -1, 0 or 1 for the x (@x) or y axis of an anchor or gravity value
 * (the two enums agree). */
static int direction(uint32_t v, bool x)
{
	switch (v) {
	case XDG_POSITIONER_ANCHOR_TOP:
		return x ? 0 : -1;
	case XDG_POSITIONER_ANCHOR_BOTTOM:
		return x ? 0 : 1;
	case XDG_POSITIONER_ANCHOR_LEFT:
		return x ? -1 : 0;
	case XDG_POSITIONER_ANCHOR_RIGHT:
		return x ? 1 : 0;
	case XDG_POSITIONER_ANCHOR_TOP_LEFT:
		return -1;
	case XDG_POSITIONER_ANCHOR_BOTTOM_LEFT:
		return x ? -1 : 1;
	case XDG_POSITIONER_ANCHOR_TOP_RIGHT:
		return x ? 1 : -1;
	case XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT:
		return 1;
	default:
		return 0;
	}
}

static int32_t clamp32(int64_t v)
{
	return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

struct wlseal_box wlseal_positioner_place(const struct wlseal_positioner_rules *rules,
					  struct wlseal_box bounds)
{
	uint32_t adj = rules->adjustment;
	struct axis ax = {
		.rect_pos = rules->anchor_rect.x,
		.rect_len = rules->anchor_rect.width,
		.len = rules->width,
		.anchor = direction(rules->anchor, true),
		.gravity = direction(rules->gravity, true),
		.offset = rules->offset_x,
		.lo = bounds.x,
		.hi = (int64_t)bounds.x + bounds.width,
	};
	struct axis ay = {
		.rect_pos = rules->anchor_rect.y,
		.rect_len = rules->anchor_rect.height,
		.len = rules->height,
		.anchor = direction(rules->anchor, false),
		.gravity = direction(rules->gravity, false),
		.offset = rules->offset_y,
		.lo = bounds.y,
		.hi = (int64_t)bounds.y + bounds.height,
	};
	int64_t x, y, w, h;

	place_axis(&ax, adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X,
		   adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X,
		   adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X, &x, &w);
	place_axis(&ay, adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y,
		   adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y,
		   adj & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y, &y, &h);
	return (struct wlseal_box){ clamp32(x), clamp32(y), clamp32(w),
				    clamp32(h) };
}
