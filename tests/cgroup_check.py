#!/usr/bin/env python3
"""Independent model of smaps-rollup -g cgroup for the tests: reads a
captured tree (proc/self/mountinfo, proc/PID/cgroup, the cgroup
directories under sys/fs/cgroup) with Python's own parsing and checks
membox's json against the rules of its page.  The process sums come from
smaps_rollup_check.py (the model of every other grouping); what is added
here is where each process's memory cgroup is and what the kernel says
about it.

  cgroup_check.py json DIR FILE ARGS..   FILE is membox's -o json for ARGS
                                         (-g cgroup [--cgroup-depth=N] [-a])
  cgroup_check.py figures DIR ARGS..     the model's groups, one per line
                                         (for a fixture's README)
  cgroup_check.py hostile DIR            writes a tree with hostile cgroup
                                         names (newline, quotes, backslash,
                                         ESC, invalid UTF-8, a 4 KiB path)
  cgroup_check.py many DIR N             writes N processes, each in its
                                         own cgroup (every 16th with a
                                         directory and its own figures)
  cgroup_check.py read OUT PID:GROUP:DIR:MIB..
                                         the live figures below, read before
                                         membox runs, written to OUT
  cgroup_check.py live FILE KIND BEFORE PID:GROUP:DIR:MIB..
                                         a live run: each group's PSS is the
                                         sum of its members' smaps_rollup Pss,
                                         its current DIR's memory.usage_in_bytes
                                         or memory.current (read here, and in
                                         BEFORE: membox's between the two)

Rules modelled (applets/smaps-rollup.1, CGROUPS):
- a process's memory cgroup: the line of /proc/PID/cgroup whose controller
  list holds "memory" (v1), else the "0::" line (v2); the kernel prints
  the path raw, so a line that does not start "N:controllers:" continues
  the path before it (a newline in a cgroup's name);
- its directory: the hierarchy's mount point (from mountinfo: cgroup2, or
  cgroup with "memory" in its super options) joined with the path less the
  mount's root; a path not under the mount's root has no directory;
- --cgroup-depth=N folds a path to its first N components;
- -a adds each directory of the hierarchy with current > 0, no process in
  it or below it, and no subdirectory (within --cgroup-depth) with
  current > 0: where the charge lies (a stopped service's page cache);
- figures absent (a file missing, a directory missing) are null, never 0;
  v1 limits at or above 2^62 are "no limit" (null); swap_current of v1 is
  memsw - usage, never below 0;
- charged_minus_pss = current - PSS sum; not_in_pss: file_unmapped = file -
  file_mapped (v1 cache - mapped_file), kernel (v2 "kernel", else
  kernel_stack + pagetables + percpu + slab; v1 memory.kmem.usage_in_bytes),
  sock (v2 only), rest = charged_minus_pss less the parts that are known.
"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smaps_rollup_check as S   # noqa: E402

NOLIMIT = 1 << 62
LINE = re.compile(rb"^[0-9]+:[^:\n]*:")


def unoctal(b):
    """mountinfo's \\ooo escapes (space, tab, newline, backslash)"""
    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), b)


def mounts(root):
    """(v1 memory mount, cgroup2 mount): each (mount point, mount root) or None"""
    v1 = v2 = None
    for line in (S.read(root + "/proc/self/mountinfo") or b"").split(b"\n"):
        f = line.split(b" ")
        if b"-" not in f:
            continue
        i = f.index(b"-")
        fstype, opts = f[i + 1], f[i + 3].split(b",") if len(f) > i + 3 else []
        if fstype == b"cgroup2" and v2 is None:
            v2 = (unoctal(f[4]), unoctal(f[3]))
        if fstype == b"cgroup" and b"memory" in opts and v1 is None:
            v1 = (unoctal(f[4]), unoctal(f[3]))
    return v1, v2


def cgroup_of(text):
    """(version, path) of a /proc/PID/cgroup text, or None"""
    found, cur = {}, None
    for line in text.split(b"\n")[:-1] if text.endswith(b"\n") else text.split(b"\n"):
        m = LINE.match(line)
        if not m:
            if cur is not None:   # a newline inside the path before
                found[cur] += b"\n" + line
            continue
        hid, ctl, path = line.split(b":", 2)
        cur = None
        if b"memory" in ctl.split(b","):
            cur = 1
        elif hid == b"0" and ctl == b"":
            cur = 2
        if cur is not None and cur not in found:
            found[cur] = path
        else:
            cur = None
    if 1 in found:
        return 1, found[1]
    if 2 in found:
        return 2, found[2]
    return None


