/* smaps-rollup's object views: -M PID, the objects one process maps, and
 * -l, the objects of every process and the SysV shared memory segments.
 * An object is a file or shared memory, told by device and inode, or a
 * kind of anonymous memory, told by its name.  Reads /proc/PID/smaps,
 * /proc/PID/mountinfo (which devices are tmpfs mounts) and
 * /proc/sysvipc/shm; the options are smaps_rollup.c's, the scan of the
 * processes smaps_rollup_scan.c's (smaps_rollup.h). */
#include <fcntl.h>
#include <stdlib.h>
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
/* An object's figures: those sizes in KiB, then how many mappings and
 * processes it has */
enum { FIG_RSS = 1, FIG_PSS, FIG_PRIVATE_CLEAN, FIG_PRIVATE_DIRTY, FIG_SWAP = 7, FIG_SWAP_PSS,
       FIG_REGIONS = SR_OBJECT_SIZES, FIG_PROCESSES, FIGS };
_Static_assert(FIGS == SR_OBJECT_FIGS, "SR_OBJECT_FIGS: the figures of an object");
/* -l's table has the columns RSS, PSS, SWAP and SWAPPSS of them */
static const unsigned char objects_column[SR_OBJECT_SIZES] = { 0, 1, 1, 0, 0, 0, 0, 1, 1 };
/* -s: the figure each size key sorts objects by (uss: two of them) */
static const unsigned char sort_figure[SR_SORT_N] = {
	[SR_SORT_PSS] = FIG_PSS, [SR_SORT_USS] = FIG_PRIVATE_CLEAN, [SR_SORT_RSS] = FIG_RSS,
	[SR_SORT_SWAP] = FIG_SWAP, [SR_SORT_SWAP_PSS] = FIG_SWAP_PSS,
	[SR_SORT_PRIVATE_DIRTY] = FIG_PRIVATE_DIRTY };

/* /proc/sysvipc/shm's columns, as the report names them */
static const char *const sysv_columns[] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
enum { SYSV_COLUMNS = sizeof sysv_columns / sizeof *sysv_columns };

static const char other_objects[] = "(other objects)";
#define NO_NAME 0          /* the empty name, first in the pool */
#define OTHER_NAME 2       /* "(other objects)", after it */
#define SWAP_PROCESS UINT32_MAX   /* a swap_seen entry that starts a process */
#define NOT_YET UINT32_MAX        /* a process's name not in the pool yet */

_Static_assert((SR_OBJ_SLOTS & (SR_OBJ_SLOTS - 1)) == 0 && SR_OBJ_SLOTS > SR_MAX_OBJS,
               "SR_OBJ_SLOTS: a power of two above SR_MAX_OBJS");

/* the applet's state; the object view's own is TT */
#define SR this.smaps_rollup
#define TT SR.v.objects
enum { OBJ_SHARED = 1, OBJ_WIDE = 2, OBJ_SATURATED = 4 };

/* The figures of an object; -M's and -l's differ (and the order of json
 * members is not the order of prom families).  SIZE_FIGS are a mapping's
 * too (not in prom: the help is the object's); their columns are the
 * -M -v table's (the objects' tables are laid out below). */
static const char regions_help[] = "Mappings (regions of /proc/PID/smaps) of an object, a count.";
#define SIZE_FIGS(type, fl) \
	FIG(type, size[0], "Size", REP_BYTES, .prom = "size", .help = "Address space of an object's mappings, in bytes.", .flags = fl, .width = 8, .label = "SIZE"), \
	FIG(type, size[1], "Rss", REP_BYTES, .prom = "rss", .help = "Resident memory of an object's mappings, shared pages whole, in bytes.", .flags = fl, .width = 8, .label = "RSS"), \
	FIG(type, size[2], "Pss", REP_BYTES, .prom = "pss", .help = "PSS of an object's mappings (resident pages divided among their sharers), in bytes.", .flags = fl, .width = 8, .label = "PSS"), \
	FIG(type, size[3], "Private_Clean", REP_BYTES, .prom = "private_clean", .help = "Clean pages of an object's mappings mapped by one process alone, in bytes.", .flags = fl, .width = 8, .label = "PRV_CLN"), \
	FIG(type, size[4], "Private_Dirty", REP_BYTES, .prom = "private_dirty", .help = "Dirty pages of an object's mappings mapped by one process alone, in bytes.", .flags = fl, .width = 8, .label = "PRV_DRT"), \
	FIG(type, size[5], "Shared_Clean", REP_BYTES, .prom = "shared_clean", .help = "Clean pages of an object's mappings mapped by several processes, in bytes.", .flags = fl, .width = 8, .label = "SHR_CLN"), \
	FIG(type, size[6], "Shared_Dirty", REP_BYTES, .prom = "shared_dirty", .help = "Dirty pages of an object's mappings mapped by several processes, in bytes.", .flags = fl, .width = 8, .label = "SHR_DRT"), \
	FIG(type, size[7], "Swap", REP_BYTES, .prom = "swap", .help = "Swapped pages of an object's mappings, in bytes.", .flags = fl, .width = 8, .label = "SWAP"), \
	FIG(type, size[8], "SwapPss", REP_BYTES, .prom = "swappss", .help = "Swap of an object's mappings, each page divided among its sharers, in bytes.", .flags = fl, .width = 8, .label = "SWAPPSS")
