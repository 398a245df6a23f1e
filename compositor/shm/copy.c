/* SPDX-License-Identifier: MIT */
/*
 * copy.c - --unsealed=copy: pools of files that cannot be sealed, whose
 * buffers are read with pread() into compositor memory at commit.
 *
 * Such a file (a memfd made without MFD_ALLOW_SEALING, a /dev/shm file, a
 * disk file, an O_TMPFILE) can shrink at any moment, and a mapping of it
 * would then SIGBUS on the next read past the new end. So it is never
 * mapped, and SIGBUS-free holds for a simpler reason than the seals':
 * there is no mapping of the file to fault on. What the compositor reads
 * is its own memory, filled by pread(), and pread() of a file that was
 * truncated under it returns a short count (or 0), never a signal. A
 * file shorter than the rows a commit needs is the client's broken
 * pool: the rows it could not read are zeroed (transparent in ARGB8888,
 * black in XRGB8888) and copy-read.c ends the client with
 * wl_shm.error.invalid_fd on the wl_buffer, as libwayland's wl_shm does
 * when its SIGBUS handler catches the same truncation. A read that
 * fails otherwise (an I/O error) leaves zeros, logged, rate-limited.
 * Holes read as zeros without allocating pages in the file.
 *
 * Cost, bounded per commit: only the rows the commit damaged are read
 * (the whole buffer on its first commit, or when the surface changes
 * buffers: surface/surface-apply.c decides which rows), spans are merged so no row
 * is read twice, and each merged span is one contiguous pread() of its
 * rows at the client's stride. At most stride * height bytes a commit,
 * and at most 1 MiB of them on the loop: copy-read.c hands larger reads
 * to the populate thread (wlseal_copy_fill is safe there).
 * Memory: each buffer's image is stride * height bytes of compositor
 * memory, charged to the client's pool bytes (account/pools.c: the same
 * per-client and total budget as mapped pools) from create_buffer until
 * the buffer goes, so a huge sparse file cannot make the compositor hold
 * more than the budget allows either.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "check.h"
#include "copy.h"
#include "log.h"
#include "wlseal-shm-policy-v1-server-protocol.h"

static uint32_t refuse(struct wlseal_shm_verdict *v, uint32_t reason,
		       const char *what)
{
	snprintf(v->message, sizeof(v->message), "%s", what);
	v->reason = reason;
	return reason;
}

uint32_t wlseal_copy_check(const struct wlseal_shm_policy *policy, int fd,
			   int64_t size, struct wlseal_shm_verdict *v)
{
	struct stat st;
	int fl;

	*v = (struct wlseal_shm_verdict){ .file_size = -1, .file_seals = -1 };
	v->page = (size_t)sysconf(_SC_PAGESIZE);
	v->file_seals = fcntl(fd, F_GET_SEALS);
	if ((uint64_t)size > policy->max_pool_size) {
		snprintf(v->message, sizeof(v->message),
			 "pool too large (pool %lld bytes, limit %llu bytes)",
			 (long long)size,
			 (unsigned long long)policy->max_pool_size);
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE;
		return v->reason;
	}
	/* pread() needs a regular file: a pipe or socket would be read
	 * (consumed) rather than addressed, a device may block. */
	if (fstat(fd, &st) < 0) {
		snprintf(v->message, sizeof(v->message), "fstat failed: %s",
			 strerror(errno));
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE;
		return v->reason;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(v->message, sizeof(v->message),
			 "not sealable and not a regular file to copy from (mode 0%o)",
			 (unsigned int)st.st_mode);
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE;
		return v->reason;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_WRONLY)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_MAP_FAILED,
			      "not sealable, and not open for reading to copy from");
	v->file_size = st.st_size;
	/* The file's size is not held to the pool's here, unlike a mapped
	 * pool's: nothing is mapped, and every commit reads the rows it
	 * needs and ends the client when the file no longer has them
	 * (wlseal_copy_read, buffer.c). A file truncated before its pool
	 * even arrived (WLCS's bad-buffer client truncates and then
	 * flushes) is caught there, on the wl_buffer, as libwayland's
	 * wl_shm catches it at the first access. */
	return 0;
}

struct wlseal_copy *wlseal_copy_new(struct wlseal_account *account,
				    size_t bytes, char *why, size_t why_len)
{
	struct wlseal_copy *c;

	why[0] = '\0';
	if (!wlseal_pool_recharge(account, 0, bytes, why, why_len))
		return NULL;
	c = calloc(1, sizeof(*c));
	/* Fresh anonymous pages, which cost nothing until the first read
	 * writes them (on the populate thread for a large one: copy-
	 * read.c). mmap(), not calloc(): malloc may be told to fill what it
	 * hands out (MALLOC_PERTURB_, as meson test sets it), which would
	 * write the whole image in create_buffer's dispatch, on the loop. */
	if (c) {
		c->image = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c->image == MAP_FAILED)
			c->image = NULL;
	}
	if (!c || !c->image) {
		free(c);
		wlseal_pool_recharge(account, bytes, 0, why, why_len);
		why[0] = '\0';
		return NULL;
	}
	c->account = account;
	c->bytes = bytes;
	wl_list_init(&c->starved_link);
	wl_list_init(&c->waiters);
	return c;
}

