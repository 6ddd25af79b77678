// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - smc check: can a connection use SMC, and if not, why.
 *
 * It makes the connection itself with an SMC socket (socket(AF_INET[6],
 * SOCK_STREAM, IPPROTO_SMC) of Linux 6.11 and later, else AF_SMC), so the
 * CLC handshake is done when connect() or accept() returns; then it looks
 * the socket up in sock_diag by its inode, as smc socket shows it
 * (smc_socket_lookup(), socket.c): the mode, SMC-R's device and port or
 * SMC-D's link group, and for a fallback the local reason and the peer's
 * diagnosis, named from the one table of lib/smc_codes.c, each with one
 * line of advice.
 *
 *   HOST PORT     connect to a server; the client's view
 *   server PORT   accept one connection on PORT; the server's view
 *   loopback      both on this host (127.0.0.1): both views
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "json_print.h"
#include "smc.h"
#include "smc_codes.h"

#include "smc_af.h"

/* how long connect() and accept() may take */
#define CHECK_TIMEOUT_MS 10000

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] check { HOST PORT | server PORT | loopback }\n"
		"       smc check help\n"
		"Exit status: 0 SMC used, 1 fallback to TCP or error, 2 usage\n");
}

/* One line of advice per decline / fallback code */
static const struct {
	unsigned int code;
	const char *advice;
} advice[] = {
	{ 0x01010000, "memory for SMC buffers ran out: smc stats shows the buffers in use" },
	{ 0x02010000, "the peer did not confirm the SMC-R link: check RDMA between the hosts (smc device, smc linkgroup)" },
	{ 0x02020000, "the peer did not confirm the added SMC-R link: check the second RoCE path" },
	{ 0x03010000, "the peer has no SMC: run the server with smc run, or on an SMC socket (smc socket listening shows it)" },
	{ 0x03020000, "the connection uses IPsec, which SMC does not support" },
	{ 0x03030000, "no SMC device for this route: smc device; SMC-D needs ISM or loopback-ism, SMC-R a RoCE device with the interface's PNET ID (smc pnet)" },
	{ 0x03030001, "no ISM or loopback-ism device: smc device smcd (loopback-ism needs CONFIG_SMC_LO)" },
	{ 0x03030002, "no RoCE device with a PNET ID matching the interface: smc pnet add PNETID eth IFNAME ib DEVICE" },
	{ 0x03030003, "the ISM device has no SMC-Dv2 support" },
	{ 0x03030004, "the peer offered no SMCv2: compare smc info on both sides" },
	{ 0x03030005, "the peer offered no SMC-Dv2: compare smc info and smc device on both sides" },
	{ 0x03030006, "the peer sent no system EID: smc info shows this host's" },
	{ 0x03030007, "no SMC-Dv2 device (ISMv2 or loopback-ism): smc device smcd" },
	{ 0x03030008, "no UEID in common: smc ueid add NAME on both hosts (SMC-Dv2 over loopback-ism needs one)" },
	{ 0x0303000a, "the peers did not agree on the connections per link group (net.smc.smcr_max_conns_per_lgr)" },
	{ 0x0303000b, "the peers did not agree on the links per link group (net.smc.smcr_max_links_per_lgr)" },
	{ 0x03040000, "the two sides have no SMC mode in common: compare smc info and smc device on both" },
	{ 0x03060000, "a socket option (TCP Fast Open) forces TCP: leave it off for SMC" },
	{ 0x03070000, "SMCv1 needs both hosts in one IP subnet: use SMCv2 or the same subnet" },
	{ 0x030c0000, "the SMC versions do not match: compare smc info on both sides" },
	{ 0x030d0000, "the SMC-D device has no DMB left: fewer connections, or smaller buffers (net.smc.rmem)" },
	{ 0x030e0000, "SMC-Rv2: no route to the peer over a RoCE device" },
	{ 0x05000000, "the peer declined: its reason is the peer diagnosis" },
};

static const char *advice_for(unsigned int code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(advice); i++)
		if (advice[i].code == code)
			return advice[i].advice;
	return NULL;
}

