/* core/cgroup.c: the memory line of /proc/PID/cgroup (v1 over v2), which
 * mount is the memory hierarchy, a cgroup's directory under a mount whose
 * root is not the hierarchy's (a container's view), and the memory files:
 * their names, numbers and "key value" lines, real and damaged. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cgroup.h"
#include "rd.h"
#include "t.h"

static struct cg_hier h;

static void mount_one(const char *fstype, const char *super, const char *root, const char *point)
{
	struct mnt m = { .root = root, .point = point, .opts = "rw", .fstype = fstype,
	                 .source = fstype, .super = super };
	cg_mount(&h, &m);
}

static long dir(const char *path, char *out)
{
	return cg_dir(&h, path, strlen(path), out, 64);
}

static void files(void)
{
	static const char *const v1[CG_FILES] = { "memory.usage_in_bytes",
		"memory.memsw.usage_in_bytes", "memory.limit_in_bytes", 0,
		"memory.kmem.usage_in_bytes", "memory.stat", "memory.oom_control", 0,
		"memory.max_usage_in_bytes" };
	static const char *const v2[CG_FILES] = { "memory.current", "memory.swap.current",
		"memory.max", "memory.high", 0, "memory.stat", "memory.events", "memory.pressure",
		"memory.peak" };
	const char *got;
	int f, ok1 = 1, ok2 = 1;

	for (f = 0; f < CG_FILES; f++) {
		got = cg_file(1, f);
		ok1 &= v1[f] ? got && !strcmp(got, v1[f]) : !got;
		got = cg_file(2, f);
		ok2 &= v2[f] ? got && !strcmp(got, v2[f]) : !got;
	}
	CHECK("cgroup v1 file names (none for high, pressure)", ok1);
	CHECK("cgroup v2 file names (none for kmem)", ok2);
	CHECK("cgroup no hierarchy: no file", !cg_file(0, CG_STAT) && !cg_file(3, CG_STAT));
}

static int number(const char *text, uint64_t *v)
{
	*v = 7;
	return cg_number(text, strlen(text), v);
}

static void numbers(void)
{
	uint64_t v;

	CHECK_EQ("cgroup number", number("1048576\n", &v), CG_NUMBER);
	CHECK_EQ("cgroup number's value", v, 1048576);
	CHECK_EQ("cgroup number without newline", number("4096", &v), CG_NUMBER);
	CHECK_EQ("cgroup number 0", number("0\n", &v), CG_NUMBER);
	CHECK_EQ("cgroup number 2^64 - 1", number("18446744073709551615\n", &v), CG_NUMBER);
	CHECK_EQ("cgroup number 2^64 - 1's value", v, UINT64_MAX);
	CHECK_EQ("cgroup max: no limit", number("max\n", &v), CG_NONE);
	CHECK_EQ("cgroup max without newline", number("max", &v), CG_NONE);
	CHECK_EQ("cgroup damaged: empty", number("", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: a newline alone", number("\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: beyond 2^64", number("18446744073709551616\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: a word", number("lots\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: maximum", number("maximum\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: two lines", number("1\n2\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: a blank before", number(" 5\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: negative", number("-1\n", &v), CG_DAMAGED);
	CHECK_EQ("cgroup damaged: a NUL in it", cg_number("12\0003\n", 5, &v), CG_DAMAGED);

	CHECK("cgroup v1 limit below 2^62", cg_limit(1, CG_V1_NO_LIMIT - 4096));
	CHECK("cgroup v1 no limit: 2^63 less a page", !cg_limit(1, 9223372036854771712ull));
	CHECK("cgroup v1 no limit: 2^62", !cg_limit(1, CG_V1_NO_LIMIT));
	CHECK("cgroup v2 limit: any number", cg_limit(2, 9223372036854771712ull));
	CHECK_EQ("cgroup v1 swap: memsw less usage", cg_swap(1, 5000, 3000), 2000);
	CHECK_EQ("cgroup v1 swap: memsw below usage", cg_swap(1, 3000, 5000), 0);
	CHECK_EQ("cgroup v2 swap: as read", cg_swap(2, 5000, 3000), 5000);
}

/* cg_kv_check: the first line cg_kv_next would skip */
static void key_checks(void)
{
	struct diag d;

	CHECK("cgroup kv check: whole", !cg_kv_check("a 1\nb 2\n", 8, "f", &d) && !mb_diag_set(&d));
	CHECK("cgroup kv check: beyond 2^64 is whole (saturated)",
	      !cg_kv_check("a 99999999999999999999999\n", 26, "f", &d));
	CHECK("cgroup kv check: a word", cg_kv_check("a 1\nb x\n", 8, "f", &d) && d.line == 2);
	CHECK("cgroup kv check: a NUL", cg_kv_check("a 1\nb\0003\n", 8, "f", &d) && d.line == 2);
	CHECK("cgroup kv check: no final newline", cg_kv_check("a 1\nb 2", 7, "f", &d) && !d.line && d.why);
}

