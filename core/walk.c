/* The bounded tree walk (walk.h).  getdents64 fills one shared buffer as a
 * stack: each level reads into the part after its parent's listing, so on
 * the way up the parent goes on where it was, without reading again (a
 * directory of 20,000 subdirectories is listed once, not once per child).
 * Levels whose listing would reach into the last WK_READ bytes read there,
 * over each other; on the way up such a level lseek()s back to the d_off of
 * the entry it went down into and reads again.  A level costs an fd and a
 * few words. */
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

#define WK_READ (MB_DENTS_BUF / 4)   /* one read: three levels keep their listings */
#define LAST (MB_DENTS_BUF - WK_READ)   /* where the deeper levels read, over each other */
/* 1 seen before, 0 remembered now, -1 table full (proportional) */
static int seen(struct wk_space *sp, uint64_t ino)
{
	unsigned i = (unsigned)(ino * 0x9e3779b97f4a7c15ull >> 40) % WK_MAX_LINKS;

	ino += !ino;
	while (sp->links[i]) {
		if (sp->links[i] == ino)
			return 1;
		i = (i + 1) % WK_MAX_LINKS;
	}
	if (sp->nlinks >= WK_MAX_LINKS * 3 / 4)
		return -1;
	sp->links[i] = ino;
	sp->nlinks++;
	return 0;
}

/* Where the walk is: levels lo..d are open, sp->lv[lo % WK_MAX_FDS] the
 * oldest, in the caller's space sp */
struct span {
	unsigned long d, lo;
	struct wk_space *sp;
};

static int no_fd(void)
{
	return errno == EMFILE || errno == ENFILE;
}

/* openat, never through a symlink.  When the process has no file
 * descriptor left (a parent that leaked some, a low ulimit -n) the oldest
 * open level is closed, to be re-opened through ".." on the way up, and
 * the open tried again, until only the current level is open; then it
 * fails with EMFILE or ENFILE. */
static int open_in(struct span *o, int dirfd, const char *name, int flags)
{
	int f;

	while ((f = openat(dirfd, name, flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)) < 0 && no_fd() &&
	       o->lo < o->d)
		close(o->sp->lv[o->lo++ % WK_MAX_FDS].fd);
	return f;
}

