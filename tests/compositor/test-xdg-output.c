/* SPDX-License-Identifier: MIT */
/*
 * test-xdg-output - zxdg_output_manager_v1 against a headless compositor
 * (320x240): the logical position and size match the output, name and
 * description match wl_output's, and done comes as wl_output.done for
 * version 3 objects, as zxdg_output_v1.done for older ones.
 *
 * Usage: test-xdg-output TEST (TAP output).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "toplevel.h"
#include "xdg-output-unstable-v1-client-protocol.h"

/* What one wl_output and its zxdg_output_v1 said, in order. */
struct out {
	struct wl_output *output;
	struct zxdg_output_v1 *xdg;
	char wl_name[64], wl_description[128];
	int wl_width, wl_height;
	char log[1024];			/* the events, one a line */
};

static void add(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct out *o, const char *fmt, ...)
{
	size_t n = strlen(o->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->log + n, sizeof(o->log) - n, fmt, ap);
	va_end(ap);
	n = strlen(o->log);
	if (n + 1 < sizeof(o->log))
		strcat(o->log, "\n");
}

static void wl_geometry(void *data, struct wl_output *o, int32_t x, int32_t y,
			int32_t pw, int32_t ph, int32_t sub, const char *make,
			const char *model, int32_t transform)
{
}

static void wl_mode(void *data, struct wl_output *wo, uint32_t flags,
		    int32_t w, int32_t h, int32_t refresh)
{
	struct out *o = data;

	o->wl_width = w;
	o->wl_height = h;
}

static void wl_done(void *data, struct wl_output *wo)
{
	add(data, "wl_output.done");
}

static void wl_scale(void *data, struct wl_output *wo, int32_t scale)
{
}

static void wl_name(void *data, struct wl_output *wo, const char *name)
{
	struct out *o = data;

	snprintf(o->wl_name, sizeof(o->wl_name), "%s", name);
}

static void wl_description(void *data, struct wl_output *wo, const char *d)
{
	struct out *o = data;

	snprintf(o->wl_description, sizeof(o->wl_description), "%s", d);
}

static const struct wl_output_listener wl_output_listener = {
	.geometry = wl_geometry, .mode = wl_mode, .done = wl_done,
	.scale = wl_scale, .name = wl_name, .description = wl_description,
};

static void x_position(void *data, struct zxdg_output_v1 *x, int32_t px,
		       int32_t py)
{
	add(data, "logical_position %d %d", px, py);
}

static void x_size(void *data, struct zxdg_output_v1 *x, int32_t w, int32_t h)
{
	add(data, "logical_size %d %d", w, h);
}

static void x_done(void *data, struct zxdg_output_v1 *x)
{
	add(data, "zxdg_output_v1.done");
}

static void x_name(void *data, struct zxdg_output_v1 *x, const char *name)
{
	add(data, "name %s", name);
}

static void x_description(void *data, struct zxdg_output_v1 *x,
			  const char *d)
{
	add(data, "description %s", d);
}

static const struct zxdg_output_v1_listener xdg_output_listener = {
	.logical_position = x_position, .logical_size = x_size,
	.done = x_done, .name = x_name, .description = x_description,
};

struct globals {
	uint32_t output_name, manager_name, manager_version;
};

static void reg_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct globals *g = data;

	if (!strcmp(iface, "wl_output"))
		g->output_name = name;
	else if (!strcmp(iface, "zxdg_output_manager_v1")) {
		g->manager_name = name;
		g->manager_version = version;
	}
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global, .global_remove = reg_remove,
};

/* A wl_output (version 4) and its zxdg_output_v1 from a manager bound
 * at @version; what they said is in @o once this returns. */
