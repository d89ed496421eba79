/* /proc/sysvipc/shm: a header naming the columns, then one segment per
 * line; size, rss and swap are bytes (rss and swap are missing on old
 * kernels, whose lines end at ctime):
 *        key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap
 *          0          3  1600                 524288  4168  4170      2  1000  1000  1000  1000 1763700000          0 1763700000                524288                     0 */
#ifndef MB_SYSVSHM_H
#define MB_SYSVSHM_H
#include <stdint.h>
#include "diag.h"
#include "rd.h"

struct shm_tot {
	unsigned long segs;     /* segments counted */
	unsigned long bad;      /* lines that did not parse (a NUL, a number of
	                           2^64-1 or more, a missing column, too long) */
	uint64_t size, rss, swap;
	int have_rss, have_swap; /* the header has the column */
	struct diag diag;       /* the first damage, to be said (clear: none): a
	                           garbled line (its number), lines too long, no
	                           final newline (its last line, parsed whole, is
	                           counted) */
};
/* Sum the segments of the file behind r: 0, -errno, or -EINVAL when the
 * header has no "size" column (t->diag is then clear: the caller's
 * rd_diag says "garbled" or the error).  Lines with a number of 2^64-1 or more, or
 * whose sizes would take a sum there, are skipped and counted in bad:
 * nothing is summed saturated. */
int shm_parse(struct rd_lines *r, struct shm_tot *t);
/* /proc/sysvipc/shm under the root. */
int shm_read(struct shm_tot *t);

/* Segment by segment: the columns named col[0..n) (n <= 8; the header must
 * name col[0]) of each line into v[0..n).  Zero the struct, set r, col and
 * n, then call until it returns 0 (the end), -errno, or -EINVAL (no col[0]
 * in the header).  After the header, bit i of have says the header names
 * col[i] (its v[i] is 0 otherwise); lines that lack one of those columns
 * are counted in bad, as are lines too long for the reader.  When it has
 * returned <= 0, diag holds what is to be said (clear: nothing), as for
 * shm_tot, plus "garbled header" and a read error. */
struct shm_it {
	struct rd_lines *r;
	const char *const *col;
	int n, have;
	int idx[8];
	unsigned long bad;
	struct diag diag;
};
int shm_next(struct shm_it *it, uint64_t *v);
#endif