/* An SMC stream socket of @family: IPPROTO_SMC, else AF_SMC */
static int smc_socket(int family)
{
	int fd = socket(family, SOCK_STREAM, IPPROTO_SMC);

	if (fd >= 0)
		return fd;
	if (errno != EINVAL && errno != EPROTONOSUPPORT &&
	    errno != ESOCKTNOSUPPORT)
		goto fail;
	fd = socket(AF_SMC, SOCK_STREAM,
		    family == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	if (fd >= 0)
		return fd;
	if (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT) {
		fprintf(stderr,
			"Error: SMC is not available in the running kernel (neither IPPROTO_SMC nor AF_SMC sockets); %s\n",
			smc_no_smc_advice());
		return -1;
	}
fail:
	fprintf(stderr, "Error: cannot open an SMC socket: %s\n",
		strerror(errno));
	return -1;
}

/* Wait until @fd is ready for @events, at most CHECK_TIMEOUT_MS */
static int wait_fd(int fd, short events, const char *what)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	do
		n = poll(&p, 1, CHECK_TIMEOUT_MS);
	while (n < 0 && errno == EINTR);
	if (n == 0) {
		fprintf(stderr, "Error: %s: no answer in %d s\n", what,
			CHECK_TIMEOUT_MS / 1000);
		return -1;
	}
	if (n < 0) {
		fprintf(stderr, "Error: %s: %s\n", what, strerror(errno));
		return -1;
	}
	return 0;
}

/* connect() @fd to @sa with the timeout; 0 or -1 after a message */
static int connect_to(int fd, const struct sockaddr *sa, socklen_t len,
		      const char *what)
{
	struct timeval tv = { .tv_sec = CHECK_TIMEOUT_MS / 1000 };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, sa, len) < 0) {
		fprintf(stderr, "Error: cannot connect to %s: %s\n", what,
			errno == EINPROGRESS ? "timed out" : strerror(errno));
		return -1;
	}
	return 0;
}

static void print_addr(const char *akey, const char *pkey,
		       const struct sockaddr_storage *ss, const char *fmt)
{
	char a[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 8];
	const void *ip;
	unsigned int port;

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		ip = &s6->sin6_addr;
		port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		ip = &s4->sin_addr;
		port = ntohs(s4->sin_port);
	}
	if (!inet_ntop(ss->ss_family, ip, a, sizeof(a)))
		strcpy(a, "?");
	print_string(PRINT_JSON, akey, NULL, a);
	print_uint(PRINT_JSON, pkey, NULL, port);
	snprintf(buf, sizeof(buf), ss->ss_family == AF_INET6 ? "[%s]:%u" :
		 "%s:%u", a, port);
	print_string(PRINT_FP, NULL, fmt, buf);
}

/* A code with its name, text and advice: text one line each */
static void print_code(const char *key, const char *key_name,
		       unsigned int code, const char *label)
{
	const char *name = smc_decline_name(code);
	const char *text = smc_decline_text(code);
	char hex[12];

	snprintf(hex, sizeof(hex), "0x%08x", code);
	print_string(PRINT_FP, NULL, "\n  %s", label);
	print_string(PRINT_ANY, key, " %s", hex);
	if (name)
		print_string(PRINT_ANY, key_name, " %s", name);
	else
		print_null(PRINT_ANY, key_name, " %s", "?");
	print_string(PRINT_FP, NULL, " (%s)",
		     text ? text : smc_decline_class(code));
}

/*
 * One side of the connection @fd: addresses, mode, device, reasons,
 * advice. Returns 0 when it used SMC, 1 on a fallback or error.
 */
