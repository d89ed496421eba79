/* Root-relative reads.  Every path is opened with openat() against one
 * directory fd, so a captured tree and the live system take the same code.
 *
 * What may stand at a path under the root is not trusted (a capture may be
 * damaged or made by hand): every open there is non-blocking (a FIFO
 * cannot hold it), and what it opened must be a regular file (or the
 * directory asked for); under a captured tree every open also stays
 * beneath the root (openat2's RESOLVE_BENEATH, or a walk that refuses ".."
 * and symbolic links where the kernel lacks openat2). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "diag.h"
#include "rd.h"
#include "sc.h"
#include "membox.h"

void rd_set_tap(rd_tap_fn *fn) { mb.tap = fn; }

unsigned long rd_fd_exhausted(void) { return mb.fd_exhausted; }

static int counted(int fd)
{
	if (fd == -EMFILE || fd == -ENFILE)
		mb.fd_exhausted++;
	return fd;
}

int rd_set_root(const char *dir)
{
	struct stat st, slash;
	int fd;

	if (!dir)
		return 0;
	if (!*dir)
		return -ENOENT;   /* "" names no directory, as for open(2) */
	fd = rd_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if (mb.root_fd >= 0)
		close(mb.root_fd);
	mb.root_fd = fd;
	mb.root_name = dir;
	/* live when it is the directory "/", however spelt ("//", "/./") */
	mb.root_live = !fstat(fd, &st) && !stat("/", &slash) &&
	               st.st_dev == slash.st_dev && st.st_ino == slash.st_ino;
	return 0;
}

const char *rd_root(void) { return mb.root_name; }
int rd_live(void) { return mb.root_live; }

int rd_openat(int dirfd, const char *rel, int flags)
{
	int fd;

	if (dirfd != AT_FDCWD)
		return rd_openat_root(dirfd, rel, flags);
	do
		fd = openat(dirfd, rel, flags | O_CLOEXEC | O_NOCTTY, 0666);
	while (fd < 0 && errno == EINTR);
	return counted(fd < 0 ? -errno : fd);
}

