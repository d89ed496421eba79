#!/usr/bin/env python3
"""Build hostile --root trees for tests/hostile.test (nothing large is
committed: every tree is made here, at test time, from the real captures
under tests/fixtures).

    gen.py OUT [--pids N]

OUT/base         a well-formed tree: the real captures lm-chromeos (meminfo,
                 zoneinfo, swaps, PSI, the ChromeOS sysfs files, zram
                 mm_stat), vm-x86-6x (vmstat), zi-x86-6x (vm sysctls),
                 td-x86-6x (mountinfo, sysvipc/shm), sr-x86-6x and sr-hostile
                 (processes, passwd), sr-smaps-only (smaps, as PIDs 30000+)
OUT/CLASS-MUT    base with every file of CLASS damaged by mutation MUT (also
                 replaced by a FIFO, /dev/zero's node or a link to it, a
                 link to /dev/urandom, a socket, a symlink loop, an
                 absolute link to the live file, a link climbing out)
OUT/escape-*     captures whose /proc, or whose tmpfs mount points, lead out
OUT/...          whole-tree cases (see WHOLE below)
OUT/manifest     one line per tree: NAME APPLETS(comma) FILE-TO-NAME MUT
OUT/pids.json    the expected coverage of the big PID tree (computed here,
                 from what was written, independently of membox)
"""
import json, os, random, re, shutil, socket, stat, sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(TOP, 'fixtures')
ALL = 'zoneinfo-wm,lowmem,vmstat-meter,smaps-rollup,tmpfs-du'