static int report(int fd, const char *role)
{
	struct sockaddr_storage l = { 0 }, p = { 0 };
	socklen_t ll = sizeof(l), pl = sizeof(p);
	struct smc_sock_state st;
	const char *adv[2];
	unsigned int version = 0;
	struct stat sb;
	int i, n = 0;

	if (fstat(fd, &sb) < 0 || getsockname(fd, (void *)&l, &ll) < 0 ||
	    getpeername(fd, (void *)&p, &pl) < 0) {
		fprintf(stderr, "Error: the %s socket: %s\n", role,
			strerror(errno));
		return 1;
	}
	if (smc_socket_lookup(sb.st_ino, &st))
		return 1;
	if (!st.found) {
		fprintf(stderr,
			"Error: the %s socket (inode %llu) is not among the SMC sockets sock_diag lists\n",
			role, (unsigned long long)sb.st_ino);
		return 1;
	}
	if ((st.have_lgr || st.have_dmb) &&
	    smc_linkgroup_version(&st, &version))
		return 1;
	open_json_object(NULL);
	print_string(PRINT_ANY, "role", "%s ", role);
	print_addr("local_address", "local_port", &l, "%s");
	print_addr("peer_address", "peer_port", &p, " > %s: ");
	if (st.mode)
		print_string(PRINT_ANY, "mode", "%s", st.mode);
	else
		print_null(PRINT_ANY, "mode", "%s", "unknown mode");
	if (st.have_lgr || st.have_dmb) {
		if (version)
			print_uint(PRINT_ANY, "version", " v%u", version);
		else
			print_null(PRINT_JSON, "version", NULL, NULL);
	}
	if (st.have_lgr) {
		open_json_object("smcr");
		print_string(PRINT_ANY, "ibdev", " ibdev %s", st.ibdev);
		print_uint(PRINT_ANY, "ibport", " port %u", st.ibport);
		print_uint(PRINT_ANY, "link_id", " link_id %u", st.link_id);
		close_json_object();
	}
	if (st.have_dmb) {
		char id[12];

		snprintf(id, sizeof(id), "0x%08x", st.linkgroup_id);
		open_json_object("smcd");
		print_string(PRINT_ANY, "linkgroup_id", " link group %s", id);
		close_json_object();
	}
	if (st.fallback || st.reason || st.peer_diagnosis) {
		open_json_object("fallback");
		print_code("reason", "reason_name", st.reason, "reason");
		if (st.reason)
			adv[n++] = advice_for(st.reason);
		if (st.peer_diagnosis) {
			print_code("peer_diagnosis", "peer_diagnosis_name",
				   st.peer_diagnosis, "peer diagnosis");
			adv[n++] = advice_for(st.peer_diagnosis);
		} else {
			print_null(PRINT_JSON, "peer_diagnosis", NULL, NULL);
			print_null(PRINT_JSON, "peer_diagnosis_name", NULL,
				   NULL);
		}
		close_json_object();
	}
	open_json_array(PRINT_JSON, "advice");
	for (i = 0; i < n; i++) {
		if (!adv[i])
			continue;
		print_string(PRINT_FP, NULL, "%s", "\n  advice: ");
		print_string(PRINT_ANY, NULL, "%s", adv[i]);
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
	close_json_object();
	return st.fallback || !st.mode;
}

/* A listening SMC socket on @port of the loopback (or any) address */
static int listen_on(bool any, unsigned int port, struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	int one = 1, fd;

	fd = smc_socket(AF_INET);
	if (fd < 0)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(port);
	sa->sin_addr.s_addr = htonl(any ? INADDR_ANY : INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (void *)sa, sizeof(*sa)) < 0 || listen(fd, 1) < 0 ||
	    getsockname(fd, (void *)sa, &len) < 0) {
		fprintf(stderr, "Error: cannot listen on port %u: %s\n", port,
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int accept_one(int lfd)
{
	int fd;

	if (wait_fd(lfd, POLLIN, "accept"))
		return -1;
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		fprintf(stderr, "Error: accept: %s\n", strerror(errno));
	return fd;
}

static int check_loopback(void)
{
	struct sockaddr_in sa;
	int lfd, cfd, sfd = -1, ret = 1;

	lfd = listen_on(false, 0, &sa);
	if (lfd < 0)
		return 1;
	cfd = smc_socket(AF_INET);
	if (cfd >= 0 && !connect_to(cfd, (void *)&sa, sizeof(sa),
				    "the loopback listener"))
		sfd = accept_one(lfd);
	if (sfd >= 0) {
		new_json_obj(json, pretty);
		ret = report(cfd, "client");
		ret |= report(sfd, "server");
		delete_json_obj();
		close(sfd);
	}
	if (cfd >= 0)
		close(cfd);
	close(lfd);
	return ret;
}

static int check_server(unsigned int port)
{
	struct sockaddr_in sa;
	int lfd, fd, ret;

	lfd = listen_on(true, port, &sa);
	if (lfd < 0)
		return 1;
	fd = accept_one(lfd);
	close(lfd);
	if (fd < 0)
		return 1;
	new_json_obj(json, pretty);
	ret = report(fd, "server");
	delete_json_obj();
	close(fd);
	return ret;
}

static int check_client(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai;
	int fd, rc, ret;
	char what[300];

	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		fprintf(stderr, "Error: cannot resolve \"%s\": %s\n", host,
			gai_strerror(rc));
		return 1;
	}
	fd = smc_socket(ai->ai_family);
	snprintf(what, sizeof(what), "%s port %s", host, port);
	if (fd < 0 || connect_to(fd, ai->ai_addr, ai->ai_addrlen, what)) {
		freeaddrinfo(ai);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	freeaddrinfo(ai);
	new_json_obj(json, pretty);
	ret = report(fd, "client");
	delete_json_obj();
	close(fd);
	return ret;
}

static int parse_port(const char *arg, unsigned int *port)
{
	uint16_t v;

	if (get_u16(&v, arg, 10) || !v)
		return invarg("not a port number (1 to 65535)", arg);
	*port = v;
	return 0;
}

static int extra(const char *arg)
{
	fprintf(stderr,
		"Error: unexpected argument \"%s\", try \"smc check help\".\n",
		arg);
	return EXIT_USAGE;
}

static int check_cmd_loopback(int argc, char **argv)
{
	if (argc > 0)
		return extra(argv[0]);
	return check_loopback();
}

/* server PORT */
static int check_cmd_server(int argc, char **argv)
{
	unsigned int port = 0;	/* parse_port() sets it */

	if (argc < 1) {
		fprintf(stderr,
			"Error: \"server\" needs a PORT, try \"smc check help\".\n");
		return EXIT_USAGE;
	}
	if (argc > 1)
		return extra(argv[1]);
	if (parse_port(argv[0], &port))
		return EXIT_USAGE;
	return check_server(port);
}

/* HOST PORT */
static int check_cmd_client(int argc, char **argv)
{
	unsigned int port;

	if (argc < 2) {
		fprintf(stderr,
			"Error: \"%s\" needs a PORT, try \"smc check help\".\n",
			argv[0]);
		return EXIT_USAGE;
	}
	if (argc > 2)
		return extra(argv[2]);
	if (parse_port(argv[1], &port))
		return EXIT_USAGE;
	return check_client(argv[0], argv[1]);
}

/* any other first word is the HOST of a client check */
static const struct cmd check_cmds[] = {
	{ "loopback", check_cmd_loopback, CMD_EXACT },
	{ "server", check_cmd_server, CMD_EXACT },
	{ NULL, check_cmd_client, 0 },
};

/* smc check { HOST PORT | server PORT | loopback } */
int do_check(int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr,
			"Error: check needs HOST PORT, server PORT or loopback, try \"smc check help\".\n");
		return EXIT_USAGE;
	}
	return cmd_select(check_cmds, argc, argv, "check", usage);
}

/* smc_chk's modes, in its order of precedence in messages */
enum chk_mode { CHK_NONE, CHK_STATIC, CHK_LIVE, CHK_PNETID, CHK_CONNECT,
		CHK_SERVER };

static const char *chk_mode_opt(enum chk_mode m)
{
	static const char *const names[] = {
		[CHK_STATIC] = "'-s/--static-analysis'",
		[CHK_LIVE] = "'-l/--live-test'",
		[CHK_PNETID] = "'-i/--pnetid'",
		[CHK_CONNECT] = "'-C/--connect'",
		[CHK_SERVER] = "'-S/--server'",
	};

	return names[m] ? names[m] : "";
}

static void smc_chk_usage(void)
{
	printf("\n"
	       "Usage: smc_chk [OPTIONS] -C <IP>\n"
	       "       smc_chk [OPTIONS] -S\n"
	       "       smc_chk -i <iface>\n"
	       "\n"
	       "Check whether connections use SMC (smc-dump's smc check)\n"
	       "\n"
	       "   -C, --connect <IP>           connect to IP (its smc_chk -S)\n"
	       "   -d, --debug                  debug lines\n"
	       "   -h, --help                   this text\n"
	       "   -i, --pnetid <IFACE>         the PNET ID of IFACE\n"
	       "   -p, --port <PORT>            the port, or the first free one\n"
	       "                                from it for -S (default: 37373)\n"
	       "   -S, --server                 accept a connection and report it\n"
	       "   -v, --version                the version\n"
	       "   -6, --ipv6                   the server listens on IPv6\n"
	       "\n");
}

/* The client's result in smc_chk's lines, from sock_diag's view of @fd */
static void chk_result(int fd)
{
	struct smc_sock_state st;
	struct stat sb;
	const char *name;

	if (fstat(fd, &sb) < 0 || smc_socket_lookup(sb.st_ino, &st) ||
	    !st.found) {
		printf("     Failed, no connection\n");
		return;
	}
	if (!st.fallback && st.mode) {
		printf("     Success, using %s\n", st.mode);
		return;
	}
	printf("     Failed  (TCP fallback), reasons:\n");
	name = smc_decline_name(st.reason);
	printf("          Client: 0x%08x  %s\n", st.reason,
	       name ? name : "(Unknown error code)");
	if (st.peer_diagnosis) {
		name = smc_decline_name(st.peer_diagnosis);
		printf("          Server: 0x%08x  %s\n", st.peer_diagnosis,
		       name ? name : "(Unknown error code or non-Linux OS)");
	}
}

/* 0 when @host resolves, else 1 after smc_chk's message */
static int chk_resolve(const char *host)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;

	if (getaddrinfo(host, NULL, &hints, &ai)) {
		printf("Error: Unknown destination '%s'\n", host);
		return 1;
	}
	freeaddrinfo(ai);
	return 0;
}

