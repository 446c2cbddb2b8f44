/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-compare.c - contest compare: the configuration file and the order. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/compare.h"
#include "tap.h"

/* Parse text as FILE; the error in why, or "" */
static int parse(struct comparison *c, const char *text, char *why, size_t len)
{
	memset(c, 0, sizeof(*c));
	why[0] = '\0';
	return compare_parse(c, "FILE", text, why, len);
}

static void good_file(void)
{
	struct comparison c;
	char why[512];

	ok(parse(&c, "# two schedulers\n\n[eevdf]\n[bfq]\n"
		 "setup = echo bfq > /sys/block/vda/queue/scheduler\n"
		 "  undo\t=  echo mq-deadline > /sys/block/vda/queue/scheduler  \n"
		 "check = grep -q '\\[bfq\\]' /sys/block/vda/queue/scheduler\n"
		 "; a comment too\n", why, sizeof(why)) == 0, "the issue's example parses: %s", why);
	ok(c.n == 2, "two configurations");
	is_str(c.cfgs[0].label, "eevdf", "the first is eevdf");
	ok(!c.cfgs[0].setup && !c.cfgs[0].undo && !c.cfgs[0].check, "with no commands");
	is_str(c.cfgs[1].label, "bfq", "the second is bfq");
	is_str(c.cfgs[1].setup, "echo bfq > /sys/block/vda/queue/scheduler", "its setup");
	is_str(c.cfgs[1].undo, "echo mq-deadline > /sys/block/vda/queue/scheduler",
	       "its undo, the blanks around it trimmed");
	is_str(c.cfgs[1].check, "grep -q '\\[bfq\\]' /sys/block/vda/queue/scheduler",
	       "its check, = inside the command kept");
	is_str(c.cfgs[1].where, "FILE:4", "where its section is");
	compare_free(&c);

	ok(parse(&c, "[a]\nsetup = x=1 y=2\n[b]\r\n", why, sizeof(why)) == 0,
	   "an = in a command, CRLF: %s", why);
	is_str(c.cfgs[0].setup, "x=1 y=2", "the command after the first = whole");
	is_str(c.cfgs[1].label, "b", "a CRLF line end is no part of the label");
	compare_free(&c);
}

static void bad_file(const char *text, const char *want)
{
	struct comparison c;
	char why[512];

	ok(parse(&c, text, why, sizeof(why)) != 0 && strstr(why, want),
	   "refused with '%s'", want);
	if (!strstr(why, want))
		printf("#   got: '%s'\n", why);
	compare_free(&c);
}

static void bad_files(void)
{
	bad_file("", "two configurations or more, not 0");
	bad_file("[only]\nsetup = true\n", "two configurations or more, not 1");
	bad_file("setup = true\n[a]\n[b]\n", "FILE:1: 'setup' before the first [LABEL]");
	bad_file("[a]\n[b]\nsetp = true\n", "FILE:3: unknown key 'setp' (setup, undo or check)");
	bad_file("[a]\nsetup = true\nsetup = false\n[b]\n", "FILE:3: a second setup for [a]");
	bad_file("[a]\ncheck =\n[b]\n", "FILE:2: check without a command");
	bad_file("[a]\n[b\n", "FILE:2: a section is [LABEL] alone on its line");
	bad_file("[a] x\n[b]\n", "FILE:1: a section is [LABEL] alone on its line");
	bad_file("[]\n[b]\n", "FILE:1: a section without a label");
	bad_file("[a]\njust words\n[b]\n", "FILE:2: not KEY = COMMAND nor [LABEL]: 'just words'");
	bad_file("[a]\n\n[b]\n[a]\n", "FILE:4: configuration 'a' again (first at FILE:1)");
	bad_file("[a b]\n[c]\n", "FILE:1: bad label 'a b'");
}

/* Every configuration once per row; over whole rows each runs first as
 * often as any other, and each directly follows every other alike. */
static void check_order(size_t n, uint64_t seed)
{
	struct comparison c;
	size_t first[8] = { 0 }, follows[8][8] = { { 0 } };
	int once = 1, balanced = 1, carry = 1;

	memset(&c, 0, sizeof(c));
	c.n = n;
	compare_plan_order(&c, seed);
	ok(c.nrows == (n % 2 ? 2 * n : n), "%zu configurations, seed %llu: %zu rows", n,
	   (unsigned long long)seed, c.nrows);
	for (uint64_t r = 1; r <= c.nrows; r++) {
		size_t seen[8] = { 0 };

		for (size_t k = 0; k < n; k++) {
			size_t i = compare_at(&c, r, k);

			seen[i]++;
			if (k == 0)
				first[i]++;
			else
				follows[compare_at(&c, r, k - 1)][i]++;
		}
		for (size_t i = 0; i < n; i++)
			once &= seen[i] == 1;
	}
	for (size_t i = 0; i < n; i++) {
		balanced &= first[i] == c.nrows / n;
		for (size_t j = 0; j < n; j++)
			if (i != j)
				carry &= follows[i][j] == follows[0][1];
	}
	ok(once, "every row runs each configuration once");
	ok(balanced, "each runs first in as many rows");
	ok(carry, "each follows each other one as often");
	c.n = 0;
	compare_free(&c);
}

static void order(void)
{
	struct comparison c;
	char got[64] = "";

	memset(&c, 0, sizeof(c));
	c.n = 2;
	compare_plan_order(&c, 0);
	for (uint64_t r = 1; r <= 4; r++)
		for (size_t k = 0; k < 2; k++)
			strcat(got, compare_at(&c, r, k) ? "B" : "A");
	is_str(got, "ABBAABBA", "two configurations, seed 0: ABBA ABBA");
	c.n = 0;
	compare_free(&c);
	for (size_t n = 2; n <= 7; n++) {
		check_order(n, 0);
		check_order(n, 12345);
	}
	{
		struct comparison a, b;
		int same = 1, differ = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.n = b.n = 4;
		compare_plan_order(&a, 7);
		compare_plan_order(&b, 7);
		for (uint64_t r = 1; r <= 4; r++)
			for (size_t k = 0; k < 4; k++)
				same &= compare_at(&a, r, k) == compare_at(&b, r, k);
		compare_plan_order(&b, 8);
		for (uint64_t r = 1; r <= 4; r++)
			for (size_t k = 0; k < 4; k++)
				differ |= compare_at(&a, r, k) != compare_at(&b, r, k);
		ok(same, "the same seed gives the same order");
		ok(differ, "another seed another order");
		a.n = b.n = 0;
		compare_free(&a);
		compare_free(&b);
	}
}

int main(void)
{
	good_file();
	bad_files();
	order();
	return tap_done();
}
