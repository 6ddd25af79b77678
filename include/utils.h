/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utils.h - what every object of the smc command uses (lib/utils.c), in
 * the sense iproute2's include/utils.h gives the same names: keyword
 * abbreviation, argument errors, exit codes, program search.
 */
#ifndef SMC_UTILS_H
#define SMC_UTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Exit status of the smc command and of each object's handler.
 * smc dump read/follow/stats add 3 (capture file cannot be read).
 */
#define EXIT_OK		0	/* success */
#define EXIT_FAIL	1	/* failure, reported on stderr */
#define EXIT_USAGE	2	/* usage error: unknown keyword, bad value */

/*
 * matches() - iproute2's abbreviation test
 * @prefix: what the user typed
 * @string: the full keyword
 *
 * Return: 0 when @prefix is a non-empty prefix of @string ("s", "st" and
 * "stats" all match "stats"), non-zero otherwise; as iproute2's matches()
 * and strcmp(), so `if (matches(arg, "show") == 0)` reads "arg is show".
 */
int matches(const char *prefix, const char *string);

/*
 * struct cmd - one command of an object (or one object of smc), for
 * cmd_select(); a table of them ends with an entry whose @name is NULL
 * @name: the command word
 * @func: its handler: @argc and @argv are the arguments after the word,
 *	or from the word on with CMD_KEEP; in the end entry, NULL or the
 *	handler of a word that is no command (cmd_select() passes it all)
 * @flags: CMD_EXACT, the word is not abbreviated; CMD_KEEP, @func gets
 *	the word as argv[0] (a first argument that means "show")
 */
struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	unsigned int flags;
};

#define CMD_EXACT	0x1
#define CMD_KEEP	0x2

/*
 * cmd_select() - run the command argv[0] names, as bpftool's cmd_select()
 * and iproute2's if/else chains of matches() do
 * @cmds: the object's table; the first entry argv[0] abbreviates (the
 *	whole word for CMD_EXACT) wins, so table order is the order of
 *	precedence
 * @argc, @argv: the arguments after the object, argv[0] the command; no
 *	argument at all runs the first entry with none
 * @object: the object's name for the messages, "pnet"
 * @usage: prints the object's usage on the stream given
 *
 * "help", and any abbreviation of it, comes before the table: @usage on
 * stdout. A word that is no command goes to the end entry's handler, or
 * without one is 'Command "WORD" is unknown, try "smc OBJECT help".' on
 * stderr.
 *
 * Return: the handler's return, EXIT_OK for help, EXIT_USAGE for a word
 * that is no command.
 */
int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       const char *object, void (*usage)(FILE *fp));

/*
 * invarg() - report an invalid argument: 'Error: argument "ARG" is wrong:
 * MSG' on stderr
 *
 * Return: EXIT_USAGE.
 */
int invarg(const char *msg, const char *arg);

/*
 * duparg() - report a keyword given twice: 'Error: duplicate "KEY":
 * "ARG" is the second value.' on stderr
 *
 * Return: EXIT_USAGE.
 */
int duparg(const char *key, const char *arg);

/*
 * invalid_rule() - report an argument that breaks a rule: 'Error: WHAT
 * "ARG" is invalid: RULE[, not C at position N]' on stderr, @arg with
 * control and non-ASCII bytes (and '"', '\\') as \xNN, C as 'c' or as
 * "byte 0xNN"
 * @pos: index of the offending byte in @arg, or (size_t)-1 for none
 *
 * Return: EXIT_USAGE.
 */
int invalid_rule(const char *what, const char *arg, const char *rule,
		 size_t pos);

/*
 * next_arg() - iproute2's NEXT_ARG(): step from a keyword to its value
 * @argcp, @argvp: the arguments left, (*@argvp)[0] the keyword
 * @object: the smc object for the hint, "device" in 'try "smc device
 *	help"'
 *
 * Return: 0 with *@argcp and *@argvp stepped onto the value; EXIT_USAGE
 * when the keyword is the last argument, after 'Error: "KEYWORD" needs an
 * argument, try "smc OBJECT help".' on stderr (*@argcp, *@argvp
 * unchanged).
 */
int next_arg(int *argcp, char ***argvp, const char *object);

/*
 * get_u64(), get_u32(), get_u16() - iproute2's get_uN(): the
 * unsigned number @arg is, read as strtoull() does in @base (0: "0x" hex,
 * "0" octal, else decimal; leading white space and a '+' allowed)
 * @val: where the number goes, 8, 4 or 2 bytes; unchanged on error
 *
 * Return: 0, or -1 without a message when @arg is empty, has anything
 * after the digits, is negative (a '-' sign, "-0" included) or does not
 * fit in @val; the caller reports the error in its own words.
 */
int get_u64(uint64_t *val, const char *arg, int base);
int get_u32(uint32_t *val, const char *arg, int base);
int get_u16(uint16_t *val, const char *arg, int base);

/* get_hex() - value of hex digit @c, -1 when it is none */
int get_hex(char c);

/* now_ms() - CLOCK_MONOTONIC in milliseconds */
long long now_ms(void);

/*
 * find_in_path() - find @prog as execvp() would: a name with a '/' as
 * given, else in each directory of $PATH (unset: /usr/local/bin:/usr/bin:
 * /bin; an empty entry is the current directory)
 * @out: the path found, @size bytes
 *
 * Return: true when an executable regular file was found.
 */
bool find_in_path(const char *prog, char *out, size_t size);

/*
 * smc_no_smc_advice() - the end of an error message for a kernel that
 * offers no SMC: "load the smc module (modprobe smc)" where the running
 * kernel has one (loaded, or named by /lib/modules/RELEASE/modules.dep or
 * modules.builtin), what to boot instead where both files name none (a
 * kernel built without CONFIG_SMC, as Debian's 7.x kernels are), and
 * "load the smc module or use a kernel with CONFIG_SMC" where neither is
 * known. SMC_DUMP_MODULES_DIR replaces /lib/modules/RELEASE (tests).
 */
const char *smc_no_smc_advice(void);

/* smc_module_absent() - true when smc_no_smc_advice() found no smc module */
bool smc_module_absent(void);

#endif /* SMC_UTILS_H */
