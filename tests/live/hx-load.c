/* Workloads for tests/races-live.test (robustness).  Each prints its
 * pid on stdout when in place and runs until killed (children die with it).
 *   hx-load maps N        one process with N separate mappings (alternating
 *                         protections, so neighbours never merge)
 *   hx-load sleepers N    N sleeping children, 64 KiB private memory each
 *   hx-load churn Z       Z zombies kept unreaped, then children that exit
 *                         at once, spawned and reaped in a loop
 *   hx-load files DIR     in DIR, in a loop: 200 files and a 40-deep
 *                         directory chain created, then removed */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void ready(void)
{
	printf("%d\n", (int)getpid());
	fflush(stdout);
}

static pid_t child(void)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0, i;

	if (argc > 2 && !strcmp(argv[1], "maps")) {
		for (i = 0; i < n; i++) {
			char *p = mmap(0, 4096, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
			               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return perror("mmap"), 1;
			if (i % 2 == 0)
				*p = 1;
		}
	} else if (argc > 2 && !strcmp(argv[1], "sleepers")) {
		int fd[2];
		char c;
		if (pipe(fd))
			return perror("pipe"), 1;
		for (i = 0; i < n; i++) {
			pid_t p = child();
			if (p < 0)
				return perror("fork"), 1;
			if (p == 0) {
				char *m = mmap(0, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				if (m != MAP_FAILED)
					memset(m, 3, 65536);
				if (write(fd[1], "x", 1) != 1)
					_exit(1);
				for (;;)
					pause();
			}
		}
		for (i = 0; i < n; i++)
			if (read(fd[0], &c, 1) != 1)
				return 1;
	} else if (argc > 2 && !strcmp(argv[1], "churn")) {
		for (i = 0; i < n; i++)
			if (child() == 0)
				_exit(0);
		usleep(300000);               /* they exit at once: zombies by now */
		ready();
		for (;;) {
			pid_t p = child();
			if (p == 0)
				_exit(0);
			if (p > 0)
				waitpid(p, 0, 0);
		}
	} else if (argc > 2 && !strcmp(argv[1], "files")) {
		char path[4096];
		ready();
		for (;;) {
			size_t l;
			for (i = 0; i < 200; i++) {
				int fd;
				snprintf(path, sizeof path, "%s/f%ld", argv[2], i);
				fd = open(path, O_CREAT | O_WRONLY, 0644);
				if (fd >= 0 && write(fd, path, 100 + i) < 0)
					return 1;
				close(fd);
			}
			l = snprintf(path, sizeof path, "%s", argv[2]);
			for (i = 0; i < 40; i++) {
				l += snprintf(path + l, sizeof path - l, "/d");
				mkdir(path, 0755);
			}
			for (i = 0; i < 200; i++) {
				snprintf(path, sizeof path, "%s/f%ld", argv[2], i);
				unlink(path);
			}
			for (i = 0; i < 40; i++) {
				rmdir(path);
				l -= 2;
				path[l] = 0;
			}
		}
	} else {
		fprintf(stderr, "usage: hx-load maps N | sleepers N | churn Z | files DIR\n");
		return 2;
	}
	ready();
	for (;;)
		pause();
}
