/* wk_: a bounded walk of one filesystem tree, counted the way du -x counts
 * it: every inode's st_blocks x 512 (allocated) and st_size (logical), a
 * hard-linked inode once, directories included; never a symlink followed,
 * never another device entered.  Memory does not grow with the number of
 * files or the depth: one getdents64 buffer (MB_DENTS_BUF), WK_MAX_FDS open directories
 * (deeper levels re-open their parent through ".." and find their place
 * again by inode number), WK_MAX_LINKS remembered hard-linked inodes. */
#ifndef MB_WALK_H
#define MB_WALK_H
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include "bounds.h"

/* A name given to child: a directory entry's, with its NUL */
#define WK_NAME_MAX (NAME_MAX + 1)

struct wk_sum {
	uint64_t alloc, logical, files, dirs, other, resident, swapped;
};
#define WK_NSUM 7

struct wk {
	int cache;          /* in: 1 measure regular files with cachestat(2) (6.5+);
	                       2 the caller knows the tree is shmem (tmpfs) and no
	                       swap is in use, so every block is in RAM: resident
	                       is st_blocks x 512 of each regular file, cachestat
	                       only asked until it worked once (then 3);
	                       out: 0 when the kernel lacks cachestat */
	/* called when an entry of the walk root is done, with its subtree */
	void (*child)(struct wk *w, const char *name, int isdir, const struct wk_sum *s);
	struct wk_sum tot;
	unsigned long unreadable;  /* directories not opened or listed, entries not stat'ed */
	unsigned long vanished;    /* entries gone between getdents and fstatat/openat */
	unsigned long cache_gaps;  /* regular files cachestat could not measure */
	unsigned long links_over;  /* hard links counted proportionally: table full */
	unsigned long reopened;    /* directories re-opened through ".." (deeper than WK_MAX_FDS) */
	unsigned long depth;       /* deepest level reached (root = 0) */
	int incomplete;            /* a ".." re-open failed: the rest was not walked */
	dev_t dev;                 /* of the walk root */
};
/* Walk the directory fd (left open; the walk opens its own file of it).
 * The output fields must be 0 before.  0 or -errno.  Not reentrant: one
 * buffer and one hard-link table serve every walk. */
int wk_walk(struct wk *w, int fd);
#endif
