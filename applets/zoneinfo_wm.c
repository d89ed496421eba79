/* zoneinfo-wm: per-zone watermarks, protection, headroom and the kernel's
 * total reserve.  Reads /proc/zoneinfo, /proc/sys/vm/{min_free_kbytes,
 * extra_free_kbytes, watermark_scale_factor, watermark_boost_factor,
 * lowmem_reserve_ratio}, and /proc/meminfo for a capture's page size. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "meminfo.h"
#include "out.h"
#include "rd.h"
#include "sc.h"
#include "zoneinfo.h"

static const char *const usage = "Usage: zoneinfo-wm [OPTIONS]\n\n"
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
	{ "all", 'a', 0, 'a' },
	{ "page-size", 0, 1, OPT_PAGESIZE },
	{ 0, 0, 0, 0 }
};

static uint64_t ps;
static int ps_how;

/* /proc/sys/vm settings, each /proc/sys/vm/NAME (NAME_kbytes for the first
 * two, sizes), in the order shown; v[VM_RATIO..] is lowmem_reserve_ratio.
 * Absent and damaged (warned) files are shown as absent. */
enum { VM_MIN, VM_EXTRA, VM_SCALE, VM_BOOST, VM_RATIO, VM_N };
static const char *const vmname = "min_free\0extra_free\0watermark_scale_factor\0"
	"watermark_boost_factor\0lowmem_reserve_ratio";
static const char *const vmhelp = "vm.min_free_kbytes in bytes.\0vm.extra_free_kbytes in bytes.\0"
	"vm.watermark_scale_factor (1/10000 of memory).\0"
	"vm.watermark_boost_factor (1/10000 of the high watermark).";
static struct {
	int n[VM_N];     /* numbers read; < 0: absent or damaged */
	uint64_t v[VM_RATIO + VM_MAX_RATIOS];
} vm;
#define VM_KB(i) ((i) < VM_SCALE)
#define VM_HAVE(i) (vm.n[i] == 1)

static void read_vm(void)
{
	char path[64];
	struct diag d;
	int i;

	for (i = 0; i < VM_N; i++) {
		mb_join(path, "/proc/sys/vm/", mb_nth(vmname, i), VM_KB(i) ? "_kbytes" : "");
		vm.n[i] = rd_nums(path, &vm.v[i], i == VM_RATIO ? VM_MAX_RATIOS : 1, VM_KB(i) ? 1024 : 1, &d);
		mb_warn_diag(&d);
	}
}

/* The figures of a zone (or of the totals) in bytes, ZF_ order; the json
 * object shows them all, the table leaves out spanned, prom adds headroom.
 * Boost, promo and the protection list may be missing ('-'). */
#define OPTIONAL (ZH_BOOST | ZH_PROMO | ZH_PROT)
static const char *const help = 
	"Free memory in the zone.\0Current watermark boost.\0Min watermark.\0"
	"Low watermark (kswapd wakes below it).\0"
	"High watermark (kswapd sleeps above it), including boost.\0Promotion watermark.\0"
	"Memory spanned by the zone.\0Memory present in the zone.\0"
	"Memory managed by the buddy allocator.\0"
	"Largest lowmem_reserve protection of the zone.\0"
	"The zone's part of totalreserve_pages.\0Free minus the low watermark.";
static struct {
	uint64_t v[ZF_N];
	unsigned have;        /* ZH_ bits */
	int64_t headroom;
} x;

__attribute__((noinline)) static uint64_t pg(uint64_t pages) { return sat_mul(pages, ps); }

static void vals(const struct zi_zone *c, unsigned have)
{
	int f;
	for (f = 0; f < ZF_N; f++)
		x.v[f] = pg(c->f[f]);
	x.have = have;
	x.headroom = sat_diff(x.v[ZF_FREE], x.v[ZF_LOW]);
}

static int has(int f) { return !(OPTIONAL >> f & 1) || (x.have >> f & 1); }

/* The cells of a row, sizes the kernel may not print '-'.  A cell of width
 * 9 starts with a space, so that figures wider than their column (-b on a
 * large machine) never run together. */
static void row(void)
{
	int f;
	for (f = 0; f <= ZF_RESERVE; f++) {
		if (f == ZF_SPANNED)
			continue;
		fo_c(' ');
		if (has(f)) {
			tb_size(x.v[f], 8);
		} else {
			out_pad(fo, 1, 8);
			fo_c('-');
		}
	}
	fo_c(' ');
	tb_ssize(x.headroom, 8);
	tb_nl();
}

static void table(int all)
{
	unsigned i;
	int k;

	zi_table_head(ps, ps_how);
	fo_s("NODE ZONE         FREE    BOOST      MIN      LOW     HIGH    PROMO  PRESENT  MANAGED     PROT  RESERVE HEADROOM\n");
	for (i = 0; i < zi_zones.n; i++) {
		const struct zi_zone *c = &zi_zones.z[i];
		if (!all && !c->managed)
			continue;
		tb_u64(c->node, 4);
		fo_c(' ');
		tb_str(c->name, 8);
		vals(c, c->have);
		row();
	}
	fo_s("total        ");
	vals(&zi_zones.tot, 0);   /* boost, promo and protection have no total: '-' */
	row();
	for (k = 0; k < VM_N; k++) {
		fo_s(k ? ", " : "vm: ");
		fo_s(mb_nth(vmname, k));
		if (k < VM_RATIO) {
			fo_c(' ');
			if (!VM_HAVE(k))
				fo_c('-');
			else if (VM_KB(k))
				tb_size(vm.v[k], 0);
			else
				out_u64(fo, vm.v[k]);
		}
	}
	if (vm.n[VM_RATIO] < 0)
		fo_s(" -");
	for (k = 0; k < vm.n[VM_RATIO]; k++) {
		fo_c(' ');
		out_u64(fo, vm.v[VM_RATIO + k]);
	}
	tb_nl();
	if (zi_zones.dropped) {
		out_u64(fo, zi_zones.dropped);
		fo_s(" zones beyond the table (ZI_MAX_ZONES) are counted in the total only\n");
	}
}

