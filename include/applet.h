/* What every applet file includes.  An applet keeps its state in one
 * struct, declared in its file as
 *   GLOBALS(
 *   	members...
 *   )
 * and reached as TT (the file says #define TT this.NAME).  The build
 * gathers every applet's block into one union (cross/globals writes
 * globals.h), so only the running applet's state takes room. */
#ifndef MB_APPLET_H
#define MB_APPLET_H
#define GLOBALS(...)
#include <signal.h>     /* sig_atomic_t, for a state that signal handlers set */
#include "globals.h"
#include "cli.h"
#include "diag.h"
#include "membox.h"
#include "msg.h"
#include "out.h"
#include "table.h"
#include "text.h"
#include "report.h"
#include "run.h"
#endif
