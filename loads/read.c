/* read.c - read_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int read_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops read_load = {
	.name = "read_load",
	.summary = "not written yet",
	.unit = "-",
	.run = read_run,
};
