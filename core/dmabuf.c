/* DMA-BUF buffers (dmabuf.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dmabuf.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "text.h"

static const char dmabuf_sysfs[] = "/sys/kernel/dmabuf/buffers";

int dmabuf_sysfs_total(uint64_t *bytes, uint64_t *buffers, struct diag *d)
{
	struct rd_dir dir;
	const char *name;
	unsigned char type;
	int k;

	*bytes = *buffers = 0;
	*d = (struct diag){ 0 };
	if ((k = rd_dir_open(&dir, dmabuf_sysfs)) < 0)
		return k;
	while ((k = rd_dir_next(&dir, &name, &type)) > 0) {
		/* "INODE/size": the name is a number of at most 20 digits */
		char rel[32], buf[32];
		size_t n = strlen(name);
		uint64_t v;
		int trunc;
		long len;

		if (n > 20 || sc_u64_all(name, n, &v) != SC_OK)
			continue;   /* not a buffer's directory */
		memcpy(rel, name, n);
		memcpy(rel + n, "/size", sizeof "/size");
		len = rd_fileat(dir.fd, rel, buf, sizeof buf, &trunc);
		if (len == -ENOENT)
			continue;   /* freed since the listing */
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		if (len < 0 || trunc || sc_u64_all(buf, (size_t)len, &v) != SC_OK) {
			if (!mb_diag_set(d))
				*d = (struct diag){ dmabuf_sysfs, 0,
					len < 0 ? 0 : "garbled size file skipped",
					len < 0 ? (int)-len : 0 };
			continue;
		}
		*bytes = sat_add(*bytes, v);
		++*buffers;
	}
	rd_dir_close(&dir);
	return k;
}

/* "key:\tVALUE" lines: the value after the colon and blanks */
static int value_of(const char *s, size_t n, const char *key, const char **v, size_t *vn)
{
	size_t k = strlen(key);

	if (n <= k || memcmp(s, key, k) || s[k] != ':')
		return 0;
	s += k + 1;
	n -= k + 1;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	*v = s;
	*vn = n;
	return 1;
}

int dmabuf_fdinfo(const char *buf, size_t len, struct dmabuf_info *i)
{
	const char *p = buf, *s, *v;
	size_t n, vn;
	int size = 0;

	memset(i, 0, sizeof *i);
	while (sc_line(&p, buf + len, &s, &n)) {
		if (value_of(s, n, "size", &v, &vn))
			size = sc_u64_all(v, vn, &i->size) == SC_OK;
		else if (value_of(s, n, "ino", &v, &vn))
			i->have_ino = sc_u64_all(v, vn, &i->ino) == SC_OK;
		else if (value_of(s, n, "count", &v, &vn))
			sc_u64_all(v, vn, &i->count);
		else if (value_of(s, n, "exp_name", &v, &vn))
			mb_cut(i->exp_name, v, vn < sizeof i->exp_name ? vn : sizeof i->exp_name - 1);
	}
	return size ? 0 : -EINVAL;
}

/* drm-usage-stats.rst: a size is a number, then optionally " KiB" or " MiB" */
static int drm_size(const char *v, size_t n, uint64_t *b)
{
	const char *p = v, *e = v + n;
	uint64_t x;

	if (sc_u64(&p, e, &x) != SC_OK)
		return 0;
	p = sc_blank(p, e);
	if (p == e)
		*b = x;
	else if (sc_eq(p, (size_t)(e - p), "KiB"))
		*b = sat_mul(x, 1024);
	else if (sc_eq(p, (size_t)(e - p), "MiB"))
		*b = sat_mul(x, 1024 * 1024);
	else
		return 0;
	return 1;
}

