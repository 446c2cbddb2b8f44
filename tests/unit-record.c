/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-record.c - record lines: round trips, escaping, damage detection. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/record.h"
#include "results/run.h"
#include "results/store.h"
#include "lib/util.h"
#include "tap.h"

static int decodes(const char *line)
{
	struct record r;
	char why[160];
	int rc = record_decode(line, strlen(line), &r, why, sizeof(why));

	record_free(&r);
	return rc == 0;
}

static void test_roundtrip(void)
{
	struct record r, back;
	char why[160];
	char *line;

	record_init(&r, "env");
	record_set(&r, "plain", "6.1.0-rc1");
	record_set(&r, "spaces", "a b\tc\nd");
	record_set(&r, "awkward", "100% = done; k=v");
	record_set(&r, "bytes", "caf\xc3\xa9 \x01\x7f");
	record_set(&r, "empty", "");
	record_set_i64(&r, "n", -1234567890123LL);
	line = record_encode(&r);
	ok(strchr(line, '\n') == line + strlen(line) - 1, "an encoded record is one line");
	ok(!strchr(line, '\t'), "no tabs in an encoded record");
	ok(record_decode(line, strlen(line), &back, why, sizeof(why)) == 0, "it decodes: %s", line);
	is_str(back.kind, "env", "kind survives");
	is_str(record_get(&back, "plain"), "6.1.0-rc1", "plain value survives");
	is_str(record_get(&back, "spaces"), "a b\tc\nd", "white space survives");
	is_str(record_get(&back, "awkward"), "100% = done; k=v", "%% and = survive");
	is_str(record_get(&back, "bytes"), "caf\xc3\xa9 \x01\x7f", "non-ASCII and control bytes survive");
	is_str(record_get(&back, "empty"), "", "an empty value survives");
	int64_t n = 0;
	ok(record_get_i64(&back, "n", &n) == 0 && n == -1234567890123LL, "a negative number survives");
	ok(record_get(&back, "missing") == NULL, "a missing key is NULL");
	is_str(record_get(&back, "v"), "2", "the format version is recorded");
	record_free(&back);

	/* every single-byte corruption and every truncation is caught */
	size_t len = strlen(line), caught = 0, tried = 0;
	for (size_t i = 0; i + 1 < len; i++) {
		char *bad = strdup(line);

		bad[i] ^= 0x20;
		tried++;
		caught += !decodes(bad);
		free(bad);
	}
	ok(caught == tried, "all %zu one-byte corruptions are damaged lines (%zu caught)", tried, caught);
	caught = tried = 0;
	for (size_t cut = 1; cut + 1 < len; cut++) {
		char *bad = strndup(line, cut);

		tried++;
		caught += !decodes(bad);
		free(bad);
	}
	ok(caught == tried, "all %zu truncations are damaged lines (%zu caught)", tried, caught);
	free(line);
	record_free(&r);
}

static void test_damaged(void)
{
	ok(!decodes(""), "an empty line is damaged");
	ok(!decodes("run v=1 label=x"), "a line without a checksum is damaged");
	ok(!decodes("\x7f" "ELF\x02\x01\x01 garbage garbage garbage crc=00000000"), "binary garbage is damaged");
	ok(!decodes("run v=1 label=x crc=zzzzzzzz"), "a bad checksum field is damaged");

	/* a line with a right checksum but a newer format version */
	struct record r;
	char why[160], buf[64];
	const char *body = "run v=99";

	snprintf(buf, sizeof(buf), "%s crc=%08x\n", body, (unsigned)crc32_buf(body, strlen(body)));
	ok(record_decode(buf, strlen(buf), &r, why, sizeof(why)) != 0 && strstr(why, "newer"),
	   "a newer format version is refused, saying so (%s)", why);
	record_free(&r);

	/* crc32 of "123456789" is the standard check value cbf43926 */
	ok(crc32_buf("123456789", 9) == 0xcbf43926u, "CRC-32 check value of 123456789");
}

