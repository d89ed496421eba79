/* The report's format (-o) and unit (-b/-k/-m/-h), its writer, and the
 * cells of tables for people: sizes in the table unit, right-aligned. */
#ifndef MB_TABLE_H
#define MB_TABLE_H
#include <stdint.h>
#include "out.h"
#include "text.h"

enum { FMT_TABLE, FMT_JSON, FMT_KV, FMT_PROM, FMT_N };
extern const char *const fmt_names[FMT_N];   /* -o's values, by FMT_ */
/* -o, the table unit and the report's writer are mb.fmt, mb.fmt_unit and
 * mb.fo (membox.h).  out_s(mb.fo, s) and out_c(mb.fo, c): the report's writes with one argument less
 * at each of their many calls */
void fo_s(const char *s);
void fo_c(char c);

/* The one number writer: '-' when neg, m / 10^dec with dec decimals (or,
 * with dec OUT_SIZE, the size m in the table unit), right-aligned in w. */
#define OUT_SIZE (-1)
void out_num(struct out *o, int neg, uint64_t m, int dec, int w);

/* Table cells: sizes in the -b/-k/-m/-h unit, right-aligned in w. */
void tb_size(uint64_t bytes, int w);
void tb_ssize(int64_t bytes, int w);
void tb_u64(uint64_t v, int w);
void tb_i64(int64_t v, int w);
void tb_fixu(uint64_t v, int dec, int w);   /* v / 10^dec as out_fix writes it */
void tb_str(const char *s, int w);    /* left-aligned, padded to w */
void tb_nl(void);
/* The unit word for table headers: "KiB", "MiB", "bytes", "" for -h */
const char *tb_unit(void);
/* The first line of a zone table (zoneinfo.h): "sizes in KiB, page size
 * 4096 bytes (kernel)" */
void zi_table_head(uint64_t ps, int how);
#endif
