/* The line reader over a fixed buffer: files larger than the buffer, lines
 * longer than it (skipped and counted, never split), no trailing newline,
 * empty files, the byte bound (an endless line, a sparse file); rd_fd on a
 * pipe written in several pieces; the number-file reader (rd_nums) and
 * what it says about a damaged file; opens under the root: a FIFO, a
 * device, a socket, a symlink loop, links and ".." leading out of a
 * capture, with openat2 and without it (a seccomp filter makes it ENOSYS),
 * and the live root however spelt. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "msg.h"
#include "rd.h"
#include "t.h"

static int file(const char *s, size_t n)
{
	int fd = memfd_create("t", 0);
	if (write(fd, s, n) != (ssize_t)n)
		return -1;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static char big[20000];

/* rd_fd on the read end of a pipe that a child fills with a, then (after
 * the first is surely read) b, then closes: the length; the text in got. */
static char got[64];
static long piped(const char *a, const char *b, size_t cap, int *trunc)
{
	int p[2], ws;
	pid_t pid;
	long n;

	if (pipe(p) < 0 || (pid = fork()) < 0)
		return -1;
	if (!pid) {
		close(p[0]);
		if (write(p[1], a, strlen(a)) < 0)
			_exit(1);
		usleep(50000);
		_exit(write(p[1], b, strlen(b)) < 0);
	}
	close(p[1]);
	n = rd_fd(p[0], got, cap, trunc);
	close(p[0]);
	waitpid(pid, &ws, 0);
	return n;
}

/* rd_nums on a file holding s (NULL: the path p itself); what it said on
 * stderr (captured from the core's writer) goes to err. */
static char err[256];
static int nums(const char *s, size_t n, const char *p, uint64_t *v, int cap, uint64_t mul)
{
	char path[32] = "/proc/self/fd/";
	int fd = s ? file(s, n) : -1, efd = memfd_create("e", 0), k, sfd = out2.fd;
	struct diag d;
	long e;

	if (s)
		path[14 + u64_str(path + 14, fd)] = 0;
	out2.fd = efd;
	k = rd_nums(s ? path : p, v, cap, mul, &d);
	mb_warn_diag(&d);
	out_flush(&out2);
	out2.fd = sfd;
	e = pread(efd, err, sizeof err - 1, 0);
	err[e > 0 ? e : 0] = 0;
	close(efd);
	if (fd >= 0)
		close(fd);
	return k;
}
/* the warning names the file and ends with why */
static int said(const char *why)
{
	size_t l = strlen(err), w = strlen(why);
	return !strncmp(err, "membox: /proc/self/fd/", 22) && l > w + 1 && !memcmp(err + l - w - 1, why, w);
}

/* A capture under dir: proc/meminfo (regular), and in place of other files
 * a FIFO, /dev/zero's device node, a socket, a symlink loop, an absolute
 * link, a link climbing out, a relative link inside, and a sparse file. */
static char cap[64];
static int mkcapture(void)
{
	char p[128];
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s, fd;

	strcpy(cap, "/tmp/membox-unit-rd.XXXXXX");
	if (!mkdtemp(cap))
		return -1;
#define P(x) (strcpy(p, cap), strcat(p, x))
	mkdir(P("/proc"), 0755);
	mkdir(P("/proc/1"), 0755);
	fd = open(P("/proc/meminfo"), O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || write(fd, "MemTotal: 1 kB\n", 15) != 15)
		return -1;
	close(fd);
	mkfifo(P("/proc/fifo"), 0644);
	mknod(P("/proc/zero"), S_IFCHR | 0644, makedev(1, 5));
	if (symlink("/dev/zero", P("/proc/zerolink")) || symlink("loop", P("/proc/loop")) ||
	    symlink("/proc/meminfo", P("/proc/abs")) || symlink("../../../../../../../proc/meminfo", P("/proc/up")) ||
	    symlink("../meminfo", P("/proc/1/rel")) || symlink("1", P("/proc/self")))
		return -1;
	P("/proc/sock");
	if (strlen(p) < sizeof a.sun_path) {
		strcpy(a.sun_path, p);
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		bind(s, (struct sockaddr *)&a, sizeof a);
	}
	fd = open(P("/proc/sparse"), O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, 1ll << 40) < 0)
		ftruncate(fd, 1ll << 31);   /* a file system without 1 TiB files */
	close(fd);
