/* smaps-rollup: who really uses the RAM.  Per process PSS, USS, RSS, Swap
 * and SwapPss from /proc/PID/smaps_rollup (smaps before 4.14, status where
 * neither is readable), identity from /proc/PID/status and cmdline, user
 * names from /etc/passwd, MemTotal from /proc/meminfo. */
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
#include "rd.h"
#include "sc.h"

static const char usage[] =
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
	"      --unsorted        list processes as read, drop none\n";

enum { O_UNSORTED = OPT_APPLET };
static const struct opt opts[] = {
	CLI_COMMON,
	{ "pid", 'p', 1, 'p' }, { "user", 'U', 1, 'U' }, { "sort", 's', 1, 's' },
	{ "reverse", 'r', 0, 'r' }, { "top", 'n', 1, 'n' }, { "group", 'g', 1, 'g' },
	{ "category", 'c', 1, 'c' }, { "categories", 'C', 1, 'C' },
	{ "unsorted", 0, 0, O_UNSORTED },
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

/* A process row: sizes in KiB as the kernel prints them (4 TiB at most per
 * field; beyond is saturated and counted), to keep SR_MAX_ROWS small.  A
 * row has the rollup keys, or (source status) status's counters from
 * kb[0]: key PR_VmRSS + i is in kb[i]. */
struct row {
	uint32_t kb[PR_NROLL];
	uint32_t have;
	unsigned pid, ppid, uid;
	unsigned char src, cat;
	char name[SR_NAME_MAX];
	char cmd[SR_CMD_MAX];
};
static struct row rows[SR_MAX_ROWS], cur;
static unsigned nrows, cap;
static unsigned short ord[SR_MAX_ROWS], dep[SR_MAX_ROWS], gord[SR_MAX_GROUPS + 1];

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

static struct { const char *name, *glob; size_t nlen; } rules[SR_MAX_RULES];
static unsigned nrules;
static const char chromeos[] =
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
static uint64_t topn;
static char fb[SR_READ_MAX];
static struct meminfo mi;

static unsigned short par[SR_MAX_ROWS], tix[SR_MAX_ROWS];
#define NIL 0xffff

/* Size m of a row in bytes; *has: the kernel printed it. */
/* String i of a list packed back to back ("a\0b"). */
static const char *nth(const char *s, int i)
{
	while (i--)
		s += strlen(s) + 1;
	return s;
}

static uint64_t rv(const struct row *r, int m, int *has)
{
	int k = r->src == S_STATUS ? mfb[m] - PR_NROLL : mkey[m];
	uint64_t v = r->kb[k];

	if (k == PR_Private_Clean)
		v += (uint64_t)r->kb[PR_Private_Dirty] + r->kb[PR_Private_Hugetlb];
	*has = r->have >> k & 1;
	return *has ? v << 10 : 0;
}

/* The same where absent counts as 0: sorting and sums. */
static uint64_t rs(const struct row *r, int m)
{
	int has;
	return rv(r, m, &has);
}

static uint64_t fv(const uint64_t *f, int i) { return i < F_N ? f[i] : sat_add(f[1], f[5]); }

static int sgn(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/* Row order: < 0 when a comes first. */
static int cmp(const struct row *a, const struct row *b)
{
	int d = key == K_USER ? sgn(a->uid, b->uid) : key == K_NAME ? strcmp(a->name, b->name) :
	        key == K_PID ? 0 : sgn(rs(b, key), rs(a, key));
	if (!d)
		d = sgn(a->pid, b->pid);
	return rev ? -d : d;
}

static int rcmp(unsigned a, unsigned b) { return cmp(&rows[a], &rows[b]); }

static int gcmp(unsigned a, unsigned b)
{
	const struct grp *x = &gs.grp[a], *y = &gs.grp[b];
	int m = key < 5 ? key + 1 : 1, d = 0;
	if (key != K_USER && key != K_NAME)
		d = sgn(y->f[m], x->f[m]);
	if (!d)
		d = strcmp(x->key, y->key);
	return rev ? -d : d;
}

static int tcmp(unsigned a, unsigned b)
{
	int d = sgn(gs.sub[b][1], gs.sub[a][1]);
	return d ? d : sgn(rows[a].pid, rows[b].pid);
}

static void isort(unsigned short *ix, unsigned n, int (*c)(unsigned, unsigned))
{
	unsigned i, j, t;

	for (i = 1; i < n; i++) {
		t = ix[i];
		for (j = i; j && c(ix[j - 1], t) > 0; j--)
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

static void warnn(unsigned long n, const char *why)
{
	char b[40];
	memcpy(b + u64_str(b, n), " processes", 11);
	mb_warn(b, why);
}

/* ---- reading one process ---- */

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
	static struct pr_mem m;
	const struct pr_mem *pm = &m;
	char path[24] = "/proc/";
	int dfd, k = -1, trunc, src = S_ROLLUP, sat = 0, off = 0;
	uint32_t have;
	long n;
	size_t i;

	path[6 + u64_str(path + 6, pid)] = 0;
	dfd = rd_open(path, O_RDONLY | O_DIRECTORY);
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
		pr_rollup(fb, n, &m);
	if (n == -ENOENT) {   /* before 4.14, or not captured */
		int fd = rd_openat(dfd, "smaps", O_RDONLY);
		src = S_SMAPS;
		n = fd < 0 ? fd : pr_smaps(fd, &m, fb, sizeof fb);
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
	memset(&cur, 0, sizeof cur);
	cur.pid = pid;
	cur.ppid = st.ppid;
	cur.uid = st.uid;
	cur.src = src;
	cur.have = have >> off;
	trunc = st.name_cut;
	for (i = 0; i < PR_NROLL && i + off < PR_NSIZE; i++) {
		uint64_t v = pm->v[i + off] >> 10;
		cur.kb[i] = v > UINT32_MAX ? UINT32_MAX : v;
		sat |= v > UINT32_MAX;
	}
	cov[C_SAT] += sat || pm->ovf;
	cov[C_APPROX] += src == S_STATUS;
	memcpy(cur.name, st.name, sizeof cur.name);
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
	for (cur.cat = 0; cur.cat < nrules && !fnm_match(rules[cur.cat].glob, fb, n); cur.cat++)
		;
	i = n;
	if (i >= SR_CMD_MAX) {   /* cut at a character boundary */
		trunc = 1;
		for (i = SR_CMD_MAX - 1; i && (fb[i] & 0xc0) == 0x80; i--)
			;
	}
	memcpy(cur.cmd, fb, i);
	cov[C_TRUNC] += trunc;
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

	out_c(o, ' ');
	if (!has) {
		out_s(o, "       -");
		return;
	}
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
		out_c(fo, ' ');
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
		out_c(fo, ' ');
		tb_str(u, 8);
		for (m = 0; m < 5; m++) {
			v = rv(r, m, &has);
			cell(v, has, r->src == S_STATUS);
		}
		for (m = 1; s && m < 3; m++)
			cell(s[m], 1, 0);
		out_pad(fo, 0, 1 + 2 * (depth < 20 ? depth : 20));
		out_safe(fo, r->cmd, strlen(r->cmd));
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
		out_c(fo, ' ');
		out_s(fo, tb_unit());
	}
}

static void table_end(void)
{
	unsigned i;

	if (group < G_USER) {
		tb_u64(tot[0], 7);
		out_s(fo, " procs   ");
		sums(tot, 1, F_N);
	} else {
		out_s(fo, "  PROCS");
		out_s(fo, cols);
		out_s(fo, "    TOTAL GROUP\n");
		for (i = 0; i < ngrp; i++) {
			const struct grp *g = &gs.grp[gord[i]];
			tb_u64(g->f[0], 7);
			sums(g->f, 1, F_N + 1);
			out_safe(fo, g->key, strlen(g->key));
			tb_nl();
		}
		tb_u64(tot[0], 7);
		sums(tot, 1, F_N + 1);
	}
	out_s(fo, "total (sizes in ");
	out_s(fo, *tb_unit() ? tb_unit() : "IEC units");
	out_s(fo, ")\ncoverage:");
	for (i = 0; i < C_N; i++) {
		const char *c = nth(covname, i);
		if (i > C_DROPPED && !cov[i])
			continue;
		out_s(fo, i ? ", " : " ");
		out_u64(fo, cov[i]);
		out_c(fo, ' ');
		for (; *c; c++)
			out_c(fo, *c == '_' ? ' ' : *c);
	}
	out_s(fo, "\nPSS ");
	tsize(tot[1]);
	out_s(fo, " of MemTotal ");
	if (MI_HAS(&mi, MI_MemTotal) && mi.v[MI_MemTotal]) {
		uint64_t t = mi.v[MI_MemTotal], p = tot[1];
		tsize(t);
		out_s(fo, " = ");
		out_fix(fo, p < UINT64_MAX / 10000 ? p * 10000 / t : p / (t / 10000 + 1), 2);
		out_c(fo, '%');
	} else {
		out_c(fo, '-');
	}
	tb_nl();
}

/* "membox_" PREFIX FIGURE "_bytes" ("processes": no unit) into b. */
static const char *pname(char *b, const char *prefix, int i)
{
	char *e = b;
	const char *x;

	for (x = prefix; *x;)
		*e++ = *x++;
	for (x = nth(fig, i); *x;)
		*e++ = *x++;
	memcpy(e, i ? "_bytes" : "", i ? 7 : 1);
	return b;
}

static void psums(const char *prefix, int grouped, int i)
{
	char name[40];
	unsigned j;

	p_type(pname(name, prefix, i), "gauge", i ? "Memory summed over the processes." : "Processes counted.");
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

static void prom(void)
{
	char b[24], name[40];
	unsigned i;
	int m, has;
	uint64_t v;

	for (m = 0; m < 5; m++) {
		p_type(pname(name, "process_", m + 1), "gauge", "Memory of a process (PSS, USS: see the README).");
		for (i = 0; i < nrows; i++) {
			const struct row *r = &rows[ord[i]];
			v = rv(r, m, &has);
			if (!has)
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
	p_type("scan_processes", "gauge", "Processes by what the scan found.");
	for (i = 0; i < C_N; i++) {
		p_start("scan_processes");
		p_labc("kind", nth(covname, i));
		p_u64(cov[i]);
	}
	if (MI_HAS(&mi, MI_MemTotal)) {
		p_type("mem_total_bytes", "gauge", "MemTotal of /proc/meminfo.");
		p_start("mem_total_bytes");
		p_u64(mi.v[MI_MemTotal]);
	}
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
			if (j != i && rows[j].pid == rows[i].ppid) {
				for (a = j; a != NIL && a != i; a = par[a])
					;
				if (a == NIL)   /* no cycle in a hostile capture */
					par[i] = j;
				break;
			}
	}
	for (i = 0; i < nrows; i++)
		for (a = i; a != NIL; a = par[a])
			add(gs.sub[a], &rows[i]);
	isort(tix, nrows, tcmp);
	walk(NIL, 0);
}

/* ---- the scan ---- */

static void one(unsigned pid)
{
	unsigned i, w;
	int k = read_proc(pid);
	const char *g = cur.name;
	char b[24];

	if (k >= 0)
		cov[k]++;
	if (k != -1)
		return;
	cov[C_PROCS]++;
	add(tot, &cur);
	if (group == G_USER)
		g = uname(cur.uid, b);
	if (group == G_CAT)
		g = cur.cat < nrules ? rules[cur.cat].name : "other";
	if (group >= G_USER)
		add(grp_get(g, group == G_CAT && cur.cat < nrules ? rules[cur.cat].nlen : strlen(g)), &cur);
	if (stream) {
		if (nrows < cap)
			emit(&cur, 0, 0), nrows++;
		else
			cov[C_DROPPED]++;
		return;
	}
	if (nrows < cap) {
		rows[nrows++] = cur;
		return;
	}
	cov[C_DROPPED]++;   /* keep the top rows: replace the last one */
	for (w = 0, i = 1; i < nrows; i++)
		if (cmp(&rows[i], &rows[w]) > 0)
			w = i;
	if (nrows && cmp(&cur, &rows[w]) < 0)
		rows[w] = cur;
}

static int scan(void)
{
	static struct rd_dir d;
	unsigned i;
	long pid;
	int e;

	for (i = 0; i < npids; i++)
		one(pids[i]);
	if (npids)
		return 0;
	if ((e = rd_dir_open(&d, "/proc")) < 0)
		return mb_fail_errno("/proc", -e);
	while ((pid = rd_pid_next(&d)) > 0)
		one(pid);
	rd_dir_close(&d);
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
			for (p = chromeos; *p; p += strlen(p) + 1)
				if (add_rule(p))
					goto bad;
			break;
		case O_UNSORTED:
			stream = 1;
			break;
		}
	}
	if (st.ind < argc) {
		p = argv[st.ind];
		goto bad;
	}
	if (nrules && !group)
		group = G_CAT;
	return 0;
bad:
	mb_warn(p, "bad value");
	return cli_usage_error(usage);
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
	meminfo_read(&mi);
	stream = fmt != FMT_PROM && group != G_TREE &&
	         (stream || (key == K_PID && !rev && !npids && rd_live()));
	cap = topn && (topn < SR_MAX_ROWS || stream) ? topn : stream ? -1u : SR_MAX_ROWS;
	for (i = 0; group == G_CAT && i <= nrules; i++)
		grp_get(i < nrules ? rules[i].name : "other", i < nrules ? rules[i].nlen : 5);
	if (fmt == FMT_TABLE && group < G_USER) {
		out_s(fo, "    PID USER    ");
		out_s(fo, cols);
		out_s(fo, group ? "  TREEPSS  TREEUSS COMMAND\n" : " COMMAND\n");
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
		isort(ord, nrows, rcmp);
		if (group == G_TREE)
			tree();
		for (i = 0; i < nrows && fmt != FMT_PROM && !(fmt == FMT_TABLE && group >= G_USER); i++)
			emit(&rows[ord[i]], dep[i], group == G_TREE ? gs.sub[ord[i]] : 0);
	}
	if (cov[C_DROPPED] && !stream && (!topn || topn > SR_MAX_ROWS))
		warnn(cov[C_DROPPED], "not listed: more than SR_MAX_ROWS; counted in the totals");
	if (cov[C_OTHER])
		warnn(cov[C_OTHER], "grouped as (other): more than SR_MAX_GROUPS groups");
	if (group >= G_USER) {
		for (i = 0; i <= ngrp; i++)
			gord[i] = i;
		ngrp += !!gs.grp[SR_MAX_GROUPS].f[0];
		isort(gord, ngrp, gcmp);
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
		t_obj("coverage");
		for (i = 0; i < C_N; i++)
			t_u64(nth(covname, i), cov[i]);
		t_end();
		t_opt("mem_total", MI_HAS(&mi, MI_MemTotal), mi.v[MI_MemTotal]);
		t_done();
	}
	if ((npids || user_arg) && !cov[C_PROCS])
		return mb_fail("no matching process", 0);
	return 0;
}
