/* The streaming glob matcher: every construct by hand (expected answers
 * from POSIX's rules, written here), the bounds, a long command line fed in
 * pieces, and the C library's fnmatch(glob, text, 0) as an independent
 * reference over random globs and texts fed in random pieces. */
#include <fnmatch.h>
#include <stdint.h>
#include "bounds.h"
#include "pattern.h"
#include "t.h"

/* The text fed in pieces of piece bytes (all at once when 0); pat_end */
static int feed(const char *glob, const char *text, size_t n, size_t piece)
{
	struct pat_state st;
	size_t at, k;

	pat_start(&st, glob);
	for (at = 0; at < n; at += k) {
		k = piece && piece < n - at ? piece : n - at;
		pat_feed(&st, text + at, k);
	}
	return pat_end(&st);
}

/* One answer whatever the pieces */
static int match(const char *glob, const char *text, size_t n)
{
	static const size_t pieces[] = { 0, 1, 2, 3, 7 };
	int m = feed(glob, text, n, 0);
	unsigned i;

	for (i = 1; i < sizeof pieces / sizeof pieces[0]; i++)
		if (feed(glob, text, n, pieces[i]) != m)
			return -1;
	return m;
}

/* A failing case, readable: "glob 'G' text 'T' gave R" */
static char why[1024];
static const char *describe(const char *glob, const char *text, size_t n, int got)
{
	size_t w = 0, i;
	const char *s;
	int part;

	for (part = 0; part < 2; part++) {
		const char *what = part ? "' text '" : "glob '";
		s = part ? text : glob;
		memcpy(why + w, what, strlen(what));
		w += strlen(what);
		for (i = 0; (part ? i < n : s[i] != 0) && w < sizeof why - 40; i++) {
			unsigned char c = s[i];
			why[w++] = c >= 0x20 && c < 0x7f ? c : '.';
		}
	}
	memcpy(why + w, "' gave ", 7);
	w += 7;
	why[w++] = got < 0 ? 'x' : '0' + got;   /* x: the pieces disagreed */
	why[w] = 0;
	return why;
}

