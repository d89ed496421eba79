/* Fuzz the PSI parser. */
#include <stdint.h>
#include "psi.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct psi p;
	psi_parse((const char *)d, n, &p);
	return 0;
}
