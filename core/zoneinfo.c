/* /proc/zoneinfo (pages):
 *   Node 0, zone   Normal
 *     pages free     104479
 *           boost    0              (5.0+)
 *           min      8133
 *           promo    14232          (6.x with memory tiering)
 *           protection: (0, 0, 0, 0, 0)
 * Layouts differ: per-node stats before the first zone of a node, pagesets
 * whose "high:" (with a colon) is no watermark, 2.6 kernels printing
 * "protection:" after the counters and no "managed" line, and unpopulated
 * zones that end right after "protection:". */
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include "zoneinfo.h"
#include "meminfo.h"
#include "diag.h"
#include "rd.h"
#include "sc.h"

const char *const zi_fig_names = "free\0boost\0min\0low\0high\0promo\0spanned\0present\0"
	"managed\0protection_max\0reserve\0cma";
static const char *const zi_file = "/proc/zoneinfo";
/* the figures that are a line "NAME N" of their own */
#define KEYS (ZH_BOOST | ZH_MIN | ZH_LOW | ZH_HIGH | ZH_PROMO | ZH_SPANNED | ZH_PRESENT | ZH_MANAGED | ZH_CMA)

static int fail(struct zi *z, unsigned long line, const char *why)
{
	z->err = why;
	z->err_line = line;
	return ZI_EPARSE;
}

/* A zone is complete: derive its reserve and add it to the totals. */
static int finish(struct zi *z, struct zi_zone *c)
{
	const unsigned need = ZH_FREE | ZH_MIN | ZH_LOW | ZH_HIGH | ZH_PRESENT;
	int f;

	if ((c->have & need) != need)
		return fail(z, c->line, "zone ends before its free, min, low, high and present lines");
	/* 2.6 kernels print no "managed": present pages stand in for it */
	if (!(c->have & ZH_MANAGED))
		c->managed = c->present;
	/* the kernel computes the reserve with the boost at zero, while
	 * zoneinfo prints high including the current boost */
	c->reserve = sat_add(sat_sub(c->high, c->boost), c->prot_max);
	if (c->reserve > c->managed)
		c->reserve = c->managed;
	for (f = 0; f < ZF_N; f++)
		if (ZH_SUMMED >> f & 1)
			z->tot.f[f] = sat_add(z->tot.f[f], c->f[f]);
	return 0;
}

/* "Node 0, zone   Normal" */
static int header(struct zi_zone *c, const char *s, size_t n)
{
	const char *p = s + 5, *e = s + n, *f;
	size_t fl;
	uint64_t node;

	if (sc_u64(&p, e, &node) != SC_OK || node > 1u << 20 || p == e || *p++ != ',')
		return -1;
	if (!sc_field(&p, e, &f, &fl) || !sc_eq(f, fl, "zone"))
		return -1;
	if (!sc_field(&p, e, &f, &fl) || fl >= sizeof c->name || sc_blank(p, e) != e)
		return -1;
	memset(c, 0, sizeof *c);
	c->node = node;
	memcpy(c->name, f, fl);
	return 0;
}

