/* SPDX-License-Identifier: MIT */
/*
 * keyboard.c - wl_keyboard: the keymap, focus, keys and modifiers.
 *
 * Every wl_keyboard first gets the keymap (format XKB_V1, an fd of the
 * sealed memfd of keymap.c) and, from version 4, repeat_info: clients
 * repeat held keys by themselves, so the kernel's autorepeat records
 * are dropped (input/device.c). Keys are evdev codes, as wl_keyboard
 * wants them; xkb_state follows every key (xkb keycodes are evdev + 8)
 * and a change of the serialized modifiers is sent as
 * wl_keyboard.modifiers to the focused client.
 *
 * The keymap is the build machine's "us" layout, compiled at build time
 * (gen-keymap.c says why) and read back here from our own mapping of
 * the memfd, so the compositor's xkb_state and the clients' keymaps
 * come from the same bytes.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wayland-server-protocol.h>

#include "log.h"
#include "devices.h"

extern const char wlseal_keymap_text[];	/* keymap-text.c, generated */

#define REPEAT_RATE 25			/* keys a second */
#define REPEAT_DELAY 600		/* ms before the first repeat */

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct wl_keyboard_interface keyboard_impl = {
	.release = resource_destroy,
};

static void unlink_resource(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

/* Every wl_keyboard of @client, if it has any (seat-client.c): an event
 * walks the focused client's own objects, never every client's. */
#define for_each_keyboard(r, client)					\
	for (struct wlseal_seat_client *sc_ = wlseal_seat_client_find(client); \
	     sc_; sc_ = NULL)						\
		wl_resource_for_each(r, &sc_->keyboards)

static void send_modifiers_to(struct wlseal_keyboard *kb, struct wl_resource *r,
			      uint32_t serial)
{
	wl_keyboard_send_modifiers(r, serial, kb->mods[0], kb->mods[1],
				   kb->mods[2], kb->mods[3]);
}

static void send_enter_to(struct wlseal_keyboard *kb, struct wl_resource *r,
			  uint32_t serial)
{
	wl_keyboard_send_enter(r, serial, kb->focus.surface->resource,
			       &kb->pressed);
	send_modifiers_to(kb, r, serial);
}

static void focus_gone(struct wl_listener *l, void *data)
{
	struct wlseal_keyboard *kb = wl_container_of(l, kb, focus.destroy);

	struct wl_client *client = wl_resource_get_client(kb->focus.surface->resource);
	struct wl_resource *r;
	uint32_t serial = wl_display_next_serial(kb->server->display);

	/* The surface is being destroyed: leave now, while the object
	 * still exists on the wire (as pointer.c does). */
	for_each_keyboard(r, client)
		wl_keyboard_send_leave(r, serial, kb->focus.surface->resource);
	wlseal_focus_set(&kb->focus, NULL);
}

bool wlseal_keyboard_init(struct wlseal_keyboard *kb,
			  struct wlseal_server *server)
{
	memset(kb, 0, sizeof(*kb));
	kb->server = server;
	wl_array_init(&kb->pressed);
	wl_list_init(&kb->focus.destroy.link);
	kb->focus.destroy.notify = focus_gone;
	if (!wlseal_keymap_init(&kb->keymap, wlseal_keymap_text))
		return false;
	kb->ctx = xkb_context_new(XKB_CONTEXT_NO_DEFAULT_INCLUDES |
				  XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	if (kb->ctx)
		kb->xkb = xkb_keymap_new_from_buffer(kb->ctx, kb->keymap.map,
						     kb->keymap.size - 1,
						     XKB_KEYMAP_FORMAT_TEXT_V1, 0);
	if (kb->xkb)
		kb->state = xkb_state_new(kb->xkb);
	if (!kb->state) {
		wlseal_log("keyboard: cannot read the built-in keymap");
		wlseal_keyboard_finish(kb);
		return false;
	}
	return true;
}

void wlseal_keyboard_finish(struct wlseal_keyboard *kb)
{
	wlseal_focus_set(&kb->focus, NULL);
	xkb_state_unref(kb->state);
	xkb_keymap_unref(kb->xkb);
	xkb_context_unref(kb->ctx);
	kb->state = NULL;
	kb->xkb = NULL;
	kb->ctx = NULL;
	wlseal_keymap_finish(&kb->keymap);
	wl_array_release(&kb->pressed);
}

void wlseal_keyboard_create(struct wlseal_keyboard *kb,
			    struct wlseal_seat_client *sc,
			    struct wl_client *client, uint32_t version,
			    uint32_t id)
{
	struct wl_resource *r;
	int fd;

	r = wl_resource_create(client, &wl_keyboard_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &keyboard_impl, kb, unlink_resource);
	wl_list_insert(&sc->keyboards, wl_resource_get_link(r));

	/* libwayland sends a dup of the fd: ours is closed at once. */
	fd = wlseal_keymap_client_fd(&kb->keymap);
	if (fd >= 0) {
		wl_keyboard_send_keymap(r, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd,
					(uint32_t)kb->keymap.size);
		close(fd);
	} else if ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0) {
		/* The event needs a valid fd whatever the format: -1
		 * would fail to marshal and cost the client its
		 * connection. */
		wl_keyboard_send_keymap(r, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP,
					fd, 0);
		close(fd);
	}
	if (version >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(r, REPEAT_RATE, REPEAT_DELAY);
	/* A keyboard made while its client has the focus enters at once. */
	if (kb->focus.surface &&
	    wl_resource_get_client(kb->focus.surface->resource) == client)
		send_enter_to(kb, r,
			      wl_display_next_serial(kb->server->display));
}

void wlseal_keyboard_set_focus(struct wlseal_keyboard *kb,
			       struct wlseal_surface *s)
{
	struct wl_display *display = kb->server->display;
	struct wl_resource *r;
	struct wl_client *client;
	uint32_t serial;

	if (kb->focus.surface == s)
		return;
	if (kb->focus.surface) {
		client = wl_resource_get_client(kb->focus.surface->resource);
		serial = wl_display_next_serial(display);
		for_each_keyboard(r, client)
			wl_keyboard_send_leave(r, serial,
					       kb->focus.surface->resource);
	}
	wlseal_focus_set(&kb->focus, s);
	if (s) {
		client = wl_resource_get_client(s->resource);
		serial = wl_display_next_serial(display);
		for_each_keyboard(r, client)
			send_enter_to(kb, r, serial);
		wlseal_debug("keyboard focus pid=%d wl_surface@%u",
			     (int)wlseal_client_pid(client),
			     wl_resource_get_id(s->resource));
	}
	/* Text inputs follow (text-input.c), after the keyboard's enter. */
	wl_signal_emit(&kb->server->events.keyboard_focus, s);
}

/* The keys held down, as wl_keyboard.enter carries them. */
static void track_pressed(struct wlseal_keyboard *kb, uint32_t key,
			  bool pressed)
{
	uint32_t *k, *end;

	end = (uint32_t *)((char *)kb->pressed.data + kb->pressed.size);
	for (k = kb->pressed.data; k < end; k++)
		if (*k == key)
			break;
	if (pressed && k == end && (k = wl_array_add(&kb->pressed, sizeof(*k))))
		*k = key;
	else if (!pressed && k != end) {
		*k = end[-1];
		kb->pressed.size -= sizeof(*k);
	}
}

/* True when the serialized modifiers changed. */
static bool update_mods(struct wlseal_keyboard *kb)
{
	uint32_t m[4] = {
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_DEPRESSED),
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_LATCHED),
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_LOCKED),
		xkb_state_serialize_layout(kb->state, XKB_STATE_LAYOUT_EFFECTIVE),
	};

	if (!memcmp(m, kb->mods, sizeof(m)))
		return false;
	memcpy(kb->mods, m, sizeof(m));
	return true;
}

void wlseal_keyboard_key(struct wlseal_keyboard *kb, uint32_t time,
			 uint32_t key, bool pressed)
{
	struct wl_resource *r;
	struct wl_client *client;
	uint32_t serial;
	bool mods;

	track_pressed(kb, key, pressed);
	xkb_state_update_key(kb->state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	mods = update_mods(kb);
	if (!kb->focus.surface)
		return;
	client = wl_resource_get_client(kb->focus.surface->resource);
	serial = wl_display_next_serial(kb->server->display);
	for_each_keyboard(r, client) {
		wl_keyboard_send_key(r, serial, time, key,
				     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
					     : WL_KEYBOARD_KEY_STATE_RELEASED);
		if (mods)
			send_modifiers_to(kb, r, serial);
	}
	wlseal_debug("key %u %s%s", key, pressed ? "pressed" : "released",
		     mods ? " (modifiers changed)" : "");
}
