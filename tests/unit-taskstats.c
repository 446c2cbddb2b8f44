/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-taskstats.c - who is whose among taskstats exit records, when the
 * build may have a cgroup of its own, and the delay fields of a run record. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "run/taskstats.h"
#include "results/record.h"
#include "results/run.h"
#include "lib/util.h"
#include "tap.h"

#define SELF 100	/* contest */
#define LEADER 200	/* make */
#define LOADP 300	/* a load process, alive */

static void sides(const pid_t *pid, const pid_t *ppid, size_t n, char *out)
{
	unsigned char side[32];
	const pid_t load[] = { LOADP };

	delays_sides(pid, ppid, n, SELF, LEADER, load, 1, side);
	for (size_t i = 0; i < n; i++)
		out[i] = "nbl"[side[i]];
	out[n] = '\0';
}

int main(void)
{
	char got[40];

	{	/* make -> sh -> gcc -> cc1, as; children exit first */
		const pid_t pid[] = { 204, 205, 203, 202, 200 };
		const pid_t ppid[] = { 203, 203, 202, 200, SELF };

		sides(pid, ppid, 5, got);
		is_str(got, "bbbbb", "cc1 and as, then gcc, sh and make: all the build's");
	}
	{	/* the rest of the machine, and a task of contest's that is not the leader */
		const pid_t pid[] = { 900, 901, 202, 200, 203 };
		const pid_t ppid[] = { 1, 900, 200, SELF, SELF };

		sides(pid, ppid, 5, got);
		is_str(got, "nnbbn", "strangers and contest's other children are nobody's");
	}
	{	/* a load's grandchild exits, then its child; the load lives on */
		const pid_t pid[] = { 302, 301 };
		const pid_t ppid[] = { 301, LOADP };

		sides(pid, ppid, 2, got);
		is_str(got, "ll", "a load process's children and theirs are the load's");
	}
	{	/* pid 205 is a build task's first, then reused by a stranger whose
		 * child 206 exits before it: 206 is the stranger's, not the build's */
		const pid_t pid[] = { 205, 206, 205, 200 };
		const pid_t ppid[] = { 200, 205, 1, SELF };

		sides(pid, ppid, 4, got);
		is_str(got, "bnnb", "a reused pid: a record's parent is the nearest later record");
	}
	{	/* orphan: its parent exited first, it was reparented to init */
		const pid_t pid[] = { 202, 210, 200 };
		const pid_t ppid[] = { 200, 1, SELF };

		sides(pid, ppid, 3, got);
		is_str(got, "bnb", "an orphan reparented to init is lost to its side");
	}
	{	/* no records */
		sides(NULL, NULL, 0, got);
		is_str(got, "", "no records, no sides");
	}

	{	/* the build's cgroup for PSI: only where it changes nothing */
		char which[64];

		ok(delays_cgroup_neutral("", which, sizeof(which)) && !which[0],
		   "no controller for the children: a build cgroup is neutral");
		ok(delays_cgroup_neutral("cpuset pids hugetlb misc perf_event rdma\n", which,
					 sizeof(which)),
		   "cpuset, pids, hugetlb, misc, perf_event, rdma divide nothing: neutral");
		ok(!delays_cgroup_neutral("cpuset cpu pids\n", which, sizeof(which)),
		   "cpu enabled: the build's cgroup would be one weighted group");
		is_str(which, "cpu", "and which controller says so");
		ok(!delays_cgroup_neutral("cpu io memory pids", which, sizeof(which)),
		   "cpu, io and memory: not neutral");
		is_str(which, "cpu io memory", "all three named");
		ok(!delays_cgroup_neutral("io", which, sizeof(which)), "io alone: not neutral");
	}

	{	/* the run record's delay fields */
		struct run run, back;
		struct record r;
		char why[256], *line;

		run_init(&run);
		run.label = xstrdup("k");
		run.type = xstrdup("process_load");
		run.session = xstrdup("s");
		run.workload = xstrdup("w");
		run.flush = xstrdup("none");
		run.valid = 1;
		run.round = 1;
		run.elapsed_ns = 5;
		ok(run.build_delays.wait_ns == -1 && run.psi_us[0] == -1,
		   "a new run has its delays and PSI absent");
		run.build_delays = (struct task_delays){ 3, 1, 10, 20, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
		run.psi_scope = xstrdup("cgroup");
		for (int i = 0; i < PSI_FIGS; i++)
			run.psi_us[i] = i;
		run_to_record(&run, &r);
		line = record_encode(&r);
		ok(strstr(line, " build_delay_tasks=3 build_delay_bad=1 build_delay_cpu_ns=10 "
			  "build_delay_wait_ns=20 ") != NULL, "the build's delays are stored");
		ok(!strstr(line, "load_delay_"), "the load's, absent, are not");
		ok(strstr(line, " psi_scope=cgroup psi_cpu_some_us=0 ") != NULL, "PSI is stored");
		ok(run_from_record(&r, &back, why, sizeof(why)) == 0, "it reads back");
		ok(back.build_delays.wait_ns == 20 && back.build_delays.bad == 1 &&
		   back.load_delays.wait_ns == -1 && back.psi_us[5] == 5 &&
		   !strcmp(back.psi_scope, "cgroup"), "with the same figures");
		run_free(&back);
		record_free(&r);
		free(line);

		free(run.psi_scope);
		run.psi_scope = NULL;
		run.build_delays.tasks = -1;
		free(run.delays_absent);
		run.delays_absent = xstrdup("taskstats needs root");
		run_to_record(&run, &r);
		ok(run_from_record(&r, &back, why, sizeof(why)) == 0 &&
		   !strcmp(back.delays_absent, "taskstats needs root") && !back.psi_scope,
		   "an absent figure reads back with its reason");
		run_free(&back);
		record_set(&r, "psi_scope", "galaxy");
		ok(run_from_record(&r, &back, why, sizeof(why)) == -1, "a bad psi_scope is refused (%s)",
		   why);
		record_free(&r);
		run_free(&run);
	}
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