def fold(path, depth):
    if depth is None:
        return path
    parts = [p for p in path.split(b"/") if p != b""] if path != b"/" else []
    return b"/" + b"/".join(parts[:depth])


def directory(root, mnt, path):
    if mnt is None:
        return None
    point, mroot = mnt
    if mroot == b"/":
        rel = path
    elif path == mroot:
        rel = b""
    elif path.startswith(mroot + b"/"):
        rel = path[len(mroot):]
    else:
        return None
    return root.encode() + point + (rel if rel != b"/" else b"")


def num(d, name):
    t = S.read(d + b"/" + name) if d is not None else None
    if t is None:
        return None
    t = t.strip()
    if t == b"max":
        return "max"
    return int(t)


def pairs(d, name):
    t = S.read(d + b"/" + name) if d is not None else None
    if t is None:
        return None
    out = {}
    for line in t.split(b"\n"):
        f = line.split()
        if len(f) == 2:
            out[f[0].decode()] = int(f[1])
    return out


def pressure(d):
    t = S.read(d + b"/memory.pressure") if d is not None else None
    if t is None:
        return None
    out = {}
    for line in t.split(b"\n"):
        f = line.split()
        if not f:
            continue
        out[f[0].decode()] = {k.decode(): (int(v) if k == b"total" else float(v))
                              for k, v in (x.split(b"=") for x in f[1:])}
    return out


def figures(root, version, d, pss):
    """the "cgroup" object of a group whose directory is d (bytes or None)"""
    c = dict(version=version, current=None, swap_current=None, max=None, high=None,
             stat=None, events=None, pressure=None)
    if d is not None and os.path.isdir(d):
        if version == 2:
            c["current"] = num(d, b"memory.current")
            c["swap_current"] = num(d, b"memory.swap.current")
            mx, hi = num(d, b"memory.max"), num(d, b"memory.high")
            c["max"] = None if mx == "max" else mx
            c["high"] = None if hi == "max" else hi
            c["stat"] = pairs(d, b"memory.stat")
            c["events"] = pairs(d, b"memory.events")
            c["pressure"] = pressure(d)
        else:
            c["current"] = num(d, b"memory.usage_in_bytes")
            memsw = num(d, b"memory.memsw.usage_in_bytes")
            if memsw is not None and c["current"] is not None:
                c["swap_current"] = max(memsw - c["current"], 0)
            mx = num(d, b"memory.limit_in_bytes")
            c["max"] = mx if mx is not None and mx < NOLIMIT else None
            c["stat"] = pairs(d, b"memory.stat")
            c["events"] = pairs(d, b"memory.oom_control")
    st = c["stat"] or {}
    cmp = c["current"] - pss if c["current"] is not None else None
    sub = lambda a, b: a - b if a is not None and b is not None else None
    add = lambda *v: sum(v) if None not in v else None
    if version == 2:
        fu = sub(st.get("file"), st.get("file_mapped"))
        kern = st.get("kernel") if "kernel" in st else add(*(st.get(k) for k in ("kernel_stack", "pagetables", "percpu", "slab")))
        sock = st.get("sock")
    else:
        fu = sub(st.get("cache"), st.get("mapped_file"))
        kern = num(d, b"memory.kmem.usage_in_bytes") if d is not None and os.path.isdir(d) else None
        sock = None
    rest = None if cmp is None else cmp - sum(v for v in (fu, kern, sock) if v is not None)
    c["charged_minus_pss"] = cmp
    c["not_in_pss"] = dict(file_unmapped=fu, kernel=kern, sock=sock, rest=rest)
    return c


def args_of(args):
    depth, walk, rest = None, False, []
    a = list(args)
    while a:
        x = a.pop(0)
        if x.startswith("--cgroup-depth="):
            depth = int(x.split("=", 1)[1])
        elif x == "--cgroup-depth":
            depth = int(a.pop(0))
        elif x == "-a":
            walk = True
        elif x == "-g":
            a.pop(0)
        else:
            rest.append(x)
    return depth, walk, rest


