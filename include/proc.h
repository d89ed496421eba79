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
 * two numbers of its identity (not sizes: no kB), then smaps's per-mapping
 * Size (virtual size, kB), which the rollup does not print. */
#define PR_KEYS(X) \
	X(Rss) X(Pss) X(Pss_Dirty) X(Pss_Anon) X(Pss_File) X(Pss_Shmem) \
	X(Shared_Clean) X(Shared_Dirty) X(Private_Clean) X(Private_Dirty) \
	X(Referenced) X(Anonymous) X(KSM) X(LazyFree) X(AnonHugePages) \
	X(ShmemPmdMapped) X(FilePmdMapped) X(Shared_Hugetlb) X(Private_Hugetlb) \
	X(Swap) X(SwapPss) X(Locked) \
	X(VmRSS) X(RssAnon) X(RssFile) X(RssShmem) X(VmSwap) X(PPid) X(Kthread) \
	X(Size)

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
	int next;             /* pr_line: where its key search starts (any value
	                         works; after the last key found is fastest) */
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

/* The header line of each mapping in smaps (and maps):
 *   7f2c1a000000-7f2c1a021000 rw-p 00000000 00:00 0          [heap]
 *   7f2c1b000000-7f2c1b800000 rw-s 00000000 00:01 3077       /dev/zero (deleted)
 * address range, permissions, offset, device major:minor (hex), inode,
 * then the path: the rest of the line after the padding (it may hold
 * blanks; empty for anonymous memory). */
struct pr_map {
	uint64_t ino;
	uint32_t dev;        /* major << 20 | minor */
	int shared;          /* 's' in the permissions (MAP_SHARED), else 'p' */
	const char *path;    /* into the line, not NUL-terminated */
	size_t plen;
};
/* 1 when [s, s+n) is a header line (m filled), else 0. */
int pr_maphdr(const char *s, size_t n, struct pr_map *m);

/* What a mapping is, from its path, device and permissions.  Before
 * PK_SHANON the kinds are told apart by name (anonymous memory); from it,
 * by device and inode (an object in the page cache or shmem). */
#define PK_NAMES "anon\0heap\0stack\0special\0anon_named\0shared_anon\0file\0deleted\0tmpfs\0memfd\0sysv\0other"
enum { PK_ANON, PK_HEAP, PK_STACK, PK_SPECIAL, PK_NAMED, PK_SHANON, PK_FILE, PK_DELETED,
       PK_TMPFS, PK_MEMFD, PK_SYSV, PK_OTHER };
/* tmpfs: the device is a tmpfs mount (the caller knows its mounts). */
int pr_mapkind(const struct pr_map *m, int tmpfs);
#endif
