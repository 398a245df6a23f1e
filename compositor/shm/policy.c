/* SPDX-License-Identifier: MIT */
/*
 * policy.c - the seal policy as a value: presets, settings, a file.
 *
 * --policy=secure|permissive picks a preset; --require-seals,
 * --accept-seals, --max-pool-size and --unsealed change it; --policy-file, applied
 * last, holds the same settings one per line and is read again on
 * SIGHUP, so that an experiment can change the policy of a running
 * compositor. Nothing here touches a client: check.c applies the policy,
 * ext-policy.c announces it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shm.h"
#include "seal-list.h"

static void policy_preset(struct wlseal_shm_policy *p, enum wlseal_policy preset)
{
	/* A pool is an int32 on the wire; that is the default limit. */
	p->max_pool_size = INT32_MAX;
	p->accepted_seals = WLSEAL_ALL_SEALS;
	if (preset == WLSEAL_POLICY_SECURE) {
		/* SEAL_SHRINK is the one seal that makes a mapping safe. */
		p->required_seals = F_SEAL_SHRINK;
		p->enforced = true;
	} else {
		p->required_seals = 0;
		p->enforced = false;
	}
	p->write_sealed_accepted = true;
}

/* Keep the derived fields consistent after every change. */
static void normalize(struct wlseal_shm_policy *p)
{
	p->accepted_seals |= p->required_seals;
	p->write_sealed_accepted = p->accepted_seals & F_SEAL_WRITE;
}

/* The names of enum wlseal_unsealed, in its order. */
static const char *const unsealed_names[] = { "refuse", "seal", "copy" };

static bool policy_set(struct wlseal_shm_policy *p, const char *key,
		      const char *value, char *err, size_t err_len)
{
	uint32_t seals;

	if (!strcmp(key, "policy")) {
		if (!strcmp(value, "secure"))
			policy_preset(p, WLSEAL_POLICY_SECURE);
		else if (!strcmp(value, "permissive"))
			policy_preset(p, WLSEAL_POLICY_PERMISSIVE);
		else
			goto bad;
	} else if (!strcmp(key, "require-seals")) {
		if (!wlseal_seal_list_parse(value, &seals))
			goto bad;
		p->required_seals = seals;
	} else if (!strcmp(key, "accept-seals")) {
		if (!wlseal_seal_list_parse(value, &seals))
			goto bad;
		p->accepted_seals = seals;
	} else if (!strcmp(key, "unsealed")) {
		/* Not part of a preset: "policy = secure" in a file keeps
		 * the answer to unsealed files that came before it. */
		unsigned int i;

		for (i = 0; i < sizeof(unsealed_names) / sizeof(*unsealed_names); i++)
			if (!strcmp(value, unsealed_names[i]))
				break;
		if (i == sizeof(unsealed_names) / sizeof(*unsealed_names)) {
			snprintf(err, err_len,
				 "bad value '%s' for unsealed (want refuse, seal or copy)",
				 value);
			return false;
		}
		p->unsealed = (enum wlseal_unsealed)i;
	} else if (!strcmp(key, "max-pool-size")) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(value, &end, 0);
		if (errno || *end || end == value || v == 0 || value[0] == '-')
			goto bad;
		p->max_pool_size = v;
	} else {
		snprintf(err, err_len, "unknown policy setting '%s'", key);
		return false;
	}
	/* required seals are accepted seals; a required seal dropped from
	 * accept-seals by a later line comes back here. */
	normalize(p);
	return true;
bad:
	snprintf(err, err_len, "bad value '%s' for %s", value, key);
	return false;
}

/*
 * The file: one "key = value" per line, '#' starts a comment, the keys of
 * policy_set(). Either the whole file applies or nothing does.
 */
static bool load_file(struct wlseal_shm_policy *p, const char *path,
		      char *err, size_t err_len)
{
	struct wlseal_shm_policy next = *p;
	char line[256], why[160];
	int lineno = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		char *key = line, *value, *end;

		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		key += strspn(key, " \t");
		if (!*key)
			continue;
		value = strchr(key, '=');
		if (!value) {
			snprintf(err, err_len, "%s:%d: expected key = value",
				 path, lineno);
			fclose(f);
			return false;
		}
		*value++ = '\0';
		value += strspn(value, " \t");
		for (end = key + strlen(key); end > key && strchr(" \t", end[-1]); end--)
			;
		*end = '\0';
		for (end = value + strlen(value); end > value && strchr(" \t", end[-1]); end--)
			;
		*end = '\0';
		if (!policy_set(&next, key, value, why, sizeof(why))) {
			snprintf(err, err_len, "%s:%d: %s", path, lineno, why);
			fclose(f);
			return false;
		}
	}
	fclose(f);
	*p = next;
	return true;
}

bool wlseal_policy_build(enum wlseal_policy preset,
			 const struct wlseal_policy_setting *settings,
			 int n_settings, const char *file,
			 struct wlseal_shm_policy *p, char *err, size_t err_len)
{
	struct wlseal_shm_policy next;
	int i;

	policy_preset(&next, preset);
	next.unsealed = WLSEAL_UNSEALED_REFUSE;
	for (i = 0; i < n_settings; i++)
		if (!policy_set(&next, settings[i].key, settings[i].value,
				       err, err_len))
			return false;
	if (file && !load_file(&next, file, err, err_len))
		return false;
	*p = next;
	return true;
}

bool wlseal_policy_equal(const struct wlseal_shm_policy *a,
			 const struct wlseal_shm_policy *b)
{
	return a->required_seals == b->required_seals &&
	       a->accepted_seals == b->accepted_seals &&
	       a->max_pool_size == b->max_pool_size &&
	       a->write_sealed_accepted == b->write_sealed_accepted &&
	       a->enforced == b->enforced && a->unsealed == b->unsealed;
}

void wlseal_policy_describe(const struct wlseal_shm_policy *p, char *buf,
			    size_t len)
{
	snprintf(buf, len,
		 "required-seals=0x%x accepted-seals=0x%x max-pool-size=%llu "
		 "write-sealed=%s enforced=%s unsealed=%s",
		 p->required_seals, p->accepted_seals,
		 (unsigned long long)p->max_pool_size,
		 p->write_sealed_accepted ? "accepted" : "refused",
		 p->enforced ? "yes" : "no", unsealed_names[p->unsealed]);
}
