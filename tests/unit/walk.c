/* The bounded walk: counts, hard links once, symlinks not followed, a
 * chain deeper than WK_MAX_FDS (re-opened through ".."), the per-entry
 * callback of the root, vanished and unreadable entries; a wide directory
 * and levels with listings larger than one read (the listing stack of
 * walk.c, kept or read again); resident from cachestat (cache 1) against
 * the test's own cachestat per file, and from st_blocks (cache 2). */
#include "t.h"
#include "walk.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static unsigned long nchild, child_files;

static void child(struct wk *w, const char *name, int isdir, const struct wk_sum *s)
{
	(void)w; (void)isdir;
	nchild++;
	if (!strcmp(name, "deep"))
		child_files = s->files;
}

static void put(int dfd, const char *name, int size)
{
	static char b[5000];
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, b, size) < 0)
			size = 0;
		close(fd);
	}
}

/* "<pre><i>" padded with x to 40 characters: listings of ~64 bytes an entry */
static const char *nm(const char *pre, int i)
{
	static char b[48];
	size_t n = strlen(pre);
	memcpy(b, pre, n);
	b[n++] = '0' + i / 100 % 10;
	b[n++] = '0' + i / 10 % 10;
	b[n++] = '0' + i % 10;
	while (n < 40)
		b[n++] = 'x';
	b[n] = 0;
	return b;
}

/* sum of st_size of dfd and its directories one level down (wide/),
 * or of its directory chain a, z, m... (stack/) */
static uint64_t sb_size_sum(int dfd)
{
	struct stat sb;
	uint64_t s = 0;
	int i;
	fstat(dfd, &sb);
	s += sb.st_size;
	for (i = 0; i < 300; i++)
		if (!fstatat(dfd, nm("d", i), &sb, 0))
			s += sb.st_size;
	return s;
}

static uint64_t sb_size_dirs(int dfd)
{
	struct stat sb;
	uint64_t s = 0;
	int d = dup(dfd), e;
	while (d >= 0) {
		fstat(d, &sb);
		s += sb.st_size;
		if (!fstatat(d, "a", &sb, 0))
			s += sb.st_size;
		if (!fstatat(d, "z", &sb, 0))
			s += sb.st_size;
		e = openat(d, "m", O_RDONLY | O_DIRECTORY);
		close(d);
		d = e;
	}
	return s;
}

/* The test's own sums over the regular files directly in dfd (no hard
 * links there): st_blocks x 512, and cachestat's cached pages x page size
 * (-1 when the kernel, or qemu-user, has no cachestat). */
