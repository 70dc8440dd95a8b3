/*
 * published.c — reads the compiled-in published tables
 * (grade/published_data.c, format in published.h): decodes a table's
 * LEB128 entries with every bound checked, and finds a table by metric.
 */
#include <string.h>

#include "published.h"

/* One LEB128 unsigned at *pos of t->enc: 0, or -1 when it runs past the
 * end or does not fit 64 bits. */
static int read_uleb(const struct pub_table *t, uint32_t *pos, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		uint8_t b;

		if (*pos >= t->enc_len)
			return -1;
		b = t->enc[(*pos)++];
		if (shift > 63 || (shift == 63 && (b & 0x7e)))
			return -1;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*out = v;
	return 0;
}

static double pow10_of(unsigned d)
{
	double p = 1.0;

	while (d--)
		p *= 10.0;
	return p;
}

int pub_table_decode(const struct pub_table *t, struct pub_entry *out, unsigned cap)
{
	uint64_t value = 0;
	uint32_t pos = 0;
	double scale;

	if (!t || !t->enc || t->n > cap || t->decimals > 15)
		return -1;
	scale = pow10_of(t->decimals);
	for (unsigned i = 0; i < t->n; i++) {
		uint64_t delta, tag;

		if (read_uleb(t, &pos, &delta) < 0 || read_uleb(t, &pos, &tag) < 0)
			return -1;
		if (delta > UINT64_MAX - value)
			return -1;
		value += delta;
		if ((tag >> 1) >= pub_nruns)
			return -1;
		out[i].value = (double)value / scale;
		out[i].run = (uint16_t)(tag >> 1);
		out[i].first_of_machine = tag & 1;
	}
	if (pos != t->enc_len)
		return -1;
	return (int)t->n;
}

static bool same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

const struct pub_table *pub_table_find(const char *metric, uint32_t bs, const char *server,
				       const char *location, const char *family)
{
	if (!metric)
		return NULL;
	for (unsigned i = 0; i < pub_ntables; i++) {
		const struct pub_table *t = &pub_tables[i];

		if (strcmp(t->metric, metric) == 0 && t->bs == bs && same_str(t->server, server) &&
		    same_str(t->location, location) && same_str(t->family, family))
			return &t[0];
	}
	return NULL;
}
