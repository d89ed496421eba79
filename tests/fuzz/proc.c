/* Fuzz the per-process parsers: status, smaps_rollup, smaps (streamed
 * through a small buffer), smaps header lines and their kinds, cmdline,
 * and /proc/sysvipc/shm segment by segment. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"

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
	{
		const char *p = (const char *)d, *s;
		size_t l;
		struct pr_map h;
		while (sc_line(&p, (const char *)d + n, &s, &l))
			if (pr_maphdr(s, l, &h) && (h.path < s || h.path + h.plen != s + l ||
			                             (unsigned)pr_mapkind(&h, l & 1) > PK_OTHER))
				__builtin_trap();
	}
	{
		static const char *const col[6] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
		struct rd_lines r;
		struct shm_it it = { .r = &r, .col = col, .n = 6 };
		uint64_t v[6];
		rd_lines_mem(&r, (const char *)d, n);
		while (shm_next(&it, v) > 0)
			;
	}
	if (n < sizeof cmd) {
		memcpy(cmd, d, n);
		if (pr_cmdline(cmd, n) > n)
			__builtin_trap();
	}
	return 0;
}
