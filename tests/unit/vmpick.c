/* vm_pick: the vmstat-meter lookup of a few names in vmstat ("name N")
 * buffers, with the hints of where each line was the last time; and
 * meminfo_parse on the shapes vmstat-meter used to look up itself.  Every
 * expected value is written out by hand below; the hinted lookups are also
 * checked against the same lookup without hints. */
#include <stdint.h>
#include <string.h>
#include "meminfo.h"
#include "vmstat.h"
#include "t.h"

static const char *const vn[] = { "pgmajfault", "pswpin", "oom_kill" };

int unit_vmpick(void)
{
	/* pgmajfault's line starts at byte 16, pswpin's at 30, oom_kill absent */
	static const char v1[] = "nr_free_pages 5\npgmajfault 77\npswpin 3\n";
	/* widths changed: pgmajfault now at 18, pswpin at 34 */
	static const char v2[] = "nr_free_pages 500\npgmajfault 7700\npswpin 4\n";
	/* hostile: a name inside another line, a blank lead, "kB" on vmstat,
	 * the name twice (the first counts), a line cut short */
	static const char v3[] = "x_pgmajfault 9\n  pgmajfault 8\npswpin 6 kB\npswpin 7\npswpin 5\noom_kill";
	static const char m1[] = "MemTotal:  100 kB\nMemFree:     40 kB\nSwapFree:  2 kB\nActive(anon): 3\n";
	static const char m3[] = "MemFree: 5 kB\nMemFree: 7 x\nSwapFree: 6 kB\nSwapFree: 9 kBx\n";
	static const char m2[] = "MemFree: 1 kB\nMemFree: 18446744073709551615 kB\nSwapFree 9 kB\nActive(anon):\t7 kB \n";
	uint64_t v[3], w[3];
	unsigned char h[3], g[3];
	unsigned short at[3] = { 0, 0, 0 };
	struct meminfo m;

	CHECK_EQ("vmstat two of three found", vm_pick(v1, sizeof v1 - 1, vn, 3, v, h, at), 2);
	CHECK("vmstat values", h[0] && v[0] == 77 && h[1] && v[1] == 3 && !h[2]);
	CHECK("vmstat hints learnt: line starts 16 and 30", at[0] == 16 && at[1] == 30);
	CHECK_EQ("vmstat hints hit", vm_pick(v1, sizeof v1 - 1, vn, 3, w, g, at), 2);
	CHECK("vmstat hinted = first values", g[0] && w[0] == 77 && g[1] && w[1] == 3 && !g[2]);
	/* the old hints now point into "ges 500" and "7700\n": not line starts */
	CHECK_EQ("vmstat stale hints: found from the start", vm_pick(v2, sizeof v2 - 1, vn, 3, v, h, at), 2);
	CHECK("vmstat stale hints: values", v[0] == 7700 && v[1] == 4 && !h[2]);
	CHECK("vmstat hints moved to 18 and 34", at[0] == 18 && at[1] == 34);
	/* hints of v2 into v1: 18 and 34 are not line starts there */
	CHECK_EQ("vmstat hints of another buffer", vm_pick(v1, sizeof v1 - 1, vn, 3, v, h, at), 2);
	CHECK("vmstat hints of another buffer: values", v[0] == 77 && v[1] == 3);

	CHECK_EQ("vmstat hostile: without hints", vm_pick(v3, sizeof v3 - 1, vn, 3, v, h, 0), 2);
	CHECK("vmstat hostile: blank lead counts, suffix of a name does not", h[0] && v[0] == 8);
	CHECK("vmstat hostile: 'kB' line skipped, then the first pswpin", h[1] && v[1] == 7);
	CHECK("vmstat hostile: a name with no number is absent", !h[2]);
	CHECK_EQ("vmstat_parse is vm_pick without hints", vmstat_parse(v3, sizeof v3 - 1, vn, 3, w, g), 2);
	CHECK("vmstat_parse values", g[0] && w[0] == 8 && g[1] && w[1] == 7 && !g[2]);
	/* a hint to the middle of "x_pgmajfault 9" must not match its tail */
	at[0] = 2;
	vm_pick(v3, sizeof v3 - 1, vn, 1, v, h, at);
	CHECK("vmstat hint mid-line is not a line", h[0] && v[0] == 8);

	/* meminfo has one parser, meminfo_parse, for vmstat-meter too: the rules
	 * vm_pick had for it */
	meminfo_parse(m1, sizeof m1 - 1, &m);
	CHECK("meminfo kB made bytes, a plain number kept", m.v[MI_MemFree] == 40 * 1024 &&
	      m.v[MI_SwapFree] == 2048 && m.v[MI_ActiveAnon] == 3 && !m.diag.why);
	/* the last MemFree (saturated), no SwapFree without its ':', a tab and a
	 * trailing blank allowed */
	meminfo_parse(m2, sizeof m2 - 1, &m);
	CHECK("meminfo last line of a key counts, saturated", MI_HAS(&m, MI_MemFree) && m.v[MI_MemFree] == UINT64_MAX);
	CHECK("meminfo key without ':' is absent", !MI_HAS(&m, MI_SwapFree));
	CHECK("meminfo tab and trailing blank", MI_HAS(&m, MI_ActiveAnon) && m.v[MI_ActiveAnon] == 7 * 1024);
	CHECK("meminfo first damage: line 2 beyond 2^64", m.diag.line == 2 && !strcmp(m.diag.why, "beyond 2^64") &&
	      !strcmp(m.diag.file, "/proc/meminfo"));
	/* a key repeated on a damaged line keeps the good value */
	meminfo_parse(m3, sizeof m3 - 1, &m);
	CHECK("meminfo damaged repeat keeps the good line", m.v[MI_MemFree] == 5 * 1024 && m.v[MI_SwapFree] == 6 * 1024);
	CHECK("meminfo damaged repeat: line 2 garbled, 2 lines skipped", m.diag.line == 2 &&
	      !strcmp(m.diag.why, "garbled") && m.skipped == 2);
	return unit_end_all();
}
