/* vmstat-meter: what the kernel's memory manager did while a command ran
 * (or over time): counts and average / max / recent rates of /proc/vmstat
 * counters, the extremes of /proc/meminfo and the stall time of
 * /proc/pressure/memory, sampled at absolute deadlines of the monotonic clock.
 * Reads /proc/vmstat, /proc/meminfo and /proc/pressure/memory; with
 * --cgroup, the memory cgroup's own files instead (v2: memory.stat,
 * memory.events, memory.current, memory.swap.current, memory.max,
 * memory.pressure; v1: memory.stat, memory.oom_control,
 * memory.usage_in_bytes, memory.memsw.usage_in_bytes,
 * memory.limit_in_bytes; the peak: v2 memory.peak, v1
 * memory.max_usage_in_bytes), found through /proc/self/mountinfo.  Around
 * a command, its peak resident size comes from wait4. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "applet.h"
#include "cgroup.h"
#include "meminfo.h"
#include "mono.h"
#include "psi.h"
#include "rate.h"
#include "rd.h"
#include "sc.h"
#include "vmstat.h"

/* membox --help: the question the applet answers */
const char vmstat_meter_purpose[] = "what did a command do to memory (faults, swap, OOM kills)?";

static const char *const usage = "Usage: vmstat-meter [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       vmstat-meter [OPTIONS] [--samples=N] [-d SECONDS]\n\n"
	"/proc/vmstat counters since the start: COUNT (increase), AVG/s, MAX/s\n"
	"(between two samples) and RECENT/s (last -w periods); the lowest\n"
	"MemAvailable and MemFree, the highest swap used and anon + swap used, and\n"
	"the memory stall time (PSI).  '-' or null: the kernel has no such figure.\n\n"
	"COMMAND runs (no shell) to its exit; the report goes to stderr and its exit\n"
	"status (128+N: killed by signal N; 127: not found or not started; 126: not\n"
	"executable) is ours.  A signal that ends the meter is passed on to COMMAND\n"
	"(not ^C or ^\\ of the terminal, which reach it anyway), then the meter waits\n"
	"for it.  Without: a line per sample until --samples, -d, SIGINT, SIGTERM\n"
	"or SIGHUP, then the summary.  SIGUSR1: the summary so far; SIGUSR2: a new\n"
	"baseline.\n\n"
	"  -f, --fields=A,B   counters (default pgmajfault,pswpin,pswpout,oom_kill);\n"
	"                     +A,B: added to the list; at most 32\n"
	"  -i, --interval=S   seconds between samples (default 1, at least 0.01)\n"
	"  -w, --window=N     periods of the recent rate (default 10, 1 to 100)\n"
	"      --samples=N    stop after N samples (0: the baseline only)\n"
	"                     (old spellings: -n, --count)\n"
	"  -d, --duration=S   stop at the first sample S seconds after the start\n"
	"  -q, --quiet        no line per sample, only the summary\n"
	"      --every=SEC    the summary every SEC seconds too (0.001 to 4294967295),\n"
	"                     since the baseline as SIGUSR1's, with its time; each\n"
	"                     replaces -O FILE\n"
	"      --cgroup=PATH  the memory cgroup PATH (as /proc/PID/cgroup shows it)\n"
	"                     instead of the system: its memory.stat and\n"
	"                     memory.events (v1: memory.oom_control) counters (default\n"
	"                     pgmajfault,workingset_refault_anon,\n"
	"                     workingset_refault_file,oom_kill: those it has), its\n"
	"                     charge and limit, its memory.pressure\n"
	"  (-O, --output=FILE: each summary replaces FILE; lines stay on stdout)\n";

enum vmstat_option {
	VMSTAT_OPT_INTERVAL = 'i',
	VMSTAT_OPT_WINDOW = 'w',
	VMSTAT_OPT_SAMPLES = 'n',   /* -n: the old spelling of --samples */
	VMSTAT_OPT_DURATION = 'd',
	VMSTAT_OPT_FIELDS = 'f',
	VMSTAT_OPT_QUIET = 'q',
	VMSTAT_OPT_CGROUP = 1000,
};

static const struct opt opts[] = {
	{ "interval", 'i', 1, VMSTAT_OPT_INTERVAL },
	{ "window", 'w', 1, VMSTAT_OPT_WINDOW },
	{ "samples", 'n', 1, VMSTAT_OPT_SAMPLES },
	{ "count", 0, 1, VMSTAT_OPT_SAMPLES },   /* the old spelling, kept for scripts */
	{ "duration", 'd', 1, VMSTAT_OPT_DURATION },
	{ "fields", 'f', 1, VMSTAT_OPT_FIELDS },
	{ "quiet", 'q', 0, VMSTAT_OPT_QUIET },
	{ "cgroup", 0, 1, VMSTAT_OPT_CGROUP },
	{ "every", 0, 1, OPT_EVERY },   /* mb.every_us; --count is --samples' */
	{ 0, 0, 0, 0 }
};

static const char vmstat_file[] = "/proc/vmstat";
static const char *const default_fields[] = { "pgmajfault", "pswpin", "pswpout", "oom_kill" };
/* With --cgroup: those of them the cgroup's files print (v1 before 5.9
 * has no workingset_refault_*, before 4.13 no oom_kill). */
static const char *const cgroup_fields[] = { "pgmajfault", "workingset_refault_anon",
                                             "workingset_refault_file", "oom_kill" };

/* The files read each sample, on the live kernel from fds opened once:
 * the system's, then the cgroup's (enum cg_file from CG_FIRST on: its
 * counters in memory.stat, then memory.events or v1's memory.oom_control,
 * both "name N", its charge, swap, limit and PSI). */
enum proc_file { VMSTAT_FILE, MEMINFO_FILE, PSI_FILE, CG_FIRST, PROC_FILE_N = CG_FIRST + CG_FILES };

/* The memory figures: the system's (meminfo) or, with --cgroup, the
 * cgroup's (MAX_CURRENT ... PEAK share the slots); each the lowest, the
 * highest or the last value seen, and its value at the baseline.  PEAK is
 * the cgroup's own: the kernel's highest charge, not a sample's. */
enum memory_figure { MIN_AVAILABLE, MIN_FREE, MAX_SWAP_USED, MAX_PROCESS, MEMORY_N };
enum { MAX_CURRENT = 0, MAX_SWAP_CURRENT, MIN_HEADROOM, LIMIT, PEAK, CGROUP_MEMORY_N };
enum memory_rule { LOWEST, HIGHEST, LAST };
static const unsigned char memory_rule[2][CGROUP_MEMORY_N] = {
	{ LOWEST, LOWEST, HIGHEST, HIGHEST },
	{ HIGHEST, HIGHEST, LOWEST, LAST, LAST },
};

