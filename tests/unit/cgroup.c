/* core/cgroup.c: the memory line of /proc/PID/cgroup (v1 over v2), which
 * mount is the memory hierarchy, and a cgroup's directory under a mount
 * whose root is not the hierarchy's (a container's view). */
#include "cgroup.h"
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

int main(void)
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
	return unit_end_all();
}
