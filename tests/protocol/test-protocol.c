/* SPDX-License-Identifier: MIT */
/*
 * test-protocol - host tests of wlseal_shm_policy_v1 (protocol/README.md)
 * against wlseal-compositor's headless backend.
 *
 * Usage: test-protocol TEST. Each TEST starts its own compositor (harness
 * of tests/compositor), prints TAP lines and exits non-zero on the first
 * failed check. Every wait is for a real event or output line, bounded by
 * a timeout that fails the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "harness.h"
#include "wlseal-seals.h"
#include "wlseal-shm-policy-v1-client-protocol.h"

/* The policy under which every refusal reason is reachable: a limit below
 * INT32_MAX, and one seal (F_SEAL_FUTURE_WRITE) outside accepted_seals. */
static const char *const reachable[] = {
	"--max-pool-size=1048576", "--accept-seals=seal,shrink,grow,write", NULL
};
/* The same, with a pool budget small enough to reach out_of_resources. */
static const char *const reachable_budget[] = {
	"--max-pool-size=1048576", "--accept-seals=seal,shrink,grow,write",
	"--max-pools-per-client=2", NULL
};

/* ---- a raw client that may or may not bind the extension ---- */

struct raw {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct wlseal_shm_policy_v1 *policy;
	bool bind_policy;
	uint32_t policy_version;	/* 0: 1 */
	int policies;		/* policy events received */
	uint32_t required, accepted, flags;
	uint64_t max;
};

static void policy_event(void *data, struct wlseal_shm_policy_v1 *p,
			 uint32_t required, uint32_t accepted, uint32_t max_hi,
			 uint32_t max_lo, uint32_t flags)
{
	struct raw *raw = data;

	(void)p;
	raw->policies++;
	raw->required = required;
	raw->accepted = accepted;
	raw->max = ((uint64_t)max_hi << 32) | max_lo;
	raw->flags = flags;
}

static const struct wlseal_shm_policy_v1_listener policy_listener = {
	.policy = policy_event,
};

static void reg_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct raw *raw = data;

	(void)version;
	if (!strcmp(iface, "wl_shm")) {
		raw->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	} else if (!strcmp(iface, wlseal_shm_policy_v1_interface.name) &&
		   raw->bind_policy) {
		raw->policy = wl_registry_bind(r, name,
					       &wlseal_shm_policy_v1_interface,
					       raw->policy_version ? raw->policy_version : 1);
		wlseal_shm_policy_v1_add_listener(raw->policy, &policy_listener, raw);
	}
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
	(void)data; (void)r; (void)name;
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global,
	.global_remove = reg_remove,
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Dispatch until *count exceeds @above; false on timeout or error. */
static bool dispatch_until(struct raw *raw, const int *count, int above)
{
	long long deadline = now_ms() + TIMEOUT_MS;
	struct pollfd pfd = { .fd = wl_display_get_fd(raw->display), .events = POLLIN };

	while (*count <= above) {
		if (wl_display_prepare_read(raw->display) != 0) {
			if (wl_display_dispatch_pending(raw->display) < 0)
				return false;
			continue;
		}
		wl_display_flush(raw->display);
		if (now_ms() >= deadline ||
		    poll(&pfd, 1, (int)(deadline - now_ms())) <= 0) {
			wl_display_cancel_read(raw->display);
			return false;
		}
		if (wl_display_read_events(raw->display) < 0 ||
		    wl_display_dispatch_pending(raw->display) < 0)
			return false;
	}
	return true;
}

static void raw_connect_version(struct raw *raw, bool bind_policy,
				uint32_t version)
{
	memset(raw, 0, sizeof(*raw));
	raw->bind_policy = bind_policy;
	raw->policy_version = version;
	raw->display = connect_display();
	raw->registry = wl_display_get_registry(raw->display);
	wl_registry_add_listener(raw->registry, &reg_listener, raw);
	if (wl_display_roundtrip(raw->display) < 0 || !raw->shm)
		fail("no wl_shm");
	if (bind_policy && !raw->policy)
		fail("the compositor offers no wlseal_shm_policy_v1");
	if (bind_policy && !dispatch_until(raw, &raw->policies, 0))
		fail("no policy event after bind");
}

