/* pr_: smaps_rollup, smaps, status and cmdline parsing on real and hostile
 * text; glob matching (fnm_); user names from passwd (pw_). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "t.h"
#include "fnm.h"
#include "passwd.h"
#include "proc.h"
#include "rd.h"

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

int main(void)
{
	static struct pr_mem m;
	static struct pr_status st;
	static char buf[512];
	char cmd[] = "sleep\0" "100\0\0";
	size_t n;
	int fd;

	pr_rollup(roll, sizeof roll - 1, &m);
	CHECK_EQ("rollup Rss in bytes", m.v[PR_Rss], 8192ull * 1024);
	CHECK_EQ("rollup Pss", m.v[PR_Pss], 6567ull * 1024);
	CHECK("rollup absent key is absent", !PR_HAS(&m, PR_Pss_Anon) && PR_HAS(&m, PR_Private_Dirty));
	CHECK("rollup huge value saturates and is flagged", m.v[PR_Swap] == UINT64_MAX && (m.ovf >> PR_Swap & 1));
	CHECK("rollup status keys are not read from a rollup", !PR_HAS(&m, PR_VmRSS));
	pr_rollup("", 0, &m);
	CHECK_EQ("empty rollup: nothing", m.have, 0u);

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
		CHECK_EQ("status VmRSS bytes", st.mem.v[PR_VmRSS], 102400ull);
		CHECK("status RssAnon absent", !PR_HAS(&st.mem, PR_RssAnon));
		CHECK_EQ("status not a kernel thread", st.kthread, 0);
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

	CHECK("glob star crosses /", fnm_match("/opt/*--type=renderer*", "/opt/google/chrome --type=renderer --x", 38));
	CHECK("glob no match", !fnm_match("/usr/bin/crosvm*", "/usr/bin/cros", 13));
	CHECK("glob ? and class", fnm_match("a?[b-d][!x]", "azcy", 4) && !fnm_match("a?[b-d][!x]", "azcx", 4));
	CHECK("glob ] first in class, escaped *", fnm_match("[]a]\\*", "]*", 2) && !fnm_match("[]a]\\*", "]x", 2));
	CHECK("glob unclosed [ is literal", fnm_match("[ab", "[ab", 3));
	CHECK("glob backtracks", fnm_match("*a*b*c", "xaxbxbxc", 8) && !fnm_match("*a*b*c", "xaxbxbx", 7));
	CHECK("glob empty", fnm_match("*", "", 0) && !fnm_match("?", "", 0));

	CHECK_EQ("passwd root", rd_set_root("tests/fixtures/sr-x86-6x"), 0);
	CHECK("passwd uid 1000", pw_name(1000) && !strcmp(pw_name(1000), "alice"));
	CHECK("passwd missing uid", !pw_name(4242));
	{
		unsigned long u = 0;
		CHECK("passwd name to uid", !pw_uid("nobody", &u) && u == 65534);
		CHECK("passwd unknown name", pw_uid("mallory", &u) == -1);
	}
	return t_end_all();
}
