/* SPDX-License-Identifier: MIT */
/*
 * png.c - screenshots and frame checksums of the output.
 *
 * PNGs are written as 8-bit RGB without any timestamp or text chunk, so
 * the same frame always gives the same file. The checksum is zlib's
 * CRC-32 over the framebuffer as the display reads it: per row, width * 4
 * bytes of little-endian XRGB8888 with the undefined X byte as 0 (bytes
 * B, G, R, 0), the contract of tests/guest/crc32.h and scripts/run-vm.
 */
#include <stdio.h>
#include <stdlib.h>

#include <png.h>
#include <zlib.h>

#include "compositor.h"

uint32_t wlseal_image_crc32(pixman_image_t *image)
{
	const unsigned char *row = (const unsigned char *)pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image);
	int w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	uLong crc = crc32(0L, Z_NULL, 0);
	unsigned char *masked = malloc((size_t)w * 4);
	int x, y;

	if (!masked)
		return 0;
	for (y = 0; y < h; y++, row += stride) {
		/* The X byte is undefined in XRGB8888: count it as 0, the
		 * way the host checksums QEMU's screendump. */
		for (x = 0; x < w; x++) {
			masked[x * 4 + 0] = row[x * 4 + 0];
			masked[x * 4 + 1] = row[x * 4 + 1];
			masked[x * 4 + 2] = row[x * 4 + 2];
			masked[x * 4 + 3] = 0;
		}
		crc = crc32(crc, masked, (uInt)w * 4);
	}
	free(masked);
	return (uint32_t)crc;
}

static void write_rows(png_structp png, png_infop info, pixman_image_t *image,
		       unsigned char *row)
{
	const uint32_t *src = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;
	int w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	int x, y;

	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
		     PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < h; y++) {
		const uint32_t *p = src + (size_t)y * stride;

		for (x = 0; x < w; x++) {
			row[x * 3 + 0] = (p[x] >> 16) & 0xff;
			row[x * 3 + 1] = (p[x] >> 8) & 0xff;
			row[x * 3 + 2] = p[x] & 0xff;
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
}

bool wlseal_write_png(const char *path, pixman_image_t *image)
{
	png_structp png = NULL;
	png_infop info = NULL;
	unsigned char *row;
	volatile bool ok = false;
	FILE *f;

	f = fopen(path, "wb");
	if (!f)
		return false;
	row = malloc((size_t)pixman_image_get_width(image) * 3);
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png)
		info = png_create_info_struct(png);
	if (!row || !info)
		goto out;
	/* libpng reports errors by longjmp; this is where they land. */
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, f);
	write_rows(png, info, image, row);
	ok = true;
out:
	png_destroy_write_struct(&png, info ? &info : NULL);
	free(row);
	if (fclose(f) != 0)
		ok = false;
	return ok;
}
