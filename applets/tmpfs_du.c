/* tmpfs-du: how much RAM sits in each tmpfs mount and subtree, and where
 * the rest of Shmem goes.  Reads /proc/self/mountinfo, /proc/meminfo,
 * /proc/sysvipc/shm, statfs(2), and walks the mounted trees (walk.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include "cli.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "out.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"
#include "walk.h"

static const char usage[] =
	"Usage: tmpfs-du [OPTIONS] [PATH...]\n\n"
	"RAM (or swap) held in each tmpfs mount of /proc/self/mountinfo: LIMIT (size=),\n"
	"USED (statfs), and from a walk of the tree counted like du -x: ALLOC (blocks\n"
	"x 512, a hard-linked file once), LOGICAL (st_size), RESIDENT and SWAPPED\n"
	"(cachestat, Linux 6.5+), FILES, DIRS, OTHER, and HIDDEN = USED - ALLOC\n"
	"(deleted but open files, unreadable directories).  A superblock mounted in\n"
	"several places is shown once, at its shortest path.  Then Shmem of\n"
	"/proc/meminfo against the tmpfs total, SysV shared memory and the rest.\n"
	"A PATH on a tmpfs limits the walk to that directory.  With -R, mount points\n"
	"and PATHs are walked under DIR, without statfs and cachestat.\n\n"
	"  -t, --types=LIST  filesystem types (default tmpfs; also ramfs, devtmpfs)\n"
	"  -d, --depth=N     list directories down to depth N, largest first\n"
	"  -a, --all         list files too\n"
	"  -n, --top=N       the N largest entries per directory (default 10)\n"
	"  -s, --shmem       only the Shmem reconciliation\n";

static const struct opt opts[] = {
	CLI_COMMON,
	{ "types", 't', 1, 't' }, { "depth", 'd', 1, 'd' }, { "all", 'a', 0, 'a' },
	{ "top", 'n', 1, 'n' }, { "shmem", 's', 0, 's' },
	{ 0, 0, 0, 0 }
};

/* The figures of a mount or PATH; B marks bytes. */
#define FIELDS(X) \
	X(SIZE, "size_limit", B, "Size limit of the mount (size=).") \
	X(INODES, "inode_limit", 0, "Inode limit of the mount (nr_inodes=).") \
	X(USED, "used", B, "Used bytes by statfs.") \
	X(IUSED, "inodes_used", 0, "Used inodes by statfs.") \
	X(ALLOC, "allocated", B, "Allocated bytes of the walked tree.") \
	X(LOGICAL, "logical", B, "Sum of st_size of the walked tree.") \
	X(RES, "resident", B, "Allocated bytes in RAM (cachestat).") \
	X(SWAP, "swapped", B, "Allocated bytes in swap (cachestat).") \
	X(FILES, "files", 0, "Regular files walked.") \
	X(DIRS, "dirs", 0, "Directories walked.") \
	X(OTHER, "other", 0, "Other inodes walked.") \
	X(HIDDEN, "hidden", B, "Used minus allocated: deleted but open files, unreadable directories.") \
	X(UNREAD, "unreadable", 0, "Directories or entries that could not be read.") \
	X(LINKS, "links_proportional", 0, "Hard links counted proportionally (table full).") \
	X(MORE, "more", 0, "Entries beyond the listed ones.") \
	X(MOREA, "more_allocated", B, "Allocated bytes of the entries not listed.")
enum {
#define X(id, n, b, h) F_##id,
	FIELDS(X)
#undef X
	F_N
};
static const char *const fname[F_N] = {
#define X(id, n, b, h) n,
	FIELDS(X)
#undef X
};
static const char *const fhelp[F_N] = {
#define X(id, n, b, h) h,
	FIELDS(X)
#undef X
};
#define B 1
static const unsigned fbytes = 0
#define X(id, n, b, h) | (b + 0u) << F_##id
	FIELDS(X)
#undef X
	;
