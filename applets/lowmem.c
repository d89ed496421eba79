/* lowmem: ChromeOS-style available memory against the low-memory margins,
 * the process-memory ceiling, and check / wait / watch modes for scripts.
 * Reads /sys/kernel/mm/chromeos-low_mem/{available,margin,ram_vs_swap_weight},
 * /proc/meminfo, /proc/zoneinfo, /proc/sys/vm/{min_filelist_kbytes,
 * extra_free_kbytes}, /proc/swaps, /sys/block/zramN/mm_stat and
 * /proc/pressure/memory. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/statfs.h>
#include "applet.h"
#include "margin.h"
#include "meminfo.h"
#include "mono.h"
#include "psi.h"
#include "rd.h"
#include "sc.h"
#include "swaps.h"
#include "zoneinfo.h"

/* membox --help: the question the applet answers */
const char lowmem_purpose[] = "how close is the system to its low-memory margins (OOM)?";

static const char *const usage = "Usage: lowmem [OPTIONS]\n\n"
	"Available memory (ChromeOS's formula; the kernel's figure where it has one)\n"
	"against the low-memory margins (the kernel's, else ChromeOS's defaults,\n"
	"5.2% and 40% of MemTotal), and the process-memory ceiling.  Servers and\n"
	"routers often sit below 40% available: without the kernel's margins\n"
	"--check warns there unless --moderate is given.\n\n"
	"  -v, --verbose       the table: every row (default: level, margins, swap,\n"
	"                      process headroom, PSI)\n"
	"  -w, --weight=N      RAM vs swap weight (default: the kernel's, else 4)\n"
	"      --ratio=R       RAM cost of swapped memory, 0 to 1 (default: measured\n"
	"                      zram, else 0.40 for zram, 0 for disk) (old spelling: -r)\n"
	"      --critical=MiB, --moderate=MiB   the margins\n"
	"      --page-size=N   bytes per page (default: the kernel's; the capture's\n"
	"                      or derived for -R)\n"
	"      --check         a status line; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN\n"
	"      --wait[=LEVEL]  until LEVEL (critical, moderate) is reached; report\n"
	"      --recover       with --wait: until the level is left\n"
	"      --watch         the status line again when level or available change > 1%\n"
	"      --timeout=SEC   end --wait (exit 1) or --watch (exit 0); 0: at once\n"
	"  -i, --interval=SEC  re-evaluate at least this often (default 1)\n"
	"                      SEC: 3 decimals, at most 4294967295\n"
	CLI_REPEAT_HELP;

enum lowmem_option {
	LOWMEM_OPT_WEIGHT = 'w',
	LOWMEM_OPT_RATIO = 'r',   /* -r: the old spelling of --ratio */
	LOWMEM_OPT_INTERVAL = 'i',
	LOWMEM_OPT_VERBOSE = 'v',
	LOWMEM_OPT_CRITICAL = OPT_APPLET,
	LOWMEM_OPT_MODERATE,
	LOWMEM_OPT_PAGE_SIZE,
	LOWMEM_OPT_TIMEOUT,
	LOWMEM_OPT_CHECK,
	LOWMEM_OPT_WAIT,
	LOWMEM_OPT_WATCH,
	LOWMEM_OPT_RECOVER,
};

static const struct opt opts[] = {
	{ "weight", 'w', 1, LOWMEM_OPT_WEIGHT },
	{ "ratio", 'r', 1, LOWMEM_OPT_RATIO },
	{ "verbose", 'v', 0, LOWMEM_OPT_VERBOSE },
	{ "critical", 0, 1, LOWMEM_OPT_CRITICAL },
	{ "moderate", 0, 1, LOWMEM_OPT_MODERATE },
	{ "page-size", 0, 1, LOWMEM_OPT_PAGE_SIZE },
	{ "timeout", 0, 1, LOWMEM_OPT_TIMEOUT },
	{ "interval", 'i', 1, LOWMEM_OPT_INTERVAL },
	{ "check", 0, 0, LOWMEM_OPT_CHECK },
	{ "wait", 0, 2, LOWMEM_OPT_WAIT },
	{ "watch", 0, 0, LOWMEM_OPT_WATCH },
	{ "recover", 0, 0, LOWMEM_OPT_RECOVER },
	CLI_REPEAT_OPTS,
	{ 0, 0, 0, 0 }
};

#define MIB 1048576ull
/* --ratio R is kept in millionths */
#define RATIO_ONE 1000000
/* --timeout and -i: at most 2^32 - 1 seconds (136 years, "practically
 * never"), in milliseconds */
#define MAX_MS (4294967295ull * 1000)
/* The level of available memory: below the critical margin, below the
 * moderate one, or neither. */
enum lowmem_level { LEVEL_NONE, LEVEL_MODERATE, LEVEL_CRITICAL };
static const char *const level_names[] = { "none", "moderate", "critical" };
static const char *const check_status[] = { "OK", "WARNING", "CRITICAL" };
/* What ends --wait's sleep between evaluations */
enum lowmem_wake { WAKE_SYSFS, WAKE_PSI, WAKE_TIMER };
static const char *const wake_names[] = { "sysfs", "psi", "timer" };
static const char *const psi_kinds[] = { "some", "full" };
static const char *const psi_windows[] = { "avg10", "avg60", "avg300" };

