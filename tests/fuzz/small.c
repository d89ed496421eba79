/* Fuzz the small sysfs and /proc parsers: the ChromeOS margin file, zram
 * mm_stat, /proc/swaps, /proc/sysvipc/shm, and the glob matcher (pattern
 * and string split at the first NUL). */
#include <stdint.h>
#include <string.h>
#include "fnm.h"
#include "margin.h"
#include "rd.h"
#include "swaps.h"
#include "sysvshm.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static char pat[512];
	static struct swaps sw;
	static struct shm_tot shm;
	const char *s = (const char *)d, *z;
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
	z = memchr(s, 0, n);
	if (z && (size_t)(z - s) < sizeof pat) {
		memcpy(pat, s, z - s + 1);
		fnm_match(pat, z + 1, n - (z - s) - 1);
	}
	return 0;
}
