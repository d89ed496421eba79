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

enum { ZH_BOOST = 1, ZH_PROMO = 2, ZH_MANAGED = 4, ZH_CMA = 8, ZH_PROT = 16,
       ZH_FREE = 32, ZH_MIN = 64, ZH_LOW = 128, ZH_HIGH = 256, ZH_PRESENT = 512,
       ZH_SPANNED = 1024 };

struct zi_zone {
	unsigned node;
	char name[16];
	unsigned have;                 /* ZH_ bits: what the kernel printed */
	uint64_t free, boost, min, low, high, promo, spanned, present, managed, cma;
	uint64_t prot[ZI_MAX_PROT];
	unsigned nprot;                /* entries kept */
	unsigned prot_dropped;         /* entries beyond ZI_MAX_PROT */
	uint64_t prot_max;             /* over all entries, kept or not */
	uint64_t reserve;              /* min(high - boost + prot_max, managed) */
	unsigned long line;            /* line of the "Node" header */
};

struct zi_tot {
	uint64_t free, min, low, high, managed, present, reserve;
};

struct zi {
	struct zi_zone z[ZI_MAX_ZONES];
	unsigned n;                    /* zones kept */
	unsigned dropped;              /* zones beyond ZI_MAX_ZONES (counted in tot) */
	unsigned nodes;                /* distinct node numbers seen */
	struct zi_tot tot;
	unsigned long err_line;        /* on a parse error: the line, and why */
	const char *err;
	unsigned long skipped;         /* lines longer than the reader's buffer */
};

/* Parse zoneinfo from a line reader: 0, ZI_EPARSE (err and err_line say
 * what) or -errno. */
#define ZI_EPARSE 1
struct rd_lines;
int zi_parse(struct zi *z, struct rd_lines *r);
/* /proc/zoneinfo under the root. */
int zi_read(struct zi *z);

/* The page size for converting zoneinfo's pages: --page-size when given;
 * the running kernel's for the live root; for a captured tree the smallest
 * power of two (>= 4096) not below MemTotal / sum(present) (MemTotal never
 * exceeds present memory and the kernel keeps far less than half of it;
 * "managed" would mislead with deferred memory init).  4096, "assumed",
 * when the capture has no MemTotal. */
enum { PS_KERNEL, PS_DERIVED, PS_OPTION, PS_ASSUMED };
uint64_t zi_page_size(const struct zi *z, uint64_t opt, int have_total,
                      uint64_t mem_total, int *how);
extern const char *const zi_ps_how[];

/* For applets: read /proc/zoneinfo and find the page size (MemTotal from
 * meminfo for a capture).  0, or 1 after printing why it failed. */
int zi_load(struct zi *z, uint64_t ps_opt, uint64_t *ps, int *how);
#endif
