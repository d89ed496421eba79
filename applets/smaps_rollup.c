/* smaps-rollup: who really uses the RAM.  Per process PSS, USS, RSS, Swap
 * and SwapPss from /proc/PID/smaps_rollup (smaps before 4.14, status where
 * neither is readable), identity from /proc/PID/status and cmdline, user
 * names from /etc/passwd, MemTotal from /proc/meminfo.  The mapping views
 * stream /proc/PID/smaps (-S, -M, -l), with /proc/PID/mountinfo and
 * /proc/sysvipc/shm. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "fnm.h"
#include "meminfo.h"
#include "out.h"
#include "passwd.h"
#include "proc.h"
#include "mountinfo.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"

static const char *const usage = TXT(smaps_rollup,
	"Usage: smaps-rollup [OPTIONS]\n\n"
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
	"  -v, --verbose         -l: the top processes of each object\n");

enum { O_UNSORTED = OPT_APPLET };
static const struct opt opts[] = {
	CLI_COMMON,
	{ "pid", 'p', 1, 'p' }, { "user", 'U', 1, 'U' }, { "sort", 's', 1, 's' },
	{ "reverse", 'r', 0, 'r' }, { "top", 'n', 1, 'n' }, { "group", 'g', 1, 'g' },
	{ "category", 'c', 1, 'c' }, { "categories", 'C', 1, 'C' },
	{ "unsorted", 0, 0, O_UNSORTED }, { "shared-swap", 'S', 0, 'S' },
	{ "maps", 'M', 1, 'M' }, { "objects", 'l', 0, 'l' }, { "verbose", 'v', 0, 'v' },
	{ 0, 0, 0, 0 }
};

/* The sort keys; the first five are the sums of totals and groups. */
enum { M_PSS, M_USS, M_RSS, M_SWAP, M_SWPPSS, M_ANON, M_FILE, M_SHMEM, K_PID, K_USER, K_NAME, NKEY };
static const char keyname[] = "pss\0uss\0rss\0swap\0swappss\0anon\0file\0shmem\0pid\0user\0name";
/* Each size's kernel key, and status's counter where only status is readable
 * (USS is Private_Clean + Private_Dirty + Private_Hugetlb, else RssAnon). */
static const unsigned char mkey[8] = { PR_Pss, PR_Private_Clean, PR_Rss, PR_Swap, PR_SwapPss,
                                       PR_Pss_Anon, PR_Pss_File, PR_Pss_Shmem };
static const unsigned char mfb[8] = { PR_VmRSS, PR_RssAnon, PR_VmRSS, PR_VmSwap, PR_VmSwap,
                                      PR_RssAnon, PR_RssFile, PR_RssShmem };

/* G_USER and after: the views of group sums */
enum { G_NONE, G_TREE, G_USER, G_NAME, G_CAT };
static const char groupname[] = "\0tree\0user\0name\0category";
enum { S_ROLLUP, S_SMAPS, S_STATUS };
static const char srcname[] = "rollup\0smaps\0status";

/* What the scan saw; the first entries are the coverage the issue names. */
enum { C_PROCS, C_KTHR, C_APPROX, C_VANISHED, C_INACC, C_DROPPED, C_TRUNC, C_SAT, C_OTHER, C_N };
static const char covname[] =
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
static const char fig[] = "processes\0pss\0uss\0rss\0swap\0swap_pss\0pss_total";
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
static const char *const chromeos = TX(
	"crosvm_arcvm=/usr/bin/crosvm run*/arcvm.sock*\0"
	"crosvm_other=/usr/bin/crosvm*\0"
	"chrome_renderer=/opt/google/chrome/chrome*--type=renderer*\0"
	"chrome_gpu=/opt/google/chrome/chrome*--type=gpu-process*\0"
	"chrome_other=/opt/google/chrome/chrome*--type=*\0"
	"chrome_browser=/opt/google/chrome/chrome*\0");

