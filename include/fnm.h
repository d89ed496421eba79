/* fnm_: shell glob matching as fnmatch(3) with flags 0, on bytes: '*' (also
 * across '/'), '?', bracket expressions [a-z] [!x] [^x], backslash escapes.
 * musl's fnmatch brings ~20 KiB of wide-character tables; this is ~300 bytes. */
#ifndef MB_FNM_H
#define MB_FNM_H
#include <stddef.h>

/* Does [s, s+n) match the NUL-terminated pattern?  1 or 0. */
int fnm_match(const char *pat, const char *s, size_t n);
#endif
