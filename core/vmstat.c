/* /proc/vmstat (counters, events or pages):
 *   pgmajfault 1234
 *   oom_kill 0                      (4.13+) */
#include <string.h>
#include "vmstat.h"
#include "sc.h"

/* "name N" (blanks around name and number) from b to the line end e: 1
 * and the value. */
static int one(const char *b, const char *e, const char *name, uint64_t *v)
{
	uint64_t t;	/* *v only for a whole line: a damaged one leaves it */

	b = sc_blank(b, e);
	while (*name && b < e && *b == *name)
		b++, name++;
	if (*name || b == e || (*b != ' ' && *b != '\t'))
		return 0;
	b = sc_blank(b + 1, e);
	if (sc_u64(&b, e, &t) == SC_NONE || sc_blank(b, e) != e)
		return 0;
	*v = t;
	return 1;
}

/* Each name from its line of the last time (at), else from the start.  A
 * sample of the live kernel looks at one line per name, not ~190 lines. */
unsigned vm_pick(const char *buf, size_t len, const char *const *names,
                 unsigned n, uint64_t *val, unsigned char *have, unsigned short *at)
{
	const char *end = buf + len, *b, *e;
	unsigned i, found = 0;
	size_t o;

	for (i = 0; i < n; i++) {
		o = at ? at[i] : 0;
		if (o >= len || (o && buf[o - 1] != '\n'))
			o = 0;
		for (b = buf + o, have[i] = 0; !have[i] && b < end; b = o ? buf : e + 1, o = 0) {
			if (!(e = memchr(b, '\n', end - b)))
				e = end;
			if (one(b, e, names[i], val + i)) {
				have[i] = 1;
				if (at)
					at[i] = b - buf;
			}
		}
		found += have[i];
	}
	return found;
}

unsigned vmstat_parse(const char *buf, size_t len, const char *const *names,
                      unsigned n, uint64_t *val, unsigned char *have)
{
	return vm_pick(buf, len, names, n, val, have, 0);
}
