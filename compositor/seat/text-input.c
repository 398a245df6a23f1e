/* SPDX-License-Identifier: MIT */
/*
 * text-input.c - zwp_text_input_manager_v3: where text is being edited,
 * for an input method to compose into. wlseal has no input method, so
 * it never sends preedit_string, commit_string or
 * delete_surrounding_text; what a client sees is the focus and the
 * acknowledgement of its state, which toolkits bind and rely on (Qt 6
 * and GTK make a text input per seat and follow its enter and leave).
 *
 * Focus. The text-input focus is the keyboard's (keyboard.c emits
 * server->events.keyboard_focus after its own enter): every text input
 * of the focused client gets enter with the surface, and leave when
 * the keyboard goes elsewhere, before the next focus's enter. A text
 * input made while its client has the focus gets enter at once. When
 * the focused surface is destroyed its text inputs are left without an
 * event (the client destroyed it, as wl_keyboard sends no leave for
 * it). Requests between a leave and the next enter are ignored, as the
 * protocol asks (commits are still counted).
 *
 * State. enable, disable, set_surrounding_text, set_text_change_cause,
 * set_content_type and set_cursor_rectangle change the pending state;
 * commit makes it current. enable and disable reset it first (a
 * disable's commit leaves nothing), the change cause is reset to
 * input_method after every commit, and enter and leave invalidate both.
 * At most one text input of the seat is enabled: a commit enabling
 * another while one is enabled is ignored. Every commit is counted per
 * object, and each one made while the object has the focus is
 * answered by done with that count, so a client knows the compositor
 * holds its state (there is no input method whose changes done would
 * otherwise carry). The applied state is logged with --verbose (what
 * an input method would be handed). The surrounding text itself is not
 * kept, only its length, cursor and anchor: no input method would read
 * it, and so a text input costs a fixed hundred bytes whatever the
 * client sends (a counted object, account/objects.c).
 *
 * Work: a focus change walks the text inputs of the client left and of
 * the client entered (kept per client, found through its destroy
 * listener as relative-pointer.c keeps its objects), never every
 * client's. This file calls no other file; it follows the keyboard
 * through the signal and the focused surface through a destroy listener
 * on its resource.
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "log.h"
#include "seat.h"
#include "text-input-unstable-v3-server-protocol.h"

/* The global's: the focus the text inputs follow. */
struct text_inputs {
	struct wlseal_server *server;
	struct wlseal_surface *focus;		/* the keyboard's, or NULL */
	struct wl_listener focus_destroy;	/* on focus->resource */
	struct wl_listener keyboard_focus;	/* server->events */
	struct wl_listener display_destroy;
	struct text_input *enabled;		/* the seat's one, or NULL */
};

struct ti_state {
	bool enabled;
	bool has_surrounding;
	size_t text_len;
	int32_t cursor, anchor;
	uint32_t cause;
	uint32_t hint, purpose;
	bool has_rect;
	int32_t x, y, width, height;
};

struct text_input {
	struct wl_resource *resource;
	struct text_inputs *tis;
	bool entered;				/* has tis->focus */
	uint32_t commits;			/* done's serial */
	struct ti_state pending, current;
};

/* One client's text inputs (wl_resource_get_link). */
struct client_text_inputs {
	struct wl_list resources;
	struct wl_listener destroy;		/* the client's */
};

static void client_destroyed(struct wl_listener *l, void *data)
{
	struct client_text_inputs *ct = wl_container_of(l, ct, destroy);
	struct wl_resource *r, *tmp;

	/* libwayland destroys the client's objects after this signal:
	 * their destructors then unlink them from nothing. */
	wl_resource_for_each_safe(r, tmp, &ct->resources)
		wl_list_init(wl_resource_get_link(r));
	wl_list_remove(&ct->destroy.link);
	free(ct);
}

static struct client_text_inputs *client_text_inputs(struct wl_client *client)
{
	struct wl_listener *l;
	struct client_text_inputs *ct;

	if (!client)
		return NULL;
	l = wl_client_get_destroy_listener(client, client_destroyed);
	return l ? wl_container_of(l, ct, destroy) : NULL;
}

/* Every text input of @client, if it has any. */
#define for_each_text_input(r, client)					\
	for (struct client_text_inputs *ct_ = client_text_inputs(client); \
	     ct_; ct_ = NULL)						\
		wl_resource_for_each(r, &ct_->resources)

static const struct ti_state initial_state = {
	.cause = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD,
	.hint = ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE,
	.purpose = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL,
};

