/* Fuzz the meminfo parser. */
#include <stdint.h>
#include "meminfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct meminfo m;
	meminfo_parse((const char *)d, n, &m);
	return 0;
}
