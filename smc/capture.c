// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - smc dump start: a capture is an smc-dummy link made for
 * it (rtnetlink, lib/rtnl.c) and a tcpdump on that link (mode all: on "any",
 * so that the TCP handshake and the records land together), supervised by
 * the smc process that started them:
 *
 *   smc dump start ---- creates and brings up the link, sets its alias
 *     |                 "smc-dump pid=N start=T mode=... tpid=N ... file=..."
 *     +-- tcpdump -i LINK ... -w FILE|-   (own process group; stderr to us)
 *     +-- decoder (without write): reads tcpdump's pcap stream from a
 *         pipe and prints each frame with the decoder of `smc dump read`
 *         (capture_live.c)
 *
 * SIGINT, SIGTERM or SIGHUP to the supervisor (or the end of tcpdump)
 * ends the capture: once tcpdump has taken in what the kernel holds for it
 * (drain()), it gets SIGTERM, flushes its file and reports its counters on
 * stderr, which we read (capture_tcpdump.c); the link's counters are read, the link deleted
 * and a summary printed. With `background`, the supervisor
 * detaches once tcpdump listens; its stderr then goes to a log file named
 * in the alias, which `smc dump stop` prints after the supervisor ended.
 * The alias (capture_state.c) is how another invocation in the same
 * netns finds the capture: `stop` (capture_ctl.c) sends SIGTERM to the
 * pid recorded there, once it has checked by the process start time that
 * the pid is still the same process. Documentation/capture.md describes
 * the whole lifecycle.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/smc_dump.h>

#include "capture.h"
#include "capture_bpf_api.h"
#include "dump_capture.h"
#include "json_print.h"
#include "proc.h"
#include "smc.h"
#include "utils.h"

#include "smc_af.h"

#define NAME_PREFIX		"smc-dummy"
/* the bpf backend's dummy link: frames up to the largest IP datagram */
#define BPF_LINK_MTU		65535

/* the link's mode for each enum cap_mode */
static const uint8_t mode_link[CAP_MODE_N] = {
	SMC_DUMMY_MODE_SMC, SMC_DUMMY_MODE_SMC, SMC_DUMMY_MODE_SMCR,
	SMC_DUMMY_MODE_SMCD
};

static void start_usage(FILE *f)
{
	fprintf(f,
		"Usage: smc dump start [ mode { all | smc | smcr | smcd } ] [ type { all | raw | cdc | llc } ]\n"
		"                      [ snaplen N ] [ write FILE ] [ filter EXPR ]\n"
		"                      [ param 'TCPDUMP ARGS' ] [ dev NAME ] [ background ]\n"
		"                      [ backend { auto | kernel | bpf } ] [ ring BYTES ] [ nice N ]\n"
		"       smc dump stop [ dev NAME | all ]\n"
		"       smc [ -j [ -p ] ] dump show [ dev NAME ]\n"
		"mode all: SMC-R and SMC-D records and, with tcpdump -i any, the TCP handshake.\n"
		"Without write, the records are decoded as they come; background needs write.\n"
		"With write FILE, FILE.ctx gets each connection's pid, comm, netns and cgroup\n"
		"(sock_diag polled every 200 ms; see smc dump context).\n"
		"backend auto: the smc-dummy link kind where the kernel has it, else BPF programs\n"
		"(an unmodified kernel with BTF); ring: the bpf backend's buffer, a power of two.\n"
		"nice: the priority of tcpdump and smc's own part, -20 to 19 (default -19: a full\n"
		"capture slows the traffic rather than losing records; fewer are lost, not always none).\n"
		"SIGINT, SIGTERM, SIGHUP or smc dump stop end a capture.\n");
}

/* ---- smc dump start: options ---- */

/* A valid interface name (the kernel's dev_valid_name()) */
static bool valid_ifname(const char *name)
{
	const char *p;

	if (!*name || strlen(name) >= IF_NAMESIZE || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (p = name; *p; p++)
		if (*p == '/' || *p == ':' || *p == ' ' ||
		    (*p >= '\t' && *p <= '\r'))
			return false;
	return true;
}

/* tcpdump's short options that take a value (its getopt string, 4.99) */
#define TCPDUMP_ARG_OPTS	"BcCEFGijmMQrsTVwWyzZ"

/* The words of param as tcpdump's getopt reads them, short options
 * clustered or not ("-ni eth0", "-nw FILE"): the interface is
 * smc dump start's to choose, and -r and -V would make tcpdump read
 * files instead of capturing; a -w names the capture's file.
 * Return: 0, or a usage error (printed).
 */
static int param_scan(struct start_opts *o)
{
	int i;
	size_t j;

	for (i = 0; i < o->pw.n; i++) {
		const char *w = o->pw.v[i], *val;

		if (!strncmp(w, "--interface", 11))
			return invarg("param must not choose the interface: smc dump start does (mode all: any)",
				      w);
		if (w[0] != '-' || w[1] == '-' || !w[1])
			continue;
		for (j = 1; w[j]; j++) {
			if (w[j] == 'i')
				return invarg("param must not choose the interface: smc dump start does (mode all: any)",
					      w);
			if (w[j] == 'r' || w[j] == 'V')
				return invarg("param must not make tcpdump read files (-r, -V): smc dump start captures",
					      w);
			if (!strchr(TCPDUMP_ARG_OPTS, w[j]))
				continue;
			/* the rest of the word, or the next one, is its value */
			val = w[j + 1] ? w + j + 1 :
			      i + 1 < o->pw.n ? o->pw.v[++i] : NULL;
			if (w[j] == 'w' && val)
				o->param_write = val;
			break;
		}
	}
	return 0;
}

/* "smc-dummy" and four random lower-case letters */
static void random_name(char *name, size_t size)
{
	unsigned char r[4];
	int i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		unsigned int x = (unsigned int)now_ms() ^ (unsigned int)getpid();

		for (i = 0; i < 4; i++) {
			x = x * 1103515245 + 12345;
			r[i] = (unsigned char)(x >> 16);
		}
	}
	snprintf(name, size, NAME_PREFIX "%c%c%c%c", 'a' + r[0] % 26,
		 'a' + r[1] % 26, 'a' + r[2] % 26, 'a' + r[3] % 26);
}

