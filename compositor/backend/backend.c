/* SPDX-License-Identifier: MIT */
/*
 * backend.c - a backend by name (backend.h).
 */
#include <string.h>

#include "backend.h"
#include "log.h"

struct wlseal_backend *wlseal_backend_create(const char *name,
					     struct wl_event_loop *loop,
					     const char *drm_device,
					     int width, int height)
{
	if (!strcmp(name, "drm"))
		return wlseal_backend_drm_create(loop, drm_device, width, height);
	if (!strcmp(name, "headless"))
		return wlseal_backend_headless_create(loop, width, height);
	wlseal_log("unknown backend '%s'", name);
	return NULL;
}
