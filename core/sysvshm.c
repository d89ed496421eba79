/* /proc/sysvipc/shm (sysvshm.h): columns are found by their header names,
 * so both the 14-column format of old kernels and the 16-column one parse. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "diag.h"
#include "sc.h"
#include "sysvshm.h"

static const char *const shm_file = "/proc/sysvipc/shm";

/* The first damage is the one said: a line that did not parse (its
 * number), else lines too long for the reader, else no final newline. */
static void damage(struct diag *d, unsigned long line, const char *why)
{
	if (!d->why || (d->line == 0 && line))
		*d = (struct diag){ shm_file, line, why, 0 };
}

static void ending(struct diag *d, const struct rd_lines *r, unsigned long skipped)
{
	if (skipped)
		damage(d, 0, "lines longer than MB_LINE_MAX were skipped");
	if (r->nonl && !d->why)
		damage(d, 0, "no final newline: its last line may be cut");
}

int shm_parse(struct rd_lines *r, struct shm_tot *t)
{
	static const char *const col[3] = { "size", "rss", "swap" };
	int idx[3] = { -1, -1, -1 }, want = -1, k, i, j;
	const char *s, *p, *f;
	size_t n, fl;

	memset(t, 0, sizeof *t);
	t->diag = (struct diag){ shm_file, 0, 0, 0 };
	/* the first line names the columns, each later one is a segment */
	while ((k = rd_line(r, &s, &n)) > 0) {
		uint64_t v[3] = { 0, 0, 0 };
		int got = 0, nul = memchr(s, 0, n) != 0;
		for (p = s, i = 0; sc_field(&p, s + n, &f, &fl); i++)
			for (j = 0; j < 3; j++)
				if (want < 0 ? sc_eq(f, fl, col[j]) && (idx[j] = i, 1) :
				    idx[j] == i && sc_u64_all(f, fl, &v[j]) == SC_OK && v[j] != UINT64_MAX)
					got |= 1 << j;
		if (want < 0) {
			if (!(got & 1) || nul)
				return -EINVAL;
			want = got;
			t->have_rss = got >> 1 & 1;
			t->have_swap = got >> 2;
		} else if (got != want || nul ||   /* garbled, cut short, */
		           v[0] > ~t->size || v[1] > ~t->rss || v[2] > ~t->swap) {   /* sums beyond 2^64 */
			if (n > 0) {
				t->bad++;
				damage(&t->diag, r->line, "garbled segment line skipped");
			}
		} else {
			t->segs++;
			t->size += v[0];
			t->rss += v[1];
			t->swap += v[2];
		}
	}
	if (want < 0)
		return k < 0 ? k : -EINVAL;
	t->bad += r->skipped;
	ending(&t->diag, r, r->skipped);
	return k;
}

int shm_read(struct shm_tot *t)
{
	char buf[MB_LINE_MAX];
	struct rd_lines r;
	int fd = rd_lines_open(&r, shm_file, buf, sizeof buf), k;

	if (fd < 0)
		return fd;
	k = shm_parse(&r, t);
	close(fd);
	return k;
}

int shm_next(struct shm_it *it, uint64_t *v)
{
	const char *s, *p, *f;
	size_t n, fl;
	int k, i, j, got;

	if (!it->have)
		it->diag = (struct diag){ shm_file, 0, 0, 0 };
	while ((k = rd_line(it->r, &s, &n)) > 0) {
		memset(v, 0, it->n * sizeof *v);
		for (got = 0, p = s, i = 0; sc_field(&p, s + n, &f, &fl); i++)
			for (j = 0; j < it->n; j++)
				if (!it->have ? sc_eq(f, fl, it->col[j]) && (it->idx[j] = i, 1) :
				    (it->have >> j & 1) && it->idx[j] == i &&
				    sc_u64_all(f, fl, &v[j]) == SC_OK && v[j] != UINT64_MAX)
					got |= 1 << j;
		if (!it->have) {
			if (!(got & 1))
				return it->diag.why = "garbled header", -EINVAL;
			it->have = got;
		} else if (got == it->have && !memchr(s, 0, n)) {
			return 1;
		} else if (n > 0) {
			it->bad++;
			damage(&it->diag, it->r->line, "garbled segment line skipped");
		}
	}
	if (!it->have)
		return it->diag.why = "garbled header", k < 0 ? k : -EINVAL;
	it->bad += it->r->skipped;
	ending(&it->diag, it->r, it->r->skipped);
	it->r->skipped = 0;
	if (k < 0 && !it->diag.why)
		it->diag.err = -k;
	return k;
}
