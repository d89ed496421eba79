/* /proc/meminfo:
 *   MemTotal:       16314300 kB
 *   HugePages_Total:       0
 * Sizes are kB (KiB); HugePages_* are page counts of Hugepagesize. */
#include <string.h>
#include "meminfo.h"
#include "bounds.h"
#include "rd.h"
#include "sc.h"

static const char *const mi_file = "/proc/meminfo";
static const char *const names[MI_N] = {
#define X(id, s) s,
	MEMINFO_KEYS(X)
#undef X
};

const char *meminfo_name(int k) { return names[k]; }

/* The first damage of the buffer is the one said. */
static void note(struct meminfo *m, unsigned long line, const char *why)
{
	if (!m->diag.why) {
		m->diag.line = line;
		m->diag.why = why;
	}
}

void meminfo_parse(const char *buf, size_t len, struct meminfo *m)
{
	const char *p = buf, *end = buf + len, *s, *key;
	size_t n, kl;
	uint64_t v;
	int kb, rc, k = 0, i;
	unsigned long line = 0;

	m->have = m->ovf = 0;
	m->skipped = 0;
	m->truncated = 0;
	m->diag = (struct diag){ mi_file, 0, 0, 0 };
	while (sc_line(&p, end, &s, &n)) {
		line++;
		if (!sc_keynum(s, n, &key, &kl, &v, &kb, &rc) || memchr(s, 0, n)) {
			if (n)
				m->skipped++, note(m, line, "garbled");
			continue;
		}
		/* the kernel prints our keys in table order, among others: the
		 * search starts after the last key found, one compare a line */
		for (i = 0; i < MI_N && !sc_eq(key, kl, names[k]); i++)
			k = k + 1 < MI_N ? k + 1 : 0;
		if (i == MI_N)
			continue;
		m->v[k] = kb ? sat_mul(v, 1024) : v;
		m->have |= 1ull << k;
		if (rc == SC_OVF || m->v[k] == UINT64_MAX)
			m->ovf |= 1ull << k, note(m, line, "beyond 2^64");
	}
	/* its last line is used when it parsed: said, as it may be cut */
	if (len && end[-1] != '\n')
		note(m, 0, "no final newline: its last line may be cut");
	for (k = MI_HugePagesTotal; k <= MI_HugePagesSurp; k++)
		if (MI_HAS(m, k))
			m->v[k] = sat_mul(m->v[k], MI_HAS(m, MI_Hugepagesize) ? m->v[MI_Hugepagesize] : 0);
}

int meminfo_read(struct meminfo *m, char *buf, size_t cap)
{
	int trunc;
	long n = rd_file(mi_file, buf, cap, &trunc);

	m->diag = (struct diag){ mi_file, 0, 0, 0 };
	if (n < 0)
		return n;
	meminfo_parse(buf, n, m);
	m->truncated = trunc;
	if (trunc)
		m->diag = (struct diag){ mi_file, 0, "too long", 0 };
	/* once: vmstat-meter and lowmem --watch read it again and again */
	if (m->said)
		m->diag.why = 0;
	m->said |= m->diag.why != 0;
	return 0;
}