GLOBALS(
	char meminfo_text[MB_FILE_MAX];   /* /proc/meminfo, read whole */
	struct lowmem_options {
		uint64_t weight;             /* RAM vs swap weight */
		uint64_t ratio;              /* RAM cost of swapped memory, RATIO_ONE is 1 */
		uint64_t critical, moderate; /* MiB */
		uint64_t page_size;
		uint64_t timeout, interval;  /* milliseconds */
		int weight_given, ratio_given, critical_given, moderate_given;
		int timeout_given, interval_given;
		int recover;
		int verbose;                 /* -v: the table's every row */
		int wait_level;              /* enum lowmem_level */
	} opt;
	int mode;                        /* LOWMEM_OPT_CHECK, _WAIT, _WATCH, or 0: a report */
	int check_written;               /* the --check line is out: its status is the exit status */
	char low_mem_path[64];
	int quiet;                       /* the files' damage was said at the first evaluation */
	struct meminfo meminfo;
	struct swaps swaps;
	struct psi psi;
	int psi_present;                 /* /proc/pressure/memory was read */
	struct zi zones;
	int page_size_how;
	uint64_t margins[LM_MAX_MARGINS];   /* the kernel's, bytes */
	int critical_default, moderate_default;   /* the margin in force is ChromeOS's default */
	struct lowmem_eval {             /* one evaluation, bytes unless said */
		uint64_t level;              /* enum lowmem_level */
		const char *level_name;
		const char *source;          /* of available: "kernel" or "computed" */
		const char *wake;            /* --wait's wake-up, or 0 */
		uint64_t available, computed_available, kernel_available;
		int64_t difference;          /* kernel_available - computed_available */
		uint64_t part_free, part_file, part_swap;   /* computed_available's parts */
		struct rep_array margins;
		int margin_off;              /* the kernel's notifier is disabled */
		uint64_t margins_dropped;
		uint64_t critical, moderate;
		int64_t critical_distance, moderate_distance;   /* available - margin */
		uint64_t weight;
		uint64_t mem_total, mem_available, extra_free, min_filelist;
		uint64_t reserve;            /* the zones' totalreserve_pages less extra_free */
		uint64_t swap_total, swap_used, swap_free;
		int zram;                    /* the swap is zram */
		uint64_t zram_gauge;         /* that as prom's 1 or 0 */
		uint64_t zram_orig, zram_used;   /* mm_stat orig_data_size, mem_used_total: sums */
		uint64_t ratio;              /* ratio_num / ratio_den in thousandths, rounded: shown */
		uint64_t ratio_num, ratio_den;   /* the RAM cost of swapped memory, as computed with */
		const char *ratio_source;
		uint64_t swap_reduction, usable_swap;
		uint64_t process_current, process_max;
		int64_t process_headroom;
		uint64_t watermark_min, watermark_low, watermark_high;   /* sums over the zones */
		uint64_t page_size;
		const char *page_size_source;
		int64_t elapsed;             /* --watch: milliseconds since the start */
		int64_t time;                /* --watch: when read, ms since the epoch (report.h) */
	} eval;
	/* have masks of the tables of figures below */
	uint64_t available_figs_have, memory_figs_have, swap_figs_have, psi_figs_have;
	struct lowmem_psi_row {          /* a sample of the psi families */
		const char *kind, *window;
		int64_t avg;                 /* hundredths of a percent */
		int64_t stall;               /* microseconds */
	} psi_row;
)
#define TT this.lowmem

/* ---- the figures ---- */

/* Each figure has its table text (label) and says what it is (help, the
 * prom HELP); one with a width is a line of the default table, the others
 * with a label are lines of -v's (table()).  The bits of a have mask name
 * the figures that may be absent. */
#define EV(member, key, kind, ...) FIG(struct lowmem_eval, member, key, kind, __VA_ARGS__)
#define FIG_BIT(bit) ((uint64_t)1 << (bit))

enum available_bit { AVAILABLE_WAKE = 1, AVAILABLE_KERNEL, AVAILABLE_DIFFERENCE };
static const struct rep_fig available_figs[] = {
	EV(level_name, "level", REP_STR, .label = "level", .width = 12),
	EV(level, "level", REP_COUNT, .flags = REP_NOTREE,
	   .help = "Low-memory level: 0 none, 1 moderate, 2 critical (available below that margin)."),
	EV(source, "source", REP_STR, .label = "source", .width = 12),
	EV(wake, "wake", REP_STR, .label = "wake", .width = 12, .flags = REP_OPTIONAL | REP_OMIT,
	   .bit = AVAILABLE_WAKE),
	EV(available, "available", REP_BYTES, .label = "available", .width = 12,
	   .help = "Available memory the level is decided on, in bytes: "
	           "the kernel's, else the formula's."),
	EV(computed_available, "computed_available", REP_BYTES, .label = "computed available",
	   .help = "Available memory by ChromeOS's formula from meminfo, in bytes."),
	EV(kernel_available, "kernel_available", REP_BYTES, .label = "kernel available",
	   .flags = REP_OPTIONAL, .bit = AVAILABLE_KERNEL,
	   .help = "Available memory as the kernel's low-memory notifier reports it, in bytes."),
	EV(difference, "difference", REP_SBYTES, .label = "difference",
	   .flags = REP_OPTIONAL | REP_NOPROM, .bit = AVAILABLE_DIFFERENCE),
	/* computed_available's parts: json and kv only */
	FIG_OBJ("parts"),
	EV(part_free, "free", REP_BYTES, .label = "parts free", .flags = REP_NOPROM),
	EV(part_file, "file", REP_BYTES, .label = "parts file", .flags = REP_NOPROM),
	EV(part_swap, "swap", REP_BYTES, .label = "parts swap", .flags = REP_NOPROM),
	FIG_END,
};

/* The table shows the kernel's margins on a line of their own. */
static const struct rep_fig margin_figs[] = {
	EV(margins, "margins", REP_ARRAY),
	EV(margin_off, "margin_off", REP_BOOL),
	EV(margins_dropped, "margins_dropped", REP_COUNT, .flags = REP_NOPROM),
};

enum memory_bit { MEMORY_MEM_AVAILABLE = 1, MEMORY_EXTRA_FREE };
static const struct rep_fig memory_figs[] = {
	EV(critical, "critical", REP_BYTES, .label = "critical", .width = 12,
	   .help = "Critical margin in force, in bytes: below it the level is 2, critical."),
	EV(moderate, "moderate", REP_BYTES, .label = "moderate", .width = 12,
	   .help = "Moderate margin in force, in bytes: below it the level is 1, moderate."),
	EV(critical_distance, "critical_distance", REP_SBYTES, .label = "critical distance", .width = 12,
	   .help = "Available memory above the critical margin in bytes (negative: below it)."),
	EV(moderate_distance, "moderate_distance", REP_SBYTES, .label = "moderate distance", .width = 12,
	   .help = "Available memory above the moderate margin in bytes (negative: below it)."),
	EV(weight, "weight", REP_COUNT, .label = "weight",
	   .help = "RAM vs swap weight of the formula, a number: swappable memory counts 1/weight."),
	EV(mem_total, "mem_total", REP_BYTES, .label = "mem total",
	   .help = "Total usable RAM (MemTotal) in bytes."),
	EV(mem_available, "mem_available", REP_BYTES, .label = "mem available",
	   .flags = REP_OPTIONAL | REP_NOPROM, .bit = MEMORY_MEM_AVAILABLE),
	EV(reserve, "reserve", REP_BYTES, .label = "reserve",
	   .help = "The kernel's total reserve less extra_free in bytes, as the formula takes it."),
	EV(extra_free, "extra_free", REP_BYTES, .label = "extra free",
	   .flags = REP_OPTIONAL | REP_NOPROM, .bit = MEMORY_EXTRA_FREE),
	/* an absent min_filelist_kbytes counts as 0 */
	EV(min_filelist, "min_filelist", REP_BYTES, .label = "min filelist",
	   .help = "vm.min_filelist_kbytes in bytes: file memory the formula leaves out."),
};

