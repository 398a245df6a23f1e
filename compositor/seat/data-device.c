/* SPDX-License-Identifier: MIT */
/*
 * data-device.c - wl_data_device_manager: the selection (clipboard);
 * drag-and-drop never starts.
 *
 * The selection is one wl_data_source at a time, set by
 * wl_data_device.set_selection. The client with the keyboard focus
 * (server->events.keyboard_focus, after its enter) is offered it on
 * each of its wl_data_devices: a new wl_data_offer, its MIME types,
 * then wl_data_device.selection; so is it whenever the selection
 * changes while it has the focus, and on a wl_data_device it makes
 * while it has it. An offer's receive becomes the source's send (the
 * fd passed on); a source replaced by another selection is cancelled,
 * and its offers go inert.
 *
 * Which set_selection is taken: a selection "should" come from the
 * client with the keyboard focus with the serial of the input event
 * that caused it. wlseal takes any client's, unless its serial is not
 * newer than the current selection's (a stale request: weston's rule).
 * WLCS 1.5's clients set theirs with serial 0 and without the focus
 * (Mir checks no serial); a compositor that checked the serial against
 * the events it sent that client (wlroots) would refuse them. Setting
 * the selection hands no data to anyone: only the focused client is
 * offered it, and it reads only what the source's client writes.
 *
 * Bounds, per request: a source keeps at most SOURCE_MIME_TYPES types
 * and SOURCE_MIME_BYTES bytes of them (more are dropped); an offer is
 * made for each wl_data_device of the focused client (its own objects,
 * counted in its object budget, account/objects.c) with the source's
 * bounded list. Offers follow their source through a shared reference
 * (struct source_ref): replacing or destroying a source costs O(1),
 * whatever number of offers other clients hold of it. A client's data
 * devices are kept per client (as seat-client.c keeps its input
 * devices), so the focused client's are found without a walk of
 * everyone's.
 *
 * Drag-and-drop: start_drag checks the icon's role and does nothing
 * else (no drag ever becomes active); the sources still check their
 * action masks.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "seat.h"

/* wayland 1.22 names this error; Debian 12's 1.21 headers predate it. */
#define DATA_DEVICE_ERROR_USED_SOURCE 1

#define ALL_DND_ACTIONS (WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY | \
			 WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE | \
			 WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK)

#define SOURCE_MIME_TYPES 32
#define SOURCE_MIME_BYTES 4096

/* The selection state of the one seat. */
struct data_devices {
	struct wlseal_server *server;
	struct source *selection;	/* NULL: none */
	uint32_t selection_serial;
	struct wlseal_surface *focus;	/* the keyboard's, or NULL */
	struct wl_listener focus_destroy;	/* on focus->resource */
	struct wl_listener keyboard_focus;	/* server->events */
	struct wl_listener display_destroy;
};

/* What offers point to: the source while it is the selection, NULL
 * once it is not (replaced, or destroyed). Freed with its last user. */
struct source_ref {
	struct source *source;
	unsigned int users;
};

struct source {
	struct wl_resource *resource;
	struct data_devices *dd;
	struct source_ref *ref;		/* NULL: never the selection */
	bool used;			/* given to set_selection once */
	/* Each charged to the client's string budget (account/objects.c):
	 * a client holds as many sources as objects. */
	struct wlseal_kept_string mimes[SOURCE_MIME_TYPES];
	int n_mimes;
	size_t mime_bytes;
};

/* One client's wl_data_devices (wl_resource_get_link). */
struct client_devices {
	struct wl_list resources;
	struct wl_listener destroy;	/* the client's */
};

static void ref_put(struct source_ref *ref)
{
	if (ref && --ref->users == 0)
		free(ref);
}

/* @source stops being the selection: its offers go inert. O(1). */
static void source_unref(struct source *source)
{
	if (!source->ref)
		return;
	source->ref->source = NULL;
	ref_put(source->ref);
	source->ref = NULL;
}

