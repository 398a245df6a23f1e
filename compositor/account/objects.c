/* SPDX-License-Identifier: MIT */
/*
 * objects.c - the object budgets: how many protocol objects of each kind
 * one client may hold at once, kept in the same per-client account as
 * the pool budget (account.h, pools.c).
 *
 * Every object a client creates costs the compositor memory, and some
 * cost it work on every commit or every frame. Pools have their own
 * budget (pools.c). For everything else, this is what a client can make
 * the compositor hold or do, and what bounds it (the audit of surface/, seat/ and shell/,
 * shm/ and scene/; each bound is repeated in a comment at its check):
 *
 * - wl_surface (surfaces, default 4096): a few hundred bytes and three
 *   pixman regions each, and every frame walks all surfaces of all
 *   clients (surface.c, frame_start). xdg_surface, xdg_toplevel and
 *   xdg_popup are one per surface at most (a surface has one role), and
 *   each is also one of the objects below. A popup costs work beyond its
 *   own requests in three places, all bounded by its client's own
 *   popups: its parent's every commit places it again (one listener per
 *   popup on the parent, shell/xdg-popup.c, parent_applied), a dismissal
 *   walks the popups on it, and the seat's test of a click against a
 *   grab chain walks the chain (popups nest at most 16 deep) times the
 *   clicked view's depth. wl_shell_surface (shell/wl-shell.c) is one per
 *   surface too, and goes with its surface (destroyed with it: the
 *   interface has no destroy request, so a client making and destroying
 *   windows holds no dead ones); a transient or popup is a child view of
 *   its wl_shell parent, 8 levels deep at most, and a parent's unmap or
 *   destroy walks its own children.
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
 *   presented or discarded; each presented one walks its client's
 *   wl_output resources (presentation.c, sync_output).
 * - wl_output (outputs, default 64): each bind is a resource in its
 *   client's list (surface/output.c), which every presented feedback of
 *   that client walks.
 * - everything else (objects, default 65536, counted over all
 *   interfaces): wl_buffer, wl_shell_surface (a title of at most a
 *   4 KiB message), xdg_positioner (its rules, about 80 bytes),
 *   xdg_popup, zxdg_output_v1 (no state: everything is sent when it is
 *   made), relative pointers (each motion walks the focused client's
 *   own, seat/relative-pointer.c), pointer constraints (one per surface
 *   at most; a motion looks at the focused surface's one, a few small
 *   regions, seat/pointer-constraints.c), text inputs (about 100 bytes,
 *   the surrounding text is not kept; a keyboard focus change walks the
 *   text inputs of the client left and of the client entered,
 *   seat/text-input.c), data sources and devices, seat devices, decorations,
 *   registries and every bind of a global.
 *   None of them costs work after its request (data sources keep no
 *   mime types, a toplevel keeps one title of at most a 4 KiB
 *   message) except seat devices and text inputs: every key or pointer
 *   event walks the focused client's wl_keyboard or wl_pointer objects
 *   (seat/seat-client.c), every keyboard focus change its text inputs,
 *   so this count bounds those walks too. Otherwise
 *   their count bounds their memory: a resource and its struct, about
 *   200 bytes, 13 MiB at the limit. A server_side decoration adds a
 *   frame of six scene views (shell/decor.c, about 1.5 KiB, no pixels kept:
 *   its images are made for each repaint that draws it); a decoration
 *   belongs to a toplevel, one per surface, so the surfaces limit
 *   bounds frames too (6 MiB a client at the default). The frame's
 *   views are drawn as their client's, within its overdraw budget.
 *
 * - strings kept (string bytes, default 1 MiB, counted in bytes: the
 *   string, its terminator and STRING_OVERHEAD for the allocation): an
 *   xdg_toplevel's or wl_shell_surface's title (one each, replaced),
 *   a data source's mime types (at most 32 and 4 KiB a source, but a
 *   client holds as many sources as objects). Their count alone does not
 *   bound them: 4000 toplevels with 4000-byte titles are 16 MB a
 *   client, and twelve such clients took the compositor from 115 MB to
 *   290 MB. At the default a client keeps 1 MiB of strings, all clients
 *   together 16 MiB (the total below); app ids and wl_shell classes are
 *   not kept at all, keymaps are the compositor's own (one sealed memfd
 *   for all), and a data offer shares its source's types.
 *
 * Per request, damage and regions are collapsed to their extents past 32
 * rectangles (region.c) and the scene's accumulated damage past 64
 * (scene.c), so no request and no repaint grows with a count the client
 * chooses beyond the limits above.
 *
 * Real applications stay far below every default: foot, GTK and mpv use
 * fewer than 100 surfaces and a few hundred objects. Each limit has its
 * --max-*-per-client option (options.c).
 *
 * Totals. A limit per client alone is multiplied by every connection an
 * attacker opens, and the per-frame walks cover all clients. So each
 * kind also has a total for all clients, TOTAL_FACTOR times the
 * per-client limit (65536 surfaces by default), of which the last
 * quarter is kept for light clients, those holding at most 1/64 of the
 * per-client limit (at least LIGHT_MIN): the rule of the pool totals
 * (account.c, wlseal_fair). However many connections misbehave within
 * their own budgets, they cannot push a total past its reserve, so an
 * honest client (a few surfaces, callbacks, a few hundred objects) still
 * gets its objects. A flood of light connections can fill the reserve
 * too, but that takes hundreds of them (16384 surfaces at 64 each: 256
 * connections, each an fd of the same table the pool reserve guards).
 */
