/*
 * storage_ref.c — the default run learns from a storage report
 * (--storage-report FILE: the --output of an earlier --profile storage
 * run): when that report measured a cache cliff in the same directory
 * and a rand pass's test file is no larger than its knee (the last
 * working set served from a cache), that pass's figures are cache-served,
 * and the report says so (a warning, and "storage_report" in the JSON
 * rand section).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "report/report.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

bool storage_ref_cache_served(uint64_t rand_size, uint64_t knee_size)
{
	return knee_size > 0 && rand_size > 0 && rand_size <= knee_size;
}

int storage_ref_load(const char *path, char *dir, size_t dirlen, uint64_t *knee, char *err, size_t errlen)
{
#ifdef HAVE_CJSON
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	cJSON *root, *st, *d, *k;
	int rc = -1;

	*knee = 0;
	dir[0] = '\0';
	if (!f) {
		snprintf(err, errlen, "--storage-report %s: open: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb || cap > (64u << 20)) {
				free(nb ? nb : buf);
				fclose(f);
				snprintf(err, errlen, "--storage-report %s: %s", path, nb ? "larger than 64 MiB" : strerror(ENOMEM));
				return -1;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "--storage-report %s: read: %s", path, strerror(errno));
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	root = cJSON_Parse(buf);
	free(buf);
	st = root ? cJSON_GetObjectItemCaseSensitive(root, "storage") : NULL;
	d = st ? cJSON_GetObjectItemCaseSensitive(st, "dir") : NULL;
	k = st ? cJSON_GetObjectItemCaseSensitive(st, "knee_size") : NULL;
	if (!root)
		snprintf(err, errlen, "--storage-report %s: not a JSON report", path);
	else if (!st || !cJSON_IsString(d))
		snprintf(err, errlen, "--storage-report %s: no storage section (the --output of a --profile storage run)", path);
	else {
		snprintf(dir, dirlen, "%s", d->valuestring);
		*knee = cJSON_IsNumber(k) && k->valuedouble > 0 ? (uint64_t)k->valuedouble : 0;
		rc = 0;
	}
	cJSON_Delete(root);
	return rc;
#else
	(void)dir;
	(void)dirlen;
	*knee = 0;
	snprintf(err, errlen, "--storage-report %s: built without cJSON", path);
	return -1;
#endif
}

static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	return strcmp(a, b) == 0;
}

/* "4.0 MiB", "1.50 GiB": a small test file is not "0.00 GiB" */
static void size_words(char *buf, size_t n, uint64_t b)
{
	if (b < (1ULL << 30))
		snprintf(buf, n, "%.1f MiB", (double)b / (double)(1ULL << 20));
	else
		snprintf(buf, n, "%.2f GiB", (double)b / (double)(1ULL << 30));
}

void storage_ref_apply(struct bench_report *rep, const char *path)
{
	struct storage_ref *s = &rep->storage_ref;
	char err[PATH_MAX + 200];

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (storage_ref_load(path, s->dir, sizeof(s->dir), &s->knee_size, err, sizeof(err)) < 0) {
		report_warn(rep, "%s: the rand figures are not checked against a cache cliff", err);
		return;
	}
	s->loaded = true;
	for (unsigned i = 0; i < rep->rand.npass; i++) {
		const struct rand_pass_result *p = &rep->rand.pass[i];

		if (!p->dir || !same_dir(p->dir, s->dir) || p->status != BENCH_OK)
			continue;
		s->checked = true;
		if (storage_ref_cache_served(p->size_bytes, s->knee_size)) {
			char fsz[32], ksz[32];

			s->cache_served = true;
			size_words(fsz, sizeof(fsz), p->size_bytes);
			size_words(ksz, sizeof(ksz), s->knee_size);
			report_warn(rep, "rand pass %s: its %s test file sits below the cache cliff "
				    "(~%s) that the storage report %s measured in %s: its figures are "
				    "cache-served, not the device's", p->name, fsz, ksz, path, s->dir);
		}
	}
}
