/* wk_: a bounded walk of one filesystem tree, counted the way du -x counts
 * it: every inode's st_blocks x 512 (allocated) and st_size (logical), a
 * hard-linked inode once, directories included; never a symlink followed,
 * never another device entered (every directory's st_dev is checked after
 * it is opened).  Memory does not grow with the number of files or the
 * depth: one getdents64 buffer (MB_DENTS_BUF), WK_MAX_FDS open directories
 * (deeper levels re-open their parent through ".." and find their place
 * again by inode number; when open() finds no free file descriptor the
 * walk closes its oldest open level and goes on with fewer),
 * WK_MAX_LINKS remembered hard-linked inodes, and the inode of each
 * directory on the current path (8 bytes a level, WK_MAX_DEPTH levels). */
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
	/* in: directories, by inode on the walk root's device, treated as
	 * another device's (not counted, not entered): the mount points of
	 * other mounts in a captured tree, where everything is one device */
	const ino_t *skip;
	unsigned nskip;
	struct wk_sum tot;
	unsigned long unreadable;  /* directories not opened or listed, entries not stat'ed */
	unsigned long vanished;    /* entries gone between getdents and fstatat/openat */
	unsigned long cache_gaps;  /* regular files cachestat could not measure */
	unsigned long links_over;  /* hard links counted proportionally: table full */
	unsigned long reopened;    /* directories re-opened through ".." (deeper than
	                              WK_MAX_FDS, or fewer fds to be had) */
	unsigned long no_fd;       /* directories not walked: no file descriptor
	                              left (EMFILE, ENFILE), even with one level open */
	unsigned long too_deep;    /* directories at depth WK_MAX_DEPTH: not walked */
	unsigned long depth;       /* deepest level reached (root = 0) */
	int cache_errno;           /* why the first cache gap (errno of open or cachestat) */
	int incomplete;            /* the rest was not walked: 0, or enum wk_stop */
	dev_t dev;                 /* of the walk root */
};
/* Why a walk ended early.  A level above the open ones is re-opened
 * through ".." and must be the directory the walk came down from (same
 * device and inode); anything else is never walked. */
enum wk_stop {
	WK_GONE = 1,   /* the directory was removed: ".." is gone */
	WK_MOVED,      /* ".." is another directory: one on the way down was moved */
	WK_NO_FD,      /* no file descriptor left to open ".." */
};
/* The walk's working space (about 280 KiB): the getdents64 buffer, the
 * hard-linked inodes and the inode of each directory on the path.  The
 * caller keeps it in its applet state (GLOBALS), so that no other applet
 * pays for it, and passes it to each walk. */
struct wk_space {
	char dbuf[MB_DENTS_BUF] __attribute__((aligned(8)));
	uint64_t links[WK_MAX_LINKS];   /* open addressing; 0 is empty */
	unsigned nlinks;
	struct wk_lvl {
		int fd;
		unsigned b, i, n;      /* its listing: dbuf[b..n), the next entry at i
		                          (kept while a child is walked) */
		int64_t pos;           /* where its listing goes on after the entry it
		                          went down into */
		uint64_t find;         /* after a re-open: skip entries up to this inode */
	} lv[WK_MAX_FDS];
	/* The inode of every directory on the current path, by depth (the open
	 * ones' and the closed ones'): a directory re-opened through ".." must
	 * be the one the walk came down from, and a child is found again by it. */
	uint64_t path_ino[WK_MAX_DEPTH];
	char name[256];   /* the walk root's entry being walked, for w->child */
};
/* Walk the directory fd (left open; the walk opens its own file of it)
 * in the working space sp, which one walk at a time may use.  The output
 * fields must be 0 before.  0 or -errno. */
int wk_walk(struct wk *w, struct wk_space *sp, int fd);
#endif
