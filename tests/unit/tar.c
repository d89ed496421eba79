/* tar_head: the header blocks of one member, read back by tar_check.h
 * (written from POSIX, not from core/tar.c): checksums recomputed, octal
 * fields, the ustar prefix split, pax path= and size= records with their
 * self-counting lengths (the lengths hand-counted below).
 *   unit-tar            the checks
 *   unit-tar FILE       also an archive of the same members with their
 *                       content as holes (sparse), for capture.test to list
 *                       with GNU tar and busybox tar; FILE.list has the
 *                       names and sizes one per line, "SIZE NAME". */
#include <fcntl.h>
#include <unistd.h>
#include "bounds.h"
#include "tar.h"
#include "t.h"
#include "tar_check.h"

static char head[TAR_HEAD_MAX];
static char name[MB_PATH_MAX + 2];
static struct tc_member m;
#define MTIME 1795521110u   /* 2026-11-24, any second after 2001 (11 octal digits) */
#define GiB (1ull << 30)

/* a name of len bytes: "d/" pieces then 'a's, or only 'a's (no '/') */
static const char *mkname(size_t len, int slashes)
{
	size_t i;

	for (i = 0; i < len; i++)
		name[i] = slashes && i % 50 == 1 ? '/' : 'a' + i % 26;
	name[len] = 0;
	return name;
}

static size_t read_back(const char *what, const char *nm, uint64_t size, unsigned mode, char type)
{
	size_t n = tar_head(head, nm, size, mode, MTIME, type);

	CHECK(what, n > 0 && n <= TAR_HEAD_MAX && n % TAR_BLOCK == 0);
	if (n == 0 || n > TAR_HEAD_MAX)
		return 0;
	tc_read(head, n, &m);
	unit_report(m.why == NULL, what, m.why ? m.why : "", __FILE__, __LINE__);
	CHECK(what, m.name_len == strlen(nm) && !memcmp(m.name, nm, m.name_len));
	CHECK_EQ(what, m.size, size);
	CHECK_EQ(what, m.mode, mode);
	CHECK_EQ(what, m.uid, 0);
	CHECK_EQ(what, m.gid, 0);
	CHECK_EQ(what, m.mtime, MTIME);
	CHECK_EQ(what, m.type, type);
	return n;
}

/* The archive for the host check: each member's header, then its content
 * as a hole, then its padding; two zero blocks at the end. */
static struct { const char *name; size_t len; int slashes; uint64_t size; } arch[] = {
	{ "proc/meminfo", 0, 0, 1234 },
	{ NULL, 100, 1, 0 },             /* a name of exactly 100 bytes */
	{ NULL, 101, 1, 513 },           /* 101: the ustar prefix split */
	{ NULL, 101, 0, 512 },           /* 101 with no '/': pax path= */
	{ NULL, 4000, 1, 1 },            /* pax path= of 4000 bytes */
	{ "proc/1/smaps-8GiB-1", 0, 0, 8 * GiB - 1 },   /* the largest octal size */
	{ "proc/1/smaps-8GiB", 0, 0, 8 * GiB },         /* pax size= */
	{ "proc/2/smaps-9GiB", 0, 0, 9 * GiB },
};

static int write_archive(const char *path)
{
	char list[MB_PATH_MAX + 8], num[24];
	uint64_t at = 0;
	size_t i, n;
	int fd, lf;

	mb_join(list, path, ".list", "");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	lf = open(list, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || lf < 0)
		return 1;
	for (i = 0; i < sizeof arch / sizeof arch[0]; i++) {
		const char *nm = arch[i].name ? arch[i].name : mkname(arch[i].len, arch[i].slashes);
		n = tar_head(head, nm, arch[i].size, 0444, MTIME, '0');
		if (!n || pwrite(fd, head, n, (off_t)at) != (ssize_t)n)
			return 1;
		at += n + arch[i].size + tar_pad(arch[i].size);
		if (write(lf, num, u64_str(num, arch[i].size)) < 0 || write(lf, " ", 1) < 0 ||
		    write(lf, nm, strlen(nm)) < 0 || write(lf, "\n", 1) < 0)
			return 1;
	}
	/* the end: two zero blocks, made by extending the file */
	if (ftruncate(fd, (off_t)(at + 2 * TAR_BLOCK)) || close(fd) || close(lf))
		return 1;
	return 0;
}

