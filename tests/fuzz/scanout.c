/* SPDX-License-Identifier: MIT */
/*
 * scanout.c - the fuzzer's way to the compositor's newest paths (with
 * --scanout): a fullscreen toplevel showing a buffer as large as the
 * output, which the compositor scans out as it is (its own mapping's
 * address then lives in the display's image, the screenshots and the
 * frame checksums), and then, in any order, what a client can do to such
 * a buffer and its pool:
 *
 * - grow the file and the pool (wl_shm_pool.resize; sometimes past the
 *   file, sometimes by a page, sometimes by 64 MiB), so that the
 *   compositor's mapping moves or grows while the buffer is on screen;
 * - commit the same buffer again, or one from the part just added;
 * - write the pages (a SHRINK-only file) or punch holes into them;
 * - put a subsurface or a popup over the scanned-out surface (it is then
 *   composed) and take it away again;
 * - destroy the buffer or the pool while the display holds them;
 * - ask for a screenshot (SIGUSR1 to --pid), which reads the frame on
 *   screen, whatever it is.
 *
 * The file is sometimes write-sealed (the read-only scanout path),
 * sometimes not sealed at all (--unsealed=seal seals it, =copy copies
 * it, the default refuses it). Everything stays within the 4 KiB message
 * limit and the object table, like the rest of the fuzzer.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define PAGE 4096u
#define XRGB 1u		/* WL_SHM_FORMAT_XRGB8888 */

struct shown {
	uint32_t surf, xs, pool, buffer;
	int fd;			/* the pool's file, ours to grow and write */
	size_t size;		/* the pool's size as we told it */
	size_t span;		/* one output-sized frame, whole pages */
	int32_t w, h;
	bool write_sealed;
};

/* Waits (bounded) for the fullscreen configure; false if none came. */
static bool await_configure(struct conn *c, uint32_t xs)
{
	for (int i = 0; i < 20 && !c->dead; i++) {
		if (c->obj[xs].serial && c->conf_w > 0 && c->conf_h > 0)
			return true;
		pump(c, 10);
	}
	return false;
}

/* A file of @size bytes for the pool: sealed SHRINK mostly, now and then
 * write-sealed as well (filled first), not sealed (--unsealed=seal seals
 * it) or not sealable at all (--unsealed=copy copies it). */
static int pool_file(struct conn *c, struct shown *s, size_t size)
{
	unsigned mode = below(&c->rng, 10);
	uint32_t pixel = 0xff000000u | (uint32_t)rnd(&c->rng);
	int fd;

	if (mode == 9 && chance(&c->rng, 500)) {
		fd = memfd_create("wlseal-fuzz-nosealing", MFD_CLOEXEC);
		if (fd >= 0 && ftruncate(fd, (off_t)size) < 0) {
			close(fd);
			fd = -1;
		}
		return fd;
	}
	fd = memfd_of_size(&c->rng, (off_t)size, 0);
	if (fd < 0)
		return -1;
	if (mode < 3) {
		uint32_t row[256];

		for (int i = 0; i < 256; i++)
			row[i] = pixel;
		for (size_t off = 0; off + sizeof(row) <= size; off += sizeof(row))
			if (pwrite(fd, row, sizeof(row), (off_t)off) < 0)
				break;
		s->write_sealed = fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK |
					F_SEAL_GROW | F_SEAL_WRITE) == 0;
	} else if (mode < 9) {
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	}
	return fd;
}

static uint32_t frame_buffer(struct conn *c, struct stats *st,
			     struct shown *s, size_t offset)
{
	uint32_t w[5] = { (uint32_t)offset, (uint32_t)s->w, (uint32_t)s->h,
			  (uint32_t)s->w * 4, XRGB };

	return send_new(c, st, s->pool, WL_SHM_POOL_CREATE_BUFFER,
			&wl_buffer_interface, w, 5);
}

