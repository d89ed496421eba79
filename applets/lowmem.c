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
#include <sys/statfs.h>
#include "cli.h"
#include "diag.h"
#include "margin.h"
#include "meminfo.h"
#include "mono.h"
#include "out.h"
#include "psi.h"
#include "rd.h"
#include "sc.h"
#include "swaps.h"
#include "zoneinfo.h"

static const char *const usage = "Usage: lowmem [OPTIONS]\n\n"
	"Available memory (ChromeOS's formula; the kernel's figure where it has one)\n"
	"against the low-memory margins (the kernel's, else 5.2% and 40% of\n"
	"MemTotal), and the process-memory ceiling.\n\n"
	"  -w, --weight=N      RAM vs swap weight (default: the kernel's, else 4)\n"
	"  -r, --ratio=R       RAM cost of swapped memory, 0 to 1 (default: measured\n"
	"                      zram, else 0.40 for zram, 0 for disk)\n"
	"      --critical=MiB, --moderate=MiB   the margins\n"
	"      --page-size=N   bytes per page (default: the kernel's; derived for -R)\n"
	"      --check         a status line; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN\n"
	"      --wait[=LEVEL]  until LEVEL (critical, moderate) is reached; report\n"
	"      --recover       with --wait: until the level is left\n"
	"      --watch         the status line again when level or available change > 1%\n"
	"      --timeout=SEC   end --wait (exit 1) or --watch (exit 0)\n"
	"  -i, --interval=SEC  re-evaluate at least this often (default 1)\n";

/* Numeric options are ids 1..7, their index + 1 in o.n[] */
enum { N_WEIGHT = 1, N_RATIO, N_CRIT, N_MOD, N_PS, N_TIMEOUT, N_INTERVAL,
       M_CHECK, M_WAIT, M_WATCH, M_RECOVER };

static const struct opt opts[] = {
	{ "weight", 'w', 1, N_WEIGHT },
	{ "ratio", 'r', 1, N_RATIO },
	{ "critical", 0, 1, N_CRIT },
	{ "moderate", 0, 1, N_MOD },
	{ "page-size", 0, 1, N_PS },
	{ "timeout", 0, 1, N_TIMEOUT },
	{ "interval", 'i', 1, N_INTERVAL },
	{ "check", 0, 0, M_CHECK },
	{ "wait", 0, 2, M_WAIT },
	{ "watch", 0, 0, M_WATCH },
	{ "recover", 0, 0, M_RECOVER },
	{ 0, 0, 0, 0 }
};
static const unsigned char ndec[] = { 0, 3, 0, 0, 0, 3, 3 };  /* decimals kept */

static uint64_t n[7];   /* ratio, timeout, interval: thousandths */
static unsigned given;                                  /* bit id: option given */
#define GIVEN(id) (given >> (id) & 1)
#define OPT(id) n[(id) - 1]

/* "/sys/kernel/mm/chromeos-low_mem/NAME", built once per use (the
 * directory's name would be in the binary once for each file otherwise) */
static const char *lm(const char *name)
{
	static char path[64];
	stpcpy(stpcpy(path, "/sys/kernel/mm/chromeos-low_mem/"), name);
	return path;
}
#define MIB 1048576ull
enum { L_NONE, L_MODERATE, L_CRITICAL };
static const char *const lvname[] = { "none", "moderate", "critical" };
enum { W_NONE, W_SYSFS, W_PSI, W_TIMER };
static const char *const wname[] = { 0, "sysfs", "psi", "timer" };

static struct meminfo m;
static struct swaps sw;
static struct psi psi;

/* The figures of one evaluation, in bytes unless said; have: bit V_x. */
enum { V_LEVEL, V_AVAIL, V_COMP, V_KAVAIL, V_DIFF, V_PFREE, V_PFILE, V_PSWAP,
       V_CRIT, V_MOD, V_CDIST, V_MDIST, V_WEIGHT, V_TOTAL, V_MAVAIL, V_RESERVE,
       V_EXTRA, V_MINFL, V_STOTAL, V_SUSED, V_SFREE, V_ZRAM, V_ZORIG, V_ZUSED,
       V_RATIO, V_CUR, V_MAX, V_HEAD, V_WMIN, V_WLOW, V_WHIGH, V_PS, V_N };