enum swap_bit { SWAP_ZRAM_ORIG = 1, SWAP_ZRAM_USED };
static const struct rep_fig swap_figs[] = {
	FIG_OBJ("swap"),
	EV(swap_total, "total", REP_BYTES, .label = "swap total", .width = 12,
	   .help = "Swap space (SwapTotal) in bytes."),
	EV(swap_used, "used", REP_BYTES, .label = "swap used", .width = 12,
	   .help = "Swap in use in bytes."),
	EV(swap_free, "free", REP_BYTES, .label = "swap free", .help = "Free swap (SwapFree) in bytes."),
	/* json's bool (table: yes or no), prom's 1 or 0 */
	EV(zram, "zram", REP_BOOL, .label = "swap zram"),
	EV(zram_gauge, "zram", REP_COUNT, .flags = REP_NOTREE, .help = "Is the swap zram: 1 yes, 0 no."),
	EV(zram_orig, "zram_orig", REP_BYTES, .label = "swap zram orig",
	   .flags = REP_OPTIONAL, .bit = SWAP_ZRAM_ORIG,
	   .help = "Data stored in zram, uncompressed (orig_data_size), in bytes."),
	EV(zram_used, "zram_used", REP_BYTES, .label = "swap zram used",
	   .flags = REP_OPTIONAL, .bit = SWAP_ZRAM_USED,
	   .help = "Memory zram uses to hold it (mem_used_total) in bytes."),
	EV(ratio, "ratio", REP_FIX, .dec = 3, .label = "swap ratio",
	   .help = "RAM cost of swapped memory: bytes of RAM per byte swapped, 0 to 1."),
	EV(ratio_source, "ratio_source", REP_STR, .label = "swap ratio source"),
	FIG_END,
};

static const struct rep_fig process_figs[] = {
	EV(swap_reduction, "swap_reduction", REP_BYTES, .label = "swap reduction",
	   .help = "Swap kept back for the critical margin in bytes."),
	EV(usable_swap, "usable_swap", REP_BYTES, .label = "usable swap",
	   .help = "Swap less the part kept back for the critical margin, in bytes."),
	FIG_OBJ("process"),
	EV(process_current, "current", REP_BYTES, .label = "process current",
	   .help = "Memory of processes in bytes: anonymous memory and swap in use."),
	EV(process_max, "max", REP_BYTES, .label = "process max",
	   .help = "Process memory the system holds before the critical margin, in bytes."),
	EV(process_headroom, "headroom", REP_SBYTES, .label = "process headroom", .width = 12,
	   .help = "Process ceiling less process memory in bytes (negative: above it)."),
	FIG_END,
	FIG_OBJ("watermarks"),
	EV(watermark_min, "min", REP_BYTES, .label = "watermarks min",
	   .help = "Min watermark summed over all zones, in bytes."),
	EV(watermark_low, "low", REP_BYTES, .label = "watermarks low",
	   .help = "Low watermark summed over all zones, in bytes."),
	EV(watermark_high, "high", REP_BYTES, .label = "watermarks high",
	   .help = "High watermark summed over all zones, in bytes."),
	FIG_END,
};

/* json and kv: psi.some.avg10 ...; a line the kernel does not print is
 * left out, the whole object is null without /proc/pressure/memory.  The
 * prom families are the lists below. */
enum psi_bit { PSI_HAVE = 1, PSI_SOME, PSI_FULL };
#define PSI_LINE(kind, line, bit_) \
	FIG_OBJ(kind, .flags = REP_OPTIONAL | REP_OMIT, .bit = bit_), \
	FIG(struct psi, line.avg[0], "avg10", REP_FIX, .dec = 2, .flags = REP_NOPROM), \
	FIG(struct psi, line.avg[1], "avg60", REP_FIX, .dec = 2, .flags = REP_NOPROM), \
	FIG(struct psi, line.avg[2], "avg300", REP_FIX, .dec = 2, .flags = REP_NOPROM), \
	FIG(struct psi, line.total, "total", REP_COUNT, .flags = REP_NOPROM), \
	FIG_END
static const struct rep_fig psi_figs[] = {
	FIG_OBJ("psi", .flags = REP_OPTIONAL, .bit = PSI_HAVE),
	PSI_LINE("some", some, PSI_SOME),
	PSI_LINE("full", full, PSI_FULL),
	FIG_END,
};

/* a row of the psi families has all its figures or none (its have mask
 * REP_ALL or 0); a family no row has is left out */
enum { PSI_ROW_HAVE = 1 };
#define PSI_ROW(member, key, kind, ...) FIG(struct lowmem_psi_row, member, key, kind, __VA_ARGS__)
static const struct rep_fig psi_avg_figs[] = {
	PSI_ROW(kind, "kind", REP_STR, .flags = REP_LABEL),
	PSI_ROW(window, "window", REP_STR, .flags = REP_LABEL),
	PSI_ROW(avg, "avg_percent", REP_FIX, .dec = 2, .flags = REP_OPTIONAL, .bit = PSI_ROW_HAVE,
	        .help = "Share of time tasks stalled on memory over the window, in percent."),
};
static const struct rep_fig psi_stall_figs[] = {
	PSI_ROW(kind, "kind", REP_STR, .flags = REP_LABEL),
	PSI_ROW(stall, "stall_seconds_total", REP_FIX, .dec = 6, .flags = REP_OPTIONAL | REP_COUNTER,
	        .bit = PSI_ROW_HAVE,
	        .help = "Time tasks stalled on memory since boot, in seconds."),
};

/* Not in the table, whose head says the page size. */
static const struct rep_fig page_figs[] = {
	EV(page_size, "page_size", REP_BYTES, .help = "Bytes per page used to convert zoneinfo pages."),
	EV(page_size_source, "page_size_source", REP_STR),
};

