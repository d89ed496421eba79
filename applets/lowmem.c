/* lowmem: ChromeOS-style available memory against the low-memory margins,
 * the process-memory ceiling, and check / wait / watch modes for scripts.
 * Reads /sys/kernel/mm/chromeos-low_mem/{available,margin,ram_vs_swap_weight},
 * /proc/meminfo, /proc/zoneinfo, /proc/sys/vm/{min_filelist_kbytes,
 * extra_free_kbytes}, /proc/swaps, /sys/block/zramN/mm_stat and
 * /proc/pressure/memory. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/vfs.h>
#include "cli.h"
#include "margin.h"
#include "meminfo.h"
#include "out.h"
#include "psi.h"
#include "rd.h"
#include "sc.h"
#include "swaps.h"
#include "zoneinfo.h"

static const char usage[] =
	"Usage: lowmem [OPTIONS]\n\n"
	"Available memory against the low-memory margins as ChromeOS computes it, on\n"
	"any kernel, and the process-memory ceiling.  The kernel's figure\n"
	"(/sys/kernel/mm/chromeos-low_mem/available) is used where it exists; the\n"
	"computed one is always shown:\n"
	"  available = (MemFree - reserve) + (Active(file) + Inactive(file) - Dirty\n"
	"              - min_filelist) + min(Active(anon) + Inactive(anon), SwapFree) / weight\n"
	"Margins: the kernel's margin file, else critical 5.2% and moderate 40% of\n"
	"MemTotal.  Level: critical below the critical margin, moderate below the\n"
	"moderate one, else none.\n\n"
	"  -w, --weight=N      RAM vs swap weight (default: the kernel's, else 4; 0: no swap)\n"
	"  -r, --ratio=R       RAM cost of swapped memory, 0 to 1 (default: zram's measured,\n"
	"                      else 0.40 for zram, 0 for disk swap)\n"
	"      --critical=MiB  critical margin\n"
	"      --moderate=MiB  moderate margin\n"
	"      --page-size=N   bytes per page (default: the kernel's; derived for --root)\n"
	"      --check         one status line; exit 0 OK, 1 WARNING (below moderate),\n"
	"                      2 CRITICAL (below critical), 3 UNKNOWN\n"
	"      --wait[=LEVEL]  block until LEVEL (critical, default, or moderate) is\n"
	"                      reached, then report and exit 0\n"
	"      --recover       with --wait: until the level is left instead\n"
	"      --timeout=SEC   end --wait with exit 1, --watch with exit 0\n"
	"      --watch         a line per interval when the level or available changes > 1%\n"
	"  -i, --interval=SEC  re-evaluate at least this often (default 1)\n";

enum { O_CRIT = OPT_APPLET, O_MOD, O_CHECK, O_WAIT, O_RECOVER, O_TIMEOUT, O_WATCH };
static const struct opt opts[] = {
	CLI_COMMON,
	{ "weight", 'w', 1, 'w' },
	{ "ratio", 'r', 1, 'r' },
	{ "critical", 0, 1, O_CRIT },
	{ "moderate", 0, 1, O_MOD },
	{ "page-size", 0, 1, OPT_PAGESIZE },
	{ "check", 0, 0, O_CHECK },
	{ "wait", 0, 2, O_WAIT },
	{ "recover", 0, 0, O_RECOVER },
	{ "timeout", 0, 1, O_TIMEOUT },
	{ "watch", 0, 0, O_WATCH },
	{ "interval", 'i', 1, 'i' },
	{ 0, 0, 0, 0 }
};

#define LM "/sys/kernel/mm/chromeos-low_mem/"
#define MIB 1048576ull
enum { L_NONE, L_MODERATE, L_CRITICAL };
static const char *const lvname[] = { "none", "moderate", "critical" };
enum { W_NONE, W_SYSFS, W_PSI, W_TIMER };
static const char *const wname[] = { 0, "sysfs", "psi", "timer" };

/* What the user asked for (have_: given). */
static struct {
	uint64_t weight, ratio, crit, mod, ps, timeout, interval;
	int have_weight, have_ratio, have_crit, have_mod;
} o = { .interval = 1000 };

