/* /proc/swaps (KiB):
 *   Filename				Type		Size		Used		Priority
 *   /dev/sda2                               partition	16385272	0	-1
 * /sys/block/zram0/mm_stat (bytes, then page counts from field 6 on):
 *   53583872 11880421 12840960        0 12840960        0        0        0        0 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "swaps.h"
#include "text.h"
#include "sc.h"

const char *const sw_file = "/proc/swaps";

int sw_zram_id(const char *f, size_t n, unsigned *id)
{
	const char *b = f + n;
	uint64_t v;

	while (b > f && b[-1] != '/')
		b--;
	if (f + n - b < 5 || memcmp(b, "zram", 4) || sc_u64_all(b + 4, f + n - b - 4, &v) != SC_OK ||
	    v > 1u << 20)
		return 0;
	*id = v;
	return 1;
}

int sw_parse(struct rd_lines *r, struct swaps *s)
{
	const char *l, *p, *f[4];
	size_t n, fl[4];
	uint64_t sz, used;
	unsigned id, i;
	int k;

	memset(s, 0, sizeof *s);
	while ((k = rd_line(r, &l, &n)) > 0) {
		if (r->line == 1 && n >= 8 && !memcmp(l, "Filename", 8))
			continue;
		p = l;
		for (i = 0; i < 4 && sc_field(&p, l + n, &f[i], &fl[i]); i++)
			;
		if (!i)
			continue;
		if (i < 4 || sc_u64_all(f[2], fl[2], &sz) || sc_u64_all(f[3], fl[3], &used)) {   /* garbled or beyond 2^64 */
			s->bad++;
			continue;
		}
		s->n++;
		s->size = sat_add(s->size, sat_mul(sz, 1024));
		s->used = sat_add(s->used, sat_mul(used, 1024));
		if (!sw_zram_id(f[0], fl[0], &id))
			s->disk = 1;
		else if (s->nzram < SW_MAX_ZRAM)
			s->zram[s->nzram++] = id;
		else
			s->zram_dropped++;
	}
	s->bad += r->skipped;
	s->nonl = r->nonl;
	return k;
}

int sw_read(struct swaps *s)
{
	char buf[MB_LINE_MAX];
	struct rd_lines r;
	int fd = rd_lines_open(&r, sw_file, buf, sizeof buf), k;

	if (fd < 0)
		return fd;
	k = sw_parse(&r, s);
	close(fd);
	return k;
}

int sw_mm_parse(const char *b, size_t n, uint64_t v[3])
{
	const char *p = b, *f;
	size_t fl;
	uint64_t x;
	int i = 0;

	while (sc_field(&p, b + n, &f, &fl)) {
		if (sc_u64_all(f, fl, &x))   /* garbled or beyond 2^64 */
			return -1;
		if (i < 3)
			v[i] = x;
		i++;
	}
	return i < 7 ? -1 : i;
}

int sw_mm_read(unsigned id, uint64_t v[3], char path[SW_MM_PATH], struct diag *d)
{
	char b[256], *e = stpcpy(path, "/sys/block/zram");
	int trunc;
	long k;

	stpcpy(e + u64_str(e, id), "/mm_stat");
	k = rd_file(path, b, sizeof b, &trunc);
	if (k == -ENOENT) {   /* a zram swap without it: before 4.1, or a capture that lacks it */
		rd_diag(d, path, 0, 0);
		d->err = ENOENT;
		return k;
	}
	if (k < 0)
		return rd_diag(d, path, k, 0), k;
	if (trunc)
		return rd_diag(d, path, -EINVAL, "cut short"), -EINVAL;
	if (sw_mm_parse(b, k, v) < 0)
		return rd_diag(d, path, -EINVAL, 0), -EINVAL;
	rd_diag(d, path, 0, 0);
	return 0;
}

int sw_zram_step(const struct swaps *s, struct sw_zram *z, struct diag *d)
{
	uint64_t v[3];

	if (z->next >= s->nzram)
		return 0;
	if (sw_mm_read(s->zram[z->next++], v, z->path, d)) {
		z->unknown++;
		return 1;
	}
	z->orig = sat_add(z->orig, v[0]);
	z->used = sat_add(z->used, v[2]);
	if (v[0] > z->orig_max)
		z->orig_max = v[0];
	return 1;
}
