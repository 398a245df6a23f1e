/* SPDX-License-Identifier: MIT */
/*
 * list-registry.c - prints the globals a Wayland server announces, one
 * "INTERFACE<TAB>VERSION" line each, in the order announced
 * (tests/globals/check-globals compares them with the compositor's
 * table of globals).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <wayland-client.h>

static void global(void *data, struct wl_registry *registry, uint32_t name,
		   const char *interface, uint32_t version)
{
	printf("%s\t%u\n", interface, version);
}

static void global_remove(void *data, struct wl_registry *registry,
			  uint32_t name)
{
}

static const struct wl_registry_listener listener = {
	.global = global,
	.global_remove = global_remove,
};

int main(int argc, char **argv)
{
	struct wl_display *display;
	struct wl_registry *registry;

	if (argc > 1) {
		fprintf(stderr, "Usage: %s\nPrints the globals of the server "
			"at $WAYLAND_DISPLAY, one 'INTERFACE<TAB>VERSION' "
			"line each.\n", argv[0]);
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "list-registry: cannot connect: %s\n",
			strerror(errno));
		return 1;
	}
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &listener, NULL);
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "list-registry: roundtrip failed: %s\n",
			strerror(errno));
		return 1;
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return 0;
}
