/* zoneinfo-wm: per-zone watermarks, protection, headroom and the kernel's
 * total reserve.  Reads /proc/zoneinfo, /proc/sys/vm/{min_free_kbytes,
 * extra_free_kbytes, watermark_scale_factor, watermark_boost_factor,
 * lowmem_reserve_ratio}, and /proc/meminfo for a capture's page size. */
#include <stddef.h>
#include <string.h>
#include "applet.h"
#include "meminfo.h"
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
	"                     the capture's, else from MemTotal / present pages)\n";

enum zoneinfo_wm_option { ZONEINFO_WM_OPT_ALL = 'a', ZONEINFO_WM_OPT_PAGE_SIZE = OPT_PAGESIZE };
static const struct opt opts[] = {
	{ "all", 'a', 0, ZONEINFO_WM_OPT_ALL },
	{ "page-size", 0, 1, ZONEINFO_WM_OPT_PAGE_SIZE },
	{ 0, 0, 0, 0 }
};

/* /proc/sys/vm settings (zoneinfo.h's ZI_VM_), each /proc/sys/vm/NAME
 * (NAME_kbytes for the first two, sizes), in the order shown.  Absent and
 * damaged (warned) files are shown as absent. */
static const char *const vm_names[ZI_VM_N] = { "min_free", "extra_free", "watermark_scale_factor",
	"watermark_boost_factor", "lowmem_reserve_ratio" };
#define VM_KB(i) ((i) < ZI_VM_SCALE)

GLOBALS(
	struct zi zones;
	struct meminfo meminfo;              /* a capture's, for its page size */
	uint64_t page_size;
	int page_size_how;
	int vm_count[ZI_VM_N];                  /* numbers read; < 0: absent or damaged */
	uint64_t vm[ZI_VM_RATIO + VM_MAX_RATIOS];  /* the last are lowmem_reserve_ratio */
	struct rep_array ratios;             /* lowmem_reserve_ratio, as read */
	const char *page_size_source;        /* how the page size was found */
	uint64_t zones_dropped;
	struct zone_rec {                    /* the zone being reported, bytes */
		uint64_t node;
		const char *zone;
		uint64_t v[ZF_N];
		int managed_from_present;
		struct rep_array prot;
		int64_t headroom;
	} rec;
	uint64_t prot[ZI_MAX_PROT];          /* its protection, bytes */
)
#define G(member) offsetof(struct zoneinfo_wm_globals, member)
#define TT this.zoneinfo_wm

/* The figures.  Boost, promo and the protection list may be missing. */
#define Z(f) offsetof(struct zone_rec, v[ZF_##f])
#define ZOPT(f) ((uint64_t)1 << ZONE_##f)
enum { ZONE_NODE, ZONE_ZONE, ZONE_FREE, ZONE_BOOST, ZONE_MIN, ZONE_LOW, ZONE_HIGH, ZONE_PROMO };
static const struct rep_fig zone_figs[] = {
	{ "node", 0, 0, offsetof(struct zone_rec, node), REP_COUNT, 0, REP_LABEL },
	{ "zone", 0, 0, offsetof(struct zone_rec, zone), REP_STR, 0, REP_LABEL },
	{ "free", 0, "Free memory in the zone.", Z(FREE), REP_BYTES, 0, 0 },
	{ "boost", 0, "Current watermark boost.", Z(BOOST), REP_BYTES, 0, REP_OPTIONAL },
	{ "min", 0, "Min watermark.", Z(MIN), REP_BYTES, 0, 0 },
	{ "low", 0, "Low watermark (kswapd wakes below it).", Z(LOW), REP_BYTES, 0, 0 },
	{ "high", 0, "High watermark (kswapd sleeps above it), including boost.", Z(HIGH), REP_BYTES, 0, 0 },
	{ "promo", 0, "Promotion watermark.", Z(PROMO), REP_BYTES, 0, REP_OPTIONAL },
	{ "spanned", 0, "Memory spanned by the zone.", Z(SPANNED), REP_BYTES, 0, 0 },
	{ "present", 0, "Memory present in the zone.", Z(PRESENT), REP_BYTES, 0, 0 },
	{ "managed", 0, "Memory managed by the buddy allocator.", Z(MANAGED), REP_BYTES, 0, 0 },
	{ "managed_from_present", 0, 0, offsetof(struct zone_rec, managed_from_present), REP_BOOL, 0, 0 },
	{ "protection", 0, 0, offsetof(struct zone_rec, prot), REP_ARRAY, 0, 0 },
	/* 0, not null, for a zone without the list */
	{ "protection_max", 0, "Largest lowmem_reserve protection of the zone.", Z(PROTMAX), REP_BYTES, 0, 0 },
	{ "reserve", 0, "The zone's part of totalreserve_pages.", Z(RESERVE), REP_BYTES, 0, 0 },
	{ "headroom", 0, "Free minus the low watermark.", offsetof(struct zone_rec, headroom), REP_SBYTES, 0, 0 },
};