static void tree(void)
{
	char name[48];
	unsigned i, j;
	int f;

	t_obj(0);
	t_u64("page_size", ps);
	t_cstr("page_size_source", zi_ps_how[ps_how]);
	t_arr("zones");
	for (i = 0; i < zi_zones.n; i++) {
		const struct zi_zone *c = &zi_zones.z[i];
		char node[24];
		node[u64_str(node, c->node)] = 0;
		stpcpy(mb_join(name, "zone.", node, "."), c->name);   /* kv: zone.0.Normal.free */
		t_elem(name);
		t_u64("node", c->node);
		t_cstr("zone", c->name);
		vals(c, c->have);
		for (f = 0; f <= ZF_RESERVE; f++) {
			if (f == ZF_PROTMAX) {
				t_bool("managed_from_present", !(c->have & ZH_MANAGED));
				t_arr("protection");
				for (j = 0; j < c->nprot; j++)
					t_u64(0, pg(c->prot[j]));
				t_end();
			}
			/* protection_max is 0, not null, for a zone without the list */
			t_opt(mb_nth(zi_fig_names, f), has(f) || f == ZF_PROTMAX, x.v[f]);
		}
		t_i64("headroom", x.headroom);
		t_end();
	}
	t_end();
	t_u64("zones_dropped", zi_zones.dropped);
	t_obj("total");
	vals(&zi_zones.tot, 0);
	for (f = 0; f < ZF_N; f++)
		if (ZH_SUMMED >> f & 1)
			t_u64(mb_nth(zi_fig_names, f), x.v[f]);
	t_end();
	t_obj("vm");
	for (f = 0; f < VM_RATIO; f++)
		t_opt(mb_nth(vmname, f), VM_HAVE(f), vm.v[f]);
	if (vm.n[VM_RATIO] < 0) {
		t_null(mb_nth(vmname, VM_RATIO));
	} else {
		t_arr(mb_nth(vmname, VM_RATIO));
		for (f = 0; f < vm.n[VM_RATIO]; f++)
			t_u64(0, vm.v[VM_RATIO + f]);
		t_end();
	}
	t_end();
	t_done();
}

__attribute__((noinline)) static void prom_one(const char *name, const char *help, uint64_t v)
{
	p_type(name, "gauge", help);
	p_start(name);
	p_u64(v);
}

static void prom(void)
{
	char m[64];
	unsigned i, any = ZH_PROT | ~OPTIONAL;   /* families with a sample */
	int f;

	prom_one("page_size_bytes", "Bytes per page used to convert zoneinfo pages.", ps);
	for (i = 0; i < zi_zones.n; i++)
		any |= zi_zones.z[i].have;
	/* zone_NAME_bytes per zone; f == ZF_CMA stands for headroom */
	for (f = 0; f < ZF_N; f++) {
		const char *name = f == ZF_CMA ? "headroom" : mb_nth(zi_fig_names, f);
		if (!(any >> f & 1))
			continue;
		mb_join(m, "zone_", name, "_bytes");
		p_type(m, "gauge", mb_nth(help, f));
		for (i = 0; i < zi_zones.n; i++) {
			vals(&zi_zones.z[i], zi_zones.z[i].have);
			if (!has(f) && f != ZF_PROTMAX)
				continue;
			p_start(m);
			p_labu("node", zi_zones.z[i].node);
			p_labc("zone", zi_zones.z[i].name);
			if (f == ZF_CMA)
				p_i64(x.headroom);
			else
				p_u64(x.v[f]);
		}
	}
	vals(&zi_zones.tot, 0);
	for (f = 0; f < ZF_N; f++) {
		if (!((ZH_SUMMED & ~ZH_PRESENT) >> f & 1))
			continue;
		mb_join(m, "zone_total_", mb_nth(zi_fig_names, f), "_bytes");
		prom_one(m, f == ZF_RESERVE ? "The kernel's total reserve (totalreserve_pages)." : "Sum over all zones.",
		         x.v[f]);
	}
	for (f = 0; f < VM_RATIO; f++) {
		if (!VM_HAVE(f))
			continue;
		mb_join(m, "vm_", mb_nth(vmname, f), VM_KB(f) ? "_bytes" : "");
		prom_one(m, mb_nth(vmhelp, f), vm.v[f]);
	}
}

int zoneinfo_wm_main(int argc, char **argv)
{
	struct optst st = { 0 };
	uint64_t ps_opt = 0;
	static struct meminfo m;
	struct diag zs[ZI_SAY_N];
	int all = 0, id, k;

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
	if (cli_root())
		return 1;
	k = zi_load(&zi_zones, &m, ps_opt, &ps, &ps_how, zs);
	mb_warn_diags(zs, ZI_SAY_N);
	if (k)
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
