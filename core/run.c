/* The end of a run (run.h): stop signals, the -O FILE commit, the exit
 * status and the --every loop.  Messages go through msg.h, bytes through
 * out.h; neither knows about this file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>     /* renameat */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include "mono.h"
#include "msg.h"
#include "out.h"
#include "table.h"
#include "text.h"
#include "rd.h"
#include "report.h"
#include "run.h"
#include "sc.h"
#include "membox.h"

/* ---- -O FILE ---- */

void run_stop(int sig)
{
	mb.stop = sig;
	/* after a stop signal no write may block (a stalled reader would
	 * hold membox forever) */
	out1.nonblock = out2.nonblock = 1;
	if (mb.fo)
		mb.fo->nonblock = 1;
	if (mb.out_file)
		mb.out_file->nonblock = 1;
}

void mb_catch_stop(void)
{
	/* no SA_RESTART: a write to a stalled reader, a sleep or an open of a
	 * FIFO returns EINTR, and the loop around it sees mb.stop */
	struct sigaction sa = { .sa_handler = run_stop }, was;
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	unsigned i;

	/* a signal ignored when membox started stays ignored (nohup, the
	 * SIGINT of a background job) */
	for (i = 0; i < sizeof stops / sizeof *stops; i++)
		if (!sigaction(stops[i], 0, &was) && was.sa_handler != SIG_IGN)
			sigaction(stops[i], &sa, 0);
}
/* Which filesystem is dir in: /proc (a link there, a process's file
 * descriptor, is no path a rename could replace, nor one readlink gives
 * back), /sys (nothing can be created there) or /dev's own (its nodes and
 * links, where a file renamed over /dev/stdout would replace it for the
 * whole system; not a filesystem mounted below it, /dev/shm, nor /dev on
 * the root's), or another.  The magic numbers are <linux/magic.h>'s. */
#define PROC_SUPER_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572
enum { FS_OTHER, FS_KERNEL, FS_PROC };

static int fs_kind(const char *dir)
{
	struct statfs sf;
	struct stat d, dev, root;

	if (!statfs(dir, &sf) && (sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC))
		return sf.f_type == PROC_SUPER_MAGIC ? FS_PROC : FS_KERNEL;
	return !stat(dir, &d) && !stat("/dev", &dev) && !stat("/", &root) &&
	       d.st_dev == dev.st_dev && dev.st_dev != root.st_dev ? FS_KERNEL : FS_OTHER;
}

/* Is name, in the /proc directory dir, membox's own descriptor N (dir is
 * /proc/self/fd)?  N, else -1. */
static int own_fd(const char *dir, const char *name)
{
	struct stat d, me, fd;
	uint64_t v;

	return sc_u64_all(name, strlen(name), &v) == SC_OK && v <= INT_MAX &&
	       !stat(dir, &d) && !stat("/proc/self/fd", &me) &&
	       d.st_dev == me.st_dev && d.st_ino == me.st_ino && !fstat(v, &fd) ? (int)v : -1;
}

/* Does FILE lead to a kernel file: is it, or a link on the way to what
 * it names (at most 40, as the kernel follows), in /proc, /sys or /dev?
 * That is /proc/self/fd/N, /dev/stdout, /dev/fd/N, a link to one of
 * them, a /proc, /sys or /dev file.  *fdno: N when the file is membox's
 * own descriptor N (a link in /proc/self/fd), else -1.  The paths are
 * built in the caller's w. */
struct link_walk {
	char cur[MB_PATH_MAX];   /* the link followed now */
	char dir[MB_PATH_MAX];   /* its directory */
	char to[MB_PATH_MAX];    /* what it says */
};

static int leads_to_kernel(struct link_walk *w, int *fdno)
{
	struct stat st;
	unsigned hop;
	int kernel = 0, kind;

	*fdno = -1;
	if (strlen(mb.out_path) >= sizeof w->cur)
		return 0;
	strcpy(w->cur, mb.out_path);
	for (hop = 0; hop <= 40; hop++) {
		const char *slash = strrchr(w->cur, '/');
		size_t n = slash ? (size_t)(slash - w->cur) + (slash == w->cur) : 1;
		ssize_t k;

		memcpy(w->dir, slash ? w->cur : ".", n);
		w->dir[n] = 0;
		if ((kind = fs_kind(w->dir)) == FS_PROC) {
			*fdno = own_fd(w->dir, slash ? slash + 1 : w->cur);
			return 1;
		}
		kernel |= kind == FS_KERNEL;
		if (lstat(w->cur, &st) || !S_ISLNK(st.st_mode) ||
		    (k = readlink(w->cur, w->to, sizeof w->to - 1)) <= 0)
			return kernel;
		w->to[k] = 0;
		/* a relative link is read from its own directory */
		if (w->to[0] != '/' && n + 1 + (size_t)k >= sizeof w->cur)
			return kernel;
		if (w->to[0] == '/')
			memcpy(w->cur, w->to, k + 1);
		else
			mb_join(w->cur, w->dir, "/", w->to);
	}
	return kernel;
}

