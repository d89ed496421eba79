/* The report layer (report.h): figures declared once, written as json and
 * kv members through the tree of tree.c, or as Prometheus families through
 * prom.c.  Applets call the format-neutral functions; the per-format ones
 * are this file's own. */
#include <string.h>
#include <time.h>
#include "diag.h"
#include "msg.h"
#include "out.h"
#include "prom.h"
#include "report.h"
#include "table.h"
#include "text.h"
#include "tree.h"
#include "membox.h"

#define T_KV_DEPTH 4   /* objects nested in a row's figures */
#define VAL(rec, f, type) (*(type const *)((const char *)(rec) + (f)->off))

/* Is the figure's presence bit set in mask? */
static int has_bit(const struct rep_fig *f, uint64_t mask)
{
	return f->bit && f->bit < 64 && (mask >> f->bit & 1);
}

static int present(const struct rep_fig *f, uint64_t have)
{
	return !(f->flags & (REP_OPTIONAL | REP_OMIT)) || has_bit(f, have);
}

/* Left out: a REP_OMIT figure its record lacks. */
static int omitted(const struct rep_fig *f, uint64_t have)
{
	return (f->flags & REP_OMIT) && !present(f, have);
}

static size_t obj_end(const struct rep_fig *figs, size_t n, size_t i);
static void rep_tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have);
static void rep_prom(const char *prefix, const struct rep_fig *figs, size_t n,
                     const void *rec, uint64_t have);
static void rep_list_tree(const struct rep_list *l);
static void rep_list_prom(const struct rep_list *l);
static void announce(const char *name, char *last, size_t cap, const struct rep_fig *f);
static void name_label(const struct rep_fig *f);
static void list_tree(const struct rep_list *l, const char *(*name)(void *ctx, size_t i),
                      uint64_t left_out);
static int is_left_out(const struct rep_fig *f, uint64_t left_out);
static void streamed_rows(const char *key, const struct rep_rows *r);
static void list_prom(const struct rep_list *l, uint64_t left_out);

/* ---- the time of a report made again and again ---- */

int64_t rep_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rep_stamp(int64_t ms) { mb.stamp = ms; }

/* n digits of v, zero-padded, at b: the end.  (Not strftime: musl's
 * brings its time-zone and locale code, 21 KiB of a 166 KiB binary, for
 * a text that is always UTC.) */
static char *digits(char *b, unsigned v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--, v /= 10)
		b[i] = '0' + v % 10;
	return b + n;
}

char *rep_time_text(char *b, int64_t ms)
{
	time_t t = ms / 1000 - (ms % 1000 < 0);
	struct tm tm;
	char *e = b;

	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
		*b = 0;   /* not a year of four digits: a clock that is wrong */
		return b;
	}
	e = digits(e, tm.tm_year + 1900, 4);
	*e++ = '-';
	e = digits(e, tm.tm_mon + 1, 2);
	*e++ = '-';
	e = digits(e, tm.tm_mday, 2);
	*e++ = 'T';
	e = digits(e, tm.tm_hour, 2);
	*e++ = ':';
	e = digits(e, tm.tm_min, 2);
	*e++ = ':';
	e = digits(e, tm.tm_sec, 2);
	*e++ = 'Z';
	*e = 0;
	return b;
}

void rep_table_stamp(void)
{
	char t[REP_TIME_LEN];

	if (!mb.stamp)
		return;
	fo_s("time ");
	fo_s(rep_time_text(t, mb.stamp));
	tb_nl();
}

void rep_begin(void)
{
	if (mb.fmt == FMT_PROM)
		return;
	tree_obj(0);
	if (mb.stamp)
		tree_fix("time", mb.stamp, 3);
}

void rep_end(void)
{
	if (mb.fmt != FMT_PROM)
		tree_done();
}