#define TOTAL_FACTOR 16
#define LIGHT_MIN 8
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "account-private.h"

const struct wlseal_budget_info wlseal_budget_info[WLSEAL_BUDGET_KINDS] = {
	[WLSEAL_BUDGET_SURFACES] = { "surfaces", "max-surfaces-per-client", 4096 },
	[WLSEAL_BUDGET_SUBSURFACES] = { "subsurfaces", "max-subsurfaces-per-client", 1024 },
	[WLSEAL_BUDGET_REGIONS] = { "regions", "max-regions-per-client", 1024 },
	[WLSEAL_BUDGET_CALLBACKS] = { "frame callbacks", "max-callbacks-per-client", 4096 },
	[WLSEAL_BUDGET_FEEDBACKS] = { "presentation feedbacks", "max-feedbacks-per-client", 4096 },
	[WLSEAL_BUDGET_OUTPUTS] = { "wl_output objects", "max-outputs-per-client", 64 },
	[WLSEAL_BUDGET_OBJECTS] = { "protocol objects", "max-objects-per-client", 65536 },
	[WLSEAL_BUDGET_STRING_BYTES] = { "bytes of titles and mime types",
					 "max-string-bytes-per-client", 1 << 20 },
};

/* What malloc adds to a small string, near enough: its header and the
 * rounding to 16 bytes. */
#define STRING_OVERHEAD 32

/* The client is refused: log it (rate-limited) and end it with an
 * error that says which limit and how many. */