#undef B
#define BIT(f) (1u << F_##f)
#define ENTRY_FIELDS (BIT(ALLOC) | BIT(LOGICAL) | BIT(FILES) | BIT(DIRS))
#define MORE_FIELDS (BIT(MORE) | BIT(MOREA))

/* Mounts of the chosen types; alias >= 0: another mount of the same
 * superblock (major:minor) is shown instead. */
static struct mt {
	unsigned maj, min;
	int alias;
	const char *point, *root, *source, *fstype;
	uint64_t lim[2];
	unsigned have;
} mt[TD_MAX_MOUNTS];
static unsigned nmt, mt_dropped;
static char pool[TD_STR_POOL];
static size_t npool;

/* What is shown: a mount, or a PATH on one. */
static struct res {
	int m, fd;
	const char *path;      /* PATH, or 0 for the whole mount */
	const char *err;       /* why the tree was not walked */
	unsigned have;
	uint64_t v[F_N];
} rs[TD_MAX_MOUNTS];
static unsigned nrs;

static const char *types = "tmpfs";
static uint64_t depth, top = 10;
static int all, nowarn;

/* The listing: level d keeps its entries at ent[(d-1) * top ...]. */
static struct ent {
	uint64_t v[4];         /* alloc, logical, files, dirs */
	int dir;
	char name[256];
} ent[TD_LIST_SLOTS];
static unsigned lbase, ln;
static uint64_t lmore, lmorea;
static char lpath[MB_PATH_MAX];

static const char *keep(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = pool + npool;
	if (n > sizeof pool - npool)
		return 0;
	memcpy(p, s, n);
	npool += n;
	return p;
}

/* "size=1632464k", "nr_inodes=409600": 0 (unlimited) is absent */
static int limit(const char *opts, const char *key, uint64_t *v)
{
	const char *s, *p, *u;
	size_t n;

	if (!opt_value(opts, key, &s, &n))
		return 0;
	p = s;
	if (sc_u64(&p, s + n, v) == SC_NONE)
		return 0;
	if (p < s + n) {
		if (p + 1 != s + n || !(u = strchr("kmgt", *p | 32)))
			return 0;
		*v = sat_mul(*v, 1ull << 10 * (u - "kmgt" + 1));
	}
	return *v != 0;
}

static int better(const struct mt *a, const struct mt *b)
{
	size_t ra = strlen(a->root), rb = strlen(b->root);
	return ra < rb || (ra == rb && strlen(a->point) < strlen(b->point));
}

static int read_mounts(void)
{
	static char lb[MB_LINE_MAX], sb[MI_STR_MAX];
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	unsigned j;
	int fd = rd_open("/proc/self/mountinfo", O_RDONLY), k;

	if (fd < 0)
		return mb_fail_errno("/proc/self/mountinfo", -fd);
	rd_lines_fd(&r, fd, lb, sizeof lb);
	while ((k = mountinfo_next(&r, &m, sb, sizeof sb, &bad)) > 0) {
		struct mt *t = &mt[nmt];
		size_t save = npool;
		const char *v;
		size_t n;
		if (!opt_value(types, m.fstype, &v, &n))
			continue;
		if (nmt == TD_MAX_MOUNTS || !(t->point = keep(m.point)) || !(t->root = keep(m.root)) ||
		    !(t->source = keep(m.source)) || !(t->fstype = keep(m.fstype))) {
			npool = save;
			mt_dropped++;
			continue;
		}
		t->maj = m.major;
		t->min = m.minor;
		t->have = limit(m.super, "size", &t->lim[0]) | limit(m.super, "nr_inodes", &t->lim[1]) << 1;
		t->alias = -1;
		for (j = 0; j < nmt; j++) {
			if (mt[j].alias >= 0 || mt[j].maj != t->maj || mt[j].min != t->min)
				continue;
			if (better(t, &mt[j])) {
				unsigned q;
				for (q = 0; q < nmt; q++)
					if (q == j || mt[q].alias == (int)j)
						mt[q].alias = nmt;
			} else {
				t->alias = j;
			}
			break;
		}
		nmt++;
	}
	close(fd);
	if (k < 0)
		return mb_fail_errno("/proc/self/mountinfo", -k);
	if (bad)
		mb_warn("/proc/self/mountinfo", "lines that did not parse were skipped");
	if (mt_dropped)
		mb_warn("/proc/self/mountinfo", "more mounts than the table holds (TD_MAX_MOUNTS); some are not shown");
	return 0;
}

