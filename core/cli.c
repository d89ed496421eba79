/* Option parsing without getopt(3): musl's getopt prints through stdio,
 * which would pull FILE streams into a binary that has none. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "msg.h"
#include "out.h"
#include "table.h"
#include "text.h"
#include "rd.h"
#include "run.h"
#include "sc.h"
#include "membox.h"

const char *const cli_common_help = "\nCommon options:\n"
	"  -o, --format=FMT   table (default), json, kv or prom\n"
	"  -R, --root=DIR     read proc/, sys/, etc/ under DIR (also MEMBOX_ROOT)\n"
	"  -b, -k, -m, -h     table sizes in bytes, KiB (default), MiB, human (1.5M)\n"
	"  -O, --output=FILE  the report replaces FILE whole (a temporary file\n"
	"                     renamed); '-': standard output; a device, FIFO,\n"
	"                     /dev/stdout or file of /proc, /sys, /dev: appended\n"
	"      --help         this text\n";

void cli_init(const char *applet)
{
	mb.applet = applet;
	mb.root_arg = getenv("MEMBOX_ROOT");
	if (mb.root_arg && !*mb.root_arg)   /* MEMBOX_ROOT= is unset, as in sh */
		mb.root_arg = 0;
}

/* "WHAT 'OPT'", WHAT the text B_x of these */
enum { B_UNKNOWN, B_NEEDS, B_TAKES };
static const char *const bads[] = { "unknown option", "option needs a value:",
	"option takes no value:" };

static int bad(int why, const char *opt, size_t n)
{
	char o[96];
	/* the whole message within 96 bytes, as the option that made it may
	 * be long */
	size_t room = sizeof o - strlen(bads[why]) - 3;

	mb_warn(bads[why], " '", mb_cut(o, opt, n < room ? n : room), "'", MB_WHY);
	return OPT_ERR;
}

/* The options every applet takes, looked for after the applet's own */
static const struct opt common[] = {
	{ "format", 'o', 1, 'o' }, { "root", 'R', 1, 'R' }, { "bytes", 'b', 0, 'b' },
	{ "kibibytes", 'k', 0, 'k' }, { "mebibytes", 'm', 0, 'm' },
	{ "human", 'h', 0, 'h' }, { "output", 'O', 1, OPT_OUTPUT },
	{ "help", 0, 0, OPT_HELP }, { 0, 0, 0, 0 }
};

/* The option of t, else of common, named -c (s 0) or --s (n bytes); 0 when none */
static const struct opt *find(const struct opt *t, char c, const char *s, size_t n)
{
	int pass;

	for (pass = 0; pass < 2; pass++, t = common)
		for (; t->id; t++)
			if (s ? t->lng && strlen(t->lng) == n && !memcmp(t->lng, s, n) : t->shrt == c)
				return t;
	return 0;
}

/* argv[from] moved back to argv[to], those between one place on */
static void move_back(char **argv, int from, int to)
{
	char *a = argv[from];

	memmove(argv + to + 1, argv + to, (from - to) * sizeof *argv);
	argv[to] = a;
}

/* The next argument that is an option, at st->ind; or 0 at the end of the
 * options, the operands then from st->ind.  The operands passed over wait
 * in argv[first_operand ..) until the options read after them (with their
 * values) are moved before them: the operands stay in their order, after
 * every option, as GNU getopt leaves them. */
static const char *next_option(struct optst *st, int argc, char **argv)
{
	const char *a = 0;

	for (; st->operands && st->first_operand + st->operands < st->ind; st->first_operand++)
		move_back(argv, st->first_operand + st->operands, st->first_operand);
	for (; st->ind < argc; st->ind++) {
		a = argv[st->ind];
		if ((a[0] == '-' && a[1]) || st->in_order)
			break;
		if (!st->operands++)   /* "-" is an operand (standard input) */
			st->first_operand = st->ind;
	}
	if (st->ind < argc && !strcmp(a, "--")) {   /* the end of the options: dropped */
		move_back(argv, st->ind, st->ind - st->operands);
		st->ind++;
		a = 0;
	} else if (st->ind == argc || a[0] != '-' || !a[1]) {
		a = 0;
	}
	if (!a) {
		st->ind -= st->operands;
		st->operands = 0;
	}
	return a;
}

