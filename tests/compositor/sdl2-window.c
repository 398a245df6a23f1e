/* SPDX-License-Identifier: MIT */
/*
 * sdl2-window - the smallest SDL 2 program: a window with SDL's
 * defaults (SDL_CreateWindow with no flags), filled with one colour
 * through its window surface, until SDL_QUIT or --seconds pass. For
 * test-apps.c's app-sdl2: how a plain SDL 2 application maps on
 * wlseal. With --relative it turns SDL's relative mouse mode on once
 * shown (as games do: on Wayland SDL locks the pointer and reads
 * relative motion) and prints each SDL_MOUSEMOTION (app-sdl2-relative).
 *
 * It loads libSDL2-2.0.so.0 at run time, so that the build needs no
 * SDL headers (Debian's libsdl2-dev is not installed by scripts/setup;
 * the library comes with mpv and ffmpeg). The few functions it calls
 * are SDL 2's stable ABI, declared here. Exit status 77: no libSDL2.
 */
#include <dlfcn.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SDL_INIT_VIDEO 0x20u
#define SDL_WINDOWPOS_UNDEFINED 0x1fff0000
#define SDL_QUIT 0x100u
#define SDL_MOUSEMOTION 0x400u

/* The start of SDL 2's SDL_Surface: what this program reads. */
struct sdl_surface {
	uint32_t flags;
	void *format;
};

/* SDL_MouseMotionEvent: type, timestamp, windowID, which, state, x,
 * y, xrel, yrel. */
struct sdl_motion {
	uint32_t type, timestamp, window, which, state;
	int32_t x, y, xrel, yrel;
};

/* SDL_Event is a 56-byte union whose first field is its type. */
union sdl_event {
	uint32_t type;
	struct sdl_motion motion;
	uint8_t padding[56];
};

static struct {
	int (*Init)(uint32_t flags);
	const char *(*GetError)(void);
	void *(*CreateWindow)(const char *title, int x, int y, int w, int h,
			      uint32_t flags);
	struct sdl_surface *(*GetWindowSurface)(void *window);
	uint32_t (*MapRGB)(const void *format, uint8_t r, uint8_t g, uint8_t b);
	int (*FillRect)(struct sdl_surface *dst, const void *rect,
			uint32_t color);
	int (*UpdateWindowSurface)(void *window);
	int (*PollEvent)(union sdl_event *event);
	void (*Delay)(uint32_t ms);
	const char *(*GetCurrentVideoDriver)(void);
	int (*SetRelativeMouseMode)(int enabled);
	void (*Quit)(void);
} sdl;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sdl2-window [--size=WxH] [--seconds=N] [--title=TEXT]\n"
		"                   [--relative]\n"
		"Shows an SDL 2 window with SDL's defaults, filled with one\n"
		"colour, until closed or N seconds (default 30) pass. Prints\n"
		"'window shown' after the first frame. --relative: then SDL's\n"
		"relative mouse mode ('relative mode N', SDL's answer), and\n"
		"'motion xrel X yrel Y' for each mouse motion. Exit status 77\n"
		"when libSDL2-2.0.so.0 cannot be loaded.\n");
}

static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, "sdl2-window: libSDL2 lacks %s\n", name);
		exit(1);
	}
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "title", required_argument, NULL, 'T' },
		{ "relative", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int w = 200, h = 150, c;
	double seconds = 30, end;
	const char *title = "sdl2";
	struct sdl_surface *surface;
	void *lib, *window;
	bool shown = false, relative = false;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (sscanf(optarg, "%dx%d", &w, &h) != 2 || w <= 0 ||
			    h <= 0 || w > 8192 || h > 8192) {
				fprintf(stderr, "sdl2-window: bad --size '%s' "
					"(want WxH, 1 to 8192)\n", optarg);
				return 2;
			}
			break;
		case 't':
			seconds = atof(optarg);
			if (seconds <= 0) {
				fprintf(stderr, "sdl2-window: bad --seconds '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'T':
			title = optarg;
			break;
		case 'r':
			relative = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "sdl2-window: %s\n", dlerror());
		return 77;
	}
	sdl.Init = sym(lib, "SDL_Init");
	sdl.GetError = sym(lib, "SDL_GetError");
	sdl.CreateWindow = sym(lib, "SDL_CreateWindow");
	sdl.GetWindowSurface = sym(lib, "SDL_GetWindowSurface");
	sdl.MapRGB = sym(lib, "SDL_MapRGB");
	sdl.FillRect = sym(lib, "SDL_FillRect");
	sdl.UpdateWindowSurface = sym(lib, "SDL_UpdateWindowSurface");
	sdl.PollEvent = sym(lib, "SDL_PollEvent");
	sdl.Delay = sym(lib, "SDL_Delay");
	sdl.GetCurrentVideoDriver = sym(lib, "SDL_GetCurrentVideoDriver");
	sdl.SetRelativeMouseMode = sym(lib, "SDL_SetRelativeMouseMode");
	sdl.Quit = sym(lib, "SDL_Quit");

	if (sdl.Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "sdl2-window: SDL_Init: %s\n", sdl.GetError());
		return 1;
	}
	printf("video driver %s\n", sdl.GetCurrentVideoDriver());
	window = sdl.CreateWindow(title, SDL_WINDOWPOS_UNDEFINED,
				  SDL_WINDOWPOS_UNDEFINED, w, h, 0);
	if (!window) {
		fprintf(stderr, "sdl2-window: SDL_CreateWindow: %s\n",
			sdl.GetError());
		return 1;
	}
	end = now() + seconds;
	while (now() < end) {
		union sdl_event ev;

		while (sdl.PollEvent(&ev)) {
			if (ev.type == SDL_QUIT) {
				printf("quit\n");
				fflush(stdout);
				sdl.Quit();
				return 0;
			}
			if (ev.type == SDL_MOUSEMOTION && relative) {
				printf("motion xrel %d yrel %d\n", ev.motion.xrel,
				       ev.motion.yrel);
				fflush(stdout);
			}
		}
		/* The surface may change with the window's size. */
		surface = sdl.GetWindowSurface(window);
		if (!surface) {
			fprintf(stderr, "sdl2-window: SDL_GetWindowSurface: %s\n",
				sdl.GetError());
			return 1;
		}
		sdl.FillRect(surface, NULL, sdl.MapRGB(surface->format, 0x20,
							0xa0, 0x60));
		if (sdl.UpdateWindowSurface(window) != 0) {
			fprintf(stderr, "sdl2-window: SDL_UpdateWindowSurface: %s\n",
				sdl.GetError());
			return 1;
		}
		if (!shown) {
			shown = true;
			printf("window shown\n");
			if (relative)
				printf("relative mode %d\n",
				       sdl.SetRelativeMouseMode(1));
			fflush(stdout);
		}
		sdl.Delay(16);
	}
	sdl.Quit();
	return 0;
}
