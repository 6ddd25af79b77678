// SPDX-License-Identifier: GPL-2.0
/*
 * smc-traffic: move a seeded pseudo-random byte pattern over SMC (or plain
 * TCP) in both directions at once, verify it byte for byte, print the
 * SHA-256 of every byte stream, and tell from the TCP socket under each SMC
 * socket whether SMC really carried the data or the connection fell back
 * to TCP.
 *
 *   smc-traffic server [-4|-6] [-a ADDR] [-p PORT] [-n BYTES] [-s SEED]
 *                      [-c CONNS] [OPTIONS]
 *   smc-traffic client -a ADDR [-p PORT] [-n BYTES] [-s SEED] [-c CONNS]
 *                      [OPTIONS]
 *   smc-traffic pattern [-n BYTES] [-s SEED] [-i INDEX] -d c2s|s2c
 *
 * Pattern. Each connection moves BYTES bytes client to server (c2s,
 * direction 0) and BYTES bytes server to client (s2c, direction 1). The
 * bytes of direction d of connection i are splitmix64 output, little endian:
 *
 *   mix64(z): z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9
 *             z = (z ^ z >> 27) * 0x94d049bb133111eb
 *             return z ^ z >> 31                      (all mod 2^64)
 *   key      = mix64(mix64(seed) + 2 * i + d)
 *   word k   = mix64(key + (k + 1) * 0x9e3779b97f4a7c15),  k = 0, 1, ...
 *   byte o   = (word (o / 8) >> (8 * (o % 8))) & 0xff
 *
 * so any byte can be computed from its offset, and "smc-traffic pattern"
 * writes a stream to stdout for independent checks (sha256sum, captures).
 *
 * Connection index. The client opens all CONNS connections, then both sides
 * number them 0..CONNS-1 in the order of the client's (address, port), as
 * the client sees its local end and the server sees its peer. No bytes
 * other than the pattern travel on a connection, so a capture of the
 * stream equals the pattern exactly. Client and server must be given the
 * same -n, -s, -c and --no-verify, and a server serves exactly one client
 * run. With --no-verify a stream is the pattern's first 128 KiB repeated.
 *
 * Output (stdout, one line each, in connection order, after the transfer):
 *
 *   listening PORT                                     (server, at once)
 *   conn I local ADDR PORT peer ADDR PORT
 *   conn I tx bytes N sha256 HEX
 *   conn I rx bytes N sha256 HEX verify ok
 *   conn I rx bytes N sha256 HEX verify mismatch offset O
 *   conn I rx bytes N sha256 HEX verify error   (receive failed: I/O error)
 *   conn I rx bytes N sha256 none verify count  (--no-verify: count only)
 *   conn I smc|fallback|unknown|tcp (tcp bytes acked X received Y)
 *   result ok|error|mismatch|fallback|no-fallback|timeout
 *
 * SMC check. After the transfer, getsockopt(SOL_TCP, TCP_INFO) on the SMC
 * socket reports the TCP socket under it (smc_getsockopt() forwards every
 * level but SOL_SMC to the CLC socket). If tcpi_bytes_acked or
 * tcpi_bytes_received exceeds the fallback threshold, TCP carried the data:
 * "fallback"; else, if BYTES exceeds the threshold, "smc"; else "unknown"
 * (too little data to tell, not an error). --tcp skips the check ("tcp")
 * unless --check-tcp. Linux 6.12 has no cleaner per-socket indicator
 * without netlink: SOL_SMC getsockopt() knows only SMC_LIMIT_HS, and
 * smc->use_fallback with its reason is reported by smc_diag (sock_diag
 * netlink, "ss --smc") and the smc_switch_to_fallback tracepoint.
 *
 * Exit codes: 0 ok, 1 error (socket, connect, I/O, SMC not available),
 * 2 usage, 3 fallback (or, with --expect-fallback, a connection that did
 * not fall back), 4 data mismatch, 5 timeout.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/tcp.h>

#include "smc_af.h"
#ifndef SOL_TCP
#define SOL_TCP		IPPROTO_TCP
#endif

#define PROG		"smc-traffic"

enum {
	RC_OK		= 0,
	RC_ERROR	= 1,
	RC_USAGE	= 2,
	RC_FALLBACK	= 3,
	RC_MISMATCH	= 4,
	RC_TIMEOUT	= 5,
};

#define DEFAULT_PORT	5201
#define DEFAULT_BYTES	(1ULL << 20)
#define DEFAULT_SEED	1
#define DEFAULT_TIMEOUT	120
#define MAX_CONNS	1024
#define CHUNK		(128 * 1024)
#define THREAD_STACK	(256 * 1024)

/*
 * Fallback threshold. An SMC connection keeps only the CLC handshake on its
 * TCP socket: a proposal (under 700 bytes even for SMCv2 with the maximum
 * of 8 user EIDs, 8 ISM CHID/GID entries and 8 IPv6 prefixes) and a confirm
 * one way, an accept (about 100 bytes) or a decline the other way, a few
 * hundred bytes in practice; data and connection control (CDC) move by
 * RDMA or ISM, never on TCP. A connection
 * that fell back carries all its data on TCP. More than 16 KiB in either
 * direction of the TCP socket therefore means fallback, with a wide margin
 * over any CLC exchange. A transfer of no more than the threshold cannot be
 * told apart and is reported "unknown".
 */
#define DEFAULT_FALLBACK_THRESHOLD	(16ULL * 1024)

enum mode { MODE_SERVER, MODE_CLIENT, MODE_PATTERN };
enum direction { DIR_C2S = 0, DIR_S2C = 1 };
enum verdict { V_SMC, V_FALLBACK, V_UNKNOWN, V_TCP };

/* Options, each a bit in config.seen to check what a subcommand accepts. */
enum opt {
	O_IPV4, O_IPV6, O_ADDR, O_PORT, O_BYTES, O_SEED, O_CONNS, O_TCP,
	O_AF_SMC, O_ALLOW_FB, O_EXPECT_FB, O_THRESHOLD, O_TIMEOUT, O_READY,
	O_INDEX, O_DIR, O_CHECK_TCP, O_NO_VERIFY, O_READ_PAUSE, O_PAUSE_LOG,
	O_LONG_ONLY_BASE = 256,	/* getopt values of long-only options */
};

struct config {
	enum mode mode;
	unsigned int seen;		/* bit per enum opt given */
	int family;			/* AF_UNSPEC, AF_INET or AF_INET6 */
	const char *addr;
	unsigned int port;
	uint64_t bytes;
	uint64_t seed;
	unsigned int conns;
	bool tcp;
	bool check_tcp;
	bool af_smc;
	bool allow_fallback;
	bool expect_fallback;
	uint64_t threshold;
	unsigned int timeout;
	const char *ready_file;
	uint32_t index;
	int dir;
	bool no_verify;			/* count the bytes only (benchmarks) */
	unsigned int read_pause_ms;	/* a slow reader: sleep after each recv */
	const char *pause_log;		/* where each pause is written */
	FILE *pause_f;			/* @pause_log, open */
};

