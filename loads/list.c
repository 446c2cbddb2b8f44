/* list.c - list_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int list_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops list_load = {
	.name = "list_load",
	.summary = "not written yet",
	.unit = "-",
	.run = list_run,
};
