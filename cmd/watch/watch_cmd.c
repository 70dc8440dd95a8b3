/*
 * watch_cmd.c — `vpsbench watch`: checks the command line and the state
 * directory (watch_opts.c), locks it (watch_lock.c), takes the baseline
 * (watch_baseline.c), serves /metrics (watch_http.c), and runs a probe
 * round every --every with jitter: the idle gate and budget (watch_gate.c),
 * the probes (watch_probe.c; the disk ones on watch_probe_worker.c's thread,
 * with a deadline) with the wake-up sampler paused (watch_sampler.c), the
 * counters' deltas (watch_deltas.c), drift (watch_drift.c), then the
 * history line (watch_history.c) and the metrics (watch_metrics.c).
 * `--report` is watch_report.c's, `--status` watch_status_cmd.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_base_state.h"
#include "cmd/watch/watch_baseline.h"
#include "cmd/watch/watch_cmd.h"
#include "cmd/watch/watch_deltas.h"
#include "cmd/watch/watch_drift.h"
#include "cmd/watch/watch_gate.h"
#include "cmd/watch/watch_history.h"
#include "cmd/watch/watch_http.h"
#include "cmd/watch/watch_lock.h"
#include "cmd/watch/watch_metrics.h"
#include "cmd/watch/watch_opts.h"
#include "cmd/watch/watch_probe.h"
#include "cmd/watch/watch_probe_worker.h"
#include "cmd/watch/watch_report.h"
#include "cmd/watch/watch_sampler.h"
#include "cmd/watch/watch_status_cmd.h"
#include "core/clock.h"
#include "report/atomic_file.h"

#define GATE_MIN_WINDOW_NS (250ULL * 1000000ULL)

static volatile sig_atomic_t stop_flag, hup_flag;
/* readable once a stop signal came: a wait on another fd (the disk probe's) ends with it */
static int stop_pipe[2] = { -1, -1 };
/* the disk thread stuck in a call past its wait at exit: the probes' buffers stay */
#define WORKER_EXIT_WAIT_NS (300ULL * 1000000ULL)

static void on_signal(int sig)
{
	if (sig == SIGHUP) {
		hup_flag = 1;
	} else {
		int e = errno;

		stop_flag = 1;
		if (stop_pipe[1] >= 0 && write(stop_pipe[1], "x", 1) < 0)
			(void)0; /* full: readable already */
		errno = e;
	}
}

static const int watched_sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* No SA_RESTART: a signal ends the main thread's sleep or wait at once. */
static int install_signals(char *err, size_t errlen)
{
	struct sigaction sa;

	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(watched_sigs) / sizeof(watched_sigs[0]); i++)
		if (sigaction(watched_sigs[i], &sa, NULL) < 0) {
			snprintf(err, errlen, "sigaction: %s", strerror(errno));
			return -1;
		}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* Blocks (true) or unblocks the watched signals in this thread: threads started meanwhile keep them blocked. */
