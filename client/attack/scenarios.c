/* SPDX-License-Identifier: MIT */
/*
 * scenarios.c - the table of every scenario, gathered from the entries
 * that ATT_SCENARIO (scenario.h) places next to each scenario's function
 * in files.c, seals.c, buffers.c, lifetimes.c, resources.c, ext.c,
 * storms.c and connections.c.
 *
 * The linker collects the entries' pointers in the att_scenarios section
 * in no promised order; sorting by category and source line gives --list
 * (and tests/attack/scenario-names, which reads the files the same way)
 * one stable order.
 */
#include <stdlib.h>

#include "attack.h"

extern const struct scenario *const __start_att_scenarios[];
extern const struct scenario *const __stop_att_scenarios[];

static const struct scenario **table;
static size_t table_len;

static int by_place(const void *pa, const void *pb)
{
	const struct scenario *a = *(const struct scenario *const *)pa;
	const struct scenario *b = *(const struct scenario *const *)pb;

	if (a->category != b->category)
		return a->category - b->category;
	return a->line - b->line;
}

const struct scenario *const *att_scenarios(size_t *n)
{
	if (!table) {
		size_t len = (size_t)(__stop_att_scenarios - __start_att_scenarios);

		table = malloc(len * sizeof(*table));
		if (!table) {
			*n = 0;
			return NULL;
		}
		for (size_t i = 0; i < len; i++)
			table[i] = __start_att_scenarios[i];
		qsort(table, len, sizeof(*table), by_place);
		table_len = len;
	}
	*n = table_len;
	return table;
}
