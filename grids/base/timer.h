/* timer.h — wall clock in seconds (monotonic). */
#ifndef VSG_TIMER_H
#define VSG_TIMER_H
double vsg_now(void);
#endif
