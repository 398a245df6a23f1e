/* SPDX-License-Identifier: MIT */
#include "crc32.h"

/* Bytewise table-driven CRC-32 with the reflected polynomial 0xedb88320. */
static uint32_t table[256];

static void init_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t wlseal_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!table[1])
		init_table();
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint32_t wlseal_frame_crc(const void *pixels, uint32_t width, uint32_t height,
			  uint32_t stride)
{
	uint32_t crc = 0;

	for (uint32_t y = 0; y < height; y++) {
		const uint32_t *row = (const uint32_t *)((const char *)pixels + (size_t)y * stride);

		for (uint32_t x = 0; x < width; x++) {
			uint32_t p = row[x] & 0xffffff;
			unsigned char b[4] = { p, p >> 8, p >> 16, 0 };

			crc = wlseal_crc32(crc, b, sizeof(b));
		}
	}
	return crc;
}
