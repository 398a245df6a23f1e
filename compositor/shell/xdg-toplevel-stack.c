/* SPDX-License-Identifier: MIT */
/*
 * xdg-toplevel-stack.c - xdg_toplevel.set_parent: a window stacked above
 * its parent, and the links of its family (parent, children).
 *
 * set_parent stacks a window above its parent (a dialog over the window
 * it belongs to): whenever a window maps or gets a parent, it and each
 * of its ancestors in turn go under the lowest shown window of their
 * subtree, so a parent that maps after its dialog (GTK sets a dialog's
 * parent before either window maps, and which of the two maps first is
 * a race) still ends under it. A parent not yet mapped is kept, as
 * weston does, where the protocol text would drop it (only a mapped
 * window may have children): the race would otherwise decide. When a
 * mapped parent unmaps or goes, its children take its parent. Every
 * walk is of the client's own windows (parent links, children lists;
 * the scene's order is read from the views' numbers, not by walking
 * its list of every client's windows), and none goes further than
 * FAMILY_WALK windows: up the parents (the loop check, the stacking)
 * or down a subtree (its lowest shown window). A hostile client's
 * chain of 4000 windows would otherwise make each 12-byte set_parent
 * walk 4000 of them. A parent whose ancestors go further up than that
 * is not linked (the window stacks as one without a parent; no loop
 * can form through a link never made), and a family larger than that
 * below one window is stacked by the first FAMILY_WALK of it, depth
 * first: dialogs come by the handful. An unmap reparents O(the
 * children).
 */
#include <wayland-server-core.h>

#include "log.h"
#include "xdg.h"
#include "xdg-shell-server-protocol.h"
#include "xdg-toplevel.h"

static struct wlseal_scene_view *shown_view(struct wlseal_xdg_toplevel *tl)
{
	/* An xdg_surface outlives its wl_surface when the client destroys
	 * the wl_surface first (xdg-shell.c sets surface NULL then). */
	if (!tl->xs || !tl->xs->surface || !tl->xs->surface->view.mapped)
		return NULL;
	return &tl->xs->surface->view;
}

/* How far a walk of one family goes (above). */
#define FAMILY_WALK 64

/* The lowest (@highest: the highest) shown window among @tl's
 * descendants (the first *@left of them, depth first), into *@best. */
static void extreme_in(struct wlseal_xdg_toplevel *tl, bool highest,
		       struct wlseal_xdg_toplevel **best, int *left)
{
	struct wlseal_xdg_toplevel *c;

	wl_list_for_each(c, &tl->children, child_link) {
		struct wlseal_scene_view *v = shown_view(c);
		struct wlseal_scene_view *b = *best ? shown_view(*best) : NULL;

		if ((*left)-- <= 0)
			return;
		if (v && (!b || (highest ? wlseal_scene_under(b, v) :
					   wlseal_scene_under(v, b))))
			*best = c;
		extreme_in(c, highest, best, left);
	}
}

/* The lowest shown window below @tl in its family, or NULL. */
struct wlseal_scene_view *
wlseal_xdg_toplevel_lowest_below(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *low = NULL;
	int left = FAMILY_WALK;

	extreme_in(tl, false, &low, &left);
	return low ? shown_view(low) : NULL;
}

/* The highest shown window below @tl in its family, or NULL. */
static struct wlseal_xdg_toplevel *highest_below(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *high = NULL;
	int left = FAMILY_WALK;

	extreme_in(tl, true, &high, &left);
	return high;
}

/* @tl, then each of its ancestors, goes under @low (the lowest shown
 * window below it in the family) if it is above it; each one shown
 * is the lowest for the next. */
void wlseal_xdg_toplevel_stack_under(struct wlseal_scene *scene,
			struct wlseal_xdg_toplevel *tl,
			struct wlseal_scene_view *low)
{
	for (int n = 0; tl && n < FAMILY_WALK; tl = tl->parent, n++) {
		struct wlseal_scene_view *v = shown_view(tl);

		if (!v)
			continue;
		if (low && wlseal_scene_under(low, v))
			wlseal_scene_put_under(scene, v, low);
		low = v;
	}
}

struct wlseal_surface *wlseal_xdg_toplevel_front(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *high = highest_below(tl);

	return high ? high->xs->surface : tl->xs->surface;
}

void wlseal_xdg_toplevel_unlink_parent(struct wlseal_xdg_toplevel *tl)
{
	if (tl->parent)
		wl_list_remove(&tl->child_link);
	wl_list_init(&tl->child_link);
	tl->parent = NULL;
}

static void link_parent(struct wlseal_xdg_toplevel *tl,
			struct wlseal_xdg_toplevel *parent)
{
	wlseal_xdg_toplevel_unlink_parent(tl);
	tl->parent = parent;
	if (parent)
		wl_list_insert(parent->children.prev, &tl->child_link);
}

/* @tl unmapped or goes: its children take its parent. */
void wlseal_xdg_toplevel_orphan_children(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_xdg_toplevel *c, *tmp;

	wl_list_for_each_safe(c, tmp, &tl->children, child_link)
		link_parent(c, tl->parent);
}

void wlseal_xdg_toplevel_set_parent(struct wl_client *c, struct wl_resource *r,
				struct wl_resource *parent_resource)
{
	struct wlseal_xdg_toplevel *tl = wl_resource_get_user_data(r);
	struct wlseal_xdg_toplevel *parent =
		parent_resource ? wl_resource_get_user_data(parent_resource) : NULL;
	struct wlseal_scene_view *low, *d;
	int n = 0;

	for (struct wlseal_xdg_toplevel *a = parent; a; a = a->parent) {
		if (a == tl) {
			wl_resource_post_error(r, XDG_TOPLEVEL_ERROR_INVALID_PARENT,
					       parent == tl ? "a toplevel cannot be its own parent" :
					       "the parent is a descendant of this toplevel");
			return;
		}
		if (++n > FAMILY_WALK) {
			wlseal_debug("set_parent pid=%d: the parent has more than %d ancestors, not linked",
				     (int)wlseal_client_pid(c), FAMILY_WALK);
			parent = NULL;
			break;
		}
	}
	if (parent == tl->parent)
		return;
	link_parent(tl, parent);
	if (!parent || !tl->xs || !tl->xs->surface)
		return;
	/* Its parent and their ancestors go under it, or under its
	 * lowest shown descendant. */
	low = shown_view(tl);
	d = wlseal_xdg_toplevel_lowest_below(tl);
	if (d && (!low || wlseal_scene_under(d, low)))
		low = d;
	wlseal_xdg_toplevel_stack_under(&tl->xs->surface->server->scene,
					parent, low);
}
