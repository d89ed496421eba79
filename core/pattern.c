/* Globs matched against a text fed in pieces, never held whole.
 *
 * A glob is a row of matchers, each taking one byte of text (a byte, '?',
 * '\x', a bracket expression), cut by its stars into segments:
 *
 *     FIRST * MIDDLE * MIDDLE ... * LAST
 *
 * FIRST must match the first bytes of the text, LAST the last ones, and
 * each MIDDLE must fit in order between them.  Taking each MIDDLE at its
 * leftmost place after the one before is never wrong: any other placement
 * that fits can be moved left to it and leaves less room for the rest.  So
 * the text is read once, byte by byte:
 *   - FIRST is compared as the bytes arrive (a mismatch is a final no);
 *   - a MIDDLE is looked for, each time a byte arrives, by comparing it with
 *     the last bytes of the text, kept in a ring of PAT_MAX bytes (a
 *     segment has at most PAT_MAX matchers); once found, the next one is
 *     looked for in the bytes after it;
 *   - LAST is compared with the ring when the text ends, provided enough
 *     bytes came after the last MIDDLE that it does not overlap it.
 * A glob without a star is FIRST alone, and the text must end with it.
 *
 * Whether a '[' opens a bracket expression or is an ordinary byte depends
 * on whether its ']' follows; pat_start works that out once for the whole
 * glob, so that matching never reads further than the matcher at hand. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include "pattern.h"

enum {
	PAT_FIRST,    /* comparing the first segment; then the text must end */
	PAT_MIDDLE,   /* looking for a segment that a star follows */
	PAT_LAST,     /* the text must end with the last segment */
	PAT_NO,       /* a mismatch: no text from here on can match */
	PAT_BAD,      /* a malformed or too long glob: never matches */
};

