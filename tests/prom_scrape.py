#!/usr/bin/env python3
"""The Prometheus text of membox's files, and a node_exporter's scrape of
them, parsed here on their own (not by membox's writer) and compared.

  prom_scrape.py lint FILE...
      each file: no timestamp, one HELP and one TYPE per family, before its
      samples, every sample of a family it declared; across the files: no
      family in two of them (each applet's names are its own).
  prom_scrape.py compare SCRAPE FILE...
      every membox sample of the files is in SCRAPE (labels in any order,
      values compared as numbers), and no other; node_textfile_scrape_error
      is 0; node_textfile_mtime_seconds has each file's mtime.
Errors go to stdout, one per line; the exit status is 1 if there was one."""
import math, os, re, sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|\Z)')
UNESCAPE = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


def parse_labels(text, where):
    """'{a="x",b="y"}' body -> frozenset of (name, value), escapes undone"""
    labels, pos = [], 0
    while pos < len(text):
        m = LABEL.match(text, pos)
        if not m:
            raise ValueError(f"{where}: bad labels {text!r}")
        value = re.sub(r"\\.", lambda e: UNESCAPE.get(e[0], e[0]), m[2])
        labels.append((m[1], value))
        pos = m.end()
    names = [n for n, _ in labels]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: a label twice in {text!r}")
    return frozenset(labels)


def parse(path):
    """-> (families {name: {help, type, samples {labels: value}}}, errors)"""
    fams, errors = {}, []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        where = f"{os.path.basename(path)}:{n}"
        line = line.rstrip("\n")
        if not line.strip():
            continue
        m = re.match(rf"# (HELP|TYPE) ({NAME}) ?(.*)$", line)
        if m:
            f = fams.setdefault(m[2], {"help": None, "type": None, "samples": {}})
            key = m[1].lower()
            if f[key] is not None:
                errors.append(f"{where}: a second {m[1]} for {m[2]}")
            if f["samples"]:
                errors.append(f"{where}: {m[1]} of {m[2]} after its samples")
            f[key] = m[3]
            continue
        if line.startswith("#"):
            continue
        m = re.match(rf"({NAME})(?:\{{(.*)\}})?\s+(\S+)(\s+\S+)?\s*$", line)
        if not m:
            errors.append(f"{where}: not a sample: {line!r}")
            continue
        if m[4]:
            errors.append(f"{where}: a timestamp: {line!r}")
        try:
            labels = parse_labels(m[2] or "", where)
            value = float(m[3])
        except ValueError as e:
            errors.append(str(e))
            continue
        f = fams.get(m[1])
        if (f is None or f["type"] is None) and is_membox(m[1]):
            errors.append(f"{where}: {m[1]} has no TYPE before it")
        if f is None:  # also a summary's _sum, _count: not membox's
            f = fams.setdefault(m[1], {"help": None, "type": None, "samples": {}})
        if labels in f["samples"]:
            errors.append(f"{where}: {m[1]}{{{m[2]}}} twice")
        f["samples"][labels] = value
    for name, f in fams.items():
        if f["help"] is None and is_membox(name):
            errors.append(f"{os.path.basename(path)}: {name} has no HELP")
    return fams, errors


def is_membox(name):
    return name.startswith("membox_")


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def lint(files):
    errors, owner = [], {}
    for path in files:
        fams, errs = parse(path)
        errors += errs
        for name in fams:
            if not is_membox(name):
                errors.append(f"{os.path.basename(path)}: {name} is not a membox_ name")
            if name in owner:
                errors.append(f"{name} in {owner[name]} and {os.path.basename(path)}")
            owner.setdefault(name, os.path.basename(path))
    return errors


def compare(scrape, files):
    got, errors = parse(scrape)
    errors = [f"scrape: {e}" for e in errors if "no HELP" not in e]
    want = {}
    for path in files:
        fams, _ = parse(path)
        for name, f in fams.items():
            for labels, value in f["samples"].items():
                want[(name, labels)] = (value, os.path.basename(path))
    have = {(name, labels): value for name, f in got.items() if is_membox(name)
            for labels, value in f["samples"].items()}
    for key, (value, src) in sorted(want.items(), key=str):
        show = f"{key[0]}{dict(sorted(key[1]))} of {src}"
        if key not in have:
            errors.append(f"{show}: not in the scrape")
        elif not same(have[key], value):
            errors.append(f"{show}: {value!r} in the file, {have[key]!r} scraped")
    for key in sorted(set(have) - set(want), key=str):
        errors.append(f"{key[0]}{dict(sorted(key[1]))}: scraped, in no file")
    err = got.get("node_textfile_scrape_error", {}).get("samples", {})
    if list(err.values()) != [0.0]:
        errors.append(f"node_textfile_scrape_error: {err or 'absent'}")
    mtimes = got.get("node_textfile_mtime_seconds", {}).get("samples", {})
    by_file = {}
    for labels, value in mtimes.items():
        name = dict(labels).get("file", "")
        by_file[os.path.basename(name)] = value
    for path in files:
        base = os.path.basename(path)
        if base not in by_file:
            errors.append(f"node_textfile_mtime_seconds: no file={base!r}")
        # whole seconds (node_exporter 1.5) or nanoseconds as a float
        elif math.floor(by_file[base]) != math.floor(os.stat(path).st_mtime):
            errors.append(f"node_textfile_mtime_seconds{{file={base!r}}}: "
                          f"{by_file[base]}, the file's is {os.stat(path).st_mtime}")
    return errors


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "lint":
        errors = lint(sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        errors = compare(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