/* Outcome of one direction of one connection. */
struct stream {
	uint64_t bytes;			/* bytes moved */
	uint8_t sha[32];		/* SHA-256 of those bytes */
	int err;			/* errno of a failed call, 0 if none */
	const char *op;			/* the failed call */
	bool mismatch;			/* rx: data differed from the pattern */
	uint64_t bad_off;		/* rx: first offset that differed */
};

struct conn {
	int fd;
	unsigned int index;		/* pattern index, see rank_key */
	const struct config *cfg;
	struct sockaddr_storage local;
	struct sockaddr_storage peer;
	uint8_t rank_addr[16];		/* client address, IPv4 v4-mapped */
	uint16_t rank_port;		/* client port */
	int connect_err;
	pthread_t tx_thr, rx_thr;
	struct stream tx, rx;
	int tcpi_err;			/* errno of getsockopt(TCP_INFO) */
	uint64_t tcp_acked;
	uint64_t tcp_received;
	enum verdict verdict;
};

/* ---- SHA-256 (FIPS 180-4) ---- */

struct sha256 {
	uint32_t h[8];
	uint64_t len;			/* bytes hashed so far */
	uint8_t buf[64];
	size_t fill;			/* bytes waiting in buf */
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* sha256_init() - start a new hash. */
static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->fill = 0;
}

/* sha256_block() - run the compression function over one 64-byte block. */
static void sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^
			      (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}

	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* sha256_update() - hash @len more bytes at @data. */
static void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	if (s->fill) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;

		memcpy(s->buf + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill < 64)
			return;
		sha256_block(s->h, s->buf);
		s->fill = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(s->h, p);
	memcpy(s->buf, p, len);
	s->fill = len;
}

/* sha256_final() - pad, finish and store the 32-byte digest in @out. */
static void sha256_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->len * 8;
	int i;

	s->buf[s->fill++] = 0x80;
	if (s->fill > 56) {
		memset(s->buf + s->fill, 0, 64 - s->fill);
		sha256_block(s->h, s->buf);
		s->fill = 0;
	}
	memset(s->buf + s->fill, 0, 56 - s->fill);
	for (i = 0; i < 8; i++)
		s->buf[56 + i] = bits >> (56 - 8 * i);
	sha256_block(s->h, s->buf);
	for (i = 0; i < 8; i++) {
		out[4 * i] = s->h[i] >> 24;
		out[4 * i + 1] = s->h[i] >> 16;
		out[4 * i + 2] = s->h[i] >> 8;
		out[4 * i + 3] = s->h[i];
	}
}

/* sha256_hex() - format a digest as 64 lower-case hex digits. */
static void sha256_hex(const uint8_t sha[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[sha[i] >> 4];
		hex[2 * i + 1] = digits[sha[i] & 15];
	}
	hex[64] = '\0';
}

/* ---- Pattern ---- */

#define GOLDEN	0x9e3779b97f4a7c15ULL

/* mix64() - the splitmix64 finalizer, a bijection on 64-bit values. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* pattern_key() - the key of direction @dir of connection @index. */
static uint64_t pattern_key(uint64_t seed, uint32_t index, int dir)
{
	return mix64(mix64(seed) + 2 * (uint64_t)index + (uint64_t)dir);
}

/*
 * pattern_fill() - store the @len pattern bytes at stream offset @off of
 * the stream with key @key in @buf.
 */
static void pattern_fill(uint64_t key, uint64_t off, uint8_t *buf, size_t len)
{
	uint64_t k = off / 8;
	unsigned int b = off % 8;

	while (len) {
		uint64_t w = mix64(key + (k + 1) * GOLDEN);

		k++;
		if (!b && len >= 8) {
			uint64_t le = htole64(w);

			memcpy(buf, &le, 8);
			buf += 8;
			len -= 8;
			continue;
		}
		for (; b < 8 && len; b++, len--)
			*buf++ = w >> (8 * b);
		b = 0;
	}
}

/* ---- Diagnostics and helpers ---- */

static char timeout_msg[128];
static bool result_printed;	/* report() printed the result line */

/*
 * on_alarm() - SIGALRM handler: the run took longer than --timeout.
 * Only async-signal-safe calls here.
 */
static void on_alarm(int sig)
{
	static const char result[] = "result timeout\n";
	ssize_t rc;

	(void)sig;
	rc = write(STDERR_FILENO, timeout_msg, strlen(timeout_msg));
	rc = write(STDOUT_FILENO, result, sizeof(result) - 1);
	(void)rc;
	_exit(RC_TIMEOUT);
}

/* usage_error() - report a command line error and exit with RC_USAGE. */
static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	exit(RC_USAGE);
}

