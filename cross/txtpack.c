/* txtpack: a host tool of the build.  Collects every TXT(name, "text")
 * and TX("text") of the given C sources and writes DIR/txtpack.h: a
 * TXT_name for each text and, under TXT_DATA, the texts compressed for
 * core/txt.c to unpack.  As busybox does with its usage texts: help is
 * read rarely and is a tenth of the binary.
 *
 * TXT_name is the address of the text in txt_raw, the buffer the texts are
 * unpacked to; a text may hold NULs (a table of strings).
 * The format (core/txt.c reads it): the texts, each ended by a NUL, as
 * LZ77 with two canonical Huffman codes (as deflate), TXT_LENS bytes of
 * bit stream, most significant bit first, of symbols of the first code:
 *   0-127      a literal byte (the texts are ASCII);
 *   128 + s-2  a copy of val(s) + 1 bytes from val(t) - 1 back, where t - 2
 *              is the next symbol, of the second code;
 * until the texts are complete.  val(s), of a slot s >= 2, is
 * (2 + (s & 1)) << (s / 2 - 1) plus the next s / 2 - 1 bits: slots 2 3 4 5
 * 6 7 8 ... are 2 3 4-5 6-7 8-11 12-15 16-23...  Then the code lengths,
 * 4 bits each (0: unused), two a byte, the first in the low half: of the
 * TXT_NSYM symbols of the first code, then of the TXT_NDIST of the second.
 * The codes are at most TXT_HUFF bits long, and canonical (shorter codes
 * first, equal lengths by symbol): the decoder fills a table of 1 <<
 * TXT_HUFF entries per code in that order and reads a symbol with one
 * look-up.  The parse is optimal for the code lengths of the previous
 * parse, in rounds until the size stops improving (as zopfli does).
 *   txtpack DIR FILE.c...     (exit 1 with a message on any error) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format's limits: codes of at most HBITS bits (a decode table of
 * 1 << HBITS entries of 2 bytes each); copies of MINLEN to MAXLEN bytes
 * (length slots 2-17; a copy of 2 never pays); at most MAXRAW bytes of
 * text (distance slots 2-31, so no value has more than 14 extra bits). */
#define HBITS   10
#define MINLEN  3
#define MAXLEN  511
#define MAXRAW  65535
#define NLEN    16
#define NDIST   30
#define NSYM    (128 + NLEN + NDIST)
#define MAXTXT  1024

static unsigned char raw[MAXRAW + 1];
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

/* The slot of v >= 2 (see val() above) and its count of extra bits. */
static unsigned slot(unsigned v)
{
	unsigned b = bitlen(v) - 1;
	return 2 * b + (v >> (b - 1) & 1);
}
static unsigned extra(unsigned s) { return s / 2 - 1; }

/* The symbols of a copy's length and distance, both in one array here:
 * the literals, NLEN length slots, NDIST distance slots. */
static unsigned lsym(unsigned len) { return 128 + slot(len - 1) - 2; }
static unsigned dsym(unsigned dist) { return 128 + NLEN + slot(dist + 1) - 2; }

static unsigned chain[MAXRAW];      /* the last earlier place of the same 2 bytes, + 1 */
static unsigned cost[NSYM];         /* the bits of each symbol in this round */
static unsigned long freq[NSYM];
static unsigned char clen[NSYM];    /* code lengths */
static unsigned mlen[MAXRAW], mdist[MAXRAW]; /* the parse: a copy at i, or 0 */

/* The cheapest parse for the symbol costs: dynamic programming from the
 * end; at each place, each length from the nearest source that has it. */
