/*
 * test_published.c — the compiled-in published tables (grade/published_data.c)
 * read back through pub_table_decode: every table decodes to n ascending
 * entries whose runs exist; the figures data/published/README.md states
 * (410 yabs runs: 371 vps, 35 dedicated, 4 other; 32 cache-inflated; 325
 * machines) come out of the tables; a broken copy of an encoding
 * (truncated, a run out of range, more entries than the room) gives -1;
 * pub_table_find finds by metric and key, and NULL for an unknown one.
 */
#include <stdlib.h>
#include <string.h>

#include "grade/published.h"
#include "th.h"

#define ROOM 1024

TH_TEST(published_tables_decode)
{
	static struct pub_entry e[ROOM];

	TH_CHECK(pub_ntables > 0);
	for (unsigned i = 0; i < pub_ntables; i++) {
		const struct pub_table *t = &pub_tables[i];
		int n = pub_table_decode(t, e, ROOM);
		unsigned firsts = 0;

		if (n != (int)t->n) {
			th_fail(__FILE__, __LINE__, "table %u (%s): decode gave %d, n %u", i,
				t->metric, n, t->n);
			continue;
		}
		TH_CHECK(n > 0);
		TH_CHECK(t->metric && t->unit);
		for (int k = 0; k < n; k++) {
			if (e[k].run >= pub_nruns)
				th_fail(__FILE__, __LINE__, "table %u entry %d: run %u of %u", i, k,
					e[k].run, pub_nruns);
			if (k && e[k].value < e[k - 1].value)
				th_fail(__FILE__, __LINE__, "table %u (%s) not ascending at %d: %g < %g",
					i, t->metric, k, e[k].value, e[k - 1].value);
			firsts += e[k].first_of_machine;
		}
		TH_CHECK(firsts > 0 && firsts <= t->n);
	}
}

/* What data/published/README.md says of the yabs runs, from the tables. */
TH_TEST(published_runs_match_readme)
{
	static struct pub_entry e[ROOM];
	const struct pub_table *t = pub_table_find("fio_total_iops", 4096, NULL, NULL, NULL);
	unsigned kind[4] = { 0 }, cached = 0, firsts = 0;
	int n;

	TH_CHECK(t != NULL);
	if (!t)
		return;
	n = pub_table_decode(t, e, ROOM);
	TH_EQ_INT(n, 410);
	for (int k = 0; k < n; k++) {
		const struct pub_run *r = &pub_runs[e[k].run];

		if (r->kind < 4)
			kind[r->kind]++;
		cached += r->cached;
		firsts += e[k].first_of_machine;
	}
	TH_EQ_INT(kind[PUB_KIND_VPS], 371);
	TH_EQ_INT(kind[PUB_KIND_DEDICATED], 35);
	TH_EQ_INT(kind[PUB_KIND_OTHER], 4);
	TH_EQ_INT(kind[PUB_KIND_UNKNOWN], 0);
	TH_EQ_INT(cached, 32);
	TH_EQ_INT(firsts, 325);
	/* yabs_disk.csv's smallest and largest 4k total IOPS */
	TH_NEAR(e[0].value, 122, 0);
	TH_NEAR(e[n - 1].value, 825000, 0);
}

/* Exact decimals: the 4k MB/s smallest, 0.492 as printed. */
TH_TEST(published_values_exact)
{
	static struct pub_entry e[ROOM];
	const struct pub_table *t = pub_table_find("fio_total_mbps", 4096, NULL, NULL, NULL);

	TH_CHECK(t != NULL);
	if (!t)
		return;
	TH_EQ_STR(t->unit, "MB/s");
	TH_EQ_INT(pub_table_decode(t, e, ROOM), 410);
	TH_CHECK(e[0].value == 0.492);
	TH_CHECK(e[409].value == 3300.0);
}

