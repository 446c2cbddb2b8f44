/* store.h - the results directory: one append-only record file per label. */
#ifndef CONTEST_STORE_H
#define CONTEST_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "record.h"

#define LABEL_MAX 64

/* 0 when label may name a row and a file, else -1 with the reason. */
int store_check_label(const char *label, char *why, size_t len);
/* DIR/<label, escaped>.results; the caller frees it. */
char *store_path(const char *dir, const char *label);

/* Append r to label's file, creating the directory and the file as needed:
 * one write() of the whole line, then fdatasync.  0, or -1 with why. */
int store_append(const char *dir, const char *label, const struct record *r,
		 char *why, size_t len);

/* Everything the results directory holds. */
struct store {
	struct run *runs;
	size_t nruns;
	struct record *envs; /* "env" records, one per session */
	size_t nenvs;
	size_t damaged;      /* lines reported and skipped */
	size_t files;
};

/* Read every *.results file in dir; each damaged line is reported on
 * stderr with its file and line number and skipped.  -1 with why when the
 * directory cannot be read. */
int store_load(const char *dir, struct store *st, char *why, size_t len);
void store_free(struct store *st);

#endif
