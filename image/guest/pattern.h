/* SPDX-License-Identifier: MIT */
/*
 * The KMS test pattern: a pure function of (x, y, width, height), so that
 * the guest's kmstest draws it and the host computes the same pixels to
 * compare against QEMU's screendump.
 */
#ifndef WLSEAL_PATTERN_H
#define WLSEAL_PATTERN_H

#include <stdint.h>

/* One XRGB8888 pixel of the pattern. */
uint32_t wlseal_pattern_pixel(uint32_t x, uint32_t y, uint32_t width,
			      uint32_t height);

/* Fill a whole XRGB8888 image; stride is in bytes. */
void wlseal_pattern_fill(void *pixels, uint32_t width, uint32_t height,
			 uint32_t stride);

#endif
