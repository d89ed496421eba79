/* out_: one buffered writer per fd, typed put-functions, and the four output
 * formats (table, json, kv, prom) with their escaping rules. */
#ifndef MB_OUT_H
#define MB_OUT_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "sc.h"       /* sat_mul for mb_mul */

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
void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
/* v / 10^dec with dec decimals, no floating point: out_fix(o, 1234, 2) = 12.34 */
void out_fix(struct out *o, int64_t v, int dec);
/* Right-align the next n bytes in width w (pads first). */
void out_pad(struct out *o, size_t n, int w);
int out_flush(struct out *o);

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