static void parse(void)
{
	static unsigned long best[MAXRAW + 1];
	size_t i;

	best[nraw] = 0;
	for (i = nraw; i-- > 0; ) {
		/* a farther source is worth a look at the lengths so far only if
		 * its distance is cheaper (slot costs need not grow with it) */
		unsigned longest = MINLEN - 1, cheapest = -1u;
		best[i] = cost[raw[i]] + best[i + 1];
		mlen[i] = 0;
		for (unsigned j = chain[i]; j--; j = chain[j]) {
			unsigned k = 0, d = i - j, dc = cost[dsym(d)] + extra(slot(d + 1));
			while (i + k < nraw && k < MAXLEN && raw[j + k] == raw[i + k])
				k++;
			for (unsigned l = dc < cheapest ? MINLEN : longest + 1; l <= k; l++) {
				unsigned long c = cost[lsym(l)] + extra(slot(l - 1)) + dc + best[i + l];
				if (c < best[i])
					best[i] = c, mlen[i] = l, mdist[i] = d;
			}
			if (k > longest)
				longest = k;
			if (dc < cheapest)
				cheapest = dc;
		}
	}
	memset(freq, 0, sizeof freq);
	for (i = 0; i < nraw; i += mlen[i] ? mlen[i] : 1)
		if (mlen[i])
			freq[lsym(mlen[i])]++, freq[dsym(mdist[i])]++;
		else
			freq[raw[i]]++;
}

/* The code lengths of the n symbols counted at f (0: unused) that make the
 * fewest bits with no code longer than HBITS: package-merge.  Each level,
 * from the deepest, is the symbols merged with the pairs of the level
 * below; the 2m - 2 lightest items of the top level are the code, and a
 * symbol's length is the count of levels whose chosen items hold it.  As
 * the symbols of each level are in weight order, those chosen are the
 * lightest ones: a count per level is all there is to keep.  At least two
 * symbols get a code, so that it is complete and fills its decode table
 * exactly. */
static void huffman(const unsigned long *f, unsigned char *len, int n)
{
	static unsigned long w[HBITS][2 * NSYM];
	static char pair[HBITS][2 * NSYM];
	unsigned long sw[NSYM];
	int sym[NSYM], m = 0, items[HBITS], take;

	for (int i = 0; i < n; i++) {
		len[i] = 0;
		if (!f[i] && m + n - i > 2)
			continue;
		/* insertion in weight order, equals by symbol */
		int k = m++;
		for (; k > 0 && sw[k - 1] > (f[i] ? f[i] : 1); k--)
			sw[k] = sw[k - 1], sym[k] = sym[k - 1];
		sw[k] = f[i] ? f[i] : 1, sym[k] = i;
	}
	for (int l = HBITS; l-- > 0; ) {
		int a = 0, b = 0, np = l + 1 < HBITS ? items[l + 1] / 2 : 0;
		for (items[l] = 0; a < m || b < np; items[l]++) {
			unsigned long pw = b < np ? w[l + 1][2 * b] + w[l + 1][2 * b + 1] : 0;
			int p = a == m || (b < np && pw < sw[a]);
			w[l][items[l]] = p ? pw : sw[a];
			pair[l][items[l]] = p;
			p ? b++ : a++;
		}
	}
	take = 2 * m - 2;
	for (int l = 0; l < HBITS && take; l++) {
		int leaves = 0, pairs = 0;
		for (int k = 0; k < take; k++)
			pair[l][k] ? pairs++ : leaves++;
		for (int k = 0; k < leaves; k++)
			len[sym[k]]++;
		take = 2 * pairs;
	}
}

static unsigned char packed[MAXRAW + 128];
static size_t nbits, need, lens_at;
static unsigned code[NSYM];
static unsigned nlen, ndist;        /* the slots in use */

static void put(unsigned v, unsigned n)
{
	while (n--) {
		if (nbits / 8 >= MAXRAW)
			die("txtpack", "packed texts too large");
		if (v >> n & 1)
			packed[nbits / 8] |= 0x80 >> (nbits % 8);
		nbits++;
	}
}

/* Canonical codes of the symbols from..to-1: by length, then by symbol. */
static void canonical(int from, int to)
{
	unsigned c = 0;
	for (unsigned l = 1; l <= HBITS; l++, c <<= 1)
		for (int s = from; s < to; s++)
			if (clen[s] == l)
				code[s] = c++;
}

