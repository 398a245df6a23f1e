/* SPDX-License-Identifier: MIT */
/*
 * storms.c - budgets: one client creating protocol objects by the
 * hundred thousand (surfaces, subsurfaces, regions, frame callbacks,
 * presentation feedbacks, wl_output binds, any object), to make the compositor hold memory and
 * spend time on every commit or frame for everyone.
 *
 * Each scenario sends its objects in batches and, after every batch, a
 * second, honest connection times a wl_display.sync while the batch is
 * being handled: the compositor must answer it within HONEST_MAX_MS
 * (asserted) and the worst time is reported. The attacker must be cut
 * off at the compositor's per-client budget (compositor/account/objects.c)
 * with wl_display.error no_memory naming the limit. Run against a
 * compositor with the budget raised (--max-*-per-client), the same
 * scenario measures what the objects cost without it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_BUDGETS
#include "scenario.h"
#include "attack-presentation-time-client-protocol.h"

/* The honest client's roundtrip must stay below this, even under TCG. */
#define HONEST_MAX_MS 1000
/*
 * Objects made between two flushes. What they write must fit
 * libwayland-client's 4 KiB buffer: past it the marshalling flushes by
 * itself, and a broken pipe there (the compositor closed the connection
 * after its refusal) is fatal to the display before the refusal can be
 * read, so the outcome would be "disconnected", not the budget's error.
 * The largest object here is make_layer()'s six requests, 92 bytes:
 * 40 of them are 3680.
 */
#define FLUSH_EVERY 40

#define BUDGET_REFUSED(msg_) \
	SHM_ERR(WL_DISPLAY_ERROR_NO_MEMORY, "wl_display", msg_)

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Flush everything, waiting for the socket while it is full. */
static int flush_all(struct attack *a)
{
	struct pollfd pfd = { .fd = wl_display_get_fd(a->display),
			      .events = POLLOUT };

	while (wl_display_flush(a->display) < 0) {
		if (errno != EAGAIN || poll(&pfd, 1, a->timeout_ms) <= 0)
			return -1;
	}
	return 0;
}

/* The second, honest connection and its worst roundtrip. */
struct honest {
	struct attack h;
	int64_t worst_us;
	int samples;
	bool lost;
	bool bounded;	/* its worst roundtrip is asserted (HONEST_MAX_MS) */
};

static int honest_start(struct honest *hc, struct attack *a,
			struct outcome *o)
{
	*hc = (struct honest){ .h = { .timeout_ms = a->timeout_ms },
			       .bounded = true };
	if (att_connect(&hc->h) != 0) {
		att_fail_setup(o, "the honest client cannot connect");
		att_disconnect(&hc->h);
		return -1;
	}
	return 0;
}

/* One timed wl_display.sync of the honest client. */
static void honest_sample(struct honest *hc)
{
	int64_t t0 = now_us();

	if (hc->lost)
		return;
	if (att_roundtrip_display(hc->h.display, HONEST_MAX_MS * 10) != 0) {
		hc->lost = true;
		return;
	}
	if (now_us() - t0 > hc->worst_us)
		hc->worst_us = now_us() - t0;
	hc->samples++;
}

/* Says what the honest client saw, and fails the scenario when it was
 * not answered in time. */
static void honest_end(struct honest *hc, struct outcome *o)
{
	honest_sample(hc);
	att_note(o, "honest client: worst roundtrip %.1f ms over %d samples",
		 (double)hc->worst_us / 1000.0, hc->samples);
	if (hc->lost)
		att_fail_setup(o, "the honest client lost its connection or waited %d ms",
			       HONEST_MAX_MS * 10);
	else if (hc->bounded && hc->worst_us > HONEST_MAX_MS * 1000)
		att_fail_setup(o, "the honest client waited %.1f ms for a roundtrip (limit %d ms)",
			       (double)hc->worst_us / 1000.0, HONEST_MAX_MS);
	att_disconnect(&hc->h);
}

/* One object of the storm: the @i-th. */
typedef void (*make_fn)(struct attack *a, void *data, int i);
/* What to do between batches (may be NULL): timed work on the objects
 * made so far; returns -1 when the connection failed. */
typedef int (*between_fn)(struct attack *a, void *data, struct honest *hc);

/*
 * @total objects in batches of @batch; after each batch the honest
 * client samples while the attacker's requests are handled, then the
 * attacker roundtrips (so that a refusal is read before more is
 * written: writing on would end in EPIPE, not the error's text).
 */
