#!/usr/bin/env python3
"""Independent check of zoneinfo-wm's json: recompute every figure from the
raw zoneinfo (and meminfo, sys/vm) with a separate parser and compare.
Usage: zoneinfo_check.py [--live [--before FILE]] ROOT JSON [PAGE_SIZE_SOURCE]
--before FILE: a copy of ROOT's proc/zoneinfo read before membox ran"""
import json, os, re, sys

live = "--live" in sys.argv
if live:
    sys.argv.remove("--live")
before_path = None
if "--before" in sys.argv:
    i = sys.argv.index("--before")
    before_path = sys.argv[i + 1]
    del sys.argv[i:i + 2]
root, out = sys.argv[1], json.load(open(sys.argv[2]))
WM = ("boost", "min", "low", "high", "promo", "spanned", "present", "managed")


def parse(path):
    zones = []
    for line in open(path):
        m = re.match(r"Node (\d+), zone\s+(\S+)\s*$", line)
        if m:
            zones.append({"node": int(m[1]), "zone": m[2]})
            continue
        m = re.match(r"\s+pages free\s+(\d+)\s*$", line)
        if m:
            zones[-1]["free"] = int(m[1])
            continue
        m = re.match(r"\s+protection: \(([\d, ]*)\)\s*$", line)
        if m:
            zones[-1]["protection"] = [int(x) for x in m[1].split(",") if x.strip()]
            continue
        m = re.match(r"\s+(\w+)\s+(\d+)\s*$", line)
        if m and m[1] in WM:
            zones[-1][m[1]] = int(m[2])
    return zones


zones = parse(os.path.join(root, "proc/zoneinfo"))
before = parse(before_path) if before_path else []
if [(z["node"], z["zone"]) for z in before] != [(z["node"], z["zone"]) for z in zones]:
    before = [None] * len(zones)   # no read before, or other zones: no bracket

errors = []
# --live: free pages move while membox reads them; with --before, free and
# headroom (and their totals) must lie between the reads before and after
# membox's, widened by 2% of the zone's managed memory (the count is not
# monotonic: it may go down and back up between the reads), without it
# within 2% of the read after.  With --before, every other figure lies
# between the two reads (memory hot-plug or a balloon moves managed memory,
# and the watermarks and protections computed from it): exact where they
# agree; without it, exact.  The kernel raises and drops a zone's
# watermark_boost on its own (a fragmenting allocation, kswapd), and min,
# low, high and promo include it: those are compared as each read's values
# less that read's boost plus membox's boost.
slack = {}
def same(what, got, exp, alt=None):
    """alt: the figure in the read before membox's, if any"""
    key = what.split()[-1]
    if live and isinstance(got, int) and isinstance(exp, int) and not isinstance(got, bool):
        lo, hi = (exp, exp) if not isinstance(alt, int) else (min(exp, alt), max(exp, alt))
        sl = slack.get(what.split()[0], 0) if key in ("free", "headroom") else 0
        if lo - sl <= got <= hi + sl:
            return
    elif live and alt is not None and got == alt:
        return
    if got != exp:
        errors.append(f"{what}: membox {got!r}, independent {exp!r}")

ps = out["page_size"]
how = out["page_size_source"]
if len(sys.argv) > 3:
    same("page_size_source", how, sys.argv[3])
if how == "derived":
    total_kb = int(re.search(r"^MemTotal:\s+(\d+) kB", open(os.path.join(root, "proc/meminfo")).read(), re.M)[1])
    present = sum(z["present"] for z in zones)
    exp = 4096
    while exp * present < total_kb * 1024:
        exp *= 2
    same("page_size", ps, exp)
elif how == "kernel":
    same("page_size", ps, os.sysconf("SC_PAGE_SIZE"))

same("zone count", len(out["zones"]), len(zones))
tot = dict.fromkeys(("free", "min", "low", "high", "present", "managed", "reserve"), 0)
tot_before = dict.fromkeys(tot, 0) if before[0:1] != [None] else None


def expected(z, j):
    """a zone's figures in one read (membox's boost in its watermarks when
    live), and what it adds to the totals"""
    if live and "boost" in z and isinstance(j.get("boost"), int):
        db = j["boost"] // ps - z["boost"]
        for k in ("boost", "min", "low", "high", "promo"):
            if k in z:
                z[k] += db
    managed = z.get("managed", z["present"])
    prot = z.get("protection", [])
    reserve = min(z["high"] - z.get("boost", 0) + max(prot, default=0), managed)
    exp = {"node": z["node"], "zone": z["zone"], "free": z["free"] * ps,
           "boost": z["boost"] * ps if "boost" in z else None,
           "min": z["min"] * ps, "low": z["low"] * ps, "high": z["high"] * ps,
           "promo": z["promo"] * ps if "promo" in z else None,
           "spanned": z["spanned"] * ps, "present": z["present"] * ps,
           "managed": managed * ps, "managed_from_present": "managed" not in z,
           "protection": [p * ps for p in prot],
           "protection_max": max(prot, default=0) * ps,
           "reserve": reserve * ps, "headroom": (z["free"] - z["low"]) * ps}
    return exp, {k: {"managed": managed, "reserve": reserve}.get(k, z.get(k, 0)) for k in tot}


for z, zb, j in zip(zones, before, out["zones"]):
    name = f'{z["node"]}/{z["zone"]}'
    managed = z.get("managed", z["present"])
    slack[name] = managed * ps // 50
    slack["total"] = slack.get("total", 0) + managed * ps // 50
    exp, add = expected(z, j)
    alt = {}
    if zb is not None:
        alt, add_before = expected(zb, j)
        for k in tot:
            tot_before[k] += add_before[k]
    for k, v in exp.items():
        same(f"{name} {k}", j.get(k, "<missing>"), v, alt.get(k))
    for k in tot:
        tot[k] += add[k]
for k, v in tot.items():
    same(f"total {k}", out["total"].get(k), v * ps,
         tot_before[k] * ps if tot_before is not None else None)

def vmfile(name):
    try:
        return open(os.path.join(root, "proc/sys/vm", name)).read().split()
    except OSError:
        return None
for key, fname, scale in (("min_free", "min_free_kbytes", 1024), ("extra_free", "extra_free_kbytes", 1024),
                          ("watermark_scale_factor", "watermark_scale_factor", 1),
                          ("watermark_boost_factor", "watermark_boost_factor", 1)):
    v = vmfile(fname)
    same(f"vm {key}", out["vm"][key], int(v[0]) * scale if v else None)
v = vmfile("lowmem_reserve_ratio")
same("vm lowmem_reserve_ratio", out["vm"]["lowmem_reserve_ratio"], [int(x) for x in v] if v is not None else None)
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
