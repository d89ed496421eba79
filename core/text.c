/* Text of numbers and strings (text.h). */
#include <string.h>
#include "out.h"
#include "text.h"

int u64_str(char *b, uint64_t v)
{
	char t[20];
	int n = 0, i;

	do
		t[n++] = '0' + v % 10;
	while ((v /= 10));
	for (i = 0; i < n; i++)
		b[i] = t[n - 1 - i];
	return n;
}

char *u64_z(char *b, uint64_t v)
{
	b[u64_str(b, v)] = 0;
	return b;
}

char *mb_cut(char *d, const char *s, size_t n)
{
	n = strnlen(s, n);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

int fix_str(char *b, uint64_t v, int dec)
{
	char t[21];
	int n = u64_str(t, v), z, i, k = 0;

	/* zeros in front to have a digit before the point: 5 with dec 2 is 0.05 */
	z = n > dec ? 0 : dec + 1 - n;
	for (i = 0; i < z + n; i++) {
		if (i == z + n - dec)
			b[k++] = '.';
		b[k++] = i < z ? '0' : t[i - z];
	}
	return k;
}

int size_str(char *b, uint64_t v, int unit)
{
	static const char units[] = "BKMGTPE";
	uint64_t q = v;
	unsigned e = 0, t;
	int n, i = 0;

	switch (unit) {
	case 'b': return u64_str(b, v);
	case 'k': return u64_str(b, v / 1024 + (v % 1024 >= 512));
	case 'm': return u64_str(b, v / 1048576 + (v % 1048576 >= 524288));
	}
	if (v < 1024) {
		n = u64_str(b, v);
		b[n++] = 'B';
		return n;
	}
	/* t: tenths of the unit 2^(10 i), rounded half up.  Step by step, q is
	 * v >> 10 i and e is 20 (v mod 2^(10 i)) / 2^(10 i) rounded down (the
	 * first decimal and the half below it): exact, and but for q's shift
	 * all in 32 bits */
	do {
		e = (20 * (unsigned)(q & 1023) + e) >> 10;
		q >>= 10;
		t = 10 * (unsigned)q + (e + 1) / 2;
	} while (++i < 6 && (q > 1023 || t >= 10240));
	if (t < 100) {
		n = u64_str(b, t / 10);
		b[n++] = '.';
		b[n++] = '0' + t % 10;
	} else {
		n = u64_str(b, (t + 5) / 10);
	}
	b[n++] = units[i];
	return n;
}

/* the text of v / 10^dec, '-' first when neg */
static void put_fix(struct out *o, int neg, uint64_t m, int dec)
{
	char b[33];
	int n = fix_str(b + 1, m, dec) + neg;

	b[0] = '-';
	out_mem(o, b + !neg, n);
}

void out_u64(struct out *o, uint64_t v) { put_fix(o, 0, v, 0); }
void out_i64(struct out *o, int64_t v) { put_fix(o, v < 0, out_mag(v), 0); }
void out_fix(struct out *o, int64_t v, int dec) { put_fix(o, v < 0, out_mag(v), dec); }

char *mb_join(char *d, const char *a, const char *b, const char *c)
{
	return stpcpy(stpcpy(stpcpy(d, a), b), c);
}

const char *mb_nth(const char *s, unsigned i)
{
	while (i--)
		s += strlen(s) + 1;
	return s;
}

int utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], k, i, cp;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	k = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < k)
		return 0;
	cp = c & (0x3f >> (k - 1));
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k;
}

/* A character never to be written raw: C0, DEL, C1 (U+0080..U+009F). */
static int is_ctl(const unsigned char *s, int k)
{
	return (k == 1 && (s[0] < 0x20 || s[0] == 0x7f)) || (k == 2 && s[0] == 0xc2 && s[1] < 0xa0);
}

/* The one escaper: system strings for a terminal (E_TERM), sh (E_KV),
 * json (E_JSON) and Prometheus labels (E_PROM).  Invalid UTF-8 and control
 * characters (C0, DEL, C1) are never written raw.  Returns display cells. */
size_t out_esc(struct out *o, const char *s, size_t n, enum out_escape mode)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	size_t cells = 0;

	for (; p < e; cells++) {
		int k = utf8_len(p, e - p);
		unsigned c = k == 2 ? p[1] : p[0];
		if (!k) {
			if (mode == E_JSON)
				out_s(o, "\\ufffd");
			else if (mode == E_PROM)
				out_s(o, "\xef\xbf\xbd");
			else
				out_c(o, '?');
			p++;
			continue;
		}
		/* on a terminal also the bidi embeddings, overrides and isolates
		 * (U+202A..U+202E, U+2066..U+2069), which reorder what follows */
		if (is_ctl(p, k) || (mode == E_TERM && k == 3 && p[0] == 0xe2 &&
		    (p[1] == 0x80 ? p[2] - 0xaau < 5 : p[1] == 0x81 && p[2] - 0xa6u < 4))) {
			/* json: \n \t \r or \u00XX; prom: \n, the one it knows */
			if (mode == E_JSON || (mode == E_PROM && c == '\n')) {
				char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
				if (c == '\n' || c == '\t' || c == '\r') {
					u[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
					out_mem(o, u, 2);
				} else {
					out_mem(o, u, 6);
				}
			} else {
				out_c(o, '?');
			}
		} else if (mode == E_KV && c == '\'') {
			out_s(o, "'\\''");
		} else {
			if (mode >= E_JSON && (c == '"' || c == '\\'))
				out_c(o, '\\');
			out_mem(o, (const char *)p, k);
		}
		p += k;
	}
	return cells;
}

size_t out_safe(struct out *o, const char *s, size_t n) { return out_esc(o, s, n, E_TERM); }