static void raw_connect(struct raw *raw, bool bind_policy)
{
	raw_connect_version(raw, bind_policy, 1);
}

struct answer {
	int done;
	struct wl_shm_pool *pool;
	uint32_t reason, seals;
	int32_t file_size;
	char message[256];
};

static void req_created(void *data, struct wlseal_shm_pool_request_v1 *r,
			struct wl_shm_pool *pool)
{
	struct answer *a = data;

	(void)r;
	a->pool = pool;
	a->done = 1;
}

static void req_refused(void *data, struct wlseal_shm_pool_request_v1 *r,
			uint32_t reason, uint32_t seals, int32_t file_size,
			const char *message)
{
	struct answer *a = data;

	(void)r;
	a->reason = reason;
	a->seals = seals;
	a->file_size = file_size;
	snprintf(a->message, sizeof(a->message), "%s", message);
	a->done = 1;
}

static const struct wlseal_shm_pool_request_v1_listener req_listener = {
	.created = req_created,
	.refused = req_refused,
};

/* create_pool through the extension; fd is closed. */
static void ext_pool(struct raw *raw, int fd, int32_t size, struct answer *a)
{
	struct wlseal_shm_pool_request_v1 *req;

	memset(a, 0, sizeof(*a));
	req = wlseal_shm_policy_v1_create_pool(raw->policy, fd, size);
	wlseal_shm_pool_request_v1_add_listener(req, &req_listener, a);
	close(fd);
	if (!dispatch_until(raw, &a->done, 0))
		fail("no answer to create_pool (display error %d)",
		     wl_display_get_error(raw->display));
	wlseal_shm_pool_request_v1_destroy(req);
}

static void expect_refused(struct raw *raw, const char *what, int fd,
			   int32_t size, uint32_t reason, uint32_t seals,
			   const char *msg)
{
	struct answer a;

	ext_pool(raw, fd, size, &a);
	check(!a.pool && a.reason == reason && a.seals == seals &&
	      strstr(a.message, msg),
	      "%s: refused reason %u seals 0x%x '%s' (want %u 0x%x '%s')", what,
	      a.reason, a.seals, a.message, reason, seals, msg);
	check(wl_display_roundtrip(raw->display) >= 0,
	      "%s: still connected after the refusal", what);
}

/* ---- tests ---- */

/* Every reason, straight from the wire, each followed by an accepted pool
 * on the same connection. */
