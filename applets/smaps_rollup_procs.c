/* smaps-rollup's process views: the rows kept (smaps_rollup_rows.c),
 * their order, groups, -g tree, the table for people and the report's
 * records.  It runs the scan (smaps_rollup_scan.c), -g cgroup's part
 * (smaps_rollup_cgroup.c) and, for -S, the object view's pass first
 * (smaps_rollup_objects.c). */
#include <string.h>
#include "applet.h"
#include "passwd.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"
#include "tree.h"
#include "zero.h"

/* the applet's state; the process view's own is TT */
#define SR this.smaps_rollup
#define TT SR.v.procs
#define TREE SR.v.tree

/* -g's names; none has no name */
const char *const sr_group_names[SR_GROUP_N] = { "", "tree", "user", "name", "category",
	"cgroup" };
static const char *const source_names[] = { "rollup", "smaps", "status" };

_Static_assert(SR_MAX_ROWS <= SR_NO_ROW, "kept processes are told by 16-bit indexes");
/* Without -n: the table and prom list this many (a screen, and a sane
 * number of Prometheus series), json and kv every process; prom with
 * groups (-g user, name, category, cgroup) none: the groups are its
 * series, a series per PID would come and go with every process. */
#define LISTED_BY_DEFAULT 256

/* The processes listed at most */
static unsigned listed_at_most(const struct sr_options *o)
{
	if (o->top != -1u)
		return o->top;
	if (o->prom && o->group >= SR_GROUP_USER)
		return 0;
	return o->table || o->prom ? LISTED_BY_DEFAULT : -1u;
}
/* The table shows this much of a command line (json and kv SR_CMD_MAX) */
#define TABLE_COMMAND 127


/* The figures of a process.  pss, rss, swap and swap_pss are prom
 * families only: json has the kernel's keys (the "rollup" object) and
 * the one size computed from them, uss.  Each size is a prom family even
 * when no process has it. */
/* Presence bits: key k of the rollup is PF_KERNEL + k, size m PF_SIZE + m;
 * PF_APPROX: the sizes are worked out from status (the table's "~") */
enum {
	PF_COMMAND = 1, PF_COMMAND_CUT, PF_KERNEL, PF_SIZE = PF_KERNEL + PR_NK,
	PF_SHARED_SWAP = PF_SIZE + SR_SUMMED, PF_DEPTH, PF_SUBTREE, PF_APPROX, PF_GPU
};
_Static_assert(PF_GPU < 64, "a process's figures fit one have mask");
/* prom's HELP of each size: of a process, summed over a group's processes,
 * and summed over every process counted (the total) */
#define OF_PROCESS(name, what) name " of a process in bytes: " what "."
#define SUMMED(name, what) name " of the processes summed, in bytes: " what "."
#define TOTAL(name, what) "Sum of " name " over every process counted, in bytes: " what "."
#define SUMMED_PROCESSES "Processes of a group, a count."
#define TOTAL_PROCESSES "Processes counted, a count."
#define PSS_HELP(how) how("PSS", "resident pages, each divided among the processes that map it")
#define USS_HELP(how) how("USS", "resident pages that one process alone maps")
#define RSS_HELP(how) how("RSS", "resident pages, shared ones whole")
#define SWAP_HELP(how) how("Swap", "anonymous and shmem pages swapped out")
#define SWAP_PSS_HELP(how) how("SwapPss", "swap, each page divided among its sharers (-S: shared memory's too)")
#define KERNEL_FIG(k) FIG(struct process_rec, kernel[PR_##k], #k, REP_BYTES, \
	.flags = REP_NOPROM | REP_OMIT, .bit = PF_KERNEL + PR_##k),
#define SIZE_FIG(key, m, fl, column) \
	FIG(struct process_rec, size[SR_SORT_##m], key, REP_BYTES, .help = m##_HELP(OF_PROCESS), \
	    .flags = REP_OPTIONAL | REP_KEEP | (fl), .bit = PF_SIZE + SR_SORT_##m, \
	    .approx = PF_APPROX, .width = 8, .label = column)
/* --gpu's figures of a process (fl: flags, bit: their presence bit) or of
 * sums (how: their HELP) */
#define DMABUF_PSS_HELP(how) how("DMA-BUF PSS", "DMA-BUF buffers held through descriptors or mappings, " \
	"each buffer's size divided among the processes holding it (--gpu)")
#define DMABUF_RSS_HELP(how) how("DMA-BUF RSS", "DMA-BUF buffers held through descriptors or mappings, " \
	"each whole (--gpu)")
#define DRM_PSS_HELP(how) how("DRM PSS", "resident memory of DRM (GPU) clients, summed over their " \
	"regions, each client's divided among the processes holding it (--gpu)")
#define GPU_FIGS(type, member, fl, bit_, how, pre) \
	FIG(type, member[SR_GPU_DMABUF_PSS], "dmabuf_pss", REP_BYTES, .help = DMABUF_PSS_HELP(how), \
	    .flags = (fl) | REP_OMIT, .bit = (bit_), .width = 8, .label = pre "DMAPSS"), \
	FIG(type, member[SR_GPU_DMABUF_RSS], "dmabuf_rss", REP_BYTES, .help = DMABUF_RSS_HELP(how), \
	    .flags = (fl) | REP_OMIT, .bit = (bit_), .width = 8, .label = pre "DMARSS"), \
	FIG(type, member[SR_GPU_DRM_PSS], "drm_pss", REP_BYTES, .help = DRM_PSS_HELP(how), \
	    .flags = (fl) | REP_OMIT, .bit = (bit_), .width = 8, .label = pre "DRMPSS"),
