/* SPDX-License-Identifier: MIT */
/*
 * wlseal-textscreen: a screen of text on the first connected output, drawn
 * into a KMS dumb buffer by this program (wlseal's own bitmap font), not by
 * fbcon: fbcon flushes through a deferred damage worker, so a host
 * screendump could come before the text is there. Here the frame is
 * complete before the flip, its checksum is printed with the screenshot
 * request ('WLSEAL-SCREENSHOT TAG WxH CRC'), and the host verifies the
 * screendump against it (scripts/run-vm).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kms.h"
#include "textrender.h"

#define MAX_TEXT (64 * 1024)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wlseal-textscreen --file PATH [--tag NAME] [--device PATH] [--mode WxH]\n"
		"                         [--scale N] [--no-wait]\n"
		"Draw the text of PATH (at most 64 KiB) with a built-in 5x7 font into a\n"
		"dumb buffer, flip it onto the first connected output, print\n"
		"'WLSEAL-SCREENSHOT TAG WxH CRC32' and keep it on screen until a line\n"
		"'WLSEAL-ACK TAG' arrives on stdin.\n"
		"  --file PATH    the text ('-': stdin, only with --no-wait)\n"
		"  --tag NAME     screenshot tag (default text)\n"
		"  --device PATH  DRM device (default /dev/dri/card0)\n"
		"  --mode WxH     use the connector's mode of that size (default: preferred)\n"
		"  --scale N      pixels per font pixel, 1..8 (default 2)\n"
		"  --no-wait      exit right after the flip\n");
}

static size_t read_text(const char *path, char *buf, size_t size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t n;

	if (!f) {
		fprintf(stderr, "wlseal-textscreen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	n = fread(buf, 1, size, f);
	if (ferror(f)) {
		fprintf(stderr, "wlseal-textscreen: reading %s failed\n", path);
		exit(1);
	}
	if (n == size && fgetc(f) != EOF) {
		fprintf(stderr, "wlseal-textscreen: %s is larger than %zu bytes\n", path, size);
		exit(1);
	}
	if (f != stdin)
		fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "tag", required_argument, NULL, 't' },
		{ "device", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "scale", required_argument, NULL, 's' },
		{ "no-wait", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *device = "/dev/dri/card0", *tag = "text", *file = NULL;
	static char text[MAX_TEXT];
	struct text_layout layout;
	struct kms k = { 0 };
	uint32_t want_w = 0, want_h = 0;
	unsigned long scale = 2;
	bool wait = true;
	char *end;
	size_t len;
	int c;

	while ((c = getopt_long(argc, argv, "f:t:d:m:s:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': file = optarg; break;
		case 't': tag = optarg; break;
		case 'd': device = optarg; break;
		case 'm':
			if (kms_parse_mode(optarg, &want_w, &want_h)) {
				fprintf(stderr, "wlseal-textscreen: bad --mode '%s', expected WxH\n", optarg);
				return 2;
			}
			break;
		case 's':
			errno = 0;
			scale = strtoul(optarg, &end, 10);
			if (errno || *end || scale < 1 || scale > 8) {
				fprintf(stderr, "wlseal-textscreen: bad --scale '%s', expected 1..8\n", optarg);
				return 2;
			}
			break;
		case 'n': wait = false; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !file) {
		fprintf(stderr, "wlseal-textscreen: %s\n", file ? "unexpected argument" : "--file is required");
		usage(stderr);
		return 2;
	}
	if (!strcmp(file, "-") && wait) {
		fprintf(stderr, "wlseal-textscreen: --file - needs --no-wait (stdin carries the host's acknowledgement)\n");
		return 2;
	}
	len = read_text(file, text, sizeof(text));

	kms_open(&k, "wlseal-textscreen", device, want_w, want_h);
	wlseal_text_render(k.fb[1].map, k.mode.hdisplay, k.mode.vdisplay, k.fb[1].stride,
			   (uint32_t)scale, text, len, &layout);
	if (layout.lines_clipped || layout.chars_clipped)
		fprintf(stderr, "wlseal-textscreen: %u lines and %u characters did not fit in %ux%u cells\n",
			layout.lines_clipped, layout.chars_clipped, layout.cols, layout.rows);
	kms_flip_and_wait(&k, &k.fb[1]);
	printf("wlseal-textscreen: %zu bytes of text on screen\n", len);
	fflush(stdout);
	if (wait)
		kms_screenshot(&k, &k.fb[1], tag);
	kms_close(&k);
	return 0;
}
