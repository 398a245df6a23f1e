/* SPDX-License-Identifier: MIT */
/*
 * resources.c - resources: volumes of pools, buffers, rectangles and log
 * lines that try to exhaust or stall the compositor for everyone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_RESOURCES
#include "attack-viewporter-client-protocol.h"
#include "scenario.h"

/* --- volume ------------------------------------------------------------------------------- */

ATT_SCENARIO(run_many_pools, "many-pools",
	     "2000 pools from one client: fd and mapping exhaustion in the compositor",
	     SURVIVES)
{
	struct wl_shm_pool *last = NULL;
	int n = 0;

	/* libwayland-client dups each fd until it is sent; make sure our own
	 * fd limit is not what stops us. */
	att_raise_nofile();
	for (; n < 2000; n++) {
		int fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

		if (fd < 0) {
			att_fail_setup(o, "memfd %d: %s", n, strerror(errno));
			return;
		}
		last = wl_shm_create_pool(a->shm, fd, 4096);
		close(fd);
		/* Send in batches so the socket's fd queue never overflows. */
		if (n % ATT_FD_BATCH == ATT_FD_BATCH - 1 && att_roundtrip(a) != 0)
			break;
	}
	att_note(o, "%d pools sent", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	att_keep_presenting(a, wl_shm_pool_create_buffer(last, 0, 32, 32, 128,
						     XRGB), 1);
}

ATT_SCENARIO(run_many_buffers, "many-buffers",
	     "20000 buffers on one pool: pool reference counting (CVE-2021-3782 was a refcount overflow)",
	     SURVIVES)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf = NULL;
	int n;

	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	for (n = 0; n < 20000; n++) {
		buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H,
						ATT_STRIDE, XRGB);
		if (n % 1000 == 999 && att_roundtrip(a) != 0)
			break;
	}
	att_note(o, "%d buffers on one pool", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	att_keep_presenting(a, buf, 1);
}

/*
 * The pool lock-out: {create_pool, create_buffer, wl_shm_pool.destroy},
 * keeping every buffer. Counted by wl_shm_pool resources this client holds
 * none, yet each pool lived on (and kept an fd) through its buffer, until
 * the compositor refused every client's pool near its fd limit. Pool
 * objects are what count: the client is refused at its own budget, and
 * everyone else (the probe, the client beside) still gets pools.
 */
ATT_SCENARIO(run_pool_object_lockout, "pool-object-lockout",
	     "1100 x {create_pool, create_buffer, destroy pool} keeping the buffers: refused at the per-client pool budget, no one else locked out",
	     POOL_REFUSED("too many pools"))
{
	int n;

	att_raise_nofile();
	for (n = 0; n < 1100; n++) {
		int fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
		struct wl_shm_pool *pool;

		if (fd < 0) {
			att_fail_setup(o, "memfd %d: %s", n, strerror(errno));
			return;
		}
		pool = wl_shm_create_pool(a->shm, fd, 4096);
		close(fd);
		wl_shm_pool_create_buffer(pool, 0, 32, 32, 128, XRGB);
		wl_shm_pool_destroy(pool);
		if (n % ATT_FD_BATCH == ATT_FD_BATCH - 1 && att_roundtrip(a) != 0)
			break;
	}
	att_note(o, "%d pools created and destroyed, buffers kept", n);
}

/*
 * Beside the heavy connections a well-behaved one must still create a pool
 * and get a frame (asserted: a setup failure otherwise).
 */
static void beside_the_heavy(struct attack *a, struct outcome *o)
{
	struct attack good = { .timeout_ms = a->timeout_ms };
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd;

	if (att_connect(&good) != 0) {
		att_fail_setup(o, "a well-behaved connection could not connect");
		return;
	}
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK | F_SEAL_GROW);
	pool = wl_shm_create_pool(good.shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	if (att_window(&good) != 0 || att_present(&good, buf, ATT_W, ATT_H) != 0)
		att_fail_setup(o, "the well-behaved connection got no frame beside the heavy ones (%s)",
			       wl_display_get_error(good.display) ?
				       "refused" : "timeout");
	else
		att_note(o, "a well-behaved connection got its pool and a frame");
	att_disconnect(&good);
}

/*
 * Fairness: 24 connections, each within its own budget (1000 live pools,
 * resources kept, so each holds 1000 of the compositor's fds and
 * mappings): together more than the compositor's fd table. They ask
 * through wlseal_shm_policy_v1 where offered, so a refusal does not
 * disconnect them and they keep what they got. Then a well-behaved
 * connection must still create a pool and get a frame (asserted), as must
 * the probe afterwards.
 */
