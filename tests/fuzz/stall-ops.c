/* SPDX-License-Identifier: MIT */
/*
 * stall-ops.c - the operations of wlseal-fuzz --stall: each is a burst of
 * requests of one kind on one connection's standing state, cheap to send
 * and as costly to serve as the protocol lets a client ask for, always
 * well-formed (libwayland and the compositor accept them, and no budget
 * is crossed: a refused request would only disconnect the connection).
 *
 * An operation is its kind, its connection c, a repetition count n and
 * two arguments a and b; every value it sends is a function of those
 * (mix()), so its text ("position c=1 n=300 a=5 b=2") replays it exactly.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stall.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "wlseal-seals.h"

enum {
	OP_DAMAGE, OP_DAMAGE_BUFFER, OP_RESTACK, OP_POSITION, OP_VIEWPORT,
	OP_TRANSFORM, OP_FEEDBACK, OP_FRAME, OP_REGION, OP_ATTACH,
	OP_MAPCYCLE, OP_SYNC, OP_COMMIT, OP_CHURN, OP_TOPLEVEL, OP_SEAT,
	OP_DATA, OP_POPUP, OP_POOL, OP_OUTPUTS, OP_DECORATION, OP_PARENT,
	OP_RECONNECT,
	OP_KINDS
};

static const struct {
	const char *name;
	int max_n;		/* repetitions at most */
	const char *what;
} ops[OP_KINDS] = {
	[OP_DAMAGE] = { "damage", 400, "wl_surface.damage rects (a: surface, b: huge, scattered, negative) and a commit" },
	[OP_DAMAGE_BUFFER] = { "damage-buffer", 400, "the same with damage_buffer" },
	[OP_RESTACK] = { "restack", 400, "place_above/place_below among the side-by-side subsurfaces, a parent commit" },
	[OP_POSITION] = { "position", 400, "set_position (b: on the output, huge, random; the chain's head moves 30 nested views), a parent commit" },
	[OP_VIEWPORT] = { "viewport", 100, "a fractional source of under a pixel scaled to destinations up to 32768, a commit each" },
	[OP_TRANSFORM] = { "transform", 150, "buffer_transform 0-7 and buffer_scale 1-2, a commit each" },
	[OP_FEEDBACK] = { "feedback", 1000, "wp_presentation.feedback (up to the budget of 4096 alive, each walks 64 wl_output binds), a commit" },
	[OP_FRAME] = { "frame", 1000, "wl_surface.frame callbacks (up to the budget of 4096), a commit" },
	[OP_REGION] = { "region", 300, "a wl_region of add/subtract rects set as opaque or input region, a commit" },
	[OP_ATTACH] = { "attach", 100, "attach a buffer (b: 2x2 to 2048x2048, 2x8192), full damage, a commit each" },
	[OP_MAPCYCLE] = { "mapcycle", 100, "unmap and map a subsurface (attach NULL, commit, attach, commit)" },
	[OP_SYNC] = { "sync", 300, "set_sync/set_desync, a parent commit" },
	[OP_COMMIT] = { "commit", 400, "commits of the toplevel: each applies its 1024 children's cached state" },
	[OP_CHURN] = { "churn", 60, "destroy side-by-side subsurfaces and make them again" },
	[OP_TOPLEVEL] = { "toplevel", 100, "titles, sizes, maximize, fullscreen, minimize, window geometry, a commit" },
	[OP_SEAT] = { "seat", 100, "get_pointer/get_keyboard and release (every keyboard gets a keymap fd)" },
	[OP_DATA] = { "data", 100, "a data source offering mime types, a data device, set_selection" },
	[OP_POPUP] = { "popup", 40, "a positioner set in every way, a popup of the toplevel mapped and destroyed" },
	[OP_POOL] = { "pool", 100, "a sealed pool, buffers made and destroyed, resize" },
	[OP_OUTPUTS] = { "outputs", 64, "release wl_output binds and bind again (each bind is answered with its events)" },
	[OP_DECORATION] = { "decoration", 100, "a toplevel of its own with a decoration, set_mode/unset_mode (each a configure)" },
	[OP_PARENT] = { "parent", 400, "a family of up to 100 toplevels of its own (a: its size; b: the mapped toplevel is its root or its leaf), set_parent among them and the mapped one" },
	[OP_RECONNECT] = { "reconnect", 1, "disconnect (tearing down all of the standing state) and build it again" },
};

