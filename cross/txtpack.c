/* txtpack: a host tool of the build.  Collects every TXT(name, "text")
 * of the given C sources and writes DIR/txtpack.h: a TXT_name id for each
 * text and, under TXT_DATA, the texts compressed for core/txt.c to unpack.
 * As busybox does with its usage texts: help is read rarely and is a tenth
 * of the binary.
 *
 * TXT_name is the address of the text in txt_raw, the buffer the texts are
 * unpacked to; a text may hold NULs (a table of strings).
 * The format (core/txt.c reads it): the texts, each ended by a NUL, as one
 * bit stream, most significant bit first, of
 *   0 + 7 bits                  a literal byte (the texts are ASCII)
 *   1 + gamma(len - 1) + 12 bits  a copy of len bytes from offset+1 back,
 * where gamma(n) is n's bit length minus one in zeros, then n in binary.
 * The parse is optimal for this cost model (dynamic programming from the
 * end), so the output is the smallest the format allows.
 *   txtpack DIR FILE.c...     (exit 1 with a message on any error) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXRAW  65536
#define MAXTXT  1024
#define WINDOW  4096        /* 12-bit offsets */
#define MAXLEN  4096

static unsigned char raw[MAXRAW];
static size_t nraw;
static char names[MAXTXT][64];
static size_t start[MAXTXT];    /* offset of each text in raw */
static int ntxt;

static void die(const char *f, const char *why)
{
	fprintf(stderr, "txtpack: %s: %s\n", f, why);
	exit(1);
}

/* One string literal at *pp (after the opening quote), appended to raw. */
static const char *literal(const char *f, const char *p)
{
	while (*p != '"') {
		int c = (unsigned char)*p++;
		if (!c || c == '\n')
			die(f, "unterminated string in TXT()");
		if (c == '\\') {
			switch (c = *p++) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case '\\': case '"': case '\'': break;
			default:
				if (c < '0' || c > '7')
					die(f, "unsupported escape in TXT()");
				c -= '0';
				for (int k = 1; k < 3 && *p >= '0' && *p <= '7'; k++)
					c = c * 8 + *p++ - '0';
			}
		}
		if (c >= 0x80)
			die(f, "TXT() texts must be ASCII");
		if (nraw >= MAXRAW - 1)
			die(f, "texts too large");
		raw[nraw++] = c;
	}
	return p + 1;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
}

/* The texts of one TX(...) or TXT(name, ...) at p (after the paren). */
static const char *text(const char *f, const char *p)
{
	p = skip_space(p);
	start[ntxt] = nraw;
	if (*p != '"')
		die(f, "TXT() and TX() texts must be string literals");
	while (*p == '"')
		p = skip_space(literal(f, p + 1));
	if (*p != ')')
		die(f, "TXT() and TX() texts must be string literals only");
	if (nraw == start[ntxt])
		die(f, "empty TXT() or TX() text");
	raw[nraw++] = 0;
	return p;
}