static struct meminfo m;
static struct zi z;
static struct swaps sw;
static struct psi psi;

/* One evaluation, every size in bytes. */
static struct {
	uint64_t ps;
	int ps_how, kernel, have_psi, have_swaps, zram, margin_off, level;
	unsigned nmargin, mdropped;
	uint64_t margin[LM_MAX_MARGINS];
	uint64_t kavail, avail, comp, part[3], crit, mod, weight, total, reserve, extra, minfl;
	int have_extra, have_minfl;
	uint64_t sfree, sused, zorig, zused, ratio, cur, max;
	const char *ratio_src;
} r;

static uint64_t mi(int k) { return MI_GET(&m, k); }

/* A /proc/sys or sysfs number: 1 when present (times mul into *v). */
static int num(const char *path, uint64_t mul, uint64_t *v)
{
	*v = 0;
	if (rd_u64(path, v))
		return *v = 0, 0;
	*v = sat_mul(*v, mul);
	return 1;
}

static void margins(void)
{
	char b[128];
	uint64_t mib[LM_MAX_MARGINS];
	int trunc, k;
	long n = rd_file(LM "margin", b, sizeof b, &trunc);
	unsigned i;

	r.nmargin = r.mdropped = 0;
	r.margin_off = 0;
	/* ChromeOS's defaults (swap_management: 520 bips and 40 % of MemTotal) */
	r.crit = sat_mul(r.total, 520) / 10000;
	r.mod = sat_mul(r.total, 4000) / 10000;
	if (n >= 0) {
		k = mg_parse(b, n, mib, LM_MAX_MARGINS, &r.nmargin, &r.mdropped);
		if (k == MG_BAD || trunc) {
			mb_warn(LM "margin", "not a list of numbers or 'off': default margins used");
			r.nmargin = 0;
		}
		r.margin_off = k == MG_OFF;
		if (r.mdropped)
			mb_warn(LM "margin", "more thresholds than LM_MAX_MARGINS: the rest ignored");
		for (i = 0; i < r.nmargin; i++)
			r.margin[i] = sat_mul(mib[i], MIB);
		if (r.nmargin)
			r.crit = r.margin[0];
		if (r.nmargin > 1)
			r.mod = r.margin[1];
	}
	if (o.have_crit)
		r.crit = sat_mul(o.crit, MIB);
	if (o.have_mod)
		r.mod = sat_mul(o.mod, MIB);
}

static void swap(void)
{
	uint64_t v[3];
	unsigned i;
	int k = sw_read(&sw);

	r.have_swaps = !k;
	r.zram = !k && sw.nzram;
	r.zorig = r.zused = 0;
	if (k && k != -ENOENT)
		mb_warn_errno("/proc/swaps", -k);
	if (!k && sw.bad)
		mb_warn("/proc/swaps", "lines not understood were skipped");
	if (!k && sw.zram_dropped)
		mb_warn("/proc/swaps", "more zram devices than SW_MAX_ZRAM: the rest not measured");
	for (i = 0; r.zram && i < sw.nzram; i++) {
		if (sw_mm_read(sw.zram[i], v)) {
			mb_warn("/sys/block/zramN/mm_stat", "missing or garbled: zram not measured");
			continue;
		}
		r.zorig = sat_add(r.zorig, v[0]);
		r.zused = sat_add(r.zused, v[2]);
	}
	r.sfree = mi(MI_SwapFree);
	r.sused = sat_sub(mi(MI_SwapTotal), r.sfree);
	r.ratio_src = "option";
	r.ratio = o.ratio;
	if (!o.have_ratio) {
		r.ratio_src = r.zram ? (r.zorig ? "measured" : "zram") : "disk";
		r.ratio = r.zorig ? sat_mul(r.zused, 1000) / r.zorig : r.zram ? 400 : 0;
	}
}

