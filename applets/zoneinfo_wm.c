/* zoneinfo-wm: per-zone watermarks, protection, headroom and the kernel's
 * total reserve.  Reads /proc/zoneinfo, /proc/sys/vm/{min_free_kbytes,
 * extra_free_kbytes, watermark_scale_factor, watermark_boost_factor,
 * lowmem_reserve_ratio}, and /proc/meminfo for a capture's page size. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "out.h"
#include "rd.h"
#include "sc.h"
#include "zoneinfo.h"

static const char usage[] = TXT(zoneinfo_wm,
	"Usage: zoneinfo-wm [OPTIONS]\n\n"
	"Per-zone watermarks and the kernel's total reserve (totalreserve_pages),\n"
	"from /proc/zoneinfo.  For each zone: FREE, BOOST, MIN, LOW, HIGH, PROMO,\n"
	"PRESENT and MANAGED memory, PROT (the largest protection, lowmem_reserve,\n"
	"entry), RESERVE = min(HIGH - BOOST + PROT, MANAGED) and HEADROOM = FREE - LOW\n"
	"(negative: kswapd should be reclaiming).  '-' marks what the kernel does not\n"
	"print.  Zones with no managed memory are hidden unless -a.\n\n"
	"  -a, --all          also zones with no managed memory\n"
	"      --page-size=N  bytes per page (default: the kernel's; for --root,\n"
	"                     derived from MemTotal / present pages)\n");

static const struct opt opts[] = {
	CLI_COMMON,
	{ "all", 'a', 0, 'a' },
	{ "page-size", 0, 1, OPT_PAGESIZE },
	{ 0, 0, 0, 0 }
};

static struct zi z;
static uint64_t ps;
static int ps_how;

/* /proc/sys/vm settings; absent and damaged (warned) files are shown as absent. */
static struct {
	int have_min, have_extra, have_scale, have_boost;
	uint64_t min_free, extra_free, scale, boost;
	uint64_t ratio[VM_MAX_RATIOS];
	int nratio;      /* -1: file absent or damaged */
} vm;

static void read_vm(void)
{
	vm.have_min = rd_nums("/proc/sys/vm/min_free_kbytes", &vm.min_free, 1, 1024) == 1;
	vm.have_extra = rd_nums("/proc/sys/vm/extra_free_kbytes", &vm.extra_free, 1, 1024) == 1;
	vm.have_scale = !rd_u64("/proc/sys/vm/watermark_scale_factor", &vm.scale);
	vm.have_boost = !rd_u64("/proc/sys/vm/watermark_boost_factor", &vm.boost);
	vm.nratio = rd_nums("/proc/sys/vm/lowmem_reserve_ratio", vm.ratio, VM_MAX_RATIOS, 1);
	if (vm.nratio < 0)
		vm.nratio = -1;
}

static uint64_t pg(uint64_t pages) { return sat_mul(pages, ps); }

/* The figures of a zone (or of the totals), in bytes, in the order of the
 * json object; the table leaves out spanned, prom adds headroom. */
enum { F_FREE, F_BOOST, F_MIN, F_LOW, F_HIGH, F_PROMO, F_SPANNED, F_PRESENT,
       F_MANAGED, F_PROTMAX, F_RESERVE, F_N };
static const struct fig {
	const char *name, *help;
	unsigned short bit;   /* ZH_ bit the kernel may leave out, 0: always there */
} figs[F_N] = {
	{ "free", "Free memory in the zone.", 0 },
	{ "boost", "Current watermark boost.", ZH_BOOST },
	{ "min", "Min watermark.", 0 },
	{ "low", "Low watermark (kswapd wakes below it).", 0 },
	{ "high", "High watermark (kswapd sleeps above it), including boost.", 0 },
	{ "promo", "Promotion watermark.", ZH_PROMO },
	{ "spanned", "Memory spanned by the zone.", 0 },
	{ "present", "Memory present in the zone.", 0 },
	{ "managed", "Memory managed by the buddy allocator.", 0 },
	{ "protection_max", "Largest lowmem_reserve protection of the zone.", ZH_PROT },
	{ "reserve", "The zone's part of totalreserve_pages.", 0 },
};

struct vals {
	uint64_t v[F_N];
	unsigned have;        /* ZH_ bits */
	int64_t headroom;
};

static void zone_vals(const struct zi_zone *c, struct vals *x)
{
	const uint64_t p[F_N] = { c->free, c->boost, c->min, c->low, c->high, c->promo,
	                          c->spanned, c->present, c->managed, c->prot_max, c->reserve };
	int f;
	for (f = 0; f < F_N; f++)
		x->v[f] = pg(p[f]);
	x->have = c->have;
	x->headroom = sat_diff(x->v[F_FREE], x->v[F_LOW]);
}

