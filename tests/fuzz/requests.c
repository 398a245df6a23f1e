/* SPDX-License-Identifier: MIT */
/*
 * requests.c - wlseal-fuzz's request generators: any request of any
 * interface from its wl_message signature, with per-interface hints that
 * keep gentle connections deep (pool sizes, buffer geometry, configure
 * serials), wl_registry.bind, and the scaffold of a shown surface.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

/* Hints: argument values that make a request likely to succeed, so the
 * connection gets past it to the next. Return true when filled in. */
struct hint {
	int32_t ints[8];
	int n;
	off_t fd_size;
	bool skip;		/* a gentle connection would not send this now */
};

static bool hint_for(struct conn *c, uint32_t target, const struct wl_interface *iface,
		     uint32_t opcode, struct hint *h)
{
	struct rng *r = &c->rng;
	int32_t w = 1 + (int32_t)below(r, 64), hh = 1 + (int32_t)below(r, 64);

	memset(h, 0, sizeof(*h));
	if ((iface == &wl_shm_interface && opcode == WL_SHM_CREATE_POOL) ||
	    (iface == &wlseal_shm_policy_v1_interface &&
	     opcode == WLSEAL_SHM_POLICY_V1_CREATE_POOL)) {
		h->fd_size = 4096 * (1 + below(r, 64));
		h->ints[0] = (int32_t)h->fd_size;
		h->n = 1;
		return true;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_CREATE_BUFFER) {
		int32_t size = target < MAX_OBJECTS ? c->obj[target].pool_size : 0;

		if (size <= 0)
			size = 4096;
		while ((int64_t)w * hh * 4 > size && hh > 1)
			hh /= 2;
		while ((int64_t)w * hh * 4 > size && w > 1)
			w /= 2;
		h->ints[0] = 0;
		h->ints[1] = w;
		h->ints[2] = hh;
		h->ints[3] = w * 4;
		h->ints[4] = (int32_t)below(r, 2); /* argb8888, xrgb8888 */
		h->n = 5;
		return true;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_RESIZE) {
		/* a pool the server made (wlseal_shm_policy_v1): size unknown */
		h->skip = target >= MAX_OBJECTS || c->obj[target].pool_size <= 0;
		/* the file is as large as the pool: growing past it is
		 * left to hostile values */
		if (!h->skip)
			h->ints[0] = c->obj[target].pool_size;
		h->n = 1;
		return true;
	}
	if (iface == &xdg_surface_interface &&
	    (opcode == XDG_SURFACE_GET_TOPLEVEL || opcode == XDG_SURFACE_GET_POPUP)) {
		h->skip = c->obj[target].taken;
		return true;
	}
	if ((iface == &xdg_surface_interface && opcode == XDG_SURFACE_ACK_CONFIGURE) ||
	    (iface == &xdg_wm_base_interface && opcode == XDG_WM_BASE_PONG)) {
		/* this object's serial; none yet: not this request */
		h->ints[0] = (int32_t)c->obj[target].serial;
		h->n = 1;
		h->skip = !c->obj[target].serial;
		return true;
	}
	if (iface == &wl_surface_interface &&
	    (opcode == WL_SURFACE_DAMAGE || opcode == WL_SURFACE_DAMAGE_BUFFER ||
	     opcode == WL_SURFACE_ATTACH)) {
		for (int i = 0; i < 4; i++)
			h->ints[i] = gentle_int(r);
		h->n = 4;
		return true;
	}
	/* A positioner that is complete and valid, so that get_popup and
	 * reposition get past it to placement. */
	if (iface == &xdg_positioner_interface &&
	    (opcode == XDG_POSITIONER_SET_SIZE ||
	     opcode == XDG_POSITIONER_SET_ANCHOR_RECT)) {
		int k = 0;

		if (opcode == XDG_POSITIONER_SET_ANCHOR_RECT) {
			h->ints[k++] = (int32_t)below(r, 200) - 20;
			h->ints[k++] = (int32_t)below(r, 200) - 20;
		}
		h->ints[k++] = w;
		h->ints[k++] = hh;
		h->n = k;
		return true;
	}
	if (iface == &xdg_positioner_interface &&
	    (opcode == XDG_POSITIONER_SET_ANCHOR ||
	     opcode == XDG_POSITIONER_SET_GRAVITY)) {
		h->ints[0] = (int32_t)below(r, 9);
		h->n = 1;
		return true;
	}
	if (iface == &wl_surface_interface && opcode == WL_SURFACE_SET_BUFFER_TRANSFORM) {
		h->ints[0] = 0;
		h->n = 1;
		return true;
	}
	if (iface == &wl_surface_interface && opcode == WL_SURFACE_SET_BUFFER_SCALE) {
		h->ints[0] = 1;
		h->n = 1;
		return true;
	}
	return false;
}

