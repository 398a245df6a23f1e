/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - deterministic frames; see pattern.h. Integer arithmetic
 * only, so every build and every machine computes the same pixels.
 */
#include <stddef.h>

#include "pattern.h"

static int32_t min32(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

struct wlseal_rect wlseal_pattern_square(uint32_t frame, int32_t width,
					 int32_t height)
{
	struct wlseal_rect r;
	int32_t span_x = width - WLSEAL_PATTERN_SQUARE;
	int32_t span_y = height - WLSEAL_PATTERN_SQUARE;

	/* Moves right by 8 and down by 5 pixels per frame, wrapping. */
	r.x = span_x > 0 ? (int32_t)((frame * 8u) % (uint32_t)span_x) : 0;
	r.y = span_y > 0 ? (int32_t)((frame * 5u) % (uint32_t)span_y) : 0;
	r.width = min32(WLSEAL_PATTERN_SQUARE, width);
	r.height = min32(WLSEAL_PATTERN_SQUARE, height);
	return r;
}

static uint32_t square_color(uint32_t frame)
{
	return 0xff000000u | ((frame * 37u) & 0xffu) << 16 |
	       ((frame * 91u + 64u) & 0xffu) << 8 | 0xe0u;
}

static uint32_t gradient(int32_t width, int32_t height, int32_t x, int32_t y)
{
	uint32_t r = width > 1 ? (uint32_t)(x * 255 / (width - 1)) : 0;
	uint32_t g = height > 1 ? (uint32_t)(y * 255 / (height - 1)) : 0;

	return 0xff000000u | r << 16 | g << 8 | 0x80u;
}

uint32_t wlseal_pattern_pixel(uint32_t frame, int32_t width, int32_t height,
			      int32_t x, int32_t y)
{
	struct wlseal_rect sq;

	/* The counter, most significant bit first, on top of everything. */
	if (y < WLSEAL_PATTERN_CELL_H &&
	    x < WLSEAL_PATTERN_CELL_W * WLSEAL_PATTERN_BITS) {
		int bit = WLSEAL_PATTERN_BITS - 1 - x / WLSEAL_PATTERN_CELL_W;

		return (frame >> bit) & 1 ? 0xffffffffu : 0xff000000u;
	}
	sq = wlseal_pattern_square(frame, width, height);
	if (x >= sq.x && x < sq.x + sq.width && y >= sq.y && y < sq.y + sq.height)
		return square_color(frame);
	return gradient(width, height, x, y);
}

void wlseal_pattern_fill(void *data, int32_t stride, int32_t width,
			 int32_t height, uint32_t frame)
{
	int32_t x, y;

	for (y = 0; y < height; y++) {
		uint32_t *row = (uint32_t *)((char *)data + (size_t)y * (size_t)stride);

		for (x = 0; x < width; x++)
			row[x] = wlseal_pattern_pixel(frame, width, height, x, y);
	}
}

int wlseal_pattern_damage(uint32_t frame, int32_t width, int32_t height,
			  struct wlseal_rect out[3])
{
	out[0] = (struct wlseal_rect){
		0, 0, min32(WLSEAL_PATTERN_CELL_W * WLSEAL_PATTERN_BITS, width),
		min32(WLSEAL_PATTERN_CELL_H, height)
	};
	out[1] = wlseal_pattern_square(frame ? frame - 1 : 0, width, height);
	out[2] = wlseal_pattern_square(frame, width, height);
	return 3;
}
