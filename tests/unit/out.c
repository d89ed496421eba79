/* The writer and its escapers: json strings stay valid on control
 * characters and invalid UTF-8, prom labels escape \ " and newline, kv
 * values are quoted for sh, tables never pass control characters; sizes
 * in every unit; the json/kv tree. */
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "membox.h"
#include "out.h"
#include "prom.h"
#include "report.h"
#include "table.h"
#include "text.h"
#include "tree.h"
#include "t.h"

static struct out cap;
static char capbuf[MB_OUT_BUF], got[4096];
static size_t glen;

static void begin(int f)
{
	cap.fd = memfd_create("o", 0);
	cap.buf = capbuf;
	cap.len = 0;
	cap.err = 0;
	mb.fo = &cap;
	mb.fmt = f;
}

static const char *end(void)
{
	out_flush(&cap);
	lseek(cap.fd, 0, SEEK_SET);
	glen = read(cap.fd, got, sizeof got - 1);
	got[glen] = 0;
	close(cap.fd);
	mb.fo = &out1;
	return got;
}

#define OUT_IS(n, e) CHECK(n, !strcmp(end(), e))

/* The formatters before they lost their 64-bit divisions, as references:
 * u64_str by % 10, out_fix by / and % 10^dec, -h sizes by / and % unit. */
static int ref_u64(char *b, uint64_t v)
{
	char t[20];
	int n = 0, i;
	do
		t[n++] = '0' + v % 10;
	while (v /= 10);
	for (i = 0; i < n; i++)
		b[i] = t[n - 1 - i];
	return n;
}

static int ref_fix(char *b, uint64_t m, int dec)
{
	uint64_t p = 1, f;
	int n, k, i;
	for (i = 0; i < dec; i++)
		p *= 10;
	n = ref_u64(b, m / p);
	if (!dec)
		return n;
	b[n++] = '.';
	f = m % p;
	for (k = ref_u64(b + n, f); k < dec; k++)
		b[n++] = '0';
	return n + ref_u64(b + n, f);
}

static int ref_human(char *b, uint64_t v)
{
	static const char units[] = "BKMGTPE";
	uint64_t unit = 1, t;
	int n, i = 0;
	if (v < 1024) {
		n = ref_u64(b, v);
		b[n++] = 'B';
		return n;
	}
	do {
		unit <<= 10;
		i++;
		t = (v / unit) * 10 + ((v % unit) * 10 + unit / 2) / unit;
	} while (t >= 10240 && i < 6);
	if (t < 100) {
		n = ref_u64(b, t / 10);
		b[n++] = '.';
		b[n++] = '0' + t % 10;
	} else {
		n = ref_u64(b, (t + 5) / 10);
	}
	b[n++] = units[i];
	return n;
}

/* Rows named by the system whose kv keys meet: a list of three figures */
struct named_rec {
	uint64_t free, present;
	int from_present;
};
static const struct rep_fig named_figs[] = {
	FIG(struct named_rec, free, "free", REP_BYTES, .help = "f"),
	FIG(struct named_rec, present, "present", REP_BYTES, .help = "p"),
	FIG(struct named_rec, from_present, "managed_from_present", REP_BOOL),
};
static const char *const row_names[] = { "N", "N.managed_from", "X-Y", "X_Y", "pgscan_direct",
	"pgscan_direct_throttle", "N.managed", "P", "P_free" };

static const void *named_row(void *ctx, size_t i, uint64_t *have)
{
	static struct named_rec r;
	(void)ctx;
	*have = REP_ALL;
	r.free = i;
	r.present = 0;
	r.from_present = 0;
	return i == 8 ? 0 : &r;   /* P_free: a null row */
}

static const char *named_name(void *ctx, size_t i)
{
	(void)ctx;
	return row_names[i];
}

