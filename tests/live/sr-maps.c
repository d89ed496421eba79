/* Workloads for smaps-rollup's mapping views (-M, -l, -S).
 *
 *   sr-maps maps N K   N one-page private anonymous mappings (alternately
 *                      read-only and writable so the kernel cannot merge
 *                      them; the writable ones written), K one-page memfds
 *                      mapped shared (K distinct objects), an 8-page
 *                      shared anonymous region and a 3-page named anonymous
 *                      one ([anon:sr-maps], Linux 5.17+ when configured).
 *                      Prints "PID" and sleeps until killed.
 *   sr-maps swap KIB   KIB of MAP_SHARED|MAP_ANONYMOUS memory, written, then
 *                      pushed out with madvise(MADV_PAGEOUT) (Linux 5.4+;
 *                      pages mapped by one process only, so before the
 *                      fork), then a child that maps it too without
 *                      touching it.  Prints "PID CHILD ADDRESS" (the address
 *                      in hex as smaps prints it) and sleeps until killed;
 *                      the child dies with the parent.
 *   sr-maps swapn N KIB
 *                      the same with N distinct regions of KIB each (N
 *                      shared objects), each written with its own pattern
 *                      and pushed out; prints "PID CHILD". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

/* A child that maps what the parent mapped so far and waits (it dies
 * with the parent): the second sharer of each region.  Its pid, or -1. */
static pid_t sharer(void)
{
	pid_t c = fork();

	if (!c) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	return c;
}

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE), i, n, k;
	char *m;

	if (argc == 4 && !strcmp(argv[1], "maps")) {
		n = atol(argv[2]);
		k = atol(argv[3]);
		/* one reservation, then single pages over it with alternating
		 * protection: neighbours differ, so no two merge */
		m = mmap(0, (n + 1) * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return perror("mmap"), 1;
		for (i = 0; i < n; i++) {
			int prot = i & 1 ? PROT_READ | PROT_WRITE : PROT_READ;
			if (mmap(m + i * ps, ps, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				return perror("mmap fixed"), 1;
			if (i & 1)
				m[i * ps] = 1;
		}
		for (i = 0; i < k; i++) {
			char name[32];
			int fd;
			snprintf(name, sizeof name, "sr-maps-%ld", i);
			fd = syscall(SYS_memfd_create, name, 0);
			if (fd < 0 || ftruncate(fd, ps))
				return perror("memfd"), 1;
			m = mmap(0, ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (m == MAP_FAILED)
				return perror("mmap memfd"), 1;
			*m = 1;
			close(fd);
		}
		m = mmap(0, 8 * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return perror("mmap shared"), 1;
		memset(m, 3, 8 * ps);
		m = mmap(0, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return perror("mmap named"), 1;
		memset(m, 4, 3 * ps);
		prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)m, 3 * ps, (unsigned long)"sr-maps");
		printf("%d\n", (int)getpid());
	} else if (argc == 3 && !strcmp(argv[1], "swap")) {
		pid_t c;
		n = atol(argv[2]) * 1024 / ps;
		m = mmap(0, n * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return perror("mmap"), 1;
		for (i = 0; i < n * ps; i += sizeof(long))
			*(long *)(m + i) = i * 7919 + 1;
		if (madvise(m, n * ps, MADV_PAGEOUT))
			perror("madvise(MADV_PAGEOUT)");
		if ((c = sharer()) < 0)
			return perror("fork"), 1;
		printf("%d %d %lx\n", (int)getpid(), (int)c, (unsigned long)m);
	} else if (argc == 4 && !strcmp(argv[1], "swapn")) {
		pid_t c;
		n = atol(argv[2]);
		k = atol(argv[3]) * 1024;
		for (i = 0; i < n; i++) {
			long j;
			/* one page of PROT_NONE after each: neighbours never merge */
			m = mmap(0, k + ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED || mprotect(m + k, ps, PROT_NONE))
				return perror("mmap"), 1;
			for (j = 0; j < k; j += sizeof(long))
				*(long *)(m + j) = (i + 1) * 7919 + j;
			if (madvise(m, k, MADV_PAGEOUT))
				perror("madvise(MADV_PAGEOUT)");
		}
		if ((c = sharer()) < 0)
			return perror("fork"), 1;
		printf("%d %d\n", (int)getpid(), (int)c);
	} else {
		fprintf(stderr, "usage: sr-maps maps N K | sr-maps swap KIB | sr-maps swapn N KIB\n");
		return 2;
	}
	fflush(stdout);
	for (;;)
		pause();
}