static void tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                 uint64_t left_out)
{
	size_t i;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (is_left_out(f, left_out))
			continue;
		if (omitted(f, have)) {
			if (f->kind == REP_OBJ)
				i = obj_end(figs, n, i);
			continue;
		}
		if (f->kind == REP_OBJ && !present(f, have)) {
			tree_null(f->key);
			i = obj_end(figs, n, i);
			continue;
		}
		if (f->flags & REP_NOTREE)
			continue;
		if (f->kind == REP_OBJ) {
			tree_obj(f->key);
			continue;
		}
		if (f->kind == REP_END) {
			tree_end();
			continue;
		}
		if (!present(f, have)) {
			if (!(f->flags & REP_OMIT))
				tree_null(f->key);
			continue;
		}
		switch (f->kind) {
		case REP_BYTES: case REP_COUNT:
			tree_u64(f->key, VAL(rec, f, uint64_t));
			break;
		case REP_SBYTES: case REP_INT:
			tree_i64(f->key, VAL(rec, f, int64_t));
			break;
		case REP_FIX:
			tree_fix(f->key, VAL(rec, f, int64_t), f->dec);
			break;
		case REP_BOOL:
			tree_bool(f->key, VAL(rec, f, int));
			break;
		case REP_STR:
			tree_cstr(f->key, VAL(rec, f, const char *));
			break;
		case REP_ARRAY:
			tree_arr(f->key);
			for (j = 0; j < VAL(rec, f, struct rep_array).n; j++)
				tree_u64(0, VAL(rec, f, struct rep_array).v[j]);
			tree_end();
			break;
		case REP_STRS:
			tree_arr(f->key);
			for (j = 0; VAL(rec, f, const char *const *)[j]; j++)
				tree_cstr(0, VAL(rec, f, const char *const *)[j]);
			tree_end();
			break;
		case REP_ROWS:
			streamed_rows(f->key, &VAL(rec, f, struct rep_rows));
			break;
		case REP_TEXT:
			tree_str(f->key, VAL(rec, f, struct rep_text).s, VAL(rec, f, struct rep_text).n);
			break;
		case REP_LIST:
			rep_list_tree(&VAL(rec, f, struct rep_list));
			break;
		case REP_CALL:
			tree_obj(f->key);
			VAL(rec, f, struct rep_call).fn(VAL(rec, f, struct rep_call).ctx);
			tree_end();
			break;
		case REP_RECORD:
			tree_obj(f->key);
			tree(VAL(rec, f, struct rep_record).figs, VAL(rec, f, struct rep_record).n,
			     VAL(rec, f, struct rep_record).rec, VAL(rec, f, struct rep_record).have, 0);
			tree_end();
			break;
		}
	}
}

static void rep_tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have)
{
	tree(figs, n, rec, have, 0);
}

/* Can the figure be a prom family? */
static int is_family(const struct rep_fig *f)
{
	return !(f->flags & (REP_NOPROM | REP_LABEL)) && f->kind <= REP_FIX;
}

/* "PREFIX_PARENT_NAME_bytes": the family name after "membox_" (NAME without
 * the label a prom name may end in) */
static void family(char *b, size_t cap, const char *prefix, const char *parent,
                   const struct rep_fig *f)
{
	const char *parts[4] = { prefix, parent, f->prom ? f->prom : f->key, 0 };
	size_t len = 0, i, k;

	if (f->kind == REP_BYTES || f->kind == REP_SBYTES)
		parts[3] = "bytes";
	for (i = 0; i < 4; i++) {
		if (!parts[i] || !*parts[i])
			continue;
		k = strcspn(parts[i], "{");
		if (len + k + 2 > cap)
			break;
		if (len)
			b[len++] = '_';
		memcpy(b + len, parts[i], k);
		len += k;
	}
	b[len] = 0;
}

