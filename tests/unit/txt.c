/* The packed texts (cross/txtpack, core/txt.c): unpacked, they are byte
 * for byte the texts of the sources (the checksum txtpack computed from
 * them), each ended by its NUL; a table of texts read through them.
 * Without MB_PACK (the sanitizer build) the texts are plain strings. */
#include <errno.h>
#include <string.h>
#include "out.h"
#include "t.h"
#include "txt.h"

int main(void)
{
	txt_unpack();
#ifdef MB_PACK
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < TXT_RAW; i++)
		h = (h ^ (unsigned char)txt_raw[i]) * 16777619u;
	CHECK("unpacked texts are the sources' (FNV-1a)", h == TXT_SUM);
	CHECK("the last text ends with its NUL", !txt_raw[TXT_RAW - 1]);
#endif
	CHECK("an errno text from the packed table",
	      !strcmp(mb_strerror(ENOENT), "No such file or directory"));
	CHECK("the last errno text of the table", !strcmp(mb_strerror(EOPNOTSUPP), "Not supported"));
	CHECK("an errno without a text", !strcmp(mb_strerror(200), "error 200"));
	return t_end_all();
}
