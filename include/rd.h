/* rd_: reading /proc, /sys and /etc under the root directory (-R DIR,
 * --root=DIR, MEMBOX_ROOT; "/" by default), into buffers the caller owns. */
#ifndef MB_RD_H
#define MB_RD_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "bounds.h"
#include "diag.h"

/* Choose the root; 0 or -errno (the directory cannot be opened; "" is
 * -ENOENT).  It is the live system when it is the directory "/" (compared
 * by device and inode: "//" and "/." are live too). */
int rd_set_root(const char *dir);
const char *rd_root(void);
/* 1 when reading the running kernel (root "/"), 0 for a captured tree. */
int rd_live(void);
/* Open an absolute path ("/proc/meminfo") under the root: fd or -errno.
 * Never blocks (a FIFO is opened O_NONBLOCK, then refused).  Refused:
 * what is not a regular file (-MB_ENOTREG; a directory: -EISDIR), unless
 * flags have O_DIRECTORY; under a captured tree a path that leads outside
 * it (-MB_EESCAPE) and, on kernels without openat2, any symbolic link
 * (-MB_ESYMLINK).  The fd is blocking unless flags ask otherwise. */
int rd_open(const char *path, int flags);
/* The same relative to a directory fd opened under the root (rel stays
 * beneath it in a capture). */
int rd_openat_root(int dirfd, const char *rel, int flags);
/* A file of a directory of the live kernel's procfs (the caller made sure
 * it is: no FIFO nor device can stand there), opened as it is, blocking:
 * one system call, without the checks a captured tree needs; the tap is
 * told.  fd or -errno. */
int rd_openat_kernel(int dirfd, const char *rel);
/* Open a path relative to a directory fd: AT_FDCWD: a user's path, not
 * under the root, opened as it is (with O_CREAT mode 0666 less the umask);
 * another fd is one opened under the root: rd_openat_root. */
int rd_openat(int dirfd, const char *rel, int flags);
/* The tap, set only by capture (which runs the other applets with it):
 * every open under the root (rd_open, rd_openat_root and what calls them)
 * calls it with the directory fd it was relative to (RD_TAP_ROOT: the
 * root), the path relative to that, the flags and the result (an fd, or
 * -errno).  A regular file's fd is at offset 0 and must be left there:
 * the applet reads it next. */
#define RD_TAP_ROOT (-1)
typedef void rd_tap_fn(int dirfd, const char *rel, int flags, int fd);
void rd_set_tap(rd_tap_fn *fn);
/* How many opens of rd_ failed for want of a file descriptor (EMFILE,
 * ENFILE).  Each caller sees its error; mb_exit_status says it once more at
 * the end when some did, so that no caller that took it for "unreadable"
 * can leave a report incomplete without a word. */
unsigned long rd_fd_exhausted(void);
/* Read fd from its start into buf (cap bytes, one byte kept for a NUL):
 * length or -errno; *trunc is set when the file had more.  One read() for a
 * /proc file that fits.  An fd without an offset (a pipe, a FIFO) is read
 * from where it is until EOF or a full buffer.  The buffer is
 * NUL-terminated. */
long rd_fd(int fd, char *buf, size_t cap, int *trunc);
/* rd_open + rd_fd + close. */
long rd_file(const char *path, char *buf, size_t cap, int *trunc);
long rd_fileat(int dirfd, const char *rel, char *buf, size_t cap, int *trunc);

/* Line reader over a fixed buffer: files up to MB_READ_MAX bytes, lines up
 * to the buffer's size; a longer line is skipped whole and counted in
 * .skipped.  The last line may lack its '\n' (.nonl): a parser uses it
 * when it parses whole and says "no final newline" (it may be cut). */
struct rd_lines {
	int fd;
	char *buf;
	size_t cap, pos, len;
	uint64_t total, max;    /* bytes read, and the most to read (MB_READ_MAX) */
	int err;                /* the error rd_line returned, returned again */
	unsigned long line;     /* number of the line last returned, from 1 */
	unsigned long skipped;  /* lines longer than the buffer */
	int eof;
	int nonl;               /* the last line returned had no '\n' */
};
void rd_lines_fd(struct rd_lines *r, int fd, char *buf, size_t cap);
/* Open an absolute path under the root with a line reader over the
 * caller's buf of cap bytes (MB_LINE_MAX): the fd, to close when done, or
 * -errno. */
int rd_lines_open(struct rd_lines *r, const char *path, char *buf, size_t cap);
/* Lines of a buffer already in memory. */
void rd_lines_mem(struct rd_lines *r, const char *buf, size_t len);
/* 1 and the line (without '\n'), 0 at the end, -errno on a read error,
 * -MB_ETOOBIG after more than .max bytes (then always that). */
int rd_line(struct rd_lines *r, const char **s, size_t *n);

/* Directory entries through getdents64 into a fixed buffer. */
struct rd_dir {
	int fd;
	int pos, len;
	char buf[MB_DENTS_BUF] __attribute__((aligned(8)));   /* struct linux_dirent64 is 8-aligned */
};
int rd_dir_open(struct rd_dir *d, const char *path);    /* under the root */
int rd_dir_fd(struct rd_dir *d, int fd);                 /* takes the fd */
/* 1 with the name (and DT_ type), 0 at the end, -errno on error.
 * "." and ".." are skipped. */
int rd_dir_next(struct rd_dir *d, const char **name, unsigned char *type);
/* Next numeric entry (a PID under /proc): >0, 0 at the end, -errno. */
long rd_pid_next(struct rd_dir *d);
void rd_dir_close(struct rd_dir *d);
/* What a read of path that ended in err (0 or -errno) has to say, into d
 * (returned): why when given, else "garbled" for -EINVAL, else err's text;
 * nothing (a clear record) for 0 or -ENOENT without why: an absent file is
 * no damage. */
const struct diag *rd_diag(struct diag *d, const char *path, long err, const char *why);
/* A file of whitespace-separated numbers ("60\n", "256 256 32 0 0\n"),
 * each times mul (>= 1; 1024 for a _kbytes file) into v: how many (at
 * most cap), 0 for an empty file; -ENOENT when absent; else -errno or
 * -EINVAL with d saying why: unreadable (a directory), without its final
 * newline or longer than 255 bytes ("cut short"), a field that is no
 * number (negative, NUL, garbage) or more than cap fields ("garbled"), a
 * product of 2^64-1 or more ("beyond 2^64").  d is clear otherwise. */
int rd_nums(const char *path, uint64_t *v, int cap, uint64_t mul, struct diag *d);
/* One number: 0, or < 0 (absent, empty or damaged; see rd_nums). */
static inline int rd_u64(const char *path, uint64_t *v, struct diag *d) { return rd_nums(path, v, 1, 1, d) - 1; }
#endif
