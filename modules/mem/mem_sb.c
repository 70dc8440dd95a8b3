/*
 * mem_sb.c — the sysbench-comparable figure: `sysbench memory
 * --memory-block-size=1M --memory-access-mode=seq --memory-oper=read|write`
 * with one thread. Like sysbench's global scope, one 1 MiB block is passed
 * over again and again with 8-byte volatile loads or stores (so it mostly
 * stays in cache: cache-heavy), each pass is one event, and MiB/s = events
 * x block / 2^20 / elapsed. As in sysbench 1.0.20 (Debian 12's), a pass
 * touches every word of the block and a write stores the count of words
 * left to the block's end (so the store loop carries that arithmetic too).
 * The thread's CPU time over both passes against their wall time is the
 * figure's CPU share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/proc_stat.h"
#include "mem_kern.h"
#include "mem_priv.h"

static double sb_pass(const struct bench_ctx *ctx, uint64_t *buf, bool write, double seconds)
{
	size_t words = MEM_SB_BLOCK / sizeof(uint64_t);
	uint64_t events = 0, t0 = mono_ns(), t1 = t0, limit = (uint64_t)(seconds * 1e9);

	while (t1 - t0 < limit && !bench_stopped(ctx)) {
		if (write)
			mem_k_sb_write(buf, words);
		else
			mem_k_sb_read(buf, words);
		events++;
		t1 = mono_ns();
	}
	if (t1 <= t0 || !events)
		return -1;
	return (double)events * (double)MEM_SB_BLOCK / (double)(1 << 20) / ((double)(t1 - t0) / 1e9);
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int mem_sysbench_run(const struct bench_ctx *ctx, double seconds, int cpu, double quota_cpus,
		     struct mem_sysbench *out, char *err, size_t errlen)
{
	uint64_t *buf = NULL;
	struct proc_stat *ps = calloc(2, sizeof(*ps));
	double r, w, c0, c1, w0;
	int e;

	memset(out, 0, sizeof(*out));
	if (!ps) {
		snprintf(err, errlen, "sysbench-style block: calloc: %s", strerror(ENOMEM));
		return -1;
	}
	if ((e = posix_memalign((void **)&buf, 4096, MEM_SB_BLOCK)) != 0) {
		snprintf(err, errlen, "sysbench-style block: posix_memalign: %s", strerror(e));
		free(ps);
		return -1;
	}
	memset(buf, 0, MEM_SB_BLOCK);
	proc_stat_read(ctx->root, &ps[0]);
	c0 = thread_cpu_s();
	w0 = mono_s();
	r = sb_pass(ctx, buf, false, seconds);
	w = sb_pass(ctx, buf, true, seconds);
	c1 = thread_cpu_s();
	if (c0 >= 0 && c1 >= c0)
		pass_cpu_set_share_q(&out->cpu, c1 - c0, 1, quota_cpus, mono_s() - w0);
	proc_stat_read(ctx->root, &ps[1]);
	out->cpu.steal_pct = proc_stat_steal_pct(proc_stat_diff(&ps[0], &ps[1], &cpu, cpu >= 0));
	free(ps);
	free(buf);
	out->present = true;
	out->seconds = seconds;
	if (r > 0)
		out->read_mibps = mdbl_of(r);
	if (w > 0)
		out->write_mibps = mdbl_of(w);
	return 0;
}