static void show(struct conn *c, struct stats *st, struct shown *s,
		 uint32_t buffer)
{
	uint32_t w[4] = { wire_id(buffer), 0, 0, 0 };

	send_words(c, st, s->surf, WL_SURFACE_ATTACH, w, 3);
	w[0] = w[1] = 0;
	w[2] = (uint32_t)s->w;
	w[3] = (uint32_t)s->h;
	if (c->obj[s->surf].version >= 4)
		send_words(c, st, s->surf, WL_SURFACE_DAMAGE_BUFFER, w, 4);
	send_new(c, st, s->surf, WL_SURFACE_FRAME, &wl_callback_interface,
		 NULL, 0);
	send_words(c, st, s->surf, WL_SURFACE_COMMIT, NULL, 0);
	pump(c, 5);
}

/* Grows the file (unless the step is one that lies) and the pool. */
static void grow(struct conn *c, struct stats *st, struct shown *s)
{
	static const size_t steps[] = { PAGE, 1u << 20, 16u << 20, 64u << 20 };
	size_t next = s->size + steps[below(&c->rng, 4)];
	uint32_t w[1];

	if (next > 0x7fffffff)
		return;
	/* Past the file now and then: refused, and the pool keeps its
	 * size (a protocol error ends the connection). */
	if (!chance(&c->rng, 50) && ftruncate(s->fd, (off_t)next) < 0)
		return;
	w[0] = (uint32_t)next;
	send_words(c, st, s->pool, WL_SHM_POOL_RESIZE, w, 1);
	c->obj[s->pool].pool_size = (int32_t)next;
	s->size = next;
}

/* A subsurface or a popup over the shown surface, then sometimes gone. */
static void cover(struct conn *c, struct stats *st, struct shown *s,
		  uint32_t comp, uint32_t wm)
{
	uint32_t sub = pick_object(c, &wl_subcompositor_interface);
	uint32_t child, role, w[2];

	if (chance(&c->rng, 500) && wm) {
		popup_on(c, st, comp, wm, s->xs);
		return;
	}
	if (!sub)
		return;
	child = send_new(c, st, comp, WL_COMPOSITOR_CREATE_SURFACE,
			 &wl_surface_interface, NULL, 0);
	w[0] = wire_id(child);
	w[1] = wire_id(s->surf);
	role = send_new(c, st, sub, WL_SUBCOMPOSITOR_GET_SUBSURFACE,
			&wl_subsurface_interface, w, 2);
	c->obj[child].taken = true;
	w[0] = (uint32_t)below(&c->rng, (uint32_t)s->w);
	w[1] = (uint32_t)below(&c->rng, (uint32_t)s->h);
	send_words(c, st, role, WL_SUBSURFACE_SET_POSITION, w, 2);
	send_words(c, st, role, WL_SUBSURFACE_SET_DESYNC, NULL, 0);
	{
		uint32_t a[3] = { wire_id(s->buffer), 0, 0 };

		send_words(c, st, child, WL_SURFACE_ATTACH, a, 3);
	}
	send_words(c, st, child, WL_SURFACE_COMMIT, NULL, 0);
	send_words(c, st, s->surf, WL_SURFACE_COMMIT, NULL, 0);
	if (chance(&c->rng, 500)) {
		send_words(c, st, role, WL_SUBSURFACE_DESTROY, NULL, 0);
		c->obj[role].live = false;
		send_words(c, st, s->surf, WL_SURFACE_COMMIT, NULL, 0);
	}
}

