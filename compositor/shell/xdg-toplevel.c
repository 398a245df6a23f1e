/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel.c - the xdg_toplevel object: its requests (the title,
 * the state requests, each answered with a configure, and those wlseal
 * takes no action on), its creation and its end, and close.
 *
 * The rest of the role lies in files beside this one, calls going one
 * way (private/xdg-toplevel.h): xdg-toplevel-configure.c (states,
 * configures and acks, placement, map and unmap at commit),
 * xdg-toplevel-interactive.c (interactive move and resize) and
 * xdg-toplevel-stack.c (set_parent: a window stacked above its parent).
 *
 * No configure_bounds or wm_capabilities: xdg_wm_base is advertised at
 * version 3 (xdg-shell.c), which has neither.
 */
#include <stdlib.h>

#include <wayland-server-core.h>

#include "log.h"
#include "xdg.h"
#include "xdg-shell-server-protocol.h"
#include "xdg-toplevel.h"

static bool state_equal(struct wlseal_xdg_state a, struct wlseal_xdg_state b)
{
	return a.maximized == b.maximized && a.fullscreen == b.fullscreen &&
	       a.activated == b.activated && a.resizing == b.resizing &&
	       a.width == b.width && a.height == b.height;
}

/* xdg_toplevel */

static void toplevel_destroy(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	tl->destroy_requested = true;
	wl_resource_destroy(r);
}

static void toplevel_set_title(struct wl_client *c, struct wl_resource *r,
			       const char *title)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	/* One string per toplevel, replaced, at most a message long
	 * (libwayland's 4 KiB), and charged to the client's string budget
	 * (account/objects.c): a refusal ends the client. */
	if (!wlseal_kept_string_set(&tl->title, c, title))
		return;
	wlseal_xdg_toplevel_changed(tl);
}

static void toplevel_set_string(struct wl_client *c, struct wl_resource *r,
				const char *s)
{
}

static void toplevel_show_window_menu(struct wl_client *c,
				      struct wl_resource *r,
				      struct wl_resource *seat, uint32_t serial,
				      int32_t x, int32_t y)
{
}

static void toplevel_set_size(struct wl_client *c, struct wl_resource *r,
			      int32_t w, int32_t h)
{
}

static void toplevel_no_args(struct wl_client *c, struct wl_resource *r)
{
}

/* Every state request is answered with a configure, changed or not. */
static void toplevel_want(struct wl_resource *r, struct wlseal_xdg_state st)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	if (!state_equal(st, tl->wanted))
		wlseal_debug("toplevel \"%s\"%s%s",
			     wlseal_xdg_toplevel_title(tl),
			     st.maximized ? " maximized" : "",
			     st.fullscreen ? " fullscreen" :
			     st.maximized ? "" : " floating");
	tl->wanted = st;
	wlseal_xdg_toplevel_configure(tl);
}

static void toplevel_set_maximized(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.maximized = true;
	toplevel_want(r, st);
}

static void toplevel_unset_maximized(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.maximized = false;
	toplevel_want(r, st);
}

/* One output: @output, if any, can only be it. */
static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *r,
				    struct wl_resource *output)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.fullscreen = true;
	toplevel_want(r, st);
}

static void toplevel_unset_fullscreen(struct wl_client *c, struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_state st = tl->wanted;

	st.fullscreen = false;
	toplevel_want(r, st);
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = toplevel_destroy,
	.set_parent = wlseal_xdg_toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_string,
	.show_window_menu = toplevel_show_window_menu,
	.move = wlseal_xdg_toplevel_request_move,
	.resize = wlseal_xdg_toplevel_request_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_no_args,
};

static void toplevel_resource_destroy(struct wl_resource *r)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);

	wl_signal_emit(&tl->destroy_signal, tl);
	/* Before the unmap: the seat, losing its focus there, must find
	 * no toplevel to configure (xdg-shell.c's role_activate). */
	if (tl->xs)
		tl->xs->toplevel = NULL;
	wlseal_xdg_toplevel_unmap(tl);
	/* Children of a window that never mapped keep a parent too. */
	wlseal_xdg_toplevel_orphan_children(tl);
	wlseal_xdg_toplevel_unlink_parent(tl);
	wlseal_kept_string_clear(&tl->title);
	free(tl);
}

void wlseal_xdg_toplevel_create(struct wlseal_xdg_surface *xs,
				struct wl_client *client, uint32_t version,
				uint32_t id)
{
	struct wlseal_xdg_toplevel *tl = calloc(1, sizeof(*tl));

	if (!tl) {
		wl_client_post_no_memory(client);
		return;
	}
	tl->resource = wl_resource_create(client, &xdg_toplevel_interface,
					  (int)version, id);
	if (!tl->resource) {
		free(tl);
		wl_client_post_no_memory(client);
		return;
	}
	tl->xs = xs;
	wl_list_init(&tl->children);
	wl_list_init(&tl->child_link);
	wl_signal_init(&tl->destroy_signal);
	wl_signal_init(&tl->changed_signal);
	xs->toplevel = tl;
	wl_resource_set_implementation(tl->resource, &toplevel_impl, tl,
				       toplevel_resource_destroy);
	/* --xdg-early-buffer=map: the first configure goes out now, not
	 * at the initial commit, for clients that attach their first
	 * buffer on the strength of a configure they never asked for
	 * with a commit. A state asked for before the initial commit
	 * comes in a configure of its own. */
	if (xs->server->xdg_early_map) {
		tl->initial_sent = true;
		wlseal_xdg_toplevel_configure(tl);
	}
}

void wlseal_xdg_toplevel_detach(struct wlseal_xdg_toplevel *tl)
{
	wlseal_xdg_toplevel_unmap(tl);
	tl->xs = NULL;
	wlseal_xdg_toplevel_changed(tl);
}

void wlseal_xdg_toplevel_close(struct wlseal_xdg_toplevel *tl)
{
	wlseal_debug("toplevel \"%s\" asked to close",
		     wlseal_xdg_toplevel_title(tl));
	xdg_toplevel_send_close(tl->resource);
}

struct wlseal_xdg_toplevel *wlseal_xdg_toplevel_from_resource(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
}