static void test_run(void)
{
	static char label[] = "2.6.0-test", type[] = "io_load", session[] = "s1",
		workload[] = "builtin/1 scale=5", flush[] = "fadvise", reason[] = "the load died";
	struct run in = {
		.label = label, .type = type, .session = session,
		.workload = workload, .flush = flush, .reason = reason,
		.round = 3, .valid = 0, .elapsed_ns = 123456789012LL, .user_ns = 5,
		.sys_ns = 6, .work = 1.25, .load_cpu_ns = 7, .probe_cpu_ns = -1,
	}, out;
	struct record r, back;
	char why[160];
	char *line;

	run_to_record(&in, &r);
	line = record_encode(&r);
	ok(record_decode(line, strlen(line), &back, why, sizeof(why)) == 0, "a run record decodes");
	ok(run_from_record(&back, &out, why, sizeof(why)) == 0, "and converts back to a run");
	is_str(out.label, in.label, "label");
	is_str(out.type, in.type, "type");
	is_str(out.reason, in.reason, "reason");
	ok(out.round == 3 && out.valid == 0, "round and validity");
	ok(out.elapsed_ns == in.elapsed_ns && out.user_ns == 5 && out.sys_ns == 6,
	   "times in nanoseconds");
	is_num(out.work, 1.25, 1e-9, "fractional work");
	ok(out.load_cpu_ns == 7, "load CPU time");
	ok(out.load_session == 0, "load_session 0 is not stored and reads back as 0");
	ok(!record_get(&r, "load_session"), "no load_session key when it is 0");
	run_free(&out);

	/* the load's CPU not measured: no key, and absent when read back */
	record_free(&r);
	record_free(&back);
	in.load_cpu_ns = -1;
	run_to_record(&in, &r);
	ok(!record_get(&r, "load_cpu_ns"), "no load_cpu_ns key when it was not measured");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0 && out.load_cpu_ns == -1,
	   "an absent load_cpu_ns reads back as absent, not 0");
	run_free(&out);
	/* version 1: load_user_ns + load_sys_ns, to the reap */
	record_set(&r, "load_user_ns", "7");
	record_set(&r, "load_sys_ns", "8");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0 && out.load_cpu_ns == 15,
	   "a version 1 record's load CPU is load_user_ns + load_sys_ns");
	run_free(&out);
	record_set(&r, "load_sys_ns", "-1");
	ok(run_from_record(&r, &out, why, sizeof(why)) == -1, "a negative load_sys_ns is bad");
	record_set(&r, "load_sys_ns", "8");
	record_set(&r, "load_cpu_ns", "-3");
	ok(run_from_record(&r, &out, why, sizeof(why)) == -1, "a negative load_cpu_ns is bad");

	/* records written before the system figures: they read as absent */
	ok(isnan(out.idle) && isnan(out.iowait) && out.majflt == -1 && out.pswpin == -1 &&
	   out.pswpout == -1, "run_free leaves the system figures absent");
	record_free(&r);
	in.load_session = 1;
	in.idle = 87.26;
	in.iowait = 0.04;
	in.majflt = 12;
	in.pswpin = 0;
	in.pswpout = 3;
	run_to_record(&in, &r);
	is_str(record_get(&r, "idle"), "87.3", "idle is stored with one decimal");
	is_str(record_get(&r, "iowait"), "0.0", "iowait is stored with one decimal");
	is_str(record_get(&r, "load_session"), "1", "load_session=1 is stored");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0, "a run with system figures converts");
	ok(out.load_session == 1, "load_session reads back");
	is_num(out.idle, 87.3, 1e-9, "idle reads back");
	ok(out.majflt == 12 && out.pswpin == 0 && out.pswpout == 3,
	   "majflt, pswpin and pswpout read back (0 is not absent)");
	run_free(&out);
	record_set(&r, "idle", "101");
	ok(run_from_record(&r, &out, why, sizeof(why)) != 0, "an idle over 100%% is refused");
	record_set(&r, "idle", "50");
	record_set(&r, "majflt", "-1");
	ok(run_from_record(&r, &out, why, sizeof(why)) != 0, "a negative majflt is refused");
	record_set(&r, "majflt", "1");
	record_set(&r, "load_session", "2");
	ok(run_from_record(&r, &out, why, sizeof(why)) != 0, "load_session other than 0 or 1 is refused");
	record_free(&r);
	in.idle = in.iowait = NAN;
	in.majflt = in.pswpin = in.pswpout = -1;
	run_to_record(&in, &r);
	ok(!record_get(&r, "idle") && !record_get(&r, "iowait") && !record_get(&r, "majflt") &&
	   !record_get(&r, "pswpin") && !record_get(&r, "pswpout"),
	   "figures that could not be read are left out, not written as 0");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0 && isnan(out.idle) &&
	   out.majflt == -1 && out.pswpout == -1, "and read back as absent");
	run_free(&out);
	record_free(&r);

	/* the load's own I/O: stored when measured, absent in older records */
	in.io = (struct load_io){ 10, 20, 0, 40, 5 };
	run_to_record(&in, &r);
	is_str(record_get(&r, "load_write_bytes"), "40", "load_write_bytes is stored");
	is_str(record_get(&r, "load_read_bytes"), "0", "a read_bytes of 0 is stored");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0 && out.io.rchar == 10 &&
	   out.io.wchar == 20 && out.io.read_bytes == 0 && out.io.write_bytes == 40 &&
	   out.io.cancelled == 5, "the load's rchar, wchar, read_bytes, write_bytes and "
	   "cancelled_write_bytes read back");
	run_free(&out);
	record_set(&r, "load_wchar", "-3");
	ok(run_from_record(&r, &out, why, sizeof(why)) != 0, "a negative load_wchar is refused (%s)",
	   why);
	record_free(&r);
	in.io = (struct load_io){ -1, -1, -1, -1, -1 };
	run_to_record(&in, &r);
	ok(!record_get(&r, "load_rchar") && !record_get(&r, "load_cancelled_write_bytes"),
	   "I/O that was not measured is left out");
	ok(run_from_record(&r, &out, why, sizeof(why)) == 0 && out.io.rchar == -1 &&
	   out.io.write_bytes == -1 && out.io.cancelled == -1,
	   "a record without the load's I/O (an older one) reads it as absent");
	run_free(&out);

	record_set(&back, "elapsed_ns", "-5");
	ok(run_from_record(&back, &out, why, sizeof(why)) != 0, "a negative time is refused");
	record_set(&back, "elapsed_ns", "12x");
	ok(run_from_record(&back, &out, why, sizeof(why)) != 0, "a malformed number is refused");
	record_set(&back, "elapsed_ns", "1");
	record_set(&back, "type", "");
	ok(run_from_record(&back, &out, why, sizeof(why)) != 0, "an empty type is refused (%s)", why);
	record_free(&back);
	record_free(&r);
	free(line);
}

