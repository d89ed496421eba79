/* The line reader over a fixed buffer: files larger than the buffer, lines
 * longer than it (skipped and counted, never split), no trailing newline,
 * empty files; the one-number reader. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rd.h"
#include "t.h"

static int file(const char *s, size_t n)
{
	int fd = memfd_create("t", 0);
	if (write(fd, s, n) != (ssize_t)n)
		return -1;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static char big[20000];

int main(void)
{
	struct rd_lines r;
	char buf[16];
	const char *s;
	size_t n, i;
	int fd, k, lines = 0, bad = 0;

	fd = file("one\ntwo\n", 8);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("two lines: 1", rd_line(&r, &s, &n) == 1 && n == 3 && !memcmp(s, "one", 3));
	CHECK("two lines: 2", rd_line(&r, &s, &n) == 1 && n == 3 && !memcmp(s, "two", 3) && !r.nonl);
	CHECK("two lines: end", rd_line(&r, &s, &n) == 0 && r.line == 2);
	close(fd);

	fd = file("a\nno newline", 12);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	rd_line(&r, &s, &n);
	CHECK("no trailing newline: last line", rd_line(&r, &s, &n) == 1 && n == 10 && r.nonl);
	CHECK("no trailing newline: end", rd_line(&r, &s, &n) == 0);
	close(fd);

	fd = file("", 0);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("empty file", rd_line(&r, &s, &n) == 0 && r.line == 0);
	close(fd);

	/* a 40-byte line in a 16-byte buffer is skipped whole, the next kept */
	fd = file("short\n0123456789012345678901234567890123456789\nafter\n", 53);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	CHECK("long line: before", rd_line(&r, &s, &n) == 1 && n == 5);
	CHECK("long line: skipped, next kept", rd_line(&r, &s, &n) == 1 && n == 5 && !memcmp(s, "after", 5));
	CHECK("long line: counted", r.skipped == 1 && r.line == 3);
	close(fd);

	fd = file("x\n01234567890123456789012345", 28);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	rd_line(&r, &s, &n);
	CHECK("long last line without newline: skipped", rd_line(&r, &s, &n) == 0 && r.skipped == 1);
	close(fd);

	/* exactly the buffer's size: a 15-byte line plus newline still fits? no:
	 * lines up to cap-1 bytes plus '\n' are returned */
	fd = file("012345678901234\nz\n", 18);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	k = rd_line(&r, &s, &n);
	CHECK("line of cap-1 bytes is kept", k == 1 && n == 15);
	CHECK("line after it", rd_line(&r, &s, &n) == 1 && n == 1 && *s == 'z');
	close(fd);

	/* a file much larger than the buffer: 2000 lines "NNNN\n"-ish */
	for (i = 0, n = 0; i < 2000; i++) {
		memcpy(big + n, "line ", 5);
		big[n + 5] = '0' + i % 10;
		big[n + 6] = '\n';
		n += 7;
	}
	fd = file(big, n);
	rd_lines_fd(&r, fd, buf, sizeof buf);
	while (rd_line(&r, &s, &n) == 1) {
		if (n != 6 || s[5] != '0' + lines % 10)
			bad++;
		lines++;
	}
	CHECK("large file: every line", lines == 2000 && !bad && !r.skipped);
	close(fd);

	rd_lines_mem(&r, "m1\nm2", 5);
	CHECK("memory lines", rd_line(&r, &s, &n) == 1 && rd_line(&r, &s, &n) == 1 && n == 2 && rd_line(&r, &s, &n) == 0);
	return t_end_all();
}
