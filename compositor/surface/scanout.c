/* SPDX-License-Identifier: MIT */
/*
 * scanout.c - a wl_buffer as the display holds it during direct scanout.
 *
 * When the topmost surface covers the output (scene.c decides), the
 * repaint loop may hand the backend the client's buffer instead of a
 * drawn frame (repaint.c, backend/drm.c). The backend then holds the
 * buffer's pages (a udmabuf) for as long as its framebuffer lives, which
 * is not tied to the protocol: it can outlast the surface, the wl_buffer
 * resource and the client. One record per wl_buffer ever offered keeps
 * what that needs:
 *
 * - the pool pin (shm/buffer.c, wlseal_buffer_pin): taken when the
 *   record is made, dropped when the record goes, which is only once the
 *   wl_buffer is destroyed and the backend let go of every reference. So
 *   the pages a udmabuf holds stay charged to the pool memory budget
 *   exactly as long as they are held, and the pool's fd (from which the
 *   backend made the udmabuf) outlives nothing it serves;
 * - the release: a buffer replaced by a commit while the display may
 *   still read it (busy) is released only when the backend says a later
 *   frame replaced it on the screen, never before (surface.c asks
 *   wlseal_scanout_defer_release before sending wl_buffer.release);
 * - a refusal: a buffer the backend could not scan out (its stride, its
 *   offset, its file) is never offered again; it is composed as before.
 *
 * The record is found from the buffer through its destroy listener
 * (wl_resource_get_destroy_listener): no list, no walk.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "log.h"
#include "surface-impl.h"

struct scanout_record {
	struct wl_resource *buffer;	/* NULL once the client destroyed it */
	struct wl_listener destroy;
	struct wlseal_pool_map *pin;	/* the pool and its mapping's place */
	pixman_image_t *image;		/* x8r8g8b8 over the pinned pixels */
	struct wlseal_buffer_file file;
	int refs;			/* the backend's and the caller's */
	int busy;			/* the display may read it */
	bool release_due;		/* replaced while busy */
	bool refused;
};

static void record_free_if_done(struct scanout_record *r)
{
	if (r->buffer || r->refs > 0)
		return;
	if (r->image)
		pixman_image_unref(r->image);
	if (r->pin)
		wlseal_buffer_unpin(r->pin);
	free(r);
}

static void buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct scanout_record *r = wl_container_of(listener, r, destroy);

	wl_list_remove(&r->destroy.link);
	r->buffer = NULL;
	r->release_due = false;
	record_free_if_done(r);
}

/* Every commit with a buffer asks (wlseal_scanout_attached): a buffer
 * attached to 1024 subsurfaces has 1024 destroy listeners, so a lookup
 * among them made one commit of their parent walk a million of them.
 * wlseal_shm's buffers keep their record in a slot; only a buffer of
 * another wl_shm (--shm=libwayland) is looked up among its listeners. */
static struct scanout_record *record_of(struct wl_resource *buffer)
{
	void **slot = wlseal_buffer_scanout_slot(buffer);
	struct wl_listener *l;
	struct scanout_record *r;

	if (slot)
		return *slot;
	l = wl_resource_get_destroy_listener(buffer, buffer_destroyed);
	return l ? wl_container_of(l, r, destroy) : NULL;
}

static void op_ref(void *key)
{
	struct scanout_record *r = key;

	r->refs++;
}

static void op_unref(void *key)
{
	struct scanout_record *r = key;

	r->refs--;
	record_free_if_done(r);
}

static void op_busy(void *key, bool busy)
{
	struct scanout_record *r = key;

	r->busy += busy ? 1 : -1;
	if (!r->busy && r->release_due && r->buffer) {
		r->release_due = false;
		wl_buffer_send_release(r->buffer);
	}
}

static bool op_gone(void *key)
{
	const struct scanout_record *r = key;

	return !r->buffer;
}

static void op_refused(void *key)
{
	struct scanout_record *r = key;

	r->refused = true;
}

static const struct wlseal_scene_scanout_ops record_ops = {
	.ref = op_ref, .unref = op_unref, .busy = op_busy, .gone = op_gone,
	.refused = op_refused,
};

bool wlseal_scanout_describe(struct wl_resource *buffer,
			     struct wlseal_scene_scanout *out, char *why,
			     size_t why_len)
{
	struct scanout_record *r = record_of(buffer);

	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return false;
		r->pin = wlseal_buffer_pin(buffer, &r->file, why, why_len);
		if (r->pin && r->file.format != WL_SHM_FORMAT_XRGB8888 &&
		    r->file.format != WL_SHM_FORMAT_ARGB8888) {
			snprintf(why, why_len, "format 0x%x", r->file.format);
			r->refused = true;
		}
		if (r->pin)
			r->image = pixman_image_create_bits_no_clear(
				PIXMAN_x8r8g8b8, r->file.width, r->file.height,
				(uint32_t *)r->file.data, r->file.stride);
		if (!r->pin || !r->image) {
			/* Not this buffer, ever: a record that says so
			 * (refused, nothing pinned) keeps it from being
			 * asked again. */
			if (r->pin)
				wlseal_buffer_unpin(r->pin);
			r->pin = NULL;
			r->refused = true;
		}
		r->buffer = buffer;
		r->destroy.notify = buffer_destroyed;
		wl_resource_add_destroy_listener(buffer, &r->destroy);
		if (wlseal_buffer_scanout_slot(buffer))
			*wlseal_buffer_scanout_slot(buffer) = r;
	}
	if (r->refused)
		return false;
	*out = (struct wlseal_scene_scanout){
		.fd = r->file.fd, .offset = r->file.offset,
		.width = r->file.width, .height = r->file.height,
		.stride = r->file.stride,
		.write_sealed = (r->file.seals & F_SEAL_WRITE) != 0,
		.opaque_format = r->file.format == WL_SHM_FORMAT_XRGB8888,
		.image = r->image, .key = r, .ops = &record_ops,
	};
	r->refs++;
	return true;
}

bool wlseal_scanout_defer_release(struct wl_resource *buffer)
{
	struct scanout_record *r = record_of(buffer);

	if (!r || !r->busy)
		return false;
	r->release_due = true;
	return true;
}

void wlseal_scanout_attached(struct wl_resource *buffer)
{
	struct scanout_record *r = record_of(buffer);

	/* Committed again before its release: the client wants it shown,
	 * not back. */
	if (r)
		r->release_due = false;
}
