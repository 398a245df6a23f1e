/* SPDX-License-Identifier: MIT */
/*
 * png.c - screenshots and frame checksums of the output.
 *
 * PNGs are written as 8-bit RGB without any timestamp or text chunk, so
 * the same frame always gives the same file. The checksum is the one of
 * include/wlseal-frame-crc.h, which scripts/run-vm recomputes from QEMU's
 * screendump.
 */
#include <stdio.h>
#include <stdlib.h>

#include <png.h>
#include <zlib.h>

#include "wlseal-frame-crc.h"

#include "screenshot.h"

uint32_t wlseal_image_crc32(pixman_image_t *image)
{
	return wlseal_frame_crc(pixman_image_get_data(image),
				(uint32_t)pixman_image_get_width(image),
				(uint32_t)pixman_image_get_height(image),
				(uint32_t)pixman_image_get_stride(image));
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