/* smc_chk -C HOST: connect to the server smc_chk -S runs on HOST */
static int chk_connect(const char *host, unsigned int port, int dbg)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	char ip[INET6_ADDRSTRLEN] = "";
	struct addrinfo *ai;
	int fd;

	if (getaddrinfo(host, NULL, &hints, &ai)) {
		printf("Error: Unknown destination '%s'\n", host);
		return 1;
	}
	if (ai->ai_family == AF_INET)
		inet_ntop(AF_INET,
			  &((struct sockaddr_in *)ai->ai_addr)->sin_addr, ip,
			  sizeof(ip));
	else
		inet_ntop(AF_INET6,
			  &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, ip,
			  sizeof(ip));
	if (ai->ai_family == AF_INET)
		((struct sockaddr_in *)ai->ai_addr)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons(port);
	printf("Test with target IP %s and port %u\n", ip, port);
	printf("  Live test (SMC-D and SMC-R)\n");
	if (dbg)
		printf("[DEBUG] Running client: SMC socket to %s port %u\n",
		       ip, port);
	fflush(stdout);
	fd = smc_socket(ai->ai_family);
	if (fd < 0 || connect_to(fd, ai->ai_addr, ai->ai_addrlen, host))
		printf("     Failed, no connection\n");
	else
		chk_result(fd);
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	printf("\n");
	return 0;
}

