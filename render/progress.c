/*
 * progress.c — the live status line on stderr. On a terminal a thread
 * redraws one line per step 4 times a second from the counters the
 * measuring threads publish (progress.h); elsewhere one plain line per
 * step start and end, never a control code.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/options.h"
#include "core/plan.h"
#include "progress.h"
#include "render.h"

#define LINE_MAX_W 200
#define EMA 0.5 /* weight of the newest tick in the shown rates */

void progress_fmt_eta(char *buf, size_t n, double s)
{
	unsigned long long t;

	if (!isfinite(s) || s < 0) {
		snprintf(buf, n, "--m:--s");
		return;
	}
	t = (unsigned long long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, n, "%lluh%02llum:%02llus", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, n, "%02llum:%02llus", t / 60, t % 60);
}

/* "[r=123MiB/s,w=41.2MiB/s]" for the directions that moved; "" when none did. */
static void fmt_rates(char *buf, size_t n, const double v[2], bool pow2, const char *unit,
		      const char *suffix)
{
	static const char dn[2] = { 'r', 'w' };
	size_t len = 0;
	char num[32];

	buf[0] = '\0';
	for (int d = 0; d < 2 && len < n; d++) {
		if (!(v[d] > 0))
			continue;
		fmt_num2str(num, sizeof(num), v[d], pow2, unit);
		len += (size_t)snprintf(buf + len, n - len, "%s%c=%s", len ? "," : "[", dn[d], num);
	}
	if (len && len < n)
		snprintf(buf + len, n - len, "%s]", suffix);
}

void progress_fmt_line(char *buf, size_t n, unsigned width, const char *module, const char *what,
		       double pct, const double iops[2], const double bps[2], bool ramp,
		       double eta_step, double eta_total)
{
	static const double none[2] = { 0, 0 };
	char tail[256], p[24], bw[64], io[64], e1[24], e2[24], head[LINE_MAX_W];
	bool pow2 = strcmp(module, "rand") == 0; /* fio's MiB/s there, dd's MB/s for seq */
	size_t hl, hs, room = 0;
	char *in;

	if (isfinite(pct))
		snprintf(p, sizeof(p), "[%.1f%%]", pct < 0 ? 0 : pct > 100 ? 100 : pct);
	else
		snprintf(p, sizeof(p), "[--.-%%]");
	progress_fmt_eta(e1, sizeof(e1), eta_step);
	progress_fmt_eta(e2, sizeof(e2), eta_total);
	snprintf(head, sizeof(head), "%s %s", module, what);
	hl = strlen(head);
	/* the directory is the first thing to go */
	in = strstr(head, " in ");
	hs = in ? (size_t)(in - head) : hl;
	if (width > LINE_MAX_W)
		width = LINE_MAX_W;
	if (width < 20)
		width = 20;
	/* narrow terminal: drop the bandwidth, then the IOPS, before the name */
	for (int drop = 0; drop < 3; drop++) {
		fmt_rates(bw, sizeof(bw), drop >= 1 ? none : bps, pow2, "B/s", "");
		fmt_rates(io, sizeof(io), pow2 && drop < 2 ? iops : none, false, NULL, " IOPS");
		snprintf(tail, sizeof(tail), " %s%s%s%s[eta %s, total %s]", p, ramp ? "[ramp]" : "", bw,
			 io, e1, e2);
		/* the last column stays free: a full line wraps on some terminals */
		room = width - 1 > strlen(tail) ? width - 1 - strlen(tail) : 0;
		if (room >= hs || room >= 28)
			break;
	}
	if (hl > room && hs <= room) {
		head[hs] = '\0';
		hl = hs;
	}
	if (hl > room) {
		if (room > 3) {
			head[room - 3] = '\0';
			snprintf(buf, n, "%s...%s", head, tail);
		} else {
			snprintf(buf, n, "%.*s", (int)(width - 1), tail + 1);
		}
		return;
	}
	snprintf(buf, n, "%s%s", head, tail);
}