static void describe(struct t *t, struct out *o, uint32_t version)
{
	struct wl_registry *r = wl_display_get_registry(t->display);
	struct zxdg_output_manager_v1 *m;
	struct globals g = { 0 };

	memset(o, 0, sizeof(*o));
	wl_registry_add_listener(r, &reg_listener, &g);
	if (wl_display_roundtrip(t->display) < 0 || !g.output_name ||
	    !g.manager_name)
		fail("no wl_output or zxdg_output_manager_v1 advertised");
	check(g.manager_version == 3, "zxdg_output_manager_v1 version %u",
	      g.manager_version);
	o->output = wl_registry_bind(r, g.output_name, &wl_output_interface, 4);
	wl_output_add_listener(o->output, &wl_output_listener, o);
	if (wl_display_roundtrip(t->display) < 0)
		fail("binding wl_output: %s", last_client_log);
	/* Only what the xdg_output brings from here on. */
	o->log[0] = 0;
	m = wl_registry_bind(r, g.manager_name, &zxdg_output_manager_v1_interface,
			     version);
	o->xdg = zxdg_output_manager_v1_get_xdg_output(m, o->output);
	zxdg_output_v1_add_listener(o->xdg, &xdg_output_listener, o);
	if (wl_display_roundtrip(t->display) < 0)
		fail("get_xdg_output: %s", last_client_log);
	zxdg_output_v1_destroy(o->xdg);
	zxdg_output_manager_v1_destroy(m);
	wl_registry_destroy(r);
}

/* @text on one line (TAP): newlines become "; ". */
static const char *one_line(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (; *text && n + 3 < len; text++) {
		if (*text != '\n') {
			buf[n++] = *text;
		} else if (text[1]) {
			buf[n++] = ';';
			buf[n++] = ' ';
		}
	}
	buf[n] = 0;
	return buf;
}

static void expect_log(struct out *o, const char *want, const char *what)
{
	char got[1024], wanted[1024];

	check(!strcmp(o->log, want), "%s: %s (expected: %s)", what,
	      one_line(o->log, got, sizeof(got)),
	      one_line(want, wanted, sizeof(wanted)));
}

/* The logical geometry is the output's, the name and description
 * wl_output's; version 3 ends with wl_output.done. */
static void test_xdg_output(void)
{
	static struct t t;
	struct out o;
	char want[512];

	t_start(&t);
	describe(&t, &o, 3);
	check(o.wl_width == 320 && o.wl_height == 240, "wl_output mode %dx%d",
	      o.wl_width, o.wl_height);
	snprintf(want, sizeof(want),
		 "logical_position 0 0\nlogical_size %d %d\nname %s\n"
		 "description %s\nwl_output.done\n", o.wl_width, o.wl_height,
		 o.wl_name, o.wl_description);
	expect_log(&o, want, "version 3: the output's geometry, wl_output.done");
	wl_output_release(o.output);

	/* Version 2: the deprecated done of its own. */
	describe(&t, &o, 2);
	snprintf(want, sizeof(want),
		 "logical_position 0 0\nlogical_size %d %d\nname %s\n"
		 "description %s\nzxdg_output_v1.done\n", o.wl_width,
		 o.wl_height, o.wl_name, o.wl_description);
	expect_log(&o, want, "version 2: zxdg_output_v1.done");
	wl_output_release(o.output);

	/* Version 1: no name, no description. */
	describe(&t, &o, 1);
	snprintf(want, sizeof(want),
		 "logical_position 0 0\nlogical_size %d %d\nzxdg_output_v1.done\n",
		 o.wl_width, o.wl_height);
	expect_log(&o, want, "version 1: position and size");
	wl_output_release(o.output);
	t_stop(&t);
}

/* Another output size: the logical size follows it. */
static void test_xdg_output_size(void)
{
	static const char *const args[] = { "--size=640x360", NULL };
	static struct t t;
	struct out o;
	char got[1024];

	t_start_args(&t, args);
	describe(&t, &o, 3);
	check(strstr(o.log, "logical_size 640 360\n") != NULL,
	      "logical size 640x360: %s", one_line(o.log, got, sizeof(got)));
	wl_output_release(o.output);
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "xdg-output", test_xdg_output },
	{ "xdg-output-size", test_xdg_output_size },
};

int main(int argc, char **argv)
{
	return harness_main("test-xdg-output", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