/* --watch's line in json and kv */
static const struct rep_fig watch_figs[] = {
	EV(elapsed, "elapsed", REP_FIX, .dec = 3),
	EV(level_name, "level", REP_STR),
	EV(available, "available", REP_BYTES),
	EV(critical, "critical", REP_BYTES),
	EV(moderate, "moderate", REP_BYTES),
};

/* ---- arithmetic ---- */

/* a x b / c rounded down, exact where a x b is beyond 2^64 (MemTotal x 520,
 * swap x a zram byte count): the 128-bit product by shift and add, then
 * divided bit by bit, as 32-bit targets have no 128-bit type.  c > 0; a
 * quotient beyond 2^64 - 1 saturates. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t high = 0, low = 0, quotient = 0, rest;
	int i, carry;

	for (i = 63; i >= 0; i--) {
		high = high << 1 | low >> 63;
		low <<= 1;
		if (b >> i & 1) {
			low += a;
			high += low < a;
		}
	}
	if (high >= c)
		return UINT64_MAX;
	/* long division; the rest stays below c, so 2 x rest + 1 fits in 65 bits */
	for (rest = high, i = 63; i >= 0; i--) {
		carry = rest >> 63;
		rest = rest << 1 | (low >> i & 1);
		quotient <<= 1;
		if (carry || rest >= c) {
			rest -= c;
			quotient |= 1;
		}
	}
	return quotient;
}

/* ---- reading ---- */

/* "/sys/kernel/mm/chromeos-low_mem/NAME" */
static const char *low_mem_file(const char *name)
{
	stpcpy(stpcpy(TT.low_mem_path, "/sys/kernel/mm/chromeos-low_mem/"), name);
	return TT.low_mem_path;
}

/* Damage of the files is said at the first evaluation only (--wait and
 * --watch evaluate again and again). */
static void said(const struct diag *d)
{
	if (!TT.quiet)
		mb_warn_diag(d);
}

static void bad_read(const char *path, long err, const char *why)
{
	struct diag d;
	said(rd_diag(&d, path, err, why));
}

/* A /proc/sys or sysfs number times mul: 1, or 0 and *value 0 when the
 * file is absent or damaged (said as rd_nums finds it). */
static int read_number(const char *path, uint64_t mul, uint64_t *value)
{
	struct diag d;
	int count = rd_nums(path, value, 1, mul, &d);

	said(&d);
	if (count != 1)
		return *value = 0, 0;
	return 1;
}

static uint64_t meminfo(int key)
{
	return MI_GET(&TT.meminfo, key);
}

/* The margins: the kernel's (its first two), else ChromeOS's defaults of
 * 520 bips and 40 % of MemTotal, unless given. */
static void read_margins(void)
{
	struct lowmem_eval *e = &TT.eval;
	const char *path = low_mem_file("margin");
	unsigned count = 0, dropped = 0, i;
	char b[128];
	int truncated, kind;
	long len = rd_file(path, b, sizeof b, &truncated);

	e->margin_off = 0;
	e->critical = mul_div(e->mem_total, 520, 10000);
	e->moderate = mul_div(e->mem_total, 4000, 10000);
	if (len < 0)
		bad_read(path, len, 0);
	if (len >= 0) {
		kind = mg_parse(b, len, TT.margins, LM_MAX_MARGINS, &count, &dropped);
		if (kind == MG_BAD || truncated) {
			bad_read(path, -EINVAL, "garbled: default margins used");
			count = 0;
		}
		e->margin_off = kind == MG_OFF;
		if (dropped)
			bad_read(path, -EINVAL, "beyond LM_MAX_MARGINS: ignored");
		for (i = 0; i < count; i++)
			TT.margins[i] <<= 20;   /* MiB below 2^44 (mg_parse): no overflow */
		if (count > 0)
			e->critical = TT.margins[0];
		if (count > 1)
			e->moderate = TT.margins[1];
	}
	e->margins.v = TT.margins;
	e->margins.n = count;
	e->margins_dropped = dropped;
	TT.critical_default = count < 1 && !TT.opt.critical_given;
	TT.moderate_default = count < 2 && !TT.opt.moderate_given;
	if (TT.opt.critical_given)
		e->critical = sat_mul(TT.opt.critical, MIB);
	if (TT.opt.moderate_given)
		e->moderate = sat_mul(TT.opt.moderate, MIB);
}

/* Swap, zram's compression and the RAM cost ratio of swapped memory. */
static void read_swap(void)
{
	struct lowmem_eval *e = &TT.eval;
	struct sw_zram z = { 0 };
	struct diag d;
	int err = sw_read(&TT.swaps), unknown, holds;

	if (err)
		bad_read(sw_file, err, 0);
	else if (TT.swaps.bad || TT.swaps.zram_dropped)
		bad_read(sw_file, 0, "lines skipped (garbled, or zram beyond SW_MAX_ZRAM)");
	else if (TT.swaps.nonl)
		bad_read(sw_file, 0, "no final newline: its last line may be cut");
	e->zram = !err && TT.swaps.nzram;
	e->zram_gauge = e->zram;
	while (e->zram && sw_zram_step(&TT.swaps, &z, &d))
		said(&d);
	e->zram_orig = z.orig;
	e->zram_used = z.used;
	unknown = z.unknown != 0;
	/* mkswap writes the swap header, page 0 of the device, and the
	 * kernel never swaps to page 0: a device holding no more than
	 * one page (zram counts whole pages; no Linux page is larger
	 * than 256 KiB, whatever a damaged capture derives) holds no
	 * swapped data */
	holds = z.orig_max > (e->page_size < 262144 ? e->page_size : 262144);
	/* no zram, or one device's figures unknown: no sums (null, and the
	 * ratio is zram's default, not measured from a part) */
	if (!e->zram || unknown) {
		TT.swap_figs_have &= ~(FIG_BIT(SWAP_ZRAM_ORIG) | FIG_BIT(SWAP_ZRAM_USED));
		e->zram_orig = e->zram_used = 0;
	}
	e->swap_total = meminfo(MI_SwapTotal);
	e->swap_free = meminfo(MI_SwapFree);
	e->swap_used = sat_sub(e->swap_total, e->swap_free);
	/* the ratio as the fraction it is (the byte counts, for measured zram),
	 * rounded only where it is shown */
	e->ratio_den = 1000;
	if (TT.opt.ratio_given) {
		e->ratio_source = "option";
		e->ratio_num = TT.opt.ratio;
		e->ratio_den = RATIO_ONE;
	} else if (e->zram_orig && holds) {
		e->ratio_source = "measured";
		e->ratio_num = e->zram_used;
		e->ratio_den = e->zram_orig;
	} else {
		e->ratio_source = e->zram ? "zram" : "disk";
		e->ratio_num = e->zram ? 400 : 0;
	}
	e->ratio = mul_div(e->ratio_num, 2000, e->ratio_den);   /* twice the thousandths: */
	if (e->ratio < UINT64_MAX)
		e->ratio = (e->ratio + 1) / 2;                       /* rounded half up */
}

