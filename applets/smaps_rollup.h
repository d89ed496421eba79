/* sr_: what the two files of the smaps-rollup applet share.
 * applets/smaps_rollup.c holds the options, the process views (the
 * default one and -S) and the code below; applets/smaps_rollup_objects.c
 * holds the object views (-M, -l).  Each file keeps its state in its own
 * GLOBALS, which overlap (only one view runs), so the code below works on
 * what it is given (a struct sr_scan in the caller's GLOBALS, the parsed
 * options), never on either file's TT. */
#ifndef MB_SMAPS_ROLLUP_H
#define MB_SMAPS_ROLLUP_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "pattern.h"
#include "proc.h"
#include "rd.h"

enum sr_view {
	SR_VIEW_PROCESSES,
	SR_VIEW_SHARED_SWAP,   /* -S: the process view, shared swap added */
	SR_VIEW_MAPS,          /* -M PID */
	SR_VIEW_OBJECTS,       /* -l */
};

/* -s; the sizes before SR_SORT_ANON are the ones groups and totals sum */
enum sr_sort { SR_SORT_PSS, SR_SORT_USS, SR_SORT_RSS, SR_SORT_SWAP, SR_SORT_SWAP_PSS,
               SR_SORT_ANON, SR_SORT_FILE, SR_SORT_SHMEM, SR_SORT_PRIVATE_DIRTY, SR_SORT_PID,
               SR_SORT_USER, SR_SORT_NAME, SR_SORT_N };
#define SR_SUMMED SR_SORT_ANON

/* -g; from SR_GROUP_USER on, the views of group sums */
enum sr_group { SR_GROUP_NONE, SR_GROUP_TREE, SR_GROUP_USER, SR_GROUP_NAME, SR_GROUP_CATEGORY,
                SR_GROUP_CGROUP, SR_GROUP_N };

/* -c NAME=GLOB: command lines matching GLOB are of category NAME */
struct sr_rule {
	const char *name;   /* not NUL-terminated: name_len bytes */
	size_t name_len;
	const char *glob;
};

struct sr_options {
	enum sr_view view;
	int table;                    /* -o table: the hand-laid table */
	unsigned pids[SR_MAX_PIDS];   /* -p; -M: its PID alone */
	unsigned npids;
	unsigned maps_pid;            /* -M */
	const char *user;             /* -U as given, or 0 */
	unsigned long uid;            /* -U's uid */
	enum sr_sort sort;
	enum sr_group group;
	int reverse, unsorted, verbose;
	unsigned top;                 /* -n; -1u: every process */
	unsigned cgroup_depth;        /* --cgroup-depth; -1u: the whole path */
	int all_cgroups;              /* -a: the cgroups without processes too */
	/* -c and -C, then "other": the category of what none matched */
	struct sr_rule rules[SR_MAX_RULES + 1];
	unsigned nrules;
};

/* What a scan saw, process by process: the coverage of the README. */
#define SR_COVERAGE(X) \
	X(PROCESSES, "processes") X(KERNEL_THREADS, "kernel_threads") \
	X(APPROXIMATE, "approximate") X(VANISHED, "vanished") X(INACCESSIBLE, "inaccessible") \
	X(DROPPED, "dropped") X(TRUNCATED, "truncated") X(SATURATED, "saturated") \
	X(GROUPED_OTHER, "grouped_other") X(COMMAND_LOST, "command_lost") \
	X(DAMAGED, "damaged") X(ODD_NAMES, "odd_names") X(CGROUPS_DROPPED, "cgroups_dropped")
/* From SR_DAMAGED on, a kind is reported only when it is not 0 (it
 * happens only to a damaged capture or system). */
/* What the views that read every mapping (-S, -M, -l) could not keep. */
#define SR_OVERFLOW(X) \
	X(OTHER_REGIONS, "other_regions") X(NAMES_CUT, "names_cut") X(LONG_LINES, "long_lines") \
	X(UNTRACKED_SWAP, "untracked_swap") X(TMPFS_MOUNTS, "tmpfs_mounts") X(SYSV_BAD, "sysv_bad") \
	X(FIGURES_SATURATED, "figures_saturated") X(CONSUMERS_DROPPED, "consumers_dropped")
#define SR_ENUM(id, name) SR_##id,
enum sr_coverage { SR_COVERAGE(SR_ENUM) SR_COVERAGE_N };
enum sr_overflow { SR_OVERFLOW(SR_ENUM) SR_OVERFLOW_N };
#undef SR_ENUM

/* A process as read: sizes in KiB as the kernel prints them (4 TiB at
 * most per field; beyond is saturated and counted).  Rollup keys, or
 * (source status) status's counters from kb[0]: key PR_VmRSS + i is in
 * kb[i].  The process views keep it packed (smaps_rollup.c) and re-read
 * its command line only when it is shown. */
struct sr_row {
	uint32_t kb[PR_NROLL];
	uint32_t have;             /* bit i: the kernel printed kb[i] */
	uint32_t shared_swap_kb;   /* -S: the PSS of its swapped shared memory */
	unsigned pid, ppid, uid;
	unsigned char source;      /* enum pr_source */
	unsigned char category;    /* the first -c rule its command line matches */
	char name[SR_NAME_MAX];
	/* -g cgroup: the memory cgroup's path (in the scan's cgroup, not
	 * NUL-terminated), 0 when unknown */
	const char *cgroup;
	size_t cgroup_len;
};