#define OBJECT_SIZES(fl) FIG_OBJ("rollup"), SIZE_FIGS(struct object_rec, fl), FIG_END
static const struct rep_fig maps_figs[] = {
	FIG(struct object_rec, pid, "pid", REP_COUNT, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct object_rec, kind, "kind", REP_STR, .flags = REP_LABEL),
	FIG(struct object_rec, name, "object", REP_TEXT, .flags = REP_LABEL),
	FIG(struct object_rec, shared, "shared", REP_BOOL, .flags = REP_NOPROM),
	FIG(struct object_rec, shared_label, "shared", REP_STR, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct object_rec, regions, "regions", REP_COUNT, .flags = REP_NOPROM),
	OBJECT_SIZES(0),
	FIG(struct object_rec, regions, "regions", REP_COUNT, .help = regions_help, .flags = REP_NOTREE),
};
enum { OBJECT_CONSUMERS = 1 };
static const struct rep_fig objects_figs[] = {
	FIG(struct object_rec, kind, "kind", REP_STR, .flags = REP_LABEL),
	FIG(struct object_rec, name, "object", REP_TEXT, .flags = REP_LABEL),
	FIG(struct object_rec, processes, "processes", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct object_rec, regions, "regions", REP_COUNT, .flags = REP_NOPROM),
	OBJECT_SIZES(0),
	FIG(struct object_rec, regions, "regions", REP_COUNT, .help = regions_help, .flags = REP_NOTREE),
	FIG(struct object_rec, processes, "processes", REP_COUNT,
	    .help = "Processes that map an object, a count.", .flags = REP_NOTREE),
	/* -v */
	FIG(struct object_rec, consumers, "consumers", REP_LIST, .flags = REP_NOPROM | REP_OMIT,
	    .bit = OBJECT_CONSUMERS),
};
/* json only: the process of -M, and the sums of every object */
static const struct rep_fig maps_head_figs[] = {
	FIG(struct object_rec, pid, "pid", REP_COUNT, .flags = REP_NOPROM),
	FIG(struct object_rec, process_name, "name", REP_STR, .flags = REP_NOPROM),
};
enum { TOTAL_PROCESSES = 1, TOTAL_UNREADABLE };
static const struct rep_fig total_figs[] = {
	FIG_OBJ("total"),
	FIG(struct object_rec, processes, "processes", REP_COUNT, .flags = REP_NOPROM | REP_OMIT,
	    .bit = TOTAL_PROCESSES),   /* -l */
	FIG(struct object_rec, maps_unreadable, "maps_unreadable", REP_COUNT, .flags = REP_OMIT,
	    .bit = TOTAL_UNREADABLE,
	    .help = "Processes whose smaps could not be read (not in the objects), a count."),   /* -l */
	FIG(struct object_rec, regions, "regions", REP_COUNT, .flags = REP_NOPROM),
	OBJECT_SIZES(REP_NOPROM),
	FIG_END,
};

/* -M: each mapping of the process, its header's fields as the kernel
 * wrote them (absent for a mapping whose header could not be read) and
 * its smaps keys, the object's and two more.  Not in prom (why: at
 * "each mapping" below). */
enum { MAPPING_NAMED = 1 };
#define HEADER_FIG(i, key) FIG(struct mapping_rec, field[i], key, REP_TEXT, \
                               .flags = REP_OPTIONAL | REP_NOPROM, .bit = MAPPING_NAMED)
static const struct rep_fig mapping_figs[] = {
	HEADER_FIG(0, "address"),
	HEADER_FIG(1, "perms"),
	HEADER_FIG(2, "offset"),
	HEADER_FIG(3, "device"),
	FIG(struct mapping_rec, inode, "inode", REP_COUNT, .flags = REP_OPTIONAL | REP_NOPROM,
	    .bit = MAPPING_NAMED),
	FIG(struct mapping_rec, kind, "kind", REP_STR, .flags = REP_NOPROM),
	FIG(struct mapping_rec, name, "name", REP_TEXT, .flags = REP_OPTIONAL | REP_NOPROM,
	    .bit = MAPPING_NAMED),
	FIG_OBJ("rollup"),
	SIZE_FIGS(struct mapping_rec, REP_NOPROM),
	FIG(struct mapping_rec, locked, "Locked", REP_BYTES, .flags = REP_NOPROM, .width = 8,
	    .label = "LOCKED"),
	FIG(struct mapping_rec, thp, "AnonHugePages", REP_BYTES, .flags = REP_NOPROM, .width = 8,
	    .label = "THP"),
	FIG_END,
};
static const void *mapping_row(void *ctx, size_t i, uint64_t *have);
static const struct rep_list mappings = { "mappings", "mapping", mapping_figs, REP_N(mapping_figs),
                                          0, mapping_row, 0, 0 };
/* -M -v's table: the header's fields, then these columns, the kind, the name */
static const char mapping_columns[] = "Size,Rss,Pss,Private_Clean,Private_Dirty,Shared_Clean,"
                                      "Shared_Dirty,Swap,SwapPss,Locked,AnonHugePages";
