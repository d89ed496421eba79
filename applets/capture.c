/* capture: a tar stream of every file the other applets read, for
 * replaying them elsewhere with -R.  Reads what they read, through the
 * same core calls: each applet runs in a child with its report sent to
 * /dev/null, and rd's tap (rd.h) copies every file it opens into the
 * stream before the applet reads it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "applet.h"
#include "keyset.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "tar.h"
#include "zero.h"
#include "zoneinfo.h"

#ifndef MB_VERSION
#define MB_VERSION "0"
#endif

/* membox --help: the question the applet answers */
const char capture_purpose[] = "save every file the applets read (tar), to analyse later (-R)";

static const char *const usage = "Usage: capture [OPTIONS] > FILE.tar\n\n"
	"Every file the applets read (/proc, /sys, /etc/passwd) as a POSIX tar\n"
	"stream on stdout, for `tar -x -f FILE.tar -C DIR` and `APPLET -R DIR`.\n"
	"The first member, membox-capture, says what was captured and when; the\n"
	"last, membox-capture-end, what changed or went missing meanwhile.\n\n"
	"  -S, --smaps          also every /proc/PID/smaps (smaps-rollup -S, -M, -l)\n"
	"  -p, --pid=PID[,PID]  only these processes\n"
	"  -R, --root=DIR       capture the tree under DIR (also MEMBOX_ROOT)\n"
	"  -O, --output=FILE    the stream replaces FILE once it is whole\n"
	"      --help           this text\n";

enum capture_option { CAPTURE_OPT_SMAPS = 'S', CAPTURE_OPT_PID = 'p' };
static const struct opt opts[] = {
	{ "smaps", 'S', 0, CAPTURE_OPT_SMAPS },
	{ "pid", 'p', 1, CAPTURE_OPT_PID },
	{ 0, 0, 0, 0 }
};

/* The applets a capture runs, each once, in this order.  Their report
 * goes to /dev/null: what counts is what they open.  smaps-rollup's json
 * lists every process (status, smaps_rollup, cmdline) as the plain run
 * does, and -g cgroup -a adds each one's cgroup file and the files of
 * the memory cgroups (json reads each listed cgroup's once).  tmpfs-du -s reads
 * the mounts and Shmem (a capture holds no tmpfs tree to walk);
 * mem-ledger adds the DMA-BUF buffers of /sys/kernel/dmabuf;
 * vmstat-meter -n 0 takes its baseline and stops. */
#define APPLET(c, s) int c##_main(int, char **) __attribute__((weak));
#include "applets.h"
#undef APPLET
enum { RUN_ARGS = 7 };   /* words of a run's command line, at most */
enum { RUN_ZONEINFO, RUN_LOWMEM, RUN_VMSTAT, RUN_TMPFS, RUN_MEM_LEDGER, RUN_SMAPS_ROLLUP, RUN_SMAPS,
       RUN_N };
static const struct run {
	const char *argv[RUN_ARGS];
	int (*main)(int, char **);
} runs[RUN_N] = {
	{ { "zoneinfo-wm", "-o", "json" }, zoneinfo_wm_main },
	{ { "lowmem", "-o", "json" }, lowmem_main },
	{ { "vmstat-meter", "-o", "json", "-n", "0" }, vmstat_meter_main },
	{ { "tmpfs-du", "-s", "-o", "json" }, tmpfs_du_main },
	{ { "mem-ledger", "-o", "json" }, mem_ledger_main },
	{ { "smaps-rollup", "-o", "json", "-g", "cgroup", "-a" }, smaps_rollup_main },
	{ { "smaps-rollup", "-S", "-o", "json" }, smaps_rollup_main },
};

/* What a child tells the parent through a pipe, one record each: a type
 * byte, then a NUL-terminated text (often empty).  REC_ASK alone waits
 * for an answer, one byte on a second pipe: ANSWER_TAKE or ANSWER_TAKEN. */
enum {
	REC_ASK = 'a',        /* text: a name about to be taken; may it? */
	REC_HAVE = 'h',       /* text: a name; is it in the stream? (answer
	                         ANSWER_TAKEN: yes; nothing is marked) */
	REC_FILE = 'f',       /* a member written */
	REC_PROCESS = 'p',    /* a process's status written */
	REC_VANISHED = 'v',   /* text: the PID of a process gone (ENOENT under proc/PID) */
	REC_UNREADABLE = 'u', /* a file not captured for another error */
	REC_CHANGED = 'c',    /* text: a file that changed between its two reads */
	REC_CUT = 'k',        /* text: a file cut at CAP_FILE_MAX bytes */
	REC_WRITE_ERROR = 'w' /* text: the errno of a failed write on stdout */
};
enum { ANSWER_TAKE = 'y', ANSWER_TAKEN = 'n' };