static void count(struct wk *w, struct span *o, const struct stat *sb, int dirfd, const char *name)
{
	uint64_t k = 1;
	struct wk_sum *t = &w->tot;

	if (!S_ISDIR(sb->st_mode) && sb->st_nlink > 1) {
		int r = seen(o->sp, sb->st_ino);
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
			uint64_t c[5], ps = 0;   /* the range (0, 0: all), then counts */
			int f, err = 0;
			c[0] = c[1] = c[3] = 0;
			if (k == 1 && w->cache < 3) {
				f = open_in(o, dirfd, name, O_RDONLY | O_NONBLOCK);
				if (f < 0 || syscall(SYS_CACHESTAT, f, c, c, 0))
					err = errno;
				else
					ps = getauxval(AT_PAGESZ);
				/* 2 asks only whether the kernel has cachestat: any
				 * answer but ENOSYS (EPERM: recent kernels let only
				 * the owner or a writer ask) says it has */
				if (f >= 0 && err == ENOSYS)
					w->cache = 0;
				else if (f >= 0 && w->cache == 2)
					w->cache = 3;
				if (f >= 0)
					close(f);
			}
			if (!ps && k == 1 && w->cache > 1) {   /* nothing is swapped: every block is in RAM */
				c[0] = sb->st_blocks * 512;
				ps = 1;
			} else if (!ps && w->cache) {
				w->cache_gaps++;
				if (!w->cache_errno)
					w->cache_errno = err;   /* 0: counted proportionally (sp->links) */
			}
			/* pages x page size: no overflow, they were in memory */
			t->resident = sat_add(t->resident, c[0] * ps);
			t->swapped = sat_add(t->swapped, c[3] * ps);
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

static int skipped(const struct wk *w, ino_t ino)
{
	unsigned i;

	for (i = 0; i < w->nskip; i++)
		if (w->skip[i] == ino)
			return 1;
	return 0;
}

int wk_walk(struct wk *w, struct wk_space *sp, int fd)
{
	char *name = sp->name;
	struct wk_sum snap;
	struct stat sb;
	struct wk_lvl *l = sp->lv, *p;
	struct span o = { 0, 0, sp };  /* depth d; lowest level still open */
	unsigned i = 0, n = 0;         /* the listing of level d: sp->dbuf[l->b..n), next at i */
	int isdir = 0, c;

	/* an open file of its own: the caller's offset stays, and level 0
	 * may be closed and re-opened like any other */
	if ((l->fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(l->fd, &sb) < 0) {
		c = errno;
		close(l->fd);
		return -c;
	}
	memset(sp->links, 0, sizeof sp->links);
	sp->nlinks = 0;
	w->dev = sb.st_dev;
	sp->path_ino[0] = sb.st_ino;
	count(w, &o, &sb, l->fd, ".");
	l->find = 0;
	l->b = 0;
	for (;;) {
		struct dent *e;

		if (i >= n) {
			/* no EINTR: a signal either ends membox or restarts */
			long r = syscall(SYS_getdents64, l->fd, sp->dbuf + l->b, WK_READ);
			if (r < 0)
				w->unreadable++;
			if (r <= 0)
				goto up;
			i = l->b;
			n = i + r;
		}
		e = (struct dent *)(sp->dbuf + i);
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
		if (sb.st_dev != w->dev || (S_ISDIR(sb.st_mode) && skipped(w, sb.st_ino)))
			continue;   /* a mount: not ours (du -x) */
		if (!o.d) {
			snap = w->tot;
			isdir = S_ISDIR(sb.st_mode);
			memcpy(name, e->name, strlen(e->name) + 1);
		}
		count(w, &o, &sb, l->fd, e->name);
		if (S_ISDIR(sb.st_mode) && o.d + 1 >= WK_MAX_DEPTH) {
			w->too_deep++;
		} else if (S_ISDIR(sb.st_mode)) {
			struct stat cb;
			c = open_in(&o, l->fd, e->name, O_RDONLY | O_DIRECTORY);
			/* what was opened is what was counted: not a directory
			 * mounted over it or put in its place since */
			if (c >= 0 && (fstat(c, &cb) || cb.st_dev != w->dev || cb.st_ino != sb.st_ino)) {
				close(c);
				c = -1;
				errno = ENOENT;
			}
			if (c >= 0) {
				l->pos = e->off;
				l->i = i;
				l->n = n;
				if (n > LAST)   /* the child's listing goes after ours, or in the last part */
					n = LAST;
				if (++o.d - o.lo >= WK_MAX_FDS)
					close(sp->lv[o.lo++ % WK_MAX_FDS].fd);
				l = &sp->lv[o.d % WK_MAX_FDS];
				l->fd = c;
				sp->path_ino[o.d] = sb.st_ino;
				l->find = 0;
				l->b = i = n;
				if (o.d > w->depth)
					w->depth = o.d;
				continue;
			}
			if (no_fd())
				w->no_fd++;
			else
				miss(w);
		}
	done:
		if (!o.d)
			child(w, &snap, name, isdir);
		continue;
	up:
		if (l->find)   /* the directory we came from is gone */
			w->vanished++;
		if (!o.d) {
			close(l->fd);
			return 0;
		}
		p = &sp->lv[(o.d - 1) % WK_MAX_FDS];
		i = p->i;
		n = p->n;
		if (o.d - 1 < o.lo) {
			/* ".." must be the directory we came down from: a
			 * directory moved meanwhile leads elsewhere, where the walk
			 * has no business */
			int f = openat(l->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int why = f < 0 ? (no_fd() ? WK_NO_FD : WK_GONE) :
			          fstat(f, &sb) || sb.st_dev != w->dev || sb.st_ino != sp->path_ino[o.d - 1] ? WK_MOVED : 0;
			if (why) {
				if (f >= 0)
					close(f);
				w->incomplete = why;
				close(l->fd);
				return 0;
			}
			p->fd = f;
			p->find = sp->path_ino[o.d];
			i = n;   /* read it from the start; its slot's b is free */
			o.lo = o.d - 1;
			w->reopened++;
		} else if (n > LAST) {   /* its listing reached the last part: overwritten */
			lseek(p->fd, p->pos, SEEK_SET);
			i = n;
		}
		close(l->fd);
		l = p;
		o.d--;
		goto done;
	}
}