/* Read everything once: 0, or 1 after a message. */
static int eval(void)
{
	uint64_t anon, v, red, usable, ratio;
	int k = meminfo_read(&m);

	if (k < 0)
		return mb_fail_errno("/proc/meminfo", -k);
	if (!MI_HAS(&m, MI_MemTotal) || !MI_HAS(&m, MI_MemFree))
		return mb_fail("/proc/meminfo", "no MemTotal or MemFree");
	if ((~m.have >> MI_ActiveAnon & 15) && !r.total)
		mb_warn("/proc/meminfo", "no Active/Inactive(anon/file) lines (before 2.6.28): counted as 0");
	if (zi_load(&z, o.ps, &r.ps, &r.ps_how))
		return 1;
	r.total = mi(MI_MemTotal);
	r.have_extra = num("/proc/sys/vm/extra_free_kbytes", 1024, &r.extra);
	r.have_minfl = num("/proc/sys/vm/min_filelist_kbytes", 1024, &r.minfl);
	r.reserve = sat_sub(sat_mul(z.tot.reserve, r.ps), r.extra);
	r.kernel = num(LM "available", MIB, &r.kavail);
	r.weight = 4;
	if (o.have_weight)
		r.weight = o.weight;
	else
		num(LM "ram_vs_swap_weight", 1, &r.weight) || (r.weight = 4);
	margins();
	swap();
	r.have_psi = !psi_read(&psi);

	/* computed in KiB like the kernel's pages: every part is whole KiB */
	anon = sat_add(mi(MI_ActiveAnon), mi(MI_InactiveAnon));
	r.part[0] = sat_sub(mi(MI_MemFree), r.reserve);
	r.part[1] = sat_sub(sat_sub(sat_add(mi(MI_ActiveFile), mi(MI_InactiveFile)), mi(MI_Dirty)), r.minfl);
	v = anon < r.sfree ? anon : r.sfree;
	r.part[2] = r.weight ? v / 1024 / r.weight * 1024 : 0;
	r.comp = sat_add(sat_add(r.part[0], r.part[1]), r.part[2]);
	r.avail = r.kernel ? r.kavail : r.comp;
	r.level = r.avail < r.crit ? L_CRITICAL : r.avail < r.mod ? L_MODERATE : L_NONE;

	/* the process-memory ceiling */
	r.cur = sat_add(anon, r.sused);
	red = r.crit > r.reserve ? sat_mul(r.crit - r.reserve, r.weight) : 0;
	if (red > mi(MI_SwapTotal))
		red = 0;
	usable = mi(MI_SwapTotal) - red;
	ratio = r.ratio > 1000 ? 1000 : r.ratio;
	r.max = sat_add(sat_sub(r.total, r.reserve), sat_mul(usable, 1000 - ratio) / 1000);
	return 0;
}

/* ---- output: one call per figure, each format picks what it needs ---- */

enum { K_SIZE, K_SSIZE, K_NUM, K_FIX3, K_BOOL };

static void label(const char *l)
{
	out_s(fo, l);
	out_pad(fo, strlen(l), 22);
}

/* key: json/kv member (0: prom only); lab: table row and prom help (0: not
 * in the table); prom: metric name (0: not in prom). */
static void val(const char *key, const char *lab, const char *prom, int have, uint64_t v, int kind)
{
	int64_t s = (int64_t)v;

	if (fmt == FMT_PROM) {
		if (!prom || !have)
			return;
		p_type(prom, "gauge", lab);
		p_start(prom);
		if (kind == K_FIX3)
			p_fix(v, 3);
		else if (kind == K_SSIZE)
			p_i64(s);
		else
			p_u64(v);
		return;
	}
	if (!key)
		return;
	if (fmt != FMT_TABLE) {
		if (!have)
			t_null(key);
		else if (kind == K_SSIZE)
			t_i64(key, s);
		else if (kind == K_FIX3)
			t_fix(key, v, 3);
		else if (kind == K_BOOL)
			t_bool(key, v);
		else
			t_u64(key, v);
		return;
	}
	if (!lab)
		return;
	label(lab);
	if (!have)
		out_pad(fo, 1, 12), out_c(fo, '-');
	else if (kind == K_SIZE)
		tb_size(v, 12);
	else if (kind == K_SSIZE)
		tb_ssize(s, 12);
	else if (kind == K_FIX3)
		out_pad(fo, 5, 12), out_fix(fo, v, 3);
	else if (kind == K_BOOL)
		tb_str(v ? "         yes" : "          no", 12);
	else
		tb_u64(v, 12);
	tb_nl();
}

