/* The writer and its escapers: json strings stay valid on control
 * characters and invalid UTF-8, prom labels escape \ " and newline, kv
 * values are quoted for sh, tables never pass control characters; sizes
 * in every unit; the json/kv tree. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "out.h"
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
	fo = &cap;
	fmt = f;
}

static const char *end(void)
{
	out_flush(&cap);
	lseek(cap.fd, 0, SEEK_SET);
	glen = read(cap.fd, got, sizeof got - 1);
	got[glen] = 0;
	close(cap.fd);
	fo = &out1;
	return got;
}

#define OUT_IS(n, e) CHECK(n, !strcmp(end(), e))

int main(void)
{
	static const char nasty[] = "a\"b\\c\nd\te\x1b[31m\xff\xc3\xa9\xc2\x85z";

	begin(FMT_JSON);
	t_obj(0);
	t_str("s", nasty, sizeof nasty - 1);
	t_done();
	OUT_IS("json escapes", "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u001b[31m\\ufffd\xc3\xa9\\u0085z\"}\n");

	begin(FMT_KV);
	t_obj(0);
	t_str("s", "it's\nx\xff", 7);
	t_done();
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
	t_obj(0);
	t_cstr("s", "\xe2\x80\xae");
	t_done();
	OUT_IS("json: bidi controls kept", "{\"s\":\"\xe2\x80\xae\"}\n");

	begin(FMT_JSON);
	t_obj(0);
	t_arr("zones");
	t_elem("zone.0.DMA");
	t_u64("min", 1);
	t_arr("p");
	t_u64(0, 2);
	t_u64(0, 3);
	t_end();
	t_end();
	t_elem(0);
	t_null("x");
	t_end();
	t_end();
	t_obj("total");
	t_i64("h", -4);
	t_fix("r", 1234, 2);
	t_bool("b", 1);
	t_end();
	t_done();
	OUT_IS("json tree", "{\"zones\":[{\"min\":1,\"p\":[2,3]},{\"x\":null}],\"total\":{\"h\":-4,\"r\":12.34,\"b\":true}}\n");

	begin(FMT_KV);
	t_obj(0);
	t_arr("zones");
	t_elem("zone.0.DMA");
	t_u64("min", 1);
	t_arr("p");
	t_u64(0, 2);
	t_u64(0, 3);
	t_end();
	t_end();
	t_elem(0);
	t_null("x");
	t_end();
	t_end();
	t_obj("total");
	t_i64("h", -4);
	t_fix("r", 5, 3);
	t_end();
	t_done();
	OUT_IS("kv tree", "zone.0.DMA.min=1\nzone.0.DMA.p.0=2\nzone.0.DMA.p.1=3\nzones.1.x=\ntotal.h=-4\ntotal.r=0.005\n");

	begin(FMT_TABLE);
	fmt_unit = 'k';
	tb_size(1535, 6);
	tb_size(1536, 6);
	fmt_unit = 'm';
	tb_size(3 << 20, 4);
	fmt_unit = 'b';
	tb_ssize(-7, 4);
	fmt_unit = 'h';
	tb_size(1023, 7);
	tb_size(1536, 7);
	tb_size(10 * 1024 * 1024 - 1, 7);
	tb_size(1048575, 7);
	tb_ssize(-(int64_t)(3u << 30), 7);
	tb_size(UINT64_MAX, 7);
	OUT_IS("table sizes", "     1     2   3  -7  1023B   1.5K    10M   1.0M  -3.0G    16E");

	begin(FMT_TABLE);
	out_fix(fo, -5, 3);
	out_c(fo, ' ');
	out_i64(fo, INT64_MIN);
	OUT_IS("fixed point and int64 min", "-0.005 -9223372036854775808");

	CHECK_EQ("utf8 overlong rejected", utf8_len((const unsigned char *)"\xc0\xaf", 2), 0);
	CHECK_EQ("utf8 surrogate rejected", utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);
	CHECK_EQ("utf8 4 bytes", utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	CHECK_EQ("utf8 cut short", utf8_len((const unsigned char *)"\xe2\x82", 2), 0);
	return t_end_all();
}
