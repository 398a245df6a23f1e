/* SPDX-License-Identifier: MIT */
/*
 * decor.c - the frame wlseal draws around a toplevel whose decoration
 * is server_side (xdg-decoration.c): a title bar above the window
 * geometry with the window's title and a close button, and a border
 * left, right and below.
 *
 * The frame is six child views of the toplevel's surface view, stacked
 * below it: the title bar, its text and close button on top of it, and
 * three borders. So the scene draws them like any view, damage-tracked
 * (a title change damages the text view, a move the whole tree's box),
 * and they move, show and hide with the window. Their pixels are made
 * when a repaint asks (begin): the bar and the borders are one pixel
 * each, stretched over the view (an identity transform pads it); the
 * text and the close button are drawn into an image that lives for
 * that repaint only. A frame keeps no pixels: its memory is this
 * struct, about 1.5 KiB, one per toplevel (so at most one per surface,
 * --max-surfaces-per-client), and the decoration object it belongs to
 * counts as one of the client's protocol objects (account/objects.c).
 * The views count against their client's overdraw budget like its
 * surfaces (they are opaque, so they blend nothing).
 *
 * Input: the views take the pointer through the scene's hooks
 * (wlseal_scene_pointer; seat/pointer.c delivers): a left click on the
 * close button (pressed and released on it) sends xdg_toplevel.close,
 * a left press on the title bar drags the window until the release.
 * The borders take clicks and do nothing with them (no resizing): the
 * window's own, they keep them from what lies below.
 *
 * The frame follows the toplevel through its changed_signal (a commit,
 * the title, the focus, the xdg_surface gone) and hides while the
 * window is fullscreen. It calls the toplevel's files (set_frame:
 * xdg-toplevel-configure.c, move: xdg-toplevel-interactive.c, close:
 * xdg-toplevel.c) and is called by xdg-decoration.c (create, destroy)
 * only.
 * Before it frees its views it unmaps them, which tells the seat
 * (scene.unmap_signal) to forget them.
 */
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "font.h"
#include "log.h"
#include "xdg.h"

/* Sizes, in output pixels. */
#define TITLE_H 24		/* the title bar, above the window geometry */
#define BORDER 2		/* left, right and below */
#define CLOSE_SIZE 16		/* the close button, square */
#define CLOSE_MARGIN 4		/* around it, inside the title bar */
#define GLYPH_SCALE 2		/* font.h's 5x7 glyphs, doubled */
#define CELL_W ((WLSEAL_FONT_W + 1) * GLYPH_SCALE)
#define TEXT_H (WLSEAL_FONT_H * GLYPH_SCALE)
#define TEXT_X 8		/* the title's left edge in the bar */
#define TITLE_MAX_CHARS 160	/* at most this much of a title is drawn */
/* A window geometry larger than this is framed as if it were this
 * large: offsets and sizes stay far from overflow. */
#define SIZE_LIMIT (1 << 16)

/* Colours (x8r8g8b8): the focused window's frame, and the others'. */
#define FRAME_ACTIVE 0xff2e5a88u
#define FRAME_INACTIVE 0xff5a5a5au
#define TEXT_ACTIVE 0xffffffffu
#define TEXT_INACTIVE 0xffd0d0d0u
#define CLOSE_BG 0xffc83c3cu
#define CLOSE_FG 0xffffffffu

enum part_kind {
	PART_TITLE,
	PART_TEXT,
	PART_CLOSE,
	PART_LEFT,
	PART_RIGHT,
	PART_BOTTOM,
	PARTS
};

struct part {
	struct wlseal_scene_view view;
	struct wlseal_decor *decor;
	enum part_kind kind;
};

struct wlseal_decor {
	struct wlseal_xdg_toplevel *tl;
	struct wlseal_scene *scene;
	/* The surface whose view holds the parts, NULL while they are in
	 * no tree (the xdg_surface or its wl_surface gone). */
	struct wlseal_surface *surface;
	struct wl_listener changed;		/* tl->changed_signal */
	struct wl_listener surface_destroy;	/* surface->destroy_signal */
	struct part parts[PARTS];
	bool active;			/* drawn in the focused colours */
	/* The title as last laid out: a new one of the same width
	 * changes no view's size, yet its pixels. */
	char text[TITLE_MAX_CHARS];
	size_t text_n;
	/* A left press on the title bar: the window follows the cursor,
	 * which stays at (@grab_x, @grab_y) of the bar. */
	bool dragging;
	double grab_x, grab_y;
	bool close_pressed;		/* a left press on the close button */
};

/* Points of a view sampled from a one-pixel image: the image is
 * padded over the whole view (render.c sets PIXMAN_REPEAT_PAD). */
