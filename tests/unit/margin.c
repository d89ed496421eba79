/* chromeos-low_mem/margin: the kernel's "%lu " list with its trailing
 * space, the one-margin form of older kernels, "off", and hostile input. */
#include <stdint.h>
#include "margin.h"
#include "t.h"

static int mg(const char *s, uint64_t *v, unsigned *nm, unsigned *dr)
{
	return mg_parse(s, strlen(s), v, 5, nm, dr);
}

int unit_margin(void)
{
	uint64_t v[5];
	unsigned nm, dr;

	CHECK_EQ("margin two with trailing space", mg("304 2339 \n", v, &nm, &dr), MG_LIST);
	CHECK_EQ("margin two: count", nm, 2);
	CHECK_EQ("margin two: values", v[0] == 304 && v[1] == 2339, 1);
	CHECK_EQ("margin one, old kernel", mg("50\n", v, &nm, &dr) == MG_LIST && nm == 1 && v[0] == 50, 1);
	CHECK_EQ("margin off", mg("off\n", v, &nm, &dr), MG_OFF);
	CHECK_EQ("margin off then a number is garbled", mg("off 5\n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin empty is garbled", mg("\n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin non-number is garbled", mg("100 abc\n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin negative is garbled", mg("-1\n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin six kept five", mg("1 2 3 4 5 6 \n", v, &nm, &dr) == MG_LIST && nm == 5 && dr == 1 && v[4] == 5, 1);
	/* a margin is MiB: 2^44 MiB is 2^64 bytes, and beyond is garbage */
	CHECK_EQ("margin beyond 2^64 is garbled", mg("99999999999999999999999 \n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin of 2^64 bytes is garbled", mg("17592186044416 \n", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin below 2^64 bytes kept", mg("17592186044415 \n", v, &nm, &dr) == MG_LIST && v[0] == 17592186044415ull, 1);
	CHECK_EQ("margin cut short (no final newline) is garbled", mg("304 23", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin off cut short is garbled", mg("off", v, &nm, &dr), MG_BAD);
	CHECK_EQ("margin with a NUL is garbled", mg_parse("30\0004 \n", 6, v, 5, &nm, &dr), MG_BAD);
	return unit_end_all();
}
