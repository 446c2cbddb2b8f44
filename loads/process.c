/* process.c - process_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int process_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops process_load = {
	.name = "process_load",
	.summary = "not written yet",
	.unit = "-",
	.run = process_run,
};