static char *absolute(const char *path)
{
	char cwd[PATH_MAX], *r;

	if (path[0] == '/' || !strcmp(path, "-"))
		return strdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return strdup(path);
	if (asprintf(&r, "%s/%s", cwd, path) < 0)
		return NULL;
	return r;
}

static int parse_start(int argc, char **argv, struct start_opts *o)
{
	bool seen_mode = false, seen_type = false, seen_snap = false;
	bool seen_backend = false, seen_ring = false, seen_nice = false;
	int i, k, err;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "help") || !strcmp(a, "-h") ||
		    !strcmp(a, "--help")) {
			start_usage(stdout);
			return -1;
		}
		if (matches(a, "background") == 0) {
			o->background = true;
			continue;
		}
		if (matches(a, "mode") && matches(a, "type") &&
		    matches(a, "snaplen") && matches(a, "write") &&
		    matches(a, "filter") && matches(a, "param") &&
		    matches(a, "dev") && matches(a, "backend") &&
		    matches(a, "ring") && matches(a, "nice")) {
			fprintf(stderr,
				"Error: unknown keyword \"%s\", try \"smc dump start help\".\n",
				a);
			return EXIT_USAGE;
		}
		if (i + 1 == argc) {
			fprintf(stderr, "Error: \"%s\" needs a value.\n", a);
			return EXIT_USAGE;
		}
		v = argv[++i];
		if (matches(a, "mode") == 0) {
			if (seen_mode)
				return duparg("mode", v);
			k = cap_name_index(cap_mode_names, CAP_MODE_N, v);
			if (k < 0)
				return invarg("mode must be all, smc, smcr or smcd",
					      v);
			o->mode = k;
			seen_mode = true;
		} else if (matches(a, "type") == 0) {
			if (seen_type)
				return duparg("type", v);
			k = cap_name_index(cap_type_names, cap_type_count, v);
			if (k < 0)
				return invarg("type must be all, raw, cdc or llc", v);
			o->type = k;
			seen_type = true;
		} else if (matches(a, "snaplen") == 0) {
			uint16_t n;

			if (seen_snap)
				return duparg("snaplen", v);
			if (get_u16(&n, v, 10))
				return invarg("snaplen must be a number of bytes from 0 (all) to 65535",
					      v);
			o->snaplen = n;
			seen_snap = true;
		} else if (matches(a, "backend") == 0) {
			static const char *const names[] = {
				"auto", "kernel", "bpf"
			};

			if (seen_backend)
				return duparg("backend", v);
			k = cap_name_index(names, 3, v);
			if (k < 0)
				return invarg("backend must be auto, kernel or bpf",
					      v);
			o->backend = k;
			seen_backend = true;
		} else if (matches(a, "ring") == 0) {
			uint32_t n;

			if (seen_ring)
				return duparg("ring", v);
			if (get_u32(&n, v, 0) ||
			    n < 4096 || n > (1U << 30) || (n & (n - 1)))
				return invarg("ring must be a power of two of bytes from 4096 to 1073741824",
					      v);
			o->ring = n;
			seen_ring = true;
		} else if (matches(a, "nice") == 0) {
			char *end;
			long n;

			if (seen_nice)
				return duparg("nice", v);
			errno = 0;
			n = strtol(v, &end, 10);
			if (!*v || *end || errno || n < -20 || n > 19)
				return invarg("nice must be a number from -20 (first) to 19 (last)",
					      v);
			o->nice = (int)n;
			seen_nice = true;
		} else if (matches(a, "write") == 0) {
			if (o->write)
				return duparg("write", v);
			if (!*v)
				return invarg("write needs a file name", v);
			o->write = v;
		} else if (matches(a, "filter") == 0) {
			if (o->filter)
				return duparg("filter", v);
			o->filter = v;
		} else if (matches(a, "param") == 0) {
			if (o->param)
				return duparg("param", v);
			o->param = v;
		} else {
			if (o->dev)
				return duparg("dev", v);
			if (!valid_ifname(v))
				return invarg("not a valid interface name (1 to 15 bytes, no '/', ':' or blanks)",
					      v);
			o->dev = v;
		}
	}
	if (o->param) {
		err = split_words(o->param, &o->pw);
		if (err == -EINVAL)
			return invarg("param has an unterminated quote",
				      o->param);
		if (err) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
		err = param_scan(o);
		if (err)
			return err;
	}
	if (o->ring && o->backend == BACKEND_KERNEL)
		return invarg("ring is an option of backend bpf", "ring");
	if (o->write && o->param_write)
		return invarg("write and a -w in param: give the file once",
			      o->param_write);
	if (o->write || o->param_write) {
		o->file = absolute(o->write ? o->write : o->param_write);
		if (!o->file) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
	}
	if (o->background && (!o->file || !strcmp(o->file, "-"))) {
		fprintf(stderr,
			"Error: background needs write FILE: a detached capture has no terminal to decode to.\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- smc dump start: the capture ---- */

/* Room the tcpdump fields (" tpid=N tstart=N") take in the alias */
#define ALIAS_TCPDUMP_ROOM	48

/* Copy @src (NULL: none) to @dst; @bit when it is too long for @size */
static int copy_field(char *dst, size_t size, const char *src, int bit)
{
	if (!src || strlen(src) >= size)
		return src ? bit : 0;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/* The alias that tells show and stop about this capture
 * (capture_state.h). Before tcpdump runs, room for its fields is kept,
 * so that what fits now fits then.
 */
static int make_alias(struct capture *c, char *alias, size_t size)
{
	struct start_opts *o = c->o;
	struct capture_state st = {
		.pid = getpid(), .mode = o->mode, .type = o->type,
		.snaplen = o->snaplen, .bpf = c->backend.bpf != NULL,
	};
	unsigned long long start;
	bool zombie;
	int left_out;

	if (!c->tcpdump.pid)
		size -= ALIAS_TCPDUMP_ROOM;
	if (proc_start(getpid(), &st.start, &zombie)) {
		fprintf(stderr, "Error: cannot read /proc/self/stat\n");
		return -1;
	}
	if (c->tcpdump.pid && !proc_start(c->tcpdump.pid, &start, &zombie)) {
		st.tpid = c->tcpdump.pid;
		st.tstart = start;
	}
	/* what is longer than the alias cannot fit in it either */
	left_out = copy_field(st.log, sizeof(st.log), c->logpath,
			      CAPTURE_STATE_NO_LOG) |
		   copy_field(st.file, sizeof(st.file), o->file,
			      CAPTURE_STATE_NO_FILE);
	/* the filter is for show only: left out when it does not fit */
	copy_field(st.filter, sizeof(st.filter), o->filter, 0);
	left_out |= capture_state_format(alias, size, &st);
	if (left_out & CAPTURE_STATE_NO_LOG) {
		fprintf(stderr, "Error: the log path %s is too long\n",
			c->logpath);
		return -1;
	}
	if (left_out & CAPTURE_STATE_NO_FILE && o->background) {
		fprintf(stderr,
			"Error: the file name %s is too long to be recorded in the link's alias (%d bytes): stop could not tell it; use a shorter path\n",
			o->file, RTNL_ALIAS_SIZE - 1);
		return -1;
	}
	return 0;
}

/* Record tcpdump's pid in the alias, for stop to end an orphan */
static void alias_tcpdump(struct capture *c)
{
	struct capture_backend *b = &c->backend;
	char alias[RTNL_ALIAS_SIZE];
	int err;

	if (make_alias(c, alias, sizeof(alias)))
		return;
	err = rtnl_link_set(&b->rt, b->name, false, alias);
	if (err)
		fprintf(stderr, "Warning: cannot set the alias of %s: %s\n",
			b->name, strerror(-err));
}

/* AF_SMC sockets exist: the kernel has SMC (loads the module) */
static bool smc_in_kernel(int *err)
{
	int s = socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 && (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT)) {
		*err = errno;
		return false;
	}
	if (s >= 0)
		close(s);
	return true;
}

/* Explain a failed link creation (Documentation/capture.md, Lifecycle) */
static void link_error(const struct capture_backend *b, int err)
{
	const char *ext = b->rt.extack;
	int s;

	switch (err) {
	case -EPERM:
	case -EACCES:
		fprintf(stderr,
			"Error: creating the smc-dummy link needs CAP_NET_ADMIN in this network namespace (run as root): %s\n",
			strerror(-err));
		return;
	case -EEXIST:
		fprintf(stderr,
			"Error: the name %s is already taken by another link\n",
			b->name);
		return;
	case -EOPNOTSUPP:
		if (!smc_in_kernel(&s)) {
			fprintf(stderr,
				"Error: SMC is not available in the running kernel (AF_SMC sockets: %s): smc dump needs a kernel with CONFIG_SMC and the SMC dump patches of smc-dump (kernel/ in its source)%s%s\n",
				strerror(s), smc_module_absent() ? "; " : "",
				smc_module_absent() ? smc_no_smc_advice() : "");
			return;
		}
		fprintf(stderr,
			"Error: the running kernel has no link kind smc-dummy%s%s%s: it needs the SMC dump patches of smc-dump. On Debian 12 with Debian's 6.12 kernel: apt install smc-dump-dkms linux-headers-$(uname -r), then, with no SMC socket open, rmmod smc_diag smc (the next modprobe loads the patched modules); elsewhere, a kernel built with the series (kernel/6.12/ or kernel/mainline/ in smc-dump's source); or backend bpf, which needs no kernel change\n",
			*ext ? " (kernel says: " : "", ext, *ext ? ")" : "");
		return;
	}
	fprintf(stderr, "Error: cannot create the smc-dummy link %s: %s%s%s%s\n",
		b->name, strerror(-err), *ext ? " (kernel says: " : "", ext,
		*ext ? ")" : "");
}

static void del_link(struct capture_backend *b)
{
	int err;

	if (!b->have_link)
		return;
	err = rtnl_link_del(&b->rt, b->name);
	if (err && err != -ENODEV)
		fprintf(stderr, "Error: cannot delete the link %s: %s\n",
			b->name, strerror(-err));
	b->have_link = false;
}

/* The link's counters into @l; false when it has none */
static bool link_stats(struct capture_backend *b, struct rtnl_link *l)
{
	return !rtnl_link_get(&b->rt, b->name, l) && l->has_stats;
}

/* bpf backend: no new records, and the rest of the ring sent on the link */
static void backend_stop(struct capture_backend *b)
{
	if (b->bpf && !b->bpf_stopped) {
		bpf_cap_detach(b->bpf);
		b->bpf_stopped = true;
	}
}

/* No capture in the way: dev NAME free, and without dev no other capture
 * running in this netns
 */
static int check_names(struct capture_backend *b,
		       const struct start_opts *o)
{
	struct rtnl_link *links = NULL;
	struct capture_state ow;
	int n, i, rc = 0;

	n = rtnl_smc_dummy_list(&b->rt, &links);
	if (n < 0) {
		fprintf(stderr, "Error: cannot list the links: %s\n",
			strerror(-n));
		return EXIT_FAIL;
	}
	for (i = 0; i < n && !rc; i++) {
		capture_state_parse(links[i].alias, &ow);
		if (ow.valid && !capture_alive(&ow) && o->dev &&
		    !strcmp(o->dev, links[i].name)) {
			fprintf(stderr,
				"Error: the name %s is taken by the link of a capture that is gone (pid %d); \"smc dump stop dev %s\" removes it\n",
				links[i].name, (int)ow.pid, links[i].name);
			rc = EXIT_FAIL;
		}
		if (!capture_alive(&ow))
			continue;
		if (o->dev && !strcmp(o->dev, links[i].name)) {
			fprintf(stderr,
				"Error: a capture is already running on %s (pid %d); end it with \"smc dump stop dev %s\"\n",
				links[i].name, (int)ow.pid, links[i].name);
			rc = EXIT_FAIL;
		} else if (!o->dev) {
			fprintf(stderr,
				"Error: a capture is already running in this network namespace on %s (pid %d); end it with \"smc dump stop\", or give a second capture its own \"dev NAME\"\n",
				links[i].name, (int)ow.pid);
			rc = EXIT_FAIL;
		}
	}
	free(links);
	if (!rc && o->dev && if_nametoindex(o->dev)) {
		fprintf(stderr,
			"Error: the name %s is already taken by another link\n",
			o->dev);
		rc = EXIT_FAIL;
	}
	return rc;
}

/* The bpf backend: every check and the load of its programs, before
 * anything is made; 0 or EXIT_FAIL
 */
static int prepare_bpf(struct capture_backend *b,
		       const struct start_opts *o)
{
	if (bpf_cap_prepare(&b->bpf, mode_link[o->mode], o->type, o->snaplen,
			    o->ring, show_details))
		return EXIT_FAIL;
	return 0;
}

static int add_link(struct capture_backend *b, const struct start_opts *o)
{
	if (b->bpf)
		return rtnl_dummy_add(&b->rt, b->name, BPF_LINK_MTU);
	return rtnl_smc_dummy_add(&b->rt, b->name, mode_link[o->mode],
				  (uint8_t)o->type, o->snaplen);
}

/* No IPv6 on the bpf backend's link: no router or multicast listener
 * solicitations among the records (it has no IPv4 address either)
 */
static void quiet_link(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "1", 1) != 1)
		fprintf(stderr, "Warning: cannot turn IPv6 off on %s: %s\n",
			name, strerror(errno));
	close(fd);
}

