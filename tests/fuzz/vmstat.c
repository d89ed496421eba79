/* Fuzz the vmstat lookup with the default counters and one absent name. */
#include <stdint.h>
#include "vmstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const char *const names[] = { "pgmajfault", "pswpin", "pswpout", "oom_kill", "no_such" };
	uint64_t v[5];
	unsigned char have[5];
	vmstat_parse((const char *)d, n, names, 5, v, have);
	return 0;
}
