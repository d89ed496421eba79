/* The bare kernel cost that smaps-rollup and vmstat-meter are measured
 * against: read the files, parse nothing.
 *   bare rollup     for every PID: status, cmdline, smaps_rollup
 *   bare smaps      for every PID: status, cmdline, smaps
 *   bare smaps-only for every PID: smaps alone
 *   bare pid PID    that PID alone: status, cmdline, smaps
 *   bare read N [-i US|-o] FILE...
 *                   N rounds of one pread at offset 0 of each FILE (the fds
 *                   kept open); -i US: each round at an absolute deadline US
 *                   after the last (clock_nanosleep TIMER_ABSTIME, as a
 *                   sampler wakes); -o: open, read to EOF and close each
 *                   FILE every round instead.  Prints CPU microseconds
 *                   (user + system) per round. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
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

	if (!strcmp(mode, "read") && argc > 3) {
		long n = atol(argv[2]), us = 0, i;
		int f = 3, k, nf, fd[16], reopen = 0;
		struct timespec t;
		struct rusage ru;

		if (!strcmp(argv[f], "-o"))
			reopen = ++f;
		else if (!strcmp(argv[f], "-i") && argc > 5)
			us = atol(argv[f + 1]), f += 2;
		for (nf = 0; f < argc && nf < 16; nf++)
			if ((fd[nf] = open(argv[f++], O_RDONLY)) < 0)
				return perror(argv[f - 1]), 1;
		clock_gettime(CLOCK_MONOTONIC, &t);
		for (i = 0; i < n; i++) {
			if (us) {
				t.tv_nsec += us * 1000;
				t.tv_sec += t.tv_nsec / 1000000000;
				t.tv_nsec %= 1000000000;
				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, 0);
			}
			for (k = 0; k < nf; k++)
				if (reopen) {
					slurp(AT_FDCWD, argv[argc - nf + k]);
				} else if (pread(fd[k], buf, sizeof buf, 0) < 0) {
					return perror("pread"), 1;
				}
		}
		getrusage(RUSAGE_SELF, &ru);
		printf("%.2f\n", (ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec +
		                  ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec) / n);
		return 0;
	}
	if (!strcmp(mode, "pid") && argc > 2) {
		char path[64];
		int pd;

		snprintf(path, sizeof path, "/proc/%s", argv[2]);
		if ((pd = open(path, O_RDONLY | O_DIRECTORY)) < 0)
			return perror(path), 1;
		slurp(pd, "status");
		slurp(pd, "cmdline");
		slurp(pd, "smaps");
		close(pd);
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
		if (!strcmp(mode, "smaps-only")) {
			slurp(pd, "smaps");
			close(pd);
			continue;
		}
		slurp(pd, "status");
		slurp(pd, "cmdline");
		slurp(pd, strcmp(mode, "smaps") ? "smaps_rollup" : "smaps");
		close(pd);
	}
	return 0;
}
