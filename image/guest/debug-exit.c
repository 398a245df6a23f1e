/* SPDX-License-Identifier: MIT */
/*
 * wlseal-debug-exit CODE: end the VM with a verdict. QEMU's isa-debug-exit
 * device (iobase 0xf4) makes QEMU exit with status (CODE << 1) | 1, so the
 * host tells "guest said pass (0)" from a crash or a reboot (status 0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	char *end;
	long code;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: wlseal-debug-exit CODE\n"
			"Write CODE (0-127) to QEMU's isa-debug-exit port 0x%x;\n"
			"QEMU then exits with status CODE*2+1.\n",
			DEBUG_EXIT_PORT);
		return argc == 2 ? 0 : 2;
	}
	code = strtol(argv[1], &end, 0);
	if (*end || code < 0 || code > 127) {
		fprintf(stderr, "wlseal-debug-exit: bad code '%s'\n", argv[1]);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 1, 1)) {
		fprintf(stderr, "wlseal-debug-exit: ioperm: %s\n", strerror(errno));
		return 1;
	}
	sync();
	outb((unsigned char)code, DEBUG_EXIT_PORT);
	/* Only reached without the device (not under QEMU's isa-debug-exit). */
	fprintf(stderr, "wlseal-debug-exit: no isa-debug-exit device at 0x%x\n",
		DEBUG_EXIT_PORT);
	return 1;
}
