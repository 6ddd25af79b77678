// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - addresses as text, the lowest layer of the decoder's output,
 * which decode.c (frames) and track.c (connections) both use
 */
#include <stdio.h>
#include <arpa/inet.h>

#include "smcdump.h"
#include "json_print.h"

/**
 * dump_fmt_ip() - an IPv4 or IPv6 address as text
 * @family: AF_INET or AF_INET6
 * @addr: 4 or 16 bytes, network order
 * @buf: output
 * @len: size of @buf, at least INET6_ADDRSTRLEN
 */
void dump_fmt_ip(int family, const uint8_t *addr, char *buf, size_t len)
{
	if (!inet_ntop(family, addr, buf, len))
		snprintf(buf, len, "?");
}

/**
 * dump_fmt_addr() - "a.b.c.d:port" or "[v6]:port"
 * @family: AF_INET or AF_INET6
 * @addr: 4 or 16 bytes, network order
 * @port: host order
 * @buf: output
 * @len: size of @buf, at least INET6_ADDRSTRLEN + 8
 */
void dump_fmt_addr(int family, const uint8_t *addr, uint16_t port,
		   char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	dump_fmt_ip(family, addr, ip, sizeof(ip));
	if (family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ip, port);
	else
		snprintf(buf, len, "%s:%u", ip, port);
}

/**
 * dump_print_ends() - the two ends of a frame or connection
 * @family: AF_INET or AF_INET6
 * @a1: the first address (network order), @p1 its port
 * @a2: the second, @p2 its port
 * @keys: JSON member names of @a1, @p1, @a2, @p2
 * @fmt1: text format of "address:port" of the first end, with one %s
 * @fmt2: the same for the second end
 *
 * Formats the addresses only for the mode that prints them.
 */
void dump_print_ends(int family, const uint8_t *a1, uint16_t p1,
		     const uint8_t *a2, uint16_t p2, const char *const keys[4],
		     const char *fmt1, const char *fmt2)
{
	char a[INET6_ADDRSTRLEN + 8];

	if (is_json_context()) {
		dump_fmt_ip(family, a1, a, sizeof(a));
		print_string(PRINT_JSON, keys[0], NULL, a);
		print_uint(PRINT_JSON, keys[1], NULL, p1);
		dump_fmt_ip(family, a2, a, sizeof(a));
		print_string(PRINT_JSON, keys[2], NULL, a);
		print_uint(PRINT_JSON, keys[3], NULL, p2);
		return;
	}
	dump_fmt_addr(family, a1, p1, a, sizeof(a));
	print_string(PRINT_FP, NULL, fmt1, a);
	dump_fmt_addr(family, a2, p2, a, sizeof(a));
	print_string(PRINT_FP, NULL, fmt2, a);
}
