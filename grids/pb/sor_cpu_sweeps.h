/* sor_cpu_sweeps.h — the CPU colour sweep (sor_cpu_sweep.h) instantiated for double
 * (sweep_double) and float (sweep_float). Included by sor_cpu.c and sor_mpi.c, which CMake
 * compiles with the same flags, so a slab's nodes get the single-process solve's bits. */
#ifndef VSG_SOR_CPU_SWEEPS_H
#define VSG_SOR_CPU_SWEEPS_H

#define REAL double
#define SWEEP sweep_double
#include "grids/pb/sor_cpu_sweep.h"
#undef REAL
#undef SWEEP
#define REAL float
#define SWEEP sweep_float
#include "grids/pb/sor_cpu_sweep.h"
#undef REAL
#undef SWEEP

#endif