/* The scan both views run. */
struct sr_scan {
	struct rd_dir proc;        /* /proc, opened before anything is written */
	struct pr_proc process;    /* the process being read */
	struct sr_row cur;         /* ... as a row */
	char buf[SR_READ_MAX];     /* its files, one at a time */
	uint64_t coverage[SR_COVERAGE_N];
	uint64_t overflow[SR_OVERFLOW_N];
	/* "hidepid=invisible" when /proc hides other users' processes (we
	 * cannot count them then), else "" */
	char hidden[20];
	int maps_error;            /* errno of the last smaps that failed */
	/* EMFILE or ENFILE met at /proc/no_fds_pid: the scan stops there and
	 * fails (sr_scan_end) */
	int no_fds;
	unsigned no_fds_pid;
	struct meminfo meminfo;    /* MemTotal, for the process views */
	/* -c, -C: each rule's match of the command line being read */
	struct pat_state rules[SR_MAX_RULES];
	unsigned nrules;
	int cgroup_version;        /* -g cgroup: the hierarchy's (0: none mounted) */
	/* -g cgroup: /proc/PID/cgroup (the row's cgroup points here) */
	char cgroup[SR_CGROUP_READ];
	/* -S: what the smaps pass found, for the rows read after it: the
	 * processes with shared swap, by PID */
	struct sr_shared_swap {
		uint32_t pid, kb;
	} shared_swap[SR_MAX_SWAPPROCS];
	unsigned nshared_swap;
};

/* Before the scan: /proc opened, the mounts of PID's mount namespace (0:
 * ours) read for how /proc hides processes and each given to each_mount
 * (unless 0), /proc/meminfo read.  0, or 1 after the message. */
int sr_scan_start(struct sr_scan *s, unsigned pid, void (*each_mount)(const struct mnt *m));
/* "/proc/PID" (PID 0: "/proc/self") and rest, into b (48 bytes). */
const char *sr_proc_path(char *b, unsigned pid, const char *rest);
/* Read pid into s->cur: 1 for a process of the view (counted), else 0
 * (counted as what it was, or filtered out by -U).  With maps (not 0), a
 * process's smaps goes to it, mapping by mapping. */
int sr_read(struct sr_scan *s, const struct sr_options *o, unsigned pid,
            const struct pr_maps_sink *maps);
/* After a scan's loop (it stops once s->no_fds is set; last: what
 * pr_pids_next returned): the names under /proc that were no PIDs
 * counted and said, then 0, or 1 after the message of a scan cut short
 * (no file descriptor left, /proc not listed). */
int sr_scan_end(struct sr_scan *s, const struct pr_pids *it, long last);
/* The smaps of pid alone, whatever it is (-S's smaps pass): 0, or -errno. */
int sr_read_maps(struct sr_scan *s, unsigned pid, const struct pr_maps_sink *maps);

/* A table cell of a size: a blank, then right-aligned in 8; "~" marks an
 * approximate one, "-" an absent one. */
void sr_cell(uint64_t v, int has, int approx);
/* The table's "total (sizes in UNIT)" and coverage lines. */
void sr_coverage_line(const struct sr_scan *s);
/* The report's coverage and hidepid (the process views: in prom too), and
 * for the views that read every mapping, what they could not keep. */
void sr_report_scan(const struct sr_scan *s, enum sr_view view);
/* Warnings for what the mapping views could not keep. */
void sr_warn_overflow(const struct sr_scan *s);
/* ix: the indexes 0 to n - 1 in the order of compare (< 0: i comes before
 * j), equal ones in index order (musl's qsort_r, no recursion). */
void sr_sort(unsigned short *ix, unsigned n, int (*compare)(unsigned i, unsigned j));
/* Names compared as bytes, then by length: < 0 when a comes first. */
int sr_compare_names(const char *a, size_t an, const char *b, size_t bn);
#define SR_SIGN(a, b) (((a) > (b)) - ((a) < (b)))
void sr_warn_count(uint64_t n, const char *what, const char *why);

/* The object views, -M and -l (applets/smaps_rollup_objects.c): the exit
 * status. */
int sr_objects_view(const struct sr_options *o);
/* -S, before the process view reads its rows (applets/smaps_rollup_objects.c):
 * every process's smaps read once, the swap of each shared mapping divided
 * among the mappings of its object, the sums kept in s->shared_swap.  It
 * runs in the object views' state, which overlaps the process view's, and
 * leaves all of it but s zero.  0, or 1 after the message. */
int sr_shared_swap_pass(struct sr_scan *s, const struct sr_options *o);
/* -S: the KiB of shared swap the pass found for pid. */
uint32_t sr_shared_swap_of(const struct sr_scan *s, unsigned pid);
/* The sizes of an object: Size, Rss, Pss, Private_Clean, Private_Dirty,
 * Shared_Clean, Shared_Dirty, Swap, SwapPss (the -M columns) */
#define SR_OBJECT_SIZES 9
/* ... then its regions and processes: the figures the object views keep */
#define SR_OBJECT_FIGS (SR_OBJECT_SIZES + 2)
#endif
