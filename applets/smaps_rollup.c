/* smaps-rollup: who really uses the RAM.  Per process PSS, USS, RSS, Swap
 * and SwapPss from /proc/PID/smaps_rollup (smaps before 4.14, status where
 * neither is readable), identity from /proc/PID/status and cmdline, user
 * names from /etc/passwd, MemTotal from /proc/meminfo, how /proc hides
 * processes from /proc/self/mountinfo.  -S adds the swapped shared memory
 * of /proc/PID/smaps.  This file has the options, the process views and
 * the scan both views share (include/smaps_rollup.h); the object views,
 * -M and -l, are in smaps_rollup_maps.c. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <string.h>
#include <unistd.h>
#include "applet.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "passwd.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"

static const char *const usage = "Usage: smaps-rollup [OPTIONS]\n\n"
	"Per process PSS (pages divided among their sharers), USS (private pages),\n"
	"RSS, SWAP and SWAPPSS from /proc/PID/smaps_rollup (else smaps; else status,\n"
	"marked '~'), largest PSS first; then totals, coverage and PSS vs MemTotal.\n\n"
	"  -p, --pid=PID[,PID]   only these processes\n"
	"  -U, --user=USER       only processes of USER (name or uid)\n"
	"  -s, --sort=KEY        pss uss rss swap swappss anon file shmem pid user name\n"
	"  -r, --reverse         reverse the order\n"
	"  -n, --top=N           list the first N processes\n"
	"  -g, --group=BY        user, name, category or tree\n"
	"  -c, --category=NAME=GLOB  category of matching command lines (repeatable)\n"
	"  -C, --categories=SET  built-in categories: chromeos\n"
	"      --unsorted        list processes as read, drop none\n"
	"  -S, --shared-swap     add swapped shared memory to SWAPPSS (reads smaps)\n"
	"  -M, --maps=PID        the objects (files, memory) PID maps\n"
	"  -l, --objects         the objects of all processes; SysV segments\n"
	"  -v, --verbose         -l: the top processes of each object\n";

enum smaps_rollup_option {
	SR_OPT_PID = 'p', SR_OPT_USER = 'U', SR_OPT_SORT = 's', SR_OPT_REVERSE = 'r',
	SR_OPT_TOP = 'n', SR_OPT_GROUP = 'g', SR_OPT_CATEGORY = 'c', SR_OPT_CATEGORIES = 'C',
	SR_OPT_UNSORTED = OPT_APPLET, SR_OPT_SHARED_SWAP = 'S', SR_OPT_MAPS = 'M',
	SR_OPT_OBJECTS = 'l', SR_OPT_VERBOSE = 'v',
};
static const struct opt opts[] = {
	{ "pid", 'p', 1, SR_OPT_PID }, { "user", 'U', 1, SR_OPT_USER },
	{ "sort", 's', 1, SR_OPT_SORT }, { "reverse", 'r', 0, SR_OPT_REVERSE },
	{ "top", 'n', 1, SR_OPT_TOP }, { "group", 'g', 1, SR_OPT_GROUP },
	{ "category", 'c', 1, SR_OPT_CATEGORY }, { "categories", 'C', 1, SR_OPT_CATEGORIES },
	{ "unsorted", 0, 0, SR_OPT_UNSORTED }, { "shared-swap", 'S', 0, SR_OPT_SHARED_SWAP },
	{ "maps", 'M', 1, SR_OPT_MAPS }, { "objects", 'l', 0, SR_OPT_OBJECTS },
	{ "verbose", 'v', 0, SR_OPT_VERBOSE },
	{ 0, 0, 0, 0 }
};

static const char *const sort_names[SR_SORT_N] = { "pss", "uss", "rss", "swap", "swappss",
	"anon", "file", "shmem", "pid", "user", "name" };
/* -g's names; none has no name */
static const char *const group_names[SR_GROUP_N] = { "", "tree", "user", "name", "category" };
static const char *const source_names[] = { "rollup", "smaps", "status" };

/* -C chromeos: the rules as -c would add them, the first match wins */
static const char *const chromeos_rules[] = {
	"crosvm_arcvm=/usr/bin/crosvm run*/arcvm.sock*",
	"crosvm_other=/usr/bin/crosvm*",
	"chrome_renderer=/opt/google/chrome/chrome*--type=renderer*",
	"chrome_gpu=/opt/google/chrome/chrome*--type=gpu-process*",
	"chrome_other=/opt/google/chrome/chrome*--type=*",
	"chrome_browser=/opt/google/chrome/chrome*",
};

/* Each size (the sort keys before SR_SORT_PID) as the kernel's smaps key,
 * and as status's counter where only status is readable.  USS is
 * Private_Clean + Private_Dirty + Private_Hugetlb, else RssAnon. */
static const unsigned char rollup_key[SR_SORT_PID] = { PR_Pss, PR_Private_Clean, PR_Rss, PR_Swap,
	PR_SwapPss, PR_Pss_Anon, PR_Pss_File, PR_Pss_Shmem };
static const unsigned char status_key[SR_SORT_PID] = { PR_VmRSS, PR_RssAnon, PR_VmRSS, PR_VmSwap,
	PR_VmSwap, PR_RssAnon, PR_RssFile, PR_RssShmem };

#define SR_NAME(id, name) name,
static const char *const coverage_names[SR_COVERAGE_N] = { SR_COVERAGE(SR_NAME) };
static const char *const overflow_names[SR_OVERFLOW_N] = { SR_OVERFLOW(SR_NAME) };
#undef SR_NAME

#define NO_ROW 0xffff

