/* The report's format and the cells of tables for people (table.h). */
#include <string.h>
#include "table.h"
#include "zoneinfo.h"
#include "membox.h"

void fo_s(const char *s) { out_s(mb.fo, s); }
void fo_c(char c) { out_c(mb.fo, c); }

const char *const fmt_names[FMT_N] = { "table", "json", "kv", "prom" };

void out_num(struct out *o, int neg, uint64_t m, int dec, int w)
{
	char b[33];
	int n = (dec == OUT_SIZE ? size_str(b + 1, m, mb.fmt_unit) : fix_str(b + 1, m, dec)) + neg;

	b[0] = '-';
	out_pad(o, n, w);
	out_mem(o, b + !neg, n);
}

/* ---- table cells ---- */

void tb_size(uint64_t bytes, int w) { out_num(mb.fo, 0, bytes, OUT_SIZE, w); }
void tb_ssize(int64_t bytes, int w) { out_num(mb.fo, bytes < 0, out_mag(bytes), OUT_SIZE, w); }

void tb_u64(uint64_t v, int w) { out_num(mb.fo, 0, v, 0, w); }
void tb_i64(int64_t v, int w) { out_num(mb.fo, v < 0, out_mag(v), 0, w); }
void tb_fixu(uint64_t v, int dec, int w) { out_num(mb.fo, 0, v, dec, w); }

void tb_str(const char *s, int w)
{
	size_t cells = out_safe(mb.fo, s, strlen(s));
	out_pad(mb.fo, cells, w);
}

void tb_nl(void) { fo_c('\n'); }

const char *tb_unit(void)
{
	return mb.fmt_unit == 'b' ? "bytes" : mb.fmt_unit == 'm' ? "MiB" : mb.fmt_unit == 'k' ? "KiB" : "";
}

void zi_table_head(uint64_t ps, int how)
{
	fo_s("sizes in ");
	fo_s(*tb_unit() ? tb_unit() : "IEC units");
	fo_s(", page size ");
	out_u64(mb.fo, ps);
	fo_s(" bytes (");
	fo_s(zi_ps_how[how]);
	fo_s(")\n");
}
