/* mem-ledger: MemTotal as a tree of parts whose leaves add up to it
 * exactly, unexplained included.  Reads /proc/meminfo, /proc/swaps,
 * /sys/block/zramN/mm_stat, /proc/sysvipc/shm,
 * /sys/kernel/dmabuf/buffers (dmabuf.h; without it every process's
 * DMA-BUF descriptors and mappings), and on the live system
 * /proc/self/mountinfo and statfs(2) of each tmpfs.  Each leaf and each overlap the
 * tree avoids is defined in mem-ledger.1. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/statfs.h>
#include "applet.h"
#include "dmabuf.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "rd.h"
#include "sc.h"
#include "swaps.h"
#include "sysvshm.h"

/* membox --help: the question the applet answers */
const char mem_ledger_purpose[] = "where is all the RAM: MemTotal in parts that add up to it?";

static const char *const usage = "Usage: mem-ledger [OPTIONS]\n\n"
	"MemTotal as a tree of parts: free, user memory (anon, cached = file +\n"
	"shmem, buffers, swap cache), kernel (slab, stacks, page tables, per-CPU,\n"
	"hugetlb pools, ...), zram's compressed store and DMA-BUF buffers.  Each\n"
	"leaf is one kernel counter, its source beside it; UNEXPLAINED = MemTotal\n"
	"less every other leaf, signed.  A counter this kernel lacks is '-' (null\n"
	"in json), not 0.  The leaves add up to MemTotal to the byte.\n\n"
	CLI_REPEAT_HELP;

static const struct opt opts[] = {
	CLI_REPEAT_OPTS,
	{ 0, 0, 0, 0 }
};

/* A part of the tree.  Part 0 is MemTotal itself, the root; every other
 * part comes after its parent.  A part with children is their sum (of
 * those known); a leaf is one counter, or a difference of two written in
 * its source. */
enum ml_part_bit { PART_KNOWN = 1, PART_ABSENT, PART_SPLIT, PART_UNREAD };
#define ML_FIXED_PARTS 32   /* the parts of the tree but tmpfs mounts, and more */
#define ML_SOURCE_LEN 44    /* "statfs used, device " and two 32-bit numbers */
GLOBALS(
	char meminfo_text[MB_FILE_MAX];
	struct meminfo meminfo;
	struct swaps swaps;
	struct ml_part {
		const char *name;
		const char *source;       /* the kernel file or counter it is */
		const char *absent;       /* why it is unknown (bytes null) */
		int64_t bytes;
		uint64_t unread;          /* dmabuf from processes: those not read */
		int known;
		unsigned parent;
		unsigned cursor;          /* the next child to look at, while shown */
		unsigned children;
		struct rep_rows parts;
	} part[ML_MAX_PARTS];
	unsigned nparts;
	char label[128 + MI_STR_MAX]; /* prom: a part's dotted path: short names, a mount point */
	char mountinfo_line[MB_LINE_MAX];
	char mountinfo_strs[MI_STR_MAX];
	struct ml_mount {             /* a tmpfs superblock */
		unsigned major, minor;
		unsigned part;
	} mounts[TD_MAX_MOUNTS];
	unsigned nmounts;
	unsigned tmpfs_part;          /* their parent */
	unsigned leaves[ML_MAX_PARTS];   /* prom: the known leaves */
	struct ml_leaf {              /* prom: the row being written */
		const char *part, *source;
		int64_t bytes;
	} leaf;
	char pool[ML_STR_POOL];       /* the mount points, the parts' names */
	size_t pool_used;
	struct dmabuf_set dmabufs;    /* dmabuf without sysfs: what processes hold */
)
#define TT this.mem_ledger

static const void *next_part(void *ctx, uint64_t *have);

