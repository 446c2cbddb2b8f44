/* io.c - io_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int io_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops io_load = {
	.name = "io_load",
	.summary = "not written yet",
	.unit = "-",
	.run = io_run,
};

const struct load_ops io_other_load = {
	.name = "io_other",
	.summary = "not written yet",
	.unit = "-",
	.flags = LOAD_NEEDS_OTHER,
	.run = io_run,
};
