/* txt_: help texts kept compressed in the binary and unpacked on first use
 * (as busybox does with its usage texts: they are read rarely and are a
 * tenth of the binary).  At build time cross/txtpack collects every
 * TXT(name, "text") of the sources; in the binary TXT() is then a two-byte
 * reference into the packed texts.  Without MB_PACK (the sanitizer, fuzz
 * and host builds) TXT() is the plain string. */
#ifndef MB_TXT_H
#define MB_TXT_H
#include "out.h"

#ifdef MB_PACK
#include "txtpack.h"
#define TXT(name, text) TXT_##name
#else
#define TXT(name, text) text
#endif

/* Writes s, a TXT() text or a plain string, to o. */
void txt_out(struct out *o, const char *s);
#endif
