/*
 * phase.c — the VPSBENCH_WAIT_PHASE test seam (see phase.h). Polls the
 * stop flag rather than pause(): the signal may be taken by another thread.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phase.h"

static void announce(const char *phase)
{
	const char *file = getenv("VPSBENCH_PHASE_FILE");

	fprintf(stderr, "vpsbench: phase %s: waiting (pid %ld)\n", phase, (long)getpid());
	fflush(stderr);
	if (file && *file) {
		FILE *f = fopen(file, "w");

		if (!f) {
			fprintf(stderr, "vpsbench: phase file %s: cannot open\n", file);
			return;
		}
		fprintf(f, "%s\n", phase);
		if (fclose(f) != 0)
			fprintf(stderr, "vpsbench: phase file %s: cannot write\n", file);
	}
}

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

void bench_phase_wait(const char *name, unsigned n, volatile sig_atomic_t *stop)
{
	const char *want = getenv("VPSBENCH_WAIT_PHASE");
	char phase[64], cleanup[80];
	size_t len;

	if (!want || !*want || !stop)
		return;
	if (n)
		snprintf(phase, sizeof(phase), "%s-%u", name, n);
	else
		snprintf(phase, sizeof(phase), "%s", name);
	len = strlen(phase);
	if (strncmp(want, phase, len) != 0 || (want[len] && strcmp(want + len, "+cleanup") != 0))
		return;
	announce(phase);
	while (!*stop)
		nap();
	if (!want[len])
		return;
	snprintf(cleanup, sizeof(cleanup), "%s+cleanup", phase);
	announce(cleanup);
	for (;;) /* the second signal's handler ends the process */
		nap();
}
