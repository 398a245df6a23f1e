/* SPDX-License-Identifier: MIT */
/*
 * seal-list.c - seal names and seal lists (seal-list.h).
 */
#include <stdio.h>
#include <string.h>

#include "seal-list.h"

static const struct {
	const char *name;	/* in lists */
	const char *constant;	/* in messages */
	uint32_t bit;
} seals_table[] = {
	{ "seal", "F_SEAL_SEAL", F_SEAL_SEAL },
	{ "shrink", "F_SEAL_SHRINK", F_SEAL_SHRINK },
	{ "grow", "F_SEAL_GROW", F_SEAL_GROW },
	{ "write", "F_SEAL_WRITE", F_SEAL_WRITE },
	{ "future-write", "F_SEAL_FUTURE_WRITE", F_SEAL_FUTURE_WRITE },
};

#define N_SEALS (sizeof(seals_table) / sizeof(seals_table[0]))

bool wlseal_seal_list_parse(const char *s, uint32_t *out)
{
	char buf[128], *tok, *save = NULL;
	size_t i;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	*out = 0;
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		bool found = false;

		if (!strcmp(tok, "none"))
			continue;
		if (!strcmp(tok, "all")) {
			*out |= WLSEAL_ALL_SEALS;
			continue;
		}
		for (i = 0; i < N_SEALS; i++) {
			if (!strcmp(tok, seals_table[i].name)) {
				*out |= seals_table[i].bit;
				found = true;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

void wlseal_seal_list_format(uint32_t seals, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < N_SEALS && used < len; i++)
		if (seals & seals_table[i].bit)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "|" : "",
						 seals_table[i].constant);
}
