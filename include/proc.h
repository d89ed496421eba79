/* pr_: one process's files under /proc/PID, in kB converted to bytes.
 * smaps_rollup (4.14+) and smaps share the "Key:   N kB" shape:
 *   Rss:                1768 kB
 *   Pss_Anon:            116 kB
 * status carries the identity and the kernel's RSS counters:
 *   Name:	bash
 *   VmRSS:	    4096 kB */
#ifndef MB_PROC_H
#define MB_PROC_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"

/* The rollup keys (in the kernel's order), then status's RSS counters and
 * two numbers of its identity (not sizes: no kB). */
#define PR_KEYS(X) \
	X(Rss) X(Pss) X(Pss_Dirty) X(Pss_Anon) X(Pss_File) X(Pss_Shmem) \
	X(Shared_Clean) X(Shared_Dirty) X(Private_Clean) X(Private_Dirty) \
	X(Referenced) X(Anonymous) X(KSM) X(LazyFree) X(AnonHugePages) \
	X(ShmemPmdMapped) X(FilePmdMapped) X(Shared_Hugetlb) X(Private_Hugetlb) \
	X(Swap) X(SwapPss) X(Locked) \
	X(VmRSS) X(RssAnon) X(RssFile) X(RssShmem) X(VmSwap) X(PPid) X(Kthread)

enum {
#define X(k) PR_##k,
	PR_KEYS(X)
#undef X
	PR_NK
};
#define PR_NROLL PR_VmRSS   /* keys [0, PR_NROLL) come from smaps(_rollup) */
#define PR_NSIZE PR_PPid    /* keys [0, PR_NSIZE) are sizes */

struct pr_mem {
	uint64_t v[PR_NK];    /* bytes, summed over the lines seen */
	uint32_t have;        /* bit PR_x: the kernel printed the key */
	uint32_t ovf;         /* bit PR_x: saturated */
};
#define PR_HAS(m, k) ((int)((m)->have >> (k) & 1))

const char *pr_key(int k);
/* Add one "Key: N kB" line to m when Key is one of [first, last). */
void pr_line(struct pr_mem *m, const char *s, size_t n, int first, int last);
/* smaps_rollup text: every rollup key into m (zeroed first). */
void pr_rollup(const char *buf, size_t len, struct pr_mem *m);
/* smaps streamed from fd through buf: the rollup keys summed over every
 * mapping into m (zeroed first).  0, or -errno of a failed read. */
int pr_smaps(int fd, struct pr_mem *m, char *buf, size_t cap);

struct pr_status {
	char name[SR_NAME_MAX];  /* Name, unescaped (\n, \\), NUL-terminated */
	int name_cut;            /* Name did not fit */
	char state;              /* 'R', 'S', 'Z', ...; 0 when absent */
	int kthread;             /* "Kthread: 1" (6.x), else 0 */
	unsigned long ppid;
	unsigned long uid;       /* effective uid (second Uid field) */
	struct pr_mem mem;       /* VmRSS, RssAnon, RssFile, RssShmem, VmSwap (and
	                            PPid, Kthread, as parsed) */
};
/* status text: 0, or -1 when there is no Name line (not a status file). */
int pr_status(const char *buf, size_t len, struct pr_status *s);
/* cmdline: NULs become spaces, trailing NULs are dropped; the new length. */
size_t pr_cmdline(char *buf, size_t len);
#endif
