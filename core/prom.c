/* Prometheus text exposition (prom.h): HELP and TYPE lines, samples with
 * escaped label values. */
#include <string.h>
#include "out.h"
#include "prom.h"
#include "table.h"
#include "text.h"
#include "membox.h"

void p_type(const char *name, const char *type, const char *help)
{
	fo_s("# HELP membox_");
	fo_s(name);
	fo_c(' ');
	fo_s(help);
	fo_s("\n# TYPE membox_");
	fo_s(name);
	fo_c(' ');
	fo_s(type);
	fo_c('\n');
}

void p_start(const char *name)
{
	fo_s("membox_");
	fo_s(name);
	mb.prom_labels = 0;
}

static void lab_key(const char *k)
{
	fo_c(mb.prom_labels++ ? ',' : '{');
	fo_s(k);
	fo_s("=\"");
}

/* Label values: \\, \" and \n are the escapes Prometheus knows; other
 * control characters become '?', invalid UTF-8 U+FFFD. */
void p_lab(const char *k, const char *v, size_t n)
{
	lab_key(k);
	out_esc(mb.fo, v, n, E_PROM);
	fo_c('"');
}

void p_labc(const char *k, const char *v) { p_lab(k, v, strlen(v)); }

void p_labu(const char *k, uint64_t v)
{
	lab_key(k);
	out_u64(mb.fo, v);
	fo_c('"');
}

static void p_num(int neg, uint64_t m, int dec)
{
	if (mb.prom_labels)
		fo_c('}');
	fo_c(' ');
	out_num(mb.fo, neg, m, dec, 0);
	fo_c('\n');
}

void p_u64(uint64_t v) { p_num(0, v, 0); }
void p_i64(int64_t v) { p_num(v < 0, out_mag(v), 0); }
void p_fix(int64_t v, int dec) { p_num(v < 0, out_mag(v), dec); }
