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
#include "rd.h"

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
	unsigned long bad;    /* smaps(_rollup): the first damaged line, counted
	                         from 1 (0: none): a rollup key without "N [kB]"
	                         (garbled, negative), or neither "Key: ..." nor
	                         a mapping's header */
	int next;             /* pr_line: where its key search starts (any value
	                         works; after the last key found is fastest) */
};
#define PR_HAS(m, k) ((int)((m)->have >> (k) & 1))

const char *pr_key(int k);
/* Add one "Key: N kB" line to m when Key is one of [first, last). */
void pr_line(struct pr_mem *m, const char *s, size_t n, int first, int last);
/* smaps_rollup text: every rollup key into m (zeroed first); m->bad: the
 * first damaged line. */
void pr_rollup(const char *buf, size_t len, struct pr_mem *m);
/* smaps streamed from fd through buf: the rollup keys summed over every
 * mapping into m (zeroed first), m->bad as above.  0, or -errno of a
 * failed read. */
int pr_smaps(int fd, struct pr_mem *m, char *buf, size_t cap);

struct pr_status {
	char name[SR_NAME_MAX];  /* Name, unescaped (\n, \\), NUL-terminated */
	int name_cut;            /* Name did not fit */
	char state;              /* 'R', 'S', 'Z', ...; 0 when absent */
	int kthread;             /* "Kthread: 1" (6.x), else 0 */
	unsigned long ppid;
	unsigned long uid;       /* effective uid (second Uid field) */
	unsigned long pid, tgid; /* Pid and Tgid: they differ in a thread's
	                            /proc/TID (0 when absent) */
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
	/* the first four fields as the kernel wrote them, into the line:
	 * address range, permissions (4 bytes), offset, device */
	const char *field[4];
	size_t flen[4];
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

/* A process read the way smaps-rollup reads it, through the caller's
 * buffer (SR_READ_MAX bytes is enough; nothing is printed):
 *   pr_open             its directory /proc/PID
 *   pr_read_status      identity and status's counters
 *   pr_read_memory      smaps_rollup; smaps before 4.14; else status's
 *                       counters (a process whose maps we may not read)
 *   pr_read_cmdline     the command line
 *   pr_read_name        its Name again (comm), to tell whether a PID
 *                       read earlier is still the same program
 *   pr_close
 * Each step says what it found: */
enum pr_found {
	PR_FOUND,            /* read */
	PR_VANISHED,         /* the process is gone (or a zombie) */
	PR_INACCESSIBLE,     /* it may not be read */
	PR_KERNEL_THREAD,    /* it has no memory map of its own */
	PR_NO_FDS,           /* EMFILE or ENFILE: no file descriptor left (in
	                        pr_proc's err); says nothing about the process */
};
/* Where the sizes came from */
enum pr_source { PR_SRC_ROLLUP, PR_SRC_SMAPS, PR_SRC_STATUS };
struct pr_proc {
	int dir;                    /* /proc/PID, or -1 */
	struct pr_status status;
	struct pr_mem rollup;       /* smaps_rollup, or smaps summed */
	const struct pr_mem *mem;   /* the sizes: &rollup, or &status.mem */
	int source;                 /* enum pr_source */
	/* pr_read_memory: the first damaged line of the file read (rollup.bad)
	 * and that file; status's counters stand in */
	unsigned long bad;
	const char *bad_file;
	int err;                    /* PR_NO_FDS: EMFILE or ENFILE */
	int kernel;                 /* pr_kernel: /proc is the live kernel's */
};
/* Before the processes are read (p zeroed first): whether the /proc of
 * proc_fd is the live kernel's procfs; then each process's files are
 * opened as they are and read in one read (the kernel gives them whole),
 * not with the checks a captured tree needs. */
void pr_kernel(struct pr_proc *p, int proc_fd);
/* A file of the process's directory open for reading: fd or -errno. */
int pr_openat(const struct pr_proc *p, const char *name);
/* Each step below may also return PR_NO_FDS.
 * PR_FOUND, PR_VANISHED or PR_INACCESSIBLE (then nothing is left open). */
int pr_open(struct pr_proc *p, unsigned pid);
/* PR_FOUND, PR_VANISHED or PR_INACCESSIBLE. */
int pr_read_status(struct pr_proc *p, char *buf, size_t cap);
/* PR_FOUND, PR_VANISHED or PR_KERNEL_THREAD.  Live, a smaps_rollup that
 * disappears means the process is gone; in a capture it was not readable
 * (as EACCES is live), so status's counters stand in, as they do for a
 * damaged one (p->bad set). */
int pr_read_memory(struct pr_proc *p, char *buf, size_t cap);
/* The command line streamed through buf (cap bytes, more than
 * SR_NAME_MAX + 1): each piece, NULs as spaces (those at the end of the
 * file dropped), given to feed until it returns nonzero; an empty one is
 * "[Name]" in one piece.  A line of any length is seen whole, never held
 * whole.  0, or -errno of a failed open or read (what was fed stands). */
int pr_stream_cmdline(struct pr_proc *p, char *buf, size_t cap,
                      int (*feed)(void *ctx, const char *s, size_t n), void *ctx);
/* The Name into p->status.name, from comm (2.6.33+: one short read), else
 * (a capture without comm) from status: PR_FOUND, PR_VANISHED or
 * PR_INACCESSIBLE. */
int pr_read_name(struct pr_proc *p, char *buf, size_t cap);
/* The command line into buf with NULs as spaces, or "[Name]" when it has
 * none (a kernel thread, or a process that cleared it; cap must exceed
 * SR_NAME_MAX + 1): its length; *cut: the file did not fit. */
size_t pr_read_cmdline(struct pr_proc *p, char *buf, size_t cap, int *cut);
void pr_close(struct pr_proc *p);

/* The PIDs of a scan: list[0..n) when n > 0, else every PID under /proc,
 * listed anew from its start through dir (opened by rd_dir_open). */
struct pr_pids {
	struct rd_dir *dir;
	const unsigned *list;
	unsigned n, next;
	/* names that look like a PID but are not written as the kernel writes
	 * one ("0943", "+943", "943x", beyond 2^31 - 1: a damaged capture),
	 * skipped; the first of them */
	uint64_t odd;
	char odd_name[16];
};
void pr_pids_start(struct pr_pids *it, struct rd_dir *dir, const unsigned *list, unsigned n);
/* The next PID (a name in plain decimal without leading zeros), 0 at the
 * end, or -errno of listing /proc. */
long pr_pids_next(struct pr_pids *it);

/* smaps streamed one mapping at a time.  A line too long for the buffer
 * ends the mapping it is in; the lines after it, up to the next header,
 * belong to a mapping that cannot be named. */
struct pr_maps_sink {
	/* a mapping starts: its header (path valid during the call), or 0
	 * for one that cannot be named; 0 when its figures are not wanted
	 * (its lines are then not parsed, and end is not called) */
	int (*begin)(void *ctx, const struct pr_map *header);
	/* it ends: every PR_KEYS key of its lines */
	void (*end)(void *ctx, const struct pr_mem *figures);
	void *ctx;
};
/* smaps from fd through buf: 0 or -errno of a failed read; *long_lines
 * grows by the lines too long for buf (each counted when the line after
 * it arrives). */
int pr_maps(int fd, char *buf, size_t cap, const struct pr_maps_sink *sink, uint64_t *long_lines);
/* The same, buf holding the first have bytes of the file already (read
 * from fd, which is where they end). */
int pr_maps_after(int fd, char *buf, size_t cap, size_t have, const struct pr_maps_sink *sink,
                  uint64_t *long_lines);
#endif
