/* smaps-rollup -g cgroup: the processes' memory cgroups, their sums and
 * each cgroup's own figures, read from its directory through the cgroup
 * module (charge, limits, memory.stat, memory.events, pressure); -a's
 * walk of the hierarchy for the cgroups without processes.  The process
 * view (smaps_rollup_procs.c) calls it; it takes the processes from the
 * kept rows (smaps_rollup_rows.c) and writes only its own state. */
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "applet.h"
#include "cgroup.h"
#include "keyset.h"
#include "mountinfo.h"
#include "psi.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"
#include "tree.h"

/* the applet's state; the cgroup view's own is TT */
#define SR this.smaps_rollup
#define TT SR.v.cgroups

_Static_assert(SR_CGROUP_ENTRIES < SR_NO_ROW - 1, "a cgroup's index fits 16 bits beside SR_NO_ROW");
_Static_assert(SR_CGROUP_ENTRIES <= SR_CGROUP_SLOTS / 4 * 3, "the cgroups' set holds them all");

/* A cgroup's own figures (json and kv; prom: sr_cgroup_prom) */
/* Presence bits: part k of not_in_pss is CF_PART + k */
enum { CF_VERSION = 1, CF_CURRENT, CF_SWAP_CURRENT, CF_MAX, CF_HIGH, CF_STAT, CF_EVENTS,
       CF_PRESSURE, CF_CHARGED_MINUS_PSS, CF_NOT_IN_PSS, CF_PART };
