#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The reference values quoted in tests/unit-stats.c and tests/t3003-report-stats.sh.

    python3 tests/data/stats-reference.py

From first principles, with Python's standard library only (math.lgamma,
statistics): the t density integrated by Simpson's rule gives the t
distribution, Newton's method (bisection where it would stray) its quantiles; Welch's test, Holm's adjustment and
Fieller's interval are written out from their definitions (Welch 1947;
Holm 1979; Fieller 1954), not from contest's src/results/stats.c.  Every figure is
printed with what it is and where it is quoted.

When SciPy is importable (Debian: apt-get install python3-scipy, then run it
with /usr/bin/python3; not needed, and not run by make check), every t
probability, and the probability at every quantile, is also computed by
scipy.stats.t.cdf and the largest difference printed (SciPy 1.10.1: 1.4e-14).

The other values those tests quote come from outside: the NIST/SEMATECH t
table, R's t.test of the sleep data (t = -1.8608, df = 17.776,
p-value = 0.07939), NIST StRD NumAcc4, and Wikipedia's Holm example; this
script recomputes them too, as a check of the method.
"""
import math
import statistics

SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

try:
    from scipy import stats as scipy_stats
except ImportError:
    scipy_stats = None
scipy_diff = (0.0, '')


# ---- Student's t, from its density -------------------------------------------------

def t_density(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def simpson(f, a, b, n=20000):
    n += n % 2
    h = (b - a) / n
    s = f(a) + f(b)
    s += 4 * sum(f(a + i * h) for i in range(1, n, 2))
    s += 2 * sum(f(a + i * h) for i in range(2, n, 2))
    return s * h / 3


def t_cdf(x, df):
    """P(T <= x): one half plus the density integrated from 0 to x."""
    half = simpson(lambda u: t_density(u, df), 0, abs(x))
    p = 0.5 + half if x >= 0 else 0.5 - half
    check(p, lambda: scipy_stats.t.cdf(x, df), 't_cdf(%r, %r)' % (x, df))
    return p


def t_quantile(p, df):
    """The x with t_cdf(x) = p: Newton's steps (the density is the slope),
    bisection where a step would leave the bracket."""
    def cdf(x):
        half = simpson(lambda u: t_density(u, df), 0, abs(x))
        return 0.5 + half if x >= 0 else 0.5 - half
    lo, hi = -1.0, 1.0
    while cdf(lo) > p:
        lo *= 2
    while cdf(hi) < p:
        hi *= 2
    x = 0.0
    for _ in range(100):
        e = cdf(x) - p
        if e == 0:
            break
        if e < 0:
            lo = x
        else:
            hi = x
        step = x - e / t_density(x, df)
        nx = step if lo < step < hi else (lo + hi) / 2
        if abs(nx - x) < 1e-15 * max(1.0, abs(x)):
            x = nx
            break
        x = nx
    # SciPy's own t.ppf is the less exact (its cdf at its ppf(0.95, 30) is
    # 0.95 + 7e-10): compare SciPy's cdf at our quantile with p instead
    check(p, lambda: scipy_stats.t.cdf(x, df), 't_quantile(%r, %r)' % (p, df))
    return x


def check(ours, theirs, what):
    """The largest relative difference from SciPy, and where."""
    global scipy_diff
    if scipy_stats is not None:
        ref = float(theirs())
        scipy_diff = max(scipy_diff, (abs(ours - ref) / max(1.0, abs(ref)), what))


# ---- the tests and the interval ------------------------------------------------------

def mean_var(v):
    """The variance of the mean: s^2 / n."""
    return statistics.variance(v) / len(v)


def welch(a, b):
    """Welch's t, the Welch-Satterthwaite df, and the two-sided p."""
    va, vb = mean_var(a), mean_var(b)
    t = (statistics.mean(a) - statistics.mean(b)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    p = 2 * (1 - t_cdf(abs(t), df))
    return t, df, p


def holm(ps):
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for k, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - k) * ps[i]))
        adj[i] = run
    return adj


def fieller(a, b, level=0.95):
    """R = mean a / mean b and the rho with (ma - rho mb)^2 <= t^2 (va + rho^2 vb):
    the roots of (mb^2 - t^2 vb) rho^2 - 2 ma mb rho + (ma^2 - t^2 va) = 0, t at
    the Welch-Satterthwaite df of mean a - R mean b."""
    ma, mb = statistics.mean(a), statistics.mean(b)
    va, vb = mean_var(a), mean_var(b)
    r = ma / mb
    wa, wb = va, r * r * vb
    df = (wa + wb) ** 2 / ((wa ** 2 / (len(a) - 1) if wa else 0) +
                           (wb ** 2 / (len(b) - 1) if wb else 0))
    t = t_quantile(1 - (1 - level) / 2, df)
    qa, qb, qc = mb * mb - t * t * vb, -2 * ma * mb, ma * ma - t * t * va
    d = math.sqrt(qb * qb - 4 * qa * qc)
    return r, df, t, (-qb - d) / (2 * qa), (-qb + d) / (2 * qa)


def show(what, value, where):
    print('%-58s %-22s %s' % (what, repr(value) if isinstance(value, float) else value, where))


