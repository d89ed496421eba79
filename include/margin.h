/* /sys/kernel/mm/chromeos-low_mem/margin (ChromeOS kernels), MiB: up to
 * five ascending thresholds, each printed with a space after it, or "off"
 * when the notifier is disabled:
 *   201 1548 \n
 *   off\n
 * (older kernels print one margin: "50\n"). */
#ifndef MB_MARGIN_H
#define MB_MARGIN_H
#include <stddef.h>
#include <stdint.h>

enum { MG_BAD = -1, MG_LIST = 0, MG_OFF = 1 };
/* Thresholds into mib (cap kept, the rest counted in *dropped): MG_LIST,
 * MG_OFF, or MG_BAD (empty, no final newline, a field that is not a
 * number, or a margin of 2^44 MiB = 2^64 bytes or more). */
int mg_parse(const char *b, size_t n, uint64_t *mib, unsigned cap, unsigned *nm,
             unsigned *dropped);
#endif
