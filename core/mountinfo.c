/* /proc/self/mountinfo: ten or more fields, a variable number of optional
 * fields before the "-" separator (proc(5)). */
#include <string.h>
#include "mountinfo.h"
#include "sc.h"

long unoctal(char *d, size_t cap, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 3 < n &&
		    (unsigned)(s[i + 1] - '0') < 4 && (unsigned)(s[i + 2] - '0') < 8 &&
		    (unsigned)(s[i + 3] - '0') < 8) {
			c = (s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0');
			i += 3;
		}
		if (o + 1 >= cap || !c)   /* a NUL (raw or \000) would cut the string */
			return -1;
		d[o++] = c;
	}
	d[o] = 0;
	return o;
}

static int put(char **dst, char **b, char *e, const char *s, size_t n)
{
	long k = unoctal(*b, e - *b, s, n);
	if (k < 0)
		return -1;
	*dst = *b;
	*b += k + 1;
	return 0;
}

int mountinfo_next(struct rd_lines *r, struct mnt *m, char *strbuf, size_t cap,
                   unsigned long *bad)
{
	const char *s, *p, *e, *f[6];
	size_t n, fl[6];
	int k;

	while ((k = rd_line(r, &s, &n)) > 0) {
		char *b = strbuf, *be = strbuf + cap;
		uint64_t v[4];
		const char *g;
		size_t gl;
		int i, ok = 1;

		p = s;
		e = s + n;
		for (i = 0; i < 2 && ok; i++)
			ok = sc_field(&p, e, &g, &gl) && sc_u64_all(g, gl, &v[i]) == SC_OK;
		if (ok && sc_field(&p, e, &g, &gl)) {
			const char *c = memchr(g, ':', gl);
			ok = c && sc_u64_all(g, c - g, &v[2]) == SC_OK &&
			     sc_u64_all(c + 1, g + gl - c - 1, &v[3]) == SC_OK;
		} else
			ok = 0;
		for (i = 0; i < 3 && ok; i++)   /* root, mount point, options */
			ok = sc_field(&p, e, &f[i], &fl[i]);
		while (ok && (ok = sc_field(&p, e, &g, &gl)) && !sc_eq(g, gl, "-"))
			;
		for (i = 3; i < 6 && ok; i++)   /* fstype, source, super options */
			ok = sc_field(&p, e, &f[i], &fl[i]);
		if (ok)
			ok = !put((char **)&m->root, &b, be, f[0], fl[0]) &&
			     !put((char **)&m->point, &b, be, f[1], fl[1]) &&
			     !put((char **)&m->opts, &b, be, f[2], fl[2]) &&
			     !put((char **)&m->fstype, &b, be, f[3], fl[3]) &&
			     !put((char **)&m->source, &b, be, f[4], fl[4]) &&
			     !put((char **)&m->super, &b, be, f[5], fl[5]);
		if (!ok) {
			++*bad;
			continue;
		}
		m->id = v[0];
		m->parent = v[1];
		m->major = v[2];
		m->minor = v[3];
		return 1;
	}
	*bad += r->skipped;
	r->skipped = 0;
	return k;
}

int opt_value(const char *opts, const char *key, const char **v, size_t *n)
{
	size_t kl = strlen(key);
	const char *p = opts;

	while (*p) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l >= kl && !memcmp(p, key, kl) && (l == kl || p[kl] == '=')) {
			*v = l == kl ? p + l : p + kl + 1;
			*n = l == kl ? 0 : l - kl - 1;
			return 1;
		}
		p += l + (c != 0);
	}
	return 0;
}
