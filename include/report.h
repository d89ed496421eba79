/* rep_: the one report layer.  An applet declares each figure it reports
 * once, in a table of struct rep_fig written with FIG(): its json/kv key,
 * its kind (which fixes its unit and how it is written), where its value
 * lies in a record the applet fills, its presence bit when it may be
 * absent, its Prometheus HELP text (what it is) and its table column (the
 * text people read, and a width).  The functions below render such a table
 * as json or kv members (through the t_ tree of out.h), as Prometheus
 * families (HELP and TYPE once, then one sample per row), or as the columns
 * of a table for people; a list is rows of the same figures.  Tables that
 * are not rows of figures stay hand-laid by the applet (tb_ cells).
 *
 * A table of figures may hold nested objects: FIG_OBJ opens one (its key
 * the member name, its prom the name prefix of its members in prom),
 * FIG_END closes it.  An object that is REP_OPTIONAL and absent is null in
 * json/kv (left out with REP_OMIT), and its members are left out (in prom
 * too).  REP_NOTREE and REP_NOPROM are flags of figures, not of objects.
 *
 * Several figures may be samples of one prom family, told apart by a label:
 * a prom name may end in {NAME="VALUE"} (no escapes), a label of the
 * figure's samples after the row's labels; consecutive figures of one family
 * name have its HELP and TYPE once, the first's:
 *   FIG(struct r, avg, "average_rate", REP_FIX, .prom = "rate_per_second{stat=\"average\"}"),
 *   FIG(struct r, max, "max_rate", REP_FIX, .prom = "rate_per_second{stat=\"max\"}"),  */
#ifndef MB_REPORT_H
#define MB_REPORT_H
#include <stddef.h>
#include <stdint.h>

enum rep_kind {
	REP_BYTES,    /* uint64_t, bytes; prom name ends in _bytes */
	REP_SBYTES,   /* int64_t, bytes that may be negative (a headroom) */
	REP_COUNT,    /* uint64_t, a number of things, or a value with no unit */
	REP_INT,      /* int64_t */
	REP_FIX,      /* int64_t, the value times 10^dec, written with dec decimals */
	REP_BOOL,     /* int; not in prom */
	REP_STR,      /* const char *, NUL-terminated; not in prom but as a label */
	REP_ARRAY,    /* struct rep_array: a json array of bytes; not in prom */
	REP_OBJ,      /* opens a nested object */
	REP_END,      /* closes it */
	REP_STRS,     /* const char *const *, NULL-terminated: a json array of
	                 strings; not in prom */
	REP_ROWS,     /* struct rep_rows: a json array of objects, rows produced
	                 as they are shown; not in prom */
	REP_TEXT,     /* struct rep_text: a string given by its length; as
	                 REP_STR (a name read from the system and kept by its
	                 length: it may hold a NUL byte, written escaped) */
	REP_LIST,     /* struct rep_list: a list inside the record (rep_list) */
	REP_RECORD,   /* struct rep_record: a nested object of another table's
	                 figures, its own record and have mask (a table used in
	                 two places, or too long for one mask); json/kv only */
	REP_CALL,     /* struct rep_call: a nested object whose members are
	                 known only as it is written (a kernel file's keys: no
	                 table can declare them): fn(ctx) writes them with
	                 tree_ calls; json/kv only */
};

enum rep_flag {
	REP_OPTIONAL = 1,   /* may be absent: its have bit says; json null */
	REP_NOPROM = 2,     /* not a prom family */
	REP_NOTREE = 4,     /* not a json/kv member */
	REP_COUNTER = 8,    /* prom TYPE counter (else gauge) */
	REP_LABEL = 16,     /* in a list: a label of every prom sample, named
	                       by prom (when not 0) or key; left out of the
	                       samples of rows that lack it */
	REP_OMIT = 32,      /* may be absent: its have bit says; absent, it is
	                       left out (json: no member rather than null; an
	                       object is left out with its members): what a
	                       record may lack, where rep_list_except leaves out
	                       what a whole list lacks */
	REP_KEEP = 64,      /* in a list: prom writes the family (HELP and TYPE)
	                       even when no row has the figure */
};

struct rep_array {
	const uint64_t *v;
	unsigned n;
};

struct rep_record {
	const struct rep_fig *figs;
	size_t n;
	const void *rec;
	uint64_t have;
};