static void offer(struct wk *w, const char *name, int isdir, const struct wk_sum *s)
{
	struct ent *t = ent + lbase;
	unsigned i;

	(void)w;
	if (!isdir && !all)
		return;
	for (i = ln; i > 0 && t[i - 1].v[0] < s->alloc; i--)
		;
	if (i >= top) {
		lmore++;
		lmorea += s->alloc;
		return;
	}
	if (ln == top) {
		lmore++;
		lmorea += t[--ln].v[0];
	}
	memmove(t + i + 1, t + i, (ln - i) * sizeof *t);
	ln++;
	t[i].v[0] = s->alloc;
	t[i].v[1] = s->logical;
	t[i].v[2] = s->files;
	t[i].v[3] = s->dirs;
	t[i].dir = isdir;
	strcpy(t[i].name, name);
}

/* Walk fd, keeping its largest entries at ent[base] when listing. */
static void walk(struct wk *w, int fd, unsigned base, int list)
{
	memset(w, 0, sizeof *w);
	w->cache = rd_live();
	w->child = list ? offer : 0;
	lbase = base;
	ln = lmore = lmorea = 0;
	wk_walk(w, fd);
	if (nowarn)
		return;
	if (w->links_over)
		mb_warn(lpath, "hard-link table full (WK_MAX_LINKS): the rest counted proportionally");
	if (w->incomplete)
		mb_warn(lpath, "a deep directory vanished during the walk: the rest was not walked");
}

static void measure(struct res *r)
{
	const struct mt *m = &mt[r->m];
	struct stat sb;
	struct statfs sf;
	struct wk w;

	r->have = m->have;
	r->v[F_SIZE] = m->lim[0];
	r->v[F_INODES] = m->lim[1];
	r->fd = rd_open(r->path ? r->path : m->point, O_RDONLY | O_DIRECTORY);
	if (r->fd < 0) {
		r->err = strerror(-r->fd);
		return;
	}
	if (rd_live() && (fstat(r->fd, &sb) || sb.st_dev != makedev(m->maj, m->min))) {
		r->err = "hidden under another mount";
		close(r->fd);
		r->fd = -1;
		return;
	}
	strcpy(lpath, r->path ? r->path : m->point);
	walk(&w, r->fd, 0, depth > 0);
	r->v[F_ALLOC] = w.tot.alloc;
	r->v[F_LOGICAL] = w.tot.logical;
	r->v[F_RES] = w.tot.resident;
	r->v[F_SWAP] = w.tot.swapped;
	r->v[F_FILES] = w.tot.files;
	r->v[F_DIRS] = w.tot.dirs;
	r->v[F_OTHER] = w.tot.other;
	r->v[F_UNREAD] = w.unreadable + w.incomplete;
	r->v[F_LINKS] = w.links_over;
	r->v[F_MORE] = lmore;
	r->v[F_MOREA] = lmorea;
	r->have |= BIT(ALLOC) | BIT(LOGICAL) | BIT(FILES) | BIT(DIRS) | BIT(OTHER) | BIT(UNREAD) |
	           BIT(LINKS) | (depth ? MORE_FIELDS : 0) |
	           (w.cache && !w.cache_gaps ? BIT(RES) | BIT(SWAP) : 0);
	if (rd_live() && !fstatfs(r->fd, &sf)) {
		if (sf.f_blocks) {
			r->v[F_USED] = sat_mul(sf.f_blocks - sf.f_bfree, sf.f_frsize);
			r->v[F_HIDDEN] = sat_sub(r->v[F_USED], w.tot.alloc);
			r->have |= BIT(USED) | (r->path ? 0 : BIT(HIDDEN));
		}
		if (sf.f_files) {
			r->v[F_IUSED] = sf.f_files - sf.f_ffree;
			r->have |= BIT(IUSED);
		}
	}
}