/* A size at the end of its range has saturated (a sum or product beyond
 * 2^64 - 1 bytes, a difference beyond 2^63 - 1): said by its name, so that
 * the largest representable value is not taken for a measurement. */
static void say_saturated(const struct rep_fig *figs, size_t n, uint64_t have)
{
	size_t i;

	for (i = 0; i < n && !TT.quiet; i++) {
		const struct rep_fig *f = &figs[i];
		const void *value = (const char *)&TT.eval + f->off;

		if ((f->flags & REP_OPTIONAL) && !(have & FIG_BIT(f->bit)))
			continue;
		if ((f->kind == REP_BYTES && *(const uint64_t *)value == UINT64_MAX) ||
		    (f->kind == REP_SBYTES && (*(const int64_t *)value == INT64_MAX ||
		                               *(const int64_t *)value == INT64_MIN)))
			mb_warn(f->label, "saturated: shown as the largest value representable");
	}
}

/* Read everything once and compute the figures: 0, or 1 after a message. */
static int evaluate(void)
{
	struct lowmem_eval *e = &TT.eval;
	uint64_t anon, swappable, left;   /* left: usable swap less the RAM it costs */
	struct diag zoneinfo_said[ZI_SAY_N];
	int err = meminfo_read(&TT.meminfo, TT.meminfo_text, sizeof TT.meminfo_text);

	mb_warn_diag(&TT.meminfo.diag);
	if (err < 0)
		return mb_fail_errno("/proc/meminfo", -err);
	if (!MI_HAS(&TT.meminfo, MI_MemTotal) || !MI_HAS(&TT.meminfo, MI_MemFree))
		return mb_fail("/proc/meminfo", "no MemTotal or MemFree");
	/* mem_total is 0 before the first evaluation: said once */
	if ((~TT.meminfo.have >> MI_ActiveAnon & 15) && !e->mem_total)
		mb_warn("/proc/meminfo", "no Active/Inactive(anon/file) (before 2.6.28): counted as 0");
	err = zi_load(&TT.zones, &TT.meminfo, TT.opt.page_size, &e->page_size, &TT.page_size_how,
	              zoneinfo_said, TT.meminfo_text, sizeof TT.meminfo_text);
	mb_warn_diags(zoneinfo_said, ZI_SAY_N);
	if (err)
		return mb_fail_said();
	TT.available_figs_have = TT.memory_figs_have = TT.swap_figs_have = REP_ALL;
	if (!e->wake)
		TT.available_figs_have &= ~FIG_BIT(AVAILABLE_WAKE);
	e->mem_total = meminfo(MI_MemTotal);
	e->mem_available = meminfo(MI_MemAvailable);
	if (!MI_HAS(&TT.meminfo, MI_MemAvailable))
		TT.memory_figs_have &= ~FIG_BIT(MEMORY_MEM_AVAILABLE);
	if (!read_number("/proc/sys/vm/extra_free_kbytes", 1024, &e->extra_free))
		TT.memory_figs_have &= ~FIG_BIT(MEMORY_EXTRA_FREE);
	read_number("/proc/sys/vm/min_filelist_kbytes", 1024, &e->min_filelist);
	e->reserve = sat_sub(sat_mul(TT.zones.tot.reserve, e->page_size), e->extra_free);
	e->weight = TT.opt.weight;
	if (!TT.opt.weight_given && !read_number(low_mem_file("ram_vs_swap_weight"), 1, &e->weight))
		e->weight = 4;
	read_margins();
	read_swap();
	TT.psi_present = !psi_read(&TT.psi);
	mb_warn_diag(&TT.psi.diag);
	TT.psi_figs_have = 0;
	if (TT.psi_present)
		TT.psi_figs_have = FIG_BIT(PSI_HAVE) | (TT.psi.some.have ? FIG_BIT(PSI_SOME) : 0) |
		              (TT.psi.full.have ? FIG_BIT(PSI_FULL) : 0);
	e->page_size_source = zi_ps_how[TT.page_size_how];

	/* ChromeOS's available memory, computed in whole KiB as the kernel
	 * does in pages */
	anon = sat_add(meminfo(MI_ActiveAnon), meminfo(MI_InactiveAnon));
	e->part_free = sat_sub(meminfo(MI_MemFree), e->reserve);
	e->part_file = sat_sub(sat_sub(sat_add(meminfo(MI_ActiveFile), meminfo(MI_InactiveFile)),
	                               meminfo(MI_Dirty)), e->min_filelist);
	swappable = anon < e->swap_free ? anon : e->swap_free;
	e->part_swap = e->weight ? swappable / 1024 / e->weight * 1024 : 0;
	e->computed_available = sat_add(sat_add(e->part_free, e->part_file), e->part_swap);
	e->source = "computed";
	e->available = e->computed_available;
	if (read_number(low_mem_file("available"), MIB, &e->kernel_available)) {
		e->source = "kernel";
		e->available = e->kernel_available;
	} else {
		TT.available_figs_have &= ~(FIG_BIT(AVAILABLE_KERNEL) | FIG_BIT(AVAILABLE_DIFFERENCE));
	}
	e->difference = sat_diff(e->kernel_available, e->computed_available);
	e->level = e->available < e->critical ? LEVEL_CRITICAL
	         : e->available < e->moderate ? LEVEL_MODERATE : LEVEL_NONE;
	e->level_name = level_names[e->level];
	e->critical_distance = sat_diff(e->available, e->critical);
	e->moderate_distance = sat_diff(e->available, e->moderate);

	/* the process-memory ceiling: RAM less the reserve, plus the swap left
	 * usable beside the critical margin's share (its part above the reserve
	 * times the weight) less the RAM that swapped memory costs (the ratio;
	 * above 1 it counts as 1) */
	e->process_current = sat_add(anon, e->swap_used);
	e->swap_reduction = e->critical > e->reserve ? sat_mul(e->critical - e->reserve, e->weight) : 0;
	if (e->swap_reduction > e->swap_total)
		e->swap_reduction = 0;
	e->usable_swap = e->swap_total - e->swap_reduction;
	left = e->ratio_num < e->ratio_den ? mul_div(e->usable_swap, e->ratio_den - e->ratio_num, e->ratio_den)
	                                   : 0;
	e->process_max = sat_add(sat_sub(e->mem_total, e->reserve), left);
	e->process_headroom = sat_diff(e->process_max, e->process_current);
	e->watermark_min = sat_mul(TT.zones.tot.f[ZF_MIN], e->page_size);
	e->watermark_low = sat_mul(TT.zones.tot.f[ZF_LOW], e->page_size);
	e->watermark_high = sat_mul(TT.zones.tot.f[ZF_HIGH], e->page_size);
	say_saturated(available_figs, REP_N(available_figs), TT.available_figs_have);
	say_saturated(memory_figs, REP_N(memory_figs), TT.memory_figs_have);
	say_saturated(swap_figs, REP_N(swap_figs), TT.swap_figs_have);
	say_saturated(process_figs, REP_N(process_figs), REP_ALL);
	return 0;
}

