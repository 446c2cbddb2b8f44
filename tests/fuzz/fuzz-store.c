/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz-store.c - libFuzzer harness: a results file through store_read and
 * report_print, as `contest report` reads it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "report/report.h"
#include "loads/registry.h"
#include "results/store.h"
#include "lib/util.h"

/* The report orders tables by run type: the real names, without linking
 * the loads and the harness they need. */
#define FAKE(n) { .name = n, .summary = n, .unit = "unit" }
static const struct load_ops fake[] = {
	FAKE("process_load"), FAKE("ctar_load"), FAKE("xtar_load"), FAKE("io_load"),
	FAKE("io_other"), FAKE("read_load"), FAKE("list_load"), FAKE("mem_load"),
};
const struct load_ops *const load_registry[] = {
	&fake[0], &fake[1], &fake[2], &fake[3], &fake[4], &fake[5], &fake[6], &fake[7], NULL
};

static char *dir, *path;
static FILE *devnull;

static void cleanup(void)
{
	if (path)
		unlink(path);
	if (dir)
		rmdir(dir);
}

/* One directory for the whole session, under $TMPDIR. */
static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/contest-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	dir = mkdtemp(tmpl);
	devnull = fopen("/dev/null", "we");
	if (!dir || !devnull)
		abort();
	path = xasprintf("%s/fuzz.results", dir);
	atexit(cleanup);
}

static void write_file(const char *data, size_t size)
{
	FILE *f = fopen(path, "we");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

static void report(const struct store *st, const char *baseline, char *const *labels,
		   size_t nlabels)
{
	struct report_opts o = { .baseline = baseline, .labels = labels, .nlabels = nlabels };
	char why[512];

	why[0] = '\0';
	if (report_print(devnull, st, &o, why, sizeof(why)))
		FUZZ_ASSERT(why[0]);
}

static void load_and_report(void)
{
	struct store st;
	char why[512];

	FUZZ_ASSERT(store_read(dir, &st, why, sizeof(why)) == 0);
	FUZZ_ASSERT(st.files == 1);
	report(&st, NULL, NULL, 0);
	if (st.nruns) {
		char *label = st.runs[0].label;

		report(&st, label, NULL, 0);
		report(&st, NULL, &st.runs[st.nruns - 1].label, 1);
		report(&st, "no-such-label", &label, 1);
	}
	store_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	char *fixed = NULL;
	size_t flen = 0;

	if (!dir)
		setup();
	/* the file as given */
	write_file(p, size);
	load_and_report();

	/* and with every line's checksum right, so the fuzzer gets past it */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p), n;
		char *line = len && *p != '#' ? fuzz_fix_crc(p, len, &n) : NULL;

		if (!line)
			n = len;
		fixed = xrealloc(fixed, flen + n + 1);
		memcpy(fixed + flen, line ? line : p, n);
		flen += n;
		if (nl)
			fixed[flen++] = '\n';
		free(line);
		p += len + 1;
	}
	write_file(fixed ? fixed : "", flen);
	load_and_report();
	free(fixed);
	return 0;
}
