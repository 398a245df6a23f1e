/* SPDX-License-Identifier: MIT */
/*
 * stalls.c - stalls: attackers that stay inside every default budget
 * (compositor/README.md, "Budgets and policy") and still make the
 * compositor spend its time on them, so that everyone else's frames
 * wait. The claim they test: no client inside its budgets can starve
 * the others.
 *
 * Each scenario runs beside the victim of victim.c: a well-behaved
 * client redrawing a 256x256 window on every frame callback, measured
 * over a 5 s window during the attack, and fresh clients timing their
 * first frame during and after it (the VICTIM line). The attack is set
 * up first, then the window opens and the attack loops until it closes
 * (view-walk tears down inside it). What is asserted is what does not
 * depend on the host's load: the compositor lives, the victim stays
 * connected and gets frames, both fresh clients get a first frame
 * within 10 s. The figures are reported.
 *
 * The attacks use connections of their own; the scenario's connection
 * stays idle (keymap-inflight's excepted), so the verdict on it says
 * whether the compositor still answers. Each scenario closes what it
 * opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_STALLS
#include "attack-presentation-time-client-protocol.h"
#include "attack-viewporter-client-protocol.h"
#include "stalls.h"

#define ARGB WL_SHM_FORMAT_ARGB8888
/* Premultiplied and nearly transparent: blends, never occludes. */
#define TRANSLUCENT 0x20101820u

/* --- baseline ------------------------------------------------------------ */

ATT_SCENARIO(run_stall_baseline, "stall-baseline",
	     "no attack: the victim and the fresh clients alone, the reference for the other stall scenarios' VICTIM lines",
	     ACCEPTED)
{
	struct victim v;

	if (att_victim_start(&v, o) != 0)
		return;
	att_victim_go(&v);
	att_victim_end(&v, a, o);
}

/* --- view-walk ----------------------------------------------------------- */

#define WALK_CLIENTS 4
#define WALK_TOPLEVELS 4000	/* under --max-surfaces-per-client 4096 */
#define WALK_TAIL_MS 2000	/* the window's end watches the teardown */