/* Per-client device lists */

static void client_destroyed(struct wl_listener *l, void *data)
{
	struct client_devices *cd = wl_container_of(l, cd, destroy);
	struct wl_resource *r, *tmp;

	/* libwayland destroys the client's objects after this signal:
	 * their destructors then unlink them from nothing. */
	wl_resource_for_each_safe(r, tmp, &cd->resources)
		wl_list_init(wl_resource_get_link(r));
	wl_list_remove(&cd->destroy.link);
	free(cd);
}

static struct client_devices *client_devices(struct wl_client *client)
{
	struct wl_listener *l;
	struct client_devices *cd;

	if (!client)
		return NULL;
	l = wl_client_get_destroy_listener(client, client_destroyed);
	return l ? wl_container_of(l, cd, destroy) : NULL;
}

static struct client_devices *client_devices_get(struct wl_client *client)
{
	struct client_devices *cd = client_devices(client);

	if (cd)
		return cd;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return NULL;
	wl_list_init(&cd->resources);
	cd->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &cd->destroy);
	return cd;
}

/* Every wl_data_device of @client, if it has any. */
#define for_each_device(r, client)					\
	for (struct client_devices *cd_ = client_devices(client); cd_;	\
	     cd_ = NULL)						\
		wl_resource_for_each(r, &cd_->resources)

static struct wl_client *focus_client(struct data_devices *dd)
{
	return dd->focus ? wl_resource_get_client(dd->focus->resource) : NULL;
}

/* wl_data_offer */

static void offer_accept(struct wl_client *c, struct wl_resource *r,
			 uint32_t serial, const char *mime_type)
{
	/* Feedback for drag-and-drop only. */
}

static void offer_receive(struct wl_client *c, struct wl_resource *r,
			  const char *mime_type, int32_t fd)
{
	struct source_ref *ref = wl_resource_get_user_data(r);

	/* The source writes into the fd (libwayland sends a copy); an
	 * inert offer's fd is just closed, as the reader will see. */
	if (ref && ref->source)
		wl_data_source_send_send(ref->source->resource, mime_type, fd);
	close(fd);
}

static void offer_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void offer_finish(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_post_error(r, WL_DATA_OFFER_ERROR_INVALID_FINISH,
			       "finish on a selection offer");
}

static void offer_set_actions(struct wl_client *c, struct wl_resource *r,
			      uint32_t actions, uint32_t preferred)
{
	wl_resource_post_error(r, WL_DATA_OFFER_ERROR_INVALID_OFFER,
			       "set_actions on a selection offer");
}

static const struct wl_data_offer_interface offer_impl = {
	.accept = offer_accept,
	.receive = offer_receive,
	.destroy = offer_destroy,
	.finish = offer_finish,
	.set_actions = offer_set_actions,
};

static void offer_resource_destroy(struct wl_resource *r)
{
	ref_put(wl_resource_get_user_data(r));
}

/* The selection to one data device: an offer of it and its types, or
 * NULL without one. */
static void send_selection(struct data_devices *dd, struct wl_resource *device)
{
	struct source *source = dd->selection;
	struct wl_resource *offer;

	if (!source || !source->ref) {
		wl_data_device_send_selection(device, NULL);
		return;
	}
	offer = wl_resource_create(wl_resource_get_client(device),
				   &wl_data_offer_interface,
				   wl_resource_get_version(device), 0);
	if (!offer) {
		wl_client_post_no_memory(wl_resource_get_client(device));
		return;
	}
	source->ref->users++;
	wl_resource_set_implementation(offer, &offer_impl, source->ref,
				       offer_resource_destroy);
	wl_data_device_send_data_offer(device, offer);
	for (int i = 0; i < source->n_mimes; i++)
		wl_data_offer_send_offer(offer, source->mimes[i].s);
	wl_data_device_send_selection(device, offer);
}

