/* /proc/swaps and zram mm_stat: real lines (a zram Chromebook-style line, a
 * Raspberry Pi swap file next to zram, Android's /dev/block/zram0), and
 * hostile ones (garbled numbers, too few fields, too many zram devices). */
#include <stdint.h>
#include "swaps.h"
#include "t.h"

static int parse(const char *s, struct swaps *sw)
{
	struct rd_lines r;
	rd_lines_mem(&r, s, strlen(s));
	return sw_parse(&r, sw);
}

static int mm(const char *s, uint64_t *v) { return sw_mm_parse(s, strlen(s), v); }

int unit_swaps(void)
{
	struct swaps sw;
	uint64_t v[3];
	unsigned id, i;
	static char many[4096];
	size_t n = 0;

	CHECK_EQ("swaps header only", parse("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", &sw), 0);
	CHECK_EQ("swaps header only: no device", sw.n, 0);
	parse("Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n"
	      "/var/swap                               file            102396          29520           -2\n"
	      "/dev/zram0                              partition       262140          0               100\n", &sw);
	CHECK_EQ("swaps two devices", sw.n, 2);
	CHECK_EQ("swaps size in bytes", sw.size, (102396ull + 262140) * 1024);
	CHECK_EQ("swaps used in bytes", sw.used, 29520ull * 1024);
	CHECK_EQ("swaps disk seen", sw.disk, 1);
	CHECK_EQ("swaps one zram", sw.nzram, 1);
	CHECK_EQ("swaps zram number", sw.zram[0], 0);
	parse("Filename Type Size Used Priority\n/dev/block/zram3 partition 524284 1024 -1", &sw);
	CHECK_EQ("swaps android zram, no final newline", sw.nzram == 1 && sw.zram[0] == 3 && !sw.disk, 1);
	parse("Filename Type Size Used Priority\n/dev/sda2 partition 12x 0 -1\n/dev/sdb1 partition\n", &sw);
	CHECK_EQ("swaps garbled lines counted", sw.bad, 2);
	CHECK_EQ("swaps garbled lines not devices", sw.n, 0);
	n = 0;
	memcpy(many, "Filename\n", 9);
	n = 9;
	for (i = 0; i < SW_MAX_ZRAM + 3; i++) {
		memcpy(many + n, "/dev/zram", 9);
		n += 9;
		n += u64_str(many + n, i);
		memcpy(many + n, " partition 4 0 -2\n", 18);
		n += 18;
	}
	many[n] = 0;
	parse(many, &sw);
	CHECK_EQ("swaps zram beyond the table kept count", sw.nzram, SW_MAX_ZRAM);
	CHECK_EQ("swaps zram beyond the table dropped", sw.zram_dropped, 3);
	CHECK_EQ("swaps zram beyond the table still sized", sw.size, (SW_MAX_ZRAM + 3) * 4096ull);

	CHECK_EQ("zram id /dev/zram12", sw_zram_id("/dev/zram12", 11, &id) && id == 12, 1);
	CHECK_EQ("zram id bare /zram0 (ChromeOS minijail quirk)", sw_zram_id("/zram0", 6, &id) && id == 0, 1);
	CHECK_EQ("zram id rejects zramfoo", sw_zram_id("/dev/zramfoo", 12, &id), 0);
	CHECK_EQ("zram id rejects /dev/zram", sw_zram_id("/dev/zram", 9, &id), 0);
	CHECK_EQ("zram id rejects a directory named zram0", sw_zram_id("/zram0/swapfile", 15, &id), 0);

	CHECK_EQ("mm_stat 9 fields (6.x)", mm("53583872 11880421 12840960        0 12840960        0        0        0        0\n", v), 9);
	CHECK_EQ("mm_stat orig", v[0], 53583872);
	CHECK_EQ("mm_stat mem_used_total", v[2], 12840960);
	CHECK_EQ("mm_stat 7 fields (4.x)", mm("1 2 3 4 5 6 7\n", v), 7);
	CHECK_EQ("mm_stat 6 fields rejected", mm("1 2 3 4 5 6\n", v), -1);
	CHECK_EQ("mm_stat garbage rejected", mm("1 2 x 4 5 6 7\n", v), -1);
	return unit_end_all();
}
