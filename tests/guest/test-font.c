/* SPDX-License-Identifier: MIT */
/*
 * Host test of wlseal-textscreen's font and text layout: every printable
 * glyph but space has pixels inside its 5x8 box and differs from every
 * other one (a copy-paste slip in the table shows up here); rendering puts
 * exactly the glyph's pixels, scaled, at the first cell; text that does
 * not fit is clipped and counted, never written outside the image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"
#include "textrender.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { failures++; printf("not ok - "); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

int main(void)
{
	const uint32_t w = 200, h = 100, stride = w * 4 + 16;
	uint8_t *img = malloc((size_t)stride * (h + 1));
	struct text_layout l;

	if (!img)
		return 1;
	for (int c = 0x21; c <= 0x7e; c++) {
		const uint8_t *g = wlseal_font_glyph((unsigned char)c);
		int bits = 0;

		for (int r = 0; r < WLSEAL_FONT_H; r++) {
			CHECK(!(g[r] & ~0x1f), "glyph '%c' row %d is wider than 5 pixels", c, r);
			bits |= g[r];
		}
		CHECK(bits, "glyph '%c' is empty", c);
		for (int d = 0x20; d < c; d++)
			CHECK(memcmp(g, wlseal_font_glyph((unsigned char)d), WLSEAL_FONT_H),
			      "glyphs '%c' and '%c' are identical", d, c);
	}
	CHECK(wlseal_font_glyph(0x01) == wlseal_font_glyph('?'), "a control character is not drawn as '?'");

	/* 'A' at scale 2: each lit font pixel is a 2x2 block at the margin. */
	memset(img, 0xaa, (size_t)stride * (h + 1));
	wlseal_text_render(img, w, h, stride, 2, "A", 1, &l);
	{
		const uint8_t *g = wlseal_font_glyph('A');
		int lit = 0, expect = 0;

		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				uint32_t px = ((uint32_t *)(img + (size_t)y * stride))[x];
				uint32_t fx = (x - WLSEAL_TEXT_MARGIN) / 2, fy = (y - WLSEAL_TEXT_MARGIN) / 2;
				int want = x >= WLSEAL_TEXT_MARGIN && y >= WLSEAL_TEXT_MARGIN &&
					   fx < WLSEAL_FONT_W && fy < WLSEAL_FONT_H &&
					   (g[fy] & (0x10u >> fx));

				lit += px == WLSEAL_TEXT_FG;
				expect += want;
				CHECK(px == (want ? WLSEAL_TEXT_FG : WLSEAL_TEXT_BG),
				      "pixel (%u, %u) is %08x", x, y, px);
				if (failures > 5)
					return 1;
			}
		CHECK(lit == expect && lit > 0, "'A' lit %d pixels, expected %d", lit, expect);
	}
	CHECK(img[(size_t)stride * h] == 0xaa, "wrote below the image");

	/* Clipping: (200 - 32) / 12 = 14 columns, (100 - 32) / 20 = 3 rows. */
	{
		const char *t = "0123456789abcdefghij\nb\nc\nd\ne\n";

		wlseal_text_render(img, w, h, stride, 2, t, strlen(t), &l);
		CHECK(l.cols == 14 && l.rows == 3, "layout %ux%u cells, expected 14x3", l.cols, l.rows);
		CHECK(l.chars_clipped == 6, "%u characters clipped, expected 6", l.chars_clipped);
		CHECK(l.lines_clipped == 2, "%u lines clipped, expected 2", l.lines_clipped);
	}
	/* An image smaller than the margins: nothing drawn, nothing crashes. */
	wlseal_text_render(img, 10, 10, stride, 8, "xyz", 3, &l);
	CHECK(l.cols == 0 && l.rows == 0 && l.chars_clipped == 0 && l.lines_clipped == 1,
	      "tiny image: %ux%u cells, %u/%u clipped", l.cols, l.rows, l.chars_clipped, l.lines_clipped);
	free(img);
	if (!failures)
		printf("ok - font: 94 distinct glyphs; rendering, scaling and clipping\n");
	return failures != 0;
}