/* the widths of the header's fields there: ADDRESS PERM OFFSET DEVICE */
static const unsigned char field_width[4] = { 25, 4, 8, 6 };

/* -l -v: the processes that map an object, largest PSS first */
static const struct rep_fig consumer_figs[] = {
	FIG(struct consumer_rec, pid, "pid", REP_COUNT),
	FIG(struct consumer_rec, name, "name", REP_TEXT),
	FIG(struct consumer_rec, pss, "pss", REP_BYTES),
};

/* A SysV segment: json has every column (null when the header lacks
 * it), prom labels the sizes by the first two. */
/* Column i of sysv_columns, when the header names it, is bit SYSV_ID + i. */
enum { SYSV_ID = 1, SYSV_OWNER, SYSV_ATTACHES, SYSV_SIZE, SYSV_RSS, SYSV_SWAP };
static const struct rep_fig sysv_figs[] = {
	FIG(struct sysv_rec, id, "id", REP_COUNT, .flags = REP_OPTIONAL | REP_NOPROM,
	    .bit = SYSV_ID),
	FIG(struct sysv_rec, owner, "owner", REP_COUNT, .flags = REP_OPTIONAL | REP_NOPROM,
	    .bit = SYSV_OWNER),
	FIG(struct sysv_rec, attaches, "attaches", REP_COUNT,
	    .help = "Processes attached to a SysV shared memory segment (/proc/sysvipc/shm), a count.", .flags = REP_OPTIONAL | REP_KEEP,
	    .bit = SYSV_ATTACHES),
	FIG(struct sysv_rec, size, "size", REP_BYTES,
	    .help = "Size of a SysV shared memory segment (/proc/sysvipc/shm), in bytes.", .flags = REP_OPTIONAL | REP_KEEP,
	    .bit = SYSV_SIZE),
	FIG(struct sysv_rec, rss, "rss", REP_BYTES,
	    .help = "Resident memory of a SysV shared memory segment (/proc/sysvipc/shm), in bytes.", .flags = REP_OPTIONAL | REP_KEEP,
	    .bit = SYSV_RSS),
	FIG(struct sysv_rec, swap, "swap", REP_BYTES,
	    .help = "Swapped memory of a SysV shared memory segment (/proc/sysvipc/shm), in bytes.", .flags = REP_OPTIONAL | REP_KEEP,
	    .bit = SYSV_SWAP),
	FIG(struct sysv_rec, id, "id", REP_COUNT, .flags = REP_LABEL | REP_NOTREE),
	FIG(struct sysv_rec, owner, "owner", REP_COUNT, .flags = REP_LABEL | REP_NOTREE),
};

/* ---- the objects ---- */

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h;
}

/* The objects' set, empty, over their keys and slots; before a scan. */
static void objects_start(void)
{
	TT.objset = (struct keyset){ .key = TT.keys, .slot = TT.slots,
	                             .max = SR_MAX_OBJS, .max_slots = SR_OBJ_SLOTS };
}

/* The object of key: its index, added when new (*added), or SR_MAX_OBJS
 * when the table is full. */
static unsigned find(uint64_t key, int *added)
{
	uint32_t i = ks_add(&TT.objset, key, added);

	return i == KS_NONE ? SR_MAX_OBJS : i;
}

/* What tells objects apart: kind, -M's shared, and device and inode, or
 * for the anonymous kinds the name; 64 bits of FNV-1a of them.  Two
 * objects whose keys collide are one (at 65,536 objects, a chance of
 * about 1 in 10^10). */
static uint64_t object_key(int kind, int shared, const struct pr_map *h)
{
	unsigned char tag[2] = { kind, shared };
	uint64_t k = fnv1a(14695981039346656037ull, tag, sizeof tag);

	if (kind < PK_SHANON)
		return fnv1a(k, h->path, h->plen);
	k = fnv1a(k, &h->dev, sizeof h->dev);
	return fnv1a(k, &h->ino, sizeof h->ino);
}

/* A name into the pool: its offset.  What does not fit is cut (and
 * counted), down to the empty name. */
static uint32_t name_add(const char *s, size_t n)
{
	uint32_t at = TT.names_used;
	uint16_t len;

	if (n + 2 > SR_OBJ_POOL - at) {
		SR.scan.overflow[SR_NAMES_CUT]++;
		if (SR_OBJ_POOL - at <= 2)
			return NO_NAME;
		n = SR_OBJ_POOL - at - 2;
	}
	len = n;
	memcpy(TT.names + at, &len, 2);
	memcpy(TT.names + at + 2, s, n);
	TT.names_used += n + 2;
	return at;
}

static const char *name_of(uint32_t at, size_t *n)
{
	uint16_t len;

	memcpy(&len, TT.names + at, 2);
	*n = len;
	return TT.names + at + 2;
}

static uint32_t wide_index(const struct object *o)
{
	uint32_t w;
	memcpy(&w, o->narrow, sizeof w);
	return w;
}

static uint64_t figure(const struct object *o, unsigned f)
{
	return o->flags & OBJ_WIDE ? TT.wide[wide_index(o)].fig[f] : o->narrow[f];
}

