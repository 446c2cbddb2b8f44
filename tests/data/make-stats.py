#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the records of tests/t3003-report-stats.sh: runs with known times.

    python3 tests/data/make-stats.py

Labels (every Time in seconds; CPU% 90 alone and 60 under a load, LCPU% 40):
  base  noload 97.2 103.1 99.8 101.0 98.4 (sd 2.2913, CV 2.29%)
        process_load 110 + drug 1 of Student's sleep data, Loads 100..104
        io_load 150..154, Loads 10..14
  new   noload 98.0 100.5 99.0 101.5 100.0 (sd 1.3509, CV 1.35%)
        process_load 110 + drug 2 of the sleep data, Loads 50..54: against
        base, Welch's t = -1.8608, df 17.776, p = 0.07939 (R's t.test of
        the sleep data, a shift changes nothing), and Loads far lower
        io_load 200..204, Loads 10..14: slower, Loads alike
  one   one run of each type and no system figures (as records written
        before contest recorded them)
  mix   noload and process_load three times in contest's session, and three
        times with load_session=1 (process_load twice as slow): two rows
base and new carry idle, iowait, majflt, pswpin and pswpout.
The output is committed; this script documents how it was made.
"""
import os
import sys
sys.dont_write_bytecode = True  # nothing left in tests/data
from records import env_line, line, run_fields  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def run(label, typ, rnd, t, loads, session='s1', sysfig=True, load_session=False):
    ns = round(t * 1e9)
    cpu = 90 if typ == 'noload' else 60
    lcpu = 0 if typ == 'noload' else 40
    kv = run_fields(label, session, typ, rnd, 'builtin scale=40 jobs=8', 'fadvise', ns,
                    ns * cpu // 100, loads, ns * lcpu // 100)
    if load_session:
        kv.append(('load_session', 1))
    if sysfig:
        kv += [('idle', '%.1f' % (5 + rnd)), ('iowait', '%.1f' % (rnd / 2)),
               ('majflt', 10 * rnd), ('pswpin', 0), ('pswpout', rnd)]
    return line('run', kv)


def main():
    out = os.path.join(HERE, 'stats')
    os.makedirs(out, exist_ok=True)
    files = {
        'base': [env_line('base', 's1', cpu_model='Fake CPU, "quoted"')],
        'new': [env_line('new', 's1', cpu_model='Fake CPU, "quoted"', cmdline='ro\x01quiet')],
        'one': [env_line('one', 's1')],
        'mix': [env_line('mix', 's1'), env_line('mix', 's2')],
    }
    noload = {'base': [97.2, 103.1, 99.8, 101.0, 98.4],
              'new': [98.0, 100.5, 99.0, 101.5, 100.0]}
    for i in range(10):
        r = i + 1
        for label, sleep, loads, io in (('base', SLEEP1, 100, 150), ('new', SLEEP2, 50, 200)):
            if i < 5:
                files[label].append(run(label, 'noload', r, noload[label][i], 0))
            files[label].append(run(label, 'process_load', r, 110 + sleep[i], loads + i % 5))
            if i < 5:
                files[label].append(run(label, 'io_load', r, io + i, 10 + i))
    files['one'] += [run('one', 'noload', 1, 100, 0, sysfig=False),
                     run('one', 'process_load', 1, 120, 80, sysfig=False),
                     run('one', 'io_load', 1, 160, 12, sysfig=False)]
    for i in range(3):
        r = i + 1
        files['mix'] += [run('mix', 'noload', r, 99 + i, 0),
                         run('mix', 'process_load', r, 110 + i, 100),
                         run('mix', 'noload', r, 100 + i, 0, 's2', load_session=True),
                         run('mix', 'process_load', r, 220 + i, 40, 's2', load_session=True)]
    for label, lines in files.items():
        with open(os.path.join(out, label + '.results'), 'w') as f:
            f.write('# contest results, format 1: one record a line\n')
            f.writelines(lines)


if __name__ == '__main__':
    main()