ATT_SCENARIO(run_view_walk, "view-walk",
	     "4 connections (--clients) x 4000 mapped 1x1 toplevels, each with one desync subsurface mapped and unmapped in a loop, then all disconnect at once: the victim keeps its frames, fresh clients get a first frame (asserted; figures on the VICTIM line)",
	     ACCEPTED)
{
	int n = a->clients > 0 ? a->clients : WALK_CLIENTS;
	struct attack *conns = calloc((size_t)n, sizeof(*conns));
	struct walk_tl **tls = calloc((size_t)n, sizeof(*tls));
	struct wl_surface **subs = calloc((size_t)n, sizeof(*subs));
	struct wl_buffer **bufs = calloc((size_t)n, sizeof(*bufs));
	struct victim v;
	long cycles = 0;
	int c = 0, torn_ms = -1;

	if (!conns || !tls || !subs || !bufs) {
		att_fail_setup(o, "out of memory");
		goto out;
	}
	if (att_victim_start(&v, o) != 0)
		goto out;
	for (; c < n; c++) {
		struct attack *x = &conns[c];
		struct wl_subcompositor *sc;
		struct wl_subsurface *sub;

		if (stall_connect(x, o, c) != 0) {
			c++;
			break;
		}
		sc = stall_bind(x, &wl_subcompositor_interface, 1, NULL);
		tls[c] = calloc(WALK_TOPLEVELS, sizeof(**tls));
		bufs[c] = stall_buffer(x, o, 1, 1, XRGB, 0xff808080u);
		if (!sc || !x->wm_base || !tls[c] || !bufs[c]) {
			att_fail_setup(o, "connection %d: no subcompositor, xdg_wm_base or buffer", c);
			c++;
			break;
		}
		if (stall_map_toplevels(x, tls[c], WALK_TOPLEVELS, bufs[c]) != 0) {
			/* A flush into a closed socket fails with EPIPE and
			 * sets no display error. */
			bool closed = errno == EPIPE || errno == ECONNRESET;

			att_fail_setup(o, "connection %d: mapping %d toplevels failed (%s)", c,
				       WALK_TOPLEVELS, wl_display_get_error(x->display) ?
				       "refused" : closed ? "connection closed by the compositor" :
				       "timeout");
			c++;
			break;
		}
		subs[c] = wl_compositor_create_surface(x->compositor);
		sub = wl_subcompositor_get_subsurface(sc, subs[c],
						      tls[c][0].surface);
		wl_subsurface_set_position(sub, 1, 1);
		wl_subsurface_set_desync(sub);
		wl_surface_commit(tls[c][0].surface);
	}
	if (o->result == RES_ERROR) {
		att_victim_cancel(&v);
		goto out;
	}
	att_victim_go(&v);
	while (att_victim_left_ms(&v) > WALK_TAIL_MS) {
		for (int i = 0; i < n; i++) {
			struct attack *x = &conns[i];

			for (int k = 0; k < 50; k++, cycles++) {
				wl_surface_attach(subs[i], bufs[i], 0, 0);
				wl_surface_damage(subs[i], 0, 0, 1, 1);
				wl_surface_commit(subs[i]);
				wl_surface_attach(subs[i], NULL, 0, 0);
				wl_surface_commit(subs[i]);
				if (k % 20 == 19 && stall_flush(x) != 0)
					break;
			}
			stall_flush(x);
		}
		for (int i = 0; i < n; i++)
			if (att_roundtrip(&conns[i]) != 0) {
				att_fail_setup(o, "connection %d lost during the loop", i);
				break;
			}
		if (o->result == RES_ERROR)
			break;
	}
	torn_ms = (int)(att_now_ms() - v.go_ms);
	stall_disconnect_all(conns, c);
	c = 0;
	att_note(o, "%d connections x %d toplevels; %ld map/unmap cycles; all disconnected %d ms into the window",
		 n, WALK_TOPLEVELS, cycles, torn_ms);
	att_victim_end(&v, a, o);
out:
	stall_disconnect_all(conns, c);
	for (int i = 0; tls && i < n; i++)
		free(tls[i]);
	free(tls);
	free(subs);
	free(bufs);
	free(conns);
}

/* --- fractional-rotate --------------------------------------------------- */

#define ROTATE_CLIENTS 4
#define ROTATE_LAYERS 8		/* the overdraw budget: 8 outputs a client */
#define ROTATE_BUF_W 250
#define ROTATE_BUF_H 190

struct rotator {
	struct attack c;
	struct wl_buffer *top, *layer;
	struct wl_surface *layers[ROTATE_LAYERS];
	int32_t w, h;	/* the output's size */
	bool frame;
};

/* Layers of @r, each transformed 90 or 270 degrees and sampled through
 * a fractional source rectangle scaled to @w x @h. */
