/* vm-pageout MIB MS: MIB MiB of anonymous memory written with distinct
 * data, pushed to swap with madvise(MADV_PAGEOUT) (Linux 5.4+), kept out
 * for MS milliseconds, then read back.  Prints "pages P out K": K pages that
 * mincore found not resident (neither mapped nor in the swap cache) after
 * the pageout; each must be swapped out and, when read, swapped in.  Exit 77
 * when no page went out (no swap; qemu-user ignores the advice). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE), n, i, out = 0, ms;
	volatile unsigned long sum = 0;
	unsigned char *vec;
	struct timespec ts;
	char *m;

	if (argc != 3)
		return fprintf(stderr, "usage: vm-pageout MIB MS\n"), 2;
	n = atol(argv[1]) * 1048576 / ps;
	ms = atol(argv[2]);
	vec = malloc(n);
	m = mmap(0, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!vec || m == MAP_FAILED)
		return perror("mmap"), 1;
	for (i = 0; i < n; i++) {
		long j;
		for (j = 0; j < ps; j += sizeof(long))
			*(long *)(m + i * ps + j) = i * 7919 + j;
	}
	if (madvise(m, n * ps, MADV_PAGEOUT))
		perror("madvise(MADV_PAGEOUT)");
	if (mincore(m, n * ps, vec))
		return perror("mincore"), 1;
	for (i = 0; i < n; i++)
		out += !(vec[i] & 1);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000;
	nanosleep(&ts, 0);
	for (i = 0; i < n; i++)
		sum += m[i * ps + 8];
	printf("pages %ld out %ld\n", n, out + (long)(sum & 0));
	return out ? 0 : 77;
}
