/* The runtime of the static binary, instead of musl's start-up, system call
 * wrappers and string functions: the libc functions membox calls, under
 * their own names and with musl's behaviour for every use membox makes of
 * them, and nothing else.  The link has no C library at all (musl's
 * headers only), so a function missing here fails the link.  Only
 * membox.elf links this file; the unit tests and the sanitizer and fuzz
 * builds keep their C library's.
 *
 * Why: musl's start-up sets up thread-local storage for threads membox
 * never starts (1.6 KiB), its wrappers go through the thread-cancellation
 * machinery (and on i386 through the thread pointer), and its string
 * functions are unrolled for long strings, where membox's are short lines.
 *
 * - _start (asm per target) hands the initial stack to rt_start(): argc,
 *   argv, the environment (environ, getenv()) and the auxiliary vector
 *   (getauxval(): AT_PAGESZ, AT_SECURE).  As musl's, a set-uid or set-gid
 *   start (AT_SECURE) gets /dev/null on a closed fd 0, 1 or 2.
 * - System calls: a stub per function sets the call's number and jumps to
 *   rt_sys, which passes the C arguments on as the call's (up to six) and
 *   turns -4095..-1 into errno and -1.  i386 enters the kernel by int $0x80
 *   (musl calls the vDSO's entry through the thread pointer).
 * - vfork stays vfork, in asm as musl's: the child runs on the parent's
 *   stack, so vfork keeps its return address in a register, out of the
 *   child's way.  vmstat-meter starts its command with it, without copying
 *   the page tables; the child's errno is the parent's, as with musl.
 * - errno is one static int (no threads); exit() is _exit() (no atexit
 *   handlers, no stdio).
 * - The string functions are byte loops (built with
 *   -fno-tree-loop-distribute-patterns, or gcc would turn them into calls
 *   to themselves). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

int main(int, char **);

char **environ;
static unsigned long *auxv;
__attribute__((used)) int rt_errno;   /* used: set by rt_ret, in asm */

int *__errno_location(void)
{
	return &rt_errno;
}

/* sp: argc, argv[], 0, envp[], 0, auxv[] */
__attribute__((used, noreturn)) void rt_start(long *sp)
{
	int argc = *sp, fd;
	char **argv = (char **)(sp + 1), **e = argv + argc + 1;

	environ = e;
	while (*e++)
		;
	auxv = (unsigned long *)e;
	if (getauxval(AT_SECURE))
		for (fd = 0; fd < 3; fd++)
			if (syscall(SYS_fcntl, fd, F_GETFD) < 0 && openat(AT_FDCWD, "/dev/null", O_RDWR) < 0)
				__builtin_trap();
	exit(main(argc, argv));
}

unsigned long getauxval(unsigned long type)
{
	unsigned long *a;

	for (a = auxv; *a; a += 2)
		if (*a == type)
			return a[1];
	errno = ENOENT;
	return 0;
}

/* name: without '=' (musl's finds nothing then) */
char *getenv(const char *name)
{
	char **e;

	for (e = environ; *name && *e; e++) {
		const char *p = name, *q = *e;
		while (*p && *p == *q)
			p++, q++;
		if (!*p && *q == '=')
			return (char *)q + 1;
	}
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)
/* asm: the function NAME, its first line, on the targets' syntax */
#define FN(name) ".globl " #name "\n.type " #name ",%function\n" THUMB #name ":\n\t"
#define THUMB

#if defined(__x86_64__)
/* The kernel takes the fourth argument in r10 (rcx is lost to the
 * syscall instruction). */