static int rotator_setup(struct rotator *r, struct outcome *o, int i)
{
	struct wl_subcompositor *sc;
	struct wp_viewporter *vpr;

	if (stall_connect(&r->c, o, i) != 0)
		return -1;
	sc = stall_bind(&r->c, &wl_subcompositor_interface, 1, NULL);
	vpr = stall_bind(&r->c, &wp_viewporter_interface, 1, NULL);
	if (!sc || !vpr || stall_output_size(&r->c, &r->w, &r->h) != 0) {
		att_fail_setup(o, "connection %d: no subcompositor, viewporter or output mode", i);
		return -1;
	}
	r->top = stall_buffer(&r->c, o, 1, 1, ARGB, TRANSLUCENT);
	r->layer = stall_buffer(&r->c, o, ROTATE_BUF_W, ROTATE_BUF_H, ARGB,
				TRANSLUCENT);
	if (!r->top || !r->layer || stall_window(&r->c, r->top, 1, 1) != 0) {
		att_fail_setup(o, "connection %d: no window", i);
		return -1;
	}
	for (int k = 0; k < ROTATE_LAYERS; k++) {
		struct wl_surface *s = wl_compositor_create_surface(r->c.compositor);
		struct wl_subsurface *sub =
			wl_subcompositor_get_subsurface(sc, s, r->c.surface);
		struct wp_viewport *vp = wp_viewporter_get_viewport(vpr, s);

		wl_subsurface_set_desync(sub);
		wl_surface_set_buffer_transform(s, k % 2 ? WL_OUTPUT_TRANSFORM_270 :
						WL_OUTPUT_TRANSFORM_90);
		/* Surface coordinates come after the transform: the
		 * buffer stands on its side. */
		wp_viewport_set_source(vp, wl_fixed_from_double(0.5),
				       wl_fixed_from_double(0.75),
				       wl_fixed_from_double(ROTATE_BUF_H - 1.25),
				       wl_fixed_from_double(ROTATE_BUF_W - 1.5));
		wp_viewport_set_destination(vp, r->w, r->h);
		wl_surface_attach(s, r->layer, 0, 0);
		wl_surface_damage_buffer(s, 0, 0, ROTATE_BUF_W, ROTATE_BUF_H);
		wl_surface_commit(s);
		r->layers[k] = s;
	}
	wl_surface_commit(r->c.surface);
	if (stall_setup_flush(&r->c) != 0 || stall_setup_roundtrip(&r->c) != 0) {
		att_fail_setup(o, "connection %d: layers %s", i,
			       wl_display_get_error(r->c.display) ? "refused" : "timed out");
		return -1;
	}
	return 0;
}

/* Damage every layer and the window, with a frame callback. */
static void rotator_frame_commit(struct rotator *r)
{
	struct wl_callback *cb;

	for (int k = 0; k < ROTATE_LAYERS; k++) {
		wl_surface_attach(r->layers[k], r->layer, 0, 0);
		wl_surface_damage_buffer(r->layers[k], 0, 0, ROTATE_BUF_W,
					 ROTATE_BUF_H);
		wl_surface_commit(r->layers[k]);
	}
	r->frame = false;
	cb = wl_surface_frame(r->c.surface);
	wl_callback_add_listener(cb, &stall_flag_listener, &r->frame);
	wl_surface_attach(r->c.surface, r->top, 0, 0);
	wl_surface_damage_buffer(r->c.surface, 0, 0, 1, 1);
	wl_surface_commit(r->c.surface);
	stall_flush(&r->c);
}

ATT_SCENARIO(run_fractional_rotate, "fractional-rotate",
	     "4 clients x 8 translucent subsurfaces, buffer_transform 90/270, a wp_viewport scaling a fractional source rectangle to the output's size, redrawn every frame (inside the subsurface and overdraw budgets): the victim keeps its frames, fresh clients get a first frame (asserted)",
	     ACCEPTED)
{
	static struct rotator rs[ROTATE_CLIENTS];
	struct victim v;
	int c, frames = 0;

	memset(rs, 0, sizeof(rs));
	if (att_victim_start(&v, o) != 0)
		return;
	for (c = 0; c < ROTATE_CLIENTS; c++)
		if (rotator_setup(&rs[c], o, c) != 0) {
			c++;
			break;
		}
	if (o->result == RES_ERROR) {
		att_victim_cancel(&v);
		goto out;
	}
	att_victim_go(&v);
	while (att_victim_left_ms(&v) > 0) {
		for (int i = 0; i < c; i++)
			rotator_frame_commit(&rs[i]);
		for (int i = 0; i < c; i++)
			if (att_dispatch_until(&rs[i].c, &rs[i].frame) != 0) {
				att_fail_setup(o, "client %d: no frame callback", i);
				break;
			}
		if (o->result == RES_ERROR)
			break;
		frames++;
	}
	att_note(o, "%d clients x %d rotated layers scaled to %dx%d: %d frames in the window",
		 c, ROTATE_LAYERS, rs[0].w, rs[0].h, frames);
	att_victim_end(&v, a, o);
out:
	for (int i = 0; i < c; i++)
		att_disconnect(&rs[i].c);
}