GLOBALS(
	/* what every run uses first, together: the arrays after it are
	 * touched only as far as they fill */
	uint64_t files, processes, vanished, unreadable, changed, unlisted, unchecked, cut;
	int answer_fd;               /* the running child's answer pipe */
	size_t end_len;
	size_t rec_len;
	int write_error;
	int failed;                  /* an applet's run ended by a signal */
	const char *pids[SR_MAX_PIDS];
	int npids;
	unsigned absent[SR_MAX_PIDS];   /* -p PIDs with no process at the start */
	unsigned nabsent;
	char rec[CAP_NAME_MAX + 2];  /* the child's record being read */
	char line[MB_OUT_BUF];       /* one kv line */
	/* the names in the stream, as FNV-1a hashes, in the parent: the
	 * applets run in children that end, and a file one reads again
	 * (smaps-rollup reads status twice, the -S run reads what the run
	 * before read) must not be a second member */
	struct keyset seen;
	uint64_t seen_key[CAP_SEEN / 4 * 3];
	uint32_t seen_slot[CAP_SEEN];
	char end[CAP_END_MAX];       /* membox-capture-end's changed_file lines */
)
#define TT this.capture

/* The tap's state lives outside GLOBALS: it runs while another applet
 * owns the union.  The buffer holds a file read once, or a piece of a
 * large one. */
static char buf[CAP_BUF];
static char head[TAR_HEAD_FOR(CAP_NAME_MAX)];   /* names are no longer than path */
static const char zeros[TAR_BLOCK];
static char path[CAP_NAME_MAX];
static struct { int fd; char name[CAP_DIR_NAME]; } dirs[CAP_DIRS];
static unsigned next_dir;
/* smaps_only: the -S run, which adds each process's smaps (and the
 * mountinfo -M reads beside it) to what the run before took; no_smaps:
 * that run before, when -S follows (where it reads smaps for want of
 * smaps_rollup: a kernel before 4.14, a kernel thread in a captured
 * tree); with_mountinfo: the tap's own open of a process's mountinfo */
static int tar_fd = 1, report_fd = -1, ask_fd = -1, smaps_only, no_smaps, with_mountinfo;
static unsigned long last_gone;
/* the -S run: the last process asked about, and whether the run before
 * took it; with -p, every process's smaps (shared swap is divided among
 * all sharers), taken or not */
static unsigned long known_pid;
static int known_taken, smaps_of_all;
static uint64_t mtime;

