/* SPDX-License-Identifier: MIT */
/*
 * wlseal's own 5x7 bitmap font for printable ASCII (0x20..0x7e), drawn by
 * wlseal-textscreen (image/guest/) and by the compositor's title bars
 * (compositor/shell/decor.c): 8 rows per glyph, top to bottom (rows 0-6
 * down to the baseline, row 7 for the descenders of g, j, p, q, y and
 * ','), bit 4 is the leftmost pixel. Characters outside that range are drawn as '?'.
 */
#ifndef WLSEAL_COMMON_FONT_H
#define WLSEAL_COMMON_FONT_H

#include <stdint.h>

#define WLSEAL_FONT_W 5
#define WLSEAL_FONT_H 8

/* The glyph rows of C. */
const uint8_t *wlseal_font_glyph(unsigned char c);

#endif
