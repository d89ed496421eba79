/* tmpfs-du: how much RAM sits in each tmpfs mount and subtree, and where
 * the rest of Shmem goes.  Reads /proc/self/mountinfo, /proc/meminfo,
 * /proc/sysvipc/shm, statfs(2), and walks the mounted trees (walk.h). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include "applet.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "rd.h"
#include "sc.h"
#include "sysvshm.h"
#include "walk.h"

/* membox --help: the question the applet answers */
const char tmpfs_du_purpose[] = "how much RAM do tmpfs files hold, and what else is in Shmem?";

static const char *const usage = "Usage: tmpfs-du [OPTIONS] [PATH...]\n\n"
	"Per tmpfs mount: size limit, statfs USED, and from a walk counted like\n"
	"du -x: ALLOC (blocks x 512), LOGICAL (st_size), RESIDENT and SWAPPED,\n"
	"FILES, DIRS, OTHER and HIDDEN = USED - ALLOC (deleted but open,\n"
	"unreadable).  Then Shmem of meminfo against tmpfs, SysV shm and the\n"
	"rest.  A PATH limits the walk to that directory of a tmpfs.\n\n"
	"  -t, --types=LIST  filesystem types (default tmpfs; ramfs, devtmpfs)\n"
	"  -d, --depth=N     list directories down to depth N, largest first\n"
	"  -a, --all         list files too\n"
	"  -n, --top=N       the N largest entries per directory (default 10)\n"
	"      --resident    RESIDENT and SWAPPED also while swap is in use (and\n"
	"                    off tmpfs): cachestat (6.5+) of each file, an open\n"
	"                    per file, about 2.5 times slower (old spelling: -r)\n"
	"      --shmem       only the Shmem reconciliation (old spelling: -s)\n"
	CLI_REPEAT_HELP;

enum tmpfs_du_option {
	TMPFS_DU_OPT_TYPES = 't',
	TMPFS_DU_OPT_DEPTH = 'd',
	TMPFS_DU_OPT_ALL = 'a',
	TMPFS_DU_OPT_TOP = 'n',
	TMPFS_DU_OPT_RESIDENT = 'r',   /* -r, -s: the old spellings of --resident, */
	TMPFS_DU_OPT_SHMEM = 's',      /* --shmem (smaps-rollup's -r, -s: reverse, sort) */
};

static const struct opt opts[] = {
	{ "types", 't', 1, TMPFS_DU_OPT_TYPES },
	{ "depth", 'd', 1, TMPFS_DU_OPT_DEPTH },
	{ "all", 'a', 0, TMPFS_DU_OPT_ALL },
	{ "top", 'n', 1, TMPFS_DU_OPT_TOP },
	{ "resident", 'r', 0, TMPFS_DU_OPT_RESIDENT },
	{ "shmem", 's', 0, TMPFS_DU_OPT_SHMEM },
	CLI_REPEAT_OPTS,
	{ 0, 0, 0, 0 }
};

/* The figures of a mount or PATH, and in part of an entry of its listing.
 * A figure's bit (FIG_BIT) in a have mask says it is known; the bits are
 * the presence bits of the report's figures, so they start at 1. */
enum tmpfs_du_fig {
	FIG_SIZE_LIMIT = 1, FIG_INODE_LIMIT,   /* the limits in force */
	FIG_USED, FIG_INODES_USED,         /* statfs */
	FIG_ALLOCATED, FIG_LOGICAL, FIG_FILES, FIG_DIRS, FIG_OTHER, FIG_RESIDENT,
	FIG_SWAPPED,                       /* the walk's struct wk_sum */
	FIG_HIDDEN,                        /* used - allocated */
	FIG_UNREADABLE, FIG_LINKS,         /* what the walk could not count exactly */
	FIG_MORE, FIG_MORE_ALLOCATED,      /* entries beyond -n, and their size */
	FIG_N
};
#define FIG_BIT(f) (1u << FIG_##f)
#define WALKED_FIGS (FIG_BIT(ALLOCATED) | FIG_BIT(LOGICAL) | FIG_BIT(FILES) | FIG_BIT(DIRS) | \
                     FIG_BIT(OTHER) | FIG_BIT(UNREADABLE) | FIG_BIT(LINKS))
#define MORE_FIGS (FIG_BIT(MORE) | FIG_BIT(MORE_ALLOCATED))
/* an entry of the listing has these (and MORE_FIGS when it was walked) */
#define ENTRY_FIGS (FIG_BIT(ALLOCATED) | FIG_BIT(LOGICAL) | FIG_BIT(FILES) | FIG_BIT(DIRS) | \
                    FIG_BIT(OTHER))

/* The Shmem reconciliation: meminfo's Shmem against the tmpfs total, SysV
 * shm and the rest; the presence bits of shmem_figs. */
enum tmpfs_du_shmem_fig {
	SHMEM_OBJ = 1, SHMEM_SYSV_BASIS, SHMEM_MEMINFO, SHMEM_HUGE, SHMEM_TMPFS, SHMEM_TMPFS_HIDDEN, SHMEM_SYSV,
	SHMEM_SYSV_SWAPPED, SHMEM_SYSV_SEGMENTS, SHMEM_OTHER, SHMEM_OTHER_UNKNOWN, SHMEM_N
};

