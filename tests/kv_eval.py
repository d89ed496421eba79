#!/usr/bin/env python3
"""kv read back through a shell, against json (tests/kv.test).

    kv_eval.py SHELL KV JSON DIR [IGNORE]

SHELL (sh, or "busybox ash") evals the kv output KV inside DIR (made
empty first), then prints
every variable that JSON (the same run in json) says kv must set.  Each
value must be the json figure as the pages' FORMATS say kv writes it:
numbers and booleans as their json text, null empty, strings with control
characters and invalid UTF-8 (json's U+FFFD) as '?'.  The kv key of a json
member is its path joined by '_', every byte outside [A-Za-z0-9_] made '_'
and a '_' before a first digit; zoneinfo-wm's zones are named
zone_NODE_NAME, smaps-rollup's processes process_PID.  Where two paths
make one key, the first is what kv keeps.  Keys matching the regular
expression IGNORE (figures that differ between two runs) are skipped.
The shell must say nothing on stderr and exit 0, and DIR must still be
empty: the eval ran no command (one would create a file there).  Exit 0
when all holds.
"""
import json, os, re, shutil, subprocess, sys

shell, kv, js, where = sys.argv[1:5]
ignore = re.compile(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] else None


class Literal(str):
    """A json number as written (no float rounding)."""


def key(path):
    # json's U+FFFD stands for one invalid byte of the name
    b = "_".join(path).replace("\ufffd", "_").encode("utf-8", "surrogateescape")
    k = re.sub(rb"[^A-Za-z0-9_]", b"_", b).decode()
    return "_" + k if not k or k[0].isdigit() else k


def text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str) and not isinstance(v, Literal):
        return "".join("?" if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c == "\ufffd" else c for c in v)
    return str(v)


want = {}


def flat(path, v, top=False):
    if isinstance(v, dict):
        for k, x in v.items():
            flat(path + [k], x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            if top and path == ["zones"] and isinstance(x, dict):
                flat(["zone", str(x["node"]), x["zone"]], x)
            elif top and path == ["processes"] and isinstance(x, dict):
                flat(["process", str(x["pid"])], x)
            else:
                flat(path + [str(i)], x)
    else:
        want.setdefault(key(path), text(v))


doc = json.loads(open(js, "rb").read(), parse_float=Literal, parse_int=Literal)
for k, v in doc.items():
    flat([k], v, top=True)
names = [k for k in want if not (ignore and ignore.search(k))]
script = 'cd "$1" || exit 9\neval "$(cat "$2")" || exit 8\n' + \
         "".join('printf "%%s|%%s\\n" "${%s+set}" "$%s"\n' % (n, n) for n in names)
# the script through stdin (sh -s): one naming thousands of keys is longer
# than one argument may be (128 KiB)
shutil.rmtree(where, ignore_errors=True)
os.makedirs(where)
p = subprocess.run(shell.split() + ["-s", where, kv], input=script.encode(), capture_output=True)
bad = []
if os.listdir(where):
    bad.append("%s: the eval ran a command: it made %s" % (shell, sorted(os.listdir(where))[:5]))
if p.returncode or p.stderr:
    bad.append("%s: exit %d, stderr %r" % (shell, p.returncode, p.stderr[:300]))
got = p.stdout.split(b"\n")
for i, n in enumerate(names):
    line = got[i] if i < len(got) else b"|"
    is_set, _, val = line.partition(b"|")
    exp = want[n].encode("utf-8", "surrogateescape")
    if is_set != b"set" or val != exp:
        bad.append("%s: %s, want %r" % (n, ("%r" % val) if is_set == b"set" else "unset", exp))
if not names:
    bad.append("no figure in the json")
if bad:
    print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
