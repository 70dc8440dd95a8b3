/* seq.h — results of the seq module (placeholder until the module lands). */
#ifndef VPSBENCH_SEQ_H
#define VPSBENCH_SEQ_H

struct seq_result { int unused; };
#endif
