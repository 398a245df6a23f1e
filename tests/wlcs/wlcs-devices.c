/* SPDX-License-Identifier: MIT */
/*
 * wlcs-devices.c - WLCS's fake pointer and touchscreen: each event is a
 * call onto the server's thread (wlcs-calls.c) that feeds the seat as the
 * input layer would (wlseal_seat_input).
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "input.h"
#include "log.h"
#include "server.h"
#include "seat.h"
#include "surface.h"
#include "wlcs-server.h"

void set_caps(struct wlcs_server *s)
{
	/* A desktop seat whose devices are there from the start, as on a
	 * laptop: a keyboard (no key is ever pressed: WLCS has no keyboard
	 * device), a mouse (its cursor at the output's centre until WLCS
	 * moves it) and a touchscreen. They cannot wait for WLCS's
	 * devices: WLCS uses a device right after making it, before its
	 * clients have seen a new capability and made their wl_pointer or
	 * wl_touch (a touch point belongs to the wl_touch objects that
	 * exist when it goes down; a relative pointer needs a wl_pointer
	 * made when the client connected). */
	uint32_t caps = WLSEAL_INPUT_KEYBOARD | WLSEAL_INPUT_POINTER |
			WLSEAL_INPUT_TOUCH;
	wlseal_seat_input.caps(s->server->seat, caps);
}

/* --- the fake pointer ------------------------------------------------------- */

struct input_call {
	struct wlcs_server *s;
	enum { MOVE, MOVE_BY, BUTTON, ADD_POINTER, DEL_POINTER,
	       TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP, ADD_TOUCH, DEL_TOUCH } what;
	double x, y;			/* MOVE: absolute; MOVE_BY: the
					 * motion; TOUCH_*: position */
	int button;
	bool pressed;
	int32_t id;
};

static void input_call(struct wlseal_server *server, void *arg)
{
	struct input_call *ic = arg;
	struct wlcs_server *s = ic->s;
	void *seat = server->seat;
	uint32_t t = now_ms();

	switch (ic->what) {
	case MOVE:
		/* As input/ asks: a lock or confinement may hold it. */
		if (wlseal_seat_input.constrain)
			wlseal_seat_input.constrain(seat, s->px, s->py, &ic->x,
						    &ic->y);
		s->px = ic->x;
		s->py = ic->y;
		wlseal_seat_input.motion(seat, t, s->px, s->py);
		break;
	case MOVE_BY: {
		/* A mouse's motion: the cursor moves as far as a lock or
		 * confinement lets it, and the relative pointers hear of
		 * the whole motion in the same frame (as input/ reports a
		 * mouse's EV_REL). */
		double x = s->px + ic->x, y = s->py + ic->y;

		if (wlseal_seat_input.constrain)
			wlseal_seat_input.constrain(seat, s->px, s->py, &x, &y);
		s->px = x;
		s->py = y;
		wlseal_seat_input.motion(seat, t, s->px, s->py);
		wlseal_seat_input.relative(seat, t, ic->x, ic->y);
		break;
	}
	case BUTTON:
		wlseal_seat_input.button(seat, t, (uint32_t)ic->button, ic->pressed);
		break;
	case TOUCH_DOWN:
		wlseal_seat_input.touch_down(seat, t, ic->id, ic->x, ic->y);
		break;
	case TOUCH_MOVE:
		wlseal_seat_input.touch_motion(seat, t, ic->id, ic->x, ic->y);
		break;
	case TOUCH_UP:
		wlseal_seat_input.touch_up(seat, t, ic->id);
		break;
	case ADD_POINTER:
		s->pointers++;
		set_caps(s);
		return;
	case DEL_POINTER:
		s->pointers--;
		set_caps(s);
		return;
	case ADD_TOUCH:
		s->touches++;
		ic->id = s->next_touch_id++;
		set_caps(s);
		return;
	case DEL_TOUCH:
		s->touches--;
		set_caps(s);
		return;
	}
	wlseal_seat_input.frame(seat);
}

static struct fake_pointer *fp_of(WlcsPointer *p)
{
	return (struct fake_pointer *)p;
}

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y)
{
	struct input_call ic = { .s = fp_of(p)->dev.s, .what = MOVE,
				 .x = wl_fixed_to_double(x),
				 .y = wl_fixed_to_double(y) };

	call(ic.s, input_call, &ic);
}

