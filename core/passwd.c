/* /etc/passwd, seven ':' fields per line:
 *   cloudsdk:x:1000:1000::/home/cloudsdk:/bin/bash
 * Streamed through a small buffer on every cache miss: no size limit on the
 * file, no table of all users. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "passwd.h"
#include "rd.h"
#include "sc.h"

/* Find a line whose uid is uid (name 0) or whose name is name: 1 and the
 * name and uid copied out, 0 when none. */
static int scan(const char *name, unsigned long *uid, char *out)
{
	char buf[1024];
	struct rd_lines r;
	const char *s;
	size_t n;
	uint64_t v;
	int fd = rd_open("/etc/passwd", O_RDONLY), found = 0;

	if (fd < 0)
		return 0;
	rd_lines_fd(&r, fd, buf, sizeof buf);
	while (!found && rd_line(&r, &s, &n) > 0) {
		const char *e = s + n, *c[3], *q = s;
		int i;
		for (i = 0; i < 3 && (q = memchr(q, ':', e - q)); i++)
			c[i] = q++;   /* the ':' after the name, password and uid */
		if (i < 3 || sc_u64_all(c[1] + 1, c[2] - c[1] - 1, &v) != SC_OK)
			continue;
		n = c[0] - s;
		if (!n || n >= PW_NAME_MAX)
			continue;
		if (name ? sc_eq(s, n, name) : v == *uid) {
			memcpy(out, s, n);
			out[n] = 0;
			*uid = v;
			found = 1;
		}
	}
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
	if (!scan(0, &uid, u[i].name))
		u[i].name[0] = 0;
out:
	return u[i].name[0] ? u[i].name : 0;
}

int pw_uid(const char *name, unsigned long *uid)
{
	char b[PW_NAME_MAX];
	return scan(name, uid, b) ? 0 : -1;
}
