/* xtar.c - xtar_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int xtar_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops xtar_load = {
	.name = "xtar_load",
	.summary = "not written yet",
	.unit = "-",
	.run = xtar_run,
};