/* smc_chk -S: the first free port from @port (IPv6 with @v6), one
 * connection reported
 */
static int chk_server(unsigned int port, bool v6, int dbg)
{
	struct sockaddr_in6 sa6;
	struct sockaddr_in sa;
	unsigned int p;
	int lfd = -1, fd, ret;

	for (p = port; p < port + 100 && p <= 65535 && lfd < 0; p++) {
		fd = smc_socket(v6 ? AF_INET6 : AF_INET);
		if (fd < 0)
			return 1;
		memset(&sa, 0, sizeof(sa));
		sa.sin_family = AF_INET;
		sa.sin_port = htons(p);
		memset(&sa6, 0, sizeof(sa6));
		sa6.sin6_family = AF_INET6;
		sa6.sin6_port = htons(p);
		if (bind(fd, v6 ? (void *)&sa6 : (void *)&sa,
			 v6 ? sizeof(sa6) : sizeof(sa)) == 0 &&
		    listen(fd, 1) == 0)
			lfd = fd;
		else
			close(fd);
	}
	if (lfd < 0) {
		fprintf(stderr, "Error: no free port from %u\n", port);
		return 1;
	}
	printf("Server started on port %u\n", p - 1);
	if (dbg)
		printf("[DEBUG] waiting for one connection\n");
	fflush(stdout);
	fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (fd < 0) {
		fprintf(stderr, "Error: accept: %s\n", strerror(errno));
		return 1;
	}
	new_json_obj(0, 0);
	ret = report(fd, "server");
	delete_json_obj();
	close(fd);
	return ret;
}

