/* Scanners for the three line shapes of /proc: "Key: N kB", "name N" and
 * whitespace fields.  Numbers saturate and say so; nothing allocates. */
#include <string.h>
#include "sc.h"

int sc_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int rc = SC_OK;

	if (s >= end || (unsigned)(*s - '0') > 9)
		return SC_NONE;
	for (; s < end && (unsigned)(*s - '0') <= 9; s++) {
		unsigned d = *s - '0';
		/* UINT64_MAX is 1844674407370955161 * 10 + 5; no division */
		if (x > UINT64_MAX / 10 || (x == UINT64_MAX / 10 && d > UINT64_MAX % 10)) {
			x = UINT64_MAX;
			rc = SC_OVF;
		} else if (rc == SC_OK) {
			x = x * 10 + d;
		}
	}
	*p = s;
	*v = x;
	return rc;
}

int sc_i64(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	int neg = s < end && *s == '-';
	uint64_t u;
	int rc;

	s += neg;
	rc = sc_u64(&s, end, &u);
	if (rc == SC_NONE)
		return SC_NONE;
	if (!neg && u > (uint64_t)INT64_MAX) {
		*v = INT64_MAX;
		rc = SC_OVF;
	} else if (neg && u > (uint64_t)INT64_MAX + 1) {
		*v = INT64_MIN;
		rc = SC_OVF;
	} else {
		*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	}
	*p = s;
	return rc;
}

int sc_u64_all(const char *s, size_t n, uint64_t *v)
{
	const char *p = s;
	int rc = sc_u64(&p, s + n, v);
	return p == s + n ? rc : SC_NONE;
}

const char *sc_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int sc_field(const char **p, const char *end, const char **f, size_t *n)
{
	const char *s = *p, *b;

	while (s < end && is_space(*s))
		s++;
	if (s == end) {
		*p = s;
		return 0;
	}
	for (b = s; s < end && !is_space(*s); s++)
		;
	*f = b;
	*n = s - b;
	*p = s;
	return 1;
}

int sc_field_after(const char **p, const char *end, const char **f, size_t *n)
{
	const char *s = *p;

	if (s == end || !is_space(*s))
		return 0;
	for (*f = ++s; s < end && !is_space(*s); s++)
		;
	*n = s - *f;
	*p = s;
	return 1;
}

int sc_line(const char **p, const char *end, const char **s, size_t *n)
{
	const char *b = *p, *e;

	if (b >= end)
		return 0;
	if (!(e = memchr(b, '\n', end - b)))
		e = end;
	*s = b;
	*n = e - b;
	*p = e < end ? e + 1 : e;
	return 1;
}

int sc_eq(const char *s, size_t n, const char *k)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (k[i] != s[i] || !k[i])
			return 0;
	return k[n] == 0;
}

int sc_keynum(const char *s, size_t n, const char **key, size_t *klen,
              uint64_t *v, int *kb, int *rc)
{
	const char *end = s + n, *p = s;

	while (p < end && *p != ':' && *p != ' ' && *p != '\t')
		p++;
	if (p == s || p == end || *p != ':')
		return 0;
	*key = s;
	*klen = p - s;
	p = sc_blank(p + 1, end);
	*rc = sc_u64(&p, end, v);
	if (*rc == SC_NONE)
		return 0;
	p = sc_blank(p, end);
	*kb = end - p >= 2 && p[0] == 'k' && p[1] == 'B';
	if (*kb)
		p = sc_blank(p + 2, end);
	return p == end;
}

int sc_namenum(const char *s, size_t n, const char **name, size_t *nlen,
               uint64_t *v, int *rc)
{
	const char *end = s + n, *p = sc_blank(s, end), *b = p;

	while (p < end && *p != ' ' && *p != '\t')
		p++;
	if (p == b || p == end)
		return 0;
	*name = b;
	*nlen = p - b;
	p = sc_blank(p, end);
	*rc = sc_u64(&p, end, v);
	if (*rc == SC_NONE)
		return 0;
	return sc_blank(p, end) == end;
}

int sc_decimal(const char *p, const char *e, int dec, int loose, uint64_t *v)
{
	uint64_t ip = 0, f = 0;
	int d = 0, rc = sc_u64(&p, e, &ip);

	if (p < e && *p == '.' && (dec || loose))
		for (p++; p < e && (unsigned)(*p - '0') <= 9; p++)
			if (d < dec) {
				f = f * 10 + (*p - '0');
				d++;
			}
	if (p != e || rc == SC_OVF || (rc == SC_NONE && (!loose || !d)))
		return -1;
	for (; d < dec; d++)
		f *= 10;
	while (dec--)
		ip = sat_mul(ip, 10);
	*v = sat_add(ip, f);
	return 0;
}
