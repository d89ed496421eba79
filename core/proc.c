/* /proc/PID/{smaps_rollup,smaps,status,cmdline}:
 *   Pss:                 432 kB          (smaps_rollup, smaps: kB)
 *   Uid:	1000	1000	1000	1000   (status: real, effective, saved, fs)
 * Keys the kernel did not print stay absent (have bit clear), not 0. */
#include <stddef.h>
#include <string.h>
#include "proc.h"
#include "rd.h"
#include "sc.h"

/* The key names back to back, and each one's offset, both at compile time:
 * a struct of exactly sized char arrays has no padding. */
#define X(k) char k[sizeof #k];
static const struct { PR_KEYS(X) } keys = {
#undef X
#define X(k) #k,
	PR_KEYS(X)
#undef X
};
#define X(k) offsetof(__typeof__(keys), k),
static const unsigned short koff[] = { PR_KEYS(X) };
#undef X

const char *pr_key(int k)
{
	return (const char *)&keys + koff[k];
}

void pr_line(struct pr_mem *m, const char *s, size_t n, int first, int last)
{
	/* The kernel prints the keys in table order: the search starts after
	 * the last key found, so a line costs one compare, not a scan. */
	static int next;
	const char *key;
	size_t kl;
	uint64_t v;
	int kb, rc, k = next, i;

	if (!sc_keynum(s, n, &key, &kl, &v, &kb, &rc))
		return;
	for (i = first; i < last; i++, k++) {
		if (k < first || k >= last)
			k = first;
		if (sc_eq(key, kl, pr_key(k))) {
			next = k + 1;
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

void pr_rollup(const char *buf, size_t len, struct pr_mem *m)
{
	const char *p = buf, *s;
	size_t n;

	memset(m, 0, sizeof *m);
	while (sc_line(&p, buf + len, &s, &n))
		pr_line(m, s, n, 0, PR_NROLL);
}

int pr_smaps(int fd, struct pr_mem *m, char *buf, size_t cap)
{
	struct rd_lines r;
	const char *s;
	size_t n;
	int k;

	memset(m, 0, sizeof *m);
	rd_lines_fd(&r, fd, buf, cap);
	while ((k = rd_line(&r, &s, &n)) > 0)
		pr_line(m, s, n, 0, PR_NROLL);
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
