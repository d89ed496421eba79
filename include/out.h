/* out_: one buffered writer per fd.  It knows no formats and no messages:
 * what is written is text.h's and table.h's, and a failed write is an
 * errno in the writer that the end of the run (run.h) says. */
#ifndef MB_OUT_H
#define MB_OUT_H
#include <signal.h>
#include <stddef.h>
#include "bounds.h"

struct out {
	int fd;
	int err;          /* errno of the first failed write, then nothing more is written */
	size_t len;
	char *buf;        /* MB_OUT_BUF bytes */
	/* set (by a signal handler, run.h) once no write may block: out_flush
	 * then writes what the reader has room for and fails with EAGAIN for
	 * the rest */
	volatile sig_atomic_t nonblock;
};
extern struct out out1, out2;

void out_mem(struct out *o, const char *s, size_t n);
void out_s(struct out *o, const char *s);
void out_c(struct out *o, char c);
/* Right-align the next n bytes in width w (pads first). */
void out_pad(struct out *o, size_t n, int w);
int out_flush(struct out *o);

#endif
