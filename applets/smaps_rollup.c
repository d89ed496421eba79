/* smaps-rollup: who really uses the RAM.  Per process PSS, USS, RSS, Swap
 * and SwapPss from /proc/PID/smaps_rollup (smaps before 4.14, status where
 * neither is readable), identity from /proc/PID/status and cmdline, user
 * names from /etc/passwd, MemTotal from /proc/meminfo.  The mapping views
 * stream /proc/PID/smaps (-S, -M, -l), with /proc/PID/mountinfo and
 * /proc/sysvipc/shm. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "diag.h"
#include "meminfo.h"
#include "out.h"
#include "passwd.h"
#include "proc.h"
#include "mountinfo.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"

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

/* ids in a row: the option switch is one jump table */
enum { O_PID = OPT_APPLET, O_USER, O_SORT, O_REV, O_TOP, O_GROUP, O_CAT, O_CATS, O_UNSORTED,
       O_SWAP, O_MAPS, O_OBJS, O_VERB };
static const struct opt opts[] = {
	CLI_COMMON,
	{ "pid", 'p', 1, O_PID }, { "user", 'U', 1, O_USER }, { "sort", 's', 1, O_SORT },
	{ "reverse", 'r', 0, O_REV }, { "top", 'n', 1, O_TOP }, { "group", 'g', 1, O_GROUP },
	{ "category", 'c', 1, O_CAT }, { "categories", 'C', 1, O_CATS },
	{ "unsorted", 0, 0, O_UNSORTED }, { "shared-swap", 'S', 0, O_SWAP },
	{ "maps", 'M', 1, O_MAPS }, { "objects", 'l', 0, O_OBJS }, { "verbose", 'v', 0, O_VERB },
	{ 0, 0, 0, 0 }
};

/* The sort keys; the first five are the sums of totals and groups. */
enum { M_PSS, M_USS, M_RSS, M_SWAP, M_SWPPSS, M_ANON, M_FILE, M_SHMEM, K_PID, K_USER, K_NAME, NKEY };
static const char *const keyname = "pss\0uss\0rss\0swap\0swappss\0anon\0file\0shmem\0pid\0user\0name";
/* Each size's kernel key, and status's counter where only status is readable
 * (USS is Private_Clean + Private_Dirty + Private_Hugetlb, else RssAnon). */
static const unsigned char mkey[8] = { PR_Pss, PR_Private_Clean, PR_Rss, PR_Swap, PR_SwapPss,
                                       PR_Pss_Anon, PR_Pss_File, PR_Pss_Shmem };
static const unsigned char mfb[8] = { PR_VmRSS, PR_RssAnon, PR_VmRSS, PR_VmSwap, PR_VmSwap,
                                      PR_RssAnon, PR_RssFile, PR_RssShmem };

/* G_USER and after: the views of group sums */
enum { G_NONE, G_TREE, G_USER, G_NAME, G_CAT };
static const char *const groupname = "\0tree\0user\0name\0category";
enum { S_ROLLUP, S_SMAPS, S_STATUS };
static const char *const srcname = "rollup\0smaps\0status";

/* What the scan saw; the first entries are the coverage the issue names. */
enum { C_PROCS, C_KTHR, C_APPROX, C_VANISHED, C_INACC, C_DROPPED, C_TRUNC, C_SAT, C_OTHER, C_N };
static const char *const covname = 
	"processes\0kernel_threads\0approximate\0vanished\0inaccessible\0dropped\0"
	"truncated\0saturated\0grouped_other";
static unsigned long cov[C_N];
static char hidden[20];   /* "hidepid=invisible": see mounts(); "" when nothing is */

/* A process row: sizes in KiB as the kernel prints them (4 TiB at most per
 * field; beyond is saturated and counted), to keep SR_MAX_ROWS small.  A
 * row has the rollup keys, or (source status) status's counters from
 * kb[0]: key PR_VmRSS + i is in kb[i]. */
struct row {
	uint32_t kb[PR_NROLL];
	uint32_t have, ss;   /* ss: -S shared swap PSS, KiB */
	unsigned pid, ppid, uid;
	unsigned char src, cat;
	char name[SR_NAME_MAX];
	char cmd[SR_CMD_MAX];
};
static unsigned nrows, cap;
static unsigned short ord[SR_MAX_ROWS], gord[SR_MAX_GROUPS + 1];
static unsigned char dep[SR_MAX_ROWS];   /* -g tree: below SR_MAX_ROWS */

/* Sums of a group, the total or a subtree: processes, pss, uss, rss, swap,
 * swap_pss; the figure after them, pss_total, is pss + swap_pss. */
enum { F_N = 6 };
static const char *const fig = "processes\0pss\0uss\0rss\0swap\0swap_pss\0pss_total";
struct grp {
	char key[PW_NAME_MAX];
	uint64_t f[F_N];
};
/* -g tree has no groups: its subtree sums share their table */
static union {
	struct grp grp[SR_MAX_GROUPS + 1];   /* [SR_MAX_GROUPS]: "(other)" */
	uint64_t sub[SR_MAX_ROWS][F_N];
} gs;
static uint64_t tot[F_N];
static unsigned ngrp;

/* -c, -C; after the last rule, the category "other" of what none matched */
static struct { const char *name, *glob; size_t nlen; } rules[SR_MAX_RULES + 1];
static unsigned nrules;
static const char *const chromeos = 
	"crosvm_arcvm=/usr/bin/crosvm run*/arcvm.sock*\0"
	"crosvm_other=/usr/bin/crosvm*\0"
	"chrome_renderer=/opt/google/chrome/chrome*--type=renderer*\0"
	"chrome_gpu=/opt/google/chrome/chrome*--type=gpu-process*\0"
	"chrome_other=/opt/google/chrome/chrome*--type=*\0"
	"chrome_browser=/opt/google/chrome/chrome*\0";

static unsigned pids[SR_MAX_PIDS], npids;
static unsigned long want_uid;
static const char *user_arg;
static int key = M_PSS, rev, group, stream;
static unsigned topn = -1u;   /* -n; -1u: every process, as no -n */
static char fb[SR_READ_MAX];
static struct meminfo mi;

static unsigned short par[SR_MAX_ROWS], tix[SR_MAX_ROWS];

/* The mapping views.  An object of -M and -l: files and shared memory by
 * device and inode, anonymous kinds by their name (hashed into ino). */