GLOBALS(
	/* the options */
	uint64_t interval_us;                /* -i */
	uint64_t window;                     /* -w: periods of the recent rate */
	uint64_t sample_limit;               /* --samples: timed samples; UINT64_MAX: none */
	uint64_t duration_us;                /* -d; UINT64_MAX: none */
	const char *names[VM_MAX_FIELDS];    /* -f: the counters */
	unsigned field_count;
	int quiet;                           /* no line per sample */
	int table;                           /* -o table: lines and summary laid out for people */
	const char *const *command;          /* COMMAND and its arguments, or 0 */
	int64_t exit_status;                 /* the command's; -1: not yet */
	int exit_signal;                     /* the signal that ended it, or 0 */
	const char *signal_name;             /* its name ("SIGKILL"), or 0 */
	int have_rss;                        /* max_rss is known (it was waited for) */
	uint64_t max_rss;                    /* its peak resident size (wait4), bytes */
	struct out report_file;              /* -O: the summary's writer */
	char report_buf[MB_OUT_BUF];
	volatile sig_atomic_t child;         /* its pid while it runs (signals are passed on), else 0 */
	char exec_path[VM_EXEC_PATH_MAX];    /* a candidate of the PATH search */

	/* reading the files */
	char buf[MB_FILE_MAX];
	int live_fd[3 + CG_FILES];           /* by enum proc_file; < 0: not open */
	unsigned short vmstat_at[VM_MAX_FIELDS];  /* vm_pick's line hints */
	struct meminfo meminfo;              /* its damage is said once */
	struct psi psi;                      /* the same */
	int vmstat_truncated;                /* a vmstat did not fit buf (warned) */
	int vmstat_damage_warned;
	int read_failed;                     /* a read after the first failed (warned) */

	/* --cgroup */
	const char *cgroup;                  /* PATH, or 0 */
	uint64_t cgroup_version;             /* 1 or 2 */
	int cgroup_removed;                  /* gone while metering (said once): no more samples */
	unsigned cgroup_warned;              /* bit by enum cg_file: its damage said */
	unsigned default_count;              /* names[0..default_count): defaults, dropped when absent */

	/* since the baseline; times are monotonic microseconds */
	uint64_t base_us, now_us;            /* the baseline's and the last sample's */
	int64_t sample_time;                 /* the last sample's, ms since the epoch (report.h) */
	uint64_t period_us;                  /* from the sample before to the last */
	uint64_t elapsed_us;                 /* from the baseline to the last */
	uint64_t samples;                    /* after the baseline */
	struct rate_ctr counters[VM_MAX_FIELDS], psi_stall[2];   /* PSI some and full, us */
	uint64_t increase[VM_MAX_FIELDS];    /* in the last period */
	struct ring_entry {                  /* the last window + 1 samples */
		uint64_t time_us;
		uint64_t count[VM_MAX_FIELDS];
	} ring[VM_MAX_WINDOW + 1];
	unsigned ring_newest, ring_used;
	uint64_t memory[5];                  /* by enum memory_figure, bytes */
	uint64_t start[5];                   /* the same at the baseline */
	unsigned memory_have, start_have;    /* bit by enum memory_figure */
	int lines_written;                   /* table lines: the summary starts after a blank line */

	/* signals */
	volatile sig_atomic_t signals_seen;  /* SIGBIT of SIGUSR1, SIGUSR2, SIGCHLD since the last look */
	sigset_t handled;                    /* those with a handler of ours: blocked around the look */
	sigset_t changed;                    /* those whose action we changed: the default in the command */
	sigset_t entry_mask;                 /* the mask we were started with, the command's too */

	struct counter_rec {                 /* the counter being reported */
		const char *name;
		uint64_t increase;           /* in the last period */
		int64_t rate;                /* of that increase, thousandths per second */
		int64_t count;               /* since the baseline, at most INT64_MAX */
		int64_t average_rate, max_rate, recent_rate;   /* thousandths per second */
		uint64_t restarts;
	} rec;

	/* --cgroup's paths, last: figures are found at offsets below 64 KiB */
	struct cg_hier hier;                 /* the memory hierarchy's mount */
	char cgroup_dir[MB_PATH_MAX];        /* the cgroup's directory under the root */
	char cgroup_path[MB_PATH_MAX + 32];  /* a file of it */
)
#define TT this.vmstat_meter
_Static_assert(sizeof TT.memory / sizeof *TT.memory == CGROUP_MEMORY_N, "memory: one per figure");
_Static_assert(sizeof TT.live_fd / sizeof *TT.live_fd == PROC_FILE_N, "live_fd: one per enum proc_file");

/* The figures.  A counter the kernel does not print is null (its row
 * absent; in the table its figures are '-': CTR_SEEN). */
#define CTR(member, key, kind, ...) FIG(struct counter_rec, member, key, kind, __VA_ARGS__)
#define VM(member, key, kind, ...) FIG(struct vmstat_meter_globals, member, key, kind, __VA_ARGS__)
enum { CTR_SEEN = 1 };
static const struct rep_fig counter_figs[] = {
	/* the width of the longest name, at least the label's (counter_table) */
	CTR(name, "counter", REP_STR, .flags = REP_LABEL | REP_NOTREE, .width = 7, .label = "COUNTER"),
	CTR(count, "count", REP_INT, .prom = "events_total", .flags = REP_COUNTER,
	    .help = "Increase of the kernel counter since the baseline, a count of events.", .bit = CTR_SEEN, .width = 12, .label = "COUNT"),
	CTR(average_rate, "average_rate", REP_FIX, .dec = 3, .prom = "rate_per_second{stat=\"average\"}",
	    .help = "Average, max and recent increase of the kernel counter, a number of events per second.", .bit = CTR_SEEN, .width = 11,
	    .label = "AVG/s"),
	CTR(max_rate, "max_rate", REP_FIX, .dec = 3, .prom = "rate_per_second{stat=\"max\"}",
	    .bit = CTR_SEEN, .width = 11, .label = "MAX/s"),
	CTR(recent_rate, "recent_rate", REP_FIX, .dec = 3, .prom = "rate_per_second{stat=\"recent\"}",
	    .bit = CTR_SEEN, .width = 11, .label = "RECENT/s"),
	CTR(restarts, "restarts", REP_COUNT, .flags = REP_NOPROM),
};

static const struct rep_fig summary_figs[] = {
	VM(interval_us, "interval_seconds", REP_FIX, .dec = 6, .help = "Time between samples, in seconds."),
	VM(window, "window", REP_COUNT, .flags = REP_NOPROM),
	VM(elapsed_us, "elapsed_seconds", REP_FIX, .dec = 6, .help = "Time from the baseline to the last sample, in seconds."),
	VM(samples, "samples", REP_COUNT, .help = "Samples taken after the baseline, a count."),
};

/* prom writes the memory figures as signed numbers (a saturated 2^64 - 1
 * of a damaged meminfo is -1 there, not in json): each figure twice, for
 * json/kv and for prom, both with the bit MEMORY_BIT(k) of figure k of
 * enum memory_figure (START_BIT(k): its value at the baseline). */
#define MEMORY_BIT(k) ((k) + 1)
#define START_BIT(k) ((k) + 1 + CGROUP_MEMORY_N)
#define MEMORY_FIG(member, bit_, key, ...) \
	VM(member, key, REP_BYTES, .flags = REP_OPTIONAL | REP_NOPROM, .bit = (bit_)), \
	VM(member, key, REP_SBYTES, .flags = REP_OPTIONAL | REP_NOTREE, .bit = (bit_), __VA_ARGS__)
#define MEMORY(k, key, ...) MEMORY_FIG(memory[k], MEMORY_BIT(k), key, __VA_ARGS__)
#define START(k, key, ...) MEMORY_FIG(start[k], START_BIT(k), key, __VA_ARGS__)
static const struct rep_fig memory_figs[] = {
	FIG_OBJ("memory", .prom = ""),
	MEMORY(MIN_AVAILABLE, "min_available", .help = "Lowest MemAvailable over the samples, in bytes."),
	MEMORY(MIN_FREE, "min_free", .help = "Lowest MemFree over the samples, in bytes."),
	MEMORY(MAX_SWAP_USED, "max_swap_used", .help = "Highest SwapTotal less SwapFree over the samples, in bytes."),
	MEMORY(MAX_PROCESS, "max_process",
	       .help = "Highest anonymous memory (active, inactive) plus swap used over the samples, in bytes."),
	START(MIN_AVAILABLE, "start_available", .help = "MemAvailable at the baseline, in bytes."),
	START(MIN_FREE, "start_free", .help = "MemFree at the baseline, in bytes."),
	START(MAX_SWAP_USED, "start_swap_used", .help = "SwapTotal less SwapFree at the baseline, in bytes."),
	START(MAX_PROCESS, "start_process",
	      .help = "Anonymous memory (active, inactive) plus swap used at the baseline, in bytes."),
	FIG_END,
};

/* The same slots with --cgroup (enum memory_figure's MAX_CURRENT...):
 * the cgroup's charge (v2 memory.current, v1 memory.usage_in_bytes), its
 * swap (v2 memory.swap.current, v1 memory.memsw.usage_in_bytes less the
 * charge), the room below its limit (v2 memory.max, v1
 * memory.limit_in_bytes; null without one) and that limit. */
static const struct rep_fig cgroup_memory_figs[] = {
	FIG_OBJ("memory", .prom = ""),
	MEMORY(MAX_CURRENT, "max_current", .help = "Highest charge of the cgroup over the samples, in bytes."),
	MEMORY(MAX_SWAP_CURRENT, "max_swap_current", .help = "Highest swap of the cgroup over the samples, in bytes."),
	MEMORY(MIN_HEADROOM, "min_headroom", .help = "Lowest room below the cgroup's limit over the samples, in bytes."),
	MEMORY(LIMIT, "limit", .help = "The cgroup's memory limit at the last sample, in bytes."),
	MEMORY(PEAK, "peak", .help = "The cgroup's highest charge as the kernel keeps it "
	                             "(memory.peak, v1 memory.max_usage_in_bytes) at the last sample, in bytes."),
	START(MAX_CURRENT, "start_current", .help = "Charge of the cgroup at the baseline, in bytes."),
	START(MAX_SWAP_CURRENT, "start_swap_current", .help = "Swap of the cgroup at the baseline, in bytes."),
	START(MIN_HEADROOM, "start_headroom", .help = "Room below the cgroup's limit at the baseline, in bytes."),
	START(LIMIT, "start_limit", .help = "The cgroup's memory limit at the baseline, in bytes."),
	START(PEAK, "start_peak", .help = "The cgroup's peak charge at the baseline, in bytes."),
	FIG_END,
};

