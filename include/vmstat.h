/* /proc/vmstat: "name N" lines; counters are events or pages:
 *   pgmajfault 1234
 *   pswpout 0 */
#ifndef MB_VMSTAT_H
#define MB_VMSTAT_H
#include <stddef.h>
#include <stdint.h>

/* Look up n named counters in a vmstat buffer.  val[i] and have[i] (1 when
 * the kernel printed names[i]; an absent counter is not 0).  Returns the
 * number of lines that were not "name N". */
unsigned vmstat_parse(const char *buf, size_t len, const char *const *names,
                      unsigned n, uint64_t *val, unsigned char *have);
/* /proc/vmstat under the root into buf (one read): length or -errno;
 * *trunc when the file did not fit. */
long vmstat_read(char *buf, size_t cap, int *trunc);
#endif
