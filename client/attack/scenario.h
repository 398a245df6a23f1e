/* SPDX-License-Identifier: MIT */
/*
 * scenario.h - what every scenario file (files.c, seals.c, buffers.c,
 * lifetimes.c, resources.c, ext.c, storms.c, connections.c) shares: the declared outcomes, the
 * ATT_SCENARIO macro that puts each table entry right above its function,
 * and the steps of steps.c.
 *
 * The expectation of each scenario is what wlseal's secure policy must do
 * (docs/design.md, "Compositor: seal policy first"): refuse every pool whose
 * file lacks F_SEAL_SHRINK or is smaller than the pool with
 * wl_shm.error.invalid_fd, refuse every buffer whose parameters overflow,
 * and otherwise accept and keep presenting frames.
 *
 * Each scenario sends its requests, makes the compositor read the pixels
 * where the compositor let it get that far (a mapped surface, a commit, a
 * frame callback), and returns; main() then decides the outcome with a
 * round-trip (att_conclude). A scenario sets the outcome itself only when
 * it must: skipped, error, or a self-inflicted disconnect judged by a
 * probe.
 */
#ifndef WLSEAL_ATTACK_SCENARIO_H
#define WLSEAL_ATTACK_SCENARIO_H

#include "attack.h"
#include "wlseal-seals.h"

/* Fragments of wlseal's refusal messages the tests insist on. */
#define MSG_NO_SHRINK "SEAL_SHRINK"
#define MSG_NOT_SEALABLE "seal"
#define MSG_TOO_SMALL "smaller"

#define SHM_ERR(code_, iface_, msg_) \
	{ RES_REFUSED, (code_), (iface_), (msg_) }
#define POOL_REFUSED(msg_) SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_shm", msg_)
#define BAD_BUFFER SHM_ERR(WL_SHM_ERROR_INVALID_STRIDE, "wl_shm_pool", NULL)
#define ACCEPTED { RES_ACCEPTED, -1, NULL, NULL }
#define SURVIVES { RES_SURVIVES, -1, NULL, NULL }
#define EXT_REFUSED(reason_, msg_) \
	{ RES_POLICY_REFUSED, WLSEAL_SHM_POOL_REQUEST_V1_REASON_##reason_, \
	  "wlseal_shm_pool_request_v1", (msg_) }

#define MIB (1024 * 1024)
#define XRGB WL_SHM_FORMAT_XRGB8888

/*
 * ATT_SCENARIO(fn, "name", "rationale", expect) { body }: declares the
 * scenario function fn and its table entry, which the linker gathers in
 * the att_scenarios section (scenarios.c sorts them by category and line,
 * so --list follows the files). Each file defines ATT_CATEGORY first.
 */
#define ATT_SCENARIO(fn, name_, why, ...)                                   \
	static void fn(struct attack *a, struct outcome *o);                \
	static const struct scenario fn##_entry = {                         \
		.name = (name_), .run = fn, .expect = __VA_ARGS__,          \
		.rationale = (why), .category = ATT_CATEGORY,               \
		.line = __LINE__,                                           \
	};                                                                  \
	static const struct scenario *const fn##_ptr                       \
		__attribute__((used, section("att_scenarios"))) = &fn##_entry; \
	static void fn(struct attack *a, struct outcome *o)

/* steps.c */
/* att_memfd(), and on failure the outcome says so (fail_setup). */
int att_memfd_or_fail(struct outcome *o, size_t size, unsigned int mfd_flags,
		      int seals);
/*
 * Create a pool of pool_size bytes on fd, a 64x64 XRGB8888 buffer at offset,
 * show it for `frames` frames. Stops at the first failure; the caller's fd
 * stays open (some attacks keep working on it).
 */
struct wl_shm_pool *att_show_fd(struct attack *a, int fd, int32_t pool_size,
				int32_t offset, int frames,
				struct wl_buffer **out);
/* Present buf n more times (each time the compositor reads it again). */
void att_keep_presenting(struct attack *a, struct wl_buffer *buf, int n);
/* att_show_fd() for two frames, then close fd; fd < 0 is a setup error. */
void att_show_and_close(struct attack *a, struct outcome *o, int fd);
/* A wp_viewport for a->surface, or NULL with the setup failure said. */
struct wp_viewport *att_viewport(struct attack *a, struct outcome *o);
/* Reopen our own fd through /proc with other flags: a new open file
 * description of the same inode. */
int att_reopen(int fd, int flags);
/*
 * How many of process @pid's fds and mappings refer to the file open as
 * our @fd (same device and inode); -1 when /proc cannot tell.
 */
int att_file_held(pid_t pid, int fd);
/* How many of @pid's fds and mappings name a file containing @name (a
 * memfd's "memfd:NAME"); -1 when /proc cannot tell. */
int att_files_named(pid_t pid, const char *name);
/* A "Key: N kB" line of /proc/PID/status or /proc/meminfo, in bytes;
 * -1 when it cannot be read. */
long long att_proc_kb(const char *path, const char *key);
/* The same line of the compositor's /proc/PID/status; -1 unknown. */
long long att_compositor_kb(struct attack *a, const char *key);
/*
 * The compositor releases a destroyed pool's mapping and fd on its closer
 * thread, not inside the request: wait (at most max_s seconds) until it
 * holds nothing of @fd's file. Returns the ms waited, or -1 with the
 * outcome's setup failure said (still held, or /proc unreadable).
 */
int64_t att_wait_file_released(struct attack *a, struct outcome *o, int fd,
			       int max_s);

#endif