static void mask_signals(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(watched_sigs) / sizeof(watched_sigs[0]); i++)
		sigaddset(&set, watched_sigs[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/*
 * mkdir -p: 0, or -1 with err. *made: the length of the first directory of
 * path this call created (each deeper one was created too), 0 none.
 */
static int make_dirs(const char *path, size_t *made, char *err, size_t errlen)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t n = strlen(path);

	if (n >= sizeof(buf)) {
		snprintf(err, errlen, "--state-dir %s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0755) == 0) {
				if (!*made)
					*made = (size_t)(p - buf);
			} else if (errno != EEXIST) {
				snprintf(err, errlen, "--state-dir: mkdir %s: %s", buf,
					 strerror(errno));
				return -1;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--state-dir %s: %s", path,
			 errno && !S_ISDIR(st.st_mode) ? "not a directory" : strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Creates and removes a file in dir: access(W_OK) says yes to root on a
 * directory root cannot write (NFS root_squash, a full inode table, a
 * security module), and the watcher then failed after its server started.
 */
static int write_check(const char *opt, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/.vpsbench-write-check-%ld", dir, (long)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s %s: not writable: creating a file there: %s", opt, dir,
			 strerror(errno));
		return -1;
	}
	close(fd);
	if (unlink(path) < 0) {
		snprintf(err, errlen, "%s %s: not writable: removing %s: %s", opt, dir, path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int check_dir(const char *opt, const char *path, struct stat *out, char *err,
		     size_t errlen)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s %s: %s", opt, path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: not a directory", opt, path);
		return -1;
	}
	if (out)
		*out = st;
	return write_check(opt, path, err, errlen);
}

/* Every --dir a writable directory, none the same directory as another under a second name. */
static int check_dirs(const struct watch_opts *o, char *err, size_t errlen)
{
	struct stat st[WATCH_MAX_DIRS];

	for (unsigned i = 0; i < o->ndirs; i++) {
		if (check_dir("--dir", o->dirs[i], &st[i], err, errlen) < 0)
			return -1;
		for (unsigned k = 0; k < i; k++)
			if (st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino) {
				snprintf(err, errlen, "--dir %s: the same directory as --dir %s",
					 o->dirs[i], o->dirs[k]);
				return -1;
			}
	}
	return 0;
}

/* Removes what make_dirs created: the deepest first, up to the first it made (empty ones only). */
static void remove_made(const char *path, size_t made)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (!made || n >= sizeof(buf))
		return;
	memcpy(buf, path, n + 1);
	while (n >= made) {
		char *slash;

		if (rmdir(buf) < 0)
			return;
		slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return;
		*slash = '\0';
		n = strlen(buf);
	}
}

struct watcher {
	struct watch_opts o;
	struct watch_history hist;
	struct watch_http http;
	struct watch_sampler sampler;
	/* one probe file and disk thread per --dir ([0]: the first, or the state dir), so a
	 * hung disk does not hold another's probes */
	unsigned ndisks;
	struct watch_probes probes[WATCH_MAX_DIRS];
	struct watch_probe_worker worker[WATCH_MAX_DIRS];
	const char *disk_dir[WATCH_MAX_DIRS];
	struct watch_drift drift;
	struct watch_state state;
	struct watch_snap snap[2];
	bool prom_failing;
	bool hist_failing;
	uint64_t rng;
	struct watch_base_report rep; /* the baseline report's figures */
	bool rep_loaded;
	char rep_hash[17];            /* its FNV-1a, which drift_baseline.json names */
};

static void save_baselines(struct watcher *w)
{
	char err[PATH_MAX + 512];

	if (watch_base_state_save(w->o.state_dir, &w->drift, w->rep_hash,
				  w->o.dir ? w->o.dir : w->o.state_dir, err, sizeof(err)) < 0)
		fprintf(stderr, "vpsbench: watch: drift_baseline.json: %s\n", err);
}

/* a baseline learnt in this round is kept at once */
static void save_learnt(struct watcher *w)
{
	if (!w->drift.learnt)
		return;
	w->drift.learnt = false;
	save_baselines(w);
}

static void handle_hup(struct watcher *w)
{
	char err[512];

	if (!hup_flag)
		return;
	hup_flag = 0;
	if (watch_history_reopen(&w->hist, err, sizeof(err)) < 0)
		fprintf(stderr, "vpsbench: watch: SIGHUP: %s\n", err);
}

/* Sleeps until mono ns target; false when stopped. SIGHUP reopens the history meanwhile. */
static bool sleep_until(struct watcher *w, uint64_t target)
{
	struct timespec ts = { (time_t)(target / 1000000000ULL), (long)(target % 1000000000ULL) };

	while (!stop_flag) {
		int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		handle_hup(w);
		if (r == 0)
			break;
		if (r != EINTR)
			break;
	}
	return !stop_flag;
}

static double jitter(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	/* uniform in [-0.1, 0.1] */
	return ((double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0 - 0.5) * 0.2;
}

static void skip_one(struct watch_probe_result *p, enum watch_skip_reason kind, const char *reason)
{
	memset(p, 0, sizeof(*p));
	p->status = WS_SKIPPED;
	p->skip = kind;
	snprintf(p->reason, sizeof(p->reason), "%s", reason);
}

static void skip_all(struct watch_round *r, enum watch_skip_reason kind, const char *reason)
{
	for (int i = 0; i < WP_COUNT; i++)
		skip_one(&r->probe[i], kind, reason);
	for (unsigned x = 0; x < r->nextra; x++)
		for (int i = 0; i < WP_DISK_COUNT; i++)
			skip_one(&r->extra[x].probe[i], kind, reason);
}

/* the round's slots for directory d's disk probes: the first's are r->probe[] */
static struct watch_probe_result *disk_slot(struct watch_round *r, unsigned d)
{
	return d == 0 ? r->probe : r->extra[d - 1].probe;
}

/* p's duration_s: from t0 to now when it ran; returns now (the next probe's t0) */
static uint64_t took(struct watch_probe_result *p, uint64_t t0)
{
	uint64_t t1 = mono_ns();

	if (p->status != WS_SKIPPED)
		p->duration_s = mdbl_of((double)(t1 - t0) / 1e9);
	return t1;
}

static void run_probes(struct watcher *w, struct watch_round *r)
{
	uint64_t half = w->o.probe_ns / 2, t;

	/* each directory's disk probes on its disk thread, in turn, each waited for until
	 * --probe-timeout (a round a signal cut short is not written) */
	for (unsigned d = 0; d < w->ndisks && !stop_flag; d++) {
		struct watch_probe_result *slot = disk_slot(r, d);

		watch_probe_worker_run(&w->worker[d], WP_RANDREAD, w->o.probe_ns,
				       w->o.probe_timeout_ns, stop_pipe[0], &slot[WP_RANDREAD]);
		if (!stop_flag)
			watch_probe_worker_run(&w->worker[d], WP_FSYNC, half, w->o.probe_timeout_ns,
					       stop_pipe[0], &slot[WP_FSYNC]);
	}
	t = mono_ns(); /* the workers timed the disk probes themselves */
	if (!stop_flag)
		watch_probe_prime(&stop_flag, half, &r->probe[WP_PRIME]);
	t = took(&r->probe[WP_PRIME], t);
	if (!stop_flag)
		watch_probe_dram(&stop_flag, &r->probe[WP_DRAM]);
	took(&r->probe[WP_DRAM], t);
}

static void write_outputs(struct watcher *w, const struct watch_round *r)
{
	char *line, *body, err[512];
	size_t len = 0, blen = 0;

	line = watch_history_line(r, &w->drift, &len);
	if (!line) {
		w->hist.errors++;
		fprintf(stderr, "vpsbench: watch: history line: out of memory\n");
	} else if (watch_history_append(&w->hist, line, len) < 0) {
		if (!w->hist_failing)
			fprintf(stderr, "vpsbench: watch: history: %s (probing goes on; counted in "
				"write_errors)\n", w->hist.last_err);
		w->hist_failing = true;
	} else if (w->hist_failing) {
		fprintf(stderr, "vpsbench: watch: history: written again (%llu write errors)\n",
			(unsigned long long)w->hist.errors);
		w->hist_failing = false;
	}
	free(line);
	w->state.write_errors = w->hist.errors;

	body = watch_metrics_render(&w->state, &blen);
	if (!body) {
		fprintf(stderr, "vpsbench: watch: metrics: out of memory\n");
		return;
	}
	if (w->o.prom_file) {
		struct atomic_file a;
		int ok = atomic_open(&a, w->o.prom_file, err, sizeof(err)) == 0;

		if (ok && fwrite(body, 1, blen, a.f) != blen) {
			snprintf(err, sizeof(err), "writing %.400s: %s", a.tmp, strerror(errno));
			atomic_abort(&a);
			ok = 0;
		}
		if (ok && atomic_commit(&a, err, sizeof(err)) < 0)
			ok = 0;
		if (!ok && !w->prom_failing)
			fprintf(stderr, "vpsbench: watch: --prom-file %s\n", err);
		w->prom_failing = !ok;
	}
	watch_http_publish(&w->http, body, blen);
}

/* The rounds until a signal or --rounds. */
static void watch_loop(struct watcher *w, uint64_t seq)
{
	struct watch_cpu_ticks since;
	uint64_t start = mono_ns(), due = start, last_start = 0, every = w->o.every_ns, done = 0;
	double probe_s = 0;
	uint64_t since_ns;
	int cur = 0;

	watch_snap_take(&w->snap[cur]);
	watch_cpu_ticks_read(&since);
	since_ns = mono_ns();
	watch_sampler_take(&w->sampler, &w->state.last.wake); /* from now on */
	while (!stop_flag) {
		struct watch_round r;
		enum watch_skip_reason kind;
		char reason[200];
		uint64_t t0, t1;

		/* the busy share is over the last second before the round (or what is left of the wait) */
		/* the busy share: over the last second, or the wait since the last round if shorter */
		if (due > mono_ns() + 1000000000ULL) {
			if (!sleep_until(w, due - 1000000000ULL))
				break;
			watch_cpu_ticks_read(&since);
			since_ns = mono_ns();
		}
		if (!sleep_until(w, due))
			break;
		/* at least a quarter second of ticks (10 ms each) behind the CPU gate: the first
		 * round's window is empty, and so is a round's that starts late (the last one
		 * overran its interval on a busy machine), which read as no CPU use and opened
		 * the gate beside stress-ng */
		if ((!last_start || w->o.max_cpu < 100) && mono_ns() < since_ns + GATE_MIN_WINDOW_NS &&
		    !sleep_until(w, since_ns + GATE_MIN_WINDOW_NS))
			break;
		memset(&r, 0, sizeof(r));
		r.nextra = w->ndisks - 1;
		for (unsigned x = 0; x < r.nextra; x++)
			r.extra[x].dir = w->disk_dir[x + 1];
		t0 = mono_ns();
		{
			struct timespec rt;

			clock_gettime(CLOCK_REALTIME, &rt);
			r.unix_time = (double)rt.tv_sec + (double)rt.tv_nsec / 1e9;
		}
		r.seq = ++seq;
		if (last_start)
			r.interval_s = mdbl_of((double)(t0 - last_start) / 1e9);
		last_start = t0;
		if (watch_gate_closed(&w->o, &since, probe_s, (double)(t0 - start) / 1e9, &kind,
				      reason, sizeof(reason))) {
			skip_all(&r, kind, reason);
		} else {
			r.gate_open = true;
			watch_sampler_pause(&w->sampler);
			run_probes(w, &r);
			watch_sampler_resume(&w->sampler);
		}
		t1 = mono_ns();
		probe_s += (double)(t1 - t0) / 1e9;
		if (stop_flag)
			break; /* a round cut short is not written: the history holds whole rounds */
		watch_snap_take(&w->snap[!cur]);
		watch_snap_delta(&w->snap[cur], &w->snap[!cur], &r.d);
		cur = !cur;
		watch_sampler_take(&w->sampler, &r.wake);
		r.write_errors = w->hist.errors;
		watch_drift_update(&w->drift, &r, stderr);
		save_learnt(w);
		watch_state_add(&w->state, &r);
		write_outputs(w, &r);
		if (w->o.rounds && ++done >= w->o.rounds)
			break;
		watch_cpu_ticks_read(&since);
		since_ns = mono_ns();
		due = t0 + (uint64_t)((double)every * (1.0 + jitter(&w->rng)));
	}
}

static int status_main(const struct watch_opts *o)
{
	struct watch_status_args a = {
		.state_dir = o->state_dir, .window = o->window, .window_given = o->window_given,
		.json = o->json, .now = NAN, .out = stdout,
	};

	return watch_status_run(&a);
}

static int report_main(const struct watch_opts *o)
{
	struct watch_report_args a = {
		.state_dir = o->state_dir, .since_s = o->since_s, .html_path = o->html, .out = stdout,
	};

	return watch_report_run(&a);
}

/*
 * Bad input, before anything starts: --baseline FILE, else a kept baseline.json (unless
 * --rebaseline runs a new one), is a report with at least one usable figure; one warning
 * line per figure it lacks, one line and 1 when it has none. 0, or 1.
 */
static int check_baseline(struct watcher *w)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 512];
	const char *p = w->o.baseline, *opt = "--baseline";
	struct stat st;

	snprintf(path, sizeof(path), "%s/baseline.json", w->o.state_dir);
	if (!p && !w->o.rebaseline && stat(path, &st) == 0) {
		p = path;
		opt = "baseline";
	}
	if (!p)
		return 0;
	if (watch_baseline_load(p, &w->rep, w->rep_hash, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: %s %s%s\n", opt, err,
			p == path ? " (remove it, give --baseline or --rebaseline)" : "");
		return 1;
	}
	if (watch_baseline_usable(&w->rep, p, NULL) == 0) {
		fprintf(stderr, "vpsbench: watch: %s %s: no usable figure, refused (no randread, "
			"fsync, prime or DRAM figure: %s)\n", opt, p, w->rep.why[WBF_RANDREAD]);
		return 1;
	}
	watch_baseline_usable(&w->rep, p, stderr);
	w->rep_loaded = true;
	return 0;
}

