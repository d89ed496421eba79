/* The report layer (report.h): figures declared once, written as json and
 * kv members through the t_ tree of out.c, or as Prometheus families. */
#include <string.h>
#include "out.h"
#include "report.h"

#define VAL(rec, f, type) (*(const type *)((const char *)(rec) + (f)->off))

static void list_prom(const struct rep_list *l, const void *total, const char *total_prefix);

static int present(const struct rep_fig *f, size_t i, uint64_t have)
{
	return !(f->flags & (REP_OPTIONAL | REP_OMIT)) || (i < 64 && (have >> i & 1));
}

/* Left out: a REP_OMIT figure its record lacks. */
static int omitted(const struct rep_fig *f, size_t i, uint64_t have)
{
	return (f->flags & REP_OMIT) && !present(f, i, have);
}

/* The REP_END of the object figs[i] opens. */
static size_t object_end(const struct rep_fig *figs, size_t n, size_t i)
{
	unsigned depth = 0;

	for (; i < n; i++) {
		depth += figs[i].kind == REP_OBJ;
		if (figs[i].kind == REP_END && !--depth)
			break;
	}
	return i;
}

void rep_begin(void)
{
	if (fmt != FMT_PROM)
		t_obj(0);
}

void rep_end(void)
{
	if (fmt != FMT_PROM)
		t_done();
}

void rep_tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have)
{
	size_t i;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (f->flags & REP_NOTREE)
			continue;
		if (omitted(f, i, have)) {
			if (f->kind == REP_OBJ)
				i = object_end(figs, n, i);
			continue;
		}
		if (f->kind == REP_OBJ) {
			t_obj(f->key);
			continue;
		}
		if (f->kind == REP_END) {
			t_end();
			continue;
		}
		if (!present(f, i, have)) {
			t_null(f->key);
			continue;
		}
		switch (f->kind) {
		case REP_BYTES: case REP_COUNT:
			t_u64(f->key, VAL(rec, f, uint64_t));
			break;
		case REP_SBYTES: case REP_INT:
			t_i64(f->key, VAL(rec, f, int64_t));
			break;
		case REP_FIX:
			t_fix(f->key, VAL(rec, f, int64_t), f->dec);
			break;
		case REP_BOOL:
			t_bool(f->key, VAL(rec, f, int));
			break;
		case REP_STR:
			t_cstr(f->key, VAL(rec, f, char *));
			break;
		case REP_ARRAY:
			t_arr(f->key);
			for (j = 0; j < VAL(rec, f, struct rep_array).n; j++)
				t_u64(0, VAL(rec, f, struct rep_array).v[j]);
			t_end();
			break;
		case REP_TEXT:
			t_str(f->key, VAL(rec, f, struct rep_text).s, VAL(rec, f, struct rep_text).n);
			break;
		case REP_LIST:
			rep_list_tree(&VAL(rec, f, struct rep_list));
			break;
		case REP_LIST_TOTAL:
			rep_list_tree(&VAL(rec, f, struct rep_list_total).list);
			break;
		}
	}
}

/* Can the figure be a prom family? */
static int is_family(const struct rep_fig *f)
{
	return !(f->flags & (REP_NOPROM | REP_LABEL)) && f->kind <= REP_FIX;
}

/* "PREFIX_PARENT_NAME_bytes": the family name after "membox_" */
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
		k = strlen(parts[i]);
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

void rep_prom(const char *prefix, const struct rep_fig *figs, size_t n,
              const void *rec, uint64_t have)
{
	const char *parent = 0;
	char name[128];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (omitted(f, i, have)) {
			if (f->kind == REP_OBJ)
				i = object_end(figs, n, i);
			continue;
		}
		if (f->kind == REP_LIST && !(f->flags & REP_NOPROM)) {
			rep_list_prom(&VAL(rec, f, struct rep_list));
			continue;
		}
		if (f->kind == REP_LIST_TOTAL && !(f->flags & REP_NOPROM)) {
			list_prom(&VAL(rec, f, struct rep_list_total).list,
			          VAL(rec, f, struct rep_list_total).total, VAL(rec, f, struct rep_list_total).prefix);
			continue;
		}
		if (f->kind == REP_OBJ || f->kind == REP_END) {
			parent = f->kind == REP_OBJ ? (f->prom ? f->prom : f->key) : 0;
			continue;
		}
		if (!is_family(f) || !present(f, i, have))
			continue;
		family(name, sizeof name, prefix, parent, f);
		p_type(name, type(f), f->help);
		p_start(name);
		sample(f, rec);
	}
}

void rep_figs(const char *prefix, const struct rep_fig *figs, size_t n,
              const void *rec, uint64_t have)
{
	if (fmt == FMT_PROM)
		rep_prom(prefix, figs, n, rec, have);
	else
		rep_tree(figs, n, rec, have);
}

/* Row i of a list as a json object (a kv path). */
static void tree_row(const struct rep_list *l, size_t i)
{
	char name[64];
	uint64_t have;
	const void *rec = l->row(l->ctx, i, &have);

	if (l->kvname) {
		l->kvname(l->ctx, i, name);
		t_elem(name);
	} else {
		t_obj(0);
	}
	rep_tree(l->figs, l->n, rec, have);
	t_end();
}

void rep_list_tree(const struct rep_list *l)
{
	size_t i;

	t_arr(l->key);
	for (i = 0; i < l->rows; i++)
		tree_row(l, i);
	t_end();
}

static void labels(const struct rep_list *l, const void *rec, uint64_t have)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		if (!(f->flags & REP_LABEL) || !present(f, i, have))
			continue;
		if (f->kind == REP_STR)
			p_labc(f->key, VAL(rec, f, char *));
		else if (f->kind == REP_TEXT)
			p_lab(f->key, VAL(rec, f, struct rep_text).s, VAL(rec, f, struct rep_text).n);
		else
			p_labu(f->key, VAL(rec, f, uint64_t));
	}
}

void rep_list_prom(const struct rep_list *l)
{
	list_prom(l, 0, 0);
}

static void list_prom(const struct rep_list *l, const void *total, const char *total_prefix)
{
	char name[128];
	uint64_t have, any = 0;
	size_t i, r;

	for (r = 0; r < l->rows; r++) {
		l->row(l->ctx, r, &have);
		any |= have;
	}
	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		if (!is_family(f) || !(present(f, i, any) || (f->flags & REP_KEEP)))
			continue;
		family(name, sizeof name, l->prefix, 0, f);
		p_type(name, type(f), f->help);
		for (r = 0; r < l->rows; r++) {
			const void *rec = l->row(l->ctx, r, &have);
			if (!present(f, i, have))
				continue;
			p_start(name);
			labels(l, rec, have);
			sample(f, rec);
		}
		if (total) {
			family(name, sizeof name, total_prefix, 0, f);
			p_type(name, type(f), f->help);
			p_start(name);
			sample(f, total);
		}
	}
}

void rep_list(const struct rep_list *l)
{
	if (fmt == FMT_PROM)
		rep_list_prom(l);
	else
		rep_list_tree(l);
}

int rep_list_open(const struct rep_list *l)
{
	if (fmt == FMT_PROM)
		return 0;
	t_arr(l->key);
	return 1;
}

void rep_list_row(const struct rep_list *l, size_t i)
{
	if (fmt != FMT_PROM)
		tree_row(l, i);
}

void rep_list_close(const struct rep_list *l)
{
	if (fmt == FMT_PROM)
		rep_list_prom(l);
	else
		t_end();
}
