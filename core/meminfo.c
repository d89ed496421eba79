/* /proc/meminfo:
 *   MemTotal:       16314300 kB
 *   HugePages_Total:       0
 * Sizes are kB (KiB); HugePages_* are page counts of Hugepagesize. */
#include <string.h>
#include "meminfo.h"
#include "bounds.h"
#include "rd.h"
#include "sc.h"
#include "out.h"

/* The first damage seen by meminfo_parse, for meminfo_read's warning. */
static const char *why;
static unsigned long why_line;

static void note(unsigned long line, const char *w)
{
	if (!why)
		why = w, why_line = line;
}

/* "MemTotal\0MemFree\0...": the keys of MEMINFO_KEYS in its order, one
 * packed text (tests/unit/parsers.c checks it against the list) */
static const char *const names = 
	"MemTotal\0MemFree\0MemAvailable\0Buffers\0Cached\0SwapCached\0"
	"Active\0Inactive\0Active(anon)\0Inactive(anon)\0Active(file)\0"
	"Inactive(file)\0Unevictable\0Mlocked\0SwapTotal\0SwapFree\0Zswap\0"
	"Dirty\0Writeback\0AnonPages\0Mapped\0Shmem\0KReclaimable\0Slab\0"
	"SReclaimable\0SUnreclaim\0KernelStack\0PageTables\0CommitLimit\0"
	"Committed_AS\0AnonHugePages\0ShmemHugePages\0ShmemPmdMapped\0"
	"CmaTotal\0CmaFree\0HugePages_Total\0HugePages_Free\0"
	"HugePages_Rsvd\0HugePages_Surp\0Hugepagesize\0Hugetlb\0HighTotal\0"
	"HighFree\0LowTotal\0LowFree";

const char *meminfo_name(int k) { return mb_nth(names, k); }

void meminfo_parse(const char *buf, size_t len, struct meminfo *m)
{
	const char *p = buf, *end = buf + len, *s, *key, *name;
	size_t n, kl;
	uint64_t v;
	int kb, rc, k;
	unsigned long line = 0;

	m->have = m->ovf = 0;
	m->skipped = 0;
	m->truncated = 0;
	why = 0;
	while (sc_line(&p, end, &s, &n)) {
		line++;
		if (!sc_keynum(s, n, &key, &kl, &v, &kb, &rc) || memchr(s, 0, n)) {
			if (n)
				m->skipped++, note(line, "garbled");
			continue;
		}
		for (k = 0, name = names; k < MI_N; k++, name += strlen(name) + 1)
			if (sc_eq(key, kl, name))
				break;
		if (k == MI_N)
			continue;
		m->v[k] = kb ? sat_mul(v, 1024) : v;
		m->have |= 1ull << k;
		if (rc == SC_OVF || m->v[k] == UINT64_MAX)
			m->ovf |= 1ull << k, note(line, "beyond 2^64");
	}
	if (len && end[-1] != '\n')
		note(line, "cut short");
	for (k = MI_HugePagesTotal; k <= MI_HugePagesSurp; k++)
		if (MI_HAS(m, k))
			m->v[k] = sat_mul(m->v[k], MI_HAS(m, MI_Hugepagesize) ? m->v[MI_Hugepagesize] : 0);
}

int meminfo_read(struct meminfo *m)
{
	static char buf[MB_FILE_MAX], warned;
	int trunc;
	long n = rd_file("/proc/meminfo", buf, sizeof buf, &trunc);
	if (n < 0)
		return n;
	meminfo_parse(buf, n, m);
	m->truncated = trunc;
	/* once: vmstat-meter and lowmem --watch read it again and again */
	if (!warned && (trunc || why)) {
		warned = 1;
		if (trunc)
			mb_warn("/proc/meminfo", "too long");
		else
			mb_warn_line("/proc/meminfo", why_line, why);
	}
	return 0;
}
