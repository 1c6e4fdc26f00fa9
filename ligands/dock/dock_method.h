/* dock_method.h — the constants of the Monte Carlo search, shared by the CPU chains
 * (dock_search.c), the result (dock_finish.c) and the GPU chains (gpu/dock/dock_gpu.cu), so
 * the two twins run one method. Values are AutoDock Vina 1.2's (monte_carlo.h, mutate.cpp). */
#ifndef VSG_DOCK_METHOD_H
#define VSG_DOCK_METHOD_H

#define DOCK_PI 3.14159265358979323846
#define DOCK_TEMPERATURE 1.2     /* kcal/mol, Vina's RT at ~600 K */
#define DOCK_AMPLITUDE 2.0       /* Å, Vina's mutation_amplitude */
#define DOCK_HUNT_CAP 10.0       /* the curl cap while hunting (Vina's hunt_cap) */
#define DOCK_AUTHENTIC_CAP 1000.0 /* the curl cap of minima kept (Vina's authentic_v) */
#define DOCK_LINE_TRIALS 10      /* halvings of the BFGS line search */
#define DOCK_ARMIJO 1e-4
#define DOCK_GRAD_STOP 1e-5

#endif
