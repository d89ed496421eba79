#!/usr/bin/env python3
"""mem-ledger's figures against its sources, read here directly.

    tests/mem_ledger_check.py ROOT JSON PROM [ROOT JSON PROM ...]

ROOT is the tree mem-ledger read (-R ROOT, or / for the live system),
JSON its -o json report, PROM its -o prom report of the same tree ("-":
none).  Checks, exit 1 with a line for each failure (one python for
every tree: its start costs more than the checks):
  - the leaves (parts without parts), unexplained included, add up to
    mem_total to the byte, and every split part is the sum of its parts;
  - the leaves are exactly those the rules of mem-ledger.1 give for the
    files under ROOT, each with the value computed here from its source
    (null where the kernel lacks the counter), and unexplained is
    MemTotal less every other leaf;
  - dmabuf without /sys/kernel/dmabuf/buffers is every distinct buffer
    the processes' descriptors and mappings hold, and unread the
    processes whose fd directory or maps could not be read;
  - PROM has one sample per known leaf with the json's value, and a
    total that is mem_total.
For the live system the meminfo counters move between two reads: pass
MEMINFO=FILE in the environment, a copy taken while the report was made,
and give only a report whose MemTotal line matched (the caller brackets).
"""
import json
import os
import re
import sys


def meminfo(path):
    mi = {}
    for line in open(path):
        m = re.match(r'([^:\s]+):\s+(\d+)(\s+kB)?\s*$', line)
        if m:
            mi[m.group(1)] = int(m.group(2)) * (1024 if m.group(3) else 1)
    size = mi.get('Hugepagesize', 0)
    for k in ('HugePages_Total', 'HugePages_Free', 'HugePages_Rsvd', 'HugePages_Surp'):
        if k in mi:
            mi[k] *= size
    return mi


def sysv_rss(root):
    """Σ rss of /proc/sysvipc/shm, or None (no file, no rss column)"""
    try:
        lines = open(os.path.join(root, 'proc/sysvipc/shm')).read().splitlines()
    except OSError:
        return None
    head = lines[0].split()
    if 'rss' not in head:
        return None
    i = head.index('rss')
    return sum(int(l.split()[i]) for l in lines[1:] if l.strip())


def zram(root):
    try:
        lines = open(os.path.join(root, 'proc/swaps')).read().splitlines()[1:]
    except OSError:
        return None
    total = 0
    for l in lines:
        m = re.search(r'zram(\d+)$', l.split()[0])
        if not m:
            continue
        try:
            total += int(open(os.path.join(root, 'sys/block/zram%s/mm_stat' % m.group(1))).read().split()[2])
        except OSError:
            return None
    return total


def dmabuf(root):
    d = os.path.join(root, 'sys/kernel/dmabuf/buffers')
    if not os.path.isdir(d):
        return dmabuf_procs(root)[0]
    return sum(int(open(os.path.join(d, b, 'size')).read()) for b in os.listdir(d))


def dmabuf_procs(root):
    """Without the sysfs directory: each buffer (by inode) that a
    process's DMA-BUF descriptor (its fdinfo's size) or mapping (its
    length) holds, the largest size seen, once.  (bytes, processes not
    read); bytes None when no process's fd directory was read."""
    sizes, read, unread = {}, 0, 0
    proc = os.path.join(root, 'proc')
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        fdd = os.path.join(proc, pid, 'fd')
        try:
            fds = os.listdir(fdd)
        except FileNotFoundError:
            continue
        except OSError:
            unread += 1
            continue
        read += 1
        for fd in fds:
            try:
                link = os.readlink(os.path.join(fdd, fd))
                if not (link.startswith('/dmabuf:') or link == 'anon_inode:dmabuf'):
                    continue
                info = dict(re.findall(r'^(\w+):\s*(\S+)', open(os.path.join(proc, pid, 'fdinfo', fd)).read(), re.M))
            except OSError:
                continue
            if 'ino' in info:
                ino = int(info['ino'])
            elif root == '/':
                ino = os.stat(os.path.join(fdd, fd)).st_ino   # the buffer's own inode
            else:
                ino = (pid, fd)   # a recorded tree without it: a buffer of its own
            sizes[ino] = max(sizes.get(ino, 0), int(info['size']))
        try:
            maps = open(os.path.join(proc, pid, 'maps')).read().splitlines()
        except FileNotFoundError:
            continue
        except OSError:
            unread += 1
            continue
        for line in maps:
            f = line.split(None, 5)
            if len(f) == 6 and (f[5].startswith('/dmabuf') or f[5] == 'anon_inode:dmabuf'):
                lo, hi = (int(x, 16) for x in f[0].split('-'))
                sizes[int(f[4])] = max(sizes.get(int(f[4]), 0), hi - lo)
    return (sum(sizes.values()) if read else None), unread