/* left out without --cgroup: the system's report stays as it was */
enum { CGROUP_HAVE = 1 };
static const struct rep_fig cgroup_figs[] = {
	FIG_OBJ("cgroup", .flags = REP_OMIT, .bit = CGROUP_HAVE),
	VM(cgroup, "path", REP_STR, .flags = REP_NOPROM),
	VM(cgroup_version, "version", REP_COUNT,
	   .help = "Version of the cgroup hierarchy metered, a number (1 or 2)."),
	VM(cgroup_removed, "removed", REP_BOOL),
	FIG_END,
};

/* null without PSI (before 4.20, or CONFIG_PSI off) */
enum { PSI_HAVE = 1, PSI_SOME, PSI_FULL };
static const struct rep_fig psi_figs[] = {
	FIG_OBJ("psi", .flags = REP_OPTIONAL, .bit = PSI_HAVE),
	VM(psi_stall[0].count, "some_stall_seconds", REP_FIX, .dec = 6,
	   .prom = "some_stall_seconds_total",
	   .help = "Time some task stalled on memory since the baseline, in seconds (PSI some).",
	   .flags = REP_OPTIONAL | REP_COUNTER, .bit = PSI_SOME),
	VM(psi_stall[1].count, "full_stall_seconds", REP_FIX, .dec = 6,
	   .prom = "full_stall_seconds_total",
	   .help = "Time all tasks stalled on memory since the baseline, in seconds (PSI full).",
	   .flags = REP_OPTIONAL | REP_COUNTER, .bit = PSI_FULL),
	FIG_END,
};

/* null without a command */
enum { COMMAND_HAVE = 1, COMMAND_EXIT, COMMAND_SIGNAL, COMMAND_RSS };
static const struct rep_fig command_figs[] = {
	FIG_OBJ("command", .flags = REP_OPTIONAL, .bit = COMMAND_HAVE),
	VM(command, "argv", REP_STRS),
	VM(exit_status, "exit_status", REP_INT, .help = "Exit status of the command, a number (128+N: killed by signal N).",
	   .flags = REP_OPTIONAL, .bit = COMMAND_EXIT),
	VM(signal_name, "signal", REP_STR, .flags = REP_OPTIONAL | REP_NOPROM, .bit = COMMAND_SIGNAL),
	VM(max_rss, "max_rss", REP_BYTES, .flags = REP_OPTIONAL, .bit = COMMAND_RSS,
	   .help = "Peak resident set size of the command (or of the largest of the children it "
	           "waited for), from wait4, in bytes."),
	FIG_END,
};

static const struct rep_fig end_figs[] = {
	VM(vmstat_truncated, "vmstat_truncated", REP_BOOL),
};

/* A line of JSON Lines: the sample, and per counter its last period. */
static const struct rep_fig line_figs[] = {
	VM(samples, "sample", REP_COUNT, .flags = REP_NOPROM),
	VM(elapsed_us, "elapsed_seconds", REP_FIX, .dec = 6, .flags = REP_NOPROM),
};
static const struct rep_fig increase_figs[] = {
	CTR(increase, "increase", REP_COUNT, .flags = REP_NOPROM),
	CTR(rate, "rate", REP_FIX, .dec = 3, .flags = REP_NOPROM),
};

/* -f A,B or +A,B, split in place (argv is ours to write).  Names added
 * with + are kept after the defaults even when they are among them: which
 * defaults (the system's or a cgroup's) is known once every option is
 * read (defaults()). */