/* help() - print the help text to stdout. */
static void help(void)
{
	printf(
"Usage: " PROG " server [-4|-6] [-a ADDR] [-p PORT] [-n BYTES] [-s SEED] [-c CONNS]\n"
"                   [--tcp [--check-tcp]|--af-smc]\n"
"                   [--allow-fallback|--expect-fallback]\n"
"                   [--fallback-threshold BYTES] [-T SECS] [-r FILE]\n"
"                   [--no-verify] [--read-pause MS [--pause-log FILE]]\n"
"       " PROG " client -a ADDR [-4|-6] [-p PORT] [-n BYTES] [-s SEED] [-c CONNS]\n"
"                   [--tcp [--check-tcp]|--af-smc]\n"
"                   [--allow-fallback|--expect-fallback]\n"
"                   [--fallback-threshold BYTES] [-T SECS] [--no-verify]\n"
"                   [--read-pause MS [--pause-log FILE]]\n"
"       " PROG " pattern [-n BYTES] [-s SEED] [-i INDEX] -d c2s|s2c\n"
"       " PROG " --help\n"
"\n"
"Moves BYTES of a seeded pseudo-random pattern in each direction of each of\n"
"CONNS connections at the same time, verifies what arrives, prints the\n"
"SHA-256 of every stream and checks that SMC, not TCP, carried the data.\n"
"Sockets are socket(AF_INET|AF_INET6, SOCK_STREAM, IPPROTO_SMC) (Linux 6.11+).\n"
"\n"
"Subcommands:\n"
"  server   listen, accept CONNS connections, serve them, exit\n"
"  client   open CONNS connections to the server in parallel, exit when done\n"
"  pattern  write the bytes of one stream to stdout\n"
"\n"
"Options:\n"
"  -4, --ipv4             use IPv4 (server default when no -a: 0.0.0.0)\n"
"  -6, --ipv6             use IPv6 (server without -a: ::, also takes IPv4)\n"
"  -a, --addr ADDR        server: address to listen on; client: server address\n"
"  -p, --port PORT        TCP port (default %u; server: 0 picks a free port)\n"
"  -n, --bytes BYTES      bytes per direction per connection, suffix K, M or G\n"
"                         (binary: 1K = 1024; default 1M); 0 is allowed\n"
"  -s, --seed SEED        pattern seed, decimal or 0x hex (default %u)\n"
"  -c, --conns CONNS      number of connections, 1..%u (default 1); client and\n"
"                         server must agree\n"
"      --tcp              plain TCP sockets, no SMC check (fallback tests: a\n"
"                         TCP server makes an SMC client fall back)\n"
"      --check-tcp        with --tcp, do the SMC check anyway (plain TCP then\n"
"                         counts as fallback: tests the check without SMC)\n"
"      --af-smc           AF_SMC sockets instead of IPPROTO_SMC\n"
"      --no-verify        benchmarks: send the pattern's first 128 KiB over\n"
"                         and over, count what arrives, hash and compare\n"
"                         nothing (sha256 none, verify count); both sides\n"
"                         must agree\n"
"      --read-pause MS    a slow reader: sleep MS ms (0..60000) after each\n"
"                         receive of up to 128 KiB\n"
"      --pause-log FILE   write each pause to FILE: \"pause CONN BYTES START\n"
"                         END\", START and END in CLOCK_REALTIME seconds\n"
"      --allow-fallback   report fallback to TCP but do not fail on it\n"
"      --expect-fallback  succeed only if every connection fell back\n"
"      --fallback-threshold BYTES\n"
"                         TCP bytes in either direction above which a\n"
"                         connection counts as fallen back (default 16K)\n"
"  -T, --timeout SECS     give up after SECS for the whole run, waiting for\n"
"                         connections included (default %u, 0 = never)\n"
"  -r, --ready-file FILE  server: write the port to FILE once listening\n"
"  -i, --index INDEX      pattern: connection index (default 0)\n"
"  -d, --direction DIR    pattern: c2s (client to server) or s2c\n"
"  -h, --help             show this help\n"
"\n"
"Connections are numbered 0..CONNS-1 in the order of the client's (address,\n"
"port). Stream d (c2s = 0, s2c = 1) of connection i, little endian words:\n"
"  key = mix64(mix64(SEED) + 2*i + d), word k = mix64(key + (k+1)*0x9e3779b97f4a7c15)\n"
"  mix64 = splitmix64 finalizer (30/0xbf58476d1ce4e5b9, 27/0x94d049bb133111eb, 31)\n"
"\n"
"Output, one line each, per connection in index order, then the result:\n"
"  listening PORT                                  (server, once listening)\n"
"  conn I local ADDR PORT peer ADDR PORT\n"
"  conn I tx bytes N sha256 HEX\n"
"  conn I rx bytes N sha256 HEX verify ok|mismatch offset O|error|count\n"
"  conn I smc|fallback|unknown|tcp (tcp bytes acked X received Y)\n"
"  result ok|error|mismatch|fallback|no-fallback|timeout\n"
"smc: the TCP socket under the SMC socket (TCP_INFO) carried at most the\n"
"threshold; fallback: more; unknown: BYTES too small to tell; tcp: --tcp.\n"
"X and Y are tcpi_bytes_acked and tcpi_bytes_received (SYN and FIN count 1).\n"
"\n"
"Exit status: 0 ok, 1 error (socket, connect, I/O, SMC not available),\n"
"2 usage, 3 fallback (--expect-fallback: a connection did not fall back),\n"
"4 data mismatch, 5 timeout.\n",
	       DEFAULT_PORT, DEFAULT_SEED, MAX_CONNS, DEFAULT_TIMEOUT);
}

/* parse_u64() - parse a decimal (or, with @hex, 0x-prefixed hex) number. */
static bool parse_u64(const char *s, bool hex, uint64_t *out, char **end)
{
	int base = 10;

	if (*s < '0' || *s > '9')	/* no sign, no blanks */
		return false;
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!s[2])
			return false;
	}
	errno = 0;
	*out = strtoull(s, end, base);
	if (errno || *end == s)
		return false;
	return true;
}

/* parse_num() - parse a whole-string number no larger than @max. */
static uint64_t parse_num(const char *opt, const char *s, bool hex,
			  uint64_t max)
{
	uint64_t v;
	char *end;

	if (!parse_u64(s, hex, &v, &end) || *end || v > max)
		usage_error("invalid %s '%s'", opt, s);
	return v;
}

/* parse_size() - parse BYTES: a number with an optional K, M or G suffix. */
static uint64_t parse_size(const char *opt, const char *s)
{
	unsigned int shift = 0;
	uint64_t v;
	char *end;

	if (!parse_u64(s, false, &v, &end))
		usage_error("invalid %s '%s'", opt, s);
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		usage_error("invalid %s '%s' (a number with suffix K, M or G)",
			    opt, s);
	}
	if (shift && end[1])
		usage_error("invalid %s '%s' (a number with suffix K, M or G)",
			    opt, s);
	if (v > (UINT64_MAX >> shift))
		usage_error("%s '%s' is too large", opt, s);
	return v << shift;
}

/* family_name() - "AF_INET" or "AF_INET6" for messages. */
static const char *family_name(int family)
{
	return family == AF_INET6 ? "AF_INET6" : "AF_INET";
}

/*
 * make_socket() - create the stream socket of the run: IPPROTO_SMC (the
 * default), AF_SMC (--af-smc) or TCP (--tcp). Reports errors itself, with
 * a clear message when the kernel has no SMC. Returns the fd or -1.
 */
static int make_socket(const struct config *cfg, int family)
{
	int fd, err, probe;

	if (cfg->tcp)
		fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	else if (cfg->af_smc)
		fd = socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC,
			    family == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	else
		fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_SMC);
	if (fd >= 0)
		return fd;
	err = errno;

	if (cfg->tcp) {
		fprintf(stderr, PROG ": socket(%s, SOCK_STREAM, IPPROTO_TCP): %s\n",
			family_name(family), strerror(err));
		return -1;
	}
	if (err == EPROTONOSUPPORT || err == EAFNOSUPPORT ||
	    err == ESOCKTNOSUPPORT || err == EPFNOSUPPORT) {
		/* An IPv6-less kernel fails the same way: tell them apart. */
		probe = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
		if (probe < 0 && family == AF_INET6) {
			fprintf(stderr, PROG ": IPv6 is not available in the running kernel: %s\n",
				strerror(errno));
			return -1;
		}
		if (probe >= 0)
			close(probe);
		if (cfg->af_smc)
			fprintf(stderr, PROG ": SMC is not available in the running kernel: socket(AF_SMC, SOCK_STREAM, %s): %s (load the smc module, or use --tcp)\n",
				family == AF_INET6 ? "SMCPROTO_SMC6" : "SMCPROTO_SMC",
				strerror(err));
		else
			fprintf(stderr, PROG ": SMC is not available in the running kernel: socket(%s, SOCK_STREAM, IPPROTO_SMC): %s (IPPROTO_SMC needs Linux 6.11+ and the smc module; try --af-smc, or --tcp)\n",
				family_name(family), strerror(err));
		return -1;
	}
	fprintf(stderr, PROG ": socket(%s, SOCK_STREAM, %s): %s\n",
		cfg->af_smc ? "AF_SMC" : family_name(family),
		cfg->af_smc ? "SMCPROTO" : "IPPROTO_SMC", strerror(err));
	return -1;
}