struct rep_call {
	void (*fn)(const void *ctx);
	const void *ctx;
};

struct rep_text {
	const char *s;
	size_t n;
};

struct rep_fig {
	const char *key;     /* json/kv member name */
	const char *prom;    /* prom name after "membox_" and the prefix, without
	                        the _bytes suffix; 0: the key */
	const char *help;    /* prom HELP */
	unsigned short off;  /* offsetof the value in the record */
	unsigned char kind;  /* enum rep_kind */
	unsigned char dec;   /* REP_FIX: decimals */
	unsigned char flags; /* enum rep_flag */
	unsigned char bit;   /* its presence bit in the record's have mask, from
	                        an enum of the record that starts at 1; 0: none
	                        (a figure that is always there) */
	unsigned char width; /* table column width; 0: no column */
	unsigned char approx; /* its approximation bit in the have mask (from
	                        the enum of bit), set when the value is worked
	                        out rather than the kernel's own: its table cell
	                        is marked "~" before it; 0: none */
	const char *label;   /* its text in a table for people (a column header
	                        or a row label); 0: the key */
};

/* A figure: FIG(struct zone_rec, min, "min", REP_BYTES, .bit = ZONE_MIN,
 * .help = "..."), any member of struct rep_fig named after the kind. */
#define FIG(type, member, key_, kind_, ...) \
	{ .key = (key_), .off = offsetof(type, member), .kind = (kind_), __VA_ARGS__ }
#define FIG_OBJ(key_, ...) { .key = (key_), .kind = REP_OBJ, __VA_ARGS__ }
#define FIG_END { .key = "", .kind = REP_END }

#define REP_N(figs) (sizeof (figs) / sizeof *(figs))

/* A record's have mask: bit f->bit for figure f.  Figures that are neither REP_OPTIONAL nor REP_OMIT
 * are present in json, kv and prom whatever their bit; in a table a figure
 * whose bit the record lacks is '-'. */
#define REP_ALL (~(uint64_t)0)

/* The report's frame: json/kv open the top-level object and close it with
 * a newline; prom has none.  The table format has its own layout. */
void rep_begin(void);
void rep_end(void);

/* The time of a report made again and again (--every, lowmem --watch,
 * vmstat-meter's sample lines), so that a log can be dated beside the
 * kernel's: rep_stamp(ms) notes when the report's figures are read, in
 * milliseconds since the epoch (UTC) on CLOCK_REALTIME as rep_clock_ms
 * reads it; 0 (at the start) notes none.  While one is noted, rep_begin
 * writes it first, member "time" in seconds with 3 decimals (json, kv;
 * prom has none: a scrape has its own time), and rep_table_stamp writes
 * the heading line "time 2026-11-28T08:30:12Z" of a table.
 * rep_time_text: ms as that UTC text into b (REP_TIME_LEN bytes): b,
 * empty for a year that has not four digits. */
#define REP_TIME_LEN 24
int64_t rep_clock_ms(void);
void rep_stamp(int64_t ms);
void rep_table_stamp(void);
char *rep_time_text(char *b, int64_t ms);

/* The figures figs[0..n) of rec in the format asked for: json/kv members
 * of the object open now, or prom families (names "membox_" prefix and
 * the figure's prom name; prefix may be ""). */
void rep_figs(const char *prefix, const struct rep_fig *figs, size_t n,
              const void *rec, uint64_t have);

/* A list: rows of the same figures.  row(ctx, i, &have) gives row i's
 * record (it may fill one scratch record each call) and its have mask, or
 * 0 when the whole row is absent: null in json/kv, no sample in prom.
 * kvname(ctx, i, buf), when not 0, names the row's kv path (at most 64
 * bytes with the NUL) instead of "key.INDEX". */
struct rep_list {
	const char *key;                   /* json/kv member name of the array;
	                                      0: none, the list is prom only */
	const char *prefix;                /* prom names: "membox_" prefix figure */
	const struct rep_fig *figs;
	size_t n;
	size_t rows;
	const void *(*row)(void *ctx, size_t i, uint64_t *have);
	void (*kvname)(void *ctx, size_t i, char *buf);
	void *ctx;
};
/* In the format asked for: json, an array of objects (kv: one path per
 * row); prom, one family per figure that is neither a label nor
 * REP_NOPROM, with a sample per row that has it, labelled by the
 * REP_LABEL figures (a family whose figure no row has is left out whole,
 * unless REP_KEEP). */
