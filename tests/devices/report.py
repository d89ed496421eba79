#!/usr/bin/env python3
"""report.py TARGET LOG QEMU_RC: the results of a device guest's console
LOG (tests/devices/init says its lines), in tests/run's words: a line
"FAIL [TARGET] NAME" with the reason for each failure, "SKIP [TARGET]
NAME: WHY" for each skip, then "counts PASSED FAILED SKIPPED".  Blobs are
checked here: json parses (one document), prom passes promtool."""
import base64
import json
import subprocess
import sys

target, log, qrc = sys.argv[1], sys.argv[2], sys.argv[3]
counts = [0, 0, 0]


def res(kind, name, why=''):
    counts[('pass', 'fail', 'skip').index(kind)] += 1
    if kind == 'fail':
        print('FAIL [%s] %s' % (target, name))
        for line in why.splitlines()[:40]:
            print('    ' + line)
    elif kind == 'skip':
        print('SKIP [%s] %s: %s' % (target, name, why))


def check_blob(name, kind, data):
    if kind == 'json':
        try:
            json.loads(data)
            res('pass', name + ' parses as json')
        except ValueError as e:
            res('fail', name + ' parses as json', str(e))
    elif kind == 'prom':
        try:
            p = subprocess.run(['promtool', 'check', 'metrics'], input=data, capture_output=True)
        except OSError as e:
            return res('skip', name + ' passes promtool', 'promtool: %s' % e)
        if p.returncode == 0:
            res('pass', name + ' passes promtool')
        else:
            res('fail', name + ' passes promtool', (p.stdout + p.stderr).decode('utf-8', 'replace'))


raw = open(log, 'rb').read().decode('utf-8', 'replace').replace('\r', '')
lines = raw.split('\n')
done = False
blob = None
for line in lines:
    # a kernel message may share a line with ours: the marker is taken
    # wherever it starts
    i = line.find('MBDEV ')
    if blob is not None:
        if i >= 0 and line[i:].startswith('MBDEV end'):
            try:
                check_blob(blob[0], blob[1], base64.b64decode(''.join(blob[2])))
            except ValueError as e:
                res('fail', blob[0] + ' arrives whole', str(e))
            blob = None
        else:
            blob[2].append(line.strip())
        continue
    if i < 0:
        continue
    word, _, rest = line[i + 6:].partition(' ')
    if word == 'pass':
        res('pass', rest)
    elif word in ('fail', 'skip'):
        name, _, why = rest.partition(': ')
        res(word, name, why)
    elif word == 'blob':
        name, _, kind = rest.rpartition(' ')
        blob = (name, kind, [])
    elif word == 'done':
        done = True
if not done:
    res('fail', 'the guest finished (qemu exit %s)' % qrc,
        'last console lines:\n' + '\n'.join(l for l in lines if l.strip())[-3000:])
print('counts %d %d %d' % tuple(counts))
