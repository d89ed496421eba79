/* Fuzz the zoneinfo parser: on success every total covers the kept zones. */
#include <stdint.h>
#include "rd.h"
#include "zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct zi z;
	struct rd_lines r;
	unsigned i;
	uint64_t res = 0;

	rd_lines_mem(&r, (const char *)d, n);
	if (zi_parse(&z, &r) || z.dropped)
		return 0;
	for (i = 0; i < z.n; i++) {
		if (z.z[i].reserve > z.z[i].managed)
			__builtin_trap();
		res = res + z.z[i].reserve < res ? UINT64_MAX : res + z.z[i].reserve;
	}
	if (res != z.tot.reserve)
		__builtin_trap();
	return 0;
}
