/* smaps-rollup's process views: the rows kept, packed, their order,
 * groups, -g tree and -g cgroup, the table for people and the report's
 * records.  It runs the scan (smaps_rollup_scan.c) and, for -S, the
 * object view's pass first (smaps_rollup_objects.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "applet.h"
#include "cgroup.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "passwd.h"
#include "pattern.h"
#include "proc.h"
#include "psi.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"
#include "tree.h"
#include "zero.h"

/* the applet's state; the process view's own is TT */
#define SR this.smaps_rollup
#define TT SR.v.procs

/* -g's names; none has no name */
const char *const sr_group_names[SR_GROUP_N] = { "", "tree", "user", "name", "category",
	"cgroup" };
static const char *const source_names[] = { "rollup", "smaps", "status" };

/* Each size (the sort keys before SR_SORT_PID) as the kernel's smaps key,
 * and as status's counter where only status is readable.  USS is
 * Private_Clean + Private_Dirty + Private_Hugetlb, else RssAnon. */
static const unsigned char rollup_key[SR_SORT_PID] = { PR_Pss, PR_Private_Clean, PR_Rss, PR_Swap,
	PR_SwapPss, PR_Pss_Anon, PR_Pss_File, PR_Pss_Shmem, PR_Private_Dirty };
static const unsigned char status_key[SR_SORT_PID] = { PR_VmRSS, PR_RssAnon, PR_VmRSS, PR_VmSwap,
	PR_VmSwap, PR_RssAnon, PR_RssFile, PR_RssShmem, PR_RssAnon };

#define NO_ROW 0xffff
_Static_assert(SR_CGROUP_ENTRIES < NO_ROW - 1, "a cgroup's index fits 16 bits beside NO_ROW");
_Static_assert(SR_MAX_ROWS <= NO_ROW, "kept processes are told by 16-bit indexes");
_Static_assert(SR_MAX_RULES < 32, "a kept process's category is 5 bits");
/* Without -n: the table and prom list this many (a screen, and a sane
 * number of Prometheus series), json and kv every process. */
#define LISTED_BY_DEFAULT 256
/* A packed process at most: Name (length and bytes), -S's shared swap,
 * then a variable-length integer (at most 5 bytes for 32 bits) per size */
#define PACKED_MAX (1 + SR_NAME_MAX + 5 + 5 * PR_NROLL)
/* The table shows this much of a command line (json and kv SR_CMD_MAX) */
#define TABLE_COMMAND 127


/* The figures of a process.  pss, rss, swap and swap_pss are prom
 * families only: json has the kernel's keys (the "rollup" object) and
 * the one size computed from them, uss.  Each size is a prom family even
 * when no process has it. */
/* Presence bits: key k of the rollup is PF_KERNEL + k, size m PF_SIZE + m */
enum {
	PF_COMMAND = 1, PF_COMMAND_CUT, PF_KERNEL, PF_SIZE = PF_KERNEL + PR_NK,
	PF_SHARED_SWAP = PF_SIZE + SR_SUMMED, PF_DEPTH, PF_SUBTREE
};
static const char process_help[] = "Memory of a process (PSS, USS: see smaps-rollup(1)).";
static const char counted_help[] = "Processes counted.";
static const char summed_help[] = "Memory summed over the processes.";
#define KERNEL_FIG(k) FIG(struct process_rec, kernel[PR_##k], #k, REP_BYTES, \
	.flags = REP_NOPROM | REP_OMIT, .bit = PF_KERNEL + PR_##k),
