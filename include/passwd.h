/* pw_: user names from /etc/passwd under the root, one line per user:
 *   root:x:0:0:root:/root:/bin/bash
 * The file is streamed on a miss; PW_CACHE uids (found or not) are kept. */
#ifndef MB_PASSWD_H
#define MB_PASSWD_H
#include "bounds.h"

/* The user name of uid, or 0 when /etc/passwd has none.  The string stays
 * valid until PW_CACHE other uids have been looked up. */
const char *pw_name(unsigned long uid);
/* The uid of a user name: 0 and *uid, or -1 when not found. */
int pw_uid(const char *name, unsigned long *uid);
#endif
