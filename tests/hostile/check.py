#!/usr/bin/env python3
"""Run every applet in every format against the trees of gen.py and check
what a hostile input may never do (tests/hostile.test reports the lines).

    check.py OUT SCOPE 'RUN PREFIX' BIN

SCOPE "full" runs every command of cmds() on every tree of damaged
content, and the few commands of SUBSET on the trees where something
stands in place of a file (a FIFO, a device, a socket, a link, a
directory, nothing): one reader, core/rd.c, meets it whatever the file,
before any format or view, so the other commands would only repeat it.
"subset" (the targets other than the host's own and ASan, where the whole
matrix costs too much time) runs each applet in SUBSET's commands only,
on every tree of damaged content (every parser still meets every damage)
and on the in-place trees of SUBSET_FILES' files only; a command of
SUBSET that reads files of its own (REACHES) runs on their trees only.

Per tree and applet, one line "pass NAME" or "fail NAME<TAB>why":
  - no crash (signal), no sanitizer report, exit status as documented;
  - every stderr line is "membox: APPLET: ..."; a failure (exit 1) says why;
  - json parses (JSON Lines where the applet streams), prom passes promtool;
  - table and kv output and stderr carry no raw control byte (C0 but
    newline, DEL, ESC, C1) and no invalid UTF-8;
  - every kv line is a shell assignment NAME='VALUE' (a quote inside as '\'');
and "... diagnosed": a damaged file is an error or a warning naming it;
a FIFO, device, socket or symlink loop in place of a file, or a link
leading out of the capture, is said as such ("not a regular file", "leads
outside the root", ...); no run hangs (a FIFO's open or /dev/zero's
endless line would): a run still going after TIMEOUT seconds
(PIDS_TIMEOUT on the 40,000-PID tree) is a failure.
"""
import hashlib, json, os, re, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

out, scope, run, binary = sys.argv[1], sys.argv[2], shlex.split(sys.argv[3]), sys.argv[4]
# a fifth argument "nopids": the 40,000-PID tree, if generated, is left out
pids = sys.argv[5:] != ['nopids']
FMTS = ('table', 'json', 'kv', 'prom')
KV_LINE = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*='([^']|'\\'')*'\Z")


def cmds(app):
    """(args, format, allowed exit statuses)"""
    ok = (0, 1)
    if app == 'zoneinfo-wm':
        return [(['-a', '-o', f], f, ok) for f in FMTS]
    if app == 'lowmem':
        return [(['-o', f], f, ok) for f in FMTS] + [(['--check'], 'check', (0, 1, 2, 3))]
    if app == 'vmstat-meter':
        return [(['-q', '-n', '1', '-i', '0.01', '-o', f], f, ok) for f in FMTS] + \
               [(['-n', '2', '-i', '0.01'], 'table', ok), (['-n', '2', '-i', '0.01', '-o', 'json'], 'jsonl', ok)]
    if app == 'smaps-rollup':
        return [(['-o', f], f, ok) for f in FMTS] + \
               [(['-g', 'tree'], 'table', ok), (['-g', 'user', '-o', 'json'], 'json', ok),
                (['-C', 'chromeos', '-o', 'kv'], 'kv', ok), (['--unsorted'], 'table', ok),
                (['-g', 'name', '-o', 'prom'], 'prom', ok), (['-g', 'tree', '-o', 'json'], 'json', ok),
                # the views that read every mapping (smaps paths reach the output)
                (['-S', '-o', 'json'], 'json', ok), (['-l', '-v'], 'table', ok), (['-l', '-o', 'json'], 'json', ok),
                (['-l', '-o', 'prom'], 'prom', ok), (['-l', '-o', 'kv'], 'kv', ok),
                (['-M', '35078'], 'table', ok), (['-M', '35078', '-o', 'json'], 'json', ok),
                (['-M', '40100'], 'table', ok), (['-M', '40100', '-o', 'json'], 'json', ok),
                (['-M', '40100', '-o', 'prom'], 'prom', ok)]
    if app == 'tmpfs-du':
        return [(['-t', 'tmpfs,devtmpfs,ramfs', '-d', '2', '-a', '-o', f], f, ok) for f in FMTS] + \
               [(['-s', '-o', 'json'], 'json', ok)]
    raise SystemExit('unknown applet ' + app)


