/* td-pageout FILE...: each tmpfs file mapped shared, every page read (so
 * that it is mapped), then pushed towards swap with madvise(MADV_PAGEOUT)
 * (Linux 5.4+).  How many pages went out is for the caller to measure
 * (cachestat, /proc/swaps): the kernel may keep some.  Exit 1 when a file
 * cannot be mapped or the advice is refused. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 1; i < argc; i++) {
		struct stat sb;
		char *m;
		off_t o;
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0 || fstat(fd, &sb) < 0)
			return perror(argv[i]), 1;
		if (!sb.st_size) {
			close(fd);
			continue;
		}
		m = mmap(0, sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			return perror(argv[i]), 1;
		for (o = 0; o < sb.st_size; o += ps)
			(void)*(volatile const char *)(m + o);   /* maps the page */
		if (madvise(m, sb.st_size, MADV_PAGEOUT))
			return perror("madvise"), 1;
		munmap(m, sb.st_size);
		close(fd);
	}
	return 0;
}
