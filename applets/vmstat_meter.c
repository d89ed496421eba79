/* vmstat-meter: what the kernel's memory manager did while a command ran
 * (or over time): counts and average / max / recent rates of /proc/vmstat
 * counters, the extremes of /proc/meminfo and the stall time of
 * /proc/pressure/memory, sampled at absolute deadlines of the monotonic clock. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli.h"
#include "meminfo.h"
#include "out.h"
#include "psi.h"
#include "rate.h"
#include "rd.h"
#include "sc.h"
#include "vmstat.h"

static const char usage[] =
	"Usage: vmstat-meter [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       vmstat-meter [OPTIONS] [-n COUNT] [-d SECONDS]\n\n"
	"Samples /proc/vmstat counters every interval and reports for each: COUNT,\n"
	"the increase since the start; AVG/s, COUNT / elapsed seconds; MAX/s, the\n"
	"largest increase per second between two consecutive samples; RECENT/s, over\n"
	"the last -w periods.  Also the lowest MemAvailable and MemFree, the highest\n"
	"swap used and process memory (anon + swap used) of /proc/meminfo, and the\n"
	"memory stall time of /proc/pressure/memory.  '-' (json null): the kernel\n"
	"does not have it.  A counter that goes backwards restarts from there.\n\n"
	"With COMMAND: runs it (no shell) until it exits, then prints the report on\n"
	"stderr and exits with its status (128+N: killed by signal N; 127: could not\n"
	"start).  SIGINT and SIGQUIT are left to COMMAND; SIGTERM is passed on to it.\n"
	"Without: a line per sample until -n, -d, SIGINT or SIGTERM, then the summary.\n"
	"SIGUSR1 prints the summary so far, SIGHUP starts a new baseline.\n\n"
	"  -f, --fields=A,B   counters (default pgmajfault,pswpin,pswpout,oom_kill);\n"
	"                     +A,B adds to the list; at most 32\n"
	"  -i, --interval=S   seconds between samples (default 1, at least 0.01)\n"
	"  -w, --window=N     periods of the recent rate (default 10, at most 100)\n"
	"  -n, --count=N      stop after N samples (0: one reading, no rates)\n"
	"  -d, --duration=S   stop at the first sample S seconds after the start\n"
	"  -q, --quiet        no line per sample, only the summary\n"
	"  -O, --output=FILE  the report to FILE instead of stdout (stderr with COMMAND)\n";

static const struct opt opts[] = {
	CLI_COMMON,
	{ "fields", 'f', 1, 'f' }, { "interval", 'i', 1, 'i' }, { "window", 'w', 1, 'w' },
	{ "count", 'n', 1, 'n' }, { "duration", 'd', 1, 'd' }, { "quiet", 'q', 0, 'q' },
	{ "output", 'O', 1, 'O' },
	{ 0, 0, 0, 0 }
};

#define NF_DEFAULT 4
static const char *names[VM_MAX_FIELDS] = { "pgmajfault", "pswpin", "pswpout", "oom_kill" };
static unsigned nf = NF_DEFAULT;

/* The state since the baseline.  ctr[nf] and ctr[nf + 1] are PSI some/full
 * totals (microseconds); the ring holds the last window + 1 samples. */
static char vbuf[MB_FILE_MAX];
static uint64_t val[VM_MAX_FIELDS + 2], inc[VM_MAX_FIELDS + 2];
static unsigned char have[VM_MAX_FIELDS + 2];
static struct rt_ctr ctr[VM_MAX_FIELDS + 2];
static uint64_t ring_t[VM_MAX_WINDOW + 1], ring_c[VM_MAX_WINDOW + 1][VM_MAX_FIELDS];
static unsigned rn, rh;
static uint64_t ival = 1000000, win = 10, t0, tnow, dt, samples, truncated;
enum { M_AVAIL, M_FREE, M_SWAP, M_PROC };
static const char *const mem_key[] = { "min_available", "min_free", "max_swap_used", "max_process" };
static uint64_t mem[4];
static unsigned mem_have;
static char **cmd;
static int cmd_status = -1, quiet;