GLOBALS(
	struct sr_scan scan;
	const struct sr_options *opt;
	/* the table for people, or the report layer's formats */
	int (*begin)(void);          /* before the scan: 1 when rows may be written as read */
	void (*row)(size_t i);       /* the row listed i-th */
	void (*end)(void);           /* the rows not written yet, the sums, the coverage */
	struct pw_cache users;       /* user names by uid */
	struct sr_row rows[SR_MAX_ROWS];
	unsigned nrows, capacity;
	int streaming;               /* rows are written as read and not kept */
	unsigned worst;              /* the row a better process replaces; -1u: to find */
	unsigned short order[SR_MAX_ROWS];    /* the rows as listed */
	/* -g tree */
	unsigned char depth[SR_MAX_ROWS];     /* of the row listed i-th */
	unsigned short parent[SR_MAX_ROWS];   /* a row's parent row, or NO_ROW */
	unsigned short by_subtree[SR_MAX_ROWS];   /* siblings are listed in this order */
	unsigned nlisted;
	/* the sums of the total, a group or a subtree */
	struct sums {
		uint64_t processes;
		uint64_t size[SR_SUMMED];    /* pss, uss, rss, swap, swap_pss */
		uint64_t pss_total;          /* pss + swap_pss */
	} total, subtree[SR_MAX_ROWS];
	struct group {
		char name[PW_NAME_MAX];
		struct sums sum;
	} groups[SR_MAX_GROUPS + 1];         /* [SR_MAX_GROUPS]: "(other)" */
	unsigned short group_order[SR_MAX_GROUPS + 1];
	unsigned ngroups;
	/* -S: shared objects with swap, and how many mappings each has */
	struct swap_object {
		uint64_t ino;
		uint32_t dev, mappings;
	} swap_objects[SR_MAX_SWAPOBJ];
	unsigned nswap_objects;
	int counting;                /* -S's first pass: count the mappings */
	struct swap_mapping {        /* the mapping being read */
		int shared;
		uint32_t dev;
		uint64_t ino;
	} mapping;
	uint64_t shared_swap_pss;    /* of the process being read, bytes */
	/* the report's records */
	struct rep_list processes;
	struct process_rec {
		uint64_t pid, ppid, uid;
		const char *user, *name, *command, *source;
		uint64_t kernel[PR_NK];      /* the keys the kernel printed, bytes */
		uint64_t size[SR_SUMMED];    /* pss, uss, rss, swap, swap_pss */
		uint64_t shared_swap_pss, depth;
		struct sums subtree;
		char uid_text[24];           /* a user without a name */
	} rec;
	struct group_rec {
		const char *by, *name;
		struct sums sum;
	} group_rec, total_rec;
)
#define TT this.smaps_rollup

/* The figures of a process.  pss, rss, swap and swap_pss are prom
 * families only: json has the kernel's keys (the "rollup" object) and
 * the one size computed from them, uss.  Each size is a prom family even
 * when no process has it. */
