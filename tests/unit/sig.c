/* mb_catch_stop: a writer blocked on a reader that does not read gives up
 * when SIGTERM arrives (out_flush fails with EAGAIN once no write may block,
 * mb.stop names the signal), so a long-running mode can end its report
 * instead of hanging; the descriptor's flags are left as they were. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "membox.h"
#include "msg.h"
#include "run.h"
#include "t.h"

int unit_sig(void)
{
	int p[2], ws = 0, queued = 0, size, tries;
	char b[MB_OUT_BUF] = { 0 };
	pid_t pid = -1;

	out_flush(&out1);
	if (pipe(p) < 0 || (size = fcntl(p[0], F_GETPIPE_SZ)) <= 0 || (pid = fork()) < 0)
		return CHECK("pipe and fork", 0), unit_end_all();
	if (!pid) {
		/* fill the pipe until a write blocks; only SIGTERM ends it */
		close(p[0]);
		out1.fd = p[1];
		mb_catch_stop();
		while (!out1.err)
			out_mem(&out1, b, sizeof b);
		_exit(out1.err == EAGAIN && mb.stop == SIGTERM && !(fcntl(p[1], F_GETFL) & O_NONBLOCK) ? 7 : 1);
	}
	close(p[1]);
	/* the handler is in place once the first bytes arrive; the pipe full,
	 * the child is blocked in write (give it a moment to get there) */
	for (tries = 0; tries < 1000 && queued < size; tries++) {
		usleep(10 * 1000);
		if (ioctl(p[0], FIONREAD, &queued) < 0)
			break;
	}
	usleep(50 * 1000);
	kill(pid, SIGTERM);
	waitpid(pid, &ws, 0);
	CHECK("the blocked writer ended on SIGTERM with EAGAIN, flags restored",
	      WIFEXITED(ws) && WEXITSTATUS(ws) == 7);
	close(p[0]);
	return unit_end_all();
}
