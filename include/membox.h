/* mb: the process-wide state of the core, in one struct (as toybox's
 * `toys`).  What the options chose for the whole run, where the report
 * goes, and what the reader, the message writer and the end of a run must
 * remember between calls.  Each group names the module that keeps its
 * members; cli.c sets what the options give, and an applet may point
 * mb.fo at a writer of its own (or clear mb.out_path in a child).
 * Not here: an applet's own state (its GLOBALS block, applet.h) and the
 * two writers out1/out2 with their buffers (out.h).
 *
 * mb lives in the bss; the members that do not start at 0 get their
 * first value in core/membox.c, before main. */
#ifndef MB_MEMBOX_H
#define MB_MEMBOX_H
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include "bounds.h"
#include "rd.h"
#include "tree.h"

struct out;

struct membox {
	/* the options (cli.c) */
	const char *root_arg;     /* -R DIR or MEMBOX_ROOT; 0: none */
	uint64_t every_us;        /* --every, microseconds; 0: one report */
	uint64_t count;           /* --count, reports; 0: no end */

	/* the report: its format, unit and writer (table.c, cli.c sets them) */
	int fmt;                  /* -o: FMT_ of table.h */
	int fmt_unit;             /* table sizes: 'b', 'k' (first), 'm', 'h' */
	struct out *fo;           /* where the report goes: &out1 unless an applet says */
	int64_t stamp;            /* report.c: rep_stamp's milliseconds; 0: none */
	int prom_labels;          /* prom.c: labels written in the sample begun */
	struct tree_level tree_level[T_DEPTH];   /* tree.c: the open levels */
	int tree_depth;           /* tree.c: the innermost open level; -1: none */

	/* messages (diag.c) */
	const char *applet;       /* the applet's name in messages; "membox" before cli_init */
	int failed;               /* a failure was said: the report does not replace -O FILE */
	/* --every: hashes of the messages the last report said and of those
	 * this one said; [0] counts the hashes after it */
	uint32_t said_before[MB_SAID_MAX + 1], said_now[MB_SAID_MAX + 1];
	int said_fd;              /* where said_now goes at a report's end; -1: not one of --every */

	/* the root every path is read under (rd.c) */
	int root_fd;              /* its directory; AT_FDCWD: "/" not opened */
	const char *root_name;    /* as given ("/" first), for rd_root */
	int root_live;            /* it is the live "/", however spelt (1 first) */
	/* openat2: 0 not tried yet, 1 works, -1 missing (ENOSYS: before Linux
	 * 5.6, or a seccomp filter or emulator that does not know it) */
	int have_openat2;
	unsigned long fd_exhausted;   /* opens failed for want of a descriptor */
	rd_tap_fn *tap;           /* capture's: told of every open under the root */

	/* the end of a run (run.c) */
	volatile sig_atomic_t stop;   /* the stop signal that came (run_stop, a handler); 0: none */
	const char *out_path;     /* -O FILE; 0: standard output */
	int out_dir;              /* FILE's directory (O_PATH); -1: not opened */
	const char *out_base;     /* FILE's last component */
	int out_in_place;         /* FILE written as it is, appended to */
	int out_fdno;             /* FILE is membox's descriptor N: N, else -1 */
	struct out *out_file;     /* the writer whose fd is the report's file, or 0 */
	char out_tmp[NAME_MAX + 1];   /* the temporary file: ".FILE.membox.PID[.N]" */
};

extern struct membox mb;
#endif