static void str(const char *key, const char *lab, const char *s)
{
	if (fmt == FMT_TABLE) {
		label(lab);
		out_pad(fo, strlen(s), 12);
		out_s(fo, s);
		tb_nl();
	} else if (fmt != FMT_PROM) {
		t_cstr(key, s);
	}
}

static void obj(const char *key)
{
	if (fmt == FMT_JSON || fmt == FMT_KV)
		t_obj(key);
}

static void end(void)
{
	if (fmt == FMT_JSON || fmt == FMT_KV)
		t_end();
}

#define SZ(k, l, p, v) val(k, l, p, 1, v, K_SIZE)

static void psi_out(void)
{
	static const char *const win[] = { "avg10", "avg60", "avg300" };
	const struct psi_line *pl;
	int i, j;

	if (fmt == FMT_TABLE) {
		out_s(fo, r.have_psi ? "psi (%)    avg10  avg60 avg300   stall total (s)\n" : "psi                   -\n");
	} else if (fmt == FMT_PROM) {
		if (!r.have_psi)
			return;
		p_type("lowmem_psi_avg_percent", "gauge", "Memory pressure stall average over the window, percent.");
		for (i = 0; i < 6; i++) {
			pl = i < 3 ? &psi.some : &psi.full;
			if (!pl->have)
				continue;
			p_start("lowmem_psi_avg_percent");
			p_labc("kind", i < 3 ? "some" : "full");
			p_labc("window", win[i % 3]);
			p_fix(pl->avg[i % 3], 2);
		}
		p_type("lowmem_psi_stall_seconds_total", "counter", "Total memory stall time.");
	} else if (!r.have_psi) {
		t_null("psi");
		return;
	} else {
		t_obj("psi");
	}
	for (i = 0; r.have_psi && i < 2; i++) {
		const char *kind = i ? "full" : "some";
		pl = i ? &psi.full : &psi.some;
		if (!pl->have)
			continue;
		if (fmt == FMT_PROM) {
			p_start("lowmem_psi_stall_seconds_total");
			p_labc("kind", kind);
			p_fix(pl->total, 6);
			continue;
		}
		if (fmt == FMT_TABLE) {
			out_s(fo, kind);
			out_s(fo, "     ");
			for (j = 0; j < 3; j++) {
				out_pad(fo, 6 + (pl->avg[j] >= 10000) + (pl->avg[j] >= 1000), 7);
				out_fix(fo, pl->avg[j], 2);
			}
			out_s(fo, "   ");
			out_fix(fo, pl->total / 1000, 3);
			tb_nl();
			continue;
		}
		t_obj(kind);
		for (j = 0; j < 3; j++)
			t_fix(win[j], pl->avg[j], 2);
		t_u64("total", pl->total);
		t_end();
	}
	if (fmt == FMT_JSON || fmt == FMT_KV)
		if (r.have_psi)
			t_end();
}

