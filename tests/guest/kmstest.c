/* SPDX-License-Identifier: MIT */
/*
 * wlseal-kmstest: the display path's regression test. It drives virtio-gpu
 * the way the compositor's DRM backend will: find a connected connector,
 * allocate two dumb buffers, light the CRTC with the first (black), then
 * page-flip twice with events so the pattern ends up on screen only if both
 * flips really completed. Then it asks the host for a screenshot and waits
 * for the acknowledgement on stdin, keeping the frame on screen until then.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "pattern.h"
#include "wlseal-frame-crc.h"

struct dumb_fb {
	uint32_t handle, fb_id, stride;
	uint64_t size;
	void *map;
};

struct kms {
	int fd;
	uint32_t conn_id, crtc_id;
	drmModeModeInfo mode;
	drmModeCrtc *saved_crtc;
	struct dumb_fb fb[2];
};

static void die(const char *what, int err)
{
	fprintf(stderr, "wlseal-kmstest: %s: %s\n", what, strerror(err));
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
			fprintf(stderr, "wlseal-kmstest: connector %u has no %ux%u mode\n",
				c->connector_id, want_w, want_h);
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
		fprintf(stderr, "wlseal-kmstest: no connected connector with a CRTC\n");
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

/* Queue a flip and block until its event arrives (or 5 s pass: an error). */
static void flip_and_wait(struct kms *k, struct dumb_fb *fb)
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
			fprintf(stderr, "wlseal-kmstest: page flip event did not arrive\n");
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
	fprintf(stderr, "wlseal-kmstest: stdin closed before the host acknowledged\n");
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wlseal-kmstest [--device PATH] [--mode WxH] [--tag NAME] [--no-wait]\n"
		"Draw the wlseal test pattern on the first connected output with\n"
		"two page flips, print 'WLSEAL-SCREENSHOT TAG WxH CRC32' and keep it\n"
		"on screen until a line 'WLSEAL-ACK TAG' arrives on stdin.\n"
		"  --device PATH  DRM device (default /dev/dri/card0)\n"
		"  --mode WxH     use the connector's mode of that size (default: preferred)\n"
		"  --tag NAME     screenshot tag (default kms-pattern)\n"
		"  --no-wait      exit right after the second flip\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "tag", required_argument, NULL, 't' },
		{ "no-wait", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *device = "/dev/dri/card0", *tag = "kms-pattern";
	bool wait = true;
	struct kms k = { 0 };
	uint32_t want_w = 0, want_h = 0;
	int c;

	while ((c = getopt_long(argc, argv, "d:m:t:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': device = optarg; break;
		case 'm':
			if (sscanf(optarg, "%ux%u", &want_w, &want_h) != 2 || !want_w || !want_h) {
				fprintf(stderr, "wlseal-kmstest: bad --mode '%s', expected WxH\n", optarg);
				return 2;
			}
			break;
		case 't': tag = optarg; break;
		case 'n': wait = false; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}

	k.fd = open(device, O_RDWR | O_CLOEXEC);
	if (k.fd < 0)
		die(device, errno);
	find_output(&k, want_w, want_h);
	create_fb(&k, &k.fb[0]);
	create_fb(&k, &k.fb[1]);
	printf("wlseal-kmstest: connector %u crtc %u mode %ux%u@%u\n", k.conn_id,
	       k.crtc_id, k.mode.hdisplay, k.mode.vdisplay, k.mode.vrefresh);

	/* Light the output with the black buffer first ... */
	k.saved_crtc = drmModeGetCrtc(k.fd, k.crtc_id);
	if (drmModeSetCrtc(k.fd, k.crtc_id, k.fb[0].fb_id, 0, 0, &k.conn_id, 1, &k.mode))
		die("drmModeSetCrtc", errno);

	/* ... then flip to the pattern, back to black, and to the pattern
	 * again: the host sees the pattern only if every flip completed. */
	wlseal_pattern_fill(k.fb[1].map, k.mode.hdisplay, k.mode.vdisplay, k.fb[1].stride);
	flip_and_wait(&k, &k.fb[1]);
	flip_and_wait(&k, &k.fb[0]);
	flip_and_wait(&k, &k.fb[1]);
	printf("wlseal-kmstest: flips done\n");
	fflush(stdout);

	if (wait)
		wait_for_screenshot(tag, k.mode.hdisplay, k.mode.vdisplay, wlseal_frame_crc(k.fb[1].map, k.mode.hdisplay, k.mode.vdisplay, k.fb[1].stride));
	drmModeFreeCrtc(k.saved_crtc);
	close(k.fd);
	return 0;
}
