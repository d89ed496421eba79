/* /proc/swaps, sizes in KiB, one device per line after a header:
 *   Filename				Type		Size		Used		Priority
 *   /dev/zram0                              partition	4070396		1024		-2
 * and /sys/block/zramN/mm_stat, bytes (7 fields in 4.1+, 8 with huge_pages,
 * 9 with huge_pages_since):
 *   orig_data_size compr_data_size mem_used_total mem_limit mem_used_max same_pages pages_compacted ... */
#ifndef MB_SWAPS_H
#define MB_SWAPS_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "diag.h"
#include "rd.h"

struct swaps {
	unsigned n;                    /* devices listed */
	unsigned bad;                  /* lines not of the shape above, or too long */
	int nonl;                      /* the last line had no final newline (used
	                                  when it parsed: it may be cut) */
	uint64_t size, used;           /* bytes over every device */
	int disk;                      /* a device that is not zram */
	unsigned nzram, zram_dropped;  /* zram devices kept / beyond SW_MAX_ZRAM */
	unsigned zram[SW_MAX_ZRAM];    /* their numbers N (/sys/block/zramN) */
};

/* The lines of a reader into s: 0 or -errno. */
int sw_parse(struct rd_lines *r, struct swaps *s);
/* /proc/swaps under the root: 0 or -errno. */
int sw_read(struct swaps *s);
/* "/proc/swaps" */
extern const char *const sw_file;
/* A swap file name whose last component is "zramN" (/dev/zram0,
 * /dev/block/zram1, "/zram0"): 1 and N, else 0. */
int sw_zram_id(const char *f, size_t n, unsigned *id);
/* mm_stat: orig_data_size, compr_data_size, mem_used_total into v; the
 * number of fields, or -1 when fewer than 7 numbers. */
int sw_mm_parse(const char *b, size_t n, uint64_t v[3]);
/* /sys/block/zramN/mm_stat under the root, its path written into path:
 * 0, or -errno (-ENOENT when absent) or -EINVAL (longer than 255 bytes,
 * or fewer than 7 numbers) with d naming path and saying why; d
 * is clear after 0. */
#define SW_MM_PATH 48   /* "/sys/block/zram" + N (at most 2^20) + "/mm_stat" */
int sw_mm_read(unsigned id, uint64_t v[3], char path[SW_MM_PATH], struct diag *d);

/* The zram swap devices of a struct swaps summed, one device a step:
 * zero it, then call sw_zram_step until it returns 0.  Each step reads
 * the next device's mm_stat (1, d: that device's damage to be said, clear
 * when none); a device whose mm_stat could not be read is counted in
 * unknown and left out of the sums. */
struct sw_zram {
	uint64_t orig, used;    /* Σ orig_data_size, Σ mem_used_total, bytes */
	uint64_t orig_max;      /* the largest orig_data_size of one device */
	unsigned next;          /* the device read next, in s->zram */
	unsigned unknown;       /* devices whose mm_stat could not be read */
	char path[SW_MM_PATH];  /* the last device's mm_stat (d names it) */
};
int sw_zram_step(const struct swaps *s, struct sw_zram *z, struct diag *d);
#endif
