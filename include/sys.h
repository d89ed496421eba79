/* sys_: file status by direct system calls, with only the fields membox
 * uses.  musl's fstat() goes through fstatat() (on 32-bit targets statx
 * first, then an O_PATH /proc/self/fd fallback); fstatfs() sits in the
 * statvfs code.  The calls here need Linux 2.6.16 (fstatat64/newfstatat). */
#ifndef MB_SYS_H
#define MB_SYS_H
#include <stdint.h>

struct sys_stat {
	uint64_t ino, size, blocks;   /* blocks: 512-byte units */
	uint32_t dev;                 /* the kernel's encoding (12-bit major,
	                                 20-bit minor): major()/minor() apply */
	uint32_t mode, nlink;
};
/* name in dirfd, a symlink not followed; the fd itself when name is 0.
 * 0, or -1 with errno, like fstatat(2). */
int sys_fstatat(int dirfd, const char *name, struct sys_stat *st);
static inline int sys_fstat(int fd, struct sys_stat *st) { return sys_fstatat(fd, 0, st); }

struct sys_statfs {
	uint64_t blocks, bfree, files, ffree;   /* blocks: frsize units */
	uint32_t type, frsize;                  /* type: the filesystem's magic */
};
/* 0, or -1 with errno, like fstatfs(2). */
int sys_fstatfs(int fd, struct sys_statfs *f);
#endif
