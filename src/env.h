/* env.h - the environment record: what a session was measured on. */
#ifndef CONTEST_ENV_H
#define CONTEST_ENV_H

#include "record.h"

/* Fill r (kind "env") with the machine, kernel and contest facts that are
 * readable here; session, label and workload fields are the caller's. */
void env_capture(struct record *r, int argc, char **argv);

/* The number of online CPUs (at least 1). */
unsigned env_ncpus(void);

#endif
