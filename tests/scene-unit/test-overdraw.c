/* SPDX-License-Identifier: MIT */
/*
 * test-overdraw - the scene's overdraw budget (account/overdraw.c): how many
 * of each client's views one repaint draws. Output is TAP.
 *
 * Every layer here is a full-output a8r8g8b8 view whose premultiplied
 * pixels are (alpha 0, red 1): OVER adds exactly 1 to the red channel
 * below it and leaves green and blue alone, so a pixel's red counts the
 * layers drawn over it. The background's red is WLSEAL_BACKGROUND's.
 *
 * Checked against the scene without the budget (overdraw_take()
 * returning true at once): tests 1, 3 and 6 fail (red 32 + 20, 32 + 64 and
 * 32 + 20 over the opaque window). With every pixel weighed 1 (a budget
 * of pixels, not of cost), tests 8 and 10 fail (red 32 + 2, 32 + 32).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "test-view.h"

#define W 64
#define H 48
#define MAX_VIEWS 80
#define BG_RED ((WLSEAL_BACKGROUND >> 16) & 0xff)

static uint32_t layer_pixels[W * H];	/* alpha 0, red 1 */
static uint32_t honest_pixels[8 * 8];	/* opaque green */
static struct test_view views[MAX_VIEWS];
static int n_views, failed, test_no;

static void check(bool ok, const char *what, const char *detail)
{
	printf("%s %d - %s%s%s\n", ok ? "ok" : "not ok", ++test_no, what,
	       detail[0] ? ": " : "", detail);
	failed |= !ok;
}

static struct test_view *add(struct wlseal_scene *scene, const void *owner,
			     pixman_format_code_t format, uint32_t *pixels,
			     int x, int y, int w, int h)
{
	struct test_view *t = &views[n_views++];

	*t = (struct test_view){ .format = format, .pixels = pixels };
	wlseal_scene_view_init(&t->view, &tv_source);
	t->view.width = w;
	t->view.height = h;
	t->view.owner = owner;
	wlseal_scene_map(scene, &t->view);
	wlseal_scene_move(scene, &t->view, x, y);
	return t;
}

/* A layer of @owner over everything so far. */
static void layers(struct wlseal_scene *scene, const void *owner, int n)
{
	for (int i = 0; i < n; i++)
		add(scene, owner, PIXMAN_a8r8g8b8, layer_pixels, 0, 0, W, H);
}

static uint32_t render_at(struct wlseal_scene *scene, int x, int y)
{
	static uint32_t out[W * H];
	pixman_image_t *target = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H,
							  out, W * 4);

	wlseal_scene_render(scene, target, 0, NULL);
	pixman_image_unref(target);
	return out[y * W + x];
}

static void start(struct wlseal_scene *scene)
{
	n_views = 0;
	wlseal_scene_init(scene, W, H);
}

/* One client with 20 output-sized layers: its top 16 are drawn. */
static void test_one_client(void)
{
	struct wlseal_scene scene;
	char detail[96];
	uint32_t px;
	int owner;

	start(&scene);
	layers(&scene, &owner, 20);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (px >> 16) & 0xff, BG_RED + 16);
	check(((px >> 16) & 0xff) == BG_RED + 16,
	      "one client's 20 output-sized layers: 16 drawn", detail);
	wlseal_scene_finish(&scene);
}

/* Eight clients with 8 layers each (64 outputs' worth, twice the total)
 * over an honest client's small opaque window: the honest window is
 * drawn (opaque: it blends nothing), the eight share the total equally
 * (32 outputs' worth: 4 layers each). */
static void test_fair_shares(void)
{
	struct wlseal_scene scene;
	int owners[8], honest;
	char detail[128];
	uint32_t in, out;

	start(&scene);
	add(&scene, &honest, PIXMAN_x8r8g8b8, honest_pixels, 20, 20, 8, 8);
	for (int k = 0; k < 8; k++)
		layers(&scene, &owners[k], 8);
	in = render_at(&scene, 24, 24);
	out = render_at(&scene, 2, 2);
	snprintf(detail, sizeof(detail), "green under them %u, want 128",
		 (in >> 8) & 0xff);
	check(((in >> 8) & 0xff) == 128,
	      "the honest window under 8 heavy clients is drawn", detail);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (out >> 16) & 0xff, BG_RED + 8 * 4);
	check(((out >> 16) & 0xff) == BG_RED + 8 * 4,
	      "8 clients of 8 layers each: 4 layers of each drawn", detail);
	wlseal_scene_finish(&scene);
}