static void report(int wake)
{
	unsigned i;

	if (fmt == FMT_TABLE) {
		out_s(fo, "sizes in ");
		out_s(fo, *tb_unit() ? tb_unit() : "IEC units");
		out_s(fo, ", page size ");
		out_u64(fo, r.ps);
		out_s(fo, " bytes (");
		out_s(fo, zi_ps_how[r.ps_how]);
		out_s(fo, ")\n");
	}
	if (fmt == FMT_JSON || fmt == FMT_KV)
		t_obj(0);
	str("level", "level", lvname[r.level]);
	val(0, "Level: 0 none, 1 moderate (below the moderate margin), 2 critical.", "lowmem_level", 1, r.level, K_NUM);
	str("source", "source", r.kernel ? "kernel" : "computed");
	if (wake)
		str("wake", "wake-up", wname[wake]);
	SZ("available", "available", "lowmem_available_bytes", r.avail);
	SZ("computed_available", "computed available", "lowmem_computed_available_bytes", r.comp);
	val("kernel_available", "kernel available", "lowmem_kernel_available_bytes", r.kernel, r.kavail, K_SIZE);
	val("difference", "kernel - computed", 0, r.kernel, sat_diff(r.kavail, r.comp), K_SSIZE);
	obj("parts");
	SZ("free", "  MemFree - reserve", 0, r.part[0]);
	SZ("file", "  clean file - minfl", 0, r.part[1]);
	SZ("swap", "  swappable / weight", 0, r.part[2]);
	end();
	if (fmt == FMT_TABLE) {
		label("kernel margins (MiB)");
		if (r.margin_off)
			out_s(fo, "         off (notifier disabled)");
		for (i = 0; i < r.nmargin; i++) {
			out_c(fo, ' ');
			out_u64(fo, r.margin[i] / MIB);
		}
		if (!r.margin_off && !r.nmargin)
			out_s(fo, "           -");
		tb_nl();
	} else if (fmt != FMT_PROM) {
		t_arr("margins");
		for (i = 0; i < r.nmargin; i++)
			t_u64(0, r.margin[i]);
		t_end();
		t_bool("margin_off", r.margin_off);
		t_u64("margins_dropped", r.mdropped);
	}
	SZ("critical", "critical margin", "lowmem_critical_margin_bytes", r.crit);
	SZ("moderate", "moderate margin", "lowmem_moderate_margin_bytes", r.mod);
	val("critical_distance", "available - critical", "lowmem_critical_distance_bytes", 1, sat_diff(r.avail, r.crit), K_SSIZE);
	val("moderate_distance", "available - moderate", "lowmem_moderate_distance_bytes", 1, sat_diff(r.avail, r.mod), K_SSIZE);
	val("weight", "ram vs swap weight", "lowmem_ram_vs_swap_weight", 1, r.weight, K_NUM);
	SZ("mem_total", "MemTotal", "lowmem_mem_total_bytes", r.total);
	val("mem_available", "MemAvailable", 0, MI_HAS(&m, MI_MemAvailable), mi(MI_MemAvailable), K_SIZE);
	SZ("reserve", "reserve", "lowmem_reserve_bytes", r.reserve);
	val("extra_free", "extra_free_kbytes", 0, r.have_extra, r.extra, K_SIZE);
	SZ("min_filelist", "min_filelist_kbytes", "lowmem_min_filelist_bytes", r.minfl);
	obj("swap");
	SZ("total", "swap total", "lowmem_swap_total_bytes", mi(MI_SwapTotal));
	SZ("used", "swap used", "lowmem_swap_used_bytes", r.sused);
	SZ("free", "swap free", "lowmem_swap_free_bytes", r.sfree);
	val("zram", "zram", "lowmem_swap_zram", 1, r.zram, K_BOOL);
	val("zram_orig", "zram stored", 0, r.zram, r.zorig, K_SIZE);
	val("zram_used", "zram RAM used", 0, r.zram, r.zused, K_SIZE);
	val("ratio", "swap RAM cost ratio", "lowmem_swap_ratio", 1, r.ratio, K_FIX3);
	str("ratio_source", "ratio from", r.ratio_src);
	end();
	obj("process");
	SZ("current", "process memory", "lowmem_process_current_bytes", r.cur);
	SZ("max", "process memory max", "lowmem_process_max_bytes", r.max);
	val("headroom", "process headroom", "lowmem_process_headroom_bytes", 1, sat_diff(r.max, r.cur), K_SSIZE);
	end();
	obj("watermarks");
	SZ("min", "watermark min", "lowmem_watermark_min_bytes", sat_mul(z.tot.min, r.ps));
	SZ("low", "watermark low", "lowmem_watermark_low_bytes", sat_mul(z.tot.low, r.ps));
	SZ("high", "watermark high", "lowmem_watermark_high_bytes", sat_mul(z.tot.high, r.ps));
	end();
	psi_out();
	if (fmt == FMT_JSON || fmt == FMT_KV) {
		t_u64("page_size", r.ps);
		t_cstr("page_size_source", zi_ps_how[r.ps_how]);
		t_done();
	}
}

