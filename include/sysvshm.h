/* /proc/sysvipc/shm: a header naming the columns, then one segment per
 * line; size, rss and swap are bytes (rss and swap are missing on old
 * kernels, whose lines end at ctime):
 *        key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap
 *          0          3  1600                 524288  4168  4170      2  1000  1000  1000  1000 1763700000          0 1763700000                524288                     0 */
#ifndef MB_SYSVSHM_H
#define MB_SYSVSHM_H
#include <stdint.h>
#include "rd.h"

struct shm_tot {
	unsigned long segs;     /* segments counted */
	unsigned long bad;      /* lines that did not parse (or were too long) */
	uint64_t size, rss, swap;
	int have_rss, have_swap; /* the header has the column */
};
/* Sum the segments of the file behind r: 0, -errno, or -EINVAL when the
 * header has no "size" column. */
int shm_parse(struct rd_lines *r, struct shm_tot *t);
/* /proc/sysvipc/shm under the root. */
int shm_read(struct shm_tot *t);
#endif