static uint64_t v[V_N];
static uint32_t have;
_Static_assert(V_N <= 32, "have holds a bit per figure");
enum { S_LEVEL, S_SOURCE, S_WAKE, S_RATIO, S_PS, S_CHECK, S_N };
static const char *sv[S_N];
static uint64_t margin[LM_MAX_MARGINS];
static unsigned nmargin, mdropped;
static int ps_how, margin_off, have_psi;

static uint64_t mi(int k) { return MI_GET(&m, k); }
/* out of line: the inline versions would be repeated at every use */
__attribute__((noinline)) static uint64_t xmul(uint64_t a, uint64_t b) { return sat_mul(a, b); }
__attribute__((noinline)) static uint64_t xadd(uint64_t a, uint64_t b) { return sat_add(a, b); }
__attribute__((noinline)) static uint64_t xsub(uint64_t a, uint64_t b) { return sat_sub(a, b); }
/* v[i] = v[a] - v[b], a signed figure */
__attribute__((noinline)) static void vdiff(int i, int a, int b) { v[i] = sat_diff(v[a], v[b]); }

/* Damaged or unreadable files are said at the first evaluation only
 * (--wait and --watch evaluate again and again). */
static int quiet;
static void said(const struct diag *d)
{
	if (!quiet)
		mb_warn_diag(d);
}
static void bad_read(const char *path, long err, const char *why)
{
	struct diag d;
	said(rd_diag(&d, path, err, why));
}

/* A /proc/sys or sysfs number times mul into v[i]; its have bit (absent
 * or damaged: 0; rd_nums says what the damage is). */
static int num(const char *path, uint64_t mul, int i)
{
	struct diag d;
	int k = rd_nums(path, &v[i], 1, mul, &d);

	said(&d);
	if (k != 1)
		return v[i] = 0, have &= ~(1u << i), 0;
	return 1;
}

static void margins(void)
{
	char b[128];
	int trunc, k;
	const char *path = lm("margin");
	long len = rd_file(path, b, sizeof b, &trunc);
	unsigned i;

	nmargin = mdropped = margin_off = 0;
	/* ChromeOS's defaults: 520 bips and 40 % of MemTotal */
	v[V_CRIT] = xmul(v[V_TOTAL], 520) / 10000;
	v[V_MOD] = xmul(v[V_TOTAL], 4000) / 10000;
	if (len < 0)
		bad_read(path, len, 0);
	if (len >= 0) {
		k = mg_parse(b, len, margin, LM_MAX_MARGINS, &nmargin, &mdropped);
		if (k == MG_BAD || trunc) {
			bad_read(path, -EINVAL, "garbled: default margins used");
			nmargin = 0;
		}
		margin_off = k == MG_OFF;
		if (mdropped)
			bad_read(path, -EINVAL, "beyond LM_MAX_MARGINS: ignored");
		for (i = 0; i < nmargin; i++) {
			margin[i] <<= 20;   /* MiB below 2^44 (mg_parse): no overflow */
			if (i < 2)
				v[V_CRIT + i] = margin[i];
		}
	}
	for (i = 0; i < 2; i++)
		if (GIVEN(N_CRIT + i))
			v[V_CRIT + i] = xmul(OPT(N_CRIT + i), MIB);
}

static void swap(void)
{
	uint64_t x[3];
	unsigned i;
	int k = sw_read(&sw), zram = !k && sw.nzram;

	if (k)
		bad_read(sw_file, k, 0);
	else if (sw.bad || sw.zram_dropped)
		bad_read(sw_file, 0, "lines skipped (garbled, or zram beyond SW_MAX_ZRAM)");
	v[V_ZRAM] = zram;
	v[V_ZORIG] = v[V_ZUSED] = 0;
	if (!zram)
		have &= ~(1u << V_ZORIG | 1u << V_ZUSED);
	for (i = 0; zram && i < sw.nzram; i++) {
		if (sw_mm_read(sw.zram[i], x)) {
			bad_read("/sys/block/zramN/mm_stat", 0, "missing or garbled");
			continue;
		}
		v[V_ZORIG] = xadd(v[V_ZORIG], x[0]);
		v[V_ZUSED] = xadd(v[V_ZUSED], x[2]);
	}
	v[V_STOTAL] = mi(MI_SwapTotal);
	v[V_SFREE] = mi(MI_SwapFree);
	v[V_SUSED] = xsub(v[V_STOTAL], v[V_SFREE]);
	sv[S_RATIO] = "option";
	v[V_RATIO] = OPT(N_RATIO);
	if (!GIVEN(N_RATIO)) {
		sv[S_RATIO] = v[V_ZORIG] ? "measured" : zram ? "zram" : "disk";
		v[V_RATIO] = v[V_ZORIG] ? xmul(v[V_ZUSED], 1000) / v[V_ZORIG] : zram ? 400 : 0;
	}
}