/* "protection: (0, 1884, 23933, 23933)" */
static int protection(struct zi_zone *c, const char *p, const char *e)
{
	uint64_t v;

	p = sc_blank(p, e);
	if (p == e || *p++ != '(')
		return -1;
	for (;;) {
		p = sc_blank(p, e);
		if (p < e && *p == ')' && !c->nprot)   /* "()": an empty list */
			break;
		if (sc_u64(&p, e, &v) == SC_NONE)
			return -1;
		if (c->nprot < ZI_MAX_PROT)
			c->prot[c->nprot++] = v;
		else
			c->prot_dropped++;
		if (v > c->prot_max)
			c->prot_max = v;
		p = sc_blank(p, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		if (p < e && *p == ')')
			break;
		return -1;
	}
	c->have |= ZH_PROT;
	return sc_blank(p + 1, e) == e ? 0 : -1;
}

static int line(struct zi *z, struct zi_zone **cur, struct zi_zone *spare,
                unsigned long ln, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *f, *g, *k = zi_fig_names;
	size_t fl, gl, i;
	uint64_t v;
	struct zi_zone *c = *cur;

	if (n >= 5 && !memcmp(s, "Node ", 5)) {
		if (c && finish(z, c))
			return ZI_EPARSE;
		c = z->n < ZI_MAX_ZONES ? &z->z[z->n] : spare;
		if (header(c, s, n))
			return fail(z, ln, "expected 'Node N, zone NAME'");
		c->line = ln;
		if (c == spare)
			z->dropped++;
		else
			z->n++;
		*cur = c;
		return 0;
	}
	if (!sc_field(&p, e, &f, &fl))
		return 0;
	if (!c)
		return fail(z, ln, "expected 'Node N, zone NAME' first");
	if (sc_eq(f, fl, "protection:")) {
		if (protection(c, p, e))
			return fail(z, ln, "garbled protection list");
		return 0;
	}
	if (sc_eq(f, fl, "pages")) {   /* "pages free N", nothing after N */
		if (!sc_field(&p, e, &g, &gl) || !sc_eq(g, gl, "free"))
			return 0;
		i = ZF_FREE;
	} else {                       /* "min N", blanks after N */
		for (i = 0; i < ZF_N && !(KEYS >> i & 1 && sc_eq(f, fl, k)); i++)
			k += strlen(k) + 1;
		if (i == ZF_N)
			return 0;
	}
	if (!sc_field(&p, e, &g, &gl) || sc_u64_all(g, gl, &v) == SC_NONE ||
	    (i == ZF_FREE ? p : sc_blank(p, e)) != e)
		return fail(z, ln, i == ZF_FREE ? "garbled 'pages free' line" : "garbled watermark line");
	c->f[i] = v;
	c->have |= 1u << i;
	return 0;
}

int zi_parse(struct zi *z, struct rd_lines *r)
{
	struct zi_zone *cur = 0, spare;   /* spare: zones beyond the table */
	const char *s;
	size_t n;
	int k;

	memset(z, 0, sizeof *z);
	while ((k = rd_line(r, &s, &n)) > 0)
		if (line(z, &cur, &spare, r->line, s, n))
			return ZI_EPARSE;
	z->skipped = r->skipped;
	if (k < 0)
		return k;
	if (!cur)
		return fail(z, r->line, "no zones");
	/* a last line without its newline parsed whole: used, and said */
	z->nonl = r->nonl;
	return finish(z, cur);
}

int zi_read(struct zi *z)
{
	char buf[MB_LINE_MAX];
	struct rd_lines r;
	int fd = rd_lines_open(&r, zi_file, buf, sizeof buf), k;

	if (fd < 0)
		return fd;
	k = zi_parse(z, &r);
	close(fd);
	return k;
}

const char *const zi_ps_how[] = { "kernel", "derived", "option", "assumed", "capture" };

/* membox-capture at the root, capture's manifest: kv lines
 *   page_size='4096'
 * (the auxiliary vector's AT_PAGESZ of the machine captured) */
uint64_t zi_capture_page_size(int *bad)
{
	char b[2048];
	const char *p = b, *s;
	size_t n;
	int trunc;
	uint64_t v;
	long len = rd_file("/membox-capture", b, sizeof b, &trunc);

	while (len > 0 && sc_line(&p, b + len, &s, &n))
		if (n >= 11 && !memcmp(s, "page_size='", 11)) {
			if (n > 12 && s[n - 1] == '\'' && sc_u64_all(s + 11, n - 12, &v) == SC_OK &&
			    zi_page_size_plausible(v))
				return v;
			if (bad)
				*bad = 1;
			return 0;
		}
	return 0;
}

uint64_t zi_page_size(const struct zi *z, uint64_t opt, uint64_t capture, int have_total,
                      uint64_t mem_total, int *how)
{
	uint64_t ps = 4096;

	if (opt) {
		*how = PS_OPTION;
		return opt;
	}
	if (rd_live()) {
		*how = PS_KERNEL;
		return getauxval(AT_PAGESZ);
	}
	if (capture) {
		*how = PS_CAPTURE;
		return capture;
	}
	if (!have_total || !z->tot.present) {
		*how = PS_ASSUMED;
		return ps;
	}
	while (ps < (1ull << 40) && sat_mul(ps, z->tot.present) < mem_total)
		ps <<= 1;
	*how = PS_DERIVED;
	return ps;
}

int zi_page_size_plausible(uint64_t ps)
{
	/* what Linux architectures offer: 4 KiB (most), 8 KiB (sparc64,
	 * alpha, mips), 16, 32 and 64 KiB (arm64, mips, loongarch, powerpc),
	 * 256 KiB (hexagon, powerpc 44x); no architecture has 128 KiB */
	return ps == 4096 || ps == 8192 || ps == 16384 || ps == 32768 ||
	       ps == 65536 || ps == 262144;
}

int zi_load(struct zi *z, struct meminfo *m, uint64_t ps_opt, uint64_t *ps, int *how,
            struct diag said[ZI_SAY_N], char *buf, size_t cap)
{
	int k = zi_read(z), have = 0, bad = 0, i;
	uint64_t capture;

	for (i = 0; i < ZI_SAY_N; i++)
		said[i] = (struct diag){ zi_file, 0, 0, 0 };
	if (k) {
		/* a parse error always names its line, line 0 of an empty file too */
		if (k > 0)
			said[ZI_SAY_FAIL] = (struct diag){ zi_file, z->err_line ? z->err_line : MB_LINE0, z->err, 0 };
		else
			said[ZI_SAY_FAIL].err = -k;
		return 1;
	}
	if (z->skipped)
		said[ZI_SAY_SKIPPED].why = "lines longer than the reader's buffer were skipped";
	if (z->nonl)
		said[ZI_SAY_NONL].why = "no final newline: its last line may be cut";
	if (z->dropped)
		said[ZI_SAY_DROPPED].why = "more zones than ZI_MAX_ZONES: extra zones are in the totals only";
	/* the caller's meminfo when it has read it (lowmem), else read here */
	capture = ps_opt || rd_live() ? 0 : zi_capture_page_size(&bad);
	if (bad)
		said[ZI_SAY_MANIFEST] = (struct diag){ "/membox-capture", 0,
			"its page_size is no Linux page size: not taken", 0 };
	if (!ps_opt && !rd_live() && !capture && !(have = MI_HAS(m, MI_MemTotal))) {
		int err = meminfo_read(m, buf, cap);
		have = !err && MI_HAS(m, MI_MemTotal);
		said[ZI_SAY_MEMINFO] = err ? *rd_diag(&said[ZI_SAY_MEMINFO], "/proc/meminfo", err, 0) : m->diag;
	}
	*ps = zi_page_size(z, ps_opt, capture, have, have ? m->v[MI_MemTotal] : 0, how);
	if (*how == PS_ASSUMED)
		said[ZI_SAY_PAGESIZE] = (struct diag){ "/proc/meminfo", 0,
			"no MemTotal in the capture: page size assumed 4096 (use --page-size)", 0 };
	else if (*how == PS_DERIVED && !zi_page_size_plausible(*ps))
		said[ZI_SAY_PAGESIZE] = (struct diag){ zi_file, 0,
			"MemTotal / present pages gives no Linux page size: sizes are wrong (use --page-size)", 0 };
	return 0;
}
