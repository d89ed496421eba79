/* Text of numbers and strings: into the caller's buffer, or written to a
 * writer (out.h) with the escaping each format needs.  No state. */
#ifndef MB_TEXT_H
#define MB_TEXT_H
#include <stddef.h>
#include <stdint.h>
struct out;   /* out.h */

/* Decimal text of v into b (at least MB_U64_LEN bytes); returns the length. */
#define MB_U64_LEN 21
int u64_str(char *b, uint64_t v);
/* The same, ended by a NUL: b.  MB_U64(v) is v's text in a buffer of the
 * expression that uses it, for a message (msg.h). */
char *u64_z(char *b, uint64_t v);
#define MB_U64(v) u64_z((char[MB_U64_LEN]){ 0 }, (v))
/* At most n bytes of s into d, ended by a NUL: d (n + 1 bytes) */
char *mb_cut(char *d, const char *s, size_t n);
/* The text of v / 10^dec with dec (0 to 9) decimals into b (at least 32
 * bytes), as out_fix writes it; returns the length. */
int fix_str(char *b, uint64_t v, int dec);
/* Size text of v bytes in unit: 'b' bytes, 'k' KiB and 'm' MiB rounded to
 * nearest, 'h' IEC with one decimal below 10 (1.5M, 15M, 512B), into b (at
 * least 24 bytes); returns the length. */
int size_str(char *b, uint64_t v, int unit);
/* a, b and c one after another into d; returns the end (the NUL) */
char *mb_join(char *d, const char *a, const char *b, const char *c);
/* The i-th of the NUL-separated texts of s ("a\0b\0c"). */
const char *mb_nth(const char *s, unsigned i);
/* Length of the valid UTF-8 sequence at s (1-4), 0 when invalid. */
int utf8_len(const unsigned char *s, size_t n);

void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
/* v / 10^dec with dec decimals, no floating point: out_fix(o, 1234, 2) = 12.34 */
void out_fix(struct out *o, int64_t v, int dec);
static inline uint64_t out_mag(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* The one escaper of system strings, per format: invalid UTF-8 and
 * control characters are never written raw.  Returns display cells. */
enum out_escape { E_TERM, E_KV, E_JSON, E_PROM };
size_t out_esc(struct out *o, const char *s, size_t n, enum out_escape mode);
/* System strings for a terminal: control characters and invalid UTF-8
 * become '?'.  Returns the number of display cells written. */
size_t out_safe(struct out *o, const char *s, size_t n);
#endif