#define P(member) offsetof(struct process_rec, member)
enum process_fig {
	PF_PID, PF_PPID, PF_UID, PF_USER, PF_NAME, PF_USER_LABEL, PF_COMMAND, PF_SOURCE,
	PF_ROLLUP, PF_KERNEL, PF_ROLLUP_END = PF_KERNEL + PR_NK,
	PF_SIZE, PF_SHARED_SWAP = PF_SIZE + SR_SUMMED, PF_DEPTH, PF_SUBTREE,
	PF_SUBTREE_END = PF_SUBTREE + 7, PF_N
};
static const char process_help[] = "Memory of a process (PSS, USS: see the README).";
static const char counted_help[] = "Processes counted.";
static const char summed_help[] = "Memory summed over the processes.";
#define KERNEL_FIG(k) { #k, 0, 0, P(kernel[PR_##k]), REP_BYTES, 0, REP_NOPROM | REP_OMIT },
#define SIZE_FIG(key, m, flags) \
	{ key, 0, process_help, P(size[SR_SORT_##m]), REP_BYTES, 0, REP_OPTIONAL | REP_KEEP | (flags) }
/* The sums: processes, then the sizes */
#define SUM_FIGS(type, member, flags) \
	{ "processes", 0, counted_help, offsetof(type, member.processes), REP_COUNT, 0, flags }, \
	SUM_SIZE_FIGS(type, member, flags)
#define SUM_SIZE_FIGS(type, member, flags) \
	{ "pss", 0, summed_help, offsetof(type, member.size[SR_SORT_PSS]), REP_BYTES, 0, flags }, \
	{ "uss", 0, summed_help, offsetof(type, member.size[SR_SORT_USS]), REP_BYTES, 0, flags }, \
	{ "rss", 0, summed_help, offsetof(type, member.size[SR_SORT_RSS]), REP_BYTES, 0, flags }, \
	{ "swap", 0, summed_help, offsetof(type, member.size[SR_SORT_SWAP]), REP_BYTES, 0, flags }, \
	{ "swap_pss", 0, summed_help, offsetof(type, member.size[SR_SORT_SWAP_PSS]), REP_BYTES, 0, flags }, \
	{ "pss_total", 0, summed_help, offsetof(type, member.pss_total), REP_BYTES, 0, flags }
static const struct rep_fig process_figs[] = {
	{ "pid", 0, 0, P(pid), REP_COUNT, 0, REP_LABEL },
	{ "ppid", 0, 0, P(ppid), REP_COUNT, 0, REP_NOPROM },
	{ "uid", 0, 0, P(uid), REP_COUNT, 0, REP_NOPROM },
	{ "user", 0, 0, P(user), REP_STR, 0, REP_NOPROM },
	{ "name", 0, 0, P(name), REP_STR, 0, REP_LABEL },
	{ "user", 0, 0, P(user), REP_STR, 0, REP_LABEL | REP_NOTREE },
	{ "command", 0, 0, P(command), REP_STR, 0, REP_NOPROM },
	{ "source", 0, 0, P(source), REP_STR, 0, REP_LABEL },
	{ "rollup", 0, 0, 0, REP_OBJ, 0, 0 },
	PR_KEYS(KERNEL_FIG)
	{ "", 0, 0, 0, REP_END, 0, 0 },
	SIZE_FIG("pss", PSS, REP_NOTREE),
	SIZE_FIG("uss", USS, 0),
	SIZE_FIG("rss", RSS, REP_NOTREE),
	SIZE_FIG("swap", SWAP, REP_NOTREE),
	SIZE_FIG("swap_pss", SWAP_PSS, REP_NOTREE),
	/* -S; in prom the list below */
	{ "shared_swap_pss", 0, 0, P(shared_swap_pss), REP_BYTES, 0, REP_NOPROM | REP_OMIT },
	{ "depth", 0, 0, P(depth), REP_COUNT, 0, REP_NOPROM | REP_OMIT },
	{ "subtree", 0, 0, 0, REP_OBJ, 0, REP_OMIT },
	SUM_SIZE_FIGS(struct process_rec, subtree, REP_NOPROM),
	{ "", 0, 0, 0, REP_END, 0, 0 },
};
_Static_assert(REP_N(process_figs) == PF_N, "process_fig and process_figs differ");
/* -S in prom: the family of the processes' shared swap, even without any */
static const struct rep_fig shared_swap_figs[] = {
	{ "pid", 0, 0, P(pid), REP_COUNT, 0, REP_LABEL },
	{ "name", 0, 0, P(name), REP_STR, 0, REP_LABEL },
	{ "user", 0, 0, P(user), REP_STR, 0, REP_LABEL },
	{ "source", 0, 0, P(source), REP_STR, 0, REP_LABEL },
	{ "shared_swap_pss", 0, process_help, P(shared_swap_pss), REP_BYTES, 0, REP_KEEP },
};

/* A group (-g user, name, category); prom labels its samples by the
 * grouping and the group. */
#define G(member) offsetof(struct group_rec, member)
enum { GROUP_FIG_SUMS = 3 };
static const struct rep_fig group_figs[] = {
	{ "by", 0, 0, G(by), REP_STR, 0, REP_LABEL | REP_NOTREE },
	{ "group", 0, 0, G(name), REP_STR, 0, REP_LABEL | REP_NOTREE },
	{ "name", 0, 0, G(name), REP_STR, 0, REP_NOPROM },
	SUM_FIGS(struct group_rec, sum, 0),
};

/* After the processes (-S in prom: their shared swap): the total; in
 * prom each of its figures next to the same figure of the groups, when
 * there are groups. */
struct sums_report {
	struct rep_list shared_swap;
	struct sums total;
	const char *group_by;
	struct rep_list_total groups;
	struct rep_list total_alone;
};
#define S(member) offsetof(struct sums_report, member)
enum { SUMS_SHARED_SWAP, SUMS_GROUP_BY = 10, SUMS_GROUPS, SUMS_TOTAL_ALONE };
static const struct rep_fig sums_figs[] = {
	{ "shared_swap", 0, 0, S(shared_swap), REP_LIST, 0, REP_NOTREE | REP_OMIT },
	{ "total", 0, 0, 0, REP_OBJ, 0, 0 },
	SUM_FIGS(struct sums_report, total, REP_NOPROM),
	{ "", 0, 0, 0, REP_END, 0, 0 },
	{ "group_by", 0, 0, S(group_by), REP_STR, 0, REP_NOPROM | REP_OMIT },
	{ "groups", 0, 0, S(groups), REP_LIST_TOTAL, 0, REP_OMIT },
	{ "total", 0, 0, S(total_alone), REP_LIST, 0, REP_NOTREE | REP_OMIT },
};

static const struct rep_fig mem_total_fig[] = {
	{ "mem_total", 0, "MemTotal of /proc/meminfo.", offsetof(struct meminfo, v[MI_MemTotal]),
	  REP_BYTES, 0, REP_OPTIONAL },
};

/* What the scan saw: json's coverage object (hidepid inside it) and what
 * the mapping views could not keep; prom (the process views) a family of
 * the coverage labelled by kind, and one of hidepid. */
struct scan_report {
	uint64_t coverage[SR_COVERAGE_N];
	const char *hidden;
	struct rep_list kinds, hidepid;
	uint64_t overflow[SR_OVERFLOW_N];
	const struct sr_scan *scan;
	struct scan_row {            /* a row of the two prom lists */
		const char *label;
		uint64_t value;
	} row;
};
#define SC(member) offsetof(struct scan_report, member)
#define COVERAGE_FIG(id, name) { name, 0, 0, SC(coverage[SR_##id]), REP_COUNT, 0, REP_NOPROM },
#define OVERFLOW_FIG(id, name) { name, 0, 0, SC(overflow[SR_##id]), REP_COUNT, 0, REP_NOPROM },
enum { SCAN_HIDDEN = SR_COVERAGE_N + 1, SCAN_KINDS = SCAN_HIDDEN + 2, SCAN_HIDEPID, SCAN_OVERFLOW };
static const struct rep_fig scan_figs[] = {
	{ "coverage", 0, 0, 0, REP_OBJ, 0, 0 },
	SR_COVERAGE(COVERAGE_FIG)
	{ "hidden", 0, 0, SC(hidden), REP_STR, 0, REP_OPTIONAL | REP_NOPROM },
	{ "", 0, 0, 0, REP_END, 0, 0 },
	{ "kinds", 0, 0, SC(kinds), REP_LIST, 0, REP_NOTREE | REP_OMIT },
	{ "hidepid", 0, 0, SC(hidepid), REP_LIST, 0, REP_NOTREE | REP_OMIT },
	{ "overflow", 0, 0, 0, REP_OBJ, 0, REP_OMIT },
	SR_OVERFLOW(OVERFLOW_FIG)
	{ "", 0, 0, 0, REP_END, 0, 0 },
};
#define R(member) offsetof(struct scan_row, member)
static const struct rep_fig scan_kind_figs[] = {
	{ "kind", 0, 0, R(label), REP_STR, 0, REP_LABEL },
	{ "processes", 0, "Processes by what the scan found.", R(value), REP_COUNT, 0, 0 },
};
static const struct rep_fig scan_hidepid_figs[] = {
	{ "option", 0, 0, R(label), REP_STR, 0, REP_LABEL | REP_OPTIONAL },
	{ "hidden", 0, "1: /proc hides other users' processes (hidepid).", R(value), REP_COUNT, 0, 0 },
};

/* ---- the scan both views share (smaps_rollup.h) ---- */

const char *sr_proc_path(char *b, unsigned pid, const char *rest)
{
	char *e = b + 6;

	memcpy(b, "/proc/self", 10);
	e += pid ? u64_str(e, pid) : 4;
	memcpy(e, rest, strlen(rest) + 1);
	return b;
}

/* hidepid=2 (invisible) or 4 (ptraceable) on /proc (its last mount): the
 * kernel does not list other users' processes at all, so nothing can
 * count them; root sees them all. */
static void mounts(struct sr_scan *s, unsigned pid, void (*each)(const struct mnt *m))
{
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	char path[48];
	const char *v;
	size_t n;
	int fd;

	if ((fd = rd_lines_open(&r, sr_proc_path(path, pid, "/mountinfo"))) < 0)
		return;
	/* s->buf holds a line's strings: the reader's lines are no longer */
	while (mountinfo_next(&r, &m, s->buf, sizeof s->buf, &bad) > 0) {
		if (!strcmp(m.point, "/proc")) {
			*s->hidden = 0;
			if (opt_value(m.super, "hidepid", &v, &n) && n - 1 < 10 && strchr("24ip", *v) &&
			    !(rd_live() && !geteuid())) {
				memcpy(s->hidden, v - 8, n + 8);
				s->hidden[n + 8] = 0;
			}
		}
		if (each)
			each(&m);
	}
	close(fd);
}

int sr_scan_start(struct sr_scan *s, unsigned pid, void (*each_mount)(const struct mnt *m))
{
	struct diag d;
	int rc = rd_dir_open(&s->proc, "/proc");

	if (rc < 0)
		return mb_fail_errno("/proc", -rc);
	mounts(s, pid, each_mount);
	rc = meminfo_read(&s->meminfo);
	mb_warn_diag(&s->meminfo.diag);
	mb_warn_diag(rd_diag(&d, "/proc/meminfo", rc, 0));
	return 0;
}

static int read_maps(struct sr_scan *s, const struct pr_maps_sink *maps)
{
	int fd = rd_openat(s->process.dir, "smaps", O_RDONLY), rc;

	if (fd < 0)
		return fd;
	rc = pr_maps(fd, s->buf, sizeof s->buf, maps, &s->overflow[SR_LONG_LINES]);
	close(fd);
	return rc;
}

void sr_read_maps(struct sr_scan *s, unsigned pid, const struct pr_maps_sink *maps)
{
	int rc;

	if (pr_open(&s->process, pid) != PR_FOUND)
		return;
	if ((rc = read_maps(s, maps)) < 0)
		s->maps_error = -rc;
	pr_close(&s->process);
}

/* The command line into the row, and its category. */
static int read_cmdline(struct sr_scan *s, const struct sr_options *o)
{
	struct sr_row *r = &s->cur;
	int cut;
	size_t n = pr_read_cmdline(&s->process, s->buf, sizeof s->buf, &cut), i;

	s->buf[n] = 0;   /* n < SR_READ_MAX; fnmatch takes a C string */
	for (i = 0; i < o->nrules && fnmatch(o->rules[i].glob, s->buf, 0); i++)
		;
	r->category = i;
	if (n >= SR_CMD_MAX) {   /* cut at a character boundary */
		cut = 1;
		for (n = SR_CMD_MAX - 1; n && (s->buf[n] & 0xc0) == 0x80; n--)
			;
	}
	memcpy(r->cmd, s->buf, n);
	return cut;
}

int sr_read(struct sr_scan *s, const struct sr_options *o, unsigned pid,
            const struct pr_maps_sink *maps)
{
	static const unsigned char counted_as[] = {
		[PR_VANISHED] = SR_VANISHED, [PR_INACCESSIBLE] = SR_INACCESSIBLE,
		[PR_KERNEL_THREAD] = SR_KERNEL_THREADS,
	};
	struct pr_proc *p = &s->process;
	const struct pr_status *st = &p->status;
	struct sr_row *r = &s->cur;
	int found = pr_open(p, pid), off, saturated, rc;
	size_t i;

	if (found == PR_FOUND)
		found = pr_read_status(p, s->buf, sizeof s->buf);
	if (found == PR_FOUND && o->user && st->uid != o->uid) {
		pr_close(p);
		return 0;
	}
	if (found == PR_FOUND)
		found = pr_read_memory(p, s->buf, sizeof s->buf);
	if (found != PR_FOUND) {
		s->coverage[counted_as[found]]++;
		pr_close(p);
		return 0;
	}
	/* status's counters are stored from kb[0] */
	off = p->source == PR_SRC_STATUS ? PR_NROLL : 0;
	memset(r, 0, sizeof *r);
	r->pid = pid;
	r->ppid = st->ppid;
	r->uid = st->uid;
	r->source = p->source;
	r->have = (p->mem->have & ((1u << PR_NSIZE) - 1)) >> off;
	saturated = p->mem->ovf != 0;
	for (i = 0; i < PR_NROLL && i + off < PR_NSIZE; i++) {
		uint64_t kb = p->mem->v[i + off] >> 10;
		r->kb[i] = kb > UINT32_MAX ? UINT32_MAX : kb;
		saturated |= kb > UINT32_MAX;
	}
	s->coverage[SR_SATURATED] += saturated;
	s->coverage[SR_APPROXIMATE] += p->source == PR_SRC_STATUS;
	memcpy(r->name, st->name, sizeof r->name);
	s->coverage[SR_TRUNCATED] += read_cmdline(s, o) | st->name_cut;
	s->coverage[SR_PROCESSES]++;
	if (maps && (rc = read_maps(s, maps)) < 0)
		s->maps_error = -rc;
	pr_close(p);
	return 1;
}

void sr_sort(unsigned short *ix, unsigned n, int (*compare)(unsigned i, unsigned j))
{
	unsigned i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j && compare(ix[j - 1], i) > 0; j--)
			ix[j] = ix[j - 1];
		ix[j] = i;
	}
}

int sr_compare_names(const char *a, size_t an, const char *b, size_t bn)
{
	int d = memcmp(a, b, an < bn ? an : bn);
	return d ? SR_SIGN(d, 0) : SR_SIGN(an, bn);
}

void sr_cell(uint64_t v, int has, int approx)
{
	/* the size's text first, to right-align it with its '~' */
	char text[32];
	struct out cell = { .fd = -1, .buf = text }, *report = fo;

	if (!has) {
		fo_s("        -");
		return;
	}
	fo_c(' ');
	fo = &cell;
	tb_size(v, 0);
	fo = report;
	out_pad(fo, cell.len + approx, 8);
	if (approx)
		fo_c('~');
	out_mem(fo, text, cell.len);
}

void sr_coverage_line(const struct sr_scan *s)
{
	const char *c;
	unsigned i;

	fo_s("total (sizes in ");
	fo_s(*tb_unit() ? tb_unit() : "IEC units");
	fo_s(")\ncoverage:");
	for (i = 0; i < SR_COVERAGE_N; i++) {
		if (i > SR_DROPPED && !s->coverage[i])
			continue;
		fo_s(i ? ", " : " ");
		out_u64(fo, s->coverage[i]);
		fo_c(' ');
		for (c = coverage_names[i]; *c; c++)
			fo_c(*c == '_' ? ' ' : *c);
	}
	if (*s->hidden) {
		fo_s(", other users' processes hidden (");
		fo_s(s->hidden);
		fo_c(')');
	}
	tb_nl();
}

static const void *scan_kind_row(void *ctx, size_t i, uint64_t *have)
{
	struct scan_report *r = ctx;

	r->row.label = coverage_names[i];
	r->row.value = r->coverage[i];
	*have = REP_ALL;
	return &r->row;
}

static const void *scan_hidepid_row(void *ctx, size_t i, uint64_t *have)
{
	struct scan_report *r = ctx;

	(void)i;
	r->row.label = r->scan->hidden;
	r->row.value = !!*r->scan->hidden;
	*have = *r->scan->hidden ? REP_ALL : 0;
	return &r->row;
}

void sr_report_scan(const struct sr_scan *s, enum sr_view view)
{
	struct scan_report r = {
		.hidden = s->hidden, .scan = s,
		.kinds = { "kinds", "scan", scan_kind_figs, REP_N(scan_kind_figs), SR_COVERAGE_N,
		           scan_kind_row, 0, &r },
		.hidepid = { "hidepid", "scan", scan_hidepid_figs, REP_N(scan_hidepid_figs), 1,
		             scan_hidepid_row, 0, &r },
	};
	uint64_t have = 0;

	memcpy(r.coverage, s->coverage, sizeof r.coverage);
	memcpy(r.overflow, s->overflow, sizeof r.overflow);
	if (*s->hidden)
		have |= (uint64_t)1 << SCAN_HIDDEN;
	if (view < SR_VIEW_MAPS)
		have |= (uint64_t)1 << SCAN_KINDS | (uint64_t)1 << SCAN_HIDEPID;
	if (view != SR_VIEW_PROCESSES)
		have |= (uint64_t)1 << SCAN_OVERFLOW;
	rep_figs("", scan_figs, REP_N(scan_figs), &r, have);
}

void sr_warn_count(uint64_t n, const char *what, const char *why)
{
	char b[48];
	char *e = b + u64_str(b, n);

	*e = ' ';
	memcpy(e + 1, what, strlen(what) + 1);
	mb_warn(b, why);
}

void sr_warn_overflow(const struct sr_scan *s)
{
	int i;

	for (i = 0; i < SR_OVERFLOW_N; i++)
		if (s->overflow[i])
			sr_warn_count(s->overflow[i], overflow_names[i],
			              "beyond a bound of the mapping views (see the README)");
}

/* ---- the process views ---- */

/* Size m (a sort key before SR_SORT_PID) of a row in bytes; *has (unless
 * 0): the kernel printed it.  -S's shared swap adds to SwapPss. */
static uint64_t row_size(const struct sr_row *r, int m, int *has)
{
	int k = r->source == PR_SRC_STATUS ? status_key[m] - PR_NROLL : rollup_key[m], h;
	uint64_t v = r->kb[k];

	if (k == PR_Private_Clean)
		v += (uint64_t)r->kb[PR_Private_Dirty] + r->kb[PR_Private_Hugetlb];
	h = r->have >> k & 1;
	v = h ? v << 10 : 0;
	if (m == SR_SORT_SWAP_PSS && r->shared_swap_kb) {
		v += (uint64_t)r->shared_swap_kb << 10;
		h = 1;
	}
	if (has)
		*has = h;
	return v;
}

static const char *user_name(unsigned long uid, char *b)
{
	const char *s = pw_name(&TT.users, uid);
	if (s)
		return s;
	b[u64_str(b, uid)] = 0;
	return b;
}

static void add(struct sums *s, const struct sr_row *r)
{
	int m;

	s->processes++;
	for (m = 0; m < SR_SUMMED; m++)
		s->size[m] = sat_add(s->size[m], row_size(r, m, 0));
	s->pss_total = sat_add(s->size[SR_SORT_PSS], s->size[SR_SORT_SWAP_PSS]);
}

/* The order of the listings: a size largest first (absent counts as 0),
 * then a name, then a number, smallest first; -r reverses processes and
 * groups.  Equal ones keep the order they were read in. */
static int compare_rows(const struct sr_row *a, const struct sr_row *b)
{
	int d = 0;

	switch (TT.opt->sort) {
	case SR_SORT_PID:
		break;
	case SR_SORT_USER:
		d = SR_SIGN(a->uid, b->uid);
		break;
	case SR_SORT_NAME:
		d = sr_compare_names(a->name, strlen(a->name), b->name, strlen(b->name));
		break;
	default:
		d = SR_SIGN(row_size(b, TT.opt->sort, 0), row_size(a, TT.opt->sort, 0));
	}
	if (!d)
		d = SR_SIGN(a->pid, b->pid);
	return TT.opt->reverse ? -d : d;
}

static int row_order(unsigned i, unsigned j)
{
	return compare_rows(&TT.rows[i], &TT.rows[j]);
}

/* Groups by the size sorted on (PSS for the others), then by name. */
static int group_order(unsigned i, unsigned j)
{
	const struct group *x = &TT.groups[i], *y = &TT.groups[j];
	int m = TT.opt->sort < SR_SUMMED ? (int)TT.opt->sort : SR_SORT_PSS, d = 0;

	if (TT.opt->sort != SR_SORT_USER && TT.opt->sort != SR_SORT_NAME)
		d = SR_SIGN(y->sum.size[m], x->sum.size[m]);
	if (!d)
		d = sr_compare_names(x->name, strlen(x->name), y->name, strlen(y->name));
	return TT.opt->reverse ? -d : d;
}

/* Siblings by the PSS of their subtrees, whatever -s and -r say. */
static int subtree_order(unsigned i, unsigned j)
{
	int d = SR_SIGN(TT.subtree[j].size[SR_SORT_PSS], TT.subtree[i].size[SR_SORT_PSS]);
	return d ? d : SR_SIGN(TT.rows[i].pid, TT.rows[j].pid);
}

/* The sums of the group named [k, k+n) (cut to PW_NAME_MAX - 1 bytes),
 * added when new; beyond SR_MAX_GROUPS groups, "(other)". */
static struct sums *group_sums(const char *k, size_t n)
{
	struct group *g = TT.groups;
	unsigned i;

	if (n >= PW_NAME_MAX)
		n = PW_NAME_MAX - 1;
	for (i = 0; i < TT.ngroups; i++)
		if (sc_eq(k, n, g[i].name))
			return &g[i].sum;
	if (TT.ngroups == SR_MAX_GROUPS) {
		TT.scan.coverage[SR_GROUPED_OTHER]++;
		memcpy(g[i].name, "(other)", 8);
	} else {
		memcpy(g[i].name, k, n);
		TT.ngroups++;
	}
	return &g[i].sum;
}

static struct sums *group_of(const struct sr_row *r)
{
	const struct sr_options *o = TT.opt;
	const char *key = r->name;
	char b[24];
	size_t n;

	if (o->group == SR_GROUP_USER)
		key = user_name(r->uid, b);
	n = strlen(key);
	if (o->group == SR_GROUP_CATEGORY) {
		key = o->rules[r->category].name;
		n = o->rules[r->category].name_len;
	}
	return group_sums(key, n);
}

/* -S: a shared mapping's swap is divided among the mappings of its object
 * that the first pass counted over every process. */
static void swap_begin(void *ctx, const struct pr_map *header)
{
	(void)ctx;
	TT.mapping.shared = header && header->shared;
	if (header) {
		TT.mapping.dev = header->dev;
		TT.mapping.ino = header->ino;
	}
}

static void swap_end(void *ctx, const struct pr_mem *figures)
{
	struct swap_object *o = TT.swap_objects;
	unsigned i;

	(void)ctx;
	if (!TT.mapping.shared || !figures->v[PR_Swap])
		return;
	for (i = 0; i < TT.nswap_objects && (o[i].ino != TT.mapping.ino || o[i].dev != TT.mapping.dev); i++)
		;
	if (TT.counting) {
		if (i == TT.nswap_objects && i < SR_MAX_SWAPOBJ) {
			o[i].ino = TT.mapping.ino;
			o[i].dev = TT.mapping.dev;
			TT.nswap_objects++;
		}
		if (i < TT.nswap_objects)
			o[i].mappings++;
	} else if (i < TT.nswap_objects) {
		TT.shared_swap_pss += figures->v[PR_Swap] / o[i].mappings;
	} else {
		TT.scan.overflow[SR_UNTRACKED_SWAP]++;
	}
}

static const struct pr_maps_sink swap_sink = { swap_begin, swap_end, 0 };

/* One process: into the sums, then listed now, kept, or (the table is
 * full) kept instead of the last row when it comes before it. */
static void one(unsigned pid)
{
	const struct sr_options *o = TT.opt;
	struct sr_row *cur = &TT.scan.cur;
	unsigned i;

	if (TT.counting) {
		sr_read_maps(&TT.scan, pid, &swap_sink);
		return;
	}
	TT.shared_swap_pss = 0;
	if (!sr_read(&TT.scan, o, pid, o->view == SR_VIEW_SHARED_SWAP ? &swap_sink : 0))
		return;
	cur->shared_swap_kb = TT.shared_swap_pss >> 10 > UINT32_MAX ? UINT32_MAX : TT.shared_swap_pss >> 10;
	add(&TT.total, cur);
	if (o->group >= SR_GROUP_USER)
		add(group_of(cur), cur);
	if (TT.nrows < TT.capacity) {
		i = TT.nrows++;
		if (TT.streaming) {
			TT.row(i);
			return;
		}
	} else {
		TT.scan.coverage[SR_DROPPED]++;
		if (TT.streaming)
			return;
		if (TT.worst == -1u)
			for (TT.worst = 0, i = 1; i < TT.nrows; i++)
				if (compare_rows(&TT.rows[i], &TT.rows[TT.worst]) > 0)
					TT.worst = i;
		if (!TT.nrows || compare_rows(cur, &TT.rows[TT.worst]) >= 0)
			return;
		i = TT.worst;
		TT.worst = -1u;
	}
	TT.rows[i] = *cur;
}

static int scan(const unsigned *pids, unsigned npids)
{
	struct pr_pids it;
	long pid;

	pr_pids_start(&it, &TT.scan.proc, pids, npids);
	while ((pid = pr_pids_next(&it)) > 0)
		one(pid);
	return pid < 0 ? mb_fail_errno("/proc", -pid) : 0;
}

/* -g tree: the listing in pre-order, children by subtree PSS; a process
 * whose parent is not kept is a root.  The recursion is at most
 * SR_MAX_ROWS small frames deep. */
static void walk(unsigned parent, unsigned depth)
{
	unsigned i;

	for (i = 0; i < TT.nrows; i++)
		if (TT.parent[TT.by_subtree[i]] == parent) {
			TT.order[TT.nlisted] = TT.by_subtree[i];
			TT.depth[TT.nlisted++] = depth;
			walk(TT.by_subtree[i], depth + 1);
		}
}

static void tree(void)
{
	unsigned i, j, a;

	memset(TT.parent, 0xff, sizeof TT.parent);
	for (i = 0; i < TT.nrows; i++) {
		for (j = 0; j < TT.nrows; j++)
			if (j != i && TT.rows[j].pid == TT.rows[i].ppid) {
				for (a = j; a != NO_ROW && a != i; a = TT.parent[a])
					;
				if (a == NO_ROW)   /* no cycle in a hostile capture */
					TT.parent[i] = j;
				break;
			}
	}
	for (i = 0; i < TT.nrows; i++)
		for (a = i; a != NO_ROW; a = TT.parent[a])
			add(&TT.subtree[a], &TT.rows[i]);
	sr_sort(TT.by_subtree, TT.nrows, subtree_order);
	TT.nlisted = 0;
	walk(NO_ROW, 0);
}

/* The row listed i-th: the process just read when streaming. */
static const struct sr_row *listed(size_t i)
{
	return TT.streaming ? &TT.scan.cur : &TT.rows[TT.order[i]];
}

/* ---- the table ---- */

static int table_begin(void)
{
	if (TT.opt->group == SR_GROUP_TREE)
		fo_s("    PID USER          PSS      USS      RSS     SWAP  SWAPPSS  TREEPSS  TREEUSS COMMAND\n");
	else if (TT.opt->group < SR_GROUP_USER)
		fo_s("    PID USER          PSS      USS      RSS     SWAP  SWAPPSS COMMAND\n");
	return 1;
}

static void table_row(size_t i)
{
	const struct sr_row *r = listed(i);
	unsigned depth = TT.streaming ? 0 : TT.depth[i];
	char b[24];
	int m, has;
	uint64_t v;

	tb_u64(r->pid, 7);
	fo_c(' ');
	tb_str(user_name(r->uid, b), 8);
	for (m = 0; m < SR_SUMMED; m++) {
		v = row_size(r, m, &has);
		sr_cell(v, has, r->source == PR_SRC_STATUS);
	}
	if (TT.opt->group == SR_GROUP_TREE) {
		sr_cell(TT.subtree[TT.order[i]].size[SR_SORT_PSS], 1, 0);
		sr_cell(TT.subtree[TT.order[i]].size[SR_SORT_USS], 1, 0);
	}
	out_pad(fo, 0, 1 + 2 * (depth < 20 ? depth : 20));
	out_safe(fo, r->cmd, strlen(r->cmd));
	tb_nl();
}

static void table_sums(const struct sums *s, int with_total)
{
	int m;

	for (m = 0; m < SR_SUMMED; m++)
		sr_cell(s->size[m], 1, 0);
	if (with_total)
		sr_cell(s->pss_total, 1, 0);
	fo_c(' ');
}

static void table_size(uint64_t v)
{
	tb_size(v, 0);
	if (*tb_unit()) {
		fo_c(' ');
		fo_s(tb_unit());
	}
}

/* The groups or the rows, the total, coverage, and PSS against MemTotal. */
static void table_end(void)
{
	const struct meminfo *mi = &TT.scan.meminfo;
	int grouped = TT.opt->group >= SR_GROUP_USER;
	unsigned i;

	for (i = 0; !TT.streaming && !grouped && i < TT.nrows; i++)
		table_row(i);
	if (grouped)
		fo_s("  PROCS      PSS      USS      RSS     SWAP  SWAPPSS    TOTAL GROUP\n");
	for (i = 0; grouped && i < TT.ngroups; i++) {
		const struct group *g = &TT.groups[TT.group_order[i]];
		tb_u64(g->sum.processes, 7);
		table_sums(&g->sum, 1);
		out_safe(fo, g->name, strlen(g->name));
		tb_nl();
	}
	tb_u64(TT.total.processes, 7);
	if (!grouped)
		fo_s(" procs   ");
	table_sums(&TT.total, grouped);
	sr_coverage_line(&TT.scan);
	fo_s("PSS ");
	table_size(TT.total.size[SR_SORT_PSS]);
	fo_s(" of MemTotal ");
	if (MI_HAS(mi, MI_MemTotal) && mi->v[MI_MemTotal]) {
		uint64_t t = mi->v[MI_MemTotal], p = TT.total.size[SR_SORT_PSS];
		table_size(t);
		fo_s(" = ");
		/* hundredths of a percent, without overflow */
		out_fix(fo, p < UINT64_MAX / 10000 ? p * 10000 / t : p / (t / 10000 + 1), 2);
		fo_c('%');
	} else {
		fo_c('-');
	}
	tb_nl();
}

/* ---- the report (json, kv, prom) ---- */

static const void *process_row(void *ctx, size_t i, uint64_t *have)
{
	const struct sr_row *r = listed(i);
	struct process_rec *p = &TT.rec;
	int off = r->source == PR_SRC_STATUS ? PR_NROLL : 0, m, has;
	unsigned k;

	(void)ctx;
	p->pid = r->pid;
	p->ppid = r->ppid;
	p->uid = r->uid;
	p->user = user_name(r->uid, p->uid_text);
	p->name = r->name;
	p->command = r->cmd;
	p->source = source_names[r->source];
	for (k = 0; k < PR_NROLL && k + off < PR_NSIZE; k++)
		p->kernel[k + off] = (uint64_t)r->kb[k] << 10;
	*have = (uint64_t)r->have << (PF_KERNEL + off);
	for (m = 0; m < SR_SUMMED; m++) {
		p->size[m] = row_size(r, m, &has);
		*have |= (uint64_t)has << (PF_SIZE + m);
	}
	if (TT.opt->view == SR_VIEW_SHARED_SWAP) {
		p->shared_swap_pss = (uint64_t)r->shared_swap_kb << 10;
		*have |= (uint64_t)1 << PF_SHARED_SWAP;
	}
	if (TT.opt->group == SR_GROUP_TREE) {
		p->depth = TT.depth[i];
		p->subtree = TT.subtree[TT.order[i]];
		*have |= (uint64_t)1 << PF_DEPTH | (uint64_t)1 << PF_SUBTREE;
	}
	return p;
}

/* kv: process.PID.pss (process_row has just filled TT.rec) */
static void process_kvname(void *ctx, size_t i, char *b)
{
	(void)ctx;
	(void)i;
	memcpy(b, "process.", 8);
	b[8 + u64_str(b + 8, TT.rec.pid)] = 0;
}

static const void *group_row(void *ctx, size_t i, uint64_t *have)
{
	const struct group *g = &TT.groups[TT.group_order[i]];

	(void)ctx;
	TT.group_rec.by = group_names[TT.opt->group];
	TT.group_rec.name = g->name;
	TT.group_rec.sum = g->sum;
	*have = REP_ALL;
	return &TT.group_rec;
}

static const void *total_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	(void)i;
	*have = REP_ALL;
	return &TT.total_rec;
}