def walk_dirs(top, maxdepth=32):
    out = []
    for d, subs, _ in os.walk(top):
        rel = d[len(top):]
        if rel.count(b"/") >= maxdepth:
            subs[:] = []
        out.append(rel or b"/")
    return out


def charged(d, ver):
    cur = num(d, b"memory.usage_in_bytes" if ver == 1 else b"memory.current")
    return isinstance(cur, int) and cur > 0


def subdirs(d):
    return [e.name.encode() if isinstance(e.name, str) else e.name for e in os.scandir(d) if e.is_dir()]


def model(root, args):
    """{name bytes: dict(rows, version, dir)} and the extra (-a) groups"""
    depth, walk, rest = args_of(args)
    rows, cov = S.scan(root, S.parse_args(rest))
    v1, v2 = mounts(root)
    groups = {}
    for r in rows:
        t = S.read("%s/proc/%d/cgroup" % (root, r["pid"]))
        cg = cgroup_of(t) if t is not None else None
        if cg is None:
            g = groups.setdefault(b"(unknown)", dict(rows=[], version=None, dir=None))
        else:
            ver, path = cg
            name = fold(path, depth)
            g = groups.setdefault(name, dict(rows=[], version=ver,
                                             dir=directory(root, v1 if ver == 1 else v2, name)))
        g["rows"].append(r)
    extra = {}
    if walk:
        ver, mnt = (1, v1) if v1 else (2, v2)
        if mnt:
            top = root.encode() + mnt[0]
            for rel in walk_dirs(top):
                # the directory's cgroup path as /proc/PID/cgroup would show it
                path = (mnt[1].rstrip(b"/") + rel) if rel != b"/" else mnt[1]
                if depth is not None and fold(path, depth) != path:
                    continue
                # a directory with processes in it or below it is counted
                # through them (its charge includes theirs)
                under = path.rstrip(b"/") + b"/"
                if any(g == path or g.startswith(under) for g in groups):
                    continue
                d = top + (rel if rel != b"/" else b"")
                if charged(d, ver) and not any(charged(d + b"/" + s, ver) for s in subdirs(d)
                                               if depth is None or len([c for c in path.split(b"/") if c]) < depth):
                    extra[path] = dict(rows=[], version=ver, dir=d)
    return groups, extra, cov


def expect(root, args):
    groups, extra, cov = model(root, args)
    out = {}
    for name, g in list(groups.items()) + list(extra.items()):
        s = S.sumrows(g["rows"])
        e = dict(name=S.ustr(name), processes=s["processes"], **S.sums(s))
        e["cgroup"] = figures(root, g["version"], g["dir"], s["pss"])
        out[e["name"]] = (e, bool(g["rows"]))
    return out, cov


def close(a, b):
    if a is None and isinstance(b, dict) and all(v is None for v in b.values()):
        return True   # an object of nulls may be null
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) < 0.005
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    return a == b and type(a) == type(b)


def check_json(root, j, args):
    exp, cov = expect(root, args)
    bad = []
    if j.get("group_by") != "cgroup":
        bad.append("group_by %r" % j.get("group_by"))
    got = j.get("groups") or []
    names = [g.get("name") for g in got]
    if len(names) != len(set(names)):
        bad.append("a group twice: %s" % sorted(n for n in names if names.count(n) > 1)[:4])
    if set(names) != set(exp):
        cut = lambda ns: [n if len(n) < 80 else n[:60] + "...(%d)" % len(n) for n in sorted(ns)[:8]]
        bad.append("groups %s, want %s" % (cut(set(names) - set(exp)), cut(set(exp) - set(names))))
    for g in got:
        if g.get("name") not in exp:
            continue
        e, _ = exp[g["name"]]
        for k, v in e.items():
            if k == "cgroup":
                for ck, cv in v.items():
                    gv = (g.get("cgroup") or {}).get(ck)
                    if ck == "version" and v["current"] is None and gv is None:
                        continue
                    if not close(gv, cv):
                        bad.append("%r cgroup.%s: %s, want %s" % (g["name"], ck, json.dumps(gv)[:300], json.dumps(cv)[:300]))
            elif g.get(k) != v:
                bad.append("%r %s: %s, want %s" % (g["name"], k, g.get(k), v))
        if len(bad) > 12:
            break
    # groups with processes in PSS order (largest first)
    withp = [g["pss"] for g in got if g.get("processes")]
    if withp != sorted(withp, reverse=True):
        bad.append("groups with processes not in PSS order: %s" % withp[:10])
    c = j.get("coverage", {})
    if c.get("cgroups_dropped", 0) != 0:
        bad.append("cgroups_dropped %s" % c.get("cgroups_dropped"))
    if c.get("processes") != cov["processes"]:
        bad.append("coverage.processes %s, want %s" % (c.get("processes"), cov["processes"]))
    return bad