/* resolve() - resolve ADDR and PORT to one socket address. */
static int resolve(const struct config *cfg, const char *addr, bool passive,
		   struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { 0 }, *ai;
	char port[16];
	int rc;

	hints.ai_family = cfg->family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	snprintf(port, sizeof(port), "%u", cfg->port);
	rc = getaddrinfo(addr, port, &hints, &ai);
	if (rc) {
		fprintf(stderr, PROG ": address '%s': %s\n", addr ? addr : "",
			rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

/* sa_port() - the port of an IPv4 or IPv6 socket address. */
static unsigned int sa_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

/* sa_addr() - format the address of a socket address. */
static const char *sa_addr(const struct sockaddr_storage *ss, char *buf,
			   size_t len)
{
	const void *a;

	if (ss->ss_family == AF_INET6)
		a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	else if (ss->ss_family == AF_INET)
		a = &((const struct sockaddr_in *)ss)->sin_addr;
	else
		return "?";
	if (!inet_ntop(ss->ss_family, a, buf, len))
		return "?";
	return buf;
}

/*
 * set_rank_key() - the client end of a connection as the sort key of
 * connection numbering: 16 bytes of address (IPv4 as ::ffff:a.b.c.d, as a
 * dual-stack server sees it) and the port.
 */
static void set_rank_key(struct conn *c, const struct sockaddr_storage *ss)
{
	memset(c->rank_addr, 0, sizeof(c->rank_addr));
	if (ss->ss_family == AF_INET6) {
		memcpy(c->rank_addr,
		       &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
	} else {
		c->rank_addr[10] = 0xff;
		c->rank_addr[11] = 0xff;
		memcpy(c->rank_addr + 12,
		       &((const struct sockaddr_in *)ss)->sin_addr, 4);
	}
	c->rank_port = sa_port(ss);
}

/* rank_cmp() - qsort() order of connections by client address and port. */
static int rank_cmp(const void *a, const void *b)
{
	const struct conn *x = *(struct conn * const *)a;
	const struct conn *y = *(struct conn * const *)b;
	int d = memcmp(x->rank_addr, y->rank_addr, 16);

	if (d)
		return d;
	return (int)x->rank_port - (int)y->rank_port;
}

/* ---- Transfer ---- */

/* tx_dir() / rx_dir() - the pattern direction this side sends / receives. */
static int tx_dir(const struct config *cfg)
{
	return cfg->mode == MODE_CLIENT ? DIR_C2S : DIR_S2C;
}

static int rx_dir(const struct config *cfg)
{
	return cfg->mode == MODE_CLIENT ? DIR_S2C : DIR_C2S;
}

/*
 * tx_thread() - send the pattern of this side's direction, then shut the
 * sending side down so the peer sees the end of the stream.
 */
static void *tx_thread(void *arg)
{
	struct conn *c = arg;
	const struct config *cfg = c->cfg;
	uint64_t key = pattern_key(cfg->seed, c->index, tx_dir(cfg));
	struct stream *st = &c->tx;
	struct sha256 sha;
	uint64_t off = 0;
	uint8_t *buf;

	sha256_init(&sha);
	buf = malloc(CHUNK);
	if (!buf) {
		st->err = ENOMEM;
		st->op = "malloc";
		goto out;
	}
	if (cfg->no_verify)	/* the first chunk of the pattern, over and over */
		pattern_fill(key, 0, buf, CHUNK);
	while (off < cfg->bytes) {
		size_t len = cfg->bytes - off < CHUNK ? cfg->bytes - off : CHUNK;
		size_t done = 0;

		if (!cfg->no_verify)
			pattern_fill(key, off, buf, len);
		while (done < len) {
			ssize_t n = send(c->fd, buf + done, len - done,
					 MSG_NOSIGNAL);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				st->err = errno;
				st->op = "send";
				if (!cfg->no_verify)
					sha256_update(&sha, buf, done);
				off += done;
				goto out;
			}
			done += n;
		}
		if (!cfg->no_verify)
			sha256_update(&sha, buf, len);
		off += len;
	}
	if (shutdown(c->fd, SHUT_WR)) {
		st->err = errno;
		st->op = "shutdown";
	}
out:
	free(buf);
	st->bytes = off;
	sha256_final(&sha, st->sha);
	return NULL;
}

/* first_diff() - index of the first byte where @a and @b differ. */
static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			break;
	return i;
}

/*
 * read_pause() - --read-pause: the slow reader sleeps after each recv()
 * of @n bytes on connection @index; with --pause-log each pause is a line
 * "pause INDEX BYTES START END", START and END in CLOCK_REALTIME seconds
 * (the clock of capture timestamps) with 9 decimals.
 */
static void read_pause(const struct config *cfg, uint32_t index, ssize_t n)
{
	struct timespec t0, t1, d = {
		.tv_sec = cfg->read_pause_ms / 1000,
		.tv_nsec = (long)(cfg->read_pause_ms % 1000) * 1000000,
	};

	if (!cfg->read_pause_ms)
		return;
	clock_gettime(CLOCK_REALTIME, &t0);
	while (nanosleep(&d, &d) && errno == EINTR)
		;
	clock_gettime(CLOCK_REALTIME, &t1);
	if (cfg->pause_f) {
		/* one fprintf per line: stdio locks the stream for it */
		fprintf(cfg->pause_f, "pause %" PRIu32 " %zd %lld.%09ld %lld.%09ld\n",
			index, n, (long long)t0.tv_sec, t0.tv_nsec,
			(long long)t1.tv_sec, t1.tv_nsec);
		fflush(cfg->pause_f);
	}
}

/*
 * rx_thread() - receive until the peer ends its stream, hash everything,
 * and compare it with the pattern the peer should send: record the first
 * offset that differs, including a stream that is too short or too long.
 */
static void *rx_thread(void *arg)
{
	struct conn *c = arg;
	const struct config *cfg = c->cfg;
	uint64_t key = pattern_key(cfg->seed, c->index, rx_dir(cfg));
	struct stream *st = &c->rx;
	uint8_t *buf, *want;
	struct sha256 sha;
	uint64_t off = 0;

	sha256_init(&sha);
	buf = malloc(CHUNK);
	want = malloc(CHUNK);
	if (!buf || !want) {
		st->err = ENOMEM;
		st->op = "malloc";
		goto out;
	}
	for (;;) {
		ssize_t n = recv(c->fd, buf, CHUNK, 0);
		size_t cmp, i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			st->err = errno;
			st->op = "recv";
			break;
		}
		if (!n)
			break;
		read_pause(cfg, c->index, n);
		if (cfg->no_verify) {
			/* only the count: more bytes than sent is a mismatch */
			if (!st->mismatch && off + n > cfg->bytes) {
				st->mismatch = true;
				st->bad_off = cfg->bytes;
			}
			off += n;
			continue;
		}
		sha256_update(&sha, buf, n);
		if (!st->mismatch) {
			cmp = off < cfg->bytes ? cfg->bytes - off : 0;
			if (cmp > (size_t)n)
				cmp = n;
			pattern_fill(key, off, want, cmp);
			i = first_diff(buf, want, cmp);
			if (i < cmp || cmp < (size_t)n) {
				/* differs, or more bytes than expected */
				st->mismatch = true;
				st->bad_off = off + i;
			}
		}
		off += n;
	}
	if (!st->err && !st->mismatch && off < cfg->bytes) {
		st->mismatch = true;	/* stream ended early */
		st->bad_off = off;
	}
out:
	free(buf);
	free(want);
	st->bytes = off;
	sha256_final(&sha, st->sha);
	return NULL;
}

/*
 * read_tcp_info() - read the byte counters of the TCP socket of @c. On an
 * SMC socket, getsockopt() of a level other than SOL_SMC is forwarded to
 * the CLC TCP socket under it (smc_getsockopt()), so these are the bytes
 * TCP carried: the CLC handshake only, or all the data after a fallback.
 */
static void read_tcp_info(struct conn *c)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(c->fd, SOL_TCP, TCP_INFO, &ti, &len)) {
		c->tcpi_err = errno;
		return;
	}
	if (len < offsetof(struct tcp_info, tcpi_bytes_received) +
		  sizeof(ti.tcpi_bytes_received)) {
		c->tcpi_err = EOPNOTSUPP;	/* kernel older than 4.2 */
		return;
	}
	c->tcp_acked = ti.tcpi_bytes_acked;
	c->tcp_received = ti.tcpi_bytes_received;
}