#define HEAVY_CONNECTIONS 24

ATT_SCENARIO(run_many_clients_pools, "many-clients-pools",
	     "24 connections x 1000 live pools, each within its budget (more than the compositor's fds), then a well-behaved connection must get a pool and a frame (asserted)",
	     SURVIVES)
{
	static struct attack heavy[HEAVY_CONNECTIONS];
	int fd, c, refused = 0;

	att_raise_nofile();
	for (c = 0; c < HEAVY_CONNECTIONS; c++) {
		struct attack *x = &heavy[c];

		x->timeout_ms = a->timeout_ms;
		if (att_connect(x) != 0) {
			att_fail_setup(o, "connection %d: cannot connect", c);
			goto out;
		}
		for (int n = 0; n < 1000; n++) {
			fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
			if (fd < 0) {
				att_fail_setup(o, "memfd: %s", strerror(errno));
				c++;
				goto out;
			}
			if (x->shm_policy)
				wlseal_shm_policy_v1_create_pool(x->shm_policy, fd, 4096);
			else
				wl_shm_create_pool(x->shm, fd, 4096);
			close(fd);
			if (n % ATT_FD_BATCH == ATT_FD_BATCH - 1 && att_roundtrip(x) != 0)
				break;
		}
		if (wl_display_get_error(x->display))
			refused++;
	}
	att_note(o, "%d of %d heavy connections disconnected", refused, c);
	beside_the_heavy(a, o);
out:
	for (int i = 0; i < c && i < HEAVY_CONNECTIONS; i++)
		att_disconnect(&heavy[i]);
}

/*
 * Mappings: every pool is one of the compositor's mappings, and the kernel
 * allows vm.max_map_count of them (65530 by default), after which mmap,
 * and malloc with it, fail for everyone. 70 connections keep 1000 pool
 * objects each (pools destroyed, buffers kept: no fds held, only
 * mappings), each within its own budget, more than the kernel allows
 * together. A well-behaved connection must still get a pool and a frame
 * (asserted).
 */
#define MAPPING_CONNECTIONS 70

ATT_SCENARIO(run_many_clients_mappings, "many-clients-mappings",
	     "70 connections x 1000 pool objects kept by their buffers (more mappings than vm.max_map_count), then a well-behaved connection must get a pool and a frame (asserted)",
	     SURVIVES)
{
	static struct attack heavy[MAPPING_CONNECTIONS];
	struct wl_shm_pool *pool;
	int fd, c, gone = 0;

	att_raise_nofile();
	for (c = 0; c < MAPPING_CONNECTIONS; c++) {
		struct attack *x = &heavy[c];

		x->timeout_ms = a->timeout_ms;
		fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
		if (fd < 0 || att_connect(x) != 0) {
			att_fail_setup(o, "connection %d: setup failed", c);
			if (fd >= 0)
				close(fd);
			c++;
			goto out;
		}
		/* One file, a thousand pools: each its own mapping. */
		for (int n = 0; n < 1000; n++) {
			pool = wl_shm_create_pool(x->shm, fd, 4096);
			wl_shm_pool_create_buffer(pool, 0, 32, 32, 128, XRGB);
			wl_shm_pool_destroy(pool);
			if (n % ATT_FD_BATCH == ATT_FD_BATCH - 1 && att_roundtrip(x) != 0)
				break;
		}
		close(fd);
		if (wl_display_get_error(x->display))
			gone++;
	}
	att_note(o, "%d of %d heavy connections refused", gone, c);
	beside_the_heavy(a, o);
out:
	for (int i = 0; i < c && i < MAPPING_CONNECTIONS; i++)
		att_disconnect(&heavy[i]);
}

/*
 * Memory the compositor is charged for. Every page of a pool that the
 * compositor reads is in its RSS, and a hole it reads is a page its own
 * fault allocates (charged to its memory cgroup). Sparse sealed pools cost
 * the attacker nothing, and a viewport that squeezes a tall, wide buffer
 * into 256x192 makes every frame sample two rows of 32 pages for each
 * row shown: 48 MiB of new pages a frame, the source moved by two rows
 * each frame until every row was sampled. Connections of one pool each
 * (so a refusal loses nothing already charged), the size halved after a
 * refusal, never below CHARGE_MIN (a heavy client: the light clients'
 * reserve stays free). The aim is more than the machine can give
 * (5/4 of MemAvailable, at most CHARGE_MAX, so that a host with much
 * memory is not pushed into its own OOM by the compositors without a
 * budget in the attack matrix). A compositor that maps what it cannot
 * afford is the OOM killer's first pick: it holds every page in its RSS.
 * After it, a well-behaved connection must get a pool and a frame
 * (asserted).
 */
