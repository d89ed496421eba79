#!/usr/bin/env python3
"""Independent model of smaps-rollup for the tests: reads a captured tree
(proc/PID/{status,cmdline,smaps_rollup,smaps}, proc/meminfo, etc/passwd)
with Python's own parsing and renders what membox must print, in every
format.  It shares no code with membox; where it mirrors a rule (which
file wins, how a row is classified) the rule is applets/smaps-rollup.1's.

  smaps_rollup_check.py fixture DIR           every case of DIR/cases
  smaps_rollup_check.py json DIR FILE ARGS..  FILE is membox's -o json
  smaps_rollup_check.py smaps SMAPSDIR ROLLDIR FILE
                         FILE (json of the smaps-only tree) against the
                         real rollups captured beside it
  smaps_rollup_check.py FORMAT DIR FILE ARGS..  FILE is membox's output in
                         FORMAT (json, kv, prom, table) for ARGS (any view,
                         also -S, -M, -l; DIR may be / for the live system)
  smaps_rollup_check.py expect DIR ARGS..  the model's json for ARGS, printed
                         (of the live system, read before membox runs)
  smaps_rollup_check.py between BEFORE DIR FILE ARGS..  FILE (membox's -o json
                         of the live system) against the model's json read
                         before (BEFORE, from expect) and after it: each
                         number between the two, the rest equal to one
  smaps_rollup_check.py msums DIR FILE [before=ROLLUP] [KEY..]  -M's object
                         sums against DIR/proc/PID/smaps_rollup (and a copy
                         of it read before membox: then between the two)

The mapping views (-S, -M, -l) are modelled from the smaps files with the
page's rules: the header line split with a regular expression, the
kinds told apart by prefix, objects keyed by (kind, dev, inode) or (kind,
name), the bounds SR_MAX_OBJS, SR_OBJ_POOL, SR_MAX_WIDE, SR_MAX_CONSUMERS,
SR_SWAP_POOL, SR_MAX_SWAPPROCS: the page's LIMITS, not membox's code.
"""
import json, os, re, sys

ROLL = ("Rss Pss Pss_Dirty Pss_Anon Pss_File Pss_Shmem Shared_Clean Shared_Dirty "
        "Private_Clean Private_Dirty Referenced Anonymous KSM LazyFree AnonHugePages "
        "ShmemPmdMapped FilePmdMapped Shared_Hugetlb Private_Hugetlb Swap SwapPss Locked").split()
STAT = "VmRSS RssAnon RssFile RssShmem VmSwap".split()
SUMS = ["pss", "uss", "rss", "swap", "swap_pss"]
# each size: the rollup key, else status's
MKEY = [("Pss", "VmRSS"), ("USS", "RssAnon"), ("Rss", "VmRSS"), ("Swap", "VmSwap"),
        ("SwapPss", "VmSwap"), ("Pss_Anon", "RssAnon"), ("Pss_File", "RssFile"),
        ("Pss_Shmem", "RssShmem")]
KEYS = ["pss", "uss", "rss", "swap", "swappss", "anon", "file", "shmem", "private_dirty", "pid", "user", "name"]
COV = ["processes", "kernel_threads", "approximate", "vanished", "inaccessible", "dropped",
       "truncated", "saturated", "grouped_other", "command_lost"]
# the rollup keys the sums add besides the sizes (the page's FIGURES), named
# as the kernel's in lower case with '_' between words
SUMKEYS = [k for k in ROLL if k not in ("Rss", "Pss", "Swap", "SwapPss")]
def sumname(k):
    return {"KSM": "ksm", "LazyFree": "lazy_free", "AnonHugePages": "anon_huge_pages",
            "ShmemPmdMapped": "shmem_pmd_mapped", "FilePmdMapped": "file_pmd_mapped"}.get(k, k.lower())
# without -n: the table and prom list this many, json and kv every process
LISTED_BY_DEFAULT = 256
TABLE_COMMAND = 127
CHROMEOS = [("crosvm_arcvm", "/usr/bin/crosvm run*/arcvm.sock*"), ("crosvm_other", "/usr/bin/crosvm*"),
            ("chrome_renderer", "/opt/google/chrome/chrome*--type=renderer*"),
            ("chrome_gpu", "/opt/google/chrome/chrome*--type=gpu-process*"),
            ("chrome_other", "/opt/google/chrome/chrome*--type=*"),
            ("chrome_browser", "/opt/google/chrome/chrome*")]