/* one line: every drift baseline, its source and time (what `watch --report` prints too) */
static void say_baselines(const struct watch_drift *d, unsigned k)
{
	fputs("vpsbench: watch: baselines:", stderr);
	for (int i = 0; i < WBF_N; i++) {
		const struct watch_drift_fig *f = &d->fig[i];
		char ts[32] = "unknown time";
		time_t sec = (time_t)f->time;
		struct tm tm;

		if (f->time > 0 && gmtime_r(&sec, &tm))
			strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (f->v.ok)
			fprintf(stderr, "%s %s %.1f %s (%s, %s)", i ? ";" : "", watch_base_fig_names[i],
				f->v.v, watch_base_fig_units[i], watch_base_src_str[f->src], ts);
		else if (i < WD_COUNT && d->learn[i])
			fprintf(stderr, "%s %s learnt from the first %u gate-open rounds", i ? ";" : "",
				watch_base_fig_names[i], k);
		else
			fprintf(stderr, "%s %s none", i ? ";" : "", watch_base_fig_names[i]);
	}
	fputc('\n', stderr);
}

/*
 * Randread like for like: the probe reads over a region the size of the report's rand file
 * when that is at most WATCH_PROBE_REGION_MAX and a tenth of the free space of --dir;
 * otherwise over its own 64 MiB, which the report's p99 is no baseline for (a larger file
 * misses more in the disk's and the host's caches): then its baseline is learnt from the
 * first K gate-open rounds. Said on stderr either way.
 */