void progress_plan_work(const struct bench_ctx *ctx, int mod, uint64_t *bytes, uint64_t *ns)
{
	const struct bench_plan *pl = ctx->plan;
	unsigned ndirs = ctx->opts->ndirs ? ctx->opts->ndirs : 1;
	uint64_t maxsz = 0;

	*bytes = *ns = 0;
	if (!options_module_selected(ctx->opts, mod))
		return;
	if (mod == MOD_seq) {
		/* the runs, then one read of the last file */
		*bytes = (uint64_t)ndirs * ((uint64_t)pl->seq.runs + 1) * pl->seq.size;
	} else if (mod == MOD_mem) {
		/* what each part of a default run took on a 2-vCPU VM (mem.h) */
		static const uint64_t part_ns[MEM_NTESTS] = { MEM_PLANNED_STREAM_NS,
							      MEM_PLANNED_LATENCY_NS,
							      MEM_PLANNED_SYSBENCH_NS };
		unsigned asked = mem_tests_asked(ctx->opts);

		for (int i = 0; i < MEM_NTESTS; i++)
			if (asked & (1u << i))
				*ns += part_ns[i] * (ctx->opts->mem_strict ? MEM_PLANNED_STRICT : 1);
	} else if (mod == MOD_rand) {
		for (unsigned i = 0; i < pl->nrand; i++) {
			if (pl->rand[i].size > maxsz)
				maxsz = pl->rand[i].size;
			*ns += pl->rand[i].ramp_ns + pl->rand[i].runtime_ns;
		}
		*bytes = (uint64_t)ndirs * maxsz; /* the layout of each dir's file */
		*ns *= ndirs;
	} else if (mod == MOD_fsync) {
		/* the sample's time cap; the whole recipe counts in bytes */
		if (pl->fsync.full)
			*bytes = (uint64_t)ndirs * pl->fsync.size;
		else
			*ns = (uint64_t)ndirs * pl->fsync.time_ns;
	} else if (mod == MOD_cpu) {
		/* two prime passes, four crypto passes of 8% each */
		*ns = pl->cpu.time_ns * 2 + pl->cpu.time_ns * 32 / 100;
	} else if (mod == MOD_cache) {
		/* the storage part's budget: it runs to its cap unless every size is measured early */
		*ns = plan_storage_ns(&pl->storage);
	}
}

/* "2 min 5 s", "40 s" */
static void fmt_dur(char *buf, size_t n, uint64_t ns)
{
	unsigned long long s = (ns + 500000000ULL) / 1000000000ULL;

	if (s >= 60 && s % 60)
		snprintf(buf, n, "%llu min %llu s", s / 60, s % 60);
	else if (s >= 60)
		snprintf(buf, n, "%llu min", s / 60);
	else
		snprintf(buf, n, "%llu s", s);
}

void progress_plan_line(const struct bench_ctx *ctx, char *buf, size_t n)
{
	uint64_t b, ns, tot_b = 0, tot_ns = 0;
	size_t len;
	char d[32];

	len = (size_t)snprintf(buf, n, "plan:");
	for (int m = 0; m < MOD_COUNT && len < n; m++) {
		progress_plan_work(ctx, m, &b, &ns);
		if (!b && !ns)
			continue;
		tot_b += b;
		tot_ns += ns;
		fmt_dur(d, sizeof(d), ns);
		len += (size_t)snprintf(buf + len, n - len, " %s", m == MOD_cache ? "storage" : bench_modules[m]->name);
		if (b && len < n)
			len += (size_t)snprintf(buf + len, n - len, " %.1f GiB", (double)b / (double)(1ULL << 30));
		if (ns && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s%s", b ? " + " : " ", d,
						m == MOD_cache ? " (at most)" : "");
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, ",");
	}
	if (!(tot_b || tot_ns)) {
		buf[0] = '\0'; /* nothing planned */
		return;
	}
	if (len >= n)
		return;
	buf[len - 1] = '\0'; /* the last comma */
	fmt_dur(d, sizeof(d), tot_ns);
	len--;
	if (tot_b)
		snprintf(buf + len, n - len, ": %s plus the time %.1f GiB of I/O takes", d,
			 (double)tot_b / (double)(1ULL << 30));
	else
		snprintf(buf + len, n - len, ": about %s", d);
}

/* Planned bytes one byte-counted step of mod stands for (scaled-down runs count whole). */
static uint64_t step_unit_bytes(const struct bench_ctx *ctx, int mod)
{
	uint64_t maxsz = 0;

	if (mod == MOD_seq)
		return ctx->plan->seq.size;
	if (mod == MOD_fsync)
		return ctx->plan->fsync.size;
	if (mod == MOD_rand)
		for (unsigned i = 0; i < ctx->plan->nrand; i++)
			if (ctx->plan->rand[i].size > maxsz)
				maxsz = ctx->plan->rand[i].size;
	return maxsz;
}

