/* SPDX-License-Identifier: MIT */
/*
 * wlseal-wait-line [--pid PID] FILE TEXT [TIMEOUT_S]: block until a line
 * containing TEXT appears in FILE (which may not exist yet and may still be
 * growing), then print that line. With --pid, give up as soon as process
 * PID exits without having written the line (a pidfd, not a poll loop). Waits with inotify, not by polling, so scenario scripts
 * wait for the real condition ("compositor listening", "frame presented")
 * and never for a guessed number of seconds. Exit 0 when found, 1 on
 * timeout (default 60 s), 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Scan the lines of FILE from *offset on; complete lines only. */
static int scan(const char *path, const char *text, long *offset)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	if (fseek(f, *offset, SEEK_SET) == 0) {
		while (fgets(line, sizeof(line), f)) {
			size_t len = strlen(line);

			if (len == 0 || line[len - 1] != '\n')
				break; /* partial line: read it again next time */
			*offset += (long)len;
			if (strstr(line, text)) {
				fputs(line, stdout);
				found = 1;
				break;
			}
		}
	}
	fclose(f);
	return found;
}

#define USAGE "usage: wlseal-wait-line [--pid PID] FILE TEXT [TIMEOUT_S]\n"

int main(int argc, char **argv)
{
	double timeout = 60, deadline;
	long offset = 0;
	char *dir_copy;
	int in, pidfd = -1;
	long pid = 0;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf(USAGE
		       "Wait (inotify) until FILE has a line containing TEXT; print it.\n"
		       "Exit 0 when found, 1 after TIMEOUT_S seconds (default 60) or,\n"
		       "with --pid, as soon as process PID has exited without it.\n");
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "--pid")) {
		pid = strtol(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc < 3 || argc > 4 || (argc == 4 && (timeout = atof(argv[3])) <= 0) || pid < 0) {
		fprintf(stderr, USAGE);
		return 2;
	}
	deadline = now() + timeout;
	if (pid > 0) {
		pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
		if (pidfd < 0 && errno != ESRCH) {
			perror("pidfd_open");
			return 2;
		}
		/* Already gone: one last look at the file decides. */
		if (pidfd < 0) {
			if (scan(argv[1], argv[2], &offset))
				return 0;
			fprintf(stderr, "wlseal-wait-line: process %ld is gone and %s has no line with '%s'\n",
				pid, argv[1], argv[2]);
			return 1;
		}
	}

	/* Watch the directory too, so a file created later is seen. */
	in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in < 0) {
		perror("inotify_init1");
		return 2;
	}
	dir_copy = strdup(argv[1]);
	inotify_add_watch(in, dirname(dir_copy), IN_CREATE | IN_MOVED_TO | IN_MODIFY);
	free(dir_copy);

	for (;;) {
		char buf[4096];
		struct pollfd pfd[2] = {
			{ .fd = in, .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		double left;

		if (scan(argv[1], argv[2], &offset))
			return 0;
		left = deadline - now();
		if (left <= 0)
			break;
		if (poll(pfd, pidfd >= 0 ? 2 : 1, (int)(left * 1000) + 1) < 0 && errno != EINTR) {
			perror("poll");
			return 2;
		}
		while (read(in, buf, sizeof(buf)) > 0)
			;
		if (pidfd >= 0 && (pfd[1].revents & POLLIN)) {
			/* The writer exited: whatever it wrote is in the file now. */
			if (scan(argv[1], argv[2], &offset))
				return 0;
			fprintf(stderr, "wlseal-wait-line: process %ld exited and %s has no line with '%s'\n",
				pid, argv[1], argv[2]);
			return 1;
		}
	}
	fprintf(stderr, "wlseal-wait-line: no line with '%s' in %s after %.0f s\n",
		argv[2], argv[1], timeout);
	return 1;
}
