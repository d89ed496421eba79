/* The memory cgroup of a process, its directory and its files
 * (include/cgroup.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

int cg_above_ns(const struct cg_hier *h)
{
	return h->version && !strncmp(h->root, "/..", 3) && (!h->root[3] || h->root[3] == '/');
}

/* The search for the namespace's cgroup: the directory walked down (a
 * listing open at one level at a time), the process's path in the
 * namespace, its PID as cgroup.procs prints it, a path to read. */
struct ns_search {
	struct rd_dir dir;
	char path[MB_PATH_MAX];
	char file[MB_PATH_MAX];
	const char *self;
	size_t self_len;
	char pid[24];
};

/* Does the candidate s->path (at bytes) hold this process at SELF, its
 * SELF/cgroup.procs listing its PID? */
static int ns_holds_self(struct ns_search *s, size_t at)
{
	static const char procs[] = "/cgroup.procs";
	struct rd_lines r;
	char line[32];
	const char *l;
	size_t n, self = s->self_len == 1 ? 0 : s->self_len;   /* "/": the cgroup itself */
	int fd, found = 0;

	if (at + self + sizeof procs > sizeof s->file)
		return 0;
	memcpy(s->file, s->path, at);
	memcpy(s->file + at, s->self, self);
	memcpy(s->file + at + self, procs, sizeof procs);
	if ((fd = rd_lines_open(&r, s->file, line, sizeof line)) < 0)
		return 0;
	while (!found && rd_line(&r, &l, &n) > 0)
		found = n == strlen(s->pid) && !memcmp(l, s->pid, n);
	close(fd);
	return found;
}

/* The directories depth levels below s->path (at bytes): 1 with s->path
 * the one holding this process; 0 (s->path as it came).  One listing is
 * open at a time: a level is listed again after a child's search, and
 * goes on after that child's name (a cgroup directory lists in a stable
 * order; one removed meanwhile ends its parent's listing). */
static int ns_level(struct ns_search *s, size_t at, unsigned depth)
{
	const char *name;
	unsigned char type;
	size_t n;
	int resume = 0, found = 0;

	if (rd_dir_open(&s->dir, at ? s->path : "/") < 0)
		return 0;
	while (!found && rd_dir_next(&s->dir, &name, &type) > 0) {
		if (resume) {   /* s->path + at + 1: the child searched last */
			resume = strcmp(name, s->path + at + 1) != 0;
			continue;
		}
		if ((type != DT_DIR && type != DT_UNKNOWN) || at + 1 + (n = strlen(name)) >= sizeof s->path)
			continue;
		s->path[at] = '/';
		memcpy(s->path + at + 1, name, n + 1);
		if (depth == 1) {   /* a candidate: read, the listing stays */
			found = ns_holds_self(s, at + 1 + n);
			continue;
		}
		rd_dir_close(&s->dir);
		if (ns_level(s, at + 1 + n, depth - 1))
			return 1;
		s->path[at] = 0;
		if (rd_dir_open(&s->dir, at ? s->path : "/") < 0)
			return 0;
		s->path[at] = '/';
		resume = 1;
	}
	rd_dir_close(&s->dir);
	if (!found)
		s->path[at] = 0;
	return found;
}

int cg_ns_enter(struct cg_hier *h)
{
	struct ns_search s;
	char text[MB_PATH_MAX];
	const char *e;
	unsigned depth = 0;
	size_t i, pl = strlen(h->point);
	long n;
	int cut;

	if (!cg_above_ns(h))
		return 0;
	for (i = 0; h->root[i]; i += 3) {   /* "/.." a level, nothing else */
		if (strncmp(h->root + i, "/..", 3) || (h->root[i + 3] && h->root[i + 3] != '/'))
			return 0;
		depth++;
	}
	/* this process: its PID and its path in the namespace */
	if ((n = rd_file("/proc/self/stat", text, sizeof text - 1, &cut)) <= 0 ||
	    !(e = memchr(text, ' ', n)) || (size_t)(e - text) >= sizeof s.pid)
		return 0;
	memcpy(s.pid, text, e - text);
	s.pid[e - text] = 0;
	if ((n = rd_file("/proc/self/cgroup", text, sizeof text - 1, &cut)) <= 0 ||
	    cg_parse(text, n, cut, h->version, &s.self, &s.self_len) != h->version ||
	    !s.self_len || *s.self != '/')
		return 0;
	/* the mount point "/" (a container's view) adds no byte */
	if (pl == 1)
		pl = 0;
	memcpy(s.path, h->point, pl);
	s.path[pl] = 0;
	if (!ns_level(&s, pl, depth))
		return 0;
	if (strlen(s.path) >= sizeof h->point)
		return 0;
	strcpy(h->point, s.path);
	strcpy(h->root, "/");
	return 1;
}

