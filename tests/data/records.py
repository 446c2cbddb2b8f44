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


def env_line(label, session, **extra):
    """An env record of a made-up machine: contest 0.1.0, kernel 6.1-LABEL,
    8 jobs, then the fields of extra."""
    return line('env', [('label', label), ('session', session), ('contest', '0.1.0'),
                        ('kernel', '6.1-' + label), ('jobs', 8)] + list(extra.items()))


def run_fields(label, session, typ, rnd, workload, flush, ns, user_ns, loads,
               load_user_ns):
    """The fields every run record begins with, for a valid run: the build's
    Time ns and user time (no system time), the load's work and user time."""
    return [('label', label), ('session', session), ('type', typ), ('round', rnd),
            ('workload', workload), ('flush', flush), ('valid', 1),
            ('elapsed_ns', ns), ('user_ns', user_ns), ('sys_ns', 0),
            ('load_work', '%.6f' % loads), ('load_user_ns', load_user_ns),
            ('load_sys_ns', 0)]
