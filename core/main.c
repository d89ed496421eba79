/* The multicall entry: dispatch on the basename of argv[0] ("APPLET" or
 * "membox-APPLET"), or on argv[1] when that name starts with "membox" (a
 * copy per CPU is often named "membox-armhf", as busybox's are): another
 * name is no applet, exit 127. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "applet.h"
#include "msg.h"
#include "run.h"
#include "rd.h"

#ifndef MB_VERSION
#define MB_VERSION "0"
#endif

/* Each applet's file defines NAME_main and NAME_purpose, the question it
 * answers (membox --help) */
#define APPLET(c, s) int c##_main(int, char **) __attribute__((weak)); \
	extern const char c##_purpose[] __attribute__((weak));
#include "applets.h"
#undef APPLET

/* The state of the applet that runs (applet.h) */
union globals this;

static const struct applet {
	const char *name;
	int (*main)(int, char **);
	const char *purpose;
} applets[] = {
#define APPLET(c, s) { s, c##_main, c##_purpose },
#include "applets.h"
#undef APPLET
};
#define N_APPLETS (sizeof applets / sizeof applets[0])

static const struct applet *find(const char *name)
{
	size_t i;
	if (!strncmp(name, "membox-", 7))
		name += 7;
	for (i = 0; i < N_APPLETS; i++)
		if (applets[i].main && !strcmp(applets[i].name, name))
			return &applets[i];
	return 0;
}

static void list(struct out *o)
{
	size_t i;
	for (i = 0; i < N_APPLETS; i++)
		if (applets[i].main) {
			out_s(o, applets[i].name);
			out_c(o, '\n');
		}
}

static int help(struct out *o)
{
	size_t i;

	out_s(o, "membox " MB_VERSION);
	out_s(o, ": memory truths for small Linux systems\n\n"
	         "Usage: membox APPLET [ARGS]   or a link named APPLET to membox\n"
	         "       membox --list | --install [-s] DIR | --help | --version\n"
	         "       membox APPLET --help\n\n"
	         "  --install DIR   hard links (-s: symlinks) named for every applet in DIR,\n"
	         "                  replacing entries of those names\n\n"
	         "Applets:\n");
	for (i = 0; i < N_APPLETS; i++)
		if (applets[i].main) {
			out_s(o, "  ");
			out_s(o, applets[i].name);
			out_pad(o, strlen(applets[i].name), 14);
			out_s(o, applets[i].purpose);
			out_c(o, '\n');
		}
	return 0;
}

static int install(int argc, char **argv)
{
	char self[MB_PATH_MAX], path[MB_PATH_MAX];
	int sym = argc > 2 && !strcmp(argv[2], "-s"), rc = 0;
	const char *dir = argv[2 + sym];
	ssize_t n;
	size_t i, dl;
	struct stat st;

	if (argc != 3 + sym)
		return help(&out2), 2;
	/* links go only into a directory that exists: "" or a typo must not
	 * unlink names in the current directory or "/" */
	if (!*dir)
		return mb_fail("--install", "no directory given");
	if (stat(dir, &st) < 0)
		return mb_fail_errno(dir, errno);
	if (!S_ISDIR(st.st_mode))
		return mb_fail_errno(dir, ENOTDIR);
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		return mb_fail_errno("/proc/self/exe", errno);
	self[n] = 0;
	dl = strlen(dir);
	for (i = 0; i < N_APPLETS; i++) {
		size_t al = strlen(applets[i].name);
		if (!applets[i].main)
			continue;
		if (dl + al + 2 > sizeof path)
			return mb_fail(dir, "path too long");
		memcpy(path, dir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, applets[i].name, al + 1);
		if (unlink(path) < 0 && errno != ENOENT) {
			mb_warn_errno(path, errno);
			rc = 1;
			continue;
		}
		if ((sym ? symlink(self, path) : link(self, path)) < 0) {
			mb_warn_errno(path, errno);
			rc = 1;
		}
	}
	return rc;
}

/* A standard descriptor closed at the start would be the next file
 * opened (the -O report's temporary file), and messages for fd 2 would be
 * written into it: each closed one is held by /dev/null, read-only, so
 * that a write to it still fails (EBADF) as on a closed descriptor. */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY | O_NOCTTY) != fd)
			return;   /* no /dev/null: nothing to hold them with */
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? argv[0] : "", *p;
	const struct applet *a;
	int multi;

	hold_std_fds();
	for (p = base; *p; p++)
		if (*p == '/')
			base = p + 1;
	a = find(base);
	multi = !strncmp(base, "membox", 6);
	if (!a && multi && argc > 1 && argv[1][0] != '-') {
		a = find(argv[1]);
		if (!a) {
			mb_warn(argv[1], "applet not found");
			return mb_exit_status(127);
		}
		argc--;
		argv++;
	}
	if (a)
		return mb_exit_status(a->main(argc, argv));
	if (!multi) {
		mb_warn(base, "applet not found");
		return mb_exit_status(127);
	}
	if (argc > 1 && !strcmp(argv[1], "--list"))
		return list(&out1), mb_exit_status(0);
	if (argc > 1 && !strcmp(argv[1], "--version"))
		return out_s(&out1, "membox " MB_VERSION "\n"), mb_exit_status(0);
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return mb_exit_status(help(&out1));
	if (argc > 1 && !strcmp(argv[1], "--install"))
		return mb_exit_status(install(argc, argv));
	help(&out2);
	return mb_exit_status(2);
}