TH_TEST(published_find)
{
	const struct pub_table *t;

	t = pub_table_find("iperf_send_mbits", 0, "Clouvider", "London, UK (10G)", "IPv4");
	TH_CHECK(t != NULL);
	if (t) {
		TH_EQ_STR(t->unit, "Mbits/sec");
		TH_EQ_INT(t->n, 204);   /* yabs_net.csv: 215 lines, 11 busy */
		TH_EQ_INT(t->set, PUB_SET_YABS_NET);
	}
	t = pub_table_find("sysbench_1t_eps", 0, NULL, NULL, NULL);
	TH_CHECK(t != NULL && t->n == 61);
	t = pub_table_find("dd_write_mbps", 0, NULL, NULL, NULL);
	TH_CHECK(t != NULL && t->n == 107);
	TH_CHECK(pub_table_find("fio_total_iops", 8192, NULL, NULL, NULL) == NULL);
	TH_CHECK(pub_table_find("iperf_send_mbits", 0, "Clouvider", "Mars (10G)", "IPv4") == NULL);
	TH_CHECK(pub_table_find("iperf_send_mbits", 0, "Clouvider", "London, UK (10G)", NULL) == NULL);
	TH_CHECK(pub_table_find("no_such_metric", 0, NULL, NULL, NULL) == NULL);
	TH_CHECK(pub_table_find(NULL, 0, NULL, NULL, NULL) == NULL);
}

TH_TEST(published_decode_broken)
{
	static struct pub_entry e[ROOM];
	const struct pub_table *t = pub_table_find("sysbench_1t_eps", 0, NULL, NULL, NULL);
	struct pub_table c;
	uint8_t *buf;
	uint32_t i;

	TH_CHECK(t != NULL);
	if (!t)
		return;
	buf = malloc(t->enc_len + 8);
	TH_CHECK(buf != NULL);
	if (!buf)
		return;
	memcpy(buf, t->enc, t->enc_len);
	c = *t;
	c.enc = buf;
	TH_EQ_INT(pub_table_decode(&c, e, ROOM), (int)t->n);
	/* room for fewer than n */
	TH_EQ_INT(pub_table_decode(&c, e, t->n - 1), -1);
	/* truncated: the last byte gone, and a half of it */
	c.enc_len = t->enc_len - 1;
	TH_EQ_INT(pub_table_decode(&c, e, ROOM), -1);
	c.enc_len = t->enc_len / 2;
	TH_EQ_INT(pub_table_decode(&c, e, ROOM), -1);
	/* a varint whose continuation runs off the end */
	c.enc_len = t->enc_len;
	buf[t->enc_len - 1] |= 0x80;
	TH_EQ_INT(pub_table_decode(&c, e, ROOM), -1);
	memcpy(buf, t->enc, t->enc_len);
	/* trailing bytes after n entries */
	buf[t->enc_len] = 0;
	c.enc_len = t->enc_len + 1;
	TH_EQ_INT(pub_table_decode(&c, e, ROOM), -1);
	c.enc_len = t->enc_len;
	/* the first entry's run out of range: skip its value varint, rewrite its tag */
	for (i = 0; buf[i] & 0x80; i++)
		;
	i++;
	{
		uint32_t run_len = 0, tag = pub_nruns << 1, k;
		uint8_t tagb[4];

		do {
			tagb[run_len++] = (uint8_t)((tag & 0x7f) | (tag > 0x7f ? 0x80 : 0));
			tag >>= 7;
		} while (tag);
		/* same length as the original tag, so the rest still lines up */
		for (k = 0; buf[i + k] & 0x80; k++)
			;
		k++;
		if (k == run_len) {
			memcpy(buf + i, tagb, run_len);
			TH_EQ_INT(pub_table_decode(&c, e, ROOM), -1);
		} else {
			th_fail(__FILE__, __LINE__, "tag lengths %u and %u differ", k, run_len);
		}
	}
	free(buf);
	TH_EQ_INT(pub_table_decode(NULL, e, ROOM), -1);
}
