/* SPDX-License-Identifier: MIT */
/*
 * wlseal-kmstest: the display path's regression test. It drives virtio-gpu
 * the way the compositor's DRM backend will: find a connected connector,
 * allocate two dumb buffers, light the CRTC with the first (black), then
 * page-flip twice with events so the pattern ends up on screen only if both
 * flips really completed. Then it asks the host for a screenshot and waits
 * for the acknowledgement on stdin, keeping the frame on screen until then.
 *
 * With --zero-copy the pattern is not in a dumb buffer but in a
 * write-sealed memfd, scanned out through a read-only udmabuf and
 * virtio-gpu's PRIME import (sealed-fb.c): the screenshot then shows the
 * memfd's own pages, which nothing in the guest copied.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "kms.h"
#include "pattern.h"
#include "sealed-fb.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wlseal-kmstest [--device PATH] [--mode WxH] [--tag NAME] [--zero-copy] [--no-wait]\n"
		"Draw the wlseal test pattern on the first connected output with\n"
		"two page flips, print 'WLSEAL-SCREENSHOT TAG WxH CRC32' and keep it\n"
		"on screen until a line 'WLSEAL-ACK TAG' arrives on stdin.\n"
		"  --device PATH  DRM device (default /dev/dri/card0)\n"
		"  --mode WxH     use the connector's mode of that size (default: preferred)\n"
		"  --tag NAME     screenshot tag (default kms-pattern)\n"
		"  --zero-copy    the pattern in a write-sealed memfd, scanned out through\n"
		"                 a read-only udmabuf (needs kernel-patches/zero-copy)\n"
		"  --no-wait      exit right after the second flip\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "tag", required_argument, NULL, 't' },
		{ "no-wait", no_argument, NULL, 'n' },
		{ "zero-copy", no_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *device = "/dev/dri/card0", *tag = "kms-pattern";
	bool wait = true, zero_copy = false;
	struct sealed_fb sealed;
	struct dumb_fb *pattern;
	struct kms k = { 0 };
	uint32_t want_w = 0, want_h = 0;
	int c;

	while ((c = getopt_long(argc, argv, "d:m:t:nzh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': device = optarg; break;
		case 'm':
			if (kms_parse_mode(optarg, &want_w, &want_h)) {
				fprintf(stderr, "wlseal-kmstest: bad --mode '%s', expected WxH\n", optarg);
				return 2;
			}
			break;
		case 't': tag = optarg; break;
		case 'n': wait = false; break;
		case 'z': zero_copy = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}

	kms_open(&k, "wlseal-kmstest", device, want_w, want_h);

	/* The output is lit with the black buffer; flip to the pattern, back
	 * to black, and to the pattern again: the host sees the pattern only
	 * if every flip completed. */
	if (zero_copy) {
		if (sealed_fb_create(&k, &sealed) < 0) {
			fprintf(stderr, "wlseal-kmstest: zero-copy: %s\n", sealed.error);
			return 1;
		}
		printf("wlseal-kmstest: zero-copy: %zu-byte memfd sealed SHRINK|GROW|WRITE|SEAL, read-only udmabuf, framebuffer %u (default-mode udmabuf and pitch %u refused)\n",
		       sealed.size, sealed.fb.fb_id, sealed.stride + 64);
		pattern = &sealed.fb;
	} else {
		wlseal_pattern_fill(k.fb[1].map, k.mode.hdisplay, k.mode.vdisplay, k.fb[1].stride);
		pattern = &k.fb[1];
	}
	kms_flip_and_wait(&k, pattern);
	kms_flip_and_wait(&k, &k.fb[0]);
	kms_flip_and_wait(&k, pattern);
	printf("wlseal-kmstest: flips done\n");
	fflush(stdout);

	if (wait)
		kms_screenshot(&k, pattern, tag);
	kms_close(&k);
	return 0;
}
