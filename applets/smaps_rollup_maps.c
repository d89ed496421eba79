/* smaps-rollup's object views: -M PID, the objects one process maps, and
 * -l, the objects of every process and the SysV shared memory segments.
 * An object is a file or shared memory, told by device and inode, or a
 * kind of anonymous memory, told by its name.  Reads /proc/PID/smaps,
 * /proc/PID/mountinfo (which devices are tmpfs mounts) and
 * /proc/sysvipc/shm; the options and the scan of the processes are
 * smaps_rollup.c's (include/smaps_rollup.h). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "applet.h"
#include "mountinfo.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"
#include "sysvshm.h"

/* proc.h's PK_ kinds */
static const char *const kind_names[] = { "anon", "heap", "stack", "special", "anon_named",
	"shared_anon", "file", "deleted", "tmpfs", "memfd", "sysv", "other" };
_Static_assert(sizeof kind_names / sizeof *kind_names == PK_OTHER + 1, "a PK_ kind without a name");

/* The sizes of an object: these smaps keys, summed over its mappings */
static const unsigned char object_keys[SR_OBJECT_SIZES] = { PR_Size, PR_Rss, PR_Pss,
	PR_Private_Clean, PR_Private_Dirty, PR_Shared_Clean, PR_Shared_Dirty, PR_Swap, PR_SwapPss };
enum { OBJECT_PSS = 2 };
/* -l's table has the columns RSS, PSS, SWAP and SWAPPSS of them */
static const unsigned char objects_column[SR_OBJECT_SIZES] = { 0, 1, 1, 0, 0, 0, 0, 1, 1 };

/* /proc/sysvipc/shm's columns, as the report names them */
static const char *const sysv_columns[] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
enum { SYSV_COLUMNS = sizeof sysv_columns / sizeof *sysv_columns };

static const char other_objects[] = "(other objects)";

GLOBALS(
	struct sr_scan scan;
	const struct sr_options *opt;
	struct object {
		uint64_t ino;              /* a file's inode; for anonymous kinds a hash of the name */
		uint32_t dev;              /* major << 20 | minor; 0 for anonymous kinds */
		unsigned char kind;        /* PK_ */
		unsigned char shared;      /* -M: mapped MAP_SHARED, apart from its private mappings */
		uint16_t name, name_len;   /* in names */
		uint64_t size[SR_OBJECT_SIZES];   /* bytes */
		uint64_t regions, processes;
		uint32_t last_pid;         /* the process read last, and its PSS here in KiB */
		uint32_t last_pss_kb;
		struct consumer {
			uint32_t pid, pss_kb;
			char name[SR_NAME_MAX];
		} top[SR_MAX_CONSUMERS];   /* by PSS */
	} objects[SR_MAX_OBJS + 2];   /* [SR_MAX_OBJS]: "(other objects)", then the total */
	unsigned nobjects;
	unsigned short order[SR_MAX_OBJS + 1];   /* the objects as listed */
	unsigned nlisted;
	char names[SR_OBJ_POOL];
	unsigned names_used;
	uint32_t tmpfs[SR_MAX_TMPFS];   /* devices of tmpfs mounts */
	unsigned ntmpfs;
	unsigned mapping;               /* the object of the mapping being read */
	/* the report's records */
	struct object_rec {
		uint64_t pid;               /* -M: the process */
		const char *process_name;
		const char *kind;
		struct rep_text name;
		int shared;
		const char *shared_label;
		uint64_t processes, regions;
		uint64_t size[SR_OBJECT_SIZES];
		struct rep_list consumers;
	} rec;
	struct consumer_rec {
		uint64_t pid;
		const char *name;
		uint64_t pss;
	} consumer_rec;
	/* /proc/sysvipc/shm, read anew for each pass over its segments */
	struct sysv_reader {
		struct rd_lines lines;
		struct shm_it it;
		int fd;
		struct sysv_rec {
			uint64_t id, owner, attaches, size, rss, swap;
		} rec;
	} sysv;
)
#define TT this.smaps_rollup_maps