static int sys_openat(int dirfd, const char *rel, int flags)
{
	int fd;
	do
		fd = openat(dirfd, rel, flags);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/* openat2(dirfd, rel, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): the kernel
 * refuses ".." above dirfd and absolute symbolic links (EXDEV) while
 * relative links inside work.  -ENOSYS when the kernel has no openat2. */
#define RESOLVE_NO_MAGICLINKS 0x02   /* linux/openat2.h, which musl lacks */
#define RESOLVE_BENEATH       0x08
static int beneath2(int dirfd, const char *rel, int flags)
{
#ifdef SYS_openat2
	struct { uint64_t flags, mode, resolve; } how =   /* struct open_how */
		{ (unsigned)flags, 0, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	int fd, tries = 0;

	do   /* EAGAIN: a rename or mount raced the lookup */
		fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
	while (fd < 0 && (errno == EINTR || (errno == EAGAIN && ++tries < 8)));
	if (fd >= 0)
		return fd;
	return errno == EXDEV ? -MB_EESCAPE : -errno;
#else
	(void)dirfd, (void)rel, (void)flags;
	return -ENOSYS;
#endif
}

/* Without openat2: one component at a time, none followed if it is a
 * symbolic link (O_NOFOLLOW), ".." refused: nothing can lead out. */
static int beneath_walk(int dirfd, const char *rel, int flags)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *e, *q;
	int cur = dirfd, fd = -ENOENT, last;
	size_t n;
	struct stat st;

	for (;;) {
		while (*p == '/')
			p++;
		e = strchrnul(p, '/');
		n = e - p;
		for (q = e; *q == '/'; q++)
			;
		last = !*q;
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			fd = -MB_EESCAPE;
			break;
		}
		if (n >= sizeof name) {
			fd = -ENAMETOOLONG;
			break;
		}
		memcpy(name, n ? p : ".", n ? n : 1);
		name[n ? n : 1] = 0;
		fd = sys_openat(cur, name, last ? flags | O_NOFOLLOW :
		                O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* O_NOFOLLOW at a link: ELOOP, or ENOTDIR with O_DIRECTORY */
		if ((fd == -ELOOP || fd == -ENOTDIR) &&
		    !fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			fd = -MB_ESYMLINK;
		if (cur != dirfd)
			close(cur);
		if (fd < 0 || last)
			return fd;
		cur = fd;
		p = e;
	}
	if (cur != dirfd)
		close(cur);
	return fd;
}

static int beneath(int dirfd, const char *rel, int flags)
{
	int fd = -ENOSYS;

	if (mb.have_openat2 >= 0) {
		fd = beneath2(dirfd, rel, flags);
		if (fd != -ENOSYS) {
			mb.have_openat2 = 1;
			return fd;
		}
		mb.have_openat2 = -1;
	}
	return beneath_walk(dirfd, rel, flags);
}

static int open_root(int dirfd, const char *rel, int flags)
{
	int fd, err = 0;
	struct stat st;

	flags |= O_CLOEXEC | O_NOCTTY;
	if (!*rel)
		rel = ".";
	fd = counted(mb.root_live ? sys_openat(dirfd, rel, flags | O_NONBLOCK)
	                       : beneath(dirfd, rel, flags | O_NONBLOCK));
	if (fd == -ENXIO)   /* a socket, a device without its driver */
		return -MB_ENOTREG;
	if (fd < 0 || flags & O_DIRECTORY)   /* the kernel saw to the type */
		return fd;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? -EISDIR : -MB_ENOTREG;
	if (err) {
		close(fd);
		return err;
	}
	/* a regular file: reads block no more than without O_NONBLOCK, but a
	 * /proc or sysfs file polled for changes wants blocking semantics */
	if (!(flags & O_NONBLOCK))
		fcntl(fd, F_SETFL, flags);
	return fd;
}

int rd_openat_kernel(int dirfd, const char *rel)
{
	int fd = counted(sys_openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY));
	if (mb.tap)
		mb.tap(dirfd, rel, O_RDONLY, fd);
	return fd;
}

int rd_openat_root(int dirfd, const char *rel, int flags)
{
	int fd = open_root(dirfd, rel, flags);
	if (mb.tap)
		mb.tap(dirfd, rel, flags, fd);
	return fd;
}

int rd_open(const char *path, int flags)
{
	const char *rel = path;
	int fd;

	while (*rel == '/')
		rel++;
	/* the live root without -R: the absolute path, as it is */
	fd = mb.root_fd == AT_FDCWD ? open_root(AT_FDCWD, path, flags) : open_root(mb.root_fd, rel, flags);
	if (mb.tap)
		mb.tap(RD_TAP_ROOT, rel, flags, fd);
	return fd;
}

/* One read of fd at len: pread, so that a /proc file kept open is made
 * anew at offset 0; read() where the fd has no offset (*seek 0: a pipe, a
 * FIFO, a /proc or sysfs file opened non-seekable), from where it is. */
static ssize_t rd_at(int fd, void *b, size_t n, size_t len, int *seek)
{
	ssize_t k;

	do {
		k = *seek ? pread(fd, b, n, len) : read(fd, b, n);
		if (k < 0 && errno == ESPIPE && *seek && !len) {
			*seek = 0;
			k = read(fd, b, n);
		}
	} while (k < 0 && errno == EINTR);
	return k;
}

long rd_fd(int fd, char *buf, size_t cap, int *trunc)
{
	size_t len = 0;
	ssize_t k;
	int seek = 1;
	char c;

	*trunc = 0;
	if (cap < 2)
		return -EINVAL;
	while ((k = rd_at(fd, buf + len, cap - 1 - len, len, &seek)) > 0) {
		len += k;
		if (len == cap - 1) {
			*trunc = rd_at(fd, &c, 1, len, &seek) > 0;
			break;
		}
	}
	if (k < 0)
		return -errno;
	buf[len] = 0;
	return len;
}

long rd_fileat(int dirfd, const char *rel, char *buf, size_t cap, int *trunc)
{
	int fd = rd_openat(dirfd, rel, O_RDONLY);
	long n;
	if (fd < 0)
		return fd;
	n = rd_fd(fd, buf, cap, trunc);
	close(fd);
	return n;
}

long rd_file(const char *path, char *buf, size_t cap, int *trunc)
{
	int fd = rd_open(path, O_RDONLY);
	long n;
	if (fd < 0)
		return fd;
	n = rd_fd(fd, buf, cap, trunc);
	close(fd);
	return n;
}

void rd_lines_fd(struct rd_lines *r, int fd, char *buf, size_t cap)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->buf = buf;
	r->cap = cap;
	r->max = MB_READ_MAX;
}

int rd_lines_open(struct rd_lines *r, const char *path, char *buf, size_t cap)
{
	int fd = rd_open(path, O_RDONLY);
	if (fd >= 0)
		rd_lines_fd(r, fd, buf, cap);
	return fd;
}

void rd_lines_mem(struct rd_lines *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->buf = (char *)buf;
	r->cap = r->len = len;
	r->eof = 1;
	r->max = len;
}

/* Refill after moving the unread tail to the front: 1 read, 0 at EOF.
 * More than max bytes (a sparse file of a terabyte, an endless line) end
 * the reading at max: rd_line then returns -MB_ETOOBIG, in bounded time. */