static void randread_region(struct watcher *w, struct watch_drift_fig fig[WBF_N])
{
	const char *dir = w->o.dir ? w->o.dir : w->o.state_dir;
	double file = w->rep.rand_file_bytes, avail = 0;
	struct statvfs sv;
	char size[64];

	if (!fig[WBF_RANDREAD].v.ok)
		return;
	if (statvfs(dir, &sv) == 0)
		avail = (double)sv.f_bavail * (double)sv.f_frsize;
	if (file >= (double)(1ULL << 20) && file <= (double)WATCH_PROBE_REGION_MAX &&
	    fmod(file, (double)(1ULL << 20)) == 0 && file <= avail / 10) {
		watch_probe_set_region((uint64_t)file);
		fprintf(stderr, "vpsbench: watch: randread_p99_us: the probe reads over %.0f MiB, the "
			"size of the report's rand file: compared with its p99 (%.1f us)\n",
			file / 1048576.0, fig[WBF_RANDREAD].v.v);
		return;
	}
	if (isfinite(file))
		snprintf(size, sizeof(size), "a %.0f MiB file", file / 1048576.0);
	else
		snprintf(size, sizeof(size), "a file the report does not size");
	fprintf(stderr, "vpsbench: watch: randread_p99_us: the report's p99 (%.1f us) was read over "
		"%s, the probe reads its own %llu MiB%s: not like for like, so its baseline is "
		"learnt from the first %u gate-open rounds\n", fig[WBF_RANDREAD].v.v, size,
		(unsigned long long)(WATCH_PROBE_FILE_BYTES >> 20),
		!isfinite(file) || file > (double)WATCH_PROBE_REGION_MAX ? "" :
		" (a tenth of the free space is less than the report's file)", w->o.window);
	memset(&fig[WBF_RANDREAD], 0, sizeof(fig[WBF_RANDREAD]));
}

