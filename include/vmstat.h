/* /proc/vmstat: "name N" lines; counters are events or pages:
 *   pgmajfault 1234
 *   pswpout 0 */
#ifndef MB_VMSTAT_H
#define MB_VMSTAT_H
#include <stddef.h>
#include <stdint.h>

/* Look up n named counters in a vmstat buffer: val[i] and have[i] (1 when
 * the kernel printed names[i] on a "name N" line, the first such line; an
 * absent counter is not 0).  Returns the number found. */
unsigned vmstat_parse(const char *buf, size_t len, const char *const *names,
                      unsigned n, uint64_t *val, unsigned char *have);
/* The same lookup with at (or 0): per name, the offset of its line in the
 * last buffer, looked at first and updated; only for a file that prints
 * each name once, as the kernel does.  Returns the number found. */
unsigned vm_pick(const char *buf, size_t len, const char *const *names,
                 unsigned n, uint64_t *val, unsigned char *have, unsigned short *at);
#endif
