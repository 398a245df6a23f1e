/* SPDX-License-Identifier: MIT */
/*
 * pattern.h - the frames wlseal-client draws, as a pure function of the
 * frame number and the window size, so that tests can compute every
 * pixel the compositor must show.
 *
 * A frame is a static gradient, a 64x64 square that moves each frame, and
 * a 32-cell binary counter of the frame number in the top-left corner.
 * Between two frames only the old square, the new square and the counter
 * change: wlseal_pattern_damage() lists those rectangles, which is what
 * the client damages (and what a damage-tracking compositor repaints).
 */
#ifndef WLSEAL_PATTERN_H
#define WLSEAL_PATTERN_H

#include <stdint.h>

#define WLSEAL_PATTERN_SQUARE 64
#define WLSEAL_PATTERN_CELL_W 4
#define WLSEAL_PATTERN_CELL_H 8
#define WLSEAL_PATTERN_BITS 32

struct wlseal_rect {
	int32_t x, y, width, height;
};

/* The XRGB8888 (top byte 0xff) value of pixel x, y of frame @frame. */
uint32_t wlseal_pattern_pixel(uint32_t frame, int32_t width, int32_t height,
			      int32_t x, int32_t y);

/* Draws frame @frame into @data (XRGB8888, @stride bytes per row). */
void wlseal_pattern_fill(void *data, int32_t stride, int32_t width,
			 int32_t height, uint32_t frame);

/* The square of frame @frame (clipped to the window). */
struct wlseal_rect wlseal_pattern_square(uint32_t frame, int32_t width,
					 int32_t height);

/* Rectangles that may differ between frame - 1 and @frame at the same
 * size; returns how many were written to @out (at most 3). */
int wlseal_pattern_damage(uint32_t frame, int32_t width, int32_t height,
			  struct wlseal_rect out[3]);

#endif