int opt_next(struct optst *st, int argc, char **argv, const struct opt *t)
{
	const char *a, *name = 0, *val = 0;
	const struct opt *o = 0;
	size_t n = 1;

	st->arg = 0;
	if (!st->ind)
		st->ind = 1;
	if (!st->cl || !*st->cl) {
		if (!(a = next_option(st, argc, argv)))
			return OPT_END;
		st->ind++;
		if (a[1] != '-') {
			st->cl = a + 1;
		} else {   /* --name or --name=value; name stays set: a long option */
			const char *eq = strchr(a + 2, '=');
			n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find(t, 0, a + 2, n);
			name = a;
			n += 2;
			val = eq ? eq + 1 : 0;
			if (o && val && !o->arg)
				return bad(B_TAKES, name, n);
		}
	}
	if (!name) {   /* the next of a cluster of short options; -cVALUE */
		name = st->cl++;
		o = find(t, *name, 0, 0);
		if (o && o->arg == 1) {
			val = *st->cl ? st->cl : 0;
			st->cl = 0;
		}
	}
	if (!o)
		return bad(B_UNKNOWN, name, n);
	if (o->arg == 1 || val) {
		if (!val && st->ind >= argc)
			return bad(B_NEEDS, name, n);
		st->arg = val ? val : argv[st->ind++];
	}
	return o->id;
}

int cli_usage_error(void)
{
	out_s(&out2, "Try '");
	out_s(&out2, mb.applet);
	out_s(&out2, " --help'.\n");
	out_flush(&out2);
	return 2;
}

int cli_pick(const char *opt, const char *arg, const char *const *names, int n)
{
	/* "OPT 'ARG': one of A, B, C": ARG cut at 40 bytes, a name a piece
	 * and ", " between */
	const char *v[6 + 2 * CLI_PICK_MAX] = { opt, " '", 0, "'", MB_WHY, "one of " };
	char a[41];
	int i, k = 6;

	for (i = 0; i < n; i++)
		if (!strcasecmp(arg, names[i]))
			return i;
	v[2] = mb_cut(a, arg, 40);
	for (i = 0; i < n && i < CLI_PICK_MAX; i++) {
		v[k++] = names[i];
		v[k++] = ", ";
	}
	v[k - 1] = 0;
	mb_warnv(v);
	return -1;
}

int cli_common(int id, const char *arg, const char *usage)
{
	int k;

	switch (id) {
	case 'o':
		if ((k = cli_pick("-o", arg, fmt_names, FMT_N)) < 0)
			return -1;
		mb.fmt = k;
		return 1;
	case 'R':
		if (!*arg)   /* "" would be read as the live system */
			return bad(B_NEEDS, "-R", 2), -1;
		mb.root_arg = arg;
		return 1;
	case 'b': case 'k': case 'm': case 'h':
		mb.fmt_unit = id;
		return 1;
	case OPT_OUTPUT:
		if (!*arg)
			return bad(B_NEEDS, "-O", 2), -1;
		mb.out_path = strcmp(arg, "-") ? arg : 0;
		return 1;
	case OPT_EVERY:
		/* 1 ms to 2^32 - 1 s: the deadlines in microseconds never wrap */
		if (cli_fix("--every", arg, 3, 1, 4294967295000, &mb.every_us))
			return -1;
		mb.every_us *= 1000;
		return 1;
	case OPT_COUNT:
		return cli_u64("--count", arg, 1, UINT64_MAX, &mb.count) ? -1 : 1;
	case OPT_HELP:
		out_s(&out1, usage);
		out_s(&out1, cli_common_help);
		exit(mb_exit_status(0));
	}
	return 0;
}

int cli_next(struct optst *st, int argc, char **argv, const struct opt *t, const char *usage)
{
	for (;;) {
		int id = opt_next(st, argc, argv, t), k;
		if (id == OPT_ERR)
			return cli_usage_error(), OPT_ERR;
		if (id == OPT_END)
			return id;
		k = cli_common(id, st->arg, usage);
		if (k < 0)
			return cli_usage_error(), OPT_ERR;
		if (!k)
			return id;
	}
}

int cli_root(void)
{
	int e = rd_set_root(mb.root_arg);
	if (e < 0)
		return mb_fail_errno(mb.root_arg, -e);
	return 0;
}

/* An option's number, strictly: digits, and with dec > 0 one '.' and
 * decimals (".5" and "5." too; decimals beyond dec are cut, the option's
 * precision), as an integer times 10^dec.  0, or -1 when it is none (a
 * sign, a fraction of an integer, another byte) or beyond 2^64 - 1. */
