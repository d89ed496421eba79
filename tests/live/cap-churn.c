/* Workload for capture-live.test: a process whose smaps changes length all the
 * time.  In a loop it maps N one-page anonymous mappings (alternately
 * read-only and writable, so the kernel cannot merge neighbours), N going
 * up and down between 0 and MAX, then unmaps them.  A capture that reads
 * its smaps twice (to measure, then to write) sees two lengths.
 * Prints its pid and runs until killed.
 *   cap-churn [MAX]      default 3000 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void *maps[20000];

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int max = argc > 1 ? atoi(argv[1]) : 3000, n, i, step = 0;

	if (max < 1 || max > 20000)
		return 2;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		/* 0, max/7, 2max/7 ... then down again: lengths keep moving */
		n = max * (step < 7 ? step : 14 - step) / 7;
		step = (step + 1) % 14;
		for (i = 0; i < n; i++) {
			maps[i] = mmap(NULL, page, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (maps[i] == MAP_FAILED)
				return 1;
			if (i % 2 == 0)
				*(volatile char *)maps[i] = 1;
		}
		usleep(2000);
		for (i = 0; i < n; i++)
			munmap(maps[i], page);
	}
}