static unsigned pids[SR_MAX_PIDS], npids;
static unsigned long want_uid;
static const char *user_arg;
static int key = M_PSS, rev, group, stream;
static uint64_t topn;
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
static const char ohdr[] = "SIZE\0RSS\0PSS\0PRV_CLN\0PRV_DRT\0SHR_CLN\0SHR_DRT\0SWAP\0SWAPPSS";
#define OMASK (view == V_MAP ? 0x1ff : 0x186)   /* -l: RSS PSS SWAP SWAPPSS */
struct top { uint32_t pid, kb; char name[SR_NAME_MAX]; };
struct obj {
	uint64_t ino, f[ON];    /* f: bytes */
	uint32_t dev;           /* major << 20 | minor */
	uint32_t regions, procs, last, cur;   /* last: the process read last, cur: its PSS in KiB */
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
static const char ovfname[] = "other_regions\0names_cut\0long_lines\0untracked_swap\0tmpfs_mounts\0sysv_bad";
static unsigned long ovf[O_N];
static int merr;   /* -M: errno of reading smaps */
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
struct skey { uint64_t v, t; const char *s; size_t n; };

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
		if (key == K_USER)
			k->t |= (uint64_t)r->uid << 32;
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

static void isort(unsigned short *ix, unsigned n, int so)
{
	unsigned i, j, t;

	sortof = so;
	for (i = 1; i < n; i++) {
		t = ix[i];
		for (j = i; j && cmp(ix[j - 1], t) > 0; j--)
			ix[j] = ix[j - 1];
		ix[j] = t;
	}
}

static const char *uname(unsigned long uid, char *b)
{
	const char *s = pw_name(uid);
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

/* A mapping's figures are complete: add them where the view wants them. */
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
				sspss += u64_div(v[PR_Swap], sw[i].n);
			else if (!pass1)
				ovf[O_UNTRACKED]++;
		}
	} else if (mc.open) {
		struct obj *o = &U.ob.o[mc.oi];
		for (i = 0; i < ON; i++)
			o->f[i] = sat_add(o->f[i], v[okey[i]]);
		o->regions++;
		if (o->last != pid) {
			o->last = pid;
			o->cur = 0;
			o->procs++;
		}
		o->cur += v[PR_Pss] >> 10;
		offer(o, pid);
	}
	memset(&mm, 0, sizeof mm);
	mc.open = 0;
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
			mc.open = 1;
			mc.sh = 0;
			mc.oi = SR_MAX_OBJS;
		}
		if (pr_maphdr(s, n, &h)) {
			mflush(pid);
			mc.open = 1;
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
	char path[48];
	const char *v;
	size_t n;
	int fd;

	if ((fd = rd_lines_open(&r, ppath(path, mpid, "/mountinfo"))) < 0)
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
 * coverage counter it belongs to. */
static int read_proc(unsigned pid)
{
	static struct pr_status st;
	struct pr_mem *const m = &mm;   /* shared: maps() starts it anew at its first mapping */
	const struct pr_mem *pm = m;
	int dfd = pdir(pid), k = -1, trunc, src = S_ROLLUP, sat = 0, off = 0;
	uint32_t have;
	long n;
	size_t i;

	if (dfd < 0)
		return gone(dfd) ? C_VANISHED : C_INACC;
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
	for (i = 0; i < PR_NROLL && i + off < PR_NSIZE; i++) {
		uint64_t v = pm->v[i + off] >> 10;
		cur->kb[i] = v > UINT32_MAX ? UINT32_MAX : v;
		sat |= v > UINT32_MAX;
	}
	cov[C_SAT] += sat || pm->ovf;
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
	for (cur->cat = 0; cur->cat < nrules && !fnm_match(rules[cur->cat].glob, fb, n); cur->cat++)
		;
	i = n;
	if (i >= SR_CMD_MAX) {   /* cut at a character boundary */
		trunc = 1;
		for (i = SR_CMD_MAX - 1; i && (fb[i] & 0xc0) == 0x80; i--)
			;
	}
	memcpy(cur->cmd, fb, i);
	cov[C_TRUNC] += trunc;
	if (view) {
		if ((n = maps(dfd, pid)) < 0)
			merr = -n;
		cur->ss = sspss >> 10 > UINT32_MAX ? UINT32_MAX : sspss >> 10;
	}
	k = -1;
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

static const char cols[] = "      PSS      USS      RSS     SWAP  SWAPPSS";

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
		t_u64("shared_swap_pss", (uint64_t)r->ss << 10);
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

	put(TX("total (sizes in "));
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
		put(TX(", other users' processes hidden ("));
		put(hidden);
		putch(')');
	}
	tb_nl();
}