/* judge() - decide whether SMC or TCP carried the data of @c. */
static enum verdict judge(const struct config *cfg, const struct conn *c)
{
	uint64_t tcp = c->tcp_acked > c->tcp_received ?
		       c->tcp_acked : c->tcp_received;

	if (cfg->tcp && !cfg->check_tcp)
		return V_TCP;
	if (tcp > cfg->threshold)
		return V_FALLBACK;
	if (cfg->bytes > cfg->threshold)
		return V_SMC;
	return V_UNKNOWN;
}

/* print_stream() - the tx or rx line of one connection. */
static void print_stream(const struct conn *c, const char *name,
			 const struct stream *st, bool rx)
{
	char hex[65] = "none";

	if (!c->cfg->no_verify)
		sha256_hex(st->sha, hex);
	printf("conn %u %s bytes %" PRIu64 " sha256 %s", c->index, name,
	       st->bytes, hex);
	if (rx) {
		if (st->mismatch)
			printf(" verify mismatch offset %" PRIu64, st->bad_off);
		else if (st->err)
			printf(" verify error");	/* ended early by an error */
		else if (c->cfg->no_verify)
			printf(" verify count");	/* the byte count only */
		else
			printf(" verify ok");
	}
	printf("\n");
}

/*
 * report() - print the lines of every connection in index order and the
 * result line; return the exit code.
 */
static int report(const struct config *cfg, struct conn **order)
{
	static const char *const vname[] = {
		[V_SMC] = "smc", [V_FALLBACK] = "fallback",
		[V_UNKNOWN] = "unknown", [V_TCP] = "tcp",
	};
	bool error = false, mismatch = false, fallback = false;
	bool all_fallback = true;
	char la[INET6_ADDRSTRLEN], pa[INET6_ADDRSTRLEN];
	const char *result = "ok";
	unsigned int i;
	int rc = RC_OK;

	for (i = 0; i < cfg->conns; i++) {
		struct conn *c = order[i];

		printf("conn %u local %s %u peer %s %u\n", c->index,
		       sa_addr(&c->local, la, sizeof(la)), sa_port(&c->local),
		       sa_addr(&c->peer, pa, sizeof(pa)), sa_port(&c->peer));
		print_stream(c, "tx", &c->tx, false);
		print_stream(c, "rx", &c->rx, true);
		if (c->tx.err) {
			fprintf(stderr, PROG ": conn %u: %s: %s\n", c->index,
				c->tx.op, strerror(c->tx.err));
			error = true;
		}
		if (c->rx.err) {
			fprintf(stderr, PROG ": conn %u: %s: %s\n", c->index,
				c->rx.op, strerror(c->rx.err));
			error = true;
		}
		if (c->rx.mismatch && cfg->no_verify) {
			fprintf(stderr, PROG ": conn %u: byte count differs: %" PRIu64 " bytes received, %" PRIu64 " expected\n",
				c->index, c->rx.bytes, cfg->bytes);
			mismatch = true;
		} else if (c->rx.mismatch) {
			fprintf(stderr, PROG ": conn %u: received data differs from the pattern at offset %" PRIu64 " (%" PRIu64 " bytes received, %" PRIu64 " expected)\n",
				c->index, c->rx.bad_off, c->rx.bytes,
				cfg->bytes);
			mismatch = true;
		}
		if (c->tcpi_err) {
			printf("conn %u unknown (tcp info unavailable)\n",
			       c->index);
			fprintf(stderr, PROG ": conn %u: getsockopt(SOL_TCP, TCP_INFO): %s\n",
				c->index, strerror(c->tcpi_err));
			if (!cfg->tcp || cfg->check_tcp)
				error = true;
			all_fallback = false;
			continue;
		}
		c->verdict = judge(cfg, c);
		printf("conn %u %s (tcp bytes acked %" PRIu64 " received %" PRIu64 ")\n",
		       c->index, vname[c->verdict], c->tcp_acked,
		       c->tcp_received);
		if (c->verdict == V_FALLBACK)
			fallback = true;
		else
			all_fallback = false;
		if (c->verdict == V_UNKNOWN)
			fprintf(stderr, PROG ": conn %u: %" PRIu64 " bytes per direction cannot tell SMC from fallback (threshold %" PRIu64 ")\n",
				c->index, cfg->bytes, cfg->threshold);
		if (c->verdict == V_FALLBACK && !cfg->expect_fallback)
			fprintf(stderr, PROG ": conn %u: fell back to TCP%s\n",
				c->index,
				cfg->allow_fallback ? " (allowed)" : "");
	}

	if (error) {
		result = "error";
		rc = RC_ERROR;
	} else if (mismatch) {
		result = "mismatch";
		rc = RC_MISMATCH;
	} else if (cfg->expect_fallback && !all_fallback) {
		result = "no-fallback";
		rc = RC_FALLBACK;
		fprintf(stderr, PROG ": --expect-fallback: not every connection fell back to TCP\n");
	} else if (fallback && !cfg->allow_fallback && !cfg->expect_fallback) {
		result = "fallback";
		rc = RC_FALLBACK;
	}
	printf("result %s\n", result);
	fflush(stdout);
	result_printed = true;
	return rc;
}

