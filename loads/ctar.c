/* ctar.c - ctar_load: placeholder until the load is written. */
#include "config.h"

#include "load.h"

static int ctar_run(struct load_ctx *c, unsigned idx)
{
	(void)idx;
	return load_fail(c, "not written yet");
}

const struct load_ops ctar_load = {
	.name = "ctar_load",
	.summary = "not written yet",
	.unit = "-",
	.run = ctar_run,
};
