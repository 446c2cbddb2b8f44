/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store.h - the results directory: one append-only record file per label. */
#ifndef CONTEST_STORE_H
#define CONTEST_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "results/record.h"
#include "results/run.h"

#define LABEL_MAX 64

/* 0 when label may name a row and a file, else -1 with the reason. */
int store_check_label(const char *label, char *why, size_t len);
/* DIR/<label, escaped>.results; the caller frees it. */
char *store_path(const char *dir, const char *label);

/* Append r to label's file, creating the directory and the file as needed:
 * the whole line written (a short write or EINTR continued), then
 * fdatasync, and the directory synced when the file is new; on any failure
 * the line is cut back off (a new file removed).  A record without an id
 * is given one (id=, 128 random bits in hex), unique to it wherever it is
 * copied.  Returns 0, or -1 with the reason in why. */
int store_append(const char *dir, const char *label, struct record *r, char *why, size_t len);
/* The same for a line already encoded (its '\n' included). */
int store_append_line(const char *dir, const char *label, const char *line, char *why,
		      size_t len);

/* Everything the results directory holds. */
struct store {
	struct run *runs;
	size_t nruns;
	struct record *envs; /* "env" records, one per session */
	size_t nenvs;
	size_t damaged;      /* lines reported and skipped */
	size_t duplicates;   /* records read before, from another file: skipped */
	size_t files;
};

/* Read every *.results file in dir; each damaged line is reported on stderr
 * with its file and line number and skipped.  Returns -1 with the reason in
 * why when the directory cannot be read. */
int store_read(const char *dir, struct store *st, char *why, size_t len);
/* The same over several results directories, into one store.  A record is
 * read once: one with an id once wherever it is, an older one without an
 * id once over the files (a file may hold a line twice). */
int store_read_dirs(char *const *dirs, size_t ndirs, struct store *st, char *why, size_t len);
void store_free(struct store *st);

/* What store_merge() did. */
struct store_merge {
	size_t files;        /* source files read */
	size_t copied;       /* records appended to DEST */
	size_t present;      /* records DEST held already (by id, or by their line) */
	size_t damaged;      /* source records that failed a check: reported, skipped */
	size_t damaged_dest; /* DEST's own damaged lines: reported, left as they are */
};

/* Copy every record of the srcs' results files that passes its checks
 * (the line's crc, a run that reads as one, a label) into dest, each as
 * it is, to its label's file, unless dest holds it already: by id, or for
 * older records by the whole line.  Merging again copies nothing.
 * Returns 0, or -1 with the reason in why (a directory that cannot be
 * read, an append that failed: what was copied before stays). */
int store_merge(char *const *srcs, size_t nsrcs, const char *dest, struct store_merge *m,
		char *why, size_t len);

/* What store_relabel() did. */
struct store_relabel {
	size_t found;        /* OLD's records of label OLD */
	size_t relabeled;    /* of them, written to NEW's file with label NEW */
	size_t present;      /* OLD's lines NEW's file held already (by id, or by line) */
	size_t others;       /* records of other labels in OLD's file: moved as they are */
	size_t damaged;      /* damaged lines of OLD's file: moved as they are, reported */
	int finished;        /* NEW held them all: a relabel cut short, finished */
};

/* Give the records of label old in dir the label new: every line of old's
 * file goes to new's file, a record of label old with label new and its
 * crc computed anew (its id and every other field kept), then old's file
 * is removed; under dir's lock, as a run takes it.  new's file is written
 * whole as a new file, synced and renamed into place, and only then is
 * old's file removed: stopped at any point, the records are under one
 * label or the other (both files, holding the same ids, are read once),
 * and running it again finishes it.  When new has a file already, old's
 * records it lacks are added to it with merge, else it is refused (unless
 * it holds them all: a relabel cut short).  The labels are not checked
 * here.  Returns 0; -2 with the reason in why when old has no file or no
 * record in dir, or new has one without merge; -1 with the reason in why
 * when a step failed (nothing lost). */
int store_relabel(const char *dir, const char *old, const char *new, int merge,
		  struct store_relabel *m, char *why, size_t len);

#endif