static const char sum_help[] = "Sum over all zones.";
static const struct rep_fig total_figs[] = {
	{ "total", "zone_total", 0, 0, REP_OBJ, 0, 0 },
	{ "free", 0, sum_help, Z(FREE), REP_BYTES, 0, 0 },
	{ "min", 0, sum_help, Z(MIN), REP_BYTES, 0, 0 },
	{ "low", 0, sum_help, Z(LOW), REP_BYTES, 0, 0 },
	{ "high", 0, sum_help, Z(HIGH), REP_BYTES, 0, 0 },
	{ "present", 0, 0, Z(PRESENT), REP_BYTES, 0, REP_NOPROM },
	{ "managed", 0, sum_help, Z(MANAGED), REP_BYTES, 0, 0 },
	{ "reserve", 0, "The kernel's total reserve (totalreserve_pages).", Z(RESERVE), REP_BYTES, 0, 0 },
	{ "", 0, 0, 0, REP_END, 0, 0 },
};

#define VM(i) G(vm[i])
static const struct rep_fig vm_figs[] = {
	{ "vm", 0, 0, 0, REP_OBJ, 0, 0 },
	{ "min_free", 0, "vm.min_free_kbytes in bytes.", VM(ZI_VM_MIN_FREE), REP_BYTES, 0, REP_OPTIONAL },
	{ "extra_free", 0, "vm.extra_free_kbytes in bytes.", VM(ZI_VM_EXTRA_FREE), REP_BYTES, 0, REP_OPTIONAL },
	{ "watermark_scale_factor", 0, "vm.watermark_scale_factor (1/10000 of memory).",
	  VM(ZI_VM_SCALE), REP_COUNT, 0, REP_OPTIONAL },
	{ "watermark_boost_factor", 0, "vm.watermark_boost_factor (1/10000 of the high watermark).",
	  VM(ZI_VM_BOOST), REP_COUNT, 0, REP_OPTIONAL },
	{ "lowmem_reserve_ratio", 0, 0, G(ratios), REP_ARRAY, 0, REP_OPTIONAL },
	{ "", 0, 0, 0, REP_END, 0, 0 },
};

static void read_vm(void)
{
	char path[64];
	struct diag d;
	int i;

	for (i = 0; i < ZI_VM_N; i++) {
		mb_join(path, "/proc/sys/vm/", vm_names[i], VM_KB(i) ? "_kbytes" : "");
		TT.vm_count[i] = rd_nums(path, &TT.vm[i], i == ZI_VM_RATIO ? VM_MAX_RATIOS : 1,
		                         VM_KB(i) ? 1024 : 1, &d);
		mb_warn_diag(&d);
	}
}

/* The record of a zone (of the totals when c is zi's tot), in bytes. */
static const struct zone_rec *zone_rec(const struct zi_zone *c, uint64_t *have)
{
	struct zone_rec *r = &TT.rec;
	unsigned j;
	int f;

	r->node = c->node;
	r->zone = c->name;
	for (f = 0; f < ZF_N; f++)
		r->v[f] = sat_mul(c->f[f], TT.page_size);
	r->managed_from_present = !(c->have & ZH_MANAGED);
	for (j = 0; j < c->nprot; j++)
		TT.prot[j] = sat_mul(c->prot[j], TT.page_size);
	r->prot.v = TT.prot;
	r->prot.n = c->nprot;
	r->headroom = sat_diff(r->v[ZF_FREE], r->v[ZF_LOW]);
	*have = REP_ALL & ~(ZOPT(BOOST) | ZOPT(PROMO));
	if (c->have & ZH_BOOST)
		*have |= ZOPT(BOOST);
	if (c->have & ZH_PROMO)
		*have |= ZOPT(PROMO);
	return r;
}

static const void *zone_row(void *ctx, size_t i, uint64_t *have)
{
	(void)ctx;
	return zone_rec(&TT.zones.z[i], have);
}

/* kv: zone.0.Normal.free */
static void zone_kvname(void *ctx, size_t i, char *b)
{
	const struct zi_zone *c = &TT.zones.z[i];
	(void)ctx;
	b = stpcpy(b, "zone.");
	b += u64_str(b, c->node);
	*b++ = '.';
	b[strnlen(c->name, sizeof c->name - 1)] = 0;
	memcpy(b, c->name, strnlen(c->name, sizeof c->name - 1));
}

/* A table cell of width 9 starts with a space, so that figures wider than
 * their column (-b on a large machine) never run together; '-' marks what
 * the kernel does not print. */
static void cells(const struct zone_rec *r, unsigned have)
{
	int f;
	for (f = 0; f <= ZF_RESERVE; f++) {
		if (f == ZF_SPANNED)
			continue;
		fo_c(' ');
		if ((f == ZF_BOOST && !(have & ZH_BOOST)) || (f == ZF_PROMO && !(have & ZH_PROMO))
		    || (f == ZF_PROTMAX && !(have & ZH_PROT))) {
			out_pad(fo, 1, 8);
			fo_c('-');
		} else {
			tb_size(r->v[f], 8);
		}
	}
	fo_c(' ');
	tb_ssize(r->headroom, 8);
	tb_nl();
}