static void storm(struct attack *a, struct outcome *o, const char *what,
		  int total, int batch, make_fn make, between_fn between,
		  void *data)
{
	struct honest hc;
	int64_t t0 = now_us();
	int made = 0;

	if (honest_start(&hc, a, o) != 0)
		return;
	a->timeout_ms = 60000;
	while (made < total) {
		for (int i = 0; i < batch && made < total; i++, made++) {
			make(a, data, made);
			if (i % FLUSH_EVERY == FLUSH_EVERY - 1 &&
			    flush_all(a) != 0)
				break;
		}
		if (flush_all(a) != 0)
			break;
		honest_sample(&hc);
		if (att_roundtrip(a) != 0)
			break;
		if (between && between(a, data, &hc) != 0)
			break;
	}
	att_note(o, "%d %s sent in %lld ms", made, what,
		 (long long)((now_us() - t0) / 1000));
	honest_end(&hc, o);
}

/* --- surfaces, regions, callbacks ------------------------------------------ */

static void make_surface(struct attack *a, void *data, int i)
{
	wl_compositor_create_surface(a->compositor);
}

ATT_SCENARIO(run_surface_storm, "surface-storm",
	     "100000 wl_surfaces: every frame walks all surfaces; refused at the per-client surface budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 4096 surfaces"))
{
	storm(a, o, "surfaces", 100000, 1000, make_surface, NULL, NULL);
}

static void make_region(struct attack *a, void *data, int i)
{
	struct wl_region *r = wl_compositor_create_region(a->compositor);

	wl_region_add(r, i % 64, i % 48, 1, 1);
}

ATT_SCENARIO(run_region_object_storm, "region-object-storm",
	     "100000 wl_regions kept alive: refused at the per-client region budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 1024 regions"))
{
	storm(a, o, "regions", 100000, 1000, make_region, NULL, NULL);
}

static void make_callback(struct attack *a, void *data, int i)
{
	wl_surface_frame(a->surface);
}

ATT_SCENARIO(run_callback_storm, "callback-storm",
	     "100000 wl_surface.frame on one surface, never committed: refused at the per-client callback budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 4096 frame callbacks"))
{
	a->surface = wl_compositor_create_surface(a->compositor);
	storm(a, o, "frame callbacks", 100000, 1000, make_callback, NULL, NULL);
}

struct feedbacks {
	struct wp_presentation *presentation;
};

static void make_feedback(struct attack *a, void *data, int i)
{
	struct feedbacks *f = data;

	wp_presentation_feedback(f->presentation, a->surface);
}

static void bind_presentation(void *data, struct wl_registry *r,
			      uint32_t name, const char *iface,
			      uint32_t version)
{
	struct feedbacks *f = data;

	if (!strcmp(iface, "wp_presentation"))
		f->presentation = wl_registry_bind(r, name,
						   &wp_presentation_interface, 1);
}

static void no_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener presentation_listener = {
	.global = bind_presentation,
	.global_remove = no_remove,
};

ATT_SCENARIO(run_feedback_storm, "feedback-storm",
	     "100000 wp_presentation.feedback on one surface, never committed: refused at the per-client feedback budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 4096 presentation feedbacks"))
{
	struct feedbacks f = { 0 };
	struct wl_registry *r = wl_display_get_registry(a->display);

	wl_registry_add_listener(r, &presentation_listener, &f);
	if (att_roundtrip(a) != 0 || !f.presentation) {
		att_fail_setup(o, "no wp_presentation");
		return;
	}
	a->surface = wl_compositor_create_surface(a->compositor);
	storm(a, o, "presentation feedbacks", 100000, 1000, make_feedback,
	      NULL, &f);
}

/* --- subsurfaces ------------------------------------------------------------ */

struct subs {
	struct wl_subcompositor *subcompositor;
	struct wl_buffer *buf;
	int64_t commit_us;	/* the last batch's cost of one parent commit */
	int at;			/* with how many subsurfaces */
	int made;
};

static void make_subsurface(struct attack *a, void *data, int i)
{
	struct subs *s = data;
	struct wl_surface *child = wl_compositor_create_surface(a->compositor);
	struct wl_subsurface *sub;

	sub = wl_subcompositor_get_subsurface(s->subcompositor, child,
					      a->surface);
	wl_subsurface_set_position(sub, i % 64, (i / 64) % 64);
	s->made = i + 1;
}

/* 100 commits of the parent, timed, then 100 more while the honest
 * client waits for its roundtrip. */
