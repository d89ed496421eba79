/* A set of 64-bit keys with a growing index: linear probing from the
 * key's Fibonacci hash (the keys are hashes already; the multiplication
 * spreads their low bits, which pick the slot).  Without keys, the
 * caller's same() tells the things a probe meets apart. */
#include <string.h>
#include "keyset.h"

static uint32_t first_slot(const struct keyset *s, uint64_t hash)
{
	return (uint32_t)((hash * 0x9e3779b97f4a7c15ull) >> 32) & (s->nslots - 1);
}

/* The slot that holds the key (with keys) or the thing at what (without),
 * else the free one where it goes */
static uint32_t *slot_of(const struct keyset *s, uint64_t key, const void *what)
{
	uint32_t mask = s->nslots - 1, i = first_slot(s, key), k;

	for (; (k = s->slot[i]); i = (i + 1) & mask)
		if (s->key ? s->key[k - 1] == key : s->same(k - 1, what))
			break;
	return &s->slot[i];
}

/* Twice the slots, each key put anew in number order (all distinct: each
 * into the first free slot from its own). */
static void grow(struct keyset *s)
{
	uint32_t i, j, mask;

	s->nslots = s->nslots ? s->nslots * 2 : KS_FIRST_SLOTS;
	mask = s->nslots - 1;
	memset(s->slot, 0, s->nslots * sizeof *s->slot);
	for (i = 0; i < s->n; i++) {
		for (j = first_slot(s, s->key ? s->key[i] : s->hash_of(i)); s->slot[j]; j = (j + 1) & mask)
			;
		s->slot[j] = i + 1;
	}
}

static uint32_t find(const struct keyset *s, uint64_t key, const void *what)
{
	uint32_t k = s->nslots ? *slot_of(s, key, what) : 0;

	return k ? k - 1 : KS_NONE;
}

static uint32_t add(struct keyset *s, uint64_t key, const void *what, int *added)
{
	uint32_t *slot;

	if (s->n >= s->nslots / 4 * 3 && s->nslots < s->max_slots)
		grow(s);
	slot = slot_of(s, key, what);
	*added = 0;
	if (*slot)
		return *slot - 1;
	if (s->n >= s->max)
		return KS_NONE;
	*added = 1;
	if (s->key)
		s->key[s->n] = key;
	*slot = ++s->n;
	return s->n - 1;
}

uint32_t ks_find(const struct keyset *s, uint64_t key)
{
	return find(s, key, 0);
}

uint32_t ks_add(struct keyset *s, uint64_t key, int *added)
{
	return add(s, key, 0, added);
}

uint32_t ks_find_as(const struct keyset *s, uint64_t hash, const void *what)
{
	return find(s, hash, what);
}

uint32_t ks_add_as(struct keyset *s, uint64_t hash, const void *what, int *added)
{
	return add(s, hash, what, added);
}