/* Within every budget nothing changes: 3 clients of 4 layers each. */
static void test_within(void)
{
	struct wlseal_scene scene;
	int owners[3];
	char detail[96];
	uint32_t px;

	start(&scene);
	for (int k = 0; k < 3; k++)
		layers(&scene, &owners[k], 4);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (px >> 16) & 0xff, BG_RED + 12);
	check(((px >> 16) & 0xff) == BG_RED + 12,
	      "3 clients of 4 layers each: all 12 drawn", detail);
	wlseal_scene_finish(&scene);
}

/* The compositor's own views (owner NULL) are not limited. */
static void test_own_views(void)
{
	struct wlseal_scene scene;
	char detail[96];
	uint32_t px;

	start(&scene);
	layers(&scene, NULL, 20);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (px >> 16) & 0xff, BG_RED + 20);
	check(((px >> 16) & 0xff) == BG_RED + 20,
	      "20 views without an owner: all drawn", detail);
	wlseal_scene_finish(&scene);
}

/* Opaque views cost no budget: 40 clients' full-output opaque windows
 * stacked, the top one shows (with 20 of one client's layers over it:
 * those still stop at 16). */
static void test_opaque_stack(void)
{
	static uint32_t opaque_pixels[W * H];
	struct wlseal_scene scene;
	int owners[40], attacker;
	char detail[96];
	uint32_t px;

	start(&scene);
	for (int i = 0; i < W * H; i++)
		opaque_pixels[i] = 0xff000040;
	for (int k = 0; k < 40; k++)
		add(&scene, &owners[k], PIXMAN_x8r8g8b8, opaque_pixels, 0, 0,
		    W, H);
	layers(&scene, &attacker, 20);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, want 0xff100040",
		 px);
	check(px == 0xff100040,
	      "40 stacked opaque windows: the top one drawn, 16 layers over it",
	      detail);
	wlseal_scene_finish(&scene);
}

/* Turned 90 degrees and scaled by a fraction, sampled bilinearly: the
 * costliest way to draw a pixel (16 blends, render.c). */
static pixman_transform_t turned;

static struct test_view *turned_layer(struct wlseal_scene *scene,
				      const void *owner,
				      pixman_format_code_t format,
				      uint32_t *pixels)
{
	struct test_view *t = add(scene, owner, format, pixels, 0, 0, W, H);

	t->view.transform = &turned;
	t->view.filter = PIXMAN_FILTER_BILINEAR;
	return t;
}

/* Sampled pixels are charged what they cost: one output-sized turned
 * layer (16) fits a client's budget alone, a second one does not. */
static void test_turned_cost(void)
{
	struct wlseal_scene scene;
	char detail[96];
	uint32_t px;
	int owner;

	start(&scene);
	turned_layer(&scene, &owner, PIXMAN_a8r8g8b8, layer_pixels);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (px >> 16) & 0xff, BG_RED + 1);
	check(((px >> 16) & 0xff) == BG_RED + 1,
	      "one turned bilinear layer: drawn", detail);
	turned_layer(&scene, &owner, PIXMAN_a8r8g8b8, layer_pixels);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (px >> 16) & 0xff, BG_RED + 1);
	check(((px >> 16) & 0xff) == BG_RED + 1,
	      "two turned bilinear layers of one client: the top one drawn",
	      detail);
	wlseal_scene_finish(&scene);
}

/* Four clients of 8 turned layers each over an honest window (the
 * fractional-rotate attack): counted by pixels they fit the total (32
 * outputs' worth) and all 32 were drawn at 16 times the cost; weighed,
 * each client's fair share (8) buys none of them, the honest window is
 * drawn. */
static void test_turned_shares(void)
{
	struct wlseal_scene scene;
	int owners[4], honest;
	char detail[128];
	uint32_t in, out;

	start(&scene);
	add(&scene, &honest, PIXMAN_x8r8g8b8, honest_pixels, 20, 20, 8, 8);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 8; i++)
			turned_layer(&scene, &owners[k], PIXMAN_a8r8g8b8,
				     layer_pixels);
	in = render_at(&scene, 24, 24);
	out = render_at(&scene, 2, 2);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, want 0xff008000", in);
	check(in == 0xff008000,
	      "the honest window under 4 clients of 8 turned layers is drawn alone",
	      detail);
	snprintf(detail, sizeof(detail), "red %u, want %u",
		 (out >> 16) & 0xff, BG_RED);
	check(((out >> 16) & 0xff) == BG_RED,
	      "4 clients of 8 turned layers: none drawn (a share buys none)",
	      detail);
	wlseal_scene_finish(&scene);
}

