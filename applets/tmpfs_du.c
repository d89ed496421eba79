/* tmpfs-du: how much RAM sits in each tmpfs mount and subtree, and where
 * the rest of Shmem goes.  Reads /proc/self/mountinfo, /proc/meminfo,
 * /proc/sysvipc/shm, statfs(2), and walks the mounted trees (walk.h). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include "cli.h"
#include "diag.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "out.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"
#include "walk.h"

static const char *const usage = "Usage: tmpfs-du [OPTIONS] [PATH...]\n\n"
	"Per tmpfs mount: size limit, statfs USED, and from a walk counted like\n"
	"du -x: ALLOC (blocks x 512), LOGICAL (st_size), RESIDENT and SWAPPED\n"
	"(cachestat, 6.5+), FILES, DIRS, OTHER and HIDDEN = USED - ALLOC (deleted\n"
	"but open, unreadable).  Then Shmem of meminfo against tmpfs, SysV shm and\n"
	"the rest.  A PATH limits the walk to that directory of a tmpfs.\n\n"
	"  -t, --types=LIST  filesystem types (default tmpfs; ramfs, devtmpfs)\n"
	"  -d, --depth=N     list directories down to depth N, largest first\n"
	"  -a, --all         list files too\n"
	"  -n, --top=N       the N largest entries per directory (default 10)\n"
	"  -s, --shmem       only the Shmem reconciliation\n";


static const struct opt opts[] = {
	{ "types", 't', 1, 't' }, { "depth", 'd', 1, 'd' }, { "all", 'a', 0, 'a' },
	{ "top", 'n', 1, 'n' }, { "shmem", 's', 0, 's' },
	{ 0, 0, 0, 0 }
};

/* The figures of a mount or PATH, ALLOC..SWAP in struct wk_sum's order;
 * their json/kv keys (prom: membox_tmpfs_KEY[_bytes]), one after another. */
enum { F_SIZE, F_INODES, F_USED, F_IUSED, F_ALLOC, F_LOGICAL, F_FILES, F_DIRS, F_OTHER,
       F_RES, F_SWAP, F_HIDDEN, F_UNREAD, F_LINKS, F_MORE, F_MOREA, F_N };
static const char *const fname = "size_limit\0inode_limit\0used\0inodes_used\0allocated\0"
	"logical\0files\0dirs\0other\0resident\0swapped\0hidden\0unreadable\0"
	"links_proportional\0more\0more_allocated";
#define BIT(f) (1u << F_##f)
#define FBYTES (BIT(SIZE) | BIT(USED) | BIT(ALLOC) | BIT(LOGICAL) | BIT(RES) | BIT(SWAP) | \
                BIT(HIDDEN) | BIT(MOREA))
#define WALKED (BIT(ALLOC) | BIT(LOGICAL) | BIT(FILES) | BIT(DIRS) | BIT(OTHER) | BIT(UNREAD) | BIT(LINKS))
#define MORE (BIT(MORE) | BIT(MOREA))

/* Mounts of the chosen types; alias >= 0: that mount of the same
 * superblock (major:minor) is shown instead. */
enum { M_POINT, M_ROOT, M_SOURCE, M_FSTYPE };
_Static_assert(MI_STR_MAX <= 1 << 12 && TD_MAX_MOUNTS <= 1 << 6, "struct mt's key");
static struct mt {
	unsigned maj, min;     /* the superblock's device */
	unsigned key;          /* the shown mount of a superblock has the least */
	const char *s[4];      /* M_POINT .. M_FSTYPE, in pool */
	uint64_t lim[2];
	int alias;
	unsigned have;
} mt[TD_MAX_MOUNTS];
static unsigned nmt, mt_dropped;
static char pool[TD_STR_POOL];
static size_t npool;

/* What is shown: a mount, or a PATH on one. */
static struct res {
	int m, fd;
	const char *path;      /* PATH, or the mount point */
	const char *err;       /* why the tree was not walked */
	unsigned have;
	uint64_t v[F_N];
} rs[TD_MAX_MOUNTS];
static unsigned nrs;

/* a text used five times: one packed copy */
static const char *const mi_file = "/proc/self/mountinfo";
static const char *types = "tmpfs";
static uint64_t depth, top = 10;
static int all, paths, cache;
static struct meminfo mi;   /* read once before the walks; all 0 when missing */