static void sample(const struct rep_fig *f, const void *rec)
{
	switch (f->kind) {
	case REP_BYTES: case REP_COUNT:
		p_u64(VAL(rec, f, uint64_t));
		break;
	case REP_SBYTES: case REP_INT:
		p_i64(VAL(rec, f, int64_t));
		break;
	case REP_FIX:
		p_fix(VAL(rec, f, int64_t), f->dec);
		break;
	}
}

static const char *type(const struct rep_fig *f)
{
	return f->flags & REP_COUNTER ? "counter" : "gauge";
}

static void rep_prom(const char *prefix, const struct rep_fig *figs, size_t n,
                     const void *rec, uint64_t have)
{
	const char *parent = 0;
	char name[128], last[128] = "";
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (f->kind == REP_OBJ && !present(f, have)) {
			i = obj_end(figs, n, i);
			continue;
		}
		if (omitted(f, have))
			continue;
		if (f->kind == REP_LIST && !(f->flags & REP_NOPROM)) {
			rep_list_prom(&VAL(rec, f, struct rep_list));
			continue;
		}
		if (f->kind == REP_OBJ || f->kind == REP_END) {
			parent = f->kind == REP_OBJ ? (f->prom ? f->prom : f->key) : 0;
			continue;
		}
		if (!is_family(f) || !present(f, have))
			continue;
		family(name, sizeof name, prefix, parent, f);
		announce(name, last, sizeof last, f);
		p_start(name);
		name_label(f);
		sample(f, rec);
	}
}

void rep_figs(const char *prefix, const struct rep_fig *figs, size_t n,
              const void *rec, uint64_t have)
{
	if (mb.fmt == FMT_PROM)
		rep_prom(prefix, figs, n, rec, have);
	else
		rep_tree(figs, n, rec, have);
}

static void rep_list_tree(const struct rep_list *l)
{
	list_tree(l, 0, 0);
}

static void labels(const struct rep_list *l, const void *rec, uint64_t have, uint64_t left_out)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		const char *name = f->prom ? f->prom : f->key;
		if (!(f->flags & REP_LABEL) || is_left_out(f, left_out) || !present(f, have))
			continue;
		if (f->kind == REP_STR)
			p_labc(name, VAL(rec, f, const char *));
		else if (f->kind == REP_TEXT)
			p_lab(name, VAL(rec, f, struct rep_text).s, VAL(rec, f, struct rep_text).n);
		else
			p_labu(name, VAL(rec, f, uint64_t));
	}
}

/* rep_list_prom, without the figures left_out (rep_list_except): a pass
 * over the rows a family, its HELP and TYPE before its first sample (or
 * alone after none, when the figure is never absent or REP_KEEP) */
static void list_prom(const struct rep_list *l, uint64_t left_out)
{
	char name[128], last[128] = "";
	uint64_t have;
	size_t i, r, samples;

	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		if (!is_family(f) || is_left_out(f, left_out))
			continue;
		family(name, sizeof name, l->prefix, 0, f);
		for (samples = r = 0; r < l->rows; r++) {
			const void *rec = l->row(l->ctx, r, &have);
			if (!rec || !present(f, have))
				continue;
			if (!samples++)
				announce(name, last, sizeof last, f);
			p_start(name);
			labels(l, rec, have, left_out);
			name_label(f);
			sample(f, rec);
		}
		if (!samples && (present(f, 0) || (f->flags & REP_KEEP)))
			announce(name, last, sizeof last, f);
	}
}

static void rep_list_prom(const struct rep_list *l)
{
	list_prom(l, 0);
}

void rep_list(const struct rep_list *l)
{
	if (mb.fmt == FMT_PROM)
		rep_list_prom(l);
	else
		rep_list_tree(l);
}

/* The index of the REP_END that closes the REP_OBJ figs[i]. */
static size_t obj_end(const struct rep_fig *figs, size_t n, size_t i)
{
	unsigned open = 0;

	for (; i < n; i++) {
		if (figs[i].kind == REP_OBJ)
			open++;
		else if (figs[i].kind == REP_END && !--open)
			break;
	}
	return i;
}