/* ---- the report ---- */

/* psi's prom samples: window by window, some then full in each */
static const void *psi_avg_row(void *ctx, size_t i, uint64_t *have)
{
	const struct psi_line *line = i % 2 ? &TT.psi.full : &TT.psi.some;

	(void)ctx;
	TT.psi_row.kind = psi_kinds[i % 2];
	TT.psi_row.window = psi_windows[i / 2];
	TT.psi_row.avg = line->avg[i / 2];
	*have = line->have ? REP_ALL : 0;
	return &TT.psi_row;
}

static const void *psi_stall_row(void *ctx, size_t i, uint64_t *have)
{
	const struct psi_line *line = i ? &TT.psi.full : &TT.psi.some;

	(void)ctx;
	TT.psi_row.kind = psi_kinds[i];
	TT.psi_row.stall = line->total;
	*have = line->have ? REP_ALL : 0;
	return &TT.psi_row;
}

static void report(void)
{
	/* prom only (no key): json and kv have psi_figs */
	const struct rep_list psi_avg = { 0, "lowmem_psi", psi_avg_figs, REP_N(psi_avg_figs),
	                                  TT.psi_present ? REP_N(psi_kinds) * REP_N(psi_windows) : 0,
	                                  psi_avg_row, 0, 0 };
	const struct rep_list psi_stall = { 0, "lowmem_psi", psi_stall_figs, REP_N(psi_stall_figs),
	                                    TT.psi_present ? REP_N(psi_kinds) : 0, psi_stall_row, 0, 0 };
	const struct lowmem_eval *e = &TT.eval;

	rep_figs("lowmem", available_figs, REP_N(available_figs), e, TT.available_figs_have);
	rep_figs("lowmem", margin_figs, REP_N(margin_figs), e, REP_ALL);
	rep_figs("lowmem", memory_figs, REP_N(memory_figs), e, TT.memory_figs_have);
	rep_figs("lowmem", swap_figs, REP_N(swap_figs), e, TT.swap_figs_have);
	rep_figs("lowmem", process_figs, REP_N(process_figs), e, REP_ALL);
	rep_figs("lowmem", psi_figs, REP_N(psi_figs), &TT.psi, TT.psi_figs_have);
	rep_list(&psi_avg);
	rep_list(&psi_stall);
	rep_figs("lowmem", page_figs, REP_N(page_figs), e, REP_ALL);
}

/* The table: a figure a line, its label and value (rep_table_rows); the
 * figures with a width are what a 24-line console shows whole (the level,
 * the figure it is decided on and how far it is from each margin, swap,
 * the process headroom), -v shows every one.  Two parts are laid out by
 * hand, as they are not a figure a line: the kernel's margins, a list of
 * MiB on one line, and PSI, a small matrix of the psi object's some and
 * full lines by window, its stall total in seconds (microseconds in json). */
static void table(void)
{
	const struct psi_line *line;
	int every = TT.opt.verbose ? 12 : 0;
	unsigned i;
	int k;

	zi_table_head(TT.eval.page_size, TT.page_size_how);
	rep_table_rows(available_figs, REP_N(available_figs), &TT.eval, TT.available_figs_have, 20, every);
	fo_s("kernel margins (MiB) ");
	fo_s(TT.eval.margin_off ? " off (notifier disabled)" : TT.eval.margins.n ? "" : " -");
	for (i = 0; i < TT.eval.margins.n; i++) {
		fo_c(' ');
		out_u64(mb.fo, TT.margins[i] / MIB);
	}
	tb_nl();
	rep_table_rows(memory_figs, REP_N(memory_figs), &TT.eval, TT.memory_figs_have, 20, every);
	rep_table_rows(swap_figs, REP_N(swap_figs), &TT.eval, TT.swap_figs_have, 20, every);
	rep_table_rows(process_figs, REP_N(process_figs), &TT.eval, REP_ALL, 20, every);
	fo_s(TT.psi_present ? "psi (%)    avg10  avg60 avg300  stall total (s)\n" : "psi                          -\n");
	for (k = 0; TT.psi_present && k < 2; k++) {
		line = k ? &TT.psi.full : &TT.psi.some;
		if (!line->have)
			continue;
		fo_s(psi_kinds[k]);
		fo_s("     ");
		for (i = 0; i < 3; i++)
			tb_fixu(line->avg[i], 2, 7);
		tb_fixu(line->total / 1000, 3, 17);
		tb_nl();
	}
}

/* "text" then value: sizes are unsigned up to 2^64 - 1 (a saturated one
 * is that, never a negative number) */
static void put(const char *text, uint64_t value)
{
	fo_s(text);
	out_u64(mb.fo, value);
}

/* The monitoring-plugins status line: perfdata (bytes) after '|'.
 * Returns its exit status, the level. */