static void test_reasons(void)
{
	struct comp c;
	struct raw raw;
	struct answer a;
	int p[2], fd;
	char path[64];

	comp_start(&c, reachable_budget);
	raw_connect(&raw, true);
	check(raw.required == F_SEAL_SHRINK &&
	      raw.accepted == (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) &&
	      raw.max == 1048576 &&
	      raw.flags == (WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED |
			    WLSEAL_SHM_POLICY_V1_CAPABILITY_WRITE_SEALED_ACCEPTED),
	      "policy event: required 0x%x accepted 0x%x max %llu flags 0x%x",
	      raw.required, raw.accepted, (unsigned long long)raw.max, raw.flags);

	expect_refused(&raw, "unsealed memfd", make_memfd(16384, 0), 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL, F_SEAL_SHRINK,
		       "missing F_SEAL_SHRINK (file seals 0x0)");
	expect_refused(&raw, "pool larger than file",
		       make_memfd(16384, F_SEAL_SHRINK), 32768,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL, 0,
		       "file smaller than pool (file 16384 bytes, pool 32768 bytes)");
	if (pipe(p) < 0)
		fail("pipe");
	close(p[1]);
	expect_refused(&raw, "pipe", p[0], 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE, 0,
		       "not a sealable file");
	expect_refused(&raw, "pool over max_pool_size",
		       make_memfd(16384, F_SEAL_SHRINK), 1048577,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE, 0,
		       "pool too large (pool 1048577 bytes, limit 1048576 bytes)");
	expect_refused(&raw, "FUTURE_WRITE outside accepted_seals",
		       make_memfd(16384, F_SEAL_SHRINK | F_SEAL_FUTURE_WRITE), 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL,
		       F_SEAL_FUTURE_WRITE, "unexpected seal F_SEAL_FUTURE_WRITE");
	fd = make_memfd(16384, F_SEAL_SHRINK);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	p[0] = open(path, O_WRONLY | O_CLOEXEC);
	close(fd);
	expect_refused(&raw, "O_WRONLY fd", p[0], 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_MAP_FAILED, 0,
		       "mmap failed");

	ext_pool(&raw, make_memfd(16384, F_SEAL_SHRINK), 16384, &a);
	check(a.pool != NULL, "a sealed pool on the same connection: created");
	wl_shm_pool_create_buffer(a.pool, 0, 64, 64, 256, WL_SHM_FORMAT_XRGB8888);
	check(wl_display_roundtrip(raw.display) >= 0,
	      "a buffer from the created wl_shm_pool is accepted");
	/* The fd budget: this compositor allows 2 live pools per client. */
	ext_pool(&raw, make_memfd(16384, F_SEAL_SHRINK), 16384, &a);
	check(a.pool != NULL, "a second live pool: created");
	expect_refused(&raw, "a third live pool", make_memfd(16384, F_SEAL_SHRINK), 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES, 0,
		       "too many pools (2 live, limit 2 per client)");
	check(proc_wait(&c.p, NULL, "refused (non-fatal) client pid=", TIMEOUT_MS,
			NULL, 0) &&
	      proc_wait(&c.p, NULL, "reason=unexpected_seal", TIMEOUT_MS, NULL, 0),
	      "compositor logged the non-fatal refusals with reasons");
	wl_display_disconnect(raw.display);
	comp_stop(&c);
}

/* A client that ignores the extension (or binds it and still uses wl_shm)
 * gets the fatal core error, as before. */
static void test_core_still_fatal(void)
{
	const struct wl_interface *iface = NULL;
	struct comp c;
	struct raw raw;
	uint32_t code, id;
	int i;

	comp_start(&c, NULL);
	for (i = 0; i < 2; i++) {
		raw_connect(&raw, i == 1);
		wl_shm_create_pool(raw.shm, make_memfd(16384, 0), 16384);
		check(wl_display_roundtrip(raw.display) < 0 &&
		      wl_display_get_error(raw.display) == EPROTO,
		      "%s: unsealed wl_shm pool is a protocol error",
		      i ? "client bound to the extension" : "client ignoring the extension");
		code = wl_display_get_protocol_error(raw.display, &iface, &id);
		check(iface && !strcmp(iface->name, "wl_shm") &&
		      code == WL_SHM_ERROR_INVALID_FD &&
		      strstr(last_client_log, "missing F_SEAL_SHRINK"),
		      "wl_shm.error.invalid_fd with the same message ('%s')",
		      strtok(last_client_log, "\n"));
		wl_display_disconnect(raw.display);
	}
	/* The extension's own fatal error: a size no file can have. */
	raw_connect(&raw, true);
	wlseal_shm_policy_v1_create_pool(raw.policy, make_memfd(16384, F_SEAL_SHRINK), 0);
	check(wl_display_roundtrip(raw.display) < 0 &&
	      wl_display_get_protocol_error(raw.display, &iface, &id) ==
		      WLSEAL_SHM_POLICY_V1_ERROR_INVALID_SIZE &&
	      iface && !strcmp(iface->name, "wlseal_shm_policy_v1"),
	      "create_pool size 0: wlseal_shm_policy_v1.error.invalid_size");
	wl_display_disconnect(raw.display);
	comp_stop(&c);
}