void wlseal_copy_free(struct wlseal_copy *c)
{
	char why[8];

	if (!c)
		return;
	c->buffer = NULL;
	c->dirty = false;
	wl_list_remove(&c->starved_link);
	wl_list_init(&c->starved_link);
	while (!wl_list_empty(&c->waiters)) {
		struct wl_list *link = c->waiters.next;

		wl_list_remove(link);
		wl_list_init(link);
	}
	/* The populate thread writes the image until its read is back:
	 * copy-read.c frees it then. It stays charged meanwhile. */
	if (c->reading)
		return;
	wlseal_pool_recharge(c->account, c->bytes, 0, why, sizeof(why));
	munmap(c->image, c->bytes);
	free(c);
}

/* Reads @len bytes at @pos into @dst; the bytes read (short only when
 * the file ends first, or on an error, which @err then holds). */
static size_t read_span(int fd, unsigned char *dst, size_t len, int64_t pos,
			int *err)
{
	size_t done = 0;

	*err = 0;
	while (done < len) {
		ssize_t r = pread(fd, dst + done, len - done,
				  (off_t)(pos + (int64_t)done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*err = r < 0 ? errno : 0;
			break;
		}
		done += (size_t)r;
	}
	return done;
}

/* Sorts @s (a few dozen spans at most) by start and merges overlapping
 * and adjacent ones in place, clipped to [0, @height); the count left. */
static int merge_spans(struct wlseal_row_span *s, int n, int32_t height)
{
	int i, j, out = 0;

	for (i = 0; i < n; i++) {
		if (s[i].y1 < 0)
			s[i].y1 = 0;
		if (s[i].y2 > height)
			s[i].y2 = height;
	}
	for (i = 1; i < n; i++) {
		struct wlseal_row_span t = s[i];

		for (j = i; j > 0 && s[j - 1].y1 > t.y1; j--)
			s[j] = s[j - 1];
		s[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (s[i].y1 >= s[i].y2)
			continue;
		if (out && s[i].y1 <= s[out - 1].y2) {
			if (s[i].y2 > s[out - 1].y2)
				s[out - 1].y2 = s[i].y2;
		} else {
			s[out++] = s[i];
		}
	}
	return out;
}

int wlseal_copy_rows(struct wlseal_copy *c, int32_t height, int32_t stride,
		     const struct wlseal_row_span *spans, int n,
		     struct wlseal_row_span *rows, size_t *bytes)
{
	if (n < 0 || n > WLSEAL_ROW_SPANS_MAX || !c->filled) {
		rows[0] = (struct wlseal_row_span){ 0, height };
		n = 1;
	} else {
		memcpy(rows, spans, (size_t)n * sizeof(*rows));
	}
	n = merge_spans(rows, n, height);
	*bytes = 0;
	for (int i = 0; i < n; i++)
		*bytes += (size_t)(rows[i].y2 - rows[i].y1) * (size_t)stride;
	c->filled = true;
	return n;
}

void wlseal_copy_fill(struct wlseal_copy *c, int fd, int64_t offset,
		      int32_t stride, const struct wlseal_row_span *rows,
		      int n, struct wlseal_copy_result *r)
{
	int err = 0;

	*r = (struct wlseal_copy_result){ .spans = n };
	for (int i = 0; i < n; i++) {
		/* buffer.c's parameters keep offset + stride * height
		 * inside the pool, and the image is stride * height. */
		size_t at = (size_t)rows[i].y1 * (size_t)stride;
		size_t len = (size_t)(rows[i].y2 - rows[i].y1) * (size_t)stride;
		size_t got = read_span(fd, c->image + at, len,
				       offset + (int64_t)at, &err);

		r->wanted += len;
		if (got < len) {
			/* The file ended (or failed) under these rows:
			 * show nothing there rather than old pixels. */
			memset(c->image + at + got, 0, len - got);
			r->missing += len - got;
			if (!r->first_err)
				r->first_err = err;
			if (!err)
				r->ended = true;
		}
	}
}

bool wlseal_copy_report(struct wl_client *client,
			const struct wlseal_copy_result *r)
{
	wlseal_debug("copy pid=%d: read %zu bytes in %d spans",
		     (int)wlseal_client_pid(client), r->wanted - r->missing,
		     r->spans);
	if (r->missing)
		wlseal_account_log(client,
				   "client pid=%d: copied buffer short by %zu of %zu bytes (%s)%s",
				   (int)wlseal_client_pid(client), r->missing,
				   r->wanted,
				   r->first_err ? strerror(r->first_err) :
						  "the file is shorter than the pool",
				   r->ended ? "" : ": shown as zero");
	return !r->ended;
}