int unit_tar(void)
{
	size_t n;

	/* short: one block, the name in the name field */
	n = read_back("tar short name", "proc/meminfo", 1234, 0444, '0');
	CHECK_EQ("tar short name: one block", n, 512);
	CHECK_STR("tar short name: name field", head, strlen(head), "proc/meminfo");
	CHECK("tar short name: no prefix", head[345] == 0);
	/* magic "ustar\0" "00" (POSIX), not GNU's "ustar  \0" */
	CHECK("tar short name: POSIX magic", !memcmp(head + 257, "ustar\0" "00", 8));
	n = read_back("tar directory", "proc/1", 0, 0555, '5');
	CHECK_EQ("tar directory: one block", n, 512);
	n = read_back("tar empty file", "proc/1/cmdline", 0, 0444, '0');
	CHECK_EQ("tar empty file: one block", n, 512);

	/* exactly 100 bytes: the whole name field, no NUL, no prefix, no pax */
	n = read_back("tar name of 100 bytes", mkname(100, 1), 1, 0444, '0');
	CHECK_EQ("tar name of 100 bytes: one block", n, 512);
	CHECK("tar name of 100 bytes: fills the field", !memcmp(head, name, 100) && head[100] != 0);
	n = read_back("tar name of 100 bytes, no slash", mkname(100, 0), 1, 0444, '0');
	CHECK_EQ("tar name of 100 bytes, no slash: one block", n, 512);

	/* 101 bytes with '/': the prefix split, no pax header */
	n = read_back("tar name of 101 bytes split", mkname(101, 1), 7, 0444, '0');
	CHECK_EQ("tar name of 101 bytes split: one block", n, 512);
	CHECK("tar name of 101 bytes split: prefix used", head[345] != 0 && !m.pax_path);
	/* the longest ustar name: a prefix of 155, '/', a name of 100 */
	memset(name, 'p', 155);
	name[155] = '/';
	memset(name + 156, 'n', 100);
	name[256] = 0;
	n = read_back("tar name of 155/100 split", name, 7, 0444, '0');
	CHECK_EQ("tar name of 155/100 split: one block", n, 512);
	/* a prefix of 156 or a last part of 101 cannot split: pax */
	name[156] = 0;
	memset(name, 'p', 156);
	name[156] = '/';
	memset(name + 157, 'n', 10);
	name[167] = 0;
	read_back("tar prefix of 156: pax path", name, 7, 0444, '0');
	CHECK("tar prefix of 156: pax path", m.pax_path);
	memset(name, 'p', 10);
	name[10] = '/';
	memset(name + 11, 'n', 101);
	name[112] = 0;
	read_back("tar last part of 101: pax path", name, 7, 0444, '0');
	CHECK("tar last part of 101: pax path", m.pax_path);

	/* "/" and 100 bytes: an empty prefix would read back without the '/' */
	name[0] = '/';
	memset(name + 1, 'n', 100);
	name[101] = 0;
	read_back("tar leading slash, no prefix to split at", name, 7, 0444, '0');
	CHECK("tar leading slash, no prefix to split at: pax path", m.pax_path);
	/* 101 bytes, no '/': pax path=; "111 path=<101>\n" is 3+1+5+101+1 */
	n = read_back("tar name of 101 bytes, no slash", mkname(101, 0), 7, 0444, '0');
	CHECK("tar name of 101 bytes, no slash: pax path", m.pax_path && !m.pax_size);
	CHECK_EQ("tar name of 101 bytes, no slash: record length 111", m.pax_len, 111);
	CHECK_STR("tar name of 101 bytes, no slash: record", head + 512, 9, "111 path=");
	CHECK_EQ("tar name of 101 bytes, no slash: three blocks", n, 3 * 512);
	/* the length's own digits: a value of 989 makes "999 path=...\n",
	 * one of 990 needs a fourth digit: "1001 path=...\n" */
	read_back("tar pax record of 999", mkname(989, 0), 0, 0444, '0');
	CHECK_EQ("tar pax record of 999: length", m.pax_len, 999);
	CHECK_STR("tar pax record of 999: digits", head + 512, 4, "999 ");
	read_back("tar pax record of 1001", mkname(990, 0), 0, 0444, '0');
	CHECK_EQ("tar pax record of 1001: length", m.pax_len, 1001);
	CHECK_STR("tar pax record of 1001: digits", head + 512, 5, "1001 ");
	/* 4000 bytes: "4011 path=<4000>\n" */
	n = read_back("tar name of 4000 bytes", mkname(4000, 1), 1, 0444, '0');
	CHECK("tar name of 4000 bytes: pax path", m.pax_path);
	CHECK_EQ("tar name of 4000 bytes: record length", m.pax_len, 4011);
	CHECK_EQ("tar name of 4000 bytes: blocks", n, 512 + 4096 + 512);

	/* sizes: 8 GiB - 1 is the largest of 11 octal digits */
	n = read_back("tar size 8 GiB - 1", "proc/1/smaps", 8 * GiB - 1, 0444, '0');
	CHECK_EQ("tar size 8 GiB - 1: one block, octal", n, 512);
	CHECK_STR("tar size 8 GiB - 1: field", head + 124, 11, "77777777777");
	n = read_back("tar size 8 GiB", "proc/1/smaps", 8 * GiB, 0444, '0');
	CHECK("tar size 8 GiB: pax size", m.pax_size && !m.pax_path);
	/* "19 size=8589934592\n": 2+1+5+10+1 */
	CHECK_EQ("tar size 8 GiB: record length", m.pax_len, 19);
	CHECK_STR("tar size 8 GiB: record", head + 512, 19, "19 size=8589934592\n");
	CHECK_EQ("tar size 8 GiB: three blocks", n, 3 * 512);
	/* and in the ustar field for readers that ignore size= (busybox):
	 * 2^33 in base-256 is 0x80, then 2^33 = 0x02 << 32 over 11 bytes:
	 * six zeros, 0x02, four zeros */
	CHECK("tar size 8 GiB: base-256 field",
	      !memcmp(head + 1024 + 124, "\x80\0\0\0\0\0\0\x02\0\0\0\0", 12));
	read_back("tar size 9 GiB", "proc/1/smaps", 9 * GiB, 0444, '0');
	CHECK_STR("tar size 9 GiB: record", head + 512, 19, "19 size=9663676416\n");
	/* 9 GiB = 0x2_4000_0000 */
	CHECK("tar size 9 GiB: base-256 field",
	      !memcmp(head + 1024 + 124, "\x80\0\0\0\0\0\0\x02\x40\0\0\0", 12));
	read_back("tar size 2^64 - 1", "proc/1/smaps", UINT64_MAX, 0444, '0');
	CHECK_STR("tar size 2^64 - 1: record", head + 512, 29, "29 size=18446744073709551615\n");
	CHECK("tar size 2^64 - 1: base-256 field",
	      !memcmp(head + 1024 + 124, "\x80\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff", 12));
	/* both records, and the largest header there is */
	n = read_back("tar path and size", mkname(MB_PATH_MAX, 0), UINT64_MAX, 0444, '0');
	CHECK("tar path and size: both records", m.pax_path && m.pax_size);
	CHECK("tar path and size: within TAR_HEAD_MAX", n > 0 && n <= TAR_HEAD_MAX);

	/* refused: empty, and longer than MB_PATH_MAX */
	CHECK_EQ("tar empty name refused", tar_head(head, "", 1, 0444, MTIME, '0'), 0);
	CHECK_EQ("tar name over MB_PATH_MAX refused", tar_head(head, mkname(MB_PATH_MAX + 1, 1), 1, 0444, MTIME, '0'), 0);

	/* padding to the block */
	CHECK_EQ("tar_pad 0", tar_pad(0), 0);
	CHECK_EQ("tar_pad 1", tar_pad(1), 511);
	CHECK_EQ("tar_pad 512", tar_pad(512), 0);
	CHECK_EQ("tar_pad 513", tar_pad(513), 511);
	CHECK_EQ("tar_pad 9 GiB + 1", tar_pad(9 * GiB + 1), 511);

	if (unit_arg)
		CHECK_EQ("tar archive for the host check written", write_archive(unit_arg), 0);
	return unit_end_all();
}