static void table(int all)
{
	uint64_t have;
	unsigned i;
	int k;

	zi_table_head(TT.page_size, TT.page_size_how);
	fo_s("NODE ZONE         FREE    BOOST      MIN      LOW     HIGH    PROMO  PRESENT  MANAGED     PROT  RESERVE HEADROOM\n");
	for (i = 0; i < TT.zones.n; i++) {
		const struct zi_zone *c = &TT.zones.z[i];
		if (!all && !c->managed)
			continue;
		tb_u64(c->node, 4);
		fo_c(' ');
		tb_str(c->name, 8);
		cells(zone_rec(c, &have), c->have);
	}
	fo_s("total        ");
	/* boost, promo and protection have no total: '-' */
	cells(zone_rec(&TT.zones.tot, &have), 0);
	for (k = 0; k < ZI_VM_N; k++) {
		fo_s(k ? ", " : "vm: ");
		fo_s(vm_names[k]);
		if (k < ZI_VM_RATIO) {
			fo_c(' ');
			if (TT.vm_count[k] != 1)
				fo_c('-');
			else if (VM_KB(k))
				tb_size(TT.vm[k], 0);
			else
				out_u64(fo, TT.vm[k]);
		}
	}
	if (TT.vm_count[ZI_VM_RATIO] < 0)
		fo_s(" -");
	for (k = 0; k < TT.vm_count[ZI_VM_RATIO]; k++) {
		fo_c(' ');
		out_u64(fo, TT.vm[ZI_VM_RATIO + k]);
	}
	tb_nl();
	if (TT.zones.dropped) {
		out_u64(fo, TT.zones.dropped);
		fo_s(" zones beyond the table (ZI_MAX_ZONES) are counted in the total only\n");
	}
}

static void report(void)
{
	static const struct rep_fig top[] = {
		{ "page_size", 0, "Bytes per page used to convert zoneinfo pages.",
		  G(page_size), REP_BYTES, 0, 0 },
		{ "page_size_source", 0, 0, G(page_size_source), REP_STR, 0, 0 },
	};
	static const struct rep_fig dropped[] = {
		{ "zones_dropped", 0, 0, G(zones_dropped), REP_COUNT, 0, REP_NOPROM },
	};
	const struct rep_list zones = { "zones", "zone", zone_figs, REP_N(zone_figs), TT.zones.n,
	                                zone_row, zone_kvname, 0 };
	uint64_t have, vm_have = 0;
	int i;

	rep_begin();
	TT.page_size_source = zi_ps_how[TT.page_size_how];
	rep_figs("", top, REP_N(top), &TT, REP_ALL);
	rep_list(&zones);
	TT.zones_dropped = TT.zones.dropped;
	rep_figs("", dropped, REP_N(dropped), &TT, REP_ALL);
	zone_rec(&TT.zones.tot, &have);
	rep_figs("", total_figs, REP_N(total_figs), &TT.rec, REP_ALL);
	/* vm_figs[i + 1] is setting i */
	for (i = 0; i < ZI_VM_N; i++)
		if (TT.vm_count[i] >= (i == ZI_VM_RATIO ? 0 : 1))
			vm_have |= (uint64_t)1 << (i + 1);
	TT.ratios.v = &TT.vm[ZI_VM_RATIO];
	TT.ratios.n = TT.vm_count[ZI_VM_RATIO] > 0 ? TT.vm_count[ZI_VM_RATIO] : 0;
	rep_figs("", vm_figs, REP_N(vm_figs), &TT, vm_have);
	rep_end();
}

int zoneinfo_wm_main(int argc, char **argv)
{
	struct optst st = { 0 };
	uint64_t ps_opt = 0;
	struct diag said[ZI_SAY_N];
	int all = 0, id, failed;

	cli_init("zoneinfo-wm");
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case ZONEINFO_WM_OPT_ALL:
			all = 1;
			break;
		case ZONEINFO_WM_OPT_PAGE_SIZE:
			if (cli_u64("--page-size", st.arg, 4096, 1 << 20, &ps_opt))
				return cli_usage_error(usage);
			if (ps_opt & (ps_opt - 1))
				return mb_warn("--page-size", "not a power of two"), cli_usage_error(usage);
			break;
		}
	}
	if (st.ind < argc)
		return mb_warn(argv[st.ind], "unexpected argument"), cli_usage_error(usage);
	if (cli_root())
		return 1;
	failed = zi_load(&TT.zones, &TT.meminfo, ps_opt, &TT.page_size, &TT.page_size_how, said);
	mb_warn_diags(said, ZI_SAY_N);
	if (failed)
		return 1;
	read_vm();
	if (fmt == FMT_TABLE)
		table(all);
	else
		report();
	return 0;
}