static const struct rep_fig cgroup_figs[] = {
	FIG(struct cgroup_rec, version, "version", REP_COUNT, .flags = REP_OPTIONAL, .bit = CF_VERSION),
	FIG(struct cgroup_rec, current, "current", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_CURRENT,
	    .width = 8, .label = "CHARGED"),
	FIG(struct cgroup_rec, swap_current, "swap_current", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_SWAP_CURRENT),
	FIG(struct cgroup_rec, max, "max", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_MAX),
	FIG(struct cgroup_rec, high, "high", REP_BYTES, .flags = REP_OPTIONAL, .bit = CF_HIGH),
	FIG(struct cgroup_rec, stat, "stat", REP_CALL, .flags = REP_OPTIONAL, .bit = CF_STAT),
	FIG(struct cgroup_rec, events, "events", REP_CALL, .flags = REP_OPTIONAL, .bit = CF_EVENTS),
	FIG(struct cgroup_rec, pressure, "pressure", REP_RECORD, .flags = REP_OPTIONAL, .bit = CF_PRESSURE),
	FIG(struct cgroup_rec, charged_minus_pss, "charged_minus_pss", REP_SBYTES, .flags = REP_OPTIONAL,
	    .bit = CF_CHARGED_MINUS_PSS, .width = 8, .label = "NOT-PSS"),
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

/* ---- -g cgroup: the cgroups, their processes and sums ---- */

/* -a: a cgroup found by the walk that is not listed (cgroup_run) */
#define CGROUP_HIDDEN (SR_NO_ROW - 1)
_Static_assert(SR_MAX_ROWS < CGROUP_HIDDEN, "a cgroup's first process is told from CGROUP_HIDDEN");

/* Not paths (those begin with '/'): no kernel figures */
static const char unknown_cgroup[] = "(unknown)", other_cgroup[] = "(other)";

static uint64_t path_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;   /* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static const char *cgroup_name(unsigned g);

/* The cgroups are a set of paths (core/keyset.c without keys): a lookup
 * compares the path with each cgroup its probe meets, so that two paths
 * of one hash stay two cgroups. */
struct path_ref {
	const char *s;
	size_t n;
};

static int same_path(uint32_t g, const void *what)
{
	const struct path_ref *p = what;
	const char *q = cgroup_name(g);

	return !memcmp(q, p->s, p->n) && !q[p->n];
}

static uint64_t cgroup_hash(uint32_t g)
{
	return path_hash(cgroup_name(g), strlen(cgroup_name(g)));
}

/* The index of the cgroup path (n bytes), added when new (with add, else
 * SR_NO_ROW); beyond SR_MAX_CGROUPS or SR_CGROUP_POOL, counted in
 * cgroups_dropped, "(other)"'s (room for it is always kept), or SR_NO_ROW
 * with add CGROUP_NEW_ONLY (-a's walk: no process to put anywhere). */
enum { CGROUP_FIND, CGROUP_ADD, CGROUP_NEW_ONLY };
static unsigned cgroup_index(const char *path, size_t n, int add)
{
	struct path_ref ref = { path, n };
	uint64_t h = path_hash(path, n);
	/* a path leaves room in the pool for both names that are not paths */
	size_t reserve = *path == '/' ? sizeof other_cgroup + sizeof unknown_cgroup : 0;
	uint32_t g = ks_find_as(&TT.cgroup_set, h, &ref);
	int added;
	char *q;

	if (g != KS_NONE)
		return g;
	if (!add)
		return SR_NO_ROW;
	if ((*path == '/' && TT.ncgroup_paths >= SR_MAX_CGROUPS) ||
	    SR_CGROUP_POOL - TT.cgroup_pool_used < n + 1 + reserve) {
		SR.scan.coverage[SR_CGROUPS_DROPPED]++;
		return add == CGROUP_NEW_ONLY ? SR_NO_ROW : cgroup_index(other_cgroup, sizeof other_cgroup - 1, 1);
	}
	/* new, and within SR_CGROUP_ENTRIES (the set's max): numbered next */
	g = ks_add_as(&TT.cgroup_set, h, &ref, &added);
	TT.cgroup_at[g] = TT.cgroup_pool_used;
	TT.cgroup_run[g] = SR_NO_ROW;
	q = TT.cgroup_pool + TT.cgroup_pool_used;
	memcpy(q, path, n);
	q[n] = 0;
	TT.cgroup_pool_used += n + 1;
	TT.ncgroup_paths += *path == '/';
	return g;
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
static void cgroup_sums(unsigned g, struct sr_sums *s)
{
	struct sr_row r;
	unsigned i;

	memset(s, 0, sizeof *s);
	for (i = TT.cgroup_run[g]; i < TT.rows->nkept && TT.cgroup_of[TT.by_cgroup[i]] == g; i++) {
		sr_unpack(TT.rows, TT.by_cgroup[i], &r);
		sr_add(s, &r);
	}
}

/* As the groups of -g user: the size sorted on (PSS for the others), then the path */
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
	struct sr_sums s;
	unsigned i, g;

	sr_sort(TT.by_cgroup, TT.rows->nkept, by_cgroup_order);
	for (i = TT.rows->nkept; i-- > 0;)
		TT.cgroup_run[TT.cgroup_of[TT.by_cgroup[i]]] = i;
	for (g = 0; g < TT.cgroup_set.n; g++) {
		cgroup_sums(g, &s);
		TT.cgroup_key[g] = s.size[m];
	}
	sr_sort(TT.cgroup_order, TT.cgroup_set.n, cgroup_order);
	/* -a: the cgroups whose memory its subdirectories hold, left out */
	for (TT.nlisted = g = 0; g < TT.cgroup_set.n; g++)
		if (TT.cgroup_run[TT.cgroup_order[g]] != CGROUP_HIDDEN)
			TT.cgroup_order[TT.nlisted++] = TT.cgroup_order[g];
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

/* -a: the subdirectories of cgroup name (index g, or SR_NO_ROW: not kept)
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
		if (child_g == SR_NO_ROW && cgroup_charged(child, en)) {
			child_g = cgroup_index(child, en, CGROUP_NEW_ONLY);
			charged = 1;
		}
		charged |= child_g != SR_NO_ROW;
		if (child_g != SR_NO_ROW && *tail < SR_CGROUP_ENTRIES)
			TT.cgroup_order[(*tail)++] = child_g;
	}
	rd_dir_close(&TT.cgroup_dir);
	if (charged && g != SR_NO_ROW && g >= TT.cgroups_scanned)
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

	TT.cgroups_scanned = TT.cgroup_set.n;
	/* the mount's root (a container's /docker/ID) is a cgroup of its own
	 * only within --cgroup-depth: above, its processes count in a
	 * shorter group already */
	g = cgroup_index(root, n, CGROUP_FIND);
	if (g == SR_NO_ROW && path_depth(root) <= SR.opt->cgroup_depth && cgroup_charged(root, n))
		g = cgroup_index(root, n, CGROUP_NEW_ONLY);
	if (path_depth(root) < limit)
		cgroup_visit(g, root, &tail);
	while (head < tail) {
		g = TT.cgroup_order[head++];
		if (path_depth(cgroup_name(g)) < limit)
			cgroup_visit(g, cgroup_name(g), &tail);
	}
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


/* ---- what the process view calls ---- */

/* The table's columns of a cgroup's own figures: its charge and what of
 * it is not PSS */
#define TABLE_COLUMNS "current,charged_minus_pss"

void sr_cgroup_table_head(void)
{
	rep_table_head_cols(cgroup_figs, REP_N(cgroup_figs), TABLE_COLUMNS);
}

void sr_cgroup_table_charge(unsigned i, uint64_t pss)
{
	uint64_t have = cgroup_read(TT.cgroup_order[i], pss);

	rep_table_row_cols(cgroup_figs, REP_N(cgroup_figs), TABLE_COLUMNS, &TT.cgroup_rec, have);
}

/* prom: the families of the cgroups, a pass over them each (their files
 * read again: no figures are kept per cgroup); a cgroup lacking a
 * figure has no sample of it. */
enum cgroup_family { CGF_PSS, CGF_CURRENT, CGF_SWAP_CURRENT, CGF_MAX, CGF_CHARGED_MINUS_PSS,
                     CGF_NOT_IN_PSS, CGF_STAT, CGF_EVENTS, CGF_N };
static const struct rep_family cgroup_families[CGF_N] = {
	[CGF_PSS] = { .name = "cgroup_pss_bytes", .help = "PSS of the cgroup's processes summed, in bytes." },
	[CGF_CURRENT] = { .name = "cgroup_current_bytes", .help = "Memory charged to the cgroup (memory.current, v1 memory.usage_in_bytes), in bytes." },
	[CGF_SWAP_CURRENT] = { .name = "cgroup_swap_current_bytes",
	                       .help = "Swap charged to the cgroup (memory.swap.current, v1 memsw less usage), in bytes." },
	[CGF_MAX] = { .name = "cgroup_max_bytes", .help = "The cgroup's memory limit (memory.max, v1 limit_in_bytes) in bytes; no sample: none." },
	[CGF_CHARGED_MINUS_PSS] = { .name = "cgroup_charged_minus_pss_bytes",
	                            .help = "The cgroup's charge less its processes' PSS, in bytes (negative: PSS beyond the charge)." },
	[CGF_NOT_IN_PSS] = { .name = "cgroup_not_in_pss_bytes",
	                     .help = "Of the charge less the PSS, what memory.stat explains, by kind, in bytes (rest: the remainder)." },
	[CGF_STAT] = { .name = "cgroup_stat", .help = "The cgroup's memory.stat, each key as the kernel prints it (sizes in bytes, else counts)." },
	[CGF_EVENTS] = { .name = "cgroup_events_total", .help = "Events of the cgroup's memory.events (v1 memory.oom_control), counts since its creation.",
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

void sr_cgroup_prom(void)
{
	const struct cgroup_rec *c = &TT.cgroup_rec;
	const char *name;
	uint64_t have, pss;
	unsigned f, i, k;

	for (f = 0; f < CGF_N; f++) {
		rep_family(&cgroup_families[f]);
		for (i = 0; i < TT.nlisted; i++) {
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

void sr_cgroup_mount(const struct mnt *m)
{
	cg_mount(&TT.hier, m);
}


void sr_cgroup_start(const struct sr_kept *rows)
{
	TT.rows = rows;
	TT.cgroup_set = (struct keyset){ .slot = TT.cgroup_slots, .max = SR_CGROUP_ENTRIES,
	                                 .max_slots = SR_CGROUP_SLOTS, .same = same_path, .hash_of = cgroup_hash };
	if (TT.hier.version == 2 && !v2_memory())
		TT.hier.version = 0;
	SR.scan.cgroup_version = TT.hier.version;
	if (!TT.hier.version)
		mb_warn("/proc/self/mountinfo", "no memory cgroup hierarchy mounted: the cgroups' figures are null");
	else if (cg_above_ns(&TT.hier))
		mb_warn("/proc/self/mountinfo", "the memory cgroup mount's root is ", TT.hier.root,
		        ", above this cgroup namespace: its own cgroups (/ and below) are not reached, their figures null");
}

void sr_cgroup_keep(unsigned i, const struct sr_row *r)
{
	TT.cgroup_of[i] = r->cgroup ? cgroup_index(r->cgroup, r->cgroup_len, CGROUP_ADD) :
	                  cgroup_index(unknown_cgroup, sizeof unknown_cgroup - 1, CGROUP_ADD);
}

unsigned sr_cgroup_list(void)
{
	uint64_t dropped = SR.scan.coverage[SR_CGROUPS_DROPPED];

	if (SR.opt->all_cgroups && TT.hier.version)
		cgroup_walk();
	/* those the walk found once the table was full: not listed */
	if ((dropped = SR.scan.coverage[SR_CGROUPS_DROPPED] - dropped))
		sr_warn_count(dropped, "cgroups",
		              "not listed (-a, no process in them): more than SR_MAX_CGROUPS or SR_CGROUP_POOL hold");
	cgroup_groups();
	return TT.nlisted;
}

const struct sr_sums *sr_cgroup_at(unsigned i, const char **name)
{
	cgroup_sums(TT.cgroup_order[i], &TT.cgroup_sum);
	*name = cgroup_name(TT.cgroup_order[i]);
	return &TT.cgroup_sum;
}

struct rep_record sr_cgroup_record(unsigned i, uint64_t pss)
{
	return (struct rep_record){ cgroup_figs, REP_N(cgroup_figs), &TT.cgroup_rec,
	                            cgroup_read(TT.cgroup_order[i], pss) };
}