# Each applet's readers and figures in json (parsed here, so what a
# damaged value became is seen); lowmem's --check (its own exit statuses),
# vmstat-meter's rates (two samples), and smaps-rollup's views that build
# the process tree or read every mapping.  The table writer is the same C
# on every target; the full scope and the fixtures' expect files check it.
SUBSET = {'zoneinfo-wm': ('-a -o json',),
          'lowmem': ('-o json', '--check'),
          'vmstat-meter': ('-n 2 -i 0.01 -o json',),
          'smaps-rollup': ('-o json', '-g tree -o json', '-l -o json', '-M 40100 -o json'),
          'tmpfs-du': ('-t tmpfs,devtmpfs,ramfs -d 2 -a -o json',)}


# SUBSET's commands that reach files of their own beyond the applet's
# json: on a tree where another class of file is damaged they would only
# repeat the json run, so the subset runs them on their own classes' trees
# and on the trees of every file (base, all, strings, nothing, escape).
# --check's exit statuses follow the margins' and the level's inputs; the
# process tree needs each status's PPid; -l and -M read every smaps.
REACHES = {('lowmem', '--check'): ('meminfo', 'margin', 'lmsys', 'mmstat'),
           ('smaps-rollup', '-g tree -o json'): ('status',),
           ('smaps-rollup', '-l -o json'): ('smaps',),
           ('smaps-rollup', '-M 40100 -o json'): ('smaps',)}
CLASSES = ('meminfo', 'zoneinfo', 'zone', 'vmstat', 'swaps', 'psi', 'sysctl', 'margin', 'lmsys',
           'mmstat', 'mountinfo', 'shm', 'status', 'rollup', 'smaps', 'cmdline', 'passwd')


def scoped(app, mut, cls):
    c = cmds(app)
    if scope == 'full' and mut not in IN_PLACE:
        return c
    c = [x for x in c if ' '.join(x[0]) in SUBSET[app]]
    assert len(c) == len(SUBSET[app]), app
    return [x for x in c if cls not in CLASSES or cls in REACHES.get((app, ' '.join(x[0])), (cls,))]


# A damaged file must be diagnosed (exit 1, or a warning naming it) when the
# damage cannot be told from a real kernel's file: a cut line, numbers beyond
# 2^64 or negative, NULs, garbage, a directory; for line-read files also a
# line beyond MB_LINE_MAX; for every file, content beyond MB_FILE_MAX.
# Empty files, missing and duplicated keys are "absent" or plain values.
DIAG = {'cut', 'u64', 'neg', 'nul', 'garbage', 'dir', 'big'}
# What stands in place of a file, and what must be said of it: a FIFO, a
# device, a socket is no regular file; a link out of the capture leads
# outside the root (refused as a link where the kernel lacks openat2); a
# loop is a loop (or a refused link).
LINK = (b'leads outside the root', b'symbolic link')
SPECIAL = {'fifo': (b'not a regular file',), 'zero': (b'not a regular file',),
           'zerolink': LINK, 'urandom': LINK, 'sock': (b'not a regular file',),
           'loop': (b'Symbolic link loop', b'Too many levels of symbolic links') + LINK,
           'abs': LINK, 'up': LINK}
# gen.py's mount points of escape-mounts: "/../../..", a link to /dev/shm
ESCAPING = ('/../../../../../../../../dev/shm', '/mnt/link')
# A hang is what the bounds catch, not a slow run (qemu-user, ASan, a
# machine loaded by the other lane of make check): one bound for every
# scope, far above any run's own time.  The 40,000-PID tree's run alone
# takes about 5 s of CPU; on a machine shared with the rest of make check it
# overran 60 s of wall time, so it has a bound of its own that only a run
# that never ends reaches.
TIMEOUT = 60
PIDS_TIMEOUT = 300


