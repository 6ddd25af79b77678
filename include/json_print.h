/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text or JSON output in the style of iproute2's json_print: each call
 * names what it prints for both modes; in JSON mode the key is used, in
 * text mode the printf format. Our own implementation (json_print.c).
 */
#ifndef SMC_JSON_PRINT_H
#define SMC_JSON_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

enum output_type {
	PRINT_FP = 1,	/* text mode only */
	PRINT_JSON = 2,	/* JSON mode only */
	PRINT_ANY = 4,	/* both */
};

/* Start output on stdout: with @json set, a top-level JSON array is opened
 * (pretty-printed when @pretty). delete_json_obj() closes it and ends
 * the output with a newline.
 */
void new_json_obj(int json, int pretty);
/* The same on @out (a file, open_memstream(), fopencookie()): the hook
 * through which a caller takes the output; json_out() returns it
 */
void new_json_obj_fp(int json, int pretty, FILE *out);
FILE *json_out(void);
void delete_json_obj(void);
bool is_json_context(void);

/* @key NULL inside an array; objects print nothing in text mode */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(enum output_type type, const char *key);
void close_json_array(enum output_type type, const char *delim);

/* @fmt is a printf format for the text mode; JSON escapes strings itself */
void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type type, const char *key, const char *fmt,
		unsigned int value);
void print_int(enum output_type type, const char *key, const char *fmt,
	       int value);
void print_u64(enum output_type type, const char *key, const char *fmt,
	       uint64_t value);
void print_s64(enum output_type type, const char *key, const char *fmt,
	       int64_t value);
/* JSON: %.15g, null when not finite */
void print_float(enum output_type type, const char *key, const char *fmt,
		 double value);
/* JSON: a string "0x..." (as iproute2's print_hex) */
void print_hex(enum output_type type, const char *key, const char *fmt,
	       unsigned int value);
void print_bool(enum output_type type, const char *key, const char *fmt,
		bool value);
void print_null(enum output_type type, const char *key, const char *fmt,
		const char *value);
/* text mode: a newline; JSON: nothing */
void print_nl(void);

#endif /* SMC_JSON_PRINT_H */
