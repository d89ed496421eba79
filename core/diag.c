/* The one writer of diagnostics (diag.h): every message of membox, from a
 * parser's record or an applet's own words, takes the same form here. */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "diag.h"
#include "out.h"
#include "rd.h"

const char *mb_applet = "membox";

/* "membox: APPLET: WHAT: why", WHAT n bytes and, with a line, " line N" */
static void say(const char *what, size_t n, const unsigned long *line, const char *why)
{
	out_s(&out2, "membox: ");
	if (strcmp(mb_applet, "membox")) {
		out_s(&out2, mb_applet);
		out_s(&out2, ": ");
	}
	out_safe(&out2, what, n);
	if (line) {
		out_s(&out2, " line ");
		out_u64(&out2, *line);
	}
	if (why) {
		out_s(&out2, ": ");
		out_s(&out2, why);
	}
	out_c(&out2, '\n');
	out_flush(&out2);
}

static void msg(const char *what, const char *why) { say(what, strlen(what), 0, why); }

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

void mb_warn(const char *what, const char *why) { msg(what, why); }
void mb_warn_errno(const char *what, int err) { msg(what, mb_strerror(err)); }
int mb_fail(const char *what, const char *why) { msg(what, why); return 1; }
int mb_fail_errno(const char *what, int err) { return mb_fail(what, mb_strerror(err)); }

void mb_warn_line(const char *file, unsigned long line, const char *why)
{
	size_t n = strlen(file);
	/* a file named with a line is one of ours: a path under the root */
	say(file, n < MB_PATH_MAX ? n : MB_PATH_MAX, &line, why);
}

int mb_fail_line(const char *file, unsigned long line, const char *why)
{
	mb_warn_line(file, line, why);
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
	return 1;
}

void mb_warn_diags(const struct diag *d, unsigned n)
{
	while (n--)
		mb_warn_diag(d++);
}

int mb_usage_error(const char *usage, const char *more)
{
	out_s(&out2, usage);
	out_s(&out2, more);
	out_flush(&out2);
	return 2;
}

int mb_exit_status(int status)
{
	if (rd_fd_exhausted())
		mb_warn("ran out of file descriptors (ulimit -n)", "files were left unread");
	if (out_flush(&out1) < 0) {
		mb_warn_errno("write error on standard output", out1.err);
		if (!status)
			status = 1;
	}
	if (fo != &out1 && out_flush(fo) < 0) {
		mb_warn_errno("write error on the report", fo->err);
		if (!status)
			status = 1;
	}
	out_flush(&out2);
	return status;
}

volatile sig_atomic_t mb_stop;

static void on_stop(int sig)
{
	mb_stop = sig;
}

void mb_catch_stop(void)
{
	/* no SA_RESTART: a write to a stalled reader, a sleep or an open of a
	 * FIFO returns EINTR, and the loop around it sees mb_stop */
	struct sigaction sa = { .sa_handler = on_stop }, was;
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	unsigned i;

	/* a signal ignored when membox started stays ignored (nohup, the
	 * SIGINT of a background job) */
	for (i = 0; i < sizeof stops / sizeof *stops; i++)
		if (!sigaction(stops[i], 0, &was) && was.sa_handler != SIG_IGN)
			sigaction(stops[i], &sa, 0);
}