/* Read everything once: 0, or 1 after a message. */
static int eval(void)
{
	uint64_t anon, x, red, usable;
	struct diag zs[ZI_SAY_N];
	int k = meminfo_read(&m);

	mb_warn_diag(&m.diag);
	if (k < 0)
		return mb_fail_errno("/proc/meminfo", -k);
	if (!MI_HAS(&m, MI_MemTotal) || !MI_HAS(&m, MI_MemFree))
		return mb_fail("/proc/meminfo", "no MemTotal or MemFree");
	if ((~m.have >> MI_ActiveAnon & 15) && !v[V_TOTAL])
		mb_warn("/proc/meminfo", "no Active/Inactive(anon/file) (before 2.6.28): counted as 0");
	k = zi_load(&zi_zones, &m, OPT(N_PS), &v[V_PS], &ps_how, zs);
	mb_warn_diags(zs, ZI_SAY_N);
	if (k)
		return 1;
	have = ~0u;
	v[V_TOTAL] = mi(MI_MemTotal);
	v[V_MAVAIL] = mi(MI_MemAvailable);
	if (!MI_HAS(&m, MI_MemAvailable))
		have &= ~(1u << V_MAVAIL);
	num("/proc/sys/vm/extra_free_kbytes", 1024, V_EXTRA);
	num("/proc/sys/vm/min_filelist_kbytes", 1024, V_MINFL);
	have |= 1u << V_MINFL;   /* absent is 0 here */
	v[V_RESERVE] = xsub(xmul(zi_zones.tot.reserve, v[V_PS]), v[V_EXTRA]);
	v[V_WEIGHT] = OPT(N_WEIGHT);
	if (!GIVEN(N_WEIGHT) && !num(lm("ram_vs_swap_weight"), 1, V_WEIGHT))
		v[V_WEIGHT] = 4;
	have |= 1u << V_WEIGHT;
	margins();
	swap();
	have_psi = !psi_read(&psi);
	mb_warn_diag(&psi.diag);
	sv[S_PS] = zi_ps_how[ps_how];

	/* computed in whole KiB, as the kernel does in pages */
	anon = xadd(mi(MI_ActiveAnon), mi(MI_InactiveAnon));
	v[V_PFREE] = xsub(mi(MI_MemFree), v[V_RESERVE]);
	v[V_PFILE] = xsub(xsub(xadd(mi(MI_ActiveFile), mi(MI_InactiveFile)), mi(MI_Dirty)), v[V_MINFL]);
	x = anon < v[V_SFREE] ? anon : v[V_SFREE];
	v[V_PSWAP] = v[V_WEIGHT] ? x / 1024 / v[V_WEIGHT] * 1024 : 0;
	v[V_COMP] = xadd(xadd(v[V_PFREE], v[V_PFILE]), v[V_PSWAP]);
	sv[S_SOURCE] = "computed";
	v[V_AVAIL] = v[V_COMP];
	if (num(lm("available"), MIB, V_KAVAIL)) {
		sv[S_SOURCE] = "kernel";
		v[V_AVAIL] = v[V_KAVAIL];
	} else {
		have &= ~(1u << V_DIFF);
	}
	vdiff(V_DIFF, V_KAVAIL, V_COMP);
	v[V_LEVEL] = v[V_AVAIL] < v[V_CRIT] ? L_CRITICAL : v[V_AVAIL] < v[V_MOD] ? L_MODERATE : L_NONE;
	sv[S_LEVEL] = lvname[v[V_LEVEL]];
	vdiff(V_CDIST, V_AVAIL, V_CRIT);
	vdiff(V_MDIST, V_AVAIL, V_MOD);

	/* the process-memory ceiling; a ratio above 1 counts as 1 */
	v[V_CUR] = xadd(anon, v[V_SUSED]);
	red = v[V_CRIT] > v[V_RESERVE] ? xmul(v[V_CRIT] - v[V_RESERVE], v[V_WEIGHT]) : 0;
	if (red > v[V_STOTAL])
		red = 0;
	usable = v[V_STOTAL] - red;
	x = v[V_RATIO] > 1000 ? 1000 : v[V_RATIO];
	v[V_MAX] = xadd(xsub(v[V_TOTAL], v[V_RESERVE]), xmul(usable, 1000 - x) / 1000);
	vdiff(V_HEAD, V_MAX, V_CUR);
	for (k = 0; k < 3; k++)   /* min, low, high */
		v[V_WMIN + k] = xmul(zi_zones.tot.f[ZF_MIN + k], v[V_PS]);
	return 0;
}