/* A request's first version: the digits that open its signature. */
static uint32_t since(const struct wl_message *m)
{
	uint32_t v = 0;

	for (const char *s = m->signature; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint32_t)(*s - '0');
	return v ? v : 1;
}

/* wl_registry.bind of global g; hostile: a wrong version, interface name
 * or id. */
static void bind_one(struct conn *c, struct stats *st, struct global *g, bool hostile)
{
	struct rng *r = &c->rng;
	struct msg m = { .len = 8 };
	uint32_t id = c->next_id;
	uint32_t version = 1 + below(r, g->version ? g->version : 1);
	const char *name = g->iface ? g->iface->name : "unknown";
	unsigned what = hostile ? 1 + below(r, 4) : 0;

	if (!g->iface && !hostile)
		return;
	if (what == 1)
		version = below(r, 2) ? 0 : g->version + 1 + below(r, 3);
	else if (what == 2)
		name = any_interface(r)->name;
	else if (what == 3)
		id = below(r, 2) ? 0 : c->next_id + 1 + below(r, 50);
	else if (what == 4)
		id = 1 + below(r, c->next_id);
	put32(&m, g->name);
	put_bytes(&m, name, (uint32_t)strlen(name) + 1, (uint32_t)strlen(name) + 1);
	put32(&m, version);
	put32(&m, id);
	if (id == c->next_id) {
		c->next_id++;
		if (g->iface)
			new_object(c, id, g->iface, version);
	}
	send_msg(c, &m, 2, WL_REGISTRY_BIND);
	st->requests++;
}