static int make_link(struct capture *c)
{
	struct capture_backend *b = &c->backend;
	struct start_opts *o = c->o;
	char alias[RTNL_ALIAS_SIZE];
	int err, tries, e;

	if (o->backend == BACKEND_BPF && prepare_bpf(b, o))
		return EXIT_FAIL;

	for (tries = 0; tries < 16; tries++) {
		if (o->dev)
			snprintf(b->name, sizeof(b->name), "%s", o->dev);
		else
			random_name(b->name, sizeof(b->name));
		/* tcpdump's command line names the link: shown (-d) before
		 * anything is made
		 */
		if (tcpdump_argv(&c->tcpdump, o, b->name)) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
		if (show_details)
			tcpdump_print_argv(stderr, &c->tcpdump);
		err = add_link(b, o);
		if (err == -EOPNOTSUPP && !b->bpf &&
		    o->backend == BACKEND_AUTO && smc_in_kernel(&e)) {
			/* no smc-dummy kind: an unmodified kernel */
			if (prepare_bpf(b, o)) {
				fprintf(stderr,
					"smc dump: (backend auto: the running kernel has no link kind smc-dummy, and backend bpf cannot run)\n");
				return EXIT_FAIL;
			}
			err = add_link(b, o);
		}
		if (err != -EEXIST || o->dev)
			break;
	}
	if (err) {
		link_error(b, err);
		return EXIT_FAIL;
	}
	b->have_link = true;
	if (b->bpf)
		quiet_link(b->name);
	if (make_alias(c, alias, sizeof(alias))) {
		del_link(b);
		return EXIT_FAIL;
	}
	err = rtnl_link_set(&b->rt, b->name, true, alias);
	if (err) {
		fprintf(stderr, "Error: cannot set up the link %s: %s%s%s%s\n",
			b->name, strerror(-err),
			b->rt.extack[0] ? " (kernel says: " : "", b->rt.extack,
			b->rt.extack[0] ? ")" : "");
		del_link(b);
		return EXIT_FAIL;
	}
	return 0;
}

