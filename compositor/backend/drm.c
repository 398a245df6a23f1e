/* SPDX-License-Identifier: MIT */
/*
 * drm.c - scan out through KMS, as the VM's virtio-gpu does.
 *
 * The classic legacy-KMS recipe: find a connected connector and a CRTC
 * that can drive it, allocate two "dumb" buffers (plain CPU-mapped
 * memory the display engine can scan out), show the first with
 * drmModeSetCrtc, and from then on draw into the buffer that is not on
 * screen and swap with a page flip. The flip completes at vblank; the
 * kernel then sends an event with the time of that vblank, which is what
 * paces the whole compositor and what presentation feedback reports.
 *
 * With WLSEAL_DRM_UPDATE=dirty in the environment the backend instead
 * keeps one buffer on screen, draws into it and tells the driver which
 * rectangles changed (drmModeDirtyFB). On virtio-gpu a page flip to
 * another dumb buffer makes the guest transfer the whole frame to the
 * host (Linux 6.1's virtio-gpu exposes no FB_DAMAGE_CLIPS property, so
 * a flip carries no damage); DirtyFB transfers and flushes only the
 * damaged rectangle. The host shows its own copy of the resource, which
 * changes only at that transfer, after the frame was drawn: no tearing.
 * The ioctl returns once the update was submitted; the frame is reported
 * at the next vblank time of the mode's refresh, from a timer.
 *
 * Direct scanout (scanout(), flip mode only): the frame is a client's
 * buffer, flipped to as it is. Its pages become a dma-buf through
 * /dev/udmabuf (read-only, UDMABUF_FLAGS_READONLY, when the file is
 * write-sealed: the pages can then never change while shown), the
 * driver imports that (PRIME; on virtio-gpu the import of
 * kernel-patches/zero-copy) and a framebuffer is made of it. These are
 * kept per buffer, a few at most (SCANOUT_CACHE, least recently flipped
 * evicted), since a client cycles through two or three. The rules:
 * a framebuffer on the screen or flipping is never removed (removing the
 * one scanned out would turn the CRTC off); the buffer is busy from its
 * flip until a later flip replaced it, and only then goes back to the
 * client (surface/scanout.c sends the release); a framebuffer whose buffer
 * the client destroyed is removed at the first frame that no longer
 * shows it. A failure says why and changes nothing, and the frame is
 * composed instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <linux/udmabuf.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "backend.h"
#include "log.h"

struct drm_fb {
	uint32_t handle, fb_id, pitch;
	uint64_t size;
	void *map;
	pixman_image_t *image;
	bool drawn;
};

/* The read-only mode of kernel-patches/zero-copy (linux/udmabuf.h). */
#ifndef UDMABUF_FLAGS_READONLY
#define UDMABUF_FLAGS_READONLY 0x02
#endif

/* Framebuffers of client buffers kept: two a client flips between, one
 * more being replaced, one spare. */
#define SCANOUT_CACHE 4

struct scanout_fb {
	void *key;			/* NULL: a free slot */
	const struct wlseal_scanout_ops *ops;
	uint32_t handle, fb_id;
	pixman_image_t *image;		/* the pixels, for base.front */
	uint64_t used;			/* the frame it was last flipped in */
	bool busy;			/* flipping or on the screen */
};

struct drm {
	struct wlseal_backend base;
	int fd;
	uint32_t conn_id, crtc_id;
	drmModeModeInfo mode;
	drmModeCrtc *saved_crtc;	/* restored on exit, for the console */
	struct drm_fb fb[2];
	int back;			/* index of the buffer not on screen */
	bool crtc_set;
	bool monotonic;			/* event timestamps are CLOCK_MONOTONIC */
	uint64_t seq;
	struct wl_event_loop *loop;
	struct wl_event_source *source;
	bool dirty;			/* WLSEAL_DRM_UPDATE=dirty: one buffer */
	int timer_fd;			/* dirty: the vblank ticks */
	struct wl_event_source *timer;
	uint64_t epoch_ns;
	struct scanout_fb scanout[SCANOUT_CACHE];
	struct scanout_fb *flipping;	/* the flip queued is this buffer */
	struct scanout_fb *shown;	/* on the screen; NULL: a dumb buffer */
	int udmabuf;			/* /dev/udmabuf, -1: not opened yet */
};