static int report_begin(void)
{
	rep_begin();
	return rep_list_open(&TT.processes);
}

static void report_row(size_t i)
{
	rep_list_row(&TT.processes, i);
}

static void report_end(void)
{
	const struct sr_options *o = TT.opt;
	struct sums_report sums = {
		.shared_swap = { "shared_swap", "process", shared_swap_figs, REP_N(shared_swap_figs),
		                 TT.nrows, process_row, 0, 0 },
		.total = TT.total, .group_by = group_names[o->group],
		.groups = { { "groups", "group", group_figs, REP_N(group_figs), TT.ngroups, group_row, 0, 0 },
		            &TT.total_rec, "total" },
		.total_alone = { "total", "total", group_figs + GROUP_FIG_SUMS,
		                 REP_N(group_figs) - GROUP_FIG_SUMS, 1, total_row, 0, 0 },
	};
	uint64_t have = (uint64_t)1 << (o->group >= SR_GROUP_USER ? SUMS_GROUPS : SUMS_TOTAL_ALONE);
	unsigned i;

	for (i = 0; !TT.streaming && i < TT.nrows; i++)
		rep_list_row(&TT.processes, i);
	TT.processes.rows = TT.nrows;
	rep_list_close(&TT.processes);
	TT.total_rec.sum = TT.total;
	if (o->group)
		have |= (uint64_t)1 << SUMS_GROUP_BY;
	if (o->view == SR_VIEW_SHARED_SWAP)
		have |= (uint64_t)1 << SUMS_SHARED_SWAP;
	rep_figs("", sums_figs, REP_N(sums_figs), &sums, have);
	sr_report_scan(&TT.scan, o->view);
	rep_figs("", mem_total_fig, 1, &TT.scan.meminfo, MI_HAS(&TT.scan.meminfo, MI_MemTotal));
	rep_end();
}