/* SIGHUP was ignored when we started (nohup): our children keep that */
static bool hup_ignored;

static void child_signals(void)
{
	sigset_t all;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (!hup_ignored)
		signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

/* Start tcpdump (and the decoder); 0 or EXIT_FAIL */
static int spawn(struct capture *c)
{
	struct capture_tcpdump *td = &c->tcpdump;
	int errp[2], datap[2] = { -1, -1 }, devnull;
	bool live = !c->o->file;
	pid_t me = getpid();

	if (pipe2(errp, O_CLOEXEC) || (live && pipe2(datap, O_CLOEXEC))) {
		fprintf(stderr, "Error: pipe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(stdout);
	fflush(stderr);
	td->pid = fork();
	if (td->pid < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		/* no child: the stop path must not kill(-1, ...) */
		td->pid = 0;
		close(errp[0]);
		close(errp[1]);
		if (live) {
			close(datap[0]);
			close(datap[1]);
		}
		return EXIT_FAIL;
	}
	if (!td->pid) {
		/* own process group: a terminal's ^C reaches only us, and we
		 * end tcpdump when we are ready to read what it says
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != me)
			_exit(127);
		child_signals();
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		/* stdout: the decoder's pipe; detached: nothing, so that no
		 * caller waits for its end (`run` in bats, $(...))
		 */
		if (live)
			dup2(datap[1], STDOUT_FILENO);
		else if (c->o->background && devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		execv(c->o->tcpdump, td->argv.v);
		fprintf(stderr, "tcpdump: cannot run %s: %s\n", c->o->tcpdump,
			strerror(errno));
		_exit(127);
	}
	close(errp[1]);
	td->errfd = errp[0];
	if (!live)
		return 0;
	close(datap[1]);
	c->dpid = fork();
	if (c->dpid < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		close(datap[0]);
		c->dpid = 0;
		return EXIT_FAIL;
	}
	if (!c->dpid) {
		/* the decoder outlives ^C: it reads on to the end of what
		 * tcpdump flushes
		 */
		child_signals();
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		close(td->errfd);
		close(c->sfd);
		rtnl_close(&c->backend.rt);
		exit(capture_decode_live(datap[0]));
	}
	close(datap[0]);
	c->watch_out = true;
	return 0;
}

static void reap(struct capture *c)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (tcpdump_reaped(&c->tcpdump, pid, st))
			continue;
		if (pid == c->dpid) {
			/* the decoder's reader went away (| head): nobody
			 * reads what tcpdump sends on, and tcpdump learns it
			 * only at its next packet
			 */
			c->dpid = 0;
			if (c->tcpdump.pid && !c->stop) {
				c->stop = true;
				c->no_drain = true;
			}
		}
	}
}

/* One round of events, waiting up to @timeout ms: tcpdump's stderr,
 * signals (SIGINT, SIGTERM, SIGHUP set c->stop and count in c->nstops),
 * children ended; and SIGKILL for a tcpdump that ignores SIGTERM.
 */
static void step(struct capture *c, int timeout)
{
	struct capture_backend *b = &c->backend;
	/* negative descriptors are left out by poll() */
	struct pollfd pfd[4] = {
		{ .fd = c->sfd, .events = POLLIN },
		{ .fd = c->tcpdump.errfd, .events = POLLIN },
		{ .fd = c->watch_out ? STDOUT_FILENO : -1, .events = 0 },
		{ .fd = b->bpf_stopped ? -1 : bpf_cap_fd(b->bpf),
		  .events = POLLIN },
	};
	struct signalfd_siginfo si;
	int due = ctx_due(&c->ctx);

	if (due >= 0 && due < timeout)
		timeout = due;
	if (poll(pfd, 4, timeout) < 0 && errno != EINTR) {
		fprintf(stderr, "Error: poll: %s\n", strerror(errno));
		c->stop = true;
	}
	if (pfd[3].revents)
		bpf_cap_poll(b->bpf);
	if (c->tcpdump.errfd >= 0 && pfd[1].revents)
		tcpdump_read_err(&c->tcpdump, &c->status);
	if (pfd[2].revents) {
		/* POLLERR: the reader of our standard output (a pipe) went
		 * away; the decoder would learn it only when it writes next
		 */
		c->watch_out = false;
		if (pfd[2].revents & (POLLERR | POLLHUP) && c->tcpdump.pid &&
		    !c->stop) {
			c->stop = true;
			c->no_drain = true;
		}
	}
	if (pfd[0].revents & POLLIN) {
		while (read(c->sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				c->stop = true;
				c->nstops++;
			}
		}
	}
	reap(c);
	tcpdump_kill_stuck(&c->tcpdump);
	ctx_poll(&c->ctx);
}

/*
 * Before tcpdump gets SIGTERM: let it take in what the kernel holds for
 * it. libpcap hands packets over a block of the ring at a time, when the
 * block is full or its timeout (tcpdump: 1 s) expired, and a tcpdump
 * that breaks its loop drops what it was not handed yet, without
 * counting it. So ask tcpdump for its counters (SIGUSR1) until it has
 * processed every packet the socket received (captured + dropped >=
 * received) and the link's record counter stood still in between.
 * A second stop signal or DRAIN_MS end the wait.
 */
static void drain(struct capture *c)
{
	struct capture_tcpdump *td = &c->tcpdump;
	long long end = now_ms() + DRAIN_MS, t;
	uint64_t last_tx = UINT64_MAX;
	unsigned int stops = c->nstops, seen;
	struct rtnl_link l;

	while (td->pid && now_ms() < end && c->nstops == stops) {
		seen = td->info_seen;
		t = now_ms();
		kill(td->pid, SIGUSR1);
		while (td->pid && td->info_seen == seen && c->nstops == stops &&
		       now_ms() - t < 2000)
			step(c, 50);
		if (td->info_seen == seen)
			break;	/* no answer: nothing to wait for */
		if (!link_stats(&c->backend, &l))
			break;
		if (td->info_captured + td->info_dropped >= td->info_received &&
		    l.tx_packets == last_tx)
			break;
		last_tx = l.tx_packets;
		t = now_ms();
		while (td->pid && c->nstops == stops && now_ms() - t < 100)
			step(c, 100);
	}
}

/*
 * Run until tcpdump listens (@until_ready) or until it ended and its
 * stderr is read to the end; a stop signal drains (once tcpdump runs)
 * and ends tcpdump. Return: 1 ready, 0 ended.
 */
static int run_loop(struct capture *c, bool until_ready)
{
	struct capture_tcpdump *td = &c->tcpdump;
	long long t0 = now_ms();

	int due;

	for (;;) {
		if (until_ready && td->ready)
			return 1;
		if (!td->pid && td->errfd < 0)
			return 0;
		if (c->stop)
			capture_status_stop(&c->status);
		if (c->stop && td->pid && !td->term_at) {
			/* the ring's last records on the link before tcpdump
			 * drains
			 */
			backend_stop(&c->backend);
			if (td->ready && !until_ready && !c->no_drain)
				drain(c);
			tcpdump_end(td);
		}
		due = until_ready ? -1 : capture_status_due(&c->status);
		if (!due) {
			capture_status_update(&c->status, &c->backend.rt,
					      c->backend.name);
			due = capture_status_due(&c->status);
		}
		step(c, due >= 0 && due < 200 ? due : 200);
		if (until_ready && !td->ready && td->pid && !td->term_at &&
		    now_ms() - t0 > START_TIMEOUT_MS) {
			tcpdump_keep_early(td, "smc dump: tcpdump did not start listening in time");
			tcpdump_end(td);
		}
	}
}

static void print_summary(struct capture *c, const struct rtnl_link *l,
			  bool have_stats)
{
	const struct capture_backend *b = &c->backend;
	char cap[32] = "?", kd[32] = "?", txp[32] = "?", txd[32] = "?";

	if (c->tcpdump.captured >= 0)
		snprintf(cap, sizeof(cap), "%lld", c->tcpdump.captured);
	if (c->tcpdump.kdropped >= 0)
		snprintf(kd, sizeof(kd), "%lld", c->tcpdump.kdropped);
	if (have_stats) {
		snprintf(txp, sizeof(txp), "%" PRIu64, l->tx_packets);
		snprintf(txd, sizeof(txd), "%" PRIu64, l->tx_dropped);
	}
	if (b->bpf) {
		uint64_t made, lost;

		/* the dummy link drops nothing: the losses are the ring's */
		bpf_cap_counts(b->bpf, &made, &lost);
		snprintf(txd, sizeof(txd), "%" PRIu64, lost);
		fprintf(stderr,
			"smc dump: %s: %s %s on %s, %s dropped by the kernel; the bpf backend delivered %s records, lost %s (ring full or refused by the link: seq gaps)\n",
			b->name, cap, c->o->mode == CAP_ALL ?
			"packets captured" : "records captured",
			c->o->mode == CAP_ALL ? "any" : "the link", kd, txp,
			txd);
		return;
	}
	if (c->o->mode == CAP_ALL)
		fprintf(stderr,
			"smc dump: %s: %s packets captured on any, %s dropped by the kernel; the link delivered %s records, lost %s (tx_dropped)\n",
			b->name, cap, kd, txp, txd);
	else
		fprintf(stderr,
			"smc dump: %s: %s records captured, %s dropped by the kernel; the link delivered %s, lost %s (tx_dropped)\n",
			b->name, cap, kd, txp, txd);
}

/* Where a background capture writes its stderr */
static int open_log(struct capture *c)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char dir[PATH_MAX - 32];
	int fd;

	if (!geteuid() || !rt || !*rt)
		snprintf(dir, sizeof(dir), "/run/smc-dump");
	else
		snprintf(dir, sizeof(dir), "%s/smc-dump", rt);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(dir, sizeof(dir), "/tmp/smc-dump-%u",
			 (unsigned int)geteuid());
		if (mkdir(dir, 0700) && errno != EEXIST) {
			fprintf(stderr, "Error: cannot create %s: %s\n", dir,
				strerror(errno));
			return -1;
		}
	}
	snprintf(c->logpath, sizeof(c->logpath), "%s/%d.log", dir,
		 (int)getpid());
	fd = open(c->logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "Error: cannot create %s: %s\n", c->logpath,
			strerror(errno));
		c->logpath[0] = '\0';
	}
	return fd;
}

