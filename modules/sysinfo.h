/* sysinfo.h — results of the sysinfo module (placeholder until the module lands). */
#ifndef VPSBENCH_SYSINFO_H
#define VPSBENCH_SYSINFO_H

struct sysinfo { int unused; };
#endif
