/* cg_: where a process's memory cgroup lives, for any applet.
 *
 * /proc/PID/cgroup, one hierarchy per line, "ID:CONTROLLERS:PATH":
 *   4:memory:/system.slice/foo.service        (v1: memory in the list)
 *   0::/user.slice/user-1000.slice            (v2: ID 0, no list)
 * /proc/self/mountinfo tells where each hierarchy is mounted: fstype
 * "cgroup" with "memory" in its super options (v1), or "cgroup2" (v2).
 * On a hybrid system memory is bound to v1 and the v2 tree has no memory
 * files, so v1 wins when both are there.  A mount's root field is the
 * part of the hierarchy it shows (a container sees its own subtree): a
 * cgroup path is joined to the mount point without that prefix, and a
 * path outside it cannot be reached at all.
 *
 * Use: cg_mount on every mount (or cg_find, which reads the root's
 * /proc/self/mountinfo), then cg_parse on a process's cgroup file, then
 * cg_dir for the directory of its memory.* files under the root. */
#ifndef MB_CGROUP_H
#define MB_CGROUP_H
#include <stddef.h>
#include "bounds.h"
#include "mountinfo.h"

struct cg_hier {
	int version;              /* 1 or 2; 0: no memory hierarchy mounted */
	char point[MB_PATH_MAX];  /* its mount point (absolute, unescaped) */
	char root[MB_PATH_MAX];   /* the part of the hierarchy the mount shows */
};

/* One mount of mountinfo: kept in h when it is the memory hierarchy (a v1
 * memory mount replaces a cgroup2 one; of two mounts of one version the
 * one showing the whole hierarchy, root "/", is kept). */
void cg_mount(struct cg_hier *h, const struct mnt *m);
/* Read the root's /proc/self/mountinfo into h (through cg_mount); strbuf
 * (cap bytes, MI_STR_MAX is enough) holds a line's strings.  h->version
 * (0: no memory controller mounted), or -errno when unreadable. */
int cg_find(struct cg_hier *h, char *strbuf, size_t cap);
/* The memory cgroup's path in a /proc/PID/cgroup text [s, s+n): version
 * 1 for a v1 line listing memory, 2 for "0::", with *path and *len (not
 * NUL-terminated); 0 when there is none.  want 1 or 2 asks for that
 * version's line only; 0 takes either, v1 first.  The kernel prints a
 * path raw: a line that does not start "ID:CONTROLLERS:" is the rest of
 * the path before it (a newline in a cgroup's name), and the file's last
 * newline ends the last path.  cut: the text is the file's beginning
 * only; a path counts only when a whole "ID:CONTROLLERS:" follows it. */
int cg_parse(const char *s, size_t n, int cut, int want, const char **path, size_t *len);
/* The directory of the cgroup at path (len bytes, as cg_parse gave it)
 * under the hierarchy h, into out (cap bytes, NUL added): its length; -1
 * when no hierarchy is mounted, the path is not under the mount's root,
 * or the result does not fit. */
long cg_dir(const struct cg_hier *h, const char *path, size_t len, char *out, size_t cap);
#endif
