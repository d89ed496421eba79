/* vm-majfault FILE N: at least N major page faults of this process.  A file
 * of N pages is written, fsync'd and dropped from the page cache
 * (posix_fadvise DONTNEED), mapped with MADV_RANDOM (no read-around), and
 * every page is read once.  Prints "pages N resident R majflt M": R pages
 * still cached before the reads (mincore), M major faults getrusage counted
 * during them.  Exit 77 when the pages stayed cached (tmpfs), 1 on errors. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE), n, i, res = 0;
	unsigned char *vec;
	volatile unsigned long sum = 0;
	struct rusage a, b;
	char *page, *m;
	int fd;

	if (argc != 3 || (n = atol(argv[2])) <= 0)
		return fprintf(stderr, "usage: vm-majfault FILE NPAGES\n"), 2;
	page = malloc(ps);
	vec = malloc(n);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (!page || !vec || fd < 0)
		return perror(argv[1]), 1;
	for (i = 0; i < n; i++) {
		memset(page, (int)(i % 251) + 1, ps);
		if (write(fd, page, ps) != ps)
			return perror("write"), 1;
	}
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return perror("fsync/fadvise"), 1;
	m = mmap(0, n * ps, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 1;
	madvise(m, n * ps, MADV_RANDOM);
	if (mincore(m, n * ps, vec))
		return perror("mincore"), 1;
	for (i = 0; i < n; i++)
		res += vec[i] & 1;
	getrusage(RUSAGE_SELF, &a);
	for (i = 0; i < n; i++)
		sum += (unsigned char)m[i * ps];
	getrusage(RUSAGE_SELF, &b);
	printf("pages %ld resident %ld majflt %ld\n", n, res, b.ru_majflt - a.ru_majflt + (long)(sum & 0));
	unlink(argv[1]);
	return res == n ? 77 : 0;
}