/* Add v to figure f of o.  The figures of an object live in 16 bits
 * until one outgrows them; then all move to a wide record (SR_MAX_WIDE of
 * them, then the figure stays at 65,535 and the object is counted). */
static void add(struct object *o, unsigned f, uint64_t v)
{
	struct wide *w;
	uint32_t at;
	unsigned i;

	if (!(o->flags & OBJ_WIDE)) {
		if (v <= (uint64_t)UINT16_MAX - o->narrow[f]) {
			o->narrow[f] += v;
			return;
		}
		if (TT.nwide == SR_MAX_WIDE) {
			o->narrow[f] = UINT16_MAX;
			SR.scan.overflow[SR_FIGURES_SATURATED] += !(o->flags & OBJ_SATURATED);
			o->flags |= OBJ_SATURATED;
			return;
		}
		w = &TT.wide[at = TT.nwide++];
		for (i = 0; i < FIGS; i++)
			w->fig[i] = o->narrow[i];
		memcpy(o->narrow, &at, sizeof at);
		o->flags |= OBJ_WIDE;
	}
	w = &TT.wide[wide_index(o)];
	w->fig[f] = sat_add(w->fig[f], v);
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
		SR.scan.overflow[SR_TMPFS_MOUNTS]++;
}

/* The object of a mapping, added when new: its index, else SR_MAX_OBJS. */
static unsigned object_of(const struct pr_map *h)
{
	int kind = pr_mapkind(h, is_tmpfs(h->dev)), shared = SR.opt->view == SR_VIEW_MAPS && h->shared;
	int added;
	unsigned i = find(object_key(kind, shared, h), &added);
	struct object *o = &TT.objects[i];

	if (i == SR_MAX_OBJS) {
		SR.scan.overflow[SR_OTHER_REGIONS]++;
	} else if (added) {
		o->kind = kind;
		o->flags = shared ? OBJ_SHARED : 0;
		o->name = !h->plen && kind == PK_ANON ? name_add("[anon]", 6) : name_add(h->path, h->plen);
	}
	return i;
}

/* -M's listing of each mapping (below) */
static void mapping_kept(const struct pr_map *header);
static void mapping_listed(const struct pr_mem *figures);
static void maps_begin(void);

static int mapping_begin(void *ctx, const struct pr_map *header)
{
	(void)ctx;
	TT.mapping = header ? object_of(header) : SR_MAX_OBJS;
	if (SR.opt->view == SR_VIEW_MAPS)
		mapping_kept(header);
	return 1;
}

/* -v: a new pair of the process being read and object i. */
static void new_consumer(unsigned i)
{
	const struct sr_row *process = &SR.scan.cur;
	struct consumer *c = &TT.consumers[TT.nconsumers];

	if (TT.nconsumers == SR_MAX_CONSUMERS) {
		SR.scan.overflow[SR_CONSUMERS_DROPPED]++;
		TT.objects[i].consumer = 0;
		return;
	}
	if (TT.process_name == NOT_YET)
		TT.process_name = name_add(process->name, strlen(process->name));
	c->object = i;
	c->pid = process->pid;
	c->pss_kb = 0;
	c->name = TT.process_name;
	TT.objects[i].consumer = ++TT.nconsumers;
}

static void mapping_end(void *ctx, const struct pr_mem *figures)
{
	unsigned i = TT.mapping, f;
	struct object *o = &TT.objects[i];
	uint64_t pss_kb = figures->v[PR_Pss] >> 10;
	int consumers = SR.opt->verbose && SR.opt->view == SR_VIEW_OBJECTS;   /* -l -v */
	struct consumer *c;

	(void)ctx;
	for (f = 0; f < SR_OBJECT_SIZES; f++)
		add(o, f, figures->v[object_keys[f]] >> 10);
	add(o, FIG_REGIONS, 1);
	if (!(TT.mapped[i / 8] >> i % 8 & 1)) {
		TT.mapped[i / 8] |= 1 << i % 8;
		add(o, FIG_PROCESSES, 1);
		if (consumers)
			new_consumer(i);
	}
	if (consumers && o->consumer) {
		c = &TT.consumers[o->consumer - 1];
		c->pss_kb = sat_add(c->pss_kb, pss_kb) > UINT32_MAX ? UINT32_MAX : c->pss_kb + pss_kb;
	}
	if (SR.opt->view == SR_VIEW_MAPS)
		mapping_listed(figures);
}

static const struct pr_maps_sink object_sink = { mapping_begin, mapping_end, 0 };

/* A process whose smaps could not be read is in no object: counted, and
 * with -v named. */
static void unreadable(void)
{
	const struct sr_row *p = &SR.scan.cur;
	char path[48], name[SR_NAME_MAX + 1];
	size_t i;

	TT.unreadable++;
	if (!SR.opt->verbose || SR.opt->view == SR_VIEW_MAPS)   /* -M: its failure says it */
		return;
	for (i = 0; i < SR_NAME_MAX && p->name[i]; i++)   /* no control character reaches a terminal */
		name[i] = (unsigned char)p->name[i] < ' ' || p->name[i] == 127 ? '?' : p->name[i];
	name[i] = 0;
	mb_warn(sr_proc_path(path, p->pid, "/smaps ("), name, ")", MB_WHY,
	        mb_strerror(SR.scan.maps_error));
}

