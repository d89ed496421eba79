/* pr_: smaps_rollup, smaps, status and cmdline parsing on real and hostile
 * text; smaps header lines and their kinds; the glob semantics of -c and -C
 * as fnmatch(3) gives them; user names from passwd (pw_); SysV segments one
 * by one (shm_next). */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "t.h"
#include "passwd.h"
#include "proc.h"
#include "rd.h"
#include "sysvshm.h"

static const char roll[] =
	"00400000-7ffc69224000 ---p 00000000 00:00 0                              [rollup]\n"
	"Rss:                8192 kB\n"
	"Pss:                6567 kB\n"
	"Private_Clean:      3644 kB\n"
	"Private_Dirty:      2764 kB\n"
	"Swap:      99999999999999999999 kB\n"
	"THPeligible:    1\n"
	"VmFlags: rd wr mr\n"
	"Bogus: 12 kB trailing\n";

/* pr_stream_cmdline's pieces, gathered */
struct gathered {
	char text[8192];
	size_t len, pieces, stop_after;
};

static int gather(void *ctx, const char *s, size_t n)
{
	struct gathered *g = ctx;

	if (g->len + n <= sizeof g->text)
		memcpy(g->text + g->len, s, n);
	g->len += n;
	return ++g->pieces == g->stop_after;
}

/* A command line streamed through a small buffer is the one read whole:
 * NULs inside as spaces, those at the end dropped, whatever the pieces. */
static void stream_cmdline(void)
{
	static char whole[8192], small[64];
	static struct gathered g;
	struct pr_proc p = { .dir = -1 };
	int trunc;
	long n;
	size_t len;

	CHECK_EQ("stream cmdline: root", rd_set_root("tests/fixtures/sr-many"), 0);
	n = rd_file("/proc/5001/cmdline", whole, sizeof whole, &trunc);
	CHECK("stream cmdline: a 6 KiB command line", n > 6000 && !trunc);
	len = pr_cmdline(whole, n > 0 ? n : 0);
	CHECK_EQ("stream cmdline: open", pr_open(&p, 5001), PR_FOUND);
	CHECK_EQ("stream cmdline: read", pr_stream_cmdline(&p, small, sizeof small, gather, &g), 0);
	CHECK("stream cmdline: in pieces", g.pieces > 100);
	CHECK("stream cmdline: the pieces are the whole line", g.len == len && !memcmp(g.text, whole, len));
	memset(&g, 0, sizeof g);
	g.stop_after = 2;
	pr_stream_cmdline(&p, small, sizeof small, gather, &g);
	CHECK("stream cmdline: stops when asked", g.pieces == 2 && g.len <= 2 * sizeof small);
	pr_close(&p);
	/* "sleep\0" "100000\0" 4 bytes at a time: the NUL between is a space, the last dropped */
	CHECK_EQ("stream cmdline: root", rd_set_root("tests/fixtures/sr-x86-6x"), 0);
	memset(&g, 0, sizeof g);
	CHECK_EQ("stream cmdline: open 5078", pr_open(&p, 5078), PR_FOUND);
	pr_stream_cmdline(&p, small, 4, gather, &g);
	CHECK_STR("stream cmdline: trailing NUL dropped", g.text, g.len, "sleep 100000");
	pr_close(&p);
	/* empty (a vanished process): [Name] */
	memset(&g, 0, sizeof g);
	CHECK_EQ("stream cmdline: open 5090", pr_open(&p, 5090), PR_FOUND);
	memcpy(p.status.name, "gone", 5);
	pr_stream_cmdline(&p, small, sizeof small, gather, &g);
	CHECK_STR("stream cmdline: empty is [Name]", g.text, g.len, "[gone]");
	pr_close(&p);
	rd_set_root("/");
}