static void key_values(void)
{
	char stat[] = "anon 4096\nfile 8192\nbad key 1\nnumberless x\nkernel_stack 16384\n"
	              "\n12 3\nnoval \n pgfault 9\nsock 18446744073709551616\nlast 5";
	/* a value beyond 2^64 saturates, as every number */
	static const char *const keys[] = { "anon", "file", "kernel_stack", "12", "sock", "last" };
	static const uint64_t values[] = { 4096, 8192, 16384, 3, UINT64_MAX, 5 };
	const char *k;
	uint64_t v;
	long at = 0, at_again = 0;
	unsigned i = 0;
	int ok = 1;

	while (cg_kv_next(stat, sizeof stat - 1, &at, &k, &v)) {
		ok &= i < 6 && !strcmp(k, keys[i]) && v == values[i];
		i++;
	}
	CHECK("cgroup key value lines, damaged ones skipped, beyond 2^64 saturated", ok && i == 6);
	CHECK("cgroup key value: past the text at the end", at >= (long)sizeof stat - 1);
	/* read again: the keys end at the NULs written in place of blanks */
	for (i = 0; cg_kv_next(stat, sizeof stat - 1, &at_again, &k, &v); i++)
		;
	CHECK_EQ("cgroup key value lines read again", i, 6);
	at = 0;
	CHECK("cgroup key value: an empty text", !cg_kv_next(stat, 0, &at, &k, &v));
	key_checks();
}

/* cg_read_kv on a file of 300 keys, then two repeated (one of the first
 * 256, kept by hash, one after them, searched for): each key read once,
 * its first value, the first repeat's line said */
static void read_kv(void)
{
	static char text[8192], buf[8192];
	char path[] = "/tmp/membox-unit-cg.XXXXXX";
	struct diag d;
	const char *k;
	uint64_t v, sum = 0;
	long n = 0, at = 0, got;
	int fd = mkstemp(path), i, keys = 0;

	for (i = 0; i < 300; i++)
		n += snprintf(text + n, sizeof text - n, "key%d %d\n", i, i);
	n += snprintf(text + n, sizeof text - n, "key7 1000000\nkey299 1000000\n");
	CHECK("cgroup kv read: written", fd >= 0 && write(fd, text, n) == n);
	close(fd);
	rd_set_root("/");
	got = cg_read_kv(path, 0, buf, sizeof buf, &d);
	CHECK_EQ("cgroup kv read: whole", got, n);
	CHECK("cgroup kv read: the first key repeated said, by its line", d.line == 301 && d.why);
	while (cg_kv_next(buf, got, &at, &k, &v)) {
		keys++;
		sum += v;
	}
	CHECK_EQ("cgroup kv read: each key once", keys, 300);
	CHECK_EQ("cgroup kv read: the first values", sum, 299 * 300 / 2);
	unlink(path);
	got = cg_read_kv(path, 0, buf, sizeof buf, &d);
	CHECK("cgroup kv read: absent, not said", got == -ENOENT && !mb_diag_set(&d));
}

