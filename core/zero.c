/* Zeroing without touching: a state of megabytes (an applet's part of
 * the GLOBALS union, reused by a second view or a child process) cleared
 * with memset would become resident page by page; its whole pages are
 * dropped instead, and read back as zero pages when next used. */
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include "zero.h"

void mb_zero(void *p, size_t n)
{
	uintptr_t ps = getauxval(AT_PAGESZ), a = (uintptr_t)p, e = a + n;
	uintptr_t pa = (a + ps - 1) & ~(ps - 1), pe = e & ~(ps - 1);

	if (!ps || pa >= pe) {
		memset(p, 0, n);
		return;
	}
	memset(p, 0, pa - a);
	memset((void *)pe, 0, e - pe);
	if (madvise((void *)pa, pe - pa, MADV_DONTNEED) < 0)
		memset((void *)pa, 0, pe - pa);
}