static const pixman_transform_t identity = { {
	{ pixman_fixed_1, 0, 0 },
	{ 0, pixman_fixed_1, 0 },
	{ 0, 0, pixman_fixed_1 },
} };

static struct part *part_of(struct wlseal_scene_view *v)
{
	struct part *p;

	return wl_container_of(v, p, view);
}

static uint32_t frame_colour(const struct wlseal_decor *d)
{
	return d->active ? FRAME_ACTIVE : FRAME_INACTIVE;
}

/* A w x h x8r8g8b8 image filled with @colour, or NULL. */
static pixman_image_t *filled(int w, int h, uint32_t colour)
{
	pixman_image_t *img = pixman_image_create_bits(PIXMAN_x8r8g8b8, w, h,
						       NULL, 0);
	uint32_t *px;
	int stride;

	if (!img)
		return NULL;
	px = pixman_image_get_data(img);
	stride = pixman_image_get_stride(img) / 4;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			px[y * stride + x] = colour;
	return img;
}

/* The characters of the title drawn: printable ASCII as it is, any
 * other UTF-8 sequence as one '?'. */
static size_t title_chars(const char *title, char *out, size_t max)
{
	size_t n = 0;

	for (const unsigned char *c = (const unsigned char *)title;
	     *c && n < max; c++) {
		if (*c >= 0x80 && *c < 0xc0)
			continue;	/* a continuation byte */
		out[n++] = *c < 0x80 ? (char)*c : '?';
	}
	return n;
}

static void draw_glyph(uint32_t *px, int stride, int w, int x0, unsigned char c,
		       uint32_t colour)
{
	const uint8_t *rows = wlseal_font_glyph(c);

	for (int r = 0; r < WLSEAL_FONT_H; r++)
		for (int col = 0; col < WLSEAL_FONT_W; col++) {
			if (!(rows[r] & (0x10 >> col)))
				continue;
			for (int dy = 0; dy < GLYPH_SCALE; dy++)
				for (int dx = 0; dx < GLYPH_SCALE; dx++) {
					int x = x0 + col * GLYPH_SCALE + dx;

					if (x < w)
						px[(r * GLYPH_SCALE + dy) * stride + x] =
							colour;
				}
		}
}

static pixman_image_t *draw_text(struct wlseal_decor *d,
				 struct wlseal_scene_view *v)
{
	char text[TITLE_MAX_CHARS];
	const char *title = d->tl->title.s ? d->tl->title.s : "";
	size_t n = title_chars(title, text, sizeof(text));
	pixman_image_t *img = filled(v->width, v->height, frame_colour(d));
	uint32_t *px;
	int stride;

	if (!img)
		return NULL;
	px = pixman_image_get_data(img);
	stride = pixman_image_get_stride(img) / 4;
	for (size_t i = 0; i < n && (int)i * CELL_W < v->width; i++)
		draw_glyph(px, stride, v->width, (int)i * CELL_W,
			   (unsigned char)text[i],
			   d->active ? TEXT_ACTIVE : TEXT_INACTIVE);
	return img;
}

/* A white cross on red. */
static pixman_image_t *draw_close(void)
{
	pixman_image_t *img = filled(CLOSE_SIZE, CLOSE_SIZE, CLOSE_BG);
	uint32_t *px;
	int stride;

	if (!img)
		return NULL;
	px = pixman_image_get_data(img);
	stride = pixman_image_get_stride(img) / 4;
	/* Two diagonals, two pixels thick, 4 pixels in from the edges. */
	for (int i = 4; i < CLOSE_SIZE - 4; i++) {
		int j = CLOSE_SIZE - 1 - i;

		px[i * stride + i] = px[i * stride + i + 1] = CLOSE_FG;
		px[i * stride + j] = px[i * stride + j - 1] = CLOSE_FG;
	}
	return img;
}

static pixman_image_t *part_begin(struct wlseal_scene_view *v)
{
	struct part *p = part_of(v);

	switch (p->kind) {
	case PART_TEXT:
		return draw_text(p->decor, v);
	case PART_CLOSE:
		return draw_close();
	default:
		return filled(1, 1, frame_colour(p->decor));
	}
}

static void part_end(struct wlseal_scene_view *v)
{
}

static const struct wlseal_scene_source part_source = {
	.begin = part_begin,
	.end = part_end,
};

static bool inside(const struct wlseal_scene_view *v, double x, double y)
{
	return x >= 0 && y >= 0 && x < v->width && y < v->height;
}