/* All of v: 0, or the errno of the write that failed. */
static int write_all(int fd, struct iovec *v, int n)
{
	for (;;) {
		ssize_t k;
		while (n && !v->iov_len)   /* writev of nothing returns 0 */
			v++, n--;
		if (!n)
			return 0;
		k = writev(fd, v, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		for (; n && (size_t)k >= v->iov_len; v++, n--)
			k -= v->iov_len;
		if (n) {
			v->iov_base = (char *)v->iov_base + k;
			v->iov_len -= k;
		}
	}
}

/* A failed write of the stream, said naming -O FILE or standard output;
 * a failure, so that FILE is not replaced (diag.h). */
static int write_error(int err)
{
	return mb_fail_errno(mb.out_path ? mb.out_path : "write error on standard output", err);
}

/* The stream ends at the first failed write: in a child the parent is
 * told and says it; the parent says it and exits 1. */
static void write_failed(int err)
{
	char b[24];

	if (report_fd < 0) {
		write_error(err);
		_exit(mb_exit_status(1));
	}
	b[0] = REC_WRITE_ERROR;
	b[1 + u64_str(b + 1, err)] = 0;
	(void)!write(report_fd, b, strlen(b) + 1);
	_exit(1);
}

/* header (when hl), data, then zeros to the block when pad: one writev */
static void emit3(size_t hl, const char *data, size_t n, size_t pad)
{
	struct iovec v[3] = { { head, hl }, { (char *)data, n }, { (char *)zeros, pad } };
	int err = write_all(tar_fd, v, 3);
	if (err)
		write_failed(err);
}

/* A record to the parent (a child whose parent is gone just ends). */
static void report(char type, const char *text)
{
	struct iovec v[2] = { { &type, 1 }, { (char *)text, strlen(text) + 1 } };
	if (report_fd >= 0 && write_all(report_fd, v, 2))
		_exit(1);
}

/* A member from memory: 0, or -ENAMETOOLONG (tar_head refused the name). */
static int member(const char *name, const char *data, size_t n)
{
	size_t hl = tar_head(head, name, n, 0444, mtime, '0');

	if (!hl)
		return -ENAMETOOLONG;
	emit3(hl, data, n, tar_pad(n));
	return 0;
}

/* Ask the parent about name (REC_ASK or REC_HAVE): its answer.  A parent
 * gone ends the child. */
static char ask(char type, const char *name)
{
	ssize_t k;
	char a;

	report(type, name);
	while ((k = read(ask_fd, &a, 1)) < 0 && errno == EINTR)
		;
	if (k != 1)
		_exit(1);
	return a;
}

/* May the child take name, not yet in the stream?  The parent answers
 * (seen_before). */
static int may_take(const char *name)
{
	return ask(REC_ASK, name) == ANSWER_TAKE;
}

/* The -S run adds to the processes the run before took, never one of its
 * own: a process started since (the -S run's own child among them) would
 * have smaps but no status, a process that vanished on replay. */
static int process_taken(unsigned long pid)
{
	char t[24], d[40];

	if (smaps_of_all)
		return 1;
	if (pid != known_pid) {
		t[u64_str(t, pid)] = 0;
		mb_join(d, "proc/", t, "/");
		known_pid = pid;
		known_taken = ask(REC_HAVE, d) == ANSWER_TAKEN;
	}
	return known_taken;
}

static void vanished(unsigned long pid)
{
	char t[24];

	last_gone = pid;
	t[u64_str(t, pid)] = 0;
	report(REC_VANISHED, t);
}

/* A proc/PID directory the applet opened, as a directory member "proc/PID/":
 * the replay sees the process even when none of its files could be read
 * (its status gone: it vanished, as live).  Mode 0755, not /proc's 0555:
 * GNU tar and BusyBox tar run by a user other than root could not put
 * the process's files into a directory without write permission. */
static void dir_member(const char *name)
{
	char d[CAP_DIR_NAME + 1];
	size_t n = strlen(name), hl;

	if (n + 2 > sizeof d)
		return;
	memcpy(d, name, n);
	d[n] = '/';
	d[n + 1] = 0;
	if (!may_take(d) || !(hl = tar_head(head, d, 0, 0755, mtime, '5')))
		return;
	emit3(hl, 0, 0, 0);
}

static uint64_t fnv1a(uint64_t h, const char *p, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}
#define FNV_START 0xcbf29ce484222325ull

/* A large file's two reads compared: FNV-1a's step over 8-byte words (a
 * GiB hashed bytewise costs seconds), the bytes of a word not yet whole
 * kept, so that any split of the file into pieces gives one sum. */
struct file_sum {
	uint64_t h;
	unsigned n;     /* bytes in part */
	char part[8];
};

static void sum_add(struct file_sum *s, const char *p, size_t n)
{
	uint64_t w;

	while (n) {
		size_t take = 8 - s->n < n ? 8 - s->n : n;
		if (!s->n && n >= 8) {
			memcpy(&w, p, 8);
			take = 8;
		} else {
			memcpy(s->part + s->n, p, take);
			if ((s->n += take) < 8)
				return;
			memcpy(&w, s->part, 8);
			s->n = 0;
		}
		s->h = (s->h ^ w) * 0x100000001b3ull;
		p += take;
		n -= take;
	}
}

static int sum_eq(const struct file_sum *a, const struct file_sum *b)
{
	return a->h == b->h && a->n == b->n && !memcmp(a->part, b->part, a->n);
}

/* Up to n bytes of fd (fewer at its end): how many, or -errno. */
static long fill(int fd, char *b, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, b + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (!k)
			break;
		got += k;
	}
	return got;
}

/* What a capture copies of one file at most: one byte more than a line
 * reader reads (MB_READ_MAX), so that the applets find the member too
 * large just where they found the file too large. */
#define CAP_FILE_MAX ((uint64_t)MB_READ_MAX + 1)
_Static_assert(CAP_BUF < CAP_FILE_MAX, "a file read once is never cut");

/* A file larger than the buffer, read twice (capture(1), NOTES: "Two
 * passes for large files"): measured (size, FNV-1a), then copied; of a
 * file beyond CAP_FILE_MAX bytes, those (*cut set).  Whole lines of
 * the second read are written as they come; a last line without its
 * newline waits until the read is known to equal the first.  When it
 * does not, the member ends with the second read's last whole line and
 * newlines up to the size measured: 1 (changed).  -errno before the
 * header: nothing written. */
