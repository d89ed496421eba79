/* The pages a command touched, read at its exit.
 *   exitrss [-f FD] [-v] [-p] CMD [ARGS...]
 * Runs CMD traced and, at its exit-stop (PTRACE_O_TRACEEXIT: the process
 * has finished but still exists, its memory intact), reads Rss and
 * Anonymous from /proc/PID/smaps_rollup; then lets it exit.  Prints
 *   rss_kib=N anon_kib=N status=S
 * to stderr, or to FD so that CMD's own stdout and stderr stay apart.
 * S is CMD's exit code, or sigN if signal N killed it; rss_kib=? if CMD
 * died without an exit-stop (SIGKILL may skip it).  exitrss exits as CMD
 * did.  -v: before that line, Rss and Anonymous of each mapping
 * (/proc/PID/smaps), to see whether text, data, bss, heap or stack hold
 * the pages.  -p: -v, and after each mapping the address ranges of its
 * pages present in memory (/proc/PID/pagemap, bit 63), as
 *   "  present 42e000-431000 433000-434000"
 * which `nm -S -n` of an unstripped binary turns into the symbols that
 * hold them.
 * Only CMD's own process is measured: an exec in it is followed (same
 * process, the last image is measured), its children are not traced.
 * Signals sent to CMD reach it unchanged.  If CMD cannot be executed,
 * exitrss says why and exits 127 (not found) or 126. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *prog = "exitrss";
static int pages;   /* -p */

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(125);
}

/* The value of "Key:   N kB" if LINE is that key, else -1. */
static long field(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) || line[n] != ':')
		return -1;
	return strtol(line + n + 1, 0, 10);
}

struct map {
	unsigned long start, end;
	char perm[8], name[256];
	long rss, anon;
};

/* -p: the runs of m's pages present in memory, from /proc/PID/pagemap
 * (one 64-bit entry per page, bit 63: present).  Mappings of more than
 * 1 GiB (guard regions, reservations) are left out. */
static void present(FILE *out, pid_t pid, const struct map *m)
{
	unsigned long ps = sysconf(_SC_PAGESIZE), a, run = 0;
	unsigned long long e;
	char path[64];
	int fd;

	if (m->end - m->start > (1ul << 30))
		return;
	snprintf(path, sizeof path, "/proc/%d/pagemap", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	fprintf(out, "  present");
	for (a = m->start; a < m->end; a += ps) {
		int on = pread(fd, &e, sizeof e, (off_t)(a / ps * sizeof e)) == sizeof e && e >> 63;
		if (on && !run)
			run = a, fprintf(out, " %lx", a);
		else if (!on && run)
			run = 0, fprintf(out, "-%lx", a);
	}
	if (run)
		fprintf(out, "-%lx", m->end);
	fprintf(out, "\n");
	close(fd);
}

/* One line of -v.  A nameless mapping that starts where a file mapping
 * ends is that file's bss (the part beyond the file's last page). */
static void show(FILE *out, pid_t pid, const struct map *m, const struct map *prev)
{
	char range[40], label[300];

	snprintf(range, sizeof range, "%lx-%lx", m->start, m->end);
	if (m->name[0])
		snprintf(label, sizeof label, "%s", m->name);
	else if (prev && prev->end == m->start && prev->name[0] == '/')
		snprintf(label, sizeof label, "(bss of %s)", strrchr(prev->name, '/') + 1);
	else
		snprintf(label, sizeof label, "(anonymous)");
	fprintf(out, "%-33s %-4s %8ld %8ld  %s\n", range, m->perm, m->rss, m->anon, label);
	if (pages)
		present(out, pid, m);
}

/* Rss and Anonymous summed over /proc/PID/smaps; with OUT, each mapping's. */
static int breakdown(pid_t pid, FILE *out, long *rss, long *anon)
{
	struct map cur, prev;
	char path[64], *line = 0;
	size_t cap = 0;
	int have = 0, at;
	long v;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/smaps", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	*rss = *anon = 0;
	if (out)
		fprintf(out, "%-33s %-4s %8s %8s  %s\n", "mapping", "perm", "rss_kib", "anon_kib", "object");
	while (getline(&line, &cap, f) >= 0) {
		struct map m = { 0 };
		/* "start-end perms offset dev inode [name]" opens a mapping */
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &m.start, &m.end, m.perm, &at) == 3 && at > 0) {
			snprintf(m.name, sizeof m.name, "%.*s", (int)strcspn(line + at, "\n"), line + at);
			if (have && out)
				show(out, pid, &cur, have > 1 ? &prev : 0);
			if (have)
				prev = cur;
			cur = m;
			have += have < 2;
		} else if (have && (v = field(line, "Rss")) >= 0) {
			cur.rss = v, *rss += v;
		} else if (have && (v = field(line, "Anonymous")) >= 0) {
			cur.anon = v, *anon += v;
		}
	}
	if (have && out)
		show(out, pid, &cur, have > 1 ? &prev : 0);
	free(line);
	if (ferror(f) | fclose(f))
		return -1;
	return 0;
}

/* Rss and Anonymous of the whole process; kernels before 4.14 have no
 * smaps_rollup, smaps summed gives the same. */
static int rollup(pid_t pid, long *rss, long *anon)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
	if (!(f = fopen(path, "r")))
		return errno == ENOENT ? breakdown(pid, 0, rss, anon) : -1;
	*rss = *anon = -1;
	while (fgets(line, sizeof line, f)) {
		long v;
		if ((v = field(line, "Rss")) >= 0)
			*rss = v;
		else if ((v = field(line, "Anonymous")) >= 0)
			*anon = v;
	}
	if ((ferror(f) | fclose(f)) || *rss < 0 || *anon < 0)
		return -1;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [-f FD] [-v] [-p] CMD [ARGS...]\n", prog);
	exit(125);
}

