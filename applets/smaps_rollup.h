/* sr_: what the files of the smaps-rollup applet share.  Each calls only
 * the ones below it:
 *   smaps_rollup.c          options, threads, main: runs one view
 *   smaps_rollup_procs.c    the process views (default, -S, -g)
 *   smaps_rollup_cgroup.c   -g cgroup: the cgroups and their own figures
 *   smaps_rollup_objects.c  the object views (-M, -l) and -S's pass
 *   smaps_rollup_rows.c     the processes the process views keep, sums
 *   smaps_rollup_scan.c     the scan both views run
 * The state is one GLOBALS (smaps_rollup.c): the scan, the options, and a
 * union of one struct per view, so a view writes only its own.  The scan
 * works on what it is given (a struct sr_scan, the options). */
#ifndef MB_SMAPS_ROLLUP_H
#define MB_SMAPS_ROLLUP_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "meminfo.h"
#include "cgroup.h"
#include "mountinfo.h"
#include "passwd.h"
#include "pattern.h"
#include "keyset.h"
#include "proc.h"
#include "psi.h"
#include "rd.h"
#include "report.h"
#include "sysvshm.h"

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
	int prom;                     /* -o prom: families, no json-only members */
	unsigned pids[SR_MAX_PIDS];   /* -p; -M: its PID alone */
	unsigned npids;
	unsigned maps_pid;            /* -M */
	const char *user;             /* -U as given, or 0 */
	unsigned long uid;            /* -U's uid */
	enum sr_sort sort;
	enum sr_group group;
	int reverse, unsorted, verbose;
	unsigned top;                 /* -n; -1u: not given (more: every process) */
	unsigned cgroup_depth;        /* --cgroup-depth; -1u: the whole path */
	int all_cgroups;              /* -a: the cgroups without processes too */
	int gpu;                      /* --gpu: DMA-BUF and DRM memory (smaps_rollup_gpu.c) */
	/* -c and -C, then "other": the category of what none matched */
	struct sr_rule rules[SR_MAX_RULES + 1];
	unsigned nrules;
};

/* What a scan saw, process by process: the coverage of smaps-rollup.1. */
#define SR_COVERAGE(X) \
	X(PROCESSES, "processes") X(KERNEL_THREADS, "kernel_threads") \
	X(APPROXIMATE, "approximate") X(VANISHED, "vanished") X(INACCESSIBLE, "inaccessible") \
	X(DROPPED, "dropped") X(TRUNCATED, "truncated") X(SATURATED, "saturated") \
	X(GROUPED_OTHER, "grouped_other") X(COMMAND_LOST, "command_lost") \
	X(DAMAGED, "damaged") X(ODD_NAMES, "odd_names") X(CGROUPS_DROPPED, "cgroups_dropped") \
	X(GPU_UNREADABLE, "gpu_unreadable") X(GPU_DROPPED, "gpu_dropped")
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

/* --gpu: a process's DMA-BUF share (each buffer's size divided among the
 * processes holding it), the whole sizes of its buffers, and its share of
 * the resident memory of its DRM clients; KiB, rounded down */
enum { SR_GPU_DMABUF_PSS, SR_GPU_DMABUF_RSS, SR_GPU_DRM_PSS, SR_GPU_N };

/* A process as read: sizes in KiB as the kernel prints them (4 TiB at
 * most per field; beyond is saturated and counted).  Rollup keys, or
 * (source status) status's counters from kb[0]: key PR_VmRSS + i is in
 * kb[i].  The process views keep it packed (smaps_rollup.c) and re-read
 * its command line only when it is shown. */
struct sr_row {
	uint32_t kb[PR_NROLL];
	uint32_t have;             /* bit i: the kernel printed kb[i] */
	uint32_t shared_swap_kb;   /* -S: the PSS of its swapped shared memory */
	uint32_t gpu_kb[SR_GPU_N]; /* --gpu */
	unsigned pid, ppid, uid;
	unsigned char source;      /* enum pr_source */
	unsigned char category;    /* the first -c rule its command line matches */
	char name[SR_NAME_MAX];
	/* -g cgroup: the memory cgroup's path (in the scan's cgroup, not
	 * NUL-terminated), 0 when unknown */
	const char *cgroup;
	size_t cgroup_len;
	/* its command line as pr_read_cmdline gives it (command_len bytes,
	 * not NUL-terminated; command_cut: the file was longer), read by
	 * the scan through the /proc/PID of its figures; 0 when not read */
	const char *command;
	uint32_t command_len;
	int command_cut;
};