static int copy_large(int fd, const char *name, char more, int *cut)
{
	uint64_t size = sizeof buf + 1;
	struct file_sum hash = { FNV_START, 0, { 0 } }, again = hash;
	uint64_t got = 0, written = 0;
	size_t carry = 0, hl;
	long k = 0;
	char c;

	sum_add(&hash, buf, sizeof buf);
	sum_add(&hash, &more, 1);
	while (size < CAP_FILE_MAX &&
	       (k = fill(fd, buf, CAP_FILE_MAX - size < sizeof buf ? CAP_FILE_MAX - size : sizeof buf)) > 0) {
		sum_add(&hash, buf, k);
		size += k;
	}
	if (k >= 0 && size == CAP_FILE_MAX)
		k = fill(fd, &c, 1), *cut = k > 0;
	if (k < 0)
		return k;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	if (!(hl = tar_head(head, name, size, 0444, mtime, '0')))
		return -ENAMETOOLONG;
	while (got < size) {
		size_t want = sizeof buf - carry, cut, have;
		const char *nl;
		if (want > size - got)
			want = size - got;
		if ((k = fill(fd, buf + carry, want)) <= 0)
			break;
		sum_add(&again, buf + carry, k);
		got += k;
		have = carry + k;
		nl = memrchr(buf, '\n', have);
		/* a line longer than the buffer goes as it is */
		cut = nl ? (size_t)(nl - buf + 1) : have == sizeof buf ? have : 0;
		emit3(hl, buf, cut, 0);
		hl = 0;
		written += cut;
		memmove(buf, buf + cut, have - cut);
		carry = have - cut;
	}
	if (got == size && sum_eq(&again, &hash) && (*cut || fill(fd, &c, 1) == 0)) {
		emit3(hl, buf, carry, tar_pad(size));
		return 0;
	}
	memset(buf, '\n', sizeof buf);
	while (written < size) {
		size_t n = size - written < sizeof buf ? size - written : sizeof buf;
		emit3(hl, buf, n, 0);
		hl = 0;
		written += n;
	}
	emit3(0, 0, 0, tar_pad(size));
	return 1;
}

/* One file into the stream, from fd's start, which it leaves at 0 for
 * the applet: 0, 1 (changed between its two reads) or -errno; *cut:
 * only its first CAP_FILE_MAX bytes are in. */
static int copy(int fd, const char *name, int *cut)
{
	long k = fill(fd, buf, sizeof buf), more = 0;
	char c;
	int rc;

	if (k == (long)sizeof buf)
		more = fill(fd, &c, 1);
	if (k < 0 || more < 0)
		return k < 0 ? k : more;
	rc = more ? copy_large(fd, name, c, cut) : member(name, buf, k);
	if (rc >= 0)
		lseek(fd, 0, SEEK_SET);
	return rc;
}

/* proc/PID/...: the PID, else 0 */
static unsigned long proc_pid(const char *p)
{
	const char *s = p + 5, *e;
	uint64_t v;

	if (strncmp(p, "proc/", 5) || !(e = strchr(s, '/')))
		return 0;
	return sc_u64_all(s, e - s, &v) == SC_OK && v ? (unsigned long)v : 0;
}

static const char *dir_name(int fd)
{
	unsigned i;
	for (i = 0; i < CAP_DIRS; i++)
		if (dirs[i].fd == fd && dirs[i].name[0] != '/')
			return dirs[i].name;
	return 0;
}

/* The path under the root of rel opened in dirfd, into path: 0 when the
 * directory is unknown or the path too long. */
static const char *name_of(int dirfd, const char *rel)
{
	const char *d = dirfd == RD_TAP_ROOT ? "" : dir_name(dirfd);

	if (!d || strlen(d) + strlen(rel) + 2 > sizeof path)
		return 0;
	mb_join(path, d, *d && *rel ? "/" : "", rel);
	return path;
}

/* A directory opened: remembered by its fd (a reused fd replaces the
 * closed one), its name "/" when too long to keep. */
static void dir_opened(int dirfd, const char *rel, int fd)
{
	const char *name = name_of(dirfd, rel);
	unsigned i, slot = next_dir;

	for (i = 0; i < CAP_DIRS; i++)
		if (dirs[i].fd == fd)
			slot = i;
	if (slot == next_dir)
		next_dir = (next_dir + 1) % CAP_DIRS;
	dirs[slot].fd = fd;
	if (name && strlen(name) < CAP_DIR_NAME)
		strcpy(dirs[slot].name, name);
	else
		strcpy(dirs[slot].name, "/");
}

