/* mono_us: CLOCK_MONOTONIC in microseconds. */
#ifndef MB_MONO_H
#define MB_MONO_H
#include <stdint.h>
uint64_t mono_us(void);
#endif
