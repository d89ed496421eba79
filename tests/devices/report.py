#!/usr/bin/env python3
"""report.py TARGET LOG QEMU_RC HOST_MEMBOX: the results of a device guest's console
LOG (tests/devices/init says its lines), in tests/run's words: a line
"FAIL [TARGET] NAME" with the reason for each failure, "SKIP [TARGET]
NAME: WHY" for each skip, then "counts PASSED FAILED SKIPPED".  Blobs are
checked here: json parses (one document), prom passes promtool, and a
capture (a tar) replayed by the host's membox (smaps-rollup -R) gives
each process the figures of the "MBDEV expect" lines before it."""
import base64
import json
import os
import subprocess
import sys
import tarfile
import tempfile

target, log, qrc, host_mb = sys.argv[1:5]
expect = {}
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
    elif kind == 'capture':
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'cap.tar')
            with open(path, 'wb') as f:
                f.write(data)
            root = os.path.join(d, 'root')
            os.mkdir(root)
            try:
                with tarfile.open(path) as t:
                    t.extractall(root)
            except (tarfile.TarError, OSError) as e:
                return res('fail', name + ' extracts', str(e))
            for pid, want in sorted(expect.items()):
                p = subprocess.run([host_mb, 'smaps-rollup', '-R', root, '-p', pid, '-o', 'kv'],
                                   capture_output=True, text=True)
                got = dict(l.split('=', 1) for l in p.stdout.splitlines() if '=' in l)
                bad = []
                for k, v in want.items():
                    key = 'process_%s_%s' % (pid, k if k == 'uss' else 'rollup_' + k)
                    if got.get(key, "''").strip("'") != v:
                        bad.append('%s: replay %s, kernel %s' % (k, got.get(key), v))
                test = '%s replayed on the host: process %s as its smaps_rollup' % (name, pid)
                if p.returncode or bad:
                    res('fail', test, 'exit %d %s\n%s' % (p.returncode, p.stderr, '\n'.join(bad)))
                else:
                    res('pass', test)
        expect.clear()
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
    elif word == 'expect':
        pid, _, kvs = rest.partition(' ')
        expect[pid] = dict(x.split('=', 1) for x in kvs.split())
    elif word == 'done':
        done = True
if not done:
    res('fail', 'the guest finished (qemu exit %s)' % qrc,
        'last console lines:\n' + '\n'.join(l for l in lines if l.strip())[-3000:])
print('counts %d %d %d' % tuple(counts))
