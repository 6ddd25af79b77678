// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: placeholder until the decoder lands.
 */
#include <stdio.h>

#include "smc.h"

int do_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "smc dump: not implemented yet\n");
	return 1;
}
