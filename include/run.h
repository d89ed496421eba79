/* run_: the end of a run, in one place.  A stop signal, the -O FILE
 * report (begun, then committed or removed), the exit status and the
 * --every loop all decide how a run ends, so one module owns them; it
 * writes through out.h and says what went wrong through msg.h. */
#ifndef MB_RUN_H
#define MB_RUN_H
#include <signal.h>
#include <stdint.h>
#include "out.h"

/* The long-running modes (a watch, a wait, a meter) end cleanly on SIGINT,
 * SIGTERM and SIGHUP: mb_catch_stop installs a handler that sets mb.stop to
 * the signal, without SA_RESTART, so that a blocked write, sleep or open
 * returns EINTR.  From then on no write blocks: the writers are switched to
 * nonblocking (out.h), so the applet's loop can end its report without
 * hanging on a stalled reader.  Until mb_catch_stop is called a signal
 * kills, as by default; one ignored when membox started (nohup) stays
 * ignored.  An applet with a handler of its own calls run_stop(sig) in it:
 * async-signal-safe, it does what mb_catch_stop's handler does. */
void mb_catch_stop(void);
void run_stop(int sig);

/* -O FILE (--output): the report, everything the applet writes to out1
 * (vmstat-meter: its summary's writer), goes to a temporary file in FILE's
 * directory (".FILE.membox.PID", mode 0644), which replaces FILE only once
 * it is written whole and on disk (fsync, rename): a reader of FILE sees
 * the previous report or this one, never a part.  A FILE that is no
 * regular file (/dev/null, a FIFO), or that is or leads through links to
 * a file of /proc, /sys or /dev (/dev/stdout, /proc/self/fd/N), is
 * written in place, appended to, never renamed over; membox's own
 * descriptor N through a dup of it.  mb.out_path (membox.h) is FILE,
 * or 0 for standard output.
 * out_begin: the temporary file opened and o writing to it (its fd; out1
 * takes fd 1 back at the end); 0, or 1 with a message naming FILE.
 * out_end: with keep, the report flushed, synced and renamed over FILE;
 * without (a failure, a stop signal), the temporary file removed and FILE
 * left as it was; 0, or 1 with a message naming FILE.  Both do nothing
 * without -O or when no report is open (out_pending says whether one is).
 * mb_exit_status ends one still open. */
int out_begin(struct out *o);
int out_end(int keep);
int out_pending(void);

/* The end of a run: -O FILE replaced unless a failure was said or a stop
 * signal came (then status 1 unless the applet gave another), stdout and
 * stderr flushed; a failed write turns status into 1. */
int mb_exit_status(int status);

/* Where the report begins: the --output file opened, 0; or 1 after a
 * failure.  With every_us (--every, microseconds) this is a loop that
 * forks a process for each report, in which it returns 0, so every report
 * starts from the state the options left; the loop itself never returns:
 * it exits, 0 after a stop signal or count reports (0: no end), else with
 * the last report's status. */
int run_reports(uint64_t every_us, uint64_t count);
#endif
