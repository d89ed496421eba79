/* smaps-rollup: the scan both views run (smaps_rollup.h), a leaf: /proc
 * and how it hides processes, a process read into a row (with its smaps
 * for the views that read every mapping), what the scan saw and could not
 * keep, and the table helpers both views draw with.  It works on the
 * struct sr_scan and options it is given, never on a view's state. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "applet.h"
#include "cgroup.h"
#include "meminfo.h"
#include "mountinfo.h"
#include "pattern.h"
#include "proc.h"
#include "rd.h"
#include "sc.h"
#include "smaps_rollup.h"

#define SR_NAME(id, name) name,
static const char *const coverage_names[SR_COVERAGE_N] = { SR_COVERAGE(SR_NAME) };
static const char *const overflow_names[SR_OVERFLOW_N] = { SR_OVERFLOW(SR_NAME) };
#undef SR_NAME

/* What the scan saw: json's coverage object (hidepid inside it) and what
 * the mapping views could not keep; prom (the process views) a family of
 * the coverage labelled by kind, and one of hidepid. */
struct scan_report {
	uint64_t coverage[SR_COVERAGE_N];
	const char *hidden;
	struct rep_list kinds, hidepid;
	uint64_t overflow[SR_OVERFLOW_N];
	const struct sr_scan *scan;
	struct scan_row {            /* a row of the two prom lists */
		const char *label;
		uint64_t value;
	} row;
};
/* Coverage kind k is bit SCAN_COVERAGE + k: kinds from SR_DAMAGED on are
 * left out when 0 (kinds_shown) */
enum { SCAN_COVERAGE = 1, SCAN_HIDDEN = SCAN_COVERAGE + SR_COVERAGE_N, SCAN_KINDS, SCAN_HIDEPID,
       SCAN_OVERFLOW };