static int option_number(const char *p, int dec, uint64_t *v)
{
	uint64_t n = 0;
	int digits = 0, d = -1, k;

	for (; *p; p++) {
		if (*p == '.' && dec && d < 0) {
			d = 0;
			continue;
		}
		if (*p < '0' || *p > '9')
			return -1;
		digits++;
		if (d >= dec)
			continue;   /* beyond the precision */
		if (d >= 0)
			d++;
		if (n > (UINT64_MAX - (*p - '0')) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	for (k = d < 0 ? 0 : d; k < dec; k++) {
		if (n > UINT64_MAX / 10)
			return -1;
		n *= 10;
	}
	*v = n;
	return digits ? 0 : -1;
}

/* The text of v / 10^dec without trailing zeros after the point: 0.01 */
static void range_end(char *b, uint64_t v, int dec)
{
	int n = fix_str(b, v, dec);

	while (dec && b[n - 1] == '0')
		n--;
	if (b[n - 1] == '.')
		n--;
	b[n] = 0;
}

int cli_fix(const char *opt, const char *arg, int dec, uint64_t min, uint64_t max, uint64_t *v)
{
	char a[41], lo[32], hi[32];

	if (!option_number(arg, dec, v) && *v >= min && *v <= max)
		return 0;
	/* OPT 'ARG': not a whole number from MIN to MAX (ARG cut at 40 bytes) */
	range_end(lo, min, dec);
	range_end(hi, max, dec);
	mb_warn(opt, " '", mb_cut(a, arg, 40), "'", MB_WHY,
	        dec ? "not a number from " : "not a whole number from ", lo, " to ", hi);
	return -1;
}

int cli_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	return cli_fix(opt, arg, 0, min, max, v);
}

int cli_reports(void)
{
	if (mb.count && !mb.every_us)
		return mb_warn("--count", "only with --every"), cli_usage_error();
	return run_reports(mb.every_us, mb.count);
}

int cli_pids(char *arg, unsigned *pids, unsigned *n, unsigned max)
{
	char *comma;
	uint64_t v;
	unsigned i;

	for (;;) {
		/* each PID an option number of its own: its end a NUL for a moment */
		if ((comma = strchr(arg, ',')))
			*comma = 0;
		if (cli_u64("-p", arg, 1, 0x7fffffff, &v))
			return -1;
		if (comma)
			*comma = ',';
		for (i = 0; i < *n && pids[i] != v; i++)
			;
		if (i == *n && *n == max)
			return mb_warn("-p", "more than SR_MAX_PIDS (64) PIDs"), -1;
		if (i == *n)
			pids[(*n)++] = v;
		if (!comma)
			return 0;
		arg = comma + 1;
	}
}

/* The optimal string alignment distance (Levenshtein's, with two
 * neighbours swapped one edit: "pgfualt" is 1 from "pgfault"), a row per
 * letter of the word over the letters of the name, the last three kept. */
static unsigned distance(const char *word, size_t wl, const char *name, size_t len)
{
	unsigned char row[3][CLI_NEAR_LEN + 1];
	size_t i, j;

	for (j = 0; j <= len; j++)
		row[0][j] = j;
	for (i = 1; i <= wl; i++) {
		unsigned char *cur = row[i % 3], *up = row[(i - 1) % 3], *up2 = row[(i + 1) % 3];
		cur[0] = i;
		for (j = 1; j <= len; j++) {
			unsigned d = up[j - 1] + (word[i - 1] != name[j - 1]);
			if (up[j] + 1u < d)
				d = up[j] + 1u;
			if (cur[j - 1] + 1u < d)
				d = cur[j - 1] + 1u;
			if (i > 1 && j > 1 && word[i - 1] == name[j - 2] && word[i - 2] == name[j - 1] &&
			    up2[j - 2] + 1u < d)
				d = up2[j - 2] + 1u;
			cur[j] = d;
		}
	}
	return row[wl % 3][len];
}

void cli_near_offer(struct cli_near *near, const char *name, size_t len)
{
	size_t wl = strlen(near->word);
	unsigned limit = wl / 3 < 1 ? 1 : wl / 3 > 3 ? 3 : wl / 3, d, k;

	if (len > CLI_NEAR_LEN || wl > CLI_NEAR_LEN || len + limit < wl || wl + limit < len)
		return;
	d = distance(near->word, wl, name, len);
	if (d > limit)
		return;
	for (k = 0; k < near->n && near->dist[k] <= d; k++)
		;
	if (k == CLI_NEAR_MAX)
		return;
	near->n += near->n < CLI_NEAR_MAX;
	memmove(near->dist + k + 1, near->dist + k, (near->n - 1 - k) * sizeof *near->dist);
	memmove(near->name[k + 1], near->name[k], (near->n - 1 - k) * sizeof *near->name);
	near->dist[k] = d;
	memcpy(near->name[k], name, len);
	near->name[k][len] = 0;
}
