#!/usr/bin/env python3
"""-M's mappings against smaps and smaps_rollup, parsed here:
    sr_mappings_check.py JSON SMAPS ROLLUP [ROLLUP_AFTER]
JSON is smaps-rollup -M PID -o json, SMAPS and ROLLUP that process's
files (read after membox; with ROLLUP_AFTER, ROLLUP read before it and
ROLLUP_AFTER after, on a live system).  The mappings must be SMAPS's
blocks in order, header fields and figures; they must sum to the objects
and the total exactly, and to the rollup: exactly for the sizes in whole
pages, and for the keys the kernel rounds per mapping (pss >> PSS_SHIFT,
in kB) less by under 1 kB a mapping.  Exit 1 with what differs.
READER_LIBS (environment): files the reader maps too, one a line (the
sanitizer build's shared libraries, which a dynamically linked workload
and cat map as well): while each reads, a sharer more moves such a
mapping's Pss and SwapPss, so those two are not compared for them, nor
their sums with the rollup's (each file was read with other sharers)."""
import json, os, re, sys
j = json.load(open(sys.argv[1]))
smaps = open(sys.argv[2], "rb").read()
rollups = [open(f, "rb").read() for f in sys.argv[3:5]]
OBJ = ["Size", "Rss", "Pss", "Private_Clean", "Private_Dirty", "Shared_Clean", "Shared_Dirty", "Swap", "SwapPss"]
MORE = ["Locked", "AnonHugePages"]
ROUNDED = ["Pss", "SwapPss", "Locked"]   # the kernel's pss >> PSS_SHIFT, per mapping
READER_LIBS = set(x for x in os.environ.get("READER_LIBS", "").split("\n") if x)
bad = []
# smaps's blocks: a header line, then its "Key: N kB" lines
blocks = []
for line in smaps.split(b"\n"):
    m = re.match(rb"^([0-9a-f]+-[0-9a-f]+) (\S{4}) ([0-9a-f]+) ([0-9a-f]+:[0-9a-f]+) (\d+) *(.*)$", line)
    if m and len(line) < 4096:
        blocks.append(dict(h=[x.decode() for x in m.groups()[:4]], ino=int(m.group(5)), name=m.group(6).decode(), f={}))
    elif m:
        blocks.append(dict(h=None, f={}))   # too long to read: a row without a name
    else:
        k = re.match(rb"^(\w+):\s+(\d+) kB$", line)
        if k and blocks:
            blocks[-1]["f"][k.group(1).decode()] = int(k.group(2)) * 1024
maps = j["mappings"]
if len(maps) != len(blocks):
    bad.append("%d mappings, smaps has %d blocks" % (len(maps), len(blocks)))
for i, (m, b) in enumerate(zip(maps, blocks)):
    got = [m["address"], m["perms"], m["offset"], m["device"]]
    if b["h"] is None:
        if got != [None] * 4 or m["inode"] is not None or m["name"] is not None or m["kind"] != "other":
            bad.append("mapping %d: a header too long to read is not a row without a name: %s" % (i, m))
    elif got != b["h"] or m["inode"] != b["ino"] or m["name"] != b["name"]:
        bad.append("mapping %d: %s, smaps %s %d %s" % (i, got, b["h"], b["ino"], b["name"]))
    for k in OBJ + MORE:
        if k in ("Pss", "SwapPss") and m["name"] in READER_LIBS:
            continue
        if m["rollup"][k] != b["f"].get(k, 0):
            bad.append("mapping %d %s: %d, smaps %d" % (i, k, m["rollup"][k], b["f"].get(k, 0)))
    if b["h"] is not None:
        lo, hi = (int(x, 16) for x in m["address"].split("-"))
        if m["rollup"]["Size"] != hi - lo:
            bad.append("mapping %d: Size %d, its address range %d" % (i, m["rollup"]["Size"], hi - lo))
# the mappings sum to the objects, to the total, exactly
for k in OBJ:
    s = sum(m["rollup"][k] for m in maps)
    o = sum(x["rollup"][k] for x in j["objects"])
    if not s == o == j["total"]["rollup"][k]:
        bad.append("%s: mappings %d, objects %d, total %d" % (k, s, o, j["total"]["rollup"][k]))
if sum(x["regions"] for x in j["objects"]) != len(maps) or j["total"]["regions"] != len(maps):
    bad.append("regions: objects %d, total %d, mappings %d" % (sum(x["regions"] for x in j["objects"]), j["total"]["regions"], len(maps)))
# and to smaps_rollup: exactly, but for the rounded keys: less by under 1 KiB a mapping
ros = [{k.decode(): int(v) * 1024 for k, v in re.findall(rb"(?m)^(\w+):\s+(\d+) kB$", r)} for r in rollups]
for k in ros[0]:
    if k not in OBJ + MORE or k == "Size" or (READER_LIBS and k in ("Pss", "SwapPss")):
        continue   # with READER_LIBS, each file read had its own sharers
    s = sum(m["rollup"][k] for m in maps)
    lo, hi = min(r.get(k, 0) for r in ros), max(r.get(k, 0) for r in ros)
    ok = lo - len(maps) * 1024 < s <= hi if k in ROUNDED else lo <= s <= hi
    if not ok:
        bad.append("%s: mappings %d, smaps_rollup %s (%d mappings)" % (k, s, sorted({lo, hi}), len(maps)))
print("\n".join(bad))
sys.exit(bool(bad))