/* HELP and TYPE of family name, unless it is the family of the figure
 * before (last: its name) */
static void announce(const char *name, char *last, size_t cap, const struct rep_fig *f)
{
	if (!strcmp(name, last))
		return;
	p_type(name, type(f), f->help);
	strncpy(last, name, cap - 1);
}

/* The label a figure's prom name may end in, {NAME="VALUE"} */
static void name_label(const struct rep_fig *f)
{
	const char *s = f->prom ? strchr(f->prom, '{') : 0;
	char key[32];
	size_t k;

	if (!s)
		return;
	s++;
	k = strcspn(s, "=");
	if (k >= sizeof key)
		k = sizeof key - 1;
	memcpy(key, s, k);
	key[k] = 0;
	s += k + 2;
	p_lab(key, s, strcspn(s, "\""));
}

/* Row i of a list as a json object (a kv path), or as its member name */
static void tree_row(const struct rep_list *l, size_t i, const char *(*name)(void *ctx, size_t i),
                     uint64_t left_out)
{
	char path[64];
	uint64_t have;
	const void *rec = l->row(l->ctx, i, &have);
	const char *key = name ? name(l->ctx, i) : 0;

	if (!rec) {
		tree_null(key);
		return;
	}
	if (key) {
		tree_obj(key);
	} else if (l->kvname) {
		l->kvname(l->ctx, i, path);
		tree_elem(path);
	} else {
		tree_obj(0);
	}
	tree(l->figs, l->n, rec, have, left_out);
	tree_end();
}

/* ---- kv keys of rows named from the system ----
 * kv keys are shell names (tree.c): every byte outside [A-Za-z0-9_] becomes
 * '_'.  Rows named by the system (a zone, a counter) may thus share a key:
 * zones "DMA-32" and "DMA_32", or "Normal" and "Normal.managed_from",
 * whose keys zone_0_Normal_managed_from_present meet.  Such a row is left
 * out of kv, with a warning, and the earlier one kept.  The check compares
 * each named row with every earlier one: named lists are short (zones,
 * counters); streamed rows (rep_list_row) are processes, named by PID. */

/* The kv names of the figures of a row (an object's members prefixed
 * "OBJECT_", an array's elements "KEY_#", # for the index): fn(leaf, arg)
 * for each, until it returns 1, which is returned. */
static int each_leaf(const struct rep_list *l, uint64_t left_out,
                     int (*fn)(const char *leaf, void *arg), void *arg)
{
	char b[128];
	size_t i, len = 0, open[T_KV_DEPTH], depth = 0, k;

	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		if (f->kind == REP_END) {
			if (depth)
				len = open[--depth];
			continue;
		}
		if (is_left_out(f, left_out) || (f->flags & REP_NOTREE)) {
			if (f->kind == REP_OBJ)
				i = obj_end(l->figs, l->n, i);
			continue;
		}
		/* figure keys are short words: one that would not fit is no leaf */
		k = strlen(f->key);
		if (len + k + 3 > sizeof b || (f->kind == REP_OBJ && depth == T_KV_DEPTH)) {
			if (f->kind == REP_OBJ)
				i = obj_end(l->figs, l->n, i);
			continue;
		}
		if (f->kind == REP_OBJ) {
			open[depth++] = len;
			memcpy(b + len, f->key, k);
			len += k;
			b[len++] = '_';
			continue;
		}
		memcpy(b + len, f->key, k);
		b[len + k] = 0;
		if (f->kind == REP_ARRAY || f->kind == REP_STRS || f->kind == REP_ROWS ||
		    f->kind == REP_LIST)
			memcpy(b + len + k, "_#", 3);
		if (fn(b, arg))
			return 1;
	}
	return 0;
}