/* start_thread() - start @fn(@arg) in a thread with a small stack. */
static int start_thread(pthread_t *thr, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	rc = pthread_create(thr, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (rc)
		fprintf(stderr, PROG ": pthread_create: %s\n", strerror(rc));
	return rc;
}

/*
 * run_transfers() - number the connected sockets, move the pattern both
 * ways on all of them at once, check TCP_INFO, report, close.
 */
static int run_transfers(const struct config *cfg, struct conn *conns)
{
	struct conn **order;
	unsigned int i, started = 0;
	int rc = RC_OK;

	order = calloc(cfg->conns, sizeof(*order));
	if (!order) {
		fprintf(stderr, PROG ": out of memory\n");
		return RC_ERROR;
	}
	for (i = 0; i < cfg->conns; i++) {
		struct conn *c = &conns[i];

		set_rank_key(c, cfg->mode == MODE_CLIENT ? &c->local : &c->peer);
		order[i] = c;
	}
	qsort(order, cfg->conns, sizeof(*order), rank_cmp);
	for (i = 0; i < cfg->conns; i++)
		order[i]->index = i;

	for (i = 0; i < cfg->conns; i++) {
		if (start_thread(&conns[i].tx_thr, tx_thread, &conns[i]))
			break;
		if (start_thread(&conns[i].rx_thr, rx_thread, &conns[i])) {
			/* unblock and reap the sender */
			shutdown(conns[i].fd, SHUT_RDWR);
			pthread_join(conns[i].tx_thr, NULL);
			break;
		}
		started++;
	}
	if (started < cfg->conns) {
		/* end the transfers already started, then fail */
		for (i = 0; i < started; i++)
			shutdown(conns[i].fd, SHUT_RDWR);
		rc = RC_ERROR;
	}
	for (i = 0; i < started; i++) {
		pthread_join(conns[i].tx_thr, NULL);
		pthread_join(conns[i].rx_thr, NULL);
		read_tcp_info(&conns[i]);
	}
	if (rc == RC_OK)
		rc = report(cfg, order);
	for (i = 0; i < cfg->conns; i++)
		close(conns[i].fd);
	free(order);
	return rc;
}

/* write_ready_file() - atomically write "PORT\n" to --ready-file. */
static int write_ready_file(const char *path, unsigned int port)
{
	char tmp[PATH_MAX];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp)) {
		fprintf(stderr, PROG ": ready file name too long\n");
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f)) {
		fprintf(stderr, PROG ": %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	if (rename(tmp, path)) {
		fprintf(stderr, PROG ": rename %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * run_server() - listen, print "listening PORT", accept --conns
 * connections and run the transfers on them.
 */
static int run_server(struct config *cfg)
{
	const char *addr = cfg->addr;
	struct sockaddr_storage ss;
	struct conn *conns;
	socklen_t len;
	unsigned int i;
	int fd, one = 1, rc;

	if (!addr)
		addr = cfg->family == AF_INET6 ? "::" : "0.0.0.0";
	if (resolve(cfg, addr, true, &ss, &len))
		return RC_ERROR;
	fd = make_socket(cfg, ss.ss_family);
	if (fd < 0)
		return RC_ERROR;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		fprintf(stderr, PROG ": SO_REUSEADDR: %s\n", strerror(errno));
	if (bind(fd, (struct sockaddr *)&ss, len)) {
		fprintf(stderr, PROG ": bind %s port %u: %s\n", addr,
			cfg->port, strerror(errno));
		close(fd);
		return RC_ERROR;
	}
	if (listen(fd, SOMAXCONN)) {
		fprintf(stderr, PROG ": listen: %s\n", strerror(errno));
		close(fd);
		return RC_ERROR;
	}
	len = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &len)) {
		fprintf(stderr, PROG ": getsockname: %s\n", strerror(errno));
		close(fd);
		return RC_ERROR;
	}
	printf("listening %u\n", sa_port(&ss));
	fflush(stdout);
	if (cfg->ready_file && write_ready_file(cfg->ready_file, sa_port(&ss))) {
		close(fd);
		return RC_ERROR;
	}

	conns = calloc(cfg->conns, sizeof(*conns));
	if (!conns) {
		fprintf(stderr, PROG ": out of memory\n");
		close(fd);
		return RC_ERROR;
	}
	for (i = 0; i < cfg->conns; i++) {
		struct conn *c = &conns[i];
		socklen_t plen = sizeof(c->peer);

		c->cfg = cfg;
		c->fd = accept4(fd, (struct sockaddr *)&c->peer, &plen,
				SOCK_CLOEXEC);
		if (c->fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED) {
				i--;
				continue;
			}
			fprintf(stderr, PROG ": accept: %s\n", strerror(errno));
			while (i--)
				close(conns[i].fd);
			free(conns);
			close(fd);
			return RC_ERROR;
		}
		plen = sizeof(c->local);
		getsockname(c->fd, (struct sockaddr *)&c->local, &plen);
	}
	close(fd);
	rc = run_transfers(cfg, conns);
	free(conns);
	return rc;
}

struct connect_arg {
	pthread_t thr;
	struct conn *c;
	const struct sockaddr_storage *ss;
	socklen_t len;
};

/* connect_thread() - connect one socket to the server. */
static void *connect_thread(void *arg)
{
	struct connect_arg *ca = arg;
	struct conn *c = ca->c;
	socklen_t len;

	while (connect(c->fd, (const struct sockaddr *)ca->ss, ca->len)) {
		if (errno == EINTR)
			continue;
		c->connect_err = errno;
		return NULL;
	}
	len = sizeof(c->local);
	getsockname(c->fd, (struct sockaddr *)&c->local, &len);
	len = sizeof(c->peer);
	getpeername(c->fd, (struct sockaddr *)&c->peer, &len);
	return NULL;
}

/*
 * run_client() - create --conns sockets, connect them in parallel, run the
 * transfers on them.
 */
