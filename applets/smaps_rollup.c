/* smaps-rollup: who really uses the RAM.  Per process PSS, USS, RSS, Swap
 * and SwapPss from /proc/PID/smaps_rollup (smaps before 4.14, status where
 * neither is readable), identity from /proc/PID/status and cmdline, user
 * names from /etc/passwd, MemTotal from /proc/meminfo, how /proc hides
 * processes from /proc/self/mountinfo.  -S adds the swapped shared memory
 * of /proc/PID/smaps.  This file has the options and the applet's state,
 * and runs one of the views (the files: smaps_rollup.h). */
#include <string.h>
#include "applet.h"
#include "dmabuf.h"
#include "passwd.h"
#include "proc.h"
#include "sc.h"
#include "smaps_rollup.h"

/* membox --help: the question the applet answers */
const char smaps_rollup_purpose[] = "which processes (users, programs, cgroups) really use the RAM?";

static const char *const usage = "Usage: smaps-rollup [OPTIONS]\n\n"
	"Per process PSS (pages divided among their sharers), USS (private pages),\n"
	"RSS, SWAP and SWAPPSS from /proc/PID/smaps_rollup (else smaps; else status,\n"
	"marked '~'), largest PSS first; then totals, coverage and PSS vs MemTotal.\n\n"
	"  -p, --pid=PID[,PID]   only these processes\n"
	"  -U, --user=USER       only processes of USER (name or uid)\n"
	"  -s, --sort=KEY        pss uss rss swap swappss anon file shmem private_dirty\n"
	"                        pid user name (-M, -l: the sizes and name)\n"
	"  -r, --reverse         reverse the order\n"
	"  -n, --top=N           list the first N processes (0: none, the sums only)\n"
	"  -g, --group=BY        user, name, category, cgroup or tree\n"
	"      --cgroup-depth=N  -g cgroup: a cgroup's first N path components\n"
	"  -a, --all-cgroups     -g cgroup: also those with memory but no process\n"
	"  -c, --category=NAME=GLOB  category of matching command lines (repeatable)\n"
	"  -C, --categories=SET  built-in categories: chromeos\n"
	"      --unsorted        list processes as read, drop none\n"
	"  -S, --shared-swap     add swapped shared memory to SWAPPSS (reads smaps)\n"
	"      --gpu             DMA-BUF and DRM (GPU) memory each process holds\n"
	"  -M, --maps=PID        the objects (files, memory) PID maps\n"
	"  -l, --objects         the objects of all processes; SysV segments\n"
	"  -v, --verbose         the table: every rollup key; -l: the processes of\n"
	"                        each object, and the unreadable ones; -M: each\n"
	"                        mapping\n"
	CLI_REPEAT_HELP;

enum smaps_rollup_option {
	SR_OPT_PID = 'p', SR_OPT_USER = 'U', SR_OPT_SORT = 's', SR_OPT_REVERSE = 'r',
	SR_OPT_TOP = 'n', SR_OPT_GROUP = 'g', SR_OPT_CATEGORY = 'c', SR_OPT_CATEGORIES = 'C',
	SR_OPT_UNSORTED = OPT_APPLET, SR_OPT_SHARED_SWAP = 'S', SR_OPT_MAPS = 'M',
	SR_OPT_OBJECTS = 'l', SR_OPT_VERBOSE = 'v', SR_OPT_CGROUP_DEPTH = OPT_APPLET + 1,
	SR_OPT_ALL_CGROUPS = 'a', SR_OPT_GPU = OPT_APPLET + 2,
};
static const struct opt opts[] = {
	{ "pid", 'p', 1, SR_OPT_PID }, { "user", 'U', 1, SR_OPT_USER },
	{ "sort", 's', 1, SR_OPT_SORT }, { "reverse", 'r', 0, SR_OPT_REVERSE },
	{ "top", 'n', 1, SR_OPT_TOP }, { "group", 'g', 1, SR_OPT_GROUP },
	{ "category", 'c', 1, SR_OPT_CATEGORY }, { "categories", 'C', 1, SR_OPT_CATEGORIES },
	{ "unsorted", 0, 0, SR_OPT_UNSORTED }, { "shared-swap", 'S', 0, SR_OPT_SHARED_SWAP },
	{ "maps", 'M', 1, SR_OPT_MAPS }, { "objects", 'l', 0, SR_OPT_OBJECTS },
	{ "verbose", 'v', 0, SR_OPT_VERBOSE }, { "cgroup-depth", 0, 1, SR_OPT_CGROUP_DEPTH },
	{ "all-cgroups", 'a', 0, SR_OPT_ALL_CGROUPS }, { "gpu", 0, 0, SR_OPT_GPU },
	CLI_REPEAT_OPTS,
	{ 0, 0, 0, 0 }
};

