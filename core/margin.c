/* /sys/kernel/mm/chromeos-low_mem/margin (MiB, ascending, space after each):
 *   201 1548 \n
 *   off\n */
#include "margin.h"
#include "sc.h"

int mg_parse(const char *b, size_t n, uint64_t *mib, unsigned cap, unsigned *nm,
             unsigned *dropped)
{
	const char *p = b, *f;
	size_t fl;
	uint64_t v;

	*nm = *dropped = 0;
	if (!n || b[n - 1] != '\n')   /* empty, or cut short */
		return MG_BAD;
	while (sc_field(&p, b + n, &f, &fl)) {
		if (sc_eq(f, fl, "off") && !*nm && !*dropped)
			return sc_field(&p, b + n, &f, &fl) ? MG_BAD : MG_OFF;
		if (sc_u64_all(f, fl, &v) != SC_OK || v >> 44)   /* 2^44 MiB: 2^64 bytes */
			return MG_BAD;
		if (*nm < cap)
			mib[(*nm)++] = v;
		else
			++*dropped;
	}
	return *nm ? MG_LIST : MG_BAD;
}
