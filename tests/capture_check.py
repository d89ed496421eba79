#!/usr/bin/env python3
"""Checks for tests/capture.test and tests/capture-live.test, written from
POSIX and Python's tarfile, not from membox's code.

    capture_check.py tar FILE [--manifest]
        FILE is a valid tar stream: every header block's checksum (the sum
        of its bytes with the checksum field as spaces), the ustar magic,
        pax 'x' records self-consistent ("LEN key=value\\n", LEN counting
        itself), contents padded to 512, two zero blocks at the end and
        nothing but zeros after them; Python's tarfile opens and lists it
        with the same names and sizes; no name twice.  --manifest: the first
        member is membox-capture and the last membox-capture-end.  Prints
        "SIZE NAME" per member.
    capture_check.py tars FILE... [--manifest]
        The same for each FILE, in one process (hundreds of captures: the
        interpreter starts once); prints only the faults, each FILE first.
    capture_check.py json A B [IGNORE...]
        The JSON documents A and B are equal except at the paths IGNORE
        (fnmatch patterns over paths like zones.2.free, several in one
        argument apart by spaces); prints each difference.
    capture_check.py jsons LIST
        The same for each line "A<TAB>B<TAB>NAME<TAB>IGNORE" of LIST (NAME
        is the caller's, not read), in one process
        (hundreds of pairs: the interpreter starts once); each pair's
        differences go to the file A.diff, empty when there are none.
    capture_check.py between A B C [IGNORE...]
        B was read between A and C (live readings around a capture): at
        every path but IGNORE's, a number of B lies between A's and C's
        (equal to them where they agree), any other value equals A's or
        C's; prints each value out of its bracket, with both readings.
    capture_check.py opens LOG ROOT
        The files under proc/, sys/ and etc/ that strace LOG shows opened
        successfully (not O_DIRECTORY), ROOT taken off, /proc/NUMBER and /proc/self as
        /proc/PID, sorted, one per line.
"""
import fnmatch, json, re, sys, tarfile


def octal(f):
    s = f.rstrip(b'\0 ').lstrip(b' ')
    if not s or any(c not in b'01234567' for c in s):
        raise ValueError('not octal: %r' % f)
    return int(s, 8)


def size_field(f):
    if f[0] == 0x80:
        return int.from_bytes(f[1:], 'big')
    return octal(f)


def check_tar(path, manifest, listing=True):
    f = open(path, 'rb')
    end = f.seek(0, 2)

    def data(a, b):   # the bytes a..b, read where needed (a member may be GiBs of holes)
        f.seek(a)
        return f.read(max(0, min(b, end) - a))
    errs, members, at, pax = [], [], 0, {}
    while True:
        if at + 512 > end:
            errs.append('ends at %d without two zero blocks' % at)
            break
        h = data(at, at + 512)
        if h == bytes(512):
            if data(at + 512, at + 1024) != bytes(512):
                errs.append('one zero block at %d, not two' % at)
            if data(at + 1024, end).strip(b'\0'):
                errs.append('bytes after the end of archive at %d' % (at + 1024))
            break
        want = sum(h[:148]) + 32 * 8 + sum(h[156:])
        try:
            got = octal(h[148:156])
        except ValueError as e:
            errs.append('header at %d: checksum field %s' % (at, e))
            got = -1
        if got != want:
            errs.append('header at %d: checksum %d, the bytes sum to %d' % (at, got, want))
        if h[257:263] != b'ustar\0' or h[263:265] != b'00':
            errs.append('header at %d: magic %r' % (at, h[257:265]))
        try:
            size = size_field(h[124:136])
        except ValueError as e:
            errs.append('header at %d: size %s' % (at, e))
            break
        typ = h[156:157]
        body = data(at + 512, at + 512 + size) if typ == b'x' else b''
        pad = data(at + 512 + size, at + 512 + size + (-size % 512))
        if pad.strip(b'\0'):
            errs.append('header at %d: padding not zero' % at)
        if typ == b'x':
            pax, p = {}, 0
            while p < len(body):
                m = re.match(rb'([1-9][0-9]*) ', body[p:])
                n = int(m.group(1)) if m else 0
                rec = body[p:p + n]
                if not m or n > len(body) - p or not rec.endswith(b'\n') or b'=' not in rec:
                    errs.append('pax header at %d: record at %d not "LEN key=value\\n"' % (at, p))
                    break
                k, v = rec[len(m.group(0)):-1].split(b'=', 1)
                pax[k.decode()] = v
                p += n
        else:
            if 'size' in pax:
                size = int(pax['size'])
            name = pax['path'].decode('utf-8', 'surrogateescape') if 'path' in pax else None
            if name is None:
                pre = h[345:500].split(b'\0')[0]
                nm = h[:100].split(b'\0')[0]
                name = ((pre + b'/' if pre else b'') + nm).decode('utf-8', 'surrogateescape')
            members.append((name, size, typ))
            pax = {}
        at += 512 + size + (-size % 512)
    names = [m[0] for m in members]
    count = {}
    for n in names:
        count[n] = count.get(n, 0) + 1
    dups = sorted(n for n in count if count[n] > 1)
    if dups:
        errs.append('names twice: %s' % ' '.join(dups[:10]))
    if manifest and (not names or names[0] != 'membox-capture' or names[-1] != 'membox-capture-end'):
        errs.append('first member %r, last %r: not membox-capture ... membox-capture-end'
                    % (names[:1], names[-1:]))
    try:
        with tarfile.open(path) as t:
            py = [(m.name, m.size) for m in t.getmembers()]
        if py != [(m[0].rstrip('/'), m[1]) for m in members]:
            errs.append("Python's tarfile lists other members: %r" % py[:5])
    except Exception as e:
        errs.append("Python's tarfile: %s" % e)
    for n, s, _ in members if listing else ():
        print(s, n)
    for e in errs:
        print(path + ': ' + e, file=sys.stderr)
    return 1 if errs else 0