/* The character classes of the C locale, by their POSIX names */
static const struct {
	const char *name;
	int (*is)(int);
} pat_classes[] = {
	{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
	{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
	{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
	{ "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
};

/* One member of a bracket expression: the bytes lo to hi (none when lo is
 * above hi), or a class */
struct pat_member {
	unsigned char lo, hi;
	int (*is)(int);        /* the class's test, or 0 */
	int unknown_class;     /* "[:name:]" with a name the C locale lacks */
};

/* A byte inside a bracket expression at g[p]: "x", "\x", or the collating
 * symbol "[.x.]" (the C locale has one-byte symbols only).  Returns the
 * offset after it; 0 when the glob ends first. */
static unsigned pat_byte(const char *g, unsigned p, unsigned char *b)
{
	if (g[p] == '[' && g[p + 1] == '.' && g[p + 2] && g[p + 3] == '.' && g[p + 4] == ']') {
		*b = g[p + 2];
		return p + 5;
	}
	if (g[p] == '\\')
		p++;
	if (!g[p])
		return 0;
	*b = g[p];
	return p + 1;
}

/* The member of a bracket expression at g[p]: a class "[:name:]", an
 * equivalence class "[=x=]" (in the C locale, the byte x alone), a byte or
 * a range "a-z".  A '-' before the closing ']' is an ordinary byte, and so
 * is a '[' that starts none of these.  Returns the offset after the member;
 * 0 when the glob ends inside it. */
static unsigned pat_member(const char *g, unsigned p, struct pat_member *m)
{
	unsigned q, i;

	m->is = 0;
	m->unknown_class = 0;
	if (g[p] == '[' && g[p + 1] == '=' && g[p + 2] && g[p + 3] == '=' && g[p + 4] == ']') {
		m->lo = m->hi = g[p + 2];
		return p + 5;
	}
	if (g[p] == '[' && g[p + 1] == ':') {
		for (q = p + 2; g[q] >= 'a' && g[q] <= 'z'; q++)
			;
		if (g[q] == ':' && g[q + 1] == ']') {
			m->lo = 1;
			m->hi = 0;
			m->unknown_class = 1;
			for (i = 0; i < sizeof pat_classes / sizeof pat_classes[0]; i++)
				if (!strncmp(pat_classes[i].name, g + p + 2, q - p - 2) &&
				    !pat_classes[i].name[q - p - 2]) {
					m->is = pat_classes[i].is;
					m->unknown_class = 0;
				}
			return q + 2;
		}
	}
	q = pat_byte(g, p, &m->lo);
	m->hi = m->lo;
	if (q && g[q] == '-' && g[q + 1] && g[q + 1] != ']')
		q = pat_byte(g, q + 1, &m->hi);
	return q;
}

/* Does the bracket expression at g[p] (one that has its ']') take byte c?
 * *end gets the offset after its ']'. */
static int pat_bracket(const char *g, unsigned p, unsigned char c, uint16_t *end)
{
	struct pat_member m;
	int negate, hit = 0;

	p++;
	negate = g[p] == '!' || g[p] == '^';
	p += negate;
	do {   /* a ']' right after "[" or "[!" is a member, not the end */
		p = pat_member(g, p, &m);
		hit |= m.is ? m.is(c) != 0 : m.lo <= c && c <= m.hi;
	} while (g[p] != ']');
	*end = p + 1;
	return hit != negate;
}

/* Does the matcher at glob offset *at take byte c?  Moves *at past it. */
static int pat_one(const struct pat_state *st, uint16_t *at, unsigned char c)
{
	const char *g = st->glob;
	unsigned p = *at;

	if (g[p] == '[' && st->opens[p / 8] >> p % 8 & 1)
		return pat_bracket(g, p, c, at);
	if (g[p] == '?') {
		*at = p + 1;
		return 1;
	}
	p += g[p] == '\\';
	*at = p + 1;
	return (unsigned char)g[p] == c;
}

/* At *at a star: skip it (and those right after it, "**" is "*") and make
 * the segment after it the one to match. */
static void pat_segment(struct pat_state *st, uint16_t at)
{
	const char *g = st->glob;
	unsigned len = 0;

	while (g[at] == '*')
		at++;
	st->seg = at;
	for (; g[at] && g[at] != '*'; len++)
		pat_one(st, &at, 0);
	st->len = len;
	st->at = at;
	st->since = 0;
	st->phase = g[at] ? PAT_MIDDLE : PAT_LAST;
}

/* Do the last st->len bytes of the text match the segment?  (Only asked
 * when at least that many came since the previous segment matched.) */
static int pat_window(const struct pat_state *st)
{
	unsigned i = (st->head + PAT_MAX - st->len) % PAT_MAX, k;
	uint16_t at = st->seg;

	for (k = 0; k < st->len; k++) {
		if (!pat_one(st, &at, st->window[i]))
			return 0;
		i = i + 1 == PAT_MAX ? 0 : i + 1;
	}
	return 1;
}

void pat_start(struct pat_state *st, const char *glob)
{
	/* closes[p]: reading a bracket expression on from the member that
	 * starts at offset p finds its ']' */
	unsigned char closes[PAT_MAX + 1];
	size_t n = strnlen(glob, PAT_MAX + 1);
	struct pat_member m;
	unsigned p, q;
	uint16_t at;

	memset(st, 0, offsetof(struct pat_state, window));
	st->glob = glob;
	st->phase = PAT_BAD;
	if (n > PAT_MAX)
		return;
	/* From the end, so that each answer is one member's step from the
	 * next: the whole glob costs one pass however many '[' it has. */
	closes[n] = 0;
	for (p = n; p-- > 0;) {
		q = glob[p] == ']' ? 0 : pat_member(glob, p, &m);
		closes[p] = glob[p] == ']' || (q && closes[q]);
	}
	/* Mark the '[' that open bracket expressions; refuse an escape with
	 * nothing to escape, and a class name the C locale does not have
	 * (glibc's fnmatch matches nothing for either). */
	for (at = 0; glob[at];) {
		if (glob[at] == '\\' && !glob[at + 1])
			return;
		if (glob[at] == '[') {
			p = at + 1;
			p += glob[p] == '!' || glob[p] == '^';
			q = pat_member(glob, p, &m);   /* the first member may be ']' */
			if (q && closes[q]) {
				st->opens[at / 8] |= 1 << at % 8;
				while (!m.unknown_class && glob[q] != ']')
					q = pat_member(glob, q, &m);
				if (m.unknown_class)
					return;
				at = q + 1;
				continue;
			}
		}
		at += glob[at] == '\\' ? 2 : 1;
	}
	st->phase = PAT_FIRST;
	if (glob[0] == '*')
		pat_segment(st, 0);
}

int pat_check(const char *glob)
{
	struct pat_state st;

	pat_start(&st, glob);
	return st.phase == PAT_BAD ? -1 : 0;
}

int pat_done(const struct pat_state *st)
{
	/* a glob ending in a star matches whatever follows its last segment */
	return st->phase >= PAT_NO || (st->phase == PAT_LAST && !st->len);
}

/* Keep byte c in the window, as the last byte of the text */
static void pat_keep(struct pat_state *st, unsigned char c)
{
	st->window[st->head] = c;
	st->head = st->head + 1 == PAT_MAX ? 0 : st->head + 1;
	if (st->since < PAT_MAX)
		st->since++;
}

void pat_feed(struct pat_state *st, const char *text, size_t n)
{
	size_t i;

	for (i = 0; i < n && !pat_done(st); i++) {
		uint16_t at = st->at;

		switch (st->phase) {
		case PAT_FIRST:
			if (!st->glob[at] || !pat_one(st, &at, text[i]))
				st->phase = PAT_NO;   /* a byte too many, or a wrong one */
			else if (st->glob[at] == '*')
				pat_segment(st, at);
			else
				st->at = at;
			break;
		case PAT_MIDDLE:
			pat_keep(st, text[i]);
			if (st->since >= st->len && pat_window(st))
				pat_segment(st, st->at);
			break;
		case PAT_LAST:
			/* only the piece's last PAT_MAX bytes can matter (and
			 * keeping them saturates since) */
			if (n - i > PAT_MAX)
				i = n - PAT_MAX;
			for (; i < n; i++)
				pat_keep(st, text[i]);
			return;
		}
	}
}

int pat_end(struct pat_state *st)
{
	switch (st->phase) {
	case PAT_FIRST:
		return !st->glob[st->at];
	case PAT_LAST:
		return st->since >= st->len && pat_window(st);
	}
	return 0;
}
