/* Every fixed buffer and table of membox, in one place.  Each bound is a
 * promise: input beyond it is reported (warning and json field), never lost
 * silently and never a reason to allocate. */
#ifndef MB_BOUNDS_H
#define MB_BOUNDS_H

#define MB_PATH_MAX      4096  /* a path built under the root */
#define MB_LINE_MAX      4096  /* reader buffer: longer lines are skipped and counted */
#define MB_FILE_MAX     16384  /* a small /proc file read whole (meminfo, vmstat, status) */
#define MB_OUT_BUF       4096  /* output buffer per fd */
#define MB_DENTS_BUF     8192  /* getdents64 buffer */

#define ZI_MAX_ZONES       64  /* zones kept per zoneinfo (8 nodes x 8 zone types) */
#define ZI_MAX_PROT        16  /* protection (lowmem_reserve) entries per zone */
#define VM_MAX_RATIOS      16  /* lowmem_reserve_ratio entries */
#define MI_MAX_MOUNTS     256  /* mountinfo entries kept */
#define MI_STR_MAX        4096 /* bytes of unescaped mount strings kept per mount */

/* lowmem */
#define LM_MAX_MARGINS      5  /* chromeos-low_mem/margin thresholds (the kernel's LOW_MEM_THRESHOLD_MAX) */
#define SW_MAX_ZRAM        16  /* zram swap devices whose mm_stat is read */

#endif