/* An opaque turned layer past its owner's budget is filled with the
 * background, not sampled; it still covers what is below it. */
static void test_turned_opaque(void)
{
	static uint32_t opaque_pixels[W * H];
	struct wlseal_scene scene;
	int owner, below;
	char detail[96];
	uint32_t px;

	start(&scene);
	for (int i = 0; i < W * H; i++)
		opaque_pixels[i] = 0xff000040;
	add(&scene, &below, PIXMAN_x8r8g8b8, honest_pixels, 0, 0, 8, 8);
	turned_layer(&scene, &owner, PIXMAN_x8r8g8b8, opaque_pixels);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, want 0xff000040", px);
	check(px == 0xff000040, "an opaque turned layer within budget: sampled",
	      detail);
	layers(&scene, &owner, 16);
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, want 0x%08x", px,
		 (0xffu << 24 | WLSEAL_BACKGROUND) + (16u << 16));
	check(px == (0xffu << 24 | WLSEAL_BACKGROUND) + (16u << 16),
	      "the same under 16 layers of its owner: background, 16 layers over it, nothing below shows",
	      detail);
	wlseal_scene_finish(&scene);
}

/* A view whose readiness check costs (a pool's pages looked up:
 * shm/resident.c): it counts its checks. */
static int ready_calls;

static bool checked_ready(struct wlseal_scene_view *v,
			  const struct wlseal_scene_box *part)
{
	ready_calls++;
	return true;
}

static uint64_t checked_cost_ns(struct wlseal_scene_view *v,
				const struct wlseal_scene_box *part)
{
	return 1000;
}

static const struct wlseal_scene_source checked_source = {
	.begin = tv_begin, .end = tv_end,
	.ready = checked_ready, .ready_cost_ns = checked_cost_ns,
};

/* An opaque 1:1 view whose check costs: looked up and drawn within its
 * owner's budget; past it, not looked up (the lookup is what was not
 * paid for) and filled with the background, still covering. Without
 * the rule (no_sample only for sampled views) the second check fails:
 * looked up and drawn, 1 call. */
static void test_checked_opaque(void)
{
	static uint32_t opaque_pixels[W * H];
	struct wlseal_scene scene;
	struct test_view *t;
	int owner, below;
	char detail[96];
	uint32_t px;

	start(&scene);
	for (int i = 0; i < W * H; i++)
		opaque_pixels[i] = 0xff000040;
	add(&scene, &below, PIXMAN_x8r8g8b8, honest_pixels, 0, 0, 8, 8);
	t = add(&scene, &owner, PIXMAN_x8r8g8b8, opaque_pixels, 0, 0, W, H);
	t->view.source = &checked_source;
	ready_calls = 0;
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, %d checks", px,
		 ready_calls);
	check(px == 0xff000040 && ready_calls == 1,
	      "an opaque view with a costly check within budget: checked once and drawn",
	      detail);
	layers(&scene, &owner, 16);
	ready_calls = 0;
	px = render_at(&scene, 5, 5);
	snprintf(detail, sizeof(detail), "pixel 0x%08x, want 0x%08x, %d checks",
		 px, (0xffu << 24 | WLSEAL_BACKGROUND) + (16u << 16),
		 ready_calls);
	check(px == (0xffu << 24 | WLSEAL_BACKGROUND) + (16u << 16) &&
	      ready_calls == 0,
	      "the same under 16 layers of its owner: not checked, background, nothing below shows",
	      detail);
	wlseal_scene_finish(&scene);
}

int main(void)
{
	for (int i = 0; i < W * H; i++)
		layer_pixels[i] = 0x00010000;
	for (int i = 0; i < 8 * 8; i++)
		honest_pixels[i] = 0xff008000;
	/* Output pixel (x, y) samples image (W - 1 - y * 0.75, x * 0.75):
	 * turned a quarter, scaled by a fraction. */
	pixman_transform_init_identity(&turned);
	turned.matrix[0][0] = 0;
	turned.matrix[0][1] = -pixman_double_to_fixed(0.75);
	turned.matrix[0][2] = pixman_int_to_fixed(W - 1);
	turned.matrix[1][0] = pixman_double_to_fixed(0.75);
	turned.matrix[1][1] = 0;
	printf("1..14\n");
	test_one_client();
	test_fair_shares();
	test_within();
	test_own_views();
	test_opaque_stack();
	test_turned_cost();
	test_turned_shares();
	test_turned_opaque();
	test_checked_opaque();
	return failed;
}
