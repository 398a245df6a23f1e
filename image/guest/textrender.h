/* SPDX-License-Identifier: MIT */
/*
 * Text into an XRGB8888 image with wlseal's own 5x7 font (font.h), for
 * wlseal-textscreen. No fbcon: the caller owns the pixels, so the frame
 * checksum it prints is the frame it flips.
 */
#ifndef WLSEAL_GUEST_TEXTRENDER_H
#define WLSEAL_GUEST_TEXTRENDER_H

#include <stddef.h>
#include <stdint.h>

#define WLSEAL_TEXT_BG 0x00101c2cu
#define WLSEAL_TEXT_FG 0x00e8e8e8u
#define WLSEAL_TEXT_MARGIN 16u

struct text_layout {
	uint32_t cols, rows;		/* cells that fit */
	uint32_t lines_clipped;		/* lines below the last row */
	uint32_t chars_clipped;		/* characters right of the last column */
};

/* Draw TEXT (LEN bytes, '\n' separated lines, tabs every 8 columns) at
 * SCALE (>= 1) on a WIDTH x HEIGHT image with STRIDE bytes per row, after
 * filling it with the background. What does not fit is clipped and
 * counted in *layout. */
void wlseal_text_render(void *pixels, uint32_t width, uint32_t height,
			uint32_t stride, uint32_t scale, const char *text,
			size_t len, struct text_layout *layout);

#endif