# ---- the values ------------------------------------------------------------------------

def unit_stats():
    print('== tests/unit-stats.c')
    show('sample sd of 2 4 4 4 5 5 7 9 = sqrt(32/7)', math.sqrt(32 / 7), 'test_summary')
    big = [1000000000.2] + [1000000000.1 if i % 2 else 1000000000.3 for i in range(1, 1001)]
    show('NumAcc4 sd (certified 0.1)', statistics.stdev(big), 'test_summary')
    times = [97.2, 103.1, 99.8, 101.0, 98.4]
    sd = statistics.stdev(times)
    show('stdev of 97.2 103.1 99.8 101.0 98.4', sd, 'test_summary')
    show('95% CI half-width, table t 2.776 x sd / sqrt 5', 2.776 * sd / math.sqrt(5),
         'test_summary')
    show('  the same with the exact t(0.975, 4)', t_quantile(0.975, 4) * sd / math.sqrt(5),
         '(within its 0.0005)')

    print('-- t quantiles t(1 - alpha, df), to 3 decimals as in the NIST table')
    alphas = [0.10, 0.05, 0.025, 0.01, 0.005]
    print('   df ' + ''.join('%9.3f' % (1 - a) for a in alphas))
    for df in (1, 2, 3, 4, 5, 9, 10, 30, 100):
        print('%5d ' % df + ''.join('%9.3f' % t_quantile(1 - a, df) for a in alphas))
    show('t(0.975, 4)', t_quantile(0.975, 4), 'test_t_table (t_cdf inverts)')
    show('t_cdf(-12.706, 1)', t_cdf(-12.706, 1), 'test_t_table')
    show('t(0.975, 7.5), a fractional df', t_quantile(0.975, 7.5), 'test_t_table')

    t, df, p = welch(SLEEP1, SLEEP2)
    show('Welch, sleep data drug 1 vs 2: t', t, 'test_welch (R: -1.8608)')
    show('  df', df, '(R: 17.776)')
    show('  p', p, '(R: 0.07939)')
    show('Holm of 0.01 0.04 0.03 0.005', ' '.join('%.2f' % q for q in
                                               holm([0.01, 0.04, 0.03, 0.005])), 'test_holm')

    t2 = t_quantile(0.975, 2)
    show('quiet noload: 2.4 -+ t(0.975, 2) (2/sqrt 3) / 5, low',
         2.4 - t2 * 2 / math.sqrt(3) / 5, 'test_ratio (t 4.303)')
    show('  high', 2.4 + t2 * 2 / math.sqrt(3) / 5, '')
    show('quiet loaded: 20 / (10 +- t(0.975, 2) / sqrt 3), low',
         20 / (10 + t2 / math.sqrt(3)), 'test_ratio')
    show('  high', 20 / (10 - t2 / math.sqrt(3)), '')
    r, df, t, lo, hi = fieller([112.0, 109.5, 115.2, 110.8, 113.1], times)
    show('both noisy, Fieller: R', r, 'test_ratio')
    show('  df', df, '')
    show('  low', lo, '')
    show('  high', hi, '')


def t3003():
    print('== tests/t3003-report-stats.sh (the records of tests/data/make-stats.py)')
    base_nl = [97.2, 103.1, 99.8, 101.0, 98.4]
    new_nl = [98.0, 100.5, 99.0, 101.5, 100.0]
    base_pl = [110 + x for x in SLEEP1]
    new_pl = [110 + x for x in SLEEP2]
    base_io = [150 + i for i in range(5)]
    new_io = [200 + i for i in range(5)]
    show('sd of base noload', statistics.stdev(base_nl), '"base noload" row, sd 2.3')
    show('sd of new process_load', statistics.stdev(new_pl), '"new process_load" row, sd 2.0')
    show('noise of base: CV of its noload Times',
         statistics.stdev(base_nl) / statistics.mean(base_nl), '2.3%')
    show('noise of new', statistics.stdev(new_nl) / statistics.mean(new_nl), '1.4%')
    for name, a in (('io_load', new_io), ('process_load', new_pl)):
        r, df, t, lo, hi = fieller(a, new_nl)
        show('new %s over new noload: Ratio' % name, r, 'the 95% CI column')
        show('  Fieller low, high', '%.4f %.4f' % (lo, hi), '')
    ps = {}
    for name, a, b in (('noload', base_nl, new_nl), ('process_load', base_pl, new_pl),
                       ('io_load', base_io, new_io)):
        ps[name] = welch(b, a)[2]
        show('Welch p, new vs base, %s' % name, ps[name], '')
    adj = dict(zip(ps, holm(list(ps.values()))))
    show('Holm-adjusted p of process_load in new\'s three', adj['process_load'],
         '--alpha 0.1: no star; 0.2: star')


if __name__ == '__main__':
    unit_stats()
    t3003()
    if scipy_stats is None:
        print('(SciPy is not installed: no cross-check)')
    else:
        import scipy
        print('SciPy %s cross-check: the largest difference from scipy.stats.t.cdf: %.3g, %s'
              % ((scipy.__version__,) + scipy_diff))