#define SIZE_FIG(key, m, fl) \
	FIG(struct process_rec, size[SR_SORT_##m], key, REP_BYTES, .help = process_help, \
	    .flags = REP_OPTIONAL | REP_KEEP | (fl), .bit = PF_SIZE + SR_SORT_##m)
/* The sums: processes, then the sizes as the rows show them, then every
 * other rollup key, named as the kernel's in lower case with '_' between
 * words (null where no process summed printed it): its presence bit
 * SUM_KEY_BIT + its key, the bits after SUM_BITS free for the table */
enum { SUM_KEY_BIT = 1, SUM_BITS = SUM_KEY_BIT + PR_NROLL };
#define SUM_FIGS(type, member, fl) \
	FIG(type, member.processes, "processes", REP_COUNT, .help = counted_help, .flags = fl), \
	SUM_SIZE_FIGS(type, member, fl)
#define SUM_SIZE_FIGS(type, member, fl) \
	FIG(type, member.size[SR_SORT_PSS], "pss", REP_BYTES, .help = summed_help, .flags = fl), \
	FIG(type, member.size[SR_SORT_USS], "uss", REP_BYTES, .help = summed_help, .flags = fl), \
	FIG(type, member.size[SR_SORT_RSS], "rss", REP_BYTES, .help = summed_help, .flags = fl), \
	FIG(type, member.size[SR_SORT_SWAP], "swap", REP_BYTES, .help = summed_help, .flags = fl), \
	FIG(type, member.size[SR_SORT_SWAP_PSS], "swap_pss", REP_BYTES, .help = summed_help, .flags = fl), \
	FIG(type, member.pss_total, "pss_total", REP_BYTES, .help = summed_help, .flags = fl), \
	SUMMED_KEYS(SUM_KEY, type, member, fl)
/* The rollup keys summed beyond the sizes before them (Rss, Pss, Swap,
 * SwapPss), in the kernel's order: each one's json/kv key, its -v table
 * column and its PR_ key */
#define SUMMED_KEYS(X, ...) \
	X(__VA_ARGS__, "pss_dirty", "PSSDIRTY", Pss_Dirty) \
	X(__VA_ARGS__, "pss_anon", "PSSANON", Pss_Anon) \
	X(__VA_ARGS__, "pss_file", "PSSFILE", Pss_File) \
	X(__VA_ARGS__, "pss_shmem", "PSSSHMEM", Pss_Shmem) \
	X(__VA_ARGS__, "shared_clean", "SHRCLEAN", Shared_Clean) \
	X(__VA_ARGS__, "shared_dirty", "SHRDIRTY", Shared_Dirty) \
	X(__VA_ARGS__, "private_clean", "PRVCLEAN", Private_Clean) \
	X(__VA_ARGS__, "private_dirty", "PRVDIRTY", Private_Dirty) \
	X(__VA_ARGS__, "referenced", "REFERNCD", Referenced) \
	X(__VA_ARGS__, "anonymous", "ANON", Anonymous) \
	X(__VA_ARGS__, "ksm", "KSM", KSM) \
	X(__VA_ARGS__, "lazy_free", "LAZYFREE", LazyFree) \
	X(__VA_ARGS__, "anon_huge_pages", "ANONHUGE", AnonHugePages) \
	X(__VA_ARGS__, "shmem_pmd_mapped", "SHMEMPMD", ShmemPmdMapped) \
	X(__VA_ARGS__, "file_pmd_mapped", "FILEPMD", FilePmdMapped) \
	X(__VA_ARGS__, "shared_hugetlb", "SHRHUGE", Shared_Hugetlb) \
	X(__VA_ARGS__, "private_hugetlb", "PRVHUGE", Private_Hugetlb) \
	X(__VA_ARGS__, "locked", "LOCKED", Locked)
#define SUM_KEY(type, member, fl, key, column, k) \
	FIG(type, member.kernel[PR_##k], key, REP_BYTES, .help = summed_help, \
	    .flags = (fl) | REP_OPTIONAL, .bit = SUM_KEY_BIT + PR_##k),
#define SUMMED_KEY(_, key, column, k) PR_##k,
static const unsigned char summed_keys[] = { SUMMED_KEYS(SUMMED_KEY, 0) };
#undef SUMMED_KEY
enum { N_SUMMED = sizeof summed_keys / sizeof *summed_keys, SUM_SIZES = SR_SUMMED + 1 };
_Static_assert(N_SUMMED + 4 == PR_NROLL, "a rollup key neither a size nor summed");
static const struct rep_fig process_figs[] = {
	FIG(struct process_rec, pid, "pid", REP_COUNT, .flags = REP_LABEL),
	FIG(struct process_rec, ppid, "ppid", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct process_rec, uid, "uid", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct process_rec, user, "user", REP_STR, .flags = REP_NOPROM),
	FIG(struct process_rec, name, "name", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, user, "user", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct process_rec, command, "command", REP_STR, .flags = REP_NOPROM | REP_OPTIONAL,
	    .bit = PF_COMMAND),
	FIG(struct process_rec, command_cut, "command_cut", REP_BOOL, .flags = REP_NOPROM | REP_OPTIONAL,
	    .bit = PF_COMMAND_CUT),
	FIG(struct process_rec, source, "source", REP_STR, .flags = REP_LABEL),
	FIG_OBJ("rollup"),
	PR_KEYS(KERNEL_FIG)
	FIG_END,
	SIZE_FIG("pss", PSS, REP_NOTREE),
	SIZE_FIG("uss", USS, 0),
	SIZE_FIG("rss", RSS, REP_NOTREE),
	SIZE_FIG("swap", SWAP, REP_NOTREE),
	SIZE_FIG("swap_pss", SWAP_PSS, REP_NOTREE),
	/* -S; in prom the list below */
	FIG(struct process_rec, shared_swap_pss, "shared_swap_pss", REP_BYTES, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_SHARED_SWAP),
	FIG(struct process_rec, depth, "depth", REP_COUNT, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_DEPTH),
	FIG(struct process_rec, subtree, "subtree", REP_RECORD, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_SUBTREE),
};
/* -g tree: a process's subtree (REP_RECORD: a have mask of its own) */
static const struct rep_fig subtree_figs[] = {
	SUM_SIZE_FIGS(struct process_rec, subtree_sums, 0)
};
/* -S in prom: the family of the processes' shared swap, even without any */
static const struct rep_fig shared_swap_figs[] = {
	FIG(struct process_rec, pid, "pid", REP_COUNT, .flags = REP_LABEL),
	FIG(struct process_rec, name, "name", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, user, "user", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, source, "source", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, shared_swap_pss, "shared_swap_pss", REP_BYTES, .help = process_help, .flags = REP_KEEP),
};

/* -g cgroup: a cgroup's own figures (json and kv; prom: cgroup_prom) */
/* Presence bits: part k of not_in_pss is CF_PART + k */
enum { CF_VERSION = 1, CF_CURRENT, CF_SWAP_CURRENT, CF_MAX, CF_HIGH, CF_STAT, CF_EVENTS,
       CF_PRESSURE, CF_CHARGED_MINUS_PSS, CF_NOT_IN_PSS, CF_PART };
static const struct rep_fig cgroup_figs[] = {
	FIG(struct cgroup_rec, version, "version", REP_COUNT, .flags = REP_OPTIONAL, .bit = CF_VERSION),
	FIG(struct cgroup_rec, current, "current", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_CURRENT),
	FIG(struct cgroup_rec, swap_current, "swap_current", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_SWAP_CURRENT),
	FIG(struct cgroup_rec, max, "max", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_MAX),
	FIG(struct cgroup_rec, high, "high", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_HIGH),
	FIG(struct cgroup_rec, stat, "stat", REP_CALL, .flags = REP_OPTIONAL, .bit = CF_STAT),
	FIG(struct cgroup_rec, events, "events", REP_CALL, .flags = REP_OPTIONAL, .bit = CF_EVENTS),
	FIG(struct cgroup_rec, pressure, "pressure", REP_RECORD, .flags = REP_OPTIONAL, .bit = CF_PRESSURE),
	FIG(struct cgroup_rec, charged_minus_pss, "charged_minus_pss", REP_SBYTES, .flags = REP_OPTIONAL, .bit = CF_CHARGED_MINUS_PSS),
	FIG_OBJ("not_in_pss", .flags = REP_OPTIONAL, .bit = CF_NOT_IN_PSS),
	FIG(struct cgroup_rec, not_in_pss[0], "file_unmapped", REP_SBYTES, .flags = REP_OPTIONAL, .bit = CF_PART),
	FIG(struct cgroup_rec, not_in_pss[1], "kernel", REP_SBYTES, .flags = REP_OPTIONAL, .bit = CF_PART + 1),
	FIG(struct cgroup_rec, not_in_pss[2], "sock", REP_SBYTES, .flags = REP_OPTIONAL, .bit = CF_PART + 2),
	FIG(struct cgroup_rec, not_in_pss[3], "rest", REP_SBYTES, .flags = REP_OPTIONAL, .bit = CF_PART + 3),
	FIG_END,
};
/* memory.pressure: avg in hundredths of a percent, total in microseconds */
enum { PRESSURE_some = 1, PRESSURE_full };
#define PRESSURE_FIGS(line) \
	FIG_OBJ(#line, .flags = REP_OPTIONAL, .bit = PRESSURE_##line), \
	FIG(struct psi, line.avg[0], "avg10", REP_FIX, .dec = 2), \
	FIG(struct psi, line.avg[1], "avg60", REP_FIX, .dec = 2), \
	FIG(struct psi, line.avg[2], "avg300", REP_FIX, .dec = 2), \
	FIG(struct psi, line.total, "total", REP_COUNT), \
	FIG_END,
static const struct rep_fig pressure_figs[] = { PRESSURE_FIGS(some) PRESSURE_FIGS(full) };

/* A group (-g user, name, category, cgroup); prom labels its samples by
 * the grouping and the group. */
enum { GROUP_FIG_SUMS = 3, GROUP_CGROUP = SUM_BITS };
static const struct rep_fig group_figs[] = {
	FIG(struct group_rec, by, "by", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct group_rec, name, "group", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct group_rec, name, "name", REP_STR, .flags = REP_NOPROM),
	SUM_FIGS(struct group_rec, sum, 0)
	FIG(struct group_rec, cgroup, "cgroup", REP_RECORD, .flags = REP_NOPROM | REP_OMIT,
	    .bit = GROUP_CGROUP),
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
enum { SUMS_SHARED_SWAP = SUM_BITS, SUMS_GROUP_BY, SUMS_GROUPS, SUMS_TOTAL_ALONE };
static const struct rep_fig sums_figs[] = {
	FIG(struct sums_report, shared_swap, "shared_swap", REP_LIST, .flags = REP_NOTREE | REP_OMIT,
	    .bit = SUMS_SHARED_SWAP),
	FIG_OBJ("total"),
	SUM_FIGS(struct sums_report, total, REP_NOPROM)
	FIG_END,
	FIG(struct sums_report, group_by, "group_by", REP_STR, .flags = REP_NOPROM | REP_OMIT,
	    .bit = SUMS_GROUP_BY),
	FIG(struct sums_report, groups, "groups", REP_LIST_TOTAL, .flags = REP_OMIT,
	    .bit = SUMS_GROUPS),
	FIG(struct sums_report, total_alone, "total", REP_LIST, .flags = REP_NOTREE | REP_OMIT,
	    .bit = SUMS_TOTAL_ALONE),
};

static const struct rep_fig mem_total_fig[] = {
	FIG(struct meminfo, v[MI_MemTotal], "mem_total", REP_BYTES, .flags = REP_OPTIONAL, .bit = 1,
	    .help = "MemTotal of /proc/meminfo."),
};

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

/* A row into sums: the sizes as the row shows them, and each rollup key
 * it has (an approximate row has none: its status counters are sizes
 * only). */
static void add(struct sums *s, const struct sr_row *r)
{
	int m, k;

	s->processes++;
	for (m = 0; m < SR_SUMMED; m++)
		s->size[m] = sat_add(s->size[m], row_size(r, m, 0));
	s->pss_total = sat_add(s->size[SR_SORT_PSS], s->size[SR_SORT_SWAP_PSS]);
	for (k = 0; r->source != PR_SRC_STATUS && k < PR_NROLL; k++)
		if (r->have >> k & 1) {
			s->kernel[k] = sat_add(s->kernel[k], (uint64_t)r->kb[k] << 10);
			s->having[k]++;
		}
}

/* s minus the sums before it (running sums: neither saturated, as
 * SR_MAX_ROWS rows of 2^42-byte sizes stay below 2^64) */
static void subtract(struct sums *s, const struct sums *before)
{
	int m;

	s->processes -= before->processes;
	for (m = 0; m < SR_SUMMED; m++)
		s->size[m] -= before->size[m];
	s->pss_total -= before->pss_total;
	for (m = 0; m < PR_NROLL; m++) {
		s->kernel[m] -= before->kernel[m];
		s->having[m] -= before->having[m];
	}
}

/* The presence bits of the SUM_KEY figures of sums: the keys some
 * process summed printed */
static uint64_t sums_have(const struct sums *s)
{
	uint64_t have = 0;
	unsigned i;

	for (i = 0; i < N_SUMMED; i++)
		if (s->having[summed_keys[i]])
			have |= (uint64_t)1 << (SUM_KEY_BIT + summed_keys[i]);
	return have;
}

/* ---- the kept processes, packed ---- */

/* 7 bits a byte, the lowest first; the high bit: more follow */
static unsigned char *put_number(unsigned char *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

static uint64_t get_number(const unsigned char **p)
{
	uint64_t v = 0;
	unsigned shift = 0;

	do
		v |= (uint64_t)(**p & 0x7f) << shift, shift += 7;
	while (*(*p)++ & 0x80);
	return v;
}

/* ---- -g cgroup: the cgroups, their processes and sums ---- */

/* -a: a cgroup found by the walk that is not listed (cgroup_run) */
#define CGROUP_HIDDEN (NO_ROW - 1)
_Static_assert(SR_MAX_ROWS < CGROUP_HIDDEN, "a cgroup's first process is told from CGROUP_HIDDEN");

/* Not paths (those begin with '/'): no kernel figures */
static const char unknown_cgroup[] = "(unknown)", other_cgroup[] = "(other)";

static uint32_t path_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The index of the cgroup path (n bytes), added when new (with add, else
 * NO_ROW); beyond SR_MAX_CGROUPS or SR_CGROUP_POOL, counted in
 * cgroups_dropped, "(other)"'s (room for it is always kept), or NO_ROW
 * with add CGROUP_NEW_ONLY (-a's walk: no process to put anywhere). */
enum { CGROUP_FIND, CGROUP_ADD, CGROUP_NEW_ONLY };
static unsigned cgroup_index(const char *path, size_t n, int add)
{
	uint32_t h = path_hash(path, n), k;
	/* a path leaves room in the pool for both names that are not paths */
	size_t reserve = *path == '/' ? sizeof other_cgroup + sizeof unknown_cgroup : 0;
	char *q;

	for (; (k = TT.cgroup_slots[h % SR_CGROUP_SLOTS]); h++) {
		q = TT.cgroup_pool + TT.cgroup_at[k - 1];
		if (!memcmp(q, path, n) && !q[n])
			return k - 1;
	}
	if (!add)
		return NO_ROW;
	if ((*path == '/' && TT.ncgroup_paths >= SR_MAX_CGROUPS) ||
	    SR_CGROUP_POOL - TT.cgroup_pool_used < n + 1 + reserve) {
		SR.scan.coverage[SR_CGROUPS_DROPPED]++;
		return add == CGROUP_NEW_ONLY ? NO_ROW : cgroup_index(other_cgroup, sizeof other_cgroup - 1, 1);
	}
	TT.cgroup_slots[h % SR_CGROUP_SLOTS] = TT.ncgroups + 1;
	TT.cgroup_at[TT.ncgroups] = TT.cgroup_pool_used;
	TT.cgroup_run[TT.ncgroups] = NO_ROW;
	q = TT.cgroup_pool + TT.cgroup_pool_used;
	memcpy(q, path, n);
	q[n] = 0;
	TT.cgroup_pool_used += n + 1;
	TT.ncgroup_paths += *path == '/';
	return TT.ncgroups++;
}

/* Keep the process just read: 0 when the tables are full. */
static int keep(const struct sr_row *r)
{
	struct kept *k = &TT.kept[TT.nkept];
	unsigned char *p = TT.pool + TT.pool_used;
	size_t n = strlen(r->name);
	unsigned i;

	if (TT.nkept == SR_MAX_ROWS || SR_ROW_POOL - TT.pool_used < PACKED_MAX)
		return 0;
	k->pid = r->pid;
	k->ppid = r->ppid;
	k->uid = r->uid;
	k->at = TT.pool_used;
	k->have = r->have;
	k->source = r->source;
	k->category = r->category;
	if (SR.opt->group == SR_GROUP_CGROUP)
		TT.cgroup_of[TT.nkept] = r->cgroup ? cgroup_index(r->cgroup, r->cgroup_len, 1) :
		                         cgroup_index(unknown_cgroup, sizeof unknown_cgroup - 1, 1);
	*p++ = n;
	memcpy(p, r->name, n);
	p += n;
	if (SR.opt->view == SR_VIEW_SHARED_SWAP)
		p = put_number(p, r->shared_swap_kb);
	for (i = 0; i < PR_NROLL; i++)
		if (r->have >> i & 1)
			p = put_number(p, r->kb[i]);
	TT.pool_used = p - TT.pool;
	TT.nkept++;
	return 1;
}

static void unpack(unsigned i, struct sr_row *r)
{
	const struct kept *k = &TT.kept[i];
	const unsigned char *p = TT.pool + k->at;
	unsigned j;

	memset(r, 0, sizeof *r);
	r->pid = k->pid;
	r->ppid = k->ppid;
	r->uid = k->uid;
	r->have = k->have;
	r->source = k->source;
	r->category = k->category;
	memcpy(r->name, p + 1, *p);
	p += 1 + *p;
	if (SR.opt->view == SR_VIEW_SHARED_SWAP)
		r->shared_swap_kb = get_number(&p);
	for (j = 0; j < PR_NROLL; j++)
		if (r->have >> j & 1)
			r->kb[j] = get_number(&p);
}

/* The order of the listings: a size largest first (absent counts as 0),
 * then a name, then a number, smallest first; -r reverses processes and
 * groups.  Equal ones keep the order they were read in. */
static int compare_rows(const struct sr_row *a, const struct sr_row *b)
{
	int d = 0;

	switch (SR.opt->sort) {
	case SR_SORT_PID:
		break;
	case SR_SORT_USER:
		d = SR_SIGN(a->uid, b->uid);
		break;
	case SR_SORT_NAME:
		d = sr_compare_names(a->name, strlen(a->name), b->name, strlen(b->name));
		break;
	default:
		d = SR_SIGN(row_size(b, SR.opt->sort, 0), row_size(a, SR.opt->sort, 0));
	}
	if (!d)
		d = SR_SIGN(a->pid, b->pid);
	return SR.opt->reverse ? -d : d;
}

static int kept_order(unsigned i, unsigned j)
{
	struct sr_row a, b;

	unpack(i, &a);
	unpack(j, &b);
	return compare_rows(&a, &b);
}

/* Groups by the size sorted on (PSS for the others), then by name. */
static int group_order(unsigned i, unsigned j)
{
	const struct group *x = &TT.groups[i], *y = &TT.groups[j];
	int m = SR.opt->sort < SR_SUMMED ? (int)SR.opt->sort : SR_SORT_PSS, d = 0;

	if (SR.opt->sort != SR_SORT_USER && SR.opt->sort != SR_SORT_NAME)
		d = SR_SIGN(y->sum.size[m], x->sum.size[m]);
	if (!d)
		d = sr_compare_names(x->name, strlen(x->name), y->name, strlen(y->name));
	return SR.opt->reverse ? -d : d;
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
		SR.scan.coverage[SR_GROUPED_OTHER]++;
		memcpy(g[i].name, "(other)", 8);
	} else {
		memcpy(g[i].name, k, n);
		TT.ngroups++;
	}
	return &g[i].sum;
}

static struct sums *group_of(const struct sr_row *r)
{
	const struct sr_options *o = SR.opt;
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

static const char *cgroup_name(unsigned g)
{
	return TT.cgroup_pool + TT.cgroup_at[g];
}

/* The kept processes by cgroup, in reading order within one */
static int by_cgroup_order(unsigned i, unsigned j)
{
	return SR_SIGN(TT.cgroup_of[i], TT.cgroup_of[j]);
}

/* The sums of cgroup g: its run of processes in by_cgroup */
static void cgroup_sums(unsigned g, struct sums *s)
{
	struct sr_row r;
	unsigned i;

	memset(s, 0, sizeof *s);
	for (i = TT.cgroup_run[g]; i < TT.nkept && TT.cgroup_of[TT.by_cgroup[i]] == g; i++) {
		unpack(TT.by_cgroup[i], &r);
		add(s, &r);
	}
}

/* As group_order: the size sorted on (PSS for the others), then the path */
static int cgroup_order(unsigned i, unsigned j)
{
	const char *x = cgroup_name(i), *y = cgroup_name(j);
	int d = 0;

	if (SR.opt->sort != SR_SORT_USER && SR.opt->sort != SR_SORT_NAME)
		d = SR_SIGN(TT.cgroup_key[j], TT.cgroup_key[i]);
	if (!d)
		d = sr_compare_names(x, strlen(x), y, strlen(y));
	return SR.opt->reverse ? -d : d;
}

/* After the scan: each cgroup's run of processes, then the cgroups in
 * the order of the listing (the hash slots are done with: their room
 * holds the sizes sorted on). */
static void cgroup_groups(void)
{
	int m = SR.opt->sort < SR_SUMMED ? (int)SR.opt->sort : SR_SORT_PSS;
	struct sums s;
	unsigned i, g;

	sr_sort(TT.by_cgroup, TT.nkept, by_cgroup_order);
	for (i = TT.nkept; i-- > 0;)
		TT.cgroup_run[TT.cgroup_of[TT.by_cgroup[i]]] = i;
	for (g = 0; g < TT.ncgroups; g++) {
		cgroup_sums(g, &s);
		TT.cgroup_key[g] = s.size[m];
	}
	sr_sort(TT.cgroup_order, TT.ncgroups, cgroup_order);
	/* -a: the cgroups whose memory its subdirectories hold, left out */
	for (TT.ngroups = g = 0; g < TT.ncgroups; g++)
		if (TT.cgroup_run[TT.cgroup_order[g]] != CGROUP_HIDDEN)
			TT.cgroup_order[TT.ngroups++] = TT.cgroup_order[g];
}

/* The sums and name of the group listed i-th */
static const struct sums *group_at(unsigned i, const char **name)
{
	const struct group *g;

	if (SR.opt->group == SR_GROUP_CGROUP) {
		cgroup_sums(TT.cgroup_order[i], &TT.cgroup_sum);
		*name = cgroup_name(TT.cgroup_order[i]);
		return &TT.cgroup_sum;
	}
	g = &TT.groups[TT.group_order[i]];
	*name = g->name;
	return &g->sum;
}

/* A file of cgroup directory TT.cgroup_path (by its whole path: capture
 * names what an applet opens by the path, or by a directory's when that
 * is short, and a cgroup's path is long), or 0 when the version has
 * none */
static const char *cgroup_file(enum cg_file f)
{
	return cg_path(TT.cgroup_file, sizeof TT.cgroup_file, TT.cgroup_path, TT.hier.version, f);
}

/* What a cgroup file's reading has to say (prom reads the files again:
 * said once) */
static void cgroup_said(const struct diag *d)
{
	if (!TT.cgroup_quiet)
		mb_warn_diag(d);
}

/* A cgroup file of "key value" lines into b (cap bytes, cg_read_kv): its
 * length, or -1 when absent (no word: a cgroup removed since, a file of
 * the other version or a later kernel) or unreadable (said). */
static long cgroup_read_kv(enum cg_file f, char *b, size_t cap)
{
	const char *path = cgroup_file(f);
	struct diag d;
	long n;

	if (!path)
		return -1;
	n = cg_read_kv(path, 0, b, cap, &d);
	cgroup_said(&d);
	return n < 0 ? -1 : n;
}

static void cgroup_say(void *ctx, enum cg_file f, const struct diag *d)
{
	(void)ctx, (void)f;
	cgroup_said(d);
}

/* A cgroup file of one number (cg_read_number): 1 with *v; 0 when
 * absent, "max" (no limit), unreadable or not a number (said). */
static int cgroup_number(enum cg_file f, uint64_t *v)
{
	const char *path = cgroup_file(f);
	struct diag d;
	int rc;

	if (!path)
		return 0;
	rc = cg_read_number(path, 0, v, &d);
	cgroup_said(&d);
	return rc == CG_NUMBER;
}

/* The value of key in t: 1 with *v */
static int text_value(const struct cgroup_text *t, const char *key, uint64_t *v)
{
	const char *k;
	long at = 0;

	while (cg_kv_next(t->s, t->n, &at, &k, v))
		if (!strcmp(k, key))
			return 1;
	return 0;
}

/* json, kv: each key of a memory.stat or memory.events as a member */
static void write_key_values(const void *ctx)
{
	const char *k;
	uint64_t v;
	long at = 0;

	const struct cgroup_text *t = ctx;

	while (cg_kv_next(t->s, t->n, &at, &k, &v))
		tree_u64(k, v);
}

/* The kernel's part of the charge: v2's kernel key (5.18+), else its
 * parts; each null when a key is missing */
static int kernel_part(uint64_t *v)
{
	static const char *const parts[] = { "kernel_stack", "pagetables", "percpu", "slab" };
	uint64_t p;
	unsigned i;

	if (text_value(&TT.cgroup_stat, "kernel", v))
		return 1;
	for (*v = 0, i = 0; i < 4; i++) {
		if (!text_value(&TT.cgroup_stat, parts[i], &p))
			return 0;
		*v = sat_add(*v, p);
	}
	return 1;
}

/* a + b, saturated at the int64 range */
static int64_t sat_add_i64(int64_t a, int64_t b)
{
	int64_t r;

	return __builtin_add_overflow(a, b, &r) ? (b < 0 ? INT64_MIN : INT64_MAX) : r;
}

/* What of the charge the PSS does not hold, as memory.stat tells it:
 * into c->not_in_pss, the have bits of CF_PART on.  Each part needs its
 * own keys only; rest needs the charge too (charged: charged_minus_pss
 * is known; v2's root cgroup has no memory.current but a memory.stat). */
static uint64_t not_in_pss(struct cgroup_rec *c, int charged, int have_kmem, uint64_t kmem)
{
	int v1 = c->version == 1;
	uint64_t file, mapped, have = 0, v;
	int64_t known = 0;
	int i;

	if (text_value(&TT.cgroup_stat, v1 ? "cache" : "file", &file) &&
	    text_value(&TT.cgroup_stat, v1 ? "mapped_file" : "file_mapped", &mapped)) {
		c->not_in_pss[0] = sat_diff(file, mapped);
		have |= 1;
	}
	if (v1 ? have_kmem : kernel_part(&v)) {
		c->not_in_pss[1] = sat_diff(v1 ? kmem : v, 0);
		have |= 2;
	}
	if (!v1 && text_value(&TT.cgroup_stat, "sock", &v)) {
		c->not_in_pss[2] = sat_diff(v, 0);
		have |= 4;
	}
	if (!charged)
		return have << CF_PART;
	for (i = 0; i < 3; i++)
		if (have >> i & 1)
			known = sat_add_i64(known, c->not_in_pss[i]);
	c->not_in_pss[3] = known == INT64_MIN ? INT64_MAX : sat_add_i64(c->charged_minus_pss, -known);
	return (have | 8) << CF_PART;
}

/* Cgroup g's own figures into TT.cgroup_rec (pss: its processes' PSS, in
 * bytes), read now from its directory: the have mask of cgroup_figs; 0
 * for "(unknown)" and "(other)", a path outside the mount's root, no
 * hierarchy mounted, or a cgroup removed since (ENOENT: no word). */
static uint64_t cgroup_read(unsigned g, uint64_t pss)
{
	struct cgroup_rec *c = &TT.cgroup_rec;
	const char *name = cgroup_name(g);
	int v1 = TT.hier.version == 1, dir;
	uint64_t have = 0;
	struct cg_charge charge;
	struct diag d;
	long n;

	memset(c, 0, sizeof *c);
	if (*name != '/' || cg_dir(&TT.hier, name, strlen(name), TT.cgroup_path, sizeof TT.cgroup_path) < 0)
		return 0;
	if ((dir = rd_open(TT.cgroup_path, O_RDONLY | O_DIRECTORY)) < 0) {
		if (!TT.cgroup_quiet)
			mb_warn_diag(rd_diag(&d, TT.cgroup_path, dir, 0));
		return 0;
	}
	close(dir);   /* it is there: its files are read by their paths */
	c->version = TT.hier.version;
	have |= 1u << CF_VERSION;
	cg_read_charge(TT.cgroup_path, c->version, 1u << CG_CURRENT | 1u << CG_SWAP | 1u << CG_MAX |
	               1u << CG_HIGH | 1u << CG_KMEM, 0, &charge, cgroup_say, 0);
	c->current = charge.current;
	c->swap_current = charge.swap;
	c->max = charge.max;
	c->high = charge.high;
	have |= (uint64_t)(charge.have >> CG_CURRENT & 1) << CF_CURRENT |
	        (uint64_t)(charge.have >> CG_SWAP & 1) << CF_SWAP_CURRENT |
	        (uint64_t)(charge.have >> CG_MAX & 1) << CF_MAX |
	        (uint64_t)(charge.have >> CG_HIGH & 1) << CF_HIGH;
	TT.cgroup_stat = (struct cgroup_text){ TT.cgroup_stat_text, 0 };
	if ((n = cgroup_read_kv(CG_STAT, TT.cgroup_stat_text, sizeof TT.cgroup_stat_text)) >= 0) {
		TT.cgroup_stat.n = n;
		c->stat = (struct rep_call){ write_key_values, &TT.cgroup_stat };
		have |= 1u << CF_STAT;
	}
	TT.cgroup_events = (struct cgroup_text){ TT.cgroup_events_text, 0 };
	if ((n = cgroup_read_kv(CG_EVENTS, TT.cgroup_events_text, sizeof TT.cgroup_events_text)) >= 0) {
		TT.cgroup_events.n = n;
		c->events = (struct rep_call){ write_key_values, &TT.cgroup_events };
		have |= 1u << CF_EVENTS;
	}
	if (!v1) {
		struct diag d;
		int rc = cg_read_pressure(cgroup_file(CG_PRESSURE), 0, TT.cgroup_pressure_text,
		                          sizeof TT.cgroup_pressure_text, &TT.cgroup_psi, &d);

		cgroup_said(&d);
		if (!rc) {
			c->pressure = (struct rep_record){ pressure_figs, REP_N(pressure_figs), &TT.cgroup_psi,
			                                   (uint64_t)TT.cgroup_psi.some.have << PRESSURE_some |
			                                   (uint64_t)TT.cgroup_psi.full.have << PRESSURE_full };
			have |= 1u << CF_PRESSURE;
		}
	}
	have |= 1u << CF_NOT_IN_PSS;
	if (have >> CF_CURRENT & 1) {
		c->charged_minus_pss = sat_diff(c->current, pss);
		have |= 1u << CF_CHARGED_MINUS_PSS;
	}
	return have | not_in_pss(c, have >> CF_CURRENT & 1, charge.have >> CG_KMEM & 1, charge.kmem);
}

/* -a: does the cgroup at path hold memory (its charge more than 0)? */
static int cgroup_charged(const char *path, size_t n)
{
	uint64_t v = 0;
	int dir;

	if (cg_dir(&TT.hier, path, n, TT.cgroup_path, sizeof TT.cgroup_path) < 0 ||
	    (dir = rd_open(TT.cgroup_path, O_RDONLY | O_DIRECTORY)) < 0)
		return 0;
	cgroup_number(CG_CURRENT, &v);
	close(dir);
	return v > 0;
}

/* How many components path has ("/" none) */
static unsigned path_depth(const char *path)
{
	unsigned n = 0;

	for (; *path; path++)
		n += *path == '/' && path[1];
	return n;
}

/* -a: the subdirectories of cgroup name (index g, or NO_ROW: not kept)
 * that hold memory, added when new and queued in cgroup_order from *tail
 * to be visited.  A cgroup the walk added whose memory is (also) in
 * such a subdirectory is not listed: its charge holds theirs, and the
 * cgroups without processes worth a line are where the charge lies. */
static void cgroup_visit(unsigned g, const char *name, unsigned *tail)
{
	unsigned child_g, charged = 0;
	size_t n = strlen(name), en;
	const char *entry;
	unsigned char type;
	char *child = TT.cgroup_child;
	struct diag d;
	int rc;

	if (cg_dir(&TT.hier, name, n, TT.cgroup_path, sizeof TT.cgroup_path) < 0)
		return;
	if ((rc = rd_dir_open(&TT.cgroup_dir, TT.cgroup_path)) < 0) {
		mb_warn_diag(rd_diag(&d, TT.cgroup_path, rc, 0));
		return;
	}
	if (n == 1)   /* the root's children are "/NAME" */
		n = 0;
	while ((rc = rd_dir_next(&TT.cgroup_dir, &entry, &type)) > 0) {
		en = strlen(entry);
		if ((type != DT_DIR && type != DT_UNKNOWN) || n + en + 2 > MB_PATH_MAX)
			continue;
		memcpy(child, name, n);
		child[n] = '/';
		memcpy(child + n + 1, entry, en + 1);
		en += n + 1;
		child_g = cgroup_index(child, en, CGROUP_FIND);
		if (child_g == NO_ROW && cgroup_charged(child, en)) {
			child_g = cgroup_index(child, en, CGROUP_NEW_ONLY);
			charged = 1;
		}
		charged |= child_g != NO_ROW;
		if (child_g != NO_ROW && *tail < SR_CGROUP_ENTRIES)
			TT.cgroup_order[(*tail)++] = child_g;
	}
	rd_dir_close(&TT.cgroup_dir);
	if (charged && g != NO_ROW && g >= TT.cgroups_scanned)
		TT.cgroup_run[g] = CGROUP_HIDDEN;
}

/* -a: the cgroups that hold memory but no process (a stopped service's
 * page cache), found walking the hierarchy breadth first from the part
 * the mount shows, at most SR_CGROUP_WALK levels (and --cgroup-depth)
 * deep; the cgroups to visit queue in cgroup_order (the listing's order
 * comes later).  A cgroup's charge includes its descendants' (v1 too
 * since 4.x: use_hierarchy), so one that holds nothing has no such
 * descendant: not entered.  The root is always entered (v2's has no
 * memory.current). */
static void cgroup_walk(void)
{
	unsigned limit = SR.opt->cgroup_depth < SR_CGROUP_WALK ? SR.opt->cgroup_depth : SR_CGROUP_WALK;
	const char *root = TT.hier.root;
	size_t n = strlen(root);
	unsigned head = 0, tail = 0, g;

	TT.cgroups_scanned = TT.ncgroups;
	/* the mount's root (a container's /docker/ID) is a cgroup of its own
	 * only within --cgroup-depth: above, its processes count in a
	 * shorter group already */
	g = cgroup_index(root, n, CGROUP_FIND);
	if (g == NO_ROW && path_depth(root) <= SR.opt->cgroup_depth && cgroup_charged(root, n))
		g = cgroup_index(root, n, CGROUP_NEW_ONLY);
	if (path_depth(root) < limit)
		cgroup_visit(g, root, &tail);
	while (head < tail) {
		g = TT.cgroup_order[head++];
		if (path_depth(cgroup_name(g)) < limit)
			cgroup_visit(g, cgroup_name(g), &tail);
	}
}

/* One process: into the sums, then written now or kept. */
static void one(unsigned pid)
{
	const struct sr_options *o = SR.opt;
	struct sr_row *cur = &SR.scan.cur;

	if (!sr_read(&SR.scan, o, pid, 0))
		return;
	/* -S: what the smaps pass found */
	if (o->view == SR_VIEW_SHARED_SWAP)
		cur->shared_swap_kb = sr_shared_swap_of(&SR.scan, pid);
	add(&TT.total, cur);
	if (o->group >= SR_GROUP_USER && o->group != SR_GROUP_CGROUP)
		add(group_of(cur), cur);
	if (TT.streaming && TT.nlisted < TT.capacity)
		TT.row(TT.nlisted++);
	else if (TT.streaming)
		SR.scan.coverage[SR_DROPPED]++;
	else if (!keep(cur))
		TT.not_kept++;
}

static int scan(const unsigned *pids, unsigned npids)
{
	struct pr_pids it;
	long pid = 0;

	pr_pids_start(&it, &SR.scan.proc, pids, npids);
	while (!SR.scan.no_fds && (pid = pr_pids_next(&it)) > 0)
		one(pid);
	return sr_scan_end(&SR.scan, &it, pid);
}

/* ---- -g tree: any depth, without recursion ---- */

static int pid_order(unsigned i, unsigned j)
{
	return SR_SIGN(TT.kept[i].pid, TT.kept[j].pid);
}

/* kids: the children of each process side by side, by parent (NO_ROW,
 * the roots, last), then by subtree PSS (all 0 the first time), PID */
static int kid_order(unsigned i, unsigned j)
{
	int d = SR_SIGN(TT.parent[i], TT.parent[j]);

	if (!d)
		d = SR_SIGN(TT.tree.subtree_pss_kb[j], TT.tree.subtree_pss_kb[i]);
	return d ? d : SR_SIGN(TT.kept[i].pid, TT.kept[j].pid);
}

/* Where in kids the children of v (NO_ROW: the roots) start; nkept when
 * it has none. */
static unsigned first_kid(unsigned v)
{
	unsigned lo = 0, hi = TT.nkept, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (TT.parent[TT.kids[mid]] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < TT.nkept && TT.parent[TT.kids[lo]] == v ? lo : TT.nkept;
}

static int has_next_sibling(unsigned v)
{
	unsigned k = TT.kid_at[v] + 1;
	return k < TT.nkept && TT.parent[TT.kids[k]] == TT.parent[v];
}

/* Every kept process in pre-order into order and depth: each root, then
 * its subtree, siblings in kids order.  The walk follows the parent
 * links back up, so a chain of any length needs no stack. */
static void preorder(void)
{
	unsigned n = TT.nkept, listed = 0, root, v, k, d;

	for (root = first_kid(NO_ROW); root < n; root++) {
		v = TT.kids[root];
		d = 0;
		for (;;) {
			TT.order[listed] = v;
			TT.depth[listed++] = d;
			if ((k = first_kid(v)) < n) {
				v = TT.kids[k];
				d++;
				continue;
			}
			for (; v != TT.kids[root] && !has_next_sibling(v); d--)
				v = TT.parent[v];
			if (v == TT.kids[root])
				break;
			v = TT.kids[TT.kid_at[v] + 1];
		}
	}
}

/* A damaged capture may hold a cycle of parents: its member read last
 * becomes a root.  depth holds the marks: 1 on this walk, 2 walked. */
static void break_cycles(void)
{
	unsigned i, j, k, last;

	memset(TT.depth, 0, TT.nkept * sizeof *TT.depth);
	for (i = 0; i < TT.nkept; i++) {
		for (j = i; j != NO_ROW && !TT.depth[j]; j = TT.parent[j])
			TT.depth[j] = 1;
		if (j != NO_ROW && TT.depth[j] == 1) {
			for (last = j, k = TT.parent[j]; k != j; k = TT.parent[k])
				if (k > last)
					last = k;
			TT.parent[last] = NO_ROW;
		}
		for (j = i; j != NO_ROW && TT.depth[j] == 1; j = TT.parent[j])
			TT.depth[j] = 2;
	}
}

static void sort_kids(void)
{
	unsigned i;

	sr_sort(TT.kids, TT.nkept, kid_order);
	for (i = 0; i < TT.nkept; i++)
		TT.kid_at[TT.kids[i]] = i;
}

/* The listing in pre-order by PPid, siblings by subtree PSS; a process
 * whose parent is not kept is a root.  Then the running sums, from which
 * subtree_sums takes a subtree's. */
static void tree(void)
{
	unsigned n = TT.nkept, i, v, lo, hi, mid, up;
	struct sums s;
	struct sr_row r;

	sr_sort(TT.order, n, pid_order);   /* for now: to find parents by PID */
	for (i = 0; i < n; i++) {
		for (lo = 0, hi = n; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (TT.kept[TT.order[mid]].pid < TT.kept[i].ppid)
				lo = mid + 1;
			else
				hi = mid;
		}
		TT.parent[i] = lo < n && TT.kept[TT.order[lo]].pid == TT.kept[i].ppid && TT.order[lo] != i ?
		               TT.order[lo] : NO_ROW;
	}
	break_cycles();
	/* Subtree sizes and PSS: in any pre-order a process comes before
	 * its descendants, so backwards each is done before its parent. */
	memset(TT.tree.subtree_pss_kb, 0, n * sizeof *TT.tree.subtree_pss_kb);
	memset(TT.family, 0, n * sizeof *TT.family);
	sort_kids();
	preorder();
	for (i = n; i-- > 0;) {
		v = TT.order[i];
		unpack(v, &r);
		TT.tree.subtree_pss_kb[v] += row_size(&r, SR_SORT_PSS, 0) >> 10;
		TT.family[v]++;
		if ((up = TT.parent[v]) != NO_ROW) {
			TT.family[up] += TT.family[v];
			TT.tree.subtree_pss_kb[up] += TT.tree.subtree_pss_kb[v];
		}
	}
	sort_kids();
	preorder();
	memset(&s, 0, sizeof s);
	for (i = 0;; i++) {
		if (i % SR_PREFIX_STEP == 0)
			TT.tree.running[i / SR_PREFIX_STEP] = s;
		if (i == n)
			break;
		unpack(TT.order[i], &r);
		add(&s, &r);
	}
}

/* The sums of the rows listed before i: a running sum and the rows
 * after it (fewer than SR_PREFIX_STEP). */
static void sums_before(struct sums *s, unsigned i)
{
	struct sr_row r;
	unsigned j;

	*s = TT.tree.running[i / SR_PREFIX_STEP];
	for (j = i - i % SR_PREFIX_STEP; j < i; j++) {
		unpack(TT.order[j], &r);
		add(s, &r);
	}
}

/* The sums of the subtree of the row listed i-th: the rows from it on,
 * as many as its family. */
static void subtree_sums(struct sums *s, unsigned i)
{
	struct sums before;

	sums_before(&before, i);
	sums_before(s, i + TT.family[TT.order[i]]);
	subtract(s, &before);
}

/* ---- the rows as listed ---- */

/* The row listed i-th: the process just read when streaming. */
static const struct sr_row *listed(size_t i)
{
	if (TT.streaming)
		return &SR.scan.cur;
	unpack(TT.order[i], &TT.shown);
	return &TT.shown;
}

/* The command line of row r, re-read now into TT.command (NULs as spaces,
 * "[Name]" when empty), at most max bytes, cut at a character boundary:
 * its length, or -1 (counted as command_lost) when the process is gone
 * or its PID is now another program's (its Name differs).  *cut: there
 * was more (counted as truncated). */
static long command(const struct sr_row *r, size_t max, int *cut)
{
	struct pr_proc *p = &SR.scan.process;
	long n = -1;

	*cut = 0;
	if (pr_open(p, r->pid) == PR_FOUND) {
		if (pr_read_name(p, TT.command, sizeof TT.command) == PR_FOUND &&
		    !strcmp(p->status.name, r->name))
			n = pr_read_cmdline(p, TT.command, sizeof TT.command, cut);
		pr_close(p);
	}
	/* TT.command holds a byte more than shown: where to cut is known */
	if (n > (long)max) {
		*cut = 1;
		for (n = max; n && (TT.command[n] & 0xc0) == 0x80; n--)
			;
	}
	if (n >= 0)
		TT.command[n] = 0;
	SR.scan.coverage[SR_COMMAND_LOST] += n < 0;
	SR.scan.coverage[SR_TRUNCATED] += *cut;
	return n;
}

/* ---- the table ---- */

/* -v: a column for each SUM_KEY figure, in its order */
#define KEY_COLUMN(_, key, column, k) column,
static const char *const key_columns[N_SUMMED] = { SUMMED_KEYS(KEY_COLUMN, 0) };
#undef KEY_COLUMN

static void table_key_columns(void)
{
	unsigned i;

	for (i = 0; SR.opt->verbose && i < N_SUMMED; i++) {
		fo_c(' ');
		out_pad(mb.fo, strlen(key_columns[i]), 8);
		fo_s(key_columns[i]);
	}
}

/* -v: the keys of sums s ("-" where no process printed one) */
static void table_key_sums(const struct sums *s)
{
	unsigned i;

	for (i = 0; SR.opt->verbose && i < N_SUMMED; i++)
		sr_cell(s->kernel[summed_keys[i]], s->having[summed_keys[i]] > 0, 0);
}

static int table_begin(void)
{
	if (SR.opt->group == SR_GROUP_TREE)
		fo_s("    PID USER          PSS      USS      RSS     SWAP  SWAPPSS  TREEPSS  TREEUSS");
	else if (SR.opt->group < SR_GROUP_USER)
		fo_s("    PID USER          PSS      USS      RSS     SWAP  SWAPPSS");
	if (SR.opt->group < SR_GROUP_USER) {
		table_key_columns();
		fo_s(" COMMAND\n");
	}
	return 1;
}

static void table_row(size_t i)
{
	const struct sr_row *r = listed(i);
	int tree = !TT.streaming && SR.opt->group == SR_GROUP_TREE;
	unsigned depth = tree ? TT.depth[i] : 0;
	struct sums sub;
	char b[24];
	int m, has, cut, k;
	uint64_t v;

	tb_u64(r->pid, 7);
	fo_c(' ');
	tb_str(user_name(r->uid, b), 8);
	for (m = 0; m < SR_SUMMED; m++) {
		v = row_size(r, m, &has);
		sr_cell(v, has, r->source == PR_SRC_STATUS);
	}
	if (tree) {
		subtree_sums(&sub, i);
		sr_cell(sub.size[SR_SORT_PSS], 1, 0);
		sr_cell(sub.size[SR_SORT_USS], 1, 0);
		table_key_sums(&sub);
	}
	for (m = 0; !tree && SR.opt->verbose && m < N_SUMMED; m++) {
		k = summed_keys[m];
		sr_cell((uint64_t)r->kb[k] << 10, r->source != PR_SRC_STATUS && (r->have >> k & 1), 0);
	}
	out_pad(mb.fo, 0, 1 + 2 * (depth < 20 ? depth : 20));
	if (command(r, TABLE_COMMAND, &cut) < 0)
		fo_c('-');
	else
		out_safe(mb.fo, TT.command, strlen(TT.command));
	tb_nl();
}

static void table_sums(const struct sums *s, int with_total)
{
	int m;

	for (m = 0; m < SR_SUMMED; m++)
		sr_cell(s->size[m], 1, 0);
	if (with_total)
		sr_cell(s->pss_total, 1, 0);
	/* the tree's rows have TREEPSS and TREEUSS before the keys */
	if (SR.opt->verbose && SR.opt->group == SR_GROUP_TREE)
		fo_s("                  ");
	table_key_sums(s);
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

/* -g cgroup: the cgroup's charge and what of it is not PSS, each in 8
 * ("-" when unknown), then a blank */
static void table_charge(unsigned i, const struct sums *g)
{
	uint64_t have = cgroup_read(TT.cgroup_order[i], g->size[SR_SORT_PSS]);

	if (have >> CF_CURRENT & 1)
		tb_size(TT.cgroup_rec.current, 8);
	else
		fo_s("       -");
	fo_c(' ');
	if (have >> CF_CHARGED_MINUS_PSS & 1)
		tb_ssize(TT.cgroup_rec.charged_minus_pss, 8);
	else
		fo_s("       -");
	fo_c(' ');
}

/* The groups or the rows, the total, coverage, and PSS against MemTotal. */
static void table_end(void)
{
	const struct meminfo *mi = &SR.scan.meminfo;
	int grouped = SR.opt->group >= SR_GROUP_USER, cgroups = SR.opt->group == SR_GROUP_CGROUP;
	unsigned i;

	for (i = 0; !TT.streaming && !grouped && i < TT.nlisted; i++)
		table_row(i);
	if (grouped) {
		fo_s("  PROCS      PSS      USS      RSS     SWAP  SWAPPSS    TOTAL");
		table_key_columns();
		fo_s(cgroups ? "  CHARGED  NOT-PSS CGROUP\n" : " GROUP\n");
	}
	for (i = 0; grouped && i < TT.ngroups; i++) {
		const char *name;
		const struct sums *g = group_at(i, &name);
		tb_u64(g->processes, 7);
		table_sums(g, 1);
		if (cgroups)
			table_charge(i, g);
		out_safe(mb.fo, name, strlen(name));
		tb_nl();
	}
	tb_u64(TT.total.processes, 7);
	if (!grouped)
		fo_s(" procs   ");
	table_sums(&TT.total, grouped);
	if (cgroups)
		fo_s("                  ");
	sr_coverage_line(&SR.scan);
	fo_s("PSS ");
	table_size(TT.total.size[SR_SORT_PSS]);
	fo_s(" of MemTotal ");
	if (MI_HAS(mi, MI_MemTotal) && mi->v[MI_MemTotal]) {
		uint64_t t = mi->v[MI_MemTotal], p = TT.total.size[SR_SORT_PSS];
		table_size(t);
		fo_s(" = ");
		/* hundredths of a percent, without overflow */
		out_fix(mb.fo, p < UINT64_MAX / 10000 ? p * 10000 / t : p / (t / 10000 + 1), 2);
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
	p->source = source_names[r->source];
	for (k = 0; k < PR_NROLL && k + off < PR_NSIZE; k++)
		p->kernel[k + off] = (uint64_t)r->kb[k] << 10;
	*have = (uint64_t)r->have << (PF_KERNEL + off);
	for (m = 0; m < SR_SUMMED; m++) {
		p->size[m] = row_size(r, m, &has);
		*have |= (uint64_t)has << (PF_SIZE + m);
	}
	if (SR.opt->view == SR_VIEW_SHARED_SWAP) {
		p->shared_swap_pss = (uint64_t)r->shared_swap_kb << 10;
		*have |= (uint64_t)1 << PF_SHARED_SWAP;
	}
	/* prom shows neither the command nor the subtree: not worked out
	 * for each of its families */
	if (!SR.opt->prom && command(r, SR_CMD_MAX, &p->command_cut) >= 0) {
		p->command = TT.command;
		*have |= (uint64_t)1 << PF_COMMAND | (uint64_t)1 << PF_COMMAND_CUT;
	}
	if (SR.opt->group == SR_GROUP_TREE) {
		p->depth = TT.depth[i];
		*have |= (uint64_t)1 << PF_DEPTH;
	}
	if (SR.opt->group == SR_GROUP_TREE && !SR.opt->prom) {
		subtree_sums(&p->subtree_sums, i);
		p->subtree = (struct rep_record){ subtree_figs, REP_N(subtree_figs), p,
		                                  sums_have(&p->subtree_sums) };
		*have |= (uint64_t)1 << PF_SUBTREE;
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
	const struct sums *g = group_at(i, &TT.group_rec.name);

	(void)ctx;
	TT.group_rec.by = sr_group_names[SR.opt->group];
	TT.group_rec.sum = *g;
	*have = sums_have(g);
	if (SR.opt->group == SR_GROUP_CGROUP && !SR.opt->prom) {
		TT.group_rec.cgroup = (struct rep_record){ cgroup_figs, REP_N(cgroup_figs), &TT.cgroup_rec,
			cgroup_read(TT.cgroup_order[i], g->size[SR_SORT_PSS]) };
		*have |= (uint64_t)1 << GROUP_CGROUP;
	}
	return &TT.group_rec;
}

static const void *total_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	(void)i;
	*have = sums_have(&TT.total_rec.sum);
	return &TT.total_rec;
}

/* prom: the families of the cgroups, a pass over them each (their files
 * read again: no figures are kept per cgroup); a cgroup lacking a
 * figure has no sample of it. */
enum cgroup_family { CGF_PSS, CGF_CURRENT, CGF_SWAP_CURRENT, CGF_MAX, CGF_CHARGED_MINUS_PSS,
                     CGF_NOT_IN_PSS, CGF_STAT, CGF_EVENTS, CGF_N };
static const struct rep_family cgroup_families[CGF_N] = {
	[CGF_PSS] = { .name = "cgroup_pss_bytes", .help = "PSS of the processes of the cgroup (-g cgroup)." },
	[CGF_CURRENT] = { .name = "cgroup_current_bytes", .help = "Memory charged to the cgroup (v1: usage_in_bytes)." },
	[CGF_SWAP_CURRENT] = { .name = "cgroup_swap_current_bytes",
	                       .help = "Swap charged to the cgroup (v1: memsw less usage)." },
	[CGF_MAX] = { .name = "cgroup_max_bytes", .help = "The cgroup's memory limit; no sample: none." },
	[CGF_CHARGED_MINUS_PSS] = { .name = "cgroup_charged_minus_pss_bytes",
	                            .help = "Charge less the PSS of the cgroup's processes." },
	[CGF_NOT_IN_PSS] = { .name = "cgroup_not_in_pss_bytes",
	                     .help = "The charge less the PSS, by kind (see smaps-rollup(1))." },
	[CGF_STAT] = { .name = "cgroup_stat", .help = "The cgroup's memory.stat, each key as the kernel prints it." },
	[CGF_EVENTS] = { .name = "cgroup_events_total", .help = "The cgroup's memory.events (v1: memory.oom_control).",
	                 .flags = REP_COUNTER },
};
static const char *const not_in_pss_kinds[] = { "file_unmapped", "kernel", "sock", "rest" };

/* A sample of family f of a cgroup, labelled by its path alone */
static void cgroup_sample(enum cgroup_family f, const char *cgroup, uint64_t v)
{
	rep_sample_u64(&cgroup_families[f], REP_LABELS("cgroup", cgroup), v);
}

static void cgroup_key_samples(enum cgroup_family f, const char *cgroup, const struct cgroup_text *t,
                               const char *label)
{
	const char *k;
	uint64_t v;
	long at = 0;

	while (cg_kv_next(t->s, t->n, &at, &k, &v))
		rep_sample_u64(&cgroup_families[f], REP_LABELS("cgroup", cgroup, label, k), v);
}

static void cgroup_prom(void)
{
	const struct cgroup_rec *c = &TT.cgroup_rec;
	const char *name;
	uint64_t have, pss;
	unsigned f, i, k;

	for (f = 0; f < CGF_N; f++) {
		rep_family(&cgroup_families[f]);
		for (i = 0; i < TT.ngroups; i++) {
			name = cgroup_name(TT.cgroup_order[i]);
			cgroup_sums(TT.cgroup_order[i], &TT.cgroup_sum);
			pss = TT.cgroup_sum.size[SR_SORT_PSS];
			if (f == CGF_PSS) {
				cgroup_sample(f, name, pss);
				continue;
			}
			have = cgroup_read(TT.cgroup_order[i], pss);
			if (f == CGF_CURRENT && have >> CF_CURRENT & 1)
				cgroup_sample(f, name, c->current);
			if (f == CGF_SWAP_CURRENT && have >> CF_SWAP_CURRENT & 1)
				cgroup_sample(f, name, c->swap_current);
			if (f == CGF_MAX && have >> CF_MAX & 1)
				cgroup_sample(f, name, c->max);
			if (f == CGF_CHARGED_MINUS_PSS && have >> CF_CHARGED_MINUS_PSS & 1)
				rep_sample_i64(&cgroup_families[f], REP_LABELS("cgroup", name),
				               c->charged_minus_pss);
			for (k = 0; f == CGF_NOT_IN_PSS && k < 4; k++)
				if (have >> (CF_PART + k) & 1)
					rep_sample_i64(&cgroup_families[f],
					               REP_LABELS("cgroup", name, "kind", not_in_pss_kinds[k]),
					               c->not_in_pss[k]);
			if (f == CGF_STAT && have >> CF_STAT & 1)
				cgroup_key_samples(f, name, &TT.cgroup_stat, "key");
			if (f == CGF_EVENTS && have >> CF_EVENTS & 1)
				cgroup_key_samples(f, name, &TT.cgroup_events, "event");
		}
		TT.cgroup_quiet = f >= CGF_CURRENT;   /* said in the first pass that read */
	}
	TT.cgroup_quiet = 0;
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
	const struct sr_options *o = SR.opt;
	struct sums_report sums = {
		.shared_swap = { "shared_swap", "process", shared_swap_figs, REP_N(shared_swap_figs),
		                 TT.nlisted, process_row, 0, 0 },
		.total = TT.total, .group_by = sr_group_names[o->group],
		.groups = { { "groups", "group", group_figs, REP_N(group_figs), TT.ngroups, group_row, 0, 0 },
		            &TT.total_rec, "total" },
		.total_alone = { "total", "total", group_figs + GROUP_FIG_SUMS,
		                 REP_N(group_figs) - GROUP_FIG_SUMS, 1, total_row, 0, 0 },
	};
	uint64_t have = sums_have(&TT.total);
	unsigned i;

	have |= (uint64_t)1 << (o->group >= SR_GROUP_USER ? SUMS_GROUPS : SUMS_TOTAL_ALONE);
	for (i = 0; !TT.streaming && i < TT.nlisted; i++)
		rep_list_row(&TT.processes, i);
	TT.processes.rows = TT.nlisted;
	rep_list_close(&TT.processes);
	TT.total_rec.sum = TT.total;
	if (o->group)
		have |= (uint64_t)1 << SUMS_GROUP_BY;
	if (o->view == SR_VIEW_SHARED_SWAP)
		have |= (uint64_t)1 << SUMS_SHARED_SWAP;
	rep_figs("", sums_figs, REP_N(sums_figs), &sums, have);
	if (o->group == SR_GROUP_CGROUP && o->prom)
		cgroup_prom();
	sr_report_scan(&SR.scan, o->view);
	rep_figs("", mem_total_fig, 1, &SR.scan.meminfo,
	         (uint64_t)MI_HAS(&SR.scan.meminfo, MI_MemTotal) << 1);
	rep_end();
}

static void cgroup_mount(const struct mnt *m)
{
	cg_mount(&TT.hier, m);
}

/* A cgroup2 mount without the memory controller (a v1 system's unified
 * tree, memory not enabled) has no memory files: 0 when its root's
 * cgroup.controllers lists no "memory"; an unreadable one (a capture
 * without it) is taken as listing it. */
static int v2_memory(void)
{
	const char *p, *e;
	long n;

	mb_join(TT.cgroup_file, TT.hier.point, "/", "cgroup.controllers");
	if ((n = rd_file(TT.cgroup_file, TT.cgroup_stat_text, sizeof TT.cgroup_stat_text, &(int){ 0 })) < 0)
		return 1;
	for (p = TT.cgroup_stat_text, e = p + n; p < e; p += strcspn(p, " \n") + 1)
		if (!strncmp(p, "memory", 6) && (p + 6 == e || p[6] == ' ' || p[6] == '\n'))
			return 1;
	return 0;
}

int sr_process_view(const struct sr_options *o)
{
	int rc, streamable;
	unsigned i, top;
	uint64_t dropped;

	/* -S: every smaps read once, first, in the object view's state; the
	 * process view's starts zero in the same storage */
	if (o->view == SR_VIEW_SHARED_SWAP && sr_shared_swap_pass(&SR.scan))
		return 1;
	if (o->view == SR_VIEW_SHARED_SWAP)
		mb_zero(&SR.v, sizeof SR.v);
	if (o->table) {
		TT.begin = table_begin;
		TT.row = table_row;
		TT.end = table_end;
	} else {
		TT.begin = report_begin;
		TT.row = report_row;
		TT.end = report_end;
	}
	TT.processes = (struct rep_list){ "processes", "process", process_figs, REP_N(process_figs), 0,
	                                  process_row, process_kvname, 0 };
	if (sr_scan_start(&SR.scan, 0, o->group == SR_GROUP_CGROUP ? cgroup_mount : 0))
		return 1;
	if (o->group == SR_GROUP_CGROUP && TT.hier.version == 2 && !v2_memory())
		TT.hier.version = 0;
	SR.scan.cgroup_version = TT.hier.version;
	if (o->group == SR_GROUP_CGROUP && !TT.hier.version)
		mb_warn("/proc/self/mountinfo", "no memory cgroup hierarchy mounted: the cgroups' figures are null");
	else if (o->group == SR_GROUP_CGROUP && cg_above_ns(&TT.hier))
		mb_warn("/proc/self/mountinfo", "the memory cgroup mount's root is ", TT.hier.root,
		        ", above this cgroup namespace: its own cgroups (/ and below) are not reached, their figures null");
	/* as read: asked for, or live, in PID order */
	streamable = o->group != SR_GROUP_TREE && o->group != SR_GROUP_CGROUP &&
	             (o->unsorted || (o->sort == SR_SORT_PID && !o->reverse && !o->npids && rd_live()));
	for (i = 0; o->group == SR_GROUP_CATEGORY && i <= o->nrules; i++)
		group_sums(o->rules[i].name, o->rules[i].name_len);
	TT.streaming = TT.begin() && streamable;
	TT.capacity = o->top;
	if ((rc = scan(o->pids, o->npids)))
		return rc;
	if (!TT.streaming) {
		if (o->group == SR_GROUP_TREE)
			tree();
		else
			sr_sort(TT.order, TT.nkept, kept_order);
		top = o->top != -1u || !(o->table || o->prom) ? o->top : LISTED_BY_DEFAULT;
		TT.nlisted = TT.nkept < top ? TT.nkept : top;
		SR.scan.coverage[SR_DROPPED] += TT.not_kept + TT.nkept - TT.nlisted;
	}
	sr_warn_overflow(&SR.scan);
	if (TT.not_kept)
		sr_warn_count(TT.not_kept, "processes",
		              "not listed: more than SR_MAX_ROWS or SR_ROW_POOL hold; counted in the totals");
	if (SR.scan.coverage[SR_GROUPED_OTHER])
		sr_warn_count(SR.scan.coverage[SR_GROUPED_OTHER], "processes",
		              "grouped as (other): more than SR_MAX_GROUPS groups");
	if ((dropped = SR.scan.coverage[SR_CGROUPS_DROPPED]))
		sr_warn_count(dropped, "cgroups",
		              "not kept: more than SR_MAX_CGROUPS or SR_CGROUP_POOL hold (their processes: in (other))");
	if (o->group == SR_GROUP_CGROUP) {
		if (o->all_cgroups && TT.hier.version)
			cgroup_walk();
		/* those the walk found once the table was full: not listed */
		if ((dropped = SR.scan.coverage[SR_CGROUPS_DROPPED] - dropped))
			sr_warn_count(dropped, "cgroups",
			              "not listed (-a, no process in them): more than SR_MAX_CGROUPS or SR_CGROUP_POOL hold");
		cgroup_groups();
	} else if (o->group >= SR_GROUP_USER) {
		TT.ngroups += !!TT.groups[SR_MAX_GROUPS].sum.processes;
		sr_sort(TT.group_order, TT.ngroups, group_order);
	}
	TT.end();
	mb_warn_diag(&TT.users.diag);   /* a damaged /etc/passwd: uids shown */
	if ((o->npids || o->user) && !SR.scan.coverage[SR_PROCESSES])
		return mb_fail("no matching process", 0);
	return 0;
}

