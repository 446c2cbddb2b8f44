#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the golden records of tests/t3001-report-golden.sh.

Reads Con Kolivas' contest tables as posted to LKML in November 2002
(shared/reference/lkml-2002-contest-tables.txt) and writes, per kernel, the
runs behind every row, twice:

  lkml-2002/       [runs] identical records with that row's Time, CPU%, Loads
                   and LCPU%: the figures typed in as means, with no spread
                   (t3001's no-spread check; t3002, t3004, t5001, t5006 and
                   t5009 read them too)
  lkml-2002-runs/  [runs] different records whose means are the row's
                   figures, so the golden table exercises the averaging: run i
                   of n is the figure plus SPREAD[n][i] steps, the steps zero-
                   sum and not symmetric, so that a median or a first run is
                   not the mean (Time: 1% of the row's Time; CPU%: 0.5; Loads:
                   10% of the row's; LCPU%: 0.5, or a quarter of it below 2)

That table's Ratio divides by one reference noload time of about 71.4 s,
stored as the label ref-2.4.18 (one run).  Also writes the expected report
(the table lines), the fallback t3001 compares with when the posted copy is
not beside the source tree, and prints the noise line each kernel gets from
lkml-2002-runs (the CV of its noload Times, by Python's statistics module).
The output is committed; this script documents how.

    python3 tests/data/make-lkml-2002.py ../shared/reference/lkml-2002-contest-tables.txt
"""
import os
import re
import statistics
import sys
sys.dont_write_bytecode = True  # nothing left in tests/data
from records import line, run_fields  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SPREAD = {1: [0], 2: [-1, 1], 3: [-1.5, 0.5, 1], 5: [-2, -1.5, 0.5, 1, 2]}


def run(label, sec, rnd, t, cpu, loads, lcpu, ns=None):
    ns = round(t * 1e9) if ns is None else ns
    return line('run', run_fields(label, 'lkml-2002', sec, rnd,
                                  'kernel 2.4.19 (as posted to LKML, 2002-11)', 'unknown',
                                  ns, round(ns * cpu / 100), loads, round(ns * lcpu / 100)))


def spread_runs(label, sec, n, t, cpu, loads, lcpu):
    """n different runs whose means are t, cpu, loads and lcpu, and their Times."""
    steps = SPREAD[n]
    assert sum(steps) == 0
    t_ns = round(t * 1e9)
    t_step = 2 * round(t * 1e9 * 0.01 / 2)  # even: half steps stay whole ns
    l_step = loads / 10
    lc_step = 0.5 if lcpu >= 2 else lcpu / 4
    out, times = [], []
    for r, k in enumerate(steps, 1):
        ns = t_ns + round(k * t_step)
        out.append(run(label, sec, r, ns / 1e9, cpu + k * 0.5, loads + k * l_step,
                       lcpu + k * lc_step, ns))
        times.append(ns / 1e9)
    return out, times


def write(path, label, runs):
    with open(path, 'w') as f:
        f.write('# contest results, format 1: one record a line\n')
        f.write(line('env', [('label', label), ('session', 'lkml-2002'),
                             ('contest', '0.5x (Con Kolivas)' if label != 'ref-2.4.18'
                              else '0.5x'), ('kernel', label.replace('ref-', ''))]))
        f.writelines(runs)


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
    for sub, spread in (('lkml-2002', False), ('lkml-2002-runs', True)):
        out = os.path.join(HERE, sub)
        os.makedirs(out, exist_ok=True)
        for label, rs in rows.items():
            runs = []
            for sec, n, t, cpu, loads, lcpu, _ratio in rs:
                if spread:
                    more, times = spread_runs(label, sec, int(n), float(t), int(cpu),
                                              int(loads), int(lcpu))
                    runs += more
                    if sec == 'noload':
                        print('%-20s noise: %.1f%% over %d runs' % (label, 100 *
                              statistics.stdev(times) / statistics.mean(times), len(times)))
                else:
                    runs += [run(label, sec, r, float(t), int(cpu), int(loads), int(lcpu))
                             for r in range(1, int(n) + 1)]
            write(os.path.join(out, label + '.results'), label, runs)
        write(os.path.join(out, 'ref-2.4.18.results'), 'ref-2.4.18',
              [run('ref-2.4.18', 'noload', 1, 71.4, 93, 0, 0)])
    with open(os.path.join(HERE, 'lkml-2002.expected'), 'w') as f:
        f.write('\n'.join(expected) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
