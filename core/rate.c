/* Counters and rates in integers:
 *   pgmajfault 1234        (events; a count that only grows, until a reboot)
 *   total=123456           (/proc/pressure: microseconds, also only grows) */
#include "rate.h"
#include "sc.h"

uint64_t rt_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
	uint64_t lo = mid << 32 | (ll & 0xffffffff);
	uint64_t hi = ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32), q = 0;
	int i;

	if (!hi)
		return c ? lo / c : UINT64_MAX;
	if (hi >= c)
		return UINT64_MAX;
	/* shift-subtract division of hi:lo by c; hi < c keeps q in 64 bits */
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

int64_t rt_rate(uint64_t inc, uint64_t us)
{
	uint64_t r;
	if (!us)
		return 0;
	r = rt_muldiv(inc, 1000000000, us);
	return r > INT64_MAX ? INT64_MAX : (int64_t)r;
}

void rt_base(struct rt_ctr *c, int have, uint64_t v)
{
	if (have) {
		c->prev = v;
		c->seen = 1;
	}
	c->count = 0;
	c->max = 0;
	c->restarts = 0;
}

uint64_t rt_add(struct rt_ctr *c, int have, uint64_t v, uint64_t us)
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
	r = rt_rate(d, us);
	if (r > c->max)
		c->max = r;
	return d;
}