static const struct hand {
	const char *name, *glob, *text;
	int want;
} hand[] = {
	{ "empty glob, empty text", "", "", 1 },
	{ "empty glob, a byte", "", "a", 0 },
	{ "star alone, empty text", "*", "", 1 },
	{ "star alone, any text", "*", "a/b.c", 1 },
	{ "two stars are one", "**", "xyz", 1 },
	{ "two stars between bytes", "a**b", "ab", 1 },
	{ "two stars, bytes between", "a**b", "axxb", 1 },
	{ "question mark, one byte", "?", "a", 1 },
	{ "question mark, no byte", "?", "", 0 },
	{ "question mark, two bytes", "?", "ab", 0 },
	{ "literal", "abc", "abc", 1 },
	{ "literal, text longer", "abc", "abcd", 0 },
	{ "literal, text shorter", "abc", "ab", 0 },
	{ "slash is ordinary", "a?b*c", "a/b/x/c", 1 },
	{ "leading dot is ordinary", "*.c", ".c", 1 },
	{ "bracket set", "[abc]", "b", 1 },
	{ "bracket set, a miss", "[abc]", "d", 0 },
	{ "bracket is one byte", "[ab]", "ab", 0 },
	{ "range", "x[a-z]y", "xmy", 1 },
	{ "range, a miss", "[a-z]", "A", 0 },
	{ "range ends included", "[b-d][b-d]", "bd", 1 },
	{ "reversed range is empty", "[z-a]", "z", 0 },
	{ "bang negates", "[!x]", "y", 1 },
	{ "bang negates, a miss", "[!x]", "x", 0 },
	{ "caret negates", "[^x]", "y", 1 },
	{ "caret negates, a miss", "[^x]", "x", 0 },
	{ "close bracket first", "[]]", "]", 1 },
	{ "close bracket first, more members", "[]a]", "a", 1 },
	{ "close bracket first after bang", "[!]]", "]", 0 },
	{ "close bracket first after bang, a hit", "[!]a]", "b", 1 },
	{ "close bracket starts a range", "[]-a]", "^", 1 },
	{ "dash last is ordinary", "[a-]", "-", 1 },
	{ "dash first is ordinary", "[-a]", "-", 1 },
	{ "dash after a range is ordinary", "[a-b-d]", "-", 1 },
	{ "dash after a range starts none", "[a-b-d]", "c", 0 },
	{ "escaped star", "\\*", "*", 1 },
	{ "escaped star is no star", "\\*", "ab", 0 },
	{ "escaped question mark", "a\\?", "a?", 1 },
	{ "escaped question mark is no question mark", "a\\?", "ab", 0 },
	{ "escaped bracket", "\\[a]", "[a]", 1 },
	{ "escaped ordinary byte", "\\a", "a", 1 },
	{ "escaped backslash", "\\\\", "\\", 1 },
	{ "escape inside brackets", "[\\]]", "]", 1 },
	{ "escaped range end", "[!-\\]]", "/", 1 },
	{ "star inside brackets is a byte", "[*]", "*", 1 },
	{ "star inside brackets matches no more", "[*]", "ab", 0 },
	{ "class alpha", "[[:alpha:]]", "q", 1 },
	{ "class alpha, a digit", "[[:alpha:]]", "7", 0 },
	{ "two classes, a digit", "[[:digit:][:upper:]]x", "7x", 1 },
	{ "two classes, upper", "[[:digit:][:upper:]]x", "Qx", 1 },
	{ "two classes, lower", "[[:digit:][:upper:]]x", "qx", 0 },
	{ "class and a byte", "[[:space:]_]", "_", 1 },
	{ "class and a byte, a tab", "[[:space:]_]", "\t", 1 },
	{ "negated class", "[![:lower:]]", "A", 1 },
	{ "negated class, a miss", "[![:lower:]]", "a", 0 },
	{ "class alnum", "[[:alnum:]][[:alnum:]]", "0z", 1 },
	{ "class alnum, a dash", "[[:alnum:]]", "-", 0 },
	{ "class blank", "[[:blank:]][[:blank:]]", " \t", 1 },
	{ "class blank, a newline", "[[:blank:]]", "\n", 0 },
	{ "class cntrl", "[[:cntrl:]]", "\x01", 1 },
	{ "class cntrl, a letter", "[[:cntrl:]]", "a", 0 },
	{ "class graph", "[[:graph:]]", "!", 1 },
	{ "class graph, a space", "[[:graph:]]", " ", 0 },
	{ "class print", "[[:print:]]", " ", 1 },
	{ "class print, DEL", "[[:print:]]", "\x7f", 0 },
	{ "class punct", "[[:punct:]]", ".", 1 },
	{ "class punct, a letter", "[[:punct:]]", "a", 0 },
	{ "class xdigit", "[[:xdigit:]][[:xdigit:]]", "Fa", 1 },
	{ "class xdigit, g", "[[:xdigit:]]", "g", 0 },
	{ "class lower", "[[:lower:]]", "Q", 0 },
	{ "class upper", "[[:upper:]]", "Q", 1 },
	{ "collating symbol", "[[.-.]a]", "-", 1 },
	{ "collating symbol starts a range", "[[.a.]-c]", "b", 1 },
	{ "collating symbol ends a range", "[a-[.c.]]", "b", 1 },
	{ "equivalence class", "[[=a=]]", "a", 1 },
	{ "equivalence class, a miss", "[[=a=]]", "b", 0 },
	{ "dash after an equivalence class is ordinary", "[[=a=]-c]", "-", 1 },
	{ "dash after a class is ordinary", "[[:digit:]-z]", "-", 1 },
	{ "dash after a class starts no range", "[[:digit:]-z]", "y", 0 },
	{ "bracket colon without a name is a byte", "[[:]", ":", 1 },
	{ "bracket colon without a name, the bracket", "[[:]", "[", 1 },
	{ "capital class name is bytes", "[[:Alpha:]]", "A]", 1 },
	{ "unterminated bracket is a byte", "[", "[", 1 },
	{ "unterminated bracket with members", "[ab", "[ab", 1 },
	{ "unterminated bracket takes no member", "[ab", "a", 0 },
	{ "unterminated bracket after a byte", "x[", "x[", 1 },
	{ "unterminated bracket after bang", "[!", "[!", 1 },
	{ "empty brackets are bytes", "[]", "[]", 1 },
	{ "empty negated brackets are bytes", "[!]", "[!]", 1 },
	{ "escaped close bracket leaves it open", "[a\\]", "[a]", 1 },
	{ "unterminated before a bracket", "[[a]", "a", 1 },
	{ "unterminated class", "[[:alpha:]", "[p", 1 },
	{ "star then a bracket", "*[0-9]", "abc7", 1 },
	{ "middles in order", "*ab*cd*", "xxcdabxcd", 1 },
	{ "middles out of order", "*ab*cd*", "cdab", 0 },
	{ "middle and last do not overlap", "*aa*aa", "aaa", 0 },
	{ "middle and last side by side", "*aa*aa", "aaaa", 1 },
	{ "first and last do not overlap", "a*a", "a", 0 },
	{ "first and last side by side", "ab*ba", "abba", 1 },
	{ "first and last would share a byte", "ab*ba", "aba", 0 },
	{ "last segment at the very end", "*abc", "abcabc", 1 },
	{ "last segment cut", "*abc", "abcab", 0 },
	{ "first segment then a star", "a*", "a", 1 },
	{ "star between needs no byte", "*a*", "a", 1 },
	{ "star around, empty text", "*a*", "", 0 },
	{ "leftmost middle then a late one", "*a?c*x", "abxabcyx", 1 },
	{ "question marks at the end", "*??", "a", 0 },
	{ "question marks at the end, enough", "*??", "ab", 1 },
	{ "question mark takes a high byte", "?", "\xff", 1 },
	{ "negated set takes a high byte", "[!a]", "\xe9", 1 },
	{ "a high byte literal", "caf\xe9", "caf\xe9", 1 },
	{ "alpha in the C locale is ASCII", "[[:alpha:]]", "\xe9", 0 },
	{ "range of high bytes", "[\x80-\xff]", "\xe9", 1 },
	{ "range of high bytes, ASCII", "[\x80-\xff]", "e", 0 },
};