GLOBALS(
	char meminfo_text[MB_FILE_MAX];   /* /proc/meminfo, read whole */
	const char *types;                  /* -t: comma-separated */
	uint64_t depth, top;                /* -d, -n */
	int all;                            /* -a */
	int resident;                       /* --resident */
	int npaths;                         /* PATHs given */
	struct meminfo meminfo;             /* read once before the walks; all 0 when missing */
	char mountinfo_line[MB_LINE_MAX];
	char mountinfo_strs[MI_STR_MAX];    /* a line's unescaped fields */
	struct td_mount {                   /* a mount of the chosen types */
		unsigned major, minor;          /* its superblock's device */
		const char *point, *root, *source, *fstype;   /* in pool */
		uint64_t size_limit, inode_limit;
		unsigned have;                  /* FIG_BIT(SIZE_LIMIT), FIG_BIT(INODE_LIMIT) */
		int alias;                      /* >= 0: that mount of the same superblock
		                                   is shown instead */
	} mounts[TD_MAX_MOUNTS];
	unsigned nmounts;
	uint64_t mounts_dropped;            /* beyond TD_MAX_MOUNTS or the pool */
	int mounts_unknown;                 /* --shmem: mountinfo's errno, unreadable */
	char pool[TD_STR_POOL];
	size_t pool_used;
	struct td_shown {                   /* what is shown: a mount, or a PATH on one */
		int mount;                      /* in mounts */
		const char *path;               /* PATH, or the mount point */
		int whole;                      /* PATH is the mount's root: hidden known */
		int measured;
		int fd;                         /* of path, once measured; < 0: not opened */
		const char *error;              /* why the tree was not walked */
		unsigned have;                  /* FIG_BIT()s */
		struct td_figs {                /* in enum tmpfs_du_fig's order */
			uint64_t size_limit, inode_limit, used, inodes_used;
			uint64_t allocated, logical, files, dirs, other, resident, swapped;
			uint64_t hidden, unreadable, links_proportional, more, more_allocated;
		} figs;
	} shown[TD_MAX_MOUNTS];
	unsigned nshown;
	int walk_cache;                     /* struct wk's cache for the walks of the
	                                       mount being measured and listed */
	unsigned kept_base, nkept, keep_cap;   /* the directory being walked keeps its
	                                          own at kept[kept_base ..], at most keep_cap */
	size_t keep_path_len;               /* the length of its path */
	uint64_t eligible;                  /* entries it had for the listing (-a: all) */
	uint64_t more, more_allocated;      /* and what it did not keep (beyond -n) */
	uint64_t list_dropped;              /* entries within -n not kept: TD_LIST_MAX
	                                       or MB_PATH_MAX reached */
	int list_short;                     /* a listed directory walked incompletely,
	                                       not opened, or the listing cut */
	unsigned nlevels, lowest_open;      /* levels[lowest_open .. nlevels) are open */
	const struct td_shown *listed;      /* whose listing it is */
	struct td_mount_rec {               /* the mount or PATH being reported */
		const char *point, *path, *source, *fstype, *root, *error;
		uint64_t major, minor;
		const char *const *aliases;
		struct td_figs figs;
		struct rep_rows entries;
	} mount_rec;
	const char *aliases[TD_MAX_MOUNTS + 1];   /* NULL-terminated */
	struct td_entry_rec {               /* the entry of the listing being reported */
		const char *path;
		uint64_t depth;
		int dir;
		unsigned have;                  /* FIG_BIT()s */
		struct td_figs figs;
	} entry_rec;
	int capture;                        /* the root is a membox capture: no tmpfs content */
	ino_t nested[TD_MAX_MOUNTS];        /* under -R: the mount points below the one walked */
	unsigned nnested;
	char nested_below[MB_PATH_MAX];     /* the plain path of that one */
	struct td_shmem_rec {
		const char *tmpfs_basis, *sysv_basis;
		const char *other_unknown;      /* why other is null */
		int64_t meminfo, huge, tmpfs, tmpfs_hidden, sysv, sysv_swapped, sysv_segments, other;
		uint64_t have;                  /* of shmem_figs */
	} shmem;
	char other_why[MB_PATH_MAX + 80];   /* other_unknown's text */
	/* Last, the large tables: the pages a run touches are the ones it
	 * uses, not pages shared with the small state above. */
	char listing_path[MB_PATH_MAX];     /* the entry's, relative to the walk root */
	char plain_path[MB_PATH_MAX];       /* capture_path's result */
	/* The listing keeps, for each directory on the path being shown, its
	 * largest entries, one directory's after its parent's: the pages
	 * touched grow with -n times the depth shown, up to TD_LIST_MAX. */
	struct td_kept {                    /* an entry kept for the listing */
		struct wk_sum sum;
		int dir;
		char name[WK_NAME_MAX];
	} kept[TD_LIST_MAX];
	struct td_level {                   /* a directory of the listing being shown */
		int fd;                         /* < 0: closed, re-opened through ".." */
		dev_t dev;
		ino_t ino;                      /* to know it again when re-opened */
		size_t path_len;                /* of its path in listing_path */
		unsigned base, n, next;         /* its entries: kept[base .. base + n) */
	} levels[TD_LIST_MAX + 1];          /* one per depth shown: a level below the
	                                       first is entered from a kept entry */
	/* last: the report's figures sit at offsets below 64 KiB */
	struct wk_space walk;               /* the walk's working space (walk.h) */
)
#define TT this.tmpfs_du

/* prom: membox_tmpfs_KEY[_bytes]{mount=,major=,minor=[,path=]} */
#define MOUNT(member, key, kind, ...) FIG(struct td_mount_rec, member, key, kind, __VA_ARGS__)
#define MOUNT_FIG(f, member, kind, help_, ...) \
	MOUNT(figs.member, #member, kind, .help = help_, .flags = REP_OPTIONAL, .bit = FIG_##f, \
	      __VA_ARGS__)
/* The bits of a mount's record: its figures' FIG_ bits, then these */
enum { MOUNT_ERROR = FIG_N, MOUNT_PATH_LABEL };
static const struct rep_fig mount_figs[] = {
	MOUNT(point, "mount_point", REP_STR),
	MOUNT(path, "path", REP_STR),
	MOUNT(aliases, "aliases", REP_STRS),
	MOUNT(source, "source", REP_STR),
	MOUNT(fstype, "fstype", REP_STR),
	MOUNT(root, "root", REP_STR),
	MOUNT(error, "error", REP_STR, .flags = REP_OPTIONAL, .bit = MOUNT_ERROR),
	MOUNT_FIG(SIZE_LIMIT, size_limit, REP_BYTES,
	          "Size limit of the mount in bytes (statfs, or its size= option).",
	          .label = "LIMIT", .width = 9),
	MOUNT_FIG(INODE_LIMIT, inode_limit, REP_COUNT,
	          "Inode limit of the mount, in inodes (statfs, or its nr_inodes= option)."),
	MOUNT_FIG(USED, used, REP_BYTES,
	          "Space the mount uses by statfs in bytes, deleted-but-open files included.",
	          .label = "USED", .width = 8),
	MOUNT_FIG(INODES_USED, inodes_used, REP_COUNT,
	          "Inodes the mount uses by statfs, in inodes."),
	MOUNT_FIG(ALLOCATED, allocated, REP_BYTES,
	          "Allocated size of the walked tree in bytes (st_blocks x 512, as du -s -B1 -x).",
	          .label = "ALLOC", .width = 8),
	MOUNT_FIG(LOGICAL, logical, REP_BYTES,
	          "Logical size of the walked tree in bytes (st_size, as du --apparent-size).",
	          .label = "LOGICAL", .width = 8),
	MOUNT_FIG(FILES, files, REP_COUNT,
	          "Regular files in the walked tree, a count.",
	          .label = "FILES", .width = 8),
	MOUNT_FIG(DIRS, dirs, REP_COUNT,
	          "Directories in the walked tree, its root included, a count.",
	          .label = "DIRS", .width = 8),
	MOUNT_FIG(OTHER, other, REP_COUNT,
	          "Entries of the walked tree that are neither files nor directories, a count."),
	MOUNT_FIG(RESIDENT, resident, REP_BYTES,
	          "Pages of the regular files of the walked tree in RAM, in bytes.",
	          .label = "RESIDENT", .width = 8),
	MOUNT_FIG(SWAPPED, swapped, REP_BYTES,
	          "Pages of the regular files of the walked tree in swap, in bytes.",
	          .label = "SWAPPED", .width = 8),
	MOUNT_FIG(HIDDEN, hidden, REP_BYTES,
	          "Used less allocated in bytes: deleted-but-open files, unreadable directories.",
	          .label = "HIDDEN", .width = 8),
	MOUNT_FIG(UNREADABLE, unreadable, REP_COUNT,
	          "Directories and entries the walk could not count, a count."),
	MOUNT_FIG(LINKS, links_proportional, REP_COUNT,
	          "Hard links counted in proportion beyond the link table, a count."),
	MOUNT_FIG(MORE, more, REP_COUNT,
	          "Entries of the root beyond the -n largest listed, a count."),
	MOUNT_FIG(MORE_ALLOCATED, more_allocated, REP_BYTES,
	          "Allocated size of the entries beyond the -n largest, in bytes."),
	MOUNT(entries, "entries", REP_ROWS),
	/* the labels of every prom sample; the path only with PATHs */
	MOUNT(point, "mount_point", REP_STR, .prom = "mount", .flags = REP_LABEL | REP_NOTREE),
	MOUNT(major, "major", REP_COUNT, .flags = REP_LABEL | REP_NOTREE),
	MOUNT(minor, "minor", REP_COUNT, .flags = REP_LABEL | REP_NOTREE),
	MOUNT(path, "path", REP_STR, .flags = REP_LABEL | REP_NOTREE, .bit = MOUNT_PATH_LABEL),
};

