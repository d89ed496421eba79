/* ustar headers (POSIX.1-2001 "ustar Interchange Format") and the pax
 * extended header that carries what ustar cannot hold:
 *   offset  field     size
 *        0  name       100   NUL-terminated unless full
 *      100  mode         8   octal, NUL-terminated
 *      108  uid, gid   8, 8
 *      124  size        12   octal: at most 8 GiB - 1; beyond, GNU's
 *                             base-256 (0x80, then big-endian binary)
 *      136  mtime       12
 *      148  chksum       8   sum of the header's bytes, this field as spaces
 *      156  typeflag     1
 *      257  magic        6   "ustar\0", then version "00"
 *      265  uname, gname 32, 32
 *      345  prefix     155   the name's directories, joined to name by '/'
 * A pax record is "LEN key=value\n", LEN counting the whole record, its
 * own digits too. */
#include <string.h>
#include "tar.h"

#define USTAR_SIZE_MAX 077777777777ull   /* 11 octal digits */

/* v as n-1 octal digits, zero-padded, and a NUL; v must fit */
static void octal(char *f, size_t n, uint64_t v)
{
	f[--n] = 0;
	while (n--) {
		f[n] = '0' + (v & 7);
		v >>= 3;
	}
}

/* v in GNU's base-256 form: 0x80, then v big-endian in the 11 bytes left.
 * With the pax size= record beside it: readers that ignore pax size=
 * (busybox tar 1.35) would otherwise take the ustar field's size. */
static void base256(char *f, uint64_t v)
{
	int i;

	memset(f, 0, 12);
	f[0] = (char)0x80;
	for (i = 11; v; i--, v >>= 8)
		f[i] = (char)(v & 0xff);
}

/* Where name splits into prefix '/' rest with rest at most 100 bytes and
 * prefix at most 155: the index of that '/', 0 when it fits whole, -1 when
 * it cannot be split. */
static long split(const char *name, size_t n)
{
	size_t i;

	if (n <= 100)
		return 0;
	for (i = 1; i <= 155 && i < n; i++)
		if (name[i] == '/' && n - i - 1 <= 100 && n - i - 1 > 0)
			return i;
	return -1;
}

static void ustar(char *h, const char *name, size_t nlen, long cut, uint64_t size,
                  unsigned mode, uint64_t mtime, char type)
{
	unsigned sum = 0;
	size_t i;

	memset(h, 0, TAR_BLOCK);
	if (cut > 0) {
		memcpy(h + 345, name, cut);
		memcpy(h, name + cut + 1, nlen - cut - 1);
	} else
		memcpy(h, name, nlen < 100 ? nlen : 100);
	octal(h + 100, 8, mode & 07777);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	if (size > USTAR_SIZE_MAX)
		base256(h + 124, size);
	else
		octal(h + 124, 12, size);
	octal(h + 136, 12, mtime > USTAR_SIZE_MAX ? USTAR_SIZE_MAX : mtime);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += (unsigned char)h[i];
	octal(h + 148, 7, sum);   /* six digits and a NUL; the space stays */
}

/* "LEN key=value\n" at p: its length. */
static size_t record(char *p, const char *key, const char *val, size_t vlen)
{
	size_t k = strlen(key), body = 1 + k + 1 + vlen + 1, digits = 1, len;
	char num[24];
	int i = sizeof num;

	while (1) {   /* the digits of the whole length, themselves counted */
		size_t t = body + digits, d = 0;
		for (; t; t /= 10)
			d++;
		if (d == digits)
			break;
		digits = d;
	}
	len = body + digits;
	for (size_t t = len; t; t /= 10)
		num[--i] = '0' + t % 10;
	memcpy(p, num + i, digits);
	p += digits;
	*p++ = ' ';
	memcpy(p, key, k);
	p += k;
	*p++ = '=';
	memcpy(p, val, vlen);
	p[vlen] = '\n';
	return len;
}

size_t tar_head(char *b, const char *name, uint64_t size, unsigned mode,
                uint64_t mtime, char type)
{
	size_t n = name ? strnlen(name, MB_PATH_MAX + 1) : 0, pax = 0, off;
	long cut = split(name, n);
	char num[24];
	int i = sizeof num;

	if (!n || n > MB_PATH_MAX)
		return 0;
	if (cut < 0 || size > USTAR_SIZE_MAX) {
		char *p = b + TAR_BLOCK;
		if (cut < 0)
			pax += record(p, "path", name, n);
		if (size > USTAR_SIZE_MAX) {
			uint64_t t = size;
			for (; t; t /= 10)
				num[--i] = '0' + t % 10;
			pax += record(p + pax, "size", num + i, sizeof num - i);
		}
		off = TAR_BLOCK + pax + tar_pad(pax);
		memset(p + pax, 0, tar_pad(pax));
		/* the name of the extended header itself: readers that know
		 * pax skip it, others extract it as a file of that name */
		ustar(b, "PaxHeader", 9, 0, pax, 0644, mtime, 'x');
		b += off;
	} else
		off = 0;
	ustar(b, name, n, cut, size, mode, mtime, type);
	return off + TAR_BLOCK;
}
