/* SPDX-License-Identifier: MIT */
/*
 * seat-client.c - one client's wl_pointer, wl_keyboard and wl_touch objects, kept
 * apart from every other client's (seat.h).
 *
 * Input events go to the focused client's objects only, and the keyboard
 * focus moves with every toplevel mapped. In one list of all clients'
 * objects, every key, motion and map would walk as many entries as all
 * clients hold pointers and keyboards (each up to
 * --max-objects-per-client): the work of one client's request would
 * depend on the others' objects. Kept per client, found through the
 * client's destroy listener (a few per client, all of the compositor's
 * own), an event walks the focused client's objects, each of which it
 * is sent to.
 *
 * seat.c creates a client's entry with its first wl_pointer,
 * wl_keyboard or wl_touch; pointer.c, keyboard.c and touch.c find it. This file calls none
 * of them.
 */
#include <stdlib.h>

#include "devices.h"

static void client_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_seat_client *sc = wl_container_of(l, sc, destroy);
	struct wl_resource *r, *tmp;

	/* libwayland destroys the client's objects after this signal:
	 * their destructors then unlink them from nothing. */
	wl_resource_for_each_safe(r, tmp, &sc->pointers)
		wl_list_init(wl_resource_get_link(r));
	wl_resource_for_each_safe(r, tmp, &sc->keyboards)
		wl_list_init(wl_resource_get_link(r));
	wl_resource_for_each_safe(r, tmp, &sc->touches)
		wl_list_init(wl_resource_get_link(r));
	wl_list_remove(&sc->destroy.link);
	free(sc);
}

struct wlseal_seat_client *wlseal_seat_client_find(struct wl_client *client)
{
	struct wl_listener *l;
	struct wlseal_seat_client *sc;

	if (!client)
		return NULL;
	l = wl_client_get_destroy_listener(client, client_destroyed);
	return l ? wl_container_of(l, sc, destroy) : NULL;
}

struct wlseal_seat_client *wlseal_seat_client_get(struct wl_client *client)
{
	struct wlseal_seat_client *sc = wlseal_seat_client_find(client);

	if (sc)
		return sc;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return NULL;
	wl_list_init(&sc->pointers);
	wl_list_init(&sc->keyboards);
	wl_list_init(&sc->touches);
	sc->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &sc->destroy);
	return sc;
}