static void total_vals(struct vals *x)
{
	const uint64_t p[F_N] = { z.tot.free, 0, z.tot.min, z.tot.low, z.tot.high, 0,
	                          0, z.tot.present, z.tot.managed, 0, z.tot.reserve };
	int f;
	for (f = 0; f < F_N; f++)
		x->v[f] = pg(p[f]);
	x->have = 0;   /* boost, promo and protection have no total: '-' */
	x->headroom = sat_diff(x->v[F_FREE], x->v[F_LOW]);
}

static int has(const struct vals *x, int f) { return !figs[f].bit || (x->have & figs[f].bit); }

/* A size the kernel may not print: '-' when absent.  A cell of width w
 * starts with a space, so that figures wider than their column (-b on a
 * large machine) never run together. */
static void cell(int have, uint64_t bytes, int w)
{
	if (w)
		out_c(fo, ' '), w--;
	if (have) {
		tb_size(bytes, w);
	} else {
		out_pad(fo, 1, w);
		out_c(fo, '-');
	}
}

static void row(const struct vals *x)
{
	int f;
	for (f = 0; f < F_N; f++)
		if (f != F_SPANNED)
			cell(has(x, f), x->v[f], 9);
	out_c(fo, ' ');
	tb_ssize(x->headroom, 8);
	tb_nl();
}

static void opt_u64(int have, uint64_t v)
{
	if (have)
		out_u64(fo, v);
	else
		out_c(fo, '-');
}

static void table(int all)
{
	struct vals x;
	unsigned i;

	out_s(fo, "sizes in ");
	out_s(fo, *tb_unit() ? tb_unit() : "IEC units");
	out_s(fo, ", page size ");
	out_u64(fo, ps);
	out_s(fo, " bytes (");
	out_s(fo, zi_ps_how[ps_how]);
	out_s(fo, ")\nNODE ZONE         FREE    BOOST      MIN      LOW     HIGH    PROMO  PRESENT  MANAGED     PROT  RESERVE HEADROOM\n");
	for (i = 0; i < z.n; i++) {
		const struct zi_zone *c = &z.z[i];
		if (!all && !c->managed)
			continue;
		tb_u64(c->node, 4);
		out_c(fo, ' ');
		tb_str(c->name, 8);
		zone_vals(c, &x);
		row(&x);
	}
	out_s(fo, "total        ");
	total_vals(&x);
	row(&x);
	out_s(fo, "vm: min_free ");
	cell(vm.have_min, vm.min_free, 0);
	out_s(fo, ", extra_free ");
	cell(vm.have_extra, vm.extra_free, 0);
	out_s(fo, ", watermark_scale_factor ");
	opt_u64(vm.have_scale, vm.scale);
	out_s(fo, ", watermark_boost_factor ");
	opt_u64(vm.have_boost, vm.boost);
	out_s(fo, ", lowmem_reserve_ratio");
	if (vm.nratio < 0)
		out_s(fo, " -");
	for (i = 0; (int)i < vm.nratio; i++) {
		out_c(fo, ' ');
		out_u64(fo, vm.ratio[i]);
	}
	tb_nl();
	if (z.dropped) {
		out_u64(fo, z.dropped);
		out_s(fo, " zones beyond the table (ZI_MAX_ZONES) are counted in the total only\n");
	}
}

static void tree(void)
{
	char name[48];
	struct vals x;
	unsigned i, j;
	int f;

	t_obj(0);
	t_u64("page_size", ps);
	t_cstr("page_size_source", zi_ps_how[ps_how]);
	t_arr("zones");
	for (i = 0; i < z.n; i++) {
		const struct zi_zone *c = &z.z[i];
		size_t n = 5;
		memcpy(name, "zone.", 5);
		n += u64_str(name + n, c->node);
		name[n++] = '.';
		memcpy(name + n, c->name, strlen(c->name) + 1);
		t_elem(name);
		t_u64("node", c->node);
		t_cstr("zone", c->name);
		zone_vals(c, &x);
		for (f = 0; f < F_N; f++) {
			if (f == F_PROTMAX) {
				t_bool("managed_from_present", !(c->have & ZH_MANAGED));
				t_arr("protection");
				for (j = 0; j < c->nprot; j++)
					t_u64(0, pg(c->prot[j]));
				t_end();
			}
			/* protection_max is 0, not null, for a zone without the list */
			t_opt(figs[f].name, has(&x, f) || f == F_PROTMAX, x.v[f]);
		}
		t_i64("headroom", x.headroom);
		t_end();
	}
	t_end();
	t_u64("zones_dropped", z.dropped);
	t_obj("total");
	total_vals(&x);
	for (f = 0; f < F_N; f++)
		if (!figs[f].bit && f != F_SPANNED)
			t_u64(figs[f].name, x.v[f]);
	t_end();
	t_obj("vm");
	t_opt("min_free", vm.have_min, vm.min_free);
	t_opt("extra_free", vm.have_extra, vm.extra_free);
	t_opt("watermark_scale_factor", vm.have_scale, vm.scale);
	t_opt("watermark_boost_factor", vm.have_boost, vm.boost);
	if (vm.nratio < 0) {
		t_null("lowmem_reserve_ratio");
	} else {
		t_arr("lowmem_reserve_ratio");
		for (i = 0; (int)i < vm.nratio; i++)
			t_u64(0, vm.ratio[i]);
		t_end();
	}
	t_end();
	t_done();
}

