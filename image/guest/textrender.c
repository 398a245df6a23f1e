/* SPDX-License-Identifier: MIT */
#include "textrender.h"

#include "font.h"

/* Cell size: one column of spacing, two rows of line spacing. */
#define CELL_W (WLSEAL_FONT_W + 1)
#define CELL_H (WLSEAL_FONT_H + 2)

static void put_glyph(uint8_t *pixels, uint32_t stride, uint32_t x0,
		      uint32_t y0, uint32_t scale, unsigned char c)
{
	const uint8_t *g = wlseal_font_glyph(c);

	for (uint32_t gy = 0; gy < WLSEAL_FONT_H; gy++) {
		for (uint32_t gx = 0; gx < WLSEAL_FONT_W; gx++) {
			if (!(g[gy] & (0x10u >> gx)))
				continue;
			for (uint32_t sy = 0; sy < scale; sy++) {
				uint32_t *row = (uint32_t *)(pixels + (size_t)(y0 + gy * scale + sy) * stride);

				for (uint32_t sx = 0; sx < scale; sx++)
					row[x0 + gx * scale + sx] = WLSEAL_TEXT_FG;
			}
		}
	}
}

void wlseal_text_render(void *pixels, uint32_t width, uint32_t height,
			uint32_t stride, uint32_t scale, const char *text,
			size_t len, struct text_layout *layout)
{
	uint8_t *p = pixels;
	uint32_t col = 0, row = 0;

	if (scale < 1)
		scale = 1;
	for (uint32_t y = 0; y < height; y++) {
		uint32_t *r = (uint32_t *)(p + (size_t)y * stride);

		for (uint32_t x = 0; x < width; x++)
			r[x] = WLSEAL_TEXT_BG;
	}
	/* Every glyph drawn lies inside the margins: a cell is drawn only when
	 * col < cols and row < rows, and cols/rows count whole cells that fit
	 * between the margins (zero when the image is smaller than them). */
	layout->cols = width > 2 * WLSEAL_TEXT_MARGIN ?
		(width - 2 * WLSEAL_TEXT_MARGIN) / (CELL_W * scale) : 0;
	layout->rows = height > 2 * WLSEAL_TEXT_MARGIN ?
		(height - 2 * WLSEAL_TEXT_MARGIN) / (CELL_H * scale) : 0;
	layout->lines_clipped = 0;
	layout->chars_clipped = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n') {
			if (row >= layout->rows)
				layout->lines_clipped++;
			row++;
			col = 0;
			continue;
		}
		if (c == '\t') {
			col = (col / 8 + 1) * 8;
			continue;
		}
		if (row < layout->rows) {
			if (col < layout->cols)
				put_glyph(p, stride, WLSEAL_TEXT_MARGIN + col * CELL_W * scale,
					  WLSEAL_TEXT_MARGIN + row * CELL_H * scale, scale, c);
			else
				layout->chars_clipped++;
		}
		col++;
	}
	if (len && text[len - 1] != '\n' && row >= layout->rows)
		layout->lines_clipped++;
}