/* Kinds --exclude left out of new operations. */
static uint32_t excluded;

bool op_exclude(const char *list)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < OP_KINDS && strcmp(t, ops[k].name); k++)
			;
		if (k == OP_KINDS)
			return false;
		excluded |= 1u << k;
	}
	return excluded != (1u << OP_KINDS) - 1;
}

int op_kinds(void)
{
	return OP_KINDS;
}

const char *op_name(int kind)
{
	return kind >= 0 && kind < OP_KINDS ? ops[kind].name : "?";
}

const char *op_what(int kind)
{
	return kind >= 0 && kind < OP_KINDS ? ops[kind].what : "?";
}

/* A value from the operation's arguments and the repetition k. */
static uint32_t mix(int a, int b, int k)
{
	struct rng r = { ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull) };

	return (uint32_t)rnd(&r);
}

void op_random(struct rng *r, struct op *op, int n_clients)
{
	*op = (struct op){ .kind = (int)below(r, OP_KINDS) };
	/* reconnecting rebuilds a whole connection: rarer than the rest */
	if (op->kind == OP_RECONNECT && below(r, 4))
		op->kind = (int)below(r, OP_RECONNECT);
	while (excluded & (1u << op->kind))
		op->kind = (int)below(r, OP_KINDS);
	op_mutate_args(r, op, n_clients);
	op->client = (int)below(r, (uint32_t)n_clients);
}

void op_mutate_args(struct rng *r, struct op *op, int n_clients)
{
	int max = ops[op->kind].max_n;

	switch (below(r, 4)) {
	case 0:
		op->n = 1 + (int)below(r, (uint32_t)max);
		break;
	case 1:
		op->n = op->n * 2 > max ? max : op->n * 2;
		break;
	case 2:
		op->client = (int)below(r, (uint32_t)n_clients);
		break;
	default:
		break;
	}
	if (op->n < 1)
		op->n = 1 + (int)below(r, (uint32_t)max);
	if (below(r, 2))
		op->a = (int)below(r, 1 << 16);
	if (below(r, 2))
		op->b = (int)below(r, 1 << 16);
}

int op_format(const struct op *op, char *buf, size_t len)
{
	return snprintf(buf, len, "%s c=%d n=%d a=%d b=%d", op_name(op->kind),
			op->client, op->n, op->a, op->b);
}

bool op_parse(const char *s, struct op *op, int n_clients)
{
	char name[48];

	*op = (struct op){ 0 };
	if (sscanf(s, "%47s c=%d n=%d a=%d b=%d", name, &op->client, &op->n,
		   &op->a, &op->b) != 5)
		return false;
	for (op->kind = 0; op->kind < OP_KINDS; op->kind++)
		if (!strcmp(name, ops[op->kind].name))
			break;
	if (op->kind == OP_KINDS || op->client < 0 || op->n < 1 ||
	    op->n > ops[op->kind].max_n)
		return false;
	op->client %= n_clients;
	return true;
}

/* ---- the operations ---- */

/* A side-by-side subsurface (its parent is the toplevel; no children). */
static int flat_sub(const struct sclient *c, uint32_t h)
{
	return CHAIN + (int)(h % (uint32_t)(c->n_subs - CHAIN));
}