/* drmModeDirtyFB takes at most this many rectangles per call here; more
 * become their bounding box (virtio-gpu merges them into one anyway). */
#define DRM_MAX_CLIPS 64

/*
 * A CRTC that can drive @conn: the one its encoder already uses if any
 * (no visible modeset glitch), else the first one an encoder allows.
 */
static bool find_crtc(struct drm *d, drmModeRes *res, drmModeConnector *conn)
{
	drmModeEncoder *enc;
	int i, j;

	if (conn->encoder_id) {
		enc = drmModeGetEncoder(d->fd, conn->encoder_id);
		if (enc && enc->crtc_id) {
			d->crtc_id = enc->crtc_id;
			drmModeFreeEncoder(enc);
			return true;
		}
		drmModeFreeEncoder(enc);
	}
	for (i = 0; i < conn->count_encoders; i++) {
		enc = drmModeGetEncoder(d->fd, conn->encoders[i]);
		if (!enc)
			continue;
		for (j = 0; j < res->count_crtcs; j++) {
			if (enc->possible_crtcs & (1u << j)) {
				d->crtc_id = res->crtcs[j];
				drmModeFreeEncoder(enc);
				return true;
			}
		}
		drmModeFreeEncoder(enc);
	}
	return false;
}

/* The connected connector, and its mode: --size if it has one of that
 * size, else the preferred mode (the one QEMU's xres/yres sets). */
static bool find_output(struct drm *d, int want_w, int want_h)
{
	drmModeRes *res = drmModeGetResources(d->fd);
	bool found = false;
	int i, m;

	if (!res) {
		wlseal_log("drm: drmModeGetResources: %s", strerror(errno));
		return false;
	}
	for (i = 0; i < res->count_connectors && !found; i++) {
		drmModeConnector *conn =
			drmModeGetConnector(d->fd, res->connectors[i]);
		int pick = -1;

		if (!conn)
			continue;
		if (conn->connection != DRM_MODE_CONNECTED ||
		    conn->count_modes == 0) {
			drmModeFreeConnector(conn);
			continue;
		}
		for (m = 0; m < conn->count_modes; m++) {
			drmModeModeInfo *mi = &conn->modes[m];

			if (want_w && mi->hdisplay == want_w &&
			    mi->vdisplay == want_h) {
				pick = m;
				break;
			}
			if (pick < 0 && (mi->type & DRM_MODE_TYPE_PREFERRED))
				pick = m;
		}
		if (pick < 0)
			pick = 0;
		if (find_crtc(d, res, conn)) {
			const char *type =
				drmModeGetConnectorTypeName(conn->connector_type);

			snprintf(d->base.output_name, sizeof(d->base.output_name),
				 "%s-%u", type ? type : "Unknown",
				 conn->connector_type_id);
			d->conn_id = conn->connector_id;
			d->mode = conn->modes[pick];
			found = true;
		}
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);
	if (!found)
		wlseal_log("drm: no connected connector with a usable CRTC");
	return found;
}

/* A dumb buffer: linear XRGB8888 memory that we map and draw into with
 * pixman, registered as a framebuffer so the CRTC can scan it out. */