def unoctal(s):
    return re.sub(r'\\([0-3][0-7][0-7])', lambda m: chr(int(m.group(1), 8)), s)


def tmpfs(root, mi):
    """{mount point: statfs used or None} of every tmpfs superblock, named
    by its first mount point; None when mem-ledger does not split tmpfs
    out (a tree under a root: no statfs; a swap slot in use)"""
    if root != '/' or mi.get('SwapFree') != mi.get('SwapTotal') or 'SwapTotal' not in mi:
        return None
    sbs, names = {}, []
    for line in open('/proc/self/mountinfo'):
        f = line.split()
        sep = f.index('-')
        if f[sep + 1] != 'tmpfs':
            continue
        dev, point = f[2], unoctal(f[4])
        if dev not in sbs:
            sbs[dev] = [point, None]
            names.append(dev)
        if sbs[dev][1] is not None:
            continue
        major, minor = map(int, dev.split(':'))
        try:
            if os.stat(point).st_dev != os.makedev(major, minor):
                continue
            v = os.statvfs(point)
        except OSError:
            continue
        if v.f_blocks:
            sbs[dev][1] = (v.f_blocks - v.f_bfree) * v.f_frsize
    return {sbs[d][0] + '@' + d: sbs[d][1] for d in names}


def expected(root, mi):
    def k(key):
        return mi.get(key)

    def diff(a, b):
        return mi[a] - mi[b] if a in mi and b in mi else None

    e = {'free': k('MemFree'), 'user.anon': k('AnonPages')}
    if 'Shmem' in mi and 'Cached' in mi and mi['Shmem'] <= mi['Cached']:
        e['user.cached.file'] = mi['Cached'] - mi['Shmem']
        rss = sysv_rss(root)
        fs = tmpfs(root, mi)
        parts = (rss or 0) + sum(v for v in (fs or {}).values() if v is not None)
        if (rss is None and fs is None) or parts > mi['Shmem']:
            e['user.cached.shmem'] = mi['Shmem']
        else:
            if fs is not None and not fs:
                e['user.cached.shmem.tmpfs'] = 0
            for point, v in (fs or {}).items():
                e['user.cached.shmem.tmpfs.' + point] = v
            if rss is not None:
                e['user.cached.shmem.sysv'] = rss
            e['user.cached.shmem.other'] = mi['Shmem'] - parts
    else:
        e['user.cached'] = k('Cached')
    e['user.buffers'] = k('Buffers')
    e['user.swap_cache'] = k('SwapCached')
    if 'SReclaimable' in mi and 'SUnreclaim' in mi:
        e['kernel.slab.reclaimable'] = mi['SReclaimable']
        e['kernel.slab.unreclaimable'] = mi['SUnreclaim']
    else:
        e['kernel.slab'] = k('Slab')
    e['kernel.misc_reclaimable'] = diff('KReclaimable', 'SReclaimable')
    e['kernel.kernel_stack'] = k('KernelStack')
    e['kernel.page_tables'] = k('PageTables')
    e['kernel.secondary_page_tables'] = k('SecPageTables')
    e['kernel.percpu'] = k('Percpu')
    e['kernel.hugetlb'] = k('Hugetlb') if 'Hugetlb' in mi else k('HugePages_Total')
    e['kernel.zswap'] = k('Zswap')
    e['kernel.bounce'] = k('Bounce')
    e['kernel.writeback_tmp'] = k('WritebackTmp')
    e['zram'] = zram(root)
    e['dmabuf'] = dmabuf(root)
    e['unexplained'] = mi['MemTotal'] - sum(v for v in e.values() if v is not None)
    return e


