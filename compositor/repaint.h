/* SPDX-License-Identifier: MIT */
/*
 * repaint.h - the repaint loop (repaint.c), the only meeting point of
 * scene and backend; server.c drives it.
 */
#ifndef WLSEAL_REPAINT_H
#define WLSEAL_REPAINT_H

#include <stdbool.h>

struct wlseal_server;

/* After the backend exists: fills server->output, starts the scene and
 * schedules the first frame (the plain background). From then on a frame
 * is scheduled when the scene asks for one (wlseal_scene_request_frame). */
void wlseal_repaint_init(struct wlseal_server *server);
/* The scene and the backend go. */
void wlseal_repaint_finish(struct wlseal_server *server);
bool wlseal_screenshot(struct wlseal_server *server, const char *path);

#endif
