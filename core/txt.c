/* Unpacks the texts of cross/txtpack (the bit format is described there):
 * all of them at once, into a static buffer of exactly their size, the
 * first time one is written. */
#include <string.h>
#define TXT_DATA
#include "txt.h"

#ifdef MB_PACK
static char raw[TXT_RAW];
static const unsigned char *in;
static unsigned acc, nacc;

static unsigned bits(unsigned n)
{
	unsigned v = 0;
	while (n--) {
		if (!nacc)
			acc = *in++, nacc = 8;
		v = v << 1 | (acc >> --nacc & 1);
	}
	return v;
}

static void unpack(void)
{
	char *o = raw;
	in = txt_pack;
	while (o < raw + TXT_RAW) {
		if (!bits(1)) {
			*o++ = bits(7);
		} else {
			unsigned z = 0, len, off;
			while (!bits(1))
				z++;
			len = ((1u << z) | bits(z)) + 1;
			off = bits(12) + 1;
			/* the packer never refers before the start or past the end */
			while (len--)
				*o = *(o - off), o++;
		}
	}
}
#endif

void txt_out(struct out *o, const char *s)
{
#ifdef MB_PACK
	if (*s == 1) {
		int id = s[1];
		if (!*raw)
			unpack();
		for (s = raw; --id; s += strlen(s) + 1)
			;
	}
#endif
	out_s(o, s);
}
