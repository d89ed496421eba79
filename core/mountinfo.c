/* /proc/self/mountinfo: ten or more fields, a variable number of optional
 * fields before the "-" separator (proc(5)). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
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

int mountinfo_next(struct rd_lines *r, struct mnt *m, char *strbuf, size_t cap,
                   unsigned long *bad)
{
	const char *s, *p, *e, *g, *c;
	size_t n, gl;
	int k;

	while ((k = rd_line(r, &s, &n)) > 0) {
		char *b = strbuf;
		uint64_t v[4];
		long u = 0;
		int i, ok = 1;

		if (!n)   /* an empty line says nothing (capture fills a cut file with them) */
			continue;
		p = s;
		e = s + n;
		for (i = 0; i < 2 && ok; i++)
			ok = sc_field(&p, e, &g, &gl) && sc_u64_all(g, gl, &v[i]) == SC_OK;
		if (ok && sc_field(&p, e, &g, &gl)) {
			c = memchr(g, ':', gl);
			ok = c && sc_u64_all(g, c - g, &v[2]) == SC_OK &&
			     sc_u64_all(c + 1, g + gl - c - 1, &v[3]) == SC_OK;
		} else
			ok = 0;
		/* root, mount point, options, the optional fields up to "-",
		 * then fstype, source (empty where the mount was given "", as
		 * pasta and podman do: two blanks), super options */
		for (i = 0; i < 6 && ok; i++) {
			if (i == 3)
				while ((ok = sc_field(&p, e, &g, &gl)) && !sc_eq(g, gl, "-"))
					;
			ok = ok && (i == 4 ? sc_field_after(&p, e, &g, &gl) : sc_field(&p, e, &g, &gl)) &&
			     (u = unoctal(b, strbuf + cap - b, g, gl)) >= 0;
			m->str[i] = b;
			b += u + 1;
		}
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

const struct diag *mountinfo_diag(struct diag *d, const char *path, const struct rd_lines *r,
                                  int k, unsigned long bad)
{
	*d = (struct diag){ path, 0, 0, k < 0 ? -k : 0 };
	if (k < 0)
		return d;
	if (bad)
		d->why = "lines that did not parse were skipped";
	else if (r->nonl)
		d->why = "no final newline: its last line may be cut";
	return d;
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

int mnt_on(unsigned long long dev, unsigned major, unsigned minor)
{
	return major(dev) == major && minor(dev) == minor;
}

int mnt_statfs(int fd, unsigned major, unsigned minor, struct statfs *sf)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!mnt_on(st.st_dev, major, minor))
		return -EXDEV;
	return fstatfs(fd, sf) ? -errno : 0;
}

uint64_t mnt_used(const struct statfs *sf)
{
	return sat_mul(sf->f_blocks - sf->f_bfree, sf->f_frsize);
}
