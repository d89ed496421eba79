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

/* membox --help: the question the applet answers */
const char zoneinfo_wm_purpose[] = "where are the kernel's free-memory watermarks and reserves?";

static const char *const usage = "Usage: zoneinfo-wm [OPTIONS]\n\n"
	"Per-zone watermarks and the kernel's total reserve (totalreserve_pages),\n"
	"from /proc/zoneinfo.  For each zone: FREE, BOOST, MIN, LOW, HIGH, PROMO,\n"
	"PRESENT and MANAGED memory, PROT (the largest protection, lowmem_reserve,\n"
	"entry), RESERVE = min(HIGH - BOOST + PROT, MANAGED) and HEADROOM = FREE - LOW\n"
	"(negative: kswapd should be reclaiming).  '-' marks what the kernel does not\n"
	"print.  Zones with no managed memory are hidden unless -a.\n\n"
	"  -a, --all          also zones with no managed memory\n"
	"      --page-size=N  bytes per page (default: the kernel's; for --root,\n"
	"                     the capture's, else from MemTotal / present pages)\n"
	CLI_REPEAT_HELP;

enum zoneinfo_wm_option { ZONEINFO_WM_OPT_ALL = 'a', ZONEINFO_WM_OPT_PAGE_SIZE = OPT_PAGESIZE };
static const struct opt opts[] = {
	{ "all", 'a', 0, ZONEINFO_WM_OPT_ALL },
	{ "page-size", 0, 1, ZONEINFO_WM_OPT_PAGE_SIZE },
	CLI_REPEAT_OPTS,
	{ 0, 0, 0, 0 }
};

/* /proc/sys/vm settings (zoneinfo.h's ZI_VM_), each /proc/sys/vm/NAME
 * (NAME_kbytes for the first two, sizes), in the order shown.  Absent and
 * damaged (warned) files are shown as absent. */
static const char *const vm_names[ZI_VM_N] = { "min_free", "extra_free", "watermark_scale_factor",
	"watermark_boost_factor", "lowmem_reserve_ratio" };
#define VM_KB(i) ((i) < ZI_VM_SCALE)