/* ---- output ---- */

static int pfield;   /* prom: the field of the entries family being written */

static void cell(int have, uint64_t v, int bytes)
{
	if (!have) {
		out_s(fo, "       -");
	} else if (bytes) {
		tb_size(v, 8);
	} else {
		tb_u64(v, 8);
	}
}

static const unsigned char tcol[] = { F_SIZE, F_USED, F_ALLOC, F_LOGICAL, F_RES, F_SWAP, F_HIDDEN, F_FILES, F_DIRS, F_OTHER };

static void trow(const uint64_t *v, unsigned have)
{
	unsigned i;
	for (i = 0; i < sizeof tcol; i++)
		cell(have >> tcol[i] & 1, v[tcol[i]], fbytes >> tcol[i] & 1);
	out_c(fo, ' ');
}

static void fields(const uint64_t *v, unsigned show, unsigned have)
{
	int i;
	for (i = 0; i < F_N; i++)
		if (show >> i & 1)
			t_opt(fname[i], have >> i & 1, v[i]);
}

static void labels(const struct res *r)
{
	char b[48];
	size_t n = u64_str(b, mt[r->m].maj);
	b[n++] = ':';
	n += u64_str(b + n, mt[r->m].min);
	p_labc("mount", mt[r->m].point);
	p_lab("device", b, n);
	if (r->path)
		p_labc("path", r->path);
}

/* The kept entries at ent[base .. base+n) of directory dirfd, whose path
 * relative to the walk root is lpath[0..plen). */
static void entries(const struct res *r, int dirfd, size_t plen, unsigned d, unsigned base, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct ent *e = &ent[base + i];
		uint64_t v[F_N];
		unsigned cn = 0, have = ENTRY_FIELDS & ~(e->dir ? 0 : BIT(DIRS));
		size_t l = plen + !!plen + strlen(e->name);
		int fd = -1;

		if (l >= sizeof lpath)
			continue;
		if (plen)
			lpath[plen] = '/';
		strcpy(lpath + plen + !!plen, e->name);
		memcpy(v + F_ALLOC, e->v, 2 * sizeof *v);
		v[F_FILES] = e->v[2];
		v[F_DIRS] = e->v[3];
		if (e->dir && d < depth &&
		    (fd = rd_openat(dirfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) >= 0) {
			struct wk w;
			walk(&w, fd, d * top, 1);
			cn = ln;
			v[F_MORE] = lmore;
			v[F_MOREA] = lmorea;
			have |= MORE_FIELDS;
		}
		if (fmt == FMT_TABLE) {
			trow(v, have);
			out_pad(fo, 0, 2 * d);
			out_safe(fo, lpath, l);
			if (have & BIT(MORE) && v[F_MORE]) {
				out_s(fo, " (+");
				out_u64(fo, v[F_MORE]);
				out_s(fo, " more, ");
				tb_size(v[F_MOREA], 0);
				out_c(fo, ')');
			}
			tb_nl();
		} else if (fmt == FMT_PROM) {
			if (have >> pfield & 1) {
				p_start(pfield == F_ALLOC ? "tmpfs_entry_allocated_bytes" :
				        pfield == F_LOGICAL ? "tmpfs_entry_logical_bytes" : "tmpfs_entry_files");
				labels(r);
				p_lab("entry", lpath, l);
				p_u64(v[pfield]);
			}
		} else {
			t_obj(0);
			t_str("path", lpath, l);
			t_u64("depth", d);
			t_bool("dir", e->dir);
			fields(v, ENTRY_FIELDS | MORE_FIELDS, have);
			t_end();
		}
		if (cn)
			entries(r, fd, l, d + 1, d * top, cn);
		if (fd >= 0)
			close(fd);
	}
}