static char policy_path[64];

static void remove_policy_file(void)
{
	if (policy_path[0])
		unlink(policy_path);
}

static void write_policy(const char *text)
{
	char tmp[80];
	FILE *f;

	/* Replaced atomically: the compositor never reads half a file. */
	snprintf(tmp, sizeof(tmp), "%s.new", policy_path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, policy_path))
		fail("writing %s: %s", policy_path, strerror(errno));
}

/* SIGHUP with an edited --policy-file reaches bound clients: a raw one
 * and a running wlseal-client; the new policy is enforced at once. */
static void test_policy_change(void)
{
	char arg[96], line[256];
	const char *extra[] = { arg, NULL };
	char *cargv[] = { (char *)bin_client(), "--size=64x64", NULL };
	struct comp c;
	struct raw raw;
	struct proc client;
	size_t from = 0;
	int fd;

	snprintf(policy_path, sizeof(policy_path), "/tmp/wlseal-policy-XXXXXX");
	fd = mkstemp(policy_path);
	if (fd < 0)
		fail("mkstemp: %s", strerror(errno));
	close(fd);
	atexit(remove_policy_file);
	write_policy("# as --policy=secure\nrequire-seals = shrink\n");
	snprintf(arg, sizeof(arg), "--policy-file=%s", policy_path);
	comp_start(&c, extra);

	raw_connect(&raw, true);
	check(raw.policies == 1 && raw.required == F_SEAL_SHRINK,
	      "initial policy: required 0x%x", raw.required);
	proc_spawn(&client, cargv);
	check(proc_wait(&client, &from, "WLSEAL-CLIENT-POLICY required=0x2 ",
			TIMEOUT_MS, NULL, 0) &&
	      proc_wait(&client, &from, "WLSEAL-CLIENT-POOL via=wlseal_shm_policy_v1",
			TIMEOUT_MS, NULL, 0),
	      "wlseal-client bound the extension and created its pool through it");

	write_policy("require-seals = shrink, grow\nmax-pool-size = 65536\n");
	kill(c.p.pid, SIGHUP);
	check(dispatch_until(&raw, &raw.policies, 1) &&
	      raw.required == (F_SEAL_SHRINK | F_SEAL_GROW) && raw.max == 65536,
	      "raw client got the new policy: required 0x%x max %llu",
	      raw.required, (unsigned long long)raw.max);
	check(proc_wait(&client, &from,
			"WLSEAL-CLIENT-POLICY required=0x6 accepted=0x1f max-pool-size=65536",
			TIMEOUT_MS, line, sizeof(line)),
	      "wlseal-client got it too: %s", line);
	check(proc_wait(&c.p, NULL, "policy changed: required-seals=0x6", TIMEOUT_MS,
			NULL, 0) &&
	      proc_contains(&c.p, "(announced to 2 bound clients)"),
	      "compositor logged the change, announced to both clients");
	expect_refused(&raw, "SHRINK-only file under the new policy",
		       make_memfd(16384, F_SEAL_SHRINK), 16384,
		       WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL, F_SEAL_GROW,
		       "missing F_SEAL_GROW");

	/* A broken file leaves the policy alone and announces nothing. */
	write_policy("require-seals = sideways\n");
	kill(c.p.pid, SIGHUP);
	check(proc_wait(&c.p, NULL, "SIGHUP: policy unchanged:", TIMEOUT_MS, NULL, 0),
	      "a bad policy file is reported and ignored");
	check(wl_display_roundtrip(raw.display) >= 0 && raw.policies == 2,
	      "no policy event for the bad file (%d events)", raw.policies);

	proc_kill(&client, SIGTERM);
	proc_wait_exit(&client, TIMEOUT_MS);
	check(WIFEXITED(client.status) && WEXITSTATUS(client.status) == 0,
	      "wlseal-client survived the policy change");
	wl_display_disconnect(raw.display);
	comp_stop(&c);
}

