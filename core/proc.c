/* /proc/PID/{smaps_rollup,smaps,status,cmdline}:
 *   Pss:                 432 kB          (smaps_rollup, smaps: kB)
 *   Uid:	1000	1000	1000	1000   (status: real, effective, saved, fs)
 * Keys the kernel did not print stay absent (have bit clear), not 0. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/statfs.h>
#include "text.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"

/* The key names back to back, NUL-separated, written from PR_KEYS, and
 * each one's offset in it, at compile time: the offsets in a struct of
 * exactly sized char arrays (no padding), a type only. */
#define X(k) #k "\0"
static const char keys[] = PR_KEYS(X);
#undef X
#define X(k) char k[sizeof #k];
struct pr_keys { PR_KEYS(X) };
#undef X
#define X(k) offsetof(struct pr_keys, k),
static const unsigned short koff[] = { PR_KEYS(X) };
#undef X

const char *pr_key(int k)
{
	return keys + koff[k];
}

void pr_line(struct pr_mem *m, const char *s, size_t n, int first, int last)
{
	/* The kernel prints the keys in table order: the search starts after
	 * the last key found, so a line costs one compare, not a scan. */
	const char *key;
	size_t kl;
	uint64_t v;
	int kb, rc, k = m->next, i;

	if (!sc_keynum(s, n, &key, &kl, &v, &kb, &rc))
		return;
	for (i = first; i < last; i++, k++) {
		if (k < first || k >= last)
			k = first;
		if (*pr_key(k) == *key && sc_eq(key, kl, pr_key(k))) {
			m->next = k + 1;
			if (kb)
				v = sat_mul(v, 1024);
			m->v[k] = sat_add(m->v[k], v);
			m->have |= 1u << k;
			if (rc == SC_OVF || m->v[k] == UINT64_MAX)
				m->ovf |= 1u << k;
			return;
		}
	}
}

/* A line of smaps or smaps_rollup the kernel could not have written: one
 * of the rollup keys without "N [kB]" (a garbled, negative or signed
 * number), or a line that is neither "Key: ..." nor a mapping's header
 * (the rollup has one too).  Other keys may hold words (smaps's
 * "VmFlags: rd wr", Android's "Name: libc_malloc"), or be new. */
static int damaged(const char *s, size_t n)
{
	const char *key, *p = s, *end = s + n;
	size_t kl;
	uint64_t v;
	int kb, rc, k;
	struct pr_map h;

	if (sc_keynum(s, n, &key, &kl, &v, &kb, &rc))
		return 0;
	while (p < end && *p != ':' && *p != ' ' && *p != '\t')
		p++;
	if (p == s || p == end || *p != ':')
		return !pr_maphdr(s, n, &h);
	for (k = 0; k < PR_NROLL; k++)
		if (sc_eq(s, p - s, pr_key(k)))
			return 1;
	return 0;
}

/* One line of smaps(_rollup), the line-th: its key into m, or the first
 * damaged one remembered. */
static void mem_line(struct pr_mem *m, const char *s, size_t n, unsigned long line)
{
	pr_line(m, s, n, 0, PR_NROLL);
	if (!m->bad && damaged(s, n))
		m->bad = line;
}

void pr_rollup(const char *buf, size_t len, struct pr_mem *m)
{
	const char *p = buf, *s;
	unsigned long line = 0;
	size_t n;

	memset(m, 0, sizeof *m);
	while (sc_line(&p, buf + len, &s, &n))
		mem_line(m, s, n, ++line);
}

int pr_smaps(int fd, struct pr_mem *m, char *buf, size_t cap)
{
	struct rd_lines r;
	unsigned long line = 0;
	const char *s;
	size_t n;
	int k;

	memset(m, 0, sizeof *m);
	rd_lines_fd(&r, fd, buf, cap);
	while ((k = rd_line(&r, &s, &n)) > 0)
		mem_line(m, s, n, ++line + r.skipped);
	return k;
}

/* Name is escaped by the kernel: newline as \n, backslash as \\. */
static void unescape(struct pr_status *st, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == '\\'))
			c = s[++i] == 'n' ? '\n' : '\\';
		if (o == sizeof st->name - 1 || !c) {
			st->name_cut = 1;
			break;
		}
		st->name[o++] = c;
	}
	st->name[o] = 0;
}