/* ---- modes ---- */

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void mib(const char *name, uint64_t v)
{
	out_s(fo, name);
	out_u64(fo, v / MIB);
	out_s(fo, " MiB");
}

static void perf(const char *name, uint64_t v, const char *rest)
{
	out_c(fo, ' ');
	out_s(fo, name);
	out_c(fo, '=');
	out_u64(fo, v);
	out_c(fo, 'B');
	out_s(fo, rest);
}

/* Nagios/monitoring-plugins: one line, perfdata after '|'. */
static int check(void)
{
	static const char *const st[] = { "OK", "WARNING", "CRITICAL" };

	out_s(fo, "LOWMEM ");
	out_s(fo, st[r.level]);
	mib(" - available ", r.avail);
	mib(" (critical ", r.crit);
	mib(", moderate ", r.mod);
	out_s(fo, ") |");
	perf("available", r.avail, ";");
	out_u64(fo, r.mod);
	out_c(fo, ';');
	out_u64(fo, r.crit);
	out_s(fo, ";0;");
	out_u64(fo, r.total);
	perf("computed", r.comp, ";;;0;");
	out_u64(fo, r.total);
	perf("swap_used", r.sused, ";;;0;");
	out_u64(fo, mi(MI_SwapTotal));
	perf("process_headroom", (uint64_t)sat_diff(r.max, r.cur), "");
	tb_nl();
	return r.level;
}

/* The wake-up for --wait: the sysfs file's notification, a PSI trigger,
 * or only the interval.  Captured trees are plain files: timer. */
static int wake_fd = -1;

static int wake_setup(void)
{
	static const char trig[] = "some 150000 2000000";
	struct statfs f;
	char b[64];
	int t, fd = rd_open(LM "available", O_RDONLY);

	if (fd >= 0 && !fstatfs(fd, &f) && f.f_type == 0x62656572) {  /* SYSFS_MAGIC */
		rd_fd(fd, b, sizeof b, &t);
		wake_fd = fd;
		return W_SYSFS;
	}
	if (fd >= 0)
		close(fd);
	fd = rd_open("/proc/pressure/memory", O_RDWR);
	if (fd >= 0 && !fstatfs(fd, &f) && f.f_type == 0x9fa0 &&   /* PROC_SUPER_MAGIC */
	    write(fd, trig, sizeof trig) > 0) {
		wake_fd = fd;
		return W_PSI;
	}
	if (fd >= 0)
		close(fd);
	return W_TIMER;
}

static int wait_for(int target, int recover)
{
	struct pollfd p = { .events = POLLPRI | POLLERR };
	uint64_t t0 = now_ms(), el, ms;
	int w = wake_setup();
	char b[64];
	int t;

	p.fd = wake_fd;
	for (;;) {
		if (eval())
			return 1;
		if (recover ? r.level < target : r.level >= target) {
			report(w);
			return 0;
		}
		el = now_ms() - t0;
		if (o.timeout && el >= o.timeout) {
			mb_fail(wname[w], recover ? "--timeout: the level was not left" : "--timeout: the level was not reached");
			return 1;
		}
		ms = o.timeout && o.timeout - el < o.interval ? o.timeout - el : o.interval;
		if (poll(&p, wake_fd >= 0, ms) > 0 && w == W_SYSFS)
			rd_fd(wake_fd, b, sizeof b, &t);  /* re-arms the notification */
	}
}