/* The listing of a shown mount or PATH (walks its root again). */
static void listing(const struct res *r, int rewalk)
{
	struct wk w;
	unsigned n = ln;

	if (!depth || r->fd < 0)
		return;
	nowarn = 1;
	if (rewalk) {
		walk(&w, r->fd, 0, 1);
		n = ln;
	}
	lpath[0] = 0;
	entries(r, r->fd, 0, 1, 0, n);
}

/* Shmem: meminfo against the tmpfs total, SysV shm and the rest. */
enum { S_MEMINFO, S_HUGE, S_TMPFS, S_HIDDEN, S_SYSV, S_SYSVSWAP, S_SEGS, S_OTHER, S_N };
static const char *const sname[S_N] = { "meminfo", "huge", "tmpfs", "tmpfs_hidden", "sysv",
	"sysv_swapped", "sysv_segments", "other" };
static const char *const slabel[S_N] = {
	"Shmem (meminfo)", "  of which ShmemHugePages", "- tmpfs files", "  (hidden in tmpfs: deleted but open)",
	"- SysV shared memory", "  (SysV swapped, not in Shmem)", "  (SysV segments)",
	"= other: memfd, shared anonymous, GPU" };
static const char *const shelp[S_N] = {
	"Shmem of /proc/meminfo.", "ShmemHugePages of /proc/meminfo.",
	"Resident (else allocated) bytes of the shown tmpfs mounts.",
	"Hidden bytes of the shown tmpfs mounts.", "Resident (else size) bytes of SysV shared memory.",
	"Swapped bytes of SysV shared memory.", "SysV shared memory segments.",
	"Shmem minus tmpfs and SysV: memfd, shared anonymous memory, GPU buffers, hidden tmpfs." };
static uint64_t sv[S_N];
static unsigned shave;
static int s_alloc_basis, s_size_basis;

static void shmem(void)
{
	struct meminfo mi;
	struct shm_tot st;
	unsigned i;

	if (!meminfo_read(&mi)) {
		shave |= (MI_HAS(&mi, MI_Shmem) << S_MEMINFO) | (MI_HAS(&mi, MI_ShmemHugePages) << S_HUGE);
		sv[S_MEMINFO] = MI_GET(&mi, MI_Shmem);
		sv[S_HUGE] = MI_GET(&mi, MI_ShmemHugePages);
	}
	shave |= 1 << S_TMPFS | 1 << S_HIDDEN;
	for (i = 0; i < nrs; i++) {
		const struct res *r = &rs[i];
		if (!strcmp(mt[r->m].fstype, "ramfs"))   /* page cache, not Shmem */
			continue;
		s_alloc_basis |= !(r->have & BIT(RES));
		sv[S_TMPFS] += r->v[r->have & BIT(RES) ? F_RES : F_ALLOC];
		sv[S_HIDDEN] += r->v[F_HIDDEN];
	}
	if (!shm_read(&st)) {
		s_size_basis = !st.have_rss;
		sv[S_SYSV] = st.have_rss ? st.rss : st.size;
		sv[S_SYSVSWAP] = st.swap;
		sv[S_SEGS] = st.segs;
		shave |= 1 << S_SYSV | st.have_swap << S_SYSVSWAP | 1 << S_SEGS;
		if (st.bad)
			mb_warn("/proc/sysvipc/shm", "lines that did not parse were skipped");
	}
	if ((shave & (1 << S_MEMINFO | 1 << S_SYSV)) == (1 << S_MEMINFO | 1 << S_SYSV)) {
		sv[S_OTHER] = sat_diff(sv[S_MEMINFO], sv[S_TMPFS] + sv[S_SYSV]);
		shave |= 1 << S_OTHER;
	}
}