/* Out of the focus: not entered, nothing enabled, the state gone. */
static void forget(struct text_input *ti)
{
	ti->entered = false;
	ti->pending = ti->current = initial_state;
	if (ti->tis->enabled == ti)
		ti->tis->enabled = NULL;
}

static struct wl_client *focus_client(struct text_inputs *tis)
{
	return tis->focus ? wl_resource_get_client(tis->focus->resource) : NULL;
}

static void enter(struct text_input *ti, struct wlseal_surface *s)
{
	forget(ti);
	ti->entered = true;
	zwp_text_input_v3_send_enter(ti->resource, s->resource);
}

static void focus_gone(struct wl_listener *l, void *data)
{
	struct text_inputs *tis = wl_container_of(l, tis, focus_destroy);
	struct wl_resource *r;

	/* Being destroyed: its text inputs are out of it, no leave. */
	for_each_text_input(r, focus_client(tis))
		forget(wl_resource_get_user_data(r));
	wl_list_remove(&tis->focus_destroy.link);
	wl_list_init(&tis->focus_destroy.link);
	tis->focus = NULL;
}

static void keyboard_focus(struct wl_listener *l, void *data)
{
	struct text_inputs *tis = wl_container_of(l, tis, keyboard_focus);
	struct wlseal_surface *s = data;
	struct wl_resource *r;

	if (s == tis->focus)
		return;
	if (tis->focus)
		for_each_text_input(r, focus_client(tis)) {
			struct text_input *ti = wl_resource_get_user_data(r);

			if (!ti->entered)
				continue;
			forget(ti);
			zwp_text_input_v3_send_leave(r, tis->focus->resource);
		}
	wl_list_remove(&tis->focus_destroy.link);
	wl_list_init(&tis->focus_destroy.link);
	tis->focus = s;
	if (!s)
		return;
	wl_resource_add_destroy_listener(s->resource, &tis->focus_destroy);
	for_each_text_input(r, focus_client(tis))
		enter(wl_resource_get_user_data(r), s);
}

/* zwp_text_input_v3 */

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

/* The text input's pending state, or NULL: its requests are ignored
 * until the next enter. */
static struct ti_state *pending_of(struct wl_resource *r)
{
	struct text_input *ti = wl_resource_get_user_data(r);

	return ti->entered ? &ti->pending : NULL;
}

static void ti_enable(struct wl_client *client, struct wl_resource *r)
{
	struct ti_state *st = pending_of(r);

	if (!st)
		return;
	*st = initial_state;
	st->enabled = true;
}

static void ti_disable(struct wl_client *client, struct wl_resource *r)
{
	struct ti_state *st = pending_of(r);

	if (st)
		*st = initial_state;
}

static void ti_set_surrounding_text(struct wl_client *client,
				    struct wl_resource *r, const char *text,
				    int32_t cursor, int32_t anchor)
{
	struct ti_state *st = pending_of(r);

	if (!st)
		return;
	st->has_surrounding = true;
	st->text_len = strlen(text);
	st->cursor = cursor;
	st->anchor = anchor;
}

static void ti_set_text_change_cause(struct wl_client *client,
				     struct wl_resource *r, uint32_t cause)
{
	struct ti_state *st = pending_of(r);

	if (st)
		st->cause = cause;
}

static void ti_set_content_type(struct wl_client *client, struct wl_resource *r,
				uint32_t hint, uint32_t purpose)
{
	struct ti_state *st = pending_of(r);

	if (!st)
		return;
	st->hint = hint;
	st->purpose = purpose;
}

static void ti_set_cursor_rectangle(struct wl_client *client,
				    struct wl_resource *r, int32_t x, int32_t y,
				    int32_t width, int32_t height)
{
	struct ti_state *st = pending_of(r);

	if (!st)
		return;
	st->has_rect = true;
	st->x = x;
	st->y = y;
	st->width = width;
	st->height = height;
}