/* The listing: level d keeps its entries at ent[(d-1) * top ...]. */
static struct ent {
	struct wk_sum s;
	int dir;
	char name[256];
} ent[TD_LIST_SLOTS];
static unsigned lbase, ln;
static uint64_t lmore[2];
static char lpath[MB_PATH_MAX];

#define mul sat_mul

static const char *keep(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = pool + npool;
	if (n > sizeof pool - npool)
		return 0;
	npool += n;
	return memcpy(p, s, n);
}

/* "size=1632464k", "nr_inodes=409600": 0 (unlimited) is absent */
static unsigned limit(const char *opts, const char *key, uint64_t *v)
{
	const char *s, *p, *u;
	size_t n;

	if (!opt_value(opts, key, &s, &n) || (p = s, sc_u64(&p, s + n, v)) == SC_NONE)
		return 0;
	if (p < s + n) {
		if (p + 1 != s + n || !(u = strchr("kmgt", *p | 32)))
			return 0;
		*v = mul(*v, 1ull << 10 * (u - "kmgt" + 1));
	}
	return *v != 0;
}

/* Is a device from stat (the kernel's encoding) the mount's major:minor? */
static int on(const struct mt *m, dev_t dev)
{
	return major(dev) == m->maj && minor(dev) == m->min;
}

static int read_mounts(void)
{
	static char lb[MB_LINE_MAX], sb[MI_STR_MAX];
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	unsigned i, j;
	int fd = rd_open(mi_file, O_RDONLY), k;

	if (fd < 0)
		return mb_fail_errno(mi_file, -fd);
	rd_lines_fd(&r, fd, lb, sizeof lb);
	while ((k = mountinfo_next(&r, &m, sb, sizeof sb, &bad)) > 0) {
		struct mt *t = &mt[nmt];
		const char *s[4] = { m.point, m.root, m.source, m.fstype }, *v;
		size_t save = npool, n;
		if (!opt_value(types, m.fstype, &v, &n))
			continue;
		for (i = 0; nmt < TD_MAX_MOUNTS && i < 4 && (t->s[i] = keep(s[i])); i++)
			;
		if (i < 4) {
			npool = save;
			mt_dropped++;
			continue;
		}
		t->maj = m.major;
		t->min = m.minor;
		t->have = limit(m.super, "size", &t->lim[0]) | limit(m.super, "nr_inodes", &t->lim[1]) << 1;
		/* one superblock: show the mount of the shortest root, then path
		 * (both shorter than sb: 12 bits each), then the first */
		t->key = strlen(m.root) << 18 | strlen(m.point) << 6 | nmt++;
	}
	close(fd);
	if (k < 0)
		return mb_fail_errno(mi_file, -k);
	if (bad)
		mb_warn(mi_file, "lines that did not parse were skipped");
	if (mt_dropped)
		mb_warn(mi_file, "more mounts than TD_MAX_MOUNTS (64): not all shown");
	for (i = 0; i < nmt; i++) {
		unsigned b = i;
		for (j = 0; j < nmt; j++)
			if (mt[j].maj == mt[i].maj && mt[j].min == mt[i].min && mt[j].key < mt[b].key)
				b = j;
		mt[i].alias = b == i ? -1 : (int)b;
	}
	return 0;
}

/* Keep the top entries of the directory being walked, largest first. */
static void offer(struct wk *w, const char *name, int isdir, const struct wk_sum *s)
{
	struct ent *t = ent + lbase;
	unsigned i, k;

	(void)w;
	if (!isdir && !all)
		return;
	for (i = ln; i > 0 && t[i - 1].s.alloc < s->alloc; i--)
		;
	if (ln == top) {   /* full: the new entry or the smallest kept one goes */
		lmore[0]++;
		if (i == ln) {
			lmore[1] += s->alloc;
			return;
		}
		lmore[1] += t[--ln].s.alloc;
	}
	for (k = ln++; k > i; k--)   /* entry by entry: no memmove in the binary */
		memcpy(&t[k], &t[k - 1], sizeof *t);
	t[i].s = *s;
	t[i].dir = isdir;
	memcpy(t[i].name, name, strlen(name) + 1);
}

