/* sys_fstatat, sys_fstat, sys_fstatfs (the kernel's structures read by
 * hand) against what the test knows: a file it wrote with a known size, a
 * sparse file beyond 4 GiB (64-bit fields at their offsets on 32-bit ABIs),
 * the dev/ino/nlink of a hard-link pair, a symlink not followed, a
 * directory, errors; and against the C library's own fstatat/fstatfs. */
#include "t.h"
#include "sys.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

static char buf[12345];

int main(void)
{
	char tmpl[] = "/tmp/mb-sys-XXXXXX";
	const char *dir = mkdtemp(tmpl);
	struct sys_stat a, b, c;
	struct sys_statfs f;
	struct stat ls;
	struct statfs lf;
	int d, fd, big;

	if (!dir)
		return CHECK("mkdtemp", 0), t_end_all();
	d = open(dir, O_RDONLY | O_DIRECTORY);
	fd = openat(d, "file", O_WRONLY | O_CREAT | O_TRUNC, 0640);
	CHECK("write a file of 12345 bytes", fd >= 0 && write(fd, buf, sizeof buf) == (long)sizeof buf && !fsync(fd));

	CHECK_EQ("sys_fstatat a file: rc", sys_fstatat(d, "file", &a), 0);
	CHECK_EQ("sys_fstatat size", a.size, 12345u);
	CHECK("sys_fstatat regular, mode 0640", S_ISREG(a.mode) && (a.mode & 07777) == 0640);
	CHECK_EQ("sys_fstatat nlink 1", a.nlink, 1u);
	CHECK("sys_fstatat blocks hold the size", a.blocks * 512 >= 12345);
	CHECK("sys_fstatat = libc fstatat (dev, ino, mode, nlink, size, blocks)",
	      !fstatat(d, "file", &ls, AT_SYMLINK_NOFOLLOW) && major(ls.st_dev) == major(a.dev) &&
	      minor(ls.st_dev) == minor(a.dev) && ls.st_ino == a.ino && ls.st_mode == a.mode &&
	      ls.st_nlink == a.nlink && (uint64_t)ls.st_size == a.size && (uint64_t)ls.st_blocks == a.blocks);
	CHECK("sys_fstat of the open file = sys_fstatat", !sys_fstat(fd, &b) && b.dev == a.dev &&
	      b.ino == a.ino && b.size == a.size && b.mode == a.mode);

	CHECK_EQ("linkat", linkat(d, "file", d, "link", 0), 0);
	CHECK("hard-link pair: same dev and ino, nlink 2 on both",
	      !sys_fstatat(d, "file", &a) && !sys_fstatat(d, "link", &b) && a.dev == b.dev && a.ino == b.ino &&
	      a.nlink == 2 && b.nlink == 2);
	CHECK("the directory: a directory on the file's device", !sys_fstat(d, &c) && S_ISDIR(c.mode) &&
	      c.dev == a.dev && c.ino != a.ino && c.nlink >= 2);

	CHECK_EQ("symlinkat", symlinkat("file-is-not-followed", d, "sym"), 0);
	CHECK("symlink not followed: a link of its target's length",
	      !sys_fstatat(d, "sym", &c) && S_ISLNK(c.mode) && c.size == 20 && c.ino != a.ino);

	/* 5 GiB and one byte, sparse: st_size and its high half at their
	 * offset in struct stat64 (i386 and arm place it differently) */
	big = openat(d, "big", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (big >= 0 && !ftruncate(big, (5ll << 30) + 1)) {
		CHECK("sparse 5 GiB + 1: size, few blocks", !sys_fstat(big, &c) && c.size == (5ull << 30) + 1 &&
		      c.blocks < 1024 && S_ISREG(c.mode));
	} else {
		CHECK("ftruncate to 5 GiB (a filesystem that takes it)", 0);
	}
	if (big >= 0)
		close(big);

	errno = 0;
	CHECK("missing name: -1 ENOENT", sys_fstatat(d, "none", &c) == -1 && errno == ENOENT);
	errno = 0;
	CHECK("bad fd: -1 EBADF", sys_fstat(-1, &c) == -1 && errno == EBADF);
	errno = 0;
	CHECK("name under a file: -1 ENOTDIR", sys_fstatat(d, "file/x", &c) == -1 && errno == ENOTDIR);

	CHECK_EQ("sys_fstatfs rc", sys_fstatfs(d, &f), 0);
	CHECK("sys_fstatfs = libc fstatfs (type, frsize, blocks, files)",
	      !fstatfs(d, &lf) && f.type == (uint32_t)lf.f_type && f.frsize == (uint64_t)lf.f_frsize &&
	      f.blocks == (uint64_t)lf.f_blocks && f.files == (uint64_t)lf.f_files);
	CHECK("sys_fstatfs free within the totals", f.bfree <= f.blocks && f.ffree <= f.files && f.frsize > 0);
	close(fd);
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	CHECK("sys_fstatfs /proc: PROC_SUPER_MAGIC", fd >= 0 && !sys_fstatfs(fd, &f) && f.type == 0x9fa0);
	if (fd >= 0)
		close(fd);
	errno = 0;
	CHECK("sys_fstatfs bad fd: -1 EBADF", sys_fstatfs(-1, &f) == -1 && errno == EBADF);

	unlinkat(d, "file", 0);
	unlinkat(d, "link", 0);
	unlinkat(d, "sym", 0);
	unlinkat(d, "big", 0);
	close(d);
	CHECK_EQ("cleanup", rmdir(dir), 0);
	return t_end_all();
}
