/* dmabuf_: DMA-BUF buffers, the memory drivers share between devices and
 * processes (GPU, camera, display), which no meminfo counter names.
 * With CONFIG_DMABUF_SYSFS_STATS (5.13+) the kernel lists every exported
 * buffer under /sys/kernel/dmabuf/buffers, one directory per buffer named
 * after its inode number, each with
 *   size            the buffer's size in bytes ("8294400\n")
 *   exporter_name   the driver that exported it ("system\n", "i915\n") */
#ifndef MB_DMABUF_H
#define MB_DMABUF_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "diag.h"
#include "keyset.h"

/* Every buffer of /sys/kernel/dmabuf/buffers under the root: *bytes the
 * sum of their sizes (saturated at 2^64-1), *buffers how many were
 * counted.  A buffer freed while the directory is read is not counted; a
 * size file that is no number ("garbled") is skipped and said in d (the
 * first one; d is clear otherwise).  0, or -errno: -ENOENT when the kernel
 * has no such directory (older than 5.13, or built without it). */
int dmabuf_sysfs_total(uint64_t *bytes, uint64_t *buffers, struct diag *d);

/* The fdinfo of a DMA-BUF file descriptor (/proc/PID/fdinfo/N of an fd
 * whose link is "/dmabuf:NAME", or "anon_inode:dmabuf" before 5.3),
 * the generic lines then the buffer's (drivers/dma-buf/dma-buf.c):
 *   pos:	0
 *   flags:	02000002
 *   mnt_id:	15
 *   ino:	35            (5.14+: the buffer's inode)
 *   size:	8294400       (bytes)
 *   count:	3             (references to the buffer's file)
 *   exp_name:	i915
 *   name:	...           (when user space named it) */
struct dmabuf_info {
	uint64_t size, ino, count;
	int have_ino;
	char exp_name[32];   /* cut to fit, NUL-terminated */
};
/* 0, or -EINVAL when there is no size line (not a DMA-BUF's fdinfo). */
int dmabuf_fdinfo(const char *buf, size_t len, struct dmabuf_info *i);

/* The fdinfo of a DRM file descriptor (/dev/dri/cardN, renderDN) whose
 * driver prints the usage stats of Documentation/gpu/drm-usage-stats.rst
 * (i915, amdgpu, xe, panfrost, msm, ... since 5.19):
 *   drm-driver:	i915
 *   drm-pdev:	0000:00:02.0
 *   drm-client-id:	18
 *   drm-total-system0:	142744 KiB     (drm-STAT-REGION: VALUE [KiB|MiB],
 *   drm-resident-system0:	142744 KiB   bytes without a unit)
 *   drm-shared-system0:	0
 * Each of total, resident and shared summed over the regions; the older
 * drm-memory-REGION (resident memory) counts as resident where no
 * drm-resident is printed. */
enum { DRM_TOTAL, DRM_RESIDENT, DRM_SHARED, DRM_NSTAT };
struct drm_info {
	uint64_t client_id;
	uint64_t pdev_hash;      /* of drm-pdev's text; 0 when absent */
	uint64_t v[DRM_NSTAT];   /* bytes, saturated */
	int have;                /* bit DRM_x: some region printed it; bit
	                            DRM_NSTAT: a client id */
};
/* 0, or -EINVAL when there is no drm-client-id (no stats to count). */
int drm_fdinfo(const char *buf, size_t len, struct drm_info *i);

/* What processes hold: DMA-BUF buffers (by inode) and DRM clients (by
 * drm-client-id and device), each counted once however many descriptors
 * and mappings of however many processes hold it.  A process holds a
 * buffer through a descriptor or a mapping of /dmabuf (its maps); its
 * share of a buffer or client held by n processes is 1/n of it (rounded
 * down), as PSS divides a shared page.  The caller keeps the set (about
 * 430 KiB, bss: the pages touched grow with what is found), zeroes it,
 * reads every process with dmabuf_read_proc, then asks dmabuf_of. */
enum { HOLD_DMABUF, HOLD_DRM, HOLD_NSIZE };
struct dmabuf_set {
	struct keyset ks;               /* buffers and clients, by a hash of their kind and id */
	uint64_t keys[DMABUF_MAX];
	uint32_t slots[DMABUF_SLOTS];
	struct dmabuf_held {
		uint64_t size;       /* a buffer's size; a client's resident bytes (its
		                        total where the driver prints no resident) */
		uint32_t holders;    /* processes holding it */
		uint32_t kind;       /* HOLD_ */
	} held[DMABUF_MAX];
	/* each process with any, in reading order: its pairs' run */
	struct dmabuf_proc {
		uint32_t pid, first, n;
	} procs[DMABUF_PROCS];
	uint32_t nprocs;
	uint32_t pairs[DMABUF_PAIRS];   /* a process's buffers and clients, by number */
	uint32_t npairs;
	int sorted;                     /* procs ordered by PID (dmabuf_of) */
	/* what could not be counted, processes and descriptors */
	uint64_t unreadable;            /* processes whose fd directory or maps could not be read */
	uint64_t fds_unreadable;        /* DMA-BUF or DRM descriptors whose fdinfo could not be read */
	uint64_t no_inode;              /* DMA-BUF descriptors without an inode (before 5.14, in a
	                                   capture): counted as a buffer of their own */
	uint64_t dropped;               /* buffers, clients or pairs beyond the tables */
	char link[64], info[1024];      /* a link and a fdinfo, as read */
};
/* Read what the process of directory fd piddir (/proc/PID under the
 * root) holds into s: 1 when it holds something, 0 when not, -errno when
 * its fd directory could not be listed (counted in unreadable; -ENOENT:
 * it is gone, not counted). */
int dmabuf_read_proc(struct dmabuf_set *s, int piddir, uint32_t pid);
/* pid's figures, bytes: share[HOLD_x] its share, whole[HOLD_x] the sum
 * of the whole sizes of what it holds (0 when it holds nothing).  The
 * first call orders the processes by PID: no dmabuf_read_proc after it. */
void dmabuf_of(struct dmabuf_set *s, uint32_t pid, uint64_t share[HOLD_NSIZE],
               uint64_t whole[HOLD_NSIZE]);
/* The sums of everything held, each counted once. */
void dmabuf_totals(const struct dmabuf_set *s, uint64_t total[HOLD_NSIZE]);
#endif