/* --- subtree-move -------------------------------------------------------- */

#define SUBTREE_CHILDREN 1022	/* with A: 1023 of 1024 subsurfaces */

ATT_SCENARIO(run_subtree_move, "subtree-move",
	     "one toplevel, a subsurface A holding 1022 children; set_position(A) and a parent commit in a loop: the victim keeps its frames, fresh clients get a first frame (asserted)",
	     ACCEPTED)
{
	struct attack x = { 0 };
	struct wl_subcompositor *sc;
	struct wl_subsurface *sub_a;
	struct wl_surface *sa;
	struct wl_buffer *top, *small;
	struct victim v;
	long moves = 0;

	if (att_victim_start(&v, o) != 0)
		return;
	if (stall_connect(&x, o, 0) != 0)
		goto cancel;
	sc = stall_bind(&x, &wl_subcompositor_interface, 1, NULL);
	top = stall_buffer(&x, o, ATT_W, ATT_H, XRGB, 0xff406080u);
	small = stall_buffer(&x, o, 4, 4, XRGB, 0xffc08040u);
	if (!sc || !top || !small || stall_window(&x, top, ATT_W, ATT_H) != 0) {
		att_fail_setup(o, "no subcompositor, buffer or window");
		goto cancel;
	}
	sa = wl_compositor_create_surface(x.compositor);
	sub_a = wl_subcompositor_get_subsurface(sc, sa, x.surface);
	for (int i = 0; i < SUBTREE_CHILDREN; i++) {
		struct wl_surface *s = wl_compositor_create_surface(x.compositor);
		struct wl_subsurface *sub = wl_subcompositor_get_subsurface(sc, s, sa);

		wl_subsurface_set_position(sub, (i % 32) * 5, (i / 32) * 5);
		wl_surface_attach(s, small, 0, 0);
		wl_surface_damage(s, 0, 0, 4, 4);
		wl_surface_commit(s);
		if (i % 15 == 14 && stall_setup_flush(&x) != 0)
			break;
	}
	wl_surface_attach(sa, small, 0, 0);
	wl_surface_commit(sa);
	wl_surface_commit(x.surface);
	if (stall_setup_flush(&x) != 0 || stall_setup_roundtrip(&x) != 0) {
		att_fail_setup(o, "the subtree was %s", wl_display_get_error(x.display) ?
			       "refused" : "not answered");
		goto cancel;
	}
	att_victim_go(&v);
	while (att_victim_left_ms(&v) > 0) {
		for (int k = 0; k < 100; k++, moves++) {
			wl_subsurface_set_position(sub_a, (int32_t)(moves % 40),
						   (int32_t)(moves % 30));
			wl_surface_commit(x.surface);
			if (k % 50 == 49 && stall_flush(&x) != 0)
				break;
		}
		if (stall_flush(&x) != 0 || att_roundtrip(&x) != 0) {
			att_fail_setup(o, "the mover's connection was lost");
			break;
		}
	}
	att_note(o, "%ld moves of a subtree of %d subsurfaces in the window",
		 moves, SUBTREE_CHILDREN + 1);
	att_disconnect(&x);
	att_victim_end(&v, a, o);
	return;
cancel:
	att_disconnect(&x);
	att_victim_cancel(&v);
}

/* --- feedback-outputs ---------------------------------------------------- */

/*
 * Every presented feedback walks the wl_output resources of all clients
 * (the binds the output-holding connections keep), and sends a
 * sync_output for each of its own client's. The feedback clients bind
 * no output themselves: libwayland-server (1.21) drops a client whose
 * events of one frame do not fit its socket, and 3000 x 64 sync_outputs
 * (2.3 MB) would not; so the walk is the cost, not the sending.
 */
#define FB_HOLDERS 12		/* x 64: the heavy share of the output total */
#define FB_OUTPUT_BINDS 64	/* --max-outputs-per-client */
#define FB_CLIENTS 4		/* asking for feedbacks */
#define FB_PER_FRAME 3000	/* under --max-feedbacks-per-client 4096 */
#define FB_ALIVE_MAX 4000	/* with those a compositor left unanswered */