static bool create_fb(struct drm *d, struct drm_fb *fb)
{
	uint32_t handles[4] = {0}, pitches[4] = {0}, offsets[4] = {0};
	uint64_t map_offset;
	int w = d->mode.hdisplay, h = d->mode.vdisplay;

	if (drmModeCreateDumbBuffer(d->fd, w, h, 32, 0, &fb->handle,
				    &fb->pitch, &fb->size)) {
		wlseal_log("drm: cannot create dumb buffer: %s", strerror(errno));
		return false;
	}
	handles[0] = fb->handle;
	pitches[0] = fb->pitch;
	if (drmModeAddFB2(d->fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches,
			  offsets, &fb->fb_id, 0)) {
		wlseal_log("drm: cannot add framebuffer: %s", strerror(errno));
		goto err_destroy;
	}
	if (drmModeMapDumbBuffer(d->fd, fb->handle, &map_offset))
		goto err_rmfb;
	fb->map = mmap(NULL, fb->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       d->fd, (off_t)map_offset);
	if (fb->map == MAP_FAILED)
		goto err_rmfb;
	/* a8r8g8b8 over XRGB8888 memory: the display ignores the top byte,
	 * pixman writes a defined 0xff there (same as the headless output). */
	fb->image = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, fb->map,
					     (int)fb->pitch);
	if (!fb->image)
		goto err_unmap;
	return true;

err_unmap:
	munmap(fb->map, fb->size);
err_rmfb:
	drmModeRmFB(d->fd, fb->fb_id);
err_destroy:
	drmModeDestroyDumbBuffer(d->fd, fb->handle);
	return false;
}

static void destroy_fb(struct drm *d, struct drm_fb *fb)
{
	if (!fb->image)
		return;
	pixman_image_unref(fb->image);
	munmap(fb->map, fb->size);
	drmModeRmFB(d->fd, fb->fb_id);
	drmModeDestroyDumbBuffer(d->fd, fb->handle);
}

static void scanout_fb_destroy(struct drm *d, struct scanout_fb *f)
{
	drmModeRmFB(d->fd, f->fb_id);
	drmCloseBufferHandle(d->fd, f->handle);
	pixman_image_unref(f->image);
	if (f->busy)
		f->ops->busy(f->key, false);
	f->ops->unref(f->key);
	f->key = NULL;
}

/* Framebuffers of destroyed buffers go, unless shown or flipping. */
static void scanout_sweep(struct drm *d)
{
	for (int i = 0; i < SCANOUT_CACHE; i++) {
		struct scanout_fb *f = &d->scanout[i];

		if (f->key && f != d->shown && f != d->flipping &&
		    f->ops->gone(f->key))
			scanout_fb_destroy(d, f);
	}
}

/* What was flipped to is on screen now: report it. What it replaced
 * is done with: a client buffer goes back to its client. */
static void frame_shown(struct drm *d, const struct timespec *when,
			uint32_t flags)
{
	struct wlseal_frame_info info;
	struct scanout_fb *old = d->shown;

	if (d->flipping) {
		d->shown = d->flipping;
		d->flipping = NULL;
		d->base.front = d->shown->image;
		/* Neither dumb buffer holds the frames shown meanwhile. */
		d->fb[0].drawn = d->fb[1].drawn = false;
		flags |= WLSEAL_FRAME_ZERO_COPY;
	} else {
		struct drm_fb *shown = &d->fb[d->back];

		d->shown = NULL;
		shown->drawn = true;
		d->base.front = shown->image;
		if (!d->dirty)
			d->back ^= 1;	/* dirty: the same buffer stays */
	}
	if (old && old != d->shown && old->busy) {
		old->busy = false;
		old->ops->busy(old->key, false);
	}
	scanout_sweep(d);
	info.seq = ++d->seq;
	info.when = *when;
	info.flags = flags;
	info.front = d->base.front;
	wl_signal_emit(&d->base.events.frame, &info);
}

static void page_flip_handler(int fd, unsigned int sequence,
			      unsigned int tv_sec, unsigned int tv_usec,
			      void *data)
{
	struct drm *d = data;
	struct timespec when;
	uint32_t flags = WLSEAL_FRAME_VSYNC | WLSEAL_FRAME_HW_COMPLETION;

	if (d->monotonic) {
		/* The kernel's own vblank time: a hardware clock. */
		when.tv_sec = tv_sec;
		when.tv_nsec = (long)tv_usec * 1000;
		flags |= WLSEAL_FRAME_HW_CLOCK;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &when);
	}
	frame_shown(d, &when, flags);
}

