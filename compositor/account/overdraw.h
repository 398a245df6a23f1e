/* SPDX-License-Identifier: MIT */
/*
 * overdraw.h - the overdraw budget of one repaint (overdraw.c), used by
 * scene.c only.
 */
#ifndef WLSEAL_OVERDRAW_H
#define WLSEAL_OVERDRAW_H

#include <stdbool.h>
#include <stdint.h>

/* What one client may draw in a frame, and all clients together, in
 * multiples of the cost of blending the output's area once (overdraw.c
 * says why these). */
#define WLSEAL_OVERDRAW_PER_OWNER 16
#define WLSEAL_OVERDRAW_TOTAL 32

struct overdraw_owner {
	const void *key;
	uint64_t demand;	/* at most this much, estimated */
	uint64_t alloc;		/* may draw this much */
	uint64_t used;
	bool dropped;		/* a view of it was not drawn */
};

struct overdraw {
	struct overdraw_owner *owners;	/* NULL: no budget this frame */
	int n;
	int dropped_views;
};

/*
 * Plans one repaint of an output of @area pixels: view i of @n belongs
 * to @keys[i] (NULL: the compositor's own, never limited) and blends
 * @demand[i] pixels. Writes each view's owner index (-1: not limited)
 * to @owner_of. false when memory is short: then nothing is limited.
 */
bool overdraw_plan(struct overdraw *od, const void *const *keys,
		   const uint64_t *demand, int n, uint64_t area,
		   int *owner_of);
/* May the view of @owner draw @pixels more? Counts them when it may. */
bool overdraw_take(struct overdraw *od, int owner, uint64_t pixels);
/* Frees the plan; logs (at most once a second) what was not drawn. */
void overdraw_finish(struct overdraw *od);

#endif