void scanout_scaffold(struct conn *c, struct stats *st)
{
	uint32_t comp = pick_object(c, &wl_compositor_interface);
	uint32_t wm = pick_object(c, &xdg_wm_base_interface);
	uint32_t shm = pick_object(c, &wl_shm_interface);
	struct shown s = { .fd = -1 };
	uint32_t tl, w[2];
	int steps;

	if (!comp || !wm || !shm || c->next_id + 200 >= MAX_OBJECTS - 80)
		return;
	s.surf = new_xdg_surface(c, st, comp, wm, &s.xs);
	tl = send_new(c, st, s.xs, XDG_SURFACE_GET_TOPLEVEL,
		      &xdg_toplevel_interface, NULL, 0);
	c->obj[s.xs].taken = true;
	w[0] = 0;	/* the output the compositor picks */
	send_words(c, st, tl, XDG_TOPLEVEL_SET_FULLSCREEN, w, 1);
	c->conf_w = c->conf_h = 0;
	send_words(c, st, s.surf, WL_SURFACE_COMMIT, NULL, 0);
	if (!await_configure(c, s.xs) || c->conf_w > 4096 || c->conf_h > 4096)
		return;
	s.w = c->conf_w;
	s.h = c->conf_h;
	s.span = ((size_t)s.w * 4 * (size_t)s.h + PAGE - 1) / PAGE * PAGE;
	s.size = s.span * 2;
	s.fd = pool_file(c, &s, s.size);
	if (s.fd < 0)
		return;
	{
		struct msg m = { .len = 8 };
		uint32_t id = c->next_id++;

		put32(&m, id);
		m.fds[m.n_fds++] = dup(s.fd);
		put32(&m, (uint32_t)s.size);
		send_msg(c, &m, wire_id(shm), WL_SHM_CREATE_POOL);
		st->requests++;
		st->fds++;
		s.pool = new_object(c, id, &wl_shm_pool_interface,
				    c->obj[shm].version);
		c->obj[s.pool].pool_size = (int32_t)s.size;
	}
	s.buffer = frame_buffer(c, st, &s, 0);
	w[0] = c->obj[s.xs].serial;
	send_words(c, st, s.xs, XDG_SURFACE_ACK_CONFIGURE, w, 1);
	for (int i = 0; i < 3 && !c->dead; i++)
		show(c, st, &s, s.buffer);

	steps = 4 + (int)below(&c->rng, 12);
	for (int i = 0; i < steps && !c->dead &&
	     c->next_id < MAX_OBJECTS - 80; i++) {
		switch (below(&c->rng, 9)) {
		case 0:
		case 1:
			if (!s.write_sealed)
				grow(c, st, &s);
			show(c, st, &s, s.buffer);
			break;
		case 2:	/* a buffer of the part last added */
			s.buffer = frame_buffer(c, st, &s, s.size - s.span);
			show(c, st, &s, s.buffer);
			break;
		case 3:	/* the client's own writes and holes */
			if (!s.write_sealed) {
				uint32_t px = (uint32_t)rnd(&c->rng);

				if (pwrite(s.fd, &px, sizeof(px),
					   (off_t)below(&c->rng, (uint32_t)s.span)) < 0 ||
				    chance(&c->rng, 300))
					fallocate(s.fd, FALLOC_FL_PUNCH_HOLE |
						  FALLOC_FL_KEEP_SIZE, 0,
						  (off_t)PAGE * 4);
			}
			show(c, st, &s, s.buffer);
			break;
		case 4:
			cover(c, st, &s, comp, wm);
			break;
		case 5:	/* gone while the display may hold it */
			send_words(c, st, s.buffer, WL_BUFFER_DESTROY, NULL, 0);
			c->obj[s.buffer].live = false;
			s.buffer = frame_buffer(c, st, &s, 0);
			show(c, st, &s, s.buffer);
			break;
		case 6:
			if (c->shoot_pid > 0)
				kill(c->shoot_pid, SIGUSR1);
			pump(c, 5);
			break;
		case 7:	/* the pool resource gone, its buffers live on */
			if (chance(&c->rng, 300)) {
				send_words(c, st, s.pool, WL_SHM_POOL_DESTROY,
					   NULL, 0);
				c->obj[s.pool].live = false;
				steps = i + 1;	/* nothing to grow any more */
			}
			break;
		default:
			one_request(c, st);
			break;
		}
	}
	close(s.fd);
}
