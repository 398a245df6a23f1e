/* SPDX-License-Identifier: MIT */
/*
 * shell.h - the shells: xdg-shell (xdg-shell.c, xdg-toplevel*.c,
 * xdg-popup.c, xdg-positioner.c; their shared structs are
 * private/xdg.h), xdg-decoration and the frames it draws
 * (xdg-decoration.c, decor.c) and wl_shell (wl-shell.c). Shells use
 * surfaces (surface.h) and the seat (seat.h); neither calls a shell.
 */
#ifndef WLSEAL_SHELL_H
#define WLSEAL_SHELL_H

#include <stdint.h>

#include "surface.h"

/* xdg-shell.c: xdg_wm_base, xdg_surface, popups and positioners */
bool wlseal_xdg_shell_init(struct wlseal_server *server, uint32_t version);

/* wl-shell.c: wl_shell and wl_shell_surface (version 1). It calls
 * seat.c (a popup's grab) and is called by no one but the table of
 * globals (globals.c). */
bool wlseal_wl_shell_init(struct wlseal_server *server, uint32_t version);

/* xdg-decoration.c: zxdg_decoration_manager_v1: server_side unless the
 * client asks for client_side */
bool wlseal_xdg_decoration_init(struct wlseal_server *server,
				uint32_t version);

#endif