def bound(tree):
    return PIDS_TIMEOUT if tree == 'pids' else TIMEOUT
LINE_READ = {'zoneinfo', 'swaps', 'mountinfo', 'shm'}
CTRL = re.compile(rb'[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]')


def raw_ctrl(b):
    m = CTRL.search(b)
    if m:
        return 'raw control byte %r at %d: %r' % (m.group(), m.start(), b[max(0, m.start() - 30):m.start() + 10])
    try:
        b.decode('utf-8')
    except UnicodeDecodeError as e:
        return 'invalid UTF-8 at %d: %r' % (e.start, b[max(0, e.start - 30):e.start + 10])
    return None


def one(tree, app, args):
    env = dict(os.environ, LC_ALL='C')
    try:
        p = subprocess.run(run + [binary, app, '-R', os.path.join(out, tree)] + args,
                           stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=bound(tree))
    except subprocess.TimeoutExpired as e:
        return 'hang', e.stdout or b'', e.stderr or b''
    return p.returncode, p.stdout, p.stderr


prom_seen = {}


def check_tree(tree, apps, fname, mut):
    res = []
    cls = tree.split('-')[0]
    for app in apps.split(','):
        bad, diag, errs, rcs, outs = [], False, b'', [], b''
        for args, fmt, allowed in scoped(app, mut, cls):
            rc, so, se = one(tree, app, args)
            what = ' '.join(args)
            if rc == 'hang':
                bad.append('%s: no end after %d s (hung): %s' % (what, bound(tree), se[-300:]))
                rcs.append((-1, fmt))
                continue
            rcs.append((rc, fmt))
            errs += se
            outs += so
            if rc < 0 or rc >= 128:
                bad.append('%s: killed (status %d): %s' % (what, rc, se[-300:]))
                continue
            if b'Sanitizer' in se or b'runtime error' in se:
                bad.append('%s: sanitizer: %s' % (what, se[:600]))
                continue
            if rc not in allowed:
                bad.append('%s: exit %d' % (what, rc))
            lines = se.decode('utf-8', 'replace').splitlines()
            for l in lines:
                if not l.startswith('membox: %s: ' % app):
                    bad.append('%s: stderr line not "membox: %s: ...": %r' % (what, app, l[:200]))
                    break
            fail_rc = 3 if fmt == 'check' else 1
            if rc == fail_rc and not lines:
                bad.append('%s: exit %d without a message' % (what, rc))
            r = raw_ctrl(se.replace(b'\n', b''))
            if r:
                bad.append('%s: stderr: %s' % (what, r))
            if fmt == 'check' and (rc == 3) != so.startswith(b'LOWMEM UNKNOWN'):
                bad.append('%s: exit %d: %r' % (what, rc, so[:200]))
            if fname != '-' and (rc == fail_rc or fname.encode() in se):
                diag = True
            if not so:
                if rc == 0:
                    bad.append('%s: exit 0 and no output' % what)
                continue
            if fmt == 'json':
                try:
                    json.loads(so)
                except ValueError as e:
                    bad.append('%s: json: %s: %r' % (what, e, so[:300]))
            elif fmt == 'jsonl':
                for l in so.splitlines():
                    try:
                        json.loads(l)
                    except ValueError as e:
                        bad.append('%s: json line: %s: %r' % (what, e, l[:300]))
                        break
            elif fmt == 'prom':
                h = hashlib.sha1(so).hexdigest()
                if h not in prom_seen:
                    p = subprocess.run(['promtool', 'check', 'metrics'], input=so, capture_output=True)
                    prom_seen[h] = None if p.returncode == 0 else (p.stdout + p.stderr)[:600]
                if prom_seen[h]:
                    bad.append('%s: promtool: %s' % (what, prom_seen[h].decode('utf-8', 'replace')))
            if fmt in ('table', 'kv', 'check'):
                r = raw_ctrl(so)
                if r:
                    bad.append('%s: stdout: %s' % (what, r))
            if fmt == 'kv':
                # each line a shell assignment: a name, '=', one single-quoted word
                for l in so.split(b'\n')[:-1]:
                    if not KV_LINE.match(l):
                        bad.append('%s: kv line no shell assignment: %r' % (what, l[:200]))
                        break
        name = 'hostile %s %s' % (tree, app)
        res.append(('fail', name, '\n'.join(bad)) if bad else ('pass', name, ''))
        # what each case must say
        want = None
        if mut == 'nothing':
            want = all(r == (3 if f == 'check' else 1) for r, f in rcs) and b'/proc' in errs
            name += ' fails naming /proc'
        elif mut == 'header':
            want = all(r in (1, 3) for r, f in rcs) and re.search(rb'/proc/zoneinfo line \d+', errs) is not None
            name += ' fails naming the line'
        elif mut == 'escape':
            want = all(r == (3 if f == 'check' else 1) for r, f in rcs) and any(t in errs for t in LINK)
            name += ' fails: leads outside the root'
        elif mut == 'escape-mounts':
            rc, so, se = one(tree, app, ['-t', 'tmpfs', '-o', 'json'])
            try:
                ms = [m for m in json.loads(so)['mounts'] if m['mount_point'] in ESCAPING]
            except (ValueError, KeyError):
                ms = []
            # not walked, and why (leads outside, a link not followed)
            want = len(ms) == 2 and all(m['error'] and m['allocated'] is None for m in ms)
            name += ' walks no mount outside the capture'
        elif fname != '-' and mut in SPECIAL:
            # lowmem says "missing or garbled" of any mm_stat it cannot use
            want = diag and (cls == 'mmstat' or any(t in errs for t in SPECIAL[mut]))
            name += ' said: ' + SPECIAL[mut][0].decode()
        elif fname != '-' and (mut in DIAG or (mut == 'long' and cls in LINE_READ)):
            want = diag
            name += ' diagnosed'
        if want is not None:
            res.append(('pass', name, '') if want else
                        ('fail', name, 'exit %s, stderr: %s' % ([r for r, f in rcs], errs[:400].decode('utf-8', 'replace') or '(empty)')))
    return res


