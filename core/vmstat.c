/* /proc/vmstat (counters, events or pages):
 *   pgmajfault 1234
 *   oom_kill 0                      (4.13+) */
#include <string.h>
#include "vmstat.h"
#include "rd.h"
#include "sc.h"

unsigned vmstat_parse(const char *buf, size_t len, const char *const *names,
                      unsigned n, uint64_t *val, unsigned char *have)
{
	const char *p = buf, *end = buf + len, *s, *name;
	size_t ln, nl;
	uint64_t v;
	unsigned i, bad = 0, found = 0;
	int rc;

	memset(have, 0, n);
	while (found < n && sc_line(&p, end, &s, &ln)) {
		if (!sc_namenum(s, ln, &name, &nl, &v, &rc)) {
			bad += ln > 0;
			continue;
		}
		for (i = 0; i < n; i++)
			if (!have[i] && sc_eq(name, nl, names[i])) {
				val[i] = v;
				have[i] = 1;
				found++;
				break;
			}
	}
	return bad;
}

long vmstat_read(char *buf, size_t cap, int *trunc)
{
	return rd_file("/proc/vmstat", buf, cap, trunc);
}
