#!/usr/bin/env python3
"""Prometheus HELP texts that say what a figure is and its unit.

    tests/prom_help.py FILE...

Every family of each exposition FILE has a HELP text of one sentence
(ending in '.', no '. ' inside), no two families of one file share a text
(a shared text says nothing of either figure), and the text names the
unit: "bytes" for a name ending in _bytes, "seconds" for _seconds and
_seconds_total, "percent" for _percent; any other family says what it
counts ("a count", "counts since ...", "in inodes", "a number", a ratio
"per byte") or what its values mean ("0 none, 1 ...", "1 yes, 0 no",
"1 when ..., else 0").  Exit 1 with a line per text that does not.
"""
import re
import sys

SUFFIX_UNITS = (('_seconds_total', 'seconds'), ('_seconds', 'seconds'),
                ('_bytes', 'bytes'), ('_percent', 'percent'))
UNITLESS = re.compile(r'\ba count\b|\bcounts\b|\bin inodes\b|\ba number\b|\bper byte\b|'
                      r'\b[01] \w+, [01] \w+|\b1 when\b.*\belse 0\b')


def problems(path):
    out, seen = [], {}
    families = set()
    for line in open(path, encoding='utf-8'):
        if line.startswith('# TYPE '):
            families.add(line.split()[2])
        if not line.startswith('# HELP '):
            continue
        _, _, name, text = (line.rstrip('\n').split(' ', 3) + [''])[:4]
        unit = next((u for s, u in SUFFIX_UNITS if name.endswith(s)), None)
        if not text.endswith('.') or '. ' in text:
            out.append('%s: not one sentence: %r' % (name, text))
        if unit and not re.search(r'\b%s\b' % unit, text, re.I):
            out.append('%s: no unit (%s): %r' % (name, unit, text))
        if not unit and not UNITLESS.search(text):
            out.append('%s: says not what it counts or means: %r' % (name, text))
        if text in seen:
            out.append('%s: the same HELP as %s: %r' % (name, seen[text], text))
        seen.setdefault(text, name)
    names = {line.split()[2] for line in open(path, encoding='utf-8') if line.startswith('# HELP ')}
    out += ['%s: no HELP' % f for f in sorted(families - names)]
    if not families:
        out.append('no family at all')
    return ['%s: %s' % (path, p) for p in out]


def main():
    bad = [p for f in sys.argv[1:] for p in problems(f)]
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)


main()
