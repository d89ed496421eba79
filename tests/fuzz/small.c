/* Fuzz the small sysfs and /proc parsers: the ChromeOS margin file, zram
 * mm_stat, /proc/swaps and /proc/sysvipc/shm. */
#include <stdint.h>
#include <string.h>
#include "margin.h"
#include "rd.h"
#include "swaps.h"
#include "sysvshm.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct swaps sw;
	static struct shm_tot shm;
	const char *s = (const char *)d;
	uint64_t mib[8], mm[3];
	unsigned nm, dropped;
	struct rd_lines r;

	mg_parse(s, n, mib, 8, &nm, &dropped);
	if (nm > 8)
		__builtin_trap();
	sw_mm_parse(s, n, mm);
	rd_lines_mem(&r, s, n);
	sw_parse(&r, &sw);
	rd_lines_mem(&r, s, n);
	shm_parse(&r, &shm);
	return 0;
}
