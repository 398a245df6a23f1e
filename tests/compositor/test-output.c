/* SPDX-License-Identifier: MIT */
/*
 * test-output - wl_output as a client binds it: version 4, with the
 * output's name and description before done, and its current mode.
 * test-xdg-output checks zxdg_output_v1 against it.
 *
 * Usage: test-output TEST (TAP output).
 */
#include <stdio.h>
#include <string.h>

#include <wayland-client.h>

#include "toplevel.h"

/* wl_output, bound at the version advertised. */
struct out {
	uint32_t version;
	struct wl_output *o;
	char name[64], description[128];
	int w, h;
	bool named_before_done, done;
};

static void out_geometry(void *data, struct wl_output *o, int32_t x, int32_t y,
			 int32_t pw, int32_t ph, int32_t subpixel,
			 const char *make, const char *model, int32_t transform)
{
}

static void out_mode(void *data, struct wl_output *o, uint32_t flags,
		     int32_t w, int32_t h, int32_t refresh)
{
	struct out *out = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		out->w = w;
		out->h = h;
	}
}

static void out_done(void *data, struct wl_output *o)
{
	struct out *out = data;

	out->named_before_done = out->name[0] && out->description[0];
	out->done = true;
}

static void out_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static void out_name(void *data, struct wl_output *o, const char *name)
{
	struct out *out = data;

	snprintf(out->name, sizeof(out->name), "%s", name);
}

static void out_description(void *data, struct wl_output *o, const char *d)
{
	struct out *out = data;

	snprintf(out->description, sizeof(out->description), "%s", d);
}

static const struct wl_output_listener out_listener = {
	.geometry = out_geometry,
	.mode = out_mode,
	.done = out_done,
	.scale = out_scale,
	.name = out_name,
	.description = out_description,
};

static void out_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct out *out = data;

	if (strcmp(iface, "wl_output"))
		return;
	out->version = version;
	out->o = wl_registry_bind(r, name, &wl_output_interface,
				  version < 4 ? version : 4);
	wl_output_add_listener(out->o, &out_listener, out);
}

static void out_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener out_reg_listener = {
	.global = out_global,
	.global_remove = out_global_remove,
};

/* wl_output version 4: name and description, then done. */
static void test_output(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct out out;
	struct wl_registry *r;

	t_start(&t);
	r = wl_display_get_registry(t.display);
	wl_registry_add_listener(r, &out_reg_listener, &out);
	wl_display_roundtrip(t.display);
	check(out.version == 4, "wl_output advertised at version %u (want 4)",
	      out.version);
	if (!out.o)
		fail("no wl_output");
	wl_display_roundtrip(t.display);
	check(out.done, "wl_output.done received");
	check(!strcmp(out.name, "HEADLESS-1"), "name \"%s\" (want HEADLESS-1)",
	      out.name);
	check(strstr(out.description, "HEADLESS-1") &&
	      strstr(out.description, "320x240"),
	      "description \"%s\" names the output and its size",
	      out.description);
	check(out.named_before_done, "name and description came before done");
	check(out.w == OUT_W && out.h == OUT_H, "current mode %dx%d", out.w,
	      out.h);
	wl_output_release(out.o);
	wl_registry_destroy(r);
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "output-v4", test_output },
};

int main(int argc, char **argv)
{
	return harness_main("test-output", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