def put(path, data, mode='wb'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def copy(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def base(out):
    b = os.path.join(out, 'base')
    shutil.copytree(os.path.join(FIX, 'lm-chromeos', 'proc'), b + '/proc')
    shutil.copytree(os.path.join(FIX, 'lm-chromeos', 'sys'), b + '/sys')
    copy(FIX + '/vm-x86-6x/proc/vmstat', b + '/proc/vmstat')
    for f in ('watermark_scale_factor', 'lowmem_reserve_ratio'):
        copy(FIX + '/zi-x86-6x/proc/sys/vm/' + f, b + '/proc/sys/vm/' + f)
    put(b + '/proc/sys/vm/watermark_boost_factor', b'15000\n')
    copy(FIX + '/td-x86-6x/proc/self/mountinfo', b + '/proc/self/mountinfo')
    copy(FIX + '/td-x86-6x/proc/sysvipc/shm', b + '/proc/sysvipc/shm')
    # two walkable tmpfs mount points of that mountinfo
    put(b + '/dev/shm/a', b'x' * 5000)
    put(b + '/dev/shm/sub/b', b'y' * 100)
    for fx in ('sr-x86-6x', 'sr-hostile'):
        for p in os.listdir(FIX + '/' + fx + '/proc'):
            if p.isdigit():
                shutil.copytree(FIX + '/' + fx + '/proc/' + p, b + '/proc/' + p)
    for p in os.listdir(FIX + '/sr-smaps-only/proc'):
        if p.isdigit():
            shutil.copytree(FIX + '/sr-smaps-only/proc/' + p, b + '/proc/' + str(30000 + int(p)))
    pw = {}
    for fx in ('sr-x86-6x', 'sr-hostile'):
        for l in open(FIX + '/' + fx + '/etc/passwd', 'rb'):
            pw.setdefault(l.split(b':')[2], l)
    put(b + '/etc/passwd', b''.join(pw.values()))
    return b


# file classes: the files damaged together, the applets that read them, the
# file name a diagnostic should carry
CLASSES = [
    ('meminfo', ['proc/meminfo'], ALL, '/proc/meminfo'),
    ('zoneinfo', ['proc/zoneinfo'], 'zoneinfo-wm,lowmem', '/proc/zoneinfo'),
    ('vmstat', ['proc/vmstat'], 'vmstat-meter', '/proc/vmstat'),
    ('swaps', ['proc/swaps'], 'lowmem', '/proc/swaps'),
    ('psi', ['proc/pressure/memory'], 'lowmem,vmstat-meter', '/proc/pressure/memory'),
    ('sysctl', ['proc/sys/vm/*'], 'zoneinfo-wm,lowmem', '/proc/sys/vm/'),
    ('margin', ['sys/kernel/mm/chromeos-low_mem/margin'], 'lowmem', 'margin'),
    ('lmsys', ['sys/kernel/mm/chromeos-low_mem/available',
               'sys/kernel/mm/chromeos-low_mem/ram_vs_swap_weight'], 'lowmem', 'chromeos-low_mem/'),
    ('mmstat', ['sys/block/zram0/mm_stat'], 'lowmem', 'mm_stat'),
    ('mountinfo', ['proc/self/mountinfo'], 'tmpfs-du', '/proc/self/mountinfo'),
    ('shm', ['proc/sysvipc/shm'], 'tmpfs-du', '/proc/sysvipc/shm'),
    ('status', ['proc/*/status'], 'smaps-rollup', '-'),
    ('rollup', ['proc/*/smaps_rollup'], 'smaps-rollup', '-'),
    ('smaps', ['proc/*/smaps'], 'smaps-rollup', '-'),
    ('cmdline', ['proc/*/cmdline'], 'smaps-rollup', '-'),
    ('passwd', ['etc/passwd'], 'smaps-rollup', '-'),
]

NUM = re.compile(rb'\d+')
BIG = [b'18446744073709551616', b'18446744073709551615', b'99999999999999999999999999999', b'9223372036854775808']


def mid_cut(d):
    """Cut in the middle of a line past the middle of the file."""
    if len(d) < 4:
        return d[:len(d) // 2]
    nl = d.find(b'\n', len(d) // 2)
    if nl < 0 or nl + 2 >= len(d):
        return d[:len(d) // 2]
    end = d.find(b'\n', nl + 1)
    end = len(d) if end < 0 else end
    return d[:nl + 1 + max(1, (end - nl - 1) // 2)]


def insert_mid(d, line):
    nl = d.find(b'\n', len(d) // 2)
    return d + line if nl < 0 else d[:nl + 1] + line + d[nl + 1:]


def m_u64(d):
    i = [0]

    def r(m):
        i[0] += 1
        return BIG[i[0] % len(BIG)]
    return NUM.sub(r, d)


def m_nul(d):
    return b'\n'.join(l[:len(l) // 2] + b'\0' + l[len(l) // 2:] if l else l for l in d.split(b'\n'))


def m_dup(d):
    out = []
    for l in d.split(b'\n'):
        out.append(l)
        if l:
            out.append(NUM.sub(lambda m: b'%d' % (int(m.group()) + 1), l))
    return b'\n'.join(out)


def m_garbage(d, seed):
    r = random.Random(seed)
    g = bytes(r.randrange(256) for _ in range(3000))
    return g + b'\n\0\x1b[2J\xff\xfe\r\n' + g[:500]


MUTATIONS = [
    ('empty', lambda d, s: b''),
    ('cut', lambda d, s: mid_cut(d)),
    # a line longer than every line buffer (MB_LINE_MAX, SR_READ_MAX)
    ('long', lambda d, s: insert_mid(d, b'Long' + b'x' * 5000 + b': 5 kB 5\n')),
    # the real content behind 20000 bytes: beyond MB_FILE_MAX (16384)
    ('big', lambda d, s: b'Big' + b'y' * 20000 + b': 5 kB 5\n' + d),
    ('u64', lambda d, s: m_u64(d)),
    ('neg', lambda d, s: NUM.sub(lambda m: b'-' + m.group(), d)),
    ('nul', lambda d, s: m_nul(d)),
    ('dup', lambda d, s: m_dup(d)),
    ('missing', lambda d, s: b'\n'.join(d.split(b'\n')[::2])),
    ('garbage', m_garbage),
    ('crlf', lambda d, s: d.replace(b'\n', b'\r\n')),
    ('dir', None),
    # what may stand in a capture in place of a file (SPECIAL below): none
    # may hang a run (a FIFO's open, /dev/zero's endless line) or lead a
    # read out of the capture (an absolute link, a link climbing out)
    ('fifo', None), ('zero', None), ('zerolink', None), ('urandom', None),
    ('sock', None), ('loop', None), ('abs', None), ('up', None),
]
SPECIAL = {'fifo', 'zero', 'zerolink', 'urandom', 'sock', 'loop', 'abs', 'up'}


def special(tree, f, p, mut):
    """Put the special file of mutation mut at p (f: its path in the tree)."""
    if mut == 'fifo':
        os.mkfifo(p)
    elif mut == 'zero':
        try:                           # /dev/zero's device node (as root)
            os.mknod(p, 0o644 | stat.S_IFCHR, os.makedev(1, 5))
        except PermissionError:
            os.symlink('/dev/zero', p)
    elif mut == 'zerolink':
        os.symlink('/dev/zero', p)
    elif mut == 'urandom':
        os.symlink('/dev/urandom', p)
    elif mut == 'sock':
        # bound by a relative name: the absolute one may pass sun_path's 108
        here = os.getcwd()
        os.chdir(os.path.dirname(p))
        try:
            s = socket.socket(socket.AF_UNIX)
            s.bind(os.path.basename(p))
            s.close()
        finally:
            os.chdir(here)
    elif mut == 'loop':
        os.symlink(os.path.basename(p), p)
    elif mut in ('abs', 'up'):
        # the analyst's own file of that name (of PID 1 for a process's),
        # absolute or through "..", far above the tree
        live = re.sub(r'^proc/\d+/', 'proc/1/', f)
        os.symlink('/' + live if mut == 'abs' else '../' * (f.count('/') + 12) + live, p)


def expand(tree, pat):
    if '*' not in pat:
        return [pat] if os.path.lexists(os.path.join(tree, pat)) else []
    head, tail = pat.split('*', 1)
    d = os.path.join(tree, head)
    return [head + e + tail for e in sorted(os.listdir(d))
            if os.path.lexists(os.path.join(d, e + tail)) and os.path.isfile(os.path.join(d, e + tail))]


def clone(b, dst):
    shutil.copytree(b, dst, copy_function=os.link)


def mutate(tree, files, name, fn, mut):
    for f in files:
        p = os.path.join(tree, f)
        d = open(p, 'rb').read()
        os.unlink(p)      # a hard link to base: write a new file
        if mut in SPECIAL:
            special(tree, f, p, mut)
        elif fn is None:
            os.mkdir(p)
        else:
            put(p, fn(d, f + name))


# ---- hostile strings (status Name, cmdline, passwd, mountinfo, smaps) ----
EVIL = [b'\x1b[31mred\x1b[0m', b'\x1b]0;pwn\x07', b'q"uo\'te', b'back\\slash\\', b'\xff\xfe\xc3',
        b'\xc2\x9b2J', b'cr\rlf', b'tab\tdel\x7f', b'\xe2\x80\xae', b'\\n\\\\\\e\\x']


def strings(out, b):
    t = os.path.join(out, 'strings')
    clone(b, t)
    st = open(t + '/proc/5078/status', 'rb').read()
    ro = open(t + '/proc/5078/smaps_rollup', 'rb').read()
    for i, e in enumerate(EVIL):
        d = '%s/proc/%d' % (t, 40000 + i)
        os.makedirs(d)
        put(d + '/status', re.sub(rb'^Name:.*$', lambda m: b'Name:\t' + e[:15], st, count=1, flags=re.M)
            .replace(b'Uid:\t0\t0\t0\t0', b'Uid:\t%d\t%d\t%d\t%d' % ((7000 + i % 3,) * 4)))
        put(d + '/cmdline', e + b'\0--arg=' + e + b'\0\0' + (b'z' * 5000 if i == 3 else b'') + b'\0')
        put(d + '/smaps_rollup', ro)
    put(t + '/etc/passwd', open(t + '/etc/passwd', 'rb').read() +
        b'\x1b[31mroot:x:7000:0::/:/bin/sh\n' + b'q"\\\xff:x:7001:0::/:/bin/sh\n' +
        b'n' * 40 + b':x:7002:0::/:/bin/sh\n')
    # smaps-only process whose mapping paths are hostile
    d = t + '/proc/40100'
    os.makedirs(d)
    put(d + '/status', st)
    put(d + '/cmdline', b'smapper\0')
    sm = open(FIX + '/sr-smaps-only/proc/5078/smaps', 'rb').read()
    sm = re.sub(rb'(?m)^([0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+ +)(/\S+)',
                lambda m: m.group(1) + m.group(2) + b' \x1b[2J\\012\xff"q\\', sm)
    put(d + '/smaps', sm)
    # mountinfo: mount points with escaped newline/space/backslash, raw ESC,
    # invalid UTF-8, a dangling backslash and a bad octal escape
    pts = [(b'/mnt/new\\012line', b'mnt/new\nline'), (b'/mnt/sp\\040ace\\134b', b'mnt/sp ace\\b'),
           (b'/mnt/\x1b[2Jesc', b'mnt/\x1b[2Jesc'), (b'/mnt/\xff\xfeutf', b'mnt/\xff\xfeutf'),
           (b'/mnt/q"uote\\', b'mnt/q"uote\\'), (b'/mnt/bad\\9oct', b'mnt/bad\\9oct')]
    mi = open(t + '/proc/self/mountinfo', 'rb').read()
    for i, (esc, raw) in enumerate(pts):
        mi += b'%d 23 0:%d / %s rw - tmpfs src\\012\x1b%d rw,size=1024k\n' % (900 + i, 90 + i, esc, i)
        d = os.path.join(t.encode(), raw)
        os.makedirs(d, exist_ok=True)
        for j, e in enumerate(EVIL):
            n = e.replace(b'/', b'_')
            os.makedirs(d + b'/dir' + n, exist_ok=True)
            put(d + b'/dir' + n + b'/f' + n, b'a' * (j * 100 + 1))
            put(d + b'/nl\nname' + n, b'b' * 7)
    os.unlink(t + '/proc/self/mountinfo')
    put(t + '/proc/self/mountinfo', mi)
    return t


# ---- captures leading out of themselves ----
def escapes(out, b, man):
    # /proc a link to the live /proc: nothing of the analyst's system is read
    t = os.path.join(out, 'escape-proc')
    clone(b, t)
    shutil.rmtree(t + '/proc')
    os.symlink('/proc', t + '/proc')
    man.append(('escape-proc', ALL, '/proc', 'escape'))
    # tmpfs mount points of mountinfo that climb out ("/../../dev/shm") or
    # are links out of the capture: tmpfs-du must not walk the live trees
    t = os.path.join(out, 'escape-mounts')
    clone(b, t)
    mi = open(t + '/proc/self/mountinfo', 'rb').read()
    mi += b'901 23 0:91 / /../../../../../../../../dev/shm rw - tmpfs up rw,size=1024k\n'
    mi += b'902 23 0:92 / /mnt/link rw - tmpfs link rw,size=1024k\n'
    os.makedirs(t + '/mnt')
    os.symlink('/dev/shm', t + '/mnt/link')
    os.unlink(t + '/proc/self/mountinfo')
    put(t + '/proc/self/mountinfo', mi)
    man.append(('escape-mounts', 'tmpfs-du', '-', 'escape-mounts'))


# ---- zoneinfo: a zone header and nothing after it ----
def zone_headers(out, b, man):
    zi = open(b + '/proc/zoneinfo', 'rb').read()
    first = zi.split(b'\n', 1)[0] + b'\n'
    for name, data in (('zone-header-only', first),
                       ('zone-header-nonl', first.rstrip(b'\n')),
                       ('zone-header-free', first + b'  pages free     3\n'),
                       ('zone-two-headers', first + first),
                       ('zone-last-header', zi + b'Node 1, zone   Normal\n')):
        t = os.path.join(out, name)
        clone(b, t)
        os.unlink(t + '/proc/zoneinfo')
        put(t + '/proc/zoneinfo', data)
        man.append((name, 'zoneinfo-wm,lowmem', '/proc/zoneinfo', 'header'))


# ---- /proc with N PID entries ----
def pids(out, n):
    t = os.path.join(out, 'pids')
    copy(FIX + '/sr-x86-6x/proc/meminfo', t + '/proc/meminfo')
    copy(FIX + '/sr-x86-6x/etc/passwd', t + '/etc/passwd')
    st = open(FIX + '/sr-x86-6x/proc/5078/status', 'rb').read()
    ro = open(FIX + '/sr-x86-6x/proc/5078/smaps_rollup', 'rb').read()
    exp = dict(processes=0, approximate=0, inaccessible=0, vanished=0, kernel_threads=0, pss=0)
    pss = int(re.search(rb'^Pss:\s+(\d+)', ro, re.M).group(1)) * 1024
    for i in range(n):
        pid = 100 + i
        d = '%s/proc/%d' % (t, pid)
        os.makedirs(d)
        k = i % 10
        if k == 9:                      # an empty /proc/PID: no status
            exp['vanished'] += 1        # README: status gone (ENOENT) -> vanished
            continue
        s = re.sub(rb'^Pid:.*$', b'Pid:\t%d' % pid, st, count=1, flags=re.M)
        s = re.sub(rb'^PPid:.*$', b'PPid:\t%d' % (pid - 1 if i % 100 else 1), s, count=1, flags=re.M)
        s = re.sub(rb'^Name:.*$', b'Name:\tp%d' % (i % 500), s, count=1, flags=re.M)
        put(d + '/status', s)
        if k != 8:
            put(d + '/cmdline', b'/bin/p%d\0-n\0%d\0' % (i % 500, i))
        if k == 7:                      # no rollup, no smaps: status only
            exp['approximate'] += 1
            exp['processes'] += 1
            exp['pss'] += int(re.search(rb'^VmRSS:\s+(\d+)', s, re.M).group(1)) * 1024
            continue
        put(d + '/smaps_rollup', ro)
        exp['processes'] += 1
        exp['pss'] += pss
    json.dump(exp, open(out + '/pids.json', 'w'))
    return t


def main():
    out = sys.argv[1]
    n = int(sys.argv[sys.argv.index('--pids') + 1]) if '--pids' in sys.argv else 0
    os.makedirs(out, exist_ok=True)
    b = base(out)
    man = [('base', ALL, '-', 'none')]
    for cls, pats, apps, fname in CLASSES:
        files = [f for p in pats for f in expand(b, p)]
        assert files, cls
        for mut, fn in MUTATIONS:
            name = '%s-%s' % (cls, mut)
            t = os.path.join(out, name)
            clone(b, t)
            mutate(t, files, name, fn, mut)
            man.append((name, apps, fname, mut))
    # whole-tree cases
    t = os.path.join(out, 'all-empty')
    clone(b, t)
    for dp, dn, fn in os.walk(t + '/proc'):
        for f in fn:
            os.unlink(os.path.join(dp, f))
            open(os.path.join(dp, f), 'w').close()
    man.append(('all-empty', ALL, '-', 'empty'))
    os.makedirs(out + '/nothing')
    man.append(('nothing', ALL, '/proc', 'nothing'))
    strings(out, b)
    man.append(('strings', ALL, '-', 'strings'))
    escapes(out, b, man)
    zone_headers(out, b, man)
    if n:
        pids(out, n)
        man.append(('pids', 'smaps-rollup', '-', 'pids'))
    with open(out + '/manifest', 'w') as f:
        for m in man:
            f.write(' '.join(m) + '\n')


main()
