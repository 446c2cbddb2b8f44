
run_bench() {
	CONTEST_QUICK_COMMAND=
	CONTEST_RUNTYPES_COMMAND=
	if [ "$CONTEST_QUICK" = "yes" ]; then
		CONTEST_QUICK_COMMAND=--quick
	fi
	if [ "$CONTEST_RUNTYPES" != "" ]; then
		CONTEST_RUNTYPES_COMMAND="--runtypes \"$CONTEST_RUNTYPES\""
	fi
	eval $SHELLPACK_INCLUDE/shellpack-bench-contest \
		-v $CONTEST_VERSION \
		--runs $CONTEST_RUNS \
		--workload $CONTEST_WORKLOAD \
		$CONTEST_QUICK_COMMAND $CONTEST_RUNTYPES_COMMAND
	return $?
}
