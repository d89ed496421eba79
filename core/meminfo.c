/* /proc/meminfo:
 *   MemTotal:       16314300 kB
 *   HugePages_Total:       0
 * Sizes are kB (KiB); HugePages_* are page counts of Hugepagesize. */
#include "meminfo.h"
#include "bounds.h"
#include "rd.h"
#include "sc.h"

static const char *const names[MI_N] = {
#define X(id, s) s,
	MEMINFO_KEYS(X)
#undef X
};

const char *meminfo_name(int k) { return names[k]; }

void meminfo_parse(const char *buf, size_t len, struct meminfo *m)
{
	const char *p = buf, *end = buf + len, *s, *key;
	size_t n, kl;
	uint64_t v;
	int kb, rc, k;

	m->have = m->ovf = 0;
	m->skipped = 0;
	m->truncated = 0;
	while (sc_line(&p, end, &s, &n)) {
		if (!sc_keynum(s, n, &key, &kl, &v, &kb, &rc)) {
			m->skipped += n > 0;
			continue;
		}
		for (k = 0; k < MI_N; k++)
			if (sc_eq(key, kl, names[k]))
				break;
		if (k == MI_N)
			continue;
		m->v[k] = kb ? sat_mul(v, 1024) : v;
		m->have |= 1ull << k;
		if (rc == SC_OVF || m->v[k] == UINT64_MAX)
			m->ovf |= 1ull << k;
	}
	for (k = MI_HugePagesTotal; k <= MI_HugePagesSurp; k++)
		if (MI_HAS(m, k))
			m->v[k] = sat_mul(m->v[k], MI_HAS(m, MI_Hugepagesize) ? m->v[MI_Hugepagesize] : 0);
}

int meminfo_read(struct meminfo *m)
{
	static char buf[MB_FILE_MAX];
	int trunc;
	long n = rd_file("/proc/meminfo", buf, sizeof buf, &trunc);
	if (n < 0)
		return n;
	meminfo_parse(buf, n, m);
	m->truncated = trunc;
	return 0;
}
