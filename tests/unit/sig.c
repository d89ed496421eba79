/* sig_set: a handler runs with its mask blocked and returns through the
 * restorer to where the program was (x86_64 and i386 need ours); SIG_IGN
 * and SIG_DFL; mb_flush_on_signals flushes stdout and dies of the signal. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sig.h"
#include "t.h"

static volatile sig_atomic_t hits, usr2_blocked;

static void on_usr1(int s)
{
	sigset_t now;
	sigprocmask(SIG_BLOCK, 0, &now);
	usr2_blocked = sigismember(&now, SIGUSR2) == 1;
	hits += s == SIGUSR1;
}

int main(void)
{
	sigset_t m, now;
	int p[2], ws = 0;
	char b[16];
	ssize_t n;
	pid_t pid = -1;
	volatile long after = 0;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	CHECK_EQ("set a handler", sig_set(SIGUSR1, on_usr1, &m, 0), 0);
	kill(getpid(), SIGUSR1);
	after = 42;     /* reached only if the handler returned through the restorer */
	CHECK_EQ("handler ran once", hits, 1);
	CHECK("its mask was blocked while it ran", usr2_blocked);
	CHECK_EQ("and the program went on", after, 42);
	sigprocmask(SIG_BLOCK, 0, &now);
	CHECK("the mask is restored after it", !sigismember(&now, SIGUSR2));
	kill(getpid(), SIGUSR1);
	CHECK_EQ("a second signal, the same handler", hits, 2);
	CHECK_EQ("no mask", sig_set(SIGUSR1, on_usr1, 0, SA_RESTART), 0);
	kill(getpid(), SIGUSR1);
	CHECK("no mask: SIGUSR2 not blocked in the handler", hits == 3 && !usr2_blocked);

	CHECK_EQ("SIG_IGN", sig_set(SIGUSR1, SIG_IGN, 0, 0), 0);
	kill(getpid(), SIGUSR1);
	CHECK_EQ("an ignored signal does not run the handler", hits, 3);
	CHECK_EQ("a bad signal number is an error", sig_set(0, SIG_DFL, 0, 0), -EINVAL);
	CHECK_EQ("SIGKILL cannot be caught", sig_set(SIGKILL, on_usr1, 0, 0), -EINVAL);

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
