/* /sys/kernel/dmabuf/buffers: the sum of the buffers' sizes, a buffer's
 * directory without a size (freed while listed), a garbled size, and a
 * kernel without the directory. */
#include "t.h"
#include "dmabuf.h"
#include "rd.h"
#include "text.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *dir, const char *rel, const char *text)
{
	char path[128];
	int fd;

	strcat(strcpy(path, dir), rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		(void)!write(fd, text, strlen(text));
		close(fd);
	}
}

/* The kernel's texts (the fixture's README says where each is from) */
static const char fdinfo_6x[] =
	"pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t35\nsize:\t8294400\ncount:\t3\n"
	"exp_name:\ti915\nname:\tscanout\n";
static const char fdinfo_5x[] =
	"pos:\t0\nflags:\t02000002\nmnt_id:\t13\nsize:\t1048576\ncount:\t1\nexp_name:\tion_system_heap\n";

static uint64_t whole_of(struct dmabuf_set *s, unsigned pid, int kind)
{
	uint64_t share[HOLD_NSIZE], w[HOLD_NSIZE];
	dmabuf_of(s, pid, share, w);
	return w[kind];
}

static uint64_t share_of(struct dmabuf_set *s, unsigned pid, int kind)
{
	uint64_t share[HOLD_NSIZE], w[HOLD_NSIZE];
	dmabuf_of(s, pid, share, w);
	return share[kind];
}

static struct dmabuf_set set;