/* Any subsurface, or the toplevel (-1). */
static int any_surface(const struct sclient *c, uint32_t h)
{
	int i = (int)(h % (uint32_t)(c->n_subs + 1));

	return i == c->n_subs ? -1 : i;
}

static uint32_t surface_id(const struct sclient *c, int i)
{
	return i < 0 ? c->surface : c->subs[i].surface;
}

/* Commit surface @i, and its parents up to the toplevel so that a
 * synchronized subsurface's state applies. */
static void commit_up(struct sclient *c, int i)
{
	while (i >= 0) {
		sc_req(c, c->subs[i].surface, WL_SURFACE_COMMIT, "");
		i = c->subs[i].parent;
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void rect(uint32_t h, int style, int32_t r[4])
{
	switch (style % 3) {
	case 0:		/* everything, clamped by the compositor */
		r[0] = 0; r[1] = 0; r[2] = INT32_MAX; r[3] = INT32_MAX;
		break;
	case 1:		/* scattered small ones: past 32 they collapse */
		r[0] = (int32_t)(h % 2048); r[1] = (int32_t)((h >> 11) % 2048);
		r[2] = 1 + (int32_t)((h >> 22) % 64); r[3] = 1 + (int32_t)((h >> 6) % 64);
		break;
	default:	/* from far negative to far positive */
		r[0] = INT32_MIN + (int32_t)(h % 1024); r[1] = -(int32_t)(h % 100000);
		r[2] = INT32_MAX; r[3] = INT32_MAX - (int32_t)(h % 7);
		break;
	}
}

static void op_damage(struct sclient *c, const struct op *op, uint32_t opcode)
{
	int i = any_surface(c, (uint32_t)op->a);
	uint32_t s = surface_id(c, i);

	for (int k = 0; k < op->n; k++) {
		int32_t r[4];

		rect(mix(op->a, op->b, k), op->b, r);
		sc_req(c, s, opcode, "iiii", r[0], r[1], r[2], r[3]);
	}
	commit_up(c, i);
}

static void op_restack(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int x = flat_sub(c, h), y = flat_sub(c, h >> 12);
		uint32_t sib = (h >> 24) % 16 == 0 || x == y ? c->surface : c->subs[y].surface;

		sc_req(c, c->subs[x].subsurface,
		       (h >> 28) & 1 ? WL_SUBSURFACE_PLACE_ABOVE : WL_SUBSURFACE_PLACE_BELOW,
		       "o", (int)sib);
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void op_position(struct stall_env *e, struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		/* the chain's head now and then: it carries 29 more */
		int x = h % 8 == 0 ? 0 : flat_sub(c, h >> 3);
		int32_t px, py;

		switch (op->b % 3) {
		case 0:
			px = (int32_t)((h >> 8) % (uint32_t)e->out_w);
			py = (int32_t)((h >> 20) % (uint32_t)e->out_h);
			break;
		case 1:
			px = (h >> 8) & 1 ? INT32_MAX - (int32_t)(h % 4096) : INT32_MIN + (int32_t)(h % 4096);
			py = (h >> 9) & 1 ? INT32_MAX : INT32_MIN;
			break;
		default:
			px = (int32_t)mix(op->b, op->a, k);
			py = (int32_t)h;
			break;
		}
		sc_req(c, c->subs[x].subsurface, WL_SUBSURFACE_SET_POSITION, "ii", px, py);
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void op_viewport(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int i = (int)(h % (uint32_t)c->n_subs);
		/* under a quarter of a pixel in from the corner, under half
		 * a pixel wide: inside any buffer of ours at scale 1 or 2 */
		int32_t sx = (int32_t)((h >> 4) % 64), sy = (int32_t)((h >> 10) % 64);
		int32_t sw = 1 + (int32_t)((h >> 16) % 127), sh = 1 + (int32_t)((h >> 23) % 127);
		int32_t dw = 1 + (int32_t)(mix(op->b, op->a, k) % VIEWPORT_MAX);
		int32_t dh = 1 + (int32_t)(mix(op->b, k, op->a) % VIEWPORT_MAX);

		if (op->b % 2 == 0) {
			dw = VIEWPORT_MAX;
			dh = VIEWPORT_MAX;
		}
		sc_req(c, c->subs[i].viewport, WP_VIEWPORT_SET_SOURCE, "iiii", sx, sy, sw, sh);
		sc_req(c, c->subs[i].viewport, WP_VIEWPORT_SET_DESTINATION, "ii", dw, dh);
		commit_up(c, i);
	}
}

static void op_transform(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int i = any_surface(c, h);
		uint32_t s = surface_id(c, i);

		sc_req(c, s, WL_SURFACE_SET_BUFFER_TRANSFORM, "i", (int)((h >> 8) % 8));
		sc_req(c, s, WL_SURFACE_SET_BUFFER_SCALE, "i", 1 + (int)((h >> 12) % 2));
		commit_up(c, i);
	}
}

static void op_feedback(struct sclient *c, const struct op *op)
{
	int i = any_surface(c, (uint32_t)op->a);
	uint32_t s = surface_id(c, i);

	for (int k = 0; k < op->n && c->feedbacks_pending < BUDGET_FEEDBACKS - 16; k++) {
		sc_req(c, c->presentation, WP_PRESENTATION_FEEDBACK, "on", (int)s, K_FEEDBACK);
		c->feedbacks_pending++;
	}
	commit_up(c, i);
}

static void op_frame(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n && c->frames_pending < BUDGET_CALLBACKS - 16; k++) {
		uint32_t s = surface_id(c, any_surface(c, mix(op->a, op->b, k)));

		sc_req(c, s, WL_SURFACE_FRAME, "n", K_FRAME);
		c->frames_pending++;
	}
	commit_up(c, any_surface(c, (uint32_t)op->a));
}

static void op_region(struct sclient *c, const struct op *op)
{
	int i = any_surface(c, (uint32_t)op->a);
	uint32_t reg = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_REGION, "n", K_OTHER);

	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int32_t r[4];

		rect(h, (int)(h >> 30), r);
		sc_req(c, reg, (h >> 5) % 4 == 0 ? WL_REGION_SUBTRACT : WL_REGION_ADD,
		       "iiii", r[0], r[1], r[2], r[3]);
	}
	sc_req(c, surface_id(c, i), op->b % 2 ? WL_SURFACE_SET_INPUT_REGION :
	       WL_SURFACE_SET_OPAQUE_REGION, "o", (int)reg);
	sc_req(c, reg, WL_REGION_DESTROY, "");
	commit_up(c, i);
}