/* The figures of an object; -M's and -l's differ (and the order of json
 * members is not the order of prom families). */
#define O(member) offsetof(struct object_rec, member)
static const char object_help[] = "An object's mappings (smaps-rollup -M, -l in the README).";
#define OBJECT_SIZES(flags) \
	{ "rollup", 0, 0, 0, REP_OBJ, 0, 0 }, \
	{ "Size", "size", object_help, O(size[0]), REP_BYTES, 0, flags }, \
	{ "Rss", "rss", object_help, O(size[1]), REP_BYTES, 0, flags }, \
	{ "Pss", "pss", object_help, O(size[2]), REP_BYTES, 0, flags }, \
	{ "Private_Clean", "private_clean", object_help, O(size[3]), REP_BYTES, 0, flags }, \
	{ "Private_Dirty", "private_dirty", object_help, O(size[4]), REP_BYTES, 0, flags }, \
	{ "Shared_Clean", "shared_clean", object_help, O(size[5]), REP_BYTES, 0, flags }, \
	{ "Shared_Dirty", "shared_dirty", object_help, O(size[6]), REP_BYTES, 0, flags }, \
	{ "Swap", "swap", object_help, O(size[7]), REP_BYTES, 0, flags }, \
	{ "SwapPss", "swappss", object_help, O(size[8]), REP_BYTES, 0, flags }, \
	{ "", 0, 0, 0, REP_END, 0, 0 }
static const struct rep_fig maps_figs[] = {
	{ "pid", 0, 0, O(pid), REP_COUNT, 0, REP_LABEL | REP_NOTREE },
	{ "kind", 0, 0, O(kind), REP_STR, 0, REP_LABEL },
	{ "object", 0, 0, O(name), REP_TEXT, 0, REP_LABEL },
	{ "shared", 0, 0, O(shared), REP_BOOL, 0, REP_NOPROM },
	{ "shared", 0, 0, O(shared_label), REP_STR, 0, REP_LABEL | REP_NOTREE },
	{ "regions", 0, 0, O(regions), REP_COUNT, 0, REP_NOPROM },
	OBJECT_SIZES(0),
	{ "regions", 0, object_help, O(regions), REP_COUNT, 0, REP_NOTREE },
};
static const struct rep_fig objects_figs[] = {
	{ "kind", 0, 0, O(kind), REP_STR, 0, REP_LABEL },
	{ "object", 0, 0, O(name), REP_TEXT, 0, REP_LABEL },
	{ "processes", 0, 0, O(processes), REP_COUNT, 0, REP_NOPROM },
	{ "regions", 0, 0, O(regions), REP_COUNT, 0, REP_NOPROM },
	OBJECT_SIZES(0),
	{ "regions", 0, object_help, O(regions), REP_COUNT, 0, REP_NOTREE },
	{ "processes", 0, object_help, O(processes), REP_COUNT, 0, REP_NOTREE },
	/* -v */
	{ "consumers", 0, 0, O(consumers), REP_LIST, 0, REP_NOPROM | REP_OMIT },
};
/* json only: the process of -M, and the sums of every object */
static const struct rep_fig maps_head_figs[] = {
	{ "pid", 0, 0, O(pid), REP_COUNT, 0, REP_NOPROM },
	{ "name", 0, 0, O(process_name), REP_STR, 0, REP_NOPROM },
};
enum { TOTAL_PROCESSES = 1 };
static const struct rep_fig total_figs[] = {
	{ "total", 0, 0, 0, REP_OBJ, 0, 0 },
	{ "processes", 0, 0, O(processes), REP_COUNT, 0, REP_NOPROM | REP_OMIT },   /* -l */
	{ "regions", 0, 0, O(regions), REP_COUNT, 0, REP_NOPROM },
	OBJECT_SIZES(REP_NOPROM),
	{ "", 0, 0, 0, REP_END, 0, 0 },
};

