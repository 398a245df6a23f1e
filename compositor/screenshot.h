/* SPDX-License-Identifier: MIT */
/*
 * screenshot.h - screenshots and frame checksums of the output (png.c).
 */
#ifndef WLSEAL_SCREENSHOT_H
#define WLSEAL_SCREENSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include <pixman.h>

bool wlseal_write_png(const char *path, pixman_image_t *image);
/* crc32 of the visible pixels, row by row, width * 4 bytes per row */
uint32_t wlseal_image_crc32(pixman_image_t *image);

#endif