static void op_attach(struct sclient *c, const struct op *op)
{
	int b = op->b % N_BUFS;

	for (int k = 0; k < op->n; k++) {
		int i = any_surface(c, mix(op->a, op->b, k));
		uint32_t s = surface_id(c, i);

		sc_req(c, s, WL_SURFACE_ATTACH, "oii", (int)c->buffers[b], 0, 0);
		sc_req(c, s, WL_SURFACE_DAMAGE_BUFFER, "iiii", 0, 0, INT32_MAX, INT32_MAX);
		if (i >= 0)
			c->subs[i].buffer = b;
		commit_up(c, i);
	}
}

static void op_mapcycle(struct sclient *c, const struct op *op)
{
	int i = (int)((uint32_t)op->a % (uint32_t)c->n_subs);
	struct sub *s = &c->subs[i];
	int b = s->buffer >= 0 ? s->buffer : BUF_SMALL;

	for (int k = 0; k < op->n; k++) {
		sc_req(c, s->surface, WL_SURFACE_ATTACH, "oii", 0, 0, 0);
		commit_up(c, i);
		sc_req(c, s->surface, WL_SURFACE_ATTACH, "oii", (int)c->buffers[b], 0, 0);
		sc_req(c, s->surface, WL_SURFACE_DAMAGE_BUFFER, "iiii", 0, 0, INT32_MAX, INT32_MAX);
		commit_up(c, i);
	}
	s->buffer = b;
}

