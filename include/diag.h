/* The record of what went wrong, which parsers and readers fill and
 * return: they say nothing themselves (they never include msg.h).  The
 * applets hand it to msg.h, which writes it. */
#ifndef MB_DIAG_H
#define MB_DIAG_H
#include <stdint.h>
#include "bounds.h"

struct diag {
	const char *file;     /* the path as the user should see it ("/proc/meminfo") */
	unsigned long line;   /* from 1; 0: about the file as a whole;
	                         MB_LINE0: "line 0" (an empty zoneinfo's) */
	const char *why;      /* a fixed text; 0: err's text */
	int err;              /* a positive errno, or 0 */
};
#define MB_LINE0 (~0ul)
/* Errors of membox's own, for what no errno says: numbers above the
 * kernel's (which end at 4095), returned negated like an errno by the
 * readers (rd.h) and put in a record's err; mb_strerror says them. */
enum {
	MB_ENOTREG = 4096,  /* "not a regular file": a FIFO, device, socket */
	MB_EESCAPE,         /* "leads outside the root": "..", an absolute link */
	MB_ESYMLINK,        /* "symbolic link (followed in a capture from Linux 5.6)" */
	MB_ETOOBIG,         /* "larger than MB_READ_MAX bytes: not read to its end" */
};
/* A record says something when it has a why or an err; a clear one is
 * written by nobody. */
static inline int mb_diag_set(const struct diag *d) { return d->why || d->err; }

#endif