/* ---- the report: one table of figures for every format ---- */

/* Text with figures (ASCII, to be a packed text): \16 then '@' + V_x is
 * that figure, \16 then '`' + V_x the figure in MiB; a byte 1 + S_x is
 * that string. */
static void tpl(const char *p)
{
	for (; *p; p++) {
		unsigned c = (unsigned char)*p;
		if (c == 016)
			c = *++p, out_i64(fo, c & 040 ? v[c & 31] / MIB : v[c & 31]);
		else if (c <= S_N)
			fo_s(sv[c - 1]);
		else
			fo_c(c);
	}
}

enum { K_SIZE, K_SSIZE, K_NUM, K_FIX3, K_BOOL, K_STR, K_OBJ, K_END, K_MARGINS, K_PSI,
       F_NOPROM = 16, F_NOTAB = 32, F_NOTREE = 64 };
/* The figures in order: keys (one string, "" closes an object), then kind and index. */
static const char *const keys = 
	"level\0level\0source\0wake\0available\0computed_available\0"
	"kernel_available\0difference\0parts\0free\0file\0swap\0\0margins\0"
	"critical\0moderate\0critical_distance\0moderate_distance\0weight\0"
	"mem_total\0mem_available\0reserve\0extra_free\0min_filelist\0"
	"swap\0total\0used\0free\0zram\0zram_orig\0zram_used\0ratio\0"
	"ratio_source\0\0process\0current\0max\0headroom\0\0watermarks\0"
	"min\0low\0high\0\0psi\0page_size\0page_size_source";
static const unsigned char figs[][2] = {
	{ K_STR, S_LEVEL }, { K_NUM | F_NOTAB | F_NOTREE, V_LEVEL },
	{ K_STR, S_SOURCE }, { K_STR, S_WAKE }, { K_SIZE, V_AVAIL },
	{ K_SIZE, V_COMP }, { K_SIZE, V_KAVAIL }, { K_SSIZE | F_NOPROM, V_DIFF },
	{ K_OBJ, 0 }, { K_SIZE | F_NOPROM, V_PFREE }, { K_SIZE | F_NOPROM, V_PFILE },
	{ K_SIZE | F_NOPROM, V_PSWAP }, { K_END, 0 }, { K_MARGINS, 0 },
	{ K_SIZE, V_CRIT }, { K_SIZE, V_MOD }, { K_SSIZE, V_CDIST },
	{ K_SSIZE, V_MDIST }, { K_NUM, V_WEIGHT }, { K_SIZE, V_TOTAL },
	{ K_SIZE | F_NOPROM, V_MAVAIL }, { K_SIZE, V_RESERVE },
	{ K_SIZE | F_NOPROM, V_EXTRA }, { K_SIZE, V_MINFL }, { K_OBJ, 0 },
	{ K_SIZE, V_STOTAL }, { K_SIZE, V_SUSED }, { K_SIZE, V_SFREE },
	{ K_BOOL, V_ZRAM }, { K_SIZE, V_ZORIG }, { K_SIZE, V_ZUSED },
	{ K_FIX3, V_RATIO }, { K_STR, S_RATIO }, { K_END, 0 }, { K_OBJ, 0 },
	{ K_SIZE, V_CUR }, { K_SIZE, V_MAX }, { K_SSIZE, V_HEAD }, { K_END, 0 },
	{ K_OBJ, 0 }, { K_SIZE, V_WMIN }, { K_SIZE, V_WLOW }, { K_SIZE, V_WHIGH },
	{ K_END, 0 }, { K_PSI, 0 }, { K_SIZE | F_NOTAB, V_PS },
	{ K_STR | F_NOTAB, S_PS }
};
#define NFIGS (sizeof figs / sizeof *figs)

