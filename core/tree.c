/* json and kv from one tree of calls (tree.h).  json is written as the
 * calls come; kv keeps, per open level, its part of the path, and writes
 * each scalar's key from those parts (so no key is ever cut short). */
#include <string.h>
#include "out.h"
#include "table.h"
#include "text.h"
#include "tree.h"
#include "membox.h"

static void json_str(struct out *o, const char *s, size_t n)
{
	out_c(o, '"');
	out_esc(o, s, n, E_JSON);
	out_c(o, '"');
}

/* kv values are single-quoted for sh: ' becomes '\'' and nothing raw is a
 * control character, so one value stays on one line. */
static void kv_str(struct out *o, const char *s, size_t n)
{
	out_c(o, '\'');
	out_esc(o, s, n, E_KV);
	out_c(o, '\'');
}

/* The bytes of a shell name (POSIX: letters, digits, underscore). */
static const char kv_name_bytes[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

int tree_kv_byte(int c)
{
	return !c || strchr(kv_name_bytes, c) ? c : '_';
}

/* One part of a kv key, its bytes mapped to a shell name's; first says
 * whether it begins the key, which a digit (or nothing) may not. */
static void kv_part(const char *s, int first)
{
	size_t k;

	if (!first)
		fo_c('_');
	else if (!*s || (*s >= '0' && *s <= '9'))
		fo_c('_');
	while (*s) {
		k = strspn(s, kv_name_bytes);
		out_mem(mb.fo, s, k);
		s += k;
		if (*s) {
			fo_c('_');
			s++;
		}
	}
}

static void kv_index(unsigned i, int first)
{
	char b[21];
	b[u64_str(b, i)] = 0;
	kv_part(b, first);
}

/* The kv key of the next member of the innermost level (key, or its index
 * in an array): the parts of the open levels, an array's key left out
 * where a named element stands for it. */
static void kv_key(const char *key)
{
	int d, first = 1;

	for (d = 1; d <= mb.tree_depth; d++) {
		if (d < mb.tree_depth && mb.tree_level[d + 1].named)
			continue;
		if (mb.tree_level[d].indexed)
			kv_index(mb.tree_level[d].index, first);
		else if (mb.tree_level[d].part)
			kv_part(mb.tree_level[d].part, first);
		else
			continue;
		first = 0;
	}
	if (mb.tree_level[mb.tree_depth].arr)
		kv_index(mb.tree_level[mb.tree_depth].n, first);
	else
		kv_part(key ? key : "", first);
}

/* Start a member: the json separator and key, or the kv key of a scalar
 * (returns with '=' written). */
static void member(const char *key, int scalar)
{
	struct tree_level *in;

	if (mb.tree_depth < 0)
		return;
	in = &mb.tree_level[mb.tree_depth];
	if (mb.fmt == FMT_JSON) {
		if (in->n)
			fo_c(',');
		if (key && !in->arr) {
			json_str(mb.fo, key, strlen(key));
			fo_c(':');
		}
	} else if (scalar) {
		kv_key(key);
		fo_c('=');
	}
	in->n++;
}

static void push(int arr, const char *key, const char *kvname)
{
	const char *part = key;
	unsigned index = 0;
	int named = 0, indexed = 0;
	struct tree_level *l;

	if (mb.tree_depth + 1 >= T_DEPTH)
		return;
	if (mb.tree_depth >= 0 && mb.tree_level[mb.tree_depth].arr) {
		named = kvname != 0;
		indexed = !named;
		part = kvname;
		index = mb.tree_level[mb.tree_depth].n;
	}
	member(key, 0);
	if (mb.fmt == FMT_JSON)
		fo_c(arr ? '[' : '{');
	l = &mb.tree_level[++mb.tree_depth];
	l->arr = arr;
	l->named = named;
	l->indexed = indexed;
	l->n = 0;
	l->part = part;
	l->index = index;
}

void tree_obj(const char *key) { push(0, key, 0); }
void tree_arr(const char *key) { push(1, key, 0); }
void tree_elem(const char *kvname) { push(0, 0, kvname); }

void tree_end(void)
{
	if (mb.tree_depth < 0)
		return;
	if (mb.fmt == FMT_JSON)
		fo_c(mb.tree_level[mb.tree_depth].arr ? ']' : '}');
	mb.tree_depth--;
}

void tree_done(void)
{
	while (mb.tree_depth >= 0)
		tree_end();
	if (mb.fmt == FMT_JSON)
		fo_c('\n');
}

/* A kv value is single-quoted whatever it is, so a script reads every
 * line the same way. */
static void tree_num(const char *key, int neg, uint64_t m, int dec)
{
	member(key, 1);
	if (mb.fmt == FMT_KV)
		fo_c('\'');
	out_num(mb.fo, neg, m, dec, 0);
	if (mb.fmt == FMT_KV)
		fo_s("'\n");
}

void tree_u64(const char *key, uint64_t v) { tree_num(key, 0, v, 0); }
void tree_i64(const char *key, int64_t v) { tree_num(key, v < 0, out_mag(v), 0); }
void tree_fix(const char *key, int64_t v, int dec) { tree_num(key, v < 0, out_mag(v), dec); }

void tree_str(const char *key, const char *s, size_t n)
{
	member(key, 1);
	if (mb.fmt == FMT_JSON)
		json_str(mb.fo, s, n);
	else {
		kv_str(mb.fo, s, n);
		fo_c('\n');
	}
}

void tree_cstr(const char *key, const char *s) { tree_str(key, s, strlen(s)); }

/* null, true, false; kv: '', 'true', 'false' */
static void word(const char *key, const char *w)
{
	member(key, 1);
	if (mb.fmt == FMT_JSON) {
		fo_s(w);
	} else {
		fo_c('\'');
		if (*w != 'n')
			fo_s(w);
		fo_s("'\n");
	}
}

void tree_null(const char *key) { word(key, "null"); }
void tree_bool(const char *key, int b) { word(key, b ? "true" : "false"); }

void tree_opt(const char *key, int have, uint64_t v)
{
	if (have)
		tree_u64(key, v);
	else
		tree_null(key);
}