#define CHARGE_CONNECTIONS 64
#define CHARGE_W 32000			/* pixman samples below 32768 */
#define CHARGE_STRIDE (32 << 12)	/* 32 pages a row */
#define CHARGE_DST_W 256
#define CHARGE_DST_H 192
#define CHARGE_MIN (32 << 20)
#define CHARGE_MAX (5ull << 29)		/* 2.5 GiB: past a 2 GiB VM */
#define CHARGE_SECONDS 120

static int count_fds(pid_t pid);


/* Samples every row of @buf (@rows tall) through @vp, a few rows a frame,
 * until the compositor holds @goal bytes or time is up. Returns the frames
 * shown, -1 when the connection failed. */
static int charge_walk(struct attack *x, struct wp_viewport *vp,
		       struct wl_buffer *buf, int32_t rows, long long goal,
		       int64_t deadline)
{
	int32_t step = rows / CHARGE_DST_H, frames = 0;

	for (int32_t y0 = 0; y0 < (step > 1 ? step : 1); y0 += 2) {
		wp_viewport_set_source(vp, 0, wl_fixed_from_int(y0),
				       wl_fixed_from_int(CHARGE_W),
				       wl_fixed_from_int(rows - (step > 1 ? step : 0)));
		if (att_present(x, buf, CHARGE_W, rows) != 0)
			return -1;
		frames++;
		if (att_compositor_kb(x, "RssShmem") >= goal || att_now_ms() > deadline)
			break;
	}
	return frames;
}

/*
 * The pools of a departed attacker are released a slice per loop turn,
 * and the last close of each file frees all its pages, in the kernel, on
 * the compositor's time: seconds for a read-through gigabyte on the debug
 * kernel under TCG. Wait (at most CHARGE_RELEASE_S) until the compositor
 * holds no fd and no mapping of our memfds ("memfd:wlseal-attack"): every
 * pool is gone, and the next scenario meets a compositor that is not
 * still paying for this one. A compositor that never lets go fails.
 */
#define CHARGE_RELEASE_S 120
#define ATTACK_MEMFD "memfd:wlseal-attack"

static void charge_released(struct attack *a, struct outcome *o)
{
	int64_t t0 = att_now_ms();
	int held = -1;

	if (!a->compositor_pid)
		return;
	while (att_now_ms() - t0 < CHARGE_RELEASE_S * 1000) {
		held = att_files_named(a->compositor_pid, ATTACK_MEMFD);
		if (held <= 0)
			break;
		usleep(100000);
	}
	if (held > 0)
		att_fail_setup(o, "%d fds and mappings of the pools still held %d s after the attacker left",
			       held, CHARGE_RELEASE_S);
	else if (held == 0)
		att_note(o, "every pool released %lld ms after the attacker left",
			 (long long)(att_now_ms() - t0));
}