/* v / 10^dec right-aligned in w: "0.05" for 5 with dec 2 */
static void tb_fix(uint64_t x, int dec, int w)
{
	char b[21];
	int n = u64_str(b, x);
	out_pad(fo, (n > dec ? n : dec + 1) + 1, w);
	out_fix(fo, x, dec);
}

/* "PARENT_KEY" with sep for '_' (table label, prom name) */
static size_t name(char *b, const char *parent, const char *key, char sep)
{
	size_t l = 0;
	const char *s;
	for (s = parent; s && *s; s++)
		b[l++] = *s == '_' ? sep : *s;
	if (parent)
		b[l++] = sep;
	for (s = key; *s; s++)
		b[l++] = *s == '_' ? sep : *s;
	b[l] = 0;
	return l;
}

static void psi_out(void)
{
	static const char *const win[] = { "avg10", "avg60", "avg300" };
	static const char *const kind[] = { "some", "full" };
	const struct psi_line *pl;
	int i, j;

	if (fmt == FMT_PROM) {
		for (j = 0; have_psi && j < 2; j++) {
			const char *nm = j ? "lowmem_psi_stall_seconds_total" : "lowmem_psi_avg_percent";
			p_type(nm, j ? "counter" : "gauge", j ? "Memory stall time." : "Memory stall average, percent.");
			for (i = 0; i < (j ? 2 : 6); i++) {
				pl = i % 2 ? &psi.full : &psi.some;
				if (!pl->have)
					continue;
				p_start(nm);
				p_labc("kind", kind[i % 2]);
				if (!j)
					p_labc("window", win[i / 2]);
				p_fix(j ? pl->total : pl->avg[i / 2], j ? 6 : 2);
			}
		}
		return;
	}
	if (fmt == FMT_TABLE)
		fo_s(have_psi ? "psi (%)    avg10  avg60 avg300  stall total (s)\n" : "psi                          -\n");
	else if (!have_psi)
		t_null("psi");
	else
		t_obj("psi");
	for (i = 0; have_psi && i < 2; i++) {
		pl = i ? &psi.full : &psi.some;
		if (!pl->have)
			continue;
		if (fmt == FMT_TABLE) {
			fo_s(kind[i]);
			fo_s("     ");
			for (j = 0; j < 3; j++)
				tb_fix(pl->avg[j], 2, 7);
			tb_fix(pl->total / 1000, 3, 17);
			tb_nl();
		} else {
			t_obj(kind[i]);
			for (j = 0; j < 3; j++)
				t_fix(win[j], pl->avg[j], 2);
			t_u64("total", pl->total);
			t_end();
		}
	}
	if (fmt != FMT_TABLE && have_psi)
		t_end();
}

static void margins_out(void)
{
	unsigned i;

	if (fmt == FMT_TABLE) {
		fo_s("kernel margins (MiB) ");
		fo_s(margin_off ? " off (notifier disabled)" : nmargin ? "" : " -");
		for (i = 0; i < nmargin; i++) {
			fo_c(' ');
			out_u64(fo, margin[i] / MIB);
		}
		tb_nl();
	} else if (fmt != FMT_PROM) {
		t_arr("margins");
		for (i = 0; i < nmargin; i++)
			t_u64(0, margin[i]);
		t_end();
		t_bool("margin_off", margin_off);
		t_u64("margins_dropped", mdropped);
	}
}

