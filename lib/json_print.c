// SPDX-License-Identifier: GPL-2.0
/*
 * json_print.c - text or JSON output, iproute2 style (see json_print.h)
 *
 * A small JSON writer of our own: it keeps a stack of the open containers
 * to place commas, escapes strings (RFC 8259) and, in pretty mode, puts
 * each member on its own line indented by four blanks per level.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_print.h"

#define JSON_MAX_DEPTH 64

struct json_level {
	bool is_array;		/* array, else object */
	unsigned int count;	/* members written so far */
};

static struct {
	FILE *out;		/* new_json_obj_fp()'s stream, NULL: stdout */
	bool active;		/* new_json_obj(1, ...) was called */
	bool pretty;
	int depth;		/* open containers, the top array included */
	struct json_level level[JSON_MAX_DEPTH];
} jw;

/* the output stream: stdout until new_json_obj_fp() names another */
#define JW_OUT	(jw.out ? jw.out : stdout)

static void jw_indent(void)
{
	int i;

	if (!jw.pretty)
		return;
	putc('\n', JW_OUT);
	for (i = 0; i < jw.depth; i++)
		fputs("    ", JW_OUT);
}

/* Write @s as a JSON string, quotes included. Control characters are
 * escaped; bytes that are not part of valid UTF-8 are taken as Latin-1
 * and written as \u00XX so that the output is always valid UTF-8.
 */
static void jw_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', JW_OUT);
	while (*p) {
		unsigned char c = *p;
		int n = 0, i;

		switch (c) {
		case '"':
			fputs("\\\"", JW_OUT);
			p++;
			continue;
		case '\\':
			fputs("\\\\", JW_OUT);
			p++;
			continue;
		case '\b':
			fputs("\\b", JW_OUT);
			p++;
			continue;
		case '\f':
			fputs("\\f", JW_OUT);
			p++;
			continue;
		case '\n':
			fputs("\\n", JW_OUT);
			p++;
			continue;
		case '\r':
			fputs("\\r", JW_OUT);
			p++;
			continue;
		case '\t':
			fputs("\\t", JW_OUT);
			p++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(JW_OUT, "\\u%04x", c);
			p++;
			continue;
		}
		if (c < 0x80) {
			putc(c, JW_OUT);
			p++;
			continue;
		}
		/* multi-byte UTF-8: lead byte, then 1 to 3 continuation bytes;
		 * reject overlong forms, surrogates and code points > U+10FFFF
		 */
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		for (i = 1; i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (n == 2 && ((c == 0xe0 && p[1] < 0xa0) ||
			       (c == 0xed && p[1] > 0x9f)))
			n = 0;
		if (n == 3 && ((c == 0xf0 && p[1] < 0x90) ||
			       (c == 0xf4 && p[1] > 0x8f)))
			n = 0;
		if (!n) {
			fprintf(JW_OUT, "\\u%04x", c);
			p++;
			continue;
		}
		fwrite(p, 1, n + 1, JW_OUT);
		p += n + 1;
	}
	putc('"', JW_OUT);
}

/* Begin a new value in the current container: comma, line break and
 * indentation as needed, and "key": when the container is an object.
 */
static void jw_member(const char *key)
{
	struct json_level *l = jw.depth ? &jw.level[jw.depth - 1] : NULL;

	if (!l)
		return;
	if (l->count++)
		putc(',', JW_OUT);
	jw_indent();
	if (!l->is_array) {
		jw_string(key ? key : "");
		fputs(jw.pretty ? ": " : ":", JW_OUT);
	}
}

static void jw_open(const char *key, bool is_array)
{
	jw_member(key);
	putc(is_array ? '[' : '{', JW_OUT);
	if (jw.depth < JSON_MAX_DEPTH) {
		jw.level[jw.depth].is_array = is_array;
		jw.level[jw.depth].count = 0;
	}
	jw.depth++;
}

static void jw_close(void)
{
	bool is_array, empty;

	if (!jw.depth)
		return;
	if (jw.depth <= JSON_MAX_DEPTH) {
		is_array = jw.level[jw.depth - 1].is_array;
		empty = !jw.level[jw.depth - 1].count;
	} else {
		is_array = false;
		empty = false;
	}
	jw.depth--;
	if (!empty)
		jw_indent();
	putc(is_array ? ']' : '}', JW_OUT);
}

static bool json_ctx(enum output_type type)
{
	return jw.active && (type & (PRINT_JSON | PRINT_ANY));
}

static bool text_ctx(enum output_type type)
{
	return !jw.active && (type & (PRINT_FP | PRINT_ANY)) != 0;
}

/* printf for the text mode: a NULL @fmt prints nothing */
static void __attribute__((format(printf, 1, 2))) text(const char *fmt, ...)
{
	va_list ap;

	if (!fmt)
		return;
	va_start(ap, fmt);
	vfprintf(JW_OUT, fmt, ap);
	va_end(ap);
}