enum { V_PROC, V_SWAP, V_MAP, V_LIST };
static int view, verbose, pass1;
static unsigned mpid;
enum { ON = 9 };   /* the figures of an object, as the -M columns */
static const unsigned char okey[ON] = { PR_Size, PR_Rss, PR_Pss, PR_Private_Clean, PR_Private_Dirty,
                                        PR_Shared_Clean, PR_Shared_Dirty, PR_Swap, PR_SwapPss };
/* The names of the kinds, PK_NAMES of proc.h packed: a copy, as the
 * packer reads literals only (its length checked here) */
static const char *const pknames = "anon\0heap\0stack\0special\0anon_named\0shared_anon\0file\0deleted\0tmpfs\0memfd\0sysv\0other";
_Static_assert(sizeof PK_NAMES == 83, "PK_NAMES changed: change pknames too");
struct top { uint32_t pid, kb; char name[SR_NAME_MAX]; };
/* After the ON sizes, the mappings (regions) and processes of an object */
enum { F_REG = ON, F_PROCS, OF };
struct obj {
	uint64_t ino, f[OF];    /* f: sizes in bytes, then counts */
	uint32_t dev;           /* major << 20 | minor */
	uint32_t last, cur;     /* last: the process read last, cur: its PSS in KiB */
	uint16_t name, nlen;    /* in the pool */
	unsigned char kind, shared;
	struct top top[SR_MAX_CONSUMERS];   /* by PSS */
};
/* The process rows, or (-M, -l, which keep no rows) the objects */
static union {
	struct row row[SR_MAX_ROWS + 1];   /* [SR_MAX_ROWS]: cur */
	struct {
		struct obj o[SR_MAX_OBJS + 2];   /* [SR_MAX_OBJS]: "(other objects)", then the total */
		unsigned short ord[SR_MAX_OBJS + 1];
		uint32_t tmpfs[SR_MAX_TMPFS];    /* devices of tmpfs mounts */
		char pool[SR_OBJ_POOL];
	} ob;
} U;
/* The process being read (the objects views read one too): after the
 * rows, where the objects never reach, to be compared with them. */
_Static_assert(sizeof U.ob <= sizeof U.row[0] * SR_MAX_ROWS, "U.ob reaches cur");
static struct row *const cur = &U.row[SR_MAX_ROWS];
static unsigned nobj, ntmp, pused;
/* -S: shared objects with swap and how many mappings they have */
static struct { uint64_t ino; uint32_t dev, n; } sw[SR_MAX_SWAPOBJ];
static unsigned nsw;
static uint64_t sspss;   /* -S: the shared swap PSS of the process read, bytes */
/* What the views could not keep */
enum { O_OTHER, O_CUT, O_LONG, O_UNTRACKED, O_TMPFS, O_SYSV, O_N };
static const char *const ovfname = "other_regions\0names_cut\0long_lines\0untracked_swap\0tmpfs_mounts\0sysv_bad";
static unsigned long ovf[O_N];
static int merr;   /* -M: errno of reading smaps */
/* Texts said in several places, packed once ("processes": fig's first) */
static const char *const w_regions = "regions", *const w_object = "object",
	*const w_shared = "shared", *const w_ssp = "shared_swap_pss",
	*const w_nomatch = "no matching process";
#define NIL 0xffff

/* Text and characters for the report (fo). */
static void put(const char *s) { out_s(fo, s); }
static void putch(char c) { out_c(fo, c); }
static void putsafe(const char *s) { out_safe(fo, s, strlen(s)); }

/* String i of a list packed back to back ("a\0b"). */
static const char *nth(const char *s, int i)
{
	while (i--)
		s += strlen(s) + 1;
	return s;
}

/* Size m of a row in bytes; *has (unless 0): the kernel printed it. */
static uint64_t rv(const struct row *r, int m, int *has)
{
	int k = r->src == S_STATUS ? mfb[m] - PR_NROLL : mkey[m], h;
	uint64_t v = r->kb[k];

	if (k == PR_Private_Clean)
		v += (uint64_t)r->kb[PR_Private_Dirty] + r->kb[PR_Private_Hugetlb];
	h = r->have >> k & 1;
	v = h ? v << 10 : 0;
	if (m == M_SWPPSS && r->ss) {   /* -S */
		v += (uint64_t)r->ss << 10;
		h = 1;
	}
	if (has)
		*has = h;
	return v;
}

/* The same where absent counts as 0: sorting and sums. */
static uint64_t rs(const struct row *r, int m)
{
	return rv(r, m, 0);
}

static uint64_t fv(const uint64_t *f, int i) { return i < F_N ? f[i] : sat_add(f[1], f[5]); }