static int ident(int c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static void scan(const char *f)
{
	static char src[1 << 20];
	char unit[sizeof names[0]];
	FILE *in = fopen(f, "r");
	size_t n, k;
	int ntx = 0;
	const char *p;

	if (!in)
		die(f, strerror(errno));
	n = fread(src, 1, sizeof src - 1, in);
	fclose(in);
	if (n == sizeof src - 1)
		die(f, "source too large");
	src[n] = 0;
	/* TX() texts are named UNIT_N: the file's path with '_' for '/' and
	 * without ".c", and N counting them in the file, as __COUNTER__ does
	 * in txt.h (nothing else in membox uses __COUNTER__). */
	for (k = 0; f[k] && strcmp(f + k, ".c"); k++)
		if (k < sizeof unit - 8)
			unit[k] = f[k] == '/' || f[k] == '-' ? '_' : f[k];
		else
			die(f, "path too long");
	unit[k] = 0;
	for (p = src; *p; p++) {
		size_t l = 0;
		if (p > src && ident(p[-1]))
			continue;
		if (!strncmp(p, "TX(", 3)) {
			if (ntxt == MAXTXT)
				die(f, "too many texts");
			if (snprintf(names[ntxt], sizeof names[0], "%s_%d", unit, ntx++) >= (int)sizeof names[0])
				die(f, "path too long");
			p = text(f, p + 3);
			ntxt++;
			continue;
		}
		if (strncmp(p, "TXT(", 4))
			continue;
		p = skip_space(p + 4);
		if (ntxt == MAXTXT)
			die(f, "too many texts");
		while (ident(*p))
			if (l < sizeof names[0] - 1)
				names[ntxt][l++] = *p++;
			else
				die(f, "TXT() name too long");
		names[ntxt][l] = 0;
		if (!l || *(p = skip_space(p)) != ',')
			die(f, "TXT(name, \"text\") expected");
		for (int i = 0; i < ntxt; i++)
			if (!strcmp(names[i], names[ntxt]))
				die(f, "TXT() name used twice");
		p = text(f, p + 1);
		ntxt++;
	}
}

static unsigned bitlen(unsigned v)
{
	unsigned n = 0;
	while (v)
		n++, v >>= 1;
	return n;
}

static unsigned gamma_bits(unsigned v) { return 2 * bitlen(v) - 1; }

static unsigned char packed[MAXRAW];
static size_t npacked, nbits;

static void put(unsigned v, unsigned n)
{
	while (n--) {
		if (v >> n & 1)
			packed[nbits / 8] |= 0x80 >> (nbits % 8);
		nbits++;
	}
}

static void compress(void)
{
	static unsigned long cost[MAXRAW + 1];
	static unsigned mlen[MAXRAW + 1], moff[MAXRAW + 1];
	size_t i;

	cost[nraw] = 0;
	for (i = nraw; i-- > 0; ) {
		size_t j = i > WINDOW ? i - WINDOW : 0;
		cost[i] = 8 + cost[i + 1];
		mlen[i] = 0;
		for (; j < i; j++) {
			size_t k = 0;
			while (i + k < nraw && k < MAXLEN && raw[j + k] == raw[i + k])
				k++;
			for (size_t l = 2; l <= k; l++) {
				unsigned long c = 1 + gamma_bits(l - 1) + 12 + cost[i + l];
				if (c < cost[i]) {
					cost[i] = c;
					mlen[i] = l;
					moff[i] = i - j;
				}
			}
		}
	}
	for (i = 0; i < nraw; ) {
		if (!mlen[i]) {
			put(0, 1);
			put(raw[i], 7);
			i++;
		} else {
			unsigned g = mlen[i] - 1;
			put(1, 1);
			put(0, bitlen(g) - 1);
			put(g, bitlen(g));
			put(moff[i] - 1, 12);
			i += mlen[i];
		}
	}
	npacked = (nbits + 7) / 8;
}

int main(int argc, char **argv)
{
	char path[4096];
	FILE *o;
	int i;

	if (argc < 3)
		die("usage", "txtpack DIR FILE.c...");
	for (i = 2; i < argc; i++)
		scan(argv[i]);
	if (!raw[0])
		die(argv[2], "the first text starts with NUL (txt() tells unpacked texts by it)");
	compress();
	snprintf(path, sizeof path, "%s/txtpack.h", argv[1]);
	if (!(o = fopen(path, "w")))
		die(path, strerror(errno));
	fprintf(o, "/* generated by cross/txtpack: %zu bytes of text in %zu */\n", nraw, npacked);
	fprintf(o, "#define TXT_RAW %zu\n", nraw);
	fprintf(o, "extern char txt_raw[TXT_RAW];\n");
	for (i = 0; i < ntxt; i++)
		fprintf(o, "#define TXT_%s (txt_raw + %zu)\n", names[i], start[i]);
	fprintf(o, "#ifdef TXT_DATA\nstatic const unsigned char txt_pack[%zu] = {", npacked);
	for (size_t k = 0; k < npacked; k++)
		fprintf(o, "%s%u,", k % 20 ? "" : "\n", packed[k]);
	fprintf(o, "\n};\n#endif\n");
	if (fclose(o))
		die(path, strerror(errno));
	return 0;
}