static int check_line(void)
{
	const struct lowmem_eval *e = &TT.eval;

	fo_s("LOWMEM ");
	fo_s(check_status[e->level]);
	put(" - available ", e->available / MIB);
	put(" MiB (critical ", e->critical / MIB);
	put(" MiB, moderate ", e->moderate / MIB);
	fo_s(" MiB");
	/* 40% of MemTotal is more than many servers and routers have
	 * available in ordinary use: a warning there may be the margin's */
	if (TT.critical_default && TT.moderate_default)
		fo_s("; ChromeOS's default margins, 5.2% and 40% of MemTotal");
	else if (TT.moderate_default)
		fo_s("; ChromeOS's default moderate margin, 40% of MemTotal");
	else if (TT.critical_default)
		fo_s("; ChromeOS's default critical margin, 5.2% of MemTotal");
	put(") | available=", e->available);
	put("B;", e->moderate);
	put(";", e->critical);
	put(";0;", e->mem_total);
	put(" computed=", e->computed_available);
	put("B;;;0;", e->mem_total);
	put(" swap_used=", e->swap_used);
	put("B;;;0;", e->swap_total);
	fo_s(" process_headroom=");   /* negative: above the ceiling */
	out_i64(mb.fo, e->process_headroom);
	fo_s("B\n");
	return e->level;
}

/* The evaluation in the format asked for: the whole report, or --watch's
 * line (in the table: the time, the seconds since the start and the status
 * line). */
enum lowmem_view { VIEW_REPORT, VIEW_WATCH_LINE };
static void show(enum lowmem_view view)
{
	if (mb.fmt == FMT_TABLE) {
		if (view == VIEW_REPORT) {
			table();
		} else {
			char t[REP_TIME_LEN];
			fo_s(rep_time_text(t, TT.eval.time));
			fo_c(' ');
			out_fix(mb.fo, (uint64_t)TT.eval.elapsed / 100, 1);
			fo_c(' ');
			check_line();
		}
		return;
	}
	rep_begin();
	if (view == VIEW_REPORT)
		report();
	else
		rep_figs("lowmem", watch_figs, REP_N(watch_figs), &TT.eval, REP_ALL);
	rep_end();
}

/* ---- modes ---- */

static uint64_t now_ms(void)
{
	return mono_us() / 1000;
}

/* statfs f_type of the two filesystems a wake-up can come from */
enum { SYSFS_MAGIC = 0x62656572, PROC_SUPER_MAGIC = 0x9fa0 };

/* The wake-up for --wait: the sysfs file's notification, a PSI trigger, or
 * the interval alone (a captured tree's files are plain files). */
static enum lowmem_wake wake(int *fd)
{
	/* a wake-up when tasks stall 150 ms within 2 s */
	static const char trigger[] = "some 150000 2000000";
	struct statfs f;
	char b[64];
	int truncated;

	*fd = rd_open(low_mem_file("available"), O_RDONLY);
	if (*fd >= 0 && !fstatfs(*fd, &f) && f.f_type == SYSFS_MAGIC) {
		rd_fd(*fd, b, sizeof b, &truncated);   /* sysfs notifies only after a read */
		return WAKE_SYSFS;
	}
	if (*fd >= 0)
		close(*fd);
	*fd = rd_open(psi_file, O_RDWR);
	if (*fd >= 0 && !fstatfs(*fd, &f) && f.f_type == PROC_SUPER_MAGIC &&
	    write(*fd, trigger, sizeof trigger) > 0)
		return WAKE_PSI;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return WAKE_TIMER;
}

/* A stop signal (SIGINT, SIGTERM, SIGHUP) ended --wait or --watch: the
 * status a shell reports for a process the signal killed, given by a
 * process that ended cleanly. */
static int stopped(void)
{
	return 128 + mb.stop;
}

/* Sleep up to ms milliseconds for the wake-up on p (nfds 0: none) or a stop
 * signal: poll's result.  The stop signals are blocked from the check of
 * mb.stop until ppoll unblocks them, so one that comes in between ends the
 * sleep at once instead of after it. */
static int sleep_for(struct pollfd *p, nfds_t nfds, uint64_t ms)
{
	struct timespec ts;
	sigset_t stops, unblocked;
	int k = -1;

	/* at most 2^31 - 1 seconds (68 years), which a kernel without the
	 * 64-bit time calls still takes; a longer wait is taken in parts */
	if (ms > (uint64_t)INT32_MAX * 1000)
		ms = (uint64_t)INT32_MAX * 1000;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &unblocked);
	if (!mb.stop)
		k = ppoll(p, nfds, &ts, &unblocked);
	sigprocmask(SIG_SETMASK, &unblocked, 0);
	return k;
}

/* --wait and --watch (mode): 0; 1 after a failure (a message says which,
 * also for a write error) or --wait's timeout; 128 + N after signal N. */
static int loop(int mode)
{
	struct pollfd p = { .fd = -1, .events = POLLPRI | POLLERR };
	uint64_t start = now_ms(), now, elapsed, shown = 0, change, wait_ms;
	uint64_t deadline = sat_add(start, TT.opt.timeout);
	enum lowmem_wake how = WAKE_TIMER;
	int shown_level = -1, truncated, reached;
	char b[64];

	/* from here a stop signal ends the loop below, and no write blocks */
	mb_catch_stop();
	if (mode == LOWMEM_OPT_WAIT)
		how = wake(&p.fd);
	TT.eval.wake = wake_names[how];
	for (;;) {
		/* a --watch line carries the time its figures were read */
		if (mode == LOWMEM_OPT_WATCH)
			rep_stamp(TT.eval.time = rep_clock_ms());
		if (evaluate())   /* a read a stop signal interrupted is no failure */
			return mb.stop ? stopped() : 1;
		TT.quiet = 1;
		now = now_ms();
		elapsed = now - start;
		change = TT.eval.available > shown ? TT.eval.available - shown : shown - TT.eval.available;
		reached = TT.opt.recover ? (int)TT.eval.level < TT.opt.wait_level
		                         : (int)TT.eval.level >= TT.opt.wait_level;
		if (mode == LOWMEM_OPT_WAIT && reached) {
			show(VIEW_REPORT);
			return 0;
		}
		if (mode == LOWMEM_OPT_WATCH &&
		    ((int)TT.eval.level != shown_level || change > shown / 100)) {
			shown_level = TT.eval.level;
			shown = TT.eval.available;
			TT.eval.elapsed = elapsed;
			/* with -O each line replaces FILE */
			if (out_begin(&out1))
				return 1;
			show(VIEW_WATCH_LINE);
			/* a reader that is gone or a full disk ends the watch; the
			 * message is mb_exit_status's (out_end's for -O) */
			if (mb.out_path ? out_end(1) : out_flush(mb.fo) < 0)
				return mb.stop ? stopped() : 1;
		}
		if (mb.stop)
			return stopped();
		if (TT.opt.timeout_given && now >= deadline)
			return mode == LOWMEM_OPT_WAIT ?
			       mb_fail(wake_names[how], TT.opt.recover ? "--timeout: the level was not left"
			                                               : "--timeout: the level was not reached") : 0;
		wait_ms = TT.opt.interval;
		if (TT.opt.timeout_given && deadline - now < wait_ms)
			wait_ms = deadline - now;
		if (sleep_for(&p, p.fd >= 0, wait_ms) > 0 && how == WAKE_SYSFS)
			rd_fd(p.fd, b, sizeof b, &truncated);   /* re-arms the notification */
		if (mb.stop)
			return stopped();
	}
}

