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
function tq(df,   q) {
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", q, " ")
	if (df < 1)
		return 0
	if (df <= 30)
		return q[int(df)]
	return 1.960 + 2.4 / df
}
'