/* rd's tap, in a child: every file an applet opens under the root. */
static void tap(int dirfd, const char *rel, int flags, int fd)
{
	const char *name, *base;
	unsigned long pid;
	int rc, is_smaps, cut = 0;

	if (flags & O_DIRECTORY) {
		uint64_t v;
		int is_proc = (name = name_of(dirfd, rel)) && !strncmp(name, "proc/", 5) &&
		              sc_u64_all(name + 5, strlen(name + 5), &v) == SC_OK;
		if (fd >= 0) {
			dir_opened(dirfd, rel, fd);
			if (is_proc && (!smaps_only || process_taken(v)))
				dir_member(name);
		}
		/* proc/PID gone between the listing and its open */
		else if (fd == -ENOENT && rd_live() && is_proc && v != last_gone && (!smaps_only || process_taken(v)))
			vanished(v);
		return;
	}
	if ((flags & O_ACCMODE) != O_RDONLY)
		return;
	if (!(name = name_of(dirfd, rel))) {
		if (fd >= 0)
			report(REC_UNREADABLE, "");
		return;
	}
	/* a capture's own members are made anew, never copied */
	if (!strcmp(name, "membox-capture") || !strcmp(name, "membox-capture-end"))
		return;
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	pid = proc_pid(name);
	is_smaps = pid && !strcmp(base, "smaps");
	/* the -S run adds smaps and its mountinfo; the rest of each process is in */
	if (pid && (smaps_only ? (!is_smaps && !with_mountinfo) || !process_taken(pid) : is_smaps && no_smaps))
		return;
	/* taken once, whichever run or read came first (a name answered
	 * "taken" also when its first open failed: it fails alike again) */
	if (!may_take(name))
		return;
	if (fd == -ENOENT || fd == -ESRCH) {
		/* ESRCH: no memory map (a kernel thread, a zombie), which the
		 * replay sees as the kernel did; ENOENT outside proc/PID: a
		 * file this kernel lacks; in a captured tree: a file the
		 * capture lacks (nothing vanishes there) */
		if (fd == -ENOENT && pid && pid != last_gone && rd_live())
			vanished(pid);
		return;
	}
	rc = fd < 0 ? fd : copy(fd, name, &cut);
	if (rc < 0) {
		report(REC_UNREADABLE, "");
		return;
	}
	report(REC_FILE, "");
	if (pid && !strcmp(base, "status"))
		report(REC_PROCESS, "");
	if (rc > 0)
		report(REC_CHANGED, name);
	if (cut)
		report(REC_CUT, name);
	/* smaps-rollup -M reads the process's mountinfo to tell tmpfs
	 * mappings from files: taken beside its smaps, through the same
	 * directory (the name in path is spent: path is reused) */
	if (is_smaps && smaps_only && dirfd != RD_TAP_ROOT) {
		with_mountinfo = 1;
		if ((fd = rd_openat_root(dirfd, "mountinfo", O_RDONLY | O_CLOEXEC)) >= 0)
			close(fd);
		with_mountinfo = 0;
	}
}

/* One kv line, key='value' escaped as -o kv does, added to b (at len,
 * cap): the new length; len when it does not fit.  n is kept below
 * MB_OUT_BUF / 4 by the callers: the line is never flushed. */
static size_t kv(char *b, size_t cap, size_t len, const char *key, const char *v, size_t n)
{
	struct out o = { .fd = -1, .buf = TT.line };

	out_s(&o, key);
	out_s(&o, "='");
	out_esc(&o, v, n, E_KV);
	out_s(&o, "'\n");
	if (len + o.len > cap)
		return len;
	memcpy(b + len, o.buf, o.len);
	return len + o.len;
}

static size_t kv_s(char *b, size_t cap, size_t len, const char *key, const char *v)
{
	return kv(b, cap, len, key, v, strnlen(v, MB_OUT_BUF / 4 - 64));
}

static size_t kv_u(char *b, size_t cap, size_t len, const char *key, uint64_t v)
{
	char t[24];
	return kv(b, cap, len, key, t, u64_str(t, v));
}

/* The time (rep_clock_ms) as seconds with 3 decimals into t (32 bytes);
 * *sec: its whole seconds, for the tar headers */
static const char *now(char *t, uint64_t *sec)
{
	int64_t ms = rep_clock_ms();

	if (sec)
		*sec = ms / 1000 - (ms % 1000 < 0);
	t[fix_str(t, (uint64_t)ms, 3)] = 0;
	return t;
}

