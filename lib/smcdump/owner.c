// SPDX-License-Identifier: GPL-2.0
/*
 * owner.c - the context file of a capture (FILE.ctx, written by the
 * collector of smc dump start or smc dump context; format in
 * Documentation/capture.md, "Connection context"): one JSON object per
 * line with a connection's token, ends, and the process, network
 * namespace and cgroup that held its socket. read -d, stats and analyze
 * print them beside each connection that matches a line.
 *
 * Each line is a flat object of strings, numbers and nulls; a line that
 * is not, or lacks what a match needs, is reported on stderr with its
 * number and left out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_print.h"
#include "smcdump.h"

/* One line of the file */
struct dump_owner {
	bool has_token;
	uint32_t token;
	int family;		/* of the addresses; 0: none given */
	uint8_t laddr[16], raddr[16];
	bool has_ports;
	uint16_t lport, rport;
	long long pid;
	char *comm;		/* NULL: unknown */
	bool has_netns;
	unsigned long long netns;
	char *cgroup;		/* NULL: unknown */
};

struct dump_owners {
	struct dump_owner *v;
	size_t n;
	unsigned int bad;
};

/* ---- a flat JSON object ---- */

struct jval {
	enum { JV_NULL, JV_STR, JV_NUM } type;
	char *str;		/* JV_STR, malloc()ed */
	const char *num;	/* JV_NUM: the text */
	size_t numlen;
};

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* A JSON string at @p (after its '"') into a malloc()ed copy: \u0001 to
 * \u00ff the byte of that value (the collector writes bytes 0x80 and up
 * so, Documentation/capture.md), other \u escapes '?'. Its room is
 * measured up to its own closing '"' only, not to the end of the line:
 * a line of many strings is read in linear time. Return: after the
 * closing '"', or NULL.
 */
static const char *parse_str(const char *p, char **out)
{
	const char *q = p;
	size_t n = 0;
	char *s;

	while (*q && *q != '"')
		q += q[0] == '\\' && q[1] ? 2 : 1;
	s = malloc(q - p + 1);
	if (!s)
		return NULL;
	for (;;) {
		char ch = *p++;

		if (!ch || (unsigned char)ch < 0x20)
			goto bad;
		if (ch == '"')
			break;
		if (ch == '\\') {
			unsigned int u;
			int i;

			ch = *p++;
			switch (ch) {
			case '"': case '\\': case '/':
				break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'u':
				for (u = 0, i = 0; i < 4; i++) {
					int h = p[i] >= '0' && p[i] <= '9' ? p[i] - '0' :
						(p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f' ?
						(p[i] | 0x20) - 'a' + 10 : -1;

					if (h < 0)
						goto bad;
					u = u << 4 | h;
				}
				p += 4;
				ch = u && u < 0x100 ? (char)u : '?';
				break;
			default:
				goto bad;
			}
		}
		s[n++] = ch;
	}
	s[n] = '\0';
	*out = s;
	return p;
bad:
	free(s);
	return NULL;
}

/* The members of the object on line @line, each passed to @take; the
 * reason of a failure in @why
 */
static bool parse_object(const char *line,
			 bool (*take)(void *arg, const char *key,
				      const struct jval *v, const char **why),
			 void *arg, const char **why)
{
	const char *p = skip_ws(line);
	bool first = true;

	if (*p++ != '{') {
		*why = "not a JSON object";
		return false;
	}
	for (;;) {
		struct jval v = { JV_NULL, NULL, NULL, 0 };
		char *key;
		bool ok;

		p = skip_ws(p);
		if (*p == '}' && first) {
			p++;
			break;
		}
		if (*p != '"' || !(p = parse_str(p + 1, &key))) {
			*why = "a member name expected";
			return false;
		}
		p = skip_ws(p);
		if (*p++ != ':') {
			free(key);
			*why = "':' expected";
			return false;
		}
		p = skip_ws(p);
		if (*p == '"') {
			v.type = JV_STR;
			p = parse_str(p + 1, &v.str);
		} else if (!strncmp(p, "null", 4)) {
			p += 4;
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			v.type = JV_NUM;
			v.num = p;
			while (*p == '-' || *p == '+' || *p == '.' ||
			       *p == 'e' || *p == 'E' ||
			       (*p >= '0' && *p <= '9'))
				p++;
			v.numlen = p - v.num;
		} else {
			p = NULL;
		}
		if (!p) {
			free(key);
			*why = "a string, number or null expected";
			return false;
		}
		ok = take(arg, key, &v, why);
		free(key);
		free(v.str);
		if (!ok)
			return false;
		first = false;
		p = skip_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p++ == '}')
			break;
		*why = "',' or '}' expected";
		return false;
	}
	if (*skip_ws(p)) {
		*why = "text after the object";
		return false;
	}
	return true;
}