def check(root, jf, pf):
    mi = meminfo(os.environ.get('MEMINFO') or os.path.join(root, 'proc/meminfo'))
    bad = []
    try:
        doc = json.load(open(jf))
    except ValueError as e:
        return ['%s: not json: %s' % (jf, e)]
    leaves = {}

    def walk(parts, prefix):
        total = 0
        for p in parts:
            path = prefix + p['name']
            if 'parts' in p:
                s = walk(p['parts'], path + '.')
                if p['bytes'] != s and not (p['bytes'] is None and s == 0):
                    bad.append('%s: %r, its parts sum to %r' % (path, p['bytes'], s))
            else:
                # a tmpfs superblock: its mount point and its device
                if p['source'].startswith('statfs used, device '):
                    path += '@' + p['source'].rsplit(' ', 1)[1]
                if path in leaves:
                    bad.append('%s: twice' % path)
                leaves[path] = p['bytes']
                if p['bytes'] is None and not p.get('absent'):
                    bad.append('%s: null without a reason (absent)' % path)
            total += p['bytes'] or 0
        return total

    s = walk(doc['parts'], '')
    if s != doc['mem_total']:
        bad.append('the leaves sum to %d, mem_total is %d' % (s, doc['mem_total']))
    if doc['mem_total'] != mi['MemTotal']:
        bad.append('mem_total %d, MemTotal %d' % (doc['mem_total'], mi['MemTotal']))
    exp = expected(root, mi)
    # dmabuf from the processes: how many could not be read, on a
    # recorded tree (live, processes come and go between two reads)
    for p in doc['parts']:
        if p['name'] == 'dmabuf' and root != '/':
            want = None if os.path.isdir(os.path.join(root, 'sys/kernel/dmabuf/buffers')) or \
                p['bytes'] is None else dmabuf_procs(root)[1]
            if p.get('unread') != want:
                bad.append('dmabuf: unread %r, the processes say %r' % (p.get('unread'), want))
    for path in sorted(set(exp) | set(leaves)):
        if path not in leaves:
            bad.append('%s: no such leaf (expected %r)' % (path, exp[path]))
        elif path not in exp:
            bad.append('%s: a leaf not expected (%r)' % (path, leaves[path]))
        elif exp[path] != leaves[path]:
            bad.append('%s: %r, its source says %r' % (path, leaves[path], exp[path]))
    if pf != '-':
        samples, total = {}, None
        for line in open(pf):
            m = re.match(r'membox_mem_ledger_part_bytes\{part="([^"]*)",source="([^"]*)"\} (-?\d+)$', line)
            if m:
                dev = re.match(r'statfs used, device (\S+)$', m.group(2))
                samples[m.group(1) + ('@' + dev.group(1) if dev else '')] = int(m.group(3))
            m = re.match(r'membox_mem_ledger_total_bytes (\d+)$', line)
            if m:
                total = int(m.group(1))
        known = {p: v for p, v in leaves.items() if v is not None}
        if samples != known:
            bad.append('prom samples %r, json leaves %r' % (samples, known))
        if total != doc['mem_total']:
            bad.append('prom total %r, json mem_total %r' % (total, doc['mem_total']))
        if sum(samples.values()) != total:
            bad.append('prom samples sum to %d, total %r' % (sum(samples.values()), total))
    return bad


def main():
    a = sys.argv[1:]
    bad = []
    for i in range(0, len(a) - 2, 3):
        bad += ['%s: %s' % (a[i], b) for b in check(a[i], a[i + 1], a[i + 2])]
    for b in bad:
        print(b)
    return 1 if bad or not a or len(a) % 3 else 0


sys.exit(main())