#define PART(member, key, kind, ...) FIG(struct ml_part, member, key, kind, __VA_ARGS__)
static const struct rep_fig part_figs[] = {
	PART(name, "name", REP_STR),
	PART(bytes, "bytes", REP_SBYTES, .flags = REP_OPTIONAL, .bit = PART_KNOWN),
	PART(source, "source", REP_STR),
	PART(absent, "absent", REP_STR, .flags = REP_OMIT, .bit = PART_ABSENT),
	PART(unread, "unread", REP_COUNT, .flags = REP_OMIT, .bit = PART_UNREAD),
	PART(parts, "parts", REP_ROWS, .flags = REP_OMIT, .bit = PART_SPLIT),
};
static const struct rep_fig top_figs[] = {
	PART(bytes, "mem_total", REP_SBYTES, .prom = "mem_ledger_total",
	     .help = "Memory the kernel manages (MemTotal), in bytes."),
	PART(parts, "parts", REP_ROWS),
};
/* prom: flat, a sample per known leaf labelled by its dotted path and
 * source, so that sum(membox_mem_ledger_part_bytes) is MemTotal */
static const struct rep_fig leaf_figs[] = {
	FIG(struct ml_leaf, part, "part", REP_STR, .flags = REP_LABEL),
	FIG(struct ml_leaf, source, "source", REP_STR, .flags = REP_LABEL),
	FIG(struct ml_leaf, bytes, "bytes", REP_SBYTES, .prom = "mem_ledger_part",
	    .help = "Bytes of one leaf of MemTotal by its dotted path and kernel source, the leaves summing to MemTotal."),
};

static unsigned add(unsigned parent, const char *name, const char *source)
{
	struct ml_part *p = &TT.part[TT.nparts];

	/* the fixed tree is smaller than the table: a full one is a bug */
	if (TT.nparts == ML_MAX_PARTS - 1)
		return ML_MAX_PARTS - 1;
	*p = (struct ml_part){ .name = name, .source = source, .parent = parent };
	TT.part[parent].children++;
	return TT.nparts++;
}

static void set(unsigned i, uint64_t bytes)
{
	TT.part[i].bytes = bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes;
	TT.part[i].known = 1;
}

static uint64_t mi(int key) { return MI_GET(&TT.meminfo, key); }
static int has(int key) { return MI_HAS(&TT.meminfo, key); }

/* A leaf that is meminfo's counter key; absent tells from which kernel
 * on it is printed. */
static unsigned counter(unsigned parent, const char *name, int key, const char *absent)
{
	unsigned i = add(parent, name, meminfo_name(key));

	if (has(key))
		set(i, mi(key));
	else
		TT.part[i].absent = absent;
	return i;
}

/* A tmpfs superblock's part, by its statfs: known, or why not.  One
 * mounted twice is measured through the first of its mount points that
 * is not hidden under another mount. */
static void measure_mount(const struct mnt *m)
{
	struct statfs sf;
	struct ml_mount *t;
	size_t n = strlen(m->point) + 1;
	char *name, *source, *b;
	unsigned i;
	int fd, err;

	for (i = 0; i < TT.nmounts; i++)
		if (TT.mounts[i].major == m->major && TT.mounts[i].minor == m->minor)
			break;
	t = &TT.mounts[i];
	if (i == TT.nmounts) {
		if (i == TD_MAX_MOUNTS || TT.nparts >= ML_MAX_PARTS - ML_FIXED_PARTS ||
		    n + ML_SOURCE_LEN > sizeof TT.pool - TT.pool_used) {
			mb_warn("/proc/self/mountinfo", "tmpfs mounts beyond TD_MAX_MOUNTS (64) or ML_STR_POOL (8192): in other");
			return;
		}
		t->major = m->major;
		t->minor = m->minor;
		name = memcpy(TT.pool + TT.pool_used, m->point, n);
		/* two superblocks may have one mount point: the device tells them apart */
		source = name + n;
		b = stpcpy(source, "statfs used, device ");
		b += u64_str(b, m->major);
		*b++ = ':';
		b += u64_str(b, m->minor);
		*b++ = 0;
		TT.pool_used = b - TT.pool;
		t->part = add(TT.tmpfs_part, name, source);
		TT.nmounts++;
	} else if (TT.part[t->part].known) {
		return;
	}
	fd = rd_open(m->point, O_RDONLY | O_DIRECTORY);
	err = fd < 0 ? fd : mnt_statfs(fd, m->major, m->minor, &sf);
	if (fd >= 0)
		close(fd);
	if (!err && sf.f_blocks)
		set(t->part, mnt_used(&sf));
	else
		TT.part[t->part].absent = err == -EXDEV ? "hidden under another mount: in other" :
		                          err ? "unreadable: in other" : "no size limit, so no statfs figure: in other";
}

