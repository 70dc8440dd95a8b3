/*
 * test_pass_io.c — the disturbance decision of a disk pass at its exact
 * bounds (core/pass_io.h), the /proc parsers, and the order-statistic
 * interval of a percentile from a known histogram (core/lat_hist.h).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/lat_hist.h"
#include "core/pass_io.h"
#include "th.h"

static struct pass_io checked(uint64_t own, uint64_t fr, uint64_t fw)
{
	struct pass_io p;

	memset(&p, 0, sizeof(p));
	p.checked = true;
	snprintf(p.dev, sizeof(p.dev), "vda");
	p.own_bytes = own;
	p.foreign_read_bytes = mu64_of(fr);
	p.foreign_write_bytes = mu64_of(fw);
	p.io_some_pct_before = mdbl_of(0);
	p.steal_pct = mdbl_of(0);
	return p;
}

/* 10% of the pass's own bytes: at the bound clean, one byte more disturbed */
TH_TEST(pass_io_foreign_frac_bound)
{
	struct pass_io p = checked(100000000, 0, 10000000);

	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p = checked(100000000, 0, 10000001);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	/* read and written bytes add up */
	p = checked(100000000, 5000000, 5000001);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
}

/* a small pass: the 8 MiB floor decides, not 10% of it */
TH_TEST(pass_io_foreign_min_bound)
{
	struct pass_io p = checked(1000000, 0, PASS_IO_FOREIGN_MIN_BYTES);

	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p = checked(1000000, 0, PASS_IO_FOREIGN_MIN_BYTES + 1);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
}

/* foreign requests: 10% of the pass's own and 2048, each at its bound clean */
TH_TEST(pass_io_foreign_ios_bounds)
{
	struct pass_io p = checked(100000000, 0, 0);

	p.own_ios = 100000;
	p.foreign_ios = mu64_of(10000);
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p.foreign_ios = mu64_of(10001);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	p.own_ios = 1000;
	p.foreign_ios = mu64_of(PASS_IO_FOREIGN_MIN_IOS);
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p.foreign_ios = mu64_of(PASS_IO_FOREIGN_MIN_IOS + 1);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	TH_EQ_STR(p.why, "2049 foreign I/O requests on vda during the pass beside its 1000");
	/* not counted (a seq pass): never judged */
	p.foreign_ios = (struct mu64){ 0, false };
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
}

TH_TEST(pass_io_why_names_device_and_amounts)
{
	struct pass_io p = checked(80000000, 0, 412000000);

	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	TH_EQ_STR(p.why, "foreign I/O on vda during the pass: 412 MB written beside the pass's 80 MB");
	p = checked(80000000, 30000000, 412000000);
	pass_io_decide(&p);
	TH_EQ_STR(p.why, "foreign I/O on vda during the pass: 412 MB written, 30 MB read beside "
		  "the pass's 80 MB");
	/* under 1 MB the smaller direction is only in the total */
	p = checked(80000000, 999999, 412000000);
	pass_io_decide(&p);
	TH_EQ_STR(p.why, "foreign I/O on vda during the pass: 413 MB written beside the pass's 80 MB");
}

TH_TEST(pass_io_pressure_and_steal_bounds)
{
	struct pass_io p = checked(100000000, 0, 0);

	p.io_some_pct_before = mdbl_of(PASS_IO_SOME_MAX_PCT);
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p.io_some_pct_before = mdbl_of(PASS_IO_SOME_MAX_PCT + 0.01);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	TH_CHECK(strstr(p.why, "io pressure 10% (some)") != NULL);
	p = checked(100000000, 0, 0);
	p.steal_pct = mdbl_of(PASS_IO_STEAL_MAX_PCT);
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	p.steal_pct = mdbl_of(PASS_IO_STEAL_MAX_PCT + 0.01);
	pass_io_decide(&p);
	TH_CHECK(p.disturbed);
	TH_EQ_STR(p.why, "steal 10% during the pass");
}

/* an unknown device is "not checked", never clean-and-silent */
TH_TEST(pass_io_unknown_device_not_checked)
{
	struct pass_io p;

	memset(&p, 0, sizeof(p));
	p.checked = true;
	p.io_some_pct_before = mdbl_of(0);
	pass_io_decide(&p);
	TH_CHECK(!p.disturbed);
	TH_EQ_STR(p.why, "foreign I/O not checked: device unknown");
	memset(&p, 0, sizeof(p));
	pass_io_decide(&p);
	TH_EQ_STR(p.why, "disturbance not checked");
}