int unit_proc(void)
{
	static struct pr_mem m;
	static struct pr_status st;
	static struct pw_cache pc;
	static char buf[512];
	char cmd[] = "sleep\0" "100\0\0";
	static const char *const names[] = {
#define X(k) #k,
		PR_KEYS(X)
#undef X
	};
	size_t n;
	int fd, k;

	for (k = 0; k < PR_NK && !strcmp(pr_key(k), names[k]); k++)
		;
	CHECK_EQ("key names in the order of PR_KEYS", k, PR_NK);
	pr_rollup(roll, sizeof roll - 1, &m);
	CHECK_EQ("rollup Rss in bytes", m.v[PR_Rss], 8192ull * 1024);
	CHECK_EQ("rollup Pss", m.v[PR_Pss], 6567ull * 1024);
	CHECK("rollup absent key is absent", !PR_HAS(&m, PR_Pss_Anon) && PR_HAS(&m, PR_Private_Dirty));
	CHECK("rollup huge value saturates and is flagged", m.v[PR_Swap] == UINT64_MAX && (m.ovf >> PR_Swap & 1));
	CHECK("rollup status keys are not read from a rollup", !PR_HAS(&m, PR_VmRSS));
	pr_rollup("", 0, &m);
	CHECK_EQ("empty rollup: nothing", m.have, 0u);
	CHECK_EQ("a kernel's rollup is not damaged", (pr_rollup(roll, sizeof roll - 1, &m), m.bad), 0ul);
	{
		/* line 3 a negative Pss, line 5 a CR before the newline; new
		 * keys and words in other keys are no damage */
		static const char neg[] = "00400000-7fff0000 ---p 00000000 00:00 0  [rollup]\n"
			"Rss: 8 kB\nPss: -5 kB\nFuture: on\nSwap: 1 kB\r\nVmFlags: rd wr\n";
		pr_rollup(neg, sizeof neg - 1, &m);
		CHECK_EQ("rollup: the first damaged line", m.bad, 3ul);
		pr_rollup("this is not a rollup\n", 21, &m);
		CHECK_EQ("rollup: garbage with no key is damaged", m.bad, 1ul);
		pr_rollup("Rss: 8 kB\nName: libc_malloc\nVmFlags: rd\n", 40, &m);
		CHECK_EQ("rollup: words in other keys are not", m.bad, 0ul);
		pr_rollup("Rss: 8 kB\nSwap: 1 kB\r\n", 22, &m);
		CHECK_EQ("rollup: CR LF is damage", m.bad, 2ul);
	}

	{
		static const char s[] =
			"Name:\t\\\\a b\\n\tc\n"
			"State:\tZ (zombie)\n"
			"PPid:\t42\n"
			"Uid:\t1000\t0\t0\t0\n"
			"Kthread:\t0\n"
			"VmRSS:\t     100 kB\n"
			"VmSwap:\t       4 kB\n";
		CHECK_EQ("status parses", pr_status(s, sizeof s - 1, &st), 0);
		CHECK_STR("status Name unescaped (backslash, newline, tab kept)", st.name, strlen(st.name), "\\a b\n\tc");
		CHECK_EQ("status State", st.state, 'Z');
		CHECK_EQ("status PPid", st.ppid, 42ul);
		CHECK_EQ("status effective uid", st.uid, 0ul);
		CHECK_EQ("status without Tgid: 0", st.tgid, 0ul);
		CHECK_EQ("status VmRSS bytes", st.mem.v[PR_VmRSS], 102400ull);
		CHECK("status RssAnon absent", !PR_HAS(&st.mem, PR_RssAnon));
		CHECK_EQ("status not a kernel thread", st.kthread, 0);
		CHECK_EQ("thread status parses", pr_status("Name:\tx\nTgid:\t943\nPid:\t944\n", 27, &st), 0);
		CHECK("thread status: Tgid and Pid", st.tgid == 943 && st.pid == 944);
	}
	{
		static const char s[] = "Name:\tabcdefghijklmnopqrstuvwxyz\nKthread:\t1\n";
		pr_status(s, sizeof s - 1, &st);
		CHECK("status long Name cut and flagged", st.name_cut && strlen(st.name) == SR_NAME_MAX - 1);
		CHECK_EQ("status Kthread", st.kthread, 1);
	}
	CHECK_EQ("status without Name is refused", pr_status("VmRSS: 1 kB\n", 12, &st), -1);

	n = pr_cmdline(cmd, sizeof cmd - 1);
	CHECK_STR("cmdline NULs to spaces, trailing dropped", cmd, n, "sleep 100");
	CHECK_EQ("cmdline of NULs only is empty", pr_cmdline(cmd, 0), 0u);

	/* smaps of a real process (sleep, 37 mappings), streamed through a
	 * buffer smaller than the file */
	fd = open("tests/fixtures/sr-smaps-only/proc/5078/smaps", O_RDONLY);
	CHECK("smaps fixture opens", fd >= 0);
	if (fd >= 0) {
		CHECK_EQ("smaps streams", pr_smaps(fd, &m, buf, sizeof buf), 0);
		CHECK_EQ("smaps Rss summed = the rollup's 1832 kB", m.v[PR_Rss], 1832ull * 1024);
		CHECK_EQ("smaps Private_Dirty summed = the rollup's 112 kB", m.v[PR_Private_Dirty], 112ull * 1024);
		CHECK("smaps has no Pss_Anon (rollup only)", !PR_HAS(&m, PR_Pss_Anon));
		close(fd);
	}

	CHECK("glob star crosses /", !fnmatch("/opt/*--type=renderer*", "/opt/google/chrome --type=renderer --x", 0));
	CHECK("glob no match", fnmatch("/usr/bin/crosvm*", "/usr/bin/cros", 0));
	CHECK("glob ? and class", !fnmatch("a?[b-d][!x]", "azcy", 0) && fnmatch("a?[b-d][!x]", "azcx", 0));
	CHECK("glob ] first in class, escaped *", !fnmatch("[]a]\\*", "]*", 0) && fnmatch("[]a]\\*", "]x", 0));
	CHECK("glob unclosed [ is literal", !fnmatch("[ab", "[ab", 0));
	CHECK("glob backtracks", !fnmatch("*a*b*c", "xaxbxbxc", 0) && fnmatch("*a*b*c", "xaxbxbx", 0));
	CHECK("glob empty", !fnmatch("*", "", 0) && fnmatch("?", "", 0));

	CHECK_EQ("passwd root", rd_set_root("tests/fixtures/sr-x86-6x"), 0);
	CHECK("passwd uid 1000", pw_name(&pc, 1000) && !strcmp(pw_name(&pc, 1000), "alice"));
	CHECK("passwd missing uid", !pw_name(&pc, 4242));
	CHECK("passwd clean: nothing to say", !mb_diag_set(&pc.diag));
	{
		/* a damaged passwd in a capture of its own: the first damage kept */
		static const char pw[] = "root:x:0:0::/:/bin/sh\n+::::::\n\ngarbled line\nbob:x:1001:1:::\ncut:x:10";
		static struct pw_cache pd;
		char dir[] = "/tmp/membox-unit-pw.XXXXXX", path[64];
		int fd = -1;
		if (mkdtemp(dir)) {
			strcat(strcpy(path, dir), "/etc");
			mkdir(path, 0755);
			strcat(path, "/passwd");
			fd = open(path, O_WRONLY | O_CREAT, 0644);
		}
		CHECK("passwd damaged: written", fd >= 0 && write(fd, pw, sizeof pw - 1) == sizeof pw - 1);
		close(fd);
		rd_set_root(dir);
		CHECK("passwd damaged: good lines still found", pw_name(&pd, 1001) && !strcmp(pw_name(&pd, 1001), "bob"));
		CHECK("passwd damaged: the garbled line said, by number", pd.diag.line == 4 && pd.diag.why &&
		      !strcmp(pd.diag.file, "/etc/passwd"));
		CHECK("passwd damaged: NIS and empty lines are no damage", pw_name(&pd, 0) && pd.diag.line == 4);
		unlink(path);
		*strrchr(path, '/') = 0;
		rmdir(path);
		rmdir(dir);
		memset(&pd, 0, sizeof pd);
		rd_set_root(dir);   /* gone: the root stays the last one opened */
		CHECK_EQ("passwd root back", rd_set_root("tests/fixtures/sr-x86-6x"), 0);
	}
	{
		unsigned long u = 0;
		CHECK("passwd name to uid", !pw_uid("nobody", &u) && u == 65534);
		CHECK("passwd unknown name", pw_uid("mallory", &u) == -1);
	}
	{
		/* smaps header lines (real ones from the sr-views capture), then
		 * key lines and hostile ones that must not pass as headers */
		static const struct { const char *s; int ok, kind; uint32_t dev; uint64_t ino; int sh; const char *path; } h[] = {
			{ "7fc7c42f7000-7fc7c4af7000 rw-s 00000000 00:01 1097361                    /dev/zero (deleted)",
			  1, PK_SHANON, 1, 1097361, 1, "/dev/zero (deleted)" },
			{ "55d94fb1e000-55d94fb20000 r--p 00000000 fe:00 247498                     /usr/bin/head",
			  1, PK_FILE, 0xfe << 20, 247498, 0, "/usr/bin/head" },
			{ "7fa77def5000-7fa77def9000 rw-s 00000000 00:1b 3                          /dev/shm/sr-fixture",
			  1, PK_TMPFS, 0x1b, 3, 1, "/dev/shm/sr-fixture" },
			{ "7fa77dce3000-7fa77dce9000 rw-s 00000000 00:01 4                          /SYSV00000000 (deleted)",
			  1, PK_SYSV, 1, 4, 1, "/SYSV00000000 (deleted)" },
			{ "7fa77de5c000-7fa77de64000 rw-s 00000000 00:01 176739                     /memfd:a b (deleted)",
			  1, PK_MEMFD, 1, 176739, 1, "/memfd:a b (deleted)" },
			{ "7fa77dce9000-7fa77dceb000 r--p 00000000 fe:00 15040514                   /var/tmp/x (deleted)",
			  1, PK_DELETED, 0xfe << 20, 15040514, 0, "/var/tmp/x (deleted)" },
			{ "5633f000-56360000 rw-p 00000000 00:00 0                                  [heap]", 1, PK_HEAP, 0, 0, 0, "[heap]" },
			{ "ffd0e000-ffd2f000 rw-p 00000000 00:00 0      [stack:1234]", 1, PK_STACK, 0, 0, 0, "[stack:1234]" },
			{ "7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]", 1, PK_SPECIAL, 0, 0, 0, "[vdso]" },
			{ "7f00-7f01 rw-p 00000000 00:00 0 [anon:dalvik main]", 1, PK_NAMED, 0, 0, 0, "[anon:dalvik main]" },
			{ "7f00-7f01 rw-s 00000000 00:01 9 [anon_shmem:x]", 1, PK_SHANON, 1, 9, 1, "[anon_shmem:x]" },
			{ "7f2c1a000000-7f2c1a021000 rw-p 00000000 00:00 0 ", 1, PK_ANON, 0, 0, 0, "" },
			{ "7f2c1a000000-7f2c1a021000 rw-p 00000000 00:00 0", 1, PK_ANON, 0, 0, 0, "" },
			{ "7f2c-7f2d rw-p 0 103:fffff 1  /x", 1, PK_FILE, 0x103u << 20 | 0xfffff, 1, 0, "/x" },
			{ "Rss:                1768 kB", 0, 0, 0, 0, 0, 0 },
			{ "VmFlags: rd wr mr mw me ac", 0, 0, 0, 0, 0, 0 },
			{ "7f2c-7f2d rw-x 0 00:00 0", 0, 0, 0, 0, 0, 0 },            /* neither s nor p */
			{ "7f2c-7f2d rw-p 0 00:00 x", 0, 0, 0, 0, 0, 0 },            /* inode not a number */
			{ "7f2c-7f2d rw-p 0 0000 1 /x", 0, 0, 0, 0, 0, 0 },          /* no ':' */
			{ "7f2c-7f2d rw-p 0 1000:00 1 /x", 0, 0, 0, 0, 0, 0 },       /* major beyond 12 bits */
			{ "7f2c-7f2d rw-p 0 00:100000 1 /x", 0, 0, 0, 0, 0, 0 },     /* minor beyond 20 bits */
			{ "7f2c-7f2d rw-p 0 0g:00 1 /x", 0, 0, 0, 0, 0, 0 },
			{ "7f2c-7f2d rw-p 0 00:00:00 1 /x", 0, 0, 0, 0, 0, 0 },
			{ "7f2c-7f2d rw-p", 0, 0, 0, 0, 0, 0 },
			{ "-", 0, 0, 0, 0, 0, 0 },
			{ "", 0, 0, 0, 0, 0, 0 },
		};
		struct pr_map m;
		unsigned i;
		int tm;
		for (i = 0; i < sizeof h / sizeof *h; i++) {
			int ok = pr_maphdr(h[i].s, strlen(h[i].s), &m);
			tm = h[i].kind == PK_TMPFS;
			if (!h[i].ok) {
				CHECK("smaps header: not a header line is refused", !ok);
				continue;
			}
			CHECK("smaps header parses", ok);
			if (!ok)
				continue;
			CHECK_EQ("smaps header device", m.dev, h[i].dev);
			CHECK_EQ("smaps header inode", m.ino, h[i].ino);
			CHECK_EQ("smaps header shared", m.shared, h[i].sh);
			CHECK("smaps header path (blanks kept, padding dropped)",
			      m.plen == strlen(h[i].path) && !memcmp(m.path, h[i].path, m.plen));
			CHECK_EQ("smaps header kind", pr_mapkind(&m, tm), h[i].kind);
		}
		pr_maphdr(h[1].s, strlen(h[1].s), &m);
		CHECK("smaps header fields as written: range, permissions, offset, device",
		      m.flen[0] == 25 && !memcmp(m.field[0], "55d94fb1e000-55d94fb20000", 25) &&
		      m.flen[1] == 4 && !memcmp(m.field[1], "r--p", 4) &&
		      m.flen[2] == 8 && !memcmp(m.field[2], "00000000", 8) &&
		      m.flen[3] == 5 && !memcmp(m.field[3], "fe:00", 5));
		pr_maphdr(h[1].s, strlen(h[1].s), &m);
		CHECK_EQ("a file on a tmpfs mount is tmpfs", pr_mapkind(&m, 1), PK_TMPFS);
		pr_maphdr(h[5].s, strlen(h[5].s), &m);
		CHECK_EQ("a deleted file on tmpfs is tmpfs", pr_mapkind(&m, 1), PK_TMPFS);
		pr_maphdr(h[0].s, strlen(h[0].s), &m);
		CHECK_EQ("shared anonymous memory is that, on any device", pr_mapkind(&m, 1), PK_SHANON);
		{
			static const char kn[] = PK_NAMES;
			CHECK("the kind names end with other", !strcmp(kn + sizeof kn - 6, "other"));
		}
	}
	{
		/* the Size key of smaps, not a rollup key */
		static struct pr_mem mm;
		pr_line(&mm, "Size:               8192 kB", 27, 0, PR_NK);
		CHECK_EQ("smaps Size in bytes", mm.v[PR_Size], 8192ull * 1024);
		pr_rollup("Size: 4 kB\n", 11, &mm);
		CHECK("Size is no rollup key", !PR_HAS(&mm, PR_Size));
	}
	{
		/* /proc/sysvipc/shm segment by segment: the 6.18 header, an old
		 * kernel's without rss and swap, a garbled line */
		static const char *const col[6] = { "shmid", "uid", "nattch", "size", "rss", "swap" };
		static const char t[] =
			"       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n"
			"         0          6   600                 24576  3631  3631      1     0     0     0     0 1795308336          0 1795308336                 24576                     0\n"
			"         0          7   600                 12288  3631     0      0  1000     0     0     0          0          0 1795308336                     0                  4096\n"
			"garbage\n";
		static const char old[] =
			"       key      shmid perms       size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime\n"
			"         0      32768   600     524288  4168  4170      2  1000  1000  1000  1000 1300000000          0 1300000000\n";
		struct rd_lines r;
		struct shm_it it = { .r = &r, .col = col, .n = 6 };
		uint64_t v[6];
		rd_lines_mem(&r, t, sizeof t - 1);
		CHECK_EQ("shm_next: first segment", shm_next(&it, v), 1);
		CHECK("shm_next: id, uid, nattch, size, rss, swap", v[0] == 6 && v[1] == 0 && v[2] == 1 && v[3] == 24576 && v[4] == 24576 && v[5] == 0);
		CHECK_EQ("shm_next: the header has every column", it.have, 63);
		CHECK_EQ("shm_next: second segment", shm_next(&it, v), 1);
		CHECK("shm_next: second's uid and swap", v[0] == 7 && v[1] == 1000 && v[5] == 4096);
		CHECK_EQ("shm_next: end", shm_next(&it, v), 0);
		CHECK_EQ("shm_next: the garbled line is counted", it.bad, 1ul);
		memset(&it, 0, sizeof it);
		it.r = &r;
		it.col = col;
		it.n = 6;
		rd_lines_mem(&r, old, sizeof old - 1);
		CHECK_EQ("shm_next: old kernel segment", shm_next(&it, v), 1);
		CHECK("shm_next: old kernel has no rss, swap", it.have == 15 && v[0] == 32768 && v[3] == 524288 && !v[4]);
		memset(&it, 0, sizeof it);
		it.r = &r;
		it.col = col;
		it.n = 6;
		rd_lines_mem(&r, "a b c\n1 2 3\n", 12);
		CHECK_EQ("shm_next: no shmid column", shm_next(&it, v), -EINVAL);
	}
	stream_cmdline();
	return unit_end_all();
}