static void op_sync(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int i = (int)(h % (uint32_t)c->n_subs);

		c->subs[i].sync = (h >> 16) & 1;
		sc_req(c, c->subs[i].subsurface, c->subs[i].sync ?
		       WL_SUBSURFACE_SET_SYNC : WL_SUBSURFACE_SET_DESYNC, "");
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void op_commit(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		if (op->b % 2)
			sc_req(c, c->surface, WL_SURFACE_DAMAGE, "iiii", 0, 0, INT32_MAX, INT32_MAX);
		sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
	}
}

static void op_churn(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		int i = flat_sub(c, mix(op->a, op->b, k));
		struct sub *s = &c->subs[i];

		sc_req(c, s->viewport, WP_VIEWPORT_DESTROY, "");
		sc_req(c, s->subsurface, WL_SUBSURFACE_DESTROY, "");
		sc_req(c, s->surface, WL_SURFACE_DESTROY, "");
		sc_make_sub(c, i);
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void op_toplevel(struct sclient *c, const struct op *op)
{
	char title[1024];

	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		size_t len = 1 + (h >> 8) % (sizeof(title) - 1);

		switch (h % 10) {
		case 0:
		case 1:
			memset(title, 'a' + (int)(h >> 20) % 26, len);
			title[len - 1] = 0;
			sc_req(c, c->toplevel, h % 10 ? XDG_TOPLEVEL_SET_APP_ID :
			       XDG_TOPLEVEL_SET_TITLE, "s", title);
			break;
		case 2:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_MIN_SIZE, "ii",
			       (int)((h >> 8) % 64), (int)((h >> 16) % 64));
			break;
		case 3:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_MAX_SIZE, "ii",
			       (h >> 8) & 1 ? 0 : 64 + (int)((h >> 9) % 30000),
			       (h >> 8) & 1 ? 0 : 64 + (int)((h >> 20) % 30000));
			break;
		case 4:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_MAXIMIZED, "");
			break;
		case 5:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_UNSET_MAXIMIZED, "");
			break;
		case 6:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_FULLSCREEN, "o", 0);
			break;
		case 7:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_UNSET_FULLSCREEN, "");
			break;
		case 8:
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_MINIMIZED, "");
			break;
		default:
			sc_req(c, c->xdg_surface, XDG_SURFACE_SET_WINDOW_GEOMETRY, "iiii",
			       -(int)((h >> 8) % 1000), -(int)((h >> 18) % 1000),
			       1 + (int)((h >> 4) % 4000), 1 + (int)((h >> 14) % 4000));
			break;
		}
	}
	sc_ack(c);
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

static void op_seat(struct sclient *c, const struct op *op)
{
	if (!c->seat)
		return;
	for (int k = 0; k < op->n; k++) {
		bool kb = mix(op->a, op->b, k) & 1;
		uint32_t d = sc_req(c, c->seat, kb ? WL_SEAT_GET_KEYBOARD : WL_SEAT_GET_POINTER,
				    "n", K_OTHER);

		sc_req(c, d, kb ? WL_KEYBOARD_RELEASE : WL_POINTER_RELEASE, "");
	}
}

static void op_data(struct sclient *c, const struct op *op)
{
	uint32_t src, dev;
	char mime[256];

	if (!c->ddm || !c->seat)
		return;
	src = sc_req(c, c->ddm, WL_DATA_DEVICE_MANAGER_CREATE_DATA_SOURCE, "n", K_OTHER);
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		size_t len = 2 + h % (sizeof(mime) - 2);

		memset(mime, 'a' + (int)(h >> 12) % 26, len);
		mime[len - 1] = 0;
		sc_req(c, src, WL_DATA_SOURCE_OFFER, "s", mime);
	}
	dev = sc_req(c, c->ddm, WL_DATA_DEVICE_MANAGER_GET_DATA_DEVICE, "no", K_OTHER,
		     (int)c->seat);
	sc_req(c, dev, WL_DATA_DEVICE_SET_SELECTION, "ou", (int)src, 0);
	sc_req(c, dev, WL_DATA_DEVICE_RELEASE, "");
	sc_req(c, src, WL_DATA_SOURCE_DESTROY, "");
}

