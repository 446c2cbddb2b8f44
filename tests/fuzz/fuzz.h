/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - helpers shared by the libFuzzer harnesses. */
#ifndef CONTEST_FUZZ_H
#define CONTEST_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A fuzzer rarely guesses a CRC-32, so it would never get past the
 * checksum: give one line (without its '\n') the right checksum, replacing
 * a " crc=XXXXXXXX" it ends with.  The caller frees the result, whose
 * length goes to *outlen. */
static inline char *fuzz_fix_crc(const char *line, size_t len, size_t *outlen)
{
	size_t body = len;
	char *out;

	if (len >= 13 && !memcmp(line + len - 13, " crc=", 5))
		body = len - 13;
	out = malloc(body + 14);
	if (!out)
		abort();
	memcpy(out, line, body);
	snprintf(out + body, 14, " crc=%08x", (unsigned)crc32_buf(out, body));
	*outlen = body + 13;
	return out;
}

/* Stop the fuzzer: an invariant the code promises does not hold. */
#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: FUZZ_ASSERT(%s) failed\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

#endif
