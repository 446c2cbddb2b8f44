# SPDX-License-Identifier: GPL-2.0-or-later
"""Record lines of a contest results file, for the scripts that make test data.

A line is KIND v=1 key=value ... crc=XXXXXXXX: bytes outside printable
ASCII, space, % and = escaped as %XX, then CRC-32 of what comes before
" crc=" (src/results/record.h).
"""
import zlib


def esc(v):
    out = ''
    for b in str(v).encode():
        c = chr(b)
        out += c if 32 < b < 127 and c not in '%=' else '%%%02X' % b
    return out


def line(kind, kv):
    s = kind + ' v=1' + ''.join(' %s=%s' % (esc(k), esc(v)) for k, v in kv)
    return s + ' crc=%08x\n' % (zlib.crc32(s.encode()) & 0xffffffff)