/* tmpfs, a part for each superblock mounted here, under parent (the
 * last part added).  Where the split would not be exact, none: on a
 * capture (no statfs), or with a swap slot in use (statfs counts a
 * tmpfs's pages in swap too, which Shmem does not). */
static int tmpfs(void)
{
	static const char file[] = "/proc/self/mountinfo";
	struct rd_lines lines;
	struct mnt m;
	struct diag d;
	unsigned long bad = 0;
	int fd, k;

	if (!rd_live() || !has(MI_SwapTotal) || !has(MI_SwapFree) || mi(MI_SwapFree) != mi(MI_SwapTotal))
		return 0;
	if ((fd = rd_open(file, O_RDONLY)) < 0) {
		mb_warn_errno(file, -fd);
		return 0;
	}
	TT.nmounts = 0;
	TT.pool_used = 0;
	rd_lines_fd(&lines, fd, TT.mountinfo_line, sizeof TT.mountinfo_line);
	while ((k = mountinfo_next(&lines, &m, TT.mountinfo_strs, sizeof TT.mountinfo_strs, &bad)) > 0)
		if (!strcmp(m.fstype, "tmpfs"))
			measure_mount(&m);
	close(fd);
	mb_warn_diag(mountinfo_diag(&d, file, &lines, k, bad));
	return 1;
}

/* Shmem: tmpfs files (on the live system, tmpfs()), SysV shared memory
 * and the rest (memfd, shared anonymous mappings, GPU buffers of
 * shmem-backed drivers, tmpfs not measured).  Split only where the split
 * is exact: the parts known no more than Shmem. */
static void split_shmem(unsigned shmem)
{
	static const char file[] = "/proc/sysvipc/shm";
	static const char *const other_source[] = { "Shmem - tmpfs", "Shmem - SysV rss",
	                                            "Shmem - tmpfs - SysV rss" };
	struct shm_tot st;
	struct diag d;
	uint64_t parts = 0;
	unsigned first = TT.nparts, i;
	int err = shm_read(&st), sysv = 0, fs;

	if (err != -ENOENT) {
		mb_warn_diag(rd_diag(&d, file, err, 0));
		if (!err)
			mb_warn_diag(&st.diag);
		sysv = !err && st.have_rss;
	}
	TT.tmpfs_part = add(shmem, "tmpfs", "the sum of its parts");
	TT.part[TT.tmpfs_part].absent = "no tmpfs measured";
	fs = tmpfs();
	if (fs && !TT.nmounts)
		set(TT.tmpfs_part, 0);
	for (i = first + 1; fs && i < TT.nparts; i++)
		if (TT.part[i].known)
			parts = sat_add(parts, (uint64_t)TT.part[i].bytes);
	if (sysv)
		parts = sat_add(parts, st.rss);
	if ((!fs && !sysv) || parts > mi(MI_Shmem)) {
		TT.nparts = first;
		TT.part[shmem].children = 0;
		return;
	}
	if (!fs) {
		TT.nparts = first;
		TT.part[shmem].children = 0;
	}
	if (sysv)
		set(add(shmem, "sysv", "/proc/sysvipc/shm rss"), st.rss);
	set(add(shmem, "other", other_source[fs + 2 * sysv - 1]), mi(MI_Shmem) - parts);
}

/* Cached holds Shmem (shmem pages are page cache): file = Cached - Shmem.
 * Without Shmem (before 2.6.32) Cached stays one leaf. */
static void cached(unsigned user)
{
	unsigned c, i;

	if (!has(MI_Shmem) || !has(MI_Cached) || mi(MI_Shmem) > mi(MI_Cached)) {
		counter(user, "cached", MI_Cached, "no Cached in /proc/meminfo");
		return;
	}
	c = add(user, "cached", "Cached: the sum of its parts");
	i = add(c, "file", "Cached - Shmem");
	set(i, mi(MI_Cached) - mi(MI_Shmem));
	i = counter(c, "shmem", MI_Shmem, 0);
	split_shmem(i);
}

