/* tar_: the headers of a POSIX tar stream (ustar, with a pax extended
 * header where ustar's fields are too small).  Pure functions over the
 * caller's buffer: no I/O, so that every byte can be checked in a unit
 * test and the writer (capture) decides where the blocks go. */
#ifndef MB_TAR_H
#define MB_TAR_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"

#define TAR_BLOCK 512
/* The bytes tar_head writes at most: a pax 'x' header block, its records
 * for a name of MB_PATH_MAX bytes ("NNNN path=NAME\n") and a size of 20
 * digits ("NN size=N\n"), padded to whole blocks, then the ustar header. */
#define TAR_HEAD_FOR(name_max) \
	(TAR_BLOCK + ((name_max) + 64 + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK + TAR_BLOCK)
#define TAR_HEAD_MAX TAR_HEAD_FOR(MB_PATH_MAX)

/* The header blocks of one member (type '0' file, '5' directory): a pax
 * 'x' header first when the name cannot be split into ustar's 155-byte
 * prefix and 100-byte name, or the size is 8 GiB or more.  Returns the
 * bytes written to b (a multiple of 512), 0 when name is empty or longer
 * than MB_PATH_MAX. */
size_t tar_head(char *b, const char *name, uint64_t size, unsigned mode,
                uint64_t mtime, char type);
/* Zero bytes that follow size bytes of content to a 512 boundary. */
static inline size_t tar_pad(uint64_t size) { return (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK; }
#endif