static void op_popup(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		uint32_t pos = sc_req(c, c->wm_base, XDG_WM_BASE_CREATE_POSITIONER, "n", K_OTHER);
		uint32_t s, xs, popup;

		sc_req(c, pos, XDG_POSITIONER_SET_SIZE, "ii", 1 + (int)(h % 4000), 1 + (int)((h >> 12) % 4000));
		sc_req(c, pos, XDG_POSITIONER_SET_ANCHOR_RECT, "iiii", -(int)(h % 5000),
		       -(int)((h >> 4) % 5000), 1 + (int)((h >> 8) % 9000), 1 + (int)((h >> 16) % 9000));
		sc_req(c, pos, XDG_POSITIONER_SET_ANCHOR, "u", (int)((h >> 3) % 9));
		sc_req(c, pos, XDG_POSITIONER_SET_GRAVITY, "u", (int)((h >> 7) % 9));
		sc_req(c, pos, XDG_POSITIONER_SET_CONSTRAINT_ADJUSTMENT, "u", (int)((h >> 11) % 64));
		sc_req(c, pos, XDG_POSITIONER_SET_OFFSET, "ii", (int32_t)mix(op->b, op->a, k) / 2,
		       (int32_t)h / 2);
		sc_req(c, pos, XDG_POSITIONER_SET_REACTIVE, "");
		sc_req(c, pos, XDG_POSITIONER_SET_PARENT_SIZE, "ii", (int)(h % 30000), (int)((h >> 5) % 30000));
		s = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_SURFACE, "n", K_OTHER);
		xs = sc_req(c, c->wm_base, XDG_WM_BASE_GET_XDG_SURFACE, "no", K_OTHER, (int)s);
		popup = sc_req(c, xs, XDG_SURFACE_GET_POPUP, "noo", K_OTHER, (int)c->xdg_surface,
			       (int)pos);
		sc_req(c, s, WL_SURFACE_COMMIT, "");
		sc_req(c, popup, XDG_POPUP_DESTROY, "");
		sc_req(c, xs, XDG_SURFACE_DESTROY, "");
		sc_req(c, s, WL_SURFACE_DESTROY, "");
		sc_req(c, pos, XDG_POSITIONER_DESTROY, "");
	}
}

static void op_pool(struct sclient *c, const struct op *op)
{
	const int size = 65536;
	int fd = wlseal_memfd_create_upstream("wlseal-fuzz-stall-pool", size);
	uint32_t pool;

	if (fd < 0)
		return;
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0) {
		close(fd);
		return;
	}
	pool = sc_req(c, c->shm, WL_SHM_CREATE_POOL, "nhi", K_OTHER, fd, size);
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int w = 1 + (int)(h % 128), hh = 1 + (int)((h >> 8) % 128);
		uint32_t buf = sc_req(c, pool, WL_SHM_POOL_CREATE_BUFFER, "niiiiu", K_OTHER,
				      0, w, hh, w * 4, (int)((h >> 16) & 1));

		sc_req(c, buf, WL_BUFFER_DESTROY, "");
	}
	sc_req(c, pool, WL_SHM_POOL_RESIZE, "i", size);
	sc_req(c, pool, WL_SHM_POOL_DESTROY, "");
}

