/* txt_: texts kept compressed in the binary (as busybox does with its
 * usage texts: they are a tenth of the binary) and all unpacked at the
 * start of main().  At build time cross/txtpack collects every TXT(name,
 * "text") and TX("text") of the sources; in the binary TXT() is then the
 * text's place in the buffer they are unpacked to, txt_raw.  Without
 * MB_PACK (the sanitizer, fuzz and host builds) it is the plain string.
 * So a TXT() is a pointer, never an array initialiser. */
#ifndef MB_TXT_H
#define MB_TXT_H

#ifdef MB_PACK
#include "txtpack.h"
#define TXT(name, text) TXT_##name
/* TX(text): a text named by its file (MB_UNIT, set by the Makefile) and
 * its place among the file's TX() (cross/txtpack counts them the same way) */
#define TX(text) TX_ID(MB_UNIT, __COUNTER__)
#define TX_ID(u, n) TX_ID_(u, n)
#define TX_ID_(u, n) TXT_##u##_##n
#else
#define TXT(name, text) text
#define TX(text) text
#endif

/* Unpacks every text; main() calls it first, so that an applet may read a
 * TXT()/TX() anywhere (a table of them, a comparison); a unit test that
 * prints or reads texts calls it itself. */
#ifdef MB_PACK
void txt_unpack(void);
#else
#define txt_unpack() ((void)0)
#endif
/* txt(s): s, a text or any string (texts were once unpacked on first use
 * through it; now they are unpacked before anything reads them) */
#define txt(s) ((const char *)(s))
#endif
