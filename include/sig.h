/* sig_: a signal handler by the rt_sigaction system call.  musl's
 * sigaction() takes a lock and blocks every signal around the call for the
 * threads membox never starts (about 1 KiB of libc on each target). */
#ifndef MB_SIG_H
#define MB_SIG_H
#include <signal.h>

/* Handler h (a function, SIG_DFL or SIG_IGN) for sig, with the signals of
 * mask (0: none) blocked while it runs and the SA_ flags given (those of
 * sigaction but SA_SIGINFO and SA_RESTORER): 0 or -errno. */
int sig_set(int sig, void (*h)(int), const sigset_t *mask, int flags);
#endif