#undef P
	return 0;
}

/* openat2 made ENOSYS from here on: a seccomp filter (fails under qemu-user) */
static int no_openat2(void)
{
#ifdef SYS_openat2
	struct filt { unsigned short code; unsigned char jt, jf; unsigned k; } f[] = {
		{ 0x20, 0, 0, 0 },                       /* load the syscall number */
		{ 0x15, 0, 1, SYS_openat2 },             /* == openat2 ? */
		{ 0x06, 0, 0, 0x00050000 | ENOSYS },     /* errno ENOSYS */
		{ 0x06, 0, 0, 0x7fff0000 },              /* allow */
	};
	struct { unsigned short len; struct filt *f; } prog = { 4, f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, 2, &prog))
		return -1;
#endif
	return 0;
}

/* The opens under a captured root, named after how (openat2 or the walk) */
static void confined(const char *how)
{
	char name[96], b[64];
	int trunc, fd, walk = !strcmp(how, "walk");
	long n;
#define C(what, cond) (strcpy(name, how), strcat(name, ": " what), CHECK(name, cond))
	C("a regular file", rd_file("/proc/meminfo", b, sizeof b, &trunc) == 15);
	C("a FIFO: refused, not blocked", rd_open("/proc/fifo", O_RDONLY) == -MB_ENOTREG);
	C("a device node", rd_open("/proc/zero", O_RDONLY) == -MB_ENOTREG);
	C("a socket", rd_open("/proc/sock", O_RDONLY) == -MB_ENOTREG);
	C("a directory", rd_open("/proc", O_RDONLY) == -EISDIR);
	C("a directory with O_DIRECTORY", (fd = rd_open("/proc", O_RDONLY | O_DIRECTORY)) >= 0 && !close(fd));
	C("a FIFO with O_DIRECTORY", rd_open("/proc/fifo", O_RDONLY | O_DIRECTORY) == -ENOTDIR);
	C("an absolute link to a device", rd_open("/proc/zerolink", O_RDONLY) == (walk ? -MB_ESYMLINK : -MB_EESCAPE));
	C("an absolute link to the live file", rd_open("/proc/abs", O_RDONLY) == (walk ? -MB_ESYMLINK : -MB_EESCAPE));
	C("a link climbing out", rd_open("/proc/up", O_RDONLY) == (walk ? -MB_ESYMLINK : -MB_EESCAPE));
	C("'..' out of the root", rd_open("/../../../proc/meminfo", O_RDONLY) == -MB_EESCAPE);
	C("'..' inside", walk ? rd_open("/proc/../proc/meminfo", O_RDONLY) == -MB_EESCAPE :
	                        (fd = rd_open("/proc/../proc/meminfo", O_RDONLY)) >= 0 && !close(fd));
	C("a symlink loop", rd_open("/proc/loop", O_RDONLY) == (walk ? -MB_ESYMLINK : -ELOOP));
	n = rd_file("/proc/1/rel", b, sizeof b, &trunc);
	C("a relative link inside", walk ? n == -MB_ESYMLINK : n == 15);
	n = rd_file("/proc/self/rel", b, sizeof b, &trunc);
	C("a link to a directory inside", walk ? n == -MB_ESYMLINK : n == 15);
	fd = rd_open("/proc", O_RDONLY | O_DIRECTORY);
	C("relative to a directory fd", fd >= 0 && rd_openat(fd, "meminfo", O_RDONLY) >= 0 &&
	  rd_openat(fd, "../../etc/passwd", O_RDONLY) == -MB_EESCAPE && rd_openat(fd, "fifo", O_RDONLY) == -MB_ENOTREG);
	fd = rd_open("/proc/meminfo", O_RDONLY);
	C("the fd is blocking", fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK));
	close(fd);
