/* SPDX-License-Identifier: MIT */
/*
 * steps.c - steps that scenarios of every category share: show a file as a
 * pool and buffer, keep presenting, reopen through /proc.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "attack-viewporter-client-protocol.h"
#include "scenario.h"

/* --- common steps ------------------------------------------------------------ */

/* A memfd as att_memfd() makes it, or the outcome records why not. */
int att_memfd_or_fail(struct outcome *o, size_t size, unsigned int mfd_flags,
		      int seals)
{
	int fd = att_memfd(size, mfd_flags, seals);

	if (fd < 0)
		att_fail_setup(o, "memfd: %s", strerror(errno));
	return fd;
}


/*
 * Create a pool of pool_size bytes on fd, a 64x64 XRGB8888 buffer at offset,
 * show it for `frames` frames. Stops at the first failure; the caller's fd
 * stays open (some attacks keep working on it).
 */
struct wl_shm_pool *att_show_fd(struct attack *a, int fd, int32_t pool_size,
				   int32_t offset, int frames,
				   struct wl_buffer **out)
{
	struct wl_shm_pool *pool = wl_shm_create_pool(a->shm, fd, pool_size);
	struct wl_buffer *buf;

	if (out)
		*out = NULL;
	/* Let the pool be judged on its own before any buffer exists. */
	if (att_roundtrip(a) != 0)
		return pool;
	buf = wl_shm_pool_create_buffer(pool, offset, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (out)
		*out = buf;
	if (att_window(a) != 0)
		return pool;
	for (int i = 0; i < frames; i++)
		if (att_present(a, buf, ATT_W, ATT_H) < 0)
			break;
	return pool;
}

/* Present buf n more times (each time the compositor reads it again). */
void att_keep_presenting(struct attack *a, struct wl_buffer *buf, int n)
{
	for (int i = 0; i < n && buf; i++)
		if (att_present(a, buf, ATT_W, ATT_H) < 0)
			break;
}

void att_show_and_close(struct attack *a, struct outcome *o, int fd)
{
	if (fd < 0) {
		att_fail_setup(o, "cannot create the file: %s", strerror(errno));
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
	close(fd);
}

/* Reopen our own fd through /proc with other flags: a new open file
 * description of the same inode. */
int att_reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_CLOEXEC);
}

static void bind_viewporter(void *data, struct wl_registry *r, uint32_t name,
			    const char *iface, uint32_t version)
{
	if (!strcmp(iface, "wp_viewporter"))
		*(struct wp_viewporter **)data =
			wl_registry_bind(r, name, &wp_viewporter_interface, 1);
}

static void no_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener viewporter_listener = {
	.global = bind_viewporter,
	.global_remove = no_global_remove,
};

struct wp_viewport *att_viewport(struct attack *a, struct outcome *o)
{
	struct wp_viewporter *vpr = NULL;
	struct wl_registry *r = wl_display_get_registry(a->display);

	wl_registry_add_listener(r, &viewporter_listener, &vpr);
	if (att_roundtrip(a) != 0 || !vpr) {
		att_fail_setup(o, "no wp_viewporter");
		return NULL;
	}
	return wp_viewporter_get_viewport(vpr, a->surface);
}

int att_file_held(pid_t pid, int fd)
{
	char path[64], line[512];
	unsigned int major, minor;
	struct stat ours, st;
	struct dirent *e;
	uintmax_t ino;
	int n = 0;
	FILE *f;
	DIR *d;

	if (fstat(fd, &ours) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 &&
		    st.st_dev == ours.st_dev && st.st_ino == ours.st_ino)
			n++;
	}
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* address perms offset major:minor inode path */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %x:%x %ju", &major, &minor,
			   &ino) == 3 &&
		    makedev(major, minor) == ours.st_dev &&
		    ino == (uintmax_t)ours.st_ino)
			n++;
	fclose(f);
	return n;
}

int64_t att_wait_file_released(struct attack *a, struct outcome *o, int fd,
			       int max_s)
{
	int64_t t0 = att_now_ms();
	int held;

	if (!a->compositor_pid) {
		att_fail_setup(o, "the compositor's pid is unknown (SO_PEERCRED)");
		return -1;
	}
	for (;;) {
		held = att_file_held(a->compositor_pid, fd);
		if (held <= 0 || att_now_ms() - t0 >= (int64_t)max_s * 1000)
			break;
		/* The closer thread reports nothing to us: look again. */
		usleep(20000);
	}
	if (held < 0)
		att_fail_setup(o, "cannot read the compositor's fds and mappings in /proc");
	else if (held > 0)
		att_fail_setup(o, "%d fds and mappings of the destroyed pools still held %d s later",
			       held, max_s);
	return held == 0 ? att_now_ms() - t0 : -1;
}

/* A "Key: N kB" line of /proc/PID/status or /proc/meminfo, in bytes;
 * -1 when it cannot be read. */
long long att_proc_kb(const char *path, const char *key)
{
	char line[128];
	size_t n = strlen(key);
	long long kib = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kib = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kib < 0 ? -1 : kib << 10;
}

long long att_compositor_kb(struct attack *a, const char *key)
{
	char path[64];

	if (!a->compositor_pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)a->compositor_pid);
	return att_proc_kb(path, key);
}

/* How many of @pid's fds and mappings are memfds named @name. */
int att_files_named(pid_t pid, const char *name)
{
	char path[64], line[512];
	struct dirent *e;
	ssize_t len;
	int n = 0;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		len = readlinkat(dirfd(d), e->d_name, line, sizeof(line) - 1);
		if (len > 0) {
			line[len] = '\0';
			n += strstr(line, name) != NULL;
		}
	}
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, name) != NULL;
	fclose(f);
	return n;
}