static int run_client(struct config *cfg)
{
	unsigned int i, started = 0, failed = 0;
	struct sockaddr_storage ss;
	struct connect_arg *args;
	char a[INET6_ADDRSTRLEN];
	struct conn *conns;
	int rc = RC_OK;
	socklen_t len;

	if (resolve(cfg, cfg->addr, false, &ss, &len))
		return RC_ERROR;
	conns = calloc(cfg->conns, sizeof(*conns));
	args = calloc(cfg->conns, sizeof(*args));
	if (!conns || !args) {
		fprintf(stderr, PROG ": out of memory\n");
		free(conns);
		free(args);
		return RC_ERROR;
	}
	for (i = 0; i < cfg->conns; i++) {
		conns[i].cfg = cfg;
		conns[i].fd = -1;
	}
	for (i = 0; i < cfg->conns; i++) {
		conns[i].fd = make_socket(cfg, ss.ss_family);
		if (conns[i].fd < 0) {
			rc = RC_ERROR;
			goto out_close;
		}
	}

	/* connect all in parallel; index them only when all are up */
	for (i = 0; i < cfg->conns; i++) {
		args[i].c = &conns[i];
		args[i].ss = &ss;
		args[i].len = len;
		if (start_thread(&args[i].thr, connect_thread, &args[i])) {
			rc = RC_ERROR;
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(args[i].thr, NULL);
	for (i = 0; i < started; i++) {
		if (!conns[i].connect_err)
			continue;
		if (!failed++)
			fprintf(stderr, PROG ": connect to %s port %u: %s\n",
				sa_addr(&ss, a, sizeof(a)), cfg->port,
				strerror(conns[i].connect_err));
	}
	if (failed) {
		if (cfg->conns > 1)
			fprintf(stderr, PROG ": %u of %u connections failed\n",
				failed, cfg->conns);
		rc = RC_ERROR;
	}
	if (rc == RC_OK) {
		rc = run_transfers(cfg, conns);	/* closes the sockets */
		goto out_free;
	}
out_close:
	for (i = 0; i < cfg->conns; i++)
		if (conns[i].fd >= 0)
			close(conns[i].fd);
out_free:
	free(args);
	free(conns);
	return rc;
}

/* run_pattern() - write one stream of the pattern to stdout. */
static int run_pattern(const struct config *cfg)
{
	uint64_t key = pattern_key(cfg->seed, cfg->index, cfg->dir);
	uint64_t off = 0;
	uint8_t *buf = malloc(CHUNK);

	if (!buf) {
		fprintf(stderr, PROG ": out of memory\n");
		return RC_ERROR;
	}
	while (off < cfg->bytes) {
		size_t len = cfg->bytes - off < CHUNK ? cfg->bytes - off : CHUNK;
		size_t done = 0;

		pattern_fill(key, off, buf, len);
		while (done < len) {
			ssize_t n = write(STDOUT_FILENO, buf + done, len - done);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				fprintf(stderr, PROG ": write: %s\n",
					strerror(errno));
				free(buf);
				return RC_ERROR;
			}
			done += n;
		}
		off += len;
	}
	free(buf);
	return RC_OK;
}

#define OPT_BIT(o)	(1u << (o))
#define NET_OPTS	(OPT_BIT(O_IPV4) | OPT_BIT(O_IPV6) | OPT_BIT(O_ADDR) | \
			 OPT_BIT(O_PORT) | OPT_BIT(O_BYTES) | OPT_BIT(O_SEED) | \
			 OPT_BIT(O_CONNS) | OPT_BIT(O_TCP) | OPT_BIT(O_AF_SMC) | \
			 OPT_BIT(O_ALLOW_FB) | OPT_BIT(O_EXPECT_FB) | \
			 OPT_BIT(O_THRESHOLD) | OPT_BIT(O_TIMEOUT) | \
			 OPT_BIT(O_CHECK_TCP) | OPT_BIT(O_NO_VERIFY) | \
			 OPT_BIT(O_READ_PAUSE) | OPT_BIT(O_PAUSE_LOG))

/* Options each subcommand accepts. */
static const unsigned int mode_opts[] = {
	[MODE_SERVER]	= NET_OPTS | OPT_BIT(O_READY),
	[MODE_CLIENT]	= NET_OPTS,
	[MODE_PATTERN]	= OPT_BIT(O_BYTES) | OPT_BIT(O_SEED) |
			  OPT_BIT(O_INDEX) | OPT_BIT(O_DIR),
};

static const char *const mode_name[] = {
	[MODE_SERVER] = "server", [MODE_CLIENT] = "client",
	[MODE_PATTERN] = "pattern",
};

/* Long names of the options, for messages, indexed by enum opt. */
static const char *const opt_name[] = {
	[O_IPV4] = "--ipv4", [O_IPV6] = "--ipv6", [O_ADDR] = "--addr",
	[O_PORT] = "--port", [O_BYTES] = "--bytes", [O_SEED] = "--seed",
	[O_CONNS] = "--conns", [O_TCP] = "--tcp", [O_AF_SMC] = "--af-smc",
	[O_ALLOW_FB] = "--allow-fallback", [O_EXPECT_FB] = "--expect-fallback",
	[O_THRESHOLD] = "--fallback-threshold", [O_TIMEOUT] = "--timeout",
	[O_READY] = "--ready-file", [O_INDEX] = "--index",
	[O_DIR] = "--direction", [O_CHECK_TCP] = "--check-tcp",
	[O_NO_VERIFY] = "--no-verify", [O_READ_PAUSE] = "--read-pause",
	[O_PAUSE_LOG] = "--pause-log",
};

enum {
	L_TCP = O_LONG_ONLY_BASE, L_AF_SMC, L_ALLOW_FB, L_EXPECT_FB,
	L_THRESHOLD, L_CHECK_TCP, L_NO_VERIFY, L_READ_PAUSE, L_PAUSE_LOG,
};

