// SPDX-License-Identifier: GPL-2.0
/*
 * graph_none.c - smc dump graph in an smc built without cairo
 * (HAVE_CAIRO=n, or cairo's pkg-config file not found by ./configure):
 * the command exists, and says what to install to get it.
 */
#include <stdio.h>

#include "smc.h"

int dump_graph(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"Error: smc dump graph is not available: this smc was built without cairo; install libcairo2-dev (and pkg-config) and build smc again.\n");
	return EXIT_FAIL;
}
