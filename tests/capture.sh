# Sourced by capture.test and capture-live.test: what both use.
CC="python3 $TOP/tests/capture_check.py"
is_root() { [ "$(id -u)" = 0 ]; }
# extract TAR DIR: a fresh DIR with TAR extracted by GNU tar
extract() { rm -rf "$2" && mkdir -p "$2" && tar -x -f "$1" -C "$2"; }