/* Walk fd into w, keeping its largest entries at ent[base]; warn when
 * asked (the first walk of a tree, not the listing's walks again). */
__attribute__((noinline)) static void walk(struct wk *w, int fd, unsigned base, const char *warn)
{
	memset(w, 0, sizeof *w);
	w->cache = cache;
	w->child = depth ? offer : 0;
	lbase = base;
	ln = lmore[0] = lmore[1] = 0;
	wk_walk(w, fd);
	if (warn && w->links_over)
		mb_warn(warn, "hard-link table full (WK_MAX_LINKS): the rest counted proportionally");
	if (warn && w->incomplete)
		mb_warn(warn, "a deep directory vanished during the walk: the rest was not walked");
}

static void measure(struct res *r)
{
	const struct mt *m = &mt[r->m];
	struct stat sb;
	struct statfs sf;
	struct wk w;

	r->have = m->have;
	memcpy(r->v, m->lim, sizeof m->lim);
	r->fd = rd_open(r->path, O_RDONLY | O_DIRECTORY);
	if (r->fd < 0) {
		r->err = strerror(-r->fd);
		return;
	}
	if (rd_live() && (fstat(r->fd, &sb) || !on(m, sb.st_dev))) {
		r->err = "hidden under another mount";
		close(r->fd);
		r->fd = -1;
		return;
	}
	/* cachestat per file (1), or on a tmpfs with no swap slot in use
	 * (SwapFree = SwapTotal, also 0; not known without meminfo) only
	 * until it works (2): no tmpfs page is swapped out, every allocated one
	 * is in RAM (on other types blocks are not pages in memory), and the
	 * walk needs no open + cachestat + close per file */
	cache = rd_live() << (MI_HAS(&mi, MI_SwapTotal) && MI_GET(&mi, MI_SwapFree) == MI_GET(&mi, MI_SwapTotal) &&
	                      !strcmp(m->s[M_FSTYPE], "tmpfs"));
	walk(&w, r->fd, 0, r->path);
	memcpy(r->v + F_ALLOC, &w.tot, sizeof w.tot);
	r->v[F_UNREAD] = w.unreadable + w.incomplete;
	r->v[F_LINKS] = w.links_over;
	memcpy(r->v + F_MORE, lmore, sizeof lmore);
	r->have |= WALKED | (depth ? MORE : 0) | (w.cache && !w.cache_gaps ? BIT(RES) | BIT(SWAP) : 0);
	if (rd_live() && !fstatfs(r->fd, &sf)) {
		r->v[F_USED] = mul(sf.f_blocks - sf.f_bfree, sf.f_frsize);
		r->v[F_HIDDEN] = sat_sub(r->v[F_USED], w.tot.alloc);
		r->v[F_IUSED] = sf.f_files - sf.f_ffree;
		/* the limits in force (mountinfo omits a default nr_inodes); an
		 * unlimited tmpfs (size=0, nr_inodes=0) reports no totals */
		r->v[F_SIZE] = mul(sf.f_blocks, sf.f_frsize);
		r->v[F_INODES] = sf.f_files;
		r->have = (r->have & ~(BIT(SIZE) | BIT(INODES))) |
		          (sf.f_blocks ? BIT(SIZE) | BIT(USED) | (paths ? 0 : BIT(HIDDEN)) : 0) |
		          (sf.f_files ? BIT(INODES) | BIT(IUSED) : 0);
	}
}

/* ---- output ---- */

/* One figure: a table cell (bytes: in the -b/-k/-m/-h unit) or a json/kv
 * member (sgn: signed). */
static void fig(const char *name, int have, uint64_t v, int bytes, int sgn)
{
	if (fmt != FMT_TABLE) {
		if (!have)
			t_null(name);
		else if (sgn)
			t_i64(name, v);
		else
			t_u64(name, v);
	} else if (!have) {
		fo_s("        -");
	} else if (bytes) {
		tb_ssize(v, 9);
	} else {
		tb_u64(v, 9);
	}
}

/* prom: a sample's name membox_PRE + NAME [+ _bytes], after HELP and TYPE
 * for the first of its family. */
