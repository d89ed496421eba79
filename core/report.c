/* The report layer (report.h): figures declared once, written as json and
 * kv members through the t_ tree of out.c, or as Prometheus families. */
#include <string.h>
#include "out.h"
#include "report.h"

#define VAL(rec, f, type) (*(type const *)((const char *)(rec) + (f)->off))

static int is_left_out(uint64_t left_out, size_t i)
{
	return i < 64 && (left_out >> i & 1);
}

static int present(const struct rep_fig *f, size_t i, uint64_t have)
{
	return !(f->flags & REP_OPTIONAL) || (i < 64 && (have >> i & 1));
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

static void tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have,
                 uint64_t left_out)
{
	size_t i;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct rep_fig *f = &figs[i];
		if (f->flags & REP_NOTREE || is_left_out(left_out, i))
			continue;
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
			t_cstr(f->key, VAL(rec, f, const char *));
			break;
		case REP_ARRAY:
			t_arr(f->key);
			for (j = 0; j < VAL(rec, f, struct rep_array).n; j++)
				t_u64(0, VAL(rec, f, struct rep_array).v[j]);
			t_end();
			break;
		case REP_STRS:
			t_arr(f->key);
			for (j = 0; j < VAL(rec, f, struct rep_strs).n; j++)
				t_cstr(0, VAL(rec, f, struct rep_strs).v[j]);
			t_end();
			break;
		case REP_LIST: {
			struct rep_list l = VAL(rec, f, struct rep_list);
			l.key = f->key;
			rep_list_tree(&l);
			break;
		}
		}
	}
}

void rep_tree(const struct rep_fig *figs, size_t n, const void *rec, uint64_t have)
{
	tree(figs, n, rec, have, 0);
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

static void list_tree(const struct rep_list *l, uint64_t left_out)
{
	char name[64];
	uint64_t have;
	size_t i;

	t_arr(l->key);
	for (i = 0; i < l->rows; i++) {
		const void *rec = l->row(l->ctx, i, &have);
		if (!rec)
			break;
		if (l->kvname) {
			l->kvname(l->ctx, i, name);
			t_elem(name);
		} else {
			t_obj(0);
		}
		tree(l->figs, l->n, rec, have, left_out);
		t_end();
	}
	t_end();
}

void rep_list_tree(const struct rep_list *l)
{
	list_tree(l, 0);
}

static void labels(const struct rep_list *l, const void *rec, uint64_t left_out)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct rep_fig *f = &l->figs[i];
		const char *name = f->prom ? f->prom : f->key;
		if (!(f->flags & REP_LABEL) || is_left_out(left_out, i))
			continue;
		if (f->kind == REP_STR)
			p_labc(name, VAL(rec, f, const char *));
		else
			p_labu(name, VAL(rec, f, uint64_t));
	}
}

static void list_prom(const struct rep_list *l, uint64_t left_out)
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
		if (!is_family(f) || !present(f, i, any) || is_left_out(left_out, i))
			continue;
		family(name, sizeof name, l->prefix, 0, f);
		p_type(name, type(f), f->help);
		for (r = 0; r < l->rows; r++) {
			const void *rec = l->row(l->ctx, r, &have);
			if (!present(f, i, have))
				continue;
			p_start(name);
			labels(l, rec, left_out);
			sample(f, rec);
		}
	}
}

void rep_list_prom(const struct rep_list *l)
{
	list_prom(l, 0);
}

void rep_list(const struct rep_list *l)
{
	if (fmt == FMT_PROM)
		rep_list_prom(l);
	else
		rep_list_tree(l);
}

void rep_list_except(const struct rep_list *l, uint64_t left_out)
{
	if (fmt == FMT_PROM)
		list_prom(l, left_out);
	else
		list_tree(l, left_out);
}