def flat(v, p, out):
    if isinstance(v, dict):
        for k in v:
            flat(v[k], p + [str(k)], out)
        if not v:
            out['.'.join(p)] = '{}'
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flat(x, p + [str(i)], out)
        if not v:
            out['.'.join(p)] = '[]'
    else:
        out['.'.join(p)] = v
    return out


def by_key(v):
    """Listings of processes or objects in the order of their pid or name:
    a listing follows a size, and where sizes move (ASan's shared libc
    pages) two rows of nearly the same size may trade places."""
    if isinstance(v, dict):
        return {k: by_key(x) for k, x in v.items()}
    if isinstance(v, list):
        v = [by_key(x) for x in v]
        if v and all(isinstance(x, dict) and ('pid' in x or 'object' in x) for x in v):
            v.sort(key=lambda x: (str(x.get('pid')), str(x.get('kind')), str(x.get('object'))))
    return v


def check_json(a, b, ignore):
    # "@by-key" among the patterns: listings compared by pid or object
    order = by_key if '@by-key' in ignore else (lambda v: v)
    fa = flat(order(json.load(open(a))), [], {})
    fb = flat(order(json.load(open(b))), [], {})
    bad = 0
    for k in sorted(set(fa) | set(fb)):
        if any(fnmatch.fnmatchcase(k, g) for g in ignore):
            continue
        if fa.get(k, '(absent)') != fb.get(k, '(absent)'):
            print('%s: %r != %r' % (k, fa.get(k, '(absent)'), fb.get(k, '(absent)')))
            bad = 1
    return bad


def check_between(a, b, c, ignore):
    order = by_key if '@by-key' in ignore else (lambda v: v)
    fa, fb, fc = (flat(order(json.load(open(x))), [], {}) for x in (a, b, c))
    bad = 0
    for k in sorted(set(fa) | set(fb) | set(fc)):
        if any(fnmatch.fnmatchcase(k, g) for g in ignore):
            continue
        va, vb, vc = (f.get(k, '(absent)') for f in (fa, fb, fc))
        num = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (va, vb, vc))
        if vb in (va, vc) or num and min(va, vc) <= vb <= max(va, vc):
            continue
        print('%s: %r, not between the readings before (%r) and after (%r)' % (k, vb, va, vc))
        bad = 1
    return bad


def opens(log, root):
    root = root.rstrip('/')
    seen = set()
    for line in open(log, errors='replace'):
        m = re.search(r'open(?:at2?)?\((?:[^,]*, )?"((?:[^"\\]|\\.)*)".*\) = (-?\d+)', line)
        # files only: a directory opened (to list it, or a mount point
        # for statfs) is not content a capture could hold
        if not m or int(m.group(2)) < 0 or 'O_DIRECTORY' in line:
            continue
        p = m.group(1)
        if root and p.startswith(root + '/'):
            p = p[len(root):]
        elif root and not p.startswith('/'):
            p = '/' + p      # opened relative to the root's descriptor
        p = re.sub(r'^/proc/(\d+|self|thread-self)(?=/|$)', '/proc/PID', p)
        p = re.sub(r'^/proc/PID/task/\d+', '/proc/PID/task/TID', p)
        if re.match(r'/(proc|sys|etc)(/|$)', p):
            seen.add(p)
    for p in sorted(seen):
        print(p)
    return 0


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'tar':
        sys.exit(check_tar(sys.argv[2], '--manifest' in sys.argv[3:]))
    if cmd == 'tars':
        files = [a for a in sys.argv[2:] if a != '--manifest']
        sys.exit(max([check_tar(f, '--manifest' in sys.argv[2:], False) for f in files] or [0]))
    if cmd == 'json':
        sys.exit(check_json(sys.argv[2], sys.argv[3], ' '.join(sys.argv[4:]).split()))
    if cmd == 'jsons':
        for line in open(sys.argv[2]):
            a, b, _, ign = (line.rstrip('\n').split('\t') + ['', ''])[:4]
            with open(a + '.diff', 'w') as out:
                sys.stdout = out
                try:
                    check_json(a, b, ign.split())
                except Exception as e:
                    print('%s: %s' % (a, e))
                sys.stdout = sys.__stdout__
        sys.exit(0)
    if cmd == 'between':
        sys.exit(check_between(sys.argv[2], sys.argv[3], sys.argv[4], ' '.join(sys.argv[5:]).split()))
    if cmd == 'opens':
        sys.exit(opens(sys.argv[2], sys.argv[3]))
    sys.exit(2)