/* To every data device of the focused client. */
static void send_selection_to_focus(struct data_devices *dd)
{
	struct wl_resource *r;

	for_each_device(r, focus_client(dd))
		send_selection(dd, r);
}

/* @source (or NULL) becomes the selection; the one before is
 * cancelled. */
static void set_selection(struct data_devices *dd, struct source *source)
{
	struct source *old = dd->selection;

	dd->selection = source;
	if (old && old != source) {
		source_unref(old);
		wl_data_source_send_cancelled(old->resource);
	}
	send_selection_to_focus(dd);
}

/* wl_data_source */

static void source_offer(struct wl_client *c, struct wl_resource *r,
			 const char *mime_type)
{
	struct source *source = wl_resource_get_user_data(r);
	size_t len = strlen(mime_type) + 1;

	/* Bounded: more types than anyone offers are dropped. */
	if (source->n_mimes == SOURCE_MIME_TYPES ||
	    source->mime_bytes + len > SOURCE_MIME_BYTES)
		return;
	if (!wlseal_kept_string_set(&source->mimes[source->n_mimes], c,
				    mime_type))
		return;
	source->n_mimes++;
	source->mime_bytes += len;
}

static void source_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void source_set_actions(struct wl_client *c, struct wl_resource *r,
			       uint32_t actions)
{
	if (actions & ~ALL_DND_ACTIONS)
		wl_resource_post_error(r, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
				       "invalid dnd action mask 0x%x", actions);
}

static const struct wl_data_source_interface source_impl = {
	.offer = source_offer,
	.destroy = source_destroy,
	.set_actions = source_set_actions,
};

static void source_resource_destroy(struct wl_resource *r)
{
	struct source *source = wl_resource_get_user_data(r);
	struct data_devices *dd = source->dd;

	source_unref(source);
	for (int i = 0; i < source->n_mimes; i++)
		wlseal_kept_string_clear(&source->mimes[i]);
	free(source);
	/* The selection is gone with it: the focus learns so. */
	if (dd && dd->selection == source) {
		dd->selection = NULL;
		send_selection_to_focus(dd);
	}
}

/* wl_data_device */

static void device_start_drag(struct wl_client *c, struct wl_resource *r,
			      struct wl_resource *source,
			      struct wl_resource *origin,
			      struct wl_resource *icon, uint32_t serial)
{
	struct wlseal_surface *s = icon ? wlseal_surface_from_resource(icon)
					: NULL;

	if (s && s->role) {
		wl_resource_post_error(r, WL_DATA_DEVICE_ERROR_ROLE,
				       "drag icon wl_surface@%u already has a role",
				       wl_resource_get_id(icon));
		return;
	}
	/* No drag starts (this file's comment). */
}

static void device_set_selection(struct wl_client *c, struct wl_resource *r,
				 struct wl_resource *source_resource,
				 uint32_t serial)
{
	struct data_devices *dd = wl_resource_get_user_data(r);
	struct source *source = source_resource ?
		wl_resource_get_user_data(source_resource) : NULL;
	struct source_ref *ref;

	if (!dd)
		return;
	if (source && source->used) {
		wl_resource_post_error(r, DATA_DEVICE_ERROR_USED_SOURCE,
				       "wl_data_source@%u was already used",
				       wl_resource_get_id(source_resource));
		return;
	}
	/* Not newer than the current selection's serial: stale. */
	if (dd->selection && (int32_t)(serial - dd->selection_serial) <= 0)
		return;
	if (source) {
		ref = calloc(1, sizeof(*ref));
		if (!ref) {
			wl_client_post_no_memory(c);
			return;
		}
		ref->source = source;
		ref->users = 1;		/* the source's own */
		source->ref = ref;
		source->used = true;
	}
	dd->selection_serial = serial;
	set_selection(dd, source);
}