/* The sums: processes, then the sizes as the rows show them, then every
 * other rollup key, named as the kernel's in lower case with '_' between
 * words (null where no process summed printed it): its presence bit
 * SUM_KEY_BIT + its key; --gpu's figures SUM_GPU; the bits after
 * SUM_BITS free for the table */
enum { SUM_KEY_BIT = 1, SUM_GPU = SUM_KEY_BIT + PR_NROLL, SUM_BITS };
#define SUM_FIGS(type, member, fl, how) \
	FIG(type, member.processes, "processes", REP_COUNT, .help = how##_PROCESSES, .flags = fl, \
	    .width = 7, .label = "PROCS"), \
	SUM_SIZE_FIGS(type, member, fl, how, "")
/* ... their table columns: a size's label after pre ("TREE": TREEPSS) */
#define SUM_SIZE_FIGS(type, member, fl, how, pre) \
	FIG(type, member.size[SR_SORT_PSS], "pss", REP_BYTES, .help = PSS_HELP(how), .flags = fl, \
	    .width = 8, .label = pre "PSS"), \
	FIG(type, member.size[SR_SORT_USS], "uss", REP_BYTES, .help = USS_HELP(how), .flags = fl, \
	    .width = 8, .label = pre "USS"), \
	FIG(type, member.size[SR_SORT_RSS], "rss", REP_BYTES, .help = RSS_HELP(how), .flags = fl, \
	    .width = 8, .label = pre "RSS"), \
	FIG(type, member.size[SR_SORT_SWAP], "swap", REP_BYTES, .help = SWAP_HELP(how), .flags = fl, \
	    .width = 8, .label = pre "SWAP"), \
	FIG(type, member.size[SR_SORT_SWAP_PSS], "swap_pss", REP_BYTES, .help = SWAP_PSS_HELP(how), \
	    .flags = fl, .width = 8, .label = pre "SWAPPSS"), \
	FIG(type, member.pss_total, "pss_total", REP_BYTES, .help = how("PSS and SwapPss", "the two added"), \
	    .flags = fl, .width = 8, .label = "TOTAL"), \
	GPU_FIGS(type, member.gpu, fl, SUM_GPU, how, pre) \
	SUMMED_KEYS(SUM_KEY, type, member, fl, how)
/* The rollup keys summed beyond the sizes before them (Rss, Pss, Swap,
 * SwapPss), in the kernel's order: each one's json/kv key, its -v table
 * column, its PR_ key and what it is (prom's HELP) */
#define SUMMED_KEYS(X, ...) \
	X(__VA_ARGS__, "pss_dirty", "PSSDIRTY", Pss_Dirty, "PSS of dirty pages") \
	X(__VA_ARGS__, "pss_anon", "PSSANON", Pss_Anon, "PSS of anonymous pages") \
	X(__VA_ARGS__, "pss_file", "PSSFILE", Pss_File, "PSS of file pages") \
	X(__VA_ARGS__, "pss_shmem", "PSSSHMEM", Pss_Shmem, "PSS of shmem (tmpfs, shared anonymous) pages") \
	X(__VA_ARGS__, "shared_clean", "SHRCLEAN", Shared_Clean, "clean pages other processes map too") \
	X(__VA_ARGS__, "shared_dirty", "SHRDIRTY", Shared_Dirty, "dirty pages other processes map too") \
	X(__VA_ARGS__, "private_clean", "PRVCLEAN", Private_Clean, "clean pages one process alone maps") \
	X(__VA_ARGS__, "private_dirty", "PRVDIRTY", Private_Dirty, "dirty pages one process alone maps") \
	X(__VA_ARGS__, "referenced", "REFERNCD", Referenced, "pages marked referenced (used lately)") \
	X(__VA_ARGS__, "anonymous", "ANON", Anonymous, "anonymous pages (no file behind them)") \
	X(__VA_ARGS__, "ksm", "KSM", KSM, "pages merged by KSM") \
	X(__VA_ARGS__, "lazy_free", "LAZYFREE", LazyFree, "pages freed by MADV_FREE, not reclaimed yet") \
	X(__VA_ARGS__, "anon_huge_pages", "ANONHUGE", AnonHugePages, "anonymous transparent huge pages") \
	X(__VA_ARGS__, "shmem_pmd_mapped", "SHMEMPMD", ShmemPmdMapped, "shmem pages mapped as huge pages") \
	X(__VA_ARGS__, "file_pmd_mapped", "FILEPMD", FilePmdMapped, "file pages mapped as huge pages") \
	X(__VA_ARGS__, "shared_hugetlb", "SHRHUGE", Shared_Hugetlb, "shared hugetlbfs pages") \
	X(__VA_ARGS__, "private_hugetlb", "PRVHUGE", Private_Hugetlb, "private hugetlbfs pages") \
	X(__VA_ARGS__, "locked", "LOCKED", Locked, "locked (mlock) pages")