int main(int argc, char **argv)
{
	int out_fd = 2, verbose = 0, go[2], err[2], st, opt, exec_errno = 0, execd = 0;
	long rss = -1, anon = -1;
	FILE *out;
	pid_t pid;

	/* '+': CMD's own options are not ours */
	while ((opt = getopt(argc, argv, "+f:vp")) != -1) {
		char *end;
		if (opt == 'f') {
			out_fd = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || out_fd < 0)
				usage();
		} else if (opt == 'v') {
			verbose = 1;
		} else if (opt == 'p') {
			verbose = pages = 1;
		} else {
			usage();
		}
	}
	if (optind >= argc)
		usage();
	/* CMD must not inherit the report's descriptor (it may wait for EOF
	 * on it); stdin, stdout and stderr it shares. */
	if (out_fd > 2 && fcntl(out_fd, F_SETFD, FD_CLOEXEC) < 0)
		die("-f");
	if (!(out = fdopen(dup(out_fd), "w")))
		die("-f");
	if (fcntl(fileno(out), F_SETFD, FD_CLOEXEC) < 0)
		die("fcntl");

	/* go: the child waits until it is traced before it execs, so that no
	 * page of CMD is touched untraced.  err: the child's errno if exec
	 * fails (close-on-exec, so EOF means exec succeeded). */
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		die("pipe2");
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[optind], argv + optind);
		/* If even this write fails, the parent reports status 127
		 * with no measurement, which still says CMD did not run. */
		exec_errno = errno;
		if (write(err[1], &exec_errno, sizeof exec_errno) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	/* SEIZE, not TRACEME: it neither stops the child nor turns its
	 * exec into a SIGTRAP, and a group-stop can be told from a signal.
	 * EXITKILL: if we die, CMD does not run on unobserved. */
	if (ptrace(PTRACE_SEIZE, pid, 0,
	           PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL) < 0) {
		int e = errno;
		kill(pid, SIGKILL);
		errno = e;
		die("ptrace(PTRACE_SEIZE)");
	}
	if (write(go[1], "g", 1) != 1)
		die("write");
	close(go[1]);
	/* As time(1): ^C and ^\ go to CMD too (same process group); we stay
	 * to report how it ended. */
	if (signal(SIGINT, SIG_IGN) == SIG_ERR || signal(SIGQUIT, SIG_IGN) == SIG_ERR)
		die("signal");

	for (;;) {
		int req = PTRACE_CONT, inject = 0, sig;

		if (waitpid(pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid");
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		switch (st >> 16) {
		case PTRACE_EVENT_EXIT:
			/* Before the exec the process is our own copy, not CMD
			 * (the exec failed). */
			if (execd) {
				if (verbose && breakdown(pid, out, &rss, &anon) < 0)
					fprintf(stderr, "%s: /proc/%d/smaps: %s\n", prog, (int)pid, strerror(errno));
				if (rollup(pid, &rss, &anon) < 0) {
					fprintf(stderr, "%s: /proc/%d/smaps_rollup: %s\n", prog, (int)pid, strerror(errno));
					rss = anon = -1;
				}
			}
			break;
		case PTRACE_EVENT_EXEC:
			execd = 1;
			break;
		case PTRACE_EVENT_STOP:
			/* A group-stop: LISTEN keeps CMD stopped until SIGCONT,
			 * as it would be untraced.  SIGCONT then reports a trap
			 * (SIGTRAP) that only needs CONT. */
			if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
				req = PTRACE_LISTEN;
			break;
		case 0:
			/* signal-delivery-stop: deliver it as sent */
			inject = sig;
			break;
		}
		/* ESRCH: killed (SIGKILL) while stopped; waitpid tells how. */
		if (ptrace(req, pid, 0, (void *)(long)inject) < 0 && errno != ESRCH)
			die("ptrace(restart)");
	}

	/* The write end is closed now (exec or exit): a short read is EOF. */
	if (read(err[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[optind], strerror(exec_errno));
		return exec_errno == ENOENT ? 127 : 126;
	}
	if (rss < 0)
		fprintf(out, "rss_kib=? anon_kib=?");
	else
		fprintf(out, "rss_kib=%ld anon_kib=%ld", rss, anon);
	if (WIFEXITED(st))
		fprintf(out, " status=%d\n", WEXITSTATUS(st));
	else
		fprintf(out, " status=sig%d\n", WTERMSIG(st));
	if (fflush(out) || ferror(out))
		die("report");
	if (WIFEXITED(st))
		return WEXITSTATUS(st);

	/* Die of the same signal, so that our parent sees what CMD's would
	 * have: SIGINT and SIGQUIT back to their default (the others still
	 * have theirs); no core of ours (CMD's was already written). */
	{
		struct rlimit no_core = { 0, 0 };
		int sig = WTERMSIG(st);
		sigset_t set;

		if (setrlimit(RLIMIT_CORE, &no_core) < 0 || signal(SIGINT, SIG_DFL) == SIG_ERR ||
		    signal(SIGQUIT, SIG_DFL) == SIG_ERR || sigemptyset(&set) < 0 ||
		    sigaddset(&set, sig) < 0 || sigprocmask(SIG_UNBLOCK, &set, 0) < 0 || raise(sig) != 0)
			die("raise");
	}
	return 128 + WTERMSIG(st);
}