/*
 * The baseline's figures into fig: --baseline (copied to baseline.json), else baseline.json,
 * else (or with --rebaseline) one run; then the baselines learnt from rounds that
 * drift_baseline.json keeps for this baseline.json. 0, 1 bad input, 2.
 */
static int take_baseline(struct watcher *w, struct watch_drift_fig fig[WBF_N])
{
	char path[PATH_MAX + 32], err[PATH_MAX + 512];
	const char *dir = w->o.dir ? w->o.dir : w->o.state_dir;
	struct watch_base_saved saved;
	struct timespec now;
	int rc;

	clock_gettime(CLOCK_REALTIME, &now);
	memset(fig, 0, WBF_N * sizeof(*fig));
	snprintf(path, sizeof(path), "%s/baseline.json", w->o.state_dir);
	if (w->o.baseline) {
		/* checked before anything started; kept beside the history */
		if (watch_baseline_copy(w->o.baseline, path, err, sizeof(err)) < 0) {
			fprintf(stderr, "vpsbench: watch: --baseline: %s\n", err);
			return 2;
		}
	} else if (!w->rep_loaded) {
		fprintf(stderr, "vpsbench: watch: %s: running the default benchmark once "
			"(--dir %s) into %s\n", w->o.rebaseline ? "--rebaseline" : "no baseline yet",
			dir, path);
		watch_sampler_pause(&w->sampler);
		if (watch_baseline_run(path, dir, &stop_flag, err, sizeof(err)) < 0) {
			fprintf(stderr, "vpsbench: watch: %s\n", err);
			return 2;
		}
		watch_sampler_resume(&w->sampler);
		if (watch_baseline_load(path, &w->rep, w->rep_hash, err, sizeof(err)) < 0 ||
		    (watch_baseline_usable(&w->rep, path, stderr) == 0 &&
		     snprintf(err, sizeof(err), "%s: no usable figure", path) > 0)) {
			fprintf(stderr, "vpsbench: watch: the baseline run's report %s\n", err);
			unlink(path);
			return 2;
		}
	}
	if (w->o.rebaseline)
		fprintf(stderr, "vpsbench: watch: --rebaseline: a new baseline from %s; the baselines "
			"learnt from rounds are forgotten\n", w->o.baseline ? w->o.baseline :
			"the benchmark run");
	for (int i = 0; i < WBF_N; i++)
		if (w->rep.v[i] > 0)
			fig[i] = (struct watch_drift_fig){ mdbl_of(w->rep.v[i]), WBS_REPORT,
							   w->rep.start > 0 ? w->rep.start : 0 };
	randread_region(w, fig);
	{
		/* tests only: a wake-up baseline of their own, not learnt from the first rounds */
		const char *x = getenv("VPSBENCH_WATCH_WAKEUP_BASELINE_US");
		char *end;
		double us;

		if (x && *x && (us = strtod(x, &end)) > 0 && !*end)
			fig[WBF_WAKEUP] = (struct watch_drift_fig){ mdbl_of(us), WBS_ENV,
								    (double)now.tv_sec };
	}
	if (w->o.rebaseline)
		return 0;
	rc = watch_base_state_load(w->o.state_dir, &saved, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vpsbench: watch: %s (learning the baselines again)\n", err);
	if (rc)
		return 0;
	if (strcmp(saved.report_fnv1a, w->rep_hash)) {
		fprintf(stderr, "vpsbench: watch: baseline.json is not the one drift_baseline.json "
			"was taken with: its figures taken again, the baselines learnt from rounds "
			"dropped\n");
		return 0;
	}
	/* a randread baseline learnt on another disk is none for this one */
	if (saved.src[WBF_RANDREAD] == WBS_ROUNDS && strcmp(saved.probe_dir, dir)) {
		fprintf(stderr, "vpsbench: watch: randread_p99_us: the learnt baseline was probed in "
			"%s, not %s: learnt again\n", saved.probe_dir[0] ? saved.probe_dir : "an unknown "
			"directory", dir);
		saved.src[WBF_RANDREAD] = WBS_NONE;
	}
	for (int i = 0; i < WD_COUNT; i++)
		if (!fig[i].v.ok && saved.src[i] == WBS_ROUNDS && saved.v[i] > 0)
			fig[i] = (struct watch_drift_fig){ mdbl_of(saved.v[i]), WBS_ROUNDS, saved.time[i] };
	return 0;
}

/* A restart: each metric's window, runs and degraded flag from the history's newest rounds. */
static void restore_drift(struct watcher *w)
{
	static struct watch_base_tail t;
	char err[PATH_MAX + 512], flagged[128] = "";
	size_t n = 0;

	if (watch_base_tail_read(w->o.state_dir, w->o.window, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: drift state not restored: %s\n", err);
		return;
	}
	if (!t.lines)
		return;
	for (int i = 0; i < WD_COUNT; i++) {
		watch_drift_restore(&w->drift, i, t.v[i], t.n[i], t.degraded[i], t.baseline[i],
				    t.dram_huge);
		if (w->drift.m[i].degraded == MB_TRUE && n < sizeof(flagged))
			n += (size_t)snprintf(flagged + n, sizeof(flagged) - n, " %s",
					      watch_drift_names[i]);
	}
	fprintf(stderr, "vpsbench: watch: drift state restored from the history (the last %u "
		"figures of each metric); degraded:%s\n", w->o.window, flagged[0] ? flagged : " none");
}

/* The directory --prom-file goes in, created in and removed from: 0, or -1 with err. */
static int check_prom_dir(const char *file, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(file, '/');

	if (atomic_check_dir("--prom-file", file, err, errlen) < 0)
		return -1;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == file)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	return write_check("--prom-file", dir, err, errlen);
}

int watch_main(int argc, char **argv)
{
	static struct watcher w;
	struct watch_drift_fig fig[WBF_N];
	struct watch_lock lock = { .fd = -1 };
	char err[PATH_MAX + 512];
	bool http_bound = false, sampler = false, hist = false;
	unsigned probes = 0, workers = 0; /* how many of w.probes[] are open, w.worker[] started */
	size_t made = 0;
	uint64_t seq;
	int rc;

	rc = watch_opts_parse(argc, argv, &w.o);
	if (rc)
		return rc < 0 ? 0 : 1;
	if (w.o.status)
		return status_main(&w.o);
	if (w.o.report)
		return report_main(&w.o);
	memset(fig, 0, sizeof(fig));
	w.rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)getpid() << 32) ^ mono_ns();

	/*
	 * Bad input: one line, exit 1, and nothing left behind. Every check
	 * comes before the state directory is made; after it, the lock (a
	 * second watcher is refused before it binds or writes) and the port,
	 * and a failure there removes what this run made.
	 */
	rc = 1;
	if (check_baseline(&w))
		return 1;
	if (check_dirs(&w.o, err, sizeof(err)) < 0 ||
	    (w.o.prom_file && check_prom_dir(w.o.prom_file, err, sizeof(err)) < 0)) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		return 1;
	}
	if (make_dirs(w.o.state_dir, &made, err, sizeof(err)) < 0 ||
	    check_dir("--state-dir", w.o.state_dir, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		remove_made(w.o.state_dir, made);
		return 1;
	}
	rc = watch_lock_take(&lock, w.o.state_dir, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		remove_made(w.o.state_dir, made);
		return rc > 0 ? 1 : 2;
	}
	rc = 1;
	if (watch_http_bind(&w.http, &w.o, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		watch_lock_release(&lock, true);
		remove_made(w.o.state_dir, made);
		return 1;
	}
	http_bound = true;
	if (watch_history_open(&w.hist, w.o.state_dir, w.o.history_max, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: --state-dir %s: %s\n", w.o.state_dir, err);
		goto out;
	}
	hist = true;

	rc = 2;
	if (install_signals(err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		goto out;
	}
	if (watch_snap_init(&w.snap[0]) < 0 || watch_snap_init(&w.snap[1]) < 0) {
		fprintf(stderr, "vpsbench: watch: out of memory\n");
		goto out;
	}
	watch_state_init(&w.state, &w.o, &w.drift);
	watch_drift_init(&w.drift, w.o.window, w.o.margin, fig);
	{
		char *body;
		size_t blen = 0;

		if ((body = watch_metrics_render(&w.state, &blen)))
			watch_http_publish(&w.http, body, blen);
	}
	mask_signals(true);
	if (watch_http_start(&w.http, err, sizeof(err)) == 0 &&
	    watch_sampler_start(&w.sampler, err, sizeof(err)) == 0)
		sampler = true;
	mask_signals(false);
	if (!sampler) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		goto out;
	}
	rc = take_baseline(&w, fig);
	if (rc) {
		if (stop_flag)
			rc = 0; /* stopped during the baseline run: nothing else to do */
		goto out;
	}
	rc = 2;
	watch_drift_init(&w.drift, w.o.window, w.o.margin, fig);
	say_baselines(&w.drift, w.o.window);
	save_baselines(&w);
	restore_drift(&w);
	w.ndisks = w.o.ndirs ? w.o.ndirs : 1;
	for (unsigned d = 0; d < w.ndisks; d++)
		w.disk_dir[d] = w.o.ndirs ? w.o.dirs[d] : w.o.state_dir;
	/* every directory's probe file over the same region (randread_region sized it) */
	for (; probes < w.ndisks; probes++)
		if (watch_probes_open(&w.probes[probes], w.disk_dir[probes], &stop_flag, err,
				      sizeof(err)) < 0) {
			if (stop_flag)
				rc = 0;
			else
				fprintf(stderr, "vpsbench: watch: %s\n", err);
			goto out;
		}
	mask_signals(true);
	for (; workers < w.ndisks; workers++)
		if (watch_probe_worker_start(&w.worker[workers], &w.probes[workers], err,
					     sizeof(err)) < 0)
			break;
	mask_signals(false);
	if (workers < w.ndisks) {
		fprintf(stderr, "vpsbench: watch: %s\n", err);
		goto out;
	}
	for (unsigned d = 0; d < w.ndisks; d++)
		if (w.probes[d].note[0])
			fprintf(stderr, "vpsbench: watch: %s%s%s\n", w.ndisks > 1 ? w.disk_dir[d] : "",
				w.ndisks > 1 ? ": " : "", w.probes[d].note);
	seq = watch_history_last_seq(&w.hist);
	if (w.o.listen_none)
		fprintf(stderr, "vpsbench: watch: probing every %.3gs into %s/history.jsonl\n",
			(double)w.o.every_ns / 1e9, w.o.state_dir);
	else
		fprintf(stderr, "vpsbench: watch: probing every %.3gs into %s/history.jsonl, "
			"/metrics on %s%s%s:%u\n", (double)w.o.every_ns / 1e9, w.o.state_dir,
			strchr(w.o.listen_host, ':') ? "[" : "", w.o.listen_host,
			strchr(w.o.listen_host, ':') ? "]" : "", w.o.listen_port);
	watch_loop(&w, seq);
	rc = 0;
out:
	/* a disk thread stuck in the kernel keeps its probes' buffers: the exit takes them;
	 * one wait for all of them, so several hung disks do not add up past SIGTERM's 2 s */
	{
		uint64_t end = mono_ns() + WORKER_EXIT_WAIT_NS;

		for (unsigned d = 0; d < workers; d++) {
			uint64_t now = mono_ns();

			if (watch_probe_worker_stop(&w.worker[d], end > now ? end - now : 0))
				continue;
			fprintf(stderr, "vpsbench: watch: the disk probe thread of %s is still in a "
				"disk call: leaving it to the exit\n", w.disk_dir[d]);
			w.disk_dir[d] = NULL; /* not closed below */
		}
	}
	if (sampler)
		watch_sampler_stop(&w.sampler);
	if (http_bound)
		watch_http_stop(&w.http);
	for (unsigned d = 0; d < probes; d++)
		if (w.disk_dir[d])
			watch_probes_close(&w.probes[d]);
	if (hist)
		watch_history_close(&w.hist);
	watch_snap_free(&w.snap[0]);
	watch_snap_free(&w.snap[1]);
	watch_lock_release(&lock, false);
	return rc;
}