/* An entry has the FIG_ bits of its figures */
#define ENTRY(member, key, kind, ...) FIG(struct td_entry_rec, member, key, kind, __VA_ARGS__)
static const struct rep_fig entry_figs[] = {
	ENTRY(path, "path", REP_STR),
	ENTRY(depth, "depth", REP_COUNT),
	ENTRY(dir, "dir", REP_BOOL),
	ENTRY(figs.allocated, "allocated", REP_BYTES),
	ENTRY(figs.logical, "logical", REP_BYTES),
	ENTRY(figs.files, "files", REP_COUNT),
	ENTRY(figs.dirs, "dirs", REP_COUNT),
	ENTRY(figs.more, "more", REP_COUNT, .flags = REP_OPTIONAL, .bit = FIG_MORE),
	ENTRY(figs.more_allocated, "more_allocated", REP_BYTES, .flags = REP_OPTIONAL,
	      .bit = FIG_MORE_ALLOCATED),
};

/* Signed: "other" is negative when tmpfs and SysV shm exceed Shmem.
 * prom: membox_shmem_KEY[_bytes]. */
#define SHMEM(f, member, kind, help_) \
	FIG(struct td_shmem_rec, member, #member, kind, .help = help_, .flags = REP_OPTIONAL, \
	    .bit = SHMEM_##f)
/* with PATHs there is no reconciliation: null */
static const struct rep_fig shmem_figs[] = {
	FIG_OBJ("shmem", .flags = REP_OPTIONAL, .bit = SHMEM_OBJ),
	FIG(struct td_shmem_rec, tmpfs_basis, "tmpfs_basis", REP_STR),
	FIG(struct td_shmem_rec, sysv_basis, "sysv_basis", REP_STR, .flags = REP_OPTIONAL,
	    .bit = SHMEM_SYSV_BASIS),
	SHMEM(MEMINFO, meminfo, REP_SBYTES,
	      "Shmem of /proc/meminfo in bytes: shared memory and tmpfs pages in RAM."),
	SHMEM(HUGE, huge, REP_SBYTES,
	      "ShmemHugePages of /proc/meminfo in bytes, a part of Shmem."),
	SHMEM(TMPFS, tmpfs, REP_SBYTES,
	      "tmpfs pages of the walked mounts in bytes (resident, else allocated)."),
	SHMEM(TMPFS_HIDDEN, tmpfs_hidden, REP_SBYTES,
	      "The mounts' hidden space summed, in bytes: in Shmem, in no walk."),
	SHMEM(SYSV, sysv, REP_SBYTES,
	      "SysV shared memory in bytes (rss, else size, of /proc/sysvipc/shm)."),
	SHMEM(SYSV_SWAPPED, sysv_swapped, REP_SBYTES,
	      "SysV shared memory in swap, not in Shmem, in bytes."),
	SHMEM(SYSV_SEGMENTS, sysv_segments, REP_INT,
	      "SysV shared memory segments, a count."),
	SHMEM(OTHER, other, REP_SBYTES,
	      "Shmem less tmpfs and SysV in bytes: memfd, shared anonymous memory, GPU buffers."),
	FIG(struct td_shmem_rec, other_unknown, "other_unknown", REP_STR, .flags = REP_OPTIONAL,
	    .bit = SHMEM_OTHER_UNKNOWN),
	FIG_END,
};

static const char *pool_keep(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = TT.pool + TT.pool_used;
	if (n > sizeof TT.pool - TT.pool_used)
		return 0;
	TT.pool_used += n;
	return memcpy(p, s, n);
}

/* "size=1632464k", "nr_inodes=409600": 0 (unlimited) is absent */
static int limit(const char *opts, const char *key, uint64_t *v)
{
	const char *s, *p, *u;
	size_t n;

	if (!opt_value(opts, key, &s, &n) || (p = s, sc_u64(&p, s + n, v)) == SC_NONE)
		return 0;
	if (p < s + n) {
		if (p + 1 != s + n || !(u = strchr("kmgt", *p | 32)))
			return 0;
		*v = sat_mul(*v, 1ull << 10 * (u - "kmgt" + 1));
	}
	return *v != 0;
}

/* Under -R a mount point or PATH names a directory of the capture, and
 * nothing else: made plain ("." and empty components dropped, ".." taking
 * the previous one off) into TT.plain_path, or why not: a ".." that would
 * climb above the capture's own directory. */
static const char *capture_path(const char *path)
{
	char *out = TT.plain_path;
	size_t n = 0;

	while (*path) {
		size_t len = strcspn(path, "/");
		if (len == 2 && path[0] == '.' && path[1] == '.') {
			if (!n)
				return "climbs out of the root (..): not walked";
			while (out[--n] != '/')
				;
		} else if (len && !(len == 1 && path[0] == '.')) {
			if (n + 1 + len >= sizeof TT.plain_path)
				return strerror(ENAMETOOLONG);
			out[n++] = '/';
			memcpy(out + n, path, len);
			n += len;
		}
		path += len + (path[len] == '/');
	}
	if (!n)
		out[n++] = '/';
	out[n] = 0;
	return 0;
}

/* Open a plain path of the capture one directory at a time, never through
 * a symlink (a faithful capture has none on a mount point's way, and one
 * could lead out of it): fd, or -errno (-ELOOP: a symlink). */
static int capture_open(const char *plain)
{
	char name[WK_NAME_MAX];
	int fd = rd_open("/", O_RDONLY | O_DIRECTORY);

	while (fd >= 0 && *plain) {
		size_t len = strcspn(++plain, "/");
		struct stat sb;
		int next;
		if (len >= sizeof name) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, plain, len);
		name[len] = 0;
		plain += len;
		next = rd_openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (next < 0 && !fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) && S_ISLNK(sb.st_mode))
			next = -ELOOP;
		close(fd);
		fd = next;
	}
	return fd;
}