/* Build and send one request on object slot `target`. */
static void send_request(struct conn *c, struct stats *st, uint32_t target, uint32_t opcode)
{
	struct rng *r = &c->rng;
	const struct wl_interface *iface = c->obj[target].iface;
	const struct wl_message *req = &iface->methods[opcode];
	struct msg m = { .len = 8 };
	struct hint h;
	bool hinted = hint_for(c, target, iface, opcode, &h) && !chance(r, c->hostility);
	/* get_xdg_surface wants a surface without role or buffer */
	bool want_free = iface == &xdg_wm_base_interface &&
			 opcode == XDG_WM_BASE_GET_XDG_SURFACE;
	uint32_t taken = 0;

	if (hinted && h.skip)
		return;
	/* Requests newer than the bound version: only as a hostile act. */
	if (since(req) > c->obj[target].version && !chance(r, c->hostility))
		return;
	int ni = 0, ti = 0;
	bool nullable = false;
	uint32_t created = 0;
	const struct wl_interface *created_iface = NULL;
	uint32_t created_version = 1;
	int32_t pool_size = 0;
	bool skip = false;

	for (const char *s = req->signature; *s; s++) {
		bool hostile = chance(r, c->hostility);

		if (*s >= '0' && *s <= '9')
			continue;
		if (*s == '?') {
			nullable = true;
			continue;
		}
		switch (*s) {
		case 'i':
		case 'u':
		case 'f': {
			int32_t v;

			if (hinted && ni < h.n)
				v = h.ints[ni];
			else
				v = hostile ? hostile_int(r) : gentle_int(r);
			if (ni == 0)
				pool_size = v;
			ni++;
			put32(&m, (uint32_t)v);
			break;
		}
		case 's': {
			char buf[3000];
			uint32_t n;

			if (nullable && !hostile && chance(r, 300)) {
				put32(&m, 0);
				break;
			}
			/* gentle: 1..32 (a wire length of 0 is a null string) */
			n = hostile ? (below(r, 4) ? below(r, 3000) : below(r, 2)) : 1 + below(r, 32);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = hostile ? (char)below(r, 256) : (char)('a' + below(r, 26));
			if (n)
				buf[n - 1] = 0;
			/* wire length counts the NUL; a hostile one may lie */
			put_bytes(&m, buf, n, hostile && chance(r, 200) ? n + 1 : n);
			break;
		}
		case 'a': {
			unsigned char buf[3000];
			uint32_t n = hostile ? below(r, 3000) : below(r, 16) * 4;

			for (uint32_t i = 0; i < n; i++)
				buf[i] = (unsigned char)below(r, 256);
			put_bytes(&m, buf, n, n);
			break;
		}
		case 'o': {
			uint32_t id = pick_object_of(c, req->types[ti], want_free);

			if (hostile) {
				switch (below(r, 4)) {
				case 0: id = 0; break;
				case 1: id = pick_object(c, NULL); break;
				case 2: id = below(r, c->next_id + 2); break;
				default: id = (uint32_t)rnd(r); break;
				}
			} else if (!id && !nullable) {
				/* nothing to refer to yet: not this request */
				skip = true;
			} else if (nullable && chance(r, 100)) {
				id = 0;
			}
			if (id && id < MAX_OBJECTS && (want_free ||
			    (iface == &wl_surface_interface && opcode == WL_SURFACE_ATTACH)))
				taken = id;
			put32(&m, id < MAX_OBJECTS ? wire_id(id) : id);
			break;
		}
		case 'n': {
			uint32_t id = c->next_id;
			const struct wl_interface *ni_iface = req->types[ti];
			uint32_t version = c->obj[target].version; /* children inherit it */

			/* wl_registry.bind (the only untyped new_id) is
			 * bind_one()'s; here an untyped one stays untracked. */
			if (hostile) {
				switch (below(r, 3)) {
				case 0: id = pick_object(c, NULL); break; /* reuse */
				case 1: id = 0; break;
				default: id = c->next_id + 1 + below(r, 100); break;
				}
			} else {
				c->next_id++;
				created = id;
				created_iface = ni_iface;
				created_version = version;
			}
			put32(&m, id);
			break;
		}
		case 'h': {
			int fd;

			if (hinted && !hostile)
				fd = memfd_of_size(r, h.fd_size, F_SEAL_SHRINK |
						   (below(r, 3) ? 0 : F_SEAL_GROW));
			else
				fd = hostile_fd(r, h.fd_size ? h.fd_size : 4096);
			if (fd == FD_NONE)
				break;
			if (fd < 0) /* out of fds or memory here: send none */
				break;
			if (m.n_fds < MAX_FDS)
				m.fds[m.n_fds++] = fd;
			else
				close(fd);
			st->fds++;
			break;
		}
		}
		nullable = false;
		ti++;
	}
	/* Now and then an fd that no argument asked for. */
	if (chance(r, c->hostility / 4) && m.n_fds < MAX_FDS) {
		int fd = hostile_fd(r, 4096);

		if (fd >= 0)
			m.fds[m.n_fds++] = fd;
	}
	if (m.len > MAX_MSG || skip) {
		/* Too long for libwayland's buffer, or missing an object
		 * that a gentle request needs: do not send it. */
		for (int i = 0; i < m.n_fds; i++)
			close(m.fds[i]);
		if (created)
			c->next_id--;
		return;
	}
	if (created && created < MAX_OBJECTS && created_iface) {
		new_object(c, created, created_iface, created_version);
		if (created_iface == &wl_shm_pool_interface)
			c->obj[created].pool_size = pool_size;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_RESIZE)
		c->obj[target].pool_size = pool_size;
	if (taken && want_free)
		c->obj[taken].taken = true;	/* the surface has a role now */
	if (taken && !want_free)
		c->obj[target].taken = true;	/* a buffer was attached */
	if (iface == &xdg_surface_interface &&
	    (opcode == XDG_SURFACE_GET_TOPLEVEL || opcode == XDG_SURFACE_GET_POPUP))
		c->obj[target].taken = true;
	/* Destructors: by name, as wl_message does not say. */
	if (!strcmp(req->name, "destroy") || !strcmp(req->name, "release"))
		c->obj[target].live = false;
	send_msg(c, &m, wire_id(target), opcode);
	st->requests++;
}