static void op_outputs(struct sclient *c, const struct op *op)
{
	for (int k = 0; k < op->n && c->n_outputs; k++) {
		int i = (int)(mix(op->a, op->b, k) % (uint32_t)c->n_outputs);

		sc_req(c, c->outputs[i], WL_OUTPUT_RELEASE, "");
		c->outputs[i] = sc_bind(c, "wl_output", 4, K_OTHER);
	}
}

static void op_decoration(struct sclient *c, const struct op *op)
{
	uint32_t s, xs, tl, d;

	if (!c->decoration)
		return;
	/* a decoration is only for a toplevel without a buffer yet: one of
	 * its own, configured again by every mode change */
	s = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_SURFACE, "n", K_OTHER);
	xs = sc_req(c, c->wm_base, XDG_WM_BASE_GET_XDG_SURFACE, "no", K_OTHER, (int)s);
	tl = sc_req(c, xs, XDG_SURFACE_GET_TOPLEVEL, "n", K_OTHER);
	d = sc_req(c, c->decoration, ZXDG_DECORATION_MANAGER_V1_GET_TOPLEVEL_DECORATION,
		   "no", K_OTHER, (int)tl);
	sc_req(c, s, WL_SURFACE_COMMIT, "");
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);

		if (h & 1)
			sc_req(c, d, ZXDG_TOPLEVEL_DECORATION_V1_SET_MODE, "u", 1 + (int)((h >> 1) & 1));
		else
			sc_req(c, d, ZXDG_TOPLEVEL_DECORATION_V1_UNSET_MODE, "");
	}
	sc_req(c, d, ZXDG_TOPLEVEL_DECORATION_V1_DESTROY, "");
	sc_req(c, tl, XDG_TOPLEVEL_DESTROY, "");
	sc_req(c, xs, XDG_SURFACE_DESTROY, "");
	sc_req(c, s, WL_SURFACE_DESTROY, "");
}

/* Toplevels made by op_parent: more than the compositor's walk of a
 * family (64, compositor/shell/xdg-toplevel.c), so its cut-off is met. */
#define FAMILY 100

/*
 * set_parent storms: a family of op->a % FAMILY + 1 toplevels, never
 * mapped, and the standing (mapped) toplevel with them, each set_parent
 * walking up its new parent's ancestors (the loop check) and, for the
 * mapped one, stacking it above them. Every link goes from a later
 * window to an earlier one in one order (b & 1: the mapped toplevel
 * first, the root; else last, a leaf), so no request makes a loop and
 * the connection is never disconnected for one.
 */
static void op_parent(struct sclient *c, const struct op *op)
{
	uint32_t s[FAMILY], xs[FAMILY], tl[FAMILY];
	int n = 1 + op->a % FAMILY;
	bool root = op->b & 1;

	for (int i = 0; i < n; i++) {
		s[i] = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_SURFACE, "n", K_OTHER);
		xs[i] = sc_req(c, c->wm_base, XDG_WM_BASE_GET_XDG_SURFACE, "no",
			       K_OTHER, (int)s[i]);
		tl[i] = sc_req(c, xs[i], XDG_SURFACE_GET_TOPLEVEL, "n", K_OTHER);
		sc_req(c, tl[i], XDG_TOPLEVEL_SET_PARENT, "o",
		       i ? (int)tl[i - 1] : root ? (int)c->toplevel : 0);
	}
	for (int k = 0; k < op->n; k++) {
		uint32_t h = mix(op->a, op->b, k);
		int i = (int)((h >> 2) % (uint32_t)n);
		int j = i ? (int)((h >> 12) % (uint32_t)i) : -1;

		if (root) {
			/* window i under an earlier one, or the root */
			sc_req(c, tl[i], XDG_TOPLEVEL_SET_PARENT, "o",
			       h & 1 && j >= 0 ? (int)tl[j] : (int)c->toplevel);
		} else if (h & 1) {
			/* the mapped leaf under any of them, or none */
			sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_PARENT, "o",
			       h & 2 ? (int)tl[i] : 0);
		} else {
			sc_req(c, tl[i], XDG_TOPLEVEL_SET_PARENT, "o",
			       j >= 0 ? (int)tl[j] : 0);
		}
	}
	sc_req(c, c->toplevel, XDG_TOPLEVEL_SET_PARENT, "o", 0);
	for (int i = n - 1; i >= 0; i--) {
		sc_req(c, tl[i], XDG_TOPLEVEL_DESTROY, "");
		sc_req(c, xs[i], XDG_SURFACE_DESTROY, "");
		sc_req(c, s[i], WL_SURFACE_DESTROY, "");
	}
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
}