static int scan(void)
{
	struct pr_pids it;
	long pid = 0;

	pr_pids_start(&it, &SR.scan.proc, SR.opt->pids, SR.opt->npids);
	while (!SR.scan.no_fds && (pid = pr_pids_next(&it)) > 0) {
		/* a new process maps none yet (and "(other objects)" is bit SR_MAX_OBJS) */
		memset(TT.mapped, 0, TT.objset.n / 8 + 1);
		TT.mapped[SR_MAX_OBJS / 8] = 0;
		TT.process_name = NOT_YET;
		SR.scan.maps_error = 0;
		if (sr_read(&SR.scan, SR.opt, pid, &object_sink) && SR.scan.maps_error)
			unreadable();
	}
	return sr_scan_end(&SR.scan, &it, pid);
}

/* ---- the order ---- */

/* The figure objects are sorted by (uss: two summed). */
static uint64_t sort_value(const struct object *o)
{
	unsigned f = sort_figure[SR.opt->sort];
	uint64_t v = figure(o, f);
	return f == FIG_PRIVATE_CLEAN ? sat_add(v, figure(o, FIG_PRIVATE_DIRTY)) : v;
}

/* Objects by the -s figure, largest first, or by name; then by name and
 * kind, then in the order they were found; -r reverses it. */
static int object_order(const void *a, const void *b)
{
	const struct object *x = a, *y = b;
	size_t xn, yn;
	const char *xs = name_of(x->name, &xn), *ys = name_of(y->name, &yn);
	int d = 0;

	if (SR.opt->sort != SR_SORT_NAME)
		d = SR_SIGN(sort_value(y), sort_value(x));
	if (!d)
		d = sr_compare_names(xs, xn, ys, yn);
	if (!d)
		d = SR_SIGN(x->kind, y->kind);
	if (!d)
		d = SR_SIGN(x->consumer, y->consumer);
	return SR.opt->reverse ? -d : d;
}

/* An object's consumers: by PSS, largest first, then by PID. */
static int consumer_order(const void *a, const void *b)
{
	const struct consumer *x = a, *y = b;
	int d = SR_SIGN(x->object, y->object);

	if (!d)
		d = SR_SIGN(y->pss_kb, x->pss_kb);
	return d ? d : SR_SIGN(x->pid, y->pid);
}

/* The listing: the objects in order, "(other objects)" last when any
 * mapping went there, -n of them; the total of them all.  The objects
 * are sorted in place; while they are, each carries its index (the last
 * tie-break: the order they were found in), and the keys, no longer
 * needed, hold where each one's consumer pairs start. */
static void list_objects(void)
{
	struct object *o = TT.objects;
	unsigned i, f, n = TT.objset.n;

	qsort(TT.consumers, TT.nconsumers, sizeof *TT.consumers, consumer_order);
	for (i = 0; i < n; i++) {
		TT.keys[i] = 0;
		o[i].consumer = i;
	}
	o[SR_MAX_OBJS].consumer = 0;
	for (i = TT.nconsumers; i--; )
		if (TT.consumers[i].object == SR_MAX_OBJS)
			o[SR_MAX_OBJS].consumer = i + 1;
		else
			TT.keys[TT.consumers[i].object] = i + 1;
	qsort(o, n, sizeof *o, object_order);
	for (i = 0; i < n; i++)
		o[i].consumer = TT.keys[o[i].consumer];
	if (figure(&o[SR_MAX_OBJS], FIG_REGIONS))
		o[n++] = o[SR_MAX_OBJS];
	for (i = 0; i < n; i++)
		for (f = 0; f < FIGS; f++)
			TT.total[f] = sat_add(TT.total[f], figure(&o[i], f));
	TT.nlisted = SR.opt->top < n ? SR.opt->top : n;
}

/* The number of pairs of the object listed i-th. */
static size_t consumers_of(const struct object *o)
{
	size_t first, n;

	if (!o->consumer)
		return 0;
	first = o->consumer - 1;
	for (n = 1; first + n < TT.nconsumers && TT.consumers[first + n].object == TT.consumers[first].object; n++)
		;
	return n;
}

/* ---- the table ---- */

/* A count's cell: a blank, then right-aligned in w. */
static void number(uint64_t v, int w)
{
	fo_c(' ');
	tb_u64(v, w);
}

static uint64_t bytes(uint64_t kb)
{
	return sat_mul(kb, 1024);
}

static void table_sizes(const uint64_t *fig)
{
	int maps = SR.opt->view == SR_VIEW_MAPS;
	unsigned i;

	for (i = 0; i < SR_OBJECT_SIZES; i++)
		if (maps || objects_column[i])
			sr_cell(bytes(fig[i]), 1, 0);
	if (!maps)
		number(fig[FIG_PROCESSES], 6);
	number(fig[FIG_REGIONS], 7);
}