/* One request: mostly on a live object, sometimes on a dead or random
 * one, or out of the version's range. */
void one_request(struct conn *c, struct stats *st)
{
	struct rng *r = &c->rng;
	uint32_t target = 0, opcode;
	const struct wl_interface *iface;

	if (chance(r, c->hostility / 2)) {
		/* a destroyed object: still known to us by interface */
		for (int i = 0; i < 8 && !target; i++) {
			uint32_t id = 2 + below(r, c->next_id > 2 ? c->next_id - 2 : 1);

			if (id < MAX_OBJECTS && c->obj[id].iface && !c->obj[id].live)
				target = id;
		}
	}
	if (!target)
		target = pick_object(c, NULL);
	if (!target)
		return;
	iface = c->obj[target].iface;
	if (!iface->method_count)
		return;
	opcode = below(r, (uint32_t)iface->method_count);
	/* Destructors less often, so that objects live long enough. */
	if ((!strcmp(iface->methods[opcode].name, "destroy") ||
	     !strcmp(iface->methods[opcode].name, "release")) && !chance(r, 150))
		opcode = below(r, (uint32_t)iface->method_count);
	if (iface == &wl_registry_interface && opcode == WL_REGISTRY_BIND) {
		if (c->n_globals)
			bind_one(c, st, &c->globals[below(r, (uint32_t)c->n_globals)],
				 chance(r, c->hostility));
		return;
	}
	send_request(c, st, target, opcode);
}

/* Bind every global once (a fuzzer that only binds some never gets far). */
void bind_all(struct conn *c, struct stats *st)
{
	for (int i = 0; i < c->n_globals && !c->dead; i++)
		if (c->globals[i].iface)
			bind_one(c, st, &c->globals[i], false);
}

/* A request of @n plain words (ints, uints, object ids already on the
 * wire) on object slot @target. */
void send_words(struct conn *c, struct stats *st, uint32_t target,
		       uint32_t opcode, const uint32_t *w, int n)
{
	struct msg m = { .len = 8 };

	for (int i = 0; i < n; i++)
		put32(&m, w[i]);
	send_msg(c, &m, wire_id(target), opcode);
	st->requests++;
}

/* A new object of @iface made by a request on @target whose first
 * argument is its new_id, followed by @n words. */
uint32_t send_new(struct conn *c, struct stats *st, uint32_t target,
			 uint32_t opcode, const struct wl_interface *iface,
			 const uint32_t *w, int n)
{
	uint32_t words[8], id = c->next_id++;

	words[0] = id;
	for (int i = 0; i < n && i < 7; i++)
		words[1 + i] = w[i];
	send_words(c, st, target, opcode, words, n + 1);
	return new_object(c, id, iface, c->obj[target].version);
}

/* The initial commit of @surf (whose role object @xs has), then the
 * configure acked and a buffer committed: mapped, if the buffer is good. */
static void map_role(struct conn *c, struct stats *st, uint32_t surf,
		     uint32_t xs)
{
	uint32_t buffer, w[3];

	send_words(c, st, surf, WL_SURFACE_COMMIT, NULL, 0);
	pump(c, 10);
	if (c->dead || !c->obj[xs].serial || !chance(&c->rng, 800))
		return;
	w[0] = c->obj[xs].serial;
	send_words(c, st, xs, XDG_SURFACE_ACK_CONFIGURE, w, 1);
	buffer = pick_object(c, &wl_buffer_interface);
	if (buffer) {
		w[0] = wire_id(buffer);
		w[1] = w[2] = 0;
		send_words(c, st, surf, WL_SURFACE_ATTACH, w, 3);
		send_words(c, st, surf, WL_SURFACE_COMMIT, NULL, 0);
	}
}

