/* rate_: 128-bit muldiv from 64-bit halves (checked against __int128 where
 * the compiler has it, and hand-computed products everywhere), rates, and
 * counters that restart, appear late or vanish. */
#include <stdint.h>
#include "rate.h"
#include "t.h"

int unit_rate(void)
{
	struct rate_ctr c = { 0 };
	uint64_t d;

	CHECK_EQ("muldiv small", rate_muldiv(100, 1000000000, 100000), 1000000);
	CHECK_EQ("muldiv zero", rate_muldiv(0, 1000000000, 7), 0);
	CHECK_EQ("muldiv c=0 saturates", rate_muldiv(1, 1, 0), UINT64_MAX);
	/* (2^64-1) * 10^9 / 10^9 needs all 128 bits and comes back whole */
	CHECK_EQ("muldiv 128-bit exact", rate_muldiv(UINT64_MAX, 1000000000, 1000000000), UINT64_MAX);
	/* 2^40 * 10^9 / 3 = 366503875925333333333.33 > 2^64: saturates */
	CHECK_EQ("muldiv too large", rate_muldiv(1ull << 40, 1000000000, 3), UINT64_MAX);
	/* 2^40 * 10^9 / 10^6 = 2^40 * 1000 = 1099511627776000 */
	CHECK_EQ("muldiv 2^40*1e9/1e6", rate_muldiv(1ull << 40, 1000000000, 1000000), 1099511627776000ull);
	/* 12345678901234 * 10^9 / 987654321 = 12499999887343.7... (bc) */
	CHECK_EQ("muldiv long division", rate_muldiv(12345678901234ull, 1000000000, 987654321), 12499999887343ull);
	/* c above 2^63: the shifted remainder's carry bit matters */
	CHECK_EQ("muldiv c > 2^63", rate_muldiv(UINT64_MAX, 3, 0x8000000000000001ull), 5);
#ifdef __SIZEOF_INT128__
	{
		uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xbf58476d1ce4e5b9ull, m = 0x94d049bb133111ebull;
		int i, bad = 0;
		for (i = 0; i < 20000; i++) {
			uint64_t x = a ^ (a >> 17), y = (b * (i + 1)) >> (i % 40), z = (m >> (i % 63)) | 1;
			unsigned __int128 p = (unsigned __int128)x * y / z;
			uint64_t want = p >> 64 ? UINT64_MAX : (uint64_t)p;
			bad += rate_muldiv(x, y, z) != want;
			a = a * 6364136223846793005ull + 1442695040888963407ull;
		}
		CHECK_EQ("muldiv = __int128 on 20000 values", bad, 0);
	}
#endif
	{
		/* products within 64 bits (every target, __int128 or not): the
		 * shift-subtract division against the compiler's own */
		uint64_t x = 0x2545f4914f6cdd1dull;
		int i, bad = 0;
		for (i = 0; i < 20000; i++) {
			uint64_t p, q, c;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			p = (x & 0xffffffff) * (x >> 32 >> (i % 32));
			c = (x >> (i % 61)) | 1;
			q = p / c;
			bad += rate_muldiv(x & 0xffffffff, x >> 32 >> (i % 32), c) != q;
		}
		CHECK_EQ("muldiv = 64-bit division on 20000 products below 2^64", bad, 0);
	}
	CHECK_EQ("rate 100 in 0.1 s = 1000.000/s", rate_rate(100, 100000), 1000000);
	CHECK_EQ("rate 1 in 3 s truncates", rate_rate(1, 3000000), 333);
	CHECK_EQ("rate of an empty interval", rate_rate(5, 0), 0);
	CHECK_EQ("rate saturates at INT64_MAX", rate_rate(UINT64_MAX, 1), INT64_MAX);

	rate_add(&c, 0, 0, 100000);
	CHECK_EQ("absent counter stays unseen", c.seen, 0);
	rate_base(&c, 1, 1000);
	CHECK_EQ("baseline seen", c.seen, 1);
	d = rate_add(&c, 1, 1100, 100000);
	CHECK_EQ("increase", d, 100);
	CHECK_EQ("max after +100 in 0.1 s", c.max, 1000000);
	d = rate_add(&c, 1, 50, 100000);
	CHECK_EQ("backwards: no increase", d, 0);
	CHECK_EQ("backwards: one restart", c.restarts, 1);
	CHECK_EQ("backwards: count kept", c.count, 100);
	d = rate_add(&c, 1, 200, 300000);
	CHECK_EQ("counts on from the new value", d, 150);
	CHECK_EQ("count over the restart", c.count, 250);
	CHECK_EQ("max kept", c.max, 1000000);
	d = rate_add(&c, 0, 0, 100000);
	CHECK_EQ("vanished for a sample: nothing", d + c.count, 250);
	CHECK_EQ("vanished keeps prev", c.prev, 200);
	rate_base(&c, 1, 300);
	CHECK_EQ("rebase clears count", c.count, 0);
	CHECK_EQ("rebase clears max", c.max, 0);
	CHECK_EQ("rebase clears restarts", c.restarts, 0);
	{
		struct rate_ctr late = { 0 };
		rate_base(&late, 0, 0);
		d = rate_add(&late, 1, 5000, 100000);
		CHECK_EQ("late counter starts at its first value", d, 0);
		CHECK_EQ("late counter no restart", late.restarts, 0);
		d = rate_add(&late, 1, 5007, 100000);
		CHECK_EQ("late counter then counts", late.count, 7);
	}
	c.prev = 0;
	c.count = UINT64_MAX - 1;
	rate_add(&c, 1, 10, 1);
	CHECK_EQ("count saturates", c.count, UINT64_MAX);
	return unit_end_all();
}
