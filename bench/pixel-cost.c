/* SPDX-License-Identifier: MIT */
/*
 * wlseal-pixel-cost - what one output pixel costs pixman to draw, for
 * each way the scene samples a view: 1:1, scaled, turned 90 degrees,
 * with nearest and bilinear filtering, blended (OVER) and opaque (SRC).
 * Prints thread CPU time per pixel and the ratio to a 1:1 blend, the
 * unit of the overdraw budget (compositor/scene/render.c,
 * view_cost_weights, whose weights are these ratios rounded up).
 * A benchmark: it reports figures and checks none.
 */
#include <getopt.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SRC_W 250
#define SRC_H 190

enum sampling { ONE_TO_ONE, SCALED, TURNED, TURNED_SCALED };

struct pixel_case {
	const char *name;
	pixman_op_t op;
	enum sampling sampling;
	pixman_filter_t filter;
};

static const struct pixel_case cases[] = {
	{ "1:1 blend (the unit)", PIXMAN_OP_OVER, ONE_TO_ONE, PIXMAN_FILTER_NEAREST },
	{ "1:1 opaque", PIXMAN_OP_SRC, ONE_TO_ONE, PIXMAN_FILTER_NEAREST },
	{ "scaled nearest, blend", PIXMAN_OP_OVER, SCALED, PIXMAN_FILTER_NEAREST },
	{ "scaled nearest, opaque", PIXMAN_OP_SRC, SCALED, PIXMAN_FILTER_NEAREST },
	{ "turned 90 nearest, blend", PIXMAN_OP_OVER, TURNED, PIXMAN_FILTER_NEAREST },
	{ "turned 90 nearest, opaque", PIXMAN_OP_SRC, TURNED, PIXMAN_FILTER_NEAREST },
	{ "scaled bilinear, blend", PIXMAN_OP_OVER, SCALED, PIXMAN_FILTER_BILINEAR },
	{ "scaled bilinear, opaque", PIXMAN_OP_SRC, SCALED, PIXMAN_FILTER_BILINEAR },
	{ "turned+scaled bilinear, blend", PIXMAN_OP_OVER, TURNED_SCALED, PIXMAN_FILTER_BILINEAR },
	{ "turned+scaled bilinear, opaque", PIXMAN_OP_SRC, TURNED_SCALED, PIXMAN_FILTER_BILINEAR },
};

static double thread_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The transform from output to image pixels for @s, drawing an
 * @sw x @sh image over a @w x @h output. */
static void sampling_transform(enum sampling s, int w, int h, int sw, int sh,
			       pixman_transform_t *t)
{
	double ax, ay;

	pixman_transform_init_identity(t);
	switch (s) {
	case ONE_TO_ONE:
		break;
	case SCALED:
		ax = (sw - 1.25) / w;
		ay = (sh - 1.5) / h;
		t->matrix[0][0] = pixman_double_to_fixed(ax);
		t->matrix[1][1] = pixman_double_to_fixed(ay);
		t->matrix[0][2] = pixman_double_to_fixed(0.5);
		t->matrix[1][2] = pixman_double_to_fixed(0.75);
		break;
	case TURNED:
	case TURNED_SCALED:
		ax = s == TURNED ? 1.0 : (sh - 1.25) / w;
		ay = s == TURNED ? 1.0 : (sw - 1.5) / h;
		t->matrix[0][0] = 0;
		t->matrix[0][1] = -pixman_double_to_fixed(ay);
		t->matrix[0][2] = pixman_int_to_fixed(sw - 1);
		t->matrix[1][0] = pixman_double_to_fixed(ax);
		t->matrix[1][1] = 0;
		break;
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wlseal-pixel-cost [--size WxH] [--repeat N]\n"
		"Prints the thread CPU time pixman takes per output pixel for each way\n"
		"the scene samples a view, and its ratio to a 1:1 blend.\n"
		"  --size WxH   the output drawn over (default 640x480)\n"
		"  --repeat N   composites per case (default 20)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int w = 640, h = 480, repeat = 20, c;
	double unit = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (sscanf(optarg, "%dx%d", &w, &h) != 2 || w < 1 ||
			    h < 1 || w > 16384 || h > 16384) {
				fprintf(stderr, "wlseal-pixel-cost: --size %s: want WxH, each 1..16384\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			repeat = atoi(optarg);
			if (repeat < 1) {
				fprintf(stderr, "wlseal-pixel-cost: --repeat %s: want a positive count\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	pixman_image_t *dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, w, h,
							NULL, 0);
	pixman_image_t *full = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h,
							 NULL, 0);
	pixman_image_t *small = pixman_image_create_bits(PIXMAN_a8r8g8b8, SRC_W,
							  SRC_H, NULL, 0);

	if (!dst || !full || !small) {
		fprintf(stderr, "wlseal-pixel-cost: out of memory for %dx%d images\n",
			w, h);
		return 1;
	}
	for (int i = 0; i < w * h; i++)
		pixman_image_get_data(full)[i] = 0x80406080;
	for (int i = 0; i < SRC_W * SRC_H; i++)
		pixman_image_get_data(small)[i] = 0x80406080;

	printf("%dx%d output, %d composites a case, thread CPU\n", w, h, repeat);
	printf("%-32s %10s %8s\n", "how a pixel is drawn", "ns/pixel", "ratio");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct pixel_case *pc = &cases[k];
		/* 1:1 and a plain turn read an image of the output's size
		 * (a turn of a square would do too); scaling reads a
		 * small one, as a fractional viewport does. */
		bool big = pc->sampling == ONE_TO_ONE || pc->sampling == TURNED;
		pixman_image_t *src = big ? full : small;
		pixman_transform_t t;
		double t0, ns;

		sampling_transform(pc->sampling, w, h, big ? w : SRC_W,
				   big ? h : SRC_H, &t);
		pixman_image_set_transform(src, &t);
		pixman_image_set_filter(src, pc->filter, NULL, 0);
		pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD);
		t0 = thread_seconds();
		for (int r = 0; r < repeat; r++)
			pixman_image_composite32(pc->op, src, NULL, dst, 0, 0, 0,
						 0, 0, 0, w, h);
		ns = (thread_seconds() - t0) / repeat / ((double)w * h) * 1e9;
		if (k == 0)
			unit = ns;
		printf("%-32s %10.2f %8.1f\n", pc->name, ns, ns / unit);
		pixman_image_set_transform(src, NULL);
	}
	pixman_image_unref(dst);
	pixman_image_unref(full);
	pixman_image_unref(small);
	return 0;
}