/* FILE's directory and name, once; or FILE written in place, as it is:
 * no regular file (/dev/null, a FIFO) or a kernel file (a descriptor,
 * /dev/stdout, a /proc, /sys or /dev file), which no file renamed over
 * it may replace */
static int out_locate(void)
{
	const char *slash = strrchr(mb.out_path, '/');
	struct link_walk w;   /* its dir is free again for FILE's directory */
	struct stat st;
	size_t n;

	mb.out_in_place = leads_to_kernel(&w, &mb.out_fdno) ||
	                  (!stat(mb.out_path, &st) && !S_ISREG(st.st_mode));
	if (mb.out_in_place || mb.out_dir >= 0)
		return 0;
	mb.out_base = slash ? slash + 1 : mb.out_path;
	n = slash ? (size_t)(slash - mb.out_path) + (slash == mb.out_path) : 1;
	if (!*mb.out_base)
		return EISDIR;
	if (n >= sizeof w.dir)
		return ENAMETOOLONG;
	memcpy(w.dir, slash ? mb.out_path : ".", n);
	w.dir[n] = 0;
	mb.out_dir = open(w.dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return mb.out_dir < 0 ? errno : 0;
}

/* The name of process pid's temporary file into d (mb.out_tmp's size), the
 * i-th try: a long FILE is cut in it: ".", 200 bytes, ".membox.", PID, ".N" */
static void tmp_name(char *d, pid_t pid, unsigned i)
{
	char n[24], *e;

	n[u64_str(n, (uint64_t)pid)] = 0;
	e = mb_join(d, ".", "", "");
	e = (char *)memcpy(e, mb.out_base, strnlen(mb.out_base, 200)) + strnlen(mb.out_base, 200);
	e = mb_join(e, ".membox.", n, i ? "." : "");
	if (i)
		e[u64_str(e, i)] = 0;
}

/* The temporary file, created new (O_EXCL): one left by a process of
 * the same PID killed outright (SIGKILL) is not ours to reuse. */
static int out_create(void)
{
	unsigned i;
	int fd;

	for (i = 0; i < 100; i++) {
		tmp_name(mb.out_tmp, getpid(), i);
		fd = openat(mb.out_dir, mb.out_tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	/* 0644 whatever the umask: the file is for other readers */
	if (fd >= 0 && fchmod(fd, 0644) < 0) {
		int err = errno;
		close(fd);
		unlinkat(mb.out_dir, mb.out_tmp, 0);
		errno = err;
		return -1;
	}
	return fd;
}

int out_pending(void) { return mb.out_file != 0; }

int out_begin(struct out *o)
{
	int fd, err;

	if (!mb.out_path || mb.out_file)
		return 0;
	if ((err = out_locate()))
		return mb_fail_errno(mb.out_path, err);
	/* in place: appended to, as standard output redirected with > or >>
	 * is, never truncated; a descriptor of membox's is written through
	 * (a socket cannot be opened again) */
	if (mb.out_fdno >= 0)
		fd = fcntl(mb.out_fdno, F_DUPFD_CLOEXEC, 3);
	else if (mb.out_in_place)
		fd = open(mb.out_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	else
		fd = out_create();
	if (fd < 0)
		return mb_fail_errno(mb.out_path, errno);
	out_flush(o);
	o->fd = fd;
	o->err = 0;
	mb.out_file = o;
	return 0;
}

int out_end(int keep)
{
	struct out *o = mb.out_file;
	int err = 0;

	if (!o)
		return 0;
	mb.out_file = 0;
	if (!keep)
		o->len = 0;   /* what was not written yet is dropped with the file */
	if (out_flush(o) < 0)
		err = o->err;
	/* EIO, ENOSPC or EDQUOT may come only now, from a delayed write */
	if (keep && !err && !mb.out_in_place && fsync(o->fd) < 0)
		err = errno;
	if (close(o->fd) < 0 && keep && !err && errno != EINTR)
		err = errno;
	o->fd = o == &out1 ? 1 : -1;
	o->err = 0;
	if (!mb.out_in_place) {
		if (keep && !err && renameat(mb.out_dir, mb.out_tmp, mb.out_dir, mb.out_base) < 0)
			err = errno;
		if (!keep || err)
			unlinkat(mb.out_dir, mb.out_tmp, 0);
	}
	return err ? mb_fail_errno(mb.out_path, err) : 0;
}

int mb_exit_status(int status)
{
	if (rd_fd_exhausted())
		mb_warn("ran out of file descriptors (ulimit -n)", "files were left unread");
	/* -O FILE: the report replaces it unless a failure or a stop signal
	 * came first (a report of --every stops quietly: that is its end) */
	if (out_pending()) {
		int keep = !mb_failed() && !mb.stop;
		if (mb.stop && !mb_said_active())
			mb_warn(mb.out_path, "not replaced: stopped by a signal");
		if ((out_end(keep) || !keep) && !status)
			status = 1;
	}
	mb_said_end();
	if (out_flush(&out1) < 0) {
		mb_warn_errno("write error on standard output", out1.err);
		if (!status)
			status = 1;
	}
	if (mb.fo != &out1 && out_flush(mb.fo) < 0) {
		mb_warn_errno("write error on the report", mb.fo->err);
		if (!status)
			status = 1;
	}
	out_flush(&out2);
	return status;
}

/* ---- --every ---- */

/* Sleep until at (monotonic microseconds) or a stop signal: 1 after a
 * stop.  The stop signals are blocked from the look at mb.stop until
 * ppoll unblocks them: one that comes in between ends the sleep at once. */
static int sleep_until(uint64_t at)
{
	sigset_t stops, unblocked;
	uint64_t now;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &unblocked);
	while (!mb.stop && (now = mono_us()) < at) {
		uint64_t left = at - now;
		struct timespec ts = { left / 1000000, left % 1000000 * 1000 };
		ppoll(0, 0, &ts, &unblocked);
	}
	sigprocmask(SIG_SETMASK, &unblocked, 0);
	return mb.stop != 0;
}

/* Wait for the report's process: its exit status (128 + N after signal
 * N).  A stop signal that reaches us alone (kill PID) is passed on, so the
 * report under way drops its temporary file; then the messages it said
 * come back through fd (msg.h, mb_said_take). */
static int wait_report(pid_t pid, int fd)
{
	int status, passed = 0;

	for (;;) {
		if (mb.stop && !passed)
			passed = !kill(pid, mb.stop);
		if (waitpid(pid, &status, 0) == pid)
			break;
		if (errno != EINTR)
			return 1;
	}
	mb_said_take(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The reader of standard output went away: a pipe or socket whose other
 * end is closed (poll says POLLERR or POLLHUP on this end). */
static int reader_gone(void)
{
	struct pollfd pf = { .fd = 1 };

	return !mb.out_path && poll(&pf, 1, 0) > 0 && (pf.revents & (POLLERR | POLLHUP));
}

/* The temporary file of a report killed outright (SIGKILL: it could not
 * remove it), by the name its process made first. */
static void drop_tmp_of(pid_t pid)
{
	char name[sizeof mb.out_tmp];

	if (!mb.out_path || mb.out_in_place || mb.out_dir < 0)
		return;
	tmp_name(name, pid, 0);
	unlinkat(mb.out_dir, name, 0);
}

int run_reports(uint64_t every_us, uint64_t count)
{
	uint64_t start, done = 0, next;
	int status = 0, p[2], refused = 0;
	pid_t pid;

	/* a stop signal must not leave a temporary file behind: it is noted,
	 * and the report ends without replacing FILE */
	if (mb.out_path || every_us)
		mb_catch_stop();
	if (!every_us)
		return out_begin(&out1);
	if (mb.out_path)
		out_locate();   /* for drop_tmp_of; each report says its error */
	start = mono_us();
	for (;;) {
		out_flush(&out1);   /* nothing buffered twice */
		out_flush(&out2);
		pid = -1;
		if (!pipe2(p, O_CLOEXEC) && (pid = fork()) < 0) {
			int err = errno;
			close(p[0]);
			close(p[1]);
			errno = err;
		}
		if (!pid) {   /* the report, as a run without --every would make it */
			int err;
			close(p[0]);
			mb_said_give(p[1]);
			/* its time, from before its figures are read: json and kv
			 * write it in the report, a table in a heading line */
			rep_stamp(rep_clock_ms());
			if (!(err = out_begin(&out1)) && mb.fmt == FMT_TABLE)
				rep_table_stamp();
			return err;
		}
		if (pid < 0) {
			/* no report this time (EAGAIN, ENOMEM, EMFILE): said once,
			 * tried again at the next deadline */
			if (!refused)
				mb_warn_errno("--every: no report", errno);
			refused = 1;
			status = 1;
		} else {
			refused = 0;
			close(p[1]);
			status = wait_report(pid, p[0]);
			close(p[0]);
			if (status > 128)
				drop_tmp_of(pid);
		}
		if (mb.stop)
			break;
		/* a reader gone ends the loop with the report's status: 141 when
		 * SIGPIPE ended it, as any filter; 1 where SIGPIPE is ignored */
		if (++done == count || status == 128 + SIGPIPE || reader_gone())
			exit(mb_exit_status(status));
		/* the next deadline after now: a late report skips those it missed */
		next = (mono_us() - start) / every_us + 1;
		if (sleep_until(sat_add(start, sat_mul(next, every_us))))
			break;
	}
	exit(mb_exit_status(0));
}

