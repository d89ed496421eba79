/* The memory cgroup of a process, its directory and its files
 * (include/cgroup.h). */
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "rd.h"
#include "sc.h"

static int has_memory(const char *list, size_t n)
{
	const char *p = list, *e = list + n, *c;

	for (; p < e; p = c + 1) {
		if (!(c = memchr(p, ',', e - p)))
			c = e;
		if (c - p == 6 && !memcmp(p, "memory", 6))
			return 1;
	}
	return 0;
}

void cg_mount(struct cg_hier *h, const struct mnt *m)
{
	const char *v;
	size_t n;
	int version = 0;

	if (!strcmp(m->fstype, "cgroup") && opt_value(m->super, "memory", &v, &n))
		version = 1;
	else if (!strcmp(m->fstype, "cgroup2"))
		version = 2;
	/* v1 over v2; of one version, a mount of the whole hierarchy */
	if (!version || (h->version == 1 && version == 2) ||
	    (h->version == version && (!strcmp(h->root, "/") || strcmp(m->root, "/"))))
		return;
	if (strlen(m->point) >= sizeof h->point || strlen(m->root) >= sizeof h->root)
		return;
	h->version = version;
	strcpy(h->point, m->point);
	strcpy(h->root, m->root);
}

int cg_find(struct cg_hier *h, char *strbuf, size_t cap)
{
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	char line[MB_LINE_MAX];
	int fd = rd_lines_open(&r, "/proc/self/mountinfo", line, sizeof line), k;

	h->version = 0;
	if (fd < 0)
		return fd;
	while ((k = mountinfo_next(&r, &m, strbuf, cap, &bad)) > 0)
		cg_mount(h, &m);
	close(fd);
	return k < 0 ? k : h->version;
}

/* The end of the "ID:CONTROLLERS:" that starts the line [l, e) (its
 * second ':'), or 0: the line is not a hierarchy's but the rest of a path
 * with a newline in it (the kernel prints paths raw). */
static const char *hierarchy_line(const char *l, const char *e)
{
	const char *p = l;

	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (p == l || p == e || *p != ':')
		return 0;
	for (p++; p < e && *p != ':' && *p != '\n'; p++)
		;
	return p < e && *p == ':' ? p : 0;
}

int cg_parse(const char *s, size_t n, int cut, int want, const char **path, size_t *len)
{
	const char *e = s + n, *l, *nl, *c1, *c2, *at[3] = { 0 }, *end[3] = { 0 };
	int in = 0;

	if (cut) {   /* only what a whole "ID:...:" after it ends */
		for (l = e; l > s && !(l[-1] == '\n' && hierarchy_line(l, e)); l--)
			;
		e = l > s ? l - 1 : s;
	} else if (n && e[-1] == '\n') {   /* the last line's newline */
		e--;
	}
	for (l = s; l < e; l = nl + 1) {
		if (!(nl = memchr(l, '\n', e - l)))
			nl = e;
		if (!(c2 = hierarchy_line(l, nl))) {
			if (in)   /* a newline in the path: it goes on */
				end[in] = nl;
			continue;
		}
		c1 = memchr(l, ':', c2 - l);
		in = 0;
		if (want != 2 && has_memory(c1 + 1, c2 - c1 - 1))
			in = 1;
		else if (want != 1 && c1 - l == 1 && *l == '0' && c2 == c1 + 1)
			in = 2;
		if (at[in])   /* the first line of a version counts */
			in = 0;
		at[in] = c2 + 1;
		end[in] = nl;
	}
	in = at[1] ? 1 : at[2] ? 2 : 0;
	if (!in)
		return 0;
	*path = at[in];
	*len = end[in] - at[in];
	return in;
}

long cg_dir(const struct cg_hier *h, const char *path, size_t len, char *out, size_t cap)
{
	size_t rl = strlen(h->root), pl = strlen(h->point);

	if (!h->version || !len || *path != '/')
		return -1;
	/* the mount's root "/" is a prefix of every path; another must
	 * match whole components */
	if (rl == 1)
		rl = 0;
	if (len < rl || memcmp(path, h->root, rl) || (len > rl && path[rl] != '/'))
		return -1;
	path += rl;
	len -= rl;
	if (len == 1)   /* the hierarchy's root: the mount point itself */
		len = 0;
	if (pl == 1 && len)   /* mounted on "/" (a container's own view) */
		pl = 0;
	if (pl + len + 1 > cap)
		return -1;
	memcpy(out, h->point, pl);
	memcpy(out + pl, path, len);
	out[pl + len] = 0;
	return pl + len;
}

static const char *const file_names[2][CG_FILES] = {
	{ "memory.usage_in_bytes", "memory.memsw.usage_in_bytes", "memory.limit_in_bytes", 0,
	  "memory.kmem.usage_in_bytes", "memory.stat", "memory.oom_control", 0 },
	{ "memory.current", "memory.swap.current", "memory.max", "memory.high", 0, "memory.stat",
	  "memory.events", "memory.pressure" },
};

const char *cg_file(int version, enum cg_file f)
{
	return version == 1 || version == 2 ? file_names[version - 1][f] : 0;
}

int cg_number(const char *s, size_t n, uint64_t *v)
{
	if (n && s[n - 1] == '\n')
		n--;
	if (sc_eq(s, n, "max"))
		return CG_NONE;
	return sc_u64_all(s, n, v) == SC_OK ? CG_NUMBER : CG_DAMAGED;
}

int cg_limit(int version, uint64_t v)
{
	return version != 1 || v < CG_V1_NO_LIMIT;
}

uint64_t cg_swap(int version, uint64_t v, uint64_t current)
{
	return version != 1 ? v : v > current ? v - current : 0;
}

static int word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int cg_kv_next(char *s, long n, long *at, const char **key, uint64_t *v)
{
	char *l, *e = s + n, *nl, *sp, *c;

	for (; *at < n; *at = nl + 1 - s) {
		l = s + *at;
		if (!(nl = memchr(l, '\n', e - l)))
			nl = e;
		for (sp = l; sp < nl && *sp != ' ' && *sp; sp++)
			;
		if (sp == nl || sp == l || sc_u64_all(sp + 1, nl - sp - 1, v) != SC_OK)
			continue;
		for (c = l; c < sp && word_byte(*c); c++)
			;
		if (c < sp)
			continue;
		*sp = 0;
		*key = l;
		*at = nl + 1 - s;
		return 1;
	}
	return 0;
}