ATT_SCENARIO(run_feedback_outputs, "feedback-outputs",
	     "12 connections x 64 wl_output binds (the per-client limit), 4 more asking for 3000 presentation feedbacks every frame (under the feedback budget), each presented one walking all the binds: the victim keeps its frames, fresh clients get a first frame (asserted)",
	     ACCEPTED)
{
	static struct attack holders[FB_HOLDERS];
	static struct fb_conn fcs[FB_CLIENTS];
	struct victim v;
	uint32_t out_id;
	int h, c = 0, frames = 0, refused = 0, bad;
	long presented = 0, discarded = 0, unanswered = 0;

	memset(holders, 0, sizeof(holders));
	memset(fcs, 0, sizeof(fcs));
	if (att_victim_start(&v, o) != 0)
		return;
	for (h = 0; h < FB_HOLDERS; h++) {
		struct attack *x = &holders[h];

		if (stall_connect(x, o, h) != 0) {
			h++;
			goto cancel;
		}
		out_id = stall_global(x, "wl_output", NULL);
		if (!out_id) {
			att_fail_setup(o, "no wl_output");
			h++;
			goto cancel;
		}
		for (int k = 0; k < FB_OUTPUT_BINDS; k++)
			wl_registry_bind(x->registry, out_id, &wl_output_interface, 1);
		/* Refused at a total: what the budgets allow, not more. */
		if (att_roundtrip(x) != 0)
			refused++;
	}
	for (; c < FB_CLIENTS; c++) {
		struct fb_conn *fc = &fcs[c];

		if (stall_connect(&fc->c, o, FB_HOLDERS + c) != 0) {
			c++;
			goto cancel;
		}
		fc->pres = stall_bind(&fc->c, &wp_presentation_interface, 1, NULL);
		fc->buf = stall_buffer(&fc->c, o, ATT_W, ATT_H, XRGB, 0xff208040u);
		if (!fc->pres || !fc->buf ||
		    stall_window(&fc->c, fc->buf, ATT_W, ATT_H) != 0) {
			att_fail_setup(o, "connection %d: no wp_presentation, buffer or window",
				       FB_HOLDERS + c);
			c++;
			goto cancel;
		}
	}
	att_victim_go(&v);
	while (att_victim_left_ms(&v) > 0) {
		for (int i = 0; i < FB_CLIENTS; i++)
			if (stall_fb_frame(&fcs[i], FB_ALIVE_MAX - fcs[i].pending < FB_PER_FRAME ?
					   FB_ALIVE_MAX - fcs[i].pending : FB_PER_FRAME) != 0) {
				att_fail_setup(o, "feedback client %d lost sending", i);
				break;
			}
		if (o->result == RES_ERROR)
			break;
		bad = stall_fb_settle(fcs, FB_CLIENTS, STALL_TIMEOUT_MS);
		if (bad) {
			if (bad < 0)
				att_fail_setup(o, "a feedback client's frame callback did not come");
			else
				att_fail_setup(o, "feedback client %d: connection lost", bad - 1);
			break;
		}
		frames++;
	}
	for (int i = 0; i < FB_CLIENTS; i++) {
		presented += fcs[i].presented;
		discarded += fcs[i].discarded;
		unanswered += fcs[i].pending;
	}
	att_note(o, "%d connections x %d wl_output binds (%d refused at a total); %d frames of %d x %d feedbacks: %ld presented, %ld discarded, %ld unanswered",
		 h, FB_OUTPUT_BINDS, refused, frames, FB_CLIENTS, FB_PER_FRAME,
		 presented, discarded, unanswered);
	att_victim_end(&v, a, o);
	goto out;
cancel:
	att_victim_cancel(&v);
out:
	stall_disconnect_all(holders, h);
	for (int i = 0; i < c; i++)
		att_disconnect(&fcs[i].c);
}

