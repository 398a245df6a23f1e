/* SPDX-License-Identifier: MIT */
/*
 * overdraw.c - the overdraw budget: how many pixels each client's views
 * may cost one repaint.
 *
 * Damage tracking bounds a frame's work by the damaged area only when
 * each damaged pixel is drawn a few times. A client can stack views
 * without end: 1024 translucent subsurfaces of the output's size (its
 * subsurface budget) each blend over the whole output, and every frame
 * whose damage touches them (theirs, or any other client's beneath)
 * blends all 1024: half a second a frame on a fast host, many seconds
 * under TCG, and every client's frame callbacks wait for it. More
 * connections multiply it. Occlusion culling does not help: the views
 * are translucent.
 *
 * Opaque pixels copied 1:1 need no budget: the scene writes each output
 * pixel under an opaque view once a frame (SRC, nothing below it drawn),
 * so all the opaque parts of all views cost at most one output's copy
 * together, and forty stacked full-screen windows cost one. Blending is
 * what piles up, and sampling: a pixel drawn through a transform (a
 * buffer turned 90 degrees, a fractional viewport, bilinear filtering)
 * costs up to 16 blends, opaque or not. So every repaint has a budget
 * of cost, in multiples of blending the output's area once (the scene
 * weighs each view's pixels, scene/render.c view_cost_weights): at most
 * WLSEAL_OVERDRAW_PER_OWNER for the views of one client (enough for one
 * output-sized layer of the costliest kind, or a translucent window, a
 * translucent video subsurface and an overlay many times over), at most
 * WLSEAL_OVERDRAW_TOTAL for all clients together. When the clients'
 * demands exceed the total, it is shared max-min fairly: a client that
 * asks for less than an equal share gets all it asks for, and the rest
 * is split among the others. A well-behaved client's window (demand: its
 * area, far below a share) is therefore always drawn, however many
 * connections stack views over it. Demands are exact: the scene knows
 * what each view costs once occlusion is decided, and the 1:1 opaque
 * parts, always drawn, decide it alone.
 */
#include <stdlib.h>
#include <time.h>

#include "log.h"
#include "overdraw.h"

static const void *const *sort_keys;

static int by_key(const void *a, const void *b)
{
	uintptr_t ka = (uintptr_t)sort_keys[*(const int *)a];
	uintptr_t kb = (uintptr_t)sort_keys[*(const int *)b];

	return ka < kb ? -1 : ka > kb;
}

static const struct overdraw_owner *sort_owners;

static int by_demand(const void *a, const void *b)
{
	uint64_t da = sort_owners[*(const int *)a].demand;
	uint64_t db = sort_owners[*(const int *)b].demand;

	return da < db ? -1 : da > db;
}

/* Max-min fair shares of @total among the owners, taken in @order
 * (ascending demand): each gets its demand or an equal share of what
 * is left, whichever is less. */
static void share_out(struct overdraw_owner *o, const int *order, int n,
		      uint64_t total)
{
	for (int k = 0; k < n; k++) {
		struct overdraw_owner *ow = &o[order[k]];
		uint64_t share = total / (uint64_t)(n - k);

		ow->alloc = ow->demand < share ? ow->demand : share;
		total -= ow->alloc;
	}
}

bool overdraw_plan(struct overdraw *od, const void *const *keys,
		   const uint64_t *demand, int n, uint64_t area,
		   int *owner_of)
{
	uint64_t cap = area * WLSEAL_OVERDRAW_PER_OWNER, sum = 0;
	int *order, m = 0;

	size_t slots = n > 0 ? (size_t)n : 1;

	*od = (struct overdraw){ 0 };
	for (int i = 0; i < n; i++)
		owner_of[i] = -1;
	order = malloc(sizeof(*order) * slots);
	od->owners = calloc(slots, sizeof(*od->owners));
	if (!order || !od->owners) {
		free(order);
		free(od->owners);
		od->owners = NULL;
		return false;
	}
	for (int i = 0; i < n; i++)
		if (keys[i] && demand[i])
			order[m++] = i;
	/* One owner per key: the views sorted by key, then one pass. Work
	 * is n log n whatever the number of connections. */
	sort_keys = keys;
	qsort(order, (size_t)m, sizeof(*order), by_key);
	for (int j = 0; j < m; j++) {
		int i = order[j];

		if (!od->n || od->owners[od->n - 1].key != keys[i])
			od->owners[od->n++].key = keys[i];
		od->owners[od->n - 1].demand += demand[i];
		owner_of[i] = od->n - 1;
	}
	for (int k = 0; k < od->n; k++) {
		if (od->owners[k].demand > cap)
			od->owners[k].demand = cap;
		sum += od->owners[k].demand;
		od->owners[k].alloc = od->owners[k].demand;
		order[k] = k;
	}
	if (sum > area * WLSEAL_OVERDRAW_TOTAL) {
		sort_owners = od->owners;
		qsort(order, (size_t)od->n, sizeof(*order), by_demand);
		share_out(od->owners, order, od->n,
			  area * WLSEAL_OVERDRAW_TOTAL);
	}
	free(order);
	return true;
}

bool overdraw_take(struct overdraw *od, int owner, uint64_t pixels)
{
	struct overdraw_owner *o;

	if (!od->owners || owner < 0)
		return true;
	o = &od->owners[owner];
	if (o->used + pixels > o->alloc) {
		o->dropped = true;
		od->dropped_views++;
		return false;
	}
	o->used += pixels;
	return true;
}

void overdraw_finish(struct overdraw *od)
{
	static int64_t last_ms;
	struct timespec ts;
	int64_t now;
	int clients = 0;

	if (od->dropped_views) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		for (int k = 0; k < od->n; k++)
			clients += od->owners[k].dropped;
		if (now - last_ms >= 1000) {
			last_ms = now;
			wlseal_log("overdraw budget: %d views of %d clients not drawn in this frame (a client may spend %dx the cost of blending the output's area once a frame, all clients %dx)",
				   od->dropped_views, clients,
				   WLSEAL_OVERDRAW_PER_OWNER,
				   WLSEAL_OVERDRAW_TOTAL);
		}
	}
	free(od->owners);
	od->owners = NULL;
}