/* A symbol and the extra bits of its slot's value v. */
static void put_sym(unsigned sym, unsigned v)
{
	/* for each symbol the decoder loads the (up to) 8 bytes from the one
	 * of its first bit on */
	if (nbits / 8 + 8 > need)
		need = nbits / 8 + 8;
	put(code[sym], clen[sym]);
	if (sym >= 128) {
		unsigned s = slot(v);
		put(v - ((2 | (s & 1)) << extra(s)), extra(s));
	}
}

/* The pack of the parse and code lengths; its size in bytes. */
static size_t encode(void)
{
	size_t i;

	memset(packed, 0, sizeof packed);
	nbits = need = 0;
	canonical(0, 128 + NLEN);
	canonical(128 + NLEN, NSYM);
	for (nlen = NLEN; nlen && !clen[128 + nlen - 1]; nlen--)
		;
	for (ndist = NDIST; ndist && !clen[128 + NLEN + ndist - 1]; ndist--)
		;
	for (i = 0; i < nraw; i += mlen[i] ? mlen[i] : 1)
		if (mlen[i]) {
			put_sym(lsym(mlen[i]), mlen[i] - 1);
			put_sym(dsym(mdist[i]), mdist[i] + 1);
		} else {
			put_sym(raw[i], 0);
		}
	/* the code lengths, 2 a byte, the first in the low half, after the
	 * stream: its last loads read them */
	lens_at = (nbits + 7) / 8;
	for (i = 0; i < 128 + nlen + ndist; i++)
		packed[lens_at + i / 2] |= clen[i < 128 + nlen ? i : i - nlen + NLEN] << i % 2 * 4;
	i = lens_at + (i + 1) / 2;
	return i > need ? i : need;
}

/* Packs raw: the best of the rounds, left in mlen, mdist and clen; its size
 * in bytes.  A first guess of the costs, then each round's code lengths
 * price the next parse. */
static size_t pack(void)
{
	static unsigned head[1 << 16];
	static unsigned keep_len[MAXRAW], keep_dist[MAXRAW];
	static unsigned char keep_clen[NSYM];
	size_t least = (size_t)-1;
	int i;

	memset(head, 0, sizeof head);
	for (size_t k = 0; k + 1 < nraw; k++) {
		unsigned h = raw[k] << 8 | raw[k + 1];
		chain[k] = head[h];
		head[h] = k + 1;
	}
	for (i = 0; i < NSYM; i++)
		cost[i] = i < 128 ? 8 : 6;
	for (int worse = 0; worse < 4; ) {
		size_t bytes;

		parse();
		huffman(freq, clen, 128 + NLEN);
		huffman(freq + 128 + NLEN, clen + 128 + NLEN, NDIST);
		bytes = encode();
		if (bytes < least) {
			least = bytes, worse = 0;
			memcpy(keep_len, mlen, sizeof mlen);
			memcpy(keep_dist, mdist, sizeof mdist);
			memcpy(keep_clen, clen, sizeof clen);
		} else {
			worse++;
		}
		/* an unused symbol: priced as a rare one */
		for (i = 0; i < NSYM; i++)
			cost[i] = clen[i] ? clen[i] : HBITS + 1;
	}
	memcpy(mlen, keep_len, sizeof mlen);
	memcpy(mdist, keep_dist, sizeof mdist);
	memcpy(clen, keep_clen, sizeof clen);
	return least;
}

/* The 4-byte strings of text t: a bit each in seen (by a hash), or the
 * count of those already there. */
static unsigned char seen[1 << 13];
static size_t grams(int t, int count)
{
	size_t end = t + 1 < ntxt ? start[t + 1] : nraw, n = 0;

	for (size_t k = start[t]; k + 4 <= end; k++) {
		unsigned long x = raw[k] | raw[k + 1] << 8 | raw[k + 2] << 16 | (unsigned long)raw[k + 3] << 24;
		unsigned h = (x * 2654435761u & 0xffffffff) >> 16;
		if (count)
			n += seen[h / 8] >> h % 8 & 1;
		else
			seen[h / 8] |= 1 << h % 8;
	}
	return n;
}