# the bounds of include/bounds.h
_b = dict(re.findall(r"(?m)^#define (\w+)\s+(\d+)", open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../include/bounds.h")).read()))
MAX_ROWS, CMD_MAX, NAME_MAX, MAX_GROUPS, KEY_MAX = (int(_b[k]) for k in ("SR_MAX_ROWS", "SR_CMD_MAX", "SR_NAME_MAX", "SR_MAX_GROUPS", "PW_NAME_MAX"))
ROW_POOL = int(_b["SR_ROW_POOL"])
MAX_OBJS, OBJ_POOL, CONSUMERS, MAX_WIDE, SWAP_POOL, SWAPPROCS = (int(_b[k]) for k in (
    "SR_MAX_OBJS", "SR_OBJ_POOL", "SR_MAX_CONSUMERS", "SR_MAX_WIDE", "SR_SWAP_POOL", "SR_MAX_SWAPPROCS"))
OFIG = ["Size", "Rss", "Pss", "Private_Clean", "Private_Dirty", "Shared_Clean", "Shared_Dirty", "Swap", "SwapPss"]
OVF = ["other_regions", "names_cut", "long_lines", "untracked_swap", "tmpfs_mounts", "sysv_bad",
       "figures_saturated", "consumers_dropped"]
KINDS = ["anon", "heap", "stack", "special", "anon_named", "shared_anon", "file", "deleted", "tmpfs", "memfd", "sysv", "other"]
HDR = re.compile(rb"^[0-9a-fA-F]+-[0-9a-fA-F]+ [r-][w-][x-][sp] [0-9a-fA-F]+ ([0-9a-fA-F]+):([0-9a-fA-F]+) (\d+)(?: +(.*))?$")


def mappings(text):
    """smaps text: [dict(dev, ino, shared, path, f={key: bytes})] in file
    order; a line longer than the reader's buffer (4095 bytes and its
    newline) is lost, and the figures after a lost line belong to no
    known mapping (path None)."""
    out = []
    for line in text.split(b"\n"):
        if len(line) > 4095:
            out.append(dict(dev=None, ino=None, shared=False, path=None, f={}, long=True))
            continue
        m = HDR.match(line)
        if m:
            out.append(dict(dev=(int(m.group(1), 16), int(m.group(2), 16)), ino=int(m.group(3)),
                            shared=line.split(b" ")[1][3:4] == b"s", path=m.group(4) or b"", f={},
                            fields=line.split()[:4]))
            continue
        m = re.match(rb"^(\w+):\s+(\d+) kB$", line)
        if m and out:
            k = m.group(1).decode()
            out[-1]["f"][k] = out[-1]["f"].get(k, 0) + int(m.group(2)) * 1024
    return out


def mkind(mp, tmpfs):
    path = mp["path"]
    if not path:
        return "file" if mp["ino"] else "anon"
    for pre, k in ((b"[anon_shmem:", "shared_anon"), (b"[anon:", "anon_named"), (b"[heap]", "heap"),
                   (b"[stack", "stack"), (b"[", "special"), (b"/dev/zero (deleted)", "shared_anon"),
                   (b"/memfd:", "memfd"), (b"/SYSV", "sysv")):
        if path.startswith(pre):
            return k
    if mp["dev"] in tmpfs:
        return "tmpfs"
    return "deleted" if path.endswith(b" (deleted)") else "file"


def tmpfs_devs(root, pid):
    t = read("%s/proc/%s/mountinfo" % (root, pid)) or b""
    devs = []
    for line in t.split(b"\n"):
        f = line.split(b" ")
        if b"-" in f[6:] and f[f.index(b"-", 6) + 1] == b"tmpfs":
            d = tuple(int(x) for x in f[2].split(b":"))
            if d not in devs:
                devs.append(d)
    return devs


def shared_swap(root, rows):
    """-S: each row's shared swap PSS in bytes (whole KiB, as membox keeps
    it): every process's smaps read once (in /proc order), each shared
    mapping with swap a sharer of its (dev, inode); SR_MAX_OBJS objects,
    SR_SWAP_POOL remembered mappings (a process's first takes one more),
    SR_MAX_SWAPPROCS processes with shared swap.  Returns untracked_swap."""
    count, seen, used, untracked = {}, [], 0, 0
    for pid in listdir(root):
        first = True
        for mp in mappings(read("%s/proc/%s/smaps" % (root, pid)) or b""):
            if mp["path"] is None or not mp["shared"] or not mp["f"].get("Swap", 0) // 1024:
                continue
            key = (mp["dev"], mp["ino"])
            if key not in count and len(count) == MAX_OBJS:
                untracked += 1
                continue
            count[key] = count.get(key, 0) + 1
            if used + first >= SWAP_POOL:
                untracked += 1
                continue
            if first:
                seen.append((int(pid), []))
                used += 1
                first = False
            seen[-1][1].append((key, mp["f"]["Swap"] // 1024))
            used += 1
    kept = {}
    for pid, maps in seen:
        b = sum((kb << 10) // count[key] for key, kb in maps)
        if b >> 10 and len(kept) == SWAPPROCS:
            untracked += len(maps)
        elif b >> 10:
            kept[pid] = b >> 10 << 10
    for r in rows:
        r["ss"] = kept.get(r["pid"], 0)
    return untracked


def listdir(root):
    """The PIDs of root's /proc in the order a directory listing gives."""
    return [x for x in os.listdir(root + "/proc") if x.isdigit() and x[0] != "0"]


def objects(root, o, rows):
    """-M and -l: the objects in the order membox lists them, their totals
    and what did not fit.  Figures are KiB; each object's stay below 2^16
    until SR_MAX_WIDE objects have outgrown that, then saturate there."""
    ovf = dict.fromkeys(OVF, 0)
    tmpfs = tmpfs_devs(root, o["pids"][0] if o["view"] == "map" else "self")
    pool = [2 + 2 + len(b"(other objects)")]   # the empty name, then "(other objects)"

    def name_add(name):
        avail = OBJ_POOL - pool[0]
        if len(name) + 2 > avail:
            ovf["names_cut"] += 1
            if avail <= 2:
                return b""
            name = name[:avail - 2]
        pool[0] += len(name) + 2
        return name
    objs, order = {}, 0
    wide = [0]
    new = lambda k, name, sh: dict(kind=k, name=name, shared=sh, f=dict.fromkeys(OFIG, 0), regions=0,
                                  pids=set(), cons={}, names={}, wide=False, sat=False, order=0)
    other = new("other", b"(other objects)", False)
    pairs, unreadable = 0, 0
    listed = []   # -M: each mapping, in file order

    for r in rows:
        smaps = read("%s/proc/%d/smaps" % (root, r["pid"]))
        if smaps is None:
            unreadable += 1
            continue
        pname = None
        for mp in mappings(smaps):
            if o["view"] == "map":
                named = mp["path"] is not None
                e = dict(zip(("address", "perms", "offset", "device"),
                             (ustr(x) if named else None for x in mp.get("fields", [None] * 4))))
                e.update(inode=mp["ino"], kind=mkind(mp, tmpfs) if named else "other",
                         name=ustr(mp["path"]) if named else None,
                         rollup={x: mp["f"].get(x, 0) // 1024 * 1024 for x in OFIG + ["Locked", "AnonHugePages"]})
                listed.append((e, mp["path"]))   # the row, and the name as read (for the table)
            if mp["path"] is None:
                ovf["long_lines"] += 1
                ob = other
            else:
                k = mkind(mp, tmpfs)
                sh = o["view"] == "map" and mp["shared"]
                key = (k, sh) + ((mp["path"],) if KINDS.index(k) < KINDS.index("shared_anon") else (mp["dev"], mp["ino"]))
                ob = objs.get(key)
                if ob is None and len(objs) == MAX_OBJS:
                    ovf["other_regions"] += 1
                    ob = other
                elif ob is None:
                    ob = objs[key] = new(k, name_add(mp["path"] or (b"[anon]" if k == "anon" else b"")), sh)
                    order += 1
                    ob["order"] = order
            # figures in KiB, as membox keeps them (figures of the model: bytes)
            for x in OFIG:
                add_kb(ob, x, mp["f"].get(x, 0) // 1024, wide, ovf)
            add_kb(ob, "regions", 1, wide, ovf)
            if r["pid"] not in ob["pids"]:
                ob["pids"].add(r["pid"])
                add_kb(ob, "processes", 1, wide, ovf)
                if o["verbose"]:
                    if pairs == CONSUMERS:
                        ovf["consumers_dropped"] += 1
                    else:
                        pairs += 1
                        if pname is None:
                            pname = name_add(r["name"])
                        ob["cons"][r["pid"]] = 0
                        ob["names"][r["pid"]] = pname
            if r["pid"] in ob["cons"]:
                ob["cons"][r["pid"]] = min(ob["cons"][r["pid"]] + mp["f"].get("Pss", 0) // 1024, 2**32 - 1)
    fig = lambda b, x: b.get("kb", {}).get(x, 0)
    KEYF = {"pss": ["Pss"], "uss": ["Private_Clean", "Private_Dirty"], "rss": ["Rss"], "swap": ["Swap"],
            "swappss": ["SwapPss"], "private_dirty": ["Private_Dirty"]}
    kf = KEYF.get(o["key"], [])
    lst = sorted(objs.values(), key=lambda b: (-sum(fig(b, x) for x in kf), b["name"], KINDS.index(b["kind"]), b["order"]),
                 reverse=o["rev"])
    if fig(other, "regions"):
        lst.append(other)
    for b in lst:
        b["f"] = {x: fig(b, x) * 1024 for x in OFIG}
        b["regions"] = fig(b, "regions")
        b["nprocs"] = fig(b, "processes")
        b["top"] = sorted(b["cons"].items(), key=lambda c: (-c[1], c[0]))
    total = dict(regions=sum(b["regions"] for b in lst), f={x: sum(b["f"][x] for b in lst) for x in OFIG})
    return (lst[:o["top"]] if o["top"] is not None else lst), total, ovf, unreadable, listed


def add_kb(ob, k, v, wide, ovf):
    """Add v to figure k (KiB, or a count) of ob as membox does: 16 bits
    each until it outgrows them and a wide record is free, else 65,535."""
    kb = ob.setdefault("kb", dict.fromkeys(OFIG + ["regions", "processes"], 0))
    if ob["wide"] or kb[k] + v <= 65535:
        kb[k] += v
        return
    if wide[0] < MAX_WIDE:
        wide[0] += 1
        ob["wide"] = True
        kb[k] += v
        return
    kb[k] = 65535
    if not ob["sat"]:
        ovf["figures_saturated"] += 1
        ob["sat"] = True


def sysv_list(root):
    t = (read(root + "/proc/sysvipc/shm") or b"").split(b"\n")
    if not t or not t[0].split():
        return [], False
    head = t[0].split()
    segs = []
    for line in t[1:]:
        f = line.split()
        if len(f) == len(head):
            d = dict(zip(head, f))
            segs.append(dict(id=int(d[b"shmid"]), owner=int(d[b"uid"]), attaches=int(d[b"nattch"]),
                             size=int(d[b"size"]), rss=int(d[b"rss"]) if b"rss" in d else None,
                             swap=int(d[b"swap"]) if b"swap" in d else None))
    return segs, True


def keynums(text, keys):
    d = {}
    for line in text.decode("latin-1").split("\n"):
        m = re.match(r"^(\w+):\s+(\d+)( kB)?\s*$", line)
        if m and m.group(1) in keys:
            d[m.group(1)] = d.get(m.group(1), 0) + int(m.group(2)) * (1024 if m.group(3) else 1)
    return d


def read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def utf8_cut(b, n):
    """b cut to at most n bytes, not inside a UTF-8 sequence's continuation."""
    if len(b) <= n:
        return b, False
    i = n
    while i and (b[i] & 0xC0) == 0x80:
        i -= 1
    return b[:i], True


def glob(pat, s):
    """fnmatch(3) with flags 0 on bytes, written as a regular expression."""
    rx, i = b"", 0
    while i < len(pat):
        c = pat[i:i + 1]
        if c == b"*":
            rx += b".*"
        elif c == b"?":
            rx += b"."
        elif c == b"[" and b"]" in pat[i + 2:]:
            j = pat.index(b"]", i + 2)
            body = pat[i + 1:j]
            neg = body[:1] in (b"!", b"^")
            rx += b"[" + (b"^" if neg else b"") + re.escape(body[1 if neg else 0:]).replace(b"\\-", b"-") + b"]"
            i = j
        elif c == b"\\" and i + 1 < len(pat):
            i += 1
            rx += re.escape(pat[i:i + 1])
        else:
            rx += re.escape(c)
        i += 1
    return re.fullmatch(rx, s, re.S) is not None


def passwd(root):
    users = {}
    for line in (read(root + "/etc/passwd") or b"").split(b"\n"):
        f = line.split(b":")
        if len(f) >= 4 and f[2].isdigit() and 0 < len(f[0]) < KEY_MAX and int(f[2]) not in users:
            users[int(f[2])] = f[0]
    return users


def hidden(root):
    """The page: a /proc mounted with hidepid=2 (invisible) or 4 (ptraceable)
    does not list other users' processes; the last mount on /proc in
    proc/self/mountinfo is the one seen; root on the live system sees all.
    The option as printed there, or None."""
    if os.path.realpath(root) == "/" and os.geteuid() == 0:
        return None
    try:
        text = open(root + "/proc/self/mountinfo", "rb").read()
    except OSError:
        return None
    h = None
    for line in text.split(b"\n"):
        f = line.split(b" ")
        if b"-" not in f[6:] or f[4] != b"/proc":
            continue
        h = None
        for o in f[f.index(b"-", 6) + 3].split(b","):
            k, _, v = o.partition(b"=")
            if k == b"hidepid" and v in (b"2", b"4", b"invisible", b"ptraceable"):
                h = o.decode()
    return h


def scan(root, opts):
    """The processes of a capture: (rows, coverage) before sorting."""
    cov = dict.fromkeys(COV, 0)
    cov["hidden"] = hidden(root)
    rows = []
    users = passwd(root)
    pdir = root + "/proc"
    # directory order, as getdents gives it (readdir is getdents)
    pids = opts["pids"] or [int(x) for x in os.listdir(pdir) if x.isdigit() and 0 < int(x) < 2**31]
    for pid in pids:
        d = "%s/%d/" % (pdir, pid)
        st = read(d + "status") if os.path.isdir(d) else None
        if st is None:
            cov["vanished"] += 1
            continue
        name, state, uid, kthread = None, None, 0, False
        for line in st.split(b"\n"):
            if line.startswith(b"Name:\t"):
                name = line[6:].replace(b"\\\\", b"\0").replace(b"\\n", b"\n").replace(b"\0", b"\\")
            elif line.startswith(b"State:"):
                state = line[6:].strip()[:1]
            elif line.startswith(b"Uid:"):
                uid = int(line.split()[2])
            elif line.startswith(b"Kthread:"):
                kthread = line.split()[1] == b"1"
        ppid = keynums(st, ["PPid"]).get("PPid", 0)
        smem = keynums(st, STAT)
        if name is None:
            cov["inaccessible"] += 1
            continue
        if opts["uid"] is not None and uid != opts["uid"]:
            continue
        ro, sm = read(d + "smaps_rollup"), read(d + "smaps")
        if ro is not None:
            mem, src = keynums(ro, ROLL), "rollup"
        elif sm is not None:
            mem, src = keynums(sm, ROLL), "smaps"
        else:
            mem, src = smem, "status"
        if not mem:
            if kthread or (state != b"Z" and "VmRSS" not in smem):
                cov["kernel_threads"] += 1
            else:
                cov["vanished"] += 1
            continue
        cut = len(name) > NAME_MAX - 1   # cut at a byte count, like the kernel's comm
        name = name[:NAME_MAX - 1]
        # categories match the whole command line
        raw = read(d + "cmdline") or b""
        whole = raw.rstrip(b"\0").replace(b"\0", b" ") or b"[" + name + b"]"
        cat = len(opts["rules"])
        for i, (_, g) in enumerate(opts["rules"]):
            if glob(g, whole):
                cat = i
                break
        cov["truncated"] += cut
        cov["processes"] += 1
        cov["approximate"] += src == "status"
        rows.append(dict(pid=pid, ppid=ppid, uid=uid, user=users.get(uid, str(uid).encode()),
                         name=name, raw=raw, src=src, mem=mem, cat=cat))
    return rows, cov


def val(r, m):
    """(bytes, present) of size m of a row."""
    if m == 4 and r.get("ss"):
        v, has = val(dict(r, ss=0), 4)
        return v + r["ss"], True
    k, fb = MKEY[m]
    mem = r["mem"]
    if k == "USS" and "Private_Clean" in mem:
        return mem["Private_Clean"] + mem.get("Private_Dirty", 0) + mem.get("Private_Hugetlb", 0), True
    if k in mem:
        return mem[k], True
    if fb in mem:
        return mem[fb], True
    return 0, False


def sortkey(r, key):
    if key == "pid":
        return (r["pid"],)
    if key == "user":
        return (r["uid"], r["pid"])
    if key == "name":
        return (r["name"], r["pid"])
    return (-val(r, KEYS.index(key))[0], r["pid"])


def parse_args(args):
    o = dict(pids=[], uid=None, user=None, key="pss", rev=False, top=None, group=None,
             rules=[], unsorted=False, fmt="table", unit="k", view=None, verbose=False)
    a = list(args)
    while a:
        x = a.pop(0)
        if x == "-p":
            for p in a.pop(0).split(","):
                if int(p) not in o["pids"]:
                    o["pids"].append(int(p))
        elif x == "-U":
            o["user"] = a.pop(0)
        elif x == "-s":
            o["key"] = a.pop(0)
        elif x == "-r":
            o["rev"] = True
        elif x == "-n":
            o["top"] = int(a.pop(0))
        elif x == "-g":
            o["group"] = a.pop(0)
        elif x == "-c":
            n, g = a.pop(0).split("=", 1)
            o["rules"].append((n.encode(), g.encode()))
        elif x == "-C":
            a.pop(0)
            o["rules"] += [(n.encode(), g.encode()) for n, g in CHROMEOS]
        elif x == "--unsorted":
            o["unsorted"] = True
        elif x == "-o":
            o["fmt"] = a.pop(0)
        elif x in ("-b", "-k", "-m", "-h"):
            o["unit"] = x[1]
        elif x == "-S":
            o["view"] = "swap"
        elif x == "-M":
            o["view"], o["mpid"] = "map", int(a.pop(0))
        elif x == "-l":
            o["view"] = "list"
        elif x == "-v":
            o["verbose"] = True
        else:
            raise SystemExit("model: unknown argument " + x)
    if o["rules"] and not o["group"]:
        o["group"] = "category"
    if o["view"] == "map":
        o["pids"] = [o["mpid"]]
    if o["view"] in ("map", "list"):
        o["group"] = None
    # -M -v: each mapping in the table (and no consumers)
    o["map_list"] = o["verbose"] and o["view"] == "map"
    o["verbose"] = o["verbose"] and o["view"] != "map"
    return o


def model(root, args):
    o = parse_args(args)
    if o["user"] is not None:
        byname = {}
        for k, v in passwd(root).items():
            byname.setdefault(v, k)
        o["uid"] = int(o["user"]) if o["user"].isdigit() else byname[o["user"].encode()]
    rows, cov = scan(root, o)
    ovf = dict.fromkeys(OVF, 0)
    if o["view"] in ("map", "list"):
        lst, tot, ovf, unreadable, listed = objects(root, o, rows)
        segs, have = sysv_list(root) if o["view"] == "list" else ([], False)
        return dict(o=o, objects=lst, ototal=tot, ovf=ovf, cov=cov, rows=rows, sysv=segs, unreadable=unreadable,
                    mappings=listed)
    if o["view"] == "swap":
        ovf["untracked_swap"] = shared_swap(root, rows)
    stream = o["unsorted"] and o["fmt"] != "prom" and o["group"] != "tree"
    total = sumrows(rows)
    groups = None
    if o["group"] in ("user", "name", "category"):
        gl, other = {}, None
        if o["group"] == "category":
            for n, _ in o["rules"] + [(b"other", b"")]:
                gl.setdefault(n[:KEY_MAX - 1], [])
        for r in rows:
            k = {"user": r["user"], "name": r["name"]}.get(o["group"])
            if o["group"] == "category":
                k = o["rules"][r["cat"]][0] if r["cat"] < len(o["rules"]) else b"other"
            k = k[:KEY_MAX - 1]
            if k not in gl and len(gl) == MAX_GROUPS:
                cov["grouped_other"] += 1
                other = (other or []) + [r]
                continue
            gl.setdefault(k, []).append(r)
        items = list(gl.items()) + ([(b"(other)", other)] if other else [])
        groups = [dict(name=k, **sumrows(v)) for k, v in items]
        m = KEYS.index(o["key"]) if KEYS.index(o["key"]) < 5 else 0
        if o["key"] in ("user", "name"):
            groups.sort(key=lambda g: g["name"], reverse=o["rev"])
        else:
            groups.sort(key=lambda g: (-g[SUMS[m]], g["name"]), reverse=o["rev"])
    # The page: the first SR_MAX_ROWS processes read are kept (the pool is
    # not reached by the trees modelled here); the listing is the first N
    # of the sorted ones (-n N, 0 too; without it every one in json and
    # kv, 256 in the table and prom, none in prom with groups); --unsorted
    # lists N as read
    if stream:
        cap = o["top"]
        shown = rows[:cap] if cap is not None else rows
        cov["dropped"] = len(rows) - len(shown)
    else:
        kept = rows[:MAX_ROWS]
        cap = o["top"]
        if cap is None and o["fmt"] == "prom" and o["group"] in ("user", "name", "category", "cgroup"):
            cap = 0
        elif cap is None and o["fmt"] in ("table", "prom"):
            cap = LISTED_BY_DEFAULT
        kept.sort(key=lambda r: sortkey(r, o["key"]), reverse=o["rev"])
        shown = kept[:cap] if cap is not None else kept
        cov["dropped"] = len(rows) - len(shown)
    depth, sub = {}, {}
    if o["group"] == "tree":
        # every kept process, whatever is listed; a process whose parent is
        # not kept is a root; a cycle of parents loses its member read last
        bypid = {r["pid"]: r for r in rows[:MAX_ROWS]}
        readpos = {r["pid"]: i for i, r in enumerate(rows[:MAX_ROWS])}
        parent = {r["pid"]: r["ppid"] if r["ppid"] in bypid and r["ppid"] != r["pid"] else None for r in bypid.values()}
        for pid in readpos:
            path, p = [], pid
            while p is not None and p not in path:
                path.append(p)
                p = parent[p]
            if p is not None:   # a cycle through p
                cyc = path[path.index(p):]
                parent[max(cyc, key=lambda x: readpos[x])] = None
        members = {pid: [bypid[pid]] for pid in bypid}
        for pid in bypid:
            p = parent[pid]
            while p is not None:
                members[p].append(bypid[pid])
                p = parent[p]
        sub = {pid: sumrows(v) for pid, v in members.items()}
        kids = {}
        for pid in bypid:
            kids.setdefault(parent[pid], []).append(bypid[pid])
        for v in kids.values():
            v.sort(key=lambda r: (-sub[r["pid"]]["pss"], r["pid"]))
        order, stack = [], [(r, 0) for r in reversed(kids.get(None, []))]
        while stack:   # pre-order without recursion: a chain may be long
            r, d = stack.pop()
            depth[r["pid"]] = d
            order.append(r)
            stack += [(k, d + 1) for k in reversed(kids.get(r["pid"], []))]
        shown = order[:cap] if cap is not None else order
    mi = keynums(read(root + "/proc/meminfo") or b"", ["MemTotal"])
    return dict(o=o, rows=shown, total=total, groups=groups, cov=cov, depth=depth, sub=sub,
                mem_total=mi.get("MemTotal"), ovf=ovf)


def sumrows(rows):
    """The page: the sums of rows: processes, the sizes as the rows show
    them, pss_total, and each other rollup key over the rows that printed
    it (None when none did; approximate rows have no rollup keys)."""
    d = dict(processes=len(rows), **{s: sum(val(r, i)[0] for r in rows) for i, s in enumerate(SUMS)})
    d["pss_total"] = d["pss"] + d["swap_pss"]
    for k in SUMKEYS:
        have = [r["mem"][k] for r in rows if r["src"] != "status" and k in r["mem"]]
        d[sumname(k)] = sum(have) if have else None
    return d


def command(r, mx):
    """The page: the command line as shown, re-read: NULs as spaces, trailing
    ones dropped, "[Name]" when empty, at most mx bytes cut at a character
    boundary (SR_CMD_MAX + 1 bytes are read); and whether it was cut."""
    raw = r["raw"]
    cmd = raw[:CMD_MAX + 1].rstrip(b"\0").replace(b"\0", b" ")
    if not cmd:
        return b"[" + r["name"] + b"]", False
    cmd, cut = utf8_cut(cmd, mx)
    return cmd, cut or len(raw) > CMD_MAX + 1


def ustr(b):
    return b.decode("utf-8", "membox")


def rep(e):   # one U+FFFD per invalid byte, as membox writes
    return ("\ufffd", e.start + 1)


import codecs
codecs.register_error("membox", rep)


SUMFIGS = SUMS + ["pss_total"] + [sumname(k) for k in SUMKEYS]


def sums(d):
    return {k: d[k] for k in SUMFIGS}


def to_json(M):
    procs, cov = [], dict(M["cov"])
    for r in M["rows"]:
        cmd, cut = command(r, CMD_MAX)
        cov["truncated"] += cut
        p = dict(pid=r["pid"], ppid=r["ppid"], uid=r["uid"], user=ustr(r["user"]), name=ustr(r["name"]),
                 command=ustr(cmd), command_cut=cut, source=r["src"],
                 rollup={k: r["mem"][k] for k in ROLL + STAT if k in r["mem"]})
        u, has = val(r, 1)
        p["uss"] = u if has else None
        if M["o"]["view"] == "swap":
            p["shared_swap_pss"] = r.get("ss", 0)
        if M["o"]["group"] == "tree":
            p["depth"] = M["depth"][r["pid"]]
            p["subtree"] = sums(M["sub"][r["pid"]])
        procs.append(p)
    j = dict(processes=procs, total=dict(processes=M["total"]["processes"], **sums(M["total"])))
    if M["o"]["group"]:
        j["group_by"] = M["o"]["group"]
    if M["groups"] is not None:
        j["groups"] = [dict(name=ustr(g["name"]), processes=g["processes"], **sums(g)) for g in M["groups"]]
    j["coverage"] = cov
    if M["o"]["view"]:
        j["overflow"] = M["ovf"]
    j["mem_total"] = M["mem_total"]
    return j


def obj_json(M):
    o = M["o"]
    objs = []
    for b in M["objects"]:
        e = dict(kind=b["kind"], object=ustr(b["name"]))
        if o["view"] == "map":
            e["shared"] = b["shared"]
        else:
            e["processes"] = b["nprocs"]
        e["regions"] = b["regions"]
        e["rollup"] = dict(b["f"])
        if o["verbose"]:
            e["consumers"] = [dict(pid=p, name=ustr(b["names"][p]), pss=kb * 1024) for p, kb in b["top"]]
        objs.append(e)
    j = {}
    if o["view"] == "map":
        r = M["rows"][0]
        j.update(pid=r["pid"], name=ustr(r["name"]), mappings=[e for e, _ in M["mappings"]])
    j["objects"] = objs
    t = M["ototal"]
    j["total"] = dict(regions=t["regions"], rollup=t["f"])
    if o["view"] == "list":
        j["total"] = dict(processes=M["cov"]["processes"], maps_unreadable=M["unreadable"], **j["total"])
        j["sysv"] = M["sysv"]
    j["coverage"] = M["cov"]
    j["overflow"] = M["ovf"]
    return j


def kv_key(path):
    """A kv key: the path joined by '_', every byte outside [A-Za-z0-9_]
    made '_', and a '_' before a first digit (a shell name)."""
    b = "_".join(path).encode("utf-8", "surrogateescape")
    k = "".join(chr(c) if chr(c).isascii() and (chr(c).isalnum() or c == 95) else "_" for c in b)
    return "_" + k if not k or k[0].isdigit() else k


def obj_kv(j):
    lines = []

    def walk(path, v):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(path + [k], x)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(path + [str(i)], x)
        else:
            lines.append(kv_key(path) + "='" + ("" if v is None else "true" if v is True else "false" if v is False
                                                 else str(v) if isinstance(v, int)
                                                 else safe(v.encode("utf-8", "surrogatepass"), True)) + "'")
    walk([], j)
    return lines


def obj_table(M):
    o, u = M["o"], M["o"]["unit"]
    cols = range(9) if o["view"] == "map" else [1, 2, 7, 8]
    cell = lambda v, has=True: " " + (size(v, u) if has else "-").rjust(8)
    hdr = ["SIZE", "RSS", "PSS", "PRV_CLN", "PRV_DRT", "SHR_CLN", "SHR_DRT", "SWAP", "SWAPPSS"]
    out = []
    if o.get("map_list"):
        # -M -v: each mapping's header fields as written, then its sizes
        # (the object's, LOCKED, THP), its kind and its name; a blank line
        widths = (25, 4, 8, 6)
        out.append("".join(h.ljust(w) + " " for h, w in zip(("ADDRESS", "PERM", "OFFSET", "DEVICE"), widths)) +
                   "     INODE " + " ".join(h.rjust(8) for h in hdr + ["LOCKED", "THP"]) + " KIND        NAME")
        for e, raw in M["mappings"]:
            named = e["address"] is not None
            f = [e[k] if named else "-" for k in ("address", "perms", "offset", "device")]
            out.append("".join(x.ljust(w) + " " for x, w in zip(f, widths)) +
                       (str(e["inode"]) if named else "-").rjust(10) + " " +
                       " ".join(size(e["rollup"][k], u).rjust(8) for k in OFIG + ["Locked", "AnonHugePages"]) +
                       " " + e["kind"].ljust(11) + " " + (safe(raw) if named else ""))
        out.append("")
    out.append("".join(" " + hdr[i].rjust(8) for i in cols) +
               (" REGIONS M KIND        OBJECT" if o["view"] == "map" else "  PROCS REGIONS KIND        OBJECT"))
    for b in M["objects"]:
        line = "".join(cell(b["f"][OFIG[i]]) for i in cols)
        if o["view"] == "list":
            line += " " + str(b["nprocs"]).rjust(6)
        line += " " + str(b["regions"]).rjust(7)
        if o["view"] == "map":
            line += " " + ("s" if b["shared"] else "p")
        line += " " + b["kind"].ljust(11) + " " + safe(b["name"])
        for p, kb in b["top"] if o["verbose"] else []:
            line += "\n    %7d %s %s" % (p, safe(b["names"][p]), size(kb * 1024, u))
        out.append(line)
    t = M["ototal"]
    line = "".join(cell(t["f"][OFIG[i]]) for i in cols)
    if o["view"] == "list":
        line += " " + str(M["cov"]["processes"]).rjust(6)
    line += " " + str(t["regions"]).rjust(7) + ("   " if o["view"] == "map" else " ")
    word = {"b": "bytes", "k": "KiB", "m": "MiB", "h": ""}[u]
    out.append(line + "total (sizes in %s)" % (word or "IEC units"))
    c = M["cov"]
    out.append("coverage: " + ", ".join("%d %s" % (c[k], k.replace("_", " ")) for i, k in enumerate(COV) if i <= 5 or c[k]) +
               (", other users' processes hidden (%s)" % c["hidden"] if c["hidden"] else ""))
    if o["view"] == "list" and M["unreadable"]:
        out.append("not in the objects: %d processes whose smaps could not be read" % M["unreadable"])
    if M["sysv"]:
        out.append("")
        out.append("   SHMID   OWNER  ATTACH     SIZE      RSS     SWAP")
        for g in M["sysv"]:
            out.append("".join(" " + str(g[k]).rjust(7) for k in ("id", "owner", "attaches")) +
                       "".join(cell(g[k] or 0, g[k] is not None) for k in ("size", "rss", "swap")))
    return "\n".join(out) + "\n"


def obj_prom(M):
    o, L = M["o"], []
    names = [k.lower() + "_bytes" for k in OFIG] + ["regions"] + (["processes"] if o["view"] == "list" else [])
    for i, n in enumerate(names):
        for b in M["objects"]:
            lab = ('pid="%d",' % M["rows"][0]["pid"] if o["view"] == "map" else "") + \
                  'kind="%s",object="%s"' % (b["kind"], plab(b["name"]))
            if o["view"] == "map":
                lab += ',shared="%s"' % ("true" if b["shared"] else "false")
            v = b["f"][OFIG[i]] if i < 9 else b["regions"] if i == 9 else b["nprocs"]
            L.append("membox_object_%s{%s} %d" % (n, lab, v))
    if o["view"] == "list":
        L.append("membox_total_maps_unreadable %d" % M["unreadable"])
    for k, n in (("attaches", "attaches"), ("size", "size_bytes"), ("rss", "rss_bytes"), ("swap", "swap_bytes")):
        for g in M["sysv"]:
            if g[k] is not None:
                L.append('membox_sysv_shm_%s{id="%d",owner="%d"} %d' % (n, g["id"], g["owner"], g[k]))
    return L


def safe(b, quote=None):
    """Bytes for a terminal (out_safe) or a kv value: invalid UTF-8 and
    control characters become '?'; on a terminal (quote None) also the
    bidi embeddings, overrides and isolates U+202A..U+202E, U+2066..U+2069."""
    out, i = "", 0
    s = b.decode("utf-8", "membox")
    for ch in s:
        if ch == "\ufffd" or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or \
                (not quote and (0x202A <= ord(ch) <= 0x202E or 0x2066 <= ord(ch) <= 0x2069)):
            out += "?"
        elif quote and ch == "'":
            out += "'\\''"
        else:
            out += ch
    # U+FFFD that really was in the input is kept by membox: not in fixtures
    return out


def cells(s):
    return len(s)


def size(v, unit):
    if unit == "b":
        return str(v)
    if unit == "k":
        return str(v // 1024 + (v % 1024 >= 512))
    if unit == "m":
        return str(v // 1048576 + (v % 1048576 >= 524288))
    if v < 1024:
        return "%dB" % v
    u, i = 1, 0
    while True:
        u <<= 10
        i += 1
        t = (v // u) * 10 + ((v % u) * 10 + u // 2) // u
        if not (t >= 10240 and i < 6):
            break
    s = "%d.%d" % (t // 10, t % 10) if t < 100 else str((t + 5) // 10)
    return s + "BKMGTPE"[i]


def to_table(M):
    o, u = M["o"], M["o"]["unit"]
    grouped = o["group"] in ("user", "name", "category")
    cell = lambda v, has=True, ap=False: " " + (("~" if ap else "") + size(v, u) if has else "-").rjust(8)
    out, cov = [], dict(M["cov"])
    # -v: a column per other rollup key (the page's OPTIONS), the sums' or a row's
    heads = ["PSSDIRTY", "PSSANON", "PSSFILE", "PSSSHMEM", "SHRCLEAN", "SHRDIRTY", "PRVCLEAN", "PRVDIRTY", "REFERNCD",
             "ANON", "KSM", "LAZYFREE", "ANONHUGE", "SHMEMPMD", "FILEPMD", "SHRHUGE", "PRVHUGE", "LOCKED"]
    keyheads = "".join(" " + h.rjust(8) for h in heads) if o["verbose"] else ""
    keycells = lambda d: "".join(cell(d[sumname(k)] or 0, d[sumname(k)] is not None) for k in SUMKEYS) if o["verbose"] else ""
    if not grouped:
        hdr = "    PID USER    " + "".join(" " + c.rjust(8) for c in ["PSS", "USS", "RSS", "SWAP", "SWAPPSS"])
        if o["group"] == "tree":
            hdr += "  TREEPSS  TREEUSS"
        out.append(hdr + keyheads + " COMMAND")
        for r in M["rows"]:
            line = str(r["pid"]).rjust(7) + " " + safe(r["user"]).ljust(8)
            for m in range(5):
                v, has = val(r, m)
                line += cell(v, has, r["src"] == "status")
            d = 0
            if o["group"] == "tree":
                line += cell(M["sub"][r["pid"]]["pss"]) + cell(M["sub"][r["pid"]]["uss"])
                d = M["depth"][r["pid"]]
                line += keycells(M["sub"][r["pid"]])
            elif o["verbose"]:
                line += "".join(cell(r["mem"].get(k, 0), r["src"] != "status" and k in r["mem"]) for k in SUMKEYS)
            cmd, cut = command(r, TABLE_COMMAND)
            cov["truncated"] += cut
            out.append(line + " " * (1 + 2 * min(d, 20)) + safe(cmd))
        tot = str(M["total"]["processes"]).rjust(7) + " procs   " + "".join(cell(M["total"][s]) for s in SUMS)
        tot += (" " * 18 if o["verbose"] and o["group"] == "tree" else "") + keycells(M["total"])
    else:
        out.append("  PROCS" + "".join(" " + c.rjust(8) for c in ["PSS", "USS", "RSS", "SWAP", "SWAPPSS", "TOTAL"]) + keyheads + " GROUP")
        for g in M["groups"]:
            out.append(str(g["processes"]).rjust(7) + "".join(cell(g[s]) for s in SUMS) + cell(g["pss"] + g["swap_pss"]) + keycells(g) + " " + safe(g["name"]))
        t = M["total"]
        tot = str(t["processes"]).rjust(7) + "".join(cell(t[s]) for s in SUMS) + cell(t["pss"] + t["swap_pss"]) + keycells(t)
    word = {"b": "bytes", "k": "KiB", "m": "MiB", "h": ""}[u]
    out.append(tot + " total (sizes in %s)" % (word or "IEC units"))
    c = cov
    out.append("coverage: " + ", ".join("%d %s" % (c[k], k.replace("_", " ")) for i, k in enumerate(COV) if i <= 5 or c[k]) +
               (", other users' processes hidden (%s)" % c["hidden"] if c["hidden"] else ""))
    sz = lambda v: size(v, u) + (" " + word if word else "")
    mt = M["mem_total"]
    pct = "-"
    if mt:
        p = M["total"]["pss"] * 10000 // mt
        pct = sz(mt) + " = %d.%02d%%" % (p // 100, p % 100)
    out.append("PSS %s of MemTotal %s" % (sz(M["total"]["pss"]), pct))
    return "\n".join(out) + "\n"


def kv_lines(j):
    lines = []

    def s(v):
        if v is None:
            return "''"
        if isinstance(v, bool):
            return "'true'" if v else "'false'"
        if isinstance(v, int):
            return "'%d'" % v
        return "'" + safe(v.encode("utf-8", "surrogatepass"), True) + "'"

    def walk(path, v):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(path + [k], x)
        else:
            lines.append(kv_key(path) + "=" + s(v))
    for k, v in j.items():
        if k == "processes":
            for p in v:
                walk(["process", str(p["pid"])], p)
        elif k == "groups":
            for i, g in enumerate(v):
                walk(["groups", str(i)], g)
        else:
            walk([k], v)
    return lines


def plab(b):
    out = ""
    for ch in b.decode("utf-8", "replace" if False else "membox"):
        if ch == "\n":
            out += "\\n"
        elif ch in '"\\':
            out += "\\" + ch
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            out += "?"
        else:
            out += ch
    return out


def prom_lines(M):
    o, L = M["o"], []
    for m, s in enumerate(SUMS):
        for r in M["rows"]:
            v, has = val(r, m)
            if has:
                L.append('membox_process_%s_bytes{pid="%d",name="%s",user="%s",source="%s"} %d'
                         % (s, r["pid"], plab(r["name"]), plab(r["user"]), r["src"], v))
    for r in M["rows"] if o["view"] == "swap" else []:
        L.append('membox_process_shared_swap_pss_bytes{pid="%d",name="%s",user="%s",source="%s"} %d'
                 % (r["pid"], plab(r["name"]), plab(r["user"]), r["src"], r.get("ss", 0)))
    # a family no group (or, alone, the total) has is left out
    for f in ["processes"] + SUMFIGS:
        n = f if f == "processes" else f + "_bytes"
        if all(g[f] is None for g in M["groups"] or [M["total"]]):
            continue
        for g in M["groups"] or []:
            if g[f] is not None:
                L.append('membox_group_%s{by="%s",group="%s"} %d' % (n, o["group"], plab(g["name"]), g[f]))
        L.append("membox_total_%s %d" % (n, M["total"][f]))
    for k in COV:
        L.append('membox_scan_processes{kind="%s"} %d' % (k, M["cov"][k]))
    h = M["cov"]["hidden"]
    L.append('membox_scan_hidden{option="%s"} 1' % h if h else "membox_scan_hidden 0")
    if M["mem_total"] is not None:
        L.append("membox_mem_total_bytes %d" % M["mem_total"])
    return L


def check(root, args, text, fmt=None):
    """'' when text is what membox must print for args, else why not."""
    M = model(root, list(args) + (["-o", fmt] if fmt else []))
    fmt = M["o"]["fmt"]
    ob = M["o"]["view"] in ("map", "list")
    if M["o"]["view"] == "map" and not M["rows"]:   # no such process: nothing printed, exit 1
        return "" if text == "" else "output for a missing process"
    if fmt == "json":
        got, exp = json.loads(text), (obj_json if ob else to_json)(M)
        for k in os.environ.get("CHECK_IGNORE", "").split():   # live figures another test may move
            got.pop(k, None), exp.pop(k, None)
        if got != exp:
            for k in exp:
                if got.get(k) != exp[k]:
                    return "json %s differs:\n got %s\nwant %s" % (k, json.dumps(got.get(k))[:1500], json.dumps(exp[k])[:1500])
            return "json keys differ: %s vs %s" % (list(got), list(exp))
        return ""
    if fmt == "kv":
        got, exp = text.rstrip("\n").split("\n"), obj_kv(obj_json(M)) if ob else kv_lines(to_json(M))
    elif fmt == "prom":
        got, exp = [l for l in text.rstrip("\n").split("\n") if not l.startswith("#")], (obj_prom if ob else prom_lines)(M)
    else:
        got, exp = text.split("\n"), (obj_table if ob else to_table)(M).split("\n")
    for a, b in zip(got, exp):
        if a != b:
            return "%s line differs:\n got %r\nwant %r" % (fmt, a, b)
    return "" if len(got) == len(exp) else "%s: %d lines, want %d" % (fmt, len(got), len(exp))


def expect_json(root, args):
    """the model's json for args, as membox must print it"""
    M = model(root, list(args) + ["-o", "json"])
    j = (obj_json if M["o"]["view"] in ("map", "list") else to_json)(M)
    for k in os.environ.get("CHECK_IGNORE", "").split():   # live figures another test may move
        j.pop(k, None)
    return j


def between(got, b, a, path="json"):
    """'' when got lies between b and a (the model read before and after
    membox): each number between the two, anything else equal to one"""
    if isinstance(got, dict) and isinstance(b, dict) and isinstance(a, dict):
        if set(got) != set(b) or set(got) != set(a):
            return "%s keys: %s, read before %s, after %s" % (path, sorted(got), sorted(b), sorted(a))
        for k in got:
            why = between(got[k], b[k], a[k], "%s.%s" % (path, k))
            if why:
                return why
        return ""
    if isinstance(got, list) and isinstance(b, list) and isinstance(a, list):
        if not len(got) == len(b) == len(a):
            return "%s: %d items, read before %d, after %d" % (path, len(got), len(b), len(a))
        for i, (g, x, y) in enumerate(zip(got, b, a)):
            why = between(g, x, y, "%s[%d]" % (path, i))
            if why:
                return why
        return ""
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    if num(got) and num(b) and num(a):
        ok = min(b, a) <= got <= max(b, a)
    else:
        ok = got == b or got == a
    return "" if ok else "%s: %s, read before %s, after %s" % (path, json.dumps(got)[:500], json.dumps(b)[:500], json.dumps(a)[:500])


def main():
    mode = sys.argv[1]
    if mode == "expect":
        json.dump(expect_json(sys.argv[2], sys.argv[3:]), sys.stdout)
        return 0
    if mode == "between":
        b, root, got = json.load(open(sys.argv[2])), sys.argv[3], json.load(open(sys.argv[4]))
        for k in os.environ.get("CHECK_IGNORE", "").split():
            got.pop(k, None)
        why = between(got, b, expect_json(root, sys.argv[5:]))
        print(why) if why else None
        return 1 if why else 0
    if mode == "fixture":
        d, bad = sys.argv[2], 0
        for line in open(d + "/cases"):
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            text = open(d + "/expect/" + f[0], encoding="utf-8", errors="surrogateescape").read()
            why = check(d, f[3:], text)
            if why:
                print("%s: %s" % (f[0], why))
                bad = 1
        return bad
    if mode in ("json", "kv", "prom", "table"):
        why = check(sys.argv[2], sys.argv[4:], open(sys.argv[3]).read(), mode)
        print(why) if why else None
        return 1 if why else 0
    if mode == "msums":
        # -M: the objects' sums equal the process's smaps_rollup, exactly
        # for every figure but Pss, which the kernel rounds down to a kB
        # per mapping in smaps and once in the rollup: up to 1 kB less per
        # region.  Keys to leave out (e.g. Pss under qemu) follow the file;
        # leaving out both clean keys checks their sum.
        d, j = sys.argv[2], json.load(open(sys.argv[3]))
        ro = keynums(read("%s/proc/%d/smaps_rollup" % (d, j["pid"])), ROLL)
        # a live process's figures move while membox reads: read before
        # it too, and the sums lie between the two reads
        rb = [keynums(read(a[7:]), ROLL) for a in sys.argv[4:] if a.startswith("before=")]
        rb = rb[0] if rb else ro
        n = sum(b["regions"] for b in j["objects"])
        bad = []
        skip = [a for a in sys.argv[4:] if not a.startswith("before=")]
        clean = "Private_Clean" in skip and "Shared_Clean" in skip
        for k in OFIG[1:] + (["Clean"] if clean else []):
            if k in skip:
                continue
            # clean pages are private or shared by their mapcount, which a
            # reader of the same ABI (its vdso) changes: then only the sum
            val = lambda r: r["Private_Clean"] + r["Shared_Clean"] if k == "Clean" else r[k]
            got = sum(val(b["rollup"]) for b in j["objects"])
            lo, hi = min(val(rb), val(ro)), max(val(rb), val(ro))
            ok = lo - n * 1024 < got <= hi if k == "Pss" else lo <= got <= hi
            if not ok or got != val(j["total"]["rollup"]):
                bad.append("%s: objects %d (total %d), smaps_rollup %d (read before: %d), %d regions"
                           % (k, got, val(j["total"]["rollup"]), val(ro), val(rb), n))
        print("\n".join(bad))
        return 1 if bad else 0
    if mode == "smaps":
        # sums of smaps equal the rollup of the same moment: exactly for
        # every field but Pss*, which the kernel rounds down per mapping in
        # smaps and once in the rollup: at most 1 kB less per mapping.
        sdir, rdir, j = sys.argv[2], sys.argv[3], json.load(open(sys.argv[4]))
        bad = 0
        for p in j["processes"]:
            ro = keynums(read("%s/proc/%d/smaps_rollup" % (rdir, p["pid"])), ROLL)
            maps = len(re.findall(rb"(?m)^[0-9a-f]+-[0-9a-f]+ ", read("%s/proc/%d/smaps" % (sdir, p["pid"]))))
            for k, v in ro.items():
                got = p["rollup"].get(k)
                if k in ("Pss_Anon", "Pss_File", "Pss_Shmem"):   # printed only in the rollup
                    ok = got is None
                elif k.startswith("Pss"):
                    ok = got is not None and v - maps * 1024 <= got <= v
                else:
                    ok = got == v
                if not ok or p["source"] != "smaps":
                    print("pid %d %s: smaps sum %s, rollup %d (%d mappings)" % (p["pid"], k, got, v, maps))
                    bad = 1
        return bad
    raise SystemExit("unknown mode")


if __name__ == "__main__":
    sys.exit(main())
