/* Unpacks the texts of cross/txtpack (the bit format is described there):
 * all of them at once, into txt_raw, exactly their size: at the start of
 * main(), or the first time one of them is read (the unit tests). */
#include <stdint.h>
#define TXT_DATA
#include "txt.h"

#ifdef MB_PACK
char txt_raw[TXT_RAW];
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

void txt_unpack(void)
{
	char *o = txt_raw;
	in = txt_pack;
	while (o < txt_raw + TXT_RAW) {
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

const char *txt(const char *s)
{
#ifdef MB_PACK
	/* a text's first byte is never NUL: txt_raw[0] says whether unpacked */
	if ((uintptr_t)s - (uintptr_t)txt_raw < TXT_RAW && !*txt_raw)
		txt_unpack();
#endif
	return s;
}