static int sgn(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/* The sorted views order indexes (of rows, groups or objects) by a size,
 * largest first, then a name, then a number, smallest first; -r reverses
 * the order of processes and groups. */
enum { SO_ROWS, SO_GROUPS, SO_TREE, SO_OBJS };
static int sortof;
struct skey { uint64_t v; const char *s; size_t n; unsigned t; };

static void sortkey(unsigned i, struct skey *k)
{
	const struct row *r = &U.row[i];

	memset(k, 0, sizeof *k);
	k->s = "";
	if (sortof == SO_OBJS) {
		const struct obj *o = &U.ob.o[i];
		k->v = o->f[2];
		k->s = U.ob.pool + o->name;
		k->n = o->nlen;
		k->t = o->kind;
		return;
	}
	if (sortof == SO_GROUPS) {
		const struct grp *g = &gs.grp[i];
		if (key != K_USER && key != K_NAME)
			k->v = g->f[key < 5 ? key + 1 : 1];
		k->s = g->key;
	} else if (sortof == SO_TREE) {
		k->v = gs.sub[i][1];
		k->t = r->pid;
	} else {
		k->t = r->pid;
		if (key == K_USER)   /* by uid, smallest first */
			k->v = ~(uint64_t)r->uid;
		else if (key == K_NAME)
			k->s = r->name;
		else if (key != K_PID)
			k->v = rs(r, key);
	}
	k->n = strlen(k->s);
}

/* < 0 when index a comes first. */
static int cmp(unsigned a, unsigned b)
{
	struct skey x, y;
	int d;

	sortkey(a, &x);
	sortkey(b, &y);
	d = sgn(y.v, x.v);
	if (!d)
		d = memcmp(x.s, y.s, x.n < y.n ? x.n : y.n);
	if (!d)
		d = sgn(x.n, y.n);
	if (!d)
		d = sgn(x.t, y.t);
	return rev && sortof < SO_TREE ? -d : d;
}

/* ix: the indexes 0 to n - 1 in that order (an insertion sort) */
static void isort(unsigned short *ix, unsigned n, int so)
{
	unsigned i, j;

	sortof = so;
	for (i = 0; i < n; i++) {
		for (j = i; j && cmp(ix[j - 1], i) > 0; j--)
			ix[j] = ix[j - 1];
		ix[j] = i;
	}
}

static const char *uname(unsigned long uid, char *b)
{
	static struct pw_cache users;
	const char *s = pw_name(&users, uid);
	if (s)
		return s;
	b[u64_str(b, uid)] = 0;
	return b;
}

static void warnn(unsigned long n, const char *what, const char *why)
{
	char b[48];
	char *e = b + u64_str(b, n);
	*e = ' ';
	memcpy(e + 1, what, strlen(what) + 1);
	mb_warn(b, why);
}

/* ---- the mappings of one process (-S, -M, -l) ---- */

static uint64_t hash(const char *s, size_t n)   /* FNV-1a */
{
	uint64_t h = 14695981039346656037ull;
	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int istmpfs(uint32_t d)
{
	unsigned i;
	for (i = 0; i < ntmp && U.ob.tmpfs[i] != d; i++)
		;
	return i < ntmp;
}

/* The object of a mapping, added when new: its index, else SR_MAX_OBJS. */
static unsigned oget(const struct pr_map *h)
{
	struct obj *o = U.ob.o;
	uint32_t dev = h->dev;
	int kind = pr_mapkind(h, istmpfs(dev)), sh = view == V_MAP && h->shared;
	const char *p = h->path;
	size_t n = h->plen;
	uint64_t ino = h->ino;
	unsigned i;

	if (kind < PK_SHANON) {
		ino = hash(p, n);
		dev = 0;
	}
	for (i = 0; i < nobj; i++)
		if (o[i].ino == ino && o[i].dev == dev && o[i].kind == kind && o[i].shared == sh)
			return i;
	if (nobj == SR_MAX_OBJS) {
		ovf[O_OTHER]++;
		return nobj;
	}
	o += nobj;
	o->ino = ino;
	o->dev = dev;
	o->kind = kind;
	o->shared = sh;
	if (!n && kind == PK_ANON)
		p = "[anon]", n = 6;
	if (n > SR_OBJ_POOL - pused) {
		n = SR_OBJ_POOL - pused;
		ovf[O_CUT]++;
	}
	memcpy(U.ob.pool + pused, p, n);
	o->name = pused;
	o->nlen = n;
	pused += n;
	return nobj++;
}

/* Keep pid among the top consumers of o (sorted by PSS, then PID). */
static void offer(struct obj *o, unsigned pid)
{
	struct top *t = o->top, x;
	int i = 0;

	while (i < SR_MAX_CONSUMERS - 1 && t[i].pid != pid)
		i++;
	if (t[i].pid != pid && t[i].pid && (o->cur < t[i].kb || (o->cur == t[i].kb && pid > t[i].pid)))
		return;
	t[i].pid = pid;
	t[i].kb = o->cur;
	memcpy(t[i].name, cur->name, sizeof t->name);
	for (; i && (!t[i - 1].pid || t[i].kb > t[i - 1].kb || (t[i].kb == t[i - 1].kb && pid < t[i - 1].pid)); i--) {
		x = t[i];
		t[i] = t[i - 1];
		t[i - 1] = x;
	}
}

/* The mapping being read: its object, or (-S) its identity */
static struct { int open, sh; unsigned oi; uint32_t dev; uint64_t ino; } mc;
static struct pr_mem mm;

/* A mapping's figures are complete: add them where the view wants them;
 * then the next one is open (maps() closes the last). */
static void mflush(unsigned pid)
{
	uint64_t *v = mm.v;
	unsigned i;

	if (mc.open && view == V_SWAP) {
		if (mc.sh && v[PR_Swap]) {
			for (i = 0; i < nsw && (sw[i].ino != mc.ino || sw[i].dev != mc.dev); i++)
				;
			if (pass1 && i == nsw && nsw < SR_MAX_SWAPOBJ) {
				sw[nsw].ino = mc.ino;
				sw[nsw++].dev = mc.dev;
			}
			if (pass1 && i < nsw)
				sw[i].n++;
			else if (!pass1 && i < nsw)
				sspss += v[PR_Swap] / sw[i].n;
			else if (!pass1)
				ovf[O_UNTRACKED]++;
		}
	} else if (mc.open) {
		struct obj *o = &U.ob.o[mc.oi];
		for (i = 0; i < ON; i++)
			o->f[i] = sat_add(o->f[i], v[okey[i]]);
		o->f[F_REG]++;
		if (o->last != pid) {
			o->last = pid;
			o->cur = 0;
			o->f[F_PROCS]++;
		}
		o->cur += v[PR_Pss] >> 10;
		offer(o, pid);
	}
	memset(&mm, 0, sizeof mm);
	mc.open = 1;
}

/* Stream /proc/PID/smaps (dfd: /proc/PID) into the view: 0 or -errno. */
static int maps(int dfd, unsigned pid)
{
	struct rd_lines r;
	struct pr_map h;
	const char *s;
	size_t n;
	unsigned long sk = 0;
	int fd, k;

	sspss = 0;
	if ((fd = rd_openat(dfd, "smaps", O_RDONLY)) < 0)
		return fd;
	rd_lines_fd(&r, fd, fb, sizeof fb);
	while ((k = rd_line(&r, &s, &n)) > 0) {
		if (r.skipped != sk) {   /* a header longer than fb: its figures go to "other" */
			mflush(pid);
			ovf[O_LONG] += r.skipped - sk;
			sk = r.skipped;
			mc.sh = 0;
			mc.oi = SR_MAX_OBJS;
		}
		if (pr_maphdr(s, n, &h)) {
			mflush(pid);
			mc.sh = h.shared;
			mc.dev = h.dev;
			mc.ino = h.ino;
			if (view != V_SWAP)
				mc.oi = oget(&h);
		} else {
			pr_line(&mm, s, n, 0, PR_NK);
		}
	}
	mflush(pid);
	mc.open = 0;
	close(fd);
	return k;
}

/* "/proc/PID" (PID 0: "/proc/self"), then rest, into b (48 bytes). */
static const char *ppath(char *b, unsigned pid, const char *rest)
{
	char *e = b + 6;

	memcpy(b, "/proc/self", 10);
	e += pid ? u64_str(e, pid) : 4;
	memcpy(e, rest, strlen(rest) + 1);
	return b;
}

/* The mounts of our (-M: the process's) mount namespace, before the scan
 * (U is free until then).  hidepid=2 (invisible) or 4 (ptraceable) on
 * /proc (its last mount): the kernel does not list other users' processes
 * at all, so nothing can count them; root sees them all.  The option as
 * the kernel prints it goes into hidden.  -M, -l: the tmpfs devices. */
static void mounts(void)
{
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	const char *v;
	size_t n;
	int fd;

	/* the path in fb, free until the scan (a smaller frame) */
	if ((fd = rd_lines_open(&r, ppath(fb, mpid, "/mountinfo"))) < 0)
		return;
	while (mountinfo_next(&r, &m, U.ob.pool, sizeof U.ob.pool, &bad) > 0) {
		uint32_t d = m.major << 20 | m.minor;
		if (!strcmp(m.point, "/proc")) {
			*hidden = 0;
			if (opt_value(m.super, "hidepid", &v, &n) && n - 1 < 10 && strchr("24ip", *v) &&
			    !(rd_live() && !geteuid()))
				memcpy(hidden, v - 8, n + 8), hidden[n + 8] = 0;
		}
		if (view < V_MAP || strcmp(m.fstype, "tmpfs") || istmpfs(d))
			continue;
		if (ntmp < SR_MAX_TMPFS)
			U.ob.tmpfs[ntmp++] = d;
		else
			ovf[O_TMPFS]++;
	}
	close(fd);
}

/* ---- reading one process ---- */

static int pdir(unsigned pid)
{
	char path[48];
	return rd_open(ppath(path, pid, ""), O_RDONLY | O_DIRECTORY);
}

static void add(uint64_t *f, const struct row *r)
{
	int m;
	f[0]++;
	for (m = 0; m < 5; m++)
		f[m + 1] = sat_add(f[m + 1], rs(r, m));
}

static uint64_t *grp_get(const char *k, size_t n)
{
	struct grp *g = gs.grp;
	unsigned i;

	if (n >= PW_NAME_MAX)
		n = PW_NAME_MAX - 1;
	for (i = 0; i < ngrp; i++)
		if (sc_eq(k, n, g[i].key))
			return g[i].f;
	if (ngrp == SR_MAX_GROUPS) {
		cov[C_OTHER]++;
		memcpy(g[i].key, "(other)", 8);
	} else {
		memcpy(g[i].key, k, n);
		ngrp++;
	}
	return g[i].f;
}

static int gone(long e) { return e == -ENOENT || e == -ESRCH; }

/* Fill cur for one PID: -1 with a row, -2 when -U filters it out, else the
 * coverage counter it belongs to.  -S's first pass reads its smaps only. */
static int read_proc(unsigned pid)
{
	static struct pr_status st;
	struct pr_mem *const m = &mm;   /* shared: maps() starts it anew at its first mapping */
	const struct pr_mem *pm = m;
	int dfd = pdir(pid), k = -1, trunc, src = S_ROLLUP, sat, off = 0;
	uint32_t have;
	long n;
	size_t i;

	if (dfd < 0)
		return gone(dfd) ? C_VANISHED : C_INACC;
	if (pass1)   /* -S: count the mappings of shared objects with swap */
		goto map;
	n = rd_fileat(dfd, "status", fb, sizeof fb, &trunc);
	if (n < 0 || pr_status(fb, n, &st)) {
		k = n < 0 && gone(n) ? C_VANISHED : C_INACC;
		goto out;
	}
	if (user_arg && st.uid != want_uid) {
		k = -2;
		goto out;
	}
	n = rd_fileat(dfd, "smaps_rollup", fb, sizeof fb, &trunc);
	if (n >= 0)
		pr_rollup(fb, n, m);
	if (n == -ENOENT) {   /* before 4.14, or not captured */
		int fd = rd_openat(dfd, "smaps", O_RDONLY);
		src = S_SMAPS;
		n = fd < 0 ? fd : pr_smaps(fd, m, fb, sizeof fb);
		if (fd >= 0)
			close(fd);
	}
	if (n < 0 && n != -ESRCH) {
		/* live, ENOENT means the process is gone; in a capture it was
		 * not readable, as EACCES is live: use status */
		if (rd_live() && n == -ENOENT) {
			k = C_VANISHED;
			goto out;
		}
		pm = &st.mem;
		src = S_STATUS;
		off = PR_NROLL;
	}
	have = pm->have & ((1u << PR_NSIZE) - 1);
	/* no memory map: a kernel thread, or a process that has exited
	 * (a zombie, or one whose status still had its VmRSS) */
	if (n == -ESRCH || !have) {
		k = st.kthread || (st.state != 'Z' && !PR_HAS(&st.mem, PR_VmRSS)) ? C_KTHR : C_VANISHED;
		goto out;
	}
	memset(cur, 0, sizeof *cur);
	cur->pid = pid;
	cur->ppid = st.ppid;
	cur->uid = st.uid;
	cur->src = src;
	cur->have = have >> off;
	trunc = st.name_cut;
	sat = pm->ovf != 0;
	for (i = 0; i < PR_NROLL && i + off < PR_NSIZE; i++) {
		uint64_t v = pm->v[i + off] >> 10;
		cur->kb[i] = v > UINT32_MAX ? UINT32_MAX : v;
		sat |= v > UINT32_MAX;
	}
	cov[C_SAT] += sat;
	cov[C_APPROX] += src == S_STATUS;
	memcpy(cur->name, st.name, sizeof cur->name);
	n = rd_fileat(dfd, "cmdline", fb, sizeof fb, &k);
	n = n < 0 ? 0 : (long)pr_cmdline(fb, n);
	trunc |= n > 0 && k;
	if (!n) {   /* a kernel thread or a process that cleared it */
		n = strlen(st.name);
		fb[0] = '[';
		memcpy(fb + 1, st.name, n);
		fb[++n] = ']';
		n++;
	}
	fb[n] = 0;   /* n < SR_READ_MAX; fnmatch takes a C string */
	for (i = 0; i < nrules && fnmatch(rules[i].glob, fb, 0); i++)
		;
	cur->cat = i;
	i = n;
	if (i >= SR_CMD_MAX) {   /* cut at a character boundary */
		trunc = 1;
		for (i = SR_CMD_MAX - 1; i && (fb[i] & 0xc0) == 0x80; i--)
			;
	}
	memcpy(cur->cmd, fb, i);
	cov[C_TRUNC] += trunc;
	k = -1;
map:
	if (view) {
		if ((n = maps(dfd, pid)) < 0)
			merr = -n;
		cur->ss = sspss >> 10 > UINT32_MAX ? UINT32_MAX : sspss >> 10;
	}
out:
	close(dfd);
	return k;
}

/* ---- output ---- */

/* A size cell: a space, then right-aligned in 8; '~' approximate, '-' absent. */
static void cell(uint64_t v, int has, int approx)
{
	static char b[32];
	struct out t = { .fd = -1, .buf = b }, *o = fo;

	if (!has) {
		put("        -");
		return;
	}
	putch(' ');
	fo = &t;
	tb_size(v, 0);
	fo = o;
	out_pad(o, t.len + approx, 8);
	if (approx)
		out_c(o, '~');
	out_mem(o, b, t.len);
}

/* Figures [from, to) of sums f: table cells, else json/kv members. */
static void sums(const uint64_t *f, int from, int to)
{
	for (; from < to; from++)
		if (fmt == FMT_TABLE)
			cell(fv(f, from), 1, 0);
		else
			t_u64(nth(fig, from), fv(f, from));
	if (fmt == FMT_TABLE)
		putch(' ');
}

/* One process in the current format; s: subtree sums (-g tree) or 0. */
static void emit(const struct row *r, unsigned depth, const uint64_t *s)
{
	char b[24], e[24];
	const char *u = uname(r->uid, b);
	int m, has;
	uint64_t v;

	if (fmt == FMT_TABLE) {
		tb_u64(r->pid, 7);
		putch(' ');
		tb_str(u, 8);
		for (m = 0; m < 5; m++) {
			v = rv(r, m, &has);
			cell(v, has, r->src == S_STATUS);
		}
		for (m = 1; s && m < 3; m++)
			cell(s[m], 1, 0);
		out_pad(fo, 0, 1 + 2 * (depth < 20 ? depth : 20));
		putsafe(r->cmd);
		tb_nl();
		return;
	}
	memcpy(e, "process.", 8);
	e[8 + u64_str(e + 8, r->pid)] = 0;
	t_elem(e);
	t_u64("pid", r->pid);
	t_u64("ppid", r->ppid);
	t_u64("uid", r->uid);
	t_cstr("user", u);
	t_cstr("name", r->name);
	t_cstr("command", r->cmd);
	t_cstr("source", nth(srcname, r->src));
	t_obj("rollup");
	for (m = 0; m < PR_NROLL; m++)
		if (r->have >> m & 1)
			t_u64(pr_key(m + (r->src == S_STATUS ? PR_NROLL : 0)), (uint64_t)r->kb[m] << 10);
	t_end();
	v = rv(r, M_USS, &has);
	t_opt("uss", has, v);
	if (view == V_SWAP)
		t_u64(w_ssp, (uint64_t)r->ss << 10);
	if (s) {
		t_u64("depth", depth);
		t_obj("subtree");
		sums(s, 1, F_N + 1);
		t_end();
	}
	t_end();
}

static void tsize(uint64_t v)
{
	tb_size(v, 0);
	if (*tb_unit()) {
		putch(' ');
		put(tb_unit());
	}
}

/* The end of the totals line and the coverage line. */
static void covline(void)
{
	unsigned i;

	put("total (sizes in ");
	put(*tb_unit() ? tb_unit() : "IEC units");
	put(")\ncoverage:");
	for (i = 0; i < C_N; i++) {
		const char *c = nth(covname, i);
		if (i > C_DROPPED && !cov[i])
			continue;
		put(i ? ", " : " ");
		out_u64(fo, cov[i]);
		putch(' ');
		for (; *c; c++)
			putch(*c == '_' ? ' ' : *c);
	}
	if (*hidden) {
		put(", other users' processes hidden (");
		put(hidden);
		putch(')');
	}
	tb_nl();
}

static void table_end(void)
{
	unsigned i;

	if (group >= G_USER)
		put("  PROCS      PSS      USS      RSS     SWAP  SWAPPSS    TOTAL GROUP\n");
	for (i = 0; group >= G_USER && i < ngrp; i++) {
		const struct grp *g = &gs.grp[gord[i]];
		tb_u64(g->f[0], 7);
		sums(g->f, 1, F_N + 1);
		putsafe(g->key);
		tb_nl();
	}
	tb_u64(tot[0], 7);
	if (group < G_USER)
		put(" procs   ");
	sums(tot, 1, group < G_USER ? F_N : F_N + 1);
	covline();
	put("PSS ");
	tsize(tot[1]);
	put(" of MemTotal ");
	if (MI_HAS(&mi, MI_MemTotal) && mi.v[MI_MemTotal]) {
		uint64_t t = mi.v[MI_MemTotal], p = tot[1];
		tsize(t);
		put(" = ");
		out_fix(fo, p < UINT64_MAX / 10000 ? p * 10000 / t : p / (t / 10000 + 1), 2);
		putch('%');
	} else {
		putch('-');
	}
	tb_nl();
}

/* A gauge family: its HELP and TYPE lines; its name for p_start, "membox_"
 * PREFIX NAME in lower case, and "_bytes" for a size. */
static const char *pfam(const char *prefix, const char *name, int bytes, const char *help)
{
	static char b[48];
	char *e = b;

	while (*prefix)
		*e++ = *prefix++;
	for (; *name; name++)
		*e++ = *name >= 'A' && *name <= 'Z' ? *name + 32 : *name;
	memcpy(e, "_bytes", 7);
	if (!bytes)
		*e = 0;
	p_type(b, "gauge", help);
	return b;
}

/* Counters as a json/kv object, left open. */
static void jcounts(const char *key, const char *names, const unsigned long *v, int n)
{
	int i;
	t_obj(key);
	for (i = 0; i < n; i++)
		t_u64(nth(names, i), v[i]);
}

/* The end of a json/kv document: what the scan saw, what the mapping
 * views could not keep, and (the process views) MemTotal. */
static void jtail(void)
{
	jcounts("coverage", covname, cov, C_N);
	if (*hidden)
		t_cstr("hidden", hidden);
	else
		t_null("hidden");
	t_end();
	if (view) {
		jcounts("overflow", ovfname, ovf, O_N);
		t_end();
	}
	if (view < V_MAP)
		t_opt("mem_total", MI_HAS(&mi, MI_MemTotal), mi.v[MI_MemTotal]);
	t_done();
}

static void prom(void)
{
	char b[24];
	const char *name;
	unsigned i;
	int m, k, has;
	uint64_t v;

	for (m = 0; m < 5 + (view == V_SWAP); m++) {
		name = pfam("process_", m < 5 ? nth(fig, m + 1) : w_ssp, 1,
		            "Memory of a process (PSS, USS: see the README).");
		for (i = 0; i < nrows; i++) {
			const struct row *r = &U.row[ord[i]];
			v = m < 5 ? rv(r, m, &has) : (uint64_t)r->ss << 10;
			if (m < 5 && !has)
				continue;
			p_start(name);
			p_labu("pid", r->pid);
			p_labc("name", r->name);
			p_labc("user", uname(r->uid, b));
			p_labc("source", nth(srcname, r->src));
			p_u64(v);
		}
	}
	/* each figure of the sums: the groups' family (-g user, name,
	 * category), then the total's */
	for (m = 0; m <= F_N; m++)
		for (k = group < G_USER; k < 2; k++) {
			name = pfam(k ? "total_" : "group_", nth(fig, m), m,
			            m ? "Memory summed over the processes." : "Processes counted.");
			for (i = 0; i < (k ? 1 : ngrp); i++) {
				const struct grp *g = &gs.grp[gord[i]];
				p_start(name);
				if (!k) {
					p_labc("by", nth(groupname, group));
					p_labc("group", g->key);
				}
				p_u64(fv(k ? tot : g->f, m));
			}
		}
	name = pfam("scan_", fig, 0, "Processes by what the scan found.");   /* fig's first: "processes" */
	for (i = 0; i < C_N; i++) {
		p_start(name);
		p_labc("kind", nth(covname, i));
		p_u64(cov[i]);
	}
	p_start(pfam("scan_", "hidden", 0, "1: /proc hides other users' processes (hidepid)."));
	if (*hidden)
		p_labc("option", hidden);
	p_u64(!!*hidden);
	if (MI_HAS(&mi, MI_MemTotal)) {
		p_start(pfam("", "mem_total", 1, "MemTotal of /proc/meminfo."));
		p_u64(mi.v[MI_MemTotal]);
	}
}

/* ---- the object views (-M, -l) ---- */

/* A table cell of a count: a blank, then v in w. */
static void onum(uint64_t v, int w)
{
	putch(' ');
	tb_u64(v, w);
}

/* An object: a table line or a json/kv element; or (tot) the totals,
 * whose procs are the processes read: the table's last line, the json
 * "total". */
static void oemit(const struct obj *o, int tot)
{
	const char *k = nth(pknames, o->kind), *nm = U.ob.pool + o->name;
	const struct top *t;
	int i;

	if (fmt == FMT_TABLE) {
		for (i = 0; i < ON; i++)
			if (view == V_MAP || (0x186 >> i & 1))   /* -l: RSS PSS SWAP SWAPPSS */
				cell(o->f[i], 1, 0);
		if (view == V_LIST)
			onum(o->f[F_PROCS], 6);
		onum(o->f[F_REG], 7);
		if (tot) {
			put(view == V_MAP ? "   " : " ");
			covline();
			return;
		}
		put(view != V_MAP ? " " : o->shared ? " s " : " p ");
		tb_str(k, 11);
		putch(' ');
		out_safe(fo, nm, o->nlen);
		for (t = o->top; verbose && t < o->top + SR_MAX_CONSUMERS && t->pid; t++) {
			put(t == o->top ? "\n    top: " : ", ");
			out_u64(fo, t->pid);
			putch(' ');
			putsafe(t->name);
			putch(' ');
			tb_size((uint64_t)t->kb << 10, 0);
		}
		tb_nl();
		return;
	}
	if (tot) {
		t_obj("total");
	} else {
		t_elem(0);
		t_cstr("kind", k);
		t_str(w_object, nm, o->nlen);
		if (view == V_MAP)
			t_bool(w_shared, o->shared);
	}
	if (view == V_LIST)
		t_u64(fig, o->f[F_PROCS]);
	t_u64(w_regions, o->f[F_REG]);
	t_obj("rollup");
	for (i = 0; i < ON; i++)
		t_u64(pr_key(okey[i]), o->f[i]);
	t_end();
	if (verbose && !tot) {
		t_arr("consumers");
		for (t = o->top; t < o->top + SR_MAX_CONSUMERS && t->pid; t++) {
			t_elem(0);
			t_u64("pid", t->pid);
			t_cstr("name", t->name);
			t_u64("pss", (uint64_t)t->kb << 10);
			t_end();
		}
		t_end();
	}
	t_end();
}

static const char *const scol[6] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
static const char *const skey = "id\0owner\0attaches\0size\0rss\0swap";

/* The segments of /proc/sysvipc/shm: table lines, json/kv elements, or
 * (f >= 2) the prom samples of column f. */
static void sysv(int f)
{
	struct rd_lines r;
	struct shm_it it = { .r = &r, .col = scol, .n = 6 };
	uint64_t v[6];
	const char *name = f ? pfam("sysv_shm_", nth(skey, f), f > 2, "A SysV shared memory segment (/proc/sysvipc/shm).") : 0;
	int fd = rd_lines_open(&r, "/proc/sysvipc/shm"), i, n = 0;

	if (fd < 0)
		return;
	while (shm_next(&it, v) > 0) {
		if (f) {
			if (it.have >> f & 1) {
				p_start(name);
				p_labu("id", v[0]);
				p_labu("owner", v[1]);
				p_u64(v[f]);
			}
			continue;
		}
		if (fmt == FMT_TABLE && !n++)
			put("\n   SHMID   OWNER  ATTACH     SIZE      RSS     SWAP\n");
		if (fmt != FMT_TABLE)
			t_elem(0);
		for (i = 0; i < 6; i++)
			if (fmt != FMT_TABLE)
				t_opt(nth(skey, i), it.have >> i & 1, v[i]);
			else if (i < 3)
				onum(v[i], 7);
			else
				cell(v[i], it.have >> i & 1, 0);
		if (fmt == FMT_TABLE)
			tb_nl();
		else
			t_end();
	}
	if (f < 3)
		ovf[O_SYSV] += it.bad;
	close(fd);
}

static void objects(void)
{
	struct obj *o = U.ob.o, *t = o + SR_MAX_OBJS + 1;
	unsigned i, j, n = nobj;
	const char *name;

	isort(U.ob.ord, n, SO_OBJS);
	if (o[SR_MAX_OBJS].f[F_REG])
		U.ob.ord[n++] = SR_MAX_OBJS;
	for (i = 0; i <= SR_MAX_OBJS; i++)   /* the unused ones are zero */
		for (j = 0; j < F_PROCS; j++)
			t->f[j] = sat_add(t->f[j], o[i].f[j]);
	t->f[F_PROCS] = tot[0];
	if (topn < n)
		n = topn;
	if (fmt == FMT_PROM) {
		for (j = 0; j < F_PROCS + (view == V_LIST); j++) {
			name = pfam("object_", j < ON ? pr_key(okey[j]) : j == ON ? w_regions : fig, j < ON,
			            "An object's mappings (smaps-rollup -M, -l in the README).");
			for (i = 0; i < n; i++) {
				const struct obj *b = &o[U.ob.ord[i]];
				p_start(name);
				if (view == V_MAP)
					p_labu("pid", cur->pid);
				p_labc("kind", nth(pknames, b->kind));
				p_lab(w_object, U.ob.pool + b->name, b->nlen);
				if (view == V_MAP)
					p_labc(w_shared, b->shared ? "true" : "false");
				p_u64(b->f[j]);
			}
		}
		for (j = 2; view == V_LIST && j < 6; j++)
			sysv(j);
		return;
	}
	if (fmt == FMT_TABLE) {
		put(view == V_MAP ? "     SIZE      RSS      PSS  PRV_CLN  PRV_DRT  SHR_CLN  SHR_DRT     SWAP  SWAPPSS REGIONS M KIND        OBJECT\n"
		                  : "      RSS      PSS     SWAP  SWAPPSS  PROCS REGIONS KIND        OBJECT\n");
	} else {
		t_obj(0);
		if (view == V_MAP) {
			t_u64("pid", cur->pid);
			t_cstr("name", cur->name);
		}
		t_arr("objects");
	}
	for (i = 0; i <= n; i++) {   /* the objects, then the totals */
		if (i == n && fmt != FMT_TABLE)
			t_end();
		oemit(i < n ? &o[U.ob.ord[i]] : t, i == n);
	}
	if (fmt == FMT_TABLE) {
		if (view == V_LIST)
			sysv(0);
		return;
	}
	if (view == V_LIST) {
		t_arr("sysv");
		sysv(0);
		t_end();
	}
	jtail();
}

/* The process tree of the kept rows: ord in pre-order, children by subtree
 * PSS; a process whose parent is not kept is a root.  Recursion depth is
 * at most SR_MAX_ROWS small frames. */
static unsigned nord;
static void walk(unsigned p, unsigned d)
{
	unsigned i;
	for (i = 0; i < nrows; i++)
		if (par[tix[i]] == p) {
			ord[nord] = tix[i];
			dep[nord++] = d;
			walk(tix[i], d + 1);
		}
}

static void tree(void)
{
	unsigned i, j, a;

	memset(par, 0xff, sizeof par);
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < nrows; j++)
			if (j != i && U.row[j].pid == U.row[i].ppid) {
				for (a = j; a != NIL && a != i; a = par[a])
					;
				if (a == NIL)   /* no cycle in a hostile capture */
					par[i] = j;
				break;
			}
	}
	for (i = 0; i < nrows; i++)
		for (a = i; a != NIL; a = par[a])
			add(gs.sub[a], &U.row[i]);
	isort(tix, nrows, SO_TREE);
	walk(NIL, 0);
}