static void shmem_out(void)
{
	char name[40];
	int i;

	for (i = 0; i < S_N; i++) {
		int have = shave >> i & 1, neg = i == S_OTHER;
		if (fmt == FMT_TABLE) {
			tb_str(slabel[i], 40);
			if (!have)
				out_s(fo, "       -");
			else if (i == S_SEGS)
				tb_u64(sv[i], 8);
			else if (neg)
				tb_ssize(sv[i], 8);
			else
				tb_size(sv[i], 8);
			if (i == S_TMPFS)
				out_s(fo, s_alloc_basis ? "  (allocated)" : "  (resident)");
			if (i == S_SYSV)
				out_s(fo, s_size_basis ? "  (size)" : "  (rss)");
			tb_nl();
		} else if (fmt == FMT_PROM) {
			if (!have)
				continue;
			strcpy(name, "shmem_");
			strcat(name, sname[i]);
			if (i != S_SEGS)
				strcat(name, "_bytes");
			p_type(name, "gauge", shelp[i]);
			p_start(name);
			if (neg)
				p_i64(sv[i]);
			else
				p_u64(sv[i]);
		} else if (!have) {
			t_null(sname[i]);
		} else if (neg) {
			t_i64(sname[i], sv[i]);
		} else {
			t_u64(sname[i], sv[i]);
		}
	}
	if (fmt == FMT_JSON || fmt == FMT_KV) {
		t_cstr("tmpfs_basis", s_alloc_basis ? "allocated" : "resident");
		t_cstr("sysv_basis", s_size_basis ? "size" : "rss");
	}
}

static const char theader[] =
	"   LIMIT    USED   ALLOC LOGICAL  RESIDNT SWAPPED  HIDDEN   FILES    DIRS   OTHER MOUNT\n";

static void output(int only_shmem, int measured)
{
	unsigned i, j;
	int f;

	if (fmt == FMT_PROM) {
		if (!only_shmem)
			for (f = 0; f < F_N; f++) {
				char name[48];
				strcpy(name, "tmpfs_");
				strcat(name, fname[f]);
				if (fbytes >> f & 1)
					strcat(name, "_bytes");
				for (j = 0, i = 0; i < nrs; i++)
					if (rs[i].have >> f & 1) {
						if (!j++)
							p_type(name, "gauge", fhelp[f]);
						p_start(name);
						labels(&rs[i]);
						p_u64(rs[i].v[f]);
					}
			}
		for (f = 0; !only_shmem && depth && f < 3; f++) {
			static const unsigned char pf[] = { F_ALLOC, F_LOGICAL, F_FILES };
			pfield = pf[f];
			p_type(f == 0 ? "tmpfs_entry_allocated_bytes" : f == 1 ? "tmpfs_entry_logical_bytes" : "tmpfs_entry_files",
			       "gauge", "The largest entries down to -d DEPTH.");
			nowarn = 1;
			for (i = 0; i < nrs; i++)
				listing(&rs[i], 1);
		}
		if (!rs[0].path)
			shmem_out();
		return;
	}
	if (fmt != FMT_TABLE)
		t_obj(0);
	if (!only_shmem) {
		if (fmt == FMT_TABLE)
			out_s(fo, *tb_unit() ? "sizes in " : ""), out_s(fo, tb_unit()), out_s(fo, *tb_unit() ? "\n" : ""), out_s(fo, theader);
		else
			t_arr("mounts");
		for (i = 0; i < nrs; i++) {
			struct res *r = &rs[i];
			const struct mt *m = &mt[r->m];
			if (!measured)
				measure(r);
			if (fmt == FMT_TABLE) {
				trow(r->v, r->have);
				tb_str(r->path ? r->path : m->point, 0);
				for (j = 0; j < nmt; j++)
					if (mt[j].alias == r->m) {
						out_s(fo, " also ");
						tb_str(mt[j].point, 0);
					}
				if (r->err)
					out_s(fo, " ("), out_s(fo, r->err), out_c(fo, ')');
				tb_nl();
			} else {
				t_obj(0);
				t_cstr("mount_point", m->point);
				t_cstr("path", r->path ? r->path : m->point);
				t_arr("aliases");
				for (j = 0; j < nmt; j++)
					if (mt[j].alias == r->m)
						t_cstr(0, mt[j].point);
				t_end();
				t_cstr("source", m->source);
				t_cstr("fstype", m->fstype);
				t_cstr("root", m->root);
				if (r->err)
					t_cstr("error", r->err);
				else
					t_null("error");
				fields(r->v, ~((depth ? 0 : MORE_FIELDS)) & ((1u << F_N) - 1), r->have);
				t_arr("entries");
			}
			listing(r, 0);
			if (fmt != FMT_TABLE)
				t_end(), t_end();
			if (r->fd >= 0)
				close(r->fd);
		}
		if (fmt != FMT_TABLE) {
			t_end();
			t_u64("mounts_dropped", mt_dropped);
		}
	}
	if (!measured && !rs[0].path)
		shmem();
	if (rs[0].path) {
		if (fmt != FMT_TABLE)
			t_null("shmem");
	} else if (fmt == FMT_TABLE) {
		if (!only_shmem)
			tb_nl();
		shmem_out();
	} else {
		t_obj("shmem");
		shmem_out();
		t_end();
	}
	if (fmt != FMT_TABLE)
		t_done();
}

