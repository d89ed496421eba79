/* Glob matching on bytes with one backtrack point for '*': linear in
 * practice, never recursive (the stack is small). */
#include "fnm.h"

/* A bracket expression at p (after '['): *match, and the pattern after
 * ']', or 0 when the bracket is not closed (then '[' is literal). */
static const char *bracket(const char *p, unsigned char c, int *match)
{
	int neg = *p == '!' || *p == '^', m = 0;
	const char *q = p + neg;

	do {
		unsigned char lo = *q, hi;
		if (!lo)
			return 0;
		if (lo == '\\' && q[1])
			lo = *++q;
		hi = lo;
		if (q[1] == '-' && q[2] && q[2] != ']') {
			hi = q[2];
			q += 2;
			if (hi == '\\' && q[1])
				hi = *++q;
		}
		m |= c >= lo && c <= hi;
	} while (*++q != ']');
	*match = m != neg;
	return q + 1;
}

int fnm_match(const char *pat, const char *s, size_t n)
{
	const char *p = pat, *sp = 0, *e = s + n, *ss = 0;

	for (;;) {
		if (*p == '*') {
			while (*++p == '*')
				;
			sp = p;
			ss = s;
			continue;
		}
		if (s == e) {
			if (!*p)
				return 1;
			return 0;
		}
		if (*p) {
			unsigned char c = *s;
			const char *nx = p + 1;
			int ok;
			if (*p == '?') {
				ok = 1;
			} else if (*p == '[' && (nx = bracket(p + 1, c, &ok))) {
			} else {
				nx = p + 1;
				if (*p == '\\' && p[1])
					nx = ++p + 1;
				ok = (unsigned char)*p == c;
			}
			if (ok) {
				p = nx;
				s++;
				continue;
			}
		}
		if (!sp)
			return 0;
		p = sp;
		s = ++ss;
	}
}
