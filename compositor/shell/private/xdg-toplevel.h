/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel.h - inside shell/: what the files of the xdg_toplevel role
 * lend each other. Calls go one way: xdg-toplevel.c (the object and its
 * requests) calls the three others; xdg-toplevel-interactive.c (move
 * and resize) calls xdg-toplevel-configure.c; xdg-toplevel-configure.c
 * (states, configures, placement) calls xdg-toplevel-stack.c; and
 * xdg-toplevel-stack.c (set_parent) calls none of them.
 */
#ifndef WLSEAL_WL_XDG_TOPLEVEL_H
#define WLSEAL_WL_XDG_TOPLEVEL_H

#include <stdint.h>

#include <wayland-server-core.h>

#include "xdg.h"

/* xdg-toplevel-configure.c */

/* What a frame shows may have changed: changed_signal. */
void wlseal_xdg_toplevel_changed(struct wlseal_xdg_toplevel *tl);
/* The title, "" without one. */
const char *wlseal_xdg_toplevel_title(struct wlseal_xdg_toplevel *tl);
/* The window geometry's size, or the surface's without one. */
void wlseal_xdg_toplevel_window_size(struct wlseal_xdg_toplevel *tl,
				     int64_t *w, int64_t *h);
/* The mapped view goes to its spot (the cascade slot, or 0,0 while
 * maximized or fullscreen), if it is not there. */
void wlseal_xdg_toplevel_to_spot(struct wlseal_xdg_toplevel *tl);
/* The view leaves the scene, if mapped; its children take its parent. */
void wlseal_xdg_toplevel_unmap(struct wlseal_xdg_toplevel *tl);

/* xdg-toplevel-interactive.c: xdg_toplevel.move and .resize. */

void wlseal_xdg_toplevel_request_move(struct wl_client *c,
				      struct wl_resource *r,
				      struct wl_resource *seat,
				      uint32_t serial);
void wlseal_xdg_toplevel_request_resize(struct wl_client *c,
					struct wl_resource *r,
					struct wl_resource *seat,
					uint32_t serial, uint32_t edges);

/* xdg-toplevel-stack.c */

/* xdg_toplevel.set_parent. */
void wlseal_xdg_toplevel_set_parent(struct wl_client *c,
				    struct wl_resource *r,
				    struct wl_resource *parent_resource);
/* The lowest shown window below @tl in its family, or NULL. */
struct wlseal_scene_view *
wlseal_xdg_toplevel_lowest_below(struct wlseal_xdg_toplevel *tl);
/* @tl, then each of its ancestors, goes under @low if above it. */
void wlseal_xdg_toplevel_stack_under(struct wlseal_scene *scene,
				     struct wlseal_xdg_toplevel *tl,
				     struct wlseal_scene_view *low);
void wlseal_xdg_toplevel_unlink_parent(struct wlseal_xdg_toplevel *tl);
/* @tl unmapped or goes: its children take its parent. */
void wlseal_xdg_toplevel_orphan_children(struct wlseal_xdg_toplevel *tl);

#endif