/* ---- the scan ---- */

static void one(unsigned pid)
{
	static unsigned w = -1u;   /* the last of the full row table, -1u: to find */
	unsigned i;
	int k;
	const char *g = cur->name;
	char b[24];
	size_t n;

	k = read_proc(pid);
	if (pass1)
		return;
	if (k >= 0)
		cov[k]++;
	if (k != -1)
		return;
	cov[C_PROCS]++;
	add(tot, cur);
	if (view >= V_MAP)
		return;
	if (group >= G_USER) {
		if (group == G_USER)
			g = uname(cur->uid, b);
		n = strlen(g);
		if (group == G_CAT)
			g = rules[cur->cat].name, n = rules[cur->cat].nlen;
		add(grp_get(g, n), cur);
	}
	if (nrows < cap) {
		i = nrows++;
		if (stream) {
			emit(cur, 0, 0);
			return;
		}
	} else {
		cov[C_DROPPED]++;
		if (stream)
			return;
		/* keep the top rows: replace the last one */
		if (w == -1u)
			for (w = 0, i = 1; i < nrows; i++)
				if (cmp(i, w) > 0)
					w = i;
		if (!nrows || cmp(SR_MAX_ROWS, w) >= 0)
			return;
		i = w;
		w = -1u;
	}
	U.row[i] = *cur;
}