static void report(void)
{
	const char *key = keys, *parent = 0;
	unsigned i;
	char nm[64], lab[48];
	size_t l;

	if (fmt == FMT_TABLE) {
		zi_table_head(v[V_PS], ps_how);
	} else if (fmt != FMT_PROM) {
		t_obj(0);
	}
	for (i = 0; i < NFIGS; i++, key += strlen(key) + 1) {
		int k = figs[i][0] & 15, fl = figs[i][0], j = figs[i][1];
		int has = k == K_STR ? sv[j] != 0 : (int)(have >> j & 1);
		uint64_t x = v[j];

		if (k == K_OBJ || k == K_END) {
			parent = *key ? key : 0;
			if (fmt == FMT_JSON || fmt == FMT_KV)
				k == K_OBJ ? t_obj(key) : t_end();
			continue;
		}
		if (k == K_MARGINS || k == K_PSI) {
			k == K_PSI ? psi_out() : margins_out();
			continue;
		}
		if (k == K_STR && !has)
			continue;
		l = name(lab, parent, key, ' ');
		if (fmt == FMT_PROM) {
			if (fl & F_NOPROM || k == K_STR || !has)
				continue;
			memcpy(nm, "lowmem_", 7);
			l = 7 + name(nm + 7, parent, key, '_');
			if (k <= K_SSIZE)
				memcpy(nm + l, "_bytes", 7);
			p_type(nm, "gauge", lab);
			p_start(nm);
			if (k == K_SSIZE || k == K_FIX3)
				p_fix(x, k == K_FIX3 ? 3 : 0);
			else
				p_u64(x);
		} else if (fmt == FMT_TABLE) {
			if (fl & F_NOTAB)
				continue;
			out_mem(fo, lab, l);
			out_pad(fo, l, 20);
			if (!has || k == K_STR || k == K_BOOL) {
				const char *s = !has ? "-" : k == K_STR ? sv[j] : x ? "yes" : "no";
				out_pad(fo, strlen(s), 12);
				fo_s(s);
			} else if (k == K_SIZE) {
				tb_size(x, 12);
			} else if (k == K_SSIZE) {
				tb_ssize(x, 12);
			} else if (k == K_FIX3) {
				tb_fix(x, 3, 12);
			} else {
				tb_u64(x, 12);
			}
			tb_nl();
		} else if (!(fl & F_NOTREE)) {
			if (!has)
				t_null(key);
			else if (k == K_STR)
				t_cstr(key, sv[j]);
			else if (k == K_SSIZE || k == K_FIX3)
				t_fix(key, x, k == K_FIX3 ? 3 : 0);
			else if (k == K_BOOL)
				t_bool(key, x);
			else
				t_u64(key, x);
		}
	}
	if (fmt == FMT_JSON || fmt == FMT_KV)
		t_done();
}

/* ---- modes ---- */

__attribute__((noinline)) static uint64_t now_ms(void)
{
	return mono_us() / 1000;
}

/* monitoring-plugins: one line, perfdata (bytes) after '|' */
static int check(void)
{
	static const char *const st[] = { "OK", "WARNING", "CRITICAL" };

	sv[S_CHECK] = st[v[V_LEVEL]];
	tpl("LOWMEM \6 - available \16a MiB (critical \16h MiB, moderate \16i MiB) | "
	    "available=\16AB;\16I;\16H;0;\16M computed=\16BB;;;0;\16M "
	    "swap_used=\16SB;;;0;\16R process_headroom=\16[B\n");
	return v[V_LEVEL];
}

/* The wake-up for --wait: the sysfs file's notification, a PSI trigger, or
 * the interval alone (a captured tree's files are plain files). */
static int wake(int *fd)
{
	static const char trig[] = "some 150000 2000000";
	struct statfs f;
	char b[64];
	int t;

	*fd = rd_open(lm("available"), O_RDONLY);
	if (*fd >= 0 && !fstatfs(*fd, &f) && f.f_type == 0x62656572) {  /* SYSFS_MAGIC */
		rd_fd(*fd, b, sizeof b, &t);
		return W_SYSFS;
	}
	if (*fd >= 0)
		close(*fd);
	*fd = rd_open(psi_file, O_RDWR);
	if (*fd >= 0 && !fstatfs(*fd, &f) && f.f_type == 0x9fa0 &&   /* PROC_SUPER_MAGIC */
	    write(*fd, trig, sizeof trig) > 0)
		return W_PSI;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return W_TIMER;
}

