/* ks_: a set of 64-bit keys (hashes of what they stand for), numbered in
 * the order they came, found through an index of slots that starts small
 * and doubles as it fills.  Both tables are the caller's (static); only
 * the slots in use are written, so the pages a run touches grow with the
 * keys it holds, not with the tables' bounds.
 *
 * Where two things of one hash must stay apart, the set holds no keys
 * (key 0): the caller tells whether its thing number i is the one sought
 * (same) and gives thing i's hash (hash_of, when the index grows); a
 * lookup compares with each thing its probe meets (ks_find_as, ks_add_as). */
#ifndef MB_KEYSET_H
#define MB_KEYSET_H
#include <stdint.h>

/* The index's first size, in slots; it never shrinks. */
#define KS_FIRST_SLOTS 1024

struct keyset {
	uint64_t *key;        /* the keys, by number: max of them; 0: the caller's things */
	uint32_t *slot;       /* a key's number + 1 by hash (0: free): max_slots */
	uint32_t max;         /* keys at most; at most 3/4 of max_slots */
	uint32_t max_slots;   /* a power of two, at least KS_FIRST_SLOTS */
	uint32_t n;           /* keys held */
	uint32_t nslots;      /* slots in use (0 before the first key) */
	/* key 0: is thing i the one at what?  thing i's hash */
	int (*same)(uint32_t i, const void *what);
	uint64_t (*hash_of)(uint32_t i);
};

#define KS_NONE UINT32_MAX   /* not held; ks_add: not held and no room */

/* key's number, or KS_NONE. */
uint32_t ks_find(const struct keyset *s, uint64_t key);
/* key's number, the next one when it is new (*added set to 1, else 0),
 * or KS_NONE when it is new and max keys are held.  The index doubles
 * (every key put anew) when three quarters full, up to max_slots: 13 to
 * 19 bytes a key in all, and a lookup of a key not held probes 8.5 slots
 * on average at the fullest. */
uint32_t ks_add(struct keyset *s, uint64_t key, int *added);

/* A set without keys: the number of the thing at what (of that hash),
 * or KS_NONE; ks_add_as: as ks_add, a new thing taking the next number
 * (the caller keeps it there before the next call).  4 to 6 bytes a
 * thing. */
uint32_t ks_find_as(const struct keyset *s, uint64_t hash, const void *what);
uint32_t ks_add_as(struct keyset *s, uint64_t hash, const void *what, int *added);
#endif