static int parent_commits(struct attack *a, void *data, struct honest *hc)
{
	struct subs *s = data;
	int64_t t0 = now_us();

	for (int i = 0; i < 100; i++)
		wl_surface_commit(a->surface);
	if (att_roundtrip(a) != 0)
		return -1;
	s->commit_us = now_us() - t0;
	s->at = s->made;
	for (int i = 0; i < 100; i++)
		wl_surface_commit(a->surface);
	if (flush_all(a) != 0)
		return -1;
	honest_sample(hc);
	return att_roundtrip(a);
}

static void bind_subcompositor(void *data, struct wl_registry *r,
			       uint32_t name, const char *iface,
			       uint32_t version)
{
	struct subs *s = data;

	if (!strcmp(iface, "wl_subcompositor"))
		s->subcompositor = wl_registry_bind(r, name,
						    &wl_subcompositor_interface, 1);
}

static const struct wl_registry_listener subs_listener = {
	.global = bind_subcompositor,
	.global_remove = no_remove,
};

ATT_SCENARIO(run_subsurface_storm, "subsurface-storm",
	     "10000 subsurfaces of one toplevel, the parent committing between batches: each commit walks them all; refused at the per-client subsurface budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 1024 subsurfaces"))
{
	struct subs s = { 0 };
	struct wl_registry *r = wl_display_get_registry(a->display);
	int fd;

	wl_registry_add_listener(r, &subs_listener, &s);
	if (att_roundtrip(a) != 0 || !s.subcompositor) {
		att_fail_setup(o, "no wl_subcompositor");
		return;
	}
	fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &s.buf);
	close(fd);
	if (wl_display_get_error(a->display) || !s.buf)
		return;
	storm(a, o, "subsurfaces", 10000, 256, make_subsurface,
	      parent_commits, &s);
	att_note(o, "one parent commit: %.1f us with %d subsurfaces",
		 (double)s.commit_us / 100.0, s.at);
}

/* --- outputs, any object ------------------------------------------------------ */

struct outputs {
	struct wl_registry *registry;
	uint32_t name;
};

static void find_output(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	struct outputs *out = data;

	if (!strcmp(iface, "wl_output"))
		out->name = name;
}

static const struct wl_registry_listener outputs_listener = {
	.global = find_output,
	.global_remove = no_remove,
};

static void make_output(struct attack *a, void *data, int i)
{
	struct outputs *out = data;

	wl_registry_bind(out->registry, out->name, &wl_output_interface, 1);
}

ATT_SCENARIO(run_output_storm, "output-storm",
	     "100000 wl_output binds: every presented feedback walks them; refused at the per-client wl_output budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 64 wl_output objects"))
{
	struct outputs out = { wl_display_get_registry(a->display), 0 };

	wl_registry_add_listener(out.registry, &outputs_listener, &out);
	if (att_roundtrip(a) != 0 || !out.name) {
		att_fail_setup(o, "no wl_output");
		return;
	}
	storm(a, o, "wl_output binds", 100000, 1000, make_output, NULL, &out);
}

static void make_positioner(struct attack *a, void *data, int i)
{
	xdg_wm_base_create_positioner(a->wm_base);
}

ATT_SCENARIO(run_object_storm, "object-storm",
	     "200000 xdg_positioners: objects without a budget of their own; refused at the per-client object budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 65536 protocol objects"))
{
	if (!a->wm_base) {
		att_fail_setup(o, "no xdg_wm_base");
		return;
	}
	storm(a, o, "xdg_positioners", 200000, 2000, make_positioner, NULL,
	      NULL);
}

/* --- strings kept: titles ------------------------------------------------------ */

#define TITLE_LEN 4000

/* A toplevel (never mapped) with a title of @len bytes. */
static void make_titled(struct attack *a, size_t len, int i)
{
	static char title[TITLE_LEN + 1];
	struct wl_surface *s;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;

	/* libwayland-client marshals into a 4 KiB buffer and fails for
	 * good when a message does not fit: empty it first. Once that
	 * fails (the compositor closed the connection after its error),
	 * send nothing more, so that the error can still be read. */
	if (flush_all(a) != 0)
		return;
	s = wl_compositor_create_surface(a->compositor);
	xs = xdg_wm_base_get_xdg_surface(a->wm_base, s);
	tl = xdg_surface_get_toplevel(xs);
	memset(title, 'a' + i % 26, len);
	title[len] = '\0';
	if (flush_all(a) != 0)
		return;
	xdg_toplevel_set_title(tl, title);
}

static void make_titled_4000(struct attack *a, void *data, int i)
{
	make_titled(a, TITLE_LEN, i);
}

