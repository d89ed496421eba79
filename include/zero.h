/* Zeroing a large static state without touching it. */
#ifndef MB_ZERO_H
#define MB_ZERO_H
#include <stddef.h>

/* Set n bytes at p to zero.  The whole pages inside the region are given
 * back to the kernel (MADV_DONTNEED: a private page reads as zero again
 * and takes no memory until written), so clearing a state of megabytes
 * costs no resident memory; the ends, and everything when madvise
 * refuses, are cleared with memset.  p must be in private writable memory
 * (a static variable): never a shared mapping. */
void mb_zero(void *p, size_t n);
#endif
