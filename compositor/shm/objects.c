/* SPDX-License-Identifier: MIT */
/*
 * objects.c - the object budgets: how many protocol objects of each kind
 * one client may hold at once, kept in the same per-client account as
 * the pool budget (account.h, check.c).
 *
 * Every object a client creates costs the compositor memory, and some
 * cost it work on every commit or every frame. Pools have their own
 * budget (check.c). For everything else, this is what a client can make
 * the compositor hold or do, and what bounds it (the audit of wl/,
 * shm/ and scene/; each bound is repeated in a comment at its check):
 *
 * - wl_surface (surfaces, default 4096): a few hundred bytes and three
 *   pixman regions each, and every frame walks all surfaces of all
 *   clients (surface.c, frame_start). xdg_surface, xdg_toplevel and
 *   xdg_popup are one per surface at most (a surface has one role).
 * - wl_subsurface (subsurfaces, default 1024): every commit of a parent
 *   walks its children (subcompositor.c, parent_applied), a synchronized
 *   tree all the way down, and get_subsurface measures the height of the
 *   new child's tree; so one commit costs time in proportion to the
 *   client's subsurfaces (measured: 0.35 ms a parent commit at 10,000).
 *   Nesting is capped at 32 levels (subcompositor.c's MAX_DEPTH).
 * - wl_region (regions, default 1024): at most 32 rectangles each
 *   (region.c), so a region is small and every add/subtract is O(1).
 * - frame callbacks (callbacks, default 4096): alive from wl_surface.frame
 *   until done; a client asking for frames without committing would
 *   otherwise grow a surface's pending list without end, and frame_done
 *   walks every callback in flight.
 * - wp_presentation_feedback (feedbacks, default 4096): alive until
 *   presented or discarded; each presented one walks the wl_output
 *   resources (presentation.c, sync_output).
 * - wl_output (outputs, default 64): each bind is a resource in the
 *   list that every presented feedback of every client walks.
 * - everything else (objects, default 65536, counted over all
 *   interfaces): wl_buffer, xdg_positioner, data sources and devices,
 *   seat devices, decorations, registries and every bind of a global.
 *   None of them costs work after its request (data sources keep no
 *   mime types, seat devices send nothing, a toplevel keeps one title
 *   of at most a 4 KiB message), so their count bounds their memory:
 *   a resource and its struct, about 200 bytes, 13 MiB at the limit.
 *
 * Per request, damage and regions are collapsed to their extents past 32
 * rectangles (region.c) and the scene's accumulated damage past 64
 * (scene.c), so no request and no repaint grows with a count the client
 * chooses beyond the limits above.
 *
 * Real applications stay far below every default: foot, GTK and mpv use
 * fewer than 100 surfaces and a few hundred objects. Each limit has its
 * --max-*-per-client option (main.c).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "account.h"
#include "log.h"
#include "shm.h"

const struct wlseal_budget_info wlseal_budget_info[WLSEAL_BUDGET_KINDS] = {
	[WLSEAL_BUDGET_SURFACES] = { "surfaces", "max-surfaces-per-client", 4096 },
	[WLSEAL_BUDGET_SUBSURFACES] = { "subsurfaces", "max-subsurfaces-per-client", 1024 },
	[WLSEAL_BUDGET_REGIONS] = { "regions", "max-regions-per-client", 1024 },
	[WLSEAL_BUDGET_CALLBACKS] = { "frame callbacks", "max-callbacks-per-client", 4096 },
	[WLSEAL_BUDGET_FEEDBACKS] = { "presentation feedbacks", "max-feedbacks-per-client", 4096 },
	[WLSEAL_BUDGET_OUTPUTS] = { "wl_output objects", "max-outputs-per-client", 64 },
	[WLSEAL_BUDGET_OBJECTS] = { "protocol objects", "max-objects-per-client", 65536 },
};

/* The client is over @kind's limit: log it (rate-limited) and end it
 * with an error that says which limit and how many. */
static void budget_refuse(struct wlseal_shm_account *a,
			  struct wl_client *client, enum wlseal_budget kind,
			  int limit)
{
	const struct wlseal_budget_info *info = &wlseal_budget_info[kind];
	struct wl_resource *display = wl_client_get_object(client, 1);

	wlseal_shm_log(client, "refused client pid=%d: client exceeded %d %s (--%s)",
		       (int)a->pid, limit, info->what, info->option);
	/* wl_client_post_no_memory() with our own message: the error is
	 * no_memory (the compositor will not spend more on this client),
	 * the text names the limit. Object 1 is always the wl_display. */
	if (display)
		wl_resource_post_error(display, WL_DISPLAY_ERROR_NO_MEMORY,
				       "client exceeded %d %s (--%s)", limit,
				       info->what, info->option);
	else
		wl_client_post_no_memory(client);
}

struct wlseal_shm_account *wlseal_budget_take(struct wlseal_shm *shm,
					      struct wl_client *client,
					      enum wlseal_budget kind)
{
	struct wlseal_shm_account *a = wlseal_shm_account(client);

	if (!a) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	if (a->objects[kind] >= shm->max_objects[kind]) {
		budget_refuse(a, client, kind, shm->max_objects[kind]);
		return NULL;
	}
	a->objects[kind]++;
	a->refs++;	/* the object may outlive the client's destroy signal */
	return a;
}

void wlseal_budget_put(struct wlseal_shm_account *a, enum wlseal_budget kind)
{
	a->objects[kind]--;
	wlseal_shm_account_unref(a);
}

/* One counted resource of WLSEAL_BUDGET_OBJECTS, until it is destroyed. */
struct counted {
	struct wl_listener destroy;
	struct wlseal_shm_account *account;
};

static void counted_destroyed(struct wl_listener *listener, void *data)
{
	struct counted *c = wl_container_of(listener, c, destroy);

	wl_list_remove(&c->destroy.link);
	wlseal_budget_put(c->account, WLSEAL_BUDGET_OBJECTS);
	free(c);
}

/*
 * Every resource the client creates, whatever its interface: libwayland
 * tells us from inside wl_resource_create(). The resource is made either
 * way; past the limit the error ends the client before its next request
 * is dispatched, and the resource goes with it.
 */
static void resource_created(struct wl_listener *listener, void *data)
{
	struct wlseal_shm_account *a =
		wl_container_of(listener, a, resource_created);
	struct wl_resource *resource = data;
	struct wl_client *client = wl_resource_get_client(resource);
	int limit = a->shm->max_objects[WLSEAL_BUDGET_OBJECTS];
	struct counted *c;

	c = calloc(1, sizeof(*c));
	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->account = a;
	a->objects[WLSEAL_BUDGET_OBJECTS]++;
	a->refs++;
	c->destroy.notify = counted_destroyed;
	wl_resource_add_destroy_listener(resource, &c->destroy);
	if (a->objects[WLSEAL_BUDGET_OBJECTS] > limit)
		budget_refuse(a, client, WLSEAL_BUDGET_OBJECTS, limit);
}

bool wlseal_budget_watch(struct wlseal_shm *shm, struct wl_client *client)
{
	struct wlseal_shm_account *a = wlseal_shm_account(client);

	if (!a)
		return false;
	a->shm = shm;
	a->resource_created.notify = resource_created;
	wl_client_add_resource_created_listener(client, &a->resource_created);
	return true;
}
