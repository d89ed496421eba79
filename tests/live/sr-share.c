/* Workload for smaps-rollup's live test: the parent maps SHARED KiB of
 * MAP_SHARED|MAP_ANONYMOUS memory and writes it, then forks N children that
 * read every shared page and write PRIVATE KiB of their own private memory.
 * When all are in place it prints its pid and everyone sleeps until killed
 * (children die with the parent).
 *   sr-share [N [SHARED_KIB [PRIVATE_KIB]]]     default 50 4096 1024 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50, i, fd[2];
	size_t shared = (argc > 2 ? atol(argv[2]) : 4096) * 1024;
	size_t priv = (argc > 3 ? atol(argv[3]) : 1024) * 1024;
	volatile char *sh = mmap(0, shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char c;

	if (sh == MAP_FAILED || pipe(fd))
		return perror("sr-share"), 1;
	memset((char *)sh, 1, shared);
	for (i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0)
			return perror("fork"), 1;
		if (!p) {
			size_t o;
			volatile char sum = 0;
			char *m;
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(1);
			for (o = 0; o < shared; o += 4096)
				sum += sh[o];
			(void)sum;
			m = mmap(0, priv, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				_exit(1);
			memset(m, 2, priv);
			if (write(fd[1], "x", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
	}
	for (i = 0; i < n; i++)
		if (read(fd[0], &c, 1) != 1)
			return 1;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
