/* Buffered writers for fd 1 and fd 2.  Every byte goes through out_mem,
 * so a failed write is seen once, here. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "out.h"

static char buf1[MB_OUT_BUF], buf2[MB_OUT_BUF];
struct out out1 = { .fd = 1, .buf = buf1 }, out2 = { .fd = 2, .buf = buf2 };

int out_flush(struct out *o)
{
	size_t done = 0;
	int flags = -1;

	while (!o->err && done < o->len) {
		ssize_t k;
		/* nonblock (a stop signal came): what the reader has room for
		 * is written, the rest fails with EAGAIN */
		if (o->nonblock && flags < 0 && (flags = fcntl(o->fd, F_GETFL)) >= 0)
			fcntl(o->fd, F_SETFL, flags | O_NONBLOCK);
		k = write(o->fd, o->buf + done, o->len - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			o->err = k < 0 ? errno : EIO;
		else
			done += k;
	}
	if (flags >= 0)
		fcntl(o->fd, F_SETFL, flags);
	o->len = 0;
	return o->err ? -1 : 0;
}

void out_mem(struct out *o, const char *s, size_t n)
{
	while (n) {
		size_t k = MB_OUT_BUF - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == MB_OUT_BUF)
			out_flush(o);
	}
}

void out_s(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}
void out_c(struct out *o, char c) { out_mem(o, &c, 1); }

void out_pad(struct out *o, size_t n, int w)
{
	while ((int)n < w--)
		out_c(o, ' ');
}
