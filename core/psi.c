/* /proc/pressure/memory:
 *   some avg10=1.23 avg60=0.50 avg300=0.10 total=123456   (total in us) */
#include <errno.h>
#include <string.h>
#include "cli.h"
#include "psi.h"
#include "out.h"
#include "rd.h"
#include "sc.h"

const char *const psi_file = "/proc/pressure/memory";

static unsigned long bad;   /* the first garbled or saturated line, for psi_read */

/* The fields after "some"/"full": all four keys, in any order, others ignored. */
static int one(const char *s, size_t n, struct psi_line *l)
{
	static const char keys[] = "avg10=\0avg60=\0avg300=\0total=";
	const char *p = s, *e = s + n, *f, *k;
	size_t fl, kl;
	unsigned seen = 0, i;

	sc_field(&p, e, &f, &fl);
	while (sc_field(&p, e, &f, &fl)) {
		for (i = 0, k = keys; i < 4; i++, k += kl + 1) {
			kl = strlen(k);
			if (fl > kl && !memcmp(f, k, kl))
				break;
		}
		if (i == 4)
			continue;
		/* "1.23" as 123 (more decimals are cut), total digits only */
		if (cli_decimal(f + kl, f + fl, i < 3 ? 2 : 0, 0, i < 3 ? &l->avg[i] : &l->total))
			return -1;
		seen |= 1u << i;
	}
	l->have = seen == 15;
	return l->have ? 0 : -1;
}

int psi_parse(const char *buf, size_t len, struct psi *p)
{
	const char *c = buf, *end = buf + len, *s;
	size_t n;
	unsigned long line = 0;

	memset(p, 0, sizeof *p);
	bad = 0;
	while (sc_line(&c, end, &s, &n)) {
		line++;
		if (n < 5 || (memcmp(s, "some ", 5) && memcmp(s, "full ", 5)) ||
		    one(s, n, *s == 's' ? &p->some : &p->full) || memchr(s, 0, n))
			bad = bad ? bad : line;
	}
	if (len && end[-1] != '\n')
		bad = line;
	return p->some.have || p->full.have ? 0 : -1;
}

int psi_read(struct psi *p)
{
	static char warned;
	char b[256];
	int trunc, k;
	long n = rd_file(psi_file, b, sizeof b, &trunc);

	if (n < 0) {
		/* absent (before 4.20, no CONFIG_PSI) or off (psi=0: EOPNOTSUPP) is
		 * normal; anything else is worth a word, once */
		if (n != -ENOENT && n != -EOPNOTSUPP && !warned++)
			mb_warn_errno(psi_file, -n);
		return n;
	}
	k = psi_parse(b, n, p) ? -EINVAL : 0;
	if ((trunc || bad) && !warned++)
		mb_warn_line(psi_file, trunc ? 1 : bad, trunc ? "too long" : "garbled");
	return k;
}
