/* Every fixed buffer and table of membox, in one place.  Each bound is a
 * promise: input beyond it is reported (warning and json field), never lost
 * silently and never a reason to allocate. */
#ifndef MB_BOUNDS_H
#define MB_BOUNDS_H

#define MB_PATH_MAX      4096  /* a path built under the root */
#define MB_LINE_MAX      4096  /* reader buffer: longer lines are skipped and counted */
#define MB_FILE_MAX     16384  /* a small /proc file read whole (meminfo, vmstat, status) */
#define MB_READ_MAX 1073741824  /* 1 GiB: what a line reader reads of one file at most (smaps
                                   of 262,144 mappings is about 300 MiB); beyond: an error */
#define MB_OUT_BUF       4096  /* output buffer per fd */
#define MB_DENTS_BUF     8192  /* getdents64 buffer */
#define PAT_MAX           256  /* bytes of a glob; longer ones are refused */
#define MB_SAID_MAX        64  /* --every: messages of the last report remembered (a hash each),
                                  not said again; beyond: said every time */

#define ZI_MAX_ZONES       64  /* zones kept per zoneinfo (8 nodes x 8 zone types) */
#define ZI_MAX_PROT        16  /* protection (lowmem_reserve) entries per zone */
#define VM_MAX_RATIOS      16  /* lowmem_reserve_ratio entries */
#define MI_STR_MAX        4096 /* bytes of unescaped mount strings kept per mount */

/* lowmem */
#define LM_MAX_MARGINS      5  /* chromeos-low_mem/margin thresholds (the kernel's LOW_MEM_THRESHOLD_MAX) */
#define SW_MAX_ZRAM        16  /* zram swap devices whose mm_stat is read */

/* smaps-rollup */
#define SR_MAX_ROWS     32768  /* processes the process views keep (at most 65535: 16-bit indexes);
                                  beyond: "dropped" */
#define SR_ROW_POOL   1179648  /* bytes of the kept processes' Names and packed sizes (36 per
                                  process); beyond: "dropped" */
#define SR_PREFIX_STEP     64  /* -g tree: listed rows between two kept running sums */
#define SR_CMD_MAX       4096  /* bytes of a command line shown in json and kv (longer: cut) */
#define SR_CMD_POOL    393216  /* bytes of the command lines json and kv keep from the scan (a
                                  system's usual 40 to 200 bytes each: 2,000 to 9,000 processes;
                                  the process view's tables and it stay within the object
                                  view's); beyond: re-read when written */
#define SR_NAME_MAX        16  /* bytes of status Name kept (the kernel's comm is 15) */
#define SR_READ_MAX      4096  /* status, smaps_rollup, cmdline: one read each into this */
#define SR_MAX_GROUPS     128  /* -g user/name/category groups; more go into "(other)" */
#define SR_MAX_CGROUPS  32768  /* -g cgroup: distinct cgroup paths (at most 65533: 16-bit indexes);
                                  beyond: "(other)", cgroups_dropped */
#define SR_CGROUP_ENTRIES (SR_MAX_CGROUPS + 2)  /* -g cgroup: the paths, then "(other)" and "(unknown)" */
#define SR_CGROUP_SLOTS 65536  /* -g cgroup: hash slots of the cgroups, at least 4/3 of SR_CGROUP_ENTRIES
                                  (used from 1,024, doubled when three quarters full) */
#define SR_CGROUP_POOL 524288  /* -g cgroup: bytes of the cgroup paths kept (each with its NUL);
                                  beyond: "(other)", cgroups_dropped */
#define SR_CGROUP_READ   8192  /* -g cgroup: bytes of a /proc/PID/cgroup read (a 4095-byte path's
                                  line and others); a memory line beyond: (unknown), truncated */
#define SR_CGROUP_WALK     64  /* -g cgroup -a: directory levels walked below the hierarchy's root */
#define SR_CGROUP_STAT  16384  /* -g cgroup: bytes of a cgroup's memory.stat read (beyond: cut) */
#define SR_MAX_RULES       16  /* -c and -C category rules */
#define SR_MAX_PIDS        64  /* -p PIDs */
#define PW_CACHE           32  /* uids whose passwd name (or absence) is remembered */
#define PW_NAME_MAX        33  /* a user name (32) and its NUL; longer lines are not used */