/* -l -v: the processes with the largest PSS in an object */
#define C(member) offsetof(struct consumer_rec, member)
static const struct rep_fig consumer_figs[] = {
	{ "pid", 0, 0, C(pid), REP_COUNT, 0, 0 },
	{ "name", 0, 0, C(name), REP_STR, 0, 0 },
	{ "pss", 0, 0, C(pss), REP_BYTES, 0, 0 },
};

/* A SysV segment: json has every column (null when the header lacks
 * it), prom labels the sizes by the first two. */
#define V(member) offsetof(struct sysv_rec, member)
static const char sysv_help[] = "A SysV shared memory segment (/proc/sysvipc/shm).";
static const struct rep_fig sysv_figs[] = {
	{ "id", 0, 0, V(id), REP_COUNT, 0, REP_OPTIONAL | REP_NOPROM },
	{ "owner", 0, 0, V(owner), REP_COUNT, 0, REP_OPTIONAL | REP_NOPROM },
	{ "attaches", 0, sysv_help, V(attaches), REP_COUNT, 0, REP_OPTIONAL | REP_KEEP },
	{ "size", 0, sysv_help, V(size), REP_BYTES, 0, REP_OPTIONAL | REP_KEEP },
	{ "rss", 0, sysv_help, V(rss), REP_BYTES, 0, REP_OPTIONAL | REP_KEEP },
	{ "swap", 0, sysv_help, V(swap), REP_BYTES, 0, REP_OPTIONAL | REP_KEEP },
	{ "id", 0, 0, V(id), REP_COUNT, 0, REP_LABEL | REP_NOTREE },
	{ "owner", 0, 0, V(owner), REP_COUNT, 0, REP_LABEL | REP_NOTREE },
};

/* ---- the objects ---- */

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int is_tmpfs(uint32_t dev)
{
	unsigned i;
	for (i = 0; i < TT.ntmpfs && TT.tmpfs[i] != dev; i++)
		;
	return i < TT.ntmpfs;
}

static void note_tmpfs(const struct mnt *m)
{
	uint32_t dev = m->major << 20 | m->minor;

	if (strcmp(m->fstype, "tmpfs") || is_tmpfs(dev))
		return;
	if (TT.ntmpfs < SR_MAX_TMPFS)
		TT.tmpfs[TT.ntmpfs++] = dev;
	else
		TT.scan.overflow[SR_TMPFS_MOUNTS]++;
}

/* The object of a mapping, added when new: its index, else SR_MAX_OBJS. */
static unsigned object_of(const struct pr_map *h)
{
	struct object *o = TT.objects;
	uint32_t dev = h->dev;
	int kind = pr_mapkind(h, is_tmpfs(dev)), shared = TT.opt->view == SR_VIEW_MAPS && h->shared;
	const char *name = h->path;
	size_t n = h->plen;
	uint64_t ino = h->ino;
	unsigned i;

	if (kind < PK_SHANON) {
		ino = fnv1a(name, n);
		dev = 0;
	}
	for (i = 0; i < TT.nobjects; i++)
		if (o[i].ino == ino && o[i].dev == dev && o[i].kind == kind && o[i].shared == shared)
			return i;
	if (TT.nobjects == SR_MAX_OBJS) {
		TT.scan.overflow[SR_OTHER_REGIONS]++;
		return TT.nobjects;
	}
	o += TT.nobjects;
	o->ino = ino;
	o->dev = dev;
	o->kind = kind;
	o->shared = shared;
	if (!n && kind == PK_ANON) {
		name = "[anon]";
		n = 6;
	}
	if (n > SR_OBJ_POOL - TT.names_used) {
		n = SR_OBJ_POOL - TT.names_used;
		TT.scan.overflow[SR_NAMES_CUT]++;
	}
	memcpy(TT.names + TT.names_used, name, n);
	o->name = TT.names_used;
	o->name_len = n;
	TT.names_used += n;
	return TT.nobjects++;
}