#define SUM_KEY(type, member, fl, how, key, column, k, what) \
	FIG(type, member.kernel[PR_##k], key, REP_BYTES, .help = how(#k, what), \
	    .flags = (fl) | REP_OPTIONAL, .bit = SUM_KEY_BIT + PR_##k, .width = 8, .label = column),
/* -v: the table's columns of a process's own rollup keys, those the sums
 * have, named as theirs (table only: json's rollup object has every key,
 * by the kernel's name) */
#define KEY_COLUMN(_, key, column, k, what) \
	FIG(struct process_rec, kernel[PR_##k], key, REP_BYTES, .flags = REP_NOTREE | REP_NOPROM, \
	    .bit = PF_KERNEL + PR_##k, .width = 8, .label = column),
/* ... their keys, each after a comma: the -v part of a table's columns
 * (&KEY_COLUMNS[1]: the keys alone) */
#define KEY_NAME(_, key, column, k, what) "," key
#define KEY_COLUMNS SUMMED_KEYS(KEY_NAME, 0)
#define SUMMED_KEY(_, key, column, k, what) PR_##k,
static const unsigned char summed_keys[] = { SUMMED_KEYS(SUMMED_KEY, 0) };
#undef SUMMED_KEY
enum { N_SUMMED = sizeof summed_keys / sizeof *summed_keys, SUM_SIZES = SR_SUMMED + 1 };
_Static_assert(N_SUMMED + 4 == PR_NROLL, "a rollup key neither a size nor summed");
static const struct rep_fig process_figs[] = {
	FIG(struct process_rec, pid, "pid", REP_COUNT, .flags = REP_LABEL, .width = 7, .label = "PID"),
	FIG(struct process_rec, ppid, "ppid", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct process_rec, uid, "uid", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct process_rec, user, "user", REP_STR, .flags = REP_NOPROM, .width = 8, .label = "USER"),
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
	SIZE_FIG("pss", PSS, REP_NOTREE, "PSS"),
	SIZE_FIG("uss", USS, 0, "USS"),
	SIZE_FIG("rss", RSS, REP_NOTREE, "RSS"),
	SIZE_FIG("swap", SWAP, REP_NOTREE, "SWAP"),
	SIZE_FIG("swap_pss", SWAP_PSS, REP_NOTREE, "SWAPPSS"),
	/* -S; in prom the list below */
	FIG(struct process_rec, shared_swap_pss, "shared_swap_pss", REP_BYTES, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_SHARED_SWAP),
	FIG(struct process_rec, depth, "depth", REP_COUNT, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_DEPTH),
	FIG(struct process_rec, subtree, "subtree", REP_RECORD, .flags = REP_NOPROM | REP_OMIT,
	    .bit = PF_SUBTREE),
	GPU_FIGS(struct process_rec, gpu, 0, PF_GPU, OF_PROCESS, "")
	SUMMED_KEYS(KEY_COLUMN, 0)
};
/* -g tree: a process's subtree (REP_RECORD: a have mask of its own) */
static const struct rep_fig subtree_figs[] = {
	SUM_SIZE_FIGS(struct process_rec, subtree_sums, 0, SUMMED, "TREE")
};
/* -S in prom: the family of the processes' shared swap, even without any */
static const struct rep_fig shared_swap_figs[] = {
	FIG(struct process_rec, pid, "pid", REP_COUNT, .flags = REP_LABEL),
	FIG(struct process_rec, name, "name", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, user, "user", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, source, "source", REP_STR, .flags = REP_LABEL),
	FIG(struct process_rec, shared_swap_pss, "shared_swap_pss", REP_BYTES,
	    .help = OF_PROCESS("Shared swap", "its share of swapped shmem and tmpfs pages, in SwapPss (-S)"),
	    .flags = REP_KEEP),
};

/* A group (-g user, name, category, cgroup); prom labels its samples by
 * the grouping and the group. */
enum { GROUP_FIG_SUMS = 3, GROUP_CGROUP = SUM_BITS };
static const struct rep_fig group_figs[] = {
	FIG(struct group_rec, by, "by", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct group_rec, name, "group", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct group_rec, name, "name", REP_STR, .flags = REP_NOPROM),
	SUM_FIGS(struct group_rec, sum, 0, SUMMED)
	FIG(struct group_rec, cgroup, "cgroup", REP_RECORD, .flags = REP_NOPROM | REP_OMIT,
	    .bit = GROUP_CGROUP),
};

/* After the processes (-S in prom: their shared swap): the total, then
 * the groups.  In prom with groups, each figure of the total stands
 * after the same figure of the groups (groups_prom). */
struct sums_report {
	struct rep_list shared_swap;
	struct sr_sums total;
	const char *group_by;
	struct rep_list groups;
};
enum { SUMS_SHARED_SWAP = SUM_BITS, SUMS_TOTAL, SUMS_GROUP_BY, SUMS_GROUPS };
enum { SUMS_FIG_TOTAL = 2, N_SUM_FIGS = 1 + SR_SUMMED + 1 + SR_GPU_N + N_SUMMED };
static const struct rep_fig sums_figs[] = {
	FIG(struct sums_report, shared_swap, "shared_swap", REP_LIST, .flags = REP_NOTREE | REP_OMIT,
	    .bit = SUMS_SHARED_SWAP),
	FIG_OBJ("total", .flags = REP_OMIT, .bit = SUMS_TOTAL),
	SUM_FIGS(struct sums_report, total, 0, TOTAL)
	FIG_END,
	FIG(struct sums_report, group_by, "group_by", REP_STR, .flags = REP_NOPROM | REP_OMIT,
	    .bit = SUMS_GROUP_BY),
	FIG(struct sums_report, groups, "groups", REP_LIST, .flags = REP_NOPROM | REP_OMIT,
	    .bit = SUMS_GROUPS),
};
_Static_assert(REP_N(sums_figs) == SUMS_FIG_TOTAL + N_SUM_FIGS + 3, "the total's figures");

static const struct rep_fig mem_total_fig[] = {
	FIG(struct meminfo, v[MI_MemTotal], "mem_total", REP_BYTES, .flags = REP_OPTIONAL, .bit = 1,
	    .help = "MemTotal of /proc/meminfo: the RAM the kernel manages, in bytes."),
};

/* ---- the process views ---- */

static const char *user_name(unsigned long uid, char *b)
{
	const char *s = pw_name(&TT.users, uid);
	if (s)
		return s;
	b[u64_str(b, uid)] = 0;
	return b;
}

/* s minus the sums before it (running sums: neither saturated, as
 * SR_MAX_ROWS rows of 2^42-byte sizes stay below 2^64) */
static void subtract(struct sr_sums *s, const struct sr_sums *before)
{
	int m;

	s->processes -= before->processes;
	for (m = 0; m < SR_SUMMED; m++)
		s->size[m] -= before->size[m];
	s->pss_total -= before->pss_total;
	for (m = 0; m < SR_GPU_N; m++)
		s->gpu[m] -= before->gpu[m];
	for (m = 0; m < PR_NROLL; m++) {
		s->kernel[m] -= before->kernel[m];
		s->having[m] -= before->having[m];
	}
}

/* The presence bits of the SUM_KEY figures of sums: the keys some
 * process summed printed */
static uint64_t sums_have(const struct sr_sums *s)
{
	uint64_t have = (uint64_t)SR.opt->gpu << SUM_GPU;
	unsigned i;

	for (i = 0; i < N_SUMMED; i++)
		if (s->having[summed_keys[i]])
			have |= (uint64_t)1 << (SUM_KEY_BIT + summed_keys[i]);
	return have;
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
		d = SR_SIGN(sr_row_size(b, SR.opt->sort, 0), sr_row_size(a, SR.opt->sort, 0));
	}
	if (!d)
		d = SR_SIGN(a->pid, b->pid);
	return SR.opt->reverse ? -d : d;
}

static int kept_order(unsigned i, unsigned j)
{
	struct sr_row a, b;

	sr_unpack(&TT.rows, i, &a);
	sr_unpack(&TT.rows, j, &b);
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
static struct sr_sums *group_sums(const char *k, size_t n)
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

static struct sr_sums *group_of(const struct sr_row *r)
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

/* The sums and name of the group listed i-th */
static const struct sr_sums *group_at(unsigned i, const char **name)
{
	const struct group *g;

	if (SR.opt->group == SR_GROUP_CGROUP) {
		return sr_cgroup_at(i, name);
	}
	g = &TT.groups[TT.group_order[i]];
	*name = g->name;
	return &g->sum;
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
	if (o->gpu)
		sr_gpu_of(&SR.scan, pid, cur->gpu_kb);
	sr_add(&TT.total, cur);
	if (o->group >= SR_GROUP_USER && o->group != SR_GROUP_CGROUP)
		sr_add(group_of(cur), cur);
	if (TT.streaming && TT.nlisted < TT.capacity)
		TT.row(TT.nlisted++);
	else if (TT.streaming)
		SR.scan.coverage[SR_DROPPED]++;
	else if (!sr_keep(&TT.rows, cur))
		TT.not_kept++;
	else if (o->group == SR_GROUP_CGROUP)
		sr_cgroup_keep(TT.rows.nkept - 1, cur);
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
	return SR_SIGN(TT.rows.kept[i].pid, TT.rows.kept[j].pid);
}

/* kids: the children of each process side by side, by parent (SR_NO_ROW,
 * the roots, last), then by subtree PSS (all 0 the first time), PID */
static int kid_order(unsigned i, unsigned j)
{
	int d = SR_SIGN(TREE.parent[i], TREE.parent[j]);

	if (!d)
		d = SR_SIGN(TREE.subtree_pss_kb[j], TREE.subtree_pss_kb[i]);
	return d ? d : SR_SIGN(TT.rows.kept[i].pid, TT.rows.kept[j].pid);
}

/* Where in kids the children of v (SR_NO_ROW: the roots) start; nkept when
 * it has none. */
static unsigned first_kid(unsigned v)
{
	unsigned lo = 0, hi = TT.rows.nkept, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (TREE.parent[TREE.kids[mid]] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < TT.rows.nkept && TREE.parent[TREE.kids[lo]] == v ? lo : TT.rows.nkept;
}

static int has_next_sibling(unsigned v)
{
	unsigned k = TREE.kid_at[v] + 1;
	return k < TT.rows.nkept && TREE.parent[TREE.kids[k]] == TREE.parent[v];
}

/* Every kept process in pre-order into order and depth: each root, then
 * its subtree, siblings in kids order.  The walk follows the parent
 * links back up, so a chain of any length needs no stack. */
static void preorder(void)
{
	unsigned n = TT.rows.nkept, listed = 0, root, v, k, d;

	for (root = first_kid(SR_NO_ROW); root < n; root++) {
		v = TREE.kids[root];
		d = 0;
		for (;;) {
			TT.order[listed] = v;
			TREE.depth[listed++] = d;
			if ((k = first_kid(v)) < n) {
				v = TREE.kids[k];
				d++;
				continue;
			}
			for (; v != TREE.kids[root] && !has_next_sibling(v); d--)
				v = TREE.parent[v];
			if (v == TREE.kids[root])
				break;
			v = TREE.kids[TREE.kid_at[v] + 1];
		}
	}
}

/* A damaged capture may hold a cycle of parents: its member read last
 * becomes a root.  depth holds the marks: 1 on this walk, 2 walked. */
static void break_cycles(void)
{
	unsigned i, j, k, last;

	memset(TREE.depth, 0, TT.rows.nkept * sizeof *TREE.depth);
	for (i = 0; i < TT.rows.nkept; i++) {
		for (j = i; j != SR_NO_ROW && !TREE.depth[j]; j = TREE.parent[j])
			TREE.depth[j] = 1;
		if (j != SR_NO_ROW && TREE.depth[j] == 1) {
			for (last = j, k = TREE.parent[j]; k != j; k = TREE.parent[k])
				if (k > last)
					last = k;
			TREE.parent[last] = SR_NO_ROW;
		}
		for (j = i; j != SR_NO_ROW && TREE.depth[j] == 1; j = TREE.parent[j])
			TREE.depth[j] = 2;
	}
}

static void sort_kids(void)
{
	unsigned i;

	sr_sort(TREE.kids, TT.rows.nkept, kid_order);
	for (i = 0; i < TT.rows.nkept; i++)
		TREE.kid_at[TREE.kids[i]] = i;
}

/* The listing in pre-order by PPid, siblings by subtree PSS; a process
 * whose parent is not kept is a root.  Then the running sums, from which
 * subtree_sums takes a subtree's. */
static void tree(void)
{
	unsigned n = TT.rows.nkept, i, v, lo, hi, mid, up;
	struct sr_sums s;
	struct sr_row r;

	sr_sort(TT.order, n, pid_order);   /* for now: to find parents by PID */
	for (i = 0; i < n; i++) {
		for (lo = 0, hi = n; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (TT.rows.kept[TT.order[mid]].pid < TT.rows.kept[i].ppid)
				lo = mid + 1;
			else
				hi = mid;
		}
		TREE.parent[i] = lo < n && TT.rows.kept[TT.order[lo]].pid == TT.rows.kept[i].ppid && TT.order[lo] != i ?
		               TT.order[lo] : SR_NO_ROW;
	}
	break_cycles();
	/* Subtree sizes and PSS: in any pre-order a process comes before
	 * its descendants, so backwards each is done before its parent. */
	memset(TREE.subtree_pss_kb, 0, n * sizeof *TREE.subtree_pss_kb);
	memset(TREE.family, 0, n * sizeof *TREE.family);
	sort_kids();
	preorder();
	for (i = n; i-- > 0;) {
		v = TT.order[i];
		sr_unpack(&TT.rows, v, &r);
		TREE.subtree_pss_kb[v] += sr_row_size(&r, SR_SORT_PSS, 0) >> 10;
		TREE.family[v]++;
		if ((up = TREE.parent[v]) != SR_NO_ROW) {
			TREE.family[up] += TREE.family[v];
			TREE.subtree_pss_kb[up] += TREE.subtree_pss_kb[v];
		}
	}
	sort_kids();
	preorder();
	memset(&s, 0, sizeof s);
	for (i = 0;; i++) {
		if (i % SR_PREFIX_STEP == 0)
			TREE.running[i / SR_PREFIX_STEP] = s;
		if (i == n)
			break;
		sr_unpack(&TT.rows, TT.order[i], &r);
		sr_add(&s, &r);
	}
}

/* The sums of the rows listed before i: a running sum and the rows
 * after it (fewer than SR_PREFIX_STEP). */
static void sums_before(struct sr_sums *s, unsigned i)
{
	struct sr_row r;
	unsigned j;

	*s = TREE.running[i / SR_PREFIX_STEP];
	for (j = i - i % SR_PREFIX_STEP; j < i; j++) {
		sr_unpack(&TT.rows, TT.order[j], &r);
		sr_add(s, &r);
	}
}

/* The sums of the subtree of the row listed i-th: the rows from it on,
 * as many as its family. */
static void subtree_sums(struct sr_sums *s, unsigned i)
{
	struct sr_sums before;

	sums_before(&before, i);
	sums_before(s, i + TREE.family[TT.order[i]]);
	subtract(s, &before);
}

/* ---- the rows as listed ---- */

/* The row listed i-th: the process just read when streaming. */
static const struct sr_row *listed(size_t i)
{
	if (TT.streaming)
		return &SR.scan.cur;
	sr_unpack(&TT.rows, TT.order[i], &TT.shown);
	return &TT.shown;
}

/* The command line of row r into TT.command (NULs as spaces, "[Name]"
 * when empty), at most max bytes, cut at a character boundary: the one
 * the scan read with its figures, else re-read now.  Its length, or -1
 * (counted as command_lost) when re-read and the process is gone or its
 * PID is now another program's (its Name differs).  *cut: there was more
 * (counted as truncated). */
static long command(const struct sr_row *r, size_t max, int *cut)
{
	struct pr_proc *p = &SR.scan.process;
	long n = -1;

	*cut = 0;
	if (r->command) {
		n = r->command_len;
		memmove(TT.command, r->command, n);
		*cut = r->command_cut;
	} else if (pr_open(p, r->pid) == PR_FOUND) {
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

/* The figures of row r into TT.rec but its command line and subtree:
 * what the table shows of it too */
static struct process_rec *process_figures(const struct sr_row *r, uint64_t *have)
{
	struct process_rec *p = &TT.rec;
	int off = r->source == PR_SRC_STATUS ? PR_NROLL : 0, m, has;
	unsigned k;

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
		p->size[m] = sr_row_size(r, m, &has);
		*have |= (uint64_t)has << (PF_SIZE + m);
	}
	*have |= (uint64_t)(r->source == PR_SRC_STATUS) << PF_APPROX;
	if (SR.opt->view == SR_VIEW_SHARED_SWAP) {
		p->shared_swap_pss = (uint64_t)r->shared_swap_kb << 10;
		*have |= (uint64_t)1 << PF_SHARED_SWAP;
	}
	for (m = 0; m < SR_GPU_N; m++)
		p->gpu[m] = (uint64_t)r->gpu_kb[m] << 10;
	*have |= (uint64_t)SR.opt->gpu << PF_GPU;
	return p;
}

/* ---- the table ---- */

/* The table's columns, the keys of figures with a width ([1]: with -v):
 * a process's, its subtree's (-g tree, where -v shows the subtree's
 * keys rather than its own), a group's or the total's, the total's
 * sizes beside the processes. */
#define PROCESS_COLUMNS "pid,user,pss,uss,rss,swap,swap_pss"
#define SUBTREE_COLUMNS "pss,uss"
#define SIZE_COLUMNS "pss,uss,rss,swap,swap_pss"
#define GROUP_COLUMNS "processes," SIZE_COLUMNS ",pss_total"
static const char *const process_columns[2] = { PROCESS_COLUMNS, PROCESS_COLUMNS KEY_COLUMNS };
static const char *const subtree_columns[2] = { SUBTREE_COLUMNS, SUBTREE_COLUMNS KEY_COLUMNS };
static const char *const group_columns[2] = { GROUP_COLUMNS, GROUP_COLUMNS KEY_COLUMNS };
/* --gpu: its columns after the others */
#define GPU_COLUMNS "dmabuf_pss,dmabuf_rss,drm_pss"
static void gpu_head(const struct rep_fig *figs, size_t n)
{
	if (SR.opt->gpu) {
		fo_c(' ');
		rep_table_head_cols(figs, n, GPU_COLUMNS);
	}
}
static void gpu_cells(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have)
{
	if (SR.opt->gpu) {
		fo_c(' ');
		rep_table_row_cols(figs, n, GPU_COLUMNS, rec, have);
	}
}
/* The blank cells of two columns a row has not (a total's TREEPSS and
 * TREEUSS, CHARGED and NOT-PSS) */
#define TWO_BLANK_CELLS "                  "

static int table_begin(void)
{
	int tree = SR.opt->group == SR_GROUP_TREE, verbose = SR.opt->verbose;

	if (SR.opt->group >= SR_GROUP_USER)
		return 1;
	rep_table_head_cols(process_figs, REP_N(process_figs), process_columns[verbose && !tree]);
	gpu_head(process_figs, REP_N(process_figs));
	if (tree) {
		fo_c(' ');
		rep_table_head_cols(subtree_figs, REP_N(subtree_figs), subtree_columns[verbose]);
	}
	fo_s(" COMMAND\n");
	return 1;
}

static void table_row(size_t i)
{
	const struct sr_row *r = listed(i);
	int tree = !TT.streaming && SR.opt->group == SR_GROUP_TREE, verbose = SR.opt->verbose, cut;
	unsigned depth = tree ? TREE.depth[i] : 0;
	uint64_t have;
	struct process_rec *p = process_figures(r, &have);

	rep_table_row_cols(process_figs, REP_N(process_figs), process_columns[verbose && !tree], p, have);
	gpu_cells(process_figs, REP_N(process_figs), p, have);
	if (tree) {
		subtree_sums(&p->subtree_sums, i);
		fo_c(' ');
		rep_table_row_cols(subtree_figs, REP_N(subtree_figs), subtree_columns[verbose], p,
		                   sums_have(&p->subtree_sums));
	}
	/* the rest of the line is no figure: the command line, of any
	 * length, after the tree's indentation */
	out_pad(mb.fo, 0, 1 + 2 * (depth < 20 ? depth : 20));
	if (command(r, TABLE_COMMAND, &cut) < 0)
		fo_c('-');
	else
		out_safe(mb.fo, TT.command, strlen(TT.command));
	tb_nl();
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
	const struct meminfo *mi = &SR.scan.meminfo;
	int grouped = SR.opt->group >= SR_GROUP_USER, cgroups = SR.opt->group == SR_GROUP_CGROUP;
	int verbose = SR.opt->verbose;
	struct group_rec *g = &TT.group_rec;
	unsigned i;

	for (i = 0; !TT.streaming && !grouped && i < TT.nlisted; i++)
		table_row(i);
	if (grouped) {
		rep_table_head_cols(group_figs, REP_N(group_figs), group_columns[verbose]);
		gpu_head(group_figs, REP_N(group_figs));
		if (cgroups) {
			fo_c(' ');
			sr_cgroup_table_head();
		}
		fo_s(cgroups ? " CGROUP\n" : " GROUP\n");
	}
	/* a group's name, of any length, ends its line: no column */
	for (i = 0; grouped && i < TT.ngroups; i++) {
		g->sum = *group_at(i, &g->name);
		rep_table_row_cols(group_figs, REP_N(group_figs), group_columns[verbose], g, sums_have(&g->sum));
		gpu_cells(group_figs, REP_N(group_figs), g, sums_have(&g->sum));
		if (cgroups) {
			fo_c(' ');
			sr_cgroup_table_charge(i, g->sum.size[SR_SORT_PSS]);
		}
		fo_c(' ');
		out_safe(mb.fo, g->name, strlen(g->name));
		tb_nl();
	}
	g->sum = TT.total;
	if (grouped) {
		rep_table_row_cols(group_figs, REP_N(group_figs), group_columns[verbose], g, sums_have(&g->sum));
		gpu_cells(group_figs, REP_N(group_figs), g, sums_have(&g->sum));
		if (cgroups)
			fo_s(TWO_BLANK_CELLS);
	} else {
		/* under the processes: their count under PID, the word "procs"
		 * under USER (a total has no user), no subtree */
		rep_table_row_cols(group_figs, REP_N(group_figs), "processes", g, 0);
		fo_s(" procs    ");
		rep_table_row_cols(group_figs, REP_N(group_figs), SIZE_COLUMNS, g, 0);
		/* --gpu's columns: after the keys of -v, before -g tree's */
		if (SR.opt->group == SR_GROUP_TREE)
			gpu_cells(group_figs, REP_N(group_figs), g, sums_have(&g->sum));
		if (verbose && SR.opt->group == SR_GROUP_TREE)
			fo_s(TWO_BLANK_CELLS);
		if (verbose) {
			fo_c(' ');
			rep_table_row_cols(group_figs, REP_N(group_figs), &KEY_COLUMNS[1], g, sums_have(&g->sum));
		}
		if (SR.opt->group != SR_GROUP_TREE)
			gpu_cells(group_figs, REP_N(group_figs), g, sums_have(&g->sum));
	}
	fo_c(' ');
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
	struct process_rec *p = process_figures(r, have);

	(void)ctx;
	/* prom shows neither the command nor the subtree: not worked out
	 * for each of its families */
	if (!SR.opt->prom && command(r, SR_CMD_MAX, &p->command_cut) >= 0) {
		p->command = TT.command;
		*have |= (uint64_t)1 << PF_COMMAND | (uint64_t)1 << PF_COMMAND_CUT;
	}
	if (SR.opt->group == SR_GROUP_TREE) {
		p->depth = TREE.depth[i];
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
	const struct sr_sums *g = group_at(i, &TT.group_rec.name);

	(void)ctx;
	TT.group_rec.by = sr_group_names[SR.opt->group];
	TT.group_rec.sum = *g;
	*have = sums_have(g);
	if (SR.opt->group == SR_GROUP_CGROUP && !SR.opt->prom) {
		TT.group_rec.cgroup = sr_cgroup_record(i, g->size[SR_SORT_PSS]);
		*have |= (uint64_t)1 << GROUP_CGROUP;
	}
	return &TT.group_rec;
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

/* prom with groups: each figure of the groups, then the same figure of
 * the total (membox_group_pss_bytes, then membox_total_pss_bytes), so a
 * figure's families stand together: a list of the groups' labels and
 * that one figure, then the total's.  A figure no group has is left out
 * of both. */
static void groups_prom(const struct sums_report *sums)
{
	struct rep_fig figs[GROUP_FIG_SUMS + 1];
	struct rep_list l = { 0, "group", figs, REP_N(figs), TT.ngroups, group_row, 0, 0 };
	uint64_t any = 0, have;
	unsigned i;

	for (i = 0; i < TT.ngroups; i++) {
		group_row(0, i, &have);
		any |= have;
	}
	memcpy(figs, group_figs, GROUP_FIG_SUMS * sizeof *figs);
	for (i = 0; i < N_SUM_FIGS; i++) {
		figs[GROUP_FIG_SUMS] = group_figs[GROUP_FIG_SUMS + i];
		rep_list(&l);
		rep_figs("total", &sums_figs[SUMS_FIG_TOTAL + i], 1, sums, any);
	}
}

static void report_end(void)
{
	const struct sr_options *o = SR.opt;
	int grouped = o->group >= SR_GROUP_USER;
	struct sums_report sums = {
		.shared_swap = { "shared_swap", "process", shared_swap_figs, REP_N(shared_swap_figs),
		                 TT.nlisted, process_row, 0, 0 },
		.total = TT.total, .group_by = sr_group_names[o->group],
		.groups = { "groups", "group", group_figs, REP_N(group_figs), TT.ngroups, group_row, 0, 0 },
	};
	uint64_t have = sums_have(&TT.total);
	unsigned i;

	for (i = 0; !TT.streaming && i < TT.nlisted; i++)
		rep_list_row(&TT.processes, i);
	TT.processes.rows = TT.nlisted;
	rep_list_close(&TT.processes);
	if (!(grouped && o->prom))
		have |= (uint64_t)1 << SUMS_TOTAL;
	if (grouped)
		have |= (uint64_t)1 << SUMS_GROUPS;
	if (o->group)
		have |= (uint64_t)1 << SUMS_GROUP_BY;
	if (o->view == SR_VIEW_SHARED_SWAP)
		have |= (uint64_t)1 << SUMS_SHARED_SWAP;
	rep_figs("", sums_figs, REP_N(sums_figs), &sums, have);
	if (grouped && o->prom)
		groups_prom(&sums);
	if (o->group == SR_GROUP_CGROUP && o->prom)
		sr_cgroup_prom();
	sr_report_scan(&SR.scan, o->view);
	rep_figs("", mem_total_fig, 1, &SR.scan.meminfo,
	         (uint64_t)MI_HAS(&SR.scan.meminfo, MI_MemTotal) << 1);
	rep_end();
}

int sr_process_view(const struct sr_options *o)
{
	int rc, streamable;
	unsigned i, top;

	/* -S: every smaps read once, first, in the object view's state; the
	 * process view's starts zero in the same storage */
	if (o->view == SR_VIEW_SHARED_SWAP && sr_shared_swap_pass(&SR.scan))
		return 1;
	/* --gpu: every process's descriptors first, in a state of its own
	 * (never with -S); the figures are kept in the scan */
	if (o->gpu)
		sr_gpu_pass(&SR.scan);
	if (o->view == SR_VIEW_SHARED_SWAP || o->gpu)
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
	TT.rows.shared_swap = o->view == SR_VIEW_SHARED_SWAP;
	TT.rows.gpu = o->gpu;
	if (sr_scan_start(&SR.scan, 0, o->group == SR_GROUP_CGROUP ? sr_cgroup_mount : 0))
		return 1;
	if (o->group == SR_GROUP_CGROUP)
		sr_cgroup_start(&TT.rows);
	/* as read: asked for, or live, in PID order */
	streamable = o->group != SR_GROUP_TREE && o->group != SR_GROUP_CGROUP &&
	             (o->unsorted || (o->sort == SR_SORT_PID && !o->reverse && !o->npids && rd_live()));
	for (i = 0; o->group == SR_GROUP_CATEGORY && i <= o->nrules; i++)
		group_sums(o->rules[i].name, o->rules[i].name_len);
	TT.streaming = TT.begin() && streamable;
	TT.capacity = o->top;   /* streaming (never in prom): --unsorted drops none */
	/* a command line for every process listed: read with its figures
	 * (kept when not written at once) rather than re-read */
	SR.scan.read_commands = !o->prom && (TT.streaming || listed_at_most(o) == -1u);
	TT.rows.commands = SR.scan.read_commands && !TT.streaming;
	if ((rc = scan(o->pids, o->npids)))
		return rc;
	if (!TT.streaming) {
		if (o->group == SR_GROUP_TREE)
			tree();
		else
			sr_sort(TT.order, TT.rows.nkept, kept_order);
		top = listed_at_most(o);
		TT.nlisted = TT.rows.nkept < top ? TT.rows.nkept : top;
		SR.scan.coverage[SR_DROPPED] += TT.not_kept + TT.rows.nkept - TT.nlisted;
	}
	sr_warn_overflow(&SR.scan);
	if (TT.not_kept)
		sr_warn_count(TT.not_kept, "processes",
		              "not listed: more than SR_MAX_ROWS or SR_ROW_POOL hold; counted in the totals");
	if (SR.scan.coverage[SR_GROUPED_OTHER])
		sr_warn_count(SR.scan.coverage[SR_GROUPED_OTHER], "processes",
		              "grouped as (other): more than SR_MAX_GROUPS groups");
	if (SR.scan.coverage[SR_CGROUPS_DROPPED])
		sr_warn_count(SR.scan.coverage[SR_CGROUPS_DROPPED], "cgroups",
		              "not kept: more than SR_MAX_CGROUPS or SR_CGROUP_POOL hold (their processes: in (other))");
	if (o->group == SR_GROUP_CGROUP)
		TT.ngroups = sr_cgroup_list();
	else if (o->group >= SR_GROUP_USER) {
		TT.ngroups += !!TT.groups[SR_MAX_GROUPS].sum.processes;
		sr_sort(TT.group_order, TT.ngroups, group_order);
	}
	TT.end();
	mb_warn_diag(&TT.users.diag);   /* a damaged /etc/passwd: uids shown */
	if ((o->npids || o->user) && !SR.scan.coverage[SR_PROCESSES])
		return mb_fail("no matching process", 0);
	return 0;
}

