/* A reader of tar headers written from POSIX (pax, ustar), apart from
 * core/tar.c on purpose: the unit test and the fuzz target check tar_head's
 * bytes with it, so a mistake in the writer is not repeated here.
 *   ustar: name[100]@0 mode[8]@100 uid[8]@108 gid[8]@116 size[12]@124
 *   mtime[12]@136 chksum[8]@148 typeflag@156 magic "ustar\0"@257
 *   version "00"@263 prefix[155]@345; chksum: the sum of the block's bytes
 *   (unsigned) with chksum taken as 8 spaces.
 *   pax 'x': records "LEN key=value\n", LEN the record's own length in
 *   decimal, counting its digits, the space and the newline. */
#ifndef TAR_CHECK_H
#define TAR_CHECK_H
#include <stdint.h>
#include <string.h>

struct tc_member {
	char name[8192];
	size_t name_len;
	uint64_t size;
	uint64_t mode, uid, gid, mtime;
	char type;
	int pax_path, pax_size;     /* the name, the size came from a pax record */
	size_t pax_len;             /* bytes of pax records */
	size_t head_len;            /* bytes of header blocks */
	const char *why;            /* the first thing found wrong, or NULL */
};

/* An octal field: optional leading spaces, at least one digit, then only
 * NUL or space to the field's end. */
static int tc_octal(const unsigned char *f, size_t w, uint64_t *v)
{
	size_t i = 0;
	int digits = 0;

	*v = 0;
	while (i < w && f[i] == ' ')
		i++;
	for (; i < w && f[i] >= '0' && f[i] <= '7'; i++, digits++) {
		if (*v >> 61)
			return 0;
		*v = *v << 3 | (uint64_t)(f[i] - '0');
	}
	if (!digits || i == w)   /* no terminator: POSIX wants one (NUL or space) */
		return 0;
	for (; i < w; i++)
		if (f[i] && f[i] != ' ')
			return 0;
	return 1;
}

/* A size field: octal, or GNU's base-256 (first byte 0x80, big-endian). */
static int tc_size_field(const unsigned char *f, uint64_t *v, int *base256)
{
	size_t i;

	*base256 = f[0] == 0x80;
	if (!*base256)
		return tc_octal(f, 12, v);
	for (i = 1; i < 4; i++)
		if (f[i])
			return 0;
	*v = 0;
	for (i = 4; i < 12; i++)
		*v = *v << 8 | f[i];
	return 1;
}

static int tc_sum_ok(const unsigned char *h)
{
	uint64_t want;
	unsigned sum = 0;
	size_t i;

	for (i = 0; i < 512; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	return tc_octal(h + 148, 8, &want) && want == sum;
}

static int tc_ustar_ok(const unsigned char *h)
{
	return !memcmp(h + 257, "ustar", 6) && !memcmp(h + 263, "00", 2);
}

static int tc_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* The pax records of p[0..n): each self-consistent; path and size kept. */
static const char *tc_pax(const unsigned char *p, size_t n, struct tc_member *m)
{
	size_t at = 0;

	while (at < n) {
		size_t len = 0, i = at, eq;
		while (i < n && p[i] >= '0' && p[i] <= '9' && i - at < 12)
			len = len * 10 + (p[i++] - '0');
		if (i == at || p[at] == '0' || i >= n || p[i] != ' ')
			return "pax record length not digits and a space";
		if (len < i - at + 4 || at + len > n || p[at + len - 1] != '\n')
			return "pax record length does not end at its newline";
		for (eq = i + 1; eq < at + len - 1 && p[eq] != '='; eq++)
			;
		if (eq == at + len - 1 || eq == i + 1)
			return "pax record without key=";
		if (eq - i - 1 == 4 && !memcmp(p + i + 1, "path", 4)) {
			m->name_len = at + len - 1 - eq - 1;
			if (m->name_len >= sizeof m->name)
				return "pax path beyond the checker's buffer";
			memcpy(m->name, p + eq + 1, m->name_len);
			m->name[m->name_len] = 0;
			m->pax_path = 1;
		} else if (eq - i - 1 == 4 && !memcmp(p + i + 1, "size", 4)) {
			size_t k;
			m->size = 0;
			if (eq + 1 == at + len - 1)
				return "pax size empty";
			for (k = eq + 1; k < at + len - 1; k++) {
				if (p[k] < '0' || p[k] > '9' || m->size > (UINT64_MAX - (p[k] - '0')) / 10)
					return "pax size not a decimal number";
				m->size = m->size * 10 + (p[k] - '0');
			}
			m->pax_size = 1;
		}
		at += len;
	}
	return NULL;
}

/* Read the header blocks b[0..n) of one member into m; m->why says what is
 * wrong (NULL: well-formed, and the blocks end exactly at n). */
static const char *tc_read(const char *bytes, size_t n, struct tc_member *m)
{
	const unsigned char *b = (const unsigned char *)bytes, *h;
	uint64_t v;
	int b256;
	size_t i;

	memset(m, 0, sizeof *m);
	if (n == 0 || n % 512)
		return m->why = "length not a positive multiple of 512";
	h = b;
	if (h[156] == 'x') {
		if (!tc_sum_ok(h))
			return m->why = "pax header checksum";
		if (!tc_ustar_ok(h))
			return m->why = "pax header magic";
		if (!tc_octal(h + 124, 12, &v) || v == 0)
			return m->why = "pax header size field";
		m->pax_len = v;
		if (512 + ((v + 511) / 512) * 512 + 512 != n)
			return m->why = "pax size disagrees with the blocks written";
		if ((m->why = tc_pax(b + 512, v, m)))
			return m->why;
		if (!tc_zero(b + 512 + v, (512 - v % 512) % 512))
			return m->why = "pax padding not zero";
		h = b + 512 + ((v + 511) / 512) * 512;
	} else if (n != 512) {
		return m->why = "more than one block without a pax header";
	}
	m->head_len = n;
	if (!tc_sum_ok(h))
		return m->why = "checksum";
	if (!tc_ustar_ok(h))
		return m->why = "magic";
	m->type = (char)h[156];
	if (!tc_octal(h + 100, 8, &m->mode) || !tc_octal(h + 108, 8, &m->uid) ||
	    !tc_octal(h + 116, 8, &m->gid) || !tc_octal(h + 136, 12, &m->mtime))
		return m->why = "mode, uid, gid or mtime not octal";
	if (!tc_size_field(h + 124, &v, &b256))
		return m->why = "size field neither octal nor base-256";
	if (m->pax_size) {
		/* busybox tar ignores size=: the field must say it too */
		if (!b256)
			return m->why = "pax size without a base-256 size field";
		if (v != m->size)
			return m->why = "base-256 size disagrees with pax size";
	} else {
		if (b256)
			return m->why = "base-256 size without a pax size";
		m->size = v;
	}
	if (!tc_zero(h + 157, 100))
		return m->why = "linkname not empty";
	if (!m->pax_path) {
		size_t pl = strnlen((const char *)h + 345, 155), nl = strnlen((const char *)h, 100);
		if (!nl)
			return m->why = "empty name field";
		memcpy(m->name, h + 345, pl);
		i = pl;
		if (pl)
			m->name[i++] = '/';
		memcpy(m->name + i, h, nl);
		m->name_len = i + nl;
		m->name[m->name_len] = 0;
	}
	return NULL;
}
#endif
