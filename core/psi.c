/* /proc/pressure/memory:
 *   some avg10=1.23 avg60=0.50 avg300=0.10 total=123456   (total in us) */
#include <errno.h>
#include <string.h>
#include "psi.h"
#include "rd.h"
#include "sc.h"

const char *const psi_file = "/proc/pressure/memory";

/* The fields after "some"/"full": all four keys, in any order, others ignored. */
static int one(const char *s, size_t n, struct psi_line *l)
{
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=", "total=" };
	const char *p = s, *e = s + n, *f;
	size_t fl, kl = 0;
	unsigned seen = 0, i;

	sc_field(&p, e, &f, &fl);
	while (sc_field(&p, e, &f, &fl)) {
		for (i = 0; i < 4; i++) {
			kl = strlen(keys[i]);
			if (fl > kl && !memcmp(f, keys[i], kl))
				break;
		}
		if (i == 4)
			continue;
		/* "1.23" as 123 (more decimals are cut), total digits only */
		if (sc_decimal(f + kl, f + fl, i < 3 ? 2 : 0, 0, i < 3 ? &l->avg[i] : &l->total))
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
	unsigned long line = 0, bad = 0;   /* the first garbled or saturated line */

	memset(&p->some, 0, sizeof p->some);
	memset(&p->full, 0, sizeof p->full);
	while (sc_line(&c, end, &s, &n)) {
		line++;
		if (!n)   /* an empty line says nothing (capture fills a cut file with them) */
			continue;
		if (n < 5 || (memcmp(s, "some ", 5) && memcmp(s, "full ", 5)) ||
		    one(s, n, *s == 's' ? &p->some : &p->full) || memchr(s, 0, n))
			bad = bad ? bad : line;
	}
	p->diag = (struct diag){ psi_file, bad, bad ? "garbled" : 0, 0 };
	/* a last line without its newline is used when it parsed, and said */
	if (!bad && len && end[-1] != '\n')
		p->diag.why = "no final newline: its last line may be cut";
	return p->some.have || p->full.have ? 0 : -1;
}

int psi_read(struct psi *p)
{
	char b[256];
	int trunc, k = 0;
	long n = rd_file(psi_file, b, sizeof b, &trunc);

	if (n < 0) {
		/* absent (before 4.20, no CONFIG_PSI) or off (psi=0: EOPNOTSUPP) is
		 * normal; anything else is worth a word */
		p->diag = (struct diag){ psi_file, 0, 0, n != -ENOENT && n != -EOPNOTSUPP ? -n : 0 };
		k = n;
	} else {
		k = psi_parse(b, n, p) ? -EINVAL : 0;
		if (trunc)
			p->diag = (struct diag){ psi_file, 1, "too long", 0 };
	}
	/* once: lowmem --watch and vmstat-meter read it again and again */
	if (p->said)
		p->diag.why = 0, p->diag.err = 0;
	p->said |= mb_diag_set(&p->diag);
	return k;
}