static int fields(char *s)
{
	char *e, *c;
	unsigned i;

	if (*s == '+')
		s++;
	else
		TT.field_count = TT.default_count = 0;
	for (;;) {
		if ((e = strchr(s, ',')))
			*e = 0;
		for (c = s; (*c >= 'a' && *c <= 'z') || *c == '_' || (*c >= '0' && *c <= '9'); c++)
			;
		if (*c || c == s)
			return mb_warn(s, "not a /proc/vmstat counter name"), -1;
		for (i = TT.default_count; i < TT.field_count && strcmp(TT.names[i], s); i++)
			;
		if (i == TT.field_count) {
			if (TT.field_count == VM_MAX_FIELDS)
				return mb_warn("-f", "more than 32 counters (VM_MAX_FIELDS)"), -1;
			TT.names[TT.field_count++] = s;
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* A file into buf: on the live kernel from an fd opened once, as a read at
 * offset 0 makes a /proc file anew (an open and a close cost about as much
 * as reading meminfo); in a captured tree opened each time, as a new file
 * may have been renamed over the old one. */
static long read_file(enum proc_file file, const char *path, char *buf, size_t cap, int *truncated)
{
	int *fd = &TT.live_fd[file];

	if (!rd_live())
		return rd_file(path, buf, cap, truncated);
	if (*fd < 0)
		*fd = rd_open(path, O_RDONLY);
	return *fd < 0 ? *fd : rd_fd(*fd, buf, cap, truncated);
}

static long read_proc(enum proc_file file, const char *path, int *truncated)
{
	return read_file(file, path, TT.buf, sizeof TT.buf, truncated);
}

/* The path of one of the cgroup's files (in cgroup_path, until the next
 * call), or 0 when its version has no such file (v1: no PSI). */
static const char *cgroup_file_path(enum cg_file file)
{
	return cg_path(TT.cgroup_path, sizeof TT.cgroup_path, TT.cgroup_dir, TT.cgroup_version, file);
}

/* What reading a cgroup file has to say, said once a file: the files
 * are read at every sample. */
static void cgroup_said(enum cg_file file, const struct diag *d)
{
	if (mb_diag_set(d) && !(TT.cgroup_warned >> file & 1)) {
		TT.cgroup_warned |= 1u << file;
		mb_warn_diag(d);
	}
}

/* A counter of -f that the kernel's file lacks (/proc/vmstat, or with
 * --cgroup its memory.stat and events file) is warned about once, at the
 * first sample, with the names of the file nearest it: a typo ("pgfualt")
 * would otherwise look like a counter of another kernel. */
static void unknown_counters(const char *b, size_t n, const unsigned char *have)
{
	const char *end = b + n, *p, *nl, *space;
	const char *v[10 + 2 * CLI_NEAR_MAX] = { "-f", " '", 0, "'", MB_WHY, "not in /proc/vmstat" };
	unsigned i, k, w;

	if (TT.cgroup) {
		v[5] = "not in the cgroup's memory.stat or ";
		v[6] = cg_file((int)TT.cgroup_version, CG_EVENTS);
	}
	for (i = TT.default_count; i < TT.field_count; i++) {
		struct cli_near near = { .word = TT.names[i] };
		if (have[i])
			continue;
		/* a key said twice in a cgroup file was made '#' (cg_read_kv) */
		for (p = b; p < end; p = nl + 1) {
			if (!(nl = memchr(p, '\n', end - p)))
				nl = end;
			if (*p != '#' && (space = memchr(p, ' ', nl - p)))
				cli_near_offer(&near, p, space - p);
		}
		v[2] = TT.names[i];
		w = TT.cgroup ? 7 : 6;
		for (k = 0; k < near.n; k++) {
			v[w++] = k ? ", " : "; nearest: ";
			v[w++] = near.name[k];
		}
		v[w] = 0;
		mb_warnv(v);
	}
}

/* A captured vmstat (every sample) or the live one (at the baseline) is
 * checked whole once: every line "name N", N within 2^64, no NUL, and a
 * final newline.  The first damage is a warning naming the line. */
static void check_vmstat(const char *b, long n, const char *file)
{
	const char *p = b, *s, *name;
	size_t len, name_len;
	uint64_t v;
	unsigned long line = 0;
	int rc;

	while (!TT.vmstat_damage_warned && sc_line(&p, b + n, &s, &len)) {
		line++;
		if (len && (!sc_namenum(s, len, &name, &name_len, &v, &rc) || rc == SC_OVF
		            || memchr(s, 0, len))) {
			TT.vmstat_damage_warned = 1;
			mb_warn_line(file, line, "not 'name N' (N below 2^64): the line is not used");
		}
	}
	if (!TT.vmstat_damage_warned && n && b[n - 1] != '\n') {
		TT.vmstat_damage_warned = 1;
		mb_warn(file, "file ends in the middle of a line");
	}
}

/* The cgroup's counters into buf, as one "name N" text: memory.stat, then
 * memory.events (v1: memory.oom_control), which has no key of
 * memory.stat; each read by cg_read_kv (its damage said once, a key
 * twice in a file taken once, its first value).  *truncated: memory.stat
 * did not fit.  The length, or -errno when memory.stat cannot be read
 * (said by the caller; the events file unreadable: its counters are
 * null). */
static long read_cgroup_counters(int *truncated)
{
	struct diag d;
	const char *path = cgroup_file_path(CG_STAT);
	long n = path ? cg_read_kv(path, &TT.live_fd[CG_FIRST + CG_STAT], TT.buf, sizeof TT.buf, &d) : -ENOENT, k;

	*truncated = 0;
	if (n < 0)
		return n;
	if (d.why == cg_cut)
		*truncated = 1;   /* said as /proc/vmstat's is */
	else
		cgroup_said(CG_STAT, &d);
	if (n && TT.buf[n - 1] != '\n' && (size_t)n < sizeof TT.buf - 1)
		TT.buf[n++] = '\n';
	if (!(path = cgroup_file_path(CG_EVENTS)))
		return n;
	k = cg_read_kv(path, &TT.live_fd[CG_FIRST + CG_EVENTS], TT.buf + n, sizeof TT.buf - n, &d);
	cgroup_said(CG_EVENTS, &d);
	return k < 0 ? n : n + k;
}

/* A reading of a counter: a new baseline, or its increase since the reading
 * before.  The first time it goes backwards is a warning. */
static uint64_t read_counter(struct rate_ctr *c, int base, int have, uint64_t v, const char *name)
{
	unsigned restarts = c->restarts;
	uint64_t increase = 0;

	if (base)
		rate_base(c, have, v);
	else
		increase = rate_add(c, have, v, TT.period_us);
	if (c->restarts > restarts && !restarts)
		mb_warn(name, "went backwards: counting on from its new value");
	return increase;
}

/* Each memory figure's extreme so far (or its last value), by its rule;
 * at the baseline also its starting value. */
static void keep_memory(const uint64_t *now, const unsigned char *have, int base)
{
	const unsigned char *rule = memory_rule[!!TT.cgroup];
	unsigned i, n = TT.cgroup ? CGROUP_MEMORY_N : MEMORY_N;
	uint64_t v;

	for (i = 0; i < n; i++) {
		v = now[i];
		if (base && have[i]) {
			TT.start[i] = v;
			TT.start_have |= 1u << i;
		}
		if (have[i] && (!(TT.memory_have >> i & 1) || rule[i] == LAST
		                || (rule[i] == LOWEST ? v < TT.memory[i] : v > TT.memory[i]))) {
			TT.memory[i] = v;
			TT.memory_have |= 1u << i;
		}
	}
}

/* The memory figures of this sample's meminfo: the values as meminfo_parse
 * finds them; a captured file is also parsed whole, for its diagnostics. */
static void read_memory(int live, int base)
{
	struct meminfo *m = &TT.meminfo;
	uint64_t now[MEMORY_N];
	unsigned char have[MEMORY_N];
	int truncated;
	long n;

	/* a captured file through meminfo_read, for its diagnostics */
	n = live ? read_proc(MEMINFO_FILE, "/proc/meminfo", &truncated) : meminfo_read(m, TT.buf, sizeof TT.buf);
	if (!live)
		mb_warn_diag(&m->diag);
	if (n < 0) {
		if (n != -ENOENT && !TT.read_failed) {
			TT.read_failed = 1;
			mb_warn_errno("/proc/meminfo", -n);
		}
		return;
	}
	if (live)
		meminfo_parse(TT.buf, n, m);
	now[MIN_AVAILABLE] = MI_GET(m, MI_MemAvailable);
	have[MIN_AVAILABLE] = MI_HAS(m, MI_MemAvailable);
	now[MIN_FREE] = MI_GET(m, MI_MemFree);
	have[MIN_FREE] = MI_HAS(m, MI_MemFree);
	now[MAX_SWAP_USED] = sat_sub(MI_GET(m, MI_SwapTotal), MI_GET(m, MI_SwapFree));
	have[MAX_SWAP_USED] = MI_HAS(m, MI_SwapTotal) & MI_HAS(m, MI_SwapFree);
	now[MAX_PROCESS] = sat_add(sat_add(MI_GET(m, MI_ActiveAnon), MI_GET(m, MI_InactiveAnon)),
	                           now[MAX_SWAP_USED]);
	have[MAX_PROCESS] = have[MAX_SWAP_USED] & MI_HAS(m, MI_ActiveAnon) & MI_HAS(m, MI_InactiveAnon);
	keep_memory(now, have, base);
}

static void cgroup_say(void *ctx, enum cg_file file, const struct diag *d)
{
	(void)ctx;
	cgroup_said(file, d);
}

/* The memory figures of the cgroup: its charge, swap, limit and peak
 * (cg_read_charge: absent, "max", unreadable or damaged, the figure is
 * null; the damage is said once a file).  A peak above the baseline's was
 * reached since: it is the highest charge, and the room below the limit
 * at that moment the least, however short it was between two samples. */
static void read_cgroup_memory(int base)
{
	uint64_t now[CGROUP_MEMORY_N];
	unsigned char have[CGROUP_MEMORY_N];
	struct cg_charge c;
	int has_current, has_limit, has_peak;

	cg_read_charge(TT.cgroup_dir, TT.cgroup_version,
	               1u << CG_CURRENT | 1u << CG_SWAP | 1u << CG_MAX | 1u << CG_PEAK,
	               &TT.live_fd[CG_FIRST], &c, cgroup_say, 0);
	has_current = c.have >> CG_CURRENT & 1;
	has_limit = c.have >> CG_MAX & 1;
	has_peak = c.have >> CG_PEAK & 1;
	now[PEAK] = c.peak;
	have[PEAK] = has_peak;
	if (!base && has_peak && (TT.start_have >> PEAK & 1) && c.peak > TT.start[PEAK]
	    && (!has_current || c.peak > c.current)) {
		c.current = c.peak;
		has_current = 1;
	}
	now[MAX_CURRENT] = c.current;
	have[MAX_CURRENT] = has_current;
	now[MAX_SWAP_CURRENT] = c.swap;
	have[MAX_SWAP_CURRENT] = c.have >> CG_SWAP & 1;
	now[MIN_HEADROOM] = sat_sub(c.max, c.current);
	have[MIN_HEADROOM] = has_limit & has_current;
	now[LIMIT] = c.max;
	have[LIMIT] = has_limit;
	keep_memory(now, have, base);
}

/* One sample: /proc/vmstat, PSI and meminfo, one read each from fds kept
 * open on the live kernel, where the wanted lines of vmstat and meminfo are
 * looked for first where they were the last time.  In a captured tree, PSI
 * goes through psi_read and meminfo also through meminfo_read, as in the
 * other applets, for their diagnostics of a damaged file.  base: it is the
 * new baseline.  -errno when /proc/vmstat cannot be read. */
static long take_sample(int base)
{
	uint64_t value[VM_MAX_FIELDS];
	unsigned char have[VM_MAX_FIELDS];
	struct ring_entry *newest;
	struct psi *psi = &TT.psi;
	int truncated, live = rd_live(), psi_failed;
	uint64_t now = mono_us();
	int64_t wall = rep_clock_ms();
	long n;
	unsigned i;

	if (TT.cgroup_removed)
		return -ENOENT;
	n = TT.cgroup ? read_cgroup_counters(&truncated) : read_proc(VMSTAT_FILE, vmstat_file, &truncated);
	if (n < 0 && TT.cgroup && TT.base_us) {
		/* removed (ENOENT; ENODEV from an fd kept open): the report ends */
		TT.cgroup_removed = 1;
		if (n != -ENOENT && n != -ENODEV)
			mb_warn_errno(cgroup_file_path(CG_STAT), -n);
		mb_warn(TT.cgroup, "the cgroup is gone: the report ends at its last sample");
		return n;
	}
	if (n < 0) {
		if (TT.base_us && !TT.read_failed) {
			TT.read_failed = 1;
			mb_warn_errno(vmstat_file, -n);
		}
		return n;
	}
	if (truncated && !TT.vmstat_truncated) {
		TT.vmstat_truncated = 1;
		mb_warn(TT.cgroup ? cgroup_file_path(CG_STAT) : vmstat_file,
		        "longer than MB_FILE_MAX: the counters after it are missing");
	}
	if (!TT.cgroup && (!live || base))
		check_vmstat(TT.buf, n, vmstat_file);
	vm_pick(TT.buf, n, TT.names, TT.field_count, value, have, live ? TT.vmstat_at : 0);
	if (!TT.base_us && !truncated)
		unknown_counters(TT.buf, n, have);
	if (TT.cgroup) {   /* v2's memory.pressure; v1 has none */
		struct diag d = { 0 };
		const char *path = cgroup_file_path(CG_PRESSURE);

		psi_failed = !path || cg_read_pressure(path, &TT.live_fd[CG_FIRST + CG_PRESSURE], TT.buf,
		                                       sizeof TT.buf, psi, &d);
		cgroup_said(CG_PRESSURE, &d);
	} else {
		psi_failed = live ? (n = read_proc(PSI_FILE, psi_file, &truncated)) < 0 || psi_parse(TT.buf, n, psi)
		                  : psi_read(psi);
		if (!live)
			mb_warn_diag(&psi->diag);
		/* live, as psi_read says it: absent or off (psi=0) is no PSI,
		 * another error (no file descriptor left) a warning */
		else if (n < 0 && n != -ENOENT && n != -EOPNOTSUPP && !TT.read_failed) {
			TT.read_failed = 1;
			mb_warn_errno(psi_file, -n);
		}
	}
	if (psi_failed) {
		memset(&psi->some, 0, sizeof psi->some);
		memset(&psi->full, 0, sizeof psi->full);
	}

	TT.period_us = now - TT.now_us;
	TT.now_us = now;
	TT.sample_time = wall;
	if (base) {
		TT.base_us = now;
		TT.samples = TT.ring_used = TT.memory_have = TT.start_have = 0;
	} else {
		TT.samples++;
	}
	TT.elapsed_us = now - TT.base_us;
	TT.ring_newest = TT.ring_newest < TT.window ? TT.ring_newest + 1 : 0;
	TT.ring_used += TT.ring_used <= TT.window;
	newest = &TT.ring[TT.ring_newest];
	newest->time_us = now;
	for (i = 0; i < TT.field_count; i++) {
		if (base)
			read_counter(&TT.counters[i], 1, have[i], value[i], TT.names[i]);
		else
			TT.increase[i] = read_counter(&TT.counters[i], 0, have[i], value[i], TT.names[i]);
		newest->count[i] = TT.counters[i].count;
	}
	read_counter(&TT.psi_stall[0], base, psi->some.have, psi->some.total, psi_file);
	read_counter(&TT.psi_stall[1], base, psi->full.have, psi->full.total, psi_file);
	if (TT.cgroup)
		read_cgroup_memory(base);
	else
		read_memory(live, base);
	return 0;
}

/* The figures of counter i (recent: over the ring, oldest to newest). */
static const struct counter_rec *counter_rec(unsigned i)
{
	struct counter_rec *r = &TT.rec;
	const struct rate_ctr *c = &TT.counters[i];
	const struct ring_entry *newest = &TT.ring[TT.ring_newest];
	int oldest = (int)TT.ring_newest + 1 - (int)TT.ring_used;

	if (oldest < 0)
		oldest += (int)TT.window + 1;
	r->name = TT.names[i];
	r->increase = TT.increase[i];
	r->rate = rate_rate(TT.increase[i], TT.period_us);
	r->count = c->count > INT64_MAX ? INT64_MAX : (int64_t)c->count;
	r->average_rate = rate_rate(c->count, TT.elapsed_us);
	r->max_rate = c->max;
	r->recent_rate = rate_rate(newest->count[i] - TT.ring[oldest].count[i],
	                         newest->time_us - TT.ring[oldest].time_us);
	r->restarts = c->restarts;
	return r;
}

static const void *counter_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	*have = REP_ALL;
	return TT.counters[i].seen ? counter_rec(i) : 0;
}

static const char *counter_name(void *ctx, size_t i)
{
	(void)ctx;
	return TT.names[i];
}

/* The counters of figs: json/kv an object, a member per counter named by
 * it (null when the kernel lacks it); prom a sample per counter labelled
 * with its name. */
static void counters_report(const struct rep_fig *figs, size_t n)
{
	const struct rep_list l = { "counters", "vmstat", figs, n, TT.field_count, counter_row, 0, 0 };

	rep_list_named(&l, counter_name);
}

/* The table of counters, laid out by counter_figs' columns, the names'
 * as wide as the longest. */
static void counter_table(void)
{
	struct rep_fig figs[REP_N(counter_figs)];
	size_t len;
	unsigned i;

	memcpy(figs, counter_figs, sizeof figs);
	for (i = 0; i < TT.field_count; i++)
		if ((len = strlen(TT.names[i])) > figs[0].width)
			figs[0].width = len > 255 ? 255 : len;
	rep_table_head(figs, REP_N(figs));
	for (i = 0; i < TT.field_count; i++)
		rep_table_row(figs, REP_N(figs), counter_rec(i), TT.counters[i].seen ? REP_ALL : 0, 0);
}

/* Whether oom_kill (the system's or the cgroup's, when metered) rose since
 * the baseline: a command killed by SIGKILL meanwhile was, as likely as
 * not, the OOM killer's victim. */
static int oom_killed(void)
{
	unsigned i;

	for (i = 0; i < TT.field_count; i++)
		if (!strcmp(TT.names[i], "oom_kill"))
			return TT.counters[i].seen && TT.counters[i].count > 0;
	return 0;
}

/* A table cell: v with dec (0 or 3) decimals, or '-'. */
static void cell(int ok, uint64_t v, int dec, int width)
{
	if (ok) {
		tb_fixu(v, dec, width);
	} else {
		out_pad(mb.fo, 1, width);
		fo_c('-');
	}
}

/* Microseconds as seconds with 3 decimals, truncated: fix_str's 6 cut to 3. */
static void seconds(uint64_t us, int width)
{
	char b[32];
	int n = fix_str(b, us, 6) - 3;

	out_pad(mb.fo, n, width);
	out_mem(mb.fo, b, n);
}

static int column_width(unsigned i)
{
	int w = strlen(TT.names[i]);
	return w < 8 ? 9 : w + 1;
}

/* A table line of the last sample (after a baseline: the header). */
static void table_line(int header)
{
	const struct counter_rec *r;
	unsigned i;

	if (header)
		fo_s("    TIME");
	else
		seconds(TT.elapsed_us, 8);
	for (i = 0; i < TT.field_count; i++) {
		if (header) {
			out_pad(mb.fo, strlen(TT.names[i]), column_width(i));
			fo_s(TT.names[i]);
			fo_s("         /s");
		} else {
			r = counter_rec(i);
			cell(TT.counters[i].seen, r->increase, 0, column_width(i));
			cell(TT.counters[i].seen, r->rate, 3, 11);
		}
	}
	tb_nl();
	TT.lines_written = 1;
}

/* A line per sample: table, or JSON Lines (kv and prom are quiet). */
static void sample_line(int header)
{
	struct out *summary_to = mb.fo;

	if (TT.quiet)
		return;
	mb.fo = &out1;   /* with -O too: only the summary goes to FILE */
	if (TT.table) {
		table_line(header);
	} else if (!header) {
		rep_stamp(TT.sample_time);   /* a line carries its sample's time */
		rep_begin();
		rep_figs("vmstat", line_figs, REP_N(line_figs), &TT, REP_ALL);
		counters_report(increase_figs, REP_N(increase_figs));
		rep_end();
		rep_stamp(0);
	}
	out_flush(mb.fo);
	mb.fo = summary_to;
}

/* The key of figure k of enum memory_figure */
static const char *memory_key(int k)
{
	const struct rep_fig *f = TT.cgroup ? cgroup_memory_figs : memory_figs;

	while (f->bit != MEMORY_BIT(k))
		f++;
	return f->key;
}

/* A memory figure in the table: its value, or '-' */
static void memory_cell(unsigned have, int k, const uint64_t *v)
{
	if (have >> k & 1)
		tb_size(v[k], 0);
	else
		fo_c('-');
}

/* Where a figure was read: its unit in the table, " (KiB)" */
static void table_unit(void)
{
	if (*tb_unit()) {
		fo_s(" (");
		fo_s(tb_unit());
		fo_c(')');
	}
}

/* The cgroup's own peak, its value at the start beside it; or why there
 * is none: the file absent (memory.peak came with Linux 5.19), or said
 * as damaged at the sample. */
static void peak_line(void)
{
	const char *file = cg_file((int)TT.cgroup_version, CG_PEAK);

	fo_s("peak");
	table_unit();
	fo_s(": ");
	if (!(TT.memory_have >> PEAK & 1)) {
		fo_s("- (");
		fo_s(TT.cgroup_warned >> CG_PEAK & 1 ? "damaged " : "no ");
		fo_s(file);
		fo_s(TT.cgroup_version == 2 && !(TT.cgroup_warned >> CG_PEAK & 1)
		     ? ": Linux before 5.19)\n" : ")\n");
		return;
	}
	memory_cell(TT.memory_have, PEAK, TT.memory);
	fo_s(" (start ");
	memory_cell(TT.start_have, PEAK, TT.start);
	fo_s(TT.start_have >> PEAK & 1 && TT.memory[PEAK] > TT.start[PEAK]
	     ? "; reached since the start)\n" : "; since the cgroup was made)\n");
}

/* The command's end: its status spelled out, its peak resident size. */
static void command_lines(void)
{
	unsigned i;

	fo_s("command:");
	for (i = 0; TT.command[i]; i++) {
		fo_c(' ');
		out_safe(mb.fo, TT.command[i], strlen(TT.command[i]));
	}
	fo_s("\nexit status: ");
	cell(TT.exit_status >= 0, TT.exit_status, 0, 0);
	if (TT.exit_signal) {
		fo_s(" (killed by ");
		if (TT.signal_name) {
			fo_s(TT.signal_name);
		} else {
			fo_s("signal ");
			out_u64(mb.fo, TT.exit_signal);
		}
		if (TT.exit_signal == SIGKILL && oom_killed())
			fo_s(", by the OOM killer: oom_kill rose");
		fo_c(')');
	}
	tb_nl();
	if (TT.have_rss) {
		fo_s("max_rss");
		table_unit();
		fo_s(": ");
		tb_size(TT.max_rss, 0);
		fo_s(" (the command's peak resident size, from wait4)\n");
	}
	if (TT.exit_status >= 0 && TT.samples < 2)
		fo_s("note: the command ended before a second sample (-i): the extremes are "
		     "of its start and end only\n");
}

static void summary_table(void)
{
	int k;

	if (TT.lines_written)
		tb_nl();
	rep_table_stamp();
	if (TT.cgroup) {
		fo_s("cgroup ");
		out_safe(mb.fo, TT.cgroup, strlen(TT.cgroup));
		fo_s(TT.cgroup_version == 1 ? " (v1)" : " (v2)");
		fo_s(TT.cgroup_removed ? ", removed: the last sample before\n" : "\n");
	}
	fo_s("elapsed ");
	seconds(TT.elapsed_us, 0);
	fo_s(" s, samples ");
	out_u64(mb.fo, TT.samples);
	fo_s(", interval ");
	seconds(TT.interval_us, 0);
	fo_s(" s, window ");
	out_u64(mb.fo, TT.window);
	tb_nl();
	counter_table();
	fo_s("memory");
	table_unit();
	for (k = 0; k < MEMORY_N; k++) {
		fo_s(k ? ", " : ": ");
		fo_s(memory_key(k));
		fo_c(' ');
		memory_cell(TT.memory_have, k, TT.memory);
		fo_s(" (start ");
		memory_cell(TT.start_have, k, TT.start);
		fo_c(')');
	}
	tb_nl();
	if (TT.cgroup)
		peak_line();
	fo_s("psi stall seconds:");
	for (k = 0; k < 2; k++) {
		fo_s(k ? ", full " : " some ");
		if (TT.psi_stall[k].seen)
			out_fix(mb.fo, TT.psi_stall[k].count, 6);
		else
			fo_c('-');
	}
	tb_nl();
	if (TT.command)
		command_lines();
}

/* json/kv: one object; prom: the same figures as metrics, in the same order,
 * where json has them. */
static void report(void)
{
	uint64_t memory = 0, psi = 0, command = 0;
	int k;

	for (k = 0; k < CGROUP_MEMORY_N; k++)
		memory |= (uint64_t)(TT.memory_have >> k & 1) << MEMORY_BIT(k) |
		          (uint64_t)(TT.start_have >> k & 1) << START_BIT(k);
	if (TT.psi_stall[0].seen || TT.psi_stall[1].seen)
		psi = (uint64_t)1 << PSI_HAVE | (uint64_t)!!TT.psi_stall[0].seen << PSI_SOME |
		      (uint64_t)!!TT.psi_stall[1].seen << PSI_FULL;
	if (TT.command)
		command = (uint64_t)1 << COMMAND_HAVE | (uint64_t)(TT.exit_status >= 0) << COMMAND_EXIT |
		          (uint64_t)!!TT.signal_name << COMMAND_SIGNAL | (uint64_t)TT.have_rss << COMMAND_RSS;
	rep_begin();
	rep_figs("vmstat", summary_figs, REP_N(summary_figs), &TT, REP_ALL);
	rep_figs("vmstat", cgroup_figs, REP_N(cgroup_figs), &TT, TT.cgroup ? REP_ALL : 0);
	counters_report(counter_figs, REP_N(counter_figs));
	if (TT.cgroup)
		rep_figs("vmstat", cgroup_memory_figs, REP_N(cgroup_memory_figs), &TT, memory);
	else
		rep_figs("vmstat", memory_figs, REP_N(memory_figs), &TT, memory);
	rep_figs("vmstat", psi_figs, REP_N(psi_figs), &TT, psi);
	rep_figs("vmstat", command_figs, REP_N(command_figs), &TT, command);
	rep_figs("vmstat", end_figs, REP_N(end_figs), &TT, REP_ALL);
	rep_end();
}

/* The summary: 0, or 1 after a write error (-O FILE's: it says so) */
static int summary(void)
{
	/* -O FILE: each summary replaces it; a line per sample goes on to
	 * stdout, out1 between summaries */
	if (out_begin(mb.fo))
		return 1;
	/* --every: each summary has its time (of its last sample), as a
	 * report of the other applets' --every has */
	if (mb.every_us)
		rep_stamp(TT.sample_time);
	if (TT.table)
		summary_table();
	else
		report();
	rep_stamp(0);
	/* a stop signal is the meter's way to end: its summary replaces FILE */
	return mb.out_path ? out_end(1) : out_flush(mb.fo) < 0;
}

/* Signals.  A request (SIGUSR1: the summary so far; SIGUSR2: a new
 * baseline; SIGCHLD: the command ended) is noted for the loop, which looks
 * at the notes with the handled signals blocked and then sleeps in ppoll,
 * which unblocks them atomically: none is lost between the look and the
 * sleep.  Nothing is blocked anywhere else, so a signal always gets through
 * a read or a write that waits; a request restarts it (SA_RESTART).
 * A signal that ends the run sets mb.stop and restarts nothing: a blocked
 * write returns, and from then on no write blocks (out_flush), so the
 * report ends as far as its reader takes it.  Over time these are SIGINT,
 * SIGTERM and SIGHUP, as in every long-running mode of membox.  Around a
 * command also every other signal whose default would end the meter and
 * leave the command running; the synchronous ones (SIGSEGV and the like)
 * would be a bug of ours and keep their default, and for them and SIGKILL
 * the command has PR_SET_PDEATHSIG. */
#define SIGBIT(sig) (1u << (sig))
#define STOP_SEEN 1u    /* bit 0, no signal's: over time, a signal ended the run */
#define EVERY_DUE (1u << 31)   /* no request's: a summary of --every is due */

static const int also_ending[] = {
	SIGQUIT, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGEMT
	SIGEMT,
#endif
};

static void on_request(int sig, siginfo_t *info, void *context)
{
	(void)info, (void)context;
	TT.signals_seen |= SIGBIT(sig);
}

/* Around a command the meter stands in for it: the signal is passed on and
 * the loop waits for the command to end.  Not a ^C or ^\ of the terminal
 * (si_code SI_KERNEL): the terminal sends it to the whole foreground
 * process group, the command too, and a second one could reach a command
 * that handles the first. */
static void on_stop(int sig, siginfo_t *info, void *context)
{
	(void)context;
	run_stop(sig);
	if (TT.child > 0 && !((sig == SIGINT || sig == SIGQUIT) && info->si_code == SI_KERNEL))
		kill(TT.child, sig);
}

/* sig to handler (0: ignored), unless it was ignored when we started
 * (nohup, SIGINT of a background job): then it stays ignored, for the
 * command too.  SIGCHLD is always ours: ignored, the command's exit status
 * would be lost. */
static void set_action(int sig, void (*handler)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa = { .sa_flags = flags }, old;

	if (sigaction(sig, 0, &old) || (old.sa_handler == SIG_IGN && sig != SIGCHLD))
		return;
	if (handler) {
		sa.sa_sigaction = handler;
		sa.sa_flags |= SA_SIGINFO;
	} else {
		sa.sa_handler = SIG_IGN;
	}
	sigfillset(&sa.sa_mask);   /* one handler at a time: signals_seen |= is not atomic */
	if (sigaction(sig, &sa, 0))
		return;   /* one qemu-user keeps for itself */
	sigaddset(&TT.changed, sig);
	if (handler)
		sigaddset(&TT.handled, sig);
}

static void catch_requests(void)
{
	sigprocmask(SIG_SETMASK, 0, &TT.entry_mask);
	set_action(SIGUSR1, on_request, SA_RESTART);
	set_action(SIGUSR2, on_request, SA_RESTART);
	set_action(SIGCHLD, on_request, SA_RESTART | SA_NOCLDSTOP);
}

static void catch_stops(void)
{
	unsigned i;
	int sig;

	set_action(SIGINT, on_stop, 0);
	set_action(SIGTERM, on_stop, 0);
	set_action(SIGHUP, on_stop, 0);
	if (!TT.command)
		return;
	for (i = 0; i < REP_N(also_ending); i++)
		set_action(also_ending[i], on_stop, 0);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		set_action(sig, on_stop, 0);
	/* the report's reader gone (EPIPE) or -O FILE beyond the file size
	 * limit (EFBIG) is a write error, and the command's status is kept */
	set_action(SIGPIPE, 0, 0);
	set_action(SIGXFSZ, 0, 0);
}

/* Deadline k: k intervals after the baseline, saturated: one beyond the
 * clock's range (2^64 us, some 584,000 years) never comes. */
static uint64_t deadline(uint64_t k)
{
	return sat_add(TT.base_us, sat_mul(k, TT.interval_us));
}

/* Sleep until the deadline or a request.  The requests seen (over time
 * also STOP_SEEN once a signal ended the run), or 0 at the deadline. */
static unsigned wait_until(uint64_t deadline)
{
	sigset_t run;
	unsigned seen;

	sigprocmask(SIG_BLOCK, &TT.handled, &run);
	for (;;) {
		uint64_t now = mono_us(), left = deadline - now;
		struct timespec ts = { left / 1000000, left % 1000000 * 1000 };
		seen = TT.signals_seen | (!TT.command && mb.stop ? STOP_SEEN : 0);
		TT.signals_seen = 0;
		if (seen || now >= deadline)
			break;
		ppoll(0, 0, deadline == UINT64_MAX ? 0 : &ts, &run);
	}
	sigprocmask(SIG_SETMASK, &run, 0);
	return seen;
}

/* execvp(command[0], command) as musl's: a name without '/' is searched in
 * PATH (musl's default without it), EACCES is kept over ENOENT and ENOTDIR,
 * other errors stop the search.  Returns the errno. */
static int exec_path(void)
{
	char *const *argv = (char *const *)TT.command;
	const char *file = TT.command[0], *dirs = getenv("PATH"), *end;
	size_t len = strlen(file);
	int err = ENOENT, denied = 0;

	if (!*file)
		return ENOENT;
	if (strchr(file, '/'))
		return execve(file, argv, environ), errno;
	if (!dirs)
		dirs = "/usr/local/bin:/bin:/usr/bin";
	if (len > NAME_MAX)
		return ENAMETOOLONG;
	for (;; dirs = end + 1) {
		end = strchrnul(dirs, ':');
		if (end - dirs < PATH_MAX) {
			char *b = TT.exec_path;
			memcpy(b, dirs, end - dirs);
			b[end - dirs] = '/';
			memcpy(b + (end - dirs) + (end > dirs), file, len + 1);
			execve(b, argv, environ);
			err = errno;
			denied |= err == EACCES;
			if (err != EACCES && err != ENOENT && err != ENOTDIR)
				return err;
		}
		if (!*end)
			return denied ? EACCES : err;
	}
}
_Static_assert(VM_EXEC_PATH_MAX >= PATH_MAX + NAME_MAX + 2, "exec_path: a directory, '/', a name, NUL");

/* --cgroup=PATH: a path as /proc/PID/cgroup shows it, from the
 * hierarchy's root; "." and ".." would lead elsewhere. */
static int cgroup_path_ok(const char *path)
{
	const char *c = path, *e;

	if (*path != '/')
		return 0;
	for (; *c; c = *e ? e + 1 : e) {
		e = strchrnul(c + (*c == '/'), '/');
		if (*c == '/')
			c++;
		if ((e - c == 1 && *c == '.') || (e - c == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
	}
	return 1;
}

/* PATH as /proc/PID/cgroup prints it, in place (argv is ours to write):
 * a doubled '/' made one and a final '/' dropped, "//" as "/". */
static const char *cgroup_path_clean(char *path)
{
	char *to = path;
	const char *from;

	for (from = path; *from; from++)
		if (*from != '/' || to == path || to[-1] != '/')
			*to++ = *from;
	if (to > path + 1 && to[-1] == '/')
		to--;
	*to = 0;
	return path;
}

/* The cgroup's directory: the memory hierarchy's mount (cg_find: v1's
 * cgroup mount with the memory controller wins, as on a hybrid system
 * memory is bound to v1; else the cgroup2 mount) joined with PATH less the
 * mount's root (cg_dir); in a cgroup namespace under a mount of the
 * hierarchy from above it, with PATH below the namespace's own cgroup
 * (cg_ns_enter).  0, or 1 with a message. */
static int cgroup_find(void)
{
	static const char file[] = "/proc/self/mountinfo";
	size_t len = strlen(TT.cgroup);
	long n;
	int k = cg_find(&TT.hier, TT.buf, sizeof TT.buf), fd;

	if (k < 0)
		return mb_fail_errno(file, -k);
	if (!k)
		return mb_fail(file, "no memory cgroup hierarchy mounted (cgroup with memory, or cgroup2)");
	TT.cgroup_version = k;
	/* inside a cgroup namespace, the mount showing the hierarchy from
	 * above it: PATH is in the namespace, found below the mount point */
	if (cg_above_ns(&TT.hier) && !cg_ns_enter(&TT.hier))
		return mb_fail(TT.cgroup, "in this cgroup namespace, the memory hierarchy is mounted from ",
		               TT.hier.root, " above it and no cgroup there lists this process: unreachable");
	if ((n = cg_dir(&TT.hier, TT.cgroup, len, TT.cgroup_dir, sizeof TT.cgroup_dir)) < 0)
		return mb_fail(TT.cgroup, strlen(TT.hier.point) + len < sizeof TT.cgroup_dir
		                          ? "not under the memory hierarchy's mount root: unreachable"
		                          : "longer than MB_PATH_MAX with its mount point");
	/* the root of a hierarchy mounted on "/": one '/' before each file's name */
	while (n > 1 && TT.cgroup_dir[n - 1] == '/')
		TT.cgroup_dir[--n] = 0;
	if ((fd = rd_open(TT.cgroup_dir, O_RDONLY | O_DIRECTORY)) < 0)
		return mb_fail_errno(TT.cgroup_dir, -fd);
	close(fd);
	return 0;
}

/* The cgroup's counters read once before the baseline: the defaults it
 * lacks are left out (v1 before 5.9: no workingset_refault_*), those of
 * -f stay (null).  0, or 1 with a message (v2 without the memory
 * controller: no memory.stat). */
static int cgroup_fields_present(void)
{
	uint64_t value[VM_MAX_FIELDS];
	unsigned char have[VM_MAX_FIELDS];
	unsigned i, kept = 0, defaults_kept = 0;
	int truncated;
	long n = read_cgroup_counters(&truncated);

	if (n == -ENOENT && TT.cgroup_version == 2)
		return mb_fail(TT.cgroup_dir, "no memory.stat: the memory controller is not enabled here (v2)");
	if (n < 0)
		return mb_fail_errno(cgroup_file_path(CG_STAT), -n);
	vm_pick(TT.buf, n, TT.names, TT.field_count, value, have, 0);
	for (i = 0; i < TT.field_count; i++) {
		if (i == TT.default_count)
			defaults_kept = kept;
		if (i >= TT.default_count || have[i])
			TT.names[kept++] = TT.names[i];
	}
	/* those of -f follow the defaults kept (unknown_counters says them) */
	TT.default_count = i == TT.default_count ? kept : defaults_kept;
	TT.field_count = kept;
	return 0;
}

/* Unless -f A,B replaced them: the default counters, the system's or
 * with --cgroup the cgroup's (def, n), then those added with -f +A,B that
 * are not among them. */
static void defaults(const char *const *def, unsigned n_def)
{
	const char *added[VM_MAX_FIELDS];
	unsigned i, j, n = 0;

	if (!TT.default_count)
		return;
	for (i = TT.default_count; i < TT.field_count; i++)
		added[n++] = TT.names[i];
	memcpy(TT.names, def, n_def * sizeof *def);
	TT.field_count = TT.default_count = n_def;
	for (i = 0; i < n; i++) {
		for (j = 0; j < TT.field_count && strcmp(TT.names[j], added[i]); j++)
			;
		if (j == TT.field_count && TT.field_count < VM_MAX_FIELDS)
			TT.names[TT.field_count++] = added[i];
	}
}

/* vfork and exec the command.  Every signal is blocked until its pid is
 * in TT.child (one for it is then passed on, not lost) and, in the child,
 * until our actions are back to the defaults: a handler of ours must not
 * run there, in our memory until the exec.  An exec failure comes back
 * through a pipe closed on exec (qemu-user turns vfork into fork).  Should
 * the meter die of a signal it cannot catch (SIGKILL, the OOM killer), the
 * command gets SIGTERM.  0; -1 when it did not start, with a message unless
 * a signal ended the run before. */
static int start(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t all, before;
	pid_t meter = getpid(), pid = -1;
	int p[2], err = 0, sig;
	ssize_t k;

	if (syscall(SYS_pipe2, p, O_CLOEXEC) < 0)
		return mb_warn_errno(TT.command[0], errno), -1;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &before);
	if (!mb.stop && !(pid = vfork())) {
		for (sig = 1; sig < _NSIG; sig++)
			if (sigismember(&TT.changed, sig) == 1)
				sigaction(sig, &dfl, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != meter)
			_exit(127);   /* the meter is gone already */
		sigprocmask(SIG_SETMASK, &TT.entry_mask, 0);
		err = exec_path();
		(void)!write(p[1], &err, sizeof err);
		_exit(err == ENOENT || err == ENOTDIR ? 127 : 126);
	}
	if (pid > 0)
		TT.child = pid;
	else if (!mb.stop)
		err = errno;
	sigprocmask(SIG_SETMASK, &before, 0);
	close(p[1]);
	if (pid > 0) {
		do
			k = read(p[0], &err, sizeof err);
		while (k < 0 && errno == EINTR);
		if (k != sizeof err)
			err = 0;
	}
	close(p[0]);
	if (err)
		mb_warn_errno(TT.command[0], err);
	return pid > 0 ? 0 : -1;
}

/* The name of a signal that may end a command: "SIGKILL", or 0 (a
 * real-time one, or another the table lacks: the status says its number). */
static const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT", [SIGILL] = "SIGILL",
		[SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT", [SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE",
		[SIGKILL] = "SIGKILL", [SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM", [SIGXCPU] = "SIGXCPU",
		[SIGXFSZ] = "SIGXFSZ", [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF", [SIGIO] = "SIGIO",
		[SIGPWR] = "SIGPWR", [SIGSYS] = "SIGSYS",
	};

	return sig > 0 && (size_t)sig < REP_N(names) ? names[sig] : 0;
}

/* Whether the command ended (its status then in exit_status).  It is
 * looked at without reaping it first (WNOWAIT): its pid, free again once
 * reaped, leaves TT.child before a signal could go to another process. */
static int command_ended(void)
{
	struct rusage ru;
	siginfo_t info;
	pid_t pid = TT.child;
	int status;

	info.si_pid = 0;
	if (waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 || info.si_pid != pid)
		return 0;
	TT.child = 0;
	if (wait4(pid, &status, 0, &ru) != pid)
		return 1;   /* not ours to reap after all (SIGCHLD ignored): no status */
	TT.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (WIFSIGNALED(status)) {
		TT.exit_signal = WTERMSIG(status);
		TT.signal_name = signal_name(TT.exit_signal);
	}
	/* ru_maxrss: KiB on Linux, the largest of the command and of the
	 * children it waited for, as time -v reports it */
	TT.max_rss = sat_mul(ru.ru_maxrss > 0 ? (uint64_t)ru.ru_maxrss : 0, 1024);
	TT.have_rss = 1;
	return 1;
}

int vmstat_meter_main(int argc, char **argv)
{
	/* COMMAND's arguments are its own, options or not (as env, nice and
	 * timeout take theirs) */
	struct optst st = { .in_order = 1 };
	uint64_t period = 0, timed_samples = 0, run_start, due, at, every_due = UINT64_MAX;
	uint64_t summarized = 0;   /* --every: the sample of the last summary (now_us) */
	int id, stop, status, failed = 0;
	unsigned i, seen;
	long err;

	cli_init("vmstat-meter");
	TT.interval_us = 1000000;
	TT.window = 10;
	TT.sample_limit = TT.duration_us = UINT64_MAX;
	memcpy(TT.names, default_fields, sizeof default_fields);
	TT.field_count = TT.default_count = REP_N(default_fields);
	TT.exit_status = -1;
	for (i = 0; i < PROC_FILE_N; i++)
		TT.live_fd[i] = -1;
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case VMSTAT_OPT_FIELDS:
			if (fields((char *)st.arg))
				return cli_usage_error();
			break;
		case VMSTAT_OPT_QUIET:
			TT.quiet = 1;
			break;
		case VMSTAT_OPT_CGROUP:
			if (!cgroup_path_ok(st.arg)) {
				mb_warn(st.arg, "--cgroup: not a cgroup path (/A/B, as /proc/PID/cgroup shows it)");
				return cli_usage_error();
			}
			TT.cgroup = cgroup_path_clean((char *)st.arg);
			break;
		case VMSTAT_OPT_INTERVAL:
			/* 0.01 s to 2^32 - 1 s: deadlines in microseconds never wrap */
			if (cli_fix("-i", st.arg, 6, 10000, 4294967295000000, &TT.interval_us))
				return cli_usage_error();
			break;
		case VMSTAT_OPT_WINDOW:
			if (cli_fix("-w", st.arg, 0, 1, VM_MAX_WINDOW, &TT.window))
				return cli_usage_error();
			break;
		case VMSTAT_OPT_SAMPLES:
			if (cli_fix("--samples", st.arg, 0, 0, UINT64_MAX - 1, &TT.sample_limit))   /* the last: none */
				return cli_usage_error();
			break;
		case VMSTAT_OPT_DURATION:
			if (cli_fix("-d", st.arg, 6, 0, UINT64_MAX - 1, &TT.duration_us))   /* the last: none */
				return cli_usage_error();
			break;
		}
	}
	if (st.ind < argc) {
		TT.command = (const char *const *)argv + st.ind;
		if (TT.sample_limit != UINT64_MAX || TT.duration_us != UINT64_MAX)
			return mb_warn("--samples, -d", "not with a command"), cli_usage_error();
		mb.fo = &out2;
	}
	if (cli_root())
		return 1;
	if (TT.cgroup)
		defaults(cgroup_fields, REP_N(cgroup_fields));
	else
		defaults(default_fields, REP_N(default_fields));
	if (TT.cgroup && (cgroup_find() || cgroup_fields_present()))
		return 1;
	/* -O FILE: the summary (around a command too) goes to a temporary
	 * file that replaces FILE (out.h), the first one opened now: a FILE
	 * that cannot be written fails at once, and its descriptor is taken
	 * before the command's pipe needs one */
	if (mb.out_path) {
		TT.report_file.buf = TT.report_buf;
		mb.fo = &TT.report_file;
		if (out_begin(mb.fo))
			return 1;
	}
	TT.table = mb.fmt == FMT_TABLE;
	/* kv and prom are one document each: no line per sample */
	TT.quiet |= TT.command || mb.fmt >= FMT_KV;

	/* Until the baseline is read, a signal that ends the run does so by
	 * its default action: there is nothing to report yet, and the open of
	 * a file that never opens cannot hold it.  A request waits for it. */
	catch_requests();
	if ((err = take_sample(1)) < 0)
		return mb_fail_errno(TT.cgroup ? cgroup_file_path(CG_STAT) : vmstat_file, -err);
	catch_stops();
	run_start = TT.base_us;
	if (mb.every_us)
		every_due = sat_add(run_start, mb.every_us);
	if (TT.command && start() < 0)
		TT.exit_status = mb.stop ? 128 + mb.stop : 127;
	if (TT.sample_limit)
		sample_line(1);
	while (!TT.command || TT.child) {
		if (!TT.command && (timed_samples >= TT.sample_limit
		                    || TT.now_us - run_start >= TT.duration_us))
			break;
		at = due = deadline(period + 1);
		if (every_due < at)
			at = every_due;
		seen = wait_until(at);
		if (!seen && mono_us() >= every_due)
			seen = EVERY_DUE;
		if (seen & SIGBIT(SIGCHLD) && command_ended()) {
			take_sample(0);
			break;
		}
		if (seen & SIGBIT(SIGUSR2)) {
			take_sample(1);
			period = 0;
			sample_line(1);
			continue;
		}
		stop = seen & STOP_SEEN;
		if (seen & (SIGBIT(SIGUSR1) | EVERY_DUE) || !seen || stop) {
			take_sample(0);
			if (!TT.cgroup_removed)
				sample_line(0);
			/* a sample of its deadline, one of --every's too when both fall due */
			timed_samples += !(seen & ~EVERY_DUE) && TT.now_us >= due;
			/* --every: the next deadline after now, those missed skipped */
			if (seen & EVERY_DUE)
				every_due = sat_add(run_start, sat_mul((TT.now_us - run_start) / mb.every_us + 1,
				                                       mb.every_us));
			/* the next deadline more than half an interval away */
			period = (TT.elapsed_us + TT.interval_us / 2) / TT.interval_us;
			if (stop)
				break;
			if (seen) {
				failed |= summary();
				summarized = TT.now_us;
			}
		}
		if ((mb.fo->err || out1.err || TT.cgroup_removed) && !TT.command)
			break;
	}
	/* --every: a run that ends (-d) at the sample of a summary just
	 * written does not write it twice */
	if (!mb.every_us || summarized != TT.now_us)
		failed |= summary();
	/* over time, a cgroup removed ends the report early: 1 */
	status = TT.command ? (int)TT.exit_status : TT.cgroup_removed;
	return failed && !status ? 1 : status;
}
