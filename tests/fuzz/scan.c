/* Fuzz the scanners: "Key: N kB", "name N", fields, u64/i64 on any bytes. */
#include <stdint.h>
#include "sc.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	const char *s = (const char *)d, *e = s + n, *p, *k, *f;
	size_t kl, fl;
	uint64_t v;
	int64_t i;
	int kb, rc;

	sc_keynum(s, n, &k, &kl, &v, &kb, &rc);
	sc_namenum(s, n, &k, &kl, &v, &rc);
	p = s;
	while (sc_field(&p, e, &f, &fl))
		if (f < s || f + fl > e || !fl)
			__builtin_trap();
	p = s;
	sc_u64(&p, e, &v);
	p = s;
	sc_i64(&p, e, &i);
	p = s;
	while (sc_line(&p, e, &f, &fl))
		;
	sc_u64_all(s, n, &v);
	return 0;
}