/* A whole unsigned number of @v up to @max */
static bool num_u64(const struct jval *v, uint64_t max, uint64_t *out)
{
	char buf[32], *end;

	if (v->type != JV_NUM || v->numlen >= sizeof(buf) || v->num[0] == '-')
		return false;
	memcpy(buf, v->num, v->numlen);
	buf[v->numlen] = '\0';
	errno = 0;
	*out = strtoull(buf, &end, 10);
	return !errno && !*end && *out <= max;
}

struct line_state {
	struct dump_owner w;
	int lfam, rfam;		/* families of the addresses, -1 null */
	bool have_lport, have_rport;
};

static bool take_addr(const struct jval *v, uint8_t *a, int *fam)
{
	if (v->type == JV_NULL) {
		*fam = -1;
		return true;
	}
	if (v->type != JV_STR)
		return false;
	memset(a, 0, 16);
	if (inet_pton(AF_INET, v->str, a) == 1)
		*fam = AF_INET;
	else if (inet_pton(AF_INET6, v->str, a) == 1)
		*fam = AF_INET6;
	else
		return false;
	return true;
}

static bool take_member(void *arg, const char *key, const struct jval *v,
			const char **why)
{
	struct line_state *s = arg;
	struct dump_owner *w = &s->w;
	uint64_t u;

	if (!strcmp(key, "token")) {
		char *end;
		unsigned long t;

		if (v->type == JV_NULL)
			return true;
		errno = 0;
		t = v->type == JV_STR ? strtoul(v->str, &end, 16) : 0;
		if (v->type != JV_STR || strncmp(v->str, "0x", 2) || errno ||
		    *end || !v->str[2] || t > UINT32_MAX) {
			*why = "token is not a 32-bit \"0x...\"";
			return false;
		}
		w->has_token = true;
		w->token = (uint32_t)t;
	} else if (!strcmp(key, "local_address")) {
		if (!take_addr(v, w->laddr, &s->lfam)) {
			*why = "local_address is not an IP address";
			return false;
		}
	} else if (!strcmp(key, "peer_address")) {
		if (!take_addr(v, w->raddr, &s->rfam)) {
			*why = "peer_address is not an IP address";
			return false;
		}
	} else if (!strcmp(key, "local_port") || !strcmp(key, "peer_port")) {
		bool local = key[0] == 'l';

		if (v->type == JV_NULL)
			return true;
		if (!num_u64(v, 65535, &u)) {
			*why = local ? "local_port is not a port" :
				       "peer_port is not a port";
			return false;
		}
		if (local) {
			w->lport = (uint16_t)u;
			s->have_lport = true;
		} else {
			w->rport = (uint16_t)u;
			s->have_rport = true;
		}
	} else if (!strcmp(key, "pid")) {
		if (v->type == JV_NULL)
			return true;
		if (!num_u64(v, INT32_MAX, &u) || !u) {
			*why = "pid is not a process id";
			return false;
		}
		w->pid = (long long)u;
	} else if (!strcmp(key, "netns")) {
		if (v->type == JV_NULL)
			return true;
		if (!num_u64(v, UINT64_MAX, &u)) {
			*why = "netns is not an inode number";
			return false;
		}
		w->has_netns = true;
		w->netns = u;
	} else if (!strcmp(key, "comm") || !strcmp(key, "cgroup")) {
		char **dst = key[0] == 'c' && key[1] == 'o' ? &w->comm :
			     &w->cgroup;

		if (v->type == JV_NULL)
			return true;
		if (v->type != JV_STR) {
			*why = key[1] == 'o' ? "comm is not a string" :
					       "cgroup is not a string";
			return false;
		}
		free(*dst);
		*dst = strdup(v->str);
		if (!*dst) {
			*why = "out of memory";
			return false;
		}
	}
	/* inode, first_seen and names of later versions: not needed here */
	return true;
}

static void owner_clear(struct dump_owner *w)
{
	free(w->comm);
	free(w->cgroup);
}

void dump_owners_free(struct dump_owners *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->n; i++)
		owner_clear(&o->v[i]);
	free(o->v);
	free(o);
}

