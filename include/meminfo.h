/* /proc/meminfo, every size converted to bytes:
 *   MemTotal:       16314300 kB
 *   HugePages_Total:       0        (a count: times Hugepagesize here) */
#ifndef MB_MEMINFO_H
#define MB_MEMINFO_H
#include <stddef.h>
#include <stdint.h>
#include "diag.h"

#define MEMINFO_KEYS(X) \
	X(MemTotal, "MemTotal") X(MemFree, "MemFree") X(MemAvailable, "MemAvailable") \
	X(Buffers, "Buffers") X(Cached, "Cached") X(SwapCached, "SwapCached") \
	X(Active, "Active") X(Inactive, "Inactive") \
	X(ActiveAnon, "Active(anon)") X(InactiveAnon, "Inactive(anon)") \
	X(ActiveFile, "Active(file)") X(InactiveFile, "Inactive(file)") \
	X(Unevictable, "Unevictable") X(Mlocked, "Mlocked") \
	X(SwapTotal, "SwapTotal") X(SwapFree, "SwapFree") X(Zswap, "Zswap") \
	X(Dirty, "Dirty") X(Writeback, "Writeback") X(AnonPages, "AnonPages") \
	X(Mapped, "Mapped") X(Shmem, "Shmem") X(KReclaimable, "KReclaimable") \
	X(Slab, "Slab") X(SReclaimable, "SReclaimable") X(SUnreclaim, "SUnreclaim") \
	X(KernelStack, "KernelStack") X(PageTables, "PageTables") X(SecPageTables, "SecPageTables") \
	X(Bounce, "Bounce") X(WritebackTmp, "WritebackTmp") \
	X(CommitLimit, "CommitLimit") X(CommittedAS, "Committed_AS") X(Percpu, "Percpu") \
	X(AnonHugePages, "AnonHugePages") X(ShmemHugePages, "ShmemHugePages") \
	X(ShmemPmdMapped, "ShmemPmdMapped") X(CmaTotal, "CmaTotal") X(CmaFree, "CmaFree") \
	X(HugePagesTotal, "HugePages_Total") X(HugePagesFree, "HugePages_Free") \
	X(HugePagesRsvd, "HugePages_Rsvd") X(HugePagesSurp, "HugePages_Surp") \
	X(Hugepagesize, "Hugepagesize") X(Hugetlb, "Hugetlb") \
	X(HighTotal, "HighTotal") X(HighFree, "HighFree") X(LowTotal, "LowTotal") X(LowFree, "LowFree")

enum {
#define X(id, s) MI_##id,
	MEMINFO_KEYS(X)
#undef X
	MI_N
};

struct meminfo {
	uint64_t v[MI_N];     /* bytes */
	uint64_t have;        /* bit MI_x: the kernel printed that key */
	uint64_t ovf;         /* bit MI_x: the number saturated */
	unsigned long skipped; /* lines not of the shape "Key: N [kB]" */
	int truncated;        /* the file did not fit MB_FILE_MAX */
	struct diag diag;     /* meminfo_parse: the first damage (why 0: none);
	                         meminfo_read: what is to be said now */
	int said;             /* meminfo_read said damage of this struct once:
	                         never again (0 before the first read) */
};
#define MI_HAS(m, k) ((int)((m)->have >> (k) & 1))
#define MI_GET(m, k) ((m)->v[k])

/* The one meminfo parser: "Key: N [kB]" lines, kB made bytes (saturated),
 * the last line of a key counts; a line of another shape is skipped and
 * counted, and the first damage (garbled, beyond 2^64, no final newline) is in
 * diag.  said is left alone. */
void meminfo_parse(const char *buf, size_t len, struct meminfo *m);
/* /proc/meminfo under the root, read whole into the caller's buf of cap
 * bytes (MB_FILE_MAX; only the parse is kept): 0 or -errno.  diag then holds damage to be said ("too long" when it did
 * not fit), only the first time for this struct, whose readers (vmstat-meter,
 * lowmem --watch) read it again and again; clear on -errno. */
int meminfo_read(struct meminfo *m, char *buf, size_t cap);
const char *meminfo_name(int k);
#endif