TH_TEST(pass_io_allowance_and_foreign)
{
	TH_EQ_INT(pass_io_allowance(1000000000, 0), 20000000);
	TH_EQ_INT(pass_io_allowance(0, 10), 10 * 24 * 1024);
	TH_EQ_INT(pass_io_foreign(100, 80, 20), 0);
	TH_EQ_INT(pass_io_foreign(101, 80, 20), 1);
	TH_EQ_INT(pass_io_foreign(50, 80, 20), 0);
}

TH_TEST(pass_io_diskstats_parse)
{
	static const char text[] =
		"   7       0 loop0 3350091 449 39926216 453668 1152086 46773 53106428 946088 0 2 3\n"
		" 254       0 vda 100 5 2000 7 300 9 4000 11 0 12 13\n"
		" 254       1 vda1 10 0 200 1 30 0 400 2 0 3 4 0 0 0 0\n";
	struct pass_io_disk d;

	TH_CHECK(pass_io_diskstats_find(text, "vda1", &d));
	TH_EQ_INT(d.rd_ios, 10);
	TH_EQ_INT(d.rd_sect, 200);
	TH_EQ_INT(d.wr_ios, 30);
	TH_EQ_INT(d.wr_sect, 400);
	TH_CHECK(pass_io_diskstats_find(text, "vda", &d));
	TH_EQ_INT(d.rd_sect, 2000);
	TH_EQ_INT(d.wr_sect, 4000);
	TH_CHECK(!pass_io_diskstats_find(text, "vdb", &d));
	TH_CHECK(!pass_io_diskstats_find("254 0 vda 1 2\n", "vda", &d));
}

TH_TEST(pass_io_psi_parse)
{
	uint64_t t = 0;

	TH_CHECK(pass_io_psi_some_total("some avg10=45.17 avg60=19.79 avg300=5.22 total=1620097088\n"
					"full avg10=7.66 avg60=4.65 avg300=1.42 total=346895964\n", &t));
	TH_EQ_INT(t, 1620097088);
	TH_CHECK(!pass_io_psi_some_total("full avg10=7.66 total=3\n", &t));
}

/*
 * 1000 samples (values below 128 ns are their own buckets): 980 at 10,
 * 5 at 20 (ranks 981-985), 10 at 30 (986-995), 2 at 60 (996-997), 3 at
 * 100. p99 (fio: first bucket reaching 990) = 30. Ranks 990 -/+ 1.96 x
 * sqrt(9.9) = 983.83 / 996.17 -> 983 (value 20) and 997 (value 60):
 * half-width max(30 - 20, 60 - 30) = 30.
 */
TH_TEST(lat_bins_p99_interval_known)
{
	static struct lat_hist h;
	uint64_t lo = 0, hi = 0, v;
	double u;

	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 980; i++)
		lat_hist_add(&h, 10);
	for (int i = 0; i < 5; i++)
		lat_hist_add(&h, 20);
	for (int i = 0; i < 10; i++)
		lat_hist_add(&h, 30);
	for (int i = 0; i < 2; i++)
		lat_hist_add(&h, 60);
	for (int i = 0; i < 3; i++)
		lat_hist_add(&h, 100);
	v = lat_hist_percentile(&h, 99.0);
	TH_EQ_INT(v, 30);
	TH_EQ_INT(lat_bins_at_rank(h.bucket, 983), 20);
	TH_EQ_INT(lat_bins_at_rank(h.bucket, 985), 20);
	TH_EQ_INT(lat_bins_at_rank(h.bucket, 986), 30);
	TH_EQ_INT(lat_bins_at_rank(h.bucket, 997), 60);
	TH_EQ_INT(lat_bins_at_rank(h.bucket, 1001), 0);
	u = lat_bins_pct_uncert(h.bucket, h.st.n, 99.0, v, &lo, &hi);
	TH_EQ_INT(lo, 983);
	TH_EQ_INT(hi, 997);
	TH_CHECK(u == 30.0);
}

/* p99's upper rank: ceil(n 0.99 + 1.96 sqrt(n 0.0099)) is 381 at n = 380 (past n) and 381 at 381 */
TH_TEST(lat_bins_p99_too_few)
{
	static struct lat_hist h;
	uint64_t hi = 0;

	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 380; i++)
		lat_hist_add(&h, (uint64_t)(i % 100));
	TH_CHECK(isinf(lat_bins_pct_uncert(h.bucket, h.st.n, 99.0, 99, NULL, &hi)));
	TH_EQ_INT(hi, 381);
	lat_hist_add(&h, 50);
	TH_CHECK(isfinite(lat_bins_pct_uncert(h.bucket, h.st.n, 99.0, 99, NULL, &hi)));
	TH_EQ_INT(hi, 381);
	TH_CHECK(isnan(lat_bins_pct_uncert(h.bucket, 0, 99.0, 0, NULL, NULL)));
}
