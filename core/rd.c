/* Root-relative reads.  Every path is opened with openat() against one
 * directory fd, so a captured tree and the live system take the same code. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "diag.h"
#include "rd.h"
#include "sc.h"

static int root_fd = AT_FDCWD;
static const char *root_name = "/";
static int root_live = 1;

int rd_set_root(const char *dir)
{
	int fd;

	if (!dir || !*dir)
		return 0;
	fd = rd_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if (root_fd >= 0)
		close(root_fd);
	root_fd = fd;
	root_name = dir;
	root_live = !strcmp(dir, "/");
	return 0;
}

const char *rd_root(void) { return root_name; }
int rd_live(void) { return root_live; }

int rd_openat(int dirfd, const char *rel, int flags)
{
	int fd;
	do
		fd = openat(dirfd, rel, flags | O_CLOEXEC | O_NOCTTY, 0666);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

int rd_open(const char *path, int flags)
{
	if (root_fd == AT_FDCWD)
		return rd_openat(AT_FDCWD, path, flags);
	while (*path == '/')
		path++;
	return rd_openat(root_fd, *path ? path : ".", flags);
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
}

int rd_lines_open(struct rd_lines *r, const char *path)
{
	static char buf[MB_LINE_MAX];
	int fd = rd_open(path, O_RDONLY);
	if (fd >= 0)
		rd_lines_fd(r, fd, buf, sizeof buf);
	return fd;
}

void rd_lines_mem(struct rd_lines *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->buf = (char *)buf;
	r->cap = r->len = len;
	r->eof = 1;
}

/* Refill after moving the unread tail to the front: 1 read, 0 at EOF. */
static int fill(struct rd_lines *r)
{
	ssize_t k;

	if (r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	do
		k = read(r->fd, r->buf + r->len, r->cap - r->len);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return -errno;
	if (k == 0)
		r->eof = 1;
	r->len += k;
	return k > 0;
}

int rd_line(struct rd_lines *r, const char **s, size_t *n)
{
	size_t scan = r->pos;
	int skipping = 0, k;

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
			return k;
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