static uint32_t rnd_state = 2463534242u;
static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* A random text of n bytes from a few that the small globs care about */
static void random_text(char *t, size_t n)
{
	static const char bytes[] = "aaabbb*c";

	while (n--)
		*t++ = bytes[rnd() % (sizeof bytes - 1)];
	*t = 0;
}

static int reference(const char *glob, const char *text)
{
	return fnmatch(glob, text, 0) == 0;
}

/* glob against text (n bytes, NUL at text[n]) fed in random pieces of up
 * to piece bytes; after
 * each piece pat_end must be fnmatch's answer for the text so far, and a
 * decision pat_done claims must hold for every longer text.  Returns 0 or
 * a description of the first disagreement.  Counts claims of done. */
static const char *differ(const char *glob, char *text, size_t n, size_t piece, unsigned *claims)
{
	struct pat_state st, more;
	char saved, longer[1024];
	size_t fed = 0, k;
	int got, decided = -1;

	pat_start(&st, glob);
	for (;;) {
		saved = text[fed];
		text[fed] = 0;
		got = pat_end(&st);
		if (got != reference(glob, text))
			return describe(glob, text, fed, got);
		if (pat_done(&st)) {
			if (decided >= 0 && got != decided)
				return describe(glob, text, fed, got);
			if (decided < 0) {
				++*claims;
				/* feed more on a copy: no answer may differ */
				more = st;
				memcpy(longer, text, fed);
				k = 1 + rnd() % 8;
				random_text(longer + fed, k);
				pat_feed(&more, longer + fed, k);
				if (pat_end(&more) != got || reference(glob, longer) != got)
					return describe(glob, longer, fed + k, pat_end(&more));
			}
			decided = got;
		}
		text[fed] = saved;
		if (fed == n)
			return 0;
		k = rnd() % (piece + 1);
		k = k < n - fed ? k : n - fed;
		pat_feed(&st, text + fed, k);
		fed += k;
	}
}

/* A command line of tens of KiB like Chrome's, the flag after 16 KiB */
static char cmdline[24576];
static size_t chrome(const char *flag)
{
	size_t n = 0;

	memcpy(cmdline, "/opt/google/chrome/chrome", 25);
	n = 25;
	while (n < 16384 + 100) {
		memcpy(cmdline + n, " --enable-features=Foo,Bar,Baz", 30);
		n += 30;
	}
	cmdline[n++] = ' ';
	memcpy(cmdline + n, flag, strlen(flag));
	n += strlen(flag);
	memcpy(cmdline + n, " --lang=en-US", 13);
	return n + 13;
}