ATT_SCENARIO(run_title_storm, "title-storm",
	     "4000 xdg_toplevels with 4000-byte titles, 16 MB a client without a byte budget: refused at the per-client string budget, an honest client's roundtrip stays short",
	     BUDGET_REFUSED("exceeded 1048576 bytes of titles"))
{
	if (!a->wm_base) {
		att_fail_setup(o, "no xdg_wm_base");
		return;
	}
	storm(a, o, "titled toplevels", 4000, 10, make_titled_4000, NULL,
	      NULL);
}


#define FLOOD_CLIENTS 12
#define FLOOD_TOPLEVELS 4000
/* What the compositor may hold at the flood's peak (asserted). */
#define FLOOD_RSS_MAX (150ll << 20)

/*
 * Twelve connections, each with 4000 toplevels and a title on each: one
 * flood with 4000-byte titles (each connection is refused at its string
 * budget, having made a few hundred), one with titles as long as the
 * budget allows for all 4000 (about 220 bytes: every connection within
 * its budget, 48,000 toplevels in all). The compositor's resident set
 * stays under FLOOD_RSS_MAX through both (measured between batches); the
 * honest connection's roundtrips are reported, not bounded: wall time
 * here would be the machine's load as much as the compositor's.
 */
static int flood_round(struct attack *a, struct outcome *o, size_t len,
		       struct honest *hc, long long *peak, int *refused)
{
	static struct attack x[FLOOD_CLIENTS];
	int made = 0;

	for (int c = 0; c < FLOOD_CLIENTS; c++) {
		x[c] = (struct attack){ .timeout_ms = 60000 };
		if (att_connect(&x[c]) != 0 || !x[c].wm_base) {
			att_fail_setup(o, "flood connection %d could not connect", c);
			return -1;
		}
	}
	for (int i = 0; i < FLOOD_TOPLEVELS; i += 200) {
		for (int c = 0; c < FLOOD_CLIENTS; c++) {
			long long rss;

			if (!x[c].display)
				continue;
			for (int k = 0; k < 200; k++) {
				make_titled(&x[c], len, i + k);
				if (k % 50 == 49 && flush_all(&x[c]) != 0)
					break;
			}
			if (flush_all(&x[c]) != 0 || att_roundtrip(&x[c]) != 0) {
				(*refused)++;
				att_disconnect(&x[c]);
				x[c].display = NULL;
			} else {
				made += 200;
			}
			rss = att_compositor_kb(a, "VmRSS");
			*peak = rss > *peak ? rss : *peak;
			honest_sample(hc);
		}
	}
	for (int c = 0; c < FLOOD_CLIENTS; c++)
		if (x[c].display)
			att_disconnect(&x[c]);
	return made;
}

ATT_SCENARIO(run_title_flood, "title-flood",
	     "12 connections with 4000 titled toplevels each (290 MB of compositor with 4000-byte titles before the string budget): the compositor stays under 150 MB, with long titles (each connection refused) and with titles the budget allows",
	     ACCEPTED)
{
	size_t fits = (1u << 20) / FLOOD_TOPLEVELS - 40;
	long long before = att_compositor_kb(a, "VmRSS"), peak = before;
	int refused_long = 0, refused_fit = 0, made_long, made_fit;
	struct honest hc;

	if (!a->wm_base) {
		att_fail_setup(o, "no xdg_wm_base");
		return;
	}
	if (before < 0) {
		/* A compositor of another user or namespace. */
		o->result = RES_SKIPPED;
		att_note(o, "the compositor's /proc/PID/status cannot be read");
		return;
	}
	if (honest_start(&hc, a, o) != 0)
		return;
	/* What this scenario asserts is memory; the honest client's
	 * roundtrips are reported, and only a lost one fails it. */
	hc.bounded = false;
	made_long = flood_round(a, o, TITLE_LEN, &hc, &peak, &refused_long);
	made_fit = made_long < 0 ? -1 :
		   flood_round(a, o, fits, &hc, &peak, &refused_fit);
	att_note(o, "compositor RSS %lld MB before, %lld MB at the peak; %d-byte titles: %d toplevels kept, %d of %d connections refused; %zu-byte titles: %d kept, %d refused",
		 before >> 20, peak >> 20, TITLE_LEN, made_long, refused_long,
		 FLOOD_CLIENTS, fits, made_fit, refused_fit);
	honest_end(&hc, o);
	if (made_fit < 0)
		return;
	if (refused_long != FLOOD_CLIENTS || refused_fit != 0)
		att_fail_setup(o, "expected every long-title connection refused and none of the others");
	else if (peak > FLOOD_RSS_MAX)
		att_fail_setup(o, "the compositor grew to %lld MB (limit %lld MB)",
			       peak >> 20, FLOOD_RSS_MAX >> 20);
}