static int watch(void)
{
	uint64_t t0 = now_ms(), el, last = 0;
	int lv = -1;

	mb_flush_on_signals();
	if (fmt == FMT_TABLE)
		out_s(fo, "   TIME LEVEL      AVAILABLE    CRITICAL    MODERATE\n");
	for (;;) {
		if (eval())
			return 1;
		el = now_ms() - t0;
		if (r.level != lv || (r.avail > last ? r.avail - last : last - r.avail) > last / 100) {
			lv = r.level;
			last = r.avail;
			if (fmt == FMT_TABLE) {
				out_pad(fo, 5 + (el >= 100000) + (el >= 1000000), 7);
				out_fix(fo, el / 100, 1);
				out_c(fo, ' ');
				tb_str(lvname[lv], 9);
				tb_size(r.avail, 12);
				tb_size(r.crit, 12);
				tb_size(r.mod, 12);
				tb_nl();
			} else {
				t_obj(0);
				t_fix("elapsed", el, 3);
				t_cstr("level", lvname[lv]);
				t_u64("available", r.avail);
				t_u64("critical", r.crit);
				t_u64("moderate", r.mod);
				t_done();
			}
			out_flush(fo);
		}
		if (o.timeout && el >= o.timeout)
			return 0;
		poll(0, 0, o.timeout && o.timeout - el < o.interval ? o.timeout - el : o.interval);
	}
}

static int bad(const char *what, const char *why)
{
	mb_warn(what, why);
	return cli_usage_error(usage);
}

static int run(int argc, char **argv, int *mode, int *target, int *recover)
{
	struct optst st = { 0 };
	int id;

	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case 'w':
			o.have_weight = 1;
			if (cli_u64("--weight", st.arg, &o.weight))
				return cli_usage_error(usage);
			break;
		case 'r':
			o.have_ratio = 1;
			if (cli_fix("--ratio", st.arg, 3, &o.ratio) || o.ratio > 1000)
				return bad("--ratio", "a fraction from 0 to 1");
			break;
		case O_CRIT:
		case O_MOD:
			*(id == O_CRIT ? &o.have_crit : &o.have_mod) = 1;
			if (cli_u64(id == O_CRIT ? "--critical" : "--moderate", st.arg, id == O_CRIT ? &o.crit : &o.mod))
				return cli_usage_error(usage);
			break;
		case OPT_PAGESIZE:
			if (cli_u64("--page-size", st.arg, &o.ps) || o.ps < 4096 || (o.ps & (o.ps - 1)))
				return bad("--page-size", "a power of two, at least 4096");
			break;
		case O_WAIT:
			if (*mode == O_CHECK || *mode == O_WATCH)
				return bad("--wait", "only one of --check, --wait, --watch");
			*mode = O_WAIT;
			if (st.arg && (*target = !strcmp(st.arg, "moderate") ? L_MODERATE :
			                         !strcmp(st.arg, "critical") ? L_CRITICAL : -1) < 0)
				return bad("--wait", "LEVEL is critical or moderate");
			break;
		case O_CHECK:
		case O_WATCH:
			if (*mode && *mode != id)
				return bad("--check", "only one of --check, --wait, --watch");
			*mode = id;
			break;
		case O_RECOVER:
			*recover = 1;
			break;
		case O_TIMEOUT:
		case 'i':
			if (cli_fix(id == 'i' ? "--interval" : "--timeout", st.arg, 3, id == 'i' ? &o.interval : &o.timeout))
				return cli_usage_error(usage);
			if (id == 'i' && !o.interval)
				return bad("--interval", "must be more than 0");
			break;
		}
	}
	if (st.ind < argc)
		return bad(argv[st.ind], "unexpected argument");
	if (*mode == O_WATCH && fmt == FMT_PROM)
		return bad("--watch", "prom is not a stream format: use table, json or kv");
	if (cli_root())
		return 1;
	if (*mode == O_WAIT)
		return wait_for(*target, *recover);
	if (*mode == O_WATCH)
		return watch();
	if (eval())
		return 1;
	if (r.max < r.cur)
		mb_warn("process memory", "above the computed ceiling (max < current)");
	if (*mode == O_CHECK)
		return *mode = -1, check();
	report(W_NONE);
	return 0;
}

int lowmem_main(int argc, char **argv)
{
	int mode = 0, target = L_CRITICAL, recover = 0, i, rc;

	cli_init("lowmem");
	/* in --check mode every failure, a usage error too, is UNKNOWN (3) */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--check"))
			mode = O_CHECK;
	rc = run(argc, argv, &mode, &target, &recover);
	if (mode != O_CHECK)
		return rc;
	out_s(fo, "LOWMEM UNKNOWN - could not tell (see the message before)\n");
	return 3;
}