/* Keep the process read among the top consumers of o (by PSS, then PID). */
static void offer(struct object *o, const struct sr_row *process)
{
	struct consumer *t = o->top, x;
	unsigned pid = process->pid;
	int i = 0;

	while (i < SR_MAX_CONSUMERS - 1 && t[i].pid != pid)
		i++;
	if (t[i].pid != pid && t[i].pid &&
	    (o->last_pss_kb < t[i].pss_kb || (o->last_pss_kb == t[i].pss_kb && pid > t[i].pid)))
		return;
	t[i].pid = pid;
	t[i].pss_kb = o->last_pss_kb;
	memcpy(t[i].name, process->name, sizeof t->name);
	for (; i && (!t[i - 1].pid || t[i].pss_kb > t[i - 1].pss_kb ||
	             (t[i].pss_kb == t[i - 1].pss_kb && pid < t[i - 1].pid)); i--) {
		x = t[i];
		t[i] = t[i - 1];
		t[i - 1] = x;
	}
}

static void mapping_begin(void *ctx, const struct pr_map *header)
{
	(void)ctx;
	TT.mapping = header ? object_of(header) : SR_MAX_OBJS;
}

static void mapping_end(void *ctx, const struct pr_mem *figures)
{
	struct object *o = &TT.objects[TT.mapping];
	const struct sr_row *process = &TT.scan.cur;
	unsigned i;

	(void)ctx;
	for (i = 0; i < SR_OBJECT_SIZES; i++)
		o->size[i] = sat_add(o->size[i], figures->v[object_keys[i]]);
	o->regions++;
	if (o->last_pid != process->pid) {
		o->last_pid = process->pid;
		o->last_pss_kb = 0;
		o->processes++;
	}
	o->last_pss_kb += figures->v[PR_Pss] >> 10;
	offer(o, process);
}

static const struct pr_maps_sink object_sink = { mapping_begin, mapping_end, 0 };

static int scan(void)
{
	struct pr_pids it;
	long pid;

	pr_pids_start(&it, &TT.scan.proc, TT.opt->pids, TT.opt->npids);
	while ((pid = pr_pids_next(&it)) > 0)
		sr_read(&TT.scan, TT.opt, pid, &object_sink);
	return pid < 0 ? mb_fail_errno("/proc", -pid) : 0;
}

/* Objects by PSS, largest first, then by name and kind. */
static int object_order(unsigned i, unsigned j)
{
	const struct object *x = &TT.objects[i], *y = &TT.objects[j];
	int d = SR_SIGN(y->size[OBJECT_PSS], x->size[OBJECT_PSS]);

	if (!d)
		d = sr_compare_names(TT.names + x->name, x->name_len, TT.names + y->name, y->name_len);
	if (!d)
		d = SR_SIGN(x->kind, y->kind);
	return d;
}

/* The listing: the objects in order, "(other objects)" last when any
 * mapping went there, -n of them; the total of them all. */
static void list_objects(void)
{
	struct object *o = TT.objects, *total = &o[SR_MAX_OBJS + 1];
	unsigned i, j, n = TT.nobjects;

	sr_sort(TT.order, n, object_order);
	if (o[SR_MAX_OBJS].regions)
		TT.order[n++] = SR_MAX_OBJS;
	for (i = 0; i <= SR_MAX_OBJS; i++) {   /* the unused ones are zero */
		for (j = 0; j < SR_OBJECT_SIZES; j++)
			total->size[j] = sat_add(total->size[j], o[i].size[j]);
		total->regions = sat_add(total->regions, o[i].regions);
	}
	total->processes = TT.scan.coverage[SR_PROCESSES];
	TT.nlisted = TT.opt->top < n ? TT.opt->top : n;
}

/* ---- the table ---- */

/* A count's cell: a blank, then right-aligned in w. */
static void number(uint64_t v, int w)
{
	fo_c(' ');
	tb_u64(v, w);
}

