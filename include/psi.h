/* /proc/pressure/memory (4.20+, CONFIG_PSI):
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 * avg are percentages with two decimals, total is microseconds of stall. */
#ifndef MB_PSI_H
#define MB_PSI_H
#include <stddef.h>
#include <stdint.h>
#include "diag.h"

struct psi_line {
	int have;
	uint64_t avg[3];   /* avg10, avg60, avg300 in hundredths of a percent */
	uint64_t total;    /* microseconds */
};
struct psi {
	struct psi_line some, full;   /* "full" is absent before 5.x for cpu */
	struct diag diag;  /* psi_parse: the first garbled line (why 0: none);
	                      psi_read: what is to be said now */
	int said;          /* psi_read said something of this struct: never again
	                      (0 before the first read) */
};
/* 0, or -1 when neither line parses.  said is left alone. */
int psi_parse(const char *buf, size_t len, struct psi *p);
/* /proc/pressure/memory under the root: 0, -errno, or -EINVAL.  diag then
 * holds what is to be said (an error other than absent or off, "too long",
 * the first garbled line), only the first time for this struct. */
int psi_read(struct psi *p);
/* "/proc/pressure/memory" */
extern const char *const psi_file;
#endif
