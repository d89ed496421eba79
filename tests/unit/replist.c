/* A list in prom: one pass over its rows a family, the family's HELP and
 * TYPE before its first sample; a family no row has is left out whole,
 * unless its figure is never absent or REP_KEEP (then HELP and TYPE
 * alone); two figures of one family (a name label) announce it once. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "membox.h"
#include "out.h"
#include "report.h"
#include "table.h"
#include "t.h"

static struct out cap;
static char capbuf[MB_OUT_BUF], got[4096];

static void begin(void)
{
	cap.fd = memfd_create("o", 0);
	cap.buf = capbuf;
	cap.len = 0;
	cap.err = 0;
	mb.fo = &cap;
	mb.fmt = FMT_PROM;
}

static const char *end(void)
{
	ssize_t n;

	out_flush(&cap);
	lseek(cap.fd, 0, SEEK_SET);
	n = read(cap.fd, got, sizeof got - 1);
	got[n > 0 ? n : 0] = 0;
	close(cap.fd);
	mb.fo = &out1;
	return got;
}

struct rec {
	const char *name;
	uint64_t size, late, never, kept, a, b;
};
enum { B_LATE = 1, B_NEVER, B_KEPT, B_A, B_B };
static const struct rep_fig figs[] = {
	FIG(struct rec, name, "name", REP_STR, .flags = REP_LABEL),
	FIG(struct rec, size, "size", REP_BYTES, .help = "s"),
	FIG(struct rec, late, "late", REP_COUNT, .help = "l", .flags = REP_OPTIONAL, .bit = B_LATE),
	FIG(struct rec, never, "never", REP_COUNT, .help = "n", .flags = REP_OPTIONAL, .bit = B_NEVER),
	FIG(struct rec, kept, "kept", REP_COUNT, .help = "k", .flags = REP_OPTIONAL | REP_KEEP,
	    .bit = B_KEPT),
	FIG(struct rec, a, "part", REP_COUNT, .prom = "part{kind=\"a\"}", .help = "p",
	    .flags = REP_OPTIONAL, .bit = B_A),
	FIG(struct rec, b, "part_b", REP_COUNT, .prom = "part{kind=\"b\"}", .help = "p",
	    .flags = REP_OPTIONAL, .bit = B_B),
};

static const char *const names[] = { "x", "y", "z" };
static unsigned calls;

/* Row i: size i; late only in the last row; part a in the first, b in
 * the second; a null row never */
static const void *row(void *ctx, size_t i, uint64_t *have)
{
	static struct rec r;

	(void)ctx;
	calls++;
	r = (struct rec){ names[i], i * 1024, 7, 8, 9, 10 + i, 20 + i };
	*have = (i == 2 ? 1u << B_LATE : 0) | (i == 0 ? 1u << B_A : 0) | (i == 1 ? 1u << B_B : 0);
	return &r;
}

int unit_replist(void)
{
	struct rep_list l = { 0, "t", figs, REP_N(figs), 3, row, 0, 0 };

	begin();
	calls = 0;
	rep_list(&l);
	/* by hand: six families (name is a label; part's two figures are one
	 * family), three rows each */
	CHECK("prom list: HELP and TYPE before the first sample, none for a family no row has",
	      !strcmp(end(),
	              "# HELP membox_t_size_bytes s\n# TYPE membox_t_size_bytes gauge\n"
	              "membox_t_size_bytes{name=\"x\"} 0\n"
	              "membox_t_size_bytes{name=\"y\"} 1024\n"
	              "membox_t_size_bytes{name=\"z\"} 2048\n"
	              "# HELP membox_t_late l\n# TYPE membox_t_late gauge\n"
	              "membox_t_late{name=\"z\"} 7\n"
	              "# HELP membox_t_kept k\n# TYPE membox_t_kept gauge\n"
	              "# HELP membox_t_part p\n# TYPE membox_t_part gauge\n"
	              "membox_t_part{name=\"x\",kind=\"a\"} 10\n"
	              "membox_t_part{name=\"y\",kind=\"b\"} 21\n"));
	CHECK_EQ("prom list: one pass over the rows a family (6 families, 3 rows)", calls, 18);

	/* a list of one family (as each figure of smaps-rollup's groups):
	 * one pass, no other to find which families any row has */
	l.n = 2;
	begin();
	calls = 0;
	rep_list(&l);
	end();
	CHECK_EQ("prom list of one family: one pass over the rows", calls, 3);

	l.n = REP_N(figs);
	l.rows = 0;
	begin();
	calls = 0;
	rep_list(&l);
	CHECK("prom list of no rows: HELP and TYPE of the figures never absent and REP_KEEP",
	      !strcmp(end(),
	              "# HELP membox_t_size_bytes s\n# TYPE membox_t_size_bytes gauge\n"
	              "# HELP membox_t_kept k\n# TYPE membox_t_kept gauge\n"));
	return unit_end_all();
}
