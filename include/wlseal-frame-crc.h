/* SPDX-License-Identifier: MIT */
/*
 * wlseal-frame-crc.h - the frame checksum that the guest programs print
 * (WLSEAL-FRAME, WLSEAL-SCREENSHOT) and the host recomputes from QEMU's
 * screendump (scripts/run-vm): zlib's CRC-32 over the XRGB8888 pixels, row
 * by row, width * 4 bytes per row as the little-endian bytes B, G, R, 0.
 * The X byte is undefined in XRGB8888, so it always counts as 0.
 */
#ifndef WLSEAL_FRAME_CRC_H
#define WLSEAL_FRAME_CRC_H

#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

/* Returns the checksum, or 0 when no row buffer could be allocated. */
static inline uint32_t wlseal_frame_crc(const void *pixels, uint32_t width,
					uint32_t height, uint32_t stride)
{
	const unsigned char *row = pixels;
	unsigned char *masked = malloc((size_t)width * 4);
	uLong crc = crc32(0L, Z_NULL, 0);

	if (!masked)
		return 0;
	for (uint32_t y = 0; y < height; y++, row += stride) {
		for (uint32_t x = 0; x < width; x++) {
			masked[x * 4 + 0] = row[x * 4 + 0];
			masked[x * 4 + 1] = row[x * 4 + 1];
			masked[x * 4 + 2] = row[x * 4 + 2];
			masked[x * 4 + 3] = 0;
		}
		crc = crc32(crc, masked, (uInt)width * 4);
	}
	free(masked);
	return (uint32_t)crc;
}

#endif