static void sample(const char *pre, const char *name, int bytes, int first, const char *help)
{
	static char b[48];
	mb_join(b, pre, name, bytes ? "_bytes" : "");
	if (first)
		p_type(b, "gauge", help);
	p_start(b);
}

/* Table columns: LIMIT USED ALLOC LOGICAL RESIDENT SWAPPED HIDDEN FILES DIRS */
static const unsigned char tcol[] = { F_SIZE, F_USED, F_ALLOC, F_LOGICAL, F_RES, F_SWAP,
	F_HIDDEN, F_FILES, F_DIRS };

/* The figures of v: the table's columns and a space, or the json/kv
 * members in show. */
static void figs(const uint64_t *v, unsigned have, unsigned show)
{
	unsigned i, f;

	if (fmt == FMT_TABLE) {
		for (i = 0; i < sizeof tcol; i++) {
			f = tcol[i];
			fig(0, have >> f & 1, v[f], FBYTES >> f & 1, 0);
		}
		fo_c(' ');
	} else {
		for (i = 0; i < F_N; i++)
			if (show >> i & 1)
				fig(mb_nth(fname, i), have >> i & 1, v[i], 0, 0);
	}
}

/* A string member, null when s is. */
static void t_nstr(const char *key, const char *s)
{
	if (s)
		t_cstr(key, s);
	else
		t_null(key);
}

/* The kept entries ent[base .. base+n) of directory dirfd, whose path
 * relative to the walk root is lpath[0..plen). */
static void entries(int dirfd, size_t plen, unsigned d, unsigned base, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct ent *e = &ent[base + i];
		uint64_t v[F_N];
		unsigned cn = 0, have = WALKED & ~(BIT(UNREAD) | BIT(LINKS));
		size_t nl = strlen(e->name), l = plen + !!plen + nl;
		int fd = -1;

		if (l >= sizeof lpath)
			continue;
		lpath[plen] = '/';
		memcpy(lpath + l - nl, e->name, nl + 1);
		memcpy(v + F_ALLOC, &e->s, sizeof e->s);
		if (e->dir && d < depth &&
		    (fd = rd_openat(dirfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) >= 0) {
			struct wk w;
			walk(&w, fd, d * top, 0);
			cn = ln;
			memcpy(v + F_MORE, lmore, sizeof lmore);
			have |= MORE;
		}
		if (fmt == FMT_TABLE) {
			figs(v, have, 0);
			out_pad(fo, 0, 2 * d);
			out_safe(fo, lpath, l);
			if (have & BIT(MORE) && v[F_MORE]) {
				fo_s(" (+");
				out_u64(fo, v[F_MORE]);
				fo_c(' ');
				tb_size(v[F_MOREA], 0);
				fo_c(')');
			}
			tb_nl();
		} else {
			t_obj(0);
			t_str("path", lpath, l);
			t_u64("depth", d);
			t_bool("dir", e->dir);
			figs(v, have, (have | MORE) & ~BIT(OTHER));
			t_end();
		}
		if (cn)
			entries(fd, l, d + 1, d * top, cn);
		if (fd >= 0)
			close(fd);
	}
}

/* Shmem: meminfo against the tmpfs total, SysV shm and the rest. */
enum { S_MEMINFO, S_HUGE, S_TMPFS, S_HIDDEN, S_SYSV, S_SYSVSWAP, S_SEGS, S_OTHER, S_N };
static const char *const sname = "meminfo\0huge\0tmpfs\0tmpfs_hidden\0sysv\0sysv_swapped\0"
	"sysv_segments\0other";