int unit_pattern(void)
{
	static const char *const tokens[] = { "a", "b", "*", "?", "[ab]", "[!a]", "\\*" };
	static char glob[PAT_MAX + 2], text[PAT_MAX * 32];
	struct pat_state st;
	unsigned i, j, claims = 0, matched = 0, iterations = 60000;
	const char *bad = 0;
	size_t n;
	int got;

	for (i = 0; i < sizeof hand / sizeof hand[0]; i++) {
		const struct hand *h = &hand[i];
		got = match(h->glob, h->text, strlen(h->text));
		unit_report(got == h->want, h->name, describe(h->glob, h->text, strlen(h->text), got),
		            __FILE__, __LINE__);
	}
	CHECK_EQ("NUL in the text is a byte for question mark", match("a?b", "a\0b", 3), 1);
	CHECK_EQ("NUL in the text is a byte for star", match("a*b", "a\0\0b", 4), 1);
	CHECK_EQ("NUL in the text is no literal", match("ab", "a\0", 2), 0);

	/* Malformed globs are refused and match nothing */
	CHECK_EQ("pat_check, plain glob", pat_check("*--type=renderer*"), 0);
	CHECK_EQ("pat_check, trailing backslash", pat_check("a\\"), -1);
	CHECK_EQ("pat_check, lone backslash", pat_check("\\"), -1);
	CHECK_EQ("pat_check, escaped backslash at the end", pat_check("a\\\\"), 0);
	CHECK_EQ("pat_check, trailing backslash after an open bracket", pat_check("[a\\"), -1);
	CHECK_EQ("pat_check, unknown class", pat_check("[[:foo:]]"), -1);
	CHECK_EQ("pat_check, empty class name", pat_check("[[::]]"), -1);
	CHECK_EQ("pat_check, unknown class among members", pat_check("x[a[:foo:]b]"), -1);
	CHECK_EQ("pat_check, unknown class in no bracket expression", pat_check("x[[:foo:]"), 0);
	CHECK_EQ("trailing backslash matches nothing", match("a\\", "a\\", 2) == 0 && match("a\\", "a", 1) == 0, 1);
	CHECK_EQ("unknown class matches nothing", match("[[:foo:]a]", "a", 1), 0);
	pat_start(&st, "a\\");
	CHECK_EQ("malformed is done at once", pat_done(&st), 1);

	/* The bounds: PAT_MAX bytes of glob are kept, one more refused */
	memset(glob, 'a', PAT_MAX);
	glob[PAT_MAX] = 0;
	memset(text, 'a', PAT_MAX + 1);
	CHECK_EQ("pat_check, PAT_MAX bytes", pat_check(glob), 0);
	CHECK_EQ("PAT_MAX bytes match", match(glob, text, PAT_MAX), 1);
	CHECK_EQ("PAT_MAX bytes, one byte more", match(glob, text, PAT_MAX + 1), 0);
	glob[PAT_MAX] = 'a';
	glob[PAT_MAX + 1] = 0;
	CHECK_EQ("pat_check, PAT_MAX + 1 bytes", pat_check(glob), -1);
	CHECK_EQ("PAT_MAX + 1 bytes match nothing", match(glob, text, PAT_MAX + 1), 0);
	/* the longest last segment fills the window */
	glob[0] = '*';
	glob[PAT_MAX] = 0;
	memset(text, 'b', sizeof text);
	memset(text + sizeof text - (PAT_MAX - 1), 'a', PAT_MAX - 1);
	CHECK_EQ("last segment of PAT_MAX - 1", match(glob, text, sizeof text), 1);
	text[sizeof text - (PAT_MAX - 1)] = 'b';
	CHECK_EQ("last segment of PAT_MAX - 1, one byte short", match(glob, text, sizeof text), 0);
	/* the longest middle segment */
	memset(glob + 1, '?', PAT_MAX - 2);
	glob[PAT_MAX - 1] = '*';
	glob[PAT_MAX / 2] = 'x';
	memset(text, 'b', sizeof text);
	CHECK_EQ("middle segment of PAT_MAX - 2, no x", match(glob, text, sizeof text), 0);
	/* x is its 128th matcher: an x at n - 127 leaves room for the 126 after it */
	text[sizeof text - 126] = 'x';
	CHECK_EQ("middle segment of PAT_MAX - 2, x too late", match(glob, text, sizeof text), 0);
	text[sizeof text - 127] = 'x';
	CHECK_EQ("middle segment of PAT_MAX - 2, x just in time", match(glob, text, sizeof text), 1);
	/* a first and a last segment, the text in one piece or more */
	strcpy(glob, "ab*");
	memset(glob + 3, '?', PAT_MAX - 3);
	glob[PAT_MAX] = 0;
	memset(text, 'x', sizeof text);
	memcpy(text, "ab", 2);
	CHECK_EQ("first and last segment, one byte short", match(glob, text, PAT_MAX - 2), 0);
	CHECK_EQ("first and last segment, just enough", match(glob, text, PAT_MAX - 1), 1);
	CHECK_EQ("first and last segment, more than the window", match(glob, text, 3 * PAT_MAX), 1);
	/* as many '[' without their ']' as fit: each is a byte */
	memset(glob, '[', PAT_MAX);
	glob[PAT_MAX] = 0;
	memset(text, '[', PAT_MAX);
	CHECK_EQ("PAT_MAX open brackets are bytes", match(glob, text, PAT_MAX), 1);

	/* pat_done: decided as soon as no text can change the answer */
	pat_start(&st, "*");
	CHECK_EQ("star is done at once", pat_done(&st) && pat_end(&st), 1);
	pat_start(&st, "abc");
	pat_feed(&st, "abc", 3);
	CHECK_EQ("literal matched is not done", !pat_done(&st) && pat_end(&st), 1);
	pat_feed(&st, "d", 1);
	CHECK_EQ("literal and a byte more is done", pat_done(&st) && !pat_end(&st), 1);
	pat_start(&st, "abc");
	pat_feed(&st, "ab", 2);
	pat_feed(&st, "d", 1);
	CHECK_EQ("literal, a wrong byte is done", pat_done(&st) && !pat_end(&st), 1);
	pat_start(&st, "a*");
	pat_feed(&st, "a", 1);
	CHECK_EQ("first segment then star is done", pat_done(&st) && pat_end(&st), 1);
	pat_feed(&st, "xyz", 3);
	CHECK_EQ("first segment then star stays matched", pat_done(&st) && pat_end(&st), 1);
	pat_start(&st, "*x");
	for (i = 0; i < 1000; i++)
		pat_feed(&st, "x", 1);
	CHECK_EQ("last segment is never done", !pat_done(&st) && pat_end(&st), 1);

	/* A renderer's flag after 16 KiB, fed in pieces as a reader would */
	n = chrome("--type=renderer");
	for (j = 0; j < 3; j++) {
		static const size_t pieces[] = { 1, 7, 4096 };
		static const char *const names[] = {
			"renderer flag after 16 KiB, pieces of 1",
			"renderer flag after 16 KiB, pieces of 7",
			"renderer flag after 16 KiB, pieces of 4096",
		};
		CHECK_EQ(names[j], feed("*--type=renderer*", cmdline, n, pieces[j]), 1);
	}
	CHECK_EQ("renderer flag, anchored at both ends", match("/opt/*/chrome *--type=renderer *en-US", cmdline, n), 1);
	for (j = 0; j < 4; j++) {
		static const size_t pieces[] = { 4096, PAT_MAX + 1, PAT_MAX, 300 };
		static const char *const names[] = {
			"last segment at the end of 16 KiB, pieces of 4096",
			"last segment at the end of 16 KiB, pieces of PAT_MAX + 1",
			"last segment at the end of 16 KiB, pieces of PAT_MAX",
			"last segment at the end of 16 KiB, pieces of 300",
		};
		CHECK_EQ(names[j], feed("*--type=renderer --lang=e?-U?", cmdline, n, pieces[j]), 1);
	}
	n = chrome("--type=gpu-process");
	CHECK_EQ("gpu flag after 16 KiB is no renderer", feed("*--type=renderer*", cmdline, n, 4096), 0);
	CHECK_EQ("gpu flag after 16 KiB found", feed("*--type=gpu-process*", cmdline, n, 7), 1);
	n = chrome("--type=rendere");
	CHECK_EQ("renderer flag cut at the end of the text", feed("*--type=renderer", cmdline, n - 13, 1), 0);

	/* fnmatch as the reference: random globs of the small alphabet */
	for (i = 0; i < iterations && !bad; i++) {
		size_t g = 0, k = rnd() % 9;

		while (k--) {
			const char *t = tokens[rnd() % (sizeof tokens / sizeof tokens[0])];
			memcpy(glob + g, t, strlen(t));
			g += strlen(t);
		}
		glob[g] = 0;
		/* mostly short texts in small pieces; some longer than the
		 * window in pieces longer than it */
		n = rnd() % (i % 16 == 0 ? 800 : i % 2 ? 12 : 40);
		random_text(text, n);
		bad = differ(glob, text, n, i % 16 == 0 ? 2 * PAT_MAX : 4, &claims);
		matched += reference(glob, text);
	}
	unit_report(!bad, "same answers as fnmatch, random globs and pieces", bad, __FILE__, __LINE__);
	/* the comparison is not empty: both answers and decisions occur */
	CHECK("random globs, some match, some do not", matched > iterations / 20 && matched < iterations - iterations / 20);
	CHECK("random globs, pat_done decides some", claims > iterations / 20);
	return unit_end_all();
}