ATT_SCENARIO(run_hole_charge, "hole-charge",
	     "sparse sealed pools, one per connection, each read page by page through a viewport until the compositor holds more memory than the machine has available: the pool memory budget stops it, and a well-behaved connection still gets a pool and a frame (asserted)",
	     SURVIVES)
{
	static struct attack conns[CHARGE_CONNECTIONS];
	long long avail = att_proc_kb("/proc/meminfo", "MemAvailable");
	long long base = att_compositor_kb(a, "RssShmem"), goal, held = 0;
	int64_t deadline = att_now_ms() + CHARGE_SECONDS * 1000;
	size_t size = (size_t)INT32_MAX / CHARGE_STRIDE * CHARGE_STRIDE;
	int c, used = 0, frames = 0, pools = 0, refused = 0;

	if (avail < 0)
		avail = (long long)CHARGE_MAX;
	goal = avail / 4 * 5 < (long long)CHARGE_MAX ? avail / 4 * 5 :
						      (long long)CHARGE_MAX;
	att_raise_nofile();
	for (c = 0; c < CHARGE_CONNECTIONS && size >= CHARGE_MIN; c++) {
		struct attack *x = &conns[c];
		int32_t rows = (int32_t)(size / CHARGE_STRIDE);
		struct wl_shm_pool *pool;
		struct wp_viewport *vp;
		struct wl_buffer *buf;
		int fd, n;

		if (att_now_ms() > deadline ||
		    (held = att_compositor_kb(a, "RssShmem") - (base > 0 ? base : 0)) >= goal)
			break;
		x->timeout_ms = a->timeout_ms > 30000 ? a->timeout_ms : 30000;
		fd = att_memfd_sparse(size, MFD_ALLOW_SEALING);
		if (fd < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
			att_fail_setup(o, "sparse memfd of %zu bytes: %s", size,
				       strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		used = c + 1;
		if (att_connect(x) != 0) {
			close(fd);
			att_note(o, "connection %d could not connect", c);
			break;
		}
		pool = wl_shm_create_pool(x->shm, fd, (int32_t)size);
		close(fd);
		buf = wl_shm_pool_create_buffer(pool, 0, CHARGE_W, rows,
						CHARGE_STRIDE, XRGB);
		if (att_roundtrip(x) != 0) {
			/* Refused (and disconnected): a smaller pool next. */
			refused++;
			size /= 2;
			continue;
		}
		pools++;
		if (att_window(x) != 0 || !(vp = att_viewport(x, o)))
			break;
		wp_viewport_set_destination(vp, CHARGE_DST_W, CHARGE_DST_H);
		n = charge_walk(x, vp, buf, rows, goal + (base > 0 ? base : 0),
				deadline);
		if (n < 0)
			break;
		frames += n;
	}
	if (att_compositor_kb(a, "RssShmem") >= 0)
		held = att_compositor_kb(a, "RssShmem") - (base > 0 ? base : 0);
	att_note(o, "%d pools on %d connections, %d refused, %d frames", pools,
		 used, refused, frames);
	if (held > 0)
		att_note(o, "the compositor held %lld MiB of pool pages more than before (aim %lld MiB, %lld MiB available)",
			 held >> 20, goal >> 20, avail >> 20);
	/* Dead (the OOM killer's pick): the verdict says so. */
	if (att_alive(a) && !wl_display_get_error(a->display))
		beside_the_heavy(a, o);
	for (int i = 0; i < used; i++)
		att_disconnect(&conns[i]);
	if (att_alive(a))
		charge_released(a, o);
}

/*
 * File descriptors parked in the compositor. libwayland-server reads every
 * fd a client sends into the connection's queue and hands them out only
 * to requests that take one; fds sent with requests that take none stay
 * there, open in the compositor, until the connection closes (up to the
 * queue's 1024 per connection: one more and libwayland drops the client,
 * so 980 stay). They cost the sender nothing (one
 * eventfd, its copies closed at once). A few connections fill a 4096-fd
 * table: then accept() fails for every new client, and pools and the
 * keymap memfd cannot be had. Each connection sends wl_surface.commit
 * (no fd argument) with 28 fds a message, 35 times, and stays
 * connected; then a well-behaved connection must get a pool
 * and a frame (asserted).
 */
#define PARKED_CONNECTIONS 64
#define PARKED_PER_MSG 28	/* libwayland-client's MAX_FDS_OUT */
#define PARKED_MSGS 35		/* 980 fds: the queue holds 1024 */

/* Open fds of @pid (ours to read: same user), -1 if unreadable. */
static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* One wl_surface.commit of @surface with @n copies of @efd attached. */
static int send_commit_with_fds(int sock, uint32_t surface, int efd, int n)
{
	uint32_t msg[2] = { surface, (8u << 16) | 6u };	/* commit */
	char control[CMSG_SPACE(sizeof(int) * PARKED_PER_MSG)];
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = control,
			     .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int *fds = (int *)CMSG_DATA(cm);

	memset(control, 0, sizeof(control));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; i++)
		fds[i] = efd;
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof(msg) ? 0 : -1;
}

ATT_SCENARIO(run_parked_fds, "parked-fds",
	     "64 connections each send 980 fds with wl_surface.commit, a request that takes none: the fds stay open in the compositor; then a well-behaved connection must get a pool and a frame (asserted)",
	     SURVIVES)
{
	static struct attack conns[PARKED_CONNECTIONS];
	int efd = eventfd(0, EFD_CLOEXEC), c, cut = 0, most = 0;
	int before = a->compositor_pid ? count_fds(a->compositor_pid) : -1;

	if (efd < 0) {
		att_fail_setup(o, "eventfd: %s", strerror(errno));
		return;
	}
	att_raise_nofile();
	for (c = 0; c < PARKED_CONNECTIONS; c++) {
		struct attack *x = &conns[c];
		struct wl_surface *s;
		int sent = 0, n;

		x->timeout_ms = a->timeout_ms;
		if (att_connect(x) != 0) {
			/* Locked out already: what the probe below says. */
			att_note(o, "connection %d could not connect", c);
			break;
		}
		s = wl_compositor_create_surface(x->compositor);
		if (att_roundtrip(x) != 0)
			break;
		for (int m = 0; m < PARKED_MSGS; m++) {
			if (send_commit_with_fds(att_raw_fd(x),
						 wl_proxy_get_id((struct wl_proxy *)s),
						 efd, PARKED_PER_MSG) != 0)
				break;
			sent += PARKED_PER_MSG;
			if (m % 4 == 3 && att_roundtrip(x) != 0)
				break;
		}
		if (att_roundtrip(x) != 0)
			cut++;
		n = a->compositor_pid ? count_fds(a->compositor_pid) : -1;
		if (n > most)
			most = n;
		(void)sent;
	}
	close(efd);
	att_note(o, "%d connections, %d cut off; compositor fds: %d before, at most %d",
		 c, cut, before, most);
	if (!wl_display_get_error(a->display))
		beside_the_heavy(a, o);
	for (int i = 0; i < c && i < PARKED_CONNECTIONS; i++)
		att_disconnect(&conns[i]);
}

static int64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Flush everything, waiting for the socket while it is full. */
static int flush_all(struct attack *a)
{
	struct pollfd pfd = { .fd = wl_display_get_fd(a->display), .events = POLLOUT };

	while (wl_display_flush(a->display) < 0) {
		if (errno != EAGAIN || poll(&pfd, 1, a->timeout_ms) <= 0)
			return -1;
	}
	return 0;
}

/*
 * Time @commits commits of @n damage (or region) rectangles each: scattered
 * 1x1 rectangles when @scatter, else the same rectangle n times. Both send
 * the same bytes; only the work the compositor makes of them differs.
 * Returns microseconds, or -1 when the connection failed.
 */
static int64_t rect_storm(struct attack *a, struct wl_buffer *buf, int n,
			  int commits, bool scatter, bool region)
{
	int64_t t0 = mono_us();

	for (int c = 0; c < commits; c++) {
		struct wl_region *r = region ?
			wl_compositor_create_region(a->compositor) : NULL;

		wl_surface_attach(a->surface, buf, 0, 0);
		for (int i = 0; i < n; i++) {
			/* Every other pixel of every other row: nothing merges. */
			int32_t x = scatter ? (i % 32) * 2 : 0;
			int32_t y = scatter ? (i / 32) * 2 : 0;

			if (region)
				wl_region_add(r, x, y, 1, 1);
			else
				wl_surface_damage_buffer(a->surface, x, y, 1, 1);
			/* libwayland-client's buffer holds 4 KiB; a request
			 * that finds it full fails the connection. */
			if (i % 100 == 99 && flush_all(a) != 0)
				return -1;
		}
		if (region) {
			wl_surface_set_opaque_region(a->surface, r);
			wl_surface_set_input_region(a->surface, r);
			wl_region_destroy(r);
		}
		wl_surface_commit(a->surface);
		if (att_roundtrip(a) != 0)
			return -1;
	}
	/* And the frame that renders the last of them. */
	if (att_present(a, buf, ATT_W, ATT_H) != 0)
		return -1;
	return mono_us() - t0;
}

/*
 * 20,000 scattered 1x1 rectangles per commit, ten commits: a compositor
 * whose region work grows with the rectangle count spends seconds on it
 * and stalls every other client. The same requests with one rectangle
 * repeated cost the wire and the dispatch alone; the scattered storm may
 * cost at most four times that (asserted), whatever the machine's speed.
 */
static void storm(struct attack *a, struct outcome *o, bool region)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	int64_t same, scattered;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display) || !buf)
		return;
	/* The verdict is the ratio of the two; how long one commit takes
	 * depends on the machine (seconds under TCG), so wait for it. */
	a->timeout_ms = 60000;
	same = rect_storm(a, buf, 20000, 10, false, region);
	scattered = rect_storm(a, buf, 20000, 10, true, region);
	if (same < 0 || scattered < 0)
		return;
	att_note(o, "10 commits x 20000 %s: %lld ms scattered, %lld ms one rectangle repeated",
		 region ? "region rectangles" : "damage rectangles",
		 (long long)(scattered / 1000), (long long)(same / 1000));
	if (scattered > 4 * same + 200000)
		att_fail_setup(o, "scattered rectangles cost %.1fx the repeated ones: work grows with the rectangle count",
			       (double)scattered / (double)(same ? same : 1));
}

ATT_SCENARIO(run_damage_storm, "damage-storm",
	     "10 commits x 20000 scattered 1x1 damage rectangles: at most 4x the cost of the same requests with one rectangle (asserted)",
	     ACCEPTED)
{
	storm(a, o, false);
}

ATT_SCENARIO(run_region_storm, "region-storm",
	     "10 wl_regions x 20000 scattered 1x1 rectangles set as opaque and input region: at most 4x the cost of one rectangle repeated (asserted)",
	     ACCEPTED)
{
	storm(a, o, true);
}
