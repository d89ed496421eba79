/* Unit-test helpers: each tests/unit/NAME.c has a unit_NAME(), run by the
 * program tests/unit/main.c makes of them all (linked against the core),
 * that prints "pass NAME" or "fail NAME: why" per check and returns
 * unit_end_all(); unit.test counts them.  No stdio here either: the
 * core's writer prints. */
#ifndef T_H
#define T_H
#include <stdint.h>
#include <string.h>
#include "out.h"
#include "text.h"

/* the argument after the unit's name (unit tar FILE), or null */
extern const char *unit_arg;

static int unit_failed;
static void unit_report(int ok, const char *name, const char *why, const char *file, int line)
{
	out_s(&out1, ok ? "pass " : "fail ");
	out_s(&out1, name);
	if (!ok) {
		out_s(&out1, ": ");
		out_s(&out1, why);
		out_s(&out1, " at ");
		out_s(&out1, file);
		out_c(&out1, ':');
		out_u64(&out1, line);
		unit_failed++;
	}
	out_c(&out1, '\n');
}
/* CHECK(name, condition) */
#define CHECK(n, c) unit_report(!!(c), n, #c, __FILE__, __LINE__)
/* CHECK_EQ(name, got, expected) for integers */
#define CHECK_EQ(n, a, b) unit_report((a) == (b), n, #a " == " #b, __FILE__, __LINE__)
/* CHECK_STR(name, pointer, length, "expected") */
#define CHECK_STR(n, s, l, e) unit_report((l) == strlen(e) && !memcmp(s, e, l), n, #s " is \"" e "\"", __FILE__, __LINE__)
static int unit_end_all(void) { out_flush(&out1); return unit_failed != 0; }
/* A mix of edge and pseudo-random 64-bit values: 0, 1, 2^k - 1, 2^k,
 * 2^k + 1, 10^k - 1, 10^k and xorshift output of every magnitude. */
static inline uint64_t unit_val(unsigned i)
{
	static uint64_t x = 88172645463325252ull;
	uint64_t p = 1;
	unsigned k = i % 64;

	switch (i / 64 % 6) {
	case 0: return (1ull << k) - 1;
	case 1: return 1ull << k;
	case 2: return (1ull << k) + 1;
	case 3:
		while (k-- % 20)
			p *= 10;
		return p - (i & 1);
	}
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x >> (i % 64);
}
#endif
