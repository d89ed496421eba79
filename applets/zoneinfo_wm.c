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

static const char usage[] =
	"Usage: zoneinfo-wm [OPTIONS]\n\n"
	"Per-zone watermarks and the kernel's total reserve (totalreserve_pages),\n"
	"from /proc/zoneinfo.  For each zone: FREE, BOOST, MIN, LOW, HIGH, PROMO,\n"
	"PRESENT and MANAGED memory, PROT (the largest protection, lowmem_reserve,\n"
	"entry), RESERVE = min(HIGH - BOOST + PROT, MANAGED) and HEADROOM = FREE - LOW\n"
	"(negative: kswapd should be reclaiming).  '-' marks what the kernel does not\n"
	"print.  Zones with no managed memory are hidden unless -a.\n\n"
	"  -a, --all          also zones with no managed memory\n"
	"      --page-size=N  bytes per page (default: the kernel's; for --root,\n"
	"                     derived from MemTotal / present pages)\n";

static const struct opt opts[] = {
	CLI_COMMON,
	{ "all", 'a', 0, 'a' },
	{ "page-size", 0, 1, OPT_PAGESIZE },
	{ 0, 0, 0, 0 }
};

static struct zi z;
static uint64_t ps;
static int ps_how;

/* /proc/sys/vm settings; absent files are shown as absent. */
static struct {
	int have_min, have_extra, have_scale, have_boost;
	uint64_t min_free, extra_free, scale, boost;
	uint64_t ratio[VM_MAX_RATIOS];
	int nratio;      /* -1: file absent */
} vm;

static void read_vm(void)
{
	char b[256];
	const char *p = b, *f;
	size_t n;
	int trunc;
	long k;

	vm.have_min = !rd_u64("/proc/sys/vm/min_free_kbytes", &vm.min_free);
	vm.have_extra = !rd_u64("/proc/sys/vm/extra_free_kbytes", &vm.extra_free);
	vm.have_scale = !rd_u64("/proc/sys/vm/watermark_scale_factor", &vm.scale);
	vm.have_boost = !rd_u64("/proc/sys/vm/watermark_boost_factor", &vm.boost);
	vm.min_free = sat_mul(vm.min_free, 1024);
	vm.extra_free = sat_mul(vm.extra_free, 1024);
	vm.nratio = -1;
	k = rd_file("/proc/sys/vm/lowmem_reserve_ratio", b, sizeof b, &trunc);
	if (k < 0)
		return;
	vm.nratio = 0;
	while (vm.nratio < VM_MAX_RATIOS && sc_field(&p, b + k, &f, &n))
		if (sc_u64_all(f, n, &vm.ratio[vm.nratio]) != SC_NONE)
			vm.nratio++;
}

static uint64_t pg(uint64_t pages) { return sat_mul(pages, ps); }

static int64_t headroom(const struct zi_zone *c) { return sat_diff(pg(c->free), pg(c->low)); }

/* A size the kernel may not print: '-' when absent. */
static void cell(int have, uint64_t bytes, int w)
{
	if (have) {
		tb_size(bytes, w);
	} else {
		out_pad(fo, 1, w);
		out_c(fo, '-');
	}
}