int pr_status(const char *buf, size_t len, struct pr_status *st)
{
	const char *p = buf, *end = buf + len, *s, *q, *f;
	size_t n, fl;
	int named = 0;
	uint64_t v;

	memset(st, 0, sizeof *st);
	while (sc_line(&p, end, &s, &n)) {
		const char *e = s + n;
		if (!(q = memchr(s, ':', n)))
			continue;
		fl = q - s;
		if (sc_eq(s, fl, "Name") && e - q > 1) {
			unescape(st, q + 2, e - q - 2);   /* after ":\t": may start with a blank */
			named = 1;
		} else if (sc_eq(s, fl, "State")) {
			q = sc_blank(q + 1, e);
			st->state = q < e ? *q : 0;
		} else if (sc_eq(s, fl, "Pid") || sc_eq(s, fl, "Tgid")) {
			q = sc_blank(q + 1, e);
			if (sc_u64_all(q, e - q, &v) == SC_OK && v <= 0x7fffffff)
				*(*s == 'P' ? &st->pid : &st->tgid) = v;
		} else if (sc_eq(s, fl, "Uid")) {
			q++;
			if (sc_field(&q, e, &f, &fl) && sc_field(&q, e, &f, &fl) &&
			    sc_u64_all(f, fl, &v) != SC_NONE)
				st->uid = v;
		} else {
			pr_line(&st->mem, s, n, PR_NROLL, PR_NK);
		}
	}
	st->ppid = st->mem.v[PR_PPid];
	st->kthread = st->mem.v[PR_Kthread] == 1;
	return named ? 0 : -1;
}

