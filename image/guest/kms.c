/* SPDX-License-Identifier: MIT */
/*
 * The guest's minimal KMS path (see kms.h): it drives virtio-gpu the way
 * the compositor's DRM backend does.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include "kms.h"
#include "wlseal-frame-crc.h"

static const char *prog = "wlseal-kms";

static void die(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(err));
	exit(1);
}

/*
 * A connector is usable when a monitor is attached and it has a mode. The
 * mode is the one of the requested size (want_w x want_h) when given,
 * else the first, preferred one (QEMU puts xres x yres there; a QEMU GTK
 * window may change it to its own size). Its current encoder's CRTC is
 * reused, otherwise the first CRTC the encoder can drive.
 */
static bool pick_mode(drmModeConnector *c, uint32_t want_w, uint32_t want_h,
		      drmModeModeInfo *mode)
{
	if (!want_w) {
		*mode = c->modes[0];
		return true;
	}
	for (int i = 0; i < c->count_modes; i++) {
		if (c->modes[i].hdisplay == want_w && c->modes[i].vdisplay == want_h) {
			*mode = c->modes[i];
			return true;
		}
	}
	return false;
}

static void find_output(struct kms *k, uint32_t want_w, uint32_t want_h)
{
	drmModeRes *res = drmModeGetResources(k->fd);

	if (!res)
		die("drmModeGetResources", errno);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(k->fd, res->connectors[i]);
		drmModeEncoder *enc;

		if (!c)
			continue;
		if (c->connection != DRM_MODE_CONNECTED || c->count_modes == 0) {
			drmModeFreeConnector(c);
			continue;
		}
		if (!pick_mode(c, want_w, want_h, &k->mode)) {
			fprintf(stderr, "%s: connector %u has no %ux%u mode\n",
				prog, c->connector_id, want_w, want_h);
			drmModeFreeConnector(c);
			continue;
		}
		k->conn_id = c->connector_id;
		enc = drmModeGetEncoder(k->fd, c->encoder_id ? c->encoder_id : c->encoders[0]);
		if (enc && enc->crtc_id) {
			k->crtc_id = enc->crtc_id;
		} else if (enc) {
			for (int j = 0; j < res->count_crtcs; j++)
				if (enc->possible_crtcs & (1u << j)) {
					k->crtc_id = res->crtcs[j];
					break;
				}
		}
		drmModeFreeEncoder(enc);
		drmModeFreeConnector(c);
		if (k->crtc_id)
			break;
	}
	drmModeFreeResources(res);
	if (!k->crtc_id) {
		fprintf(stderr, "%s: no connected connector with a CRTC\n", prog);
		exit(1);
	}
}

/* Dumb buffers: CPU-mapped memory the display engine can scan out. */
static void create_fb(struct kms *k, struct dumb_fb *fb)
{
	struct drm_mode_create_dumb create = {
		.width = k->mode.hdisplay, .height = k->mode.vdisplay, .bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };

	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		die("DRM_IOCTL_MODE_CREATE_DUMB", errno);
	fb->handle = create.handle;
	fb->stride = create.pitch;
	fb->size = create.size;
	if (drmModeAddFB(k->fd, create.width, create.height, 24, 32, fb->stride,
			 fb->handle, &fb->fb_id))
		die("drmModeAddFB", errno);
	map.handle = fb->handle;
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		die("DRM_IOCTL_MODE_MAP_DUMB", errno);
	fb->map = mmap(NULL, fb->size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, map.offset);
	if (fb->map == MAP_FAILED)
		die("mmap dumb buffer", errno);
	memset(fb->map, 0, fb->size);
}

static void flip_done(int fd, unsigned int seq, unsigned int sec,
		      unsigned int usec, void *data)
{
	(void)fd;
	(void)seq;
	(void)sec;
	(void)usec;
	*(bool *)data = true;
}

int kms_fb_import(struct kms *k, struct dumb_fb *fb, int dmabuf,
		  uint32_t stride)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { stride }, offsets[4] = { 0 };

	if (drmPrimeFDToHandle(k->fd, dmabuf, &fb->handle))
		return errno;
	handles[0] = fb->handle;
	fb->stride = stride;
	if (drmModeAddFB2(k->fd, k->mode.hdisplay, k->mode.vdisplay,
			  DRM_FORMAT_XRGB8888, handles, pitches, offsets,
			  &fb->fb_id, 0))
		return errno;
	return 0;
}

/* Queue a flip and block until its event arrives (or 5 s pass: an error). */
void kms_flip_and_wait(struct kms *k, struct dumb_fb *fb)
{
	drmEventContext ev = {
		.version = 2,
		.page_flip_handler = flip_done,
	};
	struct pollfd pfd = { .fd = k->fd, .events = POLLIN };
	bool done = false;

	if (drmModePageFlip(k->fd, k->crtc_id, fb->fb_id, DRM_MODE_PAGE_FLIP_EVENT, &done))
		die("drmModePageFlip", errno);
	while (!done) {
		int n = poll(&pfd, 1, 5000);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "%s: page flip event did not arrive\n", prog);
			exit(1);
		}
		drmHandleEvent(k->fd, &ev);
	}
}

/* Tell the host which frame is on screen; keep it there until acknowledged. */
static void wait_for_screenshot(const char *tag, uint32_t w, uint32_t h, uint32_t crc)
{
	char line[256];
	char want[128];

	printf("WLSEAL-SCREENSHOT %s %ux%u %08x\n", tag, w, h, crc);
	fflush(stdout);
	snprintf(want, sizeof(want), "WLSEAL-ACK %s", tag);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, want, strlen(want)))
			return;
	}
	fprintf(stderr, "%s: stdin closed before the host acknowledged\n", prog);
	exit(1);
}

void kms_screenshot(struct kms *k, struct dumb_fb *fb, const char *tag)
{
	uint32_t w = k->mode.hdisplay, h = k->mode.vdisplay;

	wait_for_screenshot(tag, w, h, wlseal_frame_crc(fb->map, w, h, fb->stride));
}

int kms_parse_mode(const char *s, uint32_t *w, uint32_t *h)
{
	char extra;

	if (sscanf(s, "%ux%u%c", w, h, &extra) != 2 || !*w || !*h || *w > 16384 || *h > 16384)
		return -1;
	return 0;
}

void kms_open(struct kms *k, const char *name, const char *device,
	      uint32_t want_w, uint32_t want_h)
{
	prog = name;
	k->prog = name;
	k->fd = open(device, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		die(device, errno);
	find_output(k, want_w, want_h);
	create_fb(k, &k->fb[0]);
	create_fb(k, &k->fb[1]);
	printf("%s: connector %u crtc %u mode %ux%u@%u\n", prog, k->conn_id,
	       k->crtc_id, k->mode.hdisplay, k->mode.vdisplay, k->mode.vrefresh);
	if (drmModeSetCrtc(k->fd, k->crtc_id, k->fb[0].fb_id, 0, 0, &k->conn_id, 1, &k->mode))
		die("drmModeSetCrtc", errno);
}

void kms_close(struct kms *k)
{
	close(k->fd);
}
