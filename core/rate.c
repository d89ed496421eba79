/* Counters and rates in integers:
 *   pgmajfault 1234        (events; a count that only grows, until a reboot)
 *   total=123456           (/proc/pressure: microseconds, also only grows) */
#include "rate.h"
#include "sc.h"

uint64_t rate_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t hi, lo, q = 0;
	int i;
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)a * b;
	hi = p >> 64;
	lo = p;
#else
	uint32_t al = a, ah = a >> 32, bl = b, bh = b >> 32;
	uint64_t ll = (uint64_t)al * bl, lh = (uint64_t)al * bh, hl = (uint64_t)ah * bl;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	lo = mid << 32 | (uint32_t)ll;
	hi = (uint64_t)ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
	if (hi >= c)   /* also c = 0 */
		return UINT64_MAX;
	/* shift-subtract division of hi:lo by c, no division instruction (none
	 * for 64 bits on 32-bit targets, and no 128-bit one anywhere); hi < c
	 * keeps q in 64 bits */
	for (i = 0; i < 64; i++) {
		int top = hi >> 63;
		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		q <<= 1;
		if (top || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

int64_t rate_rate(uint64_t inc, uint64_t us)
{
	uint64_t r;
	if (!us)
		return 0;
	r = rate_muldiv(inc, 1000000000, us);
	return r > INT64_MAX ? INT64_MAX : (int64_t)r;
}

void rate_base(struct rate_ctr *c, int have, uint64_t v)
{
	if (have) {
		c->prev = v;
		c->seen = 1;
	}
	c->count = 0;
	c->max = 0;
	c->restarts = 0;
}

uint64_t rate_add(struct rate_ctr *c, int have, uint64_t v, uint64_t us)
{
	uint64_t d;
	int64_t r;

	if (!have)
		return 0;
	if (!c->seen || v < c->prev) {
		c->restarts += c->seen;
		c->seen = 1;
		c->prev = v;
		return 0;
	}
	d = v - c->prev;
	c->prev = v;
	c->count = sat_add(c->count, d);
	r = rate_rate(d, us);
	if (r > c->max)
		c->max = r;
	return d;
}
