#!/usr/bin/env python3
"""initramfs.py OUT DIR: DIR's tree as an initramfs, a cpio archive in the
"newc" format the kernel unpacks (Documentation/driver-api/early-userspace/
buffer-format.rst), uncompressed.  Every entry is owned by root; a
/dev/console character device (5, 1) is added, so that the kernel can
give /init its console before devtmpfs is mounted.  Written here rather
than by cpio(1): no host tool, no root needed for the device node."""
import os
import stat
import sys


def entry(out, name, mode, data=b'', rdev=(0, 0), ino=[0]):
    ino[0] += 1
    name = name.encode() + b'\0'
    hdr = b'070701' + b''.join(b'%08X' % v for v in (
        ino[0], mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name), 0))
    out.write(hdr + name)
    out.write(b'\0' * (-(len(hdr) + len(name)) % 4))
    out.write(data)
    out.write(b'\0' * (-len(data) % 4))


def main(out_path, top):
    with open(out_path, 'wb') as out:
        entry(out, 'dev', stat.S_IFDIR | 0o755)
        entry(out, 'dev/console', stat.S_IFCHR | 0o600, rdev=(5, 1))
        for d, dirs, files in os.walk(top):
            dirs.sort()
            rel = os.path.relpath(d, top)
            for n in sorted(dirs) + sorted(files):
                p = os.path.join(d, n)
                name = os.path.normpath(os.path.join(rel, n))
                st = os.lstat(p)
                if stat.S_ISLNK(st.st_mode):
                    entry(out, name, stat.S_IFLNK | 0o777, os.readlink(p).encode())
                elif stat.S_ISDIR(st.st_mode):
                    entry(out, name, stat.S_IFDIR | (st.st_mode & 0o7777))
                else:
                    with open(p, 'rb') as f:
                        entry(out, name, stat.S_IFREG | (st.st_mode & 0o7777), f.read())
        entry(out, 'TRAILER!!!', 0)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
