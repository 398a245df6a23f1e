/* SPDX-License-Identifier: MIT */
/*
 * seal.c - --unsealed=seal: a pool's file that lacks F_SEAL_SHRINK (or
 * F_SEAL_GROW, when required) but can still take it is sealed by the
 * compositor itself, with F_ADD_SEALS, before the one check of check.c
 * runs on it. The pool then takes exactly the path of a file the client
 * sealed: check, budget, map, check again (pool.c).
 *
 * Why sealing on receipt is as safe as the client's own seal:
 *
 * - The race between receipt and seal. Until our F_ADD_SEALS returns,
 *   the client (or anyone holding the file) may still truncate it. That
 *   is harmless because nothing has been read or mapped yet: check.c
 *   reads the size with fstat only after F_GET_SEALS shows SHRINK, and
 *   that is after our seal. A client truncating first just hands over a
 *   smaller file, which the check sees (file_too_small) or, if still
 *   large enough, maps whole. A truncate after the seal fails. So the
 *   order seal, then size, then map gives the same guarantee as a file
 *   that arrived sealed: no page of the mapping can lie past the end.
 * - A file shared with other processes. Seals belong to the inode, not
 *   to our fd: once F_SEAL_SHRINK is set, nobody can shrink the file,
 *   through any fd, dup, /proc reopen or mapping, in any process. Upstream
 *   seals can never be removed; the seed ABI removes one only for an
 *   exclusive holder, and our fd, then our mapping, make us a holder.
 * - Files that refuse. F_ADD_SEALS fails with EPERM when F_SEAL_SEAL is
 *   set (a memfd made without MFD_ALLOW_SEALING, a /dev/shm file: they
 *   are UNSEALABLE here and never reach the call, but a client may set
 *   F_SEAL_SEAL between our F_GET_SEALS and F_ADD_SEALS) and when our fd
 *   is not open for writing; F_GET_SEALS fails with EINVAL on files that
 *   have no seals at all. Every failure refuses the pool, as before.
 * - Only seals that constrain the size are added. F_SEAL_WRITE and
 *   F_SEAL_FUTURE_WRITE would change what the client may do with its
 *   own pixels (and F_SEAL_WRITE fails while the client has a writable
 *   mapping); F_SEAL_SEAL would stop the client's own later sealing. A
 *   required seal outside SHRINK and GROW is left to the check to refuse.
 *
 * What the client sees afterwards: its file carries the seals (F_GET_SEALS
 * shows them), and a later ftruncate that would shrink the file (or grow
 * it, with F_SEAL_GROW) fails with EPERM, as if it had sealed the file
 * itself. pool.c logs once per client that this was done for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "seal-list.h"
#include "seal.h"

/* The seals whose only effect is on the file's size. */
#define ADDABLE_SEALS (F_SEAL_SHRINK | F_SEAL_GROW)

enum wlseal_receipt wlseal_shm_seal_on_receipt(const struct wlseal_shm_policy *policy,
					       int fd, uint32_t *added,
					       char *why, size_t why_len)
{
	char names[96];
	uint32_t missing;
	int seals;

	*added = 0;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return WLSEAL_RECEIPT_UNSEALABLE;
	missing = policy->required_seals & ~(uint32_t)seals;
	if (!missing)
		return WLSEAL_RECEIPT_NONE;
	if (seals & F_SEAL_SEAL)
		return WLSEAL_RECEIPT_UNSEALABLE;
	/* Not ours to add: the check refuses it, naming the seal. */
	if (missing & ~(uint32_t)ADDABLE_SEALS)
		return WLSEAL_RECEIPT_NONE;
	if (fcntl(fd, F_ADD_SEALS, (int)missing) < 0) {
		wlseal_seal_list_format(missing, names, sizeof(names));
		snprintf(why, why_len,
			 "missing %s and F_ADD_SEALS of it failed: %s%s",
			 names, strerror(errno),
			 errno == EPERM ? " (F_SEAL_SEAL set, or fd not writable)" : "");
		return WLSEAL_RECEIPT_FAILED;
	}
	*added = missing;
	return WLSEAL_RECEIPT_SEALED;
}