/* membox-capture: what, where and when */
static void manifest(int argc, char **argv)
{
	struct utsname u;
	char t[32], cmd[CAP_CMD_MAX];
	size_t len = 0, cl = 0, cap = sizeof buf;
	/* a capture re-captured keeps its page size */
	uint64_t ps = rd_live() ? getauxval(AT_PAGESZ) : zi_capture_page_size(0);
	int i, cut = 0;

	uname(&u);
	len = kv_s(buf, cap, len, "format", "membox-capture 1");
	len = kv_s(buf, cap, len, "version", MB_VERSION);
	len = kv_s(buf, cap, len, "sysname", u.sysname);
	len = kv_s(buf, cap, len, "nodename", u.nodename);
	len = kv_s(buf, cap, len, "release", u.release);
	len = kv_s(buf, cap, len, "kversion", u.version);
	len = kv_s(buf, cap, len, "machine", u.machine);
	if (ps)
		len = kv_u(buf, cap, len, "page_size", ps);
	len = kv_s(buf, cap, len, "start", now(t, &mtime));
	for (i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (cl + n + 1 > CAP_CMD_MAX) {
			n = CAP_CMD_MAX - cl - (i > 0);
			cut = 1;
		}
		if (i && cl < CAP_CMD_MAX)
			cmd[cl++] = ' ';
		memcpy(cmd + cl, argv[i], n);
		cl += n;
		if (cut)
			break;
	}
	len = kv(buf, cap, len, "command", cmd, cl);
	if (cut)
		len = kv_s(buf, cap, len, "command_cut", "1");
	member("membox-capture", buf, len);
}

/* Whether name is in the stream already; if not, it is from now on
 * (with add; else it stays out).
 * A set of 64-bit FNV-1a hashes: two names of one hash (odds about
 * n^2 / 2^65 for n names: 1 in 8 * 10^9 for 65,536) would lose the
 * second.  Beyond three quarters of CAP_SEEN a new name is taken
 * unchecked. */
static int seen_before(const char *name, int add)
{
	uint64_t h = fnv1a(FNV_START, name, strlen(name));
	int added;

	if (!add)
		return ks_find(&TT.seen, h) != KS_NONE;
	if (ks_add(&TT.seen, h, &added) == KS_NONE) {
		if (!TT.unchecked++)
			mb_warn("more than CAP_SEEN * 3 / 4 (196608) names",
			        "the rest taken without checking for a second copy");
		return 0;
	}
	return !added;
}

/* A record from a child. */
static void record(const char *r)
{
	size_t before = TT.end_len;
	uint64_t v = 0;
	unsigned i;

	switch (r[0]) {
	case REC_ASK:
	case REC_HAVE:
		{
			char a = seen_before(r + 1, r[0] == REC_ASK) ? ANSWER_TAKEN : ANSWER_TAKE;
			/* a child gone reads no answer: its exit is seen below */
			while (write(TT.answer_fd, &a, 1) < 0 && errno == EINTR)
				;
		}
		break;
	case REC_FILE: TT.files++; break;
	case REC_PROCESS: TT.processes++; break;
	case REC_VANISHED:
		/* a PID given that had no process at the start never vanished */
		sc_u64_all(r + 1, strlen(r + 1), &v);
		for (i = 0; i < TT.nabsent && TT.absent[i] != v; i++)
			;
		TT.vanished += i == TT.nabsent;
		break;
	case REC_UNREADABLE: TT.unreadable++; break;
	case REC_CHANGED:
		{
			char key[40];
			mb_join(key, "changed_file_", "", "");
			key[13 + u64_str(key + 13, TT.changed)] = 0;
			TT.changed++;
			/* room is kept for the counts before the list (end) */
			if (strlen(r + 1) < MB_OUT_BUF / 4 - 64)
				TT.end_len = kv_s(TT.end, sizeof TT.end - TAR_BLOCK, TT.end_len, key, r + 1);
			if (TT.end_len == before)
				TT.unlisted++;
		}
		break;
	case REC_CUT:
		TT.cut++;
		mb_warn("/", r + 1, MB_WHY, "larger than MB_READ_MAX (1073741824) bytes, which no applet reads: "
		        "its first 1073741825 bytes captured");
		break;
	case REC_WRITE_ERROR:
		sc_u64_all(r + 1, strlen(r + 1), &v);
		TT.write_error = v ? (int)v : EIO;
		break;
	}
}

static void read_records(int fd, pid_t pid)
{
	char b[512];
	ssize_t k, i;

	while ((k = read(fd, b, sizeof b)) != 0) {
		if (k < 0) {
			/* a stop signal under -O: the run ends now, FILE stays */
			if (errno == EINTR && mb.stop)
				kill(pid, SIGKILL);
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < k; i++) {
			if (TT.rec_len < sizeof TT.rec - 1)
				TT.rec[TT.rec_len++] = b[i];
			if (!b[i]) {
				TT.rec[TT.rec_len - 1] = 0;
				if (TT.rec_len > 1 || TT.rec[0])
					record(TT.rec);
				TT.rec_len = 0;
			}
		}
	}
}

