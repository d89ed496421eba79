# Sourced by tests/run for every tests/*.test script.  The environment:
#   TARGET (x86_64, i686, aarch64, armhf, asan), KIND (native, qemu, asan),
#   BIN (the membox binary), BDIR (its build dir: unit, live helpers),
#   RUN (qemu-user prefix for this target's programs, or empty), TOP.
# A test reports through pass / fail / skip; nothing is silent.
FIX=$TOP/tests/fixtures
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

pass() { echo "pass $TARGET $1" >>"$RESULTS"; }
fail() { echo "fail $TARGET $1" >>"$RESULTS"; echo "FAIL [$TARGET] $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -40 | sed 's/^/    /'; }
skip() { echo "skip $TARGET $TEST: $2" >>"$RESULTS"; }
# mb ARGS...: the binary of this target (under qemu where needed)
mb() { $RUN "$BIN" "$@"; }
# prog NAME ARGS...: a helper program of this target from tests/live/
prog() { p=$1; shift; $RUN "$BDIR/$p" "$@"; }
# assert NAME CMD...: passes when CMD exits 0
assert() { n=$1; shift; if "$@" >"$T/assert.out" 2>&1; then pass "$n"; else fail "$n" "$(cat "$T/assert.out")"; fi; }
# check NAME EXPECTED_RC EXPECTED_FILE CMD...: stdout and exit status
check() {
	n=$1 rc=$2 exp=$3; shift 3
	"$@" >"$T/out" 2>"$T/err"; got=$?
	if [ "$got" != "$rc" ]; then
		fail "$n" "exit $got, expected $rc; stderr: $(head -5 "$T/err")"
	elif ! d=$(diff -u "$exp" "$T/out"); then
		fail "$n" "$d"
	else
		pass "$n"
	fi
}
# testing NAME "COMMAND" "EXPECTED STDOUT": toybox style, COMMAND run by sh
testing() {
	printf '%s' "$3" >"$T/exp"
	eval "$2" >"$T/out" 2>"$T/err"
	if d=$(diff -u "$T/exp" "$T/out"); then pass "$1"; else fail "$1" "$d"; fi
}
# json_ok FILE: valid JSON (one document, or JSON Lines with -l)
json_ok() {
	if [ "$1" = -l ]; then python3 -c 'import json,sys
for l in open(sys.argv[1]):
    json.loads(l)' "$2"; else python3 -m json.tool "$1" >/dev/null; fi
}
# prom_ok FILE: passes promtool's linter
prom_ok() { promtool check metrics <"$1"; }
# fixtures: every tests/fixtures/*/cases line "EXPECT RC APPLET ARGS..." whose
# APPLET is $1 runs "APPLET -R DIR ARGS" and compares stdout with expect/EXPECT
fixtures() {
	for d in "$FIX"/*/; do
		[ -f "$d/cases" ] || continue
		while read -r exp rc app args; do
			case $exp in ''|'#'*) continue ;; esac
			[ "$app" = "$1" ] || continue
			# shellcheck disable=SC2086
			check "$app fixture $(basename "$d") $exp" "$rc" "$d/expect/$exp" mb $app -R "$d" $args
		done <"$d/cases"
	done
}
# limits NAME ARGS...: the applet runs in 512 KiB of address space and 64 KiB
# of stack (native targets; qemu-user itself needs far more)
limits() {
	n=$1; shift
	if [ "$KIND" != native ]; then skip "$n" "ulimit -v 512 applies to qemu-user itself, not to the target's code"; return; fi
	assert "$n" sh -c 'ulimit -v 512 -s 64; exec "$0" "$@" >/dev/null' "$BIN" "$@"
}
