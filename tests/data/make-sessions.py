#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the records of tests/t3005-report-sessions.sh: labels measured in
several sessions, whose noload Times differ from session to session, and
the Ratios and intervals `contest report` must give them.

    python3 tests/data/make-sessions.py          # writes tests/data/sessions
    python3 tests/data/make-sessions.py --check  # prints the expected figures

Labels (Times in seconds):
  two     s1: noload 100 x4, io_load 120 122 124
          s2: noload 120 x2, io_load 144 146 148
          Ratio over each run's own session's noload: 134 / N*, N* = (3 x 100
          + 3 x 120) / 6 = 110, so 1.2182 (each session alone: 1.22, 1.2167);
          pooled over the sessions, 134 / 106.67 = 1.2563.  The noloads do
          not vary within a session, so the interval is 1.2182 +- t(0.975, 4)
          sqrt(4 / 6) / 110 (s_L^2 = 16 / 4 within the sessions): 1.1976 to
          1.2388.
  later   s1: noload 100 101 99;  s2: noload 120 121 119, io_load 143 144 145
          (the load run in the second session only): 144 / 120 = 1.20;
          pooled, 144 / 110 = 1.31.
  gap     s1: noload 100 101 99, io_load 130 131 129
          s2: io_load 150 151 149, and no noload: those runs are left out of
          the Ratio, 130 / 100 = 1.30; pooled, 140 / 100 = 1.40.
  noisy   s1: noload 99 100 101, process_load 130 131 135
          s2: noload 118 120 122 121, process_load 150 156 153 152
          Both sides vary: Fieller's interval with the variances pooled
          within the sessions, the t quantile from integrating Student's
          density below (--check prints it).
The output is committed; this script documents how it was made.
"""
import math
import os
import sys
sys.dont_write_bytecode = True  # nothing left in tests/data
from records import env_line, line, run_fields  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

LABELS = {
    'two': {'s1': {'noload': [100] * 4, 'io_load': [120, 122, 124]},
            's2': {'noload': [120] * 2, 'io_load': [144, 146, 148]}},
    'later': {'s1': {'noload': [100, 101, 99]},
              's2': {'noload': [120, 121, 119], 'io_load': [143, 144, 145]}},
    'gap': {'s1': {'noload': [100, 101, 99], 'io_load': [130, 131, 129]},
            's2': {'io_load': [150, 151, 149]}},
    'noisy': {'s1': {'noload': [99, 100, 101], 'process_load': [130, 131, 135]},
              's2': {'noload': [118, 120, 122, 121], 'process_load': [150, 156, 153, 152]}},
}


def run(label, session, typ, rnd, t):
    ns = round(t * 1e9)
    cpu = 90 if typ == 'noload' else 60
    lcpu = 0 if typ == 'noload' else 40
    return line('run', run_fields(label, session, typ, rnd, 'builtin scale=40 jobs=8',
                                  'drop_caches', ns, ns * cpu // 100,
                                  0 if typ == 'noload' else 10, ns * lcpu // 100))


# ---- the oracle: Student's t by integrating its density ------------------------

def t_cdf(x, df, steps=20000):
    """P(T <= x) for x >= 0, Simpson's rule over the density from 0 to x."""
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    f = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)  # noqa: E731
    h = x / steps
    s = f(0) + f(x) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
    return 0.5 + s * h / 3


def t_quantile(p, df):
    lo, hi = 0.0, 100.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def mean(v):
    return sum(v) / len(v)


def ss(v):
    m = mean(v)
    return sum((x - m) ** 2 for x in v)


def session_ratio(sessions, typ):
    """The Ratio over each run's own session's noload and its 95% interval
    (src/report/sessions.c, report_session_ratio)."""
    paired = [s for s in sessions.values() if typ in s and 'noload' in s]
    loaded = [x for s in paired for x in s[typ]]
    n, k = len(loaded), len(paired)
    nstar = sum(len(s[typ]) * mean(s['noload']) for s in paired) / n
    m = sum(len(s['noload']) for s in paired)
    va = sum(ss(s[typ]) for s in paired) / (n - k) / n
    q = sum(len(s[typ]) ** 2 / len(s['noload']) for s in paired)
    vb = sum(ss(s['noload']) for s in paired) / (m - k) * q / n / n
    r = mean(loaded) / nstar
    # Welch-Satterthwaite of va + r^2 vb, then Fieller
    df = (va + r * r * vb) ** 2 / (va * va / (n - k) + (r * r * vb) ** 2 / (m - k))
    t = t_quantile(0.975, df)
    g = t * t * vb / nstar ** 2
    half = t / nstar * math.sqrt(va * (1 - g) + r * r * vb)
    return r, (r - half) / (1 - g), (r + half) / (1 - g), df


def main():
    if '--check' in sys.argv:
        for label, typ in (('two', 'io_load'), ('noisy', 'process_load')):
            r, lo, hi, df = session_ratio(LABELS[label], typ)
            print('%s %s: ratio %.6f, 95%% interval %.6f .. %.6f (df %.4f)'
                  % (label, typ, r, lo, hi, df))
        return
    out = os.path.join(HERE, 'sessions')
    os.makedirs(out, exist_ok=True)
    for label, sessions in LABELS.items():
        lines = [env_line(label, s) for s in sessions]
        for session, types in sessions.items():
            rounds = max(len(v) for v in types.values())
            for i in range(rounds):
                for typ, times in types.items():
                    if i < len(times):
                        lines.append(run(label, session, typ, i + 1, times[i]))
        with open(os.path.join(out, label + '.results'), 'w') as f:
            f.write('# contest results, format 1: one record a line\n')
            f.writelines(lines)


if __name__ == '__main__':
    main()