static uint64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* -f A,B,C or +A,B: split in place (argv is ours to write). */
static int fields(char *s)
{
	if (*s == '+')
		s++;
	else
		nf = 0;
	for (;;) {
		char *e = strchr(s, ','), *p;
		unsigned i;
		if (e)
			*e = 0;
		for (p = s; *p; p++)
			if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
				break;
		if (*p || p == s)
			return mb_warn(s, "not a /proc/vmstat counter name"), -1;
		for (i = 0; i < nf && strcmp(names[i], s); i++)
			;
		if (i == nf) {
			if (nf == VM_MAX_FIELDS)
				return mb_warn("-f", "at most 32 counters (VM_MAX_FIELDS)"), -1;
			names[nf++] = s;
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

static void mem_put(int k, int ok, uint64_t v)
{
	if (!ok)
		return;
	if (!(mem_have >> k & 1) || (k < M_SWAP ? v < mem[k] : v > mem[k]))
		mem[k] = v;
	mem_have |= 1u << k;
}

/* One sample: vmstat (one read into vbuf), meminfo, PSI.  base: it is the
 * new baseline.  -errno when /proc/vmstat cannot be read. */
static long sample(int base)
{
	struct meminfo m;
	struct psi p;
	unsigned i, j;
	static int failed;
	int tr;
	uint64_t now = mono_us();
	long n = vmstat_read(vbuf, sizeof vbuf, &tr);

	if (n < 0) {
		if (t0 && !failed++)
			mb_warn_errno("/proc/vmstat", -n);
		return n;
	}
	if (tr && !truncated++)
		mb_warn("/proc/vmstat", "longer than its buffer (MB_FILE_MAX): counters after it are missing");
	vmstat_parse(vbuf, n, names, nf, val, have);
	if (psi_read(&p))
		memset(&p, 0, sizeof p);
	have[nf] = p.some.have;
	val[nf] = p.some.total;
	have[nf + 1] = p.full.have;
	val[nf + 1] = p.full.total;
	dt = now - tnow;
	tnow = now;
	for (i = 0; i < nf + 2; i++) {
		unsigned r = ctr[i].restarts;
		if (base) {
			rt_base(&ctr[i], have[i], val[i]);
			continue;
		}
		inc[i] = rt_add(&ctr[i], have[i], val[i], dt);
		if (ctr[i].restarts != r && !r)
			mb_warn(i < nf ? names[i] : "/proc/pressure/memory", "went backwards: counted again from its new value");
	}
	if (base) {
		t0 = now;
		samples = rn = mem_have = 0;
	} else {
		samples++;
	}
	rh = (rh + 1) % (win + 1);
	rn += rn <= win;
	ring_t[rh] = now;
	for (j = 0; j < nf; j++)
		ring_c[rh][j] = ctr[j].count;
	if (!meminfo_read(&m)) {
		uint64_t sw = sat_sub(MI_GET(&m, MI_SwapTotal), MI_GET(&m, MI_SwapFree));
		int hs = MI_HAS(&m, MI_SwapTotal) && MI_HAS(&m, MI_SwapFree);
		mem_put(M_AVAIL, MI_HAS(&m, MI_MemAvailable), MI_GET(&m, MI_MemAvailable));
		mem_put(M_FREE, MI_HAS(&m, MI_MemFree), MI_GET(&m, MI_MemFree));
		mem_put(M_SWAP, hs, sw);
		mem_put(M_PROC, hs && MI_HAS(&m, MI_ActiveAnon) && MI_HAS(&m, MI_InactiveAnon),
		        sat_add(sat_add(MI_GET(&m, MI_ActiveAnon), MI_GET(&m, MI_InactiveAnon)), sw));
	}
	return 0;
}

/* The rates of counter i: average, max, recent (thousandths per second). */
static void rates(unsigned i, int64_t r[3])
{
	unsigned old = (rh + win + 2 - rn) % (win + 1);
	r[0] = rt_rate(ctr[i].count, tnow - t0);
	r[1] = ctr[i].max;
	r[2] = rt_rate(ring_c[rh][i] - ring_c[old][i], ring_t[rh] - ring_t[old]);
}

/* A table cell: thousandths with three decimals, or '-'. */
static void cell3(int ok, uint64_t v, int w)
{
	char b[32];
	int n = 1;
	b[0] = '-';
	if (ok) {
		n = u64_str(b, v / 1000);
		b[n++] = '.';
		b[n++] = '0' + v / 100 % 10;
		b[n++] = '0' + v / 10 % 10;
		b[n++] = '0' + v % 10;
	}
	out_pad(fo, n, w);
	out_mem(fo, b, n);
}

static int width(unsigned i)
{
	int w = strlen(names[i]);
	return w < 8 ? 8 : w;
}

static void line_header(void)
{
	unsigned i;
	if (fmt != FMT_TABLE)
		return;
	out_s(fo, "    TIME");
	for (i = 0; i < nf; i++) {
		out_c(fo, ' ');
		out_pad(fo, strlen(names[i]), width(i));
		out_s(fo, names[i]);
		out_s(fo, "         /s");
	}
	tb_nl();
}

/* One line per sample: table, or a JSON Lines object. */
static void line(void)
{
	unsigned i;

	if (fmt == FMT_TABLE) {
		cell3(1, (tnow - t0) / 1000, 8);
		for (i = 0; i < nf; i++) {
			out_c(fo, ' ');
			if (ctr[i].seen)
				tb_u64(inc[i], width(i));
			else
				cell3(0, 0, width(i));
			cell3(ctr[i].seen, rt_rate(inc[i], dt), 11);
		}
		tb_nl();
	} else if (fmt == FMT_JSON) {
		t_obj(0);
		t_u64("sample", samples);
		t_fix("elapsed_seconds", tnow - t0, 6);
		t_obj("counters");
		for (i = 0; i < nf; i++) {
			if (!ctr[i].seen) {
				t_null(names[i]);
				continue;
			}
			t_obj(names[i]);
			t_u64("increase", inc[i]);
			t_fix("rate", rt_rate(inc[i], dt), 3);
			t_end();
		}
		t_done();
	}
	out_flush(fo);
}

static void table(void)
{
	static const char *const cols[] = { "       AVG/s", "       MAX/s", "    RECENT/s" };
	unsigned i, k, w = 7;
	int64_t r[3];

	for (i = 0; i < nf; i++)
		if (strlen(names[i]) > w)
			w = strlen(names[i]);
	out_s(fo, "vmstat-meter: ");
	cell3(1, (tnow - t0) / 1000, 0);
	out_s(fo, " s, ");
	out_u64(fo, samples);
	out_s(fo, " samples every ");
	cell3(1, ival / 1000, 0);
	out_s(fo, " s, recent window ");
	out_u64(fo, win);
	out_s(fo, " periods\nCOUNTER");
	out_pad(fo, 7, w);
	out_s(fo, "        COUNT");
	for (k = 0; k < 3; k++)
		out_s(fo, cols[k]);
	tb_nl();
	for (i = 0; i < nf; i++) {
		tb_str(names[i], w);
		out_c(fo, ' ');
		rates(i, r);
		if (ctr[i].seen)
			tb_u64(ctr[i].count, 12);
		else
			cell3(0, 0, 12);
		for (k = 0; k < 3; k++)
			cell3(ctr[i].seen, r[k], 12);
		tb_nl();
	}
	for (i = 0; i < nf; i++)
		if (ctr[i].restarts) {
			out_s(fo, names[i]);
			out_s(fo, ": went backwards ");
			out_u64(fo, ctr[i].restarts);
			out_s(fo, " time(s), counted again from the new value\n");
		}
	out_s(fo, "memory");
	if (*tb_unit()) {
		out_s(fo, " (");
		out_s(fo, tb_unit());
		out_c(fo, ')');
	}
	for (k = 0; k < 4; k++) {
		const char *s;
		out_s(fo, k ? ", " : ": ");
		for (s = mem_key[k]; *s; s++)
			out_c(fo, *s == '_' ? ' ' : *s);
		out_c(fo, ' ');
		if (mem_have >> k & 1)
			tb_size(mem[k], 0);
		else
			out_c(fo, '-');
	}
	out_s(fo, "\nmemory stall (psi):");
	for (k = 0; k < 2; k++) {
		out_s(fo, k ? ", full " : " some ");
		if (ctr[nf + k].seen) {
			out_fix(fo, ctr[nf + k].count, 6);
			out_s(fo, " s");
		} else {
			out_c(fo, '-');
		}
	}
	tb_nl();
	if (cmd) {
		out_s(fo, "command:");
		for (i = 0; cmd[i]; i++) {
			out_c(fo, ' ');
			out_safe(fo, cmd[i], strlen(cmd[i]));
		}
		if (cmd_status < 0) {
			out_s(fo, ": running\n");
		} else {
			out_s(fo, ": exit status ");
			out_u64(fo, cmd_status);
			tb_nl();
		}
	}
}

static void tree(void)
{
	static const char *const rk[] = { "average_rate", "max_rate", "recent_rate" };
	unsigned i, k;
	int64_t r[3];

	t_obj(0);
	t_fix("interval_seconds", ival, 6);
	t_u64("window", win);
	t_fix("elapsed_seconds", tnow - t0, 6);
	t_u64("samples", samples);
	t_obj("counters");
	for (i = 0; i < nf; i++) {
		if (!ctr[i].seen) {
			t_null(names[i]);
			continue;
		}
		rates(i, r);
		t_obj(names[i]);
		t_u64("count", ctr[i].count);
		for (k = 0; k < 3; k++)
			t_fix(rk[k], r[k], 3);
		t_u64("restarts", ctr[i].restarts);
		t_end();
	}
	t_end();
	t_obj("memory");
	for (k = 0; k < 4; k++)
		t_opt(mem_key[k], mem_have >> k & 1, mem[k]);
	t_end();
	if (ctr[nf].seen || ctr[nf + 1].seen) {
		t_obj("psi");
		for (k = 0; k < 2; k++) {
			const char *key = k ? "full_stall_seconds" : "some_stall_seconds";
			if (ctr[nf + k].seen)
				t_fix(key, ctr[nf + k].count, 6);
			else
				t_null(key);
		}
		t_end();
	} else {
		t_null("psi");
	}
	if (cmd) {
		t_obj("command");
		t_arr("argv");
		for (i = 0; cmd[i]; i++)
			t_cstr(0, cmd[i]);
		t_end();
		t_opt("exit_status", cmd_status >= 0, cmd_status);
		t_end();
	} else {
		t_null("command");
	}
	t_bool("vmstat_truncated", truncated != 0);
	t_done();
}

static void prom_one(const char *name, const char *type, const char *help, int64_t v, int dec)
{
	p_type(name, type, help);
	p_start(name);
	p_fix(v, dec);
}

static void prom(void)
{
	static const char *const stat[] = { "average", "max", "recent" };
	char b[48];
	unsigned i, k;
	int64_t r[3];

	prom_one("vmstat_interval_seconds", "gauge", "Time between samples.", ival, 6);
	prom_one("vmstat_elapsed_seconds", "gauge", "Time from the baseline to the last sample.", tnow - t0, 6);
	prom_one("vmstat_samples", "gauge", "Samples after the baseline.", samples, 0);
	p_type("vmstat_events_total", "counter", "Increase of the /proc/vmstat counter since the baseline.");
	for (i = 0; i < nf; i++)
		if (ctr[i].seen) {
			p_start("vmstat_events_total");
			p_labc("counter", names[i]);
			p_u64(ctr[i].count);
		}
	p_type("vmstat_rate_per_second", "gauge", "Average, largest and recent increase per second.");
	for (i = 0; i < nf; i++)
		for (k = 0; ctr[i].seen && k < 3; k++) {
			rates(i, r);
			p_start("vmstat_rate_per_second");
			p_labc("counter", names[i]);
			p_labc("stat", stat[k]);
			p_fix(r[k], 3);
		}
	for (k = 0; k < 4; k++)
		if (mem_have >> k & 1) {
			size_t n = strlen(mem_key[k]);
			memcpy(b, "vmstat_", 7);
			memcpy(b + 7, mem_key[k], n);
			memcpy(b + 7 + n, "_bytes", 7);
			prom_one(b, "gauge", "Extreme of /proc/meminfo over the samples.", mem[k], 0);
		}
	if (ctr[nf].seen || ctr[nf + 1].seen)
		p_type("vmstat_psi_stall_seconds_total", "counter", "Memory stall time (/proc/pressure/memory) since the baseline.");
	for (k = 0; k < 2; k++)
		if (ctr[nf + k].seen) {
			p_start("vmstat_psi_stall_seconds_total");
			p_labc("kind", k ? "full" : "some");
			p_fix(ctr[nf + k].count, 6);
		}
	if (cmd_status >= 0)
		prom_one("vmstat_command_exit_status", "gauge", "Exit status of the command.", cmd_status, 0);
}

static void summary(void)
{
	if (!quiet && fmt == FMT_TABLE)
		tb_nl();
	if (fmt == FMT_TABLE)
		table();
	else if (fmt == FMT_PROM)
		prom();
	else
		tree();
	out_flush(fo);
}

static volatile sig_atomic_t got;
static void on_sig(int s) { got |= 1 << s; }
#define SIG(s) (1u << (s))
static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGCHLD };
#define NSIGS (sizeof sigs / sizeof sigs[0])

/* Sleep until the deadline or a signal (blocked except inside ppoll, so none
 * is lost between the check and the sleep): the signals seen, 0 at the
 * deadline. */
static unsigned wait_until(uint64_t deadline, const sigset_t *run)
{
	for (;;) {
		unsigned g = got;
		uint64_t now, d;
		struct timespec ts;
		if (g) {
			got = 0;
			return g;
		}
		now = mono_us();
		if (now >= deadline)
			return 0;
		d = deadline - now;
		ts.tv_sec = d / 1000000;
		ts.tv_nsec = d % 1000000 * 1000;
		ppoll(0, 0, &ts, run);
	}
}

/* Fork and exec the command; an exec failure comes back through a pipe
 * closed on exec, and the child exits 127. */
static pid_t start(const struct sigaction *old, const sigset_t *mask)
{
	int p[2], e = 0;
	unsigned i;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (!pid) {
		for (i = 0; i < NSIGS; i++)
			sigaction(sigs[i], &old[i], 0);
		sigprocmask(SIG_SETMASK, mask, 0);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(p[1], &e, sizeof e) < 0)
			_exit(127);
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
	struct sigaction sa = { .sa_handler = on_sig, .sa_flags = SA_NOCLDSTOP }, old[NSIGS];
	sigset_t set, run;
	uint64_t count = UINT64_MAX, dur = UINT64_MAX, k = 0, ticks = 0, run0;
	const char *ofname = 0;
	int id, ws;
	unsigned i, g;
	pid_t pid = 0;
	long e;

	cli_init("vmstat-meter");
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case 'f':
			if (fields((char *)st.arg))
				return cli_usage_error(usage);
			break;
		case 'i':
			if (cli_fix("-i", st.arg, 6, &ival))
				return cli_usage_error(usage);
			if (ival < 10000)
				return mb_warn("-i", "at least 0.01 seconds"), cli_usage_error(usage);
			break;
		case 'w':
			if (cli_u64("-w", st.arg, &win))
				return cli_usage_error(usage);
			if (!win || win > VM_MAX_WINDOW)
				return mb_warn("-w", "from 1 to 100 periods (VM_MAX_WINDOW)"), cli_usage_error(usage);
			break;
		case 'n':
			if (cli_u64("-n", st.arg, &count))
				return cli_usage_error(usage);
			break;
		case 'd':
			if (cli_fix("-d", st.arg, 6, &dur))
				return cli_usage_error(usage);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'O':
			ofname = st.arg;
			break;
		}
	}
	if (st.ind < argc) {
		cmd = argv + st.ind;
		if (count != UINT64_MAX || dur != UINT64_MAX)
			return mb_warn("-n, -d", "not with a command: it ends the run"), cli_usage_error(usage);
		fo = &out2;
	}
	if (cli_root())
		return 1;
	if (ofname) {
		int fd = open(ofname, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
		if (fd < 0)
			return mb_fail_errno(ofname, errno);
		ofile.fd = fd;
		fo = &ofile;
	}
	quiet |= cmd != 0 || fmt == FMT_KV || fmt == FMT_PROM;

	sigemptyset(&set);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&set, sigs[i]);
	sa.sa_mask = set;
	sigprocmask(SIG_BLOCK, &set, &run);
	for (i = 0; i < NSIGS; i++)
		if (cmd || sigs[i] != SIGQUIT)
			sigaction(sigs[i], &sa, &old[i]);

	if ((e = sample(1)) < 0)
		return mb_fail_errno("/proc/vmstat", -e);
	run0 = t0;
	if (cmd && (pid = start(old, &run)) < 0)
		cmd_status = 127;
	if (!quiet)
		line_header();
	while (pid >= 0) {
		if (!cmd && (ticks >= count || tnow - run0 >= dur))
			break;
		g = wait_until(t0 + (k + 1) * ival, &run);
		if (g & SIG(SIGCHLD) && waitpid(pid, &ws, WNOHANG) == pid) {
			cmd_status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
			sample(0);
			break;
		}
		if (g & SIG(SIGHUP)) {
			sample(1);
			k = 0;
			if (!quiet)
				line_header();
			continue;
		}
		if (g & SIG(SIGTERM) && cmd)
			kill(pid, SIGTERM);
		if (g & (SIG(SIGINT) | SIG(SIGTERM)) && !cmd) {
			sample(0);
			if (!quiet)
				line();
			break;
		}
		if (g & SIG(SIGUSR1) || !g) {
			sample(0);
			if (!quiet)
				line();
			if (g)
				summary();
			else
				ticks++;
			k = (tnow - t0) / ival;
		}
		if (fo->err && !cmd)
			break;
	}
	summary();
	return cmd ? cmd_status : 0;
}