/* /proc, opened before anything is written (a failure must not leave half
 * a json document) and read from its start by each scan (-S scans twice) */
static struct rd_dir pd;

static int scan(void)
{
	unsigned i;
	long pid;

	for (i = 0; i < npids && !pass1; i++)   /* -S's first pass reads every process */
		one(pids[i]);
	if (i)
		return 0;
	lseek(pd.fd, 0, SEEK_SET);
	rd_dir_fd(&pd, pd.fd);
	while ((pid = rd_pid_next(&pd)) > 0)
		one(pid);
	return pid < 0 ? mb_fail_errno("/proc", -pid) : 0;
}

static int pick(const char *t, int n, const char *s)
{
	int i;
	for (i = 0; i < n && strcmp(nth(t, i), s); i++)
		;
	return i < n ? i : -1;
}

static int add_rule(const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (!eq || eq == spec || nrules == SR_MAX_RULES)
		return -1;
	rules[nrules].name = spec;
	rules[nrules].nlen = eq - spec;
	rules[nrules++].glob = eq + 1;
	return 0;
}

static int options(int argc, char **argv)
{
	struct optst st = { 0 };
	const char *p, *e;
	uint64_t v;
	int id, i;

	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		p = st.arg;
		switch (id) {
		case OPT_ERR:
			return 2;
		case O_PID:
			if (!*p)
				goto bad;
			for (e = p + strlen(p); p < e; p++) {
				if (sc_u64(&p, e, &v) != SC_OK || !v || v > 0x7fffffff || (p < e && *p != ',') ||
				    npids == SR_MAX_PIDS)
					goto bad;
				for (i = 0; i < (int)npids && pids[i] != v; i++)
					;
				if (i == (int)npids)
					pids[npids++] = v;
			}
			break;
		case O_USER:
			user_arg = p;
			break;
		case O_SORT:
		case O_GROUP:   /* a name of its list: the index (-g's first is none) */
			i = pick(id == O_SORT ? keyname : groupname, id == O_SORT ? NKEY : G_CAT + 1, p);
			if (i < (id == O_GROUP))
				goto bad;
			if (id == O_SORT)
				key = i;
			else
				group = i;
			break;
		case O_REV:
			rev = 1;
			break;
		case O_TOP:
		case O_MAPS:
			if (cli_u64(id == O_TOP ? "-n" : "-M", p, &v) || !v || (id == O_MAPS && v > 0x7fffffff))
				goto bad;
			if (id == O_MAPS) {
				mpid = v;
				view = V_MAP;
			} else {
				/* more than there can be processes: all of them
				 * (the row cap is 32 bits) */
				topn = v < -1u ? v : -1u;
			}
			break;
		case O_CATS:
			if (strcmp(p, "chromeos"))
				goto bad;
			p = chromeos;   /* its rules, as -c would add them */
			/* fall through */
		case O_CAT:
			do
				if (add_rule(p))
					goto bad;
			while (id == O_CATS && *(p += strlen(p) + 1));
			break;
		case O_UNSORTED:
			stream = 1;
			break;
		case O_SWAP:
			view = V_SWAP;
			break;
		case O_OBJS:
			view = V_LIST;
			break;
		case O_VERB:
			verbose = 1;
			break;
		}
	}
	if (st.ind < argc) {
		p = argv[st.ind];
		goto bad;
	}
	if (nrules && !group)
		group = G_CAT;
	rules[nrules].name = "other";
	rules[nrules].nlen = 5;
	if (view == V_MAP) {
		pids[0] = mpid;
		npids = 1;
	}
	if (view >= V_MAP)
		group = 0;
	verbose &= view == V_LIST;
	return 0;