static const char *open_error(int err)
{
	return err == ELOOP ? "a symlink in the root: not followed" : mb_strerror(err);
}

/* Of two mounts of one superblock, is a the one to show rather than b:
 * the shortest root, then the shortest mount point, then the first. */
static int shown_rather(const struct td_mount *a, const struct td_mount *b)
{
	size_t ra = strlen(a->root), rb = strlen(b->root);
	size_t pa = strlen(a->point), pb = strlen(b->point);

	if (ra != rb)
		return ra < rb;
	if (pa != pb)
		return pa < pb;
	return a < b;
}

/* The mounts of the types asked for, from mountinfo.  Unreadable, it
 * ends the run, except with --shmem (only_shmem) when meminfo has Shmem: the
 * tmpfs sum and the rest are then null, and it is said (main). */
static int read_mounts(int only_shmem)
{
	static const char file[] = "/proc/self/mountinfo";
	struct rd_lines lines;
	struct mnt m;
	struct diag d;
	unsigned long bad = 0;
	unsigned i, j;
	int fd = rd_open(file, O_RDONLY), k;

	if (fd < 0 && only_shmem) {
		TT.mounts_unknown = -fd;
		return 0;
	}
	if (fd < 0)
		return mb_fail_errno(file, -fd);
	rd_lines_fd(&lines, fd, TT.mountinfo_line, sizeof TT.mountinfo_line);
	while ((k = mountinfo_next(&lines, &m, TT.mountinfo_strs, sizeof TT.mountinfo_strs, &bad)) > 0) {
		struct td_mount *t = &TT.mounts[TT.nmounts];
		size_t pool_was = TT.pool_used, n;
		const char *v;

		if (!opt_value(TT.types, m.fstype, &v, &n))
			continue;
		if (TT.nmounts == TD_MAX_MOUNTS || !(t->point = pool_keep(m.point)) ||
		    !(t->root = pool_keep(m.root)) || !(t->source = pool_keep(m.source)) ||
		    !(t->fstype = pool_keep(m.fstype))) {
			TT.pool_used = pool_was;
			TT.mounts_dropped++;
			continue;
		}
		t->major = m.major;
		t->minor = m.minor;
		t->have = (limit(m.super, "size", &t->size_limit) ? FIG_BIT(SIZE_LIMIT) : 0) |
		          (limit(m.super, "nr_inodes", &t->inode_limit) ? FIG_BIT(INODE_LIMIT) : 0);
		TT.nmounts++;
	}
	close(fd);
	if (k < 0)
		return mb_fail_errno(file, -k);
	mb_warn_diag(mountinfo_diag(&d, file, &lines, k, bad));
	if (TT.mounts_dropped)
		mb_warn(file, "more mounts than TD_MAX_MOUNTS (64): not all shown");
	for (i = 0; i < TT.nmounts; i++) {
		unsigned best = i;
		for (j = 0; j < TT.nmounts; j++)
			if (TT.mounts[j].major == TT.mounts[i].major && TT.mounts[j].minor == TT.mounts[i].minor &&
			    shown_rather(&TT.mounts[j], &TT.mounts[best]))
				best = j;
		TT.mounts[i].alias = best == i ? -1 : (int)best;
	}
	return 0;
}

/* The walk's child callback: keep the largest entries of the directory
 * being walked, largest first, at most keep_cap (-n, or less where
 * TD_LIST_MAX is reached); the rest is summed in more. */
static void keep_entry(struct wk *w, const char *name, int isdir, const struct wk_sum *s)
{
	struct td_kept *kept = TT.kept + TT.kept_base;
	size_t len = strlen(name);
	unsigned i;

	(void)w;
	if (!isdir && !TT.all)
		return;
	if (TT.keep_path_len + 1 + len >= sizeof TT.listing_path) {   /* its path could not be shown */
		TT.more++;
		TT.more_allocated += s->alloc;
		TT.list_dropped++;
		return;
	}
	TT.eligible++;
	for (i = TT.nkept; i > 0 && kept[i - 1].sum.alloc < s->alloc; i--)
		;
	if (TT.nkept == TT.keep_cap) {   /* full: the new entry or the smallest kept one goes */
		TT.more++;
		if (i == TT.nkept) {
			TT.more_allocated += s->alloc;
			return;
		}
		TT.more_allocated += kept[--TT.nkept].sum.alloc;
	}
	memmove(&kept[i + 1], &kept[i], (TT.nkept - i) * sizeof *kept);
	TT.nkept++;
	kept[i].sum = *s;
	kept[i].dir = isdir;
	memcpy(kept[i].name, name, len + 1);
}

/* Under -R every directory is on one device: the mount points of other
 * mounts below the one walked (path, TT.plain_path made plain; its fd)
 * are found by inode, and the walk skips them as du -x skips another
 * device live (a tmpfs holding the cgroup hierarchies, a /run with
 * /run/user/1000 mounted on it). */
static void find_nested(const char *path, int fd)
{
	const char *below = TT.nested_below;
	struct rd_lines lines;
	struct stat root, st;
	struct mnt m;
	unsigned long bad = 0;
	size_t n = strlen(TT.plain_path);
	int mi = rd_open("/proc/self/mountinfo", O_RDONLY), d;

	TT.nnested = 0;
	if (mi < 0 || fstat(fd, &root)) {
		if (mi >= 0)
			close(mi);
		return;
	}
	memcpy(TT.nested_below, TT.plain_path, n + 1);
	rd_lines_fd(&lines, mi, TT.mountinfo_line, sizeof TT.mountinfo_line);
	while (mountinfo_next(&lines, &m, TT.mountinfo_strs, sizeof TT.mountinfo_strs, &bad) > 0) {
		/* strictly below ("/" is above every other) */
		if (capture_path(m.point) || strncmp(TT.plain_path, below, n) ||
		    (n > 1 ? TT.plain_path[n] != '/' : !TT.plain_path[1]))
			continue;
		if ((d = capture_open(TT.plain_path)) < 0)
			continue;
		if (!fstat(d, &st) && st.st_dev == root.st_dev && st.st_ino != root.st_ino) {
			if (TT.nnested == TD_MAX_MOUNTS) {
				mb_warn(path, "more mounts below it than TD_MAX_MOUNTS (64): the rest walked as its own");
				close(d);
				break;
			}
			TT.nested[TT.nnested++] = st.st_ino;
		}
		close(d);
	}
	close(mi);
}

/* Walk fd into w, keeping its largest entries at kept[base] (the
 * directory's path is path_len long); warn about what it could not count
 * when asked (warn: the name of the tree's first walk), else remember that
 * a listing walk fell short.  0 or -errno. */