static void table_sizes(const struct object *o)
{
	int maps = TT.opt->view == SR_VIEW_MAPS;
	unsigned i;

	for (i = 0; i < SR_OBJECT_SIZES; i++)
		if (maps || objects_column[i])
			sr_cell(o->size[i], 1, 0);
	if (!maps)
		number(o->processes, 6);
	number(o->regions, 7);
}

static void table_object(const struct object *o)
{
	const struct consumer *t;

	table_sizes(o);
	fo_s(TT.opt->view != SR_VIEW_MAPS ? " " : o->shared ? " s " : " p ");
	tb_str(kind_names[o->kind], 11);
	fo_c(' ');
	out_safe(fo, TT.names + o->name, o->name_len);
	for (t = o->top; TT.opt->verbose && t < o->top + SR_MAX_CONSUMERS && t->pid; t++) {
		fo_s(t == o->top ? "\n    top: " : ", ");
		out_u64(fo, t->pid);
		fo_c(' ');
		out_safe(fo, t->name, strlen(t->name));
		fo_c(' ');
		tb_size((uint64_t)t->pss_kb << 10, 0);
	}
	tb_nl();
}

static void sysv_open(void)
{
	struct sysv_reader *s = &TT.sysv;

	s->it = (struct shm_it){ .r = &s->lines, .col = sysv_columns, .n = SYSV_COLUMNS };
	s->fd = rd_lines_open(&s->lines, "/proc/sysvipc/shm");
}

static void sysv_close(void)
{
	if (TT.sysv.fd >= 0)
		close(TT.sysv.fd);
	TT.sysv.fd = -1;
}

/* The next segment into TT.sysv.rec: 1, else 0 (at the end). */
static int sysv_next(void)
{
	struct sysv_rec *r = &TT.sysv.rec;
	uint64_t v[SYSV_COLUMNS];

	if (TT.sysv.fd < 0 || shm_next(&TT.sysv.it, v) <= 0)
		return 0;
	r->id = v[0];
	r->owner = v[1];
	r->attaches = v[2];
	r->size = v[3];
	r->rss = v[4];
	r->swap = v[5];
	return 1;
}

static void sysv_table(void)
{
	const struct sysv_rec *r = &TT.sysv.rec;
	int n = 0, have;

	sysv_open();
	while (sysv_next()) {
		if (!n++)
			fo_s("\n   SHMID   OWNER  ATTACH     SIZE      RSS     SWAP\n");
		have = TT.sysv.it.have;
		number(r->id, 7);
		number(r->owner, 7);
		number(r->attaches, 7);
		sr_cell(r->size, have >> 3 & 1, 0);
		sr_cell(r->rss, have >> 4 & 1, 0);
		sr_cell(r->swap, have >> 5 & 1, 0);
		tb_nl();
	}
	TT.scan.overflow[SR_SYSV_BAD] += TT.sysv.it.bad;
	sysv_close();
}

static void table(void)
{
	int maps = TT.opt->view == SR_VIEW_MAPS;
	unsigned i;

	fo_s(maps ? "     SIZE      RSS      PSS  PRV_CLN  PRV_DRT  SHR_CLN  SHR_DRT     SWAP  SWAPPSS REGIONS M KIND        OBJECT\n"
	          : "      RSS      PSS     SWAP  SWAPPSS  PROCS REGIONS KIND        OBJECT\n");
	for (i = 0; i < TT.nlisted; i++)
		table_object(&TT.objects[TT.order[i]]);
	table_sizes(&TT.objects[SR_MAX_OBJS + 1]);
	fo_s(maps ? "   " : " ");
	sr_coverage_line(&TT.scan);
	if (!maps)
		sysv_table();
}

/* ---- the report (json, kv, prom) ---- */

static const void *consumer_row(void *ctx, size_t i, uint64_t *have)
{
	const struct consumer *t = &((const struct object *)ctx)->top[i];

	TT.consumer_rec.pid = t->pid;
	TT.consumer_rec.name = t->name;
	TT.consumer_rec.pss = (uint64_t)t->pss_kb << 10;
	*have = REP_ALL;
	return &TT.consumer_rec;
}

