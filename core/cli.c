/* Option parsing without getopt(3): musl's getopt prints through stdio,
 * which would pull FILE streams into a binary that has none. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "out.h"
#include "rd.h"
#include "sc.h"

const char *const cli_common_help = TXT(common,
	"\nCommon options:\n"
	"  -o, --format=FMT   table (default), json, kv or prom\n"
	"  -R, --root=DIR     read proc/, sys/, etc/ under DIR (also MEMBOX_ROOT)\n"
	"  -b, -k, -m, -h     table sizes in bytes, KiB (default), MiB, human (1.5M)\n"
	"      --help         this text\n");

static const char *root_arg;

void cli_init(const char *applet)
{
	mb_applet = applet;
	root_arg = getenv("MEMBOX_ROOT");
}

static int bad(const char *what, const char *opt, size_t n)
{
	char b[96];
	size_t w = strlen(what);
	if (n > sizeof b - w - 3)
		n = sizeof b - w - 3;
	memcpy(b, what, w);
	b[w++] = ' ';
	b[w++] = '\'';
	memcpy(b + w, opt, n);
	b[w + n] = '\'';
	b[w + n + 1] = 0;
	mb_warn(b, 0);
	return OPT_ERR;
}

int opt_next(struct optst *st, int argc, char **argv, const struct opt *t)
{
	const char *a;
	const struct opt *o;

	st->arg = 0;
	if (!st->ind)
		st->ind = 1;
	if (st->cl && *st->cl) {
		char c = *st->cl++;
		for (o = t; o->id; o++)
			if (o->shrt == c)
				break;
		if (!o->id)
			return bad("unknown option", st->cl - 1, 1);
		if (o->arg == 1) {
			if (*st->cl)
				st->arg = st->cl;
			else if (st->ind < argc)
				st->arg = argv[st->ind++];
			else
				return bad("option needs a value:", st->cl - 1, 1);
			st->cl = 0;
		}
		return o->id;
	}
	if (st->ind >= argc)
		return OPT_END;
	a = argv[st->ind];
	if (a[0] != '-' || !a[1])
		return OPT_END;
	st->ind++;
	if (a[1] != '-') {
		st->cl = a + 1;
		return opt_next(st, argc, argv, t);
	}
	if (!a[2])
		return OPT_END;
	{
		const char *eq = strchr(a + 2, '=');
		size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		for (o = t; o->id; o++)
			if (o->lng && strlen(o->lng) == n && !memcmp(o->lng, a + 2, n))
				break;
		if (!o->id)
			return bad("unknown option", a, n + 2);
		if (eq && !o->arg)
			return bad("option takes no value:", a, n + 2);
		if (eq)
			st->arg = eq + 1;
		else if (o->arg == 1) {
			if (st->ind >= argc)
				return bad("option needs a value:", a, n + 2);
			st->arg = argv[st->ind++];
		}
		return o->id;
	}
}

int cli_usage_error(const char *usage)
{
	out_s(&out2, usage);
	out_s(&out2, cli_common_help);
	out_flush(&out2);
	return 2;
}

int cli_common(int id, const char *arg, const char *usage)
{
	switch (id) {
	case 'o':
		if ((fmt = fmt_parse(arg)) < 0) {
			fmt = FMT_TABLE;
			bad("unknown format", arg, strlen(arg));
			return -1;
		}
		return 1;
	case 'R':
		root_arg = arg;
		return 1;
	case 'b': case 'k': case 'm': case 'h':
		fmt_unit = id;
		return 1;
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
			return cli_usage_error(usage), OPT_ERR;
		if (id == OPT_END)
			return id;
		k = cli_common(id, st->arg, usage);
		if (k < 0)
			return cli_usage_error(usage), OPT_ERR;
		if (!k)
			return id;
	}
}

int cli_root(void)
{
	int e = rd_set_root(root_arg);
	if (e < 0)
		return mb_fail_errno(root_arg, -e);
	return 0;
}

int cli_fix(const char *opt, const char *arg, int dec, uint64_t *v)
{
	const char *p = arg, *e = arg + strlen(arg);
	uint64_t ip = 0, fp = 0;
	int d = 0, rc = sc_u64(&p, e, &ip);

	if (rc == SC_NONE && *p != '.')
		goto fail;
	if (p < e && *p == '.')
		for (p++; p < e && (unsigned)(*p - '0') <= 9; p++)
			if (d < dec) {
				fp = fp * 10 + (*p - '0');
				d++;
			}
	if (p != e || rc == SC_OVF || (rc == SC_NONE && !d))
		goto fail;
	while (d++ < dec)
		fp *= 10;
	while (dec--)
		ip = sat_mul(ip, 10);
	*v = sat_add(ip, fp);
	return 0;
fail:
	bad("bad number for", opt, strlen(opt));
	return -1;
}

int cli_u64(const char *opt, const char *arg, uint64_t *v)
{
	return cli_fix(opt, arg, 0, v);
}
