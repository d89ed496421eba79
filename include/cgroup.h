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
 * cg_dir for the directory of its memory.* files under the root; then
 * cg_path names each file of the version mounted, and cg_read,
 * cg_read_number and cg_read_pressure read them, with one behaviour for
 * every applet: an absent file is no damage (a cgroup removed since, a
 * file of another kernel), anything else that gives no figure (a FIFO, a
 * directory, a link leading outside a capture, garbage, a cut file) is a
 * record naming the file, for the applet to say, and the figure is null.
 * cg_kv_next walks a file of "key value" lines. */
#ifndef MB_CGROUP_H
#define MB_CGROUP_H
#include <stddef.h>
#include <stdint.h>
#include "bounds.h"
#include "diag.h"
#include "mountinfo.h"
#include "psi.h"

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

/* 1 when the mount shows the hierarchy from above this process's cgroup
 * namespace (its root "/.." or "/../..": the kernel prints the mount's
 * root relative to the namespace's): the namespace's own cgroup ("/" in
 * /proc/PID/cgroup) and those below it cannot be reached (their names
 * above the namespace are not shown); those outside it ("/../x") can. */
int cg_above_ns(const struct cg_hier *h);
/* When h shows the hierarchy from above this process's cgroup namespace
 * only by levels ("/.." once per level, cg_above_ns): find the
 * namespace's own cgroup, the directory that many levels below the mount
 * point (its name is not shown) whose cgroup.procs, at this process's
 * path in the namespace (/proc/self/cgroup), lists this process (the PID
 * of /proc/self/stat).  1 with h made the namespace's view (point that
 * directory, root "/": cg_dir then joins the paths /proc/PID/cgroup
 * prints in it); 0, h unchanged, when h is no such mount or no directory
 * holds this process (a capture of another machine, a file unreadable). */
int cg_ns_enter(struct cg_hier *h);

/* The memory files of a cgroup, one name for each version where it has
 * one (v1 / v2):
 *   CG_CURRENT   memory.usage_in_bytes / memory.current: the charge
 *   CG_SWAP      memory.memsw.usage_in_bytes (memory and swap) /
 *                memory.swap.current: see cg_swap
 *   CG_MAX       memory.limit_in_bytes / memory.max: see cg_limit
 *   CG_HIGH      - / memory.high
 *   CG_KMEM      memory.kmem.usage_in_bytes / -
 *   CG_STAT      memory.stat ("key value" lines)
 *   CG_EVENTS    memory.oom_control / memory.events ("key value" lines)
 *   CG_PRESSURE  - / memory.pressure (PSI's two lines)
 *   CG_PEAK      memory.max_usage_in_bytes / memory.peak (Linux 5.19): the
 *                highest charge since the cgroup was made (or the file
 *                was reset) */
enum cg_file { CG_CURRENT, CG_SWAP, CG_MAX, CG_HIGH, CG_KMEM, CG_STAT, CG_EVENTS, CG_PRESSURE,
               CG_PEAK, CG_FILES };
/* The name of file f of a version 1 or 2 hierarchy, or 0 when that
 * version has no such file. */
const char *cg_file(int version, enum cg_file f);
/* v1's "no limit" is PAGE_COUNTER_MAX pages, rounded to a page: 2^63
 * less a page and such.  A limit this high or more is none. */
#define CG_V1_NO_LIMIT ((uint64_t)1 << 62)

/* What cg_number found in a file of one number (cg_read_number: or
 * CG_ABSENT, the file absent or unreadable). */
enum { CG_ABSENT = -2, CG_DAMAGED = -1, CG_NONE = 0, CG_NUMBER = 1 };
/* The text [s, s+n) of a file of one number (one final newline allowed):
 * CG_NUMBER with *v; CG_NONE for "max" (v2's no limit); CG_DAMAGED for
 * anything else, an empty file, or a number beyond 2^64 (the figure is
 * null; a caller may say so). */
int cg_number(const char *s, size_t n, uint64_t *v);
/* CG_MAX's value v read from a version's hierarchy: 1 when it is a limit
 * (v1's CG_V1_NO_LIMIT and above are none). */