/* Connect client @c again and build its standing state. */
static int rebuild(struct stall_env *e, struct sclient *c)
{
	int rc;

	sc_close(c);
	e->reconnects++;
	rc = sc_connect(e, c);
	if (rc == 0)
		rc = sc_setup(e, c);
	if (rc == -2)
		return -1;
	if (rc != 0) {
		fprintf(stderr, "wlseal-fuzz: stall: cannot rebuild a connection: %s\n",
			c->error[0] ? c->error : "connect failed");
		return -1;
	}
	return 0;
}

int op_run(struct stall_env *e, struct op *op)
{
	struct sclient *c = &e->clients[op->client % e->n_clients];
	int rc;

	e->window_worst = 0;
	if (c->dead && rebuild(e, c) != 0)
		return -1;
	sc_ack(c);
	switch (op->kind) {
	case OP_DAMAGE: op_damage(c, op, WL_SURFACE_DAMAGE); break;
	case OP_DAMAGE_BUFFER: op_damage(c, op, WL_SURFACE_DAMAGE_BUFFER); break;
	case OP_RESTACK: op_restack(c, op); break;
	case OP_POSITION: op_position(e, c, op); break;
	case OP_VIEWPORT: op_viewport(c, op); break;
	case OP_TRANSFORM: op_transform(c, op); break;
	case OP_FEEDBACK: op_feedback(c, op); break;
	case OP_FRAME: op_frame(c, op); break;
	case OP_REGION: op_region(c, op); break;
	case OP_ATTACH: op_attach(c, op); break;
	case OP_MAPCYCLE: op_mapcycle(c, op); break;
	case OP_SYNC: op_sync(c, op); break;
	case OP_COMMIT: op_commit(c, op); break;
	case OP_CHURN: op_churn(c, op); break;
	case OP_TOPLEVEL: op_toplevel(c, op); break;
	case OP_SEAT: op_seat(c, op); break;
	case OP_DATA: op_data(c, op); break;
	case OP_POPUP: op_popup(c, op); break;
	case OP_POOL: op_pool(c, op); break;
	case OP_OUTPUTS: op_outputs(c, op); break;
	case OP_DECORATION: op_decoration(c, op); break;
	case OP_PARENT: op_parent(c, op); break;
	case OP_RECONNECT: {
		/* the teardown: close, and the compositor's answer to
		 * another connection (or the new one) says it is done */
		uint64_t t0;

		sc_pump_all(e, 0);
		t0 = stall_cpu_ns(e);
		sc_close(c);
		rc = sc_connect(e, c);
		if (stall_cpu_ns(e) - t0 > e->window_worst)
			e->window_worst = stall_cpu_ns(e) - t0;
		if (rc == -2)
			return -1;
		e->reconnects++;
		rc = rc == 0 ? sc_setup(e, c) : rc;
		if (rc == -2)
			return -1;
		break;
	}
	}
	rc = sc_flush(e, c);
	op->cost_ns = e->window_worst;
	if (rc == -2 || e->stalled)
		return -1;
	if (c->dead && c->error[0] && getenv("WLSEAL_FUZZ_STALL_DEBUG"))
		fprintf(stderr, "wlseal-fuzz: stall: connection %d: %s\n", op->client, c->error);
	return 0;
}