static const struct option long_opts[] = {
	{ "ipv4",		no_argument,		NULL, '4' },
	{ "ipv6",		no_argument,		NULL, '6' },
	{ "addr",		required_argument,	NULL, 'a' },
	{ "port",		required_argument,	NULL, 'p' },
	{ "bytes",		required_argument,	NULL, 'n' },
	{ "seed",		required_argument,	NULL, 's' },
	{ "conns",		required_argument,	NULL, 'c' },
	{ "tcp",		no_argument,		NULL, L_TCP },
	{ "check-tcp",		no_argument,		NULL, L_CHECK_TCP },
	{ "no-verify",		no_argument,		NULL, L_NO_VERIFY },
	{ "read-pause",		required_argument,	NULL, L_READ_PAUSE },
	{ "pause-log",		required_argument,	NULL, L_PAUSE_LOG },
	{ "af-smc",		no_argument,		NULL, L_AF_SMC },
	{ "allow-fallback",	no_argument,		NULL, L_ALLOW_FB },
	{ "expect-fallback",	no_argument,		NULL, L_EXPECT_FB },
	{ "fallback-threshold",	required_argument,	NULL, L_THRESHOLD },
	{ "timeout",		required_argument,	NULL, 'T' },
	{ "ready-file",		required_argument,	NULL, 'r' },
	{ "index",		required_argument,	NULL, 'i' },
	{ "direction",		required_argument,	NULL, 'd' },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * parse_args() - parse the subcommand in argv[1] and its options into
 * @cfg; exits on --help and on usage errors.
 */
static void parse_args(int argc, char **argv, struct config *cfg)
{
	unsigned int bad;
	int ch, o;

	memset(cfg, 0, sizeof(*cfg));
	cfg->family = AF_UNSPEC;
	cfg->port = DEFAULT_PORT;
	cfg->bytes = DEFAULT_BYTES;
	cfg->seed = DEFAULT_SEED;
	cfg->conns = 1;
	cfg->threshold = DEFAULT_FALLBACK_THRESHOLD;
	cfg->timeout = DEFAULT_TIMEOUT;
	cfg->dir = -1;

	if (argc < 2)
		usage_error("missing subcommand (server, client or pattern)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		help();
		exit(RC_OK);
	}
	if (!strcmp(argv[1], "server"))
		cfg->mode = MODE_SERVER;
	else if (!strcmp(argv[1], "client"))
		cfg->mode = MODE_CLIENT;
	else if (!strcmp(argv[1], "pattern"))
		cfg->mode = MODE_PATTERN;
	else
		usage_error("unknown subcommand '%s' (server, client or pattern)",
			    argv[1]);

	optind = 2;	/* options follow the subcommand */
	while ((ch = getopt_long(argc, argv, "46a:p:n:s:c:T:r:i:d:h",
				 long_opts, NULL)) != -1) {
		switch (ch) {
		case '4':
			o = O_IPV4;
			cfg->family = AF_INET;
			break;
		case '6':
			o = O_IPV6;
			cfg->family = AF_INET6;
			break;
		case 'a':
			o = O_ADDR;
			cfg->addr = optarg;
			break;
		case 'p':
			o = O_PORT;
			cfg->port = parse_num("port", optarg, false, 65535);
			break;
		case 'n':
			o = O_BYTES;
			cfg->bytes = parse_size("byte count", optarg);
			break;
		case 's':
			o = O_SEED;
			cfg->seed = parse_num("seed", optarg, true, UINT64_MAX);
			break;
		case 'c':
			o = O_CONNS;
			cfg->conns = parse_num("connection count", optarg,
					       false, UINT_MAX);
			if (!cfg->conns || cfg->conns > MAX_CONNS)
				usage_error("connection count must be 1..%u",
					    MAX_CONNS);
			break;
		case L_TCP:
			o = O_TCP;
			cfg->tcp = true;
			break;
		case L_CHECK_TCP:
			o = O_CHECK_TCP;
			cfg->check_tcp = true;
			break;
		case L_NO_VERIFY:
			o = O_NO_VERIFY;
			cfg->no_verify = true;
			break;
		case L_READ_PAUSE:
			o = O_READ_PAUSE;
			cfg->read_pause_ms = parse_num("read pause", optarg,
						       false, 60000);
			break;
		case L_PAUSE_LOG:
			o = O_PAUSE_LOG;
			if (!*optarg)
				usage_error("empty pause log name");
			cfg->pause_log = optarg;
			break;
		case L_AF_SMC:
			o = O_AF_SMC;
			cfg->af_smc = true;
			break;
		case L_ALLOW_FB:
			o = O_ALLOW_FB;
			cfg->allow_fallback = true;
			break;
		case L_EXPECT_FB:
			o = O_EXPECT_FB;
			cfg->expect_fallback = true;
			break;
		case L_THRESHOLD:
			o = O_THRESHOLD;
			cfg->threshold = parse_size("fallback threshold",
						    optarg);
			break;
		case 'T':
			o = O_TIMEOUT;
			cfg->timeout = parse_num("timeout", optarg, false,
						 10 * 1000 * 1000);
			break;
		case 'r':
			o = O_READY;
			if (!*optarg)
				usage_error("empty ready file name");
			cfg->ready_file = optarg;
			break;
		case 'i':
			o = O_INDEX;
			cfg->index = parse_num("index", optarg, false,
					       UINT32_MAX);
			break;
		case 'd':
			o = O_DIR;
			if (!strcmp(optarg, "c2s"))
				cfg->dir = DIR_C2S;
			else if (!strcmp(optarg, "s2c"))
				cfg->dir = DIR_S2C;
			else
				usage_error("invalid direction '%s' (c2s or s2c)",
					    optarg);
			break;
		case 'h':
			help();
			exit(RC_OK);
		default:	/* getopt_long() printed the problem */
			usage_error("invalid command line");
		}
		cfg->seen |= OPT_BIT(o);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);

	bad = cfg->seen & ~mode_opts[cfg->mode];
	if (bad)
		usage_error("%s does not take %s", mode_name[cfg->mode],
			    opt_name[__builtin_ctz(bad)]);
	if ((cfg->seen & OPT_BIT(O_IPV4)) && (cfg->seen & OPT_BIT(O_IPV6)))
		usage_error("-4 and -6 exclude each other");
	if (cfg->tcp && cfg->af_smc)
		usage_error("--tcp and --af-smc exclude each other");
	if (cfg->allow_fallback && cfg->expect_fallback)
		usage_error("--allow-fallback and --expect-fallback exclude each other");
	if (cfg->check_tcp && !cfg->tcp)
		usage_error("--check-tcp goes with --tcp");
	if (cfg->tcp && !cfg->check_tcp && cfg->expect_fallback)
		usage_error("--expect-fallback needs SMC sockets (or --tcp --check-tcp)");
	if (cfg->mode == MODE_CLIENT && !cfg->addr)
		usage_error("client needs the server address (-a ADDR)");
	if (cfg->mode == MODE_CLIENT && !cfg->port)
		usage_error("client needs a port other than 0");
	if (cfg->pause_log && !cfg->read_pause_ms)
		usage_error("--pause-log goes with --read-pause");
	if (cfg->mode == MODE_PATTERN && cfg->dir < 0)
		usage_error("pattern needs a direction (-d c2s or -d s2c)");
}

int main(int argc, char **argv)
{
	struct config cfg;
	int rc;

	parse_args(argc, argv, &cfg);
	if (cfg.mode == MODE_PATTERN)
		return run_pattern(&cfg);

	/* stdout lines reach a pipe at once; a dead peer is an error, not a signal */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (cfg.timeout) {
		snprintf(timeout_msg, sizeof(timeout_msg),
			 PROG ": timeout: %s not done after %u s\n",
			 mode_name[cfg.mode], cfg.timeout);
		signal(SIGALRM, on_alarm);
		alarm(cfg.timeout);
	}
	if (cfg.pause_log) {
		cfg.pause_f = fopen(cfg.pause_log, "w");
		if (!cfg.pause_f) {
			fprintf(stderr, PROG ": %s: %s\n", cfg.pause_log,
				strerror(errno));
			return RC_ERROR;
		}
	}
	if (cfg.mode == MODE_SERVER)
		rc = run_server(&cfg);
	else
		rc = run_client(&cfg);
	if (!result_printed)
		printf("result error\n");
	fflush(stdout);
	return rc;
}
