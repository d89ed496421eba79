/* sc_: zero-copy scanners over a caller's buffer.  Nothing is copied or
 * NUL-terminated; every function takes [p, end) and moves *p forward. */
#ifndef MB_SC_H
#define MB_SC_H
#include <stddef.h>
#include <stdint.h>

enum { SC_NONE = -1, SC_OK = 0, SC_OVF = 1 };

/* Decimal digits at *p: SC_OK, SC_OVF (value saturated at UINT64_MAX, all
 * digits consumed) or SC_NONE (no digit; *p unchanged). */
int sc_u64(const char **p, const char *end, uint64_t *v);
/* Optional '-' then digits; saturates at INT64_MIN/INT64_MAX. */
int sc_i64(const char **p, const char *end, int64_t *v);
/* A whole field must be a number: digits and nothing else. */
int sc_u64_all(const char *s, size_t n, uint64_t *v);
/* Skip blanks (space, tab). */
const char *sc_blank(const char *p, const char *end);
/* Next whitespace-separated field; 0 at end of input. */
int sc_field(const char **p, const char *end, const char **f, size_t *n);
/* The field after exactly one blank at *p, which may be empty (two
 * blanks: mountinfo's source, printed as the mount was given); 0 when *p
 * is no blank. */
int sc_field_after(const char **p, const char *end, const char **f, size_t *n);
/* One line of [*p, end): the line without '\n'; 0 when nothing is left. */
int sc_line(const char **p, const char *end, const char **s, size_t *n);
/* Does [s, s+n) equal the C string k? */
int sc_eq(const char *s, size_t n, const char *k);

/* "Key:   N kB" (meminfo, status, smaps): key before ':', the number, and
 * whether a "kB" unit followed.  1 when the line has that shape, 0 when not
 * (a header line, text value); *rc gets sc_u64's result. */
int sc_keynum(const char *s, size_t n, const char **key, size_t *klen,
              uint64_t *v, int *kb, int *rc);
/* "name N" (vmstat, zoneinfo counters): 1 when the line has that shape. */
int sc_namenum(const char *s, size_t n, const char **name, size_t *nlen,
               uint64_t *v, int *rc);

/* Saturating arithmetic: sizes never wrap. */
static inline uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static inline uint64_t sat_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	/* gcc makes this an overflow check of the multiplication, no division */
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
/* Signed difference of two sizes, saturated at the int64 range. */
static inline int64_t sat_diff(uint64_t a, uint64_t b)
{
	if (a >= b) return a - b > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(a - b);
	return b - a > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(b - a);
}
/* [p, e) a decimal with up to dec fractional digits (more are cut), as
 * an integer times 10^dec, saturated: 0, or -1 when it is none or its
 * integer part is beyond 2^64.  loose: also "5." and ".5", and a fraction
 * (ignored) with dec 0.  For numbers in kernel files (psi.c); options
 * have cli_fix (cli.h). */
int sc_decimal(const char *p, const char *e, int dec, int loose, uint64_t *v);
#endif