static void shmem(void)
{
	struct shm_tot st;
	struct diag d;
	int k;
	uint64_t sv[S_N] = { 0 };
	unsigned i, alloc = !rd_live(), have = 1 << S_TMPFS | 1 << S_HIDDEN;
	const char *sysv = 0;

	have |= MI_HAS(&mi, MI_Shmem) | MI_HAS(&mi, MI_ShmemHugePages) << S_HUGE;
	sv[S_MEMINFO] = MI_GET(&mi, MI_Shmem);
	sv[S_HUGE] = MI_GET(&mi, MI_ShmemHugePages);
	for (i = 0; i < nrs; i++) {
		const struct res *r = &rs[i];
		if (!(r->have & BIT(ALLOC)) || !strcmp(mt[r->m].s[M_FSTYPE], "ramfs"))   /* ramfs: not Shmem */
			continue;
		alloc |= !(r->have & BIT(RES));
		sv[S_TMPFS] += r->v[r->have & BIT(RES) ? F_RES : F_ALLOC];
		sv[S_HIDDEN] += r->v[F_HIDDEN];
	}
	k = shm_read(&st);
	mb_warn_diag(rd_diag(&d, "/proc/sysvipc/shm", k, 0));
	if (!k) {
		sysv = st.have_rss ? "rss" : "size";
		sv[S_SYSV] = st.have_rss ? st.rss : st.size;
		sv[S_SYSVSWAP] = st.swap;
		sv[S_SEGS] = st.segs;
		have |= 1 << S_SYSV | st.have_swap << S_SYSVSWAP | 1 << S_SEGS;
		if (st.bad)
			mb_warn("/proc/sysvipc/shm", "lines that did not parse were skipped");
	}
	if ((have & (1 << S_MEMINFO | 1 << S_SYSV)) == (1 << S_MEMINFO | 1 << S_SYSV)) {
		sv[S_OTHER] = sat_diff(sv[S_MEMINFO], sat_add(sv[S_TMPFS], sv[S_SYSV]));
		have |= 1 << S_OTHER;
	}

	if (fmt == FMT_TABLE) {
		fo_s("\n   SHMEM     HUGE    TMPFS   HIDDEN     SYSV SYSVSWAP SEGMENTS    OTHER\n");
	} else if (fmt != FMT_PROM) {
		t_obj("shmem");
		t_cstr("tmpfs_basis", alloc ? "allocated" : "resident");
		t_nstr("sysv_basis", sysv);
	}
	for (i = 0; i < S_N; i++) {
		if (fmt != FMT_PROM) {
			fig(mb_nth(sname, i), have >> i & 1, sv[i], i != S_SEGS, 1);
		} else if (have >> i & 1) {
			sample("shmem_", mb_nth(sname, i), i != S_SEGS, 1, "Shmem reconciliation (membox tmpfs-du).");
			p_i64(sv[i]);
		}
	}
	if (fmt == FMT_TABLE) {
		fo_s("\ntmpfs: ");
		fo_s(alloc ? "allocated" : "resident");
		fo_s("; other: memfd, shared anonymous memory, GPU buffers, deleted-but-open\n"
		          "tmpfs files, tmpfs of other mount namespaces\n");
	} else if (fmt != FMT_PROM) {
		t_end();
	}
}