static int bad(const char *what, const char *why)
{
	mb_warn(what, why);
	return cli_usage_error();
}

/* A number option's value, with dec decimals kept, from min to max (in
 * those units): 0, or the exit status of a usage error. */
static int number(const char *name, const char *arg, int dec, uint64_t min, uint64_t max,
                  uint64_t *value)
{
	return cli_fix(name, arg, dec, min, max, value) ? cli_usage_error() : 0;
}

/* The options: 0, or the exit status of a usage error. */
static int options(int argc, char **argv, struct optst *st)
{
	struct lowmem_options *o = &TT.opt;
	int id, i, err = 0;

	o->wait_level = LEVEL_CRITICAL;
	while (!err && (id = cli_next(st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case LOWMEM_OPT_WEIGHT:
			o->weight_given = 1;
			err = number("-w", st->arg, 0, 0, UINT32_MAX, &o->weight);
			break;
		case LOWMEM_OPT_RATIO:
			o->ratio_given = 1;
			err = number("--ratio", st->arg, 6, 0, RATIO_ONE, &o->ratio);
			break;
		case LOWMEM_OPT_CRITICAL:
			o->critical_given = 1;
			err = number("--critical", st->arg, 0, 0, UINT64_MAX / MIB, &o->critical);
			break;
		case LOWMEM_OPT_MODERATE:
			o->moderate_given = 1;
			err = number("--moderate", st->arg, 0, 0, UINT64_MAX / MIB, &o->moderate);
			break;
		case LOWMEM_OPT_PAGE_SIZE:
			err = number("--page-size", st->arg, 0, 4096, 1 << 20, &o->page_size);
			if (!err && (o->page_size & (o->page_size - 1)))
				err = bad("--page-size", "not a power of two");
			break;
		case LOWMEM_OPT_TIMEOUT:
			o->timeout_given = 1;
			err = number("--timeout", st->arg, 3, 0, MAX_MS, &o->timeout);
			break;
		case LOWMEM_OPT_INTERVAL:
			o->interval_given = 1;
			err = number("-i", st->arg, 3, 1, MAX_MS, &o->interval);
			break;
		case LOWMEM_OPT_RECOVER:
			o->recover = 1;
			break;
		case LOWMEM_OPT_VERBOSE:
			o->verbose = 1;
			break;
		case LOWMEM_OPT_CHECK: case LOWMEM_OPT_WAIT: case LOWMEM_OPT_WATCH:
			if (TT.mode && TT.mode != id)
				return bad("--check, --wait, --watch", "only one of them");
			TT.mode = id;
			if (!st->arg)
				break;
			/* the levels a wait can end at: all but none */
			if ((i = cli_pick("--wait", st->arg, level_names + 1, LEVEL_CRITICAL)) < 0)
				return cli_usage_error();
			o->wait_level = i + 1;
			break;
		}
	}
	return err;
}

/* Options that mean nothing in the mode asked for are usage errors, not
 * ignored: 0, or the exit status. */
static int modes_agree(void)
{
	int looping = TT.mode == LOWMEM_OPT_WAIT || TT.mode == LOWMEM_OPT_WATCH;

	if (TT.opt.recover && TT.mode != LOWMEM_OPT_WAIT)
		return bad("--recover", "only with --wait");
	if ((TT.opt.timeout_given || TT.opt.interval_given) && !looping)
		return bad(TT.opt.timeout_given ? "--timeout" : "--interval", "only with --wait or --watch");
	if (TT.mode == LOWMEM_OPT_CHECK && mb.fmt != FMT_TABLE)
		return bad("--check", "writes its status line only: no -o");
	if (TT.mode == LOWMEM_OPT_WATCH && !rep_can_stream())
		return bad("--watch", "prom is no stream format");
	if (mb.every_us && TT.mode)
		return bad("--every", "not with --check, --wait or --watch");
	return 0;
}

static int run(int argc, char **argv)
{
	struct optst st = { 0 };
	int err = options(argc, argv, &st);

	if (err)
		return err;
	if (st.ind < argc)
		return bad(argv[st.ind], "unexpected argument");
	if ((err = modes_agree()))
		return err;
	if (cli_root())
		return 1;
	if ((err = cli_reports()))
		return err;
	if (TT.mode == LOWMEM_OPT_WAIT || TT.mode == LOWMEM_OPT_WATCH)
		return loop(TT.mode);
	if (evaluate())
		return 1;
	if (TT.eval.process_max < TT.eval.process_current)
		mb_warn("process memory", "above the computed ceiling (max < current)");
	if (TT.mode == LOWMEM_OPT_CHECK) {
		TT.check_written = 1;
		return check_line();
	}
	show(VIEW_REPORT);
	return 0;
}

int lowmem_main(int argc, char **argv)
{
	int i, status;

	cli_init("lowmem");
	TT.opt.interval = 1000;
	/* in --check mode every failure, a usage error too, is UNKNOWN (3) */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--check"))
			TT.mode = LOWMEM_OPT_CHECK;
	status = run(argc, argv);
	if (TT.mode != LOWMEM_OPT_CHECK)
		return status;
	if (!TT.check_written) {
		fo_s("LOWMEM UNKNOWN - see the message on standard error\n");
		status = 3;
	}
	/* a status line that could not be written is no status: UNKNOWN
	 * (mb_exit_status says why, and keeps a status other than 0) */
	return out_flush(mb.fo) < 0 ? 3 : status;
}