/* Is the kv name of s (mapped) the leaf, '#' in it standing for a number? */
static int kv_is(const char *leaf, const char *s)
{
	while (*leaf) {
		if (*leaf == '#') {
			if (!(*s >= '0' && *s <= '9'))
				return 0;
			while (*s >= '0' && *s <= '9')
				s++;
			leaf++;
		} else if (!*s || *leaf++ != tree_kv_byte(*s++)) {
			return 0;
		}
	}
	return !*s;
}

struct kv_split {
	const struct rep_list *l;
	uint64_t left_out;
	const char *s;
};

static int same_leaf(const char *leaf, void *arg) { return kv_is(leaf, arg); }

/* Is the leaf S_G (S the name's rest, mapped) with G a leaf too? */
static int split_leaf(const char *leaf, void *arg)
{
	const struct kv_split *x = arg;
	const char *s = x->s;

	for (; *s && *leaf == tree_kv_byte(*s); s++, leaf++)
		;
	return !*s && *leaf == '_' && leaf[1] != '#' &&
	       each_leaf(x->l, x->left_out, same_leaf, (void *)(leaf + 1));
}

/* Would rows named a and b (absent rows: null, their one key the name)
 * share a kv key? */
static int kv_clash(const struct rep_list *l, uint64_t left_out, const char *a, int a_absent,
                    const char *b, int b_absent)
{
	struct kv_split x = { l, left_out, 0 };
	const char *t;
	int t_absent;

	for (; *a && *b && tree_kv_byte(*a) == tree_kv_byte(*b); a++, b++)
		;
	if (!*a && !*b)
		return a_absent == b_absent;
	if (*a && *b)
		return 0;
	if (*a) {   /* b the shorter name */
		t = a, a = b, b = t;
		t_absent = a_absent, a_absent = b_absent, b_absent = t_absent;
	}
	/* b is a's name, '_' and the rest: a key A_F of row a is B_G of row b
	 * when F is the rest (b null) or the rest, '_' and G */
	if (a_absent || tree_kv_byte(*b) != '_')
		return 0;
	x.s = b + 1;
	return each_leaf(l, left_out, b_absent ? same_leaf : split_leaf, b_absent ? (void *)x.s : &x);
}

/* The kv name of row i of a named list (name, or l->kvname into buf), or
 * 0 when the row has none; *absent: the row is null. */
static const char *row_name(const struct rep_list *l, const char *(*name)(void *ctx, size_t i),
                            size_t i, char *buf, int *absent)
{
	uint64_t have;
	int got = l->row(l->ctx, i, &have) != 0;

	*absent = !got;
	if (name)
		return name(l->ctx, i);
	if (!got)
		return 0;   /* a null element is named by its index */
	l->kvname(l->ctx, i, buf);
	return buf;
}

/* kv: does row i share a key with an earlier row?  Then it is said. */
static int kv_taken(const struct rep_list *l, const char *(*name)(void *ctx, size_t i),
                    size_t i, uint64_t left_out)
{
	char mine[64], other[64];
	const char *me, *them;
	int absent, their_absent;
	size_t j;

	if (mb.fmt != FMT_KV || !(name || l->kvname) || !(me = row_name(l, name, i, mine, &absent)))
		return 0;
	for (j = 0; j < i; j++) {
		them = row_name(l, name, j, other, &their_absent);
		if (them && kv_clash(l, left_out, me, absent, them, their_absent)) {
			mb_warn(me, "left out of kv: its keys would be those of an earlier row");
			return 1;
		}
	}
	return 0;
}

/* rep_list_tree, or with name: as a json object; nothing for a prom-only
 * list (key 0) */
static void list_tree(const struct rep_list *l, const char *(*name)(void *ctx, size_t i),
                      uint64_t left_out)
{
	size_t i;

	if (!l->key)
		return;
	if (name)
		tree_obj(l->key);
	else
		tree_arr(l->key);
	for (i = 0; i < l->rows; i++)
		if (!kv_taken(l, name, i, left_out))
			tree_row(l, i, name, left_out);
	tree_end();
}

