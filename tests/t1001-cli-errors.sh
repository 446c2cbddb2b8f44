#!/bin/sh
# Bad command lines: a clear message on stderr, exit status 2, nothing run.
. "$TOP_SRCDIR/tests/lib.sh"

# expect_usage DESCRIPTION PATTERN ARGS...: exit 2, PATTERN in stderr, no stdout
expect_usage() {
	desc=$1 pattern=$2; shift 2
	"$CONTEST" "$@" >out 2>err
	rc=$?
	ok_eq "$desc: exit status" "$rc" 2
	ok "$desc: message says '$pattern'" grep -q -- "$pattern" err
	ok "$desc: nothing on stdout" test ! -s out
}

expect_usage "unknown option" "unknown option '--bogus'" --bogus
expect_usage "unknown short option" "unknown option '-z'" -z
expect_usage "missing value" "needs a value" -n
expect_usage "zero runs" "from 1 to 1000" -n 0
expect_usage "negative runs" "from 1 to 1000" -n -2
expect_usage "runs with junk" "from 1 to 1000" -n 3x
expect_usage "huge runs" "from 1 to 1000" -n 18446744073709551617
expect_usage "bad size" "wants a size" --io-size lots
expect_usage "bad seconds" "seconds" --lead-time -1
expect_usage "unknown run type" "unknown run type 'foo_load'" --quick foo_load
expect_usage "empty label" "bad label" -k ""
expect_usage "label with a space" "bad label" -k "my kernel"
expect_usage "label with a newline" "bad label" -k "a
b"
expect_usage "over-long label" "bad label" -k "$(printf '%070d' 0)"
expect_usage "run option to report" "does not apply to the report command" report --quick
expect_usage "report option to run" "does not apply to the run command" --baseline x
expect_usage "list with arguments" "takes no arguments" list extra
expect_usage "load without a name" "one load name" load
expect_usage "load of an unknown name" "unknown load" load nosuch_load

ok "nothing was created by the bad command lines" test ! -e contest-work -a ! -e contest-results

"$CONTEST" report -d missing-dir >out 2>err
ok_eq "report on a missing results directory: exit status" "$?" 1
ok "and says which directory" grep -q "missing-dir" err

mkdir empty
"$CONTEST" report -d empty >out 2>err
ok_eq "report on an empty results directory: exit status" "$?" 1
ok "and says there is nothing to report" grep -q "no valid runs" err

done_testing