static int walk(struct wk *w, int fd, unsigned base, size_t path_len, const char *warn)
{
	int r;

	memset(w, 0, sizeof *w);
	w->cache = TT.walk_cache;
	w->skip = TT.nested;
	w->nskip = TT.nnested;
	w->child = TT.depth ? keep_entry : 0;
	TT.kept_base = base;
	TT.keep_cap = TT.top < TD_LIST_MAX - base ? TT.top : TD_LIST_MAX - base;
	TT.keep_path_len = path_len;
	TT.nkept = 0;
	TT.eligible = TT.more = TT.more_allocated = 0;
	r = wk_walk(w, &TT.walk, fd);
	if (TT.keep_cap < TT.top && TT.eligible > TT.keep_cap)   /* TD_LIST_MAX reached */
		TT.list_dropped += (TT.eligible < TT.top ? TT.eligible : TT.top) - TT.keep_cap;
	if (!warn) {
		TT.list_short |= r < 0 || w->incomplete || w->no_fd || w->too_deep;
		return r;
	}
	if (w->links_over)
		mb_warn(warn, "hard-link table full (WK_MAX_LINKS): the rest counted proportionally");
	if (w->incomplete == WK_GONE)
		mb_warn(warn, "a deep directory vanished during the walk: the rest was not walked");
	if (w->incomplete == WK_MOVED)
		mb_warn(warn, "a directory was moved during the walk: the rest was not walked (an undercount)");
	if (w->incomplete == WK_NO_FD || w->no_fd)
		mb_warn(warn, "no file descriptor left (EMFILE/ENFILE): directories not walked, "
		        "counted in unreadable (an undercount)");
	if (w->too_deep)
		mb_warn(warn, "directories deeper than WK_MAX_DEPTH (32768) not walked, counted in unreadable");
	if (w->cache && w->cache_gaps)
		mb_warn(warn, w->cache_errno == EPERM ?
		        "files cachestat may not measure (EPERM: recent kernels allow it to their owner or a writer): "
		        "resident and swapped unknown" :
		        "files cachestat could not measure: resident and swapped unknown");
	return r;
}

/* The sums of a walk: FIG_ALLOCATED .. FIG_SWAPPED */
static void put_sum(struct td_figs *f, const struct wk_sum *s)
{
	f->allocated = s->alloc;
	f->logical = s->logical;
	f->files = s->files;
	f->dirs = s->dirs;
	f->other = s->other;
	f->resident = s->resident;
	f->swapped = s->swapped;
}

/* What the last walk did not keep for the listing (beyond -n) */
static void put_more(struct td_figs *f)
{
	f->more = TT.more;
	f->more_allocated = TT.more_allocated;
}

static void measure(struct td_shown *s)
{
	const struct td_mount *m = &TT.mounts[s->mount];
	const struct meminfo *mi = &TT.meminfo;
	const char *why;
	struct stat st;
	struct statfs sf;
	struct wk w;
	int r;

	s->measured = 1;
	s->have = m->have;
	s->figs.size_limit = m->size_limit;
	s->figs.inode_limit = m->inode_limit;
	TT.list_dropped = 0;
	TT.list_short = 0;
	/* a capture's mount point is a directory of the capture, or not walked */
	if (!rd_live() && (why = capture_path(s->path))) {
		mb_warn(s->path, why);
		s->error = why;
		s->fd = -1;
		return;
	}
	s->fd = rd_live() ? rd_open(s->path, O_RDONLY | O_DIRECTORY) : capture_open(TT.plain_path);
	/* a membox capture holds no tmpfs content: its directory there (the
	 * cgroup files under /sys/fs/cgroup) is the capture's own */
	if (s->fd >= 0 && TT.capture) {
		close(s->fd);
		s->fd = -1;
		s->error = "a capture holds no tmpfs content: not walked";
		return;
	}
	if (s->fd < 0) {
		s->error = open_error(-s->fd);
		/* (a mount point missing from a capture is usual: no warning) */
		if (s->fd == -ELOOP || s->fd == -EMFILE || s->fd == -ENFILE)
			mb_warn(s->path, s->error);
		return;
	}
	if (rd_live() && (fstat(s->fd, &st) || !mnt_on(st.st_dev, m->major, m->minor))) {
		s->error = "hidden under another mount";
		close(s->fd);
		s->fd = -1;
		return;
	}
	/* A capture is walked without cachestat.  On a tmpfs with no swap
	 * slot in use (SwapFree = SwapTotal, also 0; not known without
	 * meminfo) no page is swapped out and every allocated one is in RAM,
	 * so the walk needs no open + cachestat + close per file (2).  Else
	 * (swap in use, other types: blocks are not pages in memory) only
	 * --resident pays for cachestat of each file (1); without it RESIDENT
	 * and SWAPPED are unknown (0). */
	TT.nnested = 0;
	if (!rd_live()) {
		TT.walk_cache = 0;
		find_nested(s->path, s->fd);
	} else if (MI_HAS(mi, MI_SwapTotal) && MI_GET(mi, MI_SwapFree) == MI_GET(mi, MI_SwapTotal) &&
	         !strcmp(m->fstype, "tmpfs"))
		TT.walk_cache = 2;
	else
		TT.walk_cache = TT.resident;
	r = walk(&w, s->fd, 0, 0, s->path);
	if (r < 0) {
		s->error = mb_strerror(-r);
		mb_warn(s->path, s->error);
		close(s->fd);
		s->fd = -1;
		return;
	}
	put_sum(&s->figs, &w.tot);
	put_more(&s->figs);
	s->figs.unreadable = w.unreadable + w.no_fd + w.too_deep + !!w.incomplete;
	s->figs.links_proportional = w.links_over;
	s->have |= WALKED_FIGS | (TT.depth ? MORE_FIGS : 0) |
	           (w.cache && !w.cache_gaps ? FIG_BIT(RESIDENT) | FIG_BIT(SWAPPED) : 0);
	if (rd_live() && !fstatfs(s->fd, &sf)) {
		s->figs.used = mnt_used(&sf);
		s->figs.hidden = sat_sub(s->figs.used, w.tot.alloc);
		s->figs.inodes_used = sf.f_files - sf.f_ffree;
		/* the limits in force (mountinfo omits a default nr_inodes); an
		 * unlimited tmpfs (size=0, nr_inodes=0) reports no totals.  The
		 * hidden part of a PATH below the mount's root is not known:
		 * statfs is the mount's. */
		s->figs.size_limit = sat_mul(sf.f_blocks, sf.f_frsize);
		s->figs.inode_limit = sf.f_files;
		s->have &= ~(FIG_BIT(SIZE_LIMIT) | FIG_BIT(INODE_LIMIT));
		if (sf.f_blocks)
			s->have |= FIG_BIT(SIZE_LIMIT) | FIG_BIT(USED) |
			           (TT.npaths && !s->whole ? 0 : FIG_BIT(HIDDEN));
		if (sf.f_files)
			s->have |= FIG_BIT(INODE_LIMIT) | FIG_BIT(INODES_USED);
	}
}

/* Shown i, measured: json, kv and the table measure each mount just
 * before it is shown, so that its listing reuses that walk. */