static int process_view(const struct sr_options *o)
{
	int rc, streamable;
	unsigned i;

	TT.opt = o;
	if (o->table) {
		TT.begin = table_begin;
		TT.row = table_row;
		TT.end = table_end;
	} else {
		TT.begin = report_begin;
		TT.row = report_row;
		TT.end = report_end;
	}
	TT.processes = (struct rep_list){ "processes", "process", process_figs, PF_N, 0,
	                                  process_row, process_kvname, 0 };
	TT.worst = -1u;
	if (sr_scan_start(&TT.scan, 0, 0))
		return 1;
	if (o->view == SR_VIEW_SHARED_SWAP) {   /* every process, whatever -p and -U select */
		TT.counting = 1;
		rc = scan(0, 0);
		TT.counting = 0;
		if (rc)
			return rc;
	}
	/* as read: asked for, or live, in PID order */
	streamable = o->group != SR_GROUP_TREE &&
	             (o->unsorted || (o->sort == SR_SORT_PID && !o->reverse && !o->npids && rd_live()));
	for (i = 0; o->group == SR_GROUP_CATEGORY && i <= o->nrules; i++)
		group_sums(o->rules[i].name, o->rules[i].name_len);
	TT.streaming = TT.begin() && streamable;
	TT.capacity = TT.streaming || o->top < SR_MAX_ROWS ? o->top : SR_MAX_ROWS;
	if ((rc = scan(o->pids, o->npids)))
		return rc;
	if (!TT.streaming) {
		sr_sort(TT.order, TT.nrows, row_order);
		if (o->group == SR_GROUP_TREE)
			tree();
	}
	sr_warn_overflow(&TT.scan);
	if (TT.scan.coverage[SR_DROPPED] && !TT.streaming && o->top > SR_MAX_ROWS)
		sr_warn_count(TT.scan.coverage[SR_DROPPED], "processes",
		              "not listed: more than SR_MAX_ROWS; counted in the totals");
	if (TT.scan.coverage[SR_GROUPED_OTHER])
		sr_warn_count(TT.scan.coverage[SR_GROUPED_OTHER], "processes",
		              "grouped as (other): more than SR_MAX_GROUPS groups");
	if (o->group >= SR_GROUP_USER) {
		TT.ngroups += !!TT.groups[SR_MAX_GROUPS].sum.processes;
		sr_sort(TT.group_order, TT.ngroups, group_order);
	}
	TT.end();
	if ((o->npids || o->user) && !TT.scan.coverage[SR_PROCESSES])
		return mb_fail("no matching process", 0);
	return 0;
}

