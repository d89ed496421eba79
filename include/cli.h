/* cli_: options (getopt style with long forms, permuted as GNU and
 * busybox getopt do), the options every applet shares, and the usage and
 * exit conventions (README: "Conventions shared by every applet"; each
 * applet's manual page: OPTIONS, EXIT STATUS). */
#ifndef MB_CLI_H
#define MB_CLI_H
#include <stddef.h>
#include <stdint.h>

struct opt {
	const char *lng;   /* --name, or 0 */
	char shrt;         /* -c, or 0 */
	char arg;          /* 0: none, 1: required, 2: optional (--name=ARG only) */
	short id;
};
struct optst {
	int ind;           /* next argv index; operands start here after OPT_END */
	const char *cl;    /* rest of a cluster of short options */
	const char *arg;   /* the option's argument, or 0 */
	int in_order;      /* set by the applet: the options end at the first
	                    * operand (a command whose arguments follow) */
	int first_operand, operands;   /* the operands passed over so far */
};
enum { OPT_END = -1, OPT_ERR = -2, OPT_HELP = 256, OPT_PAGESIZE, OPT_EVERY, OPT_COUNT,
       OPT_OUTPUT, OPT_APPLET };

/* --every=SEC and --count=N, for the applets whose report is one reading
 * (not vmstat-meter's, whose -n is its own): in the applet's option table
 * and usage text, handled by cli_common like the common options. */
#define CLI_REPEAT_OPTS { "every", 0, 1, OPT_EVERY }, { "count", 0, 1, OPT_COUNT }
#define CLI_REPEAT_HELP \
	"      --every=SEC     the whole report again every SEC seconds (0.001 to\n" \
	"                      4294967295), until SIGTERM, SIGINT or SIGHUP (exit 0)\n" \
	"      --count=N       with --every: stop after N reports\n"

/* The options every applet takes (-o, -R, -b, -k, -m, -h, --help):
 * opt_next looks for them after the applet's table, which need not list
 * them; their usage text: */
extern const char *const cli_common_help;

/* Start: the applet's name for messages, MEMBOX_ROOT. */
void cli_init(const char *applet);
/* Next option: its id, OPT_END (operands from st->ind) or OPT_ERR
 * (message printed).  Options and operands may come in any order: the
 * operands passed over are moved in argv after the options, in their
 * order, as GNU and busybox getopt do ("tmpfs-du /dev/shm -h").  "--" ends
 * the options; with st->in_order, the first operand does too. */
int opt_next(struct optst *st, int argc, char **argv, const struct opt *t);
/* Handle a common option: 1 done, 0 not common, -1 bad value (message
 * printed).  --help prints usage and exits 0. */
int cli_common(int id, const char *arg, const char *usage);
/* After the options: open the root.  0, or 1 with a message. */
int cli_root(void);
/* Where the report begins, after cli_root: the report's --output file
 * opened (out.h), 0; or the exit status of a failure (1) or usage error
 * (2, --count without --every).  With --every this is a loop that forks a
 * process for each report, in which it returns 0, so every report starts
 * from the state the options left; the loop itself never returns: it
 * exits, 0 after a stop signal, else with the last report's status. */
int cli_reports(void);
/* --every in microseconds is mb.every_us (membox.h; 0: one report) */
/* The end of a usage error, after the message that says it (which
 * names the option, its value and what it takes): "Try 'APPLET --help'."
 * on stderr, as busybox and coreutils say it; returns 2.  Nothing here
 * exits but --help: a usage error comes back to the applet as a return
 * value (OPT_ERR, -1, or this 2), so an applet may give it another status
 * (lowmem --check: 3). */
int cli_usage_error(void);
/* An option whose value is one of names[0..n) (the declaration that
 * lists them), in any case ("-s PSS" as the table's header spells it):
 * its index; else the message "OPT 'ARG': one of A, B, C" and -1, after
 * which the applet returns cli_usage_error(). */
#define CLI_PICK_MAX 16   /* names listed in the message, at most */
int cli_pick(const char *opt, const char *arg, const char *const *names, int n);
/* The names nearest a word the user typed (a typo), out of candidates
 * offered one by one: those within an edit distance (letters inserted,
 * dropped, changed or two swapped) of a third of the word's length, at
 * least 1 and at most 3; the CLI_NEAR_MAX nearest, the first offered
 * first among equals.  Each kept as a NUL-ended copy. */
#define CLI_NEAR_MAX 3
#define CLI_NEAR_LEN 63   /* a longer candidate is too far from any typo */
struct cli_near {
	const char *word;
	unsigned n;
	unsigned dist[CLI_NEAR_MAX];
	char name[CLI_NEAR_MAX][CLI_NEAR_LEN + 1];
};
void cli_near_offer(struct cli_near *near, const char *name, size_t len);
/* The numbers of options, one rule for all applets.  An integer
 * option: decimal digits only, from min to max.  A decimal one (seconds,
 * a ratio): digits with one '.', decimals beyond dec cut (its precision),
 * as an integer times 10^dec from min to max in those units (0.01 s with
 * dec 6 is 10000).  A sign, a fraction of an integer, another byte, a
 * value beyond 2^64 - 1 in those units or outside [min, max]: a message
 * "OPT 'ARG': not a [whole] number from MIN to MAX" and -1, after which
 * the applet returns cli_usage_error().  Else 0 and *v. */
int cli_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *v);
int cli_fix(const char *opt, const char *arg, int dec, uint64_t min, uint64_t max, uint64_t *v);
/* -p PID[,PID] (repeatable): each PID (1 to 2^31 - 1) not yet among
 * pids[0..*n) added; more than max (SR_MAX_PIDS) or a bad number: a
 * message and -1 (a usage error), else 0. */
int cli_pids(char *arg, unsigned *pids, unsigned *n, unsigned max);
/* The usual shape of an applet's option loop: common options handled,
 * every other id returned; OPT_ERR after a usage message. */
int cli_next(struct optst *st, int argc, char **argv, const struct opt *t, const char *usage);
#endif