static void part_button(struct wlseal_scene_view *v, uint32_t button,
			bool pressed, double sx, double sy)
{
	struct part *p = part_of(v);
	struct wlseal_decor *d = p->decor;

	if (button != BTN_LEFT)
		return;
	if (pressed) {
		d->dragging = p->kind == PART_TITLE || p->kind == PART_TEXT;
		d->close_pressed = p->kind == PART_CLOSE;
		/* The grab point in the title bar's coordinates, whichever
		 * of its views was pressed. */
		d->grab_x = sx + (v == &d->parts[PART_TITLE].view ? 0 : v->x -
				  d->parts[PART_TITLE].view.x);
		d->grab_y = sy + (v == &d->parts[PART_TITLE].view ? 0 : v->y -
				  d->parts[PART_TITLE].view.y);
		return;
	}
	if (p->kind == PART_CLOSE && d->close_pressed && inside(v, sx, sy))
		wlseal_xdg_toplevel_close(d->tl);
	d->dragging = d->close_pressed = false;
}

static int32_t round_px(double v)
{
	return (int32_t)(v < 0 ? v - 0.5 : v + 0.5);
}

/* The cursor, held by the title bar or its text, is at (@sx, @sy) of
 * @v: the window moves so that it is at the grab point again. */
static void part_drag(struct wlseal_scene_view *v, double sx, double sy)
{
	struct part *p = part_of(v);
	struct wlseal_decor *d = p->decor;
	struct wlseal_scene_view *title = &d->parts[PART_TITLE].view;
	double x = sx, y = sy;

	if (!d->dragging)
		return;
	if (v != title) {
		x += v->x - title->x;
		y += v->y - title->y;
	}
	wlseal_xdg_toplevel_move(d->tl, round_px(x - d->grab_x),
				 round_px(y - d->grab_y));
}

static const struct wlseal_scene_pointer part_pointer = {
	.button = part_button,
	.drag = part_drag,
};

/* Where the parts go: the window geometry (or the surface) framed. */
static void layout(struct wlseal_decor *d)
{
	struct wlseal_xdg_surface *xs = d->tl->xs;
	struct wlseal_surface *s = d->surface;
	int32_t gx = 0, gy = 0, gw = s->view.width, gh = s->view.height;
	int32_t close_x, text_w;
	struct {
		int32_t x, y, w, h;
	} at[PARTS];
	bool show = !d->tl->acked.fullscreen;
	bool active = d->tl->wanted.activated;
	char text[TITLE_MAX_CHARS];
	size_t n;

	if (xs && xs->geometry.set) {
		gx = xs->geometry.x;
		gy = xs->geometry.y;
		gw = xs->geometry.width;
		gh = xs->geometry.height;
	}
	gw = gw < 1 ? 1 : gw > SIZE_LIMIT ? SIZE_LIMIT : gw;
	gh = gh < 1 ? 1 : gh > SIZE_LIMIT ? SIZE_LIMIT : gh;
	close_x = gx + gw + BORDER - CLOSE_MARGIN - CLOSE_SIZE;
	n = title_chars(d->tl->title.s ? d->tl->title.s : "", text, sizeof(text));
	text_w = (int32_t)n * CELL_W;
	/* Whole characters only, left of the close button; the last one's
	 * spacing column may reach into the button's margin. */
	if (text_w > close_x - CLOSE_MARGIN - (gx + TEXT_X))
		text_w = (close_x - CLOSE_MARGIN - (gx + TEXT_X) + GLYPH_SCALE) /
			 CELL_W * CELL_W;
	at[PART_TITLE].x = gx - BORDER;
	at[PART_TITLE].y = gy - TITLE_H;
	at[PART_TITLE].w = gw + 2 * BORDER;
	at[PART_TITLE].h = TITLE_H;
	at[PART_TEXT].x = gx + TEXT_X;
	at[PART_TEXT].y = gy - TITLE_H + (TITLE_H - TEXT_H) / 2;
	at[PART_TEXT].w = text_w;
	at[PART_TEXT].h = TEXT_H;
	at[PART_CLOSE].x = close_x;
	at[PART_CLOSE].y = gy - TITLE_H + (TITLE_H - CLOSE_SIZE) / 2;
	at[PART_CLOSE].w = at[PART_CLOSE].h = CLOSE_SIZE;
	at[PART_LEFT].x = gx - BORDER;
	at[PART_LEFT].y = gy;
	at[PART_LEFT].w = BORDER;
	at[PART_LEFT].h = gh;
	at[PART_RIGHT].x = gx + gw;
	at[PART_RIGHT].y = gy;
	at[PART_RIGHT].w = BORDER;
	at[PART_RIGHT].h = gh;
	at[PART_BOTTOM].x = gx - BORDER;
	at[PART_BOTTOM].y = gy + gh;
	at[PART_BOTTOM].w = gw + 2 * BORDER;
	at[PART_BOTTOM].h = BORDER;

	for (int i = 0; i < PARTS; i++) {
		struct wlseal_scene_view *v = &d->parts[i].view;
		/* A window too narrow for its title and button shows
		 * neither text nor cross. */
		bool shows = show && at[i].w > 0 &&
			     (i != PART_CLOSE || close_x >= gx - BORDER);

		if (!shows) {
			if (v->mapped)
				wlseal_scene_unmap(d->scene, v);
			continue;
		}
		wlseal_scene_move(d->scene, v, at[i].x, at[i].y);
		wlseal_scene_set_size(d->scene, v, at[i].w, at[i].h);
		if (!v->mapped)
			wlseal_scene_map(d->scene, v);
	}
	if (active != d->active) {
		d->active = active;
		for (int i = 0; i < PARTS; i++)
			wlseal_scene_damage_view(d->scene, &d->parts[i].view,
						 NULL);
	}
	if (n != d->text_n || memcmp(text, d->text, n) != 0) {
		memcpy(d->text, text, n);
		d->text_n = n;
		wlseal_scene_damage_view(d->scene, &d->parts[PART_TEXT].view,
					 NULL);
	}
}