/* tmpfs-du */
#define WK_MAX_FDS         32  /* directories open at once in a walk; deeper ones re-open ".." */
#define WK_MAX_DEPTH    32768  /* levels of a walk (the inode of each on the path: 8 bytes); deeper: not walked */
#define WK_MAX_LINKS     2048  /* hard-linked inodes remembered per walk (16 KiB); beyond: proportional */
#define ML_MAX_PARTS       96  /* mem-ledger: parts of the tree (32 fixed, a tmpfs mount each) */
#define ML_STR_POOL      8192  /* mem-ledger: bytes of the tmpfs mount points kept */
#define TD_MAX_MOUNTS      64  /* mounts of the listed types kept (shown ones and aliases) */
#define TD_STR_POOL      8192  /* bytes of mount points, sources and roots kept */
#define TD_LIST_MAX      2048  /* -d listing: entries kept at once (the -n largest of each
                                  directory on the path shown); beyond: in "more", a warning */

/* vmstat-meter */
#define VM_MAX_FIELDS      32  /* counters sampled (-f) */
#define VM_MAX_WINDOW     100  /* periods of the recent rate (-w); the ring keeps one sample more */
#define VM_EXEC_PATH_MAX (MB_PATH_MAX + 257)  /* a PATH search candidate: a directory (shorter than
                                           PATH_MAX), '/', the command (NAME_MAX, 255) and NUL */

/* smaps-rollup mapping views (-S, -M, -l) */
#define SR_MAX_OBJS     65536  /* objects of -M/-l, shared objects with swap of -S; more: "(other objects)" */
#define SR_OBJ_SLOTS   131072  /* hash slots of the objects: twice SR_MAX_OBJS keeps probes short */
#define SR_MAX_WIDE      1024  /* objects whose figures outgrow 16 bits (64 MiB, 65,535 regions); beyond: saturated */
#define SR_OBJ_POOL     65536  /* bytes of object and consumer names kept; beyond: names cut */
#define SR_MAX_CONSUMERS 16384 /* -l -v: (object, process) pairs kept; beyond: counted, not listed */
#define SR_MAX_TMPFS       64  /* tmpfs mounts whose files are told apart (kind tmpfs) */
#define SR_SWAP_POOL   262144  /* -S: shared mappings with swap remembered until their sharers are counted */
#define SR_MAX_SWAPPROCS 4096  /* -S: processes with shared swap, kept from the smaps pass for the rows */
/* DMA-BUF buffers and DRM clients (dmabuf.h; smaps-rollup --gpu) */
#define DMABUF_MAX       8192  /* buffers and clients counted; more: dropped, counted */
#define DMABUF_SLOTS    16384  /* their hash slots: a power of two, at least 4/3 DMABUF_MAX */
#define DMABUF_PROCS     4096  /* processes holding any; more: dropped, counted */
#define DMABUF_PAIRS    32768  /* (process, buffer or client) pairs; more: dropped, counted */

/* capture */
#define CAP_BUF         16384  /* a file up to this size is read once; a larger one twice (measure, then copy) */
#define CAP_DIRS            8  /* directories remembered (fd and path) to name the files opened in them */
#define CAP_DIR_NAME       64  /* bytes of such a directory's path ("proc/4194304"); longer: its files unnamed */
#define CAP_NAME_MAX      512  /* bytes of a captured file's path and NUL; longer: not captured, unreadable */
#define CAP_SEEN       262144  /* index slots of the names in the stream (a 64-bit hash each, at most
                                  3/4 of CAP_SEEN: 2.5 MiB of capture's GLOBALS, used as they fill); a
                                  name seen is not taken again; beyond 3/4: taken unchecked, counted */
#define CAP_CMD_MAX       960  /* bytes of the command line in the manifest (longer: cut, command_cut) */
#define CAP_END_MAX     16384  /* bytes of membox-capture-end's changed_file lines; beyond: changed_unlisted */

#endif
