#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the records of tests/t3006-report-load-differences.sh: labels alike
but for how their runs were flushed or the sizes their loads used.

    python3 tests/data/make-measured.py

Labels base, user, big, close, old and twice each run noload, io_load and process_load twice in one session,
with the same Times, flush=drop_caches, io_load load.file_size=1048576
(1.0 MiB), process_load load.procs=8 load.chunks=2 load.chunk_size=8192,
but:
  user    flushed with fadvise (a contest that was not root)
  big     io_load load.file_size=2097152 (2.0 MiB)
  close   io_load load.file_size=1049000: rounds to 1.0 MiB, not listed
  old     runs recorded before contest stored the loads' sizes: none
  twice   a second session whose process_load ran 16 processes
The output is committed; this script documents how it was made.
"""
import os
import sys
sys.dont_write_bytecode = True  # nothing left in tests/data
from records import env_line, line, run_fields  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TIMES = {'noload': 100, 'io_load': 150, 'process_load': 120}


def params(label, typ, session):
    if label == 'old':
        return []
    if typ == 'io_load':
        size = {'big': 2097152, 'close': 1049000}.get(label, 1048576)
        return [('load.file_size', size)]
    if typ == 'process_load':
        procs = 16 if label == 'twice' and session == 's2' else 8
        return [('load.procs', procs), ('load.chunks', 2), ('load.chunk_size', 8192)]
    return []


def run(label, session, typ, rnd):
    ns = round((TIMES[typ] + rnd) * 1e9)
    flush = 'fadvise' if label == 'user' else 'drop_caches'
    kv = run_fields(label, session, typ, rnd, 'builtin scale=40 jobs=8', flush, ns,
                    ns * 6 // 10, 0 if typ == 'noload' else 10,
                    0 if typ == 'noload' else ns * 4 // 10)
    return line('run', kv + params(label, typ, session))


def main():
    out = os.path.join(HERE, 'measured')
    os.makedirs(out, exist_ok=True)
    for label in ('base', 'user', 'big', 'close', 'old', 'twice'):
        sessions = ['s1', 's2'] if label == 'twice' else ['s1']
        lines = [env_line(label, s) for s in sessions]
        for s in sessions:
            for rnd in (1, 2):
                lines += [run(label, s, typ, rnd) for typ in TIMES]
        with open(os.path.join(out, label + '.results'), 'w') as f:
            f.write('# contest results, format 1: one record a line\n')
            f.writelines(lines)


if __name__ == '__main__':
    main()