static void table_object(const struct object *o)
{
	uint64_t fig[FIGS];
	const struct consumer *c;
	const char *s;
	size_t n, i, k;

	for (i = 0; i < FIGS; i++)
		fig[i] = figure(o, i);
	table_sizes(fig);
	fo_s(SR.opt->view != SR_VIEW_MAPS ? " " : o->flags & OBJ_SHARED ? " s " : " p ");
	tb_str(kind_names[o->kind], 11);
	fo_c(' ');
	s = name_of(o->name, &n);
	out_safe(mb.fo, s, n);
	for (k = consumers_of(o), i = 0; i < k; i++) {
		c = &TT.consumers[o->consumer - 1 + i];
		fo_s("\n    ");
		tb_u64(c->pid, 7);
		fo_c(' ');
		s = name_of(c->name, &n);
		out_safe(mb.fo, s, n);
		fo_c(' ');
		tb_size(bytes(c->pss_kb), 0);
	}
	tb_nl();
}

static void sysv_open(void)
{
	struct sysv_reader *s = &TT.sysv;

	s->it = (struct shm_it){ .r = &s->lines, .col = sysv_columns, .n = SYSV_COLUMNS };
	s->fd = rd_lines_open(&s->lines, "/proc/sysvipc/shm", s->line, sizeof s->line);
}

static void sysv_close(void)
{
	if (TT.sysv.fd >= 0)
		close(TT.sysv.fd);
	TT.sysv.fd = -1;
}

/* What the reader of the segments met, said once per view: a file that
 * could not be opened (other than absent), or the damage shm_next saw. */
static void sysv_warn(void)
{
	struct diag d;

	if (TT.sysv.fd < 0)
		mb_warn_diag(rd_diag(&d, "/proc/sysvipc/shm", TT.sysv.fd, 0));
	else
		mb_warn_diag(&TT.sysv.it.diag);
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
	SR.scan.overflow[SR_SYSV_BAD] += TT.sysv.it.bad;
	sysv_warn();
	sysv_close();
}

static void table(void)
{
	int maps = SR.opt->view == SR_VIEW_MAPS;
	unsigned i;

	if (maps && SR.opt->verbose) {
		if (!TT.maps_open)
			maps_begin();
		tb_nl();
	}
	fo_s(maps ? "     SIZE      RSS      PSS  PRV_CLN  PRV_DRT  SHR_CLN  SHR_DRT     SWAP  SWAPPSS REGIONS M KIND        OBJECT\n"
	          : "      RSS      PSS     SWAP  SWAPPSS  PROCS REGIONS KIND        OBJECT\n");
	for (i = 0; i < TT.nlisted; i++)
		table_object(&TT.objects[i]);
	TT.total[FIG_PROCESSES] = SR.scan.coverage[SR_PROCESSES];
	table_sizes(TT.total);
	fo_s(maps ? "   " : " ");
	sr_coverage_line(&SR.scan);
	if (!maps && TT.unreadable) {
		fo_s("not in the objects: ");
		out_u64(mb.fo, TT.unreadable);
		fo_s(" processes whose smaps could not be read\n");
	}
	if (!maps)
		sysv_table();
}

/* ---- the report (json, kv, prom) ---- */

static const void *consumer_row(void *ctx, size_t i, uint64_t *have)
{
	const struct object *o = ctx;
	const struct consumer *c = &TT.consumers[o->consumer - 1 + i];

	TT.consumer_rec.pid = c->pid;
	TT.consumer_rec.name.s = name_of(c->name, &TT.consumer_rec.name.n);
	TT.consumer_rec.pss = bytes(c->pss_kb);
	*have = REP_ALL;
	return &TT.consumer_rec;
}

/* The record of an object, or with o 0 of the total. */
static const struct object_rec *object_rec(const struct object *o)
{
	struct object_rec *r = &TT.rec;
	unsigned i;

	r->pid = SR.scan.cur.pid;
	r->process_name = SR.scan.cur.name;
	r->kind = o ? kind_names[o->kind] : "";
	r->name.s = o ? name_of(o->name, &r->name.n) : "";
	r->shared = o && o->flags & OBJ_SHARED;
	r->shared_label = r->shared ? "true" : "false";
	r->processes = o ? figure(o, FIG_PROCESSES) : SR.scan.coverage[SR_PROCESSES];
	r->regions = o ? figure(o, FIG_REGIONS) : TT.total[FIG_REGIONS];
	r->maps_unreadable = TT.unreadable;
	for (i = 0; i < SR_OBJECT_SIZES; i++)
		r->size[i] = bytes(o ? figure(o, i) : TT.total[i]);
	r->consumers = (struct rep_list){ "consumers", 0, consumer_figs, REP_N(consumer_figs),
	                                  o ? consumers_of(o) : 0, consumer_row, 0, (void *)o };
	return r;
}

static const void *object_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	*have = SR.opt->verbose ? (uint64_t)1 << OBJECT_CONSUMERS : 0;
	return object_rec(&TT.objects[i]);
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
	*have = TT.sysv.fd >= 0 ? (uint64_t)TT.sysv.it.have << SYSV_ID : 0;
	return &TT.sysv.rec;
}

static void sysv_report(void)
{
	struct rep_list segments = { "sysv", "sysv_shm", sysv_figs, REP_N(sysv_figs), 0, sysv_row, 0, 0 };

	/* first their number, and what does not parse */
	sysv_open();
	while (sysv_next())
		segments.rows++;
	SR.scan.overflow[SR_SYSV_BAD] += TT.sysv.it.bad;
	sysv_warn();
	sysv_close();
	rep_list(&segments);
	sysv_close();
}