def main():
    mode = sys.argv[1]
    if mode == "json":
        root, j = sys.argv[2], json.load(open(sys.argv[3]))
        bad = check_json(root, j, sys.argv[4:])
        print("\n".join(bad))
        return 1 if bad else 0
    if mode == "figures":
        exp, _ = expect(sys.argv[2], sys.argv[3:])
        for name, (e, _) in sorted(exp.items()):
            c = e["cgroup"]
            n = c["not_in_pss"]
            print("%s: processes %d, pss %d; current %s, swap_current %s, max %s, high %s; "
                  "charged_minus_pss %s; file_unmapped %s, kernel %s, sock %s, rest %s"
                  % (json.dumps(name), e["processes"], e["pss"], c["current"], c["swap_current"], c["max"],
                     c["high"], c["charged_minus_pss"], n["file_unmapped"], n["kernel"], n["sock"], n["rest"]))
        return 0
    if mode == "hostile":
        return hostile(sys.argv[2])
    if mode == "many":
        return many(sys.argv[2], int(sys.argv[3]))
    if mode == "read":
        json.dump(live_read(sys.argv[3:]), open(sys.argv[2], "w"))
        return 0
    if mode == "live":
        return live(sys.argv[2], sys.argv[3], json.load(open(sys.argv[4])), sys.argv[5:])
    raise SystemExit("unknown mode")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def process(root, pid, name, pss_kb, cgroup_text, cmdline=True):
    d = "%s/proc/%d/" % (root, pid)
    write(d + "status", "Name:\t%s\nState:\tS (sleeping)\nPPid:\t1\nUid:\t0\t0\t0\t0\nVmRSS:\t%d kB\n" % (name, pss_kb * 2))
    if cmdline:
        write(d + "cmdline", name.encode() + b"\0")
    write(d + "smaps_rollup", "Rss: %d kB\nPss: %d kB\nPrivate_Clean: 0 kB\nPrivate_Dirty: %d kB\nSwap: 0 kB\n"
          % (pss_kb * 2, pss_kb, pss_kb // 2))
    if cgroup_text is not None:
        write(d + "cgroup", cgroup_text)


def v2files(d, current, file, mapped):
    write(d + b"/memory.current", "%d\n" % current)
    write(d + b"/memory.max", "max\n")
    write(d + b"/memory.stat", "anon %d\nfile %d\nfile_mapped %d\nkernel 8192\nsock 0\n" % (current - file, file, mapped))
    write(d + b"/memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")


HOSTILE = [b"/new\nline.service", b"/quo\"te's.scope", b"/back\\slash\\n", b"/esc\x1b[31mred\x1b[0m",
           b"/bad\xff\xfeutf8", b"/$(touch pwned)`id`", b"/spa ce/and\ttab", b"/x=\"1\" y{le=\"2\"}"]


def hostile(root):
    write(root + "/proc/meminfo", "MemTotal:       2000000 kB\n")
    write(root + "/etc/passwd", "root:x:0:0::/:/bin/sh\n")
    write(root + "/proc/self/mountinfo", "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
    top = root.encode() + b"/sys/fs/cgroup"
    write(top + b"/memory.stat", "anon 0\nfile 0\n")
    names = list(HOSTILE)
    # the longest path the kernel prints, 4095 bytes (PATH_MAX with its
    # NUL; the file is 4099 bytes with "0::" and the newline): its
    # directory is not in the tree (under DIR it could not be opened
    # whole): null figures
    names.append(b"".join(b"/" + (b"%c" % (97 + i)) * 199 for i in range(20)) + b"/" + b"z" * 94)
    assert len(names[-1]) == 4095
    for i, n in enumerate(names):
        process(root, 100 + i, "h%d" % i, 100 + i * 10, b"0::" + n + b"\n")
        if len(n) < 1024:
            v2files(top + n, (1000 + i) * 4096, 300 * 4096, 100 * 4096)
    return 0


def many(root, n):
    write(root + "/proc/meminfo", "MemTotal:       2000000 kB\n")
    write(root + "/etc/passwd", "root:x:0:0::/:/bin/sh\n")
    write(root + "/proc/self/mountinfo", "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
    top = root.encode() + b"/sys/fs/cgroup"
    # every 16th cgroup has a directory (the others: null figures): the
    # tree stays small to write and remove
    for i in range(n):
        p = b"/%x" % i
        process(root, 100000 + i, "c%d" % i, i % 89 + 4, b"0::" + p + b"\n", cmdline=False)
        if i % 16 == 0:
            write(top + p + b"/memory.current", "%d\n" % ((i % 97 + 8) * 4096))
    return 0


def live_read(members):
    """members: PID:GROUP:DIR:MIB (MIB written by the workload); each
    group's figures read directly here"""
    want = {}
    for m in members:
        m, mib = m.rsplit(":", 1)
        pid, group, d = m.split(":", 2)
        ro = S.keynums(S.read("/proc/%s/smaps_rollup" % pid), ["Pss", "Pss_Anon"])
        w = want.setdefault(group, dict(pss=0, anon=0, n=0, dir=d, mib=0))
        w["pss"] += ro["Pss"]
        w["anon"] += ro["Pss_Anon"]
        w["n"] += 1
        w["mib"] += int(mib)
    for w in want.values():
        w["v1"] = os.path.exists(w["dir"] + "/memory.usage_in_bytes")
        w["cur"] = int(open(w["dir"] + ("/memory.usage_in_bytes" if w["v1"] else "/memory.current")).read())
    return want


def live(path, kind, before, members):
    """membox's figures of each group between those read before it ran
    (before) and after (here): the kernel moves a cgroup's charge, and
    the PSS of pages shared with other programs, while nothing runs"""
    j = json.load(open(path))
    by = {g["name"]: g for g in j.get("groups", [])}
    after = live_read(members)
    bad = []
    for group, w in after.items():
        b = before.get(group)
        g = by.get(group)
        if g is None or b is None:
            bad.append("%s: not listed (or not read before)" % group)
            continue
        inside = lambda k, v, slack=0: min(b[k], w[k]) - slack <= v <= max(b[k], w[k]) + slack
        c = g.get("cgroup") or {}
        # asan: the sanitizer's shared libraries, whose PSS the measuring
        # membox (and every other program using them) moves; anon is exact
        pss_ok = inside("pss", g["pss"], 2 << 20 if kind == "asan" else 0)
        if g["processes"] != w["n"] or b["n"] != w["n"] or not pss_ok or g.get("pss_anon") is None or not inside("anon", g["pss_anon"]):
            bad.append("%s: %d processes, pss %d, pss_anon %s; want %d, %d..%d, %d..%d (read before and after)"
                       % (group, g["processes"], g["pss"], g.get("pss_anon"), w["n"], b["pss"], w["pss"], b["anon"], w["anon"]))
        cur = c.get("current")
        if cur is None or not inside("cur", cur) or c.get("charged_minus_pss") != cur - g["pss"]:
            bad.append("%s: current %s, charged_minus_pss %s; want current %d..%d (read before and after), charged_minus_pss current less pss %d"
                       % (group, cur, c.get("charged_minus_pss"), b["cur"], w["cur"], g["pss"]))
        # the workloads' own pages: all charged here, all in their PSS
        if not (w["anon"] >= w["mib"] << 20 and w["cur"] >= w["mib"] << 20):
            bad.append("%s: anonymous PSS %d, current %d: less than the %d MiB written" % (group, w["anon"], w["cur"], w["mib"]))
        if c.get("version") != (1 if w["v1"] else 2):
            bad.append("%s: version %s" % (group, c.get("version")))
    print("\n".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