int tmpfs_du_main(int argc, char **argv)
{
	struct optst st = { 0 };
	int id, only_shmem = 0;
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
			if (cli_u64("--depth", st.arg, &depth))
				return cli_usage_error(usage);
			break;
		case 'n':
			if (cli_u64("--top", st.arg, &top))
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
	if (depth && sat_mul(depth, top) > TD_LIST_SLOTS)
		return mb_warn("-n N times -d DEPTH", "more than TD_LIST_SLOTS (64) entries"), cli_usage_error(usage);
	if (argc - st.ind > TD_MAX_MOUNTS)
		return mb_warn("PATH", "more than TD_MAX_MOUNTS (64) operands"), cli_usage_error(usage);
	if (cli_root() || read_mounts())
		return 1;
	for (; st.ind < argc; st.ind++) {
		const char *p = argv[st.ind];
		struct res *r = &rs[nrs];
		struct stat sb;
		size_t bl = 0;
		int fd = rd_open(p, O_RDONLY | O_DIRECTORY);
		r->m = -1;
		r->path = p;
		if (fd < 0)
			return mb_fail_errno(p, -fd);
		if (fstat(fd, &sb) < 0)
			sb.st_dev = 0;
		close(fd);
		for (i = 0; i < nmt; i++) {
			size_t l = strlen(mt[i].point);
			if (rd_live() ? sb.st_dev == makedev(mt[i].maj, mt[i].min) :
			    l >= bl && !strncmp(p, mt[i].point, l) && (p[l] == '/' || !p[l] || l == 1)) {
				bl = l;
				r->m = mt[i].alias < 0 ? (int)i : mt[i].alias;
			}
		}
		if (r->m < 0)
			return mb_fail(p, "not on a mount of the listed types (-t)");
		nrs++;
	}
	if (!nrs)
		for (i = 0; i < nmt; i++)
			if (mt[i].alias < 0)
				rs[nrs++].m = i;
	/* the listing of a mount uses the walk that measures it, just before
	 * it is shown; prom and -s need every figure first */
	if (fmt == FMT_PROM || only_shmem) {
		for (i = 0; i < nrs; i++)
			measure(&rs[i]);
		if (!rs[0].path)
			shmem();
	}
	output(only_shmem, fmt == FMT_PROM || only_shmem);
	return 0;
}
