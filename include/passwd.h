/* pw_: user names from /etc/passwd under the root, one line per user:
 *   root:x:0:0:root:/root:/bin/bash
 * The file is streamed on a miss; PW_CACHE uids (found or not) are kept. */
#ifndef MB_PASSWD_H
#define MB_PASSWD_H
#include "bounds.h"
#include "diag.h"

/* The names of the last PW_CACHE uids looked up, found or not; all 0
 * before the first lookup. */
struct pw_cache {
	struct pw_user {
		unsigned long uid;
		char name[PW_NAME_MAX];   /* "" when passwd has no such uid */
		char used;
	} user[PW_CACHE];
	unsigned next;                /* the entry to replace next, mod PW_CACHE */
	struct diag diag;             /* the first damage of /etc/passwd seen by a
	                                 lookup (clear: none): a garbled line (its
	                                 number), a name longer than PW_NAME_MAX - 1,
	                                 lines too long, no final newline, an error
	                                 other than absent; for the applet to say once */
};
/* The user name of uid, or 0 when /etc/passwd has none.  The string, in c,
 * stays valid until PW_CACHE other uids have been looked up through c. */
const char *pw_name(struct pw_cache *c, unsigned long uid);
/* The uid of a user name: 0 and *uid, or -1 when not found. */
int pw_uid(const char *name, unsigned long *uid);
#endif