/* The format strings come from the callers, as in iproute2. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* @v in decimal at the end of @buf (24 bytes); returns its first digit */
static char *fmt_u64(char *end, uint64_t v)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

static void put_u64(uint64_t v)
{
	char buf[24], *p = fmt_u64(buf + sizeof(buf), v);

	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), JW_OUT);
}

/* text() for a format "prefix%Xsuffix" with one plain conversion and no
 * other '%' (most of ours): the same bytes without vfprintf()'s cost,
 * which dominates a report of many connections. With @str the
 * conversion must be %s and @s is printed, else %u, %lu or %llu and @v.
 * Returns false, having printed nothing, for any other format.
 */
static bool text_plain(const char *fmt, bool str, const char *s, uint64_t v)
{
	char buf[256], num[24], *d = buf;
	const char *f = fmt, *ins;
	size_t n;

	while (*f && *f != '%')
		f++;
	if (!*f)
		return false;
	n = (size_t)(f - fmt);
	f++;
	if (str) {
		if (*f++ != 's')
			return false;
		ins = s;
	} else {
		if (*f == 'l')
			f++;
		if (*f == 'l')
			f++;
		if (*f++ != 'u')
			return false;
		ins = fmt_u64(num + sizeof(num) - 1, v);
		num[sizeof(num) - 1] = '\0';
	}
	if (strchr(f, '%'))
		return false;
	if (n + strlen(ins) + strlen(f) >= sizeof(buf)) {
		fwrite_unlocked(fmt, 1, n, JW_OUT);
		fputs_unlocked(ins, JW_OUT);
		fputs_unlocked(f, JW_OUT);
		return true;
	}
	memcpy(d, fmt, n);
	d += n;
	d = stpcpy(d, ins);
	d = stpcpy(d, f);
	fwrite_unlocked(buf, 1, (size_t)(d - buf), JW_OUT);
	return true;
}

static void text_num(const char *fmt, uint64_t v, bool is64)
{
	if (!fmt || text_plain(fmt, false, NULL, v))
		return;
	if (is64)
		text(fmt, v);
	else
		text(fmt, (unsigned int)v);
}

static void text_str(const char *fmt, const char *v)
{
	if (fmt && !text_plain(fmt, true, v, 0))
		text(fmt, v);
}

/**
 * new_json_obj_fp() - start the output on a stream of the caller's
 * @json: nonzero for JSON: a top-level array is opened
 * @pretty: nonzero to indent the JSON output
 * @out: where text and JSON go until the next new_json_obj*() (a file,
 *	or open_memstream() or fopencookie() to hand it to code of the
 *	caller's); the caller flushes and closes it
 *
 * In text mode nothing is written yet. Cannot fail; write errors show in
 * ferror(@out).
 */
void new_json_obj_fp(int json, int pretty, FILE *out)
{
	memset(&jw, 0, sizeof(jw));
	jw.out = out;
	if (!json)
		return;
	jw.active = true;
	jw.pretty = pretty != 0;
	jw_open(NULL, true);
}

/**
 * new_json_obj() - start the output on stdout: new_json_obj_fp() with
 *	stdout
 * @json: nonzero for JSON
 * @pretty: nonzero to indent the JSON output
 */
void new_json_obj(int json, int pretty)
{
	new_json_obj_fp(json, pretty, stdout);
}

/**
 * json_out() - the stream of the output (new_json_obj_fp())
 *
 * Return: the stream, stdout before any new_json_obj*().
 */
FILE *json_out(void)
{
	return JW_OUT;
}

/**
 * delete_json_obj() - end the output started by new_json_obj()
 *
 * Closes every container still open, the top-level array last, and ends
 * the JSON text with a newline. Does nothing in text mode.
 */
void delete_json_obj(void)
{
	if (!jw.active)
		return;
	while (jw.depth)
		jw_close();
	putc('\n', JW_OUT);
	jw.active = false;
}

/**
 * is_json_context() - whether the output is JSON
 *
 * Return: true between new_json_obj(1, ...) and delete_json_obj().
 */
bool is_json_context(void)
{
	return jw.active;
}

/**
 * open_json_object() - JSON only: open an object
 * @key: member name inside an object, NULL inside an array
 */
void open_json_object(const char *key)
{
	if (jw.active)
		jw_open(key, false);
}

/**
 * close_json_object() - JSON only: close the object opened last
 */
void close_json_object(void)
{
	if (jw.active)
		jw_close();
}

/**
 * open_json_array() - open an array (JSON) or print @key (text)
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: member name in JSON, NULL inside an array; printed as is in text
 *	mode (as iproute2 does)
 */
