/* Fuzz the per-process parsers: status, smaps_rollup, smaps (streamed
 * through a small buffer) and cmdline. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct pr_mem m;
	static struct pr_status st;
	static char buf[257], cmd[4096];
	int fd;

	pr_status((const char *)d, n, &st);
	if (memchr(st.name, 0, sizeof st.name) == 0)
		__builtin_trap();
	pr_rollup((const char *)d, n, &m);
	fd = memfd_create("s", 0);
	if (fd < 0 || write(fd, d, n) != (ssize_t)n)
		__builtin_trap();
	lseek(fd, 0, SEEK_SET);
	pr_smaps(fd, &m, buf, sizeof buf);
	close(fd);
	if (n < sizeof cmd) {
		memcpy(cmd, d, n);
		if (pr_cmdline(cmd, n) > n)
			__builtin_trap();
	}
	return 0;
}
