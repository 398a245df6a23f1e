/* SPDX-License-Identifier: MIT */
#include "pattern.h"

#include <stddef.h>

/*
 * Eight colour bars over the top two thirds, a grey ramp and a red/green
 * ramp below, a one-pixel white frame and a checkerboard square in each
 * corner. Every region depends on the size, so a wrong resolution, a
 * shifted scanout or a swapped channel all show up as differing pixels.
 */
static const uint32_t bars[8] = {
	0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
	0xff00ff, 0xff0000, 0x0000ff, 0x000000,
};

uint32_t wlseal_pattern_pixel(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	uint32_t corner = (w < h ? w : h) / 8;
	uint32_t v;

	if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
		return 0xffffff;

	if ((x < corner || x >= w - corner) && (y < corner || y >= h - corner))
		return ((x / 8 + y / 8) & 1) ? 0xffffff : 0x000000;

	if (y < h * 2 / 3)
		return bars[(uint64_t)x * 8 / w];

	if (y < h * 5 / 6) {
		v = (uint32_t)((uint64_t)x * 255 / (w - 1));
		return v << 16 | v << 8 | v;
	}
	v = (uint32_t)((uint64_t)x * 255 / (w - 1));
	return v << 16 | (255 - v) << 8 | (y & 0x3f);
}

void wlseal_pattern_fill(void *pixels, uint32_t width, uint32_t height,
			 uint32_t stride)
{
	for (uint32_t y = 0; y < height; y++) {
		uint32_t *row = (uint32_t *)((char *)pixels + (size_t)y * stride);

		for (uint32_t x = 0; x < width; x++)
			row[x] = wlseal_pattern_pixel(x, y, width, height);
	}
}