int unit_cgroup(void)
{
	static const char hybrid[] = "12:pids:/x\n4:cpu,memory:/system.slice/a.service\n0::/user.slice\n";
	static const char v2[] = "1:name=systemd:/init.scope\n0::/user.slice/u.slice\n";
	const char *p;
	size_t n;
	char out[64];

	CHECK_EQ("cgroup v1 memory line wins", cg_parse(hybrid, sizeof hybrid - 1, 0, 0, &p, &n), 1);
	CHECK_STR("cgroup v1 path", p, n, "/system.slice/a.service");
	CHECK_EQ("cgroup v2 asked for", cg_parse(hybrid, sizeof hybrid - 1, 0, 2, &p, &n), 2);
	CHECK_STR("cgroup v2 path", p, n, "/user.slice");
	CHECK_EQ("cgroup v2 only", cg_parse(v2, sizeof v2 - 1, 0, 0, &p, &n), 2);
	CHECK_STR("cgroup v2 only path", p, n, "/user.slice/u.slice");
	CHECK_EQ("cgroup v1 asked, none", cg_parse(v2, sizeof v2 - 1, 0, 1, &p, &n), 0);
	CHECK_EQ("cgroup memoryx is not memory", cg_parse("3:memoryx:/a\n", 13, 0, 1, &p, &n), 0);
	CHECK_EQ("cgroup no final newline", cg_parse("0::/a", 5, 0, 0, &p, &n) == 2 && n == 2, 1);
	CHECK_EQ("cgroup newline in a name", cg_parse("1:name=x:/y\n0::/new\nline.service\n", 33, 0, 0, &p, &n), 2);
	CHECK_STR("cgroup newline in a name: the path whole", p, n, "/new\nline.service");
	CHECK_EQ("cgroup newline in a v1 name", cg_parse("4:memory:/a\nb:c\n0::/d\n", 22, 0, 0, &p, &n), 1);
	CHECK_STR("cgroup newline in a v1 name: the path whole", p, n, "/a\nb:c");
	CHECK_EQ("cgroup cut: a path not ended is not taken", cg_parse("1:x:/a\n0::/long", 15, 1, 0, &p, &n), 0);
	CHECK_EQ("cgroup cut: a path ended by a line is", cg_parse("4:memory:/a\n0::/lo", 18, 1, 0, &p, &n), 1);
	CHECK_STR("cgroup cut: that path", p, n, "/a");

	CHECK_EQ("cgroup no mount: no dir", dir("/a", out), -1);
	mount_one("cgroup2", "rw", "/", "/sys/fs/cgroup/unified");
	CHECK_EQ("cgroup v2 kept", h.version, 2);
	mount_one("cgroup", "rw,cpu", "/", "/sys/fs/cgroup/cpu");
	CHECK_EQ("cgroup v1 without memory ignored", h.version, 2);
	mount_one("cgroup", "rw,memory", "/", "/sys/fs/cgroup/memory");
	CHECK_EQ("cgroup v1 memory wins", h.version == 1 && !strcmp(h.point, "/sys/fs/cgroup/memory"), 1);
	mount_one("cgroup2", "rw", "/", "/other");
	CHECK_EQ("cgroup v2 after v1 ignored", h.version, 1);
	CHECK_EQ("cgroup dir", dir("/system.slice/a.service", out), 44);
	CHECK_STR("cgroup dir path", out, strlen(out), "/sys/fs/cgroup/memory/system.slice/a.service");
	CHECK_STR("cgroup root dir", out, (size_t)dir("/", out), "/sys/fs/cgroup/memory");

	memset(&h, 0, sizeof h);
	mount_one("cgroup2", "rw", "/docker/abc", "/sys/fs/cgroup");
	CHECK_STR("cgroup under the mount root", out, (size_t)dir("/docker/abc/x", out), "/sys/fs/cgroup/x");
	CHECK_STR("cgroup the mount root", out, (size_t)dir("/docker/abc", out), "/sys/fs/cgroup");
	CHECK_EQ("cgroup beside the mount root", dir("/docker/abcd", out), -1);
	CHECK_EQ("cgroup outside the mount root", dir("/other", out), -1);
	mount_one("cgroup2", "rw", "/", "/mnt/whole");
	CHECK_STR("cgroup whole hierarchy mount preferred", out, (size_t)dir("/other", out), "/mnt/whole/other");

	memset(&h, 0, sizeof h);
	mount_one("cgroup2", "rw", "/", "/");
	CHECK_STR("cgroup mounted on /", out, (size_t)dir("/a/b", out), "/a/b");
	CHECK_STR("cgroup mounted on /, its root", out, (size_t)dir("/", out), "/");

	files();
	numbers();
	key_values();
	read_kv();
	return unit_end_all();
}