static void table(int all)
{
	unsigned i;

	out_s(fo, "sizes in ");
	out_s(fo, *tb_unit() ? tb_unit() : "IEC units");
	out_s(fo, ", page size ");
	out_u64(fo, ps);
	out_s(fo, " bytes (");
	out_s(fo, zi_ps_how[ps_how]);
	out_s(fo, ")\nNODE ZONE          FREE    BOOST      MIN      LOW     HIGH    PROMO  PRESENT  MANAGED     PROT  RESERVE HEADROOM\n");
	for (i = 0; i < z.n; i++) {
		const struct zi_zone *c = &z.z[i];
		if (!all && !c->managed)
			continue;
		tb_u64(c->node, 4);
		out_c(fo, ' ');
		tb_str(c->name, 8);
		tb_size(pg(c->free), 9);
		cell(c->have & ZH_BOOST, pg(c->boost), 9);
		tb_size(pg(c->min), 9);
		tb_size(pg(c->low), 9);
		tb_size(pg(c->high), 9);
		cell(c->have & ZH_PROMO, pg(c->promo), 9);
		tb_size(pg(c->present), 9);
		tb_size(pg(c->managed), 9);
		cell(c->have & ZH_PROT, pg(c->prot_max), 9);
		tb_size(pg(c->reserve), 9);
		tb_ssize(headroom(c), 9);
		tb_nl();
	}
	out_s(fo, "total         ");
	tb_size(pg(z.tot.free), 9);
	out_s(fo, "        -");
	tb_size(pg(z.tot.min), 9);
	tb_size(pg(z.tot.low), 9);
	tb_size(pg(z.tot.high), 9);
	out_s(fo, "        -");
	tb_size(pg(z.tot.present), 9);
	tb_size(pg(z.tot.managed), 9);
	out_s(fo, "        -");
	tb_size(pg(z.tot.reserve), 9);
	tb_ssize(sat_diff(pg(z.tot.free), pg(z.tot.low)), 9);
	out_s(fo, "\nvm: min_free ");
	cell(vm.have_min, vm.min_free, 0);
	out_s(fo, ", extra_free ");
	cell(vm.have_extra, vm.extra_free, 0);
	out_s(fo, ", watermark_scale_factor ");
	if (vm.have_scale) out_u64(fo, vm.scale); else out_c(fo, '-');
	out_s(fo, ", watermark_boost_factor ");
	if (vm.have_boost) out_u64(fo, vm.boost); else out_c(fo, '-');
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
	unsigned i, j;

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
		t_u64("free", pg(c->free));
		t_opt("boost", c->have & ZH_BOOST, pg(c->boost));
		t_u64("min", pg(c->min));
		t_u64("low", pg(c->low));
		t_u64("high", pg(c->high));
		t_opt("promo", c->have & ZH_PROMO, pg(c->promo));
		t_u64("spanned", pg(c->spanned));
		t_u64("present", pg(c->present));
		t_u64("managed", pg(c->managed));
		t_bool("managed_from_present", !(c->have & ZH_MANAGED));
		t_arr("protection");
		for (j = 0; j < c->nprot; j++)
			t_u64(0, pg(c->prot[j]));
		t_end();
		t_u64("protection_max", pg(c->prot_max));
		t_u64("reserve", pg(c->reserve));
		t_i64("headroom", headroom(c));
		t_end();
	}
	t_end();
	t_u64("zones_dropped", z.dropped);
	t_obj("total");
	t_u64("free", pg(z.tot.free));
	t_u64("min", pg(z.tot.min));
	t_u64("low", pg(z.tot.low));
	t_u64("high", pg(z.tot.high));
	t_u64("present", pg(z.tot.present));
	t_u64("managed", pg(z.tot.managed));
	t_u64("reserve", pg(z.tot.reserve));
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

/* One metric family over every zone that has the field. */
static void prom_zones(const char *name, const char *help, size_t off, unsigned bit)
{
	unsigned i;

	for (i = 0; i < z.n && bit && !(z.z[i].have & bit); i++)
		;
	if (i == z.n)
		return;
	p_type(name, "gauge", help);
	for (i = 0; i < z.n; i++) {
		const struct zi_zone *c = &z.z[i];
		if (bit && !(c->have & bit))
			continue;
		p_start(name);
		p_labu("node", c->node);
		p_labc("zone", c->name);
		if (!off)
			p_i64(headroom(c));
		else
			p_u64(pg(*(const uint64_t *)((const char *)c + off)));
	}
}

static void prom_one(const char *name, const char *help, int have, uint64_t v)
{
	if (!have)
		return;
	p_type(name, "gauge", help);
	p_start(name);
	p_u64(v);
}

#define ZF(f) offsetof(struct zi_zone, f)

static void prom(void)
{
	prom_one("page_size_bytes", "Bytes per page used to convert zoneinfo pages.", 1, ps);
	prom_zones("zone_free_bytes", "Free memory in the zone.", ZF(free), 0);
	prom_zones("zone_boost_bytes", "Current watermark boost.", ZF(boost), ZH_BOOST);
	prom_zones("zone_min_bytes", "Min watermark.", ZF(min), 0);
	prom_zones("zone_low_bytes", "Low watermark (kswapd wakes below it).", ZF(low), 0);
	prom_zones("zone_high_bytes", "High watermark (kswapd sleeps above it), including boost.", ZF(high), 0);
	prom_zones("zone_promo_bytes", "Promotion watermark.", ZF(promo), ZH_PROMO);
	prom_zones("zone_spanned_bytes", "Memory spanned by the zone.", ZF(spanned), 0);
	prom_zones("zone_present_bytes", "Memory present in the zone.", ZF(present), 0);
	prom_zones("zone_managed_bytes", "Memory managed by the buddy allocator.", ZF(managed), 0);
	prom_zones("zone_protection_max_bytes", "Largest lowmem_reserve protection of the zone.", ZF(prot_max), 0);
	prom_zones("zone_reserve_bytes", "The zone's part of totalreserve_pages.", ZF(reserve), 0);
	prom_zones("zone_headroom_bytes", "Free minus the low watermark.", 0, 0);
	prom_one("zone_total_free_bytes", "Free memory over all zones.", 1, pg(z.tot.free));
	prom_one("zone_total_min_bytes", "Min watermarks over all zones.", 1, pg(z.tot.min));
	prom_one("zone_total_low_bytes", "Low watermarks over all zones.", 1, pg(z.tot.low));
	prom_one("zone_total_high_bytes", "High watermarks over all zones.", 1, pg(z.tot.high));
	prom_one("zone_total_managed_bytes", "Managed memory over all zones.", 1, pg(z.tot.managed));
	prom_one("zone_total_reserve_bytes", "The kernel's total reserve (totalreserve_pages).", 1, pg(z.tot.reserve));
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
