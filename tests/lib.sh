# Sourced by tests/run for every tests/*.test script.  The environment:
#   TARGET (a target of cross/targets, or asan), KIND (native, qemu, asan),
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
prog() { _pp=$1; shift; $RUN "$BDIR/$_pp" "$@"; }
# A pid is no proof: dash reaps a background job while it waits for any
# foreground command, and a process that is not our child is reaped by its
# parent; either pid may then be another process's (pid_max wraps in minutes
# with two lanes).  pid_start PID: its start time (field 22 of
# /proc/PID/stat), noted right after the start; kill_same [-SIG] PID START:
# signals PID only while it has that start time; alive PID START: that
# process, and not yet ended (no zombie).
pid_start() { sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
alive() { _as=$(pid_start "$1"); [ -n "$_as" ] && [ "$_as" = "$2" ] && ! grep -q ') Z' "/proc/$1/stat" 2>/dev/null; }
kill_same() {
	_ks=-TERM; case $1 in -*) _ks=$1; shift ;; esac
	[ -n "$1" ] && [ -n "$2" ] && [ "$(pid_start "$1")" = "$2" ] && kill "$_ks" "$1"
}
# assert NAME CMD...: passes when CMD exits 0
assert() { _an=$1; shift; if "$@" >"$T/assert.out" 2>&1; then pass "$_an"; else fail "$_an" "$(cat "$T/assert.out")"; fi; }
# model NAME OUT CMD...: assert NAME by CMD, an independent model's check
# of the binary's output file OUT against input that is the same on every
# target (a fixture, or a tree the script generates without randomness).
# The verdict depends on OUT alone: the first target of the run to pass
# keeps a digest of NAME, CMD and OUT in SHARED, and a target whose OUT is
# byte for byte the same passes without running the model again (its
# output is the one checked).  A different OUT is checked in full.
model() {
	_mn=$1 _mo=$2; shift 2
	_mk=$({ printf '%s\n' "$_mn" "$@" | sed "s|$T|T|g"; cat "$_mo"; } | sha256sum)
	_mk=$SHARED/model/${_mk%% *}
	if [ -f "$_mk" ]; then
		pass "$_mn"
	elif "$@" >"$T/assert.out" 2>&1; then
		pass "$_mn"; mkdir -p "$SHARED/model" && : >"$_mk"
	else
		fail "$_mn" "$(cat "$T/assert.out")"
	fi
}
# kv_eval NAME SHELL KV JSON [IGNORE]: eval "$(cat KV)" in SHELL sets
# every figure of JSON (the same run in json) and runs no command
# (tests/kv_eval.py); the verdict depends on the two files' bytes alone,
# so it is model()'s: kept once per run for the same bytes.
kv_eval() {
	cat "$3" "$4" >"$T/kv_eval.in"
	model "$1" "$T/kv_eval.in" python3 "$TOP/tests/kv_eval.py" "$2" "$3" "$4" "$T/ev" "${5:-}"
}
# check NAME EXPECTED_RC EXPECTED_FILE CMD...: stdout and exit status
# (helpers use _-prefixed names: sh has no local variables)
check() {
	_cn=$1 _crc=$2 _cexp=$3; shift 3
	"$@" >"$T/out" 2>"$T/err"; _cgot=$?
	if [ "$_cgot" != "$_crc" ]; then
		fail "$_cn" "exit $_cgot, expected $_crc; stderr: $(head -5 "$T/err")"
	elif ! _cd=$(diff -u "$_cexp" "$T/out"); then
		fail "$_cn" "$_cd"
	else
		pass "$_cn"
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
# json_ok_later NAME FILE: json_ok's check of FILE, a copy kept for
# json_ok_now, which checks every kept file in one python3 (one start per
# script, not per file) and gives each NAME its pass or fail
json_ok_later() {
	_jn=$((${_jn:-0} + 1)); mkdir -p "$T/jl"
	cp "$2" "$T/jl/$_jn" 2>/dev/null || : >"$T/jl/$_jn"
	printf '%s\n' "$1" >"$T/jl/$_jn.name"
}
json_ok_now() {
	[ "${_jn:-0}" -gt 0 ] || return 0
	python3 - "$T/jl" "$_jn" >"$T/jl.out" 2>&1 <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    name = open('%s/%d.name' % (d, i)).read().rstrip('\n')
    try:
        with open('%s/%d' % (d, i)) as f:
            json.load(f)
        print('pass\t' + name)
    except ValueError as e:
        print('fail\t%s\t%s' % (name, str(e).replace('\n', ' ')))
PY
	_jr=0
	while IFS='	' read -r _js _jname _jwhy; do
		case $_js in
		pass) pass "$_jname" ;;
		fail) fail "$_jname" "$_jwhy" ;;
		*) fail "json_ok_now" "$_js $_jname $_jwhy"; continue ;;
		esac
		_jr=$((_jr + 1))
	done <"$T/jl.out"
	[ "$_jr" = "$_jn" ] || fail "json_ok_now: $_jn files checked" "$_jr results: $(tail -5 "$T/jl.out")"
	rm -rf "$T/jl"; _jn=0
}
# prom_ok FILE: passes promtool's linter.  Its verdict depends on the
# bytes alone: a digest of each file that passed is kept in SHARED, and the
# same bytes from another target or script pass without a second promtool.
prom_ok() {
	_pk=$(sha256sum <"$1") && _pk=$SHARED/promtool/${_pk%% *}
	[ -f "$_pk" ] && return 0
	promtool check metrics <"$1" || return 1
	mkdir -p "$SHARED/promtool" && : >"$_pk"
}
# fixtures: every tests/fixtures/*/cases line "EXPECT RC APPLET ARGS..." whose
# APPLET is $1 runs "APPLET -R DIR ARGS" and compares stdout with expect/EXPECT
fixtures() {
	for _fd in "$FIX"/*/; do
		[ -f "$_fd/cases" ] || continue
		while read -r _fe _frc _fa _fargs; do
			case $_fe in ''|'#'*) continue ;; esac
			[ "$_fa" = "$1" ] || continue
			# shellcheck disable=SC2086
			check "$_fa fixture $(basename "$_fd") $_fe" "$_frc" "$_fd/expect/$_fe" mb $_fa -R "$_fd" $_fargs
		done <"$_fd/cases"
	done
}
# The limits every applet is documented to run within (the README's
# conventions, LIMITS of applets/APPLET.1): address space and stack, in KiB.
VLIMIT=4096
SLIMIT=64
# limits NAME ARGS...: the applet runs in VLIMIT KiB of address space and
# SLIMIT KiB of stack (native targets; qemu-user itself needs far more)
limits() {
	_ln=$1; shift
	case $KIND in
	qemu) skip "$_ln" "ulimit -v $VLIMIT would apply to qemu-user itself, not to the target's code"; return ;;
	asan) skip "$_ln" "ASan reserves terabytes of shadow address space by design"; return ;;
	esac
	assert "$_ln" sh -c 'ulimit -v $1 && ulimit -s $2 && shift 2 && exec "$0" "$@" >/dev/null' "$BIN" $VLIMIT $SLIMIT "$@"
}
# nobody_bin: a copy of the binary that an unprivileged user can run (the
# checkout may sit in a directory only root may enter, as mktemp -d makes
# it); its path is printed.  Named membox, for the dispatch on argv[0].
nobody_bin() {
	mkdir -p "$T/nobody" && cp "$BIN" "$T/nobody/membox" &&
		chmod 755 "$T" "$T/nobody" "$T/nobody/membox" && echo "$T/nobody/membox"
}
# hostile_trees: the trees of tests/hostile/gen.py (40,000 PIDs and all),
# the same for every target and script: generated once per run into
# SHARED/hostile by the first script to take the lock (the others wait);
# true when they are there.  A failed generation fails on every target,
# with gen.py's last lines.
hostile_trees() {
	HT=$SHARED/hostile
	(
		flock 9
		if [ ! -f "$HT.done" ] && [ ! -f "$HT.failed" ]; then
			if python3 "$TOP/tests/hostile/gen.py" "$HT" --pids 40000 >"$HT.out" 2>&1; then touch "$HT.done"; else touch "$HT.failed"; fi
		fi
	) 9>"$SHARED/hostile.lock"
	[ -f "$HT.done" ] && return 0
	fail "hostile trees generated" "$(tail -20 "$HT.out" 2>/dev/null)"
	return 1
}
# class_run NAME: true where this target stands for its class of CPU in
# the checks whose cost is wall time or volume whatever the CPU (schedules
# of sleeps, waits, trees of thousands of entries): the native target,
# asan, i686 (32-bit, little-endian) and s390x (64-bit, big-endian).
# Elsewhere NAME is said skipped and it is false: aarch64 is 64-bit
# little-endian as x86_64 is, armhf, armel and mipsel 32-bit little-endian
# as i686 is; they still run every fixture's cases and the hostile trees.
class_run() {
	case $KIND/$TARGET in
	native/*|asan/*|*/i686|*/s390x) return 0 ;;
	esac
	skip "$1" "run on the native target, asan, i686 and s390x, one of each class of CPU: $TARGET's class would only repeat it"
	return 1
}