/* The texts in another order: from the first one on, the next is the one
 * with the largest part of its 4-byte strings in the last (for its
 * length): copies from nearer are shorter to write.  Kept if it packs
 * smaller than the order of the sources (by 0.6% in 2026-11; paragraphs
 * of prose pack best in their own order). */
static void reorder(void)
{
	static unsigned char was[MAXRAW + 1];
	static size_t was_start[MAXTXT];
	static char was_names[MAXTXT][sizeof names[0]];
	int ord[MAXTXT], used[MAXTXT] = { 0 };
	size_t first = pack(), k = 0;

	ord[0] = 0, used[0] = 1;
	for (int n = 1; n < ntxt; n++) {
		long best = -1;
		memset(seen, 0, sizeof seen);
		grams(ord[n - 1], 0);
		for (int t = 0; t < ntxt; t++) {
			size_t len = (t + 1 < ntxt ? start[t + 1] : nraw) - start[t];
			long score = used[t] ? -1 : (long)(grams(t, 1) * 1000 / (len + 16));
			if (score > best)
				best = score, ord[n] = t;
		}
		used[ord[n]] = 1;
	}
	memcpy(was, raw, nraw);
	memcpy(was_start, start, sizeof start);
	memcpy(was_names, names, sizeof names);
	for (int n = 0; n < ntxt; n++) {
		int t = ord[n];
		size_t len = (t + 1 < ntxt ? was_start[t + 1] : nraw) - was_start[t];
		memcpy(raw + k, was + was_start[t], len);
		start[n] = k, k += len;
		memcpy(names[n], was_names[t], sizeof names[0]);
	}
	if (pack() >= first) {
		memcpy(raw, was, nraw);
		memcpy(start, was_start, sizeof start);
		memcpy(names, was_names, sizeof names);
		pack();
	}
}

int main(int argc, char **argv)
{
	size_t npacked;
	unsigned long sum = 2166136261u;
	char path[4096];
	FILE *o;
	int i;

	if (argc < 3)
		die("usage", "txtpack DIR FILE.c...");
	for (i = 2; i < argc; i++)
		scan(argv[i]);
	reorder();
	npacked = encode();
	for (size_t k = 0; k < nraw; k++)
		sum = (sum ^ raw[k]) * 16777619 & 0xffffffff;

	snprintf(path, sizeof path, "%s/txtpack.h", argv[1]);
	if (!(o = fopen(path, "w")))
		die(path, strerror(errno));
	fprintf(o, "/* generated by cross/txtpack: %zu bytes of text in %zu */\n", nraw, npacked);
	fprintf(o, "#define TXT_RAW %zu\n", nraw);
	fprintf(o, "#define TXT_SUM 0x%08lxu /* FNV-1a of the texts, for the tests */\n", sum);
	fprintf(o, "extern char txt_raw[TXT_RAW];\n");
	for (i = 0; i < ntxt; i++)
		fprintf(o, "#define TXT_%s (txt_raw + %zu)\n", names[i], start[i]);
	fprintf(o, "#ifdef TXT_DATA\n#define TXT_HUFF %d\n#define TXT_NSYM %u\n", HBITS, 128 + nlen);
	fprintf(o, "#define TXT_NDIST %u\n#define TXT_LENS %zu\n", ndist, lens_at);
	fprintf(o, "static const unsigned char txt_pack[%zu] = {", npacked);
	for (size_t k = 0; k < npacked; k++)
		fprintf(o, "%s%u,", k % 20 ? "" : "\n", packed[k]);
	fprintf(o, "\n};\n#endif\n");
	if (fclose(o))
		die(path, strerror(errno));
	return 0;
}
