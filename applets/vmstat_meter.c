/* vmstat-meter: what the kernel's memory manager did while a command ran
 * (or over time): counts and average / max / recent rates of /proc/vmstat
 * counters, the extremes of /proc/meminfo and the stall time of
 * /proc/pressure/memory, sampled at absolute deadlines of the monotonic clock. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "cli.h"
#include "diag.h"
#include "meminfo.h"
#include "mono.h"
#include "out.h"
#include "psi.h"
#include "rate.h"
#include "rd.h"
#include "sc.h"
#include "vmstat.h"

static const char *const usage = "Usage: vmstat-meter [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       vmstat-meter [OPTIONS] [-n COUNT] [-d SECONDS]\n\n"
	"/proc/vmstat counters since the start: COUNT (increase), AVG/s, MAX/s\n"
	"(between two samples) and RECENT/s (last -w periods); the lowest\n"
	"MemAvailable and MemFree, the highest swap used and anon + swap used, and\n"
	"the memory stall time (PSI).  '-' or null: the kernel has no such figure.\n\n"
	"COMMAND runs (no shell) to its exit; the report goes to stderr and its exit\n"
	"status (128+N: killed by signal N, 127: did not start) is ours.  SIGINT and\n"
	"SIGQUIT are left to it, SIGTERM is passed on.  Without: a line per sample\n"
	"until -n, -d, SIGINT or SIGTERM, then the summary.  SIGUSR1: the summary so\n"
	"far; SIGHUP: a new baseline.\n\n"
	"  -f, --fields=A,B   counters (default pgmajfault,pswpin,pswpout,oom_kill);\n"
	"                     +A,B: added to the list; at most 32\n"
	"  -i, --interval=S   seconds between samples (default 1, at least 0.01)\n"
	"  -w, --window=N     periods of the recent rate (default 10, 1 to 100)\n"
	"  -n, --count=N      stop after N samples (0: the baseline only)\n"
	"  -d, --duration=S   stop at the first sample S seconds after the start\n"
	"  -q, --quiet        no line per sample, only the summary\n"
	"  -O, --output=FILE  the report to FILE\n";

/* Numeric options: ids 1..4, index + 1 in num[], with their decimals. */
enum { O_INTERVAL = 1, O_WINDOW, O_COUNT, O_DURATION };

static const struct opt opts[] = {
	{ "interval", 'i', 1, O_INTERVAL }, { "window", 'w', 1, O_WINDOW },
	{ "count", 'n', 1, O_COUNT }, { "duration", 'd', 1, O_DURATION },
	{ "fields", 'f', 1, 'f' }, { "quiet", 'q', 0, 'q' }, { "output", 'O', 1, 'O' },
	{ 0, 0, 0, 0 }
};
static uint64_t num[4] = { 1000000, 10, UINT64_MAX, UINT64_MAX };
static const unsigned char ndec[4] = { 6, 0, 0, 6 };
#define ival num[0]
#define win ((unsigned)num[1])   /* 1 to VM_MAX_WINDOW */

/* a text used six times: one packed copy */
static const char *const vm_file = "/proc/vmstat";
static const char *const defaults[] = { "pgmajfault", "pswpin", "pswpout", "oom_kill" };
static const char *names[VM_MAX_FIELDS];
static unsigned nf = 4;

/* Since the baseline.  ctr[nf], ctr[nf + 1]: PSI some/full totals (us).
 * The ring holds the last window + 1 samples' time and counts. */
static char vbuf[MB_FILE_MAX];
static uint64_t val[VM_MAX_FIELDS + 2], inc[VM_MAX_FIELDS + 2];
static unsigned char have[VM_MAX_FIELDS + 2];
static struct rt_ctr ctr[VM_MAX_FIELDS + 2];
static uint64_t ring_t[VM_MAX_WINDOW + 1], ring_c[VM_MAX_WINDOW + 1][VM_MAX_FIELDS];
static unsigned rn, rh, truncated;
static uint64_t t0, tnow, dt, samples;
static const char *const mem_key = "min_available\0min_free\0max_swap_used\0max_process";
static uint64_t mem[4];
static unsigned mem_have;
static char **cmd;
static int cmd_status = -1, quiet, lined;