static void budget_refuse(struct wlseal_account *a, struct wl_client *client,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void budget_refuse(struct wlseal_account *a, struct wl_client *client,
			  const char *fmt, ...)
{
	struct wl_resource *display = wl_client_get_object(client, 1);
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	wlseal_account_log(client, "refused client pid=%d: %s", (int)a->pid, why);
	/* wl_client_post_no_memory() with our own message: the error is
	 * no_memory (the compositor will not spend more on this client),
	 * the text names the limit. Object 1 is always the wl_display. */
	if (display)
		wl_resource_post_error(display, WL_DISPLAY_ERROR_NO_MEMORY,
				       "%s", why);
	else
		wl_client_post_no_memory(client);
}

/* May @a hold @n more of @kind? If not, the client is refused. */
static bool budget_allows(struct wlseal_account *a, struct wl_client *client,
			  enum wlseal_budget kind, int n)
{
	const struct wlseal_budget_info *info = &wlseal_budget_info[kind];
	const struct wlseal_object_ledger *t = &a->ledger->objects;
	int mine = a->objects.held[kind];
	uint64_t limit = (uint64_t)t->per_client[kind];
	uint64_t total = limit * TOTAL_FACTOR;
	uint64_t light = limit / 64 > LIGHT_MIN ? limit / 64 : LIGHT_MIN;

	if (n > t->per_client[kind] - mine) {
		budget_refuse(a, client, "client exceeded %d %s (--%s)",
			      t->per_client[kind], info->what, info->option);
		return false;
	}
	if (!wlseal_fair((uint64_t)mine + (uint64_t)n,
			 (uint64_t)t->total[kind] + (uint64_t)n,
			 total, total / 4, light)) {
		budget_refuse(a, client,
			      "compositor near its limit of %llu %s for all clients "
			      "(%d held, this client %d)", (unsigned long long)total,
			      info->what, t->total[kind], mine);
		return false;
	}
	return true;
}

static void budget_charge(struct wlseal_account *a, enum wlseal_budget kind,
			  int n)
{
	a->objects.held[kind] += n;
	a->ledger->objects.total[kind] += n;
	wlseal_account_ref(a);	/* the object may outlive the client */
}

struct wlseal_account *wlseal_budget_take(struct wl_client *client,
					  enum wlseal_budget kind)
{
	struct wlseal_account *a = wlseal_account_of(client);

	if (!a) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	if (!budget_allows(a, client, kind, 1))
		return NULL;
	budget_charge(a, kind, 1);
	return a;
}

void wlseal_budget_put(struct wlseal_account *a, enum wlseal_budget kind)
{
	a->objects.held[kind]--;
	a->ledger->objects.total[kind]--;
	wlseal_account_unref(a);
}

/* A string's charge: a message is at most 4 KiB, so this is far from
 * int's range; a length past it is refused whole. */
static int string_charge(size_t len)
{
	return len > (1u << 20) ? INT_MAX : (int)len + 1 + STRING_OVERHEAD;
}

struct wlseal_account *wlseal_string_take(struct wl_client *client,
					  size_t len)
{
	struct wlseal_account *a = wlseal_account_of(client);
	int n = string_charge(len);

	if (!a) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	if (!budget_allows(a, client, WLSEAL_BUDGET_STRING_BYTES, n))
		return NULL;
	budget_charge(a, WLSEAL_BUDGET_STRING_BYTES, n);
	return a;
}

void wlseal_string_put(struct wlseal_account *a, size_t len)
{
	int n = string_charge(len);

	a->objects.held[WLSEAL_BUDGET_STRING_BYTES] -= n;
	a->ledger->objects.total[WLSEAL_BUDGET_STRING_BYTES] -= n;
	wlseal_account_unref(a);
}

void wlseal_kept_string_clear(struct wlseal_kept_string *k)
{
	if (k->s)
		wlseal_string_put(k->account, strlen(k->s));
	free(k->s);
	*k = (struct wlseal_kept_string){ 0 };
}

bool wlseal_kept_string_set(struct wlseal_kept_string *k,
			    struct wl_client *client, const char *value)
{
	size_t len = strlen(value);

	/* The old string goes first: a client replacing its title needs
	 * room for one, not two. */
	wlseal_kept_string_clear(k);
	k->account = wlseal_string_take(client, len);
	if (!k->account)
		return false;
	k->s = strdup(value);
	if (!k->s) {
		wlseal_string_put(k->account, len);
		k->account = NULL;
		wl_client_post_no_memory(client);
		return false;
	}
	return true;
}

/* One counted resource of WLSEAL_BUDGET_OBJECTS, until it is destroyed. */
struct counted {
	struct wl_listener destroy;
	struct wlseal_account *account;
};

static void counted_destroyed(struct wl_listener *listener, void *data)
{
	struct counted *c = wl_container_of(listener, c, destroy);

	(void)data;
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
	struct wlseal_account *a =
		wl_container_of(listener, a, objects.resource_created);
	struct wl_resource *resource = data;
	struct wl_client *client = wl_resource_get_client(resource);
	struct counted *c;

	/* The rule of the other kinds, asked before counting; past a
	 * limit the client gets its error, and the resource, made either
	 * way, is counted all the same and goes with the client. */
	budget_allows(a, client, WLSEAL_BUDGET_OBJECTS, 1);
	c = calloc(1, sizeof(*c));
	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->account = a;
	budget_charge(a, WLSEAL_BUDGET_OBJECTS, 1);
	c->destroy.notify = counted_destroyed;
	wl_resource_add_destroy_listener(resource, &c->destroy);
}

static void account_opened(struct wl_listener *listener, void *data)
{
	struct wlseal_account *a = data;

	(void)listener;
	a->objects.resource_created.notify = resource_created;
	wl_client_add_resource_created_listener(a->client,
						&a->objects.resource_created);
}

static void account_gone(struct wl_listener *listener, void *data)
{
	struct wlseal_account *a = data;

	(void)listener;
	wl_list_remove(&a->objects.resource_created.link);
	wl_list_init(&a->objects.resource_created.link);
}

void wlseal_objects_follow(struct wlseal_ledger *ledger)
{
	ledger->follow.objects_opened.notify = account_opened;
	ledger->follow.objects_gone.notify = account_gone;
	wl_signal_add(&ledger->account_opened, &ledger->follow.objects_opened);
	wl_signal_add(&ledger->account_gone, &ledger->follow.objects_gone);
}