/* smc_chk -i IFACE: its PNET ID from sysfs (PCI or CCW device) */
static int chk_pnetid(const char *iface, int dbg)
{
	char path[PATH_MAX], pnetid[20];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/class/net/%s", smc_sysfs_root(),
		 iface);
	if (strchr(iface, '/') || stat(path, &sb)) {
		printf("Error: Interface %s does not exist\n", iface);
		return 1;
	}
	if (dbg)
		printf("[DEBUG] Determine PNET ID for %s\n", iface);
	if (smc_rnics_pnetid(iface, pnetid, sizeof(pnetid)))
		printf("%s\n", pnetid);
	return 0;
}

/*
 * smc_chk_main() - the smc_chk entry point: smc-tools' smc_chk -C HOST,
 * -S, -i IFACE with -p PORT, -6, -d, -h, -v. Its live and static tests of
 * interfaces (-l, -s) are not offered: smc check HOST PORT tests one
 * connection.
 *
 * Exit status as smc_chk: 0 (a test ran, whatever its result; usage), 1
 * error, 2 bad option.
 */
int smc_chk_main(int argc, char **argv, const char *version)
{
	static const struct option longopts[] = {
		{ "connect", required_argument, NULL, 'C' },
		{ "debug", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "pnetid", required_argument, NULL, 'i' },
		{ "server", no_argument, NULL, 'S' },
		{ "static-analysis", no_argument, NULL, 's' },
		{ "live-test", no_argument, NULL, 'l' },
		{ "version", no_argument, NULL, 'v' },
		{ "ipv6", no_argument, NULL, '6' },
		{ NULL, 0, NULL, 0 },
	};
	enum chk_mode mode = CHK_NONE, m;
	const char *host = NULL, *iface = NULL;
	unsigned int port = 37373;
	int c, dbg = 0;
	bool v6 = false;
	uint16_t v;
	char *prog;

	/*
	 * smc_chk parses its options with getopt(1), whose messages name
	 * "getopt": the same first line of stderr for a bad option
	 */
	prog = argv[0];
	argv[0] = (char *)"getopt";
	while ((c = getopt_long(argc, argv, "C:dhi:lp:sSv6", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'C':
			m = CHK_CONNECT;
			host = optarg;
			break;
		case 'i':
			m = CHK_PNETID;
			iface = optarg;
			break;
		case 'l':
			m = CHK_LIVE;
			break;
		case 's':
			m = CHK_STATIC;
			break;
		case 'S':
			m = CHK_SERVER;
			break;
		case 'd':
			dbg++;
			continue;
		case 'h':
			smc_chk_usage();
			return EXIT_OK;
		case 'p':
			if (get_u16(&v, optarg, 10) || !v) {
				printf("Error: Invalid port '%s'\n", optarg);
				return 1;
			}
			port = v;
			continue;
		case 'v':
			printf("smc_chk utility, smc-dump-%s\n", version);
			return EXIT_OK;
		case '6':
			v6 = true;
			continue;
		default:
			return 2;
		}
		if (mode != CHK_NONE && mode != m) {
			printf("Error: Cannot combine options %s and %s\n",
			       chk_mode_opt(mode), chk_mode_opt(m));
			return 1;
		}
		mode = m;
		/* smc_chk resolves the host as it reads -C */
		if (c == 'C' && chk_resolve(host))
			return 1;
	}
	argv[0] = prog;
	if (optind < argc && mode == CHK_PNETID) {
		printf("Error: Option -P/--print-PNETID takes no extra targets\n");
		return 1;
	}
	switch (mode) {
	case CHK_NONE:
		/* interfaces without -l or -s: smc_chk's usage too */
		smc_chk_usage();
		return EXIT_OK;
	case CHK_CONNECT:
		return chk_connect(host, port, dbg);
	case CHK_SERVER:
		return chk_server(port, v6, dbg);
	case CHK_PNETID:
		return chk_pnetid(iface, dbg);
	default:
		break;
	}
	fprintf(stderr,
		"Error: smc_chk's tests of interfaces (-l, -s) are not offered; use smc_chk -C HOST against smc_chk -S, or smc check.\n");
	return 1;
}
