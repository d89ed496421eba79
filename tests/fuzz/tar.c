/* Fuzz tar_head: a name and a size from the input, the header blocks read
 * back by tests/unit/tar_check.h (written from POSIX, apart from the
 * writer): checksums, octal fields, the ustar prefix split, pax records
 * self-consistent; the name and size read back are the ones given.
 * Input: 8 bytes of size (little-endian), 1 byte of type, the name. */
#include <stdint.h>
#include <string.h>
#include "bounds.h"
#include "tar.h"
#include "../unit/tar_check.h"

static char head[TAR_HEAD_MAX];
static char name[MB_PATH_MAX + 2];
static struct tc_member m;

/* ustar holds the name: 100 bytes, or a prefix of 1 to 155 bytes before a
 * '/' and 1 to 100 bytes after it (an empty prefix would lose a leading
 * '/': tar reads it as no prefix) */
static int ustar_fits(const char *s, size_t n)
{
	size_t i;

	if (n <= 100)
		return 1;
	for (i = 1; i < n && i <= 155; i++)
		if (s[i] == '/' && n - i - 1 >= 1 && n - i - 1 <= 100)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	uint64_t size = 0;
	size_t i, nl, got;
	char type;

	if (n < 9)
		return 0;
	for (i = 0; i < 8; i++)
		size |= (uint64_t)d[i] << 8 * i;
	type = d[8] & 1 ? '5' : '0';
	nl = n - 9 < MB_PATH_MAX + 1 ? n - 9 : MB_PATH_MAX + 1;
	memcpy(name, d + 9, nl);
	name[nl] = 0;
	nl = strlen(name);            /* the name ends at its first NUL */
	got = tar_head(head, name, size, 0444, 1795521110u, type);
	if (nl == 0 || nl > MB_PATH_MAX) {
		if (got)
			__builtin_trap();     /* refused by the contract */
		return 0;
	}
	if (!got || got > TAR_HEAD_MAX || got % TAR_BLOCK)
		__builtin_trap();
	if (tc_read(head, got, &m))
		__builtin_trap();
	if (m.name_len != nl || memcmp(m.name, name, nl) || m.size != size ||
	    m.mode != 0444 || m.uid || m.gid || m.mtime != 1795521110u || m.type != type)
		__builtin_trap();
	/* a pax header only where ustar cannot hold the member */
	if (m.pax_size != (size >= 1ull << 33))
		__builtin_trap();
	if (m.pax_path != !ustar_fits(name, nl))
		__builtin_trap();
	return 0;
}
