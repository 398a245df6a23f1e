/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - shared by the files of wlseal-fuzz: the generator, the model of
 * one connection (its objects, globals and input), and the functions of
 * the wire encoder (wire.c), the object model (objects.c), the argument
 * values (values.c) and the request generators (requests.c).
 */
#ifndef WLSEAL_FUZZ_H
#define WLSEAL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-client-protocol.h>
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "wlseal-shm-policy-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "viewporter-client-protocol.h"

#define MAX_OBJECTS 4096
#define MAX_MSG 4096		/* libwayland's connection buffer */
#define MAX_FDS 28		/* libwayland's per-message fd limit */
#define SERVER_ID_BASE 0xff000000u

/* splitmix64: small, fast, and the same on every host. */
struct rng {
	uint64_t s;
};

static inline uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* chance(r, p): true with probability p/1000. */
static inline bool chance(struct rng *r, unsigned p)
{
	return below(r, 1000) < p;
}

struct options {
	const char *socket;
	uint64_t seed;
	bool seed_given;
	uint64_t first, connections;
	uint64_t max_requests;	/* stop after this many requests in total */
	uint64_t per_connection;
	double seconds;
	int timeout_ms;
	pid_t pid;
	bool verbose;
	int input_fd;		/* --input: the compositor's FIFO, or -1 */
	bool scanout;		/* --scanout: fullscreen scanout scaffolds */
	/* --stall (stall.c) */
	bool stall;
	int clients;
	uint64_t iterations;
	int keep;
	const char *out, *replay, *exclude;
	int out_w, out_h;
};

struct object {
	const struct wl_interface *iface;
	uint32_t version;
	bool live;		/* created and not yet destroyed by us */
	int32_t pool_size;	/* wl_shm_pool: the size we told it */
	uint32_t serial;	/* xdg_surface: last configure; xdg_wm_base: ping */
	bool taken;		/* wl_surface with a role or buffer, xdg_surface
				 * with a role: a gentle request leaves it be */
};

struct global {
	uint32_t name, version;
	const struct wl_interface *iface;
};

struct conn {
	int fd;
	struct rng rng;
	unsigned hostility;	/* per mille: how often a value is hostile */
	struct object obj[MAX_OBJECTS];
	uint32_t next_id;
	struct global globals[64];
	int n_globals;
	uint32_t last_serial;
	uint32_t sync_id;
	bool sync_done;
	uint64_t frames_done;	/* frame callbacks answered */
	bool linger;		/* wait for frames: let composition see us */
	bool dead;		/* error event or EOF */
	bool desync;		/* we sent a message the server may wait on */
	char error[256];
	unsigned char in[MAX_MSG * 2];
	size_t in_len;
	uint64_t requests;
	int32_t conf_w, conf_h;	/* the last xdg_toplevel.configure size */
	bool scanout;		/* --scanout: scanout.c's scaffolds too */
	pid_t shoot_pid;	/* --scanout with --pid: SIGUSR1 screenshots */
};

struct stats {
	uint64_t connections, requests, errors, eofs, fds;
};

/* One message being built: header words first, then the arguments. */
struct msg {
	uint32_t w[MAX_MSG / 4];
	size_t len;		/* bytes */
	int fds[MAX_FDS];
	int n_fds;
};

/* wire.c: the socket, messages out and events in. */
int connect_socket(const char *name);
void put32(struct msg *m, uint32_t v);
void put_bytes(struct msg *m, const void *data, uint32_t n, uint32_t wire_len);
bool send_msg(struct conn *c, struct msg *m, uint32_t id, uint32_t opcode);
bool pump(struct conn *c, int timeout_ms);
bool roundtrip(struct conn *c, int timeout_ms);

/* objects.c: what the connection knows of its objects. */
const struct wl_interface *any_interface(struct rng *r);
uint32_t new_object(struct conn *c, uint32_t id,
		    const struct wl_interface *iface, uint32_t version);
void handle_event(struct conn *c, const uint32_t *p, size_t size);
uint32_t pick_object_of(struct conn *c, const struct wl_interface *iface, bool free);
uint32_t pick_object(struct conn *c, const struct wl_interface *iface);
uint32_t wire_id(uint32_t slot);
/*
 * The event at the start of @in (@len bytes read into a buffer of @cap):
 * its size once it is all there, 0 while it is not, -1 when its header
 * is no event's (a size under 8, not a multiple of 4, or over @cap),
 * the size then in *@bad.
 */
long wire_event_size(const unsigned char *in, size_t len, size_t cap,
		     uint32_t *bad);

/* values.c: integers and fds, gentle and hostile. */
enum fd_kind { FD_NONE = -2 };
int32_t hostile_int(struct rng *r);
int32_t gentle_int(struct rng *r);
int memfd_of_size(struct rng *r, off_t size, unsigned seals);
int hostile_fd(struct rng *r, off_t want_size);

/* requests.c: requests built from the interface tables. */
void one_request(struct conn *c, struct stats *st);
void bind_all(struct conn *c, struct stats *st);
void scaffold(struct conn *c, struct stats *st);
/* The helpers scanout.c shares: a request of plain words, a new object
 * made by a request (its new_id first), a surface with an xdg_surface,
 * a mapped popup on an xdg_surface with a role (its xdg_surface). */
void send_words(struct conn *c, struct stats *st, uint32_t target,
		uint32_t opcode, const uint32_t *w, int n);
uint32_t send_new(struct conn *c, struct stats *st, uint32_t target,
		  uint32_t opcode, const struct wl_interface *iface,
		  const uint32_t *w, int n);
uint32_t new_xdg_surface(struct conn *c, struct stats *st, uint32_t comp,
			 uint32_t wm, uint32_t *xs);
uint32_t popup_on(struct conn *c, struct stats *st, uint32_t comp,
		  uint32_t wm, uint32_t parent);

/* scanout.c: a fullscreen toplevel scanned out, then its pool grown,
 * its buffer written, covered, destroyed and screenshotted. */
void scanout_scaffold(struct conn *c, struct stats *st);

#endif
