/*
 * phase.h — a test seam: VPSBENCH_WAIT_PHASE=NAME (e.g. seq-write-2) makes
 * the process announce that phase when it reaches it and wait there until
 * a signal stops the run, so fault tests hit every phase on every run.
 * Unset (every real run), bench_phase() is one getenv.
 */
#ifndef VPSBENCH_PHASE_H
#define VPSBENCH_PHASE_H

#include <signal.h>

/*
 * Phase "name-n" (just "name" when n is 0): when it is the one named in
 * VPSBENCH_WAIT_PHASE, writes "vpsbench: phase NAME: waiting (pid P)" to
 * stderr and the phase name to the file VPSBENCH_PHASE_FILE when set, then
 * waits until *stop is set. With "NAME+cleanup" it then announces
 * "NAME+cleanup" and waits for the second signal (whose handler ends the
 * process): the run is stopping, as during its cleanup.
 */
void bench_phase_wait(const char *name, unsigned n, volatile sig_atomic_t *stop);

#endif
