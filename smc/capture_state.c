// SPDX-License-Identifier: GPL-2.0
/*
 * capture_state.c - the state of a capture in its link's alias (see
 * capture_state.h and Documentation/capture.md)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_state.h"
#include "proc.h"
#include "utils.h"

const char *const cap_mode_names[CAP_MODE_N] = {
	"all", "smc", "smcr", "smcd"
};

/* enum smc_dummy_capture, enum smc_dummy_mode */
const char *const cap_type_names[] = { "all", "raw", "cdc", "llc" };
const size_t cap_type_count = ARRAY_SIZE(cap_type_names);
const char *const link_mode_names[] = { "smc", "smcr", "smcd" };
const size_t link_mode_count = ARRAY_SIZE(link_mode_names);

int cap_name_index(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* Append " KEY=VALUE" to @buf, VALUE with blanks, '%' and control bytes
 * as %XX. False when it does not fit in @size (then @buf is unchanged).
 */
static bool alias_put(char *buf, size_t size, const char *key,
		      const char *value)
{
	static const char hx[] = "0123456789ABCDEF";
	size_t n = strlen(buf), o = n;
	const unsigned char *p;

	n += snprintf(buf + n, size > n ? size - n : 0, " %s=", key);
	for (p = (const unsigned char *)value; *p && n + 4 < size; p++) {
		if (*p <= ' ' || *p == '%' || *p >= 0x7f) {
			buf[n++] = '%';
			buf[n++] = hx[*p >> 4];
			buf[n++] = hx[*p & 15];
		} else {
			buf[n++] = (char)*p;
		}
	}
	if (n >= size || *p) {
		buf[o] = '\0';
		return false;
	}
	buf[n] = '\0';
	return true;
}

/* Undo the %XX of alias_put() from @s (length @len) into @out */
static void alias_unescape(const char *s, size_t len, char *out,
			   size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < size; i++) {
		int hi = -1, lo = -1;

		if (s[i] == '%' && i + 2 < len) {
			hi = get_hex(s[i + 1]);
			lo = get_hex(s[i + 2]);
		}
		if (hi >= 0 && lo >= 0) {
			out[n++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			out[n++] = s[i];
		}
	}
	out[n] = '\0';
}

int capture_state_format(char *alias, size_t size,
			 const struct capture_state *st)
{
	char num[32];
	int left_out = 0;

	snprintf(alias, size, "%s pid=%d start=%llu", CAPTURE_ALIAS_TAG,
		 (int)st->pid, st->start);
	alias_put(alias, size, "mode", cap_mode_names[st->mode]);
	alias_put(alias, size, "type", cap_type_names[st->type]);
	snprintf(num, sizeof(num), "%u", st->snaplen);
	alias_put(alias, size, "snaplen", num);
	if (st->bpf)
		alias_put(alias, size, "backend", "bpf");
	if (st->tpid) {
		snprintf(num, sizeof(num), "%d", (int)st->tpid);
		alias_put(alias, size, "tpid", num);
		snprintf(num, sizeof(num), "%llu", st->tstart);
		alias_put(alias, size, "tstart", num);
	}
	if (st->log[0] && !alias_put(alias, size, "log", st->log))
		left_out |= CAPTURE_STATE_NO_LOG;
	if (st->file[0] && !alias_put(alias, size, "file", st->file))
		left_out |= CAPTURE_STATE_NO_FILE;
	if (st->filter[0] && !alias_put(alias, size, "filter", st->filter))
		left_out |= CAPTURE_STATE_NO_FILTER;
	return left_out;
}

void capture_state_parse(const char *alias, struct capture_state *ow)
{
	const char *p = alias;
	char val[RTNL_ALIAS_SIZE];

	memset(ow, 0, sizeof(*ow));
	ow->mode = -1;
	ow->type = -1;
	if (strncmp(p, CAPTURE_ALIAS_TAG " ", strlen(CAPTURE_ALIAS_TAG) + 1))
		return;
	p += strlen(CAPTURE_ALIAS_TAG);
	while (*p == ' ') {
		const char *k = ++p, *eq, *e;

		e = p + strcspn(p, " ");
		eq = memchr(k, '=', e - k);
		p = e;
		if (!eq)
			continue;
		alias_unescape(eq + 1, e - eq - 1, val, sizeof(val));
#define KEY(s) ((size_t)(eq - k) == strlen(s) && !strncmp(k, s, eq - k))
		if (KEY("pid"))
			ow->pid = (pid_t)strtol(val, NULL, 10);
		else if (KEY("start"))
			ow->start = strtoull(val, NULL, 10);
		else if (KEY("mode"))
			ow->mode = cap_name_index(cap_mode_names, CAP_MODE_N,
						  val);
		else if (KEY("type"))
			ow->type = cap_name_index(cap_type_names,
						  cap_type_count, val);
		else if (KEY("snaplen"))
			ow->snaplen = (unsigned int)strtoul(val, NULL, 10);
		else if (KEY("backend"))
			ow->bpf = !strcmp(val, "bpf");
		else if (KEY("tpid"))
			ow->tpid = (pid_t)strtol(val, NULL, 10);
		else if (KEY("tstart"))
			ow->tstart = strtoull(val, NULL, 10);
		else if (KEY("log"))
			snprintf(ow->log, sizeof(ow->log), "%s", val);
		else if (KEY("file"))
			snprintf(ow->file, sizeof(ow->file), "%s", val);
		else if (KEY("filter"))
			snprintf(ow->filter, sizeof(ow->filter), "%s", val);
#undef KEY
	}
	ow->valid = ow->pid > 0;
}

bool capture_alive(const struct capture_state *ow)
{
	return ow->valid && proc_alive(ow->pid, ow->start);
}

bool capture_orphan_tcpdump(const struct capture_state *ow)
{
	return ow->valid && ow->tpid && !capture_alive(ow) &&
	       proc_alive(ow->tpid, ow->tstart);
}

int capture_list(struct rtnl *rt, struct rtnl_link **links,
		 struct capture_state **owners)
{
	int n, i, err;

	err = rtnl_open(rt);
	if (err) {
		fprintf(stderr, "Error: cannot open rtnetlink: %s\n",
			strerror(-err));
		return err;
	}
	n = rtnl_smc_dummy_list(rt, links);
	if (n < 0) {
		fprintf(stderr, "Error: cannot list the links: %s\n",
			strerror(-n));
		rtnl_close(rt);
		return n;
	}
	*owners = calloc(n ? n : 1, sizeof(**owners));
	if (!*owners) {
		free(*links);
		rtnl_close(rt);
		fprintf(stderr, "Error: out of memory\n");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		capture_state_parse((*links)[i].alias, &(*owners)[i]);
	return n;
}
