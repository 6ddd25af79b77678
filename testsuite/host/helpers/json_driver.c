// SPDX-License-Identifier: GPL-2.0
/*
 * json_driver.c - drive smc/json_print.c from the command line (host tests
 * only, not shipped)
 *
 * Usage: json_driver [-j] [-p] OP...
 *   {KEY  open_json_object(KEY)      }   close_json_object()
 *   [KEY  open_json_array(PRINT_ANY, KEY)
 *   ]     close_json_array(PRINT_ANY, "]")
 *   s:KEY=VALUE  print_string(PRINT_ANY, KEY, "<%s>", VALUE)
 *   u:KEY=N      print_uint     i:KEY=N  print_int     U:KEY=N  print_u64
 *   x:KEY=N      print_hex      b:KEY=0|1 print_bool   n:KEY=T  print_null
 *   J:KEY=VALUE  print_string(PRINT_JSON, ...)   F:KEY=VALUE  PRINT_FP
 *   nl           print_nl()
 * KEY empty means NULL. \xHH in VALUE is the byte HH, so that tests can
 * pass any byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"

static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	unsigned int b;

	if (!out)
		exit(99);
	while (*s) {
		if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &b) == 1) {
			*o++ = (char)b;
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

int main(int argc, char **argv)
{
	int json = 0, pretty = 0, i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-j"))
			json = 1;
		else if (!strcmp(argv[i], "-p"))
			pretty = 1;
	}
	new_json_obj(json, pretty);
	for (; i < argc; i++) {
		char *op = argv[i], *key = NULL, *val = NULL, *eq;

		if (op[0] == '{' || op[0] == '[') {
			key = op[1] ? op + 1 : NULL;
			if (op[0] == '{')
				open_json_object(key);
			else
				open_json_array(PRINT_ANY, key);
			continue;
		}
		if (!strcmp(op, "}")) {
			close_json_object();
			continue;
		}
		if (!strcmp(op, "]")) {
			close_json_array(PRINT_ANY, "]");
			continue;
		}
		if (!strcmp(op, "nl")) {
			print_nl();
			continue;
		}
		eq = strchr(op, '=');
		if (strlen(op) < 2 || op[1] != ':' || !eq)
			return 99;
		*eq = '\0';
		key = op[2] ? op + 2 : NULL;
		val = unescape(eq + 1);
		switch (op[0]) {
		case 's':
			print_string(PRINT_ANY, key, "<%s>", val);
			break;
		case 'J':
			print_string(PRINT_JSON, key, "<%s>", val);
			break;
		case 'F':
			print_string(PRINT_FP, key, "<%s>", val);
			break;
		case 'u':
			print_uint(PRINT_ANY, key, "<%u>",
				   (unsigned int)strtoul(val, NULL, 0));
			break;
		case 'i':
			print_int(PRINT_ANY, key, "<%d>",
				  (int)strtol(val, NULL, 0));
			break;
		case 'U':
			print_u64(PRINT_ANY, key, "<%llu>",
				  strtoull(val, NULL, 0));
			break;
		case 'x':
			print_hex(PRINT_ANY, key, "<%x>",
				  (unsigned int)strtoul(val, NULL, 0));
			break;
		case 'b':
			print_bool(PRINT_ANY, key, "<%s>", atoi(val) != 0);
			break;
		case 'n':
			print_null(PRINT_ANY, key, "<%s>", val);
			break;
		default:
			return 99;
		}
		free(val);
	}
	delete_json_obj();
	return 0;
}
