/* Workload for the live test of smaps-rollup -g cgroup (tests/cgroup-live.test):
 * maps MIB MiB of private anonymous memory, writes every page of it, then
 * prints its pid and sleeps until killed.  Started by a shell that has put
 * itself into the cgroup first, so every page is charged there.
 *   cg-anon MIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t size = (size_t)(argc > 1 ? atol(argv[1]) : 1) << 20;
	char *p = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("cg-anon: mmap");
		return 1;
	}
	/* not zeros: a zero page could be shared, never charged */
	memset(p, 0x5a, size);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
