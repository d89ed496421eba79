/* /etc/passwd, seven ':' fields per line:
 *   cloudsdk:x:1000:1000::/home/cloudsdk:/bin/bash
 * Streamed through a small buffer on every cache miss: no size limit on the
 * file, no table of all users. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "passwd.h"
#include "rd.h"
#include "sc.h"

static const char pw_file[] = "/etc/passwd";

/* The first damage seen is kept in *d (when d is given): a line that is
 * not "name:password:uid:...", a name too long to keep, a line too long for
 * the buffer, no final newline, or the file unreadable.  Empty lines and
 * NIS compat lines ("+...", "-...") are no damage. */
static void damage(struct diag *d, unsigned long line, const char *why, int err)
{
	if (d && !mb_diag_set(d))
		*d = (struct diag){ pw_file, line, why, err };
}

/* Find a line whose uid is uid (name 0) or whose name is name: 1 and the
 * name and uid copied out, 0 when none. */
static int scan(const char *name, unsigned long *uid, char *out, struct diag *d)
{
	char buf[1024];
	struct rd_lines r;
	const char *s;
	size_t n;
	uint64_t v;
	int fd = rd_open(pw_file, O_RDONLY), found = 0, k;

	if (fd < 0) {
		if (fd != -ENOENT)   /* no passwd in a capture: uids, silently */
			damage(d, 0, 0, -fd);
		return 0;
	}
	rd_lines_fd(&r, fd, buf, sizeof buf);
	while (!found && (k = rd_line(&r, &s, &n)) > 0) {
		const char *e = s + n, *c[3], *q = s;
		int i;
		if (!n || *s == '+' || *s == '-')
			continue;
		for (i = 0; i < 3 && (q = memchr(q, ':', e - q)); i++)
			c[i] = q++;   /* the ':' after the name, password and uid */
		if (i < 3 || sc_u64_all(c[1] + 1, c[2] - c[1] - 1, &v) != SC_OK || memchr(s, 0, n)) {
			damage(d, r.line, "garbled line", 0);
			continue;
		}
		n = c[0] - s;
		if (!n || n >= PW_NAME_MAX) {
			damage(d, r.line, n ? "user name longer than PW_NAME_MAX - 1 bytes not used" :
			       "garbled line", 0);
			continue;
		}
		if (name ? sc_eq(s, n, name) : v == *uid) {
			memcpy(out, s, n);
			out[n] = 0;
			*uid = v;
			found = 1;
		}
	}
	if (!found && k < 0)
		damage(d, 0, 0, -k);
	if (r.skipped)
		damage(d, 0, "lines longer than 1023 bytes were skipped", 0);
	if (r.nonl)
		damage(d, 0, "no final newline: its last line may be cut", 0);
	close(fd);
	return found;
}

const char *pw_name(struct pw_cache *c, unsigned long uid)
{
	struct pw_user *u = c->user;
	unsigned i;

	for (i = 0; i < PW_CACHE; i++)
		if (u[i].used && u[i].uid == uid)
			goto out;
	i = c->next++ % PW_CACHE;
	u[i].used = 1;
	u[i].uid = uid;
	if (!scan(0, &uid, u[i].name, &c->diag))
		u[i].name[0] = 0;
out:
	return u[i].name[0] ? u[i].name : 0;
}

int pw_uid(const char *name, unsigned long *uid)
{
	char b[PW_NAME_MAX];
	return scan(name, uid, b, 0) ? 0 : -1;
}