static struct td_shown *measured(size_t i)
{
	struct td_shown *s = &TT.shown[i];
	if (!s->measured)
		measure(s);
	return s;
}

/* The listing of a shown mount or PATH, depth first, each directory's
 * entries largest first: the walk of the tree kept its first level at
 * kept[0]; a directory above -d is walked when its entry is reported,
 * keeping its own entries after its parent's.  At most WK_MAX_FDS of its
 * levels stay open (and fewer when open() finds no free descriptor): a
 * closed one is re-opened through ".." of its child and must be the same
 * directory, else the listing ends there. */
static void listing_start(const struct td_shown *s)
{
	struct stat st;

	TT.nlevels = 0;
	TT.listed = 0;
	if (!TT.depth || s->fd < 0 || fstat(s->fd, &st))
		return;
	TT.levels[0] = (struct td_level){ s->fd, st.st_dev, st.st_ino, 0, 0, TT.nkept, 0 };
	TT.nlevels = TT.lowest_open = 1;   /* levels[0]'s fd is the shown tree's */
	TT.listed = s;
}

static void close_lowest_level(void)
{
	close(TT.levels[TT.lowest_open].fd);
	TT.levels[TT.lowest_open++].fd = -1;
}

/* Open the entry name of the deepest level as the next level's directory
 * (its stat into st): fd, or < 0.  It must be on the tree's device (du -x). */