void open_json_array(enum output_type type, const char *key)
{
	if (json_ctx(type))
		jw_open(key, true);
	else if (text_ctx(type) && key)
		fputs(key, JW_OUT);
}

/**
 * close_json_array() - close the array opened last (JSON) or print
 *	@delim (text)
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @delim: text printed as is in text mode, may be NULL
 */
void close_json_array(enum output_type type, const char *delim)
{
	if (json_ctx(type))
		jw_close();
	else if (text_ctx(type) && delim)
		fputs(delim, JW_OUT);
}

/**
 * print_string() - print a string
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %s
 * @value: the string; NULL is JSON null and "" in text mode
 */
void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value)
{
	if (json_ctx(type)) {
		jw_member(key);
		if (value)
			jw_string(value);
		else
			fputs("null", JW_OUT);
	} else if (text_ctx(type)) {
		text_str(fmt, value ? value : "");
	}
}

/**
 * print_uint() - print an unsigned number
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %u
 * @value: the number
 */
void print_uint(enum output_type type, const char *key, const char *fmt,
		unsigned int value)
{
	if (json_ctx(type)) {
		jw_member(key);
		put_u64(value);
	} else if (text_ctx(type)) {
		text_num(fmt, value, false);
	}
}

/**
 * print_int() - print a signed number
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %d
 * @value: the number
 */
void print_int(enum output_type type, const char *key, const char *fmt,
	       int value)
{
	if (json_ctx(type)) {
		jw_member(key);
		fprintf(JW_OUT, "%d", value);
	} else if (text_ctx(type)) {
		text(fmt, value);
	}
}

/**
 * print_s64() - print a signed 64-bit number
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %" PRId64 " (or %lld)
 * @value: the number; JSON carries all 64 bits and the sign
 */
void print_s64(enum output_type type, const char *key, const char *fmt,
	       int64_t value)
{
	if (json_ctx(type)) {
		jw_member(key);
		fprintf(JW_OUT, "%" PRId64, value);
	} else if (text_ctx(type)) {
		text(fmt, value);
	}
}

/**
 * print_u64() - print an unsigned 64-bit number
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %" PRIu64 " (or %llu)
 * @value: the number; JSON carries all 64 bits as an integer literal
 */
void print_u64(enum output_type type, const char *key, const char *fmt,
	       uint64_t value)
{
	if (json_ctx(type)) {
		jw_member(key);
		put_u64(value);
	} else if (text_ctx(type)) {
		text_num(fmt, value, true);
	}
}

/**
 * print_float() - print a real number
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %f (or %.2f, %g ...)
 * @value: the number; JSON has it with 15 significant digits (%.15g),
 *	or null when it is not finite
 */
void print_float(enum output_type type, const char *key, const char *fmt,
		 double value)
{
	char buf[40];

	if (json_ctx(type)) {
		jw_member(key);
		if (value != value || value > 1e308 || value < -1e308)
			snprintf(buf, sizeof(buf), "null");
		else
			snprintf(buf, sizeof(buf), "%.15g", value);
		fputs(buf, JW_OUT);
	} else if (text_ctx(type)) {
		text(fmt, value);
	}
}

/**
 * print_hex() - print a number in hex
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %x (or %#x, %08x ...)
 * @value: the number; JSON has it as the string "0x..." (lower case)
 */
void print_hex(enum output_type type, const char *key, const char *fmt,
	       unsigned int value)
{
	char buf[16];

	if (json_ctx(type)) {
		jw_member(key);
		snprintf(buf, sizeof(buf), "0x%x", value);
		jw_string(buf);
	} else if (text_ctx(type)) {
		text(fmt, value);
	}
}

/**
 * print_bool() - print a boolean
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %s that gets "true" or
 *	"false"
 * @value: the boolean; JSON true or false
 */
void print_bool(enum output_type type, const char *key, const char *fmt,
		bool value)
{
	if (json_ctx(type)) {
		jw_member(key);
		fputs(value ? "true" : "false", JW_OUT);
	} else if (text_ctx(type)) {
		text(fmt, value ? "true" : "false");
	}
}

/**
 * print_null() - print JSON null, or @value in text mode
 * @type: PRINT_JSON, PRINT_FP or PRINT_ANY
 * @key: JSON member name (NULL inside an array)
 * @fmt: printf format for text mode, with one %s
 * @value: the text shown in text mode
 */
void print_null(enum output_type type, const char *key, const char *fmt,
		const char *value)
{
	if (json_ctx(type)) {
		jw_member(key);
		fputs("null", JW_OUT);
	} else if (text_ctx(type)) {
		text(fmt, value ? value : "");
	}
}

/**
 * print_nl() - end a line in text mode; nothing in JSON mode
 */
void print_nl(void)
{
	if (!jw.active)
		putc('\n', JW_OUT);
}