static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy)
{
	/* Relative to where the pointer is: added on the server's
	 * thread. */
	struct input_call ic = { .s = fp_of(p)->dev.s, .what = MOVE_BY,
				 .x = wl_fixed_to_double(dx),
				 .y = wl_fixed_to_double(dy) };

	call(ic.s, input_call, &ic);
}

static void pointer_button(WlcsPointer *p, int button, bool pressed)
{
	struct input_call ic = { .s = fp_of(p)->dev.s, .what = BUTTON,
				 .button = button, .pressed = pressed };

	call(ic.s, input_call, &ic);
}

static void pointer_button_up(WlcsPointer *p, int button)
{
	pointer_button(p, button, false);
}

static void pointer_button_down(WlcsPointer *p, int button)
{
	pointer_button(p, button, true);
}

static void pointer_destroy(WlcsPointer *p)
{
	struct input_call ic = { .s = fp_of(p)->dev.s, .what = DEL_POINTER };

	/* A pointer outliving its server (stopped or destroyed first)
	 * has nothing left to take away. */
	if (running(ic.s))
		call(ic.s, input_call, &ic);
	wl_list_remove(&fp_of(p)->dev.link);
	free(p);
}

WlcsPointer *server_create_pointer(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;
	struct fake_pointer *p = calloc(1, sizeof(*p));
	struct input_call ic = { .s = s, .what = ADD_POINTER };

	if (!p)
		die("out of memory");
	p->base = (WlcsPointer){
		.version = WLCS_POINTER_VERSION,
		.move_absolute = pointer_move_absolute,
		.move_relative = pointer_move_relative,
		.button_up = pointer_button_up,
		.button_down = pointer_button_down,
		.destroy = pointer_destroy,
	};
	p->dev.s = s;
	wl_list_insert(&s->devices, &p->dev.link);
	call(s, input_call, &ic);
	return &p->base;
}

/* --- the fake touch --------------------------------------------------------- */

static struct fake_touch *ft_of(WlcsTouch *t)
{
	return (struct fake_touch *)t;
}

static void touch_event(WlcsTouch *t, int what, wl_fixed_t x, wl_fixed_t y)
{
	struct fake_touch *ft = ft_of(t);
	/* Whole pixels, not wl_fixed_t: WLCS's runner (1.5, and its
	 * newest sources) hands its int coordinates to touch_down and
	 * touch_move unconverted, whatever the header's type says; the
	 * pointer's move_absolute gets wl_fixed_from_int()'s. */
	struct input_call ic = { .s = ft->dev.s, .what = what, .id = ft->id,
				 .x = (double)x, .y = (double)y };

	call(ic.s, input_call, &ic);
}

static void touch_down(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y)
{
	ft_of(t)->down = true;
	touch_event(t, TOUCH_DOWN, x, y);
}

static void touch_move(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y)
{
	touch_event(t, TOUCH_MOVE, x, y);
}

static void touch_up(WlcsTouch *t)
{
	ft_of(t)->down = false;
	touch_event(t, TOUCH_UP, 0, 0);
}

static void touch_destroy(WlcsTouch *t)
{
	struct fake_touch *ft = ft_of(t);
	struct input_call ic = { .s = ft->dev.s, .what = DEL_TOUCH };

	if (running(ic.s)) {
		if (ft->down)
			touch_up(t);
		call(ic.s, input_call, &ic);
	}
	wl_list_remove(&ft->dev.link);
	free(ft);
}

WlcsTouch *server_create_touch(WlcsDisplayServer *base)
{
	struct wlcs_server *s = (struct wlcs_server *)base;
	struct fake_touch *t = calloc(1, sizeof(*t));
	struct input_call ic = { .s = s, .what = ADD_TOUCH };

	if (!t)
		die("out of memory");
	t->base = (WlcsTouch){
		.version = WLCS_TOUCH_VERSION,
		.touch_down = touch_down,
		.touch_move = touch_move,
		.touch_up = touch_up,
		.destroy = touch_destroy,
	};
	t->dev.s = s;
	wl_list_insert(&s->devices, &t->dev.link);
	call(s, input_call, &ic);
	t->id = ic.id;
	return &t->base;
}