static void table_end(void)
{
	unsigned i;

	if (group < G_USER) {
		tb_u64(tot[0], 7);
		put(" procs   ");
		sums(tot, 1, F_N);
	} else {
		put("  PROCS");
		put(cols);
		put(TX("    TOTAL GROUP\n"));
		for (i = 0; i < ngrp; i++) {
			const struct grp *g = &gs.grp[gord[i]];
			tb_u64(g->f[0], 7);
			sums(g->f, 1, F_N + 1);
			putsafe(g->key);
			tb_nl();
		}
		tb_u64(tot[0], 7);
		sums(tot, 1, F_N + 1);
	}
	covline();
	put("PSS ");
	tsize(tot[1]);
	put(" of MemTotal ");
	if (MI_HAS(&mi, MI_MemTotal) && mi.v[MI_MemTotal]) {
		uint64_t t = mi.v[MI_MemTotal], p = tot[1];
		tsize(t);
		put(" = ");
		out_fix(fo, p < UINT64_MAX / 10000 ? u64_div(p * 10000, t) : u64_div(p, u64_div(t, 10000) + 1), 2);
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

static void psums(const char *prefix, int grouped, int i)
{
	const char *name = pfam(prefix, nth(fig, i), i, i ? "Memory summed over the processes." : "Processes counted.");
	unsigned j;

	for (j = 0; j < (grouped ? ngrp : 1); j++) {
		const struct grp *g = &gs.grp[gord[j]];
		p_start(name);
		if (grouped) {
			p_labc("by", nth(groupname, group));
			p_labc("group", g->key);
		}
		p_u64(fv(grouped ? g->f : tot, i));
	}
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
	int m, has;
	uint64_t v;

	for (m = 0; m < 5 + (view == V_SWAP); m++) {
		name = pfam("process_", m < 5 ? nth(fig, m + 1) : "shared_swap_pss", 1,
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
	for (m = 0; m <= F_N; m++) {
		if (group >= G_USER)
			psums("group_", 1, m);
		psums("total_", 0, m);
	}
	p_type("scan_processes", "gauge", TX("Processes by what the scan found."));
	for (i = 0; i < C_N; i++) {
		p_start("scan_processes");
		p_labc("kind", nth(covname, i));
		p_u64(cov[i]);
	}
	p_type("scan_hidden", "gauge", TX("1: /proc hides other users' processes (hidepid)."));
	p_start("scan_hidden");
	if (*hidden)
		p_labc("option", hidden);
	p_u64(!!*hidden);
	if (MI_HAS(&mi, MI_MemTotal)) {
		p_type("mem_total_bytes", "gauge", TX("MemTotal of /proc/meminfo."));
		p_start("mem_total_bytes");
		p_u64(mi.v[MI_MemTotal]);
	}
}

/* ---- the object views (-M, -l) ---- */

/* A number: a table cell after a blank, or a json/kv member. */
static void onum(const char *key, uint64_t v, int w)
{
	if (fmt != FMT_TABLE) {
		t_u64(key, v);
		return;
	}
	putch(' ');
	tb_u64(v, w);
}

/* An object: a table line or a json/kv element; or (tot) the totals,
 * whose procs are the processes read: the table's last line, the json
 * "total". */
static void oemit(const struct obj *o, int tot)
{
	const char *k = nth(PK_NAMES, o->kind), *nm = U.ob.pool + o->name;
	const struct top *t, *te = o->top + (verbose ? SR_MAX_CONSUMERS : 0);
	int tab = fmt == FMT_TABLE, i;

	if (tot && !tab) {
		t_obj("total");
	} else if (!tab) {
		t_elem(0);
		t_cstr("kind", k);
		t_str("object", nm, o->nlen);
		if (view == V_MAP)
			t_bool("shared", o->shared);
	}
	for (i = 0; tab && i < ON; i++)
		if (OMASK >> i & 1)
			cell(o->f[i], 1, 0);
	if (view == V_LIST)
		onum("processes", o->procs, 6);
	onum("regions", o->regions, 7);
	if (tab && tot) {
		put(view == V_MAP ? "   " : " ");
		covline();
		return;
	}
	if (tab) {
		if (view == V_MAP)
			put(o->shared ? " s" : " p");
		putch(' ');
		tb_str(k, 11);
		putch(' ');
		out_safe(fo, nm, o->nlen);
	} else {
		t_obj("rollup");
		for (i = 0; i < ON; i++)
			t_u64(pr_key(okey[i]), o->f[i]);
		t_end();
		if (verbose && !tot)
			t_arr("consumers");
	}
	for (t = o->top; t < te && t->pid; t++) {
		if (tab) {
			put(t == o->top ? "\n    top: " : ", ");
			out_u64(fo, t->pid);
			putch(' ');
			putsafe(t->name);
			putch(' ');
			tb_size((uint64_t)t->kb << 10, 0);
			continue;
		}
		t_elem(0);
		t_u64("pid", t->pid);
		t_cstr("name", t->name);
		t_u64("pss", (uint64_t)t->kb << 10);
		t_end();
	}
	if (tab) {
		tb_nl();
		return;
	}
	if (verbose && !tot)
		t_end();
	t_end();
}

static const char *const scol[6] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
static const char skey[] = "id\0owner\0attaches\0size\0rss\0swap";

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
			put(TX("\n   SHMID   OWNER  ATTACH     SIZE      RSS     SWAP\n"));
		if (fmt != FMT_TABLE)
			t_elem(0);
		for (i = 0; i < 6; i++)
			if (fmt != FMT_TABLE)
				t_opt(nth(skey, i), it.have >> i & 1, v[i]);
			else if (i < 3)
				onum(0, v[i], 7);
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

	for (i = 0; i < n; i++)
		U.ob.ord[i] = i;
	isort(U.ob.ord, n, SO_OBJS);
	if (o[SR_MAX_OBJS].regions)
		U.ob.ord[n++] = SR_MAX_OBJS;
	t->procs = tot[0];
	for (i = 0; i < n; i++) {
		t->regions += o[U.ob.ord[i]].regions;
		for (j = 0; j < ON; j++)
			t->f[j] = sat_add(t->f[j], o[U.ob.ord[i]].f[j]);
	}
	if (topn && topn < n)
		n = topn;
	if (fmt == FMT_PROM) {
		for (j = 0; j < ON + 1u + (view == V_LIST); j++) {
			name = pfam("object_", j < ON ? pr_key(okey[j]) : j == ON ? "regions" : "processes", j < ON,
			            "An object's mappings (smaps-rollup -M, -l in the README).");
			for (i = 0; i < n; i++) {
				const struct obj *b = &o[U.ob.ord[i]];
				p_start(name);
				if (view == V_MAP)
					p_labu("pid", cur->pid);
				p_labc("kind", nth(PK_NAMES, b->kind));
				p_lab("object", U.ob.pool + b->name, b->nlen);
				if (view == V_MAP)
					p_labc("shared", b->shared ? "true" : "false");
				p_u64(j < ON ? b->f[j] : j == ON ? b->regions : b->procs);
			}
		}
		for (j = 2; view == V_LIST && j < 6; j++)
			sysv(j);
		return;
	}
	if (fmt == FMT_TABLE) {
		for (i = 0; i < ON; i++)
			if (OMASK >> i & 1) {
				name = nth(ohdr, i);
				out_pad(fo, strlen(name), 9);   /* a blank, then in 8 */
				put(name);
			}
		put(view == V_MAP ? TX(" REGIONS M KIND        OBJECT\n") : TX("  PROCS REGIONS KIND        OBJECT\n"));
	} else {
		t_obj(0);
		if (view == V_MAP) {
			t_u64("pid", cur->pid);
			t_cstr("name", cur->name);
		}
		t_arr("objects");
	}
	for (i = 0; i < n; i++)
		oemit(&o[U.ob.ord[i]], 0);
	if (fmt != FMT_TABLE)
		t_end();
	oemit(t, 1);
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
		tix[i] = i;
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

	if (pass1) {   /* -S: count the mappings of shared objects with swap */
		if ((k = pdir(pid)) >= 0) {
			maps(k, pid);
			close(k);
		}
		return;
	}
	k = read_proc(pid);
	if (k >= 0)
		cov[k]++;
	if (k != -1)
		return;
	cov[C_PROCS]++;
	add(tot, cur);
	if (view >= V_MAP)
		return;
	if (group == G_USER)
		g = uname(cur->uid, b);
	if (group == G_CAT)
		add(grp_get(rules[cur->cat].name, rules[cur->cat].nlen), cur);
	else if (group >= G_USER)
		add(grp_get(g, strlen(g)), cur);
	if (stream) {
		if (nrows < cap)
			emit(cur, 0, 0), nrows++;
		else
			cov[C_DROPPED]++;
		return;
	}
	if (nrows < cap) {
		U.row[nrows++] = *cur;
		return;
	}
	cov[C_DROPPED]++;   /* keep the top rows: replace the last one */
	if (w == -1u)
		for (w = 0, i = 1; i < nrows; i++)
			if (cmp(i, w) > 0)
				w = i;
	if (nrows && cmp(SR_MAX_ROWS, w) < 0) {
		U.row[w] = *cur;
		w = -1u;
	}
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
		case 'p':
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
		case 'U':
			user_arg = p;
			break;
		case 's':
			if ((key = pick(keyname, NKEY, p)) < 0)
				goto bad;
			break;
		case 'r':
			rev = 1;
			break;
		case 'n':
			if (cli_u64("-n", p, &topn) || !topn)
				goto bad;
			/* more than there can be processes: all of them (the row
			 * cap is 32 bits) */
			if (topn > 0xffffffffu)
				topn = 0xffffffffu;
			break;
		case 'g':
			if ((group = pick(groupname, G_CAT + 1, p)) < 1)
				goto bad;
			break;
		case 'c':
			if (add_rule(p))
				goto bad;
			break;
		case 'C':
			if (strcmp(p, "chromeos"))
				goto bad;
			for (p = txt(chromeos); *p; p += strlen(p) + 1)
				if (add_rule(p))
					goto bad;
			break;
		case O_UNSORTED:
			stream = 1;
			break;
		case 'S':
			view = V_SWAP;
			break;
		case 'M':
			if (cli_u64("-M", p, &v) || !v || v > 0x7fffffff)
				goto bad;
			mpid = v;
			view = V_MAP;
			break;
		case 'l':
			view = V_LIST;
			break;
		case 'v':
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
			warnn(ovf[i], nth(ovfname, i), TX("beyond a bound of the mapping views (see the README)"));
}

int smaps_rollup_main(int argc, char **argv)
{
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
	rd_bad("/proc/meminfo", meminfo_read(&mi), 0);
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
			return mb_fail("no matching process", 0);
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
	cap = topn && (topn < SR_MAX_ROWS || stream) ? topn : stream ? -1u : SR_MAX_ROWS;
	for (i = 0; group == G_CAT && i <= nrules; i++)
		grp_get(rules[i].name, rules[i].nlen);
	if (fmt == FMT_TABLE && group < G_USER) {
		put(TX("    PID USER    "));
		put(cols);
		put(group ? TX("  TREEPSS  TREEUSS COMMAND\n") : " COMMAND\n");
	}
	if (fmt == FMT_JSON || fmt == FMT_KV) {
		t_obj(0);
		t_arr("processes");
	}
	if ((rc = scan()))
		return rc;
	if (!stream) {
		for (i = 0; i < nrows; i++)
			ord[i] = i;
		isort(ord, nrows, SO_ROWS);
		if (group == G_TREE)
			tree();
		for (i = 0; i < nrows && fmt != FMT_PROM && !(fmt == FMT_TABLE && group >= G_USER); i++)
			emit(&U.row[ord[i]], dep[i], group == G_TREE ? gs.sub[ord[i]] : 0);
	}
	owarn();
	if (cov[C_DROPPED] && !stream && (!topn || topn > SR_MAX_ROWS))
		warnn(cov[C_DROPPED], "processes", TX("not listed: more than SR_MAX_ROWS; counted in the totals"));
	if (cov[C_OTHER])
		warnn(cov[C_OTHER], "processes", TX("grouped as (other): more than SR_MAX_GROUPS groups"));
	if (group >= G_USER) {
		for (i = 0; i <= ngrp; i++)
			gord[i] = i;
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
		return mb_fail("no matching process", 0);
	return 0;
}