static int drm_readable(int fd, uint32_t mask, void *data)
{
	drmEventContext ev = {
		.version = 2,
		.page_flip_handler = page_flip_handler,
	};

	/* Reads the flip events and calls page_flip_handler for each;
	 * the user data passed to drmModePageFlip comes back there. */
	drmHandleEvent(fd, &ev);
	return 0;
}

/* drmModeSetCrtc is synchronous and sends no event; report the first
 * frame from the event loop so that the repaint loop is not re-entered. */
static void modeset_done(void *data)
{
	struct drm *d = data;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	frame_shown(d, &now, 0);
}

static pixman_image_t *drm_begin_frame(struct wlseal_backend *b, int *age)
{
	struct drm *d = wl_container_of(b, d, base);
	struct drm_fb *fb = &d->fb[d->back];

	/* Buffers strictly alternate, so a drawn back buffer holds the
	 * frame before the one on screen; with one buffer (dirty) it holds
	 * the last frame. */
	*age = fb->drawn ? (d->dirty ? 1 : 2) : 0;
	return fb->image;
}

static uint64_t ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/* dirty: the frame counts as shown at the next vblank time after now. */
static bool arm_vblank_timer(struct drm *d)
{
	struct itimerspec its = {0};
	struct timespec now;
	uint64_t now_ns, period = d->base.refresh_nsec, next;

	clock_gettime(CLOCK_MONOTONIC, &now);
	now_ns = ts_to_ns(&now);
	next = d->epoch_ns + ((now_ns - d->epoch_ns) / period + 1) * period;
	its.it_value.tv_sec = (time_t)(next / 1000000000ull);
	its.it_value.tv_nsec = (long)(next % 1000000000ull);
	return timerfd_settime(d->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) == 0;
}