/* The policy file's unsealed key: version 2 objects see its flags, on
 * bind and after SIGHUP; version 1 objects never do. */
static void test_policy_unsealed(void)
{
	char arg[96];
	const char *extra[] = { arg, NULL };
	const uint32_t seal = WLSEAL_SHM_POLICY_V1_CAPABILITY_SEALS_ON_RECEIPT,
		       copy = WLSEAL_SHM_POLICY_V1_CAPABILITY_COPIES_UNSEALABLE,
		       v1 = WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED |
			    WLSEAL_SHM_POLICY_V1_CAPABILITY_WRITE_SEALED_ACCEPTED;
	struct raw old, now;
	struct comp c;
	int fd;

	snprintf(policy_path, sizeof(policy_path), "/tmp/wlseal-policy-XXXXXX");
	fd = mkstemp(policy_path);
	if (fd < 0)
		fail("mkstemp: %s", strerror(errno));
	close(fd);
	atexit(remove_policy_file);
	write_policy("unsealed = seal\n");
	snprintf(arg, sizeof(arg), "--policy-file=%s", policy_path);
	comp_start(&c, extra);
	raw_connect_version(&old, true, 1);
	raw_connect_version(&now, true, 2);
	check(now.flags == (v1 | seal), "version 2, unsealed = seal: flags 0x%x", now.flags);
	check(old.flags == v1, "version 1: flags 0x%x as ever", old.flags);

	write_policy("unsealed = copy\n");
	kill(c.p.pid, SIGHUP);
	check(dispatch_until(&now, &now.policies, 1) && now.flags == (v1 | seal | copy),
	      "after SIGHUP, unsealed = copy: flags 0x%x", now.flags);
	check(dispatch_until(&old, &old.policies, 1) && old.flags == v1,
	      "version 1 after the change: flags 0x%x", old.flags);
	check(proc_wait(&c.p, NULL, "unsealed=copy (announced to 2 bound clients)",
			TIMEOUT_MS, NULL, 0), "the change is logged");

	write_policy("unsealed = sometimes\n");
	kill(c.p.pid, SIGHUP);
	check(proc_wait(&c.p, NULL, "bad value 'sometimes' for unsealed (want refuse, seal or copy)",
			TIMEOUT_MS, NULL, 0), "a bad value is reported and ignored");
	wl_display_disconnect(old.display);
	wl_display_disconnect(now.display);
	comp_stop(&c);
}

static void run_client(struct proc *p, const char *const args[])
{
	client_spawn(p, args);
	if (!proc_wait_exit(p, TIMEOUT_MS))
		fail("wlseal-client did not exit");
}

/* wlseal-client: refusal, fix, retry; and following the policy. */
static void test_client_retry(void)
{
	static const char *const provoke[] = {
		"--provoke=missing-seal,file-too-small", "--frames=3", "--exit", NULL };
	static const char *const grow[] = { "--frames=2", "--exit", NULL };
	static const char *const grow_args[] = { "--require-seals=shrink,grow", NULL };
	struct comp c;
	struct proc p;

	comp_start(&c, NULL);
	run_client(&p, provoke);
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "WLSEAL-CLIENT-REFUSED reason=missing_seal seals=0x2") &&
	      proc_contains(&p, "WLSEAL-CLIENT-RETRY reason=missing_seal action=add-seals=0x2") &&
	      proc_contains(&p, "WLSEAL-CLIENT-REFUSED reason=file_too_small") &&
	      proc_contains(&p, "WLSEAL-CLIENT-RETRY reason=file_too_small action=grow-file=") &&
	      proc_contains(&p, "WLSEAL-CLIENT-POOL via=wlseal_shm_policy_v1") &&
	      proc_contains(&p, "WLSEAL-CLIENT-LAST frame=3"),
	      "--provoke: two refusals, two fixes, frames shown");
	check(proc_alive(&c.p) && !proc_contains(&c.p, "refused client pid"),
	      "no fatal refusal in the compositor log");
	comp_stop(&c);

	comp_start(&c, grow_args);
	run_client(&p, grow);
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "WLSEAL-CLIENT-POOL via=wlseal_shm_policy_v1 size=921600 seals=0x6") &&
	      !proc_contains(&p, "REFUSED") &&
	      !proc_contains(&c.p, "refused"),
	      "--require-seals=shrink,grow: the client adds GROW up front, nothing refused");
	comp_stop(&c);
}