static void kernel(unsigned k)
{
	unsigned i;

	if (has(MI_SReclaimable) && has(MI_SUnreclaim)) {
		i = add(k, "slab", "Slab: the sum of its parts");
		counter(i, "reclaimable", MI_SReclaimable, 0);
		counter(i, "unreclaimable", MI_SUnreclaim, 0);
	} else {
		counter(k, "slab", MI_Slab, "no Slab in /proc/meminfo");
	}
	/* KReclaimable = SReclaimable + the kernel's other reclaimable
	 * memory (NR_KERNEL_MISC_RECLAIMABLE), which no other counter has */
	i = add(k, "misc_reclaimable", "KReclaimable - SReclaimable");
	if (has(MI_KReclaimable) && has(MI_SReclaimable))
		set(i, sat_sub(mi(MI_KReclaimable), mi(MI_SReclaimable)));
	else
		TT.part[i].absent = "no KReclaimable in /proc/meminfo (Linux 4.20 and later)";
	counter(k, "kernel_stack", MI_KernelStack, "no KernelStack in /proc/meminfo (Linux 2.6.32 and later)");
	counter(k, "page_tables", MI_PageTables, "no PageTables in /proc/meminfo");
	counter(k, "secondary_page_tables", MI_SecPageTables,
	        "no SecPageTables in /proc/meminfo (Linux 6.1 and later)");
	counter(k, "percpu", MI_Percpu, "no Percpu in /proc/meminfo (Linux 4.16 and later)");
	/* every huge page size; HugePages_Total is the default size's only */
	if (has(MI_Hugetlb) || !has(MI_HugePagesTotal))
		counter(k, "hugetlb", MI_Hugetlb, "no Hugetlb nor HugePages_Total in /proc/meminfo");
	else
		set(add(k, "hugetlb", "HugePages_Total x Hugepagesize"), mi(MI_HugePagesTotal));
	counter(k, "zswap", MI_Zswap, "no Zswap in /proc/meminfo (Linux 5.19 and later)");
	counter(k, "bounce", MI_Bounce, "no Bounce in /proc/meminfo");
	counter(k, "writeback_tmp", MI_WritebackTmp, "no WritebackTmp in /proc/meminfo (Linux 2.6.26 and later)");
}

/* zram's compressed store: Σ mem_used_total of the zram swap devices */
static void zram(unsigned i)
{
	struct sw_zram z = { 0 };
	struct diag d;
	int err = sw_read(&TT.swaps);

	if (err) {
		mb_warn_diag(rd_diag(&d, sw_file, err, 0));
		TT.part[i].absent = "/proc/swaps unreadable";
		return;
	}
	if (TT.swaps.zram_dropped) {
		mb_warn(sw_file, "zram devices beyond SW_MAX_ZRAM (16): not counted");
		TT.part[i].absent = "zram devices beyond SW_MAX_ZRAM";
		return;
	}
	while (sw_zram_step(&TT.swaps, &z, &d))
		mb_warn_diag(&d);
	if (z.unknown)
		TT.part[i].absent = "a zram device's mm_stat unreadable";
	else
		set(i, z.used);
}

static const char dmabuf_sysfs_source[] = "/sys/kernel/dmabuf/buffers/*/size";
static const char dmabuf_proc_source[] = "/proc/PID/fdinfo and maps, by inode";

/* Without the sysfs directory: every buffer a process holds through a
 * descriptor or a mapping, once (dmabuf.h).  A buffer only processes not
 * read hold is missed: then the leaf is a lower bound, their number in
 * unread (shown, not warned: another user's processes are unreadable
 * to anyone but root, on every run, as smaps-rollup's inaccessible).  No process read at all (a capture, a tree without fd
 * directories): unknown, as before there was this fallback. */
