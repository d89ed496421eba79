/* rt_sigaction without musl's sigaction().  The kernel's struct sigaction
 * on all four targets is { handler, flags, restorer, 64-bit mask } (each
 * defines SA_RESTORER, so the restorer field is always there).  A handler
 * returns through a restorer that asks the kernel to undo the signal frame:
 * x86_64 has none of its own (SA_RESTORER is mandatory there); i386 has one
 * in its vDSO, which a kernel booted with vdso32=0 does not map, so we give
 * ours there too, as musl does; ARM and arm64 kernels always map theirs
 * (the sigpage, the vDSO), so there the restorer is left to them.  Without
 * SA_SIGINFO, i386 builds the old frame (signal number on top), undone by
 * sigreturn; x86_64 has only the rt frame and rt_sigreturn. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sig.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(__x86_64__)
#define RESTORER "mov $" STR(SYS_rt_sigreturn) ", %eax\n\tsyscall\n"
#elif defined(__i386__)
#define RESTORER "pop %eax\n\tmov $" STR(SYS_sigreturn) ", %eax\n\tint $0x80\n"
#endif
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000   /* the kernel's; glibc (the asan build) hides it */
#endif
#ifdef RESTORER
void sig_restore(void) __attribute__((visibility("hidden")));
__asm__(".pushsection .text.sig_restore,\"ax\",%progbits\n"
        ".type sig_restore,@function\n"
        "sig_restore:\n\t" RESTORER
        ".size sig_restore, .-sig_restore\n"
        ".popsection\n");
#endif

int sig_set(int sig, void (*h)(int), const sigset_t *mask, int flags)
{
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		unsigned mask[2];   /* the kernel's sigset_t: 64 signals */
	} k = { h, flags, 0, { 0, 0 } };

#ifdef RESTORER
	k.flags |= SA_RESTORER;
	k.restorer = sig_restore;
#endif
	if (mask)
		memcpy(k.mask, mask, sizeof k.mask);
	return syscall(SYS_rt_sigaction, sig, &k, 0, sizeof k.mask) ? -errno : 0;
}
