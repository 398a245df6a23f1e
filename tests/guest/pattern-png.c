/* SPDX-License-Identifier: MIT */
/*
 * wlseal-pattern-png WxH OUT.png: the KMS test pattern computed on the host,
 * written as an RGB PNG, for comparison with QEMU's screendump.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

int main(int argc, char **argv)
{
	unsigned int w, h;
	png_structp png;
	png_infop info;
	png_bytep row;
	FILE *f;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: wlseal-pattern-png WxH OUT.png\n"
		       "Write the wlseal KMS test pattern of that size as an RGB PNG.\n");
		return 0;
	}
	if (argc != 3 || sscanf(argv[1], "%ux%u", &w, &h) != 2 || !w || !h ||
	    w > 16384 || h > 16384) {
		fprintf(stderr, "usage: wlseal-pattern-png WxH OUT.png\n");
		return 2;
	}
	f = fopen(argv[2], "wb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	row = malloc((size_t)w * 3);
	if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "wlseal-pattern-png: cannot write %s\n", argv[2]);
		return 1;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (unsigned int y = 0; y < h; y++) {
		for (unsigned int x = 0; x < w; x++) {
			uint32_t p = wlseal_pattern_pixel(x, y, w, h);

			row[x * 3 + 0] = p >> 16;
			row[x * 3 + 1] = p >> 8;
			row[x * 3 + 2] = p;
		}
		png_write_row(png, row);
	}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	return fclose(f) ? 1 : 0;
}