static void dmabuf_procs(unsigned i)
{
	struct dmabuf_set *s = &TT.dmabufs;
	struct rd_dir dir;
	uint64_t total[HOLD_NSIZE], read = 0;
	long pid;

	/* the set's header: its tables are written as they fill */
	s->ks = (struct keyset){ 0 };
	s->nprocs = s->npairs = 0;
	s->sorted = 0;
	s->unreadable = s->fds_unreadable = s->no_inode = s->dropped = 0;
	if (rd_dir_open(&dir, "/proc") < 0) {
		TT.part[i].absent = "no /sys/kernel/dmabuf/buffers, and /proc unreadable";
		return;
	}
	while ((pid = rd_pid_next(&dir)) > 0) {
		int fd = rd_openat_root(dir.fd, MB_U64((uint64_t)pid), O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			continue;   /* gone */
		if (dmabuf_read_proc(s, fd, (uint32_t)pid) >= 0)
			read++;
		close(fd);
	}
	rd_dir_close(&dir);
	if (!read) {
		TT.part[i].absent = "no /sys/kernel/dmabuf/buffers (Linux 5.13 and later, CONFIG_DMABUF_SYSFS_STATS)";
		return;
	}
	dmabuf_totals(s, total);
	TT.part[i].source = dmabuf_proc_source;
	TT.part[i].unread = s->unreadable;
	set(i, total[HOLD_DMABUF]);
	if (s->fds_unreadable || s->dropped)
		mb_warn("/proc/PID/fdinfo", MB_WHY, MB_U64(s->fds_unreadable + s->dropped),
		        " descriptors not read or buffers beyond DMABUF_MAX: dmabuf is a lower bound");
}

static void dmabuf(unsigned i)
{
	uint64_t bytes, buffers;
	struct diag d;
	int err = dmabuf_sysfs_total(&bytes, &buffers, &d);

	mb_warn_diag(&d);
	if (err == -ENOENT) {
		dmabuf_procs(i);
	} else if (err) {
		mb_warn_errno("/sys/kernel/dmabuf/buffers", -err);
		TT.part[i].absent = "/sys/kernel/dmabuf/buffers unreadable";
	} else {
		set(i, bytes);
	}
}

/* The tree, then the sums: each part with children is the sum of those
 * known, and unexplained is MemTotal less every known leaf. */
static void build(void)
{
	uint64_t sum[ML_MAX_PARTS] = { 0 }, leaves = 0;
	unsigned user, i;
	int known[ML_MAX_PARTS] = { 0 };

	TT.nparts = 0;
	add(0, "mem_total", "MemTotal");
	TT.part[0].children = 0;
	set(0, mi(MI_MemTotal));
	counter(0, "free", MI_MemFree, "no MemFree in /proc/meminfo");
	user = add(0, "user", "the sum of its parts");
	counter(user, "anon", MI_AnonPages, "no AnonPages in /proc/meminfo (Linux 2.6.18 and later)");
	cached(user);
	counter(user, "buffers", MI_Buffers, "no Buffers in /proc/meminfo");
	counter(user, "swap_cache", MI_SwapCached, "no SwapCached in /proc/meminfo");
	kernel(add(0, "kernel", "the sum of its parts"));
	zram(add(0, "zram", "/sys/block/zramN/mm_stat mem_used_total"));
	dmabuf(add(0, "dmabuf", dmabuf_sysfs_source));
	for (i = TT.nparts; i-- > 1;) {
		struct ml_part *p = &TT.part[i];
		if (p->children) {
			if (!known[i])
				continue;
			set(i, sum[i]);
		} else if (p->known) {
			leaves = sat_add(leaves, (uint64_t)p->bytes);
		}
		if (p->known) {
			sum[p->parent] = sat_add(sum[p->parent], (uint64_t)p->bytes);
			known[p->parent] = 1;
		}
	}
	i = add(0, "unexplained", "MemTotal - the other leaves");
	TT.part[i].known = 1;
	TT.part[i].bytes = sat_diff(mi(MI_MemTotal), leaves);
}

static uint64_t part_have(const struct ml_part *p)
{
	return (p->known ? 1u << PART_KNOWN : 0) | (p->absent && !p->known ? 1u << PART_ABSENT : 0) |
	       (p->children ? 1u << PART_SPLIT : 0) |
	       (p->source == dmabuf_proc_source ? 1u << PART_UNREAD : 0);
}

/* REP_ROWS: the children of the part ctx, in order */
static const void *next_part(void *ctx, uint64_t *have)
{
	struct ml_part *p = ctx;
	unsigned self = p - TT.part, i;

	for (i = p->cursor ? p->cursor : self + 1; i < TT.nparts; i++) {
		struct ml_part *c = &TT.part[i];
		if (c->parent != self || i == 0)
			continue;
		p->cursor = i + 1;
		c->cursor = 0;
		c->parts = (struct rep_rows){ part_figs, REP_N(part_figs), next_part, c };
		*have = part_have(c);
		return c;
	}
	p->cursor = TT.nparts;
	return 0;
}

/* A part's dotted path below the root ("user.cached.shmem.sysv") */
static const char *label(unsigned i)
{
	const char *name[8];
	unsigned n = 0;
	char *b = TT.label;

	for (; i && n < 8; i = TT.part[i].parent)
		name[n++] = TT.part[i].name;
	*b = 0;
	while (n--) {
		if (b != TT.label)
			*b++ = '.';
		b = stpcpy(b, name[n]);
	}
	return TT.label;
}

static const void *leaf_row(void *ctx, size_t i, uint64_t *have)
{
	const struct ml_part *p = &TT.part[TT.leaves[i]];

	(void)ctx;
	TT.leaf = (struct ml_leaf){ label(TT.leaves[i]), p->source, p->bytes };
	*have = REP_ALL;
	return &TT.leaf;
}

static void report(void)
{
	struct rep_list leaves = { 0, "", leaf_figs, REP_N(leaf_figs), 0, leaf_row, 0, 0 };
	unsigned i;

	for (i = 1; i < TT.nparts; i++)
		if (!TT.part[i].children && TT.part[i].known)
			TT.leaves[leaves.rows++] = i;
	TT.part[0].cursor = 0;
	TT.part[0].parts = (struct rep_rows){ part_figs, REP_N(part_figs), next_part, &TT.part[0] };
	rep_begin();
	rep_figs("", top_figs, REP_N(top_figs), &TT.part[0], REP_ALL);
	rep_list(&leaves);
	rep_end();
}

/* The table for people: the tree indented, two spaces a level */
static void table(void)
{
	unsigned i, depth;

	const char *unit = *tb_unit() ? tb_unit() : "SIZE";

	tb_str("PART", 28);
	out_pad(mb.fo, 0, 12 - strlen(unit));
	fo_s(unit);
	fo_s("  SOURCE");
	tb_nl();
	for (i = 0; i < TT.nparts; i++) {
		const struct ml_part *p = &TT.part[i];
		unsigned j;
		for (depth = 0, j = i; j; j = TT.part[j].parent)
			depth++;
		out_pad(mb.fo, 0, 2 * depth);
		tb_str(p->name, 28 - 2 * depth);
		if (p->known)
			tb_ssize(p->bytes, 12);
		else
			tb_str("           -", 12);
		fo_s("  ");
		fo_s(p->known || !p->absent ? p->source : p->absent);
		if (p->unread) {
			fo_s("; at least: processes not read ");
			fo_s(MB_U64(p->unread));
		}
		tb_nl();
	}
}

int mem_ledger_main(int argc, char **argv)
{
	struct optst st = { 0 };
	int id, failed, err;

	cli_init("mem-ledger");
	while ((id = cli_next(&st, argc, argv, opts, usage)) != OPT_END)
		if (id == OPT_ERR)
			return 2;
	if (st.ind < argc)
		return mb_warn(argv[st.ind], "unexpected argument"), cli_usage_error();
	if (cli_root())
		return 1;
	if ((failed = cli_reports()))
		return failed;
	err = meminfo_read(&TT.meminfo, TT.meminfo_text, sizeof TT.meminfo_text);
	if (err)
		return mb_fail_errno("/proc/meminfo", -err);
	mb_warn_diag(&TT.meminfo.diag);
	if (!has(MI_MemTotal))
		return mb_fail("/proc/meminfo", "no MemTotal");
	build();
	if (mb.fmt == FMT_TABLE)
		table();
	else
		report();
	return 0;
}