/* The scan both views run. */
struct sr_scan {
	struct rd_dir proc;        /* /proc, opened before anything is written */
	struct pr_proc process;    /* the process being read */
	struct sr_row cur;         /* ... as a row */
	char buf[SR_READ_MAX];     /* its files, one at a time */
	char meminfo_text[MB_FILE_MAX];   /* /proc/meminfo, read whole at the start */
	uint64_t coverage[SR_COVERAGE_N];
	uint64_t overflow[SR_OVERFLOW_N];
	/* "hidepid=invisible" when /proc hides other users' processes (we
	 * cannot count them then), else "" */
	char hidden[20];
	int maps_error;            /* errno of the last smaps that failed */
	/* the object views: the smaps of the process being read, open, and
	 * the bytes of its start in buf (-errno: they could not be read) */
	int maps_fd;
	long maps_have;
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
	/* the process view: each process's command line read with its
	 * figures (the row's command points here): a byte more than json
	 * shows, and the NUL */
	int read_commands;
	char command[SR_CMD_MAX + 2];
	/* -S: what the smaps pass found, for the rows read after it: the
	 * processes with shared swap, by PID */
	union {
		struct sr_shared_swap {
			uint32_t pid, kb;
		} shared_swap[SR_MAX_SWAPPROCS];
		/* --gpu (never with -S): what its pass found, the
		 * processes holding any, by PID */
		struct sr_gpu {
			uint32_t pid, kb[SR_GPU_N];
		} gpu[SR_MAX_SWAPPROCS / 2];
	};
	unsigned nshared_swap, ngpu;
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

/* The object views, -M and -l (smaps_rollup_objects.c): the exit
 * status. */
int sr_objects_view(const struct sr_options *o);
/* -S, before the process view reads its rows (smaps_rollup_objects.c):
 * every process's smaps read once, the swap of each shared mapping divided
 * among the mappings of its object, the sums kept in s->shared_swap.  It
 * runs in the object view's state (the process view clears it after).
 * 0, or 1 after the message. */
int sr_shared_swap_pass(struct sr_scan *s);
/* -S: the KiB of shared swap the pass found for pid (smaps_rollup_scan.c,
 * from s->shared_swap, which sr_by_pid orders). */
uint32_t sr_shared_swap_of(const struct sr_scan *s, unsigned pid);
int sr_by_pid(const void *a, const void *b);
/* --gpu, before the process view reads its rows (smaps_rollup_gpu.c):
 * every process's DMA-BUF and DRM descriptors and DMA-BUF mappings read
 * once, in the state of its own (dmabuf.h), each process's figures kept
 * in s->gpu; what could not be read counted in the coverage.  0. */
int sr_gpu_pass(struct sr_scan *s);
/* --gpu: pid's figures from s->gpu, KiB (0 when it holds none) */
void sr_gpu_of(const struct sr_scan *s, unsigned pid, uint32_t kb[SR_GPU_N]);
/* The sizes of an object: Size, Rss, Pss, Private_Clean, Private_Dirty,
 * Shared_Clean, Shared_Dirty, Swap, SwapPss (the -M columns) */
#define SR_OBJECT_SIZES 9
/* ... then its regions and processes: the figures the object views keep */
#define SR_OBJECT_FIGS (SR_OBJECT_SIZES + 2)

/* An index of a kept process (or a cgroup) that points nowhere */
#define SR_NO_ROW 0xffff
/* The processes a process view keeps (smaps_rollup_rows.c), in reading
 * order: a fixed header each; the Name, -S's shared swap, every size it
 * has and where its command line is are packed in pool (sr_keep,
 * sr_unpack), so a process costs what it holds, not PR_NROLL fixed
 * fields.  With commands, the command line the scan read is kept in
 * command_pool while it has room (SR_CMD_POOL); a row without one has it
 * re-read when it is written. */
struct sr_kept {
	struct kept {
		uint32_t pid, ppid, uid;
		uint32_t at;                  /* its bytes in pool */
		uint32_t have : PR_NROLL;     /* sr_row's have */
		uint32_t source : 2;          /* enum pr_source */
		uint32_t category : 5;        /* sr_row's category */
	} kept[SR_MAX_ROWS];
	unsigned char pool[SR_ROW_POOL];
	uint32_t pool_used;
	unsigned nkept;
	int shared_swap;             /* -S: each keeps its shared swap */
	int gpu;                     /* --gpu: each keeps its SR_GPU_N figures */
	int commands;                /* each keeps its command line, if it has room */
	uint32_t command_pool_used;
	unsigned char command_pool[SR_CMD_POOL];   /* each: its length * 2 + cut, then its bytes */
};
/* Sums of processes: the sizes as their rows show them, and the rollup
 * keys (no sum of SR_MAX_ROWS rows of 2^42-byte sizes nears 2^64) */
struct sr_sums {
	uint64_t processes;
	uint64_t size[SR_SUMMED];      /* pss, uss, rss, swap, swap_pss as rows show them */
	uint64_t pss_total;            /* pss + swap_pss */
	uint64_t gpu[SR_GPU_N];        /* --gpu, bytes */
	uint64_t kernel[PR_NROLL];     /* each rollup key, bytes */
	uint32_t having[PR_NROLL];     /* processes that printed the key */
};
/* Keep r: 0 when the tables are full. */
int sr_keep(struct sr_kept *k, const struct sr_row *r);
/* The i-th process kept, into r. */
void sr_unpack(const struct sr_kept *k, unsigned i, struct sr_row *r);
/* Size m (a sort key before SR_SORT_PID) of a row in bytes; *has (unless
 * 0): the kernel printed it.  -S's shared swap adds to SwapPss. */
uint64_t sr_row_size(const struct sr_row *r, int m, int *has);
/* r into s: its sizes, and each rollup key it has. */
void sr_add(struct sr_sums *s, const struct sr_row *r);

/* The process views' state (smaps_rollup_procs.c). */
struct sr_procs {
	/* the table for people, or the report layer's formats */
	int (*begin)(void);          /* before the scan: 1 when rows may be written as read */
	void (*row)(size_t i);       /* the row listed i-th */
	void (*end)(void);           /* the rows not written yet, the sums, the coverage */
	struct pw_cache users;       /* user names by uid */
	struct sr_kept rows;         /* the processes kept */
	unsigned nlisted, capacity;
	uint64_t not_kept;           /* beyond SR_MAX_ROWS or SR_ROW_POOL */
	int streaming;               /* rows are written as read and not kept */
	struct sr_row shown;         /* the row being written, unpacked */
	struct sr_sums total;
	unsigned ngroups;
	/* the report's records */
	struct rep_list processes;
	struct process_rec {
		uint64_t pid, ppid, uid;
		const char *user, *name, *command, *source;
		int command_cut;
		uint64_t kernel[PR_NK];      /* the keys the kernel printed, bytes */
		uint64_t size[SR_SUMMED];    /* pss, uss, rss, swap, swap_pss */
		uint64_t shared_swap_pss, depth;
		uint64_t gpu[SR_GPU_N];      /* --gpu */
		struct sr_sums subtree_sums;
		struct rep_record subtree;
		char uid_text[24];           /* a user without a name */
	} rec;
	struct group_rec {
		const char *by, *name;
		struct sr_sums sum;
		struct rep_record cgroup;    /* -g cgroup: the cgroup's own figures */
	} group_rec;
	/* the tables last, each touched as far as it is used: the small
	 * state above shares its pages */
	unsigned short order[SR_MAX_ROWS];    /* the kept processes as listed */
	unsigned short group_order[SR_MAX_GROUPS + 1];
	/* the command line of the row being written, re-read (a byte more
	 * than json shows, and the NUL) */
	char command[SR_CMD_MAX + 2];
	struct group {
		char name[PW_NAME_MAX];
		struct sr_sums sum;
	} groups[SR_MAX_GROUPS + 1];         /* [SR_MAX_GROUPS]: "(other)" */
};

/* -g tree's state (smaps_rollup_procs.c), any depth, no recursion:
 * parent links, the children of each process side by side in kids, each
 * subtree's size; the listing in pre-order, so a subtree is the listed
 * rows from its root on, and its sums are two running sums apart. */
struct sr_tree {
	unsigned short parent[SR_MAX_ROWS];   /* a kept process's parent, or SR_NO_ROW */
	unsigned short kids[SR_MAX_ROWS];     /* by parent (roots last), then subtree PSS, PID */
	unsigned short kid_at[SR_MAX_ROWS];   /* where a process is in kids */
	unsigned short family[SR_MAX_ROWS];   /* processes in its subtree, itself included */
	unsigned short depth[SR_MAX_ROWS];    /* of the row listed i-th (before: marks) */
	union {
		uint64_t subtree_pss_kb[SR_MAX_ROWS];   /* while siblings are ordered */
		/* then: the sums of the rows listed before i * SR_PREFIX_STEP */
		struct sr_sums running[SR_MAX_ROWS / SR_PREFIX_STEP + 1];
	};
};

/* -g cgroup's state (smaps_rollup_cgroup.c).  No sums per cgroup (a
 * struct sr_sums each would be 10 MiB at SR_MAX_CGROUPS): each kept
 * process has the index of its cgroup, the processes are sorted by it,
 * and a cgroup's sums are added up from its run of processes when it is
 * written. */
struct sr_cgroups {
	const struct sr_kept *rows;          /* the process view's */
	unsigned short cgroup_of[SR_MAX_ROWS];       /* a kept process's cgroup */
	unsigned short by_cgroup[SR_MAX_ROWS];       /* the kept processes by cgroup */
	uint32_t cgroup_at[SR_CGROUP_ENTRIES];          /* a cgroup's path in cgroup_pool */
	unsigned short cgroup_run[SR_CGROUP_ENTRIES];   /* its first process in by_cgroup; SR_NO_ROW: none */
	unsigned short cgroup_order[SR_CGROUP_ENTRIES]; /* the cgroups as listed (-a: first, the walk's queue) */
	union {
		uint32_t cgroup_slots[SR_CGROUP_SLOTS];   /* while reading: cgroup_set's index */
		uint64_t cgroup_key[SR_CGROUP_ENTRIES];      /* then: the size cgroups are listed by */
	};
	char cgroup_pool[SR_CGROUP_POOL];
	struct keyset cgroup_set;            /* the cgroups by path (n: how many), no keys kept */
	unsigned ncgroup_paths;              /* of them, paths (not (other), (unknown)) */
	unsigned cgroups_scanned;            /* -a: those of processes; the walk's after them */
	unsigned nlisted;                    /* the cgroups listed */
	uint32_t cgroup_pool_used;
	struct sr_sums cgroup_sum;           /* the cgroup being written */
	/* a cgroup's own figures, read from its directory (sizes in bytes)
	 * as it is written; not_in_pss: file_unmapped, kernel, sock, rest */
	struct cgroup_rec {
		uint64_t version, current, swap_current, max, high;
		struct rep_call stat, events;
		struct rep_record pressure;
		int64_t charged_minus_pss, not_in_pss[4];
	} cgroup_rec;
	struct psi cgroup_psi;               /* its memory.pressure */
	struct cgroup_text {                 /* a file of "key value" lines, as read */
		char *s;
		long n;
	} cgroup_stat, cgroup_events;
	int cgroup_quiet;                    /* prom: the files read again, said once */
	struct cg_hier hier;                 /* where the memory cgroups are */
	char cgroup_path[MB_PATH_MAX];       /* a cgroup's directory, or a path being built */
	char cgroup_file[MB_PATH_MAX + 64];  /* a cgroup file's path, for a message */
	/* -a's walk is over before the first cgroup is written: its buffers
	 * and the texts read for each cgroup written share their pages */
	union {
		struct {
			struct rd_dir cgroup_dir;            /* -a: the directory being walked */
			char cgroup_child[MB_PATH_MAX];      /* -a: the path of a directory found */
		};
		struct {
			char cgroup_events_text[1024];       /* memory.events (v1: memory.oom_control) */
			char cgroup_pressure_text[256];      /* memory.pressure: two lines of at most 80 bytes */
			char cgroup_stat_text[SR_CGROUP_STAT];  /* memory.stat */
		};
	};
};
/* -g cgroup (smaps_rollup_cgroup.c), called by the process view: */
/* each mount, during sr_scan_start: where the memory cgroups are */
void sr_cgroup_mount(const struct mnt *m);
/* after sr_scan_start: the hierarchy checked (and said), the rows the
 * cgroups' sums are taken from */
void sr_cgroup_start(const struct sr_kept *rows);
/* the process just kept as the rows' i-th: its cgroup noted */
void sr_cgroup_keep(unsigned i, const struct sr_row *r);
/* after the scan: -a's walk, the cgroups ordered; how many are listed */
unsigned sr_cgroup_list(void);
/* the sums and name of the cgroup listed i-th */
const struct sr_sums *sr_cgroup_at(unsigned i, const char **name);
/* the table: the labels of a cgroup's own columns, then for the cgroup
 * listed i-th its charge and what of it is not PSS (pss: its
 * processes'), each line's cells alone */
void sr_cgroup_table_head(void);
void sr_cgroup_table_charge(unsigned i, uint64_t pss);
/* json, kv: its own figures, as a record */
struct rep_record sr_cgroup_record(unsigned i, uint64_t pss);
/* prom: the cgroups' families */
void sr_cgroup_prom(void);

/* The object views' state (smaps_rollup_objects.c), -S's pass too. */
struct sr_objects {
	/* The objects, by a 64-bit key (a hash of what tells them apart):
	 * objset.n of them, numbered as found (core/keyset.c, over keys and
	 * slots; the slots in use grow with the objects). */
	struct keyset objset;
	uint64_t keys[SR_MAX_OBJS];
	uint32_t slots[SR_OBJ_SLOTS];
	unsigned mapping;               /* the object of the mapping being read */
	union {
		struct {   /* -M, -l */
			struct object {
				uint32_t name;             /* in names: its length (2 bytes), then its bytes */
				uint32_t consumer;         /* -v: its pair of the process being read, + 1;
				                              after the scan its first pair + 1 (0: none) */
				/* the figures while each fits in 16 bits (KiB: 64 MiB);
				 * then the index of its wide figures in [0] and [1] */
				uint16_t narrow[SR_OBJECT_FIGS];
				unsigned char kind;        /* PK_ */
				unsigned char flags;       /* OBJ_ */
			} objects[SR_MAX_OBJS + 1];   /* [SR_MAX_OBJS]: "(other objects)" */
			struct wide {
				uint64_t fig[SR_OBJECT_FIGS];
			} wide[SR_MAX_WIDE];
			unsigned nwide;
			char names[SR_OBJ_POOL];
			unsigned names_used;
			/* -v: a process's PSS in an object */
			struct consumer {
				uint32_t object, pid, pss_kb, name;
			} consumers[SR_MAX_CONSUMERS];
			unsigned nconsumers;
			uint32_t process_name;      /* -v: the name of the process being read, or NOT_YET */
			/* the objects the process being read maps (bit per index) */
			unsigned char mapped[SR_MAX_OBJS / 8 + 1];
			uint64_t unreadable;        /* processes whose smaps could not be read */
			uint64_t total[SR_OBJECT_FIGS];
			/* -M: the mapping being read, its header's text kept
			 * until its row is written as it ends */
			char mapping_text[SR_READ_MAX];
			struct mapping_rec {
				struct rep_text field[4], name;   /* range, perms, offset, device */
				uint64_t inode;
				const char *kind;
				uint64_t size[SR_OBJECT_SIZES], locked, thp;
			} mapping_rec;
			uint64_t mapping_have;
			size_t nmappings;           /* rows written */
			int maps_open;              /* the report (and the mappings' list) begun */
		};
		struct {   /* -S's smaps pass */
			uint32_t sharers[SR_MAX_OBJS];   /* mappings with swap of each shared object */
			/* each process with shared swap: a SWAP_PROCESS entry (kb: its
			 * PID), then the object and swap of each such mapping */
			struct swap_seen {
				uint32_t object, kb;
			} swap_seen[SR_SWAP_POOL];
			unsigned nswap_seen;
			uint64_t swap_key;          /* the key of the shared mapping being read */
			unsigned swap_pid;          /* the process being read, until its first entry */
		};
	};
	uint32_t tmpfs[SR_MAX_TMPFS];   /* devices of tmpfs mounts */
	unsigned ntmpfs;
	unsigned nlisted;
	/* the report's records */
	struct object_rec {
		uint64_t pid;               /* -M: the process */
		const char *process_name;
		const char *kind;
		struct rep_text name;
		int shared;
		const char *shared_label;
		uint64_t processes, regions, maps_unreadable;
		uint64_t size[SR_OBJECT_SIZES];
		struct rep_list consumers;
	} rec;
	struct consumer_rec {
		uint64_t pid;
		struct rep_text name;
		uint64_t pss;
	} consumer_rec;
	/* /proc/sysvipc/shm, read anew for each pass over its segments */
	struct sysv_reader {
		struct rd_lines lines;
		char line[MB_LINE_MAX];   /* the reader's buffer */
		struct shm_it it;
		int fd;
		struct sysv_rec {
			uint64_t id, owner, attaches, size, rss, swap;
		} rec;
	} sysv;
};

/* -g's names; none has no name */
extern const char *const sr_group_names[SR_GROUP_N];
/* The process views (default, -S): the exit status. */
int sr_process_view(const struct sr_options *o);
#endif
