/* The typed parsers on real and hostile input: meminfo (kB to bytes,
 * HugePages counts times Hugepagesize, absent keys), vmstat (absent
 * counters), mountinfo (octal escapes, optional fields, garbled lines),
 * psi, zoneinfo layouts. */
#include <string.h>
#include "meminfo.h"
#include "mountinfo.h"
#include "psi.h"
#include "rd.h"
#include "vmstat.h"
#include "zoneinfo.h"
#include "t.h"

static struct zi z;

static int zi_str(const char *s)
{
	struct rd_lines r;
	rd_lines_mem(&r, s, strlen(s));
	return zi_parse(&z, &r);
}

int unit_parsers(void)
{
	static const char mi[] =
		"MemTotal:       16314300 kB\n"
		"MemFree:         1000 kB\n"
		"Active(anon):      12 kB\n"
		"HugePages_Total:       3\n"
		"HugePages_Free:        1\n"
		"Hugepagesize:       2048 kB\n"
		"Bogus line without colon\n"
		"SwapTotal:  99999999999999999999 kB";
	static struct meminfo m;
	static const char *const names[] = { "pgmajfault", "oom_kill", "pswpin" };
	uint64_t v[3];
	unsigned char have[3];
	struct rd_lines r;
	struct mnt mt;
	char strs[512];
	unsigned long bad = 0;
	const char *val;
	size_t vl;
	struct psi p;
	static const char *const mkeys[] = {
#define X(id, s) s,
		MEMINFO_KEYS(X)
#undef X
	};
	int k;
	static const char mnt[] =
		"22 1 0:21 / /run rw,nosuid shared:5 - tmpfs tmpfs rw,size=817140k,mode=755\n"
		"garbage line\n"
		"30 22 0:26 / /run/my\\040dir rw master:1 propagate_from:2 - tmpfs none\\011x rw\n"
		"31 22 0:27 / /mnt rw - ext4 /dev/sda1 rw\n";

	for (k = 0; k < MI_N && !strcmp(meminfo_name(k), mkeys[k]); k++)
		;
	CHECK_EQ("meminfo names in the order of MEMINFO_KEYS", k, MI_N);
	meminfo_parse(mi, sizeof mi - 1, &m);
	CHECK_EQ("meminfo kB to bytes", m.v[MI_MemTotal], 16314300ull * 1024);
	CHECK_EQ("meminfo parens key", m.v[MI_ActiveAnon], 12 * 1024);
	CHECK_EQ("meminfo HugePages_Total times Hugepagesize", m.v[MI_HugePagesTotal], 3ull * 2048 * 1024);
	CHECK_EQ("meminfo HugePages_Free times Hugepagesize", m.v[MI_HugePagesFree], 2048ull * 1024);
	CHECK("meminfo absent key is absent", !MI_HAS(&m, MI_MemAvailable));
	CHECK("meminfo present key", MI_HAS(&m, MI_MemFree));
	CHECK("meminfo overflow saturates and is flagged", m.v[MI_SwapTotal] == UINT64_MAX && (m.ovf >> MI_SwapTotal & 1));
	CHECK_EQ("meminfo skipped lines", m.skipped, 1);
	meminfo_parse("", 0, &m);
	CHECK("meminfo empty", m.have == 0);

	vmstat_parse("nr_free_pages 5\npgmajfault 77\npswpin 3", 38, names, 3, v, have);
	CHECK("vmstat found", have[0] && v[0] == 77 && have[2] && v[2] == 3);
	CHECK("vmstat absent counter", !have[1]);

	rd_lines_mem(&r, mnt, sizeof mnt - 1);
	CHECK("mountinfo 1", mountinfo_next(&r, &mt, strs, sizeof strs, &bad) == 1 &&
	      mt.id == 22 && mt.major == 0 && mt.minor == 21 && !strcmp(mt.point, "/run") &&
	      !strcmp(mt.fstype, "tmpfs") && !strcmp(mt.super, "rw,size=817140k,mode=755"));
	CHECK("mountinfo size option", opt_value(mt.super, "size", &val, &vl) && vl == 7 && !memcmp(val, "817140k", 7));
	CHECK("mountinfo absent option", !opt_value(mt.super, "nr_inodes", &val, &vl));
	CHECK("mountinfo escapes and optional fields", mountinfo_next(&r, &mt, strs, sizeof strs, &bad) == 1 &&
	      !strcmp(mt.point, "/run/my dir") && !strcmp(mt.source, "none\tx") && mt.parent == 22);
	CHECK_EQ("mountinfo garbled line counted", bad, 1);
	CHECK("mountinfo 3", mountinfo_next(&r, &mt, strs, sizeof strs, &bad) == 1 && !strcmp(mt.fstype, "ext4"));
	CHECK("mountinfo end", mountinfo_next(&r, &mt, strs, sizeof strs, &bad) == 0);
	rd_lines_mem(&r, mnt, sizeof mnt - 1);
	bad = 0;
	CHECK("mountinfo line too long for strbuf is skipped", mountinfo_next(&r, &mt, strs, 20, &bad) == 0 && bad == 4);
	CHECK("unoctal", unoctal(strs, sizeof strs, "a\\134b\\040", 10) == 4 && !strcmp(strs, "a\\b "));
	CHECK("unoctal incomplete escape kept", unoctal(strs, sizeof strs, "a\\04", 4) == 4 && !strcmp(strs, "a\\04"));

	CHECK("psi", !psi_parse("some avg10=1.50 avg60=0.25 avg300=0.00 total=123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=7\n", 96, &p) &&
	      p.some.avg[0] == 150 && p.some.avg[1] == 25 && p.some.total == 123 && p.full.have && p.full.total == 7);
	CHECK("psi some only", !psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=9\n", 48, &p) && !p.full.have && p.some.total == 9);
	CHECK("psi garbage", psi_parse("nothing here\n", 13, &p) == -1);

	/* a last line without its newline: used when it parses, and said */
	CHECK("zoneinfo last line without newline used", !zi_str("Node 0, zone   Normal\n  pages free     5\n        min      1\n"
	      "        low      2\n        high     3\n        present  10\n        managed  8") && z.nonl && z.z[0].managed == 8);
	CHECK("zoneinfo with its newline: nonl clear", !zi_str("Node 0, zone   Normal\n  pages free     5\n        min      1\n"
	      "        low      2\n        high     3\n        present  10\n        managed  8\n") && !z.nonl);
	CHECK("zoneinfo garbled last line without newline fails", zi_str("Node 0, zone   Normal\n  pages free     5\n        min      1\n"
	      "        low      2\n        high     3\n        present  10\n        managed  8x") == ZI_EPARSE && z.err_line == 7);
	CHECK("page sizes of Linux architectures", zi_page_size_plausible(4096) && zi_page_size_plausible(8192) &&
	      zi_page_size_plausible(16384) && zi_page_size_plausible(32768) && zi_page_size_plausible(65536) &&
	      zi_page_size_plausible(262144));
	CHECK("page sizes of none", !zi_page_size_plausible(131072) && !zi_page_size_plausible(524288) &&
	      !zi_page_size_plausible(2048) && !zi_page_size_plausible(1ull << 40));
	meminfo_parse("MemTotal: 5 kB\nMemFree: 3 kB", 28, &m);
	CHECK("meminfo last line without newline used, said", MI_HAS(&m, MI_MemFree) && m.v[MI_MemFree] == 3072 &&
	      m.diag.why && strstr(m.diag.why, "no final newline"));
	CHECK("psi last line without newline used, said", !psi_parse("some avg10=1.00 avg60=0.00 avg300=0.00 total=5", 46, &p) &&
	      p.some.total == 5 && p.diag.why && strstr(p.diag.why, "no final newline"));
	{
		struct diag d;
		static const char two[] = "22 1 0:21 / /run rw - tmpfs tmpfs rw\n23 1 0:22 / /x rw - tmpfs t rw";
		bad = 0;
		rd_lines_mem(&r, two, sizeof two - 1);
		while (mountinfo_next(&r, &mt, strs, sizeof strs, &bad) > 0)
			;
		CHECK("mountinfo last line without newline used", !strcmp(mt.point, "/x") && !bad);
		CHECK("mountinfo_diag: no final newline", strstr(mountinfo_diag(&d, "m", &r, 0, bad)->why, "no final newline"));
		CHECK("mountinfo_diag: lines skipped", strstr(mountinfo_diag(&d, "m", &r, 0, 2)->why, "did not parse"));
		CHECK("mountinfo_diag: an error", mountinfo_diag(&d, "m", &r, -MB_ETOOBIG, 0)->err == MB_ETOOBIG);
		rd_lines_mem(&r, "22 1 0:21 / /run rw - tmpfs tmpfs rw\n", 37);
		while (mountinfo_next(&r, &mt, strs, sizeof strs, &bad) > 0)
			;
		CHECK("mountinfo_diag: a clean file says nothing", !mb_diag_set(mountinfo_diag(&d, "m", &r, 0, 0)));
	}
	CHECK("zoneinfo minimal", !zi_str("Node 0, zone   Normal\n  pages free     5\n        min      1\n        low      2\n"
	      "        high     3\n        spanned  10\n        present  10\n        managed  8\n        protection: (0, 4)\n") &&
	      z.n == 1 && z.z[0].reserve == 7 && z.z[0].prot_max == 4 && !(z.z[0].have & ZH_BOOST));
	CHECK("zoneinfo reserve capped at managed", !zi_str("Node 0, zone      DMA\n  pages free 1\n min 1\n low 2\n high 30\n present 10\n managed 8\n protection: (0, 100)\n") &&
	      z.z[0].reserve == 8);
	CHECK("zoneinfo boost taken out of high", !zi_str("Node 0, zone N\n pages free 1\n boost 5\n min 1\n low 2\n high 13\n present 100\n managed 100\n protection: (0)\n") &&
	      z.z[0].reserve == 8 && (z.z[0].have & ZH_BOOST));
	CHECK("zoneinfo 2.6: no managed, protection last", !zi_str("Node 0, zone DMA32\n  pages free     65515\n        min      1399\n        low      1748\n"
	      "        high     2098\n        scanned  0 (a: 27 i: 24)\n        spanned  1044480\n        present  125224\n"
	      "    nr_free_pages 65515\n        protection: (0, 0, 0, 0)\n  pagesets\n    cpu: 0\n              count: 20\n"
	      "              high:  186\n  all_unreclaimable: 0\n") && z.z[0].managed == 125224 && !(z.z[0].have & ZH_MANAGED) && z.z[0].high == 2098);
	CHECK("zoneinfo per-node stats and two nodes", !zi_str("Node 0, zone DMA\n  per-node stats\n      nr_inactive_anon 1\n  pages free 1\n min 1\n low 1\n high 1\n present 1\n"
	      "Node 1, zone Normal\n  pages free 2\n min 1\n low 1\n high 1\n present 1\n") && z.n == 2 && z.tot.free == 3);
	CHECK("zoneinfo empty protection list", !zi_str("Node 0, zone N\n pages free 1\n min 1\n low 1\n high 1\n present 1\n protection: ()\n") && z.z[0].prot_max == 0);
	CHECK("zoneinfo missing watermarks is an error", zi_str("Node 0, zone N\n pages free 1\n min 1\n") == ZI_EPARSE && z.err_line == 1);
	CHECK("zoneinfo garbled protection", zi_str("Node 0, zone N\n pages free 1\n protection: (0 1)\n") == ZI_EPARSE && z.err_line == 3);
	CHECK("zoneinfo long zone name rejected", zi_str("Node 0, zone ABCDEFGHIJKLMNOPQRSTUVWXYZ\n") == ZI_EPARSE);
	return unit_end_all();
}