/* -f A,B or +A,B, split in place (argv is ours to write). */
static int fields(char *s)
{
	char *e, *c;
	unsigned i;

	if (*s == '+')
		s++;
	else
		nf = 0;
	for (;;) {
		if ((e = strchr(s, ',')))
			*e = 0;
		for (c = s; (*c >= 'a' && *c <= 'z') || *c == '_' || (*c >= '0' && *c <= '9'); c++)
			;
		if (*c || c == s)
			return mb_warn(s, "not a /proc/vmstat counter name"), -1;
		for (i = 0; i < nf && strcmp(names[i], s); i++)
			;
		if (i == nf) {
			if (nf == VM_MAX_FIELDS)
				return mb_warn("-f", "more than 32 counters (VM_MAX_FIELDS)"), -1;
			names[nf++] = s;
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* The meminfo keys of the memory figures. */
static const unsigned char mik[6] = {
	MI_MemAvailable, MI_MemFree, MI_SwapTotal, MI_SwapFree, MI_ActiveAnon, MI_InactiveAnon
};

/* vmstat (i 0), meminfo (1) or PSI (2) into vbuf: on the live kernel from
 * an fd opened once, as a read at offset 0 makes a /proc file anew (an open
 * and a close cost about as much as reading meminfo); in a captured tree
 * opened each time, as a new file may have been renamed over the old one. */
static long get(int i, const char *path, int *tr)
{
	static int fd[3] = { -1, -1, -1 };

	if (!rd_live())
		return rd_file(path, vbuf, sizeof vbuf, tr);
	if (fd[i] < 0)
		fd[i] = rd_open(path, O_RDONLY);
	return fd[i] < 0 ? fd[i] : rd_fd(fd[i], vbuf, sizeof vbuf, tr);
}

/* A captured vmstat (every sample) or the live one (at the baseline) is
 * checked whole once: every line "name N", N within 2^64, no NUL, and a
 * final newline.  The first damage is a warning naming the line. */
static void vcheck(const char *b, long n)
{
	static int warned;
	const char *p = b, *s, *nm;
	size_t l, nl;
	uint64_t v;
	unsigned long ln = 0;
	int rc;

	while (!warned && sc_line(&p, b + n, &s, &l))
		if (++ln, l && (!sc_namenum(s, l, &nm, &nl, &v, &rc) || rc == SC_OVF || memchr(s, 0, l)))
			warned = 1, mb_warn_line(vm_file, ln, "not 'name N' (N below 2^64): the line is not used");
	if (!warned && n && b[n - 1] != '\n')
		warned = 1, mb_warn(vm_file, "file ends in the middle of a line");
}

/* One sample: /proc/vmstat, PSI and meminfo, one read each from fds kept
 * open on the live kernel, where the wanted lines of vmstat are looked for
 * first where they were the last time.  In a captured tree, PSI
 * goes through psi_read and meminfo also through meminfo_read, as in the
 * other applets, for their diagnostics of a damaged file.  base: it is the
 * new baseline.  -errno when /proc/vmstat cannot be read. */
static long sample(int base)
{
	static int failed;
	static unsigned short at[VM_MAX_FIELDS];
	static struct meminfo m;   /* their damage is said once */
	static struct psi p;
	uint64_t mv[6], v;
	unsigned char mh[6];
	unsigned i;
	int tr, live = rd_live(), k;
	uint64_t now = mono_us();
	long n = get(0, vm_file, &tr);

	if (n < 0) {
		if (t0 && !failed++)
			mb_warn_errno(vm_file, -n);
		return n;
	}
	if (tr && !truncated++)
		mb_warn(vm_file, "longer than MB_FILE_MAX: the counters after it are missing");
	if (!live || base)
		vcheck(vbuf, n);
	vm_pick(vbuf, n, names, nf, val, have, live ? at : 0);
	k = live ? (n = get(2, psi_file, &tr)) < 0 || psi_parse(vbuf, n, &p) : psi_read(&p);
	if (!live)
		mb_warn_diag(&p.diag);
	if (k) {
		memset(&p.some, 0, sizeof p.some);
		memset(&p.full, 0, sizeof p.full);
	}
	have[nf] = p.some.have;
	val[nf] = p.some.total;
	have[nf + 1] = p.full.have;
	val[nf + 1] = p.full.total;
	dt = now - tnow;
	tnow = now;
	if (base) {
		t0 = now;
		samples = rn = mem_have = 0;
	} else {
		samples++;
	}
	rh = rh < win ? rh + 1 : 0;   /* no division: ARM has no divide instruction */
	rn += rn <= win;
	ring_t[rh] = now;
	for (i = 0; i < nf + 2; i++) {
		unsigned r = ctr[i].restarts;
		if (base)
			rt_base(&ctr[i], have[i], val[i]);
		else
			inc[i] = rt_add(&ctr[i], have[i], val[i], dt);
		if (ctr[i].restarts > r && !r)
			mb_warn(i < nf ? names[i] : psi_file, "went backwards: counting on from its new value");
		if (i < nf)
			ring_c[rh][i] = ctr[i].count;
	}
	/* a captured file through meminfo_read, for its diagnostics */
	n = live ? get(1, "/proc/meminfo", &tr) : meminfo_read(&m);
	if (!live)
		mb_warn_diag(&m.diag);
	if (n < 0) {
		if (n != -ENOENT && !failed++)
			mb_warn_errno("/proc/meminfo", -n);
		return 0;
	}
	if (live)
		meminfo_parse(vbuf, n, &m);
	for (i = 0; i < 6; i++) {
		mv[i] = MI_GET(&m, mik[i]);
		mh[i] = MI_HAS(&m, mik[i]);
	}
	/* 2: swap used, 3: anon + swap used; the lowest (0, 1) or highest */
	mh[2] &= mh[3];
	mv[2] = sat_sub(mv[2], mv[3]);
	mh[3] = mh[2] & mh[4] & mh[5];
	mv[3] = sat_add(sat_add(mv[4], mv[5]), mv[2]);
	for (i = 0; i < 4; i++) {
		v = mv[i];
		if (mh[i] && (!(mem_have >> i & 1) || (i < 2 ? v < mem[i] : v > mem[i]))) {
			mem[i] = v;
			mem_have |= 1u << i;
		}
	}
	return 0;
}

/* Figure k of counter i: 0 count, 1 average, 2 max, 3 recent rate (rates in
 * thousandths per second; recent over the ring, oldest to newest). */
static int64_t fig(unsigned i, int k)
{
	int old = (int)rh + 1 - (int)rn;   /* the oldest sample in the ring */

	if (old < 0)
		old += (int)win + 1;
	if (!k)
		return ctr[i].count > INT64_MAX ? INT64_MAX : (int64_t)ctr[i].count;
	if (k == 2)
		return ctr[i].max;
	return k == 1 ? rt_rate(ctr[i].count, tnow - t0)
	              : rt_rate(ring_c[rh][i] - ring_c[old][i], ring_t[rh] - ring_t[old]);
}

/* A table cell: v with dec (0 or 3) decimals, or '-'. */
static void cell(int ok, uint64_t v, int dec, int w)
{
	if (ok) {
		tb_fixu(v, dec, w);
	} else {
		out_pad(fo, 1, w);
		fo_c('-');
	}
}

/* Microseconds as seconds with 3 decimals, truncated: the 6 of fix_str cut
 * (no 64-bit division on 32-bit targets). */
static void secs(uint64_t us, int w)
{
	char b[32];
	int n = fix_str(b, us, 6) - 3;

	out_pad(fo, n, w);
	out_mem(fo, b, n);
}

static const char *const rate_key = "count\0average_rate\0max_rate\0recent_rate";

/* The json/kv "counters" object: of a sample line (increase and rate), or
 * of the summary (the four figures and restarts). */
static void counters(int sum)
{
	unsigned i;
	int k;

	t_obj("counters");
	for (i = 0; i < nf; i++) {
		if (!ctr[i].seen) {
			t_null(names[i]);
			continue;
		}
		t_obj(names[i]);
		if (!sum) {
			t_u64("increase", inc[i]);
			t_fix("rate", rt_rate(inc[i], dt), 3);
		} else {
			for (k = 0; k < 4; k++)
				t_fix(mb_nth(rate_key, k), fig(i, k), k ? 3 : 0);
			t_u64("restarts", ctr[i].restarts);
		}
		t_end();
	}
	t_end();
}

static int width(unsigned i)
{
	int w = strlen(names[i]);
	return w < 8 ? 9 : w + 1;
}

/* A line per sample: table (a header after each baseline), or JSON Lines. */
static void line(int header)
{
	unsigned i;

	if (quiet)
		return;
	if (fmt == FMT_JSON && !header) {
		t_obj(0);
		t_u64("sample", samples);
		t_fix("elapsed_seconds", tnow - t0, 6);
		counters(0);
		t_done();
	}
	if (fmt == FMT_TABLE) {
		if (header)
			fo_s("    TIME");
		else
			secs(tnow - t0, 8);
		for (i = 0; i < nf; i++) {
			if (header) {
				out_pad(fo, strlen(names[i]), width(i));
				fo_s(names[i]);
				fo_s("         /s");
			} else {
				cell(ctr[i].seen, inc[i], 0, width(i));
				cell(ctr[i].seen, rt_rate(inc[i], dt), 3, 11);
			}
		}
		tb_nl();
		lined = 1;
	}
	out_flush(fo);
}

static void table(void)
{
	unsigned i, w = 7;
	int k;

	for (i = 0; i < nf; i++)
		if (strlen(names[i]) > w)
			w = strlen(names[i]);
	if (lined)
		tb_nl();
	fo_s("elapsed ");
	secs(tnow - t0, 0);
	fo_s(" s, samples ");
	out_u64(fo, samples);
	fo_s(", interval ");
	secs(ival, 0);
	fo_s(" s, window ");
	out_u64(fo, win);
	fo_s("\nCOUNTER");
	out_pad(fo, 7, w);
	fo_s("        COUNT       AVG/s       MAX/s    RECENT/s\n");
	for (i = 0; i < nf; i++) {
		tb_str(names[i], w);
		for (k = 0; k < 4; k++)
			cell(ctr[i].seen, fig(i, k), k ? 3 : 0, 12 + !k);
		tb_nl();
	}
	fo_s("memory");
	if (*tb_unit()) {
		fo_s(" (");
		fo_s(tb_unit());
		fo_c(')');
	}
	for (k = 0; k < 4; k++) {
		fo_s(k ? ", " : ": ");
		fo_s(mb_nth(mem_key, k));
		fo_c(' ');
		if (mem_have >> k & 1)
			tb_size(mem[k], 0);
		else
			fo_c('-');
	}
	fo_s("\npsi stall seconds:");
	for (k = 0; k < 2; k++) {
		fo_s(k ? ", full " : " some ");
		if (ctr[nf + k].seen)
			out_fix(fo, ctr[nf + k].count, 6);
		else
			fo_c('-');
	}
	tb_nl();
	if (cmd) {
		fo_s("command:");
		for (i = 0; cmd[i]; i++) {
			fo_c(' ');
			out_safe(fo, cmd[i], strlen(cmd[i]));
		}
		fo_s("\nexit status: ");
		cell(cmd_status >= 0, cmd_status, 0, 0);
		tb_nl();
	}
}

static const char *const psi_key = "some_stall_seconds\0full_stall_seconds";

/* A figure of the summary: a json/kv member (null unless have), or in prom
 * (when have, and help given) the metric membox_vmstat_NAME, its name the
 * key with the prefix and suffix of its kind. */
enum { K_GAUGE, K_BYTES, K_PSI, K_CMD };
static void put(int kind, const char *key, const char *help, int have, uint64_t v, int dec)
{
	static const char *const pre[] = { "", "", "psi_", "command_" };
	static const char *const suf[] = { "", "_bytes", "_total", "" };
	char b[64];

	if (fmt != FMT_PROM) {
		if (!have)
			t_null(key);
		else if (dec)
			t_fix(key, v, dec);
		else
			t_u64(key, v);
	} else if (have && help) {
		stpcpy(mb_join(b, "vmstat_", pre[kind], key), suf[kind]);
		p_type(b, kind == K_PSI ? "counter" : "gauge", help);
		p_start(b);
		p_fix(v, dec);
	}
}

/* json/kv (one object) and prom (the same figures as metrics, in the same
 * order, where json has them) */
static void report(void)
{
	static const char *const stat[] = { 0, "average", "max", "recent" };
	int tree = fmt != FMT_PROM;
	unsigned i;
	int k;

	if (tree)
		t_obj(0);
	put(K_GAUGE, "interval_seconds", "Time between samples.", 1, ival, 6);
	put(K_GAUGE, "window", 0, 1, win, 0);
	put(K_GAUGE, "elapsed_seconds", "Baseline to last sample.", 1, tnow - t0, 6);
	put(K_GAUGE, "samples", "Samples after the baseline.", 1, samples, 0);
	if (tree)
		counters(1);
	else
		for (k = 0; k < 4; k++) {
			const char *m = k ? "vmstat_rate_per_second" : "vmstat_events_total";
			if (k < 2)
				p_type(m, k ? "gauge" : "counter", k ? "Average, max and recent increase per second."
				                                     : "Increase since the baseline.");
			for (i = 0; i < nf; i++)
				if (ctr[i].seen) {
					p_start(m);
					p_labc("counter", names[i]);
					if (k)
						p_labc("stat", stat[k]);
					p_fix(fig(i, k), k ? 3 : 0);
				}
		}
	if (tree)
		t_obj("memory");
	for (k = 0; k < 4; k++)
		put(K_BYTES, mb_nth(mem_key, k), "Extreme of /proc/meminfo.", mem_have >> k & 1, mem[k], 0);
	if (tree)
		t_end();
	if (ctr[nf].seen || ctr[nf + 1].seen || !tree) {
		if (tree)
			t_obj("psi");
		for (k = 0; k < 2; k++)
			put(K_PSI, mb_nth(psi_key, k), "Memory stall time since the baseline.",
			    ctr[nf + k].seen, ctr[nf + k].count, 6);
		if (tree)
			t_end();
	} else {
		t_null("psi");
	}
	if (cmd && tree) {
		t_obj("command");
		t_arr("argv");
		for (i = 0; cmd[i]; i++)
			t_cstr(0, cmd[i]);
		t_end();
	}
	if (cmd || !tree)
		put(K_CMD, "exit_status", "Exit status of the command.", cmd_status >= 0, cmd_status, 0);
	if (!tree)
		return;
	if (cmd)
		t_end();
	else
		t_null("command");
	t_bool("vmstat_truncated", truncated);
	t_done();
}

static void summary(void)
{
	if (fmt == FMT_TABLE)
		table();
	else
		report();
	out_flush(fo);
}

static volatile sig_atomic_t got;
static void on_sig(int s) { got |= 1 << s; }
#define SIG(s) (1u << (s))
static const int sigs[] = { SIGTERM, SIGHUP, SIGUSR1, SIGCHLD, SIGINT, SIGQUIT };

/* Sleep until the deadline or a signal: signals are blocked except inside
 * ppoll, so none is lost between the check and the sleep.  The signals
 * seen, or 0 at the deadline. */
static unsigned wait_until(uint64_t deadline, const sigset_t *run)
{
	for (;;) {
		unsigned g = got;
		uint64_t now = mono_us();
		struct timespec ts = { (deadline - now) / 1000000, (deadline - now) % 1000000 * 1000 };
		if (g) {
			got = 0;
			return g;
		}
		if (now >= deadline)
			return 0;
		ppoll(0, 0, &ts, run);
	}
}

/* execvp(cmd[0], cmd) as musl's: a name without '/' is searched in PATH
 * (musl's default without it), EACCES is kept over ENOENT and ENOTDIR,
 * other errors stop the search.  A static path buffer instead of musl's VLA,
 * and 0.4 KiB less of libc.  Returns the errno. */
static int exec_path(void)
{
	static char b[PATH_MAX + NAME_MAX + 2];
	const char *f = cmd[0], *p = getenv("PATH"), *z;
	size_t k = strlen(f);
	int e = ENOENT, acc = 0;

	if (!*f)
		return ENOENT;
	if (strchr(f, '/'))
		return execve(f, cmd, environ), errno;
	if (!p)
		p = "/usr/local/bin:/bin:/usr/bin";
	if (k > NAME_MAX)
		return ENAMETOOLONG;
	for (;; p = z + 1) {
		z = strchrnul(p, ':');
		if (z - p < PATH_MAX) {
			memcpy(b, p, z - p);
			b[z - p] = '/';
			memcpy(b + (z - p) + (z > p), f, k + 1);
			execve(b, cmd, environ);
			e = errno;
			acc |= e == EACCES;
			if (e != EACCES && e != ENOENT && e != ENOTDIR)
				return e;
		}
		if (!*z)
			return acc ? EACCES : e;
	}
}

/* vfork and exec the command; an exec failure comes back through a pipe
 * closed on exec (qemu-user turns vfork into fork), and the child exits 127. */
static pid_t start(const sigset_t *mask)
{
	int p[2], e = 0;
	pid_t pid;

	if (syscall(SYS_pipe2, p, O_CLOEXEC) < 0)
		return -1;
	pid = vfork();
	if (!pid) {
		sigprocmask(SIG_SETMASK, mask, 0);
		e = exec_path();
		(void)!write(p[1], &e, sizeof e);
		_exit(127);
	}
	e = pid < 0 ? errno : 0;
	close(p[1]);
	if (pid > 0 && read(p[0], &e, sizeof e) != sizeof e)
		e = 0;
	close(p[0]);
	if (e)
		mb_warn_errno(cmd[0], e);
	return pid;
}

int vmstat_meter_main(int argc, char **argv)
{
	static char obuf[MB_OUT_BUF];
	static struct out ofile = { .buf = obuf };
	struct optst st = { 0 };
	sigset_t set, run, idle;
	struct sigaction sa = { .sa_handler = on_sig, .sa_flags = SA_NOCLDSTOP };
	uint64_t k = 0, ticks = 0, run0;
	const char *ofname = 0;
	char on[3] = "-";
	int id, ws, end;
	unsigned i, g;
	pid_t pid = 0;
	long e;

	cli_init("vmstat-meter");
	memcpy(names, defaults, sizeof defaults);
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		if (id == OPT_ERR)
			return 2;
		if (id == 'f' && fields((char *)st.arg))
			return cli_usage_error(usage);
		quiet |= id == 'q';
		if (id == 'O')
			ofname = st.arg;
		if (id > 4)
			continue;
		on[1] = "iwnd"[id - 1];
		if (cli_fix(on, st.arg, ndec[id - 1], &num[id - 1]))
			return cli_usage_error(usage);
		/* -i at least 0.01 s, -w 1 to VM_MAX_WINDOW; -n and -d any */
		if ((id == O_INTERVAL && ival < 10000) || (id == O_WINDOW && num[1] - 1 >= VM_MAX_WINDOW))
			return mb_warn(on, "out of range"), cli_usage_error(usage);
	}
	if (st.ind < argc) {
		cmd = argv + st.ind;
		if (num[2] != UINT64_MAX || num[3] != UINT64_MAX)
			return mb_warn("-n, -d", "not with a command"), cli_usage_error(usage);
		fo = &out2;
	}
	if (cli_root())
		return 1;
	if (ofname) {
		if ((ofile.fd = rd_openat(AT_FDCWD, ofname, O_WRONLY | O_CREAT | O_TRUNC)) < 0)
			return mb_fail_errno(ofname, -ofile.fd);
		fo = &ofile;
	}
	quiet |= cmd || fmt >= FMT_KV;

	/* All six signals blocked except in ppoll; with a command, SIGINT and
	 * SIGQUIT stay blocked (pending, never acted on) in the meter and keep
	 * their disposition, which the command inherits with the old mask. */
	sigemptyset(&set);
	for (i = 0; i < 6; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, &run);
	idle = run;
	sa.sa_mask = set;
	for (i = 0; i < 6 - !cmd; i++)
		if (i < 4 || !cmd)
			sigaction(sigs[i], &sa, 0);
		else
			sigaddset(&idle, sigs[i]);

	if ((e = sample(1)) < 0)
		return mb_fail_errno(vm_file, -e);
	run0 = t0;
	if (cmd && (pid = start(&run)) < 0)
		cmd_status = 127;
	if (num[2])
		line(1);
	while (pid >= 0) {
		if (!cmd && (ticks >= num[2] || tnow - run0 >= num[3]))
			break;
		g = wait_until(t0 + (k + 1) * ival, &idle);
		if (g & SIG(SIGCHLD) && waitpid(pid, &ws, WNOHANG) == pid) {
			cmd_status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
			sample(0);
			break;
		}
		if (g & SIG(SIGHUP)) {
			sample(1);
			k = 0;
			line(1);
			continue;
		}
		if (g & SIG(SIGTERM) && cmd)
			kill(pid, SIGTERM);
		end = !cmd && g & (SIG(SIGINT) | SIG(SIGTERM));
		if (g & SIG(SIGUSR1) || !g || end) {
			sample(0);
			line(0);
			ticks += !g;
			k = (tnow - t0 + ival / 2) / ival;	/* next deadline > ival/2 away */
			if (end)
				break;
			if (g)
				summary();
		}
		if (fo->err && !cmd)
			break;
	}
	summary();
	return cmd ? cmd_status : 0;
}