/* Without the global (or told not to use it) the client uses wl_shm. */
static void test_client_fallback(void)
{
	static const char *const noext[] = { "--no-policy-extension", "--frames=2", "--exit", NULL };
	static const char *const plain[] = { "--frames=2", "--exit", NULL };
	static const char *const libwayland[] = { "--shm=libwayland", NULL };
	struct comp c;
	struct proc p;

	comp_start(&c, NULL);
	run_client(&p, noext);
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "WLSEAL-CLIENT-POOL via=wl_shm ") &&
	      !proc_contains(&p, "WLSEAL-CLIENT-POLICY"),
	      "--no-policy-extension: core wl_shm");
	comp_stop(&c);

	comp_start(&c, libwayland);
	run_client(&p, plain);
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "WLSEAL-CLIENT-POOL via=wl_shm ") &&
	      !proc_contains(&p, "WLSEAL-CLIENT-POLICY"),
	      "--shm=libwayland offers no extension; the client falls back to wl_shm");
	comp_stop(&c);
}

/* Permissive: announced as not enforced, and an unsealed file is taken. */
static void test_permissive(void)
{
	static const char *const args[] = { "--policy=permissive", NULL };
	struct comp c;
	struct raw raw;
	struct answer a;

	comp_start(&c, args);
	raw_connect(&raw, true);
	check(raw.required == 0 &&
	      !(raw.flags & WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED),
	      "permissive: required 0x%x flags 0x%x", raw.required, raw.flags);
	ext_pool(&raw, make_memfd(16384, 0), 16384, &a);
	check(a.pool != NULL, "permissive: unsealed pool created");
	wl_display_disconnect(raw.display);
	comp_stop(&c);
}

/* wlseal-attack's ext-* scenarios under a policy where every reason is
 * reachable: none may be skipped, each must match its declaration. */
static void test_attack_ext(void)
{
	static const char *const names[] = {
		"ext-missing-seal", "ext-file-too-small", "ext-not-sealable",
		"ext-too-large", "ext-unexpected-seal", "ext-map-failed",
	};
	const char *attack = getenv("WLSEAL_ATTACK");
	struct comp c;
	struct proc p;
	size_t i;

	if (!attack)
		fail("WLSEAL_ATTACK not set");
	comp_start(&c, reachable);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *argv[] = { (char *)attack, "--check", (char *)names[i], NULL };

		proc_spawn(&p, argv);
		if (!proc_wait_exit(&p, 4 * TIMEOUT_MS))
			fail("wlseal-attack %s hangs", names[i]);
		check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
		      proc_contains(&p, "result=policy-refused") &&
		      proc_contains(&p, "match=yes") &&
		      proc_contains(&p, "still connected"),
		      "wlseal-attack %s: %s", names[i], strtok(p.buf, "\n"));
	}
	check(proc_alive(&c.p), "compositor alive after the probes");
	comp_stop(&c);
}

static const struct harness_test tests[] = {
	{ "attack-ext", test_attack_ext },
	{ "reasons", test_reasons },
	{ "core-still-fatal", test_core_still_fatal },
	{ "policy-change", test_policy_change },
	{ "policy-unsealed", test_policy_unsealed },
	{ "client-retry", test_client_retry },
	{ "client-fallback", test_client_fallback },
	{ "permissive", test_permissive },
};

int main(int argc, char **argv)
{
	return harness_main("test-protocol", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
