/* SPDX-License-Identifier: GPL-2.0-or-later */
/* env.h - the environment record: what a session was measured on. */
#ifndef CONTEST_ENV_H
#define CONTEST_ENV_H

#include "results/record.h"

/* Fill r (kind "env") with the machine, kernel and contest facts that are
 * readable here, each "absent" where it cannot be read: kernel release,
 * version and command line, the boot's id; CPU model, counts, SMT, cpufreq governor;
 * memory and swap; THP; the file system, device and I/O scheduler holding
 * work_dir (or its nearest existing parent); autogroup, sched_ext and
 * preemption mode; the compiler ($CC, default cc).  Session, label and
 * workload fields are the caller's. */
void env_capture(struct record *r, int argc, char **argv, const char *work_dir);

/* The I/O scheduler file (/sys/.../queue/scheduler) of the disk holding
 * work_dir (or its nearest existing parent) into path; -1 when there is
 * none (no block device, as on tmpfs). */
int env_io_scheduler_path(const char *work_dir, char *path, size_t len);

/* The chosen one of a sysfs choice: "always [madvise] never" -> "madvise";
 * text without brackets stays. */
void env_bracketed(char *buf);

/* The number of online CPUs (at least 1). */
unsigned env_ncpus(void);

#endif