void rep_list(const struct rep_list *l);

/* A list whose rows have names: in json/kv an object instead of an array,
 * row i its member name(ctx, i) (kv: "key.NAME.figure"); prom as rep_list. */
void rep_list_named(const struct rep_list *l, const char *(*name)(void *ctx, size_t i));

/* rep_list without the figures whose bit (as in a have mask) is set in
 * left_out: no json/kv member, not even null, no prom family or label;
 * for the figures of an option not given. */
void rep_list_except(const struct rep_list *l, uint64_t left_out);

/* A REP_ROWS figure's value: a list whose length is not known ahead (a
 * walk), each row's record and have mask given by next(ctx, &have) as it
 * is shown, 0 after the last. */
struct rep_rows {
	const struct rep_fig *figs;
	size_t n;
	const void *(*next)(void *ctx, uint64_t *have);
	void *ctx;
};

/* A table for people: the columns are the figures with a width, in their
 * order, each after a space but the first.  A string is left-aligned, a
 * number right-aligned (sizes in the unit asked for), "~" before it when
 * approximate (its approx bit); a figure the record lacks (its bit) is '-'.  rep_table_head writes the labels, rep_table_row
 * a record's cells, each line ending in a newline.  A row of a total has
 * no labels: span (when not 0) is written across the REP_LABEL columns
 * (consecutive figures) instead. */
void rep_table_head(const struct rep_fig *figs, size_t n);
void rep_table_row(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                   const char *span);
/* A table whose columns are not in the figures' order (json's), or whose
 * line goes on after them: cols names the columns, the keys of figures
 * with a width separated by commas ("used,allocated"), as ps -o takes
 * them.  rep_table_head_cols writes their labels, rep_table_row_cols a
 * record's cells, as rep_table_head and rep_table_row do, but end no
 * line: the caller writes the rest of it and the newline. */
void rep_table_head_cols(const struct rep_fig *figs, size_t n, const char *cols);
void rep_table_row_cols(const struct rep_fig *figs, size_t n, const char *cols, const void *rec,
                        uint64_t have);

/* A table for people of a figure a line (a record that is no list): its
 * label, left-aligned in label_w, then its value right-aligned in its
 * width ('-' when the record lacks it, a bool "yes" or "no").  The lines
 * are the figures with a label and a width; every, when not 0, adds the
 * others with a label, their values in width every (a short table and
 * its -v).  Objects are no lines, nor figures that are not json/kv
 * members (REP_NOTREE) or are left out when absent (REP_OMIT). */
void rep_table_rows(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                    int label_w, int every);

/* Prometheus families that are not figures of a record: flat families
 * whose samples' labels are known only as they are written (a kernel
 * file's keys, one sample each).  An applet declares them in one table of
 * struct rep_family, writes a family's HELP and TYPE with rep_family, then
 * its samples with rep_sample_u64/_i64: labels are pairs of a name and a
 * value, ended by a 0 name, as in
 *   rep_sample_u64(&families[F_STAT], REP_LABELS("cgroup", path, "key", k), v); */
struct rep_family {
	const char *name;    /* after "membox_", with its unit suffix */
	const char *help;
	unsigned char flags; /* REP_COUNTER: TYPE counter (else gauge) */
};
#define REP_LABELS(...) ((const char *const[]){ __VA_ARGS__, 0 })
void rep_family(const struct rep_family *f);
void rep_sample_u64(const struct rep_family *f, const char *const *labels, uint64_t v);
void rep_sample_i64(const struct rep_family *f, const char *const *labels, int64_t v);

/* Can the format asked for write a report again and again on one stream
 * (a watch mode)?  Not prom: a scrape reads one exposition. */
int rep_can_stream(void);

/* A list written as its rows come: json and kv write each row at once,
 * so the caller may forget it; prom writes a family at a time, so at the
 * close, through l->row, from all l->rows rows.  rep_list_open says which:
 * 1 when rows are written as they come (the array is open), 0 when they
 * are written at the close (rep_list_row does nothing then). */
int rep_list_open(const struct rep_list *l);
void rep_list_row(const struct rep_list *l, size_t i);
void rep_list_close(const struct rep_list *l);
#endif