/* The parts leave the surface's tree: unmapped first, so that the
 * seat forgets any it held (seat/pointer.c). */
static void detach(struct wlseal_decor *d)
{
	if (!d->surface)
		return;
	for (int i = 0; i < PARTS; i++) {
		struct wlseal_scene_view *v = &d->parts[i].view;

		if (v->mapped)
			wlseal_scene_unmap(d->scene, v);
		wlseal_scene_remove_child(d->scene, v);
	}
	wl_list_remove(&d->surface_destroy.link);
	d->surface = NULL;
	d->dragging = d->close_pressed = false;
}

static void surface_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_decor *d = wl_container_of(l, d, surface_destroy);

	detach(d);
}

/* Into @s's tree, below it: the bar and the borders just under the
 * surface, the text and the button on the bar. */
static void attach(struct wlseal_decor *d, struct wlseal_surface *s)
{
	struct wlseal_scene_view *title = &d->parts[PART_TITLE].view;

	d->surface = s;
	d->scene = &s->server->scene;
	for (int i = 0; i < PARTS; i++) {
		struct wlseal_scene_view *v = &d->parts[i].view;

		v->owner = s->view.owner;
		wlseal_scene_add_child(d->scene, &s->view, v);
		wlseal_scene_place(d->scene, v,
				   i == PART_TEXT || i == PART_CLOSE ? title
								     : &s->view,
				   i == PART_TEXT || i == PART_CLOSE);
	}
	d->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&s->destroy_signal, &d->surface_destroy);
}

static void toplevel_changed(struct wl_listener *l, void *data)
{
	struct wlseal_decor *d = wl_container_of(l, d, changed);
	struct wlseal_surface *s = d->tl->xs ? d->tl->xs->surface : NULL;

	if (s != d->surface) {
		detach(d);
		if (s)
			attach(d, s);
	}
	if (!d->surface)
		return;
	layout(d);
	wlseal_scene_request_frame(d->scene);
}

struct wlseal_decor *wlseal_decor_create(struct wlseal_xdg_toplevel *tl)
{
	static const struct wlseal_xdg_frame frame = {
		.top = TITLE_H, .left = BORDER, .right = BORDER,
		.bottom = BORDER,
	};
	struct wlseal_decor *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->tl = tl;
	for (int i = 0; i < PARTS; i++) {
		struct wlseal_scene_view *v = &d->parts[i].view;

		d->parts[i].decor = d;
		d->parts[i].kind = (enum part_kind)i;
		wlseal_scene_view_init(v, &part_source);
		v->pointer = &part_pointer;
		if (i != PART_TEXT && i != PART_CLOSE) {
			v->transform = &identity;
			v->filter = PIXMAN_FILTER_NEAREST;
		}
	}
	d->changed.notify = toplevel_changed;
	wl_signal_add(&tl->changed_signal, &d->changed);
	wl_list_init(&d->surface_destroy.link);
	if (tl->xs && tl->xs->surface) {
		attach(d, tl->xs->surface);
		layout(d);
	}
	wlseal_xdg_toplevel_set_frame(tl, &frame);
	return d;
}

void wlseal_decor_destroy(struct wlseal_decor *d)
{
	static const struct wlseal_xdg_frame none = { 0 };

	if (!d)
		return;
	if (d->surface)
		wlseal_scene_request_frame(d->scene);
	detach(d);
	wl_list_remove(&d->changed.link);
	wlseal_xdg_toplevel_set_frame(d->tl, &none);
	free(d);
}