size_t pr_cmdline(char *buf, size_t len)
{
	size_t i;

	while (len && !buf[len - 1])
		len--;
	for (i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = ' ';
	return len;
}

int pr_maphdr(const char *s, size_t n, struct pr_map *m)
{
	const char *p = s, *e = s + n, *f;
	size_t l, i;
	uint32_t v = 0, maj = 0;
	int k;

	/* five fields; "Key: N kB" and "VmFlags: rd wr" lines fail at the
	 * second or the fifth */
	for (k = 0; k < 5; k++) {
		if (!sc_field(&p, e, &f, &l))
			return 0;
		if (k < 4) {
			m->field[k] = f;
			m->flen[k] = l;
		}
		if (k == 1 && (l != 4 || (f[3] != 's' && f[3] != 'p')))
			return 0;
		if (k == 1)
			m->shared = f[3] == 's';
		for (i = 0; k == 3 && i < l; i++) {   /* major:minor, hex */
			unsigned d = (unsigned)(f[i] - '0'), x = (unsigned)((f[i] | 32) - 'a');
			d = d < 10 ? d : x < 6 ? x + 10 : 99;
			if (f[i] == ':' && !maj)
				maj = v | 1u << 31, v = 0;
			else if (d > 15 || v >> 16)
				return 0;
			else
				v = v << 4 | d;
		}
	}
	if (!maj || maj << 1 >> 1 > 0xfff || sc_u64_all(f, l, &m->ino) != SC_OK)
		return 0;
	m->dev = maj << 20 | v;
	m->path = sc_blank(p, e);
	m->plen = e - m->path;
	return 1;
}

int pr_mapkind(const struct pr_map *m, int tmpfs)
{
	/* prefixes in the order they are tried, each after its kind */
	static const char *const pre = 
		"\5[anon_shmem:\0\4[anon:\0\1[heap]\0\2[stack\0\3[\0"
		"\5/dev/zero (deleted)\0\11/memfd:\0\12/SYSV\0";
	static const char del[] = " (deleted)";
	const char *p = m->path, *k;
	size_t n = m->plen, l;

	if (!n)
		return m->ino ? PK_FILE : PK_ANON;
	for (k = pre; *k; k += l + 2) {
		l = strlen(k + 1);
		if (n >= l && !memcmp(p, k + 1, l))
			return *k;
	}
	if (tmpfs)
		return PK_TMPFS;
	return n >= sizeof del - 1 && !memcmp(p + n - (sizeof del - 1), del, sizeof del - 1) ? PK_DELETED : PK_FILE;
}

static int gone(long err)
{
	return err == -ENOENT || err == -ESRCH;
}

/* Out of file descriptors: the process is neither gone nor forbidden, we
 * could not look (the caller says so and stops). */
static int no_fds(struct pr_proc *p, long err)
{
	if (err != -EMFILE && err != -ENFILE)
		return 0;
	p->err = -err;
	return 1;
}

int pr_open(struct pr_proc *p, unsigned pid)
{
	char path[32];

	memcpy(path, "/proc/", 6);
	path[6 + u64_str(path + 6, pid)] = 0;
	p->dir = rd_open(path, O_RDONLY | O_DIRECTORY);
	if (p->dir < 0)
		return no_fds(p, p->dir) ? PR_NO_FDS : gone(p->dir) ? PR_VANISHED : PR_INACCESSIBLE;
	return PR_FOUND;
}

#define PROC_SUPER_MAGIC 0x9fa0   /* linux/magic.h */
void pr_kernel(struct pr_proc *p, int proc_fd)
{
	struct statfs sf;

	p->kernel = rd_live() && !fstatfs(proc_fd, &sf) && sf.f_type == PROC_SUPER_MAGIC;
}

int pr_openat(const struct pr_proc *p, const char *name)
{
	return p->kernel ? rd_openat_kernel(p->dir, name) : rd_openat(p->dir, name, O_RDONLY);
}

/* A file the kernel gives whole to one read (comm, cmdline, and the
 * seq_files status and smaps_rollup: a short read is its end) into buf,
 * NUL-terminated: its length, or -errno.  *trunc: it did not fit. */
static long read_once(const struct pr_proc *p, const char *name, char *buf, size_t cap, int *trunc)
{
	int fd = pr_openat(p, name);
	ssize_t n;
	char c;

	*trunc = 0;
	if (fd < 0)
		return fd;
	n = read(fd, buf, cap - 1);
	if (n == (ssize_t)cap - 1)
		*trunc = read(fd, &c, 1) > 0;
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return n;
}

/* A file of a process's directory whole: the live kernel's in one read, a
 * captured tree's by rd_fileat (a file there may be anything). */
static long read_whole(const struct pr_proc *p, const char *name, char *buf, size_t cap, int *trunc)
{
	return p->kernel ? read_once(p, name, buf, cap, trunc) : rd_fileat(p->dir, name, buf, cap, trunc);
}

int pr_read_status(struct pr_proc *p, char *buf, size_t cap)
{
	int trunc;
	long n = read_whole(p, "status", buf, cap, &trunc);

	if (no_fds(p, n))
		return PR_NO_FDS;
	if (n < 0 || pr_status(buf, n, &p->status))
		return n < 0 && gone(n) ? PR_VANISHED : PR_INACCESSIBLE;
	return PR_FOUND;
}

int pr_read_memory(struct pr_proc *p, char *buf, size_t cap)
{
	const struct pr_status *st = &p->status;
	int trunc, fd;
	long n;

	memset(&p->rollup, 0, sizeof p->rollup);
	p->mem = &p->rollup;
	p->source = PR_SRC_ROLLUP;
	p->bad = 0;
	p->bad_file = "smaps_rollup";
	n = read_whole(p, "smaps_rollup", buf, cap, &trunc);
	if (n >= 0)
		pr_rollup(buf, n, &p->rollup);
	if (n == -ENOENT) {   /* before 4.14, or not captured */
		p->source = PR_SRC_SMAPS;
		p->bad_file = "smaps";
		fd = pr_openat(p, "smaps");
		n = fd < 0 ? fd : pr_smaps(fd, &p->rollup, buf, cap);
		if (fd >= 0)
			close(fd);
	}
	if (no_fds(p, n))
		return PR_NO_FDS;
	/* a damaged file's numbers are not trusted, not even those before
	 * the damage: status's counters stand in, as for an unreadable one */
	if (n >= 0 && p->rollup.bad) {
		p->bad = p->rollup.bad;
		n = -EINVAL;
	}
	if (n < 0 && n != -ESRCH) {
		if (rd_live() && n == -ENOENT)
			return PR_VANISHED;
		p->mem = &st->mem;
		p->source = PR_SRC_STATUS;
	}
	/* no memory map: a kernel thread, or a process that has exited (a
	 * zombie, or one whose status still had its VmRSS) */
	if (n == -ESRCH || !(p->mem->have & ((1u << PR_NSIZE) - 1)))
		return st->kthread || (st->state != 'Z' && !PR_HAS(&st->mem, PR_VmRSS)) ?
		       PR_KERNEL_THREAD : PR_VANISHED;
	return PR_FOUND;
}

int pr_read_name(struct pr_proc *p, char *buf, size_t cap)
{
	int trunc;
	long n = read_once(p, "comm", buf, cap, &trunc);

	if (n == -ENOENT && !rd_live())   /* a capture without comm */
		return pr_read_status(p, buf, cap);
	if (no_fds(p, n))
		return PR_NO_FDS;
	if (n < 0)
		return gone(n) ? PR_VANISHED : PR_INACCESSIBLE;
	if (n && buf[n - 1] == '\n')
		n--;
	p->status.name_cut = n > SR_NAME_MAX - 1;
	if (p->status.name_cut)
		n = SR_NAME_MAX - 1;
	memcpy(p->status.name, buf, n);
	p->status.name[n] = 0;
	return PR_FOUND;
}

size_t pr_read_cmdline(struct pr_proc *p, char *buf, size_t cap, int *cut)
{
	int trunc = 0;
	long n = read_once(p, "cmdline", buf, cap, &trunc);
	size_t len = n < 0 ? 0 : pr_cmdline(buf, n);

	*cut = len > 0 && trunc;
	if (!len) {
		len = strlen(p->status.name);
		buf[0] = '[';
		memcpy(buf + 1, p->status.name, len);
		buf[++len] = ']';
		len++;
	}
	return len;
}

/* NULs the feeder owes the text: each one a space, once a byte follows */
static int feed_spaces(size_t n, int (*feed)(void *ctx, const char *s, size_t n), void *ctx)
{
	static const char spaces[32] = "                                ";
	size_t k;
	int stop = 0;

	for (; n && !stop; n -= k) {
		k = n < sizeof spaces ? n : sizeof spaces;
		stop = feed(ctx, spaces, k);
	}
	return stop;
}

int pr_stream_cmdline(struct pr_proc *p, char *buf, size_t cap,
                      int (*feed)(void *ctx, const char *s, size_t n), void *ctx)
{
	int fd = pr_openat(p, "cmdline"), stop = 0;
	size_t nuls = 0, seen = 0, i, end;
	ssize_t k = 0;

	while (fd >= 0 && !stop && (k = read(fd, buf, cap)) > 0) {
		/* NULs at the end of this piece wait: they are spaces only if
		 * more text follows */
		for (end = k; end && !buf[end - 1]; end--)
			;
		if (end && nuls)
			stop = feed_spaces(nuls, feed, ctx);
		if (end)
			nuls = 0;
		nuls += k - end;
		for (i = 0; i < end; i++)
			if (!buf[i])
				buf[i] = ' ';
		seen += end;
		if (end && !stop)
			stop = feed(ctx, buf, end);
	}
	if (fd >= 0)
		close(fd);
	if (!seen && !stop) {
		i = strlen(p->status.name);
		buf[0] = '[';
		memcpy(buf + 1, p->status.name, i);
		buf[i + 1] = ']';
		feed(ctx, buf, i + 2);
	}
	return fd < 0 ? fd : k < 0 ? -errno : 0;
}

void pr_close(struct pr_proc *p)
{
	if (p->dir >= 0)
		close(p->dir);
	p->dir = -1;
}

void pr_pids_start(struct pr_pids *it, struct rd_dir *dir, const unsigned *list, unsigned n)
{
	it->dir = dir;
	it->list = list;
	it->n = n;
	it->next = 0;
	it->odd = 0;
	if (!n) {
		lseek(dir->fd, 0, SEEK_SET);
		rd_dir_fd(dir, dir->fd);
	}
}

long pr_pids_next(struct pr_pids *it)
{
	const char *name;
	unsigned char type;
	uint64_t v;
	size_t n;
	int k;

	if (it->n)
		return it->next < it->n ? it->list[it->next++] : 0;
	/* Only the kernel's own spelling is a PID: "0943" would read PID 943
	 * a second time.  Names that start like a number but are not one
	 * are counted; others ("self", "sys") are not PIDs at all. */
	while ((k = rd_dir_next(it->dir, &name, &type)) > 0) {
		n = strlen(name);
		if (sc_u64_all(name, n, &v) == SC_OK && *name != '0' && v <= 0x7fffffff)
			return (long)v;
		if ((*name >= '0' && *name <= '9') || *name == '+' || *name == '-') {
			if (!it->odd++) {
				n = n < sizeof it->odd_name - 1 ? n : sizeof it->odd_name - 1;
				memcpy(it->odd_name, name, n);
				it->odd_name[n] = 0;
			}
		}
	}
	return k;
}

int pr_maps(int fd, char *buf, size_t cap, const struct pr_maps_sink *sink, uint64_t *long_lines)
{
	return pr_maps_after(fd, buf, cap, 0, sink, long_lines);
}

int pr_maps_after(int fd, char *buf, size_t cap, size_t have, const struct pr_maps_sink *sink,
                  uint64_t *long_lines)
{
	struct rd_lines r;
	struct pr_map header;
	struct pr_mem figures;
	unsigned long skipped = 0;
	const char *s;
	size_t n;
	int open = 0, k;

	memset(&figures, 0, sizeof figures);
	rd_lines_fd(&r, fd, buf, cap);
	r.len = r.total = have;
	while ((k = rd_line(&r, &s, &n)) > 0) {
		if (r.skipped != skipped) {
			*long_lines += r.skipped - skipped;
			skipped = r.skipped;
			if (open)
				sink->end(sink->ctx, &figures);
			memset(&figures, 0, sizeof figures);
			open = sink->begin(sink->ctx, 0);
		}
		/* a header starts with its address in lowercase hex, a figure
		 * with its key's capital: most lines need no field scan */
		if (n && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')) && pr_maphdr(s, n, &header)) {
			if (open)
				sink->end(sink->ctx, &figures);
			memset(&figures, 0, sizeof figures);
			open = sink->begin(sink->ctx, &header);
		} else if (open) {
			pr_line(&figures, s, n, 0, PR_NK);
		}
	}
	if (open)
		sink->end(sink->ctx, &figures);
	return k;
}
