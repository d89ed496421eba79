/* rate_: event counters read at intervals, and their rates without floating
 * point.  A rate is an integer in thousandths of events per second, from an
 * increase and an interval in microseconds:
 *   pgmajfault 1234        (read at t)
 *   pgmajfault 1334        (read at t + 100000 us: 1000.000/s, as 1000000) */
#ifndef MB_RATE_H
#define MB_RATE_H
#include <stdint.h>

/* floor(a * b / c) from a 128-bit product (__int128, or built of 32-bit
 * halves on 32-bit targets) and a shift-subtract division, without libgcc's
 * 64-bit division; UINT64_MAX when it does not fit or c = 0. */
uint64_t rate_muldiv(uint64_t a, uint64_t b, uint64_t c);
/* inc events in us microseconds, in thousandths per second (truncated);
 * 0 for an empty interval; saturated at INT64_MAX. */
int64_t rate_rate(uint64_t inc, uint64_t us);

struct rate_ctr {
	uint64_t prev;       /* the last value read */
	uint64_t count;      /* increase since the baseline, summed over restarts */
	int64_t max;         /* largest rate between two consecutive readings */
	unsigned restarts;   /* readings below the previous one */
	unsigned char seen;  /* read at least once */
};
/* A baseline reading: count, max and restarts start again. */
void rate_base(struct rate_ctr *c, int have, uint64_t v);
/* A reading us microseconds after the previous one: the increase.  A value
 * below the previous one restarts the counter's baseline there (increase 0,
 * restarts + 1); a counter read for the first time starts at that value.
 * have = 0: the kernel did not print it this time; nothing changes. */
uint64_t rate_add(struct rate_ctr *c, int have, uint64_t v, uint64_t us);
#endif