#define NR(nr) ".if " STR(nr) " < 128\n\tpush $" STR(nr) "\n\tpop %rax\n.else\n\tmov $" STR(nr) ",%eax\n.endif\n\t"
#define STUB(name, nr) FN(name) NR(nr) "jmp rt_sys\n"
__asm__(".pushsection .text.rt_sys,\"ax\",@progbits\n"
        FN(_start) "mov %rsp,%rdi\n\t"
        "call rt_start\n"
        FN(vfork) "pop %rdx\n\t"        /* the child would overwrite the return address */
        NR(SYS_vfork) "syscall\n\t"
        "push %rdx\n\t"
        "jmp rt_ret\n"
        FN(waitpid) "xor %ecx,%ecx\n\t"
        NR(SYS_wait4) "jmp rt_sys\n"
        STUB(read, SYS_read) STUB(write, SYS_write) STUB(pread, SYS_pread64)
        STUB(lseek, SYS_lseek) STUB(openat, SYS_openat) STUB(close, SYS_close)
        STUB(readlink, SYS_readlink) STUB(link, SYS_link)
        STUB(symlink, SYS_symlink) STUB(unlink, SYS_unlink)
        STUB(execve, SYS_execve) STUB(kill, SYS_kill) STUB(geteuid, SYS_geteuid)
        FN(exit) FN(_exit) NR(SYS_exit_group) "jmp rt_sys\n"
        FN(syscall) "mov %rdi,%rax\n\t"
        "mov %rsi,%rdi\n\t"
        "mov %rdx,%rsi\n\t"
        "mov %rcx,%rdx\n\t"
        "mov %r8,%rcx\n\t"
        "mov %r9,%r8\n\t"
        "mov 8(%rsp),%r9\n"
        "rt_sys:\n\t"
        "mov %rcx,%r10\n\t"
        "syscall\n"
        "rt_ret:\n\t"
        "cmp $-4095,%rax\n\t"
        "jae 1f\n\t"
        "ret\n"
        "1:\tneg %eax\n\t"
        "mov %eax,rt_errno(%rip)\n\t"
        "or $-1,%rax\n\t"
        "ret\n"
        ".popsection\n");

#elif defined(__i386__)
/* ebx, ecx, edx, esi, edi, ebp: the six arguments from the stack, read
 * through ecx.  The reads past a shorter argument list stay in the
 * caller's frame. */
#define NR(nr) ".if " STR(nr) " < 128\n\tpush $" STR(nr) "\n\tpop %eax\n.else\n\tmov $" STR(nr) ",%eax\n.endif\n\t"
#define STUB(name, nr) FN(name) NR(nr) "jmp rt_sys\n"
__asm__(".pushsection .text.rt_sys,\"ax\",@progbits\n"
        FN(_start) "push %esp\n\t"      /* argc's address */
        "call rt_start\n"
        FN(vfork) "pop %edx\n\t"
        NR(SYS_vfork) "int $0x80\n\t"
        "push %edx\n\t"
        "jmp rt_ret\n"
        FN(openat) "orl $" STR(O_LARGEFILE) ",12(%esp)\n\t"   /* as musl */
        NR(SYS_openat) "jmp rt_sys\n"
        STUB(read, SYS_read) STUB(write, SYS_write) STUB(pread, SYS_pread64)
        STUB(close, SYS_close) STUB(waitpid, SYS_waitpid)
        STUB(readlink, SYS_readlink) STUB(link, SYS_link)
        STUB(symlink, SYS_symlink) STUB(unlink, SYS_unlink)
        STUB(execve, SYS_execve) STUB(kill, SYS_kill) STUB(geteuid, SYS_geteuid32)
        FN(exit) FN(_exit) NR(SYS_exit_group) "jmp rt_sys\n"
        FN(syscall) "mov 4(%esp),%eax\n\t"
        "lea 8(%esp),%ecx\n\t"
        "jmp 1f\n"
        "rt_sys:\n\t"
        "lea 4(%esp),%ecx\n"
        "1:\tpush %ebx\n\t"
        "push %esi\n\t"
        "push %edi\n\t"
        "push %ebp\n\t"
        "mov (%ecx),%ebx\n\t"
        "mov 8(%ecx),%edx\n\t"
        "mov 12(%ecx),%esi\n\t"
        "mov 16(%ecx),%edi\n\t"
        "mov 20(%ecx),%ebp\n\t"
        "mov 4(%ecx),%ecx\n\t"
        "int $0x80\n\t"
        "pop %ebp\n\t"
        "pop %edi\n\t"
        "pop %esi\n\t"
        "pop %ebx\n"
        "rt_ret:\n\t"
        "cmp $-4095,%eax\n\t"
        "jae 1f\n\t"
        "ret\n"
        "1:\tneg %eax\n\t"
        "mov %eax,rt_errno\n\t"
        "or $-1,%eax\n\t"
        "ret\n"
        ".popsection\n");

