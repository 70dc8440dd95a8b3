/* test_parse.c — size, duration and count parsers (table-driven). */
#include <stdint.h>

#include "core/parse.h"
#include "th.h"

TH_TEST(parse_size_table)
{
	static const struct { const char *in; int rc; uint64_t want; } cases[] = {
		{ "4096", 0, 4096 }, { "4k", 0, 4096 }, { "4K", 0, 4096 }, { "4KiB", 0, 4096 },
		{ "512M", 0, 512ULL << 20 }, { "1G", 0, 1ULL << 30 }, { "2T", 0, 2ULL << 40 },
		{ "1.5G", 0, 3ULL << 29 }, { "64kb", 0, 65536 },
		{ "", -1, 0 }, { "k", -1, 0 }, { "-1", -1, 0 }, { "4X", -1, 0 }, { "4 k", -1, 0 },
		{ "1e3", 0, 1000 }, { "99999999999T", -1, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int rc = parse_size(cases[i].in, &v);

		TH_EQ_INT(rc, cases[i].rc);
		if (rc == 0)
			TH_EQ_INT(v, cases[i].want);
	}
}

TH_TEST(parse_duration_table)
{
	static const struct { const char *in; int rc; uint64_t want; } cases[] = {
		{ "30", 0, 30000000000ULL }, { "30s", 0, 30000000000ULL }, { "2m", 0, 120000000000ULL },
		{ "500ms", 0, 500000000ULL }, { "1.5s", 0, 1500000000ULL }, { "1h", 0, 3600000000000ULL },
		{ "s", -1, 0 }, { "10x", -1, 0 }, { "", -1, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int rc = parse_duration(cases[i].in, &v);

		TH_EQ_INT(rc, cases[i].rc);
		if (rc == 0)
			TH_EQ_INT(v, cases[i].want);
	}
}

TH_TEST(parse_uint_range)
{
	uint64_t v;

	TH_EQ_INT(parse_uint("64", 1, 4096, &v), 0);
	TH_EQ_INT(v, 64);
	TH_EQ_INT(parse_uint("0", 1, 4096, &v), -1);
	TH_EQ_INT(parse_uint("4097", 1, 4096, &v), -1);
	TH_EQ_INT(parse_uint("12a", 0, 100, &v), -1);
	TH_EQ_INT(parse_uint("-3", 0, 100, &v), -1);
}
