/* The bounded walk: counts, hard links once, symlinks not followed, a
 * chain deeper than WK_MAX_FDS (re-opened through ".."), the per-entry
 * callback of the root, vanished and unreadable entries. */
#include "t.h"
#include "walk.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

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

int main(void)
{
	char tmpl[] = "/tmp/mb-walk-XXXXXX";
	const char *dir = mkdtemp(tmpl);
	struct wk w;
	int root, d, i, k;

	if (!dir)
		return CHECK("mkdtemp", 0), t_end_all();
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
	k = wk_walk(&w, root);
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
	CHECK_EQ("walk again same result", (memset(&w, 0, sizeof w), wk_walk(&w, root), w.tot.files),
	         2 + (WK_MAX_FDS * 3 + 9) / 10);
	CHECK_EQ("walk bad fd", (memset(&w, 0, sizeof w), wk_walk(&w, -1)), -9);
	close(root);
	{
		/* remove the tree: rm -rf through the shell is simplest here */
		char cmd[64] = "rm -rf ";
		strcat(cmd, dir);
		if (system(cmd))
			CHECK("cleanup", 0);
	}
	return t_end_all();
}