static void output(int only_shmem)
{
	unsigned i, j, f;
	int pre = fmt == FMT_PROM || only_shmem;

	/* json, kv and table measure each mount just before it is shown, so
	 * its listing reuses that walk; prom and -s need every figure first */
	for (i = 0; pre && i < nrs; i++)
		measure(&rs[i]);
	if (fmt == FMT_PROM) {
		for (f = 0; !only_shmem && f < F_N; f++)
			for (j = i = 0; i < nrs; i++) {
				const struct res *r = &rs[i];
				if (!(r->have >> f & 1))
					continue;
				sample("tmpfs_", mb_nth(fname, f), FBYTES >> f & 1, !j++,
				       "tmpfs-du figure, see membox tmpfs-du --help.");
				p_labc("mount", mt[r->m].s[M_POINT]);
				p_labu("major", mt[r->m].maj);
				p_labu("minor", mt[r->m].min);
				if (paths)
					p_labc("path", r->path);
				p_u64(r->v[f]);
			}
	} else if (fmt != FMT_TABLE) {
		t_obj(0);
		if (!only_shmem)
			t_arr("mounts");
	} else if (!only_shmem) {
		fo_s("    LIMIT     USED    ALLOC  LOGICAL RESIDENT  SWAPPED   HIDDEN    FILES     DIRS MOUNT (");
		fo_s(*tb_unit() ? tb_unit() : "IEC");
		fo_s(")\n");
	}
	for (i = 0; !only_shmem && fmt != FMT_PROM && i < nrs; i++) {
		struct res *r = &rs[i];
		const struct mt *m = &mt[r->m];
		measure(r);
		if (fmt == FMT_TABLE) {
			figs(r->v, r->have, 0);
			tb_str(r->path, 0);
		} else {
			t_obj(0);
			t_cstr("mount_point", m->s[M_POINT]);
			t_cstr("path", r->path);
			t_arr("aliases");
		}
		for (j = 0; j < nmt; j++)
			if (mt[j].alias == r->m) {
				if (fmt == FMT_TABLE)
					fo_s(" = "), tb_str(mt[j].s[M_POINT], 0);
				else
					t_cstr(0, mt[j].s[M_POINT]);
			}
		if (fmt == FMT_TABLE) {
			if (r->err)
				fo_s(" ("), fo_s(r->err), fo_c(')');
			tb_nl();
		} else {
			t_end();
			t_cstr("source", m->s[M_SOURCE]);
			t_cstr("fstype", m->s[M_FSTYPE]);
			t_cstr("root", m->s[M_ROOT]);
			t_nstr("error", r->err);
			figs(r->v, r->have, (1u << F_N) - 1 - (depth ? 0 : MORE));
			t_arr("entries");
		}
		if (depth && r->fd >= 0) {
			/* the walk of the mount kept its top entries at ent[0] */
			lpath[0] = 0;
			entries(r->fd, 0, 1, 0, ln);
		}
		if (fmt != FMT_TABLE)
			t_end(), t_end();
	}
	if (fmt == FMT_JSON || fmt == FMT_KV) {
		if (!only_shmem) {
			t_end();
			t_u64("mounts_dropped", mt_dropped);
		}
		if (paths)
			t_null("shmem");
	}
	if (!paths)
		shmem();
	if (fmt != FMT_TABLE)
		t_done();
}

int tmpfs_du_main(int argc, char **argv)
{
	struct optst st = { 0 };
	struct diag d;
	int id, only_shmem = 0, k;
	unsigned i;

	cli_init("tmpfs-du");
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case 't':
			types = st.arg;
			break;
		case 'd':
		case 'n':
			if (cli_u64(id == 'd' ? "--depth" : "--top", st.arg, id == 'd' ? &depth : &top))
				return cli_usage_error(usage);
			break;
		case 'a':
			all = 1;
			break;
		case 's':
			only_shmem = 1;
			break;
		}
	}
	paths = argc - st.ind;
	if (mul(depth, top) > TD_LIST_SLOTS || paths > TD_MAX_MOUNTS || (paths && only_shmem))
		return mb_warn("-d, -n, -s or PATH", "-n times -d above TD_LIST_SLOTS (64), "
		               "PATHs above TD_MAX_MOUNTS (64), or -s with PATHs"), cli_usage_error(usage);
	if (cli_root() || read_mounts())
		return 1;
	k = meminfo_read(&mi);
	mb_warn_diag(&mi.diag);
	mb_warn_diag(rd_diag(&d, "/proc/meminfo", k, 0));
	for (; st.ind < argc; st.ind++) {
		const char *p = argv[st.ind];
		struct res *r = &rs[nrs++];
		struct stat sb;
		size_t bl = 0;
		int fd = rd_open(p, O_RDONLY | O_DIRECTORY);
		r->m = -1;
		r->path = p;
		if (fd < 0 || fstat(fd, &sb))
			return mb_fail_errno(p, fd < 0 ? -fd : 9);
		close(fd);
		/* the mount of its device; in a capture, of the longest mount point */
		for (i = 0; i < nmt; i++) {
			const char *mp = mt[i].s[M_POINT];
			size_t l = strlen(mp);
			if (rd_live() ? on(&mt[i], sb.st_dev) :
			    l >= bl && !strncmp(p, mp, l) && (p[l] == '/' || !p[l] || l == 1)) {
				bl = l;
				r->m = mt[i].alias < 0 ? (int)i : mt[i].alias;
			}
		}
		if (r->m < 0)
			return mb_fail(p, "not on a mount of the listed types (-t)");
	}
	for (i = 0; !paths && i < nmt; i++)
		if (mt[i].alias < 0) {
			rs[nrs].m = i;
			rs[nrs++].path = mt[i].s[M_POINT];
		}
	output(only_shmem);
	return 0;
}
