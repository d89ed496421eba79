/* Fuzz the line reader: the input through a memfd and a buffer of 1..64
 * bytes (first byte), every line must lie inside the buffer and contain no
 * newline; kept + skipped lines account for every newline. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rd.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static char buf[64];
	struct rd_lines r;
	const char *s;
	size_t len, i, nl = 0, got = 0;
	int fd;

	if (!n)
		return 0;
	fd = memfd_create("f", 0);
	if (fd < 0 || write(fd, d + 1, n - 1) != (ssize_t)(n - 1))
		__builtin_trap();
	lseek(fd, 0, SEEK_SET);
	rd_lines_fd(&r, fd, buf, 1 + d[0] % sizeof buf);
	while (rd_line(&r, &s, &len) == 1) {
		if (s < buf || s + len > buf + sizeof buf || memchr(s, '\n', len))
			__builtin_trap();
		got++;
	}
	for (i = 1; i < n; i++)
		nl += d[i] == '\n';
	if (got + r.skipped != r.line || r.line < nl || r.line > nl + 1)
		__builtin_trap();
	close(fd);
	return 0;
}