#define COVERAGE_FIG(id, name) FIG(struct scan_report, coverage[SR_##id], name, REP_COUNT, \
	.flags = REP_NOPROM | (SR_##id >= SR_DAMAGED ? REP_OMIT : 0), .bit = SCAN_COVERAGE + SR_##id),
#define OVERFLOW_FIG(id, name) FIG(struct scan_report, overflow[SR_##id], name, REP_COUNT, .flags = REP_NOPROM),
static const struct rep_fig scan_figs[] = {
	FIG_OBJ("coverage"),
	SR_COVERAGE(COVERAGE_FIG)
	FIG(struct scan_report, hidden, "hidden", REP_STR, .flags = REP_OPTIONAL | REP_NOPROM,
	    .bit = SCAN_HIDDEN),
	FIG_END,
	FIG(struct scan_report, kinds, "kinds", REP_LIST, .flags = REP_NOTREE | REP_OMIT,
	    .bit = SCAN_KINDS),
	FIG(struct scan_report, hidepid, "hidepid", REP_LIST, .flags = REP_NOTREE | REP_OMIT,
	    .bit = SCAN_HIDEPID),
	FIG_OBJ("overflow", .flags = REP_OMIT, .bit = SCAN_OVERFLOW),
	SR_OVERFLOW(OVERFLOW_FIG)
	FIG_END,
};
static const struct rep_fig scan_kind_figs[] = {
	FIG(struct scan_row, label, "kind", REP_STR, .flags = REP_LABEL),
	FIG(struct scan_row, value, "processes", REP_COUNT, .help = "Processes by what the scan found of them (kind), a count."),
};
enum { HIDEPID_OPTION = 1 };
static const struct rep_fig scan_hidepid_figs[] = {
	FIG(struct scan_row, label, "option", REP_STR, .flags = REP_LABEL | REP_OPTIONAL,
	    .bit = HIDEPID_OPTION),
	FIG(struct scan_row, value, "hidden", REP_COUNT, .help = "1 when /proc hides other users' processes (hidepid, option), else 0."),
};


const char *sr_proc_path(char *b, unsigned pid, const char *rest)
{
	char *e = b + 6;

	memcpy(b, "/proc/self", 10);
	e += pid ? u64_str(e, pid) : 4;
	memcpy(e, rest, strlen(rest) + 1);
	return b;
}

/* hidepid=2 (invisible) or 4 (ptraceable) on /proc (its last mount): the
 * kernel does not list other users' processes at all, so nothing can
 * count them; root sees them all. */
static void mounts(struct sr_scan *s, unsigned pid, void (*each)(const struct mnt *m))
{
	struct rd_lines r;
	struct mnt m;
	unsigned long bad = 0;
	char path[48];
	const char *v;
	size_t n;
	int fd, k;
	struct diag d;
	char line[MB_LINE_MAX];

	/* unreadable or damaged, hidepid may be there unseen: said */
	if ((fd = rd_lines_open(&r, sr_proc_path(path, pid, "/mountinfo"), line, sizeof line)) < 0) {
		mb_warn_diag(rd_diag(&d, path, fd, 0));
		return;
	}
	/* s->buf holds a line's strings: the reader's lines are no longer */
	while ((k = mountinfo_next(&r, &m, s->buf, sizeof s->buf, &bad)) > 0) {
		if (!strcmp(m.point, "/proc")) {
			*s->hidden = 0;
			if (opt_value(m.super, "hidepid", &v, &n) && n - 1 < 10 && strchr("24ip", *v) &&
			    !(rd_live() && !geteuid())) {
				memcpy(s->hidden, v - 8, n + 8);
				s->hidden[n + 8] = 0;
			}
		}
		if (each)
			each(&m);
	}
	close(fd);
	mb_warn_diag(mountinfo_diag(&d, path, &r, k, bad));
}

int sr_scan_start(struct sr_scan *s, unsigned pid, void (*each_mount)(const struct mnt *m))
{
	struct diag d;
	int rc = rd_dir_open(&s->proc, "/proc");

	if (rc < 0)
		return mb_fail_errno("/proc", -rc);
	pr_kernel(&s->process, s->proc.fd);
	mounts(s, pid, each_mount);
	rc = meminfo_read(&s->meminfo, s->meminfo_text, sizeof s->meminfo_text);
	mb_warn_diag(&s->meminfo.diag);
	mb_warn_diag(rd_diag(&d, "/proc/meminfo", rc, 0));
	return 0;
}

/* The smaps of the process open to maps, mapping by mapping: fd (-errno:
 * it did not open), its first have bytes in s->buf already (-errno: they
 * could not be read).  0, or -errno. */
static int read_maps(struct sr_scan *s, const struct pr_maps_sink *maps, int fd, long have)
{
	int rc;

	if (fd < 0)
		return fd;
	rc = have < 0 ? (int)have :
	     pr_maps_after(fd, s->buf, sizeof s->buf, have, maps, &s->overflow[SR_LONG_LINES]);
	close(fd);
	return rc;
}

/* EMFILE, ENFILE: the scan stops at pid (sr_scan_end says why) */
static int out_of_fds(struct sr_scan *s, unsigned pid, int err)
{
	if (err != EMFILE && err != ENFILE)
		return 0;
	s->no_fds = err;
	s->no_fds_pid = pid;
	return 1;
}

int sr_read_maps(struct sr_scan *s, unsigned pid, const struct pr_maps_sink *maps)
{
	int rc = pr_open(&s->process, pid);

	if (rc != PR_FOUND) {
		if (rc == PR_NO_FDS)
			out_of_fds(s, pid, s->process.err);
		return -ESRCH;
	}
	if ((rc = read_maps(s, maps, pr_openat(&s->process, "smaps"), 0)) < 0 && !out_of_fds(s, pid, -rc))
		s->maps_error = -rc;
	pr_close(&s->process);
	return rc < 0 ? rc : 0;
}

int sr_scan_end(struct sr_scan *s, const struct pr_pids *it, long last)
{
	char path[48];

	if (it->odd && !s->coverage[SR_ODD_NAMES]) {
		s->coverage[SR_ODD_NAMES] = it->odd;
		mb_warn("/proc/", it->odd_name, MB_WHY, "not a PID as the kernel writes one: skipped (",
		        MB_U64(it->odd), " such names)");
	}
	if (s->no_fds)
		return mb_fail_errno(sr_proc_path(path, s->no_fds_pid, ""), s->no_fds);
	return last < 0 ? mb_fail_errno("/proc", -last) : 0;
}

/* Each rule's glob fed a piece of the command line: 1 when no rule's
 * answer can change any more. */
static int feed_rules(void *ctx, const char *text, size_t n)
{
	struct sr_scan *s = ctx;
	unsigned i;
	int done = 1;

	for (i = 0; i < s->nrules; i++)
		if (!pat_done(&s->rules[i])) {
			pat_feed(&s->rules[i], text, n);
			done &= pat_done(&s->rules[i]);
		}
	return done;
}

/* -c, -C: the first rule whose glob matches the whole command line (NULs
 * as spaces, trailing ones dropped; "[Name]" when empty), streamed
 * through the scan's buffer; else nrules. */
static unsigned category(struct sr_scan *s, const struct sr_options *o)
{
	unsigned i;

	s->nrules = o->nrules;
	for (i = 0; i < o->nrules; i++)
		pat_start(&s->rules[i], o->rules[i].glob);
	/* read whole with the figures: not read again */
	if (s->cur.command && !s->cur.command_cut)
		feed_rules(s, s->cur.command, s->cur.command_len);
	else
		pr_stream_cmdline(&s->process, s->buf, sizeof s->buf, feed_rules, s);
	for (i = 0; i < o->nrules && !pat_end(&s->rules[i]); i++)
		;
	return i;
}

/* -g cgroup: the memory cgroup of the process open (the hierarchy's
 * version's line, or either when none is mounted), folded to its first
 * --cgroup-depth components, into s->cur; none (an unreadable file,
 * no memory line: "(unknown)") leaves it 0. */
static void cgroup_path(struct sr_scan *s, const struct sr_options *o)
{
	struct sr_row *r = &s->cur;
	int cut, found;
	long n = rd_fileat(s->process.dir, "cgroup", s->cgroup, sizeof s->cgroup, &cut);
	const char *p, *slash;
	size_t len, end = 0;
	unsigned k;
	char pid[24], name[48];
	struct diag d;

	if (n <= 0)
		return;
	found = cg_parse(s->cgroup, n, cut, s->cgroup_version, &p, &len);
	/* cut before the memory line ended (the other hierarchies' long
	 * paths before it): said, counted, the process in (unknown) */
	if (cut && !found) {
		pid[u64_str(pid, r->pid)] = 0;
		mb_join(name, "/proc/", pid, "/cgroup");
		mb_warn_diag(rd_diag(&d, name, 0, "longer than SR_CGROUP_READ bytes before its memory line ended (in (unknown))"));
		s->coverage[SR_TRUNCATED]++;
	}
	if (!found || !len || *p != '/')
		return;
	for (k = 0; k < o->cgroup_depth && end < len; k++) {
		slash = memchr(p + end + 1, '/', len - end - 1);
		end = slash ? (size_t)(slash - p) : len;
	}
	r->cgroup = p;
	r->cgroup_len = end ? end : 1;
}

/* The object views read smaps whole, not its rollup too (the kernel would
 * walk the page tables twice): its first bytes say what the rollup would,
 * by pr_read_memory's rules.  Empty, the process has no memory map; gone
 * on the live system, it vanished; unreadable (or not captured), it is a
 * process (whose smaps the view counts as unreadable) when status has its
 * sizes, else it has no memory map either.  n: the first read of smaps
 * (-errno: the open or the read failed). */
static int present(struct pr_proc *p, long n)
{
	const struct pr_status *st = &p->status;

	memset(&p->rollup, 0, sizeof p->rollup);
	p->mem = &p->rollup;
	p->source = PR_SRC_SMAPS;
	if (n == -ENOENT && rd_live())
		return PR_VANISHED;
	if (n == -EMFILE || n == -ENFILE) {
		p->err = -n;
		return PR_NO_FDS;
	}
	if (!n || n == -ESRCH || (n < 0 && !(st->mem.have & ((1u << PR_NSIZE) - 1))))
		return st->kthread || (st->state != 'Z' && !PR_HAS(&st->mem, PR_VmRSS)) ?
		       PR_KERNEL_THREAD : PR_VANISHED;
	return PR_FOUND;
}

/* present()'s verdict on the smaps of the process open; for a process
 * found, smaps stays open (s->maps_fd) with its first s->maps_have bytes
 * in s->buf, where read_maps goes on: each smaps is read once. */
static int maps_present(struct sr_scan *s)
{
	struct pr_proc *p = &s->process;
	int fd = pr_openat(p, "smaps"), found;
	long n = fd < 0 ? fd : read(fd, s->buf, sizeof s->buf);

	if (n < 0 && fd >= 0)
		n = -errno;
	found = present(p, n);
	if (found == PR_FOUND) {
		s->maps_fd = fd;
		s->maps_have = n;
	} else if (fd >= 0) {
		close(fd);
	}
	return found;
}

int sr_read(struct sr_scan *s, const struct sr_options *o, unsigned pid,
            const struct pr_maps_sink *maps)
{
	static const unsigned char counted_as[] = {
		[PR_VANISHED] = SR_VANISHED, [PR_INACCESSIBLE] = SR_INACCESSIBLE,
		[PR_KERNEL_THREAD] = SR_KERNEL_THREADS,
	};
	struct pr_proc *p = &s->process;
	const struct pr_status *st = &p->status;
	struct sr_row *r = &s->cur;
	int found = pr_open(p, pid), off, saturated, rc;
	size_t i;

	if (found == PR_FOUND)
		found = pr_read_status(p, s->buf, sizeof s->buf);
	if (found == PR_FOUND && o->user && st->uid != o->uid) {
		pr_close(p);
		return 0;
	}
	if (found == PR_FOUND && maps) {
		found = maps_present(s);
	} else if (found == PR_FOUND) {
		found = pr_read_memory(p, s->buf, sizeof s->buf);
	}
	if (found == PR_NO_FDS) {
		out_of_fds(s, pid, p->err);
		pr_close(p);
		return 0;
	}
	if (found != PR_FOUND) {
		s->coverage[counted_as[found]]++;
		pr_close(p);
		return 0;
	}
	if (p->bad) {
		char path[48];
		sr_proc_path(path, pid, "/");
		strcat(path, p->bad_file);
		mb_warn_line(path, p->bad, p->source == PR_SRC_STATUS ?
		             "not a \"Key: N kB\" line: status's counters stand in" :
		             "not a \"Key: N kB\" line");
		s->coverage[SR_DAMAGED]++;
	}
	/* status's counters are stored from kb[0] */
	off = p->source == PR_SRC_STATUS ? PR_NROLL : 0;
	memset(r, 0, sizeof *r);
	r->pid = pid;
	r->ppid = st->ppid;
	r->uid = st->uid;
	r->source = p->source;
	r->have = (p->mem->have & ((1u << PR_NSIZE) - 1)) >> off;
	saturated = p->mem->ovf != 0;
	for (i = 0; i < PR_NROLL && i + off < PR_NSIZE; i++) {
		uint64_t kb = p->mem->v[i + off] >> 10;
		r->kb[i] = kb > UINT32_MAX ? UINT32_MAX : kb;
		saturated |= kb > UINT32_MAX;
	}
	s->coverage[SR_SATURATED] += saturated;
	s->coverage[SR_APPROXIMATE] += p->source == PR_SRC_STATUS;
	memcpy(r->name, st->name, sizeof r->name);
	/* through the /proc/PID its figures came from: a PID taken since by
	 * another process cannot lend its command line */
	if (s->read_commands) {
		r->command_len = pr_read_cmdline(p, s->command, sizeof s->command, &r->command_cut);
		r->command = s->command;
	}
	/* the object views have no categories (and the start of smaps is
	 * in s->buf) */
	if (o->group == SR_GROUP_CATEGORY && !maps)
		r->category = category(s, o);
	if (o->group == SR_GROUP_CGROUP)
		cgroup_path(s, o);
	s->coverage[SR_TRUNCATED] += st->name_cut;
	s->coverage[SR_PROCESSES]++;
	if (maps && (rc = read_maps(s, maps, s->maps_fd, s->maps_have)) < 0 && !out_of_fds(s, pid, -rc)) {
		/* it exited since its smaps was found: vanished, not unreadable */
		if (rd_live() && (rc == -ENOENT || rc == -ESRCH)) {
			s->coverage[SR_PROCESSES]--;
			s->coverage[SR_TRUNCATED] -= st->name_cut;
			s->coverage[SR_VANISHED]++;
			pr_close(p);
			return 0;
		}
		s->maps_error = -rc;
	}
	pr_close(p);
	return 1;
}

struct sort_by {
	int (*compare)(unsigned i, unsigned j);
};

static int sort_adapter(const void *a, const void *b, void *by)
{
	unsigned i = *(const unsigned short *)a, j = *(const unsigned short *)b;
	int d = ((const struct sort_by *)by)->compare(i, j);
	return d ? d : SR_SIGN(i, j);
}

void sr_sort(unsigned short *ix, unsigned n, int (*compare)(unsigned i, unsigned j))
{
	struct sort_by by = { compare };
	unsigned i;

	for (i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof *ix, sort_adapter, &by);
}

int sr_compare_names(const char *a, size_t an, const char *b, size_t bn)
{
	int d = memcmp(a, b, an < bn ? an : bn);
	return d ? SR_SIGN(d, 0) : SR_SIGN(an, bn);
}

void sr_cell(uint64_t v, int has, int approx)
{
	/* the size's text first, to right-align it with its '~' */
	char text[32];
	struct out cell = { .fd = -1, .buf = text }, *report = mb.fo;

	if (!has) {
		fo_s("        -");
		return;
	}
	fo_c(' ');
	mb.fo = &cell;
	tb_size(v, 0);
	mb.fo = report;
	out_pad(mb.fo, cell.len + approx, 8);
	if (approx)
		fo_c('~');
	out_mem(mb.fo, text, cell.len);
}

void sr_coverage_line(const struct sr_scan *s)
{
	const char *c;
	unsigned i;

	fo_s("total (sizes in ");
	fo_s(*tb_unit() ? tb_unit() : "IEC units");
	fo_s(")\ncoverage:");
	for (i = 0; i < SR_COVERAGE_N; i++) {
		if (i > SR_DROPPED && !s->coverage[i])
			continue;
		fo_s(i ? ", " : " ");
		out_u64(mb.fo, s->coverage[i]);
		fo_c(' ');
		for (c = coverage_names[i]; *c; c++)
			fo_c(*c == '_' ? ' ' : *c);
	}
	if (*s->hidden) {
		fo_s(", other users' processes hidden (");
		fo_s(s->hidden);
		fo_c(')');
	}
	tb_nl();
}

/* The kinds reported are all before SR_DAMAGED, the others when not 0:
 * with row, the kind reported row-th; without, how many are reported. */
static unsigned kinds_shown(const uint64_t *coverage, const size_t *row)
{
	unsigned k, n = 0;

	for (k = 0; k < SR_COVERAGE_N; k++) {
		if (k >= SR_DAMAGED && !coverage[k])
			continue;
		if (row && n == *row)
			return k;
		n++;
	}
	return n;
}

static const void *scan_kind_row(void *ctx, size_t i, uint64_t *have)
{
	struct scan_report *r = ctx;
	unsigned k = kinds_shown(r->coverage, &i);

	r->row.label = coverage_names[k];
	r->row.value = r->coverage[k];
	*have = REP_ALL;
	return &r->row;
}

static const void *scan_hidepid_row(void *ctx, size_t i, uint64_t *have)
{
	struct scan_report *r = ctx;

	(void)i;
	r->row.label = r->scan->hidden;
	r->row.value = !!*r->scan->hidden;
	*have = *r->scan->hidden ? REP_ALL : 0;
	return &r->row;
}

void sr_report_scan(const struct sr_scan *s, enum sr_view view)
{
	struct scan_report r = {
		.hidden = s->hidden, .scan = s,
		.kinds = { "kinds", "scan", scan_kind_figs, REP_N(scan_kind_figs),
		           kinds_shown(s->coverage, 0), scan_kind_row, 0, &r },
		.hidepid = { "hidepid", "scan", scan_hidepid_figs, REP_N(scan_hidepid_figs), 1,
		             scan_hidepid_row, 0, &r },
	};
	uint64_t have = 0;
	unsigned k;

	for (k = SR_DAMAGED; k < SR_COVERAGE_N; k++)
		if (s->coverage[k])
			have |= (uint64_t)1 << (SCAN_COVERAGE + k);
	memcpy(r.coverage, s->coverage, sizeof r.coverage);
	memcpy(r.overflow, s->overflow, sizeof r.overflow);
	if (*s->hidden)
		have |= (uint64_t)1 << SCAN_HIDDEN;
	if (view < SR_VIEW_MAPS)
		have |= (uint64_t)1 << SCAN_KINDS | (uint64_t)1 << SCAN_HIDEPID;
	if (view != SR_VIEW_PROCESSES)
		have |= (uint64_t)1 << SCAN_OVERFLOW;
	rep_figs("", scan_figs, REP_N(scan_figs), &r, have);
}

void sr_warn_count(uint64_t n, const char *what, const char *why)
{
	mb_warn(MB_U64(n), " ", what, MB_WHY, why);
}

void sr_warn_overflow(const struct sr_scan *s)
{
	int i;

	for (i = 0; i < SR_OVERFLOW_N; i++)
		if (s->overflow[i])
			sr_warn_count(s->overflow[i], overflow_names[i],
			              "beyond a bound of the mapping views (see smaps-rollup(1))");
}

int sr_by_pid(const void *a, const void *b)
{
	const struct sr_shared_swap *x = a, *y = b;
	return SR_SIGN(x->pid, y->pid);
}

uint32_t sr_shared_swap_of(const struct sr_scan *s, unsigned pid)
{
	struct sr_shared_swap key = { pid, 0 };
	const struct sr_shared_swap *r = bsearch(&key, s->shared_swap, s->nshared_swap, sizeof key, sr_by_pid);
	return r ? r->kb : 0;
}