#elif defined(__aarch64__)
#define STUB(name, nr) FN(name) "mov x8, #" STR(nr) "\n\tb rt_sys\n"
__asm__(".pushsection .text.rt_sys,\"ax\",%progbits\n"
        FN(_start) "mov x0, sp\n\t"
        "b rt_start\n"
        FN(vfork) "mov x8, #" STR(SYS_clone) "\n\t"
        "mov x0, #0x4111\n\t"           /* CLONE_VM | CLONE_VFORK | SIGCHLD */
        "mov x1, #0\n\t"
        "svc #0\n\t"
        "b rt_ret\n"
        FN(waitpid) "mov x3, #0\n\t"
        "mov x8, #" STR(SYS_wait4) "\n\t"
        "b rt_sys\n"
        STUB(read, SYS_read) STUB(write, SYS_write) STUB(pread, SYS_pread64)
        STUB(lseek, SYS_lseek) STUB(openat, SYS_openat) STUB(close, SYS_close)
        STUB(execve, SYS_execve) STUB(kill, SYS_kill) STUB(geteuid, SYS_geteuid)
        FN(exit) FN(_exit) "mov x8, #" STR(SYS_exit_group) "\n\tb rt_sys\n"
        FN(syscall) "mov x8, x0\n\t"
        "mov x0, x1\n\t"
        "mov x1, x2\n\t"
        "mov x2, x3\n\t"
        "mov x3, x4\n\t"
        "mov x4, x5\n\t"
        "mov x5, x6\n"
        "rt_sys:\n\t"
        "svc #0\n"
        "rt_ret:\n\t"
        "cmn x0, #4095\n\t"
        "b.cs 1f\n\t"
        "ret\n"
        "1:\tneg w0, w0\n\t"
        "adr x1, rt_errno\n\t"
        "str w0, [x1]\n\t"
        "mov x0, #-1\n\t"
        "ret\n"
        ".popsection\n");
/* arm64 has only the *at calls */
ssize_t readlink(const char *restrict path, char *restrict buf, size_t n)
{
	return syscall(SYS_readlinkat, AT_FDCWD, path, buf, n);
}
int link(const char *old, const char *new)
{
	return syscall(SYS_linkat, AT_FDCWD, old, AT_FDCWD, new, 0);
}
int symlink(const char *old, const char *new)
{
	return syscall(SYS_symlinkat, old, AT_FDCWD, new);
}
int unlink(const char *path)
{
	return syscall(SYS_unlinkat, AT_FDCWD, path, 0);
}

#elif defined(__arm__) && defined(__thumb2__)
/* The number in r7 (callee-saved, also for vfork's child), the fifth and
 * sixth arguments in r4, r5 from the stack: that is also where EABI puts
 * pread's 64-bit offset, after a padding register. */
#undef THUMB
#define THUMB ".thumb_func\n"
#define STUB(name, nr) FN(name) "movw ip, #" STR(nr) "\n\tb rt_sys\n"
__asm__(".pushsection .text.rt_sys,\"ax\",%progbits\n"
        ".syntax unified\n"
        ".thumb\n"
        FN(_start) "mov r0, sp\n\t"
        "b rt_start\n"
        FN(vfork) "mov ip, r7\n\t"
        "movw r7, #" STR(SYS_vfork) "\n\t"
        "svc 0\n\t"
        "mov r7, ip\n\t"
        "b rt_ret\n"
        FN(openat) "orr r2, r2, #" STR(O_LARGEFILE) "\n\t"   /* as musl */
        "movw ip, #" STR(SYS_openat) "\n\t"
        "b rt_sys\n"
        FN(waitpid) "movs r3, #0\n\t"
        "movw ip, #" STR(SYS_wait4) "\n\t"
        "b rt_sys\n"
        STUB(read, SYS_read) STUB(write, SYS_write) STUB(pread, SYS_pread64)
        STUB(close, SYS_close) STUB(readlink, SYS_readlink) STUB(link, SYS_link)
        STUB(symlink, SYS_symlink) STUB(unlink, SYS_unlink)
        STUB(execve, SYS_execve) STUB(kill, SYS_kill) STUB(geteuid, SYS_geteuid32)
        FN(exit) FN(_exit) "movw ip, #" STR(SYS_exit_group) "\n\tb rt_sys\n"
        FN(syscall) "push {r4, r5, r7, lr}\n\t"
        "mov r7, r0\n\t"
        "mov r0, r1\n\t"
        "mov r1, r2\n\t"
        "mov r2, r3\n\t"
        "add r3, sp, #16\n\t"
        "ldm r3, {r3, r4, r5}\n\t"
        "b 1f\n"
        "rt_sys:\n\t"
        "push {r4, r5, r7, lr}\n\t"
        "mov r7, ip\n\t"
        "ldrd r4, r5, [sp, #16]\n"
        "1:\tsvc 0\n\t"
        "pop {r4, r5, r7, lr}\n"
        "rt_ret:\n\t"
        "cmn r0, #4096\n\t"             /* -4095..-1: C set, Z clear */
        "it ls\n\t"
        "bxls lr\n\t"
        "negs r0, r0\n\t"
        "ldr r1, =rt_errno\n\t"
        "str r0, [r1]\n\t"
        "mov r0, #-1\n\t"
        "bx lr\n"
        ".ltorg\n"
        ".popsection\n");
