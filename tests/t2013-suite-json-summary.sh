#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest run --no-progress --json-summary FILE, for job runners: a json
# file that says what the suite did, which runs were invalid and why, and an
# exit status that says it without reading the file.  The workload is a
# shell command (-w cmd:DIR), so that builds can be made to fail on cue.
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: the summary cannot be parsed"

mkdir proj || exit 99
# build.sh FAIL...: the builds whose number (1 is the warm-up) is listed fail
cat >proj/build.sh <<'SH'
n=$(cat ../count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >../count
for f in "$@"; do [ "$f" != $n ] || { echo "build $n broke"; exit 3; }; done
SH
suite() {	# suite LABEL FAILS [OPTIONS...]: noload, 3 rounds
	label=$1 fails=$2; shift 2
	rm -f count
	"$CONTEST" -w cmd:proj --build-cmd "sh build.sh $fails" --clean-cmd true -n 3 -k "$label" \
		--work-dir wd -d res --lead-time 0 "$@" noload >out 2>err
}
# check.py FILE STATUS EXIT VALID INVALID ROUNDS: the summary's fields
cat >check.py <<'PY'
import json, sys
f, status, code, valid, invalid, rounds = sys.argv[1:7]
s = json.load(open(f))
assert s["schema"] == "contest-run-summary/1", s["schema"]
assert s["status"] == status, s["status"]
assert s["exit_code"] == int(code), s["exit_code"]
assert s["runs"] == {"valid": int(valid), "invalid": int(invalid)}, s["runs"]
assert s["run_types"] == [{"name": "noload", "valid": int(valid), "invalid": int(invalid)}], \
    s["run_types"]
got = [b["round"] for b in s["invalid"]]
want = [int(r) for r in rounds.split(",") if r]
assert got == want, (got, want)
for b in s["invalid"]:
    assert b["run_type"] == "noload" and b["reason"] == "the workload failed: exit status 3", b
PY

# ---- every run valid --------------------------------------------------------------
suite ok "" --no-progress --json-summary ok.json
ok_eq "every run valid: exit 0" "$?" 0
ok "the summary: ok, 3 valid runs, none invalid" python3 check.py ok.json ok 0 3 0 ""
ok "the label, session and results directory, as the store has them" python3 -c '
import json, re
s = json.load(open("ok.json"))
env = [l for l in open("res/ok.results") if l.startswith("env ")][-1]
assert s["label"] == "ok" and s["results"] == "res", s
assert " session=%s " % s["session"] in env, (s["session"], env)
'
ok_eq "no temporary file left" "$(ls ok.json?* 2>/dev/null)" ""
ok "the tables still on stdout" grep -q '^ok  *\[3\] ' out

# ---- some invalid ---------------------------------------------------------------------
suite some "3" --json-summary some.json
ok_eq "one run of three invalid: exit 3" "$?" 3
ok "the summary names it: round 2, and why" python3 check.py some.json some_invalid 3 2 1 2
ok_eq "as many invalid runs as the store holds" \
	"$(grep -c '^run .* valid=0 ' res/some.results)" 1
suite plain "3"
ok_eq "without --json-summary the same suite exits 0, as before" "$?" 0

# ---- all invalid ------------------------------------------------------------------------
suite none "2 3 4" --json-summary none.json
ok_eq "every run invalid: exit 4" "$?" 4
ok "the summary lists all three" python3 check.py none.json all_invalid 4 0 3 1,2,3

# ---- failed -------------------------------------------------------------------------------
suite failed "1" --json-summary failed.json
ok_eq "a failed warm-up: exit 1, as without the option" "$?" 1
ok "the summary says failed, no runs" python3 check.py failed.json failed 1 0 0 ""

# ---- interrupted --------------------------------------------------------------------------
# the warm-up is quick; the first timed build says it started, then sleeps
rm -f count started
"$CONTEST" -w cmd:proj \
	--build-cmd 'n=$(cat ../count 2>/dev/null || echo 0); echo $((n + 1)) >../count; [ $n = 0 ] || { touch ../started; sleep 60; }' \
	--clean-cmd true -n 3 -k int --work-dir wd -d res --lead-time 0 \
	--json-summary int.json noload >out 2>err &
pid=$!
wait_until test -e started
kill -INT $pid
wait $pid
ok_eq "SIGINT in a timed run: exit 130, as without the option" "$?" 130
ok "the summary says interrupted, no run stored" python3 check.py int.json interrupted 130 0 0 ""

# ---- where it cannot be written; --dry-run -------------------------------------------------
suite nowhere "" --json-summary no/such/dir/s.json
ok_eq "a summary that cannot be written: exit 1" "$?" 1
ok "saying so" grep -q "cannot write the summary no/such/dir/s.json" err
echo victim >victim
ln -s victim sym.json.tmp
suite sym "" --json-summary sym.json
ok_eq "a symlink at the summary's temporary name: exit 0" "$?" 0
ok "it is not written through" grep -qx victim victim
ok "the summary is written" python3 check.py sym.json ok 0 3 0 ""
ok_eq "no temporary file left" "$(ls sym.json?* | tr '\n' ' ')" "sym.json.tmp "
suite dry "" --dry-run --json-summary dry.json
ok_eq "--dry-run exits 0" "$?" 0
ok "and writes no summary" test ! -e dry.json

# ---- --no-progress on a terminal ---------------------------------------------------------
if command -v script >/dev/null && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	esc=$(printf '\033')
	tty() {	# tty FILE OPTIONS...: a one-run suite under a pseudo-terminal
		f=$1; shift
		TERM=xterm script -qfec "$CONTEST -w cmd:proj --build-cmd 'sleep 1.5' \
			--clean-cmd true -n 1 -k tty --work-dir wd -d res --lead-time 0 $* noload" \
			"$f" </dev/null >/dev/null 2>&1
	}
	tty live.ts
	tty quiet.ts --no-progress
	ok "on a terminal: the live line" grep -q "$esc\[K\[1/1\] noload round 1/1" live.ts
	ok "--no-progress: none" sh -c "! grep -q '$esc\[K' quiet.ts"
	ok "but the line of each run" grep -q "contest: \[1/1\] noload round 1/1: Time" quiet.ts
else
	skip "no script(1) to make a pseudo-terminal"
	skip "no script(1) to make a pseudo-terminal"
	skip "no script(1) to make a pseudo-terminal"
fi
ok "the work directory is gone" test ! -e wd/run-*

done_testing
