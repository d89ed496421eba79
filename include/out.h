/* out_: one buffered writer per fd, typed put-functions, and the four output
 * formats (table, json, kv, prom) with their escaping rules. */
#ifndef MB_OUT_H
#define MB_OUT_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "sc.h"       /* sat_mul for mb_mul */

struct out {
	int fd;
	int err;          /* errno of the first failed write, then nothing more is written */
	size_t len;
	char *buf;        /* MB_OUT_BUF bytes */
};
extern struct out out1, out2;

void out_mem(struct out *o, const char *s, size_t n);
void out_s(struct out *o, const char *s);
void out_c(struct out *o, char c);
void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
/* v / 10^dec with dec decimals, no floating point: out_fix(o, 1234, 2) = 12.34 */
void out_fix(struct out *o, int64_t v, int dec);
/* Right-align the next n bytes in width w (pads first). */
void out_pad(struct out *o, size_t n, int w);
int out_flush(struct out *o);

/* -O FILE (--output): the report, everything the applet writes to out1
 * (vmstat-meter: its summary's writer), goes to a temporary file in FILE's directory (".FILE.membox.PID", mode
 * 0644), which replaces FILE only once it is written whole and on disk
 * (fsync, rename): a reader of FILE sees the previous report or this one,
 * never a part.  A FILE that is no regular file (/dev/null, a FIFO) is
 * written in place.  out_path is FILE, or 0 for standard output.
 * out_begin: the temporary file opened and o writing to it (its fd; out1
 * takes fd 1 back at the end); 0, or 1 with a message naming FILE.  out_end: with keep, the report flushed,
 * synced and renamed over FILE; without (a failure, a stop signal), the
 * temporary file removed and FILE left as it was; 0, or 1 with a message
 * naming FILE.  Both do nothing without -O or when no report is open
 * (out_pending says whether one is).  mb_exit_status ends one still open. */
extern const char *out_path;
int out_begin(struct out *o);
int out_end(int keep);
int out_pending(void);
/* out_s(fo, s) and out_c(fo, c): the report's writes with one argument less
 * at each of their many calls */
void fo_s(const char *s);
void fo_c(char c);

/* Decimal text of v into b (at least 21 bytes); returns the length. */
int u64_str(char *b, uint64_t v);
/* The text of v / 10^dec with dec (0 to 9) decimals into b (at least 32
 * bytes), as out_fix writes it; returns the length. */
int fix_str(char *b, uint64_t v, int dec);
/* a, b and c one after another into d; returns the end (the NUL) */
char *mb_join(char *d, const char *a, const char *b, const char *c);
/* The i-th of the NUL-separated texts of s ("a\0b\0c"). */
const char *mb_nth(const char *s, unsigned i);
/* Length of the valid UTF-8 sequence at s (1-4), 0 when invalid. */
int utf8_len(const unsigned char *s, size_t n);
/* System strings for a terminal: control characters and invalid UTF-8
 * become '?'.  Returns the number of display cells written. */
size_t out_safe(struct out *o, const char *s, size_t n);

/* ---- formats ---- */
enum { FMT_TABLE, FMT_JSON, FMT_KV, FMT_PROM };
extern int fmt;        /* -o */
extern int fmt_unit;   /* table sizes: 'b', 'k' (default), 'm', 'h' */
extern struct out *fo; /* where the report goes (stdout unless an applet says) */
int fmt_parse(const char *name);   /* -1 when unknown */

/* The one escaper of system strings, per format: invalid UTF-8 and
 * control characters are never written raw.  Returns display cells. */
enum out_escape { E_TERM, E_KV, E_JSON, E_PROM };
size_t out_esc(struct out *o, const char *s, size_t n, enum out_escape mode);
/* The one number writer: '-' when neg, m / 10^dec with dec decimals (or,
 * with dec OUT_SIZE, the size m in the table unit), right-aligned in w. */
#define OUT_SIZE (-1)
void out_num(struct out *o, int neg, uint64_t m, int dec, int w);
static inline uint64_t out_mag(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* Table cells: sizes in the -b/-k/-m/-h unit, right-aligned in w. */
void tb_size(uint64_t bytes, int w);
void tb_ssize(int64_t bytes, int w);
void tb_u64(uint64_t v, int w);
void tb_i64(int64_t v, int w);
void tb_fixu(uint64_t v, int dec, int w);   /* v / 10^dec as out_fix writes it */
void tb_str(const char *s, int w);    /* left-aligned, padded to w */
void tb_nl(void);
/* The unit word for table headers: "KiB", "MiB", "bytes", "" for -h */
const char *tb_unit(void);
#endif
