/*
 * test_cache_fio.c — the fio command the cliff's qd32 figure equals
 * (modules/cache/cache_fio.c): io_uring with its batches and registered
 * buffers, libaio at the depth it got, psync at depth 1 whatever was
 * asked, nothing for no engine, and the batches agreeing with core's
 * engines; the line in the text and JSON sections.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rand_engine.h"
#include "modules/cache/cache_fio.h"
#include "render/render.h"
#include "th.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

TH_TEST(cache_fio_uring)
{
	char s[400];
	const uint64_t sz[] = { GiB };

	cache_fio_cmd(s, sizeof(s), "io_uring", 32, 3000000000ULL, sz, 1, "seq");
	TH_EQ_STR(s, "fio --name=qd32 --filename=FILE --ioengine=io_uring --direct=1 --rw=randread "
		  "--bs=4k --iodepth=32 --iodepth_batch_submit=4 --iodepth_batch_complete_max=4 "
		  "--fixedbufs --registerfiles --norandommap --randrepeat=0 --numjobs=1 --time_based "
		  "--runtime=3 --size=1G; FILE warmed first (--storage-warm seq)");
}

TH_TEST(cache_fio_libaio_reduced_depth)
{
	char s[400];
	const uint64_t sz[] = { 256 * MiB };

	/* aio-max-nr halved the depth: the line says what ran */
	cache_fio_cmd(s, sizeof(s), "libaio", 16, 500000000ULL, sz, 1, NULL);
	TH_EQ_STR(s, "fio --name=qd32 --filename=FILE --ioengine=libaio --direct=1 --rw=randread "
		  "--bs=4k --iodepth=16 --iodepth_batch_submit=4 --iodepth_batch_complete_max=4 "
		  "--norandommap --randrepeat=0 --numjobs=1 --time_based --runtime=500ms --size=256M");
	TH_CHECK(!strstr(s, "fixedbufs"));
}

TH_TEST(cache_fio_psync_depth_1)
{
	char s[400];
	const uint64_t sz[] = { GiB };

	/* the cliff asked for 32; psync runs one I/O at a time */
	cache_fio_cmd(s, sizeof(s), "psync", 32, 3000000000ULL, sz, 1, "random");
	TH_CHECK(strstr(s, "--ioengine=psync ") != NULL);
	TH_CHECK(strstr(s, "--iodepth=1 ") != NULL);
	TH_CHECK(!strstr(s, "--iodepth=32"));
	TH_CHECK(!strstr(s, "batch"));
	TH_CHECK(!strstr(s, "fixedbufs"));
	TH_CHECK(!strstr(s, "registerfiles"));
	TH_CHECK(strstr(s, "; FILE warmed first (--storage-warm random)") != NULL);
}

TH_TEST(cache_fio_no_engine)
{
	char s[400] = "stale";

	cache_fio_cmd(s, sizeof(s), "", 0, 3000000000ULL, NULL, 0, "seq");
	TH_EQ_STR(s, "");
	strcpy(s, "stale");
	cache_fio_cmd(s, sizeof(s), "windowsaio", 32, 3000000000ULL, NULL, 0, "seq");
	TH_EQ_STR(s, "");
}

/* The result's engine and depth, only the ok points' sizes. */
TH_TEST(cache_fio_equivalent_sizes)
{
	struct cache_result *r = calloc(1, sizeof(*r));

	TH_CHECK(r != NULL);
	if (!r)
		return;
	strcpy(r->engine, "io_uring");
	r->depth = 32;
	r->npoints = 4;
	r->points[0] = (struct cache_point){ .size = 256 * MiB, .status = BENCH_OK };
	r->points[1] = (struct cache_point){ .size = GiB, .status = BENCH_OK };
	r->points[2] = (struct cache_point){ .size = 4 * GiB, .status = BENCH_OK };
	r->points[3] = (struct cache_point){ .size = 16 * GiB, .status = BENCH_SKIP };
	cache_fio_equivalent(r, 3000000000ULL);
	TH_CHECK(strstr(r->fio_equivalent, " --size=SIZE (SIZE: each of 256M 1G 4G)") != NULL);
	TH_CHECK(strstr(r->fio_equivalent, "--iodepth=32 ") != NULL);
	TH_CHECK(!strstr(r->fio_equivalent, "16G"));
	r->npoints = 1;
	cache_fio_equivalent(r, 3000000000ULL);
	TH_CHECK(strstr(r->fio_equivalent, " --size=256M") != NULL);
	TH_CHECK(!strstr(r->fio_equivalent, "SIZE"));
	free(r);
}

/* The table in cache_fio.c says what core's engines do. */
TH_TEST(cache_fio_batch_matches_engines)
{
	TH_EQ_INT(cache_fio_batch("psync", 32), rand_engine_psync.batch);
#ifdef HAVE_LIBURING
	TH_EQ_INT(cache_fio_batch("io_uring", 32), rand_engine_uring.batch);
#endif
#ifdef HAVE_LIBAIO
	TH_EQ_INT(cache_fio_batch("libaio", 32), rand_engine_libaio.batch);
#endif
	TH_EQ_INT(cache_fio_batch("io_uring", 2), 2); /* capped at the depth, as rand_engine_open does */
	TH_EQ_INT(cache_fio_batch("nope", 32), 0);
}

/* The storage section says it: the text's last line, JSON's fio_equivalent (null when unknown). */
TH_TEST(cache_fio_rendered)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	snprintf(rep->cache.fio_equivalent, sizeof(rep->cache.fio_equivalent), "fio --iodepth=1 X");
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (f) {
		text_cache(f, rep, NULL);
		fclose(f);
		TH_CHECK(buf && strstr(buf, "\n  qd32 figure = fio --iodepth=1 X\n") != NULL);
		free(buf);
	}
#ifdef HAVE_CJSON
	{
		cJSON *o = json_cache(rep), *e = cJSON_GetObjectItem(o, "fio_equivalent");

		TH_CHECK(cJSON_IsString(e) && !strcmp(e->valuestring, "fio --iodepth=1 X"));
		cJSON_Delete(o);
		rep->cache.fio_equivalent[0] = '\0';
		o = json_cache(rep);
		TH_CHECK(cJSON_IsNull(cJSON_GetObjectItem(o, "fio_equivalent")));
		cJSON_Delete(o);
	}
#endif
	free(rep);
}