/* --- keymap-inflight ----------------------------------------------------- */

#define KEYMAP_REQUESTS 10000	/* under --max-objects-per-client 65536 */
/* About a thousand: a limit of 1024 unread fds, and what libwayland
 * still had queued when the compositor decided. */
#define KEYMAP_INFLIGHT_MAX 1100
/* wl_keyboard v1 sends one event per keyboard: keymap, 16 bytes. */
#define KEYMAP_EVENT_BYTES 16

ATT_SCENARIO(run_keymap_inflight, "keymap-inflight",
	     "10000 wl_seat.get_keyboard, never reading the socket: each keymap fd the compositor sends stays in flight, charged to it; the client must be cut off (an error saying so, or a refusal) after at most about 1000, not kept or dropped silently (asserted)",
	     SURVIVES)
{
	struct wl_keyboard **kbs = calloc(KEYMAP_REQUESTS, sizeof(*kbs));
	int fd = att_raw_fd(a), sent = 0, unread = 0, most = 0;
	struct wl_seat *seat;
	struct victim v;
	long keymaps = 0;
	bool hup = false;

	if (!kbs) {
		att_fail_setup(o, "out of memory");
		return;
	}
	seat = stall_bind(a, &wl_seat_interface, 1, NULL);
	if (!seat) {
		/* weston's headless backend without input devices. */
		o->result = RES_SKIPPED;
		att_note(o, "no wl_seat");
		goto out;
	}
	if (att_roundtrip(a) != 0) {
		att_fail_setup(o, "no answer after binding wl_seat");
		goto out;
	}
	if (att_victim_start(&v, o) != 0)
		goto out;
	att_victim_go(&v);
	/* Not one read from here on: the keymaps pile up in our socket. */
	while (sent < KEYMAP_REQUESTS && !hup) {
		for (int k = 0; k < STALL_FLUSH_EVERY; k++, sent++) {
			kbs[sent] = wl_seat_get_keyboard(seat);
			wl_keyboard_add_listener(kbs[sent], &stall_keymap_counter, &keymaps);
		}
		if (stall_flush(a) != 0)
			hup = true;	/* EPIPE: the compositor closed */
		usleep(1000);	/* let the compositor answer */
		hup = stall_hung_up(fd, &unread) || hup;
		if (unread / KEYMAP_EVENT_BYTES > most)
			most = unread / KEYMAP_EVENT_BYTES;
	}
	/* The window: the fds stay in flight while the victim is timed. */
	while (att_victim_left_ms(&v) > 0) {
		usleep(50000);
		hup = stall_hung_up(fd, &unread) || hup;
		if (unread / KEYMAP_EVENT_BYTES > most)
			most = unread / KEYMAP_EVENT_BYTES;
	}
	/* Now read everything the compositor sent, and count. */
	if (hup) {
		bool never = false;

		while (att_dispatch_until(a, &never) == 0)
			;
	} else {
		att_roundtrip(a);
	}
	att_conclude(a, o);
	att_note(o, "%d get_keyboard sent, %d keymap fds unread at most, %ld keymaps sent to us in all; the compositor %s",
		 sent, most, keymaps,
		 o->result == RES_REFUSED ? "posted an error" :
		 o->result == RES_DISCONNECTED ? "dropped us without an error" :
		 o->result == RES_ACCEPTED ? "kept us" : "did not answer");
	if (hup && keymaps > KEYMAP_INFLIGHT_MAX)
		att_fail_setup(o, "%ld keymap fds went in flight before the compositor let go (at most %d)",
			       keymaps, KEYMAP_INFLIGHT_MAX);
	else if (!hup && most > KEYMAP_INFLIGHT_MAX)
		att_fail_setup(o, "%d keymap fds in flight and the client still connected (at most %d)",
			       most, KEYMAP_INFLIGHT_MAX);
	att_victim_end(&v, a, o);
out:
	for (int i = 0; i < sent; i++)
		wl_keyboard_destroy(kbs[i]);
	free(kbs);
}