/* A new surface with an xdg_surface; *@xs receives the xdg_surface. */
uint32_t new_xdg_surface(struct conn *c, struct stats *st,
				uint32_t comp, uint32_t wm, uint32_t *xs)
{
	uint32_t surf, w[1];

	surf = send_new(c, st, comp, WL_COMPOSITOR_CREATE_SURFACE,
			&wl_surface_interface, NULL, 0);
	w[0] = wire_id(surf);
	*xs = send_new(c, st, wm, XDG_WM_BASE_GET_XDG_SURFACE,
		       &xdg_surface_interface, w, 1);
	c->obj[surf].taken = true;
	return surf;
}

/* A popup on @parent (an xdg_surface with a role): a complete
 * positioner with any anchor, gravity, adjustment and offset, sometimes
 * reactive, a grab now and then; mostly mapped. Returns its xdg_surface. */
uint32_t popup_on(struct conn *c, struct stats *st, uint32_t comp,
			 uint32_t wm, uint32_t parent)
{
	struct rng *r = &c->rng;
	uint32_t seat = pick_object(c, &wl_seat_interface);
	uint32_t pos, surf, xs, popup, w[4];

	pos = send_new(c, st, wm, XDG_WM_BASE_CREATE_POSITIONER,
		       &xdg_positioner_interface, NULL, 0);
	w[0] = 1 + below(r, 400);
	w[1] = 1 + below(r, 300);
	send_words(c, st, pos, XDG_POSITIONER_SET_SIZE, w, 2);
	w[0] = below(r, 200) - 20;
	w[1] = below(r, 200) - 20;
	w[2] = below(r, 50);
	w[3] = below(r, 50);
	send_words(c, st, pos, XDG_POSITIONER_SET_ANCHOR_RECT, w, 4);
	w[0] = below(r, 9);
	send_words(c, st, pos, XDG_POSITIONER_SET_ANCHOR, w, 1);
	w[0] = below(r, 9);
	send_words(c, st, pos, XDG_POSITIONER_SET_GRAVITY, w, 1);
	w[0] = below(r, 64);
	send_words(c, st, pos, XDG_POSITIONER_SET_CONSTRAINT_ADJUSTMENT, w, 1);
	w[0] = below(r, 600) - 300;
	w[1] = below(r, 600) - 300;
	send_words(c, st, pos, XDG_POSITIONER_SET_OFFSET, w, 2);
	if (c->obj[pos].version >= 3 && chance(r, 300))
		send_words(c, st, pos, XDG_POSITIONER_SET_REACTIVE, NULL, 0);
	surf = new_xdg_surface(c, st, comp, wm, &xs);
	w[0] = wire_id(parent);
	w[1] = wire_id(pos);
	popup = send_new(c, st, xs, XDG_SURFACE_GET_POPUP, &xdg_popup_interface,
			 w, 2);
	c->obj[xs].taken = true;
	if (seat && chance(r, 500)) {
		w[0] = wire_id(seat);
		w[1] = c->last_serial;
		send_words(c, st, popup, XDG_POPUP_GRAB, w, 2);
	}
	map_role(c, st, surf, xs);
	if (chance(r, 500)) {
		send_words(c, st, pos, XDG_POSITIONER_DESTROY, NULL, 0);
		c->obj[pos].live = false;
	}
	return xs;
}

/*
 * A toplevel mapped for the purpose, with a popup on it and sometimes
 * popups on that one (menus nest); the random requests that follow
 * reposition, grab, destroy and commit them in any order.
 */
