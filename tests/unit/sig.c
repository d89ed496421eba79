/* mb_flush_on_signals: a report still in the buffer is written when a
 * terminating signal arrives, and the process dies of that signal. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diag.h"
#include "t.h"

int main(void)
{
	int p[2], ws = 0;
	char b[16];
	ssize_t n;
	pid_t pid = -1;

	/* A child with its report in the buffer, killed by SIGTERM: the report
	 * is written, and the child dies of SIGTERM (status as if never caught). */
	out_flush(&out1);
	if (pipe(p) < 0 || (pid = fork()) < 0)
		return CHECK("pipe and fork", 0), t_end_all();
	if (!pid) {
		close(p[0]);
		out1.fd = p[1];
		mb_flush_on_signals();
		out_s(&out1, "report");
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], b, sizeof b);
	waitpid(pid, &ws, 0);
	CHECK_STR("flushed on SIGTERM", b, n < 0 ? 0 : (size_t)n, "report");
	CHECK("and died of it", WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM);
	return t_end_all();
}
