/* ks_: a set of 64-bit keys with a growing index, checked against the
 * definition: every key added is found with the number it got, in the
 * order keys came; a key never added is not found; the index doubles as
 * it fills (only the slots in use written) and stops at max_slots; past
 * max keys a new key is refused and an old one still found; keys that
 * all hash to one slot probe past each other.  Without keys (the
 * caller's things, told apart by its same()): things of one hash are as
 * many entries, each found as itself, through every growth. */
#include "keyset.h"
#include "t.h"

#define MAX_SLOTS 8192
#define MAX_KEYS (MAX_SLOTS / 4 * 3)
static uint64_t key[MAX_KEYS];
static uint32_t slot[MAX_SLOTS + 1];   /* one more: a guard that must stay 0xffffffff */

/* the i-th key of a run: distinct for every i (an odd multiplier is a
 * bijection of 64-bit integers), 0 among them */
static uint64_t key_of(uint32_t i, uint64_t mult)
{
	return (uint64_t)i * mult;
}

/* "keyset RUN: CHECK" into name */
static char name[128];
static const char *named(const char *run, const char *check)
{
	strcpy(name, "keyset ");
	strcat(name, run);
	strcat(name, ": ");
	return strcat(name, check);
}

static void run(const char *what, uint64_t mult)
{
	struct keyset s = { .key = key, .slot = slot, .max = MAX_KEYS, .max_slots = MAX_SLOTS };
	uint32_t i, got, bad = 0, grew = 0, last = 0;
	int added;

	memset(slot, 0, sizeof slot);
	slot[MAX_SLOTS] = 0xffffffffu;
	CHECK_EQ(named(what, "empty: nothing found"), ks_find(&s, 0), KS_NONE);
	for (i = 0; i < MAX_KEYS; i++) {
		got = ks_add(&s, key_of(i, mult), &added);
		bad += got != i || !added;
		if (s.nslots != last)
			grew++, last = s.nslots;
		/* never fuller than three quarters, and no larger than needed */
		bad += s.n > s.nslots / 4 * 3 + 1 || (s.nslots > KS_FIRST_SLOTS && s.n <= s.nslots / 8 * 3);
		/* the slots beyond those in use are never written */
		bad += s.nslots < MAX_SLOTS && slot[s.nslots] != 0;
	}
	CHECK_EQ(named(what, "numbered in order, within 3/8 to 3/4 full, no slot beyond those in use written"), bad, 0);
	CHECK_EQ(named(what, "max keys held"), s.n, MAX_KEYS);
	CHECK_EQ(named(what, "grown to max_slots"), s.nslots, MAX_SLOTS);
	CHECK_EQ(named(what, "index sized four times: KS_FIRST_SLOTS doubled up to max_slots"), grew, 4);
	CHECK_EQ(named(what, "nothing written beyond max_slots"), slot[MAX_SLOTS], 0xffffffffu);
	for (bad = 0, i = 0; i < MAX_KEYS; i++) {
		bad += ks_find(&s, key_of(i, mult)) != i;
		bad += ks_add(&s, key_of(i, mult), &added) != i || added;
	}
	CHECK_EQ(named(what, "every key found with its number, added again: the same"), bad, 0);
	for (bad = 0, i = MAX_KEYS; i < MAX_KEYS + 1000; i++) {
		bad += ks_find(&s, key_of(i, mult)) != KS_NONE;
		bad += ks_add(&s, key_of(i, mult), &added) != KS_NONE || added;
	}
	CHECK_EQ(named(what, "full: a new key not found and refused"), bad, 0);
	CHECK_EQ(named(what, "full: refused keys not counted"), s.n, MAX_KEYS);
}

/* Without keys: thing i is the number thing[i]; its hash is that
 * number's bits above shift (shift 64: 0, one hash for all) */
static uint64_t thing[MAX_KEYS];
static unsigned shift;

static uint64_t hash_of(uint64_t v)
{
	return shift >= 64 ? 0 : v >> shift;
}

static int same(uint32_t i, const void *what)
{
	return thing[i] == *(const uint64_t *)what;
}

static uint64_t thing_hash(uint32_t i)
{
	return hash_of(thing[i]);
}

static void run_as(const char *what, unsigned sh, uint32_t many)
{
	struct keyset s = { .slot = slot, .max = MAX_KEYS, .max_slots = MAX_SLOTS, .same = same,
	                    .hash_of = thing_hash };
	uint32_t i, got, bad = 0;
	uint64_t v;
	int added;

	shift = sh;
	memset(slot, 0, sizeof slot);
	slot[MAX_SLOTS] = 0xffffffffu;
	for (i = 0; i < many; i++) {
		v = (uint64_t)i * 0x9e3779b97f4a7c15ull;
		bad += ks_find_as(&s, hash_of(v), &v) != KS_NONE;
		got = ks_add_as(&s, hash_of(v), &v, &added);
		bad += got != i || !added;
		thing[got] = v;
	}
	CHECK_EQ(named(what, "without keys: each new thing numbered in order"), bad, 0);
	CHECK_EQ(named(what, "without keys: as many held as came"), s.n, many);
	for (bad = 0, i = 0; i < many; i++) {
		v = (uint64_t)i * 0x9e3779b97f4a7c15ull;
		bad += ks_find_as(&s, hash_of(v), &v) != i;
		bad += ks_add_as(&s, hash_of(v), &v, &added) != i || added;
		v = ~v;   /* never one of them: the multiplier is odd, ~v = -v - 1 */
		bad += ks_find_as(&s, hash_of(v), &v) != KS_NONE;
	}
	CHECK_EQ(named(what, "without keys: every thing found as itself, a stranger of its hash not"), bad, 0);
	CHECK_EQ(named(what, "without keys: nothing written beyond max_slots"), slot[MAX_SLOTS], 0xffffffffu);
}

int unit_keyset(void)
{
	run("spread keys", 0x9e3779b97f4a7c15ull * 3);
	run("consecutive keys", 1);
	/* multiples of 2^45: times the hash's multiplier, bits 32 to 44 (the
	 * slot of 8,192 or fewer) are 0: every key starts at slot 0 */
	run("keys of one slot", 1ull << 45);
	run_as("spread hashes", 0, MAX_KEYS);
	/* 16 things a hash: every growth re-places them by hash_of */
	run_as("hashes shared by 16", 4, MAX_KEYS);
	run_as("one hash for all", 64, 600);
	return unit_end_all();
}