static const char *const sort_names[SR_SORT_N] = { "pss", "uss", "rss", "swap", "swappss",
	"anon", "file", "shmem", "private_dirty", "pid", "user", "name" };
/* -M and -l: the objects' sort keys, a size of theirs or the name */
static const char *const object_sort_names[] = { "pss", "uss", "rss", "swap", "swappss",
	"private_dirty", "name" };

/* -C's sets */
static const char *const category_sets[] = { "chromeos" };

/* -C chromeos: the rules as -c would add them, the first match wins */
static const char *const chromeos_rules[] = {
	"crosvm_arcvm=/usr/bin/crosvm run*/arcvm.sock*",
	"crosvm_other=/usr/bin/crosvm*",
	"chrome_renderer=/opt/google/chrome/chrome*--type=renderer*",
	"chrome_gpu=/opt/google/chrome/chrome*--type=gpu-process*",
	"chrome_other=/opt/google/chrome/chrome*--type=*",
	"chrome_browser=/opt/google/chrome/chrome*",
};

GLOBALS(
	struct sr_scan scan;
	const struct sr_options *opt;
	/* one view runs: its state alone (-S clears the object view's
	 * before the process view runs); the process view's grouping by
	 * tree or cgroup beside its own */
	union {
		struct {
			struct sr_procs procs;
			union {
				struct sr_tree tree;         /* -g tree */
				struct sr_cgroups cgroups;   /* -g cgroup */
			};
		};
		struct sr_objects objects;
		struct dmabuf_set gpu;   /* --gpu's pass, before the process view */
	} v;
)
#define TT this.smaps_rollup

/* ---- the options ---- */

/* -c NAME=GLOB, or a rule of -C: 0, or -1 after a message */
static int add_rule(struct sr_options *o, const char *opt, const char *spec)
{
	const char *eq = strchr(spec, '=');
	char cut[41];

	if (o->nrules == SR_MAX_RULES)
		return mb_warn(opt, MB_WHY, "more than SR_MAX_RULES (16) categories"), -1;
	if (!eq || eq == spec || pat_check(eq + 1))
		return mb_warn(opt, " '", mb_cut(cut, spec, 40), "'", MB_WHY,
		               "not NAME=GLOB (a glob of at most PAT_MAX (256) bytes)"), -1;
	o->rules[o->nrules].name = spec;
	o->rules[o->nrules].name_len = eq - spec;
	o->rules[o->nrules++].glob = eq + 1;
	return 0;
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
			if (cli_pids((char *)p, o->pids, &o->npids, SR_MAX_PIDS))
				return cli_usage_error();
			break;
		case SR_OPT_USER:
			o->user = p;
			break;
		case SR_OPT_SORT:
			if ((i = cli_pick("-s", p, sort_names, SR_SORT_N)) < 0)
				return cli_usage_error();
			o->sort = i;
			break;
		case SR_OPT_GROUP:   /* none has no name to give */
			if ((i = cli_pick("-g", p, sr_group_names + 1, SR_GROUP_N - 1)) < 0)
				return cli_usage_error();
			o->group = i + 1;
			break;
		case SR_OPT_REVERSE:
			o->reverse = 1;
			break;
		case SR_OPT_TOP:
			if (cli_u64("-n", p, 0, UINT64_MAX, &v))
				return cli_usage_error();
			/* more than there can be processes: all of them */
			o->top = v < -1u ? v : -1u;
			break;
		case SR_OPT_MAPS:
			if (cli_u64("-M", p, 1, 0x7fffffff, &v))
				return cli_usage_error();
			o->maps_pid = v;
			o->view = SR_VIEW_MAPS;
			break;
		case SR_OPT_CATEGORIES:
			if (cli_pick("-C", p, category_sets, REP_N(category_sets)) < 0)
				return cli_usage_error();
			for (k = 0; k < REP_N(chromeos_rules); k++)
				if (add_rule(o, "-C", chromeos_rules[k]))
					return cli_usage_error();
			break;
		case SR_OPT_CATEGORY:
			if (add_rule(o, "-c", p))
				return cli_usage_error();
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
		case SR_OPT_CGROUP_DEPTH:
			if (cli_u64("--cgroup-depth", p, 0, 4096, &v))
				return cli_usage_error();
			o->cgroup_depth = v;
			break;
		case SR_OPT_ALL_CGROUPS:
			o->all_cgroups = 1;
			break;
		case SR_OPT_GPU:
			o->gpu = 1;
			break;
		}
	}
	if (st.ind < argc)
		return mb_warn(argv[st.ind], "unexpected argument"), cli_usage_error();
	if (o->nrules && !o->group)
		o->group = SR_GROUP_CATEGORY;
	/* --cgroup-depth and -a imply -g cgroup, and mean nothing with another */
	if ((o->all_cgroups || o->cgroup_depth != -1u) && !o->group)
		o->group = SR_GROUP_CGROUP;
	if ((o->all_cgroups || o->cgroup_depth != -1u) && o->group != SR_GROUP_CGROUP) {
		p = o->all_cgroups ? "-a" : "--cgroup-depth";
		mb_warn(p, "only with -g cgroup");
		return cli_usage_error();
	}
	/* --gpu's figures are kept where -S keeps its own; -M and -l list objects */
	if (o->gpu && o->view != SR_VIEW_PROCESSES) {
		mb_warn("--gpu", "not with -S, -M or -l");
		return cli_usage_error();
	}
	o->rules[o->nrules].name = "other";
	o->rules[o->nrules].name_len = 5;
	if (o->view == SR_VIEW_MAPS) {
		o->pids[0] = o->maps_pid;
		o->npids = 1;
	}
	if (o->view >= SR_VIEW_MAPS)
		o->group = SR_GROUP_NONE;
	/* objects sort by a size of theirs or by name */
	if (o->view >= SR_VIEW_MAPS && o->sort != SR_SORT_NAME && o->sort != SR_SORT_PRIVATE_DIRTY &&
	    o->sort >= SR_SORT_ANON) {
		cli_pick("-s with -M or -l", sort_names[o->sort], object_sort_names,
		         REP_N(object_sort_names));
		return cli_usage_error();
	}
	return 0;
}