static const struct object_rec *object_rec(const struct object *o)
{
	struct object_rec *r = &TT.rec;
	size_t n = 0;

	while (n < SR_MAX_CONSUMERS && o->top[n].pid)
		n++;
	r->pid = TT.scan.cur.pid;
	r->process_name = TT.scan.cur.name;
	r->kind = kind_names[o->kind];
	r->name.s = TT.names + o->name;
	r->name.n = o->name_len;
	r->shared = o->shared;
	r->shared_label = o->shared ? "true" : "false";
	r->processes = o->processes;
	r->regions = o->regions;
	memcpy(r->size, o->size, sizeof r->size);
	r->consumers = (struct rep_list){ "consumers", 0, consumer_figs, REP_N(consumer_figs), n,
	                                  consumer_row, 0, (void *)o };
	return r;
}

static const void *object_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	*have = TT.opt->verbose ? REP_ALL : 0;
	return object_rec(&TT.objects[TT.order[i]]);
}

/* A segment of /proc/sysvipc/shm, read in order from the first (each of
 * prom's families reads the file anew). */
static const void *sysv_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	if (!i) {
		sysv_close();
		sysv_open();
	}
	if (!sysv_next())
		memset(&TT.sysv.rec, 0, sizeof TT.sysv.rec);
	*have = TT.sysv.fd >= 0 ? (uint64_t)TT.sysv.it.have : 0;
	return &TT.sysv.rec;
}

static void sysv_report(void)
{
	struct rep_list segments = { "sysv", "sysv_shm", sysv_figs, REP_N(sysv_figs), 0, sysv_row, 0, 0 };

	/* first their number, and what does not parse */
	sysv_open();
	while (sysv_next())
		segments.rows++;
	TT.scan.overflow[SR_SYSV_BAD] += TT.sysv.it.bad;
	sysv_close();
	rep_list(&segments);
	sysv_close();
}

static void report(void)
{
	int maps = TT.opt->view == SR_VIEW_MAPS;
	const struct rep_list objects = { "objects", "object", maps ? maps_figs : objects_figs,
		maps ? REP_N(maps_figs) : REP_N(objects_figs), TT.nlisted, object_row, 0, 0 };

	rep_begin();
	TT.rec.pid = TT.scan.cur.pid;
	TT.rec.process_name = TT.scan.cur.name;
	if (maps)
		rep_figs("", maps_head_figs, REP_N(maps_head_figs), &TT.rec, REP_ALL);
	rep_list(&objects);
	rep_figs("", total_figs, REP_N(total_figs), object_rec(&TT.objects[SR_MAX_OBJS + 1]),
	         maps ? 0 : (uint64_t)1 << TOTAL_PROCESSES);
	if (!maps)
		sysv_report();
	sr_report_scan(&TT.scan, TT.opt->view);
	rep_end();
}

int sr_objects_view(const struct sr_options *o)
{
	struct object *other = &TT.objects[SR_MAX_OBJS];

	TT.opt = o;
	TT.sysv.fd = -1;
	memcpy(TT.names, other_objects, TT.names_used = sizeof other_objects - 1);
	other->kind = PK_OTHER;
	other->name_len = sizeof other_objects - 1;
	if (sr_scan_start(&TT.scan, o->view == SR_VIEW_MAPS ? o->maps_pid : 0, note_tmpfs) || scan())
		return 1;
	if (o->view == SR_VIEW_MAPS && !TT.scan.coverage[SR_PROCESSES])
		return mb_fail("no matching process", 0);
	if (o->view == SR_VIEW_MAPS && TT.scan.maps_error) {
		char path[48];
		return mb_fail_errno(sr_proc_path(path, o->maps_pid, "/smaps"), TT.scan.maps_error);
	}
	list_objects();
	if (o->table)
		table();
	else
		report();
	sr_warn_overflow(&TT.scan);
	return 0;
}
