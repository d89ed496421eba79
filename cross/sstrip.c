/* sstrip FILE: cut a static ELF executable down to what the loader reads.
 *
 * After `strip`, a file still ends with the section header table and the
 * section name strings (about 900 bytes on a 64-bit target).  The kernel and
 * qemu-user load through the program headers only, so the file is cut at the
 * end of the last segment and the ELF header stops pointing at sections.
 * Debuggers and nm use membox.elf, which keeps everything.
 *
 * Host tool (built with the host cc), little- and big-endian, 32 and 64 bit. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned char h[64], ph[64];
static int big;

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << 8 * i;
	return v;
}

static void put0(unsigned char *p, int n)
{
	memset(p, 0, n);
}

int main(int argc, char **argv)
{
	int fd, wide, i;
	uint64_t phoff, end = 0;
	unsigned phentsize, phnum;

	if (argc != 2 || (fd = open(argv[1], O_RDWR)) < 0) {
		fprintf(stderr, "usage: sstrip FILE (a writable ELF executable)\n");
		return 1;
	}
	if (pread(fd, h, 64, 0) < 52 || memcmp(h, "\177ELF", 4) || (h[4] != 1 && h[4] != 2)) {
		fprintf(stderr, "sstrip: %s: not an ELF file\n", argv[1]);
		return 1;
	}
	wide = h[4] == 2;
	big = h[5] == 2;
	phoff = get(h + (wide ? 32 : 28), wide ? 8 : 4);
	phentsize = get(h + (wide ? 54 : 42), 2);
	phnum = get(h + (wide ? 56 : 44), 2);
	end = phoff + (uint64_t)phentsize * phnum;
	for (i = 0; i < (int)phnum; i++) {
		uint64_t off, sz;
		if (phentsize > sizeof ph || pread(fd, ph, phentsize, phoff + (uint64_t)i * phentsize) != (ssize_t)phentsize) {
			fprintf(stderr, "sstrip: %s: bad program headers\n", argv[1]);
			return 1;
		}
		off = get(ph + (wide ? 8 : 4), wide ? 8 : 4);
		sz = get(ph + (wide ? 32 : 16), wide ? 8 : 4);
		if (get(ph, 4) != 0 && off + sz > end)   /* not PT_NULL */
			end = off + sz;
	}
	if (end < 52) {
		fprintf(stderr, "sstrip: %s: nothing to keep\n", argv[1]);
		return 1;
	}
	/* e_shoff, e_shnum, e_shstrndx (and e_shentsize) to 0 */
	put0(h + (wide ? 40 : 32), wide ? 8 : 4);
	put0(h + (wide ? 58 : 46), 6);
	if (pwrite(fd, h, wide ? 64 : 52, 0) != (wide ? 64 : 52) || ftruncate(fd, end)) {
		perror("sstrip");
		return 1;
	}
	return close(fd) != 0;
}
