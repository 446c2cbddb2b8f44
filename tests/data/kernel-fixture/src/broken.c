/* SPDX-License-Identifier: GPL-2.0-or-later */
/* broken.c - a syntax error, for the tests of a build that fails. */
int broken(void)
{
	return 1
}