/* a child's exit status when it could not set itself up */
#define CHILD_SETUP_FAILED 125

/* Run r's applet in a child, with the tap on, its report and messages
 * to /dev/null, taking of proc/PID only smaps (only) or all but smaps
 * (none): 0, or 1 when the capture must stop (a write error, said). */
static int run(const struct run *r, int only, int none)
{
	char *argv[RUN_ARGS + 2 + 2 * SR_MAX_PIDS + 1];
	int argc = 0, p[2], answer[2], null, status, i;
	pid_t pid;

	for (i = 0; i < RUN_ARGS && r->argv[i]; i++)
		argv[argc++] = (char *)r->argv[i];
	if (!rd_live()) {
		argv[argc++] = "-R";
		argv[argc++] = (char *)rd_root();
	}
	if (r->main == smaps_rollup_main)
		for (i = 0; i < TT.npids; i++) {
			argv[argc++] = "-p";
			argv[argc++] = (char *)TT.pids[i];
		}
	argv[argc] = 0;
	out_flush(&out2);
	if (pipe2(p, O_CLOEXEC) < 0)
		return mb_fail_errno("pipe", errno);
	if (pipe2(answer, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return mb_fail_errno("pipe", errno);
	}
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		close(answer[0]);
		close(answer[1]);
		return mb_fail_errno("fork", errno);
	}
	if (!pid) {
		close(p[0]);
		close(answer[1]);
		report_fd = p[1];
		ask_fd = answer[0];
		tar_fd = fcntl(tar_fd, F_DUPFD_CLOEXEC, 3);
		/* the applet's report goes to /dev/null, never to -O FILE */
		mb.out_path = 0;
		out1.fd = 1;
		null = rd_openat(AT_FDCWD, "/dev/null", O_RDWR);
		if (tar_fd < 0 || null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(CHILD_SETUP_FAILED);
		smaps_only = only;
		no_smaps = none;
		smaps_of_all = TT.npids > 0;
		/* the applet's state starts zeroed, as after exec, while the
		 * union still holds what capture wrote there (the names taken,
		 * CAP_SEEN) */
		mb_zero(&TT, sizeof TT);
		rd_set_tap(tap);
		r->main(argc, argv);
		_exit(0);
	}
	close(p[1]);
	close(answer[0]);
	TT.answer_fd = answer[1];
	read_records(p[0], pid);
	close(p[0]);
	close(answer[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
		TT.write_error = EPIPE;
	if (TT.write_error) {
		return write_error(TT.write_error);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_SETUP_FAILED) {
		mb_warn(r->argv[0], "not run: no descriptor for /dev/null or stdout");
		TT.failed = 1;
	} else if (WIFSIGNALED(status) && !mb.stop) {   /* not our SIGKILL */
		mb_warn(r->argv[0], "killed by signal ", MB_U64(WTERMSIG(status)));
		TT.failed = 1;
	}
	return 0;
}

/* membox-capture-end: the counts, known only now, and the changed files */
static void end(void)
{
	char t[32];
	size_t len = 0, cap = sizeof buf;

	len = kv_s(buf, cap, len, "end", now(t, 0));
	len = kv_u(buf, cap, len, "files", TT.files);
	len = kv_u(buf, cap, len, "processes", TT.processes);
	len = kv_u(buf, cap, len, "vanished", TT.vanished);
	len = kv_u(buf, cap, len, "unreadable", TT.unreadable);
	len = kv_u(buf, cap, len, "changed", TT.changed);
	if (TT.unlisted)
		len = kv_u(buf, cap, len, "changed_unlisted", TT.unlisted);
	if (TT.unchecked)
		len = kv_u(buf, cap, len, "unchecked", TT.unchecked);
	if (TT.cut)
		len = kv_u(buf, cap, len, "cut", TT.cut);
	/* buf holds the counts (less than a block), then the list */
	_Static_assert(CAP_END_MAX <= CAP_BUF, "membox-capture-end is built in the buffer");
	memcpy(buf + len, TT.end, TT.end_len);
	member("membox-capture-end", buf, len + TT.end_len);
}

/* The -p PIDs as smaps-rollup takes them, before any run: a thread's TID
 * becomes its process (its /proc/TID, not listed but there, would be a
 * second process on replay); a PID without a process is said and
 * remembered, its absence no vanishing.  Each one left is put as text
 * into text for the runs' -p.  How many processes there are. */
static unsigned given_processes(unsigned *pids, unsigned *n, char (*text)[12])
{
	struct pr_proc p;
	char b[SR_READ_MAX];
	unsigned i, j, tgid, found = 0;
	int r;

	for (i = 0; i < *n; i++) {
		memset(&p, 0, sizeof p);
		if ((r = pr_open(&p, pids[i])) == PR_VANISHED) {
			mb_warn("PID ", MB_U64(pids[i]), MB_WHY, "no such process");
			TT.absent[TT.nabsent++] = pids[i];
			continue;
		}
		found++;
		if (r != PR_FOUND)
			continue;
		tgid = pr_read_status(&p, b, sizeof b) == PR_FOUND ? p.status.tgid : 0;
		pr_close(&p);
		if (!tgid || tgid == pids[i] || p.status.pid != pids[i])
			continue;
		mb_warn("PID ", MB_U64(pids[i]), MB_WHY, "a thread of process ", MB_U64(tgid),
		        ": captured as ", MB_U64(tgid));
		for (j = 0; j < *n && pids[j] != tgid; j++)
			;
		if (j == *n) {
			pids[i] = tgid;
			continue;
		}
		found--;   /* its process is there already */
		for (j = i--; j + 1 < *n; j++)
			pids[j] = pids[j + 1];
		(*n)--;
	}
	for (i = 0; i < *n; i++) {
		text[i][u64_str(text[i], pids[i])] = 0;
		TT.pids[i] = text[i];
	}
	TT.npids = *n;
	return found;
}

int capture_main(int argc, char **argv)
{
	struct optst st = { 0 };
	unsigned seen[SR_MAX_PIDS], nseen = 0, found = 0;
	char pid_text[SR_MAX_PIDS][12];
	int id, smaps = 0, i;

	cli_init("capture");
	while ((id = opt_next(&st, argc, argv, opts)) != OPT_END) {
		switch (id) {
		case CAPTURE_OPT_SMAPS:
			smaps = 1;
			break;
		case CAPTURE_OPT_PID:
			if (cli_pids((char *)st.arg, seen, &nseen, SR_MAX_PIDS))
				return cli_usage_error();
			break;
		case OPT_HELP:
			out_s(&out1, usage);
			return 0;
		case 'R':   /* an empty DIR is said by cli_common */
		case OPT_OUTPUT:   /* -O FILE: the stream replaces FILE once whole */
			if (cli_common(id, st.arg, usage) > 0)
				break;
			return cli_usage_error();
		default:   /* -o, -b, ...: capture writes tar */
			if (id != OPT_ERR) {
				char o[3] = { '-', (char)id, 0 };
				mb_warn(o, "not an option of capture");
			}
			return cli_usage_error();
		}
	}
	if (st.ind < argc) {
		mb_warn(argv[st.ind], "capture takes no operands");
		return cli_usage_error();
	}
	if (!mb.out_path && isatty(1)) {
		mb_warn("standard output is a terminal", "refusing to write a tar stream to it");
		return 2;
	}
	if (cli_root())
		return 1;
	if (nseen)
		found = given_processes(seen, &nseen, pid_text);
	/* -O FILE: a stop signal leaves FILE as it was, never a cut stream */
	if (mb.out_path) {
		mb_catch_stop();
		if (out_begin(&out1))
			return 1;
		tar_fd = out1.fd;
	}
	/* a closed pipe is an error to say (EPIPE), not a silent death */
	signal(SIGPIPE, SIG_IGN);
	TT.seen = (struct keyset){ .key = TT.seen_key, .slot = TT.seen_slot,
	                           .max = CAP_SEEN / 4 * 3, .max_slots = CAP_SEEN };
	for (i = 0; i < CAP_DIRS; i++)
		dirs[i].fd = -1;
	manifest(argc, argv);
	for (i = 0; i < RUN_N; i++) {
		if (!runs[i].main || (i == RUN_SMAPS && !smaps))
			continue;
		if (run(&runs[i], i == RUN_SMAPS, i == RUN_SMAPS_ROLLUP && smaps) || mb.stop)
			return 1;
	}
	end();
	emit3(0, zeros, TAR_BLOCK, TAR_BLOCK);   /* the end of the archive */
	mb_warn(MB_U64(TT.files), " files, ", MB_U64(TT.processes), " processes, ",
	        MB_U64(TT.vanished), " vanished, ", MB_U64(TT.unreadable), " unreadable, ",
	        MB_U64(TT.changed), " changed", MB_WHY);
	/* as smaps-rollup -p: none of the processes asked for */
	return TT.failed || (nseen && !found);
}
