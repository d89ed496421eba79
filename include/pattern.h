/* pat_: shell globs matched against a text that arrives in pieces, such as
 * a command line read through a fixed buffer.  The answer is that of
 * fnmatch(glob, text, 0) (no FNM_ flags: '/' and '.' are ordinary bytes)
 * in the C locale, byte by byte (smaps-rollup(1), -c, tells users the
 * syntax; pat_check says what is refused).  The state has a fixed size, sits
 * in the caller's storage and never holds the whole text:
 *
 *   struct pat_state st;
 *   pat_start(&st, "*--type=renderer*");
 *   while (!pat_done(&st) && (n = read(fd, buf, sizeof buf)) > 0)
 *           pat_feed(&st, buf, n);
 *   matched = pat_end(&st);
 */
#ifndef MB_PATTERN_H
#define MB_PATTERN_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"

/* The glob is cut at its stars into segments (core/pattern.c says how they
 * are matched); offsets are into the glob, at most PAT_MAX. */
struct pat_state {
	const char *glob;
	uint8_t phase;     /* which segment is being matched, or the answer is no */
	uint16_t at;       /* first segment: the next matcher; later ones: the segment's end */
	uint16_t seg;      /* where the segment being looked for starts */
	uint16_t len;      /* its length in bytes of text (one per matcher) */
	uint16_t since;    /* text bytes fed since the previous segment matched, up to PAT_MAX */
	uint16_t head;     /* where the next byte of text goes in window */
	uint8_t opens[(PAT_MAX + 7) / 8];   /* bit o: the '[' at offset o opens a bracket
	                                       expression (its ']' exists) */
	unsigned char window[PAT_MAX];       /* the last PAT_MAX bytes of text, a ring */
};

/* 0, or -1 when glob is longer than PAT_MAX bytes or malformed.  A glob
 * pat_check refuses never matches anything. */
int pat_check(const char *glob);
/* Begin matching glob against a new text; glob must outlive st. */
void pat_start(struct pat_state *st, const char *glob);
/* The next n bytes of the text (any bytes; a NUL is an ordinary byte). */
void pat_feed(struct pat_state *st, const char *text, size_t n);
/* 1 when no further text can change the answer: feeding more is useless. */
int pat_done(const struct pat_state *st);
/* 1 when the text fed so far matches the whole glob.  It changes nothing:
 * feeding may go on after it. */
int pat_end(struct pat_state *st);
#endif