/* Tell the waiting parent that the capture runs; from now on our
 * stderr is the log and nothing holds the terminal.
 */
static void detach(struct capture *c, int logfd)
{
	char msg[128];
	int devnull = open("/dev/null", O_RDWR);
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	n = snprintf(msg, sizeof(msg), "%s %d", c->backend.name,
		     (int)getpid());
	if (write(c->notify_fd, msg, n) != n)
		fprintf(stderr, "Error: cannot tell the parent: %s\n",
			strerror(errno));
	close(c->notify_fd);
	c->notify_fd = -1;
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	dup2(logfd, STDERR_FILENO);
	close(logfd);
}

/* A kernel with autogroups (CONFIG_SCHED_AUTOGROUP, as Debian's) schedules
 * each session as one group: between groups a task's nice does not count,
 * the group's does (sched(7), "The autogroup feature"). A background
 * capture is a session of its own (setsid()), so its group gets the nice
 * its tasks have, or the traffic in other sessions still outruns it. No
 * file: no autogroups. EAGAIN: from callers without CAP_SYS_ADMIN the
 * kernel takes one change per 100 ms, system-wide. Autogroups act only
 * with kernel.sched_autogroup_enabled 1 and in the root CPU cgroup: a
 * cgroup CPU controller (a container's, a unit's CPUWeight) decides
 * instead.
 */
