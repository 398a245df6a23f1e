/* SPDX-License-Identifier: MIT */
/*
 * The guest's minimal KMS path, shared by wlseal-kmstest and
 * wlseal-textscreen: the first connected connector, two dumb buffers, a
 * mode set and page flips that wait for their events, and the screenshot
 * handshake with the host (scripts/run-vm).
 */
#ifndef WLSEAL_GUEST_KMS_H
#define WLSEAL_GUEST_KMS_H

#include <stdint.h>
#include <xf86drmMode.h>

struct dumb_fb {
	uint32_t handle, fb_id, stride;
	uint64_t size;
	void *map;
};

struct kms {
	const char *prog;	/* for messages */
	int fd;
	uint32_t conn_id, crtc_id;
	drmModeModeInfo mode;
	struct dumb_fb fb[2];
};

/* Opens DEVICE, picks the output (the mode of want_w x want_h when
 * non-zero, else the preferred one), creates both buffers (black) and
 * lights the CRTC with fb[0]. Exits with a message on any error. */
void kms_open(struct kms *k, const char *prog, const char *device,
	      uint32_t want_w, uint32_t want_h);

/*
 * FB from a dma-buf made elsewhere (a udmabuf of a sealed memfd): the
 * PRIME import of @dmabuf as an XRGB8888 framebuffer of the mode's size
 * with @stride. 0, or the errno of the import or of drmModeAddFB2 (the
 * kernel's refusal, for the caller to report). fb->map is left to the
 * caller.
 */
int kms_fb_import(struct kms *k, struct dumb_fb *fb, int dmabuf,
		  uint32_t stride);

/* Queue a flip to FB and block until its event arrives (exits after 5 s). */
void kms_flip_and_wait(struct kms *k, struct dumb_fb *fb);

/* Print 'WLSEAL-SCREENSHOT TAG WxH CRC' for FB and block until the host's
 * 'WLSEAL-ACK TAG' arrives on stdin, keeping the frame on screen. */
void kms_screenshot(struct kms *k, struct dumb_fb *fb, const char *tag);

/* Parse WxH (both > 0); returns 0 on success. */
int kms_parse_mode(const char *s, uint32_t *w, uint32_t *h);

void kms_close(struct kms *k);

#endif