static void ti_commit(struct wl_client *client, struct wl_resource *r)
{
	struct text_input *ti = wl_resource_get_user_data(r);
	struct text_inputs *tis = ti->tis;
	const struct ti_state *c = &ti->current;

	ti->commits++;
	if (!ti->entered)
		return;
	if (ti->pending.enabled && tis->enabled && tis->enabled != ti) {
		/* Another text input of the seat is enabled. */
		wlseal_debug("text-input pid=%d zwp_text_input_v3@%u: enable "
			     "ignored, zwp_text_input_v3@%u is enabled",
			     (int)wlseal_client_pid(client),
			     wl_resource_get_id(r),
			     wl_resource_get_id(tis->enabled->resource));
		ti->pending = ti->current;
	} else {
		ti->current = ti->pending;
		if (c->enabled)
			tis->enabled = ti;
		else if (tis->enabled == ti)
			tis->enabled = NULL;
	}
	ti->pending.cause = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD;
	wlseal_debug("text-input pid=%d zwp_text_input_v3@%u commit %u: %s "
		     "surrounding %zd bytes cursor %d anchor %d cause %u "
		     "hint 0x%x purpose %u rectangle %d,%d %dx%d",
		     (int)wlseal_client_pid(client), wl_resource_get_id(r),
		     ti->commits, c->enabled ? "enabled" : "disabled",
		     c->has_surrounding ? (ssize_t)c->text_len : (ssize_t)-1,
		     c->cursor, c->anchor, c->cause, c->hint, c->purpose,
		     c->has_rect ? c->x : 0, c->has_rect ? c->y : 0,
		     c->has_rect ? c->width : -1, c->has_rect ? c->height : -1);
	zwp_text_input_v3_send_done(r, ti->commits);
}

static const struct zwp_text_input_v3_interface text_input_impl = {
	.destroy = resource_destroy,
	.enable = ti_enable,
	.disable = ti_disable,
	.set_surrounding_text = ti_set_surrounding_text,
	.set_text_change_cause = ti_set_text_change_cause,
	.set_content_type = ti_set_content_type,
	.set_cursor_rectangle = ti_set_cursor_rectangle,
	.commit = ti_commit,
};

static void text_input_destroy(struct wl_resource *r)
{
	struct text_input *ti = wl_resource_get_user_data(r);

	/* Whatever it enabled is disabled with it. */
	if (ti->tis->enabled == ti)
		ti->tis->enabled = NULL;
	wl_list_remove(wl_resource_get_link(r));
	free(ti);
}

/* zwp_text_input_manager_v3 */

static void get_text_input(struct wl_client *client, struct wl_resource *r,
			   uint32_t id, struct wl_resource *seat)
{
	struct text_inputs *tis = wl_resource_get_user_data(r);
	struct client_text_inputs *ct = client_text_inputs(client);
	struct text_input *ti;

	if (!ct) {
		ct = calloc(1, sizeof(*ct));
		if (!ct) {
			wl_client_post_no_memory(client);
			return;
		}
		wl_list_init(&ct->resources);
		ct->destroy.notify = client_destroyed;
		wl_client_add_destroy_listener(client, &ct->destroy);
	}
	ti = calloc(1, sizeof(*ti));
	if (!ti) {
		wl_client_post_no_memory(client);
		return;
	}
	ti->tis = tis;
	ti->pending = ti->current = initial_state;
	ti->resource = wl_resource_create(client, &zwp_text_input_v3_interface,
					  wl_resource_get_version(r), id);
	if (!ti->resource) {
		free(ti);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(ti->resource, &text_input_impl, ti,
				       text_input_destroy);
	/* In the order made: enter and leave go to them in that order. */
	wl_list_insert(ct->resources.prev, wl_resource_get_link(ti->resource));
	/* There is one seat: @seat is it. Made while its client has the
	 * keyboard: it enters at once. */
	if (focus_client(tis) == client)
		enter(ti, tis->focus);
}

static const struct zwp_text_input_manager_v3_interface manager_impl = {
	.destroy = resource_destroy,
	.get_text_input = get_text_input,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &zwp_text_input_manager_v3_interface,
			       (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

/* After every client, with the display. */
static void display_destroyed(struct wl_listener *l, void *data)
{
	struct text_inputs *tis = wl_container_of(l, tis, display_destroy);

	wl_list_remove(&tis->focus_destroy.link);
	wl_list_remove(&tis->keyboard_focus.link);
	wl_list_remove(&tis->display_destroy.link);
	free(tis);
}

bool wlseal_text_input_init(struct wlseal_server *server, uint32_t version)
{
	struct text_inputs *tis = calloc(1, sizeof(*tis));

	if (!tis)
		return false;
	tis->server = server;
	wl_list_init(&tis->focus_destroy.link);
	tis->focus_destroy.notify = focus_gone;
	if (!wl_global_create(server->display,
			      &zwp_text_input_manager_v3_interface, version, tis,
			      manager_bind)) {
		free(tis);
		return false;
	}
	tis->keyboard_focus.notify = keyboard_focus;
	wl_signal_add(&server->events.keyboard_focus, &tis->keyboard_focus);
	tis->display_destroy.notify = display_destroyed;
	wl_display_add_destroy_listener(server->display, &tis->display_destroy);
	return true;
}
