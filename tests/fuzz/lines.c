/* Fuzz the line reader: the input through a memfd and a buffer of 1..64
 * bytes (first byte) with a byte bound of 1..255 bytes or none (second
 * byte, 0: MB_READ_MAX); every line must lie inside the buffer and contain
 * no newline; kept + skipped lines account for every newline within the
 * bound, and a file beyond the bound ends in -MB_ETOOBIG, never in a line
 * cut at the bound. */
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
	size_t len, i, nl = 0, got = 0, max, body;
	int fd, k;

	if (n < 2)
		return 0;
	fd = memfd_create("f", 0);
	body = n - 2;
	if (fd < 0 || write(fd, d + 2, body) != (ssize_t)body)
		__builtin_trap();
	lseek(fd, 0, SEEK_SET);
	rd_lines_fd(&r, fd, buf, 1 + d[0] % sizeof buf);
	max = d[1] ? d[1] : MB_READ_MAX;
	r.max = max;
	while ((k = rd_line(&r, &s, &len)) == 1) {
		if (s < buf || s + len > buf + sizeof buf || memchr(s, '\n', len))
			__builtin_trap();
		got++;
	}
	for (i = 0; i < body && i < max; i++)
		nl += d[2 + i] == '\n';
	if (got + r.skipped != r.line)
		__builtin_trap();
	if (body > max ? k != -MB_ETOOBIG || r.line != nl :
	                 k != 0 || r.line < nl || r.line > nl + 1)
		__builtin_trap();
	close(fd);
	return 0;
}
