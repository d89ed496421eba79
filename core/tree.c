/* json and kv from one tree of calls (tree.h).  json is written as the
 * calls come; kv keeps the path of the member being written. */
#include <string.h>
#include "out.h"
#include "tree.h"

static void json_str(struct out *o, const char *s, size_t n)
{
	out_c(o, '"');
	out_esc(o, s, n, E_JSON);
	out_c(o, '"');
}

/* kv strings are single-quoted for sh: ' becomes '\'' and nothing raw is a
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
	unsigned n;         /* members written */
	unsigned short plen;  /* kv path length for members */
	unsigned short pbase; /* kv path length of the parent (arrays) */
	const char *key;      /* an array's key, to restore its path after a named element */
} lv[T_DEPTH];
static int depth = -1;
static char kvp[512];
static size_t klen;

static void kv_join(const char *a)
{
	size_t n = strlen(a);
	if (klen && klen < sizeof kvp - 1)
		kvp[klen++] = '.';
	if (n > sizeof kvp - 1 - klen)
		n = sizeof kvp - 1 - klen;
	memcpy(kvp + klen, a, n);
	klen += n;
}

static void kv_index(unsigned i)
{
	char b[21];
	b[u64_str(b, i)] = 0;
	kv_join(b);
}

/* kvp: the path of the next member of this level (key, or its index) */
static void kv_member(const char *key)
{
	klen = lv[depth].plen;
	if (lv[depth].arr)
		kv_index(lv[depth].n);
	else if (key)
		kv_join(key);
}

/* Start a member: the json separator and key, or the kv path of a scalar
 * (returns with the kv key written and '=' pending). */
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
		kv_member(key);
		out_mem(fo, kvp, klen);
		fo_c('=');
	}
	lv[depth].n++;
}

static void push(int arr, const char *key, const char *kvname)
{
	unsigned base;

	if (depth + 1 >= T_DEPTH)
		return;
	base = klen = 0;
	if (depth >= 0) {
		base = lv[depth].plen;
		if (kvname && lv[depth].arr) {
			klen = lv[depth].pbase;
			kv_join(kvname);
		} else {
			kv_member(key);
		}
	}
	member(key, 0);
	if (fmt == FMT_JSON)
		fo_c(arr ? '[' : '{');
	depth++;
	lv[depth].arr = arr;
	lv[depth].n = 0;
	lv[depth].plen = klen;
	lv[depth].pbase = base;
	lv[depth].key = key;
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
	if (depth >= 0 && lv[depth].arr && lv[depth].key) {
		/* a named element wrote over its array's path: put it back */
		klen = lv[depth].pbase;
		kv_join(lv[depth].key);
	}
}

void tree_done(void)
{
	while (depth >= 0)
		tree_end();
	if (fmt == FMT_JSON)
		fo_c('\n');
}

static void tree_num(const char *key, int neg, uint64_t m, int dec)
{
	member(key, 1);
	out_num(fo, neg, m, dec, 0);
	if (fmt == FMT_KV)
		fo_c('\n');
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

static void word(const char *key, const char *w)
{
	member(key, 1);
	if (fmt == FMT_JSON)
		fo_s(w);
	else {
		if (*w != 'n')
			fo_s(w);
		fo_c('\n');
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
