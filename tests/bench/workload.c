/* Bench workloads, each ends when killed:
 *   workload sleepers N [KIB]   N children sharing a 4 MiB shared-anonymous
 *                           region, each with KIB private KiB (default
 *                           1024), all touched
 *   workload maps N         one process with N separate mappings
 *   workload files DIR N    N files of 1..8 KiB in DIR/dNN/ (then exits)
 *   workload pageout FILE...  each file's pages read through a shared
 *                           mapping, then pushed to swap (MADV_PAGEOUT) */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[argc - 1]) : 100, i;
	long own_kib = 1024;

	if (argc > 1 && !strcmp(argv[1], "sleepers")) {
		if (argc > 3) {
			n = atol(argv[2]);
			own_kib = atol(argv[3]);
		}
		char *shared = mmap(0, 4 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		memset(shared, 1, 4 << 20);
		for (i = 0; i < n; i++)
			if (fork() == 0) {
				char *own = mmap(0, own_kib << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				memset(own, 2, own_kib << 10);
				for (long j = 0; j < 4 << 20; j += 4096)
					(void)*(volatile char *)(shared + j);
				pause();
				_exit(0);
			}
		printf("ready\n");
		fflush(stdout);
		pause();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "maps")) {
		/* alternate protections so that neighbours never merge */
		for (i = 0; i < n; i++) {
			char *p = mmap(0, 4096, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
			               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return 1;
			if (i % 2 == 0)
				*p = 1;
		}
		printf("ready\n");
		fflush(stdout);
		pause();
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "files")) {
		char path[4096], data[8192];
		memset(data, 'x', sizeof data);
		for (i = 0; i < n; i++) {
			int fd;
			if (i % 1000 == 0) {
				snprintf(path, sizeof path, "%s/d%ld", argv[2], i / 1000);
				mkdir(path, 0755);
			}
			snprintf(path, sizeof path, "%s/d%ld/f%ld", argv[2], i / 1000, i);
			fd = open(path, O_CREAT | O_WRONLY, 0644);
			if (fd < 0 || write(fd, data, 1024 + (i % 8) * 1024) < 0)
				return 1;
			close(fd);
		}
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "pageout")) {
		for (i = 2; i < argc; i++) {
			struct stat sb;
			char *m;
			off_t o;
			int fd = open(argv[i], O_RDONLY);
			if (fd < 0 || fstat(fd, &sb) < 0 || !sb.st_size)
				return 1;
			m = mmap(0, sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
			if (m == MAP_FAILED)
				return 1;
			for (o = 0; o < sb.st_size; o += 4096)
				(void)*(volatile const char *)(m + o);   /* maps the page */
			if (madvise(m, sb.st_size, 21 /* MADV_PAGEOUT */))
				return 1;
			munmap(m, sb.st_size);
			close(fd);
		}
		return 0;
	}
	fprintf(stderr, "usage: workload sleepers N | maps N | files DIR N | pageout FILE...\n");
	return 2;
}
