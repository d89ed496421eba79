/* /proc/self/mountinfo, one mount per line:
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * Paths and the source have space, tab, newline and backslash escaped as
 * \040 \011 \012 \134; the parser unescapes them into the caller's buffer. */
#ifndef MB_MOUNTINFO_H
#define MB_MOUNTINFO_H
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "rd.h"

struct mnt {
	unsigned id, parent, major, minor;
	union {   /* in strbuf, unescaped */
		struct { const char *root, *point, *opts, *fstype, *source, *super; };
		const char *str[6];   /* the same, in the line's order */
	};
};
/* Next mount from the reader: 1, 0 at the end, -errno; a garbled line or
 * one that does not fit strbuf is skipped and counted in *bad. */
int mountinfo_next(struct rd_lines *r, struct mnt *m, char *strbuf, size_t cap,
                   unsigned long *bad);
/* After mountinfo_next returned k <= 0: what is to be said about the
 * file path, into d (returned; clear: nothing): the read error (k < 0,
 * -MB_ETOOBIG beyond MB_READ_MAX), lines that did not parse (bad), or a
 * last line without its newline (used when it parsed: it may be cut). */
const struct diag *mountinfo_diag(struct diag *d, const char *path, const struct rd_lines *r,
                                  int k, unsigned long bad);
/* Unescape \NNN octal sequences of [s, s+n) into d (cap bytes, NUL added):
 * the length, or -1 when it does not fit. */
long unoctal(char *d, size_t cap, const char *s, size_t n);
/* Look up "key=value" in a comma-separated option string: the value's
 * start and length, 1 when found; a bare "key" gives length 0. */
int opt_value(const char *opts, const char *key, const char **v, size_t *n);

/* A mounted filesystem's space, as tmpfs-du and mem-ledger count a
 * mount: statfs(2) of an open directory fd of the live system.
 * mnt_statfs: 0 and *sf, -EXDEV when fd is not on the mount's device
 * major:minor (another filesystem mounted over its point hides it), or
 * -errno.  mnt_used: its space in use, (f_blocks - f_bfree) x f_frsize
 * bytes, saturated; tmpfs counts pages in RAM and in swap alike, and one
 * mounted without a size limit (size=0) reports no blocks at all. */
struct statfs;
int mnt_statfs(int fd, unsigned major, unsigned minor, struct statfs *sf);
uint64_t mnt_used(const struct statfs *sf);
/* Is a device number (stat's st_dev) the mount's major:minor? */
int mnt_on(unsigned long long dev, unsigned major, unsigned minor);
#endif
