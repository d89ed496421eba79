/* Workload for smaps-rollup's live tree test: N processes in a tree DEPTH
 * levels deep.  The root is level 0; each level's process forks the next
 * level and as many leaves as it takes to make N in all.  Every process
 * writes KIB KiB of private anonymous memory.  One leaf of the deepest
 * level re-executes this program as a Chrome renderer would look: its
 * command line starts with /opt/google/chrome/chrome, is CMD_KIB KiB of
 * options long and ends with --type=renderer.  When every process is in
 * place the root prints its PID and all sleep; each dies
 * with its parent (PR_SET_PDEATHSIG), so killing the root ends them all.
 *   sr-tree [N [DEPTH [KIB [CMD_KIB]]]]     default 2000 50 64 16 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char renderer_flag[] = "--sr-tree-ready-fd=";

/* Write kib KiB of private memory, say so on fd, sleep until killed. */
static void settle(size_t kib, int fd, pid_t me)
{
	char *m = kib ? mmap(0, kib * 1024, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : 0;

	if (m == MAP_FAILED)
		_exit(1);
	if (kib)
		memset(m, 3, kib * 1024);
	if (write(fd, &me, sizeof me) != sizeof me)
		_exit(1);
	for (;;)
		pause();
}

/* A forked child: dies with its parent. */
static pid_t child(void)
{
	pid_t parent = getpid(), p = fork();

	if (p < 0) {
		perror("fork");
		exit(1);
	}
	if (!p) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
	}
	return p;
}

/* The renderer: exec this program with a long Chrome-like command line. */
static void renderer(size_t kib, size_t cmd_kib, int fd)
{
	static char opts[64 * 1024], ready[64], size[32];
	char *argv[4096];
	size_t n = 0, used = 0, k;

	if (cmd_kib * 1024 > sizeof opts)
		cmd_kib = sizeof opts / 1024;
	snprintf(ready, sizeof ready, "%s%d", renderer_flag, fd);
	snprintf(size, sizeof size, "%zu", kib);
	argv[n++] = "/opt/google/chrome/chrome";
	argv[n++] = ready;
	argv[n++] = size;
	/* options of 100 bytes each (with their NUL), none with "--type=" */
	while (used + 100 < cmd_kib * 1024 && n < sizeof argv / sizeof *argv - 2) {
		k = snprintf(opts + used, 100, "--enable-features=SrTreeFiller%04zu", n);
		memset(opts + used + k, 'x', 99 - k);
		opts[used + 99] = 0;
		argv[n++] = opts + used;
		used += 100;
	}
	argv[n++] = "--type=renderer";
	argv[n] = 0;
	execv("/proc/self/exe", argv);
	perror("execv");
	_exit(1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, depth = argc > 2 ? atol(argv[2]) : 50;
	size_t kib = argc > 3 ? atol(argv[3]) : 64, cmd_kib = argc > 4 ? atol(argv[4]) : 16;
	long leaves, level, i;
	pid_t me, root = getpid(), got;
	int fd[2];

	if (argc > 2 && !strncmp(argv[1], renderer_flag, sizeof renderer_flag - 1))
		settle(atol(argv[2]), atoi(argv[1] + sizeof renderer_flag - 1), getpid());
	if (n < depth || depth < 1 || pipe(fd))
		return fprintf(stderr, "sr-tree: N >= DEPTH >= 1\n"), 1;
	/* level l forks the next level and leaves[l] leaves: n in all */
	leaves = (n - depth) / depth;
	for (level = 0; level < depth; level++) {
		long mine = leaves + (level == depth - 1 ? (n - depth) % depth : 0);
		for (i = 0; i < mine; i++)
			if (!child()) {
				if (level == depth - 1 && i == mine - 1)
					renderer(kib, cmd_kib, fd[1]);
				settle(kib, fd[1], getpid());
			}
		if (level == depth - 1 || child())
			break;
	}
	me = getpid();
	if (me != root)
		settle(kib, fd[1], me);
	/* the root: wait for every other process, then write its own memory */
	for (i = 0; i < n - 1; i++) {
		if (read(fd[0], &got, sizeof got) != sizeof got)
			return 1;
		(void)got;
	}
	{
		char *m = mmap(0, kib * 1024, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return 1;
		memset(m, 3, kib * 1024);
	}
	printf("%d\n", (int)root);
	fflush(stdout);
	for (;;)
		pause();
}
