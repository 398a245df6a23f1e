/* SPDX-License-Identifier: MIT */
/*
 * objects.c - wlseal-fuzz's object model: the interfaces it knows, the
 * objects of a connection as the events (errors, deletions, globals,
 * serials, server-created objects) update them, and picking one.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

/* Every interface the compositor may advertise or create. */
static const struct wl_interface *const interfaces[] = {
	&wl_display_interface, &wl_registry_interface, &wl_callback_interface,
	&wl_compositor_interface, &wl_surface_interface, &wl_region_interface,
	&wl_shm_interface, &wl_shm_pool_interface, &wl_buffer_interface,
	&wl_output_interface, &xdg_wm_base_interface, &xdg_surface_interface,
	&xdg_toplevel_interface, &xdg_popup_interface, &xdg_positioner_interface,
	&wp_presentation_interface, &wp_presentation_feedback_interface,
	&wlseal_shm_policy_v1_interface, &wlseal_shm_pool_request_v1_interface,
	&wl_subcompositor_interface, &wl_subsurface_interface,
	&wl_seat_interface, &wl_pointer_interface, &wl_keyboard_interface,
	&wl_touch_interface, &wl_data_device_manager_interface,
	&wl_data_device_interface, &wl_data_source_interface,
	&wl_data_offer_interface, &zxdg_decoration_manager_v1_interface,
	&zxdg_toplevel_decoration_v1_interface,
	&zxdg_output_manager_v1_interface, &zxdg_output_v1_interface,
	&zwp_relative_pointer_manager_v1_interface,
	&zwp_relative_pointer_v1_interface,
	&zwp_pointer_constraints_v1_interface, &zwp_locked_pointer_v1_interface,
	&zwp_confined_pointer_v1_interface,
	&zwp_text_input_manager_v3_interface, &zwp_text_input_v3_interface,
	&wl_shell_interface, &wl_shell_surface_interface,
	&wp_viewporter_interface, &wp_viewport_interface,
};
#define N_INTERFACES (sizeof(interfaces) / sizeof(interfaces[0]))

static const struct wl_interface *interface_by_name(const char *name)
{
	for (size_t i = 0; i < N_INTERFACES; i++)
		if (!strcmp(interfaces[i]->name, name))
			return interfaces[i];
	return NULL;
}

/* Any interface at all: a wrong one, for hostile requests. */
const struct wl_interface *any_interface(struct rng *r)
{
	return interfaces[below(r, N_INTERFACES)];
}

uint32_t new_object(struct conn *c, uint32_t id,
		    const struct wl_interface *iface, uint32_t version)
{
	if (id == 0 || id >= MAX_OBJECTS)
		return id;
	c->obj[id] = (struct object){ .iface = iface, .version = version, .live = true };
	return id;
}

/* The events that matter to us: errors, deletions, globals, serials and
 * server-created objects. Everything is bounds-checked: the fuzzer must
 * not crash whatever the compositor sends. */
void handle_event(struct conn *c, const uint32_t *p, size_t size)
{
	uint32_t id = p[0], opcode = p[1] & 0xffff;
	const struct wl_interface *iface;
	const struct wl_message *ev;
	size_t pos = 2, words = size / 4;
	int ti = 0;

	if (id == 1) {
		iface = &wl_display_interface;
	} else if (id < MAX_OBJECTS && c->obj[id].iface) {
		iface = c->obj[id].iface;
	} else {
		return;
	}
	if ((int)opcode >= iface->event_count)
		return;
	ev = &iface->events[opcode];

	if (iface == &wl_display_interface && opcode == 0 /* error */ && words >= 6) {
		uint32_t len = p[4];
		const char *s = (const char *)&p[5];
		size_t max = (words - 5) * 4;

		snprintf(c->error, sizeof(c->error), "error on object %u code %u: %.*s",
			 p[2], p[3], (int)(len && len <= max ? len - 1 : 0), s);
		c->dead = true;
		return;
	}
	if (iface == &wl_display_interface && opcode == 1 /* delete_id */ && words >= 3) {
		if (p[2] < MAX_OBJECTS) {
			c->obj[p[2]].live = false;
			c->obj[p[2]].iface = NULL;
		}
		return;
	}
	if (iface == &wl_registry_interface && opcode == 0 /* global */ && words >= 5) {
		uint32_t len = p[3];
		size_t max = (words - 4) * 4;
		char name[128];

		if (len == 0 || len > max || len > sizeof(name) ||
		    words < 4 + (len + 3) / 4 + 1)
			return;
		memcpy(name, &p[4], len);
		name[len - 1] = 0;
		if (c->n_globals < (int)(sizeof(c->globals) / sizeof(c->globals[0])))
			c->globals[c->n_globals++] = (struct global){
				.name = p[2], .version = p[4 + (len + 3) / 4],
				.iface = interface_by_name(name),
			};
		return;
	}
	if (iface == &wl_callback_interface && id == c->sync_id) {
		c->sync_done = true;
		return;
	}
	if (iface == &wl_callback_interface) {
		c->frames_done++;
		return;
	}
	if (iface == &xdg_toplevel_interface && opcode == 0 /* configure */ &&
	    words >= 4) {
		c->conf_w = (int32_t)p[2];
		c->conf_h = (int32_t)p[3];
	}
	if ((iface == &xdg_surface_interface || iface == &xdg_wm_base_interface) && words >= 3) {
		c->obj[id].serial = p[2];
		c->last_serial = p[2];
	}

	/* Server-created objects (new_id in an event): remember them. */
	for (const char *s = ev->signature; *s && pos < words; s++) {
		switch (*s) {
		case '?':
			continue;
		case 'n':
			if (p[pos] >= SERVER_ID_BASE && p[pos] - SERVER_ID_BASE < 64 &&
			    ev->types[ti]) {
				/* kept in the top of our table */
				uint32_t slot = MAX_OBJECTS - 64 + (p[pos] - SERVER_ID_BASE);

				c->obj[slot] = (struct object){ .iface = ev->types[ti],
								.version = 1, .live = true };
			}
			pos++;
			break;
		case 's':
		case 'a':
			pos += 1 + (p[pos] + 3) / 4;
			break;
		case 'h':
			break;
		default:
			if (*s >= '0' && *s <= '9')
				continue;
			pos++;
			break;
		}
		ti++;
	}
}

/* A live object of this interface (or of any, when iface is NULL);
 * with free, one that is not taken. */
uint32_t pick_object_of(struct conn *c, const struct wl_interface *iface, bool free)
{
	uint32_t cand[64], n = 0, newest = 0;

	for (uint32_t id = 2; id < MAX_OBJECTS; id++)
		if (c->obj[id].live && c->obj[id].iface &&
		    (!iface || c->obj[id].iface == iface) &&
		    (!free || !c->obj[id].taken)) {
			if (n < 64)
				cand[n++] = id;
			newest = id;
		}
	/* The newest half the time: chains (surface, xdg_surface, toplevel,
	 * pool, buffer, attach) then use the objects made for each other. */
	if (newest && chance(&c->rng, 500))
		return newest;
	return n ? cand[below(&c->rng, n)] : 0;
}

uint32_t pick_object(struct conn *c, const struct wl_interface *iface)
{
	return pick_object_of(c, iface, false);
}

uint32_t wire_id(uint32_t slot)
{
	return slot >= MAX_OBJECTS - 64 ? SERVER_ID_BASE + (slot - (MAX_OBJECTS - 64)) : slot;
}