/* ---- the options ---- */

/* The index of s in names[0..n), else -1. */
static int pick(const char *const *names, int n, const char *s)
{
	int i;
	for (i = 0; i < n && strcmp(names[i], s); i++)
		;
	return i < n ? i : -1;
}

static int add_rule(struct sr_options *o, const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (!eq || eq == spec || o->nrules == SR_MAX_RULES)
		return -1;
	o->rules[o->nrules].name = spec;
	o->rules[o->nrules].name_len = eq - spec;
	o->rules[o->nrules++].glob = eq + 1;
	return 0;
}

/* -p PID[,PID]: the PIDs, once each: 0, or -1 after a message. */
static int add_pids(struct sr_options *o, char *p)
{
	char *comma;
	uint64_t v;
	unsigned i;

	for (;;) {
		/* each PID an option number of its own: its end a NUL for a moment */
		if ((comma = strchr(p, ',')))
			*comma = 0;
		if (cli_u64("-p", p, 1, 0x7fffffff, &v))
			return -1;
		if (comma)
			*comma = ',';
		for (i = 0; i < o->npids && o->pids[i] != v; i++)
			;
		if (i == o->npids && o->npids == SR_MAX_PIDS)
			return mb_warn("-p", "more than SR_MAX_PIDS (64) PIDs"), -1;
		if (i == o->npids)
			o->pids[o->npids++] = v;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int options(struct sr_options *o, int argc, char **argv)
{
	struct optst st = { 0 };
	const char *p;
	uint64_t v;
	size_t k;
	int id, i;

	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		p = st.arg;
		switch (id) {
		case OPT_ERR:
			return 2;
		case SR_OPT_PID:
			if (add_pids(o, (char *)p))
				return cli_usage_error(usage);
			break;
		case SR_OPT_USER:
			o->user = p;
			break;
		case SR_OPT_SORT:
			if ((i = pick(sort_names, SR_SORT_N, p)) < 0)
				goto bad;
			o->sort = i;
			break;
		case SR_OPT_GROUP:   /* none has no name to give */
			if ((i = pick(group_names, SR_GROUP_N, p)) < 1)
				goto bad;
			o->group = i;
			break;
		case SR_OPT_REVERSE:
			o->reverse = 1;
			break;
		case SR_OPT_TOP:
			if (cli_u64("-n", p, 1, UINT64_MAX, &v))
				return cli_usage_error(usage);
			/* more than there can be processes: all of them */
			o->top = v < -1u ? v : -1u;
			break;
		case SR_OPT_MAPS:
			if (cli_u64("-M", p, 1, 0x7fffffff, &v))
				return cli_usage_error(usage);
			o->maps_pid = v;
			o->view = SR_VIEW_MAPS;
			break;
		case SR_OPT_CATEGORIES:
			if (strcmp(p, "chromeos"))
				goto bad;
			for (k = 0; k < sizeof chromeos_rules / sizeof *chromeos_rules; k++)
				if (add_rule(o, p = chromeos_rules[k]))
					goto bad;
			break;
		case SR_OPT_CATEGORY:
			if (add_rule(o, p))
				goto bad;
			break;
		case SR_OPT_UNSORTED:
			o->unsorted = 1;
			break;
		case SR_OPT_SHARED_SWAP:
			o->view = SR_VIEW_SHARED_SWAP;
			break;
		case SR_OPT_OBJECTS:
			o->view = SR_VIEW_OBJECTS;
			break;
		case SR_OPT_VERBOSE:
			o->verbose = 1;
			break;
		}
	}
	if (st.ind < argc) {
		p = argv[st.ind];
		goto bad;
	}
	if (o->nrules && !o->group)
		o->group = SR_GROUP_CATEGORY;
	o->rules[o->nrules].name = "other";
	o->rules[o->nrules].name_len = 5;
	if (o->view == SR_VIEW_MAPS) {
		o->pids[0] = o->maps_pid;
		o->npids = 1;
	}
	if (o->view >= SR_VIEW_MAPS)
		o->group = SR_GROUP_NONE;
	o->verbose &= o->view == SR_VIEW_OBJECTS;
	return 0;
bad:
	mb_warn(p, "bad value");
	return cli_usage_error(usage);
}

int smaps_rollup_main(int argc, char **argv)
{
	struct sr_options o = { .top = -1u };
	uint64_t uid;
	int rc;

	cli_init("smaps-rollup");
	if ((rc = options(&o, argc, argv)) || (rc = cli_root()))
		return rc;
	if (o.user) {
		if (sc_u64_all(o.user, strlen(o.user), &uid) == SC_OK)
			o.uid = uid;
		else if (pw_uid(o.user, &o.uid))
			return mb_fail(o.user, "no such user");
	}
	o.table = fmt == FMT_TABLE;
	return o.view >= SR_VIEW_MAPS ? sr_objects_view(&o) : process_view(&o);
}