/* "zone_NAME_bytes" or "zone_total_NAME_bytes" into b. */
static const char *metric(char *b, const char *mid, const char *name)
{
	size_t n = 0, k;
	const char *parts[] = { "zone_", mid, name, "_bytes" };
	for (k = 0; k < 4; k++) {
		memcpy(b + n, parts[k], strlen(parts[k]));
		n += strlen(parts[k]);
	}
	b[n] = 0;
	return b;
}

static void prom_one(const char *name, const char *help, int have, uint64_t v)
{
	if (!have)
		return;
	p_type(name, "gauge", help);
	p_start(name);
	p_u64(v);
}

static void prom(void)
{
	char m[64];
	struct vals x;
	unsigned i, any;
	int f;

	prom_one("page_size_bytes", "Bytes per page used to convert zoneinfo pages.", 1, ps);
	for (f = 0; f <= F_N; f++) {
		const char *name = f < F_N ? figs[f].name : "headroom";
		for (i = any = 0; i < z.n; i++)
			any |= f == F_N || !figs[f].bit || (z.z[i].have & figs[f].bit) || f == F_PROTMAX;
		if (!any)
			continue;
		p_type(metric(m, "", name), "gauge", f < F_N ? figs[f].help : "Free minus the low watermark.");
		for (i = 0; i < z.n; i++) {
			zone_vals(&z.z[i], &x);
			if (f < F_N && !has(&x, f) && f != F_PROTMAX)
				continue;
			p_start(m);
			p_labu("node", z.z[i].node);
			p_labc("zone", z.z[i].name);
			if (f == F_N)
				p_i64(x.headroom);
			else
				p_u64(x.v[f]);
		}
	}
	total_vals(&x);
	for (f = 0; f < F_N; f++)
		if (!figs[f].bit && f != F_SPANNED && f != F_PRESENT)
			prom_one(metric(m, "total_", figs[f].name), f == F_RESERVE ?
			         "The kernel's total reserve (totalreserve_pages)." : "Sum over all zones.", 1, x.v[f]);
	prom_one("vm_min_free_bytes", "vm.min_free_kbytes in bytes.", vm.have_min, vm.min_free);
	prom_one("vm_extra_free_bytes", "vm.extra_free_kbytes in bytes.", vm.have_extra, vm.extra_free);
	prom_one("vm_watermark_scale_factor", "vm.watermark_scale_factor (1/10000 of memory).", vm.have_scale, vm.scale);
	prom_one("vm_watermark_boost_factor", "vm.watermark_boost_factor (1/10000 of the high watermark).", vm.have_boost, vm.boost);
}

int zoneinfo_wm_main(int argc, char **argv)
{
	struct optst st = { 0 };
	uint64_t ps_opt = 0;
	int all = 0, id;

	cli_init("zoneinfo-wm");
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case 'a':
			all = 1;
			break;
		case OPT_PAGESIZE:
			if (cli_u64("--page-size", st.arg, &ps_opt) || ps_opt < 4096 || (ps_opt & (ps_opt - 1)))
				return mb_warn("--page-size", "a power of two, at least 4096"), cli_usage_error(usage);
			break;
		}
	}
	if (st.ind < argc)
		return mb_warn(argv[st.ind], "unexpected argument"), cli_usage_error(usage);
	if (cli_root() || zi_load(&z, ps_opt, &ps, &ps_how))
		return 1;
	read_vm();
	if (fmt == FMT_TABLE)
		table(all);
	else if (fmt == FMT_PROM)
		prom();
	else
		tree();
	return 0;
}