#else
#error "no runtime for this target"
#endif

#if ULONG_MAX == 0xffffffff
off_t lseek(int fd, off_t off, int whence)
{
	off_t r;
	return syscall(SYS__llseek, fd, (long)(off >> 32), (long)off, &r, whence) ? -1 : r;
}
#endif

/* musl copies the timeout: the kernel writes the time left into it.  On
 * 32-bit targets the old call with 32-bit seconds: musl takes the 64-bit
 * call for a timeout of more than 68 years only. */
int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *to, const sigset_t *mask)
{
	long t[2];

	if (to) {
#if ULONG_MAX == 0xffffffff
		t[0] = to->tv_sec > LONG_MAX ? LONG_MAX : to->tv_sec;   /* never negative here */
#else
		t[0] = to->tv_sec;
#endif
		t[1] = to->tv_nsec;
	}
	return syscall(SYS_ppoll, fds, n, to ? t : 0, mask, _NSIG / 8);
}

int sigemptyset(sigset_t *set)
{
	set->__bits[0] = 0;
	if (sizeof(long) == 4)
		set->__bits[1] = 0;
	return 0;
}

/* musl keeps signals 32 to 34 to itself */
int sigaddset(sigset_t *set, int sig)
{
	unsigned s = sig - 1, w = 8 * sizeof(long);

	if (s >= _NSIG - 1 || sig - 32U < 3) {
		errno = EINVAL;
		return -1;
	}
	set->__bits[s / w] |= 1UL << s % w;
	return 0;
}

/* musl's: the old mask comes back without its signals 32 to 34 */
int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
	if (set && (unsigned)how - SIG_BLOCK > 2U) {
		errno = EINVAL;
		return -1;
	}
	if (syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8))
		return -1;
	if (old) {
		old->__bits[0] &= ~(unsigned long)(7ULL << 31);
		if (sizeof(long) == 4)
			old->__bits[1] &= ~3UL;
	}
	return 0;
}

/* The string functions: one byte at a time.  gcc may call the first four
 * for a copy or a comparison it expands late, after LTO would have dropped
 * an unreferenced definition: hence "used". */
__attribute__((used)) void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if ((uintptr_t)p - (uintptr_t)q >= n)   /* d not inside (s, s + n) */
		for (; n; n--)
			*p++ = *q++;
	else
		while (n--)
			p[n] = q[n];
	return d;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n) __attribute__((alias("memmove")));

__attribute__((used)) void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		p[n] = c;
	return d;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return 0;
}

__attribute__((used)) int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n && *p == *q; n--, p++, q++)
		;
	return n ? *p - *q : 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

char *strchrnul(const char *s, int c)
{
	while (*s && *s != (char)c)
		s++;
	return (char *)s;
}

char *strchr(const char *s, int c)
{
	s = strchrnul(s, c);
	return *s == (char)c ? (char *)s : 0;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const void *)a, *q = (const void *)b;

	for (; *p == *q && *p; p++, q++)
		;
	return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const void *)a, *q = (const void *)b;

	if (!n--)
		return 0;
	for (; *p && *q && n && *p == *q; p++, q++, n--)
		;
	return *p - *q;
}

char *stpcpy(char *restrict d, const char *restrict s)
{
	while ((*d = *s))
		d++, s++;
	return d;
}

char *strcpy(char *restrict d, const char *restrict s)
{
	stpcpy(d, s);
	return d;
}