struct dump_owners *dump_owners_load(const char *path, char *err,
				     size_t errlen)
{
	struct dump_owners *o = calloc(1, sizeof(*o));
	size_t cap = 0;
	ssize_t got;
	unsigned long lineno = 0;
	char *line = NULL;
	struct stat st;
	FILE *f;
	int fd;

	if (!o) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* a regular file: a FIFO would block the reader until a writer
	 * comes
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
			fcntl(fd, F_SETFL, 0))) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		free(o);
		return NULL;
	}
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(o);
		return NULL;
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		struct line_state s = { .lfam = -1, .rfam = -1 };
		const char *why = NULL;
		void *p;

		lineno++;
		if ((size_t)got != strlen(line))
			why = "a NUL byte in the line";
		else if (!*skip_ws(line))
			continue;
		if (!why && parse_object(line, take_member, &s, &why)) {
			if (!s.w.has_token && (s.lfam < 0 || s.rfam < 0 ||
					       !s.have_lport || !s.have_rport))
				why = "neither a token nor both ends";
			else if (s.lfam >= 0 && s.rfam >= 0 &&
				 s.lfam != s.rfam)
				why = "the addresses are of two families";
		} else if (!why) {
			why = "not a JSON object";
		}
		if (why) {
			fprintf(stderr, "Warning: %s:%lu: %s; line left out\n",
				path, lineno, why);
			o->bad++;
			owner_clear(&s.w);
			continue;
		}
		if (!s.w.pid) {
			/* no process known: nothing to show */
			owner_clear(&s.w);
			continue;
		}
		s.w.family = s.lfam >= 0 && s.rfam >= 0 && s.have_lport &&
			     s.have_rport ? s.lfam : 0;
		s.w.has_ports = s.w.family != 0;
		p = realloc(o->v, (o->n + 1) * sizeof(*o->v));
		if (!p) {
			owner_clear(&s.w);
			snprintf(err, errlen, "out of memory");
			free(line);
			fclose(f);
			dump_owners_free(o);
			return NULL;
		}
		o->v = p;
		o->v[o->n++] = s.w;
	}
	free(line);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		dump_owners_free(o);
		return NULL;
	}
	fclose(f);
	return o;
}

unsigned int dump_owners_bad(const struct dump_owners *o)
{
	return o ? o->bad : 0;
}

const struct dump_owner *dump_owner_find(const struct dump_owners *o,
					 uint32_t token, int family,
					 const uint8_t *laddr, uint16_t lport,
					 const uint8_t *raddr, uint16_t rport)
{
	size_t alen = family == AF_INET6 ? 16 : 4, i;

	if (!o)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (o->v[i].has_token && o->v[i].token == token)
			return &o->v[i];
	for (i = 0; i < o->n; i++) {
		const struct dump_owner *w = &o->v[i];

		if (w->has_token || !w->has_ports || w->family != family ||
		    w->lport != lport || w->rport != rport ||
		    memcmp(w->laddr, laddr, alen) ||
		    memcmp(w->raddr, raddr, alen))
			continue;
		return w;
	}
	return NULL;
}

/* A command name or cgroup path as given in JSON; in text, bytes outside
 * printable ASCII, the blank and the backslash as \xNN, so that a name
 * can neither drive the terminal nor split or forge a line.
 */
static void print_name(const char *key, const char *fmt, const char *v)
{
	const unsigned char *p = (const unsigned char *)v;
	char *buf, *o;

	print_string(PRINT_JSON, key, NULL, v);
	if (is_json_context())
		return;
	buf = malloc(4 * strlen(v) + 1);
	if (!buf)
		return;
	for (o = buf; *p; p++) {
		if (*p > 0x20 && *p < 0x7f && *p != '\\')
			*o++ = (char)*p;
		else
			o += sprintf(o, "\\x%02x", *p);
	}
	*o = '\0';
	print_string(PRINT_FP, NULL, fmt, buf);
	free(buf);
}

void dump_print_owner(const struct dump_owner *w)
{
	if (!w)
		return;
	print_s64(PRINT_ANY, "pid", " pid %lld", w->pid);
	if (w->comm)
		print_name("comm", " comm %s", w->comm);
	else
		print_null(PRINT_ANY, "comm", " comm %s", "-");
	if (w->has_netns)
		print_u64(PRINT_ANY, "netns", " netns %" PRIu64,
			  (uint64_t)w->netns);
	else
		print_null(PRINT_ANY, "netns", " netns %s", "-");
	if (w->cgroup)
		print_name("cgroup", " cgroup %s", w->cgroup);
	else
		print_null(PRINT_ANY, "cgroup", " cgroup %s", "-");
}