bad:
	mb_warn(p, "bad value");
	return cli_usage_error(usage);
}

static void owarn(void)
{
	int i;
	for (i = 0; i < O_N; i++)
		if (ovf[i])
			warnn(ovf[i], nth(ovfname, i), "beyond a bound of the mapping views (see the README)");
}

int smaps_rollup_main(int argc, char **argv)
{
	struct diag d;
	unsigned i;
	int rc;

	cli_init("smaps-rollup");
	if ((rc = options(argc, argv)) || (rc = cli_root()))
		return rc;
	if (user_arg) {
		uint64_t v;
		if (sc_u64_all(user_arg, strlen(user_arg), &v) == SC_OK)
			want_uid = v;
		else if (pw_uid(user_arg, &want_uid))
			return mb_fail(user_arg, "no such user");
	}
	if ((rc = rd_dir_open(&pd, "/proc")) < 0)
		return mb_fail_errno("/proc", -rc);
	mounts();
	rc = meminfo_read(&mi);
	mb_warn_diag(&mi.diag);
	mb_warn_diag(rd_diag(&d, "/proc/meminfo", rc, 0));
	if (view == V_SWAP) {   /* first pass: every process, whatever -p and -U select */
		pass1 = 1;
		rc = scan();
		pass1 = 0;
		if (rc)
			return rc;
	}
	if (view >= V_MAP) {
		memcpy(U.ob.pool, "(other objects)", pused = 15);
		U.ob.o[SR_MAX_OBJS].kind = PK_OTHER;
		U.ob.o[SR_MAX_OBJS].nlen = 15;
		if ((rc = scan()))
			return rc;
		if (view == V_MAP && !cov[C_PROCS])
			return mb_fail(w_nomatch, 0);
		if (merr && view == V_MAP) {
			char b[48];
			return mb_fail_errno(ppath(b, mpid, "/smaps"), merr);
		}
		objects();
		owarn();
		return 0;
	}
	stream = fmt != FMT_PROM && group != G_TREE &&
	         (stream || (key == K_PID && !rev && !npids && rd_live()));
	cap = stream || topn < SR_MAX_ROWS ? topn : SR_MAX_ROWS;
	for (i = 0; group == G_CAT && i <= nrules; i++)
		grp_get(rules[i].name, rules[i].nlen);
	if (fmt == FMT_TABLE && group < G_USER) {
		put(group ? "    PID USER          PSS      USS      RSS     SWAP  SWAPPSS  TREEPSS  TREEUSS COMMAND\n"
		          : "    PID USER          PSS      USS      RSS     SWAP  SWAPPSS COMMAND\n");
	}
	if (fmt == FMT_JSON || fmt == FMT_KV) {
		t_obj(0);
		t_arr(fig);
	}
	if ((rc = scan()))
		return rc;
	if (!stream) {
		isort(ord, nrows, SO_ROWS);
		if (group == G_TREE)
			tree();
		for (i = 0; i < nrows && fmt != FMT_PROM && !(fmt == FMT_TABLE && group >= G_USER); i++)
			emit(&U.row[ord[i]], dep[i], group == G_TREE ? gs.sub[ord[i]] : 0);
	}
	owarn();
	if (cov[C_DROPPED] && !stream && topn > SR_MAX_ROWS)
		warnn(cov[C_DROPPED], fig, "not listed: more than SR_MAX_ROWS; counted in the totals");
	if (cov[C_OTHER])
		warnn(cov[C_OTHER], fig, "grouped as (other): more than SR_MAX_GROUPS groups");
	if (group >= G_USER) {
		ngrp += !!gs.grp[SR_MAX_GROUPS].f[0];
		isort(gord, ngrp, SO_GROUPS);
	}
	if (fmt == FMT_TABLE) {
		table_end();
	} else if (fmt == FMT_PROM) {
		prom();
	} else {
		t_end();
		t_obj("total");
		sums(tot, 0, F_N + 1);
		t_end();
		if (group)
			t_cstr("group_by", nth(groupname, group));
		if (group >= G_USER) {
			t_arr("groups");
			for (i = 0; i < ngrp; i++) {
				const struct grp *g = &gs.grp[gord[i]];
				t_elem(0);
				t_cstr("name", g->key);
				sums(g->f, 0, F_N + 1);
				t_end();
			}
			t_end();
		}
		jtail();
	}
	if ((npids || user_arg) && !cov[C_PROCS])
		return mb_fail(w_nomatch, 0);
	return 0;
}
