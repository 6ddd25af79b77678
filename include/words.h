/* SPDX-License-Identifier: GPL-2.0 */
/*
 * words.h - an argument vector split from one string as a POSIX shell
 * splits a command line, and quoted back for display (lib/words.c).
 * smc dump start uses it for param 'TCPDUMP ARGS' and for tcpdump's
 * command line.
 */
#ifndef SMC_WORDS_H
#define SMC_WORDS_H

#include <stddef.h>
#include <stdio.h>

/**
 * struct words - a growing argument vector, NULL-terminated
 * @v: the words
 * @n: their number
 * @cap: room in @v, the NULL included
 *
 * A zeroed struct is an empty vector.
 */
struct words {
	char **v;
	int n;
	int cap;
};

/* words_add() - append the @len bytes at @s; 0 or -ENOMEM */
int words_add(struct words *w, const char *s, size_t len);

/* words_free() - free the words and leave @w empty */
void words_free(struct words *w);

/*
 * split_words() - append the words of @s to @w, split as a POSIX shell
 * splits a command line, quoting included and nothing expanded: blanks
 * separate words; '...' keeps everything; "..." keeps everything but \
 * before $ ` " \ and newline; outside quotes a backslash keeps the next
 * character (and removes a newline).
 *
 * Return: 0, -EINVAL for an unterminated quote, -ENOMEM.
 */
int split_words(const char *s, struct words *w);

/* print_quoted() - print @arg to @f so that a shell reads it back as one
 * word
 */
void print_quoted(FILE *f, const char *arg);

#endif /* SMC_WORDS_H */
