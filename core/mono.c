/* The monotonic clock through musl's clock_gettime, which reads the vDSO:
 * no system call per sample. */
#include <time.h>
#include "mono.h"

uint64_t mono_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}
