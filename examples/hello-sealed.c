/* SPDX-License-Identifier: MIT */
/*
 * hello-sealed.c - the smallest client wlseal accepts: one xdg_toplevel
 * whose buffer lives in a memfd sealed against shrinking, so that the
 * compositor may map it without fearing SIGBUS. Draws a blue square with
 * a white band, shows it for --seconds (default 5), then exits 0.
 * Build: see examples/README.md (or meson builds it as hello-sealed).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

enum { W = 320, H = 240, STRIDE = W * 4, SIZE = STRIDE * H };

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static int configured;

static void global(void *data, struct wl_registry *reg, uint32_t name,
		   const char *iface, uint32_t version)
{
	if (!strcmp(iface, wl_compositor_interface.name))
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, wl_shm_interface.name))
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, xdg_wm_base_interface.name))
		wm_base = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static void ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = { ping };

static void surface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	xdg_surface_ack_configure(xs, serial);
	configured = 1;
}

static const struct xdg_surface_listener xdg_surface_listener = { surface_configure };

static int presented;

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	presented = 1;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = { frame_done };

/* The pool: a sealable memfd of exactly SIZE bytes, sealed SHRINK (and
 * GROW, and SEAL so that nobody lifts them): wlseal refuses anything less. */
static struct wl_buffer *sealed_buffer(void)
{
	int fd = memfd_create("hello-sealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	uint32_t *px;

	if (fd < 0 || ftruncate(fd, SIZE) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		perror("hello-sealed: sealed memfd");
		exit(1);
	}
	px = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		perror("hello-sealed: mmap");
		exit(1);
	}
	for (int i = 0; i < W * H; i++)
		px[i] = (i / W > H / 3 && i / W < 2 * H / 3) ? 0xffffffff : 0xff2050c0;
	munmap(px, SIZE);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, SIZE);
	struct wl_buffer *buf = wl_shm_pool_create_buffer(pool, 0, W, H, STRIDE,
							  WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buf;
}

int main(int argc, char **argv)
{
	int seconds = argc > 2 && !strcmp(argv[1], "--seconds") ? atoi(argv[2]) : 5;

	if (argc > 1 && strcmp(argv[1], "--seconds")) {
		printf("usage: hello-sealed [--seconds N]\n"
		       "Show a sealed-memfd window on $WAYLAND_DISPLAY for N seconds (default 5).\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	struct wl_display *dpy = wl_display_connect(NULL);
	if (!dpy) {
		fprintf(stderr, "hello-sealed: cannot connect to the Wayland display\n");
		return 1;
	}
	struct wl_registry *reg = wl_display_get_registry(dpy);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(dpy);
	if (!compositor || !shm || !wm_base) {
		fprintf(stderr, "hello-sealed: the compositor lacks wl_compositor, wl_shm or xdg_wm_base\n");
		return 1;
	}
	xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, NULL);
	xdg_toplevel_set_title(xdg_surface_get_toplevel(xs), "hello-sealed");
	wl_surface_commit(surface);
	while (!configured && wl_display_dispatch(dpy) >= 0)
		;
	wl_surface_attach(surface, sealed_buffer(), 0, 0);
	wl_surface_damage(surface, 0, 0, W, H);
	/* Done when the compositor has shown the frame with our window. */
	wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
	wl_surface_commit(surface);
	while (!presented)
		if (wl_display_dispatch(dpy) < 0) {
			fprintf(stderr, "hello-sealed: the compositor closed the connection\n");
			return 1;
		}
	printf("hello-sealed: window shown\n");
	fflush(stdout);
	for (time_t end = time(NULL) + seconds; time(NULL) < end;)
		if (wl_display_roundtrip(dpy) < 0 || usleep(100000) < 0)
			return 1;
	wl_display_disconnect(dpy);
	return 0;
}