int cg_limit(int version, uint64_t v);
/* The swap of a cgroup from CG_SWAP's value v: v2's as it is; v1's
 * memsw is memory and swap, less current (never below 0). */
uint64_t cg_swap(int version, uint64_t v, uint64_t current);
/* The next "key value" line of the text [s, s+n) from *at (memory.stat,
 * memory.events, memory.oom_control): 1 with the key and value, *at past
 * the line; 0 at the end.  The key ends at its blank, which is made a
 * NUL in place (a line read again has a NUL there).  Lines of another
 * shape (a key that is no [A-Za-z0-9_] word, a value that is no
 * number) are skipped.  A value beyond 2^64 is 2^64-1 (saturated).  A
 * text read by cg_read_kv holds each key once (the kernel never prints
 * one twice; in a damaged file the first wins). */
int cg_kv_next(char *s, long n, long *at, const char **key, uint64_t *v);
/* The first line of the text [s, s+n) of "key value" lines that is of
 * another shape (cg_kv_next skips it), or a NUL, or a last line without
 * its newline: into d (file path, its line, why), 1; 0 when it is whole. */
int cg_kv_check(const char *s, long n, const char *path, struct diag *d);

/* The path of file f of the cgroup directory dir (a version 1 or 2
 * hierarchy's) into out (cap bytes): out, or 0 when the version has no
 * such file or the path does not fit. */
const char *cg_path(char *out, size_t cap, const char *dir, int version, enum cg_file f);
/* A cgroup file at path read whole into buf (cap bytes, NUL added): its
 * length, or -errno (d says why; clear for an absent file, -ENOENT).
 * fd: 0, the file opened and closed; else a file descriptor kept open in
 * *fd (< 0: not yet open) on the live kernel, where a read at offset 0
 * reads the file anew (a capture's file is opened each time: a new one
 * may have been renamed over it).  A file longer than buf: its beginning,
 * and d says so (why cg_cut). */
extern const char cg_cut[];
long cg_read(const char *path, int *fd, char *buf, size_t cap, struct diag *d);
/* A file of one number at path (cg_number): CG_NUMBER with *v, CG_NONE
 * ("max"), CG_DAMAGED (d: "not a number") or CG_ABSENT (d as cg_read's). */
int cg_read_number(const char *path, int *fd, uint64_t *v, struct diag *d);
/* A file of "key value" lines at path (memory.stat, memory.events,
 * memory.oom_control) as cg_read reads it, checked (cg_kv_check: d says
 * its first damaged line), and each key made to appear once: a line
 * whose key a line before it has is made one cg_kv_next skips, and d
 * says the first (the first value is used). */
long cg_read_kv(const char *path, int *fd, char *buf, size_t cap, struct diag *d);
/* The charge figures of a cgroup (bytes), from its files of one number */
struct cg_charge {
	uint64_t current, swap, max, high, kmem, peak;
	unsigned have;   /* 1 << enum cg_file of each figure known */
};
/* What reading file f had to say (d clear when nothing): the caller's to
 * say or not; d and its path last until the call returns. */
typedef void cg_say_fn(void *ctx, enum cg_file f, const struct diag *d);
/* Read the files want names (bits 1 << CG_CURRENT, CG_SWAP, CG_MAX,
 * CG_HIGH, CG_KMEM, CG_PEAK) that the version (1 or 2) has, of the cgroup
 * directory dir, into c by cg_read_number (fds: 0, or a file descriptor
 * kept by enum cg_file, see cg_read); say(ctx, f, d) after each.  v1's
 * swap is memsw less current (known only with it); "max", and v1's
 * CG_V1_NO_LIMIT and above, are no limit: max and high unknown. */
void cg_read_charge(const char *dir, int version, unsigned want, int *fds, struct cg_charge *c,
                    cg_say_fn *say, void *ctx);
/* v2's memory.pressure at path into p (psi_parse) through buf: 0, or -1
 * when no line of it parses (the figure null).  d says a read error, a
 * garbled line or a cut last line (p->diag, named by path). */
int cg_read_pressure(const char *path, int *fd, char *buf, size_t cap, struct psi *p, struct diag *d);
#endif
