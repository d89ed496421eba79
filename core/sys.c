/* File status by system calls (sys.h), in the kernel's own structures.
 * 64-bit targets: newfstatat/fstat with the kernel's struct stat, which is
 * the C library's struct stat on x86_64 and aarch64 (arch/x86 and
 * asm-generic uapi asm/stat.h), and fstatfs with struct statfs.  i386 and
 * arm: fstatat64/fstat64 with struct stat64, the same C definition in
 * arch/x86 and arch/arm uapi asm/stat.h (its fields fall at different
 * offsets under each ABI: long long is 4-aligned on i386, 8 on EABI), and
 * fstatfs64 with struct statfs64 and its size.  fstatat64 and newfstatat
 * came with the other *at calls in Linux 2.6.16 (i386 300, arm 327 in
 * arch/arm/tools/syscall.tbl); fstatfs64 is older. */
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sys.h"

#ifdef SYS_fstatat64
struct kstat {   /* struct stat64 */
	unsigned long long st_dev;
	unsigned char pad0[4];
	unsigned long ino32;
	unsigned int st_mode, st_nlink;
	unsigned long uid, gid;
	unsigned long long rdev;
	unsigned char pad3[4];
	long long st_size;
	unsigned long blksize;
	unsigned long long st_blocks;
	unsigned long times[6];
	unsigned long long st_ino;   /* ino32 may be cut short */
};
#define SYS_FSTATAT SYS_fstatat64
#define SYS_FSTAT SYS_fstat64
/* asm-generic/statfs.h: arm packs it to the 84 bytes of i386 (EABI would
 * pad it to 88); its __statfs_word is __u32 on 32-bit targets */
struct kstatfs {
	uint32_t f_type, bsize;
	uint64_t f_blocks, f_bfree, bavail, f_files, f_ffree;
	int fsid[2];
	uint32_t namelen, f_frsize, flags, spare[4];
} __attribute__((packed, aligned(4)));
/* the kernel writes whole structures: i386 96 and 84 bytes, arm 104 and 84 */
_Static_assert(sizeof(struct kstat) == (_Alignof(long long) == 8 ? 104 : 96), "struct stat64");
_Static_assert(sizeof(struct kstatfs) == 84, "struct statfs64");
#else
#include <sys/stat.h>
#define kstat stat
#define SYS_FSTATAT SYS_newfstatat
#define SYS_FSTAT SYS_fstat
struct kstatfs {   /* asm-generic/statfs.h, __statfs_word long */
	long f_type, bsize, f_blocks, f_bfree, bavail, f_files, f_ffree;
	int fsid[2];
	long namelen, f_frsize, flags, spare[4];
};
#endif

int sys_fstatat(int dirfd, const char *name, struct sys_stat *st)
{
	struct kstat k;
	long r = name ? syscall(SYS_FSTATAT, dirfd, name, &k, AT_SYMLINK_NOFOLLOW) :
	                syscall(SYS_FSTAT, dirfd, &k);

	if (r)
		return r;
	st->dev = k.st_dev;
	st->ino = k.st_ino;
	st->mode = k.st_mode;
	st->nlink = k.st_nlink;
	st->size = k.st_size;
	st->blocks = k.st_blocks;
	return 0;
}

int sys_fstatfs(int fd, struct sys_statfs *f)
{
	struct kstatfs k;
#ifdef SYS_fstatfs64
	long r = syscall(SYS_fstatfs64, fd, sizeof k, &k);
#else
	long r = syscall(SYS_fstatfs, fd, &k);
#endif

	if (r)
		return r;
	f->type = k.f_type;
	f->frsize = k.f_frsize;
	f->blocks = k.f_blocks;
	f->bfree = k.f_bfree;
	f->files = k.f_files;
	f->ffree = k.f_ffree;
	return 0;
}