/* Figures with named bits, out of their bits' order, and table columns */
struct col_rec {
	uint64_t node, a, b;
	const char *zone;
	int64_t h;
};
enum col_bit { COL_H = 1, COL_B };
static const struct rep_fig col_figs[] = {
	FIG(struct col_rec, node, "node", REP_COUNT, .flags = REP_LABEL, .label = "NODE", .width = 4),
	FIG(struct col_rec, zone, "zone", REP_STR, .flags = REP_LABEL, .label = "ZONE", .width = 6),
	FIG(struct col_rec, b, "b", REP_BYTES, .flags = REP_OPTIONAL, .bit = COL_B, .label = "B",
	    .width = 5),
	FIG(struct col_rec, a, "a", REP_COUNT, .label = "A", .width = 3, .bit = COL_H),
	FIG(struct col_rec, h, "h", REP_SBYTES, .flags = REP_OPTIONAL, .bit = COL_H),
};

int unit_out(void)
{
	static const char nasty[] = "a\"b\\c\nd\te\x1b[31m\xff\xc3\xa9\xc2\x85z";

	begin(FMT_JSON);
	tree_obj(0);
	tree_str("s", nasty, sizeof nasty - 1);
	tree_done();
	OUT_IS("json escapes", "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u001b[31m\\ufffd\xc3\xa9\\u0085z\"}\n");

	begin(FMT_KV);
	tree_obj(0);
	tree_str("s", "it's\nx\xff", 7);
	tree_done();
	OUT_IS("kv quotes for sh", "s='it'\\''s?x?'\n");

	begin(FMT_PROM);
	p_start("m");
	p_lab("l", nasty, sizeof nasty - 1);
	p_u64(5);
	OUT_IS("prom label escapes", "membox_m{l=\"a\\\"b\\\\c\\nd?e?[31m\xef\xbf\xbd\xc3\xa9?z\"} 5\n");

	begin(FMT_TABLE);
	tb_str(nasty, 0);
	OUT_IS("table: no control character raw", "a\"b\\c?d?e?[31m?\xc3\xa9?z");

	/* U+202E (right-to-left override) and U+2066 (isolate) reorder a
	 * terminal line; U+202F (a no-break space) and U+2070 are harmless */
	begin(FMT_TABLE);
	tb_str("a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x80\xaf" "d\xe2\x81\xb0", 0);
	OUT_IS("table: bidi controls replaced", "a?b?c\xe2\x80\xaf" "d\xe2\x81\xb0");
	begin(FMT_JSON);
	tree_obj(0);
	tree_cstr("s", "\xe2\x80\xae");
	tree_done();
	OUT_IS("json: bidi controls kept", "{\"s\":\"\xe2\x80\xae\"}\n");

	begin(FMT_JSON);
	tree_obj(0);
	tree_arr("zones");
	tree_elem("zone.0.DMA");
	tree_u64("min", 1);
	tree_arr("p");
	tree_u64(0, 2);
	tree_u64(0, 3);
	tree_end();
	tree_end();
	tree_elem(0);
	tree_null("x");
	tree_end();
	tree_end();
	tree_obj("total");
	tree_i64("h", -4);
	tree_fix("r", 1234, 2);
	tree_bool("b", 1);
	tree_end();
	tree_done();
	OUT_IS("json tree", "{\"zones\":[{\"min\":1,\"p\":[2,3]},{\"x\":null}],\"total\":{\"h\":-4,\"r\":12.34,\"b\":true}}\n");

	begin(FMT_KV);
	tree_obj(0);
	tree_arr("zones");
	tree_elem("zone.0.DMA");
	tree_u64("min", 1);
	tree_arr("p");
	tree_u64(0, 2);
	tree_u64(0, 3);
	tree_end();
	tree_end();
	tree_elem(0);
	tree_null("x");
	tree_end();
	tree_end();
	tree_obj("total");
	tree_i64("h", -4);
	tree_fix("r", 5, 3);
	tree_end();
	tree_done();
	OUT_IS("kv tree", "zone_0_DMA_min='1'\nzone_0_DMA_p_0='2'\nzone_0_DMA_p_1='3'\nzones_1_x=''\n"
	       "total_h='-4'\ntotal_r='0.005'\n");

	/* kv keys are shell names, whatever the names: each byte outside
	 * [A-Za-z0-9_] becomes '_', a first digit gets a '_' before it */
	begin(FMT_KV);
	tree_obj(0);
	tree_obj("zone");
	tree_obj("$(id>f)`x`\x1b\xff\xc3\xa9'\n");
	tree_bool("ok", 0);
	tree_end();
	tree_end();
	tree_arr("9");
	tree_u64(0, 1);
	tree_end();
	tree_obj("");
	tree_null("");
	tree_end();
	tree_done();
	OUT_IS("kv keys are shell names", "zone___id_f__x________ok='false'\n_9_0='1'\n__=''\n");

	/* a key is written from its parts, however long: never cut */
	{
		static char lng[3000];   /* beyond the 512 bytes keys were once cut at */
		memset(lng, 'a', sizeof lng - 1);
		begin(FMT_KV);
		tree_obj(0);
		tree_obj(lng);
		tree_u64("x", 1);
		tree_end();
		tree_done();
		end();
		CHECK_EQ("kv: a 2999-byte name is in its key whole", glen, sizeof lng - 1 + 7);
		CHECK_EQ("kv: ... and ends in its figure", memcmp(got + glen - 7, "_x='1'\n", 7), 0);
	}

	/* The later of two rows whose keys would meet is left out of kv: X_Y
	 * after X-Y; N.managed_from after N (N_managed_from_present is N's
	 * third figure and the other's second); the null row P_free after P
	 * (its one line, P_free, is P's first figure).  Rows whose keys only
	 * look alike stay: pgscan_direct_throttle, N.managed. */
	begin(FMT_KV);
	{
		const struct rep_list l = { "l", "l", named_figs, REP_N(named_figs), REP_N(row_names),
		                            named_row, 0, 0 };
		rep_begin();
		rep_list_named(&l, named_name);
		rep_end();
	}
	OUT_IS("kv: rows whose keys meet: the first kept",
	       "l_N_free='0'\nl_N_present='0'\nl_N_managed_from_present='false'\n"
	       "l_X_Y_free='2'\nl_X_Y_present='0'\nl_X_Y_managed_from_present='false'\n"
	       "l_pgscan_direct_free='4'\nl_pgscan_direct_present='0'\n"
	       "l_pgscan_direct_managed_from_present='false'\n"
	       "l_pgscan_direct_throttle_free='5'\nl_pgscan_direct_throttle_present='0'\n"
	       "l_pgscan_direct_throttle_managed_from_present='false'\n"
	       "l_N_managed_free='6'\nl_N_managed_present='0'\nl_N_managed_managed_from_present='false'\n"
	       "l_P_free='7'\nl_P_present='0'\nl_P_managed_from_present='false'\n");

	{
		const struct col_rec r = { 1, 7, 2048, "x", -1024 };
		begin(FMT_JSON);
		rep_begin();
		rep_figs("", col_figs, REP_N(col_figs), &r, (uint64_t)1 << COL_H);
		rep_end();
		OUT_IS("named bits: b (bit 2) absent, h (bit 1) present, a not optional",
		       "{\"node\":1,\"zone\":\"x\",\"b\":null,\"a\":7,\"h\":-1024}\n");
		begin(FMT_TABLE);
		mb.fmt_unit = 'b';
		rep_table_head(col_figs, REP_N(col_figs));
		rep_table_row(col_figs, REP_N(col_figs), &r, (uint64_t)1 << COL_B | (uint64_t)1 << COL_H, 0);
		rep_table_row(col_figs, REP_N(col_figs), &r, 0, "total");
		OUT_IS("table: the columns of the figures with a width, '-' for a bit not had, "
		       "a total's text across the label columns",
		       "NODE ZONE       B   A\n"
		       "   1 x       2048   7\n"
		       "total           -   -\n");
	}

	begin(FMT_TABLE);
	mb.fmt_unit = 'k';
	tb_size(1535, 6);
	tb_size(1536, 6);
	mb.fmt_unit = 'm';
	tb_size(3 << 20, 4);
	mb.fmt_unit = 'b';
	tb_ssize(-7, 4);
	mb.fmt_unit = 'h';
	tb_size(1023, 7);
	tb_size(1536, 7);
	tb_size(10 * 1024 * 1024 - 1, 7);
	tb_size(1048575, 7);
	tb_ssize(-(int64_t)(3u << 30), 7);
	tb_size(UINT64_MAX, 7);
	OUT_IS("table sizes", "     1     2   3  -7  1023B   1.5K    10M   1.0M  -3.0G    16E");

	begin(FMT_TABLE);
	out_fix(mb.fo, -5, 3);
	out_c(mb.fo, ' ');
	out_i64(mb.fo, INT64_MIN);
	OUT_IS("fixed point and int64 min", "-0.005 -9223372036854775808");

	{
		char a[40], b[40], c[40];
		unsigned i, bad = 0, badfix = 0, badh = 0, badcell = 0;
		int n, m, dec;
		for (i = 0; i < 20000; i++) {
			uint64_t v = unit_val(i);
			n = u64_str(a, v);
			bad += n != ref_u64(b, v) || memcmp(a, b, n);
			dec = i % 10;
			n = fix_str(a, v, dec);
			m = ref_fix(b, v, dec);
			badfix += n != m || memcmp(a, b, n);
			begin(FMT_TABLE);
			out_fix(mb.fo, (int64_t)v, dec);
			end();
			c[0] = '-';
			m = (int64_t)v < 0 ? ref_fix(c + 1, 0 - v, dec) + 1 : ref_fix(c, v, dec);
			badfix += glen != (size_t)m || memcmp(got, c, m);
			begin(FMT_TABLE);
			mb.fmt_unit = 'h';
			tb_size(v, 0);
			end();
			m = ref_human(b, v);
			badh += glen != (size_t)m || memcmp(got, b, m);
			begin(FMT_TABLE);
			tb_fixu(v, dec, 24);
			end();
			m = ref_fix(b, v, dec);
			badcell += glen != (size_t)(m > 24 ? m : 24) || memcmp(got + glen - m, b, m);
		}
		mb.fmt_unit = 'k';
		CHECK_EQ("u64_str as % 10 gives it", bad, 0);
		CHECK_EQ("fix_str and out_fix as / and % 10^dec give them", badfix, 0);
		CHECK_EQ("-h sizes as / and % unit give them", badh, 0);
		CHECK_EQ("tb_fixu right-aligns fix_str", badcell, 0);
		n = u64_str(a, UINT64_MAX);
		CHECK_STR("u64_str max", a, (size_t)n, "18446744073709551615");
		n = u64_str(a, 4294967296ull);
		CHECK_STR("u64_str 2^32", a, (size_t)n, "4294967296");
		n = fix_str(a, 5, 9);
		CHECK_STR("fix_str leading zeros", a, (size_t)n, "0.000000005");
		n = fix_str(a, UINT64_MAX, 9);
		CHECK_STR("fix_str max", a, (size_t)n, "18446744073.709551615");
		n = fix_str(a, 0, 0);
		CHECK_STR("fix_str 0", a, (size_t)n, "0");
	}

	CHECK_EQ("utf8 overlong rejected", utf8_len((const unsigned char *)"\xc0\xaf", 2), 0);
	CHECK_EQ("utf8 surrogate rejected", utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);
	CHECK_EQ("utf8 4 bytes", utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	CHECK_EQ("utf8 cut short", utf8_len((const unsigned char *)"\xe2\x82", 2), 0);
	return unit_end_all();
}
