/* The monotonic clock by its system call.  musl's clock_gettime first looks
 * the function up in the vDSO (__vdsosym and its ELF walk, about 850 bytes);
 * membox reads the clock a few times per sample, where the 0.1 us a system
 * call costs more does not show.  32-bit targets ask for the 64-bit
 * timespec (Linux 5.1+) and fall back to the old call on older kernels. */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "mono.h"

uint64_t mono_us(void)
{
#ifdef SYS_clock_gettime64
	int64_t t64[2];   /* struct __kernel_timespec */
	if (!syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, t64))
		return (uint64_t)t64[0] * 1000000 + (uint32_t)t64[1] / 1000;   /* ns < 10^9 */
#endif
	long t[2];        /* the native timespec: two longs */
#ifdef SYS_clock_gettime32
	syscall(SYS_clock_gettime32, CLOCK_MONOTONIC, t);   /* musl's name on 32-bit */
#else
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, t);
#endif
	return (uint64_t)(unsigned long)t[0] * 1000000 + (unsigned long)t[1] / 1000;
}