/* --wait (mode M_WAIT) and --watch: 0, or 1 (failure, or --wait's timeout). */
static int loop(int mode, int target, int recover)
{
	struct pollfd p = { .fd = -1, .events = POLLPRI | POLLERR };
	uint64_t t0 = now_ms(), el, last = 0, d;
	struct timespec ts;
	int w = W_TIMER, lv = -1, t;
	char b[64];

	if (mode == M_WAIT)
		w = wake(&p.fd);
	sv[S_WAKE] = wname[w];
	for (;;) {
		if (eval())
			return 1;
		quiet = 1;   /* the files' damage was said at the first evaluation */
		el = now_ms() - t0;
		d = v[V_AVAIL] > last ? v[V_AVAIL] - last : last - v[V_AVAIL];
		if (mode == M_WAIT && (recover ? (int)v[V_LEVEL] < target : (int)v[V_LEVEL] >= target)) {
			report();
			return 0;
		}
		if (mode == M_WATCH && ((int)v[V_LEVEL] != lv || d > last / 100)) {
			lv = v[V_LEVEL];
			last = v[V_AVAIL];
			if (fmt == FMT_TABLE) {
				out_fix(fo, el / 100, 1);
				fo_c(' ');
				check();
			} else {
				t_obj(0);
				t_fix("elapsed", el, 3);
				t_cstr("level", sv[S_LEVEL]);
				t_u64("available", v[V_AVAIL]);
				t_u64("critical", v[V_CRIT]);
				t_u64("moderate", v[V_MOD]);
				t_done();
			}
			out_flush(fo);
		}
		if (OPT(N_TIMEOUT) && el >= OPT(N_TIMEOUT))
			return mode == M_WAIT ? mb_fail(wname[w], recover ? "--timeout: the level was not left"
			                                                  : "--timeout: the level was not reached") : 0;
		/* poll()'s int milliseconds, through ppoll (which vmstat-meter
		 * links anyway) as musl's poll does */
		t = OPT(N_TIMEOUT) && OPT(N_TIMEOUT) - el < OPT(N_INTERVAL) ? OPT(N_TIMEOUT) - el : OPT(N_INTERVAL);
		ts.tv_sec = t / 1000;
		ts.tv_nsec = t % 1000 * 1000000;
		if (ppoll(&p, p.fd >= 0, t < 0 ? 0 : &ts, 0) > 0 && w == W_SYSFS)
			rd_fd(p.fd, b, sizeof b, &t);   /* re-arms the notification */
	}
}

static int bad(const char *what, const char *why)
{
	mb_warn(what, why);
	return cli_usage_error(usage);
}

static int run(int argc, char **argv, int *mode)
{
	struct optst st = { 0 };
	int id, target = L_CRITICAL;
	uint64_t *x;

	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		if (id == OPT_ERR)
			return 2;
		given |= 1u << id;
		if (id <= N_INTERVAL) {
			x = &OPT(id);
			if (cli_fix(opts[id - 1].lng, st.arg, ndec[id - 1], x))
				return cli_usage_error(usage);
			if ((id == N_RATIO && *x > 1000) || (id == N_INTERVAL && !*x) ||
			    (id == N_PS && (*x < 4096 || (*x & (*x - 1)))))
				return bad(opts[id - 1].lng, "out of range");
		} else if (id != M_RECOVER) {
			if (*mode && *mode != id)
				return bad("--check, --wait, --watch", "only one of them");
			*mode = id;
			if (st.arg && (target = !strcmp(st.arg, "moderate") ? L_MODERATE :
			                        !strcmp(st.arg, "critical") ? L_CRITICAL : -1) < 0)
				return bad("--wait", "LEVEL is critical or moderate");
		}
	}
	if (st.ind < argc)
		return bad(argv[st.ind], "unexpected argument");
	if (*mode == M_WATCH && fmt == FMT_PROM)
		return bad("--watch", "prom is no stream format");
	if (cli_root())
		return 1;
	if (*mode == M_WAIT || *mode == M_WATCH)
		return loop(*mode, target, GIVEN(M_RECOVER));
	if (eval())
		return 1;
	if (v[V_MAX] < v[V_CUR])
		mb_warn("process memory", "above the computed ceiling (max < current)");
	if (*mode == M_CHECK)
		return *mode = -1, check();
	report();
	return 0;
}

int lowmem_main(int argc, char **argv)
{
	int mode = 0, i, rc;

	cli_init("lowmem");
	OPT(N_INTERVAL) = 1000;   /* a store, not 56 bytes of .data */
	/* in --check mode every failure, a usage error too, is UNKNOWN (3) */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--check"))
			mode = M_CHECK;
	rc = run(argc, argv, &mode);
	if (mode != M_CHECK)
		return rc;
	fo_s("LOWMEM UNKNOWN - see the message on standard error\n");
	return 3;
}