/* --- overdraw ------------------------------------------------------------------ */

#define LAYER_W 1024
#define LAYER_H 768

static void make_layer(struct attack *a, void *data, int i)
{
	struct subs *s = data;
	struct wl_surface *child = wl_compositor_create_surface(a->compositor);
	struct wl_subsurface *sub;

	sub = wl_subcompositor_get_subsurface(s->subcompositor, child,
					      a->surface);
	wl_subsurface_set_desync(sub);
	wl_surface_attach(child, s->buf, 0, 0);
	wl_surface_damage_buffer(child, 0, 0, LAYER_W, LAYER_H);
	wl_surface_commit(child);
	s->made = i + 1;
}

/* Layers up to @upto, then three frames of the toplevel, timed (us);
 * -1 when the connection failed. */
static int64_t layers_then_frames(struct attack *a, struct subs *s,
				  int upto, struct honest *hc)
{
	int64_t t0;

	while (s->made < upto) {
		make_layer(a, s, s->made);
		if (s->made % FLUSH_EVERY == 0 && flush_all(a) != 0)
			return -1;
	}
	if (flush_all(a) != 0 || att_roundtrip(a) != 0)
		return -1;
	t0 = now_us();
	for (int i = 0; i < 3; i++) {
		if (att_present(a, s->buf, LAYER_W, LAYER_H) != 0)
			return -1;
		honest_sample(hc);
	}
	return now_us() - t0;
}

/*
 * Overdraw: translucent subsurfaces of the output's size, all stacked on
 * one toplevel, so that every frame blends each of them over the whole
 * output (occlusion culling cannot help: they are translucent). With 8
 * of them a frame costs what a busy but honest client costs; with 1024
 * (the subsurface budget) a compositor without an overdraw budget blends
 * 128 times as much every frame, and every client's frames wait. The
 * frames with 1024 may cost at most four times those with 8 (asserted,
 * the machine's speed cancels out), and the honest connection's
 * roundtrips stay short.
 */
ATT_SCENARIO(run_overdraw_storm, "overdraw-storm",
	     "1024 translucent output-sized subsurfaces stacked on one toplevel: every frame would blend them all; frames with 1024 may cost at most 4x frames with 8 (asserted)",
	     ACCEPTED)
{
	struct subs s = { 0 };
	struct wl_registry *r = wl_display_get_registry(a->display);
	struct wl_shm_pool *pool;
	struct honest hc;
	int64_t few, many;
	int fd;

	wl_registry_add_listener(r, &subs_listener, &s);
	if (att_roundtrip(a) != 0 || !s.subcompositor) {
		att_fail_setup(o, "no wl_subcompositor");
		return;
	}
	fd = att_memfd_or_fail(o, LAYER_W * LAYER_H * 4, MFD_ALLOW_SEALING,
			       F_SEAL_SHRINK);
	if (fd < 0)
		return;
	/* Nearly transparent: nothing is opaque, everything blends. */
	att_fill(fd, 0, LAYER_W * LAYER_H * 4, 0x08102030);
	pool = wl_shm_create_pool(a->shm, fd, LAYER_W * LAYER_H * 4);
	close(fd);
	s.buf = wl_shm_pool_create_buffer(pool, 0, LAYER_W, LAYER_H,
					  LAYER_W * 4, WL_SHM_FORMAT_ARGB8888);
	if (att_window(a) != 0 || att_present(a, s.buf, LAYER_W, LAYER_H) != 0 ||
	    honest_start(&hc, a, o) != 0)
		return;
	a->timeout_ms = 120000;
	few = layers_then_frames(a, &s, 8, &hc);
	many = few < 0 ? -1 : layers_then_frames(a, &s, 1024, &hc);
	if (few >= 0 && many >= 0) {
		att_note(o, "3 frames: %.1f ms with 8 layers, %.1f ms with %d",
			 (double)few / 1000.0, (double)many / 1000.0, s.made);
		if (many > 4 * few + 200000)
			att_fail_setup(o, "frames with %d layers cost %.1fx those with 8: the work per frame grows with the layers one client stacks",
				       s.made, (double)many / (double)(few ? few : 1));
	}
	honest_end(&hc, o);
}
