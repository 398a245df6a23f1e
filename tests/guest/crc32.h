/* SPDX-License-Identifier: MIT */
/* CRC-32 (IEEE 802.3, as zlib's crc32()), for frame checksums. */
#ifndef WLSEAL_CRC32_H
#define WLSEAL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC over len bytes; start with crc = 0. */
uint32_t wlseal_crc32(uint32_t crc, const void *data, size_t len);

/*
 * The frame checksum that a guest prints with WLSEAL-SCREENSHOT and the host
 * recomputes from QEMU's screendump: CRC-32 over the XRGB8888 pixels, row
 * by row, each pixel as the four little-endian bytes of (pixel & 0xffffff),
 * so the undefined X byte never matters.
 */
uint32_t wlseal_frame_crc(const void *pixels, uint32_t width, uint32_t height,
			  uint32_t stride);

#endif
