/*
 * watch_probe_worker.h — the disk probes of `vpsbench watch` in a thread
 * of their own, so a hung disk cannot stall a round (issue #40 D12): the
 * round waits for each probe until a deadline (--probe-timeout); a probe
 * past it is failed ("timed out after N s") and the round goes on (prime,
 * DRAM, the history line). The thread stays in the stuck call; while it
 * does, the next rounds' disk probes are skipped (reason kind WR_HUNG,
 * "hung: the randread probe started at ... has not returned"), and once it
 * returns its late result is dropped.
 */
#ifndef VPSBENCH_WATCH_PROBE_WORKER_H
#define VPSBENCH_WATCH_PROBE_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/watch/watch_probe.h"
#include "cmd/watch/watch_round.h"

struct watch_probe_worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done_fd;                  /* eventfd: a job ended */
	bool started, quit;
	bool busy;                    /* a job posted and not returned yet */
	bool abandoned;               /* the round gave up on it: its result is dropped */
	int job;                      /* WP_RANDREAD or WP_FSYNC while busy */
	uint64_t job_ns;              /* the probe's length */
	double job_start_unix;        /* when the job began (for "hung: ... started at") */
	uint64_t job_start_mono;
	struct watch_probe_result res;
	struct watch_probes *probes;  /* the probes' stop pointer is set to &cancel */
	volatile sig_atomic_t cancel; /* ends the job's loop at its next I/O */
	int open_rc;                  /* the engine's opening on the thread: 0 not yet, 1 ok, -1 */
	char open_err[256];
};

/* Starts the thread (signals blocked by the caller meanwhile). 0, or -1 with err. */
int watch_probe_worker_start(struct watch_probe_worker *wk, struct watch_probes *p, char *err,
			     size_t errlen);
/*
 * Runs the disk probe job (WP_RANDREAD or WP_FSYNC, ns long) and waits for
 * it until timeout_ns, or until stop_fd (the stop signal's pipe) turns
 * readable. Fills r: the probe's result, failed "timed out after N s",
 * failed "interrupted" (stop), or skipped WR_HUNG when an earlier job has
 * not returned.
 */
void watch_probe_worker_run(struct watch_probe_worker *wk, int job, uint64_t ns,
			    uint64_t timeout_ns, int stop_fd, struct watch_probe_result *r);
/*
 * Ends the thread: waits at most wait_ns for a job in flight. true when
 * joined; false when the thread is still stuck in a disk call (then the
 * probes' buffers must stay: the process exit takes them).
 */
bool watch_probe_worker_stop(struct watch_probe_worker *wk, uint64_t wait_ns);

#endif