static void report(void)
{
	int maps = SR.opt->view == SR_VIEW_MAPS;
	const struct rep_list objects = { "objects", "object", maps ? maps_figs : objects_figs,
		maps ? REP_N(maps_figs) : REP_N(objects_figs), TT.nlisted, object_row, 0, 0 };

	if (maps) {
		if (!TT.maps_open)
			maps_begin();
		if (mb.fmt != FMT_PROM)
			rep_list_close(&mappings);
	} else {
		rep_begin();
	}
	rep_list(&objects);
	rep_figs("", total_figs, REP_N(total_figs), object_rec(0),
	         maps ? 0 : (uint64_t)1 << TOTAL_PROCESSES | (uint64_t)1 << TOTAL_UNREADABLE);
	if (!maps)
		sysv_report();
	sr_report_scan(&SR.scan, SR.opt->view);
	rep_end();
}

/* ---- -M: each mapping, written as its smaps block ends ----
 * No table of the mappings is kept: a row is written as soon as its
 * figures are read (json, kv; the table with -v), before the objects,
 * which need every mapping.  prom has none: its families are written one
 * at a time, each over every row, and a series per mapping would be a
 * new one at every start of the program (its addresses move). */

/* The text of a header's field kept from p on: where the next starts. */
static char *keep(char *p, struct rep_text *t, const char *s, size_t n)
{
	char *end = TT.mapping_text + sizeof TT.mapping_text;

	if (n > (size_t)(end - p))
		n = end - p;
	memcpy(p, s, n);
	t->s = p;
	t->n = n;
	return p + n;
}

/* The header of the mapping that starts (0: one that cannot be named:
 * its fields "-" in the table, null in json and kv), kept for its row:
 * its line is gone when the mapping ends. */
static void mapping_kept(const struct pr_map *h)
{
	struct mapping_rec *r = &TT.mapping_rec;
	char *p = TT.mapping_text;
	unsigned i;

	TT.mapping_have = h ? (uint64_t)1 << MAPPING_NAMED : 0;
	r->kind = kind_names[h ? pr_mapkind(h, is_tmpfs(h->dev)) : PK_OTHER];
	r->inode = h ? h->ino : 0;
	for (i = 0; i < 4; i++)
		p = keep(p, &r->field[i], h ? h->field[i] : "-", h ? h->flen[i] : 1);
	keep(p, &r->name, h ? h->path : "", h ? h->plen : 0);
}

static const void *mapping_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx, (void)i;
	*have = TT.mapping_have;
	return &TT.mapping_rec;
}

/* Text left-aligned in w, a blank after it. */
static void text_cell(const struct rep_text *t, int w)
{
	out_pad(mb.fo, out_safe(mb.fo, t->s, t->n), w);
	fo_c(' ');
}

/* Where the report starts, before the first mapping's row: json and kv
 * the process and the open list; -v's table its heading. */
static void maps_begin(void)
{
	static const char *const field_label[4] = { "ADDRESS", "PERM", "OFFSET", "DEVICE" };
	unsigned i;

	TT.maps_open = 1;
	if (SR.opt->table && SR.opt->verbose) {
		for (i = 0; i < 4; i++) {
			tb_str(field_label[i], field_width[i]);
			fo_c(' ');
		}
		fo_s("     INODE ");
		rep_table_head_cols(mapping_figs, REP_N(mapping_figs), mapping_columns);
		fo_s(" KIND        NAME\n");
	}
	if (SR.opt->table)
		return;
	rep_begin();
	TT.rec.pid = SR.scan.cur.pid;
	TT.rec.process_name = SR.scan.cur.name;
	rep_figs("", maps_head_figs, REP_N(maps_head_figs), &TT.rec, REP_ALL);
	rep_list_open(&mappings);
}

/* The mapping ends: its row. */
static void mapping_listed(const struct pr_mem *figures)
{
	struct mapping_rec *r = &TT.mapping_rec;
	unsigned f;

	if (!TT.maps_open)
		maps_begin();
	for (f = 0; f < SR_OBJECT_SIZES; f++)
		r->size[f] = bytes(figures->v[object_keys[f]] >> 10);
	r->locked = bytes(figures->v[PR_Locked] >> 10);
	r->thp = bytes(figures->v[PR_AnonHugePages] >> 10);
	TT.nmappings++;
	if (!SR.opt->table) {
		rep_list_row(&mappings, TT.nmappings - 1);
	} else if (SR.opt->verbose) {
		for (f = 0; f < 4; f++)
			text_cell(&r->field[f], field_width[f]);
		if (TT.mapping_have)
			tb_u64(r->inode, 10);
		else
			fo_s("         -");
		fo_c(' ');
		rep_table_row_cols(mapping_figs, REP_N(mapping_figs), mapping_columns, r, REP_ALL);
		fo_c(' ');
		tb_str(r->kind, 11);
		fo_c(' ');
		out_safe(mb.fo, r->name.s, r->name.n);
		tb_nl();
	}
}

/* -M: no such process, or its smaps could not be read (whole)? */
static int maps_failed(void)
{
	return SR.opt->view == SR_VIEW_MAPS && (!SR.scan.coverage[SR_PROCESSES] || SR.scan.maps_error);
}