def pids_tree():
    exp = json.load(open(os.path.join(out, 'pids.json')))
    rc, so, se = one('pids', 'smaps-rollup', ['-o', 'json'])
    try:
        j = json.loads(so)
        c, t = j['coverage'], j['total']
        got = dict(processes=c['processes'], approximate=c['approximate'], inaccessible=c['inaccessible'],
                   vanished=c['vanished'], kernel_threads=c['kernel_threads'], pss=t['pss'])
        ok = rc == 0 and got == exp
        why = 'exit %s, coverage %r, generator wrote %r' % (rc, got, exp)
    except (ValueError, KeyError) as e:
        ok, why = False, 'exit %s: %s %r' % (rc, e, se[:300])
    return [('pass' if ok else 'fail', 'hostile pids: coverage and totals as written', '' if ok else why)]


# SUBSET's files for what stands in place of a file: one read line by
# line, one read whole, one of a process
SUBSET_FILES = ('zoneinfo', 'meminfo', 'cmdline')
IN_PLACE = set(SPECIAL) | {'dir', 'missing'}


def in_scope(m):
    tree, mut = m[0], m[3]
    return scope == 'full' or mut not in IN_PLACE or tree.split('-')[0] in SUBSET_FILES


man = [m for m in (l.split() for l in open(os.path.join(out, 'manifest')))
       if (pids or m[0] != 'pids') and in_scope(m)]
with ThreadPoolExecutor(4) as ex:
    futs = [ex.submit(check_tree, *m) for m in man]
    if pids and os.path.exists(os.path.join(out, 'pids.json')):
        futs.append(ex.submit(pids_tree))
    for f in futs:
        for st, name, why in f.result():
            print('%s\t%s\t%s' % (st, name, why.replace('\\', '\\\\').replace('\n', '\\n')))