int unit_dmabuf(void)
{
	struct dmabuf_info bi;
	struct drm_info di;
	uint64_t tot[HOLD_NSIZE];

	CHECK_EQ("fdinfo 6.x rc", dmabuf_fdinfo(fdinfo_6x, sizeof fdinfo_6x - 1, &bi), 0);
	CHECK("fdinfo 6.x fields", bi.size == 8294400 && bi.have_ino && bi.ino == 35 && bi.count == 3 &&
	      !strcmp(bi.exp_name, "i915"));
	CHECK_EQ("fdinfo 5.x rc", dmabuf_fdinfo(fdinfo_5x, sizeof fdinfo_5x - 1, &bi), 0);
	CHECK("fdinfo 5.x: no inode", bi.size == 1048576 && !bi.have_ino && !strcmp(bi.exp_name, "ion_system_heap"));
	CHECK_EQ("fdinfo of a file: no size", dmabuf_fdinfo("pos:\t0\nflags:\t02\n", 18, &bi), -EINVAL);
	CHECK_EQ("fdinfo garbled size", dmabuf_fdinfo("size:\t12x\n", 10, &bi), -EINVAL);
	{
		static const char i915[] =
			"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t685\ndrm-driver:\ti915\n"
			"drm-client-id:\t18\ndrm-pdev:\t0000:00:02.0\ndrm-total-system0:\t142744 KiB\n"
			"drm-shared-system0:\t0\ndrm-resident-system0:\t142744 KiB\n"
			"drm-total-stolen-system0:\t2 MiB\ndrm-resident-stolen-system0:\t4095\n"
			"drm-engine-render:\t25662044495 ns\n";
		static const char old[] =   /* 5.19 to 6.4: drm-memory-REGION */
			"drm-driver:\tamdgpu\ndrm-client-id:\t7\ndrm-memory-vram:\t1024 KiB\n"
			"drm-memory-gtt:\t3 KiB\ndrm-memory-cpu:\t0 KiB\n";
		CHECK_EQ("drm i915 rc", drm_fdinfo(i915, sizeof i915 - 1, &di), 0);
		CHECK_EQ("drm i915 client", di.client_id, 18);
		CHECK_EQ("drm i915 total: KiB and MiB summed over regions", di.v[DRM_TOTAL], 142744 * 1024ull + 2097152);
		CHECK_EQ("drm i915 resident: bytes without a unit", di.v[DRM_RESIDENT], 142744 * 1024ull + 4095);
		CHECK("drm i915 pdev", di.pdev_hash != 0 && (di.have & 7) == 7);
		CHECK_EQ("drm old rc", drm_fdinfo(old, sizeof old - 1, &di), 0);
		CHECK("drm old: drm-memory is resident", di.v[DRM_RESIDENT] == 1027 * 1024 && !(di.have & 1 << DRM_TOTAL));
		CHECK_EQ("drm without a client id", drm_fdinfo("drm-driver:\tx\ndrm-total-a:\t5\n", 29, &di), -EINVAL);
		CHECK_EQ("drm garbled size ignored rc", drm_fdinfo("drm-client-id:\t1\ndrm-total-a:\t5 GB\n", 36, &di), 0);
		CHECK("drm garbled size ignored", di.v[DRM_TOTAL] == 0 && !(di.have & 1));
	}

	/* the fixture's processes; the README works the figures out by hand */
	CHECK_EQ("procs root", rd_set_root("tests/fixtures/gpu-dmabuf"), 0);
	{
		static const unsigned pids[] = { 700, 701, 702, 703, 705, 999 };
		unsigned i;
		for (i = 0; i < sizeof pids / sizeof *pids; i++) {
			char path[32] = "/proc/";
			int fd, k;
			u64_z(path + 6, pids[i]);
			fd = rd_open(path, O_RDONLY | O_DIRECTORY);
			k = fd < 0 ? fd : dmabuf_read_proc(&set, fd, pids[i]);
			if (fd >= 0)
				close(fd);
			CHECK_EQ("procs read", k, pids[i] == 999 ? -ENOENT : 1);
		}
	}
	CHECK_EQ("procs: 700 dmabuf share", share_of(&set, 700, HOLD_DMABUF), 8294400);
	CHECK_EQ("procs: 700 dmabuf whole (fd and mapping of 35 once)", whole_of(&set, 700, HOLD_DMABUF), 16588800);
	CHECK_EQ("procs: 700 drm i915", share_of(&set, 700, HOLD_DRM), 146169856);
	CHECK_EQ("procs: 701 dmabuf share (120 by two fds once)", share_of(&set, 701, HOLD_DMABUF), 6244352);
	CHECK_EQ("procs: 702 drm half of panfrost's", share_of(&set, 702, HOLD_DRM), 8990720);
	CHECK_EQ("procs: 703 drm the other half", share_of(&set, 703, HOLD_DRM), 8990720);
	CHECK_EQ("procs: 705 mapping alone, the buffer's whole size", share_of(&set, 705, HOLD_DMABUF), 4147200);
	CHECK_EQ("procs: 999 nothing", share_of(&set, 999, HOLD_DMABUF), 0);
	dmabuf_totals(&set, tot);
	CHECK_EQ("procs: dmabuf total equals sysfs", tot[HOLD_DMABUF], 18685952);
	CHECK_EQ("procs: drm total", tot[HOLD_DRM], 164151296);
	CHECK("procs: nothing unreadable", !set.unreadable && !set.fds_unreadable && !set.no_inode && !set.dropped);

	uint64_t bytes = 1, n = 1;
	struct diag d;

	/* 8294400 + 8294400 + 2097152, as the fixture's README adds them */
	CHECK_EQ("sysfs root", rd_set_root("tests/fixtures/gpu-dmabuf"), 0);
	CHECK_EQ("sysfs rc", dmabuf_sysfs_total(&bytes, &n, &d), 0);
	CHECK_EQ("sysfs bytes", bytes, 18685952);
	CHECK_EQ("sysfs buffers", n, 3);
	CHECK("sysfs clean: nothing said", !mb_diag_set(&d));

	/* a root without the directory: a kernel before 5.13 */
	CHECK_EQ("no sysfs root", rd_set_root("tests/fixtures/sr-x86-6x"), 0);
	CHECK_EQ("no sysfs: -ENOENT", dmabuf_sysfs_total(&bytes, &n, &d), -ENOENT);
	CHECK("no sysfs: zero", bytes == 0 && n == 0);
	{
		static const char *const sub[] = { "/sys", "/sys/kernel", "/sys/kernel/dmabuf",
			"/sys/kernel/dmabuf/buffers", "/sys/kernel/dmabuf/buffers/7",
			"/sys/kernel/dmabuf/buffers/8", "/sys/kernel/dmabuf/buffers/9",
			"/sys/kernel/dmabuf/buffers/10" };
		char dir[] = "/tmp/membox-unit-dmabuf.XXXXXX", path[128];
		unsigned i;
		int made = mkdtemp(dir) != 0;

		for (i = 0; made && i < sizeof sub / sizeof *sub; i++)
			mkdir(strcat(strcpy(path, dir), sub[i]), 0755);
		put(dir, "/sys/kernel/dmabuf/buffers/7/size", "4096\n");
		/* 8: freed between the listing and the read: no size file */
		put(dir, "/sys/kernel/dmabuf/buffers/9/size", "12x\n");
		put(dir, "/sys/kernel/dmabuf/buffers/10/size", "18446744073709551615\n");
		CHECK("damaged tree made", made);
		CHECK_EQ("damaged root", rd_set_root(dir), 0);
		CHECK_EQ("damaged rc", dmabuf_sysfs_total(&bytes, &n, &d), 0);
		CHECK_EQ("damaged: the good ones summed, saturated", bytes, UINT64_MAX);
		CHECK_EQ("damaged: buffers counted", n, 2);
		CHECK("damaged: garbled size said", d.why && strstr(d.why, "garbled") &&
		      !strcmp(d.file, "/sys/kernel/dmabuf/buffers"));
		put(dir, "/sys/kernel/dmabuf/buffers/10/size", "1\n");
		CHECK_EQ("damaged again rc", dmabuf_sysfs_total(&bytes, &n, &d), 0);
		CHECK_EQ("damaged: 4096 + 1", bytes, 4097);
		for (i = 0; made && i < 4; i++) {
			static const char *const f[] = { "7/size", "9/size", "10/size", "" };
			strcat(strcpy(path, dir), "/sys/kernel/dmabuf/buffers/");
			unlink(strcat(path, f[i]));
		}
		for (i = sizeof sub / sizeof *sub; made && i-- > 0;)
			rmdir(strcat(strcpy(path, dir), sub[i]));
		rmdir(dir);
	}
	rd_set_root("/");
	return unit_end_all();
}