int drm_fdinfo(const char *buf, size_t len, struct drm_info *i)
{
	static const char *const stat[DRM_NSTAT] = { "drm-total-", "drm-resident-", "drm-shared-" };
	const char *p = buf, *s, *v;
	size_t n, vn;
	uint64_t memory = 0, b;
	int have_memory = 0, k;

	memset(i, 0, sizeof *i);
	while (sc_line(&p, buf + len, &s, &n)) {
		const char *colon = memchr(s, ':', n);
		if (!colon)
			continue;
		if (value_of(s, n, "drm-client-id", &v, &vn)) {
			if (sc_u64_all(v, vn, &i->client_id) == SC_OK)
				i->have |= 1 << DRM_NSTAT;
			continue;
		}
		if (value_of(s, n, "drm-pdev", &v, &vn)) {
			/* FNV-1a of the device's name: client ids may be unique per device only */
			uint64_t h = 0xcbf29ce484222325ull;
			while (vn--)
				h = (h ^ (unsigned char)*v++) * 0x100000001b3ull;
			i->pdev_hash = h;
			continue;
		}
		for (k = 0; k < DRM_NSTAT; k++) {
			size_t sl = strlen(stat[k]);
			if (n > sl && !memcmp(s, stat[k], sl) && colon > s + sl)
				break;
		}
		v = colon + 1;
		vn = (size_t)(s + n - v);
		while (vn && (*v == ' ' || *v == '\t'))
			v++, vn--;
		if (k < DRM_NSTAT) {
			if (drm_size(v, vn, &b)) {
				i->v[k] = sat_add(i->v[k], b);
				i->have |= 1 << k;
			}
		} else if (n > 11 && !memcmp(s, "drm-memory-", 11) && colon > s + 11 && drm_size(v, vn, &b)) {
			memory = sat_add(memory, b);   /* before 6.5: resident memory */
			have_memory = 1;
		}
	}
	if (have_memory && !(i->have & 1 << DRM_RESIDENT)) {
		i->v[DRM_RESIDENT] = memory;
		i->have |= 1 << DRM_RESIDENT;
	}
	return i->have & 1 << DRM_NSTAT ? 0 : -EINVAL;
}

/* ---- what processes hold ---- */

#define KEY_DRM (1ull << 63)      /* a DRM client's key: a hash of device and id */
#define KEY_NOINO (1ull << 62)    /* a buffer without an inode: its process and fd */

/* The process being read holds key (of kind, size): once in its run */
static void hold(struct dmabuf_set *s, uint64_t key, int kind, uint64_t size)
{
	struct dmabuf_proc *pr = &s->procs[s->nprocs - 1];
	uint32_t x, j;
	int added;

	if (!s->ks.key) {
		s->ks = (struct keyset){ .key = s->keys, .slot = s->slots, .max = DMABUF_MAX,
		                         .max_slots = DMABUF_SLOTS };
	}
	if ((x = ks_add(&s->ks, key, &added)) == KS_NONE) {
		s->dropped++;
		return;
	}
	if (added)
		s->held[x] = (struct dmabuf_held){ size, 0, (uint32_t)kind };
	else if (size > s->held[x].size)
		s->held[x].size = size;   /* a mapping's length, then the whole buffer */
	for (j = pr->first; j < pr->first + pr->n; j++)
		if (s->pairs[j] == x)
			return;
	if (s->npairs >= DMABUF_PAIRS) {
		s->dropped++;
		return;
	}
	s->pairs[s->npairs++] = x;
	pr->n++;
	s->held[x].holders++;
}

/* One fd of the process: a DMA-BUF or a DRM device's, by its link */
static void read_fd(struct dmabuf_set *s, int piddir, int fddir, const char *name, uint32_t pid)
{
	char rel[48];
	long k = readlinkat(fddir, name, s->link, sizeof s->link - 1);
	size_t nl = strlen(name);
	int trunc, dma;

	if (k < 0)
		return;
	s->link[k] = 0;
	dma = !strncmp(s->link, "/dmabuf:", 8) || !strcmp(s->link, "anon_inode:dmabuf");
	if (!dma && strncmp(s->link, "/dev/dri/", 9))
		return;
	if (nl > sizeof rel - 8)
		return;
	memcpy(rel, "fdinfo/", 7);
	memcpy(rel + 7, name, nl + 1);
	if ((k = rd_fileat(piddir, rel, s->info, sizeof s->info, &trunc)) < 0) {
		s->fds_unreadable++;
		return;
	}
	if (dma) {
		struct dmabuf_info i;
		struct stat st;
		uint64_t fd;
		if (dmabuf_fdinfo(s->info, (size_t)k, &i) < 0) {
			s->fds_unreadable++;
			return;
		}
		if (!i.have_ino && fstatat(fddir, name, &st, 0) == 0 && rd_live())
			i.ino = st.st_ino, i.have_ino = 1;   /* the buffer's own inode */
		if (!i.have_ino) {
			s->no_inode++;
			sc_u64_all(name, nl, &fd);
			i.ino = KEY_NOINO | (uint64_t)pid << 24 | (fd & 0xffffff);
		}
		hold(s, i.ino & ~KEY_DRM, HOLD_DMABUF, i.size);
	} else {
		struct drm_info i;
		if (drm_fdinfo(s->info, (size_t)k, &i) == 0)
			hold(s, KEY_DRM | ((i.pdev_hash * 0x9e3779b97f4a7c15ull) ^ i.client_id),
			     HOLD_DRM, i.have & 1 << DRM_RESIDENT ? i.v[DRM_RESIDENT] : i.v[DRM_TOTAL]);
	}
}

