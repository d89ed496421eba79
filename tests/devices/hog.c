/* hog: the devices' memory workload.  Reads lines "N" on stdin: grows its
 * private anonymous memory to N MiB (it never shrinks), every page written
 * half with a pseudo-random pattern and half with zeros (so zram holds
 * real compressed data: neither a same-filled page nor an incompressible
 * one), then prints "N" and waits for the next line.  Exits 0 at the end
 * of its input.  Started with "hog N" it grows to N MiB at once and then
 * reads stdin as above: driven beyond what RAM and swap hold, the kernel's
 * OOM killer ends it (exit 137).  The first line it prints is its pid.
 * It reads the clock first, as most programs do: its vDSO is then mapped
 * (faulted in), a page every process of its ABI that did so shares. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIB (1ul << 20)
#define MAX_MIB 4096

static uint64_t seed = 1;

static void grow(char **base, unsigned long *have, unsigned long want)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long i;

	for (; *have < want && *have < MAX_MIB; ++*have) {
		char *m = mmap(0, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			perror("hog: mmap");
			exit(1);
		}
		for (i = 0; i < MIB; i += sizeof seed) {
			if (i % page < (unsigned long)page / 2) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				memcpy(m + i, &seed, sizeof seed);
			}
		}
		base[*have] = m;
	}
}

int main(int argc, char **argv)
{
	static char *base[MAX_MIB];
	unsigned long have = 0;
	char line[64];
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	if (argc > 1) {
		grow(base, &have, strtoul(argv[1], 0, 10));
		printf("%lu\n", have);
		fflush(stdout);
	}
	while (fgets(line, sizeof line, stdin)) {
		grow(base, &have, strtoul(line, 0, 10));
		printf("%lu\n", have);
		fflush(stdout);
	}
	return 0;
}