static int vblank_tick(int fd, uint32_t mask, void *data)
{
	struct drm *d = data;
	struct timespec now;
	uint64_t expirations;

	if (read(fd, &expirations, sizeof(expirations)) < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	frame_shown(d, &now, WLSEAL_FRAME_VSYNC);
	return 0;
}

/* dirty: tell the driver what changed in the buffer on screen. */
static bool flush_damage(struct drm *d, struct drm_fb *fb,
			 const pixman_region32_t *drawn)
{
	drmModeClip clips[DRM_MAX_CLIPS];
	const pixman_box32_t *boxes, *ext;
	int n = 0, i;

	if (drawn) {
		boxes = pixman_region32_rectangles((pixman_region32_t *)drawn, &n);
		if (n > DRM_MAX_CLIPS) {
			ext = pixman_region32_extents((pixman_region32_t *)drawn);
			boxes = ext;
			n = 1;
		}
		/* The scene clips damage to the output, whose size fits
		 * the 16-bit fields (KMS modes are at most 65535 wide). */
		for (i = 0; i < n; i++)
			clips[i] = (drmModeClip){
				(unsigned short)boxes[i].x1, (unsigned short)boxes[i].y1,
				(unsigned short)boxes[i].x2, (unsigned short)boxes[i].y2,
			};
	} else {
		clips[0] = (drmModeClip){ 0, 0, (unsigned short)d->base.width,
					  (unsigned short)d->base.height };
		n = 1;
	}
	/* Nothing drawn (a commit that only asked for a frame callback):
	 * nothing to transfer, the frame is still paced by the timer. */
	if (n && drmModeDirtyFB(d->fd, fb->fb_id, clips, (uint32_t)n)) {
		wlseal_log("drm: drmModeDirtyFB: %s", strerror(errno));
		return false;
	}
	return arm_vblank_timer(d);
}

static bool drm_present(struct wlseal_backend *b,
			const pixman_region32_t *drawn)
{
	struct drm *d = wl_container_of(b, d, base);
	struct drm_fb *fb = &d->fb[d->back];

	if (!d->crtc_set) {
		/* The first frame programs the CRTC: this mode, this
		 * framebuffer, on this connector. */
		if (drmModeSetCrtc(d->fd, d->crtc_id, fb->fb_id, 0, 0,
				   &d->conn_id, 1, &d->mode)) {
			wlseal_log("drm: drmModeSetCrtc: %s", strerror(errno));
			return false;
		}
		d->crtc_set = true;
		return wl_event_loop_add_idle(d->loop,
					      modeset_done, d) != NULL;
	}
	if (d->dirty)
		return flush_damage(d, fb, drawn);
	/* Later frames are flipped at vblank; the event tells us when. */
	if (drmModePageFlip(d->fd, d->crtc_id, fb->fb_id,
			    DRM_MODE_PAGE_FLIP_EVENT, d)) {
		wlseal_log("drm: drmModePageFlip: %s", strerror(errno));
		return false;
	}
	return true;
}

/* A slot for a new framebuffer: a free one, else the least recently
 * flipped that is neither shown nor flipping (there are at most two of
 * those in SCANOUT_CACHE slots). */
static struct scanout_fb *scanout_slot(struct drm *d)
{
	struct scanout_fb *pick = NULL;

	for (int i = 0; i < SCANOUT_CACHE; i++) {
		struct scanout_fb *f = &d->scanout[i];

		if (!f->key)
			return f;
		if (f != d->shown && f != d->flipping &&
		    (!pick || f->used < pick->used))
			pick = f;
	}
	if (pick)
		scanout_fb_destroy(d, pick);
	return pick;
}

/* The buffer's pages as a framebuffer: udmabuf, PRIME import, AddFB2. */
static enum wlseal_scanout_result
scanout_fb_create(struct drm *d, const struct wlseal_scanout *s,
		  struct scanout_fb *f, char *why, size_t why_len)
{
	uint32_t handles[4] = {0}, pitches[4] = {0}, offsets[4] = {0};
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t size = (uint64_t)s->stride * (uint64_t)s->height;
	struct udmabuf_create c = {
		.memfd = (uint32_t)s->fd,
		.flags = UDMABUF_FLAGS_CLOEXEC |
			 (s->write_sealed ? UDMABUF_FLAGS_READONLY : 0),
		.offset = s->offset,
		.size = (size + page - 1) / page * page,
	};
	int dmabuf, err;

	if (s->offset % page) {
		snprintf(why, why_len, "buffer offset %llu is not page-aligned",
			 (unsigned long long)s->offset);
		return WLSEAL_SCANOUT_NOT_THIS;
	}
	if (d->udmabuf < 0) {
		d->udmabuf = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
		if (d->udmabuf < 0) {
			snprintf(why, why_len, "/dev/udmabuf: %s", strerror(errno));
			return WLSEAL_SCANOUT_NEVER;
		}
	}
	/* udmabuf checks the file itself: a memfd (shmem or hugetlbfs),
	 * sealed against shrinking, the range inside it; the read-only
	 * mode also wants F_SEAL_WRITE and holds it while the pages are. */
	dmabuf = ioctl(d->udmabuf, UDMABUF_CREATE, &c);
	if (dmabuf < 0) {
		snprintf(why, why_len, "UDMABUF_CREATE%s (offset %llu, %llu bytes): %s",
			 s->write_sealed ? " read-only" : "",
			 (unsigned long long)c.offset,
			 (unsigned long long)c.size, strerror(errno));
		return WLSEAL_SCANOUT_NOT_THIS;
	}
	err = drmPrimeFDToHandle(d->fd, dmabuf, &f->handle);
	close(dmabuf);	/* the imported object holds the dma-buf */
	if (err) {
		/* A driver without PRIME import (virtio-gpu without
		 * kernel-patches/zero-copy) takes no buffer at all. */
		snprintf(why, why_len, "PRIME import: %s", strerror(errno));
		return errno == ENODEV || errno == EOPNOTSUPP || errno == ENOSYS ?
		       WLSEAL_SCANOUT_NEVER : WLSEAL_SCANOUT_NOT_THIS;
	}
	handles[0] = f->handle;
	pitches[0] = (uint32_t)s->stride;
	if (drmModeAddFB2(d->fd, (uint32_t)s->width, (uint32_t)s->height,
			  DRM_FORMAT_XRGB8888, handles, pitches, offsets,
			  &f->fb_id, 0)) {
		snprintf(why, why_len, "drmModeAddFB2 (pitch %d): %s",
			 s->stride, strerror(errno));
		drmCloseBufferHandle(d->fd, f->handle);
		return WLSEAL_SCANOUT_NOT_THIS;
	}
	/* --verbose: which mode udmabuf took the pages in (tests look). */
	wlseal_debug("drm: scanout framebuffer %u: %s udmabuf of %dx%d, pitch %d, offset %llu",
		     f->fb_id, s->write_sealed ? "read-only" : "writable",
		     s->width, s->height, s->stride,
		     (unsigned long long)s->offset);
	f->key = s->key;
	f->ops = s->ops;
	f->image = pixman_image_ref(s->image);
	f->busy = false;
	f->ops->ref(f->key);
	return WLSEAL_SCANOUT_DONE;
}

static enum wlseal_scanout_result
drm_scanout(struct wlseal_backend *b, const struct wlseal_scanout *s,
	    char *why, size_t why_len)
{
	struct drm *d = wl_container_of(b, d, base);
	struct scanout_fb *f = NULL;
	enum wlseal_scanout_result r;

	if (d->dirty) {
		snprintf(why, why_len, "WLSEAL_DRM_UPDATE=dirty keeps one buffer on the screen");
		return WLSEAL_SCANOUT_NEVER;
	}
	if (!d->crtc_set) {
		snprintf(why, why_len, "the first frame sets the mode");
		return WLSEAL_SCANOUT_NOT_NOW;
	}
	if (s->width != b->width || s->height != b->height) {
		snprintf(why, why_len, "buffer %dx%d is not the mode's %dx%d",
			 s->width, s->height, b->width, b->height);
		return WLSEAL_SCANOUT_NOT_THIS;
	}
	for (int i = 0; i < SCANOUT_CACHE && !f; i++)
		if (d->scanout[i].key == s->key)
			f = &d->scanout[i];
	if (!f) {
		f = scanout_slot(d);
		if (!f) {
			snprintf(why, why_len, "every framebuffer slot busy");
			return WLSEAL_SCANOUT_NOT_NOW;
		}
		r = scanout_fb_create(d, s, f, why, why_len);
		if (r != WLSEAL_SCANOUT_DONE)
			return r;
	}
	if (drmModePageFlip(d->fd, d->crtc_id, f->fb_id,
			    DRM_MODE_PAGE_FLIP_EVENT, d)) {
		snprintf(why, why_len, "drmModePageFlip: %s", strerror(errno));
		return WLSEAL_SCANOUT_NOT_NOW;
	}
	/* On virtio-gpu (kernel-patches/zero-copy) the flip event comes
	 * once the host took the frame from these pages. */
	f->used = d->seq + 1;
	d->flipping = f;
	if (!f->busy) {
		f->busy = true;
		f->ops->busy(f->key, true);
	}
	return WLSEAL_SCANOUT_DONE;
}

static void drm_destroy(struct wlseal_backend *b)
{
	struct drm *d = wl_container_of(b, d, base);

	wl_event_source_remove(d->source);
	if (d->timer)
		wl_event_source_remove(d->timer);
	if (d->timer_fd >= 0)
		close(d->timer_fd);
	if (d->saved_crtc) {
		/* Give the screen back to whoever had it (fbcon). */
		drmModeSetCrtc(d->fd, d->saved_crtc->crtc_id,
			       d->saved_crtc->buffer_id, d->saved_crtc->x,
			       d->saved_crtc->y, &d->conn_id, 1,
			       &d->saved_crtc->mode);
		drmModeFreeCrtc(d->saved_crtc);
	}
	/* The console's framebuffer is on the screen again: every
	 * client buffer can go. */
	d->shown = d->flipping = NULL;
	for (int i = 0; i < SCANOUT_CACHE; i++)
		if (d->scanout[i].key)
			scanout_fb_destroy(d, &d->scanout[i]);
	if (d->udmabuf >= 0)
		close(d->udmabuf);
	destroy_fb(d, &d->fb[0]);
	destroy_fb(d, &d->fb[1]);
	close(d->fd);
	free(d);
}

static const struct wlseal_backend_impl drm_impl = {
	.begin_frame = drm_begin_frame,
	.present = drm_present,
	.destroy = drm_destroy,
	.scanout = drm_scanout,
};

struct wlseal_backend *wlseal_backend_drm_create(struct wl_event_loop *loop,
						 const char *device,
						 int width, int height)
{
	struct drm *d = calloc(1, sizeof(*d));
	const char *update = getenv("WLSEAL_DRM_UPDATE");
	struct timespec now;
	uint64_t cap = 0;

	if (!d)
		return NULL;
	d->timer_fd = -1;
	d->udmabuf = -1;
	if (update && strcmp(update, "dirty") && strcmp(update, "flip")) {
		wlseal_log("drm: WLSEAL_DRM_UPDATE=%s: want flip or dirty", update);
		free(d);
		return NULL;
	}
	d->dirty = update && !strcmp(update, "dirty");
	d->fd = open(device, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		wlseal_log("drm: cannot open %s: %s", device, strerror(errno));
		free(d);
		return NULL;
	}
	/* Dumb buffers are the only thing we need from the driver. */
	if (drmGetCap(d->fd, DRM_CAP_DUMB_BUFFER, &cap) || !cap) {
		wlseal_log("drm: %s has no dumb buffers", device);
		goto fail;
	}
	d->monotonic = !drmGetCap(d->fd, DRM_CAP_TIMESTAMP_MONOTONIC, &cap) && cap;
	if (!find_output(d, width, height))
		goto fail;
	if (!create_fb(d, &d->fb[0]) || !create_fb(d, &d->fb[1]))
		goto fail;
	d->saved_crtc = drmModeGetCrtc(d->fd, d->crtc_id);
	d->loop = loop;
	d->source = wl_event_loop_add_fd(loop, d->fd, WL_EVENT_READABLE,
					 drm_readable, d);
	if (!d->source)
		goto fail;
	if (d->dirty) {
		d->timer_fd = timerfd_create(CLOCK_MONOTONIC,
					     TFD_CLOEXEC | TFD_NONBLOCK);
		if (d->timer_fd >= 0)
			d->timer = wl_event_loop_add_fd(loop, d->timer_fd,
							WL_EVENT_READABLE,
							vblank_tick, d);
		if (!d->timer) {
			wlseal_log("drm: no vblank timer: %s", strerror(errno));
			goto fail;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		d->epoch_ns = ts_to_ns(&now);
	}

	d->base.impl = &drm_impl;
	d->base.name = "drm";
	d->base.width = d->mode.hdisplay;
	d->base.height = d->mode.vdisplay;
	/* vrefresh is rounded to Hz; compute mHz from the pixel clock. */
	if (d->mode.htotal && d->mode.vtotal)
		d->base.refresh_mhz = (uint32_t)(((uint64_t)d->mode.clock * 1000000ull) /
			((uint64_t)d->mode.htotal * d->mode.vtotal));
	if (!d->base.refresh_mhz)
		d->base.refresh_mhz = d->mode.vrefresh ? d->mode.vrefresh * 1000 : 60000;
	d->base.refresh_nsec = (uint32_t)(1000000000000ull / d->base.refresh_mhz);
	wl_signal_init(&d->base.events.frame);
	wlseal_log("drm: %s connector %u crtc %u mode %dx%d@%u.%03u update %s",
		   device, d->conn_id, d->crtc_id, d->base.width,
		   d->base.height, d->base.refresh_mhz / 1000,
		   d->base.refresh_mhz % 1000, d->dirty ? "dirty" : "flip");
	return &d->base;
fail:
	if (d->timer)
		wl_event_source_remove(d->timer);
	if (d->source)
		wl_event_source_remove(d->source);
	if (d->timer_fd >= 0)
		close(d->timer_fd);
	destroy_fb(d, &d->fb[0]);
	destroy_fb(d, &d->fb[1]);
	close(d->fd);
	free(d);
	return NULL;
}