void rep_list_named(const struct rep_list *l, const char *(*name)(void *ctx, size_t i))
{
	if (mb.fmt == FMT_PROM)
		rep_list_prom(l);
	else
		list_tree(l, name, 0);
}

static int is_left_out(const struct rep_fig *f, uint64_t left_out)
{
	return left_out && has_bit(f, left_out);
}

void rep_list_except(const struct rep_list *l, uint64_t left_out)
{
	if (mb.fmt == FMT_PROM)
		list_prom(l, left_out);
	else
		list_tree(l, 0, left_out);
}

/* A REP_ROWS figure: a json array of objects, kv "key.INDEX" */
static void streamed_rows(const char *key, const struct rep_rows *r)
{
	const void *rec;
	uint64_t have;

	tree_arr(key);
	while ((rec = r->next(r->ctx, &have))) {
		tree_obj(0);
		tree(r->figs, r->n, rec, have, 0);
		tree_end();
	}
	tree_end();
}

/* ---- tables for people ---- */


/* The column's label: right-aligned in its width, a string's left-aligned */
static void head_cell(const struct rep_fig *f)
{
	const char *t = f->label ? f->label : f->key;

	if (f->kind == REP_STR) {
		tb_str(t, f->width);
	} else {
		out_pad(mb.fo, strlen(t), f->width);
		fo_s(t);
	}
}

void rep_table_head(const struct rep_fig *figs, size_t n)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < n; i++) {
		if (!figs[i].width)
			continue;
		fo_s(sep);
		sep = " ";
		head_cell(&figs[i]);
	}
	tb_nl();
}

/* How a cell is drawn: the record lacks the figure ('-'), the value is
 * approximate ("~" before it), a string is right-aligned (a figure a
 * line) rather than left-aligned (a column) */
enum { CELL_ABSENT = 1, CELL_APPROX = 2, CELL_RIGHT = 4 };

/* f's cell in rec, in width w: a number right-aligned, a bool "yes" or
 * "no", a string as how says */
static void cell(const struct rep_fig *f, const void *rec, int w, unsigned how)
{
	char text[32];
	struct out num = { .fd = -1, .buf = text };
	const char *s = how & CELL_ABSENT ? "-" : f->kind == REP_BOOL ? (VAL(rec, f, int) ? "yes" : "no")
	              : f->kind == REP_STR ? VAL(rec, f, const char *) : 0;
	int64_t v;

	if (s && f->kind == REP_STR && !(how & (CELL_ABSENT | CELL_RIGHT))) {
		tb_str(s, w);
		return;
	}
	if (s) {
		out_pad(mb.fo, strlen(s), w);
		fo_s(s);
		return;
	}
	/* the number's text first, to right-align it with its "~" */
	switch (f->kind) {
	case REP_BYTES:
		out_num(&num, 0, VAL(rec, f, uint64_t), OUT_SIZE, 0);
		break;
	case REP_COUNT:
		out_num(&num, 0, VAL(rec, f, uint64_t), 0, 0);
		break;
	case REP_SBYTES: case REP_INT: case REP_FIX:
		v = VAL(rec, f, int64_t);
		out_num(&num, v < 0, out_mag(v), f->kind == REP_FIX ? f->dec : f->kind == REP_INT ? 0 : OUT_SIZE, 0);
		break;
	}
	how &= CELL_APPROX;
	out_pad(mb.fo, num.len + !!how, w);
	if (how)
		fo_c('~');
	out_mem(mb.fo, text, num.len);
}

/* The width of the REP_LABEL columns from figs[i] on, and the spaces
 * between them */
static int label_span(const struct rep_fig *figs, size_t n, size_t i)
{
	int w = -1;

	for (; i < n && (figs[i].flags & REP_LABEL); i++)
		if (figs[i].width)
			w += 1 + figs[i].width;
	return w;
}