static const char *const file_names[2][CG_FILES] = {
	{ "memory.usage_in_bytes", "memory.memsw.usage_in_bytes", "memory.limit_in_bytes", 0,
	  "memory.kmem.usage_in_bytes", "memory.stat", "memory.oom_control", 0,
	  "memory.max_usage_in_bytes" },
	{ "memory.current", "memory.swap.current", "memory.max", "memory.high", 0, "memory.stat",
	  "memory.events", "memory.pressure", "memory.peak" },
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

/* The line [l, nl) as "key value": the end of its key (a blank, or the
 * NUL cg_kv_next made of it) with *v, or 0 for a line of another shape. */
static char *kv_line(char *l, char *nl, uint64_t *v)
{
	char *sp, *c;

	for (sp = l; sp < nl && *sp != ' ' && *sp; sp++)
		;
	if (sp == nl || sp == l || sc_u64_all(sp + 1, nl - sp - 1, v) == SC_NONE)
		return 0;
	for (c = l; c < sp && word_byte(*c); c++)
		;
	return c < sp ? 0 : sp;
}

int cg_kv_next(char *s, long n, long *at, const char **key, uint64_t *v)
{
	char *l, *e = s + n, *nl, *sp;

	for (; *at < n; *at = nl + 1 - s) {
		l = s + *at;
		if (!(nl = memchr(l, '\n', e - l)))
			nl = e;
		if (!(sp = kv_line(l, nl, v)))
			continue;
		*sp = 0;
		*key = l;
		*at = nl + 1 - s;
		return 1;
	}
	return 0;
}

/* FNV-1a of the key [s, s+n) */
static uint32_t key_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Is the key [k, k+n) that of a line of shape in [s, e)? */
static int key_in(char *s, char *e, const char *k, size_t n)
{
	char *nl, *end;
	uint64_t v;

	for (; s < e; s = nl + 1) {
		if (!(nl = memchr(s, '\n', e - s)))
			nl = e;
		if ((end = kv_line(s, nl, &v)) && (size_t)(end - s) == n && !memcmp(s, k, n))
			return 1;
	}
	return 0;
}

/* Each line whose key a line before it has is made one of another shape
 * ('#' for its key's first byte: cg_kv_next and vm_pick skip it), so the
 * first value is the one read.  A table of the keys seen by hash keeps
 * it one pass (memory.stat has about 70 keys); past its size, the lines
 * before are searched.  The number of the first such line, or 0. */
static unsigned long kv_once(char *s, long n)
{
	enum { SLOTS = 512 };
	uint32_t seen[SLOTS] = { 0 };   /* a key's line offset + 1 */
	unsigned used = 0, i;
	unsigned long line = 0, first = 0;
	char *l, *e = s + n, *nl, *sp;
	const char *q;
	uint64_t v;
	int dup;

	for (l = s; l < e; l = nl + 1) {
		line++;
		if (!(nl = memchr(l, '\n', e - l)))
			nl = e;
		if (!(sp = kv_line(l, nl, &v)))
			continue;
		dup = 0;
		if (used < SLOTS / 2) {
			for (i = key_hash(l, sp - l) % SLOTS; seen[i]; i = (i + 1) % SLOTS) {
				q = s + seen[i] - 1;   /* a key seen: it ends at its blank */
				if (e - q > sp - l && q[sp - l] == ' ' && !memcmp(q, l, sp - l)) {
					dup = 1;
					break;
				}
			}
			if (!dup) {
				seen[i] = l - s + 1;
				used++;
			}
		} else {
			dup = key_in(s, l, l, sp - l);
		}
		if (dup) {
			*l = '#';
			first = first ? first : line;
		}
	}
	return first;
}

int cg_kv_check(const char *s, long n, const char *path, struct diag *d)
{
	const char *p = s, *l;
	size_t len;
	unsigned long line = 0;
	uint64_t v;
	char *end;

	*d = (struct diag){ path, 0, 0, 0 };
	while (sc_line(&p, s + n, &l, &len)) {
		line++;
		/* kv_line only reads (a NUL it takes for a key's end is refused) */
		end = kv_line((char *)l, (char *)l + len, &v);
		if (!end || *end != ' ' || memchr(l, 0, len)) {
			*d = (struct diag){ path, line, "not 'key N': the line is not used", 0 };
			return 1;
		}
	}
	if (n && s[n - 1] != '\n') {
		*d = (struct diag){ path, 0, "file ends in the middle of a line", 0 };
		return 1;
	}
	return 0;
}

long cg_read_kv(const char *path, int *fd, char *buf, size_t cap, struct diag *d)
{
	long n = cg_read(path, fd, buf, cap, d);
	unsigned long twice;

	if (n < 0)
		return n;
	if (!mb_diag_set(d))
		cg_kv_check(buf, n, path, d);
	if ((twice = kv_once(buf, n)) && !mb_diag_set(d))
		*d = (struct diag){ path, twice, "a key written before: its first value is used", 0 };
	return n;
}

const char *cg_path(char *out, size_t cap, const char *dir, int version, enum cg_file f)
{
	const char *name = cg_file(version, f);
	size_t dl = strlen(dir);

	if (!name || dl + 1 + strlen(name) + 1 > cap)
		return 0;
	memcpy(out, dir, dl);
	out[dl] = '/';
	strcpy(out + dl + 1, name);
	return out;
}

const char cg_cut[] = "longer than its buffer: the rest not read";

long cg_read(const char *path, int *fd, char *buf, size_t cap, struct diag *d)
{
	int cut = 0;
	long n;

	if (fd && rd_live()) {
		if (*fd < 0)
			*fd = rd_open(path, O_RDONLY);
		n = *fd < 0 ? *fd : rd_fd(*fd, buf, cap, &cut);
	} else {
		n = rd_file(path, buf, cap, &cut);
	}
	rd_diag(d, path, n < 0 ? n : 0, n >= 0 && cut ? cg_cut : 0);
	return n;
}

int cg_read_number(const char *path, int *fd, uint64_t *v, struct diag *d)
{
	char b[32];
	long n = cg_read(path, fd, b, sizeof b, d);
	int rc;

	if (n < 0)
		return CG_ABSENT;
	/* a cut file (d set) is no number either */
	if ((rc = cg_number(b, n, v)) == CG_DAMAGED || mb_diag_set(d)) {
		*d = (struct diag){ path, 0, "not a number", 0 };
		return CG_DAMAGED;
	}
	return rc;
}

void cg_read_charge(const char *dir, int version, unsigned want, int *fds, struct cg_charge *c,
                    cg_say_fn *say, void *ctx)
{
	static const enum cg_file files[] = { CG_CURRENT, CG_SWAP, CG_MAX, CG_HIGH, CG_KMEM, CG_PEAK };
	uint64_t *value[CG_FILES] = { [CG_CURRENT] = &c->current, [CG_SWAP] = &c->swap,
	                              [CG_MAX] = &c->max, [CG_HIGH] = &c->high, [CG_KMEM] = &c->kmem,
	                              [CG_PEAK] = &c->peak };
	char path[MB_PATH_MAX + 32];
	struct diag d;
	unsigned i;
	enum cg_file f;

	memset(c, 0, sizeof *c);
	for (i = 0; i < sizeof files / sizeof *files; i++) {
		f = files[i];
		if (!(want >> f & 1) || !cg_path(path, sizeof path, dir, version, f))
			continue;
		if (cg_read_number(path, fds ? &fds[f] : 0, value[f], &d) == CG_NUMBER)
			c->have |= 1u << f;
		say(ctx, f, &d);
	}
	if (version == 1) {   /* memsw is memory and swap: swap needs the charge */
		c->swap = cg_swap(1, c->swap, c->current);
		if (!(c->have >> CG_CURRENT & 1))
			c->have &= ~(1u << CG_SWAP);
		if (!cg_limit(1, c->max))
			c->have &= ~(1u << CG_MAX);
	}
}

int cg_read_pressure(const char *path, int *fd, char *buf, size_t cap, struct psi *p, struct diag *d)
{
	long n = cg_read(path, fd, buf, cap, d);
	int rc;

	memset(&p->some, 0, sizeof p->some);
	memset(&p->full, 0, sizeof p->full);
	if (n < 0)
		return -1;
	rc = psi_parse(buf, n, p);
	if (!mb_diag_set(d) && mb_diag_set(&p->diag))
		*d = (struct diag){ path, p->diag.line, p->diag.why, p->diag.err };
	else if (!mb_diag_set(d) && rc)   /* an empty file */
		*d = (struct diag){ path, 0, "garbled", 0 };
	return rc;
}
