#!/usr/bin/env python3
"""Build the golden records of tests/t3001-report-golden.sh.

Reads Con Kolivas' contest tables as posted to LKML in November 2002
(shared/reference/lkml-2002-contest-tables.txt) and writes, per kernel, the
runs behind every row: [runs] identical records with that row's Time, CPU%,
Loads and LCPU%.  That table's Ratio divides by one reference noload time
of about 71.4 s, stored as the label ref-2.4.18.  Also writes the expected
report (the table lines).  The output is committed; this script documents how.

    python3 tests/data/make-lkml-2002.py ../shared/reference/lkml-2002-contest-tables.txt
"""
import os
import re
import sys
sys.dont_write_bytecode = True  # nothing left in tests/data
from records import line  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(label, sec, rnd, t, cpu, loads, lcpu):
    ns = round(t * 1e9)
    return line('run', [
        ('label', label), ('session', 'lkml-2002'), ('type', sec), ('round', rnd),
        ('workload', 'kernel 2.4.19 (as posted to LKML, 2002-11)'), ('flush', 'unknown'),
        ('valid', 1), ('elapsed_ns', ns), ('user_ns', round(ns * cpu / 100)),
        ('sys_ns', 0), ('load_work', '%.6f' % loads),
        ('load_user_ns', round(ns * lcpu / 100)), ('load_sys_ns', 0)])


def main(ref):
    expected, rows, sec = [], {}, None
    for text in open(ref).read().splitlines():
        if re.match(r'^[a-z_]+:$', text):
            sec = text[:-1]
            expected.append(text)
        elif text.startswith('Kernel [runs]'):
            expected.append(text)
        else:
            m = re.match(r'^(\S+) \[(\d+)\] ([\d.]+) (\d+) (\d+) (\d+) ([\d.]+)$', text)
            if m:
                expected.append(text)
                rows.setdefault(m.group(1), []).append((sec,) + m.groups()[1:])
    head = '# contest results, format 1: one record a line\n'
    out = os.path.join(HERE, 'lkml-2002')
    os.makedirs(out, exist_ok=True)
    for label, rs in rows.items():
        with open(os.path.join(out, label + '.results'), 'w') as f:
            f.write(head)
            f.write(line('env', [('label', label), ('session', 'lkml-2002'),
                                 ('contest', '0.5x (Con Kolivas)'), ('kernel', label)]))
            for sec, n, t, cpu, loads, lcpu, _ratio in rs:
                for r in range(1, int(n) + 1):
                    f.write(run(label, sec, r, float(t), int(cpu), int(loads), int(lcpu)))
    with open(os.path.join(out, 'ref-2.4.18.results'), 'w') as f:
        f.write(head)
        f.write(line('env', [('label', 'ref-2.4.18'), ('session', 'lkml-2002'),
                             ('contest', '0.5x'), ('kernel', '2.4.18')]))
        f.write(run('ref-2.4.18', 'noload', 1, 71.4, 93, 0, 0))
    with open(os.path.join(HERE, 'lkml-2002.expected'), 'w') as f:
        f.write('\n'.join(expected) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