/* The cell of f in rec, a column of a table: '-' when the record lacks
 * it (its bit), "~" before an approximate value */
static void row_cell(const struct rep_fig *f, const void *rec, uint64_t have)
{
	unsigned how = f->bit && !has_bit(f, have) ? CELL_ABSENT : 0;

	if (f->approx && f->approx < 64 && (have >> f->approx & 1))
		how |= CELL_APPROX;
	cell(f, rec, f->width, how);
}

void rep_table_row(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                   const char *span)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (!f->width)
			continue;
		fo_s(sep);
		sep = " ";
		if (span && (f->flags & REP_LABEL)) {
			tb_str(span, label_span(figs, n, i));
			while (i + 1 < n && (figs[i + 1].flags & REP_LABEL))
				i++;
		} else {
			row_cell(f, rec, have);
		}
	}
	tb_nl();
}

/* The next column of cols (keys separated by commas) from *cols on: the
 * figure of figs with that key and a width, or 0 after the last; a key
 * no such figure has is no column. */
static const struct rep_fig *next_column(const struct rep_fig *figs, size_t n, const char **cols)
{
	while (**cols) {
		size_t len = strcspn(*cols, ","), i;
		const char *key = *cols;

		*cols += len + ((*cols)[len] == ',');
		for (i = 0; i < n; i++)
			if (figs[i].width && !strncmp(figs[i].key, key, len) && !figs[i].key[len])
				return &figs[i];
	}
	return 0;
}

void rep_table_head_cols(const struct rep_fig *figs, size_t n, const char *cols)
{
	const struct rep_fig *f;
	const char *sep = "";

	while ((f = next_column(figs, n, &cols))) {
		fo_s(sep);
		sep = " ";
		head_cell(f);
	}
}

void rep_table_row_cols(const struct rep_fig *figs, size_t n, const char *cols, const void *rec,
                        uint64_t have)
{
	const struct rep_fig *f;
	const char *sep = "";

	while ((f = next_column(figs, n, &cols))) {
		fo_s(sep);
		sep = " ";
		row_cell(f, rec, have);
	}
}

void rep_table_rows(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                    int label_w, int every)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		int w = f->width ? f->width : every;

		if (!w || !f->label || f->kind == REP_OBJ || f->kind == REP_END || (f->flags & REP_NOTREE) ||
		    omitted(f, have))
			continue;
		tb_str(f->label, label_w);
		cell(f, rec, w, CELL_RIGHT | (present(f, have) ? 0 : CELL_ABSENT));
		tb_nl();
	}
}

/* ---- flat prom families ---- */

void rep_family(const struct rep_family *f)
{
	p_type(f->name, f->flags & REP_COUNTER ? "counter" : "gauge", f->help);
}

static void family_sample(const struct rep_family *f, const char *const *labels)
{
	p_start(f->name);
	for (; labels[0] && labels[1]; labels += 2)
		p_labc(labels[0], labels[1]);
}

void rep_sample_u64(const struct rep_family *f, const char *const *labels, uint64_t v)
{
	family_sample(f, labels);
	p_u64(v);
}

void rep_sample_i64(const struct rep_family *f, const char *const *labels, int64_t v)
{
	family_sample(f, labels);
	p_i64(v);
}

int rep_can_stream(void)
{
	return mb.fmt != FMT_PROM;
}

int rep_list_open(const struct rep_list *l)
{
	if (mb.fmt == FMT_PROM)
		return 0;
	tree_arr(l->key);
	return 1;
}

void rep_list_row(const struct rep_list *l, size_t i)
{
	if (mb.fmt != FMT_PROM)
		tree_row(l, i, 0, 0);
}

void rep_list_close(const struct rep_list *l)
{
	if (mb.fmt == FMT_PROM)
		rep_list_prom(l);
	else
		tree_end();
}
