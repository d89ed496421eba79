/* The bounded tree walk (walk.h).  getdents64 fills one shared buffer; on
 * going down into a directory the parent's place is kept as the d_off of
 * that entry and the parent is lseek()ed back to it on the way up, so a
 * level costs an fd and a few words, not a buffer. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "sc.h"
#include "walk.h"

#define SYS_CACHESTAT 451   /* the same number on every target (asm-generic) */

struct dent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static char dbuf[MB_DENTS_BUF];
static uint64_t links[WK_MAX_LINKS];   /* open addressing; 0 is empty */
static unsigned nlinks;
static struct lvl {
	int fd;
	uint64_t ino;     /* of this directory, to find it again in its parent */
	int64_t pos;      /* where the parent's listing goes on (d_off) */
	uint64_t find;    /* after a re-open: skip entries up to this inode */
} lv[WK_MAX_FDS];

/* 1 seen before, 0 remembered now, -1 table full (proportional) */
static int seen(uint64_t ino)
{
	unsigned i = (unsigned)(ino * 0x9e3779b97f4a7c15ull >> 40) % WK_MAX_LINKS;

	ino += !ino;
	while (links[i]) {
		if (links[i] == ino)
			return 1;
		i = (i + 1) % WK_MAX_LINKS;
	}
	if (nlinks >= WK_MAX_LINKS * 3 / 4)
		return -1;
	links[i] = ino;
	nlinks++;
	return 0;
}

static void count(struct wk *w, const struct stat *sb, int dirfd, const char *name)
{
	uint64_t k = 1;
	struct wk_sum *t = &w->tot;

	if (!S_ISDIR(sb->st_mode) && sb->st_nlink > 1) {
		int r = seen(sb->st_ino);
		if (r > 0)
			return;
		if (r < 0) {
			k = sb->st_nlink;
			w->links_over++;
		}
	}
	t->alloc = sat_add(t->alloc, (uint64_t)sb->st_blocks * 512 / k);
	t->logical = sat_add(t->logical, (uint64_t)sb->st_size / k);
	if (S_ISDIR(sb->st_mode))
		t->dirs++;
	else if (!S_ISREG(sb->st_mode))
		t->other++;
	else {
		t->files++;
		if (w->cache > 0 && sb->st_blocks) {   /* no blocks: nothing resident */
			uint64_t r[2] = { 0, 0 }, c[5];
			int f = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
			if (f >= 0 && k == 1 && !syscall(SYS_CACHESTAT, f, r, c, 0)) {
				uint64_t ps = getauxval(AT_PAGESZ);
				t->resident = sat_add(t->resident, sat_mul(c[0], ps));
				t->swapped = sat_add(t->swapped, sat_mul(c[3], ps));
			} else if (f >= 0 && errno == ENOSYS) {
				w->cache = 0;
			} else {
				w->cache_gaps++;
			}
			if (f >= 0)
				close(f);
		}
	}
}

/* An entry of the walk root is done: its subtree is what was counted since
 * snap. */
static void child(struct wk *w, const struct wk_sum *snap, const char *name, int isdir)
{
	struct wk_sum s;
	int i;

	if (!w->child)
		return;
	for (i = 0; i < WK_NSUM; i++)
		((uint64_t *)&s)[i] = ((const uint64_t *)&w->tot)[i] - ((const uint64_t *)snap)[i];
	w->child(w, name, isdir, &s);
}

/* An entry that could not be stat'ed or opened: gone, or not ours to read. */
static void miss(struct wk *w)
{
	if (errno == ENOENT)
		w->vanished++;
	else
		w->unreadable++;
}

int wk_walk(struct wk *w, int fd)
{
	static char name[256];
	struct wk_sum snap;
	struct stat sb;
	unsigned long d = 0, lo = 0;   /* depth; lowest level still open */
	int isdir = 0;

	if (fstat(fd, &sb) < 0)
		return -errno;
	memset(links, 0, sizeof links);
	nlinks = 0;
	w->dev = sb.st_dev;
	count(w, &sb, fd, ".");
	/* an open file of its own: the caller's offset stays, and level 0
	 * may be closed and re-opened like any other */
	if ((lv[0].fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	lv[0].ino = sb.st_ino;
	lv[0].find = 0;
	for (;;) {
		struct lvl *l = &lv[d % WK_MAX_FDS];
		long n = syscall(SYS_getdents64, l->fd, dbuf, sizeof dbuf), i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			w->unreadable++;
		if (n <= 0)
			goto up;
		for (i = 0; i < n;) {
			struct dent *e = (struct dent *)(dbuf + i);
			int c;
			i += e->reclen;
			if (e->name[0] == '.' && (!e->name[1] || (e->name[1] == '.' && !e->name[2])))
				continue;
			if (l->find) {
				if (e->ino == l->find)
					l->find = 0;
				continue;
			}
			if (fstatat(l->fd, e->name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
				miss(w);
				continue;
			}
			if (sb.st_dev != w->dev) {
				w->mounts++;
				continue;
			}
			if (!d) {
				snap = w->tot;
				isdir = S_ISDIR(sb.st_mode);
				memcpy(name, e->name, strlen(e->name) + 1);
			}
			count(w, &sb, l->fd, e->name);
			if (S_ISDIR(sb.st_mode)) {
				c = openat(l->fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (c >= 0) {
					l->pos = e->off;
					if (++d - lo >= WK_MAX_FDS)
						close(lv[lo++ % WK_MAX_FDS].fd);
					l = &lv[d % WK_MAX_FDS];
					l->fd = c;
					l->ino = sb.st_ino;
					l->find = 0;
					if (d > w->depth)
						w->depth = d;
					goto next;
				}
				miss(w);
			}
			if (!d)
				child(w, &snap, name, isdir);
		}
		continue;
	up:
		if (l->find)   /* the directory we came from is gone */
			w->vanished++;
		if (!d) {
			close(l->fd);
			return 0;
		}
		if (d - 1 < lo) {
			struct lvl *p = &lv[(d - 1) % WK_MAX_FDS];
			int f = openat(l->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (f < 0 || fstat(f, &sb) < 0 || sb.st_dev != w->dev) {
				if (f >= 0)
					close(f);
				w->incomplete = 1;
				close(l->fd);
				return 0;
			}
			p->fd = f;
			p->ino = sb.st_ino;
			p->find = l->ino;
			lo = d - 1;
			w->reopened++;
		} else {
			struct lvl *p = &lv[(d - 1) % WK_MAX_FDS];
			lseek(p->fd, p->pos, SEEK_SET);
		}
		close(l->fd);
		if (!--d)
			child(w, &snap, name, isdir);
	next:;
	}
}
