/* Unpacks the texts of cross/txtpack (the format is described there): all
 * of them at once, into txt_raw, exactly their size, at the start of
 * main() (and of the unit tests that read texts). */
#include <stdint.h>
#include <string.h>
#define TXT_DATA
#include "txt.h"

#ifdef MB_PACK
#define W (8 * (unsigned)sizeof(unsigned long))
#define K TXT_HUFF
/* a load of W bits holds at least W - 7 from a symbol's first on: its code
 * and the extra bits of its slot; an entry of 2 bytes holds both */
_Static_assert(K + (TXT_NDIST - 1) / 2 <= 32 - 7 && K + (TXT_NSYM - 129) / 2 <= 32 - 7
	&& TXT_NSYM <= 256 && 128 + TXT_NDIST <= 256, "txtpack's format limits");

char txt_raw[TXT_RAW];

/* The W bits from p on, its first byte on top: one load (and a byte swap
 * on these little-endian targets). */
static unsigned long be(const unsigned char *p)
{
	unsigned long v;
	memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = W == 64 ? __builtin_bswap64(v) : __builtin_bswap32(v);
#endif
	return v;
}

void txt_unpack(void)
{
	/* The decode tables of the two codes, one after the other, on the
	 * stack (4 KiB): at each K-bit index that starts with a code, the
	 * code's symbol (a distance slot counted from 128) and length. */
	uint16_t tab[2 << K];
	const unsigned char *lens = txt_pack + TXT_LENS;
	unsigned long acc, v, n = 0, pos = 0;
	unsigned s, l, a, r, x, i = 0;
	char *o = txt_raw;

	/* canonical codes: by length, then by symbol; a corrupt pack that
	 * does not fill the tables exactly (the index wraps) is left packed */
	for (a = 0; a <= TXT_NSYM; a += TXT_NSYM)
		for (l = 1; l <= K; l++)
			for (s = 0; s < (a ? TXT_NDIST : TXT_NSYM); s++)
				if ((lens[(a + s) / 2] >> (a + s) % 2 * 4 & 15) == l)
					for (r = 1u << (K - l); r--; )
						tab[i++ & ((2 << K) - 1)] = (a ? s + 128 : s) | l << 8;
	if (i != 2 << K)
		return;
	/* n: the length of a copy whose distance comes next, or 0 */
	while (o < txt_raw + TXT_RAW) {
		/* at least W - 7 bits: a code and its extra bits */
		acc = be(txt_pack + pos / 8) << pos % 8;
		s = tab[(n ? 1 << K : 0) + (acc >> (W - K))];
		l = s >> 8;
		pos += l;
		if ((s &= 255) < 128) {
			*o++ = s;
			continue;
		}
		s -= 128;
		x = s / 2;
		v = ((2ul | (s & 1)) << x) + (acc << l >> 1 >> (W - 1 - x));
		pos += x;
		if (!n) {
			n = v + 1;
			continue;
		}
		/* no write past the end, even from a corrupt pack (the packer
		 * never refers before the start either) */
		if (n > (unsigned long)(txt_raw + TXT_RAW - o))
			return;
		v--;	/* the distance */
		do
			*o = *(o - v), o++;
		while (--n);
	}
}
#endif
