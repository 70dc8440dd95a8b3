/* rand.h — results of the rand module (placeholder until the module lands). */
#ifndef VPSBENCH_RAND_H
#define VPSBENCH_RAND_H

struct rand_result { int unused; };
#endif
