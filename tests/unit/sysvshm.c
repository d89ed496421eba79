/* /proc/sysvipc/shm: the 16-column format (rss, swap), the 14-column one of
 * old kernels, and hostile input. */
#include "t.h"
#include "sysvshm.h"
#include <errno.h>
#include <string.h>

static int parsen(const char *s, size_t n, struct shm_tot *t)
{
	struct rd_lines r;
	rd_lines_mem(&r, s, n);
	return shm_parse(&r, t);
}
static int parse(const char *s, struct shm_tot *t) { return parsen(s, strlen(s), t); }

int unit_sysvshm(void)
{
	struct shm_tot t;

	CHECK_EQ("shm 6.x rc", parse(
		"       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n"
		"         0          0   600               1048576  6580  6580      0     0     0     0     0 1795304272 1795304272 1795304272                262144                     0\n"
		"1375731712          5  1600               33554432  2201  2201      1  1000  1000  1000  1000 1700000200          0 1700000200               8388608              4194304\n", &t), 0);
	CHECK_EQ("shm 6.x segs", t.segs, 2);
	CHECK_EQ("shm 6.x size", t.size, 1048576 + 33554432);
	CHECK_EQ("shm 6.x rss", t.rss, 262144 + 8388608);
	CHECK_EQ("shm 6.x swap", t.swap, 4194304);
	CHECK("shm 6.x columns", t.have_rss && t.have_swap && !t.bad);

	CHECK_EQ("shm old rc", parse(
		"       key      shmid perms       size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime\n"
		"         0     131072   666    1048576  2720  2720      1     0     0     0     0 1304962654          0 1304962654\n", &t), 0);
	CHECK("shm old no rss", !t.have_rss && !t.have_swap && t.segs == 1 && t.size == 1048576 && t.rss == 0);

	CHECK_EQ("shm empty", parse("", &t), -EINVAL);
	CHECK_EQ("shm no size column", parse("key shmid\n1 2\n", &t), -EINVAL);
	CHECK_EQ("shm header only", parse("key size rss swap\n", &t), 0);
	CHECK("shm header only zero", t.segs == 0 && t.have_rss);
	parse("key size rss swap\n1 2 3\nx 5 y 7\n1 99999999999999999999999 1 1\n\n1 10 20 30\n", &t);
	CHECK_EQ("shm short, bad and overflowing lines", t.bad, 3);
	CHECK("shm only the good line summed", t.segs == 1 && t.size == 10 && t.rss == 20 && t.swap == 30);
	/* 2^64-1 is what a saturated scan gives: no size */
	parse("key size\n1 18446744073709551615\n2 5\n", &t);
	CHECK("shm 2^64-1 skipped", t.bad == 1 && t.segs == 1 && t.size == 5);
	/* a sum that would pass 2^64: that line is skipped, never saturated */
	parse("key size\n1 9223372036854775808\n2 9223372036854775808\n3 7\n", &t);
	CHECK("shm sum beyond 2^64 skipped", t.bad == 1 && t.segs == 2 && t.size == 9223372036854775815ull);
	/* a last line without its newline is used when it parses, and said */
	parse("key size\n1 10\n2 2", &t);
	CHECK("shm last line without newline used", !t.bad && t.segs == 2 && t.size == 12);
	CHECK("shm last line without newline said", t.diag.why && strstr(t.diag.why, "no final newline") && !t.diag.line);
	parse("key size\n1 10\n2 x", &t);
	CHECK("shm garbled last line without newline skipped", t.bad == 1 && t.segs == 1 &&
	      t.diag.line == 3 && strstr(t.diag.why, "garbled"));
	parse("key size\n1 10\nx y\n3 4\n", &t);
	CHECK("shm garbled line said with its number", t.diag.line == 3 && strstr(t.diag.why, "garbled"));
	parse("key size\n1 10\n", &t);
	CHECK("shm clean file says nothing", !mb_diag_set(&t.diag));
	{
		static const char *const col[2] = { "size", "rss" };
		struct rd_lines r;
		struct shm_it it = { .r = &r, .col = col, .n = 2 };
		uint64_t v[2];
		int segs = 0;
		rd_lines_mem(&r, "key size rss\n1 10 4\nx\n2 20 5", 28);
		while (shm_next(&it, v) > 0)
			segs++;
		CHECK("shm_next: the unfinished last line used", segs == 2 && v[0] == 20 && v[1] == 5);
		CHECK("shm_next: garbled line said", it.bad == 1 && it.diag.line == 3);
		memset(&it, 0, sizeof it);
		it.r = &r, it.col = col, it.n = 2;
		rd_lines_mem(&r, "nothing here\n", 13);
		CHECK("shm_next: no size column said", shm_next(&it, v) == -EINVAL && it.diag.why);
	}
	CHECK_EQ("shm NUL line skipped", parsen("key size\n1 1\0" "0\n2 5\n", 19, &t) == 0 && t.bad == 1 && t.size == 5, 1);
	CHECK_EQ("shm NUL in the header", parsen("key si\0ze size\n1 5\n", 19, &t), -EINVAL);
	return unit_end_all();
}
