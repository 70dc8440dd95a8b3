/*
 * watch_probe.h — the probes of one `vpsbench watch` round: 4k randread
 * qd1 (p50, p99, IOPS) and fdatasync() latency on one small file laid out
 * at start, opened and unlinked at once; a single-thread prime pass
 * (sysbench's event); one DRAM latency point on huge pages.
 */
#ifndef VPSBENCH_WATCH_PROBE_H
#define VPSBENCH_WATCH_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/watch/watch_round.h"
#include "core/lat_hist.h"
#include "core/rand_engine.h"

#define WATCH_PROBE_FILE_BYTES (64ULL << 20)  /* randread region, unless set below */
#define WATCH_PROBE_REGION_MAX (1ULL << 30)   /* the largest region sized like a report's file */
#define WATCH_PROBE_SYNC_BYTES (8ULL << 20)   /* fsync region, after it */
#define WATCH_PROBE_SYNC_BS 2300u             /* etcd's WAL write */

struct watch_probes {
	int fd;                  /* O_DIRECT where the filesystem has it: randread */
	int fd_sync;             /* buffered: the write + fdatasync() probe */
	bool direct;
	struct rand_engine eng;
	bool eng_open;
	struct rand_io io;
	struct rand_io *done[1];
	void *buf;               /* 4 KiB aligned read buffer */
	unsigned char *data;     /* random bytes for the fsync writes */
	uint64_t rng;
	const volatile sig_atomic_t *stop;
	char path[4096];
	char note[256];          /* engine fallback, no O_DIRECT: said once at start */
	struct lat_hist hist;    /* the running probe's latencies: its own per directory, as each
				  * directory's probes run on a thread of their own */
};

/*
 * Creates dir/.probe-<pid>, opens it twice (O_DIRECT and buffered), unlinks
 * it, lays out the randread region with random data and preallocates the
 * fsync region; the engine is watch_probes_engine_open's. 0, or -1 with
 * err naming the step.
 */
int watch_probes_open(struct watch_probes *p, const char *dir, const volatile sig_atomic_t *stop,
		      char *err, size_t errlen);
/* The randread probe's I/O engine, opened on the thread that runs the probe. 0, or -1 with err. */
int watch_probes_engine_open(struct watch_probes *p, char *err, size_t errlen);
/* The engine (if open), the file and the buffers. */
void watch_probes_close(struct watch_probes *p);

/* The randread region for the next watch_probes_open: bytes (whole MiB; else the default). */
void watch_probe_set_region(uint64_t bytes);
uint64_t watch_probe_region(void);

/* Each fills r: status ok with the figures, or failed with the reason. */
void watch_probe_randread(struct watch_probes *p, uint64_t ns, struct watch_probe_result *r);
void watch_probe_fsync(struct watch_probes *p, uint64_t ns, struct watch_probe_result *r);
void watch_probe_prime(const volatile sig_atomic_t *stop, uint64_t ns, struct watch_probe_result *r);
void watch_probe_dram(const volatile sig_atomic_t *stop, struct watch_probe_result *r);

#endif