/* The sanitizer build found qsort(NULL, 0, ...) here: an empty directory. */
static void test_empty_store(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	struct store st;
	char why[256];

	snprintf(dir, sizeof(dir), "%s/unit-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: cannot test an empty results directory");
		return;
	}
	ok(store_read(dir, &st, why, sizeof(why)) == 0 && st.nruns == 0 && st.files == 0 &&
	   st.damaged == 0, "an empty results directory loads, with nothing in it");
	store_free(&st);
	rmdir(dir);
}

static int is_id(const char *id)
{
	return id && strlen(id) == 32 && strspn(id, "0123456789abcdef") == 32;
}

/* Every record appended gets an id of its own, one it has is kept, and the
 * store reads them back (older records without one still read). */
static void test_ids(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], why[256];
	struct record a, b, c;
	struct store st;
	char *path;

	snprintf(dir, sizeof(dir), "%s/unit-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: cannot test the records' ids");
		return;
	}
	record_init(&a, "env");
	record_set(&a, "label", "x");
	record_set(&a, "session", "s1");
	record_init(&b, "env");
	record_set(&b, "label", "x");
	record_set(&b, "session", "s2");
	record_init(&c, "env");
	record_set(&c, "label", "x");
	record_set(&c, "session", "s3");
	record_set(&c, "id", "given");
	ok(store_append(dir, "x", &a, why, sizeof(why)) == 0 &&
	   store_append(dir, "x", &b, why, sizeof(why)) == 0 &&
	   store_append(dir, "x", &c, why, sizeof(why)) == 0, "three records appended");
	ok(is_id(record_get(&a, "id")) && is_id(record_get(&b, "id")),
	   "a record without an id is given one: 32 hex digits (%s)", record_get(&a, "id"));
	ok(strcmp(record_get(&a, "id"), record_get(&b, "id")) != 0, "each its own");
	ok(!strcmp(record_get(&c, "id"), "given"), "an id a record has is kept");
	ok(store_read(dir, &st, why, sizeof(why)) == 0 && st.nenvs == 3 && !st.duplicates &&
	   !strcmp(record_get(&st.envs[0], "id"), record_get(&a, "id")),
	   "the store reads them back, ids and all");
	store_free(&st);
	record_free(&a);
	record_free(&b);
	record_free(&c);
	path = store_path(dir, "x");
	unlink(path);
	free(path);
	rmdir(dir);
}

/* One field of a stored line replaced: the rest of the line byte for byte,
 * its version too, and a crc that checks. */
static void test_line_set(void)
{
	struct record r, back;
	char why[160], *line, *set, *want;

	record_init(&back, "");
	record_init(&r, "run");
	record_set(&r, "xlabel", "a");
	record_set(&r, "label", "a");
	record_set(&r, "session", "s1");
	record_set(&r, "id", "0123");
	line = record_encode(&r);
	/* as an older contest wrote it: version 1 */
	line[strlen("run v=")] = '1';
	set = record_line_set(line, strlen(line), "label", "6.1 fixed%");
	want = xasprintf("run v=1 xlabel=a label=6.1%%20fixed%%25 session=s1 id=0123 crc=");
	ok(set && !strncmp(set, want, strlen(want)), "the field replaced, escaped, the rest kept: %s",
	   set ? set : "(null)");
	ok(set && record_decode(set, strlen(set), &back, why, sizeof(why)) == 0,
	   "the new line checks: %s", set ? why : "");
	is_str(record_get(&back, "label"), "6.1 fixed%", "its label");
	is_str(record_get(&back, "xlabel"), "a", "a key ending alike is not it");
	is_str(record_get(&back, "v"), "1", "its version kept");
	ok(set && set[strlen(set) - 1] == '\n' && strchr(set, '\n') == set + strlen(set) - 1,
	   "one line, '\\n' ended");
	record_free(&back);
	free(set);
	set = record_line_set(line, strlen(line) - 1, "id", "4567");	/* without its '\n' */
	ok(set && strstr(set, " id=4567 crc=") && decodes(set), "the last field, a line without '\\n'");
	free(set);
	ok(record_line_set(line, strlen(line), "kernel", "x") == NULL, "no such field: NULL");
	free(want);
	free(line);
	record_free(&r);
}

int main(void)
{
	test_roundtrip();
	test_damaged();
	test_run();
	test_empty_store();
	test_ids();
	test_line_set();
	return tap_done();
}