static void popup_scaffold(struct conn *c, struct stats *st)
{
	uint32_t wm = pick_object(c, &xdg_wm_base_interface);
	uint32_t comp = pick_object(c, &wl_compositor_interface);
	uint32_t surf, xs;

	if (!wm || !comp || c->next_id + 40 >= MAX_OBJECTS - 64)
		return;
	surf = new_xdg_surface(c, st, comp, wm, &xs);
	send_new(c, st, xs, XDG_SURFACE_GET_TOPLEVEL, &xdg_toplevel_interface,
		 NULL, 0);
	c->obj[xs].taken = true;
	map_role(c, st, surf, xs);
	xs = popup_on(c, st, comp, wm, xs);
	for (int i = 0; i < 3 && !c->dead && chance(&c->rng, 400); i++)
		xs = popup_on(c, st, comp, wm, xs);
}

/* A little structure: a surface with a role and a buffer, the path that
 * reaches composition; a popup now and then. */
void scaffold(struct conn *c, struct stats *st)
{
	uint32_t comp = pick_object(c, &wl_compositor_interface);
	uint32_t wm = pick_object(c, &xdg_wm_base_interface);

	if (comp)
		send_request(c, st, comp, WL_COMPOSITOR_CREATE_SURFACE);
	if (wm && chance(&c->rng, 700)) {
		uint32_t surf = pick_object(c, &wl_surface_interface);

		if (surf) {
			uint32_t xs;

			send_request(c, st, wm, XDG_WM_BASE_GET_XDG_SURFACE);
			xs = pick_object(c, &xdg_surface_interface);
			if (xs)
				send_request(c, st, xs, XDG_SURFACE_GET_TOPLEVEL);
			/* the initial commit, answered by a configure */
			send_request(c, st, surf, WL_SURFACE_COMMIT);
			/* A lingering connection stays until the compositor
			 * has composed a frame with it (or 50 ms). */
			for (uint64_t f = c->frames_done, i = 0;
			     c->linger && !c->dead && c->frames_done == f && i < 5; i++)
				pump(c, 10);
		}
	}
	if (chance(&c->rng, 500)) {
		/* pump first: the configure serial for ack_configure */
		uint32_t surf = pick_object(c, &wl_surface_interface);
		uint32_t xs = pick_object(c, &xdg_surface_interface);

		pump(c, 0);
		if (xs)
			send_request(c, st, xs, XDG_SURFACE_ACK_CONFIGURE);
		if (surf && pick_object(c, &wl_buffer_interface)) {
			send_request(c, st, surf, WL_SURFACE_ATTACH);
			send_request(c, st, surf, WL_SURFACE_DAMAGE_BUFFER);
			send_request(c, st, surf, WL_SURFACE_FRAME);
			send_request(c, st, surf, WL_SURFACE_COMMIT);
		}
	}
	if (chance(&c->rng, 300))
		popup_scaffold(c, st);
	/* A wl_shell surface of some kind: a toplevel, or a transient or
	 * popup on whatever shell surface the arguments pick. */
	if (comp && chance(&c->rng, 300)) {
		uint32_t shell = pick_object(c, &wl_shell_interface);
		uint32_t ss;

		if (shell) {
			send_request(c, st, comp, WL_COMPOSITOR_CREATE_SURFACE);
			send_request(c, st, shell, WL_SHELL_GET_SHELL_SURFACE);
			ss = pick_object(c, &wl_shell_surface_interface);
			if (ss)
				send_request(c, st, ss, chance(&c->rng, 500) ?
					     WL_SHELL_SURFACE_SET_TOPLEVEL :
					     chance(&c->rng, 500) ?
					     WL_SHELL_SURFACE_SET_TRANSIENT :
					     WL_SHELL_SURFACE_SET_POPUP);
		}
	}
	{
		uint32_t shm = pick_object(c, &wl_shm_interface);

		if (shm) {
			uint32_t pool;

			send_request(c, st, shm, WL_SHM_CREATE_POOL);
			pool = pick_object(c, &wl_shm_pool_interface);
			if (pool)
				send_request(c, st, pool, WL_SHM_POOL_CREATE_BUFFER);
		}
	}
}
