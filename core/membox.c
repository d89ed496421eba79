/* The process-wide state of the core (membox.h) and its first values. */
#include <fcntl.h>
#include "membox.h"
#include "out.h"

struct membox mb;

/* mb is left to the bss (a struct with an initializer would be stored in
 * the binary whole, its tables of zeros too): the members that do not
 * start at 0 are set here, by the C runtime before main, so the binary,
 * the unit tests and the fuzzers, which link the core without main.c,
 * all start from the same state. */
__attribute__((constructor)) static void mb_first_values(void)
{
	mb.fmt_unit = 'k';
	mb.fo = &out1;
	mb.tree_depth = -1;
	mb.applet = "membox";
	mb.said_fd = -1;
	mb.root_fd = AT_FDCWD;
	mb.root_name = "/";
	mb.root_live = 1;
	mb.out_dir = -1;
	mb.out_fdno = -1;
}
