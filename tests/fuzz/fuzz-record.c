/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz-record.c - libFuzzer harness: record_decode and run_from_record. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "results/record.h"
#include "results/run.h"

/* The same kind and fields; the order may differ, as the encoder writes
 * "v" first wherever the line had it. */
static void same_record(const struct record *a, const struct record *b)
{
	FUZZ_ASSERT(!strcmp(a->kind, b->kind));
	FUZZ_ASSERT(a->n == b->n);
	for (size_t i = 0; i < a->n; i++) {
		const char *v = record_get(b, a->kv[i].key);

		FUZZ_ASSERT(v && !strcmp(a->kv[i].val, v));
	}
}

static int same_str(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A run read back from a record survives being written and read again. */
static void check_run(const struct run *run)
{
	struct record r, back;
	struct run again;
	char why[160];
	char *line;

	FUZZ_ASSERT(run->label && *run->label && run->type && *run->type &&
		    run->session && *run->session && run->workload && *run->workload &&
		    run->flush && *run->flush);
	FUZZ_ASSERT(run->round >= 1 && (run->valid == 0 || run->valid == 1));
	FUZZ_ASSERT(run->elapsed_ns >= 0 && run->user_ns >= 0 && run->sys_ns >= 0 &&
		    run->load_cpu_ns >= -1);
	FUZZ_ASSERT(isfinite(run->work) && run->work >= 0);

	run_to_record(run, &r);
	line = record_encode(&r);
	FUZZ_ASSERT(strchr(line, '\n') == line + strlen(line) - 1);
	FUZZ_ASSERT(record_decode(line, strlen(line), &back, why, sizeof(why)) == 0);
	FUZZ_ASSERT(run_from_record(&back, &again, why, sizeof(why)) == 0);
	FUZZ_ASSERT(same_str(again.label, run->label) && same_str(again.type, run->type) &&
		    same_str(again.session, run->session) &&
		    same_str(again.workload, run->workload) &&
		    same_str(again.flush, run->flush));
	FUZZ_ASSERT(again.round == run->round && again.valid == run->valid &&
		    again.elapsed_ns == run->elapsed_ns && again.user_ns == run->user_ns &&
		    again.sys_ns == run->sys_ns && again.load_cpu_ns == run->load_cpu_ns);
	/* load_work is written with 6 decimals */
	FUZZ_ASSERT(fabs(again.work - run->work) <= 1e-6 * fmax(1, run->work));
	if (!run->valid && run->reason)
		FUZZ_ASSERT(same_str(again.reason, run->reason));
	run_free(&again);
	record_free(&back);
	record_free(&r);
	free(line);
}

/* A decoded record encodes to a line that decodes to the same record. */
static void check_record(const struct record *r)
{
	struct record back;
	struct run run;
	char why[160];
	char *line = record_encode(r);

	FUZZ_ASSERT(record_decode(line, strlen(line), &back, why, sizeof(why)) == 0);
	same_record(r, &back);
	record_free(&back);
	free(line);

	if (!strcmp(r->kind, "run") && run_from_record(r, &run, why, sizeof(why)) == 0) {
		check_run(&run);
		run_free(&run);
	}
}

static void one_line(const char *line, size_t len)
{
	struct record r;
	char why[160];

	why[0] = '\0';
	if (record_decode(line, len, &r, why, sizeof(why)) == 0)
		check_record(&r);
	else
		FUZZ_ASSERT(why[0] && r.n == 0 && r.kv == NULL);
	record_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	/* each line as it is, and with a right checksum; the '\n' too, as
	 * getline gives it to the store */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t flen;
		char *copy, *fixed;

		/* exact-size copies, so ASan sees any read past the end */
		copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, p, len);
		one_line(copy, len);
		free(copy);
		if (nl) {
			copy = malloc(len + 1);
			if (!copy)
				abort();
			memcpy(copy, p, len + 1);
			one_line(copy, len + 1);
			free(copy);
		}
		fixed = fuzz_fix_crc(p, len, &flen);
		one_line(fixed, flen);
		free(fixed);
		p += len + 1;
	}
	return 0;
}
