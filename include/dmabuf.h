/* dmabuf_: DMA-BUF buffers, the memory drivers share between devices and
 * processes (GPU, camera, display), which no meminfo counter names.
 * With CONFIG_DMABUF_SYSFS_STATS (5.13+) the kernel lists every exported
 * buffer under /sys/kernel/dmabuf/buffers, one directory per buffer named
 * after its inode number, each with
 *   size            the buffer's size in bytes ("8294400\n")
 *   exporter_name   the driver that exported it ("system\n", "i915\n") */
#ifndef MB_DMABUF_H
#define MB_DMABUF_H
#include <stdint.h>
#include "diag.h"

/* Every buffer of /sys/kernel/dmabuf/buffers under the root: *bytes the
 * sum of their sizes (saturated at 2^64-1), *buffers how many were
 * counted.  A buffer freed while the directory is read is not counted; a
 * size file that is no number ("garbled") is skipped and said in d (the
 * first one; d is clear otherwise).  0, or -errno: -ENOENT when the kernel
 * has no such directory (older than 5.13, or built without it). */
int dmabuf_sysfs_total(uint64_t *bytes, uint64_t *buffers, struct diag *d);
#endif