/* ... said: the exit status */
static int maps_failure(void)
{
	char path[48];

	if (!SR.scan.coverage[SR_PROCESSES])
		return mb_fail("no matching process", 0);
	return mb_fail_errno(sr_proc_path(path, SR.opt->maps_pid, "/smaps"), SR.scan.maps_error);
}

int sr_objects_view(const struct sr_options *o)
{
	struct object *other = &TT.objects[SR_MAX_OBJS];
	int maps = o->view == SR_VIEW_MAPS, rc;

	TT.sysv.fd = -1;
	TT.maps_open = 0;
	TT.nmappings = 0;
	objects_start();
	/* the pool starts with the empty name, then "(other objects)" */
	TT.names_used = OTHER_NAME;
	name_add(other_objects, sizeof other_objects - 1);
	other->kind = PK_OTHER;
	other->name = OTHER_NAME;
	rc = sr_scan_start(&SR.scan, maps ? o->maps_pid : 0, note_tmpfs) || scan();
	/* -M: once a mapping is written the report is ended whole, and a
	 * failure said after it */
	if (!TT.maps_open && (rc || maps_failed()))
		return rc ? rc : maps_failure();
	list_objects();
	if (o->table)
		table();
	else
		report();
	sr_warn_overflow(&SR.scan);
	if (o->view == SR_VIEW_OBJECTS && TT.unreadable && !o->verbose)
		sr_warn_count(TT.unreadable, "processes", "smaps unreadable: not in the objects (-v names them)");
	return rc ? rc : maps_failed() ? maps_failure() : 0;
}

/* ---- -S: the smaps pass ---- */

/* Only shared mappings' figures are wanted. */
static int swap_begin(void *ctx, const struct pr_map *header)
{
	(void)ctx;
	if (header && header->shared)   /* of any kind: device and inode tell shared memory apart */
		TT.swap_key = object_key(PK_OTHER, 1, header);
	return header && header->shared;
}

/* A shared mapping with swap: one more sharer of its object, and its swap
 * remembered for its process, to divide when every sharer is counted. */
static void swap_end(void *ctx, const struct pr_mem *figures)
{
	struct sr_scan *s = ctx;
	uint64_t kb = figures->v[PR_Swap] >> 10;
	struct swap_seen *e = &TT.swap_seen[TT.nswap_seen];
	unsigned i;
	int added;

	if (!kb)
		return;
	i = find(TT.swap_key, &added);
	if (i < SR_MAX_OBJS)
		TT.sharers[i]++;
	/* room for it, and for its process's first entry when it is the first */
	if (i == SR_MAX_OBJS || TT.nswap_seen + !!TT.swap_pid >= SR_SWAP_POOL) {
		s->overflow[SR_UNTRACKED_SWAP]++;
		return;
	}
	if (TT.swap_pid) {
		*e++ = (struct swap_seen){ SWAP_PROCESS, TT.swap_pid };
		TT.nswap_seen++;
		TT.swap_pid = 0;
	}
	*e = (struct swap_seen){ i, kb > UINT32_MAX ? UINT32_MAX : kb };
	TT.nswap_seen++;
}

/* Each process's swap_seen entries divided by their objects' sharers:
 * its shared swap, kept when there is any.  Terms in bytes rounded down,
 * the sum to a KiB. */
static void divide(struct sr_scan *s)
{
	struct swap_seen *e = TT.swap_seen, *end = e + TT.nswap_seen;
	uint64_t sum;
	uint32_t pid;
	unsigned n;

	while (e < end) {
		pid = e++->kb;
		for (sum = 0, n = 0; e < end && e->object != SWAP_PROCESS; e++, n++)
			sum += ((uint64_t)e->kb << 10) / TT.sharers[e->object];
		if (sum >> 10 && s->nshared_swap == SR_MAX_SWAPPROCS)
			s->overflow[SR_UNTRACKED_SWAP] += n;
		else if (sum >> 10)
			s->shared_swap[s->nshared_swap++] = (struct sr_shared_swap){
				pid, sum >> 10 > UINT32_MAX ? UINT32_MAX : sum >> 10 };
	}
	qsort(s->shared_swap, s->nshared_swap, sizeof *s->shared_swap, sr_by_pid);
}

int sr_shared_swap_pass(struct sr_scan *s)
{
	const struct pr_maps_sink sink = { swap_begin, swap_end, s };
	struct pr_pids it;
	long pid = 0;
	int rc = rd_dir_open(&s->proc, "/proc");

	if (rc < 0)
		return mb_fail_errno("/proc", -rc);
	objects_start();
	pr_kernel(&s->process, s->proc.fd);
	/* every process shares, whatever -p and -U select */
	pr_pids_start(&it, &s->proc, 0, 0);
	while (!s->no_fds && (pid = pr_pids_next(&it)) > 0) {
		TT.swap_pid = pid;
		sr_read_maps(s, pid, &sink);
	}
	rd_dir_close(&s->proc);
	/* the names that are no PIDs are said by the process view's scan */
	it.odd = 0;
	if (sr_scan_end(s, &it, pid))
		return 1;
	divide(s);
	return 0;
}
