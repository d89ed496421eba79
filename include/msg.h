/* mb_: what membox says on stderr, in one place.  Parsers and readers say
 * nothing: they fill a struct diag (diag.h) and return; the applets hand
 * it here, which writes
 *   membox: APPLET: FILE[ line N]: why
 * as a warning, or as the failure that ends the applet (exit status 1). */
#ifndef MB_MSG_H
#define MB_MSG_H
#include <stdint.h>
#include "diag.h"
#include "text.h"

/* strerror(err), or the text of an MB_E error */
const char *mb_strerror(int err);
/* Write d as a warning when it is set. */
void mb_warn_diag(const struct diag *d);
/* Write d; returns 1, the exit status. */
int mb_fail_diag(const struct diag *d);
/* Each set record of d[0..n) as a warning, in that order. */
void mb_warn_diags(const struct diag *d, unsigned n);

/* The same for a message of the applet's own: "membox: APPLET: what: why"
 * (what alone when there is no why).  Each is a list of pieces, strings
 * written one after another (numbers through MB_U64, text.h): the first
 * is what and the rest the why, as in mb_warn(path, "not a directory");
 * or, with MB_WHY among them, those before it are what (written for a
 * terminal: a path, an argument) and those after it the why, as in
 * mb_warn(opt, " '", arg, "'", MB_WHY, "not a number").  A piece that is
 * 0 ends the list.  APPLET is mb.applet (membox.h), which cli_init sets. */
extern const char mb_why[];
#define MB_WHY mb_why
#define mb_warn(...) mb_warnv((const char *const[]){ __VA_ARGS__, 0 })
#define mb_fail(...) mb_failv((const char *const[]){ __VA_ARGS__, 0 })
void mb_warnv(const char *const *v);
int mb_failv(const char *const *v);   /* returns 1, the exit status */
void mb_warn_errno(const char *what, int err);    /* err > 0 */
int mb_fail_errno(const char *what, int err);
/* A failure already said (a parser's diag, warned): the run has failed,
 * so -O FILE is not replaced; returns 1, the exit status. */
int mb_fail_said(void);
/* "membox: APPLET: FILE line N: why" (as a warning, or failing with 1). */
void mb_warn_line(const char *file, unsigned long line, const char *why);
int mb_fail_line(const char *file, unsigned long line, const char *why);
/* What the end of a run (run.h) needs to know: whether a failure was said
 * (then -O FILE is not replaced) */
int mb_failed(void);
/* --every (run.h): each report runs in a process of its own and says only
 * the messages the last report did not (a message is its whole text: the
 * file, the line, the why).  The report's process gives fd, to which its
 * messages' hashes go at its end (mb_said_end); the loop takes them from
 * the other end of the pipe before the next report.  mb_said_active: this
 * is a report's process of --every. */
void mb_said_give(int fd);
void mb_said_take(int fd);
int mb_said_active(void);
void mb_said_end(void);
#endif
