/*
 * cache_fio.h — the fio command line whose figure the cache cliff's qd32
 * IOPS equals (cache_fio.c): the engine that ran, its depth and batches,
 * the point time and the sizes. Module-internal; tests include it.
 */
#ifndef VPSBENCH_CACHE_FIO_H
#define VPSBENCH_CACHE_FIO_H

#include <stddef.h>
#include <stdint.h>

#include "cache.h"

/*
 * The batch (most I/Os per submit and per reap) core/rand_engine_*.c's
 * engine of that name runs at depth: its .batch capped at the depth; 0
 * for an engine this file does not know.
 */
unsigned cache_fio_batch(const char *engine, unsigned depth);

/*
 * Writes into out the fio 3.x command line of 4k O_DIRECT random reads of
 * one job at depth through engine for point_ns over FILE: sizes[0..n) the
 * sizes measured (one: --size=that; several or none: --size=SIZE and the
 * list), and the warm pass run before (warm: its --storage-warm name,
 * NULL or "" none). "" when engine is empty or unknown (no figure to equal).
 */
void cache_fio_cmd(char *out, size_t len, const char *engine, unsigned depth, uint64_t point_ns,
		   const uint64_t *sizes, unsigned n, const char *warm);

/* r->fio_equivalent for r's cliff (its engine, depth and ok points). */
void cache_fio_equivalent(struct cache_result *r, uint64_t point_ns);

#endif
