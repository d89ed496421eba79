/* /proc/zoneinfo, in pages:
 *   Node 0, zone   Normal
 *     pages free     104479
 *           min      8133
 * plus the kernel's total reserve, computed as calculate_totalreserve_pages()
 * does.  Totals cover every zone the file lists, also zones beyond the table. */
#ifndef MB_ZONEINFO_H
#define MB_ZONEINFO_H
#include <stdint.h>
#include "bounds.h"
#include "diag.h"

/* A zone's figures, by name or by index (f[ZF_x]); zoneinfo-wm shows them
 * in this order, with the names of zi_fig_names.  The bit ZH_x = 1 << ZF_x
 * of have says the kernel printed that line. */
enum { ZF_FREE, ZF_BOOST, ZF_MIN, ZF_LOW, ZF_HIGH, ZF_PROMO, ZF_SPANNED,
       ZF_PRESENT, ZF_MANAGED, ZF_PROTMAX, ZF_RESERVE, ZF_CMA, ZF_N };
#define ZH(f) (1u << ZF_##f)
enum { ZH_FREE = ZH(FREE), ZH_BOOST = ZH(BOOST), ZH_MIN = ZH(MIN), ZH_LOW = ZH(LOW),
       ZH_HIGH = ZH(HIGH), ZH_PROMO = ZH(PROMO), ZH_SPANNED = ZH(SPANNED),
       ZH_PRESENT = ZH(PRESENT), ZH_MANAGED = ZH(MANAGED), ZH_PROT = ZH(PROTMAX),
       ZH_CMA = ZH(CMA),
       /* what the totals add up */
       ZH_SUMMED = ZH(FREE) | ZH(MIN) | ZH(LOW) | ZH(HIGH) | ZH(PRESENT) | ZH(MANAGED) | ZH(RESERVE) };
/* "free\0boost\0min\0...": the ZF_ figures' names (json keys) */
extern const char *const zi_fig_names;

struct zi_zone {
	unsigned node;
	char name[16];
	unsigned have;                 /* ZH_ bits: what the kernel printed */
	union {
		struct {
			uint64_t free, boost, min, low, high, promo, spanned, present, managed;
			uint64_t prot_max;     /* over all entries, kept or not */
			uint64_t reserve;      /* min(high - boost + prot_max, managed) */
			uint64_t cma;
		};
		uint64_t f[ZF_N];
	};
	uint64_t prot[ZI_MAX_PROT];
	unsigned nprot;                /* entries kept */
	unsigned prot_dropped;         /* entries beyond ZI_MAX_PROT */
	unsigned long line;            /* line of the "Node" header */
};

struct zi {
	struct zi_zone z[ZI_MAX_ZONES];
	unsigned n;                    /* zones kept */
	unsigned dropped;              /* zones beyond ZI_MAX_ZONES (counted in tot) */
	struct zi_zone tot;            /* the ZH_SUMMED figures added up */
	unsigned long err_line;        /* on a parse error: the line, and why */
	const char *err;
	unsigned long skipped;         /* lines longer than the reader's buffer */
	int nonl;                      /* the last line had no '\n' (used: it parsed) */
};

/* Parse zoneinfo from a line reader: 0, ZI_EPARSE (err and err_line say
 * what) or -errno. */
#define ZI_EPARSE 1
struct rd_lines;
int zi_parse(struct zi *z, struct rd_lines *r);
/* /proc/zoneinfo under the root. */
int zi_read(struct zi *z);

/* The page size for converting zoneinfo's pages: --page-size when given;
 * the running kernel's for the live root; for a captured tree
 * the page_size of its manifest (membox-capture, written by capture) when
 * it has one that is a Linux page size, else the smallest
 * power of two (>= 4096) not below MemTotal / sum(present) (MemTotal never
 * exceeds present memory and the kernel keeps far less than half of it;
 * "managed" would mislead with deferred memory init).  4096, "assumed",
 * when the capture has no MemTotal. */
enum { PS_KERNEL, PS_DERIVED, PS_OPTION, PS_ASSUMED, PS_CAPTURE };
uint64_t zi_page_size(const struct zi *z, uint64_t opt, uint64_t capture, int have_total,
                      uint64_t mem_total, int *how);
extern const char *const zi_ps_how[];
/* The page_size of membox-capture at the root: 0 when it has none, or
 * none that is a Linux page size (then *bad is set, when bad is given). */
uint64_t zi_capture_page_size(int *bad);
/* 1 when ps is a page size some Linux architecture has: 4, 8, 16, 32, 64
 * or 256 KiB.  A derived one that is not is said (ZI_SAY_PAGESIZE). */
int zi_page_size_plausible(uint64_t ps);

/* The /proc/sys/vm settings behind the watermarks, in the order zoneinfo-wm
 * shows them; the last, lowmem_reserve_ratio, is a list. */
enum { ZI_VM_MIN_FREE, ZI_VM_EXTRA_FREE, ZI_VM_SCALE, ZI_VM_BOOST, ZI_VM_RATIO, ZI_VM_N };

/* For applets: read /proc/zoneinfo and find the page size (MemTotal from
 * the caller's meminfo m for a capture, which is read here when it has no
 * MemTotal yet).  0, or 1 when it failed.  said: one record per kind of
 * message, in the order they are to be said, each clear or set (on failure
 * only ZI_SAY_FAIL).  z is the caller's (in its applet's state). */
enum { ZI_SAY_FAIL, ZI_SAY_SKIPPED, ZI_SAY_NONL, ZI_SAY_DROPPED, ZI_SAY_MEMINFO,
       ZI_SAY_MANIFEST, ZI_SAY_PAGESIZE, ZI_SAY_N };
struct meminfo;
/* buf, cap: where /proc/meminfo is read when it must be (the caller's, not
 * the stack: a page probe per 4 KiB of a large frame touches them all) */
int zi_load(struct zi *z, struct meminfo *m, uint64_t ps_opt, uint64_t *ps, int *how,
            struct diag said[ZI_SAY_N], char *buf, size_t cap);
#endif