static void own(int dfd, uint64_t *blocks, int64_t *cached)
{
	static char buf[8192];
	long n, i;
	int d = openat(dfd, ".", O_RDONLY | O_DIRECTORY);

	while (d >= 0 && (n = syscall(SYS_getdents64, d, buf, sizeof buf)) > 0)
		for (i = 0; i < n; i += *(unsigned short *)(buf + i + 16)) {
			const char *name = buf + i + 19;
			struct stat sb;
			uint64_t c[5] = { 0, 0 };
			int f;
			if (fstatat(d, name, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISREG(sb.st_mode))
				continue;
			*blocks += sb.st_blocks * 512;
			f = openat(d, name, O_RDONLY);
			if (*cached >= 0 && !syscall(451, f, c, c, 0))
				*cached += c[0] * sysconf(_SC_PAGESIZE);
			else
				*cached = -1;
			close(f);
		}
	if (d >= 0)
		close(d);
}

static struct wk_space space;

int unit_walk(void)
{
	char tmpl[] = "/tmp/mb-walk-XXXXXX";
	const char *dir = mkdtemp(tmpl);
	struct wk w;
	int root, d, i, k;

	if (!dir)
		return CHECK("mkdtemp", 0), unit_end_all();
	root = open(dir, O_RDONLY | O_DIRECTORY);
	put(root, "a", 100);
	mkdirat(root, "x", 0755);
	d = openat(root, "x", O_RDONLY | O_DIRECTORY);
	put(d, "b", 5000);
	linkat(root, "a", d, "a-link", 0);
	symlinkat("..", d, "up");               /* a loop if followed */
	mkfifoat(d, "fifo", 0600);
	close(d);
	mkdirat(root, "deep", 0755);
	d = openat(root, "deep", O_RDONLY | O_DIRECTORY);
	for (i = 0; i < WK_MAX_FDS * 3; i++) {
		int e;
		mkdirat(d, "d", 0755);
		e = openat(d, "d", O_RDONLY | O_DIRECTORY);
		close(d);
		d = e;
		if (i % 10 == 0)
			put(d, "f", 10);
	}
	close(d);

	memset(&w, 0, sizeof w);
	w.child = child;
	k = wk_walk(&w, &space, root);
	CHECK_EQ("walk rc", k, 0);
	CHECK_EQ("walk files (a hard link once)", w.tot.files, 2 + (WK_MAX_FDS * 3 + 9) / 10);
	CHECK_EQ("walk dirs (root, x, deep chain)", w.tot.dirs, 3 + WK_MAX_FDS * 3);
	CHECK_EQ("walk other (symlink, fifo)", w.tot.other, 2);
	CHECK_EQ("walk depth", w.depth, WK_MAX_FDS * 3 + 1);
	CHECK("walk re-opened deep levels", w.reopened > 0 && !w.incomplete);
	CHECK_EQ("walk root entries", nchild, 3);
	CHECK_EQ("walk deep child files", child_files, (WK_MAX_FDS * 3 + 9) / 10);
	CHECK("walk logical at least the files", w.tot.logical >= 5100 + 10 * child_files);
	CHECK("walk no unreadable", !w.unreadable && !w.vanished && !w.links_over);
	CHECK("walk caller fd kept", fcntl(root, F_GETFD) >= 0);
	CHECK_EQ("walk again same result", (memset(&w, 0, sizeof w), wk_walk(&w, &space, root), w.tot.files),
	         2 + (WK_MAX_FDS * 3 + 9) / 10);
	CHECK_EQ("walk bad fd", (memset(&w, 0, sizeof w), wk_walk(&w, &space, -1)), -9);

	/* Few file descriptors: with three free (the walk's own "." and two
	 * more) the walk closes its oldest levels, re-opens them through ".."
	 * and counts all; with one free it cannot enter a subdirectory: no_fd,
	 * never a silent undercount.  (dup() tells the lowest free fd.) */
	{
		struct rlimit was, few;
		int lowest = dup(0);
		close(lowest);
		getrlimit(RLIMIT_NOFILE, &was);
		few = was;
		few.rlim_cur = lowest + 3;
		if (!setrlimit(RLIMIT_NOFILE, &few)) {
			memset(&w, 0, sizeof w);
			CHECK_EQ("walk 3 fds rc", wk_walk(&w, &space, root), 0);
			CHECK_EQ("walk 3 fds: every file", w.tot.files, 2 + (WK_MAX_FDS * 3 + 9) / 10);
			CHECK("walk 3 fds: re-opened, nothing missed", w.reopened > 0 && !w.no_fd && !w.incomplete &&
			      !w.unreadable && !w.vanished);
			few.rlim_cur = lowest + 1;
			setrlimit(RLIMIT_NOFILE, &few);
			memset(&w, 0, sizeof w);
			CHECK_EQ("walk 1 fd rc", wk_walk(&w, &space, root), 0);
			CHECK("walk 1 fd: subdirectories not entered, counted in no_fd", w.no_fd == 2 && w.tot.files == 1);
			few.rlim_cur = lowest;
			setrlimit(RLIMIT_NOFILE, &few);
			memset(&w, 0, sizeof w);
			CHECK_EQ("walk no fd: -EMFILE", wk_walk(&w, &space, root), -EMFILE);
			setrlimit(RLIMIT_NOFILE, &was);
		}
	}

	/* wide: 300 subdirectories (one file each) between 300 files, ~38 KiB
	 * of listing: each return from a subdirectory goes on in the kept
	 * listing */
	mkdirat(root, "wide", 0755);
	d = openat(root, "wide", O_RDONLY | O_DIRECTORY);
	for (i = 0; i < 300; i++) {
		int e;
		put(d, nm("f", i), 1 + i);
		mkdirat(d, nm("d", i), 0755);
		e = openat(d, nm("d", i), O_RDONLY | O_DIRECTORY);
		put(e, "f", 7);
		close(e);
	}
	memset(&w, 0, sizeof w);
	w.child = child;
	nchild = 0;
	CHECK_EQ("walk wide rc", wk_walk(&w, &space, d), 0);
	CHECK_EQ("walk wide files", w.tot.files, 600);
	CHECK_EQ("walk wide dirs", w.tot.dirs, 301);
	CHECK_EQ("walk wide root entries", nchild, 600);
	CHECK_EQ("walk wide logical: files and 301 directory sizes", w.tot.logical - (300 * 301 / 2 + 300 * 7),
	         (uint64_t)sb_size_sum(d));
	close(d);

	/* stacked: 6 levels of 120 files and the directories a, m, z (a and z
	 * hold one file, m is the next level): every listing is longer than a
	 * read, levels 3 and deeper share the last part of the buffer and are
	 * read again (lseek) after each subdirectory */
	mkdirat(root, "stack", 0755);
	d = openat(root, "stack", O_RDONLY | O_DIRECTORY);
	k = dup(d);
	for (i = 0; i < 6; i++) {
		int j, e;
		for (j = 0; j < 120; j++)
			put(k, nm("s", j), 100);
		mkdirat(k, "a", 0755);
		mkdirat(k, "z", 0755);
		e = openat(k, "a", O_RDONLY | O_DIRECTORY);
		put(e, "f", 1);
		close(e);
		e = openat(k, "z", O_RDONLY | O_DIRECTORY);
		put(e, "f", 1);
		close(e);
		if (i < 5) {
			mkdirat(k, "m", 0755);
			e = openat(k, "m", O_RDONLY | O_DIRECTORY);
			close(k);
			k = e;
		}
	}
	close(k);
	memset(&w, 0, sizeof w);
	CHECK_EQ("walk stacked rc", wk_walk(&w, &space, d), 0);
	CHECK_EQ("walk stacked files", w.tot.files, 6 * 122);
	CHECK_EQ("walk stacked dirs", w.tot.dirs, 1 + 5 + 12);
	CHECK_EQ("walk stacked depth", w.depth, 6);
	CHECK_EQ("walk stacked logical (files)", w.tot.logical - sb_size_dirs(d), 6 * (120 * 100 + 2));
	close(d);

	/* resident: cache 1 measures each file with cachestat; cache 2 (the
	 * caller saw no swap in use) takes st_blocks x 512 once cachestat
	 * worked (cache 3).  Against the test's own sums over wide/'s files. */
	d = openat(root, "wide", O_RDONLY | O_DIRECTORY);
	{
		uint64_t blocks = 0;
		int64_t cached = 0;
		int e;
		own(d, &blocks, &cached);
		for (i = 0; i < 300; i++) {
			e = openat(d, nm("d", i), O_RDONLY | O_DIRECTORY);
			own(e, &blocks, &cached);
			close(e);
		}
		memset(&w, 0, sizeof w);
		w.cache = 1;
		wk_walk(&w, &space, d);
		if (cached < 0) {
			CHECK("walk cache 1 without cachestat: off", w.cache == 0);
		} else {
			CHECK_EQ("walk cache 1 resident = own cachestat", w.tot.resident, (uint64_t)cached);
			CHECK("walk cache 1 kept, no gaps", w.cache == 1 && !w.cache_gaps && !w.tot.swapped);
		}
		memset(&w, 0, sizeof w);
		w.cache = 2;
		wk_walk(&w, &space, d);
		if (cached < 0) {
			CHECK("walk cache 2 without cachestat: off", w.cache == 0);
		} else {
			CHECK_EQ("walk cache 2 resident = st_blocks x 512", w.tot.resident, blocks);
			CHECK("walk cache 2 became 3, no gaps", w.cache == 3 && !w.cache_gaps && !w.tot.swapped);
		}
	}
	close(d);
	close(root);
	{
		/* remove the tree: rm -rf through the shell is simplest here */
		char cmd[64] = "rm -rf ";
		strcat(cmd, dir);
		if (system(cmd))
			CHECK("cleanup", 0);
	}
	return unit_end_all();
}
