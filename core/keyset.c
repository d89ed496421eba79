/* A set of 64-bit keys with a growing index: linear probing from the
 * key's Fibonacci hash (the keys are hashes already; the multiplication
 * spreads their low bits, which pick the slot). */
#include <string.h>
#include "keyset.h"

static uint32_t *slot_of(const struct keyset *s, uint64_t key)
{
	uint32_t mask = s->nslots - 1, i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;

	while (s->slot[i] && s->key[s->slot[i] - 1] != key)
		i = (i + 1) & mask;
	return &s->slot[i];
}

/* Twice the slots, each key put anew in number order. */
static void grow(struct keyset *s)
{
	uint32_t i;

	s->nslots = s->nslots ? s->nslots * 2 : KS_FIRST_SLOTS;
	memset(s->slot, 0, s->nslots * sizeof *s->slot);
	for (i = 0; i < s->n; i++)
		*slot_of(s, s->key[i]) = i + 1;
}

uint32_t ks_find(const struct keyset *s, uint64_t key)
{
	uint32_t k = s->nslots ? *slot_of(s, key) : 0;

	return k ? k - 1 : KS_NONE;
}

uint32_t ks_add(struct keyset *s, uint64_t key, int *added)
{
	uint32_t *slot;

	if (s->n >= s->nslots / 4 * 3 && s->nslots < s->max_slots)
		grow(s);
	slot = slot_of(s, key);
	*added = 0;
	if (*slot)
		return *slot - 1;
	if (s->n >= s->max)
		return KS_NONE;
	*added = 1;
	s->key[s->n] = key;
	*slot = ++s->n;
	return s->n - 1;
}