/* -p, -M: a thread's /proc/TID (not listed, but there) has its process's
 * memory; read as a PID of its own it would be counted twice.  Each one
 * given (its status's Pid the TID, its Tgid another) becomes its process,
 * once, with a warning.  A PID that cannot be read stays as given: the
 * scan says what it is. */
static void threads(struct sr_options *o)
{
	struct pr_proc p;
	char buf[SR_READ_MAX];
	unsigned i, j, k, tgid;

	for (i = 0; i < o->npids; i++) {
		memset(&p, 0, sizeof p);
		if (pr_open(&p, o->pids[i]) != PR_FOUND)
			continue;
		tgid = pr_read_status(&p, buf, sizeof buf) == PR_FOUND ? p.status.tgid : 0;
		pr_close(&p);
		/* a status whose Pid is another (copied into a hand-made tree)
		 * says nothing about this directory */
		if (!tgid || tgid == o->pids[i] || p.status.pid != o->pids[i])
			continue;
		mb_warn("PID ", MB_U64(o->pids[i]), MB_WHY, "a thread of process ", MB_U64(tgid),
		        ": counted as ", MB_U64(tgid));
		for (j = 0; j < o->npids && o->pids[j] != tgid; j++)
			;
		if (j == o->npids) {
			o->pids[i] = tgid;
			continue;
		}
		for (k = i--; k + 1 < o->npids; k++)   /* its process is there already */
			o->pids[k] = o->pids[k + 1];
		o->npids--;
	}
	o->maps_pid = o->view == SR_VIEW_MAPS ? o->pids[0] : o->maps_pid;
}

int smaps_rollup_main(int argc, char **argv)
{
	struct sr_options o = { .top = -1u, .cgroup_depth = -1u };
	uint64_t uid;
	int rc;

	cli_init("smaps-rollup");
	if ((rc = options(&o, argc, argv)) || (rc = cli_root()) || (rc = cli_reports()))
		return rc;
	if (o.user) {
		if (sc_u64_all(o.user, strlen(o.user), &uid) == SC_OK)
			o.uid = uid;
		else if (pw_uid(o.user, &o.uid))
			return mb_fail(o.user, "no such user");
	}
	threads(&o);
	TT.opt = &o;
	switch (mb.fmt) {   /* the views ask these, never the format */
	case FMT_TABLE:
		o.table = 1;
		break;
	case FMT_PROM:
		o.prom = 1;
		break;
	default:
		break;
	}
	return o.view >= SR_VIEW_MAPS ? sr_objects_view(&o) : sr_process_view(&o);
}
