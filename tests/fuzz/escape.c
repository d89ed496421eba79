/* Fuzz the escapers: json output of any bytes must be valid UTF-8 with no
 * raw control character; prom labels and tables likewise. */
#include <stdint.h>
#include <string.h>
#include "membox.h"
#include "out.h"
#include "table.h"
#include "text.h"
#include "prom.h"
#include "tree.h"

static char got[1 << 16];
static size_t glen;
static struct out sink;
static char sbuf[MB_OUT_BUF];

static void check_clean(void)
{
	size_t i = 0;
	while (i < glen) {
		int k = utf8_len((const unsigned char *)got + i, glen - i);
		unsigned c = (unsigned char)got[i];
		if (!k || (k == 1 && (c < 0x20 || c == 0x7f) && c != '\n') ||
		    (k == 2 && c == 0xc2 && (unsigned char)got[i + 1] < 0xa0))
			__builtin_trap();
		i += k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	int f;

	if (n > 600)   /* 6 bytes out per byte in at most: stays in one buffer */
		return 0;
	for (f = FMT_TABLE; f <= FMT_PROM; f++) {
		sink.fd = -1;   /* writes fail; the bytes are taken from the buffer */
		sink.buf = sbuf;
		sink.len = sink.err = 0;
		mb.fo = &sink;
		mb.fmt = f;
		if (f == FMT_PROM) {
			p_start("x");
			p_lab("l", (const char *)d, n);
			p_u64(1);
		} else if (f == FMT_TABLE) {
			out_safe(mb.fo, (const char *)d, n);
		} else {
			tree_obj(0);
			tree_str("k", (const char *)d, n);
			tree_done();
		}
		glen = sink.len < sizeof got ? sink.len : sizeof got;
		memcpy(got, sbuf, glen);
		if (sink.len < MB_OUT_BUF)
			check_clean();
	}
	mb.fo = &out1;
	return 0;
}
