/* SPDX-License-Identifier: MIT */
/*
 * surface-geometry.c - how a committed buffer becomes the surface.
 *
 * Buffer scale, buffer transform and the viewport (viewporter.c) decide
 * how the buffer becomes the surface: its size in surface coordinates,
 * and the transform through which the scene samples it
 * (wlseal_surface_geometry). Each is checked at commit against the
 * buffer committed with it (surface-apply.c), so no combination reaches
 * the scene that samples outside the buffer or makes a size that is not
 * one.
 */
#include <stdint.h>
#include <stdio.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"
#include "viewporter-server-protocol.h"

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
bool wlseal_surface_geometry(struct wlseal_surface *s)
{
	const struct wlseal_viewport_state *vp = &s->viewport;
	int32_t bw, bh, tw, th, lw, lh, w, h;
	struct affine m;
	double sx, sy, ox, oy;

	bw = s->buffer_info.width;	/* asked of shm/ at attach */
	bh = s->buffer_info.height;
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
