/* tree_: json and kv from one tree of calls: objects, arrays and scalar
 * members, written to the report (mb.fo) in the format asked for (-o).  In kv
 * each scalar is a line KEY='VALUE' that sh can eval: KEY is the path of
 * keys joined by '_' ("total_reserve"; an array element's part is its
 * INDEX unless tree_elem names it, and that name then stands for the
 * array's key), every byte outside [A-Za-z0-9_] made '_' and a '_' before
 * a first digit; it is written from its parts, never cut.  Keys and
 * names must stay valid until their level is closed. */
#ifndef MB_TREE_H
#define MB_TREE_H
#include <stddef.h>
#include <stdint.h>

/* One open object or array of the tree (its state is in mb, membox.h):
 * at most T_DEPTH levels are open at once, deeper ones are not written. */
#define T_DEPTH 12
struct tree_level {
	char arr;           /* this level is an array */
	char named;         /* an element named by tree_elem: its name stands
	                       in kv paths for its array's key */
	char indexed;       /* an array element: its kv part is its index */
	unsigned n;         /* members written */
	const char *part;   /* else its kv part: a key or an element's name
	                       (0: none, the top level) */
	unsigned index;
};

void tree_obj(const char *key);          /* key NULL: top level or array element */
void tree_arr(const char *key);
void tree_elem(const char *kvname);      /* an object element of an array */
void tree_end(void);                     /* closes the innermost object/array */
void tree_u64(const char *key, uint64_t v);
void tree_i64(const char *key, int64_t v);
void tree_fix(const char *key, int64_t v, int dec);
void tree_str(const char *key, const char *s, size_t n);
void tree_cstr(const char *key, const char *s);
void tree_null(const char *key);
void tree_bool(const char *key, int b);
void tree_opt(const char *key, int have, uint64_t v);   /* null unless have */
void tree_done(void);                    /* after the top-level object: newline */
/* The byte of a kv key for byte c of a key or name: c when a shell name
 * may hold it (or c is the NUL that ends it), else '_'. */
int tree_kv_byte(int c);
#endif