static int fill(struct rd_lines *r)
{
	size_t want;
	ssize_t k;

	if (r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	/* up to one byte past max: the lines within max are all returned */
	want = r->cap - r->len;
	if (r->max - r->total < want)
		want = r->max - r->total + 1;
	do
		k = read(r->fd, r->buf + r->len, want);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return -errno;
	if (k == 0)
		r->eof = 1;
	r->len += k;
	r->total += k;
	if (r->total > r->max) {   /* one byte too many: max is where it ends */
		r->len--;
		r->eof = 1;
	}
	return k > 0;
}

int rd_line(struct rd_lines *r, const char **s, size_t *n)
{
	size_t scan = r->pos;
	int skipping = 0, k;

	if (r->err)
		return r->err;
	for (;;) {
		char *nl = memchr(r->buf + scan, '\n', r->len - scan);
		if (nl) {
			size_t b = r->pos;
			r->pos = nl - r->buf + 1;
			r->line++;
			if (skipping) {
				r->skipped++;
				skipping = 0;
				scan = r->pos;
				continue;
			}
			*s = r->buf + b;
			*n = nl - (r->buf + b);
			r->nonl = 0;
			return 1;
		}
		if (r->eof) {
			if (r->total > r->max)   /* not the end of the file */
				return r->err = -MB_ETOOBIG;
			if (r->pos == r->len)
				return 0;
			r->line++;
			if (skipping) {
				r->skipped++;
				r->pos = r->len;
				return 0;
			}
			*s = r->buf + r->pos;
			*n = r->len - r->pos;
			r->pos = r->len;
			r->nonl = 1;
			return 1;
		}
		if (r->pos == 0 && r->len == r->cap) {
			/* a line longer than the whole buffer: drop what we have */
			skipping = 1;
			r->pos = r->len;
		}
		scan = r->len - r->pos;
		k = fill(r);
		if (k < 0)
			return r->err = k;
	}
}

int rd_dir_fd(struct rd_dir *d, int fd)
{
	d->fd = fd;
	d->pos = d->len = 0;
	return 0;
}

int rd_dir_open(struct rd_dir *d, const char *path)
{
	int fd = rd_open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	return rd_dir_fd(d, fd);
}

struct dirent64_k {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

int rd_dir_next(struct rd_dir *d, const char **name, unsigned char *type)
{
	for (;;) {
		struct dirent64_k *e;
		if (d->pos >= d->len) {
			long k = syscall(SYS_getdents64, d->fd, d->buf, sizeof d->buf);
			if (k < 0)
				return errno == EINTR ? rd_dir_next(d, name, type) : -errno;
			if (k == 0)
				return 0;
			d->len = k;
			d->pos = 0;
		}
		e = (struct dirent64_k *)(d->buf + d->pos);
		d->pos += e->reclen;
		if (e->name[0] == '.' && (!e->name[1] || (e->name[1] == '.' && !e->name[2])))
			continue;
		*name = e->name;
		*type = e->type;
		return 1;
	}
}

long rd_pid_next(struct rd_dir *d)
{
	const char *name;
	unsigned char type;
	uint64_t v;
	int k;

	while ((k = rd_dir_next(d, &name, &type)) > 0)
		if (sc_u64_all(name, strlen(name), &v) == SC_OK && v > 0 && v <= 0x7fffffff)
			return (long)v;
	return k;
}

void rd_dir_close(struct rd_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

const struct diag *rd_diag(struct diag *d, const char *path, long err, const char *why)
{
	d->file = path;
	d->line = 0;
	d->why = why;
	d->err = 0;
	if (!why && err && err != -ENOENT) {
		d->why = err == -EINVAL ? "garbled" : 0;
		d->err = err == -EINVAL ? 0 : -err;
	}
	return d;
}

int rd_nums(const char *path, uint64_t *v, int cap, uint64_t mul, struct diag *d)
{
	char b[256];
	const char *p = b, *f, *why = 0;
	size_t n;
	int trunc, k = 0;
	long len = rd_file(path, b, sizeof b, &trunc);

	rd_diag(d, path, 0, 0);
	if (len < 0)
		return rd_diag(d, path, len, 0), len;
	if (trunc || (len && b[len - 1] != '\n'))
		why = "cut short";
	while (!why && sc_field(&p, b + len, &f, &n)) {
		if (k == cap || sc_u64_all(f, n, &v[k]) == SC_NONE)
			why = "garbled";
		else if (sat_mul(v[k], mul) == UINT64_MAX)   /* UINT64_MAX: sc_ saturated */
			why = "beyond 2^64";
		else
			v[k++] *= mul;
	}
	return why ? rd_diag(d, path, -EINVAL, why), -EINVAL : k;
}
