/* SPDX-License-Identifier: MIT */
/*
 * fdpass.c - passing an fd over a unix socket (fdpass.h).
 */
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "fdpass.h"

ssize_t fdpass_send(int s, const void *buf, size_t len, int fd, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (fd >= 0) {
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(s, &msg, flags);
}

ssize_t fdpass_recv(int s, void *buf, size_t len, int *fd, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	ssize_t n = recvmsg(s, &msg, flags);

	if (n != (ssize_t)len)
		return n;
	cm = CMSG_FIRSTHDR(&msg);
	if (fd && cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return n;
}
