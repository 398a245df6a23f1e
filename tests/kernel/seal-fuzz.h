/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz.h - shared by the files of seal-fuzz: the model of the files,
 * fds, mappings, watchers, messages in flight and pinned pages, the
 * generator, and the functions of the model and its checks
 * (seal-fuzz-model.c), the watchers (seal-fuzz-watchers.c) and the
 * operations (seal-fuzz-ops.c).
 */
#ifndef WLSEAL_SEAL_FUZZ_H
#define WLSEAL_SEAL_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MAXF 4		/* files */
#define MAXFD 1024	/* fd numbers tracked */
#define MAXMAP 12
#define MAXWATCH 4
#define MAXFLIGHT 4
#define MAXPIN 3
#define MAXSIZE (256 * 1024)
#define ALL_UP (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | \
		F_SEAL_FUTURE_WRITE)
#define SEEDBITS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

struct mfile {
	bool live;
	unsigned int seals;	/* upstream bits */
	off_t size;
	int id;			/* for messages */
};

struct fdinfo {
	int file;		/* -1: not ours */
	bool writable;
};

/*
 * @writable: PROT_WRITE. @shared_w: VM_SHARED, i.e. MAP_SHARED through an
 * fd open for writing, even read-only: 6.1 counts such a mapping in
 * i_mmap_writable (it could be mprotect()ed writable), so it blocks
 * SEAL_WRITE (EBUSY) and SHMEM_SET_SEALS (EPERM) like a writable one;
 * unless it was made while F_SEAL_WRITE or F_SEAL_FUTURE_WRITE was set:
 * then mmap() clears VM_MAYWRITE and it does not count (Debian's 6.1 has
 * the upstream 6.7 change, vma_is_shared_maywrite()). Found by this
 * fuzzer: the model first counted every MAP_SHARED mapping.
 */
struct map {
	char *p;
	size_t len;
	int file;
	bool writable;
	bool shared_w;
};

struct watcher {
	pid_t pid;
	int sock;
	int file;
	bool shared_w;	/* its mapping counts in i_mmap_writable */
};

struct flight {
	int sv[2];
	int file;
};

/* Pages held: by a pipe (vmsplice: pipe[]), or by a udmabuf (dmabuf,
 * also in pipe[0], pipe[1] -1; seal-fuzz-udmabuf.c). */
struct pin {
	int pipe[2];
	int file;
	int dmabuf;	/* -1: a pipe's pin */
	bool readonly;	/* a read-only udmabuf */
};

/* seal-fuzz-model.c: the state of the model. */
extern struct mfile files[MAXF];
extern struct fdinfo fds[MAXFD];
extern struct map maps[MAXMAP];
extern struct watcher watchers[MAXWATCH];
extern struct flight flights[MAXFLIGHT];
extern struct pin pins[MAXPIN];
extern int nmaps, nwatch, nflight, npins;
extern long step, fatal, closed_findings, ops_done;
extern bool verbose;
extern int next_id;
extern const char *opname;

/* seal-fuzz-model.c: the generator (xorshift, from --seed). */
extern uint64_t rng;
unsigned int pick(unsigned int n);

/* seal-fuzz-model.c: findings, fatal (fail-open) or not (fail-closed). */
__attribute__((format(printf, 2, 3)))
void finding(bool is_fatal, const char *fmt, ...);

/* seal-fuzz-model.c: the model, and the kernel's view checked against it. */
int map_count(int f, bool writable_only);
int others(int f, int count_of_own_fds);
bool pinned(int f);
int some_fd(int f);
void track(int fd, int f, bool writable);
void maybe_dead(int f);
void untrack(int fd);
/* wlseal_seed_to_upstream() on the unsigned seal words of the model. */
unsigned int seed_to_up(unsigned int s);
void check_seals(int f, int fd);

/* seal-fuzz-watchers.c: processes that rely on what they verified. */
void add_watcher(int f, int fd, bool via_scm, bool map_only);
void end_watcher(int i);
void check_watchers(void);

/* seal-fuzz-ops.c: the operations the driver picks from. */
int new_file(void);
void op_set_seals(void);
void op_add_seals(void);
void op_dup(void);
void op_close(void);
void op_dup2(void);
void op_close_range(void);
void op_reopen(void);
void op_scm(void);
void op_mmap(void);
void op_truncate(void);
void op_write(void);
void op_fallocate(void);
void op_vmsplice(void);
void op_watch(void);
void op_fork_try(void);
void op_race(void);

/* seal-fuzz-udmabuf.c: udmabufs of the files, both modes, and the write
 * paths of read-only ones; does a read-only one pin @f's pages? */
void op_udmabuf(void);
bool ro_pinned(int f);

#endif