static void autogroup_nice(int nice)
{
	int fd, len, tries, err = 0;
	ssize_t n;
	char v[16];

	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return;
		err = errno;
	} else {
		len = snprintf(v, sizeof(v), "%d\n", nice);
		for (tries = 1; (n = write(fd, v, len)) != len; tries++) {
			err = n < 0 ? errno : EIO;
			if (err != EAGAIN || tries == 3)
				break;
			err = 0;
			usleep(110000);
		}
		close(fd);
	}
	if (err)
		fprintf(stderr,
			"smc dump: warning: cannot set the capture's autogroup to nice %d (%s): at full speed it may lose records\n",
			nice, strerror(err));
}

/* The context collector beside a capture file: FILE.ctx (capture_ctx.h);
 * without it the capture runs on
 */
static void start_ctx(struct capture *c)
{
	char *path;

	if (!c->o->file || !strcmp(c->o->file, "-"))
		return;
	if (asprintf(&path, "%s.ctx", c->o->file) < 0) {
		fprintf(stderr, "smc dump: warning: out of memory: no connection context\n");
		return;
	}
	if (ctx_open(&c->ctx, path, 0))
		fprintf(stderr, "smc dump: warning: the capture runs without the connections' context\n");
	free(path);
}

static int run_capture(struct start_opts *o, int notify_fd)
{
	struct capture c = { .o = o, .sfd = -1, .notify_fd = notify_fd };
	struct capture_backend *b = &c.backend;
	struct capture_tcpdump *td = &c.tcpdump;
	struct rtnl_link l;
	bool have_stats;
	int rc, err, logfd = -1;
	struct sigaction old;
	sigset_t mask;

	tcpdump_init(td);
	/* SIGINT even when the shell ignores it for background jobs: kill
	 * -INT is meant; SIGHUP not when ignored (nohup)
	 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	hup_ignored = !sigaction(SIGHUP, NULL, &old) &&
		      old.sa_handler == SIG_IGN;
	if (!hup_ignored)
		sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	/* a reader that goes away (smc dump start | head) ends the decoder,
	 * not us
	 */
	signal(SIGPIPE, SIG_IGN);
	c.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (c.sfd < 0) {
		fprintf(stderr, "Error: signalfd: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	err = rtnl_open(&b->rt);
	if (err) {
		fprintf(stderr, "Error: cannot open rtnetlink: %s\n",
			strerror(-err));
		return EXIT_FAIL;
	}
	rc = check_names(b, o);
	if (rc)
		goto out;
	if (o->background) {
		logfd = open_log(&c);
		if (logfd < 0) {
			rc = EXIT_FAIL;
			goto out;
		}
	}
	rc = make_link(&c);
	if (rc)
		goto out;
	/* tcpdump, the live decoder and (bpf backend) this process take
	 * the records from the kernel; ahead of the traffic they keep up,
	 * which slows the traffic instead of losing records
	 */
	if (setpriority(PRIO_PROCESS, 0, o->nice))
		fprintf(stderr,
			"smc dump: warning: cannot run the capture at nice %d (%s): at full speed it may lose records\n",
			o->nice, strerror(errno));
	else if (o->background)
		autogroup_nice(o->nice);
	rc = spawn(&c);
	if (rc)
		goto out;
	alias_tcpdump(&c);
	if (run_loop(&c, true) && b->bpf && bpf_cap_attach(b->bpf, b->name)) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (!td->ready) {
		/* tcpdump ended before it listened */
		int st = td->status;

		if (c.stop) {
			fprintf(stderr,
				"smc dump: interrupted before the capture started\n");
		} else {
			fprintf(stderr, "Error: tcpdump failed to start (%s %d)%s",
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
				td->earlylen ? ":\n" : "\n");
			fputs(td->early, stderr);
		}
		rc = EXIT_FAIL;
		goto out;
	}
	if (c.notify_fd >= 0) {
		detach(&c, logfd);
		logfd = -1;
	} else {
		fprintf(stderr, "smc dump: capturing on %s (%smode %s, type %s, snaplen %u%s%s), ",
			b->name, b->bpf ? "backend bpf, " : "",
			cap_mode_names[o->mode], cap_type_names[o->type],
			o->snaplen, o->mode == CAP_ALL ? ", tcpdump -i any" : "",
			o->filter && *o->filter ? ", with a filter" : "");
		if (o->file)
			fprintf(stderr, "writing %s; ", o->file);
		fprintf(stderr, "^C ends it\n");
		capture_status_start(&c.status, o, &b->rt, b->name);
	}
	start_ctx(&c);
	run_loop(&c, false);
	ctx_close(&c.ctx);
	capture_status_stop(&c.status);
	/* tcpdump flushed and closed its output: the decoder reads it to
	 * the end
	 */
	while (c.dpid) {
		int st;

		if (waitpid(c.dpid, &st, 0) == c.dpid || errno != EINTR)
			c.dpid = 0;
	}
	have_stats = link_stats(b, &l);
	del_link(b);
	print_summary(&c, &l, have_stats);
	if (WIFEXITED(td->status) && !WEXITSTATUS(td->status))
		rc = EXIT_OK;
	else if (WIFSIGNALED(td->status) && WTERMSIG(td->status) == SIGTERM &&
		 c.stop)
		rc = EXIT_OK;
	else
		rc = EXIT_FAIL;
out:
	if (td->pid) {
		tcpdump_end(td);
		run_loop(&c, false);
	}
	del_link(b);
	ctx_close(&c.ctx);
	bpf_cap_free(b->bpf);
	if (logfd >= 0)
		close(logfd);
	if (rc && c.notify_fd >= 0 && c.logpath[0])
		unlink(c.logpath);
	rtnl_close(&b->rt);
	close(c.sfd);
	tcpdump_free(td);
	return rc;
}

static pid_t bg_child;

static void forward_signal(int sig)
{
	(void)sig;
	if (bg_child > 0)
		kill(bg_child, SIGTERM);
}

/* background: the child runs the capture; we wait until it runs or fails */
static int start_background(struct start_opts *o)
{
	struct sigaction sa = { .sa_handler = forward_signal };
	char msg[128], name[IF_NAMESIZE] = "";
	ssize_t n = 0, r;
	int p[2], st, pid = 0;

	if (pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "Error: pipe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(stdout);
	fflush(stderr);
	bg_child = fork();
	if (bg_child < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (!bg_child) {
		int devnull;

		/* keep no descriptor of the caller but 0, 1, 2 (replaced at
		 * detach) and the pipe, which becomes 3
		 */
		close(p[0]);
		if (p[1] != 3) {
			dup2(p[1], 3);
			close(p[1]);
			p[1] = 3;
		}
		fcntl(3, F_SETFD, FD_CLOEXEC);
		close_range(4, ~0U, 0);
		devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			close(devnull);
		}
		setsid();
		exit(run_capture(o, p[1]));
	}
	close(p[1]);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (n < (ssize_t)sizeof(msg) - 1) {
		r = read(p[0], msg + n, sizeof(msg) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(p[0]);
	msg[n] = '\0';
	if (!n || sscanf(msg, "%15s %d", name, &pid) != 2) {
		/* it failed and said why on our stderr */
		while (waitpid(bg_child, &st, 0) < 0 && errno == EINTR)
			;
		return WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) :
		       EXIT_FAIL;
	}
	new_json_obj(json, pretty);
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s: ", name);
	print_string(PRINT_FP, NULL, "%s", "capture running in the background, ");
	print_int(PRINT_ANY, "pid", "pid %d, ", pid);
	print_string(PRINT_ANY, "file", "writing %s", o->file);
	close_json_object();
	print_nl();
	delete_json_obj();
	return EXIT_OK;
}

/**
 * dump_start() - smc dump start (see dump_capture.h)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "start"
 *
 * Return: 0 when the capture ran (foreground: and ended cleanly;
 * background: and is running), 1 on failure, 2 on a usage error.
 */
int dump_start(int argc, char **argv)
{
	struct start_opts o = {
		.mode = CAP_SMC, .type = 0, .nice = CAPTURE_NICE
	};
	int rc;

	rc = parse_start(argc, argv, &o);
	if (rc < 0) {
		rc = EXIT_OK;
		goto out;
	}
	if (rc)
		goto out;
	if (!find_in_path("tcpdump", o.tcpdump, sizeof(o.tcpdump))) {
		fprintf(stderr,
			"Error: tcpdump not found in PATH: smc dump start runs it to capture (Debian: apt-get install tcpdump)\n");
		rc = EXIT_FAIL;
		goto out;
	}
	if (o.background)
		rc = start_background(&o);
	else
		rc = run_capture(&o, -1);
out:
	words_free(&o.pw);
	free(o.file);
	return rc;
}
