/* SPDX-License-Identifier: MIT */
/*
 * globals.c - every global wlseal-compositor offers, in one table.
 *
 * A new global is one line here and one file that implements it: the
 * file's init function takes the version from this table, so the table
 * is what clients see (tests/globals/ binds every global a running
 * compositor advertises and compares it with --list-globals, README's
 * protocol list and the WLCS module's expectations).
 *
 * "charges" says what a client's objects of that global may cost it in
 * the accounting layer (account/) besides the CPU of its requests, which
 * every request is charged (account/cpu.c); "privileged" globals would be
 * offered only to clients the user allowed. None is, yet: every global
 * here is one an ordinary client may bind.
 *
 * The order is the order of creation, which is the order in which the
 * registry announces them.
 */
#include <stdio.h>

#include <wayland-server-core.h>

#include "globals.h"
#include "log.h"
#include "server.h"
#include "shm.h"
#include "seat.h"
#include "shell.h"
#include "surface.h"

/* The two globals of shm/ take the shm state, the seat is kept. */
static bool shm_init(struct wlseal_server *server, uint32_t version)
{
	return wlseal_shm_init(&server->shm, version);
}

static bool shm_policy_init(struct wlseal_server *server, uint32_t version)
{
	return wlseal_shm_policy_init(&server->shm, version);
}

static bool seat_init(struct wlseal_server *server, uint32_t version)
{
	server->seat = wlseal_seat_create(server, version);
	return server->seat != NULL;
}

static const struct wlseal_global globals[] = {
	{ "wl_output", 4, "surface/output.c", "outputs", false,
	  wlseal_output_init },
	{ "wl_compositor", 4, "surface/surface.c",
	  "surfaces, regions, frame callbacks", false,
	  wlseal_compositor_init },
	{ "wl_subcompositor", 1, "surface/subcompositor.c", "subsurfaces", false,
	  wlseal_subcompositor_init },
	{ "wl_data_device_manager", 3, "seat/data-device.c",
	  "string bytes (mime types)", false, wlseal_data_device_init },
	{ "wl_seat", 8, "seat/seat.c", "fds in flight (keymaps)", false,
	  seat_init },
	{ "wl_shm", 1, "shm/wl-shm.c", "pools, pool memory, fds", false,
	  shm_init },
	{ "wlseal_shm_policy_v1", 2, "shm/ext-policy.c",
	  "pools, pool memory, fds", false, shm_policy_init },
	{ "xdg_wm_base", 3, "shell/xdg-shell.c", "string bytes (titles, app ids)",
	  false, wlseal_xdg_shell_init },
	{ "wl_shell", 1, "shell/wl-shell.c", "string bytes (titles, classes)",
	  false, wlseal_wl_shell_init },
	{ "zxdg_decoration_manager_v1", 1, "shell/xdg-decoration.c", "-", false,
	  wlseal_xdg_decoration_init },
	{ "zxdg_output_manager_v1", 3, "surface/xdg-output.c", "-", false,
	  wlseal_xdg_output_init },
	{ "zwp_relative_pointer_manager_v1", 1, "seat/relative-pointer.c", "-",
	  false, wlseal_relative_pointer_init },
	{ "zwp_pointer_constraints_v1", 1, "seat/pointer-constraints.c", "-",
	  false, wlseal_pointer_constraints_init },
	{ "zwp_text_input_manager_v3", 1, "seat/text-input.c", "-", false,
	  wlseal_text_input_init },
	{ "wp_viewporter", 1, "surface/viewporter.c", "objects", false,
	  wlseal_viewporter_init },
	{ "wp_presentation", 1, "surface/presentation.c", "feedbacks", false,
	  wlseal_presentation_init },
};

#define N_GLOBALS (sizeof(globals) / sizeof(globals[0]))

bool wlseal_globals_create(struct wlseal_server *server)
{
	for (size_t i = 0; i < N_GLOBALS; i++) {
		if (!globals[i].init(server, globals[i].version)) {
			wlseal_log("cannot create the global %s (%s)",
				   globals[i].interface, globals[i].file);
			return false;
		}
	}
	return true;
}

void wlseal_globals_print(FILE *f)
{
	for (size_t i = 0; i < N_GLOBALS; i++)
		fprintf(f, "%s\t%u\tcompositor/%s\t%s\t%s\n",
			globals[i].interface, globals[i].version,
			globals[i].file, globals[i].charges,
			globals[i].privileged ? "privileged" : "any client");
}
