# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - what the bench scripts share.  Each sources it first:
#	. "$(dirname "$0")/lib.sh"

# die MESSAGE: say it on stderr after the script's name, and exit 2
die() {
	echo "${0##*/}: $*" >&2
	exit 2
}

# awk functions for contest's records, put before a program:
#	awk "$BENCH_AWK"'PROGRAM'
#   fields()  the KEY=VALUE fields of the line ($2 on) into the array f
#   tq(df)    Student's t quantile t(0.975, df), for a two-sided 95% interval:
#             the table to 30 degrees of freedom, then 1.960 + 2.4 / df
#   ratio_ci(on, off, n, s, ss, c)
#             the ratio of the mean of side on to side off, from each side's
#             count n[], sum s[] and sum of squares ss[], into c["r"], with a
#             95% interval by the delta method (Welch's degrees of freedom)
#             into c["lo"] and c["hi"]; 0 when a side has fewer than 2 runs
#   ratio(what, on, off, n, s, ss)
#             prints "WHAT = R (95% CI LO to HI; n = N_ON, N_OFF)" of
#             ratio_ci(); 0 when it could not
#   paired(what, on, off, r, rt)
#             prints "WHAT = R (95% CI LO to HI; K rounds)": the geometric
#             mean of the rounds' ratios of side on to side off, with a 95%
#             interval from Student's t on their logs (K - 1 degrees of
#             freedom).  r[l] counts side l's runs, rt[l, i] is its i-th
#             run's Time, 0 if it was invalid; a round counts when both of
#             its runs are valid.  With the two sides of a round run back to
#             back, a drift of the machine between rounds cancels in each
#             ratio, which the ratio of the means does not do; 0 when it
#             could not
# (Their own variables are local: a program may use k, v or q as it likes.)
BENCH_AWK='
function fields(   i, k, v) {
	delete f
	for (i = 2; i <= NF; i++) {
		k = $i; sub(/=.*/, "", k)
		v = $i; sub(/^[^=]*=/, "", v)
		f[k] = v
	}
}
function ratio_ci(on, off, n, s, ss, c,   l, m, v, rel, df, h) {
	if (n[on] < 2 || n[off] < 2)
		return 0
	m[on] = s[on] / n[on]; m[off] = s[off] / n[off]
	for (l in m) {
		v[l] = (ss[l] - n[l] * m[l] ^ 2) / (n[l] - 1) / n[l]
		if (v[l] < 0) v[l] = 0	# rounding, when every run took the same
	}
	c["r"] = m[on] / m[off]
	rel = v[on] / m[on] ^ 2 + v[off] / m[off] ^ 2
	h = 0
	if (rel > 0) {
		df = rel ^ 2 / ((v[on] / m[on] ^ 2) ^ 2 / (n[on] - 1) + (v[off] / m[off] ^ 2) ^ 2 / (n[off] - 1))
		h = tq(df) * c["r"] * sqrt(rel)
	}
	c["lo"] = c["r"] - h; c["hi"] = c["r"] + h
	return 1
}
function ratio(what, on, off, n, s, ss,   c) {
	if (!ratio_ci(on, off, n, s, ss, c)) {
		printf "%s: fewer than 2 valid runs on a side\n", what
		return 0
	}
	printf "%s = %.3f (95%% CI %.3f to %.3f; n = %d, %d)\n", what, c["r"], c["lo"], c["hi"], n[on], n[off]
	return 1
}
function paired(what, on, off, r, rt,   i, k, d, m, v, h) {
	k = 0
	for (i = 1; i <= r[on] && i <= r[off]; i++)
		if (rt[on, i] && rt[off, i])
			d[++k] = log(rt[on, i] / rt[off, i])
	if (k < 2) {
		printf "%s: fewer than 2 rounds with a valid run on each side\n", what
		return 0
	}
	m = 0
	for (i = 1; i <= k; i++) m += d[i] / k
	v = 0
	for (i = 1; i <= k; i++) v += (d[i] - m) ^ 2 / (k - 1)
	h = tq(k - 1) * sqrt(v / k)
	printf "%s = %.3f (95%% CI %.3f to %.3f; %d rounds)\n", what, exp(m), exp(m - h), exp(m + h), k
	return 1
}
function tq(df,   q) {
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", q, " ")
	if (df < 1)
		return 0
	if (df <= 30)
		return q[int(df)]
	return 1.960 + 2.4 / df
}
'

# bench_scratch NAME: a scratch directory, $scratch (mktemp -d under $base,
# removed on exit, after the script's own bench_cleanup_more if it has one),
# and in it a copy of $contest_src, $contest: rebuilding the tree during the
# bench must not change the binary
bench_scratch() {
	scratch=$(mktemp -d "$base/$1.XXXXXX") || die "cannot make a scratch directory in $base"
	scratch=$(cd "$scratch" && pwd)
	trap bench_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	cp "$contest_src" "$scratch/contest" || die "cannot copy $contest_src"
	contest=$scratch/contest
}

bench_cleanup() {
	if declare -F bench_cleanup_more >/dev/null; then
		bench_cleanup_more
	fi
	rm -rf "$scratch"
}

# bench_header TITLE: the first lines of every figure: what, the command,
# when, on which kernel, with which contest and workload
bench_header() {
	echo "$1"
	echo "command:   $cmdline"
	echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kernel:    $(uname -r); CPUs $(getconf _NPROCESSORS_ONLN)"
	echo "contest:   $contest_src ($("$contest" --version 2>&1 | head -1)); workload $workload"
}

# bench_quiet ROUNDS LEAST: the load average at the start, and a warning
# when the machine is not quiet (0.5 or more) or ROUNDS is under LEAST: such
# figures are not for bench/README.md
bench_quiet() {
	echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start"
	awk '{ exit !($1 >= 0.5) }' /proc/loadavg &&
		echo "WARNING: load average 0.5 or more: the machine is not quiet, these figures are not for bench/README.md"
	[ "$1" -ge "$2" ] ||
		echo "WARNING: -n $1: fewer than $2 sessions a side, these figures are not for bench/README.md"
}

# bench_options SPEC ARGS...: the options at the head of ARGS, parsed; then
# $bench_shift is how many words they took, for the script to shift off:
# what is left (from the first word that is not an option) are its operands.
# Every script takes -n/--rounds N (into $rounds), --dir DIR (into $base) and
# -h/--help (its usage(), exit 0); SPEC names its own options, a word each:
#	-t|--time=secs      takes a value, into $secs (a missing or empty one
#	                    stops the script, as ${2:?} does)
#	--busy=busy=1       takes none, sets $busy to 1
# Any other option is a usage error: usage() on stderr, exit 2.
bench_options() {
	local spec="-n|--rounds=rounds --dir=base $1" word names name to
	shift
	bench_shift=0
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) usage; exit 0 ;;
		-*) ;;
		*) return 0 ;;
		esac
		to=
		for word in $spec; do	# (no word of a SPEC has a wildcard)
			names=${word%%=*}
			for name in ${names//|/ }; do
				[ "$name" = "$1" ] && to=${word#*=}
			done
		done
		if [ -z "$to" ]; then
			usage >&2
			exit 2
		elif [[ $to == *=* ]]; then
			printf -v "${to%%=*}" '%s' "${to#*=}"
			shift
			bench_shift=$((bench_shift + 1))
		else
			printf -v "$to" '%s' "${2:?}"
			shift 2
			bench_shift=$((bench_shift + 2))
		fi
	done
}
