/* p_: Prometheus text exposition on the report (mb.fo). */
#ifndef MB_PROM_H
#define MB_PROM_H
#include <stddef.h>
#include <stdint.h>

/* Prometheus text exposition.  p_type once per metric family, then its
 * samples: p_start(name) p_lab...(..) p_u64(v). */
void p_type(const char *name, const char *type, const char *help);
void p_start(const char *name);
void p_lab(const char *k, const char *v, size_t n);
void p_labc(const char *k, const char *v);
void p_labu(const char *k, uint64_t v);
void p_u64(uint64_t v);
void p_i64(int64_t v);
void p_fix(int64_t v, int dec);
#endif
