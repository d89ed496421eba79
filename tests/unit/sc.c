/* The scanners on real and hostile input: overflow, no digits, no trailing
 * newline, shapes that are not "Key: N kB" or "name N". */
#include <stdint.h>
#include "sc.h"
#include "t.h"

static uint64_t u(const char *s, int *rc)
{
	const char *p = s;
	uint64_t v = 0;
	*rc = sc_u64(&p, s + strlen(s), &v);
	return v;
}

int unit_sc(void)
{
	const char *k, *p, *f;
	size_t kl, n;
	uint64_t v;
	int64_t i;
	int rc, kb;

	CHECK_EQ("u64 zero", u("0", &rc), 0);
	CHECK_EQ("u64 max", u("18446744073709551615", &rc), UINT64_MAX);
	CHECK_EQ("u64 max is ok", rc, SC_OK);
	CHECK_EQ("u64 2^64 saturates", u("18446744073709551616", &rc), UINT64_MAX);
	CHECK_EQ("u64 2^64 flagged", rc, SC_OVF);
	CHECK_EQ("u64 huge saturates", u("99999999999999999999999999", &rc), UINT64_MAX);
	CHECK_EQ("u64 huge flagged", rc, SC_OVF);
	u("abc", &rc);
	CHECK_EQ("u64 no digits", rc, SC_NONE);
	u("-1", &rc);
	CHECK_EQ("u64 negative is no number", rc, SC_NONE);
	p = "-9223372036854775808";
	CHECK_EQ("i64 min", sc_i64(&p, p + 20, &i), SC_OK);
	CHECK("i64 min value", i == INT64_MIN);
	p = "-9223372036854775809";
	CHECK_EQ("i64 below min saturates", sc_i64(&p, p + 20, &i), SC_OVF);
	CHECK_EQ("u64_all rejects trailing", sc_u64_all("12x", 3, &v), SC_NONE);

	CHECK("keynum meminfo", sc_keynum("MemTotal:       16314300 kB", 27, &k, &kl, &v, &kb, &rc));
	CHECK_STR("keynum key", k, kl, "MemTotal");
	CHECK_EQ("keynum value", v, 16314300);
	CHECK_EQ("keynum kB", kb, 1);
	CHECK("keynum no unit", sc_keynum("HugePages_Total:       0", 24, &k, &kl, &v, &kb, &rc) && !kb && v == 0);
	CHECK("keynum parens", sc_keynum("Active(anon):  12 kB", 20, &k, &kl, &v, &kb, &rc));
	CHECK_STR("keynum parens key", k, kl, "Active(anon)");
	CHECK("keynum text value", !sc_keynum("Name:\tbash", 10, &k, &kl, &v, &kb, &rc));
	CHECK("keynum smaps header", !sc_keynum("7f00-7f01 r-xp 00000000 08:01 12 /lib/x.so", 41, &k, &kl, &v, &kb, &rc));
	CHECK("keynum trailing junk", !sc_keynum("Rss:  12 kB x", 13, &k, &kl, &v, &kb, &rc));
	CHECK("keynum no colon", !sc_keynum("Rss 12 kB", 9, &k, &kl, &v, &kb, &rc));
	CHECK("keynum overflow shape", sc_keynum("Rss: 99999999999999999999999 kB", 31, &k, &kl, &v, &kb, &rc) && rc == SC_OVF && v == UINT64_MAX);

	CHECK("namenum vmstat", sc_namenum("pgmajfault 1234", 15, &k, &kl, &v, &rc) && v == 1234);
	CHECK_STR("namenum name", k, kl, "pgmajfault");
	CHECK("namenum zoneinfo indent", sc_namenum("        min      8133", 21, &k, &kl, &v, &rc) && v == 8133);
	CHECK("namenum colon is a name", sc_namenum("high: 5", 7, &k, &kl, &v, &rc) && kl == 5);
	CHECK("namenum one field", !sc_namenum("pgmajfault", 10, &k, &kl, &v, &rc));
	CHECK("namenum three fields", !sc_namenum("a 1 2", 5, &k, &kl, &v, &rc));

	p = "  a\tbb  \n c";
	CHECK("field 1", sc_field(&p, p + 11, &f, &n) && n == 1 && *f == 'a');
	CHECK("field 2", sc_field(&p, p + 8, &f, &n) && n == 2);
	CHECK("field 3", sc_field(&p, p + 5, &f, &n) && n == 1 && *f == 'c');
	CHECK("field end", !sc_field(&p, p, &f, &n));

	p = "one\ntwo";
	CHECK("line 1", sc_line(&p, p + 7, &f, &n) && n == 3);
	CHECK("line 2 no newline", sc_line(&p, p + 3, &f, &n) && n == 3 && *f == 't');
	CHECK("line end", !sc_line(&p, p, &f, &n));

	CHECK_EQ("sat_sub floors", sat_sub(1, 2), 0);
	CHECK_EQ("sat_add saturates", sat_add(UINT64_MAX, 1), UINT64_MAX);
	CHECK_EQ("sat_mul saturates", sat_mul(UINT64_MAX / 2, 3), UINT64_MAX);
	CHECK_EQ("sat_diff negative", sat_diff(1, 3), -2);
	CHECK("sat_diff saturates", sat_diff(0, UINT64_MAX) == INT64_MIN);
	return unit_end_all();
}
