/* Fuzz the mountinfo parser and the octal unescaper. */
#include <stdint.h>
#include <string.h>
#include "mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static char strs[256];
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	const char *v;
	size_t vl;

	rd_lines_mem(&r, (const char *)d, n);
	while (mountinfo_next(&r, &m, strs, sizeof strs, &bad) == 1) {
		if (strlen(m.point) >= sizeof strs)
			__builtin_trap();
		opt_value(m.super, "size", &v, &vl);
	}
	return 0;
}
