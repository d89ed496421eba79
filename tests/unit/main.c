/* The unit tests as one program, linked against the core once per target
 * (a link per test file cost each target about 15 s of CPU):
 *   unit               every unit, each after a line "unit NAME"
 *   unit NAME [ARG]    that unit alone; ARG reaches it as unit_arg
 * Each unit runs in a child of its own, from the state the program starts
 * with, as it did when it was a program of its own: a unit that changes
 * the core's state (signal dispositions, the writer's descriptor) cannot
 * change the next one's.  A unit that ends other than by returning 0 gets
 * a line "exit NAME STATUS" (sigN for a signal).  The exit status is 1
 * when any unit failed.  units.h, made by the Makefile from the file
 * names, holds UNIT(NAME) for each tests/unit/NAME.c. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "out.h"
#include "text.h"

const char *unit_arg;

#define UNIT(n) int unit_##n(void);
#include "units.h"
#undef UNIT

static const struct unit {
	const char *name;
	int (*run)(void);
} units[] = {
#define UNIT(n) { #n, unit_##n },
#include "units.h"
#undef UNIT
};

static int run(const struct unit *u)
{
	pid_t pid;
	int st;

	out_s(&out1, "unit ");
	out_s(&out1, u->name);
	out_c(&out1, '\n');
	out_flush(&out1);
	pid = fork();
	if (!pid)
		_exit(u->run());
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		st = -1;
	else if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	out_s(&out1, "exit ");
	out_s(&out1, u->name);
	out_c(&out1, ' ');
	if (st == -1)
		out_s(&out1, "fork failed");
	else if (WIFSIGNALED(st)) {
		out_s(&out1, "sig");
		out_u64(&out1, (unsigned)WTERMSIG(st));
	} else
		out_u64(&out1, (unsigned)WEXITSTATUS(st));
	out_c(&out1, '\n');
	out_flush(&out1);
	return 1;
}

int main(int argc, char **argv)
{
	size_t i;
	int failed = 0;

	for (i = 0; i < sizeof units / sizeof *units; i++) {
		if (argc > 1 && strcmp(argv[1], units[i].name))
			continue;
		unit_arg = argc > 2 ? argv[2] : 0;
		failed |= run(&units[i]);
		if (argc > 1)
			return failed;
	}
	if (argc > 1) {
		out_s(&out2, "unit: no unit ");
		out_s(&out2, argv[1]);
		out_c(&out2, '\n');
		out_flush(&out2);
		return 2;
	}
	return failed;
}