static unsigned term_width(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* Clears the status line; mu held. */
static void clear_line(struct bench_live *l)
{
	if (l->line_shown) {
		fputs("\r\033[2K", l->out);
		fflush(l->out);
		l->line_shown = false;
	}
}

/* One sample of the counters and one redraw; mu held. */
static void draw(struct bench_live *l)
{
	uint64_t ios[2] = { 0, 0 }, bytes[2] = { 0, 0 };
	double now = mono_s(), el = now - l->step_t0, dt = now - l->prev_t;
	double pct = NAN, eta = NAN, total = NAN, avg_bps = 0, rate, left_s = 0;
	uint64_t left_b = 0, done;
	char line[LINE_MAX_W + 8];
	size_t ml;

	for (unsigned i = 0; i < LIVE_SLOTS; i++)
		for (int d = 0; d < 2; d++) {
			ios[d] += atomic_load_explicit(&l->slot[i].ios[d], memory_order_relaxed);
			bytes[d] += atomic_load_explicit(&l->slot[i].bytes[d], memory_order_relaxed);
		}
	if (dt > 0.05) {
		for (int d = 0; d < 2; d++) {
			/* a counter that went down was reset at the end of the ramp */
			uint64_t di = ios[d] >= l->prev_ios[d] ? ios[d] - l->prev_ios[d] : ios[d];
			uint64_t db = bytes[d] >= l->prev_bytes[d] ? bytes[d] - l->prev_bytes[d] : bytes[d];

			l->rate_iops[d] = EMA * (double)di / dt + (1 - EMA) * l->rate_iops[d];
			l->rate_bps[d] = EMA * (double)db / dt + (1 - EMA) * l->rate_bps[d];
			l->prev_ios[d] = ios[d];
			l->prev_bytes[d] = bytes[d];
		}
		l->prev_t = now;
	}
	done = bytes[0] + bytes[1];
	if (l->step_bytes) {
		pct = 100.0 * (double)done / (double)l->step_bytes;
		if (el > 0 && done)
			avg_bps = (double)done / el;
		if (avg_bps > 0)
			eta = (double)(l->step_bytes > done ? l->step_bytes - done : 0) / avg_bps;
	} else if (l->step_ns) {
		pct = 100.0 * el * 1e9 / (double)l->step_ns;
		eta = (double)l->step_ns / 1e9 - el;
		if (eta < 0)
			eta = 0;
	}
	for (int m = 0; m < MOD_COUNT; m++) {
		left_b += l->left_bytes[m];
		left_s += (double)l->left_ns[m] / 1e9;
	}
	/*
	 * Later modules' bytes at the rate whole steps took (writes with their
	 * flush), not at this step's first second: buffered writes start at
	 * page-cache speed and made the plan of the rand layout 3x too short.
	 */
	rate = l->bytes_rate > 0 ? l->bytes_rate : avg_bps;
	if (isfinite(eta) && (left_b == 0 || rate > 0))
		total = eta + left_s + (left_b ? (double)left_b / rate : 0);
	progress_fmt_line(line, sizeof(line), term_width(l->out), l->module, l->what, pct,
			  l->rate_iops, l->rate_bps, l->step_ramp_ns && el * 1e9 < (double)l->step_ramp_ns,
			  eta, total);
	ml = strncmp(line, l->module, strlen(l->module)) == 0 ? strlen(l->module) : 0;
	fprintf(l->out, "\r\033[2K%s%.*s%s%s", l->color ? "\033[1;36m" : "", (int)ml, line,
		l->color ? "\033[0m" : "", line + ml);
	fflush(l->out);
	l->line_shown = true;
}

static void *progress_main(void *arg)
{
	struct bench_live *l = arg;
	struct timespec ts;

	pthread_mutex_lock(&l->mu);
	while (!l->quit) {
		if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
			break;
		ts.tv_nsec += LIVE_TICK_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!l->quit) {
			int r = pthread_cond_timedwait(&l->cv, &l->mu, &ts);

			if (r == ETIMEDOUT)
				break;
		}
		if (!l->quit && l->active && !bench_stopped(l->ctx))
			draw(l);
	}
	clear_line(l);
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

int progress_start(struct bench_live *l, const struct bench_ctx *ctx, FILE *out, bool tty,
		   bool color, bool quiet)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int r;

	memset(l, 0, sizeof(*l));
	l->out = out;
	l->tty = tty;
	l->color = color && tty;
	l->quiet = quiet;
	l->ctx = ctx;
	for (int m = 0; m < MOD_COUNT; m++)
		progress_plan_work(ctx, m, &l->left_bytes[m], &l->left_ns[m]);
	r = pthread_mutex_init(&l->mu, NULL);
	if (r)
		return -r;
	r = pthread_condattr_init(&ca);
	if (r == 0) {
		r = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		if (r == 0)
			r = pthread_cond_init(&l->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (r) {
		pthread_mutex_destroy(&l->mu);
		l->tty = false; /* no thread: plain lines */
		return -r;
	}
	if (!tty || quiet)
		return 0;
	/* signals go to the main and job threads, which check the stop flag */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&l->tid, NULL, progress_main, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		l->tty = false; /* plain lines then */
		return 0;
	}
	l->running = true;
	return 0;
}

static void take_planned(struct bench_live *l, const struct bench_ctx *ctx,
			 const struct bench_step *st)
{
	int m = bench_module_find(st->module);
	uint64_t b;

	if (m < 0)
		return;
	if (st->bytes) {
		b = step_unit_bytes(ctx, m);
		if (b < st->bytes)
			b = st->bytes;
		l->left_bytes[m] -= b < l->left_bytes[m] ? b : l->left_bytes[m];
	}
	if (st->ns)
		l->left_ns[m] -= st->ns < l->left_ns[m] ? st->ns : l->left_ns[m];
}

void progress_step(const struct bench_ctx *ctx, const struct bench_step *st, int phase)
{
	struct bench_live *l = ctx->live;
	double el;

	if (!l || l->quiet)
		return;
	pthread_mutex_lock(&l->mu);
	if (phase == 0) {
		for (unsigned i = 0; i < LIVE_SLOTS; i++)
			for (int d = 0; d < 2; d++) {
				atomic_store_explicit(&l->slot[i].ios[d], 0, memory_order_relaxed);
				atomic_store_explicit(&l->slot[i].bytes[d], 0, memory_order_relaxed);
			}
		snprintf(l->module, sizeof(l->module), "%s", st->module);
		snprintf(l->what, sizeof(l->what), "%s", st->what);
		l->step_bytes = st->bytes;
		l->step_ns = st->ns;
		l->step_ramp_ns = st->ramp_ns;
		l->step_t0 = l->prev_t = mono_s();
		memset(l->prev_ios, 0, sizeof(l->prev_ios));
		memset(l->prev_bytes, 0, sizeof(l->prev_bytes));
		memset(l->rate_iops, 0, sizeof(l->rate_iops));
		memset(l->rate_bps, 0, sizeof(l->rate_bps));
		take_planned(l, ctx, st);
		l->active = true;
		if (!l->running)
			fprintf(l->out, "vpsbench: %s: %s ...\n", st->module, st->what);
	} else {
		el = mono_s() - l->step_t0;
		if (l->active && l->step_bytes && el > 0) {
			uint64_t done = 0;

			for (unsigned i = 0; i < LIVE_SLOTS; i++)
				for (int d = 0; d < 2; d++)
					done += atomic_load_explicit(&l->slot[i].bytes[d],
								     memory_order_relaxed);
			if (done)
				l->bytes_rate = (double)done / el;
		}
		l->active = false;
		clear_line(l);
		if (l->running)
			fprintf(l->out, "vpsbench: %s%s%s: %s: done in %.1f s\n",
				l->color ? "\033[1;36m" : "", st->module, l->color ? "\033[0m" : "",
				st->what, el);
		else
			fprintf(l->out, "vpsbench: %s: %s done (%.1f s)\n", st->module, st->what, el);
	}
	fflush(l->out);
	pthread_mutex_unlock(&l->mu);
}

/* A notice line between live redraws: the status line cleared first, redrawn at the next tick. */
void progress_notice(struct bench_live *l, const char *line)
{
	if (!l || l->quiet)
		return;
	pthread_mutex_lock(&l->mu);
	clear_line(l);
	fprintf(l->out, "vpsbench: %s\n", line);
	fflush(l->out);
	pthread_mutex_unlock(&l->mu);
}

void progress_module_done(struct bench_live *l, int mod)
{
	if (!l || mod < 0 || mod >= MOD_COUNT)
		return;
	pthread_mutex_lock(&l->mu);
	l->left_bytes[mod] = 0;
	l->left_ns[mod] = 0;
	pthread_mutex_unlock(&l->mu);
}

void progress_stop(struct bench_live *l)
{
	if (!l)
		return;
	if (l->running) {
		pthread_mutex_lock(&l->mu);
		l->quit = true;
		pthread_cond_broadcast(&l->cv);
		pthread_mutex_unlock(&l->mu);
		pthread_join(l->tid, NULL);
		l->running = false;
	}
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
}