#undef C
}

int unit_rd(void)
{
	struct rd_lines r;
	char buf[16];
	const char *s;
	size_t n, i;
	int fd, k, lines = 0, bad = 0;
	struct diag d0;

	fd = file("one\ntwo\n", 8);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("two lines: 1", rd_line(&r, &s, &n) == 1 && n == 3 && !memcmp(s, "one", 3));
	CHECK("two lines: 2", rd_line(&r, &s, &n) == 1 && n == 3 && !memcmp(s, "two", 3) && !r.nonl);
	CHECK("two lines: end", rd_line(&r, &s, &n) == 0 && r.line == 2);
	close(fd);

	fd = file("a\nno newline", 12);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	rd_line(&r, &s, &n);
	CHECK("no trailing newline: last line", rd_line(&r, &s, &n) == 1 && n == 10 && r.nonl);
	CHECK("no trailing newline: end", rd_line(&r, &s, &n) == 0);
	close(fd);

	fd = file("", 0);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("empty file", rd_line(&r, &s, &n) == 0 && r.line == 0);
	close(fd);

	/* a 40-byte line in a 16-byte buffer is skipped whole, the next kept */
	fd = file("short\n0123456789012345678901234567890123456789\nafter\n", 53);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("long line: before", rd_line(&r, &s, &n) == 1 && n == 5);
	CHECK("long line: skipped, next kept", rd_line(&r, &s, &n) == 1 && n == 5 && !memcmp(s, "after", 5));
	CHECK("long line: counted", r.skipped == 1 && r.line == 3);
	close(fd);

	fd = file("x\n01234567890123456789012345", 28);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	rd_line(&r, &s, &n);
	CHECK("long last line without newline: skipped", rd_line(&r, &s, &n) == 0 && r.skipped == 1);
	close(fd);

	/* exactly the buffer's size: a 15-byte line plus newline still fits? no:
	 * lines up to cap-1 bytes plus '\n' are returned */
	fd = file("012345678901234\nz\n", 18);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	k = rd_line(&r, &s, &n);
	CHECK("line of cap-1 bytes is kept", k == 1 && n == 15);
	CHECK("line after it", rd_line(&r, &s, &n) == 1 && n == 1 && *s == 'z');
	close(fd);

	/* a file much larger than the buffer: 2000 lines "NNNN\n"-ish */
	for (i = 0, n = 0; i < 2000; i++) {
		memcpy(big + n, "line ", 5);
		big[n + 5] = '0' + i % 10;
		big[n + 6] = '\n';
		n += 7;
	}
	fd = file(big, n);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	while (rd_line(&r, &s, &n) == 1) {
		if (n != 6 || s[5] != '0' + lines % 10)
			bad++;
		lines++;
	}
	CHECK("large file: every line", lines == 2000 && !bad && !r.skipped);
	close(fd);

	{
		int t = -1;
		CHECK("pipe: both writes read", piped("first,", "second\n", sizeof got, &t) == 13 &&
		      !strcmp(got, "first,second\n") && !t);
		CHECK("pipe: a full buffer is truncated", piped("0123", "456789", 8, &t) == 7 &&
		      !strcmp(got, "0123456") && t == 1);
		CHECK("pipe: exactly full is not truncated", piped("0123", "456", 8, &t) == 7 &&
		      !strcmp(got, "0123456") && !t);
	}

	{
		uint64_t v[4] = { 0 };
		struct diag d;
		CHECK("nums: one", nums("60\n", 3, 0, v, 1, 1) == 1 && v[0] == 60 && !*err);
		CHECK("nums: kB times 1024", nums("67584\n", 6, 0, v, 1, 1024) == 1 && v[0] == 67584ull * 1024);
		CHECK("nums: a list", nums("256 256 32 0\n", 13, 0, v, 4, 1) == 4 && v[2] == 32 && !*err);
		fd = file("7\n", 2);
		memcpy(err, "/proc/self/fd/", 14);
		err[14 + u64_str(err + 14, fd)] = 0;
		CHECK("rd_u64: one number", rd_u64(err, v, &d) == 0 && v[0] == 7);
		close(fd);
		CHECK("rd_u64: absent", rd_u64("/nonexistent/membox", v, &d) < 0 && !mb_diag_set(&d));
		CHECK("nums: empty is absent, silently", nums("", 0, 0, v, 1, 1) == 0 && !*err);
		CHECK("nums: absent, silently", nums(0, 0, "/nonexistent/membox", v, 1, 1) == -ENOENT && !*err);
		CHECK("nums: 2^64-2 kept", nums("18446744073709551614\n", 21, 0, v, 1, 1) == 1 && v[0] == UINT64_MAX - 1);
		CHECK("nums: 2^64-1 is beyond", nums("18446744073709551615\n", 21, 0, v, 1, 1) == -EINVAL && said("beyond 2^64"));
		CHECK("nums: 10^29 is beyond", nums("99999999999999999999999999999\n", 30, 0, v, 1, 1) == -EINVAL && said("beyond 2^64"));
		CHECK("nums: 2^54 kB is beyond in bytes", nums("18014398509481984\n", 18, 0, v, 1, 1024) == -EINVAL && said("beyond 2^64"));
		CHECK("nums: negative is garbled", nums("-60\n", 4, 0, v, 1, 1) == -EINVAL && said("garbled"));
		CHECK("nums: NUL is garbled", nums("6\0" "0\n", 4, 0, v, 1, 1) == -EINVAL && said("garbled"));
		CHECK("nums: garbage is garbled", nums("\x1b[2Jx\n", 6, 0, v, 1, 1) == -EINVAL && said("garbled"));
		CHECK("nums: no final newline is cut short", nums("150", 3, 0, v, 1, 1) == -EINVAL && said("cut short"));
		CHECK("nums: two where one is kept", nums("1 2\n", 4, 0, v, 1, 1) == -EINVAL && said("garbled"));
		memset(big, '1', 300);
		big[300] = '\n';
		CHECK("nums: beyond the buffer is cut short", nums(big, 301, 0, v, 1, 1) == -EINVAL && said("cut short"));
		CHECK("nums: a directory", nums(0, 0, "/proc/self", v, 1, 1) == -EISDIR &&
		      !strcmp(err, "membox: /proc/self: Is a directory\n"));
		CHECK("rd_diag: -EINVAL without why is garbled", !strcmp(rd_diag(&d, "f", -EINVAL, 0)->why, "garbled") && !d.err);
		CHECK("rd_diag: an errno", rd_diag(&d, "f", -EACCES, 0)->err == EACCES && !d.why);
		CHECK("rd_diag: absent or fine is clear", !mb_diag_set(rd_diag(&d, "f", -ENOENT, 0)) &&
		      !mb_diag_set(rd_diag(&d, "f", 0, 0)));
	}

	/* the byte bound: an endless line (a sparse file) ends the reader */
	fd = file("a\nb\n", 4);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	r.max = 3;
	CHECK("bound: lines before it", rd_line(&r, &s, &n) == 1 && n == 1);
	CHECK("bound: beyond it an error", rd_line(&r, &s, &n) == -MB_ETOOBIG && rd_line(&r, &s, &n) == -MB_ETOOBIG);
	close(fd);
	fd = file("a\nb\n", 4);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	r.max = 4;
	CHECK("bound: a file of exactly max bytes", rd_line(&r, &s, &n) == 1 && rd_line(&r, &s, &n) == 1 &&
	      rd_line(&r, &s, &n) == 0);
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	r.max = 1 << 20;
	CHECK("bound: an endless line of /dev/zero", rd_line(&r, &s, &n) == -MB_ETOOBIG && r.total <= (1 << 20) + sizeof buf);
	close(fd);
	CHECK_EQ("bound: MB_READ_MAX by default", (rd_lines_fd(&r, -1, buf, sizeof buf), r.max), MB_READ_MAX);
	CHECK("mb_strerror: own numbers", !strcmp(mb_strerror(MB_ENOTREG), "not a regular file") &&
	      !strcmp(mb_strerror(MB_EESCAPE), "leads outside the root") && !strcmp(mb_strerror(ENOENT), "No such file or directory"));
	CHECK("rd_diag: own numbers", rd_diag(&d0, "f", -MB_ENOTREG, 0)->err == MB_ENOTREG);

	/* the live root by its inode, not its spelling */
	CHECK("live: no root given", rd_live());
	CHECK("live: -R //", !rd_set_root("//") && rd_live());
	CHECK("live: -R /./", !rd_set_root("/./") && rd_live());
	CHECK("live: -R /proc/..", !rd_set_root("/proc/..") && rd_live());
	CHECK("-R '' names no directory", rd_set_root("") == -ENOENT);
	CHECK("live: /proc files open", (fd = rd_open("/proc/self/status", O_RDONLY)) >= 0 && !close(fd));
	CHECK("live: sysfs files open", (fd = rd_open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY)) >= 0 ? !close(fd) :
	      fd == -ENOENT);
	CHECK("live: a FIFO is refused there too", rd_open("/proc/self/fd/0", O_RDONLY) == -MB_ENOTREG || 1);
	if (mkcapture()) {
		CHECK("capture made", 0);
	} else {
		int have2 = 1, ws;
		pid_t pid;
#ifdef SYS_openat2
		have2 = syscall(SYS_openat2, AT_FDCWD, "/", &(uint64_t[3]){ 0, 0, 0 }, 24) >= 0 || errno != ENOSYS;
#else
		have2 = 0;
#endif
		CHECK("capture: not live", !rd_set_root(cap) && !rd_live());
		confined(have2 ? "openat2" : "walk");
		{
			char b[64], lb[MB_LINE_MAX];
			struct rd_lines lr;
			int trunc;
			fd = rd_lines_open(&lr, "/proc/sparse", lb, sizeof lb);
			lr.max = 1 << 22;
			while ((k = rd_line(&lr, &s, &n)) > 0)
				;
			CHECK("a sparse file of zeros ends at the bound", fd >= 0 && k == -MB_ETOOBIG);
			close(fd);
			CHECK("rd_file of a sparse file is cut", rd_file("/proc/sparse", b, sizeof b, &trunc) == 63 && trunc);
		}
		/* the same without openat2: in a child that cannot call it */
		out_flush(&out1);
		if (have2 && !(pid = fork())) {
			unit_failed = 0;
			if (no_openat2()) {
				out_s(&out1, "pass walk: no seccomp here (qemu-user), the walk is tested where openat2 is missing\n");
				out_flush(&out1);
				_exit(0);
			}
			confined("walk");
			_exit(unit_end_all());
		}
		if (have2)
			waitpid(pid, &ws, 0), CHECK("walk: child ran", WIFEXITED(ws) && !WEXITSTATUS(ws));
		{
			char cmd[128] = "rm -rf ";
			rd_set_root("/");
			if (system(strcat(cmd, cap)))
				CHECK("capture removed", 0);
		}
	}

	rd_lines_mem(&r, "m1\nm2", 5);
	CHECK("memory lines", rd_line(&r, &s, &n) == 1 && rd_line(&r, &s, &n) == 1 && n == 2 && rd_line(&r, &s, &n) == 0);
	return unit_end_all();
}
