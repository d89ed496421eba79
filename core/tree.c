/* json and kv from one tree of calls (tree.h).  json is written as the
 * calls come; kv keeps, per open level, its part of the path, and writes
 * each scalar's key from those parts (so no key is ever cut short). */
#include <string.h>
#include "out.h"
#include "table.h"
#include "text.h"
#include "tree.h"

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

#define T_DEPTH 12
static struct {
	char arr;           /* this level is an array */
	char named;         /* an element named by tree_elem: its name stands
	                       in kv paths for its array's key */
	char indexed;       /* an array element: its kv part is its index */
	unsigned n;         /* members written */
	const char *part;   /* else its kv part: a key or an element's name
	                       (0: none, the top level) */
	unsigned index;
} lv[T_DEPTH];
static int depth = -1;

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
		out_mem(fo, s, k);
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

	for (d = 1; d <= depth; d++) {
		if (d < depth && lv[d + 1].named)
			continue;
		if (lv[d].indexed)
			kv_index(lv[d].index, first);
		else if (lv[d].part)
			kv_part(lv[d].part, first);
		else
			continue;
		first = 0;
	}
	if (lv[depth].arr)
		kv_index(lv[depth].n, first);
	else
		kv_part(key ? key : "", first);
}

/* Start a member: the json separator and key, or the kv key of a scalar
 * (returns with '=' written). */
static void member(const char *key, int scalar)
{
	if (depth < 0)
		return;
	if (fmt == FMT_JSON) {
		if (lv[depth].n)
			fo_c(',');
		if (key && !lv[depth].arr) {
			json_str(fo, key, strlen(key));
			fo_c(':');
		}
	} else if (scalar) {
		kv_key(key);
		fo_c('=');
	}
	lv[depth].n++;
}

static void push(int arr, const char *key, const char *kvname)
{
	const char *part = key;
	unsigned index = 0;
	int named = 0, indexed = 0;

	if (depth + 1 >= T_DEPTH)
		return;
	if (depth >= 0 && lv[depth].arr) {
		named = kvname != 0;
		indexed = !named;
		part = kvname;
		index = lv[depth].n;
	}
	member(key, 0);
	if (fmt == FMT_JSON)
		fo_c(arr ? '[' : '{');
	depth++;
	lv[depth].arr = arr;
	lv[depth].named = named;
	lv[depth].indexed = indexed;
	lv[depth].n = 0;
	lv[depth].part = part;
	lv[depth].index = index;
}

void tree_obj(const char *key) { push(0, key, 0); }
void tree_arr(const char *key) { push(1, key, 0); }
void tree_elem(const char *kvname) { push(0, 0, kvname); }

void tree_end(void)
{
	if (depth < 0)
		return;
	if (fmt == FMT_JSON)
		fo_c(lv[depth].arr ? ']' : '}');
	depth--;
}

void tree_done(void)
{
	while (depth >= 0)
		tree_end();
	if (fmt == FMT_JSON)
		fo_c('\n');
}

/* A kv value is single-quoted whatever it is, so a script reads every
 * line the same way. */
static void tree_num(const char *key, int neg, uint64_t m, int dec)
{
	member(key, 1);
	if (fmt == FMT_KV)
		fo_c('\'');
	out_num(fo, neg, m, dec, 0);
	if (fmt == FMT_KV)
		fo_s("'\n");
}

void tree_u64(const char *key, uint64_t v) { tree_num(key, 0, v, 0); }
void tree_i64(const char *key, int64_t v) { tree_num(key, v < 0, out_mag(v), 0); }
void tree_fix(const char *key, int64_t v, int dec) { tree_num(key, v < 0, out_mag(v), dec); }

void tree_str(const char *key, const char *s, size_t n)
{
	member(key, 1);
	if (fmt == FMT_JSON)
		json_str(fo, s, n);
	else {
		kv_str(fo, s, n);
		fo_c('\n');
	}
}

void tree_cstr(const char *key, const char *s) { tree_str(key, s, strlen(s)); }

/* null, true, false; kv: '', 'true', 'false' */
static void word(const char *key, const char *w)
{
	member(key, 1);
	if (fmt == FMT_JSON) {
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