static int listing_open(const char *name, struct stat *st)
{
	struct td_level *level = &TT.levels[TT.nlevels - 1];
	int fd;

	while ((fd = rd_openat(level->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) < 0 &&
	       (fd == -EMFILE || fd == -ENFILE) && TT.lowest_open < TT.nlevels - 1)
		close_lowest_level();
	if (fd >= 0 && (fstat(fd, st) || st->st_dev != TT.levels[0].dev)) {
		close(fd);
		return -1;
	}
	if (fd < 0 && fd != -ENOENT)   /* gone meanwhile: listed as walked */
		TT.list_short = 1;
	return fd;
}

/* The deepest level is done: back to its parent, re-opened if need be. */
static void listing_up(void)
{
	struct td_level *level = &TT.levels[TT.nlevels - 1], *parent = level - 1;
	struct stat st;

	if (TT.nlevels == 1) {
		TT.nlevels = 0;
		return;
	}
	if (parent->fd < 0) {
		int f = rd_openat(level->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (f < 0 || fstat(f, &st) || st.st_dev != parent->dev || st.st_ino != parent->ino) {
			if (f >= 0)
				close(f);
			TT.list_short = 1;   /* moved (or no descriptor left): the rest is not listed */
			while (TT.nlevels > 1)
				if (TT.levels[--TT.nlevels].fd >= 0)
					close(TT.levels[TT.nlevels].fd);
			TT.nlevels = 0;
			return;
		}
		parent->fd = f;
		TT.lowest_open = TT.nlevels - 2;
	}
	close(level->fd);
	TT.nlevels--;
}

/* The next entry of the listing, 0 after the last. */
static const struct td_entry_rec *listing_next(void)
{
	struct td_entry_rec *e = &TT.entry_rec;
	struct wk w;

	while (TT.nlevels) {
		struct td_level *level = &TT.levels[TT.nlevels - 1];
		const struct td_kept *k;
		size_t name_len, len;
		struct stat st;
		char *p;
		int fd;

		if (level->next == level->n) {
			listing_up();
			continue;
		}
		k = &TT.kept[level->base + level->next++];
		name_len = strlen(k->name);
		len = level->path_len + (level->path_len ? 1 : 0) + name_len;   /* it fits: keep_entry */
		p = TT.listing_path + level->path_len;
		if (level->path_len)
			*p++ = '/';
		memcpy(p, k->name, name_len + 1);
		e->path = TT.listing_path;
		e->depth = TT.nlevels;
		e->dir = k->dir;
		e->have = ENTRY_FIGS;
		put_sum(&e->figs, &k->sum);
		if (k->dir && e->depth < TT.depth && (fd = listing_open(k->name, &st)) >= 0) {
			unsigned base = level->base + level->n;
			walk(&w, fd, base, len, 0);
			put_more(&e->figs);
			e->have |= MORE_FIGS;
			TT.levels[TT.nlevels++] = (struct td_level){ fd, st.st_dev, st.st_ino, len, base, TT.nkept, 0 };
			if (TT.nlevels - TT.lowest_open > WK_MAX_FDS)
				close_lowest_level();
		}
		return e;
	}
	if (TT.listed && TT.list_dropped)
		mb_warn(TT.listed->path, "entries within -n not listed (TD_LIST_MAX entries kept at once, or "
		        "a path longer than MB_PATH_MAX): counted in more");
	if (TT.listed && TT.list_short)
		mb_warn(TT.listed->path, "the listing is incomplete: a directory was moved or removed, "
		        "or not walked whole (no file descriptor left)");
	TT.listed = 0;
	return 0;
}

static const void *entry_row(void *ctx, uint64_t *have)
{
	const struct td_entry_rec *e = listing_next();
	(void)ctx;
	if (e)
		*have = e->have & FIG_BIT(MORE) ? REP_ALL : REP_ALL & ~(uint64_t)MORE_FIGS;
	return e;
}

static const void *mount_row(void *ctx, size_t i, uint64_t *have)
{
	const struct td_shown *s = measured(i);
	const struct td_mount *m = &TT.mounts[s->mount];
	struct td_mount_rec *r = &TT.mount_rec;
	unsigned j, n;

	(void)ctx;
	r->point = m->point;
	r->path = s->path;
	r->source = m->source;
	r->fstype = m->fstype;
	r->root = m->root;
	r->error = s->error;
	r->major = m->major;
	r->minor = m->minor;
	for (n = j = 0; j < TT.nmounts; j++)
		if (TT.mounts[j].alias == s->mount)
			TT.aliases[n++] = TT.mounts[j].point;
	TT.aliases[n] = 0;
	r->aliases = TT.aliases;
	r->figs = s->figs;
	/* json and kv show the listing right after the figures: it walks now */
	r->entries = (struct rep_rows){ entry_figs, REP_N(entry_figs), entry_row, 0 };
	listing_start(s);
	*have = s->have | (s->error ? (uint64_t)1 << MOUNT_ERROR : 0);
	return r;
}

/* Why other (Shmem - tmpfs - sysv) would not be the rest of Shmem, into
 * TT.other_why; 0 when it is.  Shmem counts the pages in RAM: a tmpfs
 * not walked, or walked in part, leaves its pages in the rest; an
 * allocated block may be in swap, not in Shmem. */
static const char *other_unknown(int allocated)
{
	const struct meminfo *mi = &TT.meminfo;
	size_t i;

	if (TT.mounts_unknown)
		return "/proc/self/mountinfo unreadable: the tmpfs mounts are unknown";
	if (TT.mounts_dropped)
		return "mounts beyond TD_MAX_MOUNTS not walked";
	for (i = 0; i < TT.nshown; i++) {
		const struct td_shown *s = &TT.shown[i];
		int walked = s->have & FIG_BIT(ALLOCATED);
		if (!strcmp(TT.mounts[s->mount].fstype, "ramfs") || (walked && !s->figs.unreadable))
			continue;
		if (walked)
			mb_join(TT.other_why, s->path, " walked in part: unreadable entries", "");
		else
			mb_join(TT.other_why, s->path, " not walked: ", s->error ? s->error : "");
		return TT.other_why;
	}
	if (!allocated)
		return 0;
	if (!MI_HAS(mi, MI_SwapTotal) || !MI_HAS(mi, MI_SwapFree))
		return "swap use unknown: allocated tmpfs pages may be in swap, not in Shmem";
	if (MI_GET(mi, MI_SwapFree) < MI_GET(mi, MI_SwapTotal))
		return rd_live() ? "swap in use: allocated tmpfs pages may be in swap, not in Shmem (--resident: resident)" :
		                   "swap in use: allocated tmpfs pages may be in swap, not in Shmem";
	return 0;
}

static void reconcile_shmem(void)
{
	static const char file[] = "/proc/sysvipc/shm";
	struct td_shmem_rec *sh = &TT.shmem;
	const struct meminfo *mi = &TT.meminfo;
	uint64_t have = TT.mounts_unknown ? 0 : 1 << SHMEM_TMPFS | 1 << SHMEM_TMPFS_HIDDEN;
	int allocated = !rd_live(), failed;
	uint64_t tmpfs = 0, hidden = 0;
	struct shm_tot st;
	struct diag d;
	size_t i;

	if (MI_HAS(mi, MI_Shmem))
		have |= 1 << SHMEM_MEMINFO;
	if (MI_HAS(mi, MI_ShmemHugePages))
		have |= 1 << SHMEM_HUGE;
	sh->meminfo = MI_GET(mi, MI_Shmem);
	sh->huge = MI_GET(mi, MI_ShmemHugePages);
	for (i = 0; i < TT.nshown; i++) {
		const struct td_shown *s = measured(i);
		/* ramfs pages are not Shmem */
		if (!(s->have & FIG_BIT(ALLOCATED)) || !strcmp(TT.mounts[s->mount].fstype, "ramfs"))
			continue;
		allocated |= !(s->have & FIG_BIT(RESIDENT));
		tmpfs += s->have & FIG_BIT(RESIDENT) ? s->figs.resident : s->figs.allocated;
		hidden += s->figs.hidden;
	}
	sh->tmpfs = tmpfs;
	sh->tmpfs_hidden = hidden;
	sh->tmpfs_basis = allocated ? "allocated" : "resident";
	sh->sysv_basis = 0;
	sh->other_unknown = other_unknown(allocated);
	failed = shm_read(&st);
	mb_warn_diag(rd_diag(&d, file, failed, 0));
	if (!failed) {
		sh->sysv_basis = st.have_rss ? "rss" : "size";
		sh->sysv = st.have_rss ? st.rss : st.size;
		sh->sysv_swapped = st.swap;
		sh->sysv_segments = st.segs;
		have |= 1 << SHMEM_SYSV | 1 << SHMEM_SYSV_SEGMENTS | (st.have_swap ? 1 << SHMEM_SYSV_SWAPPED : 0);
		mb_warn_diag(&st.diag);
		if (MI_HAS(mi, MI_Shmem) && !sh->other_unknown) {
			sh->other = sat_diff(MI_GET(mi, MI_Shmem),
			                              sat_add(tmpfs, st.have_rss ? st.rss : st.size));
			/* the walk and Shmem are read at different moments */
			if (sh->other < 0)
				sh->other_unknown = "tmpfs and SysV shm exceed Shmem (pages came or went during the walk)";
			else
				have |= 1 << SHMEM_OTHER;
		}
	} else if (!sh->other_unknown) {
		sh->other_unknown = "no /proc/sysvipc/shm";
	}
	if (!MI_HAS(mi, MI_Shmem))
		sh->other_unknown = "no Shmem in /proc/meminfo";
	if (sh->other_unknown)
		have |= 1 << SHMEM_OTHER_UNKNOWN;
	sh->have = have | 1 << SHMEM_OBJ | (sh->sysv_basis ? 1 << SHMEM_SYSV_BASIS : 0);
}

/* ---- the table for people ---- */

/* The columns of a mount's line and of its listing's, by key (json has
 * the figures in another order), the path after them; LIMIT is one wider,
 * as the line's first column has no space before it. */
static const char mount_columns[] =
	"size_limit,used,allocated,logical,resident,swapped,hidden,files,dirs";

/* The cells of a mount's or a listed entry's figures (have: its FIG_BIT()s),
 * and the space before the path */
static void cells(const struct td_figs *f, unsigned have)
{
	struct td_mount_rec r = { .figs = *f };

	rep_table_row_cols(mount_figs, REP_N(mount_figs), mount_columns, &r, have);
	fo_c(' ');
}

static void table_listing(const struct td_shown *s)
{
	const struct td_entry_rec *e;

	listing_start(s);
	while ((e = listing_next())) {
		cells(&e->figs, e->have);
		out_pad(mb.fo, 0, 2 * e->depth);
		out_safe(mb.fo, e->path, strlen(e->path));
		if (e->have & FIG_BIT(MORE) && e->figs.more) {
			fo_s(" (+");
			out_u64(mb.fo, e->figs.more);
			fo_c(' ');
			tb_size(e->figs.more_allocated, 0);
			fo_c(')');
		}
		tb_nl();
	}
}

/* The Shmem row stays hand-laid: its head stands one column left of its
 * cells (SHMEM is 8 wide, its cells 9), which rep_table_head would set
 * right, changing the text. */
static void table_shmem(void)
{
	const struct td_shmem_rec *sh = &TT.shmem;
	size_t i;

	fo_s("\n   SHMEM     HUGE    TMPFS   HIDDEN     SYSV SYSVSWAP SEGMENTS    OTHER\n");
	for (i = 0; i < REP_N(shmem_figs); i++) {
		const struct rep_fig *f = &shmem_figs[i];
		int64_t v = *(const int64_t *)((const char *)sh + f->off);
		int have = sh->have >> f->bit & 1;
		if (f->kind != REP_INT && f->kind != REP_SBYTES)
			continue;
		if (!have)
			fo_s("        -");
		else if (f->kind == REP_INT)
			tb_u64(v, 9);
		else
			tb_ssize(v, 9);
	}
	tb_nl();
	fo_s("tmpfs: ");
	fo_s(sh->tmpfs_basis);
	if (sh->other_unknown) {
		fo_s("; other unknown: ");
		out_safe(mb.fo, sh->other_unknown, strlen(sh->other_unknown));
		fo_c('\n');
		return;
	}
	fo_s("; other: memfd, shared anonymous memory, GPU buffers, deleted-but-open\n"
	     "tmpfs files, tmpfs of other mount namespaces\n");
}

static void table(int only_shmem)
{
	unsigned i, j;

	if (!only_shmem) {
		rep_table_head_cols(mount_figs, REP_N(mount_figs), mount_columns);
		fo_s(" MOUNT (");
		fo_s(*tb_unit() ? tb_unit() : "IEC");
		fo_s(")\n");
	}
	for (i = 0; !only_shmem && i < TT.nshown; i++) {
		const struct td_shown *s = measured(i);
		cells(&s->figs, s->have);
		tb_str(s->path, 0);
		for (j = 0; j < TT.nmounts; j++)
			if (TT.mounts[j].alias == s->mount) {
				fo_s(" = ");
				tb_str(TT.mounts[j].point, 0);
			}
		if (s->error) {
			fo_s(" (");
			fo_s(s->error);
			fo_c(')');
		}
		tb_nl();
		table_listing(s);
	}
	if (!TT.npaths) {
		reconcile_shmem();
		table_shmem();
	}
}

/* ---- json, kv and prom ---- */

static void report(int only_shmem)
{
	static const struct rep_fig dropped[] = {
		FIG(struct tmpfs_du_globals, mounts_dropped, "mounts_dropped", REP_COUNT,
		    .flags = REP_NOPROM),
	};
	uint64_t left_out = (TT.npaths ? 0 : (uint64_t)1 << MOUNT_PATH_LABEL) |
	                    (TT.depth ? 0 : (uint64_t)MORE_FIGS);
	const struct rep_list mounts = { "mounts", "tmpfs", mount_figs, REP_N(mount_figs), TT.nshown,
	                                 mount_row, 0, 0 };

	rep_begin();
	if (!only_shmem) {
		rep_list_except(&mounts, left_out);
		rep_figs("", dropped, REP_N(dropped), &TT, REP_ALL);
	}
	if (!TT.npaths)
		reconcile_shmem();
	rep_figs("", shmem_figs, REP_N(shmem_figs), &TT.shmem, TT.shmem.have);
	rep_end();
}

int tmpfs_du_main(int argc, char **argv)
{
	struct optst st = { 0 };
	struct diag d;
	int id, only_shmem = 0, failed, manifest;
	unsigned i;

	cli_init("tmpfs-du");
	TT.types = "tmpfs";
	TT.top = 10;
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END) {
		switch (id) {
		case OPT_ERR:
			return 2;
		case TMPFS_DU_OPT_TYPES:
			TT.types = st.arg;
			break;
		case TMPFS_DU_OPT_DEPTH:
			if (cli_u64("-d", st.arg, 0, UINT64_MAX, &TT.depth))
				return cli_usage_error();
			break;
		case TMPFS_DU_OPT_TOP:
			if (cli_u64("-n", st.arg, 0, UINT64_MAX, &TT.top))
				return cli_usage_error();
			break;
		case TMPFS_DU_OPT_ALL:
			TT.all = 1;
			break;
		case TMPFS_DU_OPT_RESIDENT:
			TT.resident = 1;
			break;
		case TMPFS_DU_OPT_SHMEM:
			only_shmem = 1;
			break;
		}
	}
	TT.npaths = argc - st.ind;
	if (TT.npaths > TD_MAX_MOUNTS || (TT.npaths && only_shmem))
		return mb_warn("--shmem or PATH", "PATHs above TD_MAX_MOUNTS (64), or --shmem with PATHs"),
		       cli_usage_error();
	if (cli_root())
		return 1;
	if (!rd_live() && (manifest = rd_open("/membox-capture", O_RDONLY)) >= 0) {
		TT.capture = 1;
		close(manifest);
	}
	if ((failed = cli_reports()))
		return failed;
	if (read_mounts(only_shmem))
		return 1;
	failed = meminfo_read(&TT.meminfo, TT.meminfo_text, sizeof TT.meminfo_text);
	mb_warn_diag(&TT.meminfo.diag);
	mb_warn_diag(rd_diag(&d, "/proc/meminfo", failed, 0));
	if (TT.mounts_unknown && !MI_HAS(&TT.meminfo, MI_Shmem))   /* --shmem with nothing to say */
		return mb_fail_errno("/proc/self/mountinfo", TT.mounts_unknown);
	if (TT.mounts_unknown)
		mb_warn_errno("/proc/self/mountinfo", TT.mounts_unknown);
	for (; st.ind < argc; st.ind++) {
		const char *p = argv[st.ind];
		struct td_shown *s = &TT.shown[TT.nshown++];
		const char *plain = TT.plain_path, *why;
		struct stat sb;
		size_t best_len = 0;
		int fd;

		s->mount = -1;
		s->path = p;
		/* in a capture: a directory of it, reached without "..", symlinks */
		if (!rd_live() && (why = capture_path(p)))
			return mb_fail(p, why);
		fd = rd_live() ? rd_open(p, O_RDONLY | O_DIRECTORY) : capture_open(plain);
		if (fd < 0 || fstat(fd, &sb)) {
			if (fd >= 0)
				close(fd);
			return mb_fail(p, open_error(fd < 0 ? -fd : EBADF));
		}
		close(fd);
		/* the mount of its device; in a capture, of the longest mount point */
		for (i = 0; i < TT.nmounts; i++) {
			const char *mp = TT.mounts[i].point;
			size_t l = strlen(mp);
			if (rd_live() ? mnt_on(sb.st_dev, TT.mounts[i].major, TT.mounts[i].minor) :
			    l >= best_len && !strncmp(plain, mp, l) && (plain[l] == '/' || !plain[l] || l == 1)) {
				best_len = l;
				s->mount = TT.mounts[i].alias < 0 ? (int)i : TT.mounts[i].alias;
			}
		}
		if (s->mount < 0)
			return mb_fail(p, "not on a mount of the listed types (-t)");
		/* the root of the shown mount, or of an alias of the same root: the
		 * whole mount, hidden known as without PATHs */
		for (i = 0; i < TT.nmounts; i++) {
			const struct td_mount *m = &TT.mounts[i];
			struct stat mb;
			if (m->major != TT.mounts[s->mount].major || m->minor != TT.mounts[s->mount].minor ||
			    strcmp(m->root, TT.mounts[s->mount].root))
				continue;
			if (!rd_live())
				s->whole |= !strcmp(plain, m->point);
			else if ((fd = rd_open(m->point, O_RDONLY | O_DIRECTORY)) >= 0) {
				s->whole |= !fstat(fd, &mb) && mb.st_dev == sb.st_dev && mb.st_ino == sb.st_ino;
				close(fd);
			}
		}
	}
	for (i = 0; !TT.npaths && i < TT.nmounts; i++)
		if (TT.mounts[i].alias < 0) {
			TT.shown[TT.nshown].mount = i;
			TT.shown[TT.nshown++].path = TT.mounts[i].point;
		}
	if (mb.fmt == FMT_TABLE)
		table(only_shmem);
	else
		report(only_shmem);
	return 0;
}
