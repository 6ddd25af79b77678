// SPDX-License-Identifier: GPL-2.0
/*
 * words.c - shell-style word splitting and quoting (see words.h)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"

int words_add(struct words *w, const char *s, size_t len)
{
	char *d;

	if (w->n + 2 > w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		char **n = realloc(w->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		w->v = n;
		w->cap = cap;
	}
	d = strndup(s, len);
	if (!d)
		return -ENOMEM;
	w->v[w->n++] = d;
	w->v[w->n] = NULL;
	return 0;
}

void words_free(struct words *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* The rules are in words.h; an unterminated quote is -EINVAL */
int split_words(const char *s, struct words *w)
{
	size_t len = strlen(s), n = 0;
	bool inword = false;
	char *buf;
	int err = 0;

	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	while (*s && !err) {
		char ch = *s;

		if (ch == ' ' || ch == '\t' || ch == '\n') {
			if (inword)
				err = words_add(w, buf, n);
			inword = false;
			n = 0;
			s++;
			continue;
		}
		inword = true;
		if (ch == '\'') {
			const char *e = strchr(s + 1, '\'');

			if (!e) {
				err = -EINVAL;
				break;
			}
			memcpy(buf + n, s + 1, e - s - 1);
			n += e - s - 1;
			s = e + 1;
		} else if (ch == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1] && strchr("$`\"\\\n", s[1])) {
					s++;
					if (*s == '\n')
						continue;
				}
				buf[n++] = *s;
			}
			if (!*s) {
				err = -EINVAL;
				break;
			}
			s++;
		} else if (ch == '\\' && s[1]) {
			if (s[1] != '\n')
				buf[n++] = s[1];
			else if (n == 0)
				inword = false;
			s += 2;
		} else {
			buf[n++] = ch;
			s++;
		}
	}
	if (!err && inword)
		err = words_add(w, buf, n);
	free(buf);
	return err;
}

/* Print @arg to @f so that a shell reads it back as one word */
void print_quoted(FILE *f, const char *arg)
{
	const char *p;

	if (*arg && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") == strlen(arg)) {
		fputs(arg, f);
		return;
	}
	fputc('\'', f);
	for (p = arg; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