GLOBALS(
	char meminfo_text[MB_FILE_MAX];   /* /proc/meminfo, when zi_load reads it */
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
#define TT this.zoneinfo_wm

/* The figures, in the order of the table's columns.  Boost, promo and the
 * protection list may be missing. */
enum zone_bit { ZONE_BOOST = 1, ZONE_PROMO, ZONE_PROT };
#define ZONE(member, key, kind, ...) FIG(struct zone_rec, member, key, kind, __VA_ARGS__)
#define ZONE_SIZE(f, key, label_, ...) \
	ZONE(v[ZF_##f], key, REP_BYTES, .label = label_, .width = 8, __VA_ARGS__)
static const struct rep_fig zone_figs[] = {
	ZONE(node, "node", REP_COUNT, .flags = REP_LABEL, .label = "NODE", .width = 4),
	ZONE(zone, "zone", REP_STR, .flags = REP_LABEL, .label = "ZONE", .width = 8),
	ZONE_SIZE(FREE, "free", "FREE", .help = "Free memory in the zone, in bytes."),
	ZONE_SIZE(BOOST, "boost", "BOOST", .help = "Current watermark boost of the zone, in bytes.",
	          .flags = REP_OPTIONAL, .bit = ZONE_BOOST),
	ZONE_SIZE(MIN, "min", "MIN", .help = "Min watermark of the zone in bytes (below it only reserves are given out)."),
	ZONE_SIZE(LOW, "low", "LOW", .help = "Low watermark of the zone in bytes (kswapd wakes below it)."),
	ZONE_SIZE(HIGH, "high", "HIGH",
	          .help = "High watermark of the zone in bytes, boost included (kswapd sleeps above it)."),
	ZONE_SIZE(PROMO, "promo", "PROMO", .help = "Promotion watermark of the zone, in bytes.",
	          .flags = REP_OPTIONAL, .bit = ZONE_PROMO),
	ZONE(v[ZF_SPANNED], "spanned", REP_BYTES, .help = "Memory spanned by the zone, holes included, in bytes."),
	ZONE_SIZE(PRESENT, "present", "PRESENT", .help = "Memory present in the zone, in bytes."),
	ZONE_SIZE(MANAGED, "managed", "MANAGED", .help = "Memory of the zone managed by the buddy allocator, in bytes."),
	ZONE(managed_from_present, "managed_from_present", REP_BOOL),
	ZONE(prot, "protection", REP_ARRAY),
	/* 0, not null, for a zone without the list; '-' in the table */
	ZONE_SIZE(PROTMAX, "protection_max", "PROT",
	          .help = "Largest lowmem_reserve protection of the zone, in bytes.", .bit = ZONE_PROT),
	ZONE_SIZE(RESERVE, "reserve", "RESERVE", .help = "The zone's part of the kernel's totalreserve_pages, in bytes."),
	ZONE(headroom, "headroom", REP_SBYTES, .help = "Free memory of the zone less its low watermark, in bytes (negative below it).",
	     .label = "HEADROOM", .width = 8),
};

#define SUM(f, key, ...) ZONE(v[ZF_##f], key, REP_BYTES, __VA_ARGS__)
static const struct rep_fig total_figs[] = {
	FIG_OBJ("total", .prom = "zone_total"),
	SUM(FREE, "free", .help = "Free memory of all zones, in bytes."),
	SUM(MIN, "min", .help = "Min watermarks of all zones summed, in bytes."),
	SUM(LOW, "low", .help = "Low watermarks of all zones summed, in bytes."),
	SUM(HIGH, "high", .help = "High watermarks of all zones summed, in bytes."),
	SUM(PRESENT, "present", .flags = REP_NOPROM),
	SUM(MANAGED, "managed", .help = "Memory of all zones managed by the buddy allocator, in bytes."),
	SUM(RESERVE, "reserve", .help = "The kernel's total reserve (totalreserve_pages), in bytes."),
	FIG_END,
};

/* The /proc/sys/vm settings: setting i (ZI_VM_) is present with bit
 * VM_BIT(i). */
#define VM_BIT(i) ((i) + 1)
#define VM(i, key, kind, ...) \
	FIG(struct zoneinfo_wm_globals, vm[i], key, kind, .flags = REP_OPTIONAL, .bit = VM_BIT(i), \
	    __VA_ARGS__)
static const struct rep_fig vm_figs[] = {
	FIG_OBJ("vm"),
	VM(ZI_VM_MIN_FREE, "min_free", REP_BYTES, .help = "The vm.min_free_kbytes setting, in bytes."),
	VM(ZI_VM_EXTRA_FREE, "extra_free", REP_BYTES, .help = "The vm.extra_free_kbytes setting, in bytes."),
	VM(ZI_VM_SCALE, "watermark_scale_factor", REP_COUNT,
	   .help = "The vm.watermark_scale_factor setting, a number of 1/10000 of memory."),
	VM(ZI_VM_BOOST, "watermark_boost_factor", REP_COUNT,
	   .help = "The vm.watermark_boost_factor setting, a number of 1/10000 of the high watermark."),
	FIG(struct zoneinfo_wm_globals, ratios, "lowmem_reserve_ratio", REP_ARRAY,
	    .flags = REP_OPTIONAL, .bit = VM_BIT(ZI_VM_RATIO)),
	FIG_END,
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
	*have = (c->have & ZH_BOOST ? (uint64_t)1 << ZONE_BOOST : 0) |
	        (c->have & ZH_PROMO ? (uint64_t)1 << ZONE_PROMO : 0) |
	        (c->have & ZH_PROT ? (uint64_t)1 << ZONE_PROT : 0);
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

static void table(int all)
{
	uint64_t have;
	unsigned i;
	int k;

	zi_table_head(TT.page_size, TT.page_size_how);
	/* Figures wider than their column (-b on a large machine) never run
	 * together: a space is between columns. */
	rep_table_head(zone_figs, REP_N(zone_figs));
	for (i = 0; i < TT.zones.n; i++) {
		const struct zi_zone *c = &TT.zones.z[i];
		const struct zone_rec *r;
		if (!all && !c->managed)
			continue;
		r = zone_rec(c, &have);
		rep_table_row(zone_figs, REP_N(zone_figs), r, have, 0);
	}
	/* boost, promo and protection have no total: '-' */
	zone_rec(&TT.zones.tot, &have);
	rep_table_row(zone_figs, REP_N(zone_figs), &TT.rec, 0, "total");
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
				out_u64(mb.fo, TT.vm[k]);
		}
	}
	if (TT.vm_count[ZI_VM_RATIO] < 0)
		fo_s(" -");
	for (k = 0; k < TT.vm_count[ZI_VM_RATIO]; k++) {
		fo_c(' ');
		out_u64(mb.fo, TT.vm[ZI_VM_RATIO + k]);
	}
	tb_nl();
	if (TT.zones.dropped) {
		out_u64(mb.fo, TT.zones.dropped);
		fo_s(" zones beyond the table (ZI_MAX_ZONES) are counted in the total only\n");
	}
}

static void report(void)
{
	static const struct rep_fig top[] = {
		FIG(struct zoneinfo_wm_globals, page_size, "page_size", REP_BYTES,
		    .help = "Bytes per page used to convert zoneinfo pages."),
		FIG(struct zoneinfo_wm_globals, page_size_source, "page_size_source", REP_STR),
	};
	static const struct rep_fig dropped[] = {
		FIG(struct zoneinfo_wm_globals, zones_dropped, "zones_dropped", REP_COUNT,
		    .flags = REP_NOPROM),
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
	for (i = 0; i < ZI_VM_N; i++)
		if (TT.vm_count[i] >= (i == ZI_VM_RATIO ? 0 : 1))
			vm_have |= (uint64_t)1 << VM_BIT(i);
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
				return cli_usage_error();
			if (ps_opt & (ps_opt - 1))
				return mb_warn("--page-size", "not a power of two"), cli_usage_error();
			break;
		}
	}
	if (st.ind < argc)
		return mb_warn(argv[st.ind], "unexpected argument"), cli_usage_error();
	if (cli_root())
		return 1;
	if ((failed = cli_reports()))
		return failed;
	failed = zi_load(&TT.zones, &TT.meminfo, ps_opt, &TT.page_size, &TT.page_size_how, said,
	                 TT.meminfo_text, sizeof TT.meminfo_text);
	mb_warn_diags(said, ZI_SAY_N);
	if (failed)
		return mb_fail_said();
	read_vm();
	if (mb.fmt == FMT_TABLE)
		table(all);
	else
		report();
	return 0;
}
