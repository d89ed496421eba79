/* The bare kernel cost that smaps-rollup and vmstat-meter are measured
 * against: read the files, parse nothing.
 *   bare rollup     for every PID: status, cmdline, smaps_rollup
 *   bare smaps      for every PID: status, cmdline, smaps
 *   bare vmstat N   N reads of /proc/vmstat; prints CPU microseconds per read */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static char buf[1 << 16];

static void slurp(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof buf) > 0)
		;
	close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "rollup";

	if (!strcmp(mode, "vmstat")) {
		long n = argc > 2 ? atol(argv[2]) : 10000, i;
		struct rusage ru;
		int fd = open("/proc/vmstat", O_RDONLY);
		for (i = 0; i < n; i++)
			if (pread(fd, buf, sizeof buf, 0) < 0)
				return 1;
		getrusage(RUSAGE_SELF, &ru);
		printf("%.2f\n", (ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec +
		                  ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec) / n);
		return 0;
	}
	DIR *d = opendir("/proc");
	struct dirent *e;
	while ((e = readdir(d))) {
		int pd;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		pd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY);
		if (pd < 0)
			continue;
		slurp(pd, "status");
		slurp(pd, "cmdline");
		slurp(pd, strcmp(mode, "smaps") ? "smaps_rollup" : "smaps");
		close(pd);
	}
	return 0;
}