static void device_release(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct wl_data_device_interface device_impl = {
	.start_drag = device_start_drag,
	.set_selection = device_set_selection,
	.release = device_release,
};

static void device_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

/* The keyboard focus */

static void focus_gone(struct wl_listener *l, void *data)
{
	struct data_devices *dd = wl_container_of(l, dd, focus_destroy);

	wl_list_remove(&dd->focus_destroy.link);
	wl_list_init(&dd->focus_destroy.link);
	dd->focus = NULL;
}

/* The keyboard focus moved: a client that gains it is offered the
 * selection (after its enter; a surface of the same client changes
 * nothing). */
static void keyboard_focus(struct wl_listener *l, void *data)
{
	struct data_devices *dd = wl_container_of(l, dd, keyboard_focus);
	struct wlseal_surface *s = data;
	struct wl_client *before = focus_client(dd);

	wl_list_remove(&dd->focus_destroy.link);
	wl_list_init(&dd->focus_destroy.link);
	dd->focus = s;
	if (s)
		wl_resource_add_destroy_listener(s->resource, &dd->focus_destroy);
	if (s && focus_client(dd) != before)
		send_selection_to_focus(dd);
}

/* wl_data_device_manager */

static void manager_create_data_source(struct wl_client *client,
				       struct wl_resource *r, uint32_t id)
{
	struct source *source = calloc(1, sizeof(*source));

	if (!source) {
		wl_client_post_no_memory(client);
		return;
	}
	source->resource = wl_resource_create(client, &wl_data_source_interface,
					      wl_resource_get_version(r), id);
	if (!source->resource) {
		free(source);
		wl_client_post_no_memory(client);
		return;
	}
	source->dd = wl_resource_get_user_data(r);
	wl_resource_set_implementation(source->resource, &source_impl, source,
				       source_resource_destroy);
}

static void manager_get_data_device(struct wl_client *client,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *seat)
{
	struct data_devices *dd = wl_resource_get_user_data(r);
	struct client_devices *cd = client_devices_get(client);
	struct wl_resource *device;

	if (!cd) {
		wl_client_post_no_memory(client);
		return;
	}
	device = wl_resource_create(client, &wl_data_device_interface,
				    wl_resource_get_version(r), id);
	if (!device) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(device, &device_impl, dd,
				       device_resource_destroy);
	wl_list_insert(&cd->resources, wl_resource_get_link(device));
	/* Made while its client has the focus: it learns the selection. */
	if (dd && focus_client(dd) == client)
		send_selection(dd, device);
}

static const struct wl_data_device_manager_interface manager_impl = {
	.create_data_source = manager_create_data_source,
	.get_data_device = manager_get_data_device,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_data_device_manager_interface,
			       version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

/* After the clients (wl_display_destroy_clients): no source, offer or
 * device is left to point here. */
static void display_destroyed(struct wl_listener *l, void *data)
{
	struct data_devices *dd = wl_container_of(l, dd, display_destroy);

	wl_list_remove(&dd->focus_destroy.link);
	wl_list_remove(&dd->keyboard_focus.link);
	wl_list_remove(&dd->display_destroy.link);
	free(dd);
}

bool wlseal_data_device_init(struct wlseal_server *server, uint32_t version)
{
	struct data_devices *dd = calloc(1, sizeof(*dd));

	if (!dd)
		return false;
	dd->server = server;
	wl_list_init(&dd->focus_destroy.link);
	dd->focus_destroy.notify = focus_gone;
	/* Version 3: dnd actions, the newest in wayland 1.21. */
	if (!wl_global_create(server->display,
			      &wl_data_device_manager_interface, version, dd,
			      manager_bind)) {
		free(dd);
		return false;
	}
	dd->keyboard_focus.notify = keyboard_focus;
	wl_signal_add(&server->events.keyboard_focus, &dd->keyboard_focus);
	dd->display_destroy.notify = display_destroyed;
	wl_display_add_destroy_listener(server->display, &dd->display_destroy);
	return true;
}
