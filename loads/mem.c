/* mem.c - mem_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int mem_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops mem_load = {
	.name = "mem_load",
	.summary = "not written yet",
	.unit = "-",
	.run = mem_run,
};
