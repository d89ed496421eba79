/* The one writer of diagnostics (diag.h): every message of membox, from a
 * parser's record or an applet's own words, takes the same form here. */
#include <string.h>
#include <unistd.h>
#include "msg.h"
#include "out.h"
#include "text.h"
#include "membox.h"

/* FNV-1a, continued from h */
static uint32_t hash(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* In a report of --every: whether a message of hash h was said by the
 * last report (then it is not said again); it is remembered for the next
 * one either way.  Beyond MB_SAID_MAX different messages, the others are
 * said every time. */
static int said_before_now(uint32_t h)
{
	uint32_t i, n = mb.said_now[0];

	if (mb.said_fd < 0)
		return 0;
	for (i = 1; i <= n && mb.said_now[i] != h; i++)
		;
	if (i > n && n < MB_SAID_MAX)
		mb.said_now[++mb.said_now[0]] = h;
	for (i = 1; i <= mb.said_before[0]; i++)
		if (mb.said_before[i] == h)
			return 1;
	return 0;
}

void mb_said_give(int fd) { mb.said_fd = fd; }

void mb_said_take(int fd)
{
	ssize_t k = read(fd, mb.said_before, sizeof mb.said_before);
	/* a report that ended without telling (killed): nothing is known */
	if (k < (ssize_t)sizeof *mb.said_before || mb.said_before[0] > MB_SAID_MAX ||
	    (size_t)k < (mb.said_before[0] + 1) * sizeof *mb.said_before)
		mb.said_before[0] = 0;
}

const char mb_why[] = "";

/* "membox: APPLET: WHAT[ line N][: WHY]": v the pieces of WHAT (at most
 * max bytes of them, written for a terminal), up to MB_WHY, then those of
 * WHY; without MB_WHY, WHAT is the first piece alone.  A message is known
 * by its text, as if written whole: the hash runs over the pieces. */
static void say(const char *const *v, size_t max, const unsigned long *line)
{
	const char *const *why, *const *end;
	uint32_t h = 2166136261u;
	size_t left = max, k;
	const char *const *p;

	for (why = v; *why && *why != mb_why; why++)
		;
	end = *why ? why++ : (why = v + 1);
	for (p = v; p < end; p++) {
		k = strnlen(*p, left);
		h = hash(h, *p, k);
		left -= k;
	}
	if (line)
		h = hash(h, line, sizeof *line);
	for (p = why; *p; p++)
		h = hash(h, *p, strlen(*p));
	if (said_before_now(h))
		return;
	out_s(&out2, "membox: ");
	if (strcmp(mb.applet, "membox")) {
		out_s(&out2, mb.applet);
		out_s(&out2, ": ");
	}
	for (p = v, left = max; p < end; p++) {
		k = strnlen(*p, left);
		out_safe(&out2, *p, k);
		left -= k;
	}
	if (line) {
		out_s(&out2, " line ");
		out_u64(&out2, *line);
	}
	if (*why)
		out_s(&out2, ": ");
	for (p = why; *p; p++)
		out_s(&out2, *p);
	out_c(&out2, '\n');
	out_flush(&out2);
}

static void msg(const char *what, const char *why)
{
	const char *v[] = { what, why, 0 };
	say(v, (size_t)-1, 0);
}

const char *mb_strerror(int err)
{
	switch (err) {
	case MB_ENOTREG: return "not a regular file";
	case MB_EESCAPE: return "leads outside the root";
	case MB_ESYMLINK: return "symbolic link (followed in a capture from Linux 5.6)";
	case MB_ETOOBIG: return "larger than MB_READ_MAX bytes: not read to its end";
	}
	return strerror(err);
}

void mb_warnv(const char *const *v) { say(v, (size_t)-1, 0); }
void mb_warn_errno(const char *what, int err) { msg(what, mb_strerror(err)); }
int mb_failv(const char *const *v) { say(v, (size_t)-1, 0); mb.failed = 1; return 1; }
int mb_fail_errno(const char *what, int err) { return mb_fail(what, mb_strerror(err)); }
int mb_fail_said(void) { mb.failed = 1; return 1; }

void mb_warn_line(const char *file, unsigned long line, const char *why)
{
	const char *v[] = { file, why, 0 };
	/* a file named with a line is one of ours: a path under the root */
	say(v, MB_PATH_MAX, &line);
}

int mb_fail_line(const char *file, unsigned long line, const char *why)
{
	mb_warn_line(file, line, why);
	mb.failed = 1;
	return 1;
}

void mb_warn_diag(const struct diag *d)
{
	const char *why = d->why ? d->why : mb_strerror(d->err);

	if (!mb_diag_set(d))
		return;
	if (d->line)
		mb_warn_line(d->file, d->line == MB_LINE0 ? 0 : d->line, why);
	else
		msg(d->file, why);
}

int mb_fail_diag(const struct diag *d)
{
	mb_warn_diag(d);
	mb.failed = 1;
	return 1;
}

void mb_warn_diags(const struct diag *d, unsigned n)
{
	while (n--)
		mb_warn_diag(d++);
}

int mb_failed(void) { return mb.failed; }
int mb_said_active(void) { return mb.said_fd >= 0; }

void mb_said_end(void)
{
	if (mb.said_fd < 0)
		return;
	(void)!write(mb.said_fd, mb.said_now, (mb.said_now[0] + 1) * sizeof *mb.said_now);
	close(mb.said_fd);
}
