/* Fuzz the streaming glob matcher against the C library's fnmatch(glob,
 * text, 0) (glibc in this build, C locale).  The input is cut into a glob,
 * a text and the sizes of the pieces the text is fed in:
 *   byte 0          the number of glob parts (up to 31)
 *   one byte each   a glob part: below 128 a printable byte, from 128 one of
 *                   the constructs below
 *   one byte        the text's length (up to 127), then the text (bytes
 *                   1 to 127, so that no locale can differ)
 *   the rest        piece sizes, 0 to 8 bytes, used in turn
 * After each piece pat_end must be fnmatch's answer for the text so far,
 * and once pat_done claims a decision every longer text must keep it.
 * Globs stay where POSIX and glibc agree: every '[' comes with its ']' (on
 * a '[' without one, glibc's answer depends on the text) and every class
 * name exists. */
#include <fnmatch.h>
#include <stdint.h>
#include <string.h>
#include "pattern.h"

static const char *const constructs[] = {
	"*", "?", "[ab]", "[!a]", "[a-c]", "[c-a]", "[]a]", "[!]b]", "[]-a]",
	"[a-]", "[-b]", "[a-b-d]", "[[:alpha:]]", "[[:digit:]a]", "[![:lower:]]",
	"[[:punct:][:space:]]", "[[.a.]]", "[[.a.]-c]", "[[=b=]]", "[\\]a]",
	"[\\!a]", "[[]", "[*?]", "[!-\\]]", "\\*", "\\?", "\\[", "\\\\", "\\a",
};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char glob[PAT_MAX + 1], text[128], saved;
	struct pat_state st;
	size_t i = 0, g = 0, parts, len, fed = 0, k, pieces, feeds = 0;
	int decided = -1, got;

	if (n < 2)
		return 0;
	for (parts = d[i++] % 32; parts-- && i < n; i++) {
		char one[2] = { 0x20 + d[i] % 0x5f, 0 };
		const char *s = one;

		if (d[i] >= 128)
			s = constructs[(d[i] - 128) % (sizeof constructs / sizeof constructs[0])];
		else if (one[0] == '[' || one[0] == '\\')
			one[0] = 'b';   /* printable, but no '[' without its ']', no backslash */
		if (g + strlen(s) > PAT_MAX)
			break;
		memcpy(glob + g, s, strlen(s));
		g += strlen(s);
	}
	glob[g] = 0;
	if (i >= n)
		return 0;
	len = d[i++] % 128;
	if (len > n - i)
		len = n - i;
	for (k = 0; k < len; k++)
		text[k] = d[i + k] % 128 ? d[i + k] % 128 : 'a';
	text[len] = 0;
	i += len;
	pieces = i;
	if (pat_check(glob))
		__builtin_trap();   /* every glob built here is well formed */
	pat_start(&st, glob);
	for (;;) {
		saved = text[fed];
		text[fed] = 0;
		got = pat_end(&st);
		if (got != !fnmatch(glob, text, 0))
			__builtin_trap();
		text[fed] = saved;
		if (pat_done(&st)) {
			if (decided >= 0 && got != decided)
				__builtin_trap();
			decided = got;
		}
		if (fed == len)
			return 0;
		k = pieces < n ? d[pieces++] % 9 : len;
		if (pieces == n)
			pieces = i;   /* the sizes again, from the first */
		if (++feeds > 2 * len)
			k = len;      /* enough pieces of 0 bytes */
		k = k < len - fed ? k : len - fed;
		pat_feed(&st, text + fed, k);
		fed += k;
	}
}
