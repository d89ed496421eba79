/* /sys/kernel/dmabuf/buffers: the sum of the buffers' sizes, a buffer's
 * directory without a size (freed while listed), a garbled size, and a
 * kernel without the directory. */
#include "t.h"
#include "dmabuf.h"
#include "rd.h"
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

int unit_dmabuf(void)
{
	uint64_t bytes = 1, n = 1;
	struct diag d;

	/* 8294400 + 8294400 + 2097152, as the fixture's README adds them */
	CHECK_EQ("sysfs root", rd_set_root("tests/fixtures/sr-dmabuf"), 0);
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