/* The mappings of /dmabuf in maps: the buffer by its inode, its size at
 * least the mapping's length (the fdinfo's size, when read, is whole) */
static int read_maps(struct dmabuf_set *s, int piddir)
{
	struct rd_lines r;
	const char *l;
	size_t n;
	int fd = rd_openat_root(piddir, "maps", O_RDONLY), k;

	if (fd < 0)
		return fd;
	rd_lines_fd(&r, fd, s->info, sizeof s->info);
	while ((k = rd_line(&r, &l, &n)) > 0) {
		struct pr_map m;
		char *e;
		uint64_t lo, hi;
		if (!pr_maphdr(l, n, &m) || m.plen < 7 || (memcmp(m.path, "/dmabuf", 7) &&
		    !(m.plen == 17 && !memcmp(m.path, "anon_inode:dmabuf", 17))))
			continue;
		lo = strtoull(l, &e, 16);
		hi = *e == '-' ? strtoull(e + 1, 0, 16) : lo;
		hold(s, m.ino & ~KEY_DRM, HOLD_DMABUF, hi > lo ? hi - lo : 0);
	}
	close(fd);
	return k;
}

int dmabuf_read_proc(struct dmabuf_set *s, int piddir, uint32_t pid)
{
	struct rd_dir dir;
	const char *name;
	unsigned char type;
	int fd = rd_openat_root(piddir, "fd", O_RDONLY | O_DIRECTORY), k;

	if (fd < 0) {
		if (fd != -ENOENT)
			s->unreadable++;
		return fd;
	}
	if (s->nprocs >= DMABUF_PROCS) {
		s->dropped++;
		close(fd);
		return 0;
	}
	s->procs[s->nprocs++] = (struct dmabuf_proc){ pid, s->npairs, 0 };
	rd_dir_fd(&dir, fd);
	while ((k = rd_dir_next(&dir, &name, &type)) > 0)
		read_fd(s, piddir, fd, name, pid);
	rd_dir_close(&dir);
	if (k >= 0)
		k = read_maps(s, piddir);
	if (k < 0 && k != -ENOENT && k != -ESRCH)   /* not: gone since */
		s->unreadable++;
	if (!s->procs[s->nprocs - 1].n) {
		s->nprocs--;
		return 0;
	}
	return 1;
}

static int by_pid(const void *a, const void *b)
{
	const struct dmabuf_proc *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void dmabuf_of(struct dmabuf_set *s, uint32_t pid, uint64_t share[HOLD_NSIZE], uint64_t whole[HOLD_NSIZE])
{
	struct dmabuf_proc key = { pid, 0, 0 }, *p;
	uint32_t j;

	memset(share, 0, HOLD_NSIZE * sizeof *share);
	memset(whole, 0, HOLD_NSIZE * sizeof *whole);
	if (!s->sorted) {
		qsort(s->procs, s->nprocs, sizeof *s->procs, by_pid);
		s->sorted = 1;
	}
	if (!(p = bsearch(&key, s->procs, s->nprocs, sizeof key, by_pid)))
		return;
	for (j = p->first; j < p->first + p->n; j++) {
		const struct dmabuf_held *h = &s->held[s->pairs[j]];
		share[h->kind] = sat_add(share[h->kind], h->size / h->holders);
		whole[h->kind] = sat_add(whole[h->kind], h->size);
	}
}

void dmabuf_totals(const struct dmabuf_set *s, uint64_t total[HOLD_NSIZE])
{
	uint32_t x;

	memset(total, 0, HOLD_NSIZE * sizeof *total);
	for (x = 0; x < s->ks.n; x++)
		if (s->held[x].holders)
			total[s->held[x].kind] = sat_add(total[s->held[x].kind], s->held[x].size);
}
