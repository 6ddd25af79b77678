/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcapng_write.h - pcapng blocks written by hand (libpcap writes only
 * classic pcap): a section header, an interface description, an enhanced
 * packet, in host byte order as the section header's magic tells. For
 * smc dump merge (smc/dump_merge.c) and the test generator
 * (testsuite/tools/gen-smcdump-pcap.c); header only, so that the tools
 * need no library.
 */
#ifndef PCAPNG_WRITE_H
#define PCAPNG_WRITE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pcap/dlt.h>

/* @n bytes of @p to @f; 0, or -1 when they were not all written */
static inline int pcapng_put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* A Section Header Block without options, its length unknown */
static inline int pcapng_put_shb(FILE *f)
{
	uint8_t b[28];
	uint32_t v;

	v = 0x0A0D0D0A;
	memcpy(b, &v, 4);
	v = sizeof(b);
	memcpy(b + 4, &v, 4);
	v = 0x1A2B3C4D;
	memcpy(b + 8, &v, 4);
	memcpy(b + 12, &(uint16_t){ 1 }, 2);	/* version 1.0 */
	memcpy(b + 14, &(uint16_t){ 0 }, 2);
	memset(b + 16, 0xff, 8);		/* section length unknown */
	v = sizeof(b);
	memcpy(b + 24, &v, 4);
	return pcapng_put(f, b, sizeof(b));
}

/* An option of @len bytes at @b + *@off, padded to 4 */
static inline void pcapng_opt(uint8_t *b, size_t *off, uint16_t code,
			      const void *v, uint16_t len)
{
	memcpy(b + *off, &code, 2);
	memcpy(b + *off + 2, &len, 2);
	memset(b + *off + 4, 0, (len + 3u) & ~3u);
	memcpy(b + *off + 4, v, len);
	*off += 4 + ((len + 3u) & ~3u);
}

static inline uint16_t pcapng_len500(const char *s)
{
	size_t n = strlen(s);

	return n > 500 ? 500 : (uint16_t)n;
}

/*
 * pcapng_put_idb() - an Interface Description Block of link type @dlt
 * (pcap's DLT_), snaplen 262144, with if_name @name and if_description
 * @desc when not NULL (each cut to 500 bytes) and if_tsresol 10^-@tsresol
 */
static inline int pcapng_put_idb(FILE *f, int dlt, const char *name,
				 const char *desc, uint8_t tsresol)
{
	uint8_t b[1100];
	size_t off = 16;
	uint32_t v;

	v = 1;
	memcpy(b, &v, 4);
	/* pcapng has LINKTYPE_ values: only raw IP differs from DLT_ */
	memcpy(b + 8, &(uint16_t){ dlt == DLT_RAW ? 101 : (uint16_t)dlt }, 2);
	memset(b + 10, 0, 2);
	v = 262144;
	memcpy(b + 12, &v, 4);
	if (name)
		pcapng_opt(b, &off, 2, name, pcapng_len500(name));
	if (desc)
		pcapng_opt(b, &off, 3, desc, pcapng_len500(desc));
	pcapng_opt(b, &off, 9, &tsresol, 1);
	memset(b + off, 0, 4);			/* opt_endofopt */
	off += 4;
	v = (uint32_t)off + 4;
	memcpy(b + 4, &v, 4);
	memcpy(b + off, &v, 4);
	return pcapng_put(f, b, off + 4);
}

/*
 * pcapng_put_epb() - an Enhanced Packet Block: interface @ifc, time @ts
 * in the interface's units, @caplen bytes of @data of a frame of @len
 */
static inline int pcapng_put_epb(FILE *f, uint32_t ifc, uint64_t ts,
				 const void *data, uint32_t caplen,
				 uint32_t len)
{
	static const uint8_t pad[4];
	uint32_t padn = ((caplen + 3) & ~3u) - caplen;
	uint32_t h[7], blen = 28 + caplen + padn + 4;
	int bad = 0;

	h[0] = 6;
	h[1] = blen;
	h[2] = ifc;
	h[3] = (uint32_t)(ts >> 32);
	h[4] = (uint32_t)ts;
	h[5] = caplen;
	h[6] = len;
	bad |= pcapng_put(f, h, sizeof(h));
	bad |= pcapng_put(f, data, caplen);
	bad |= pcapng_put(f, pad, padn);
	bad |= pcapng_put(f, &blen, 4);
	return bad;
}

#endif /* PCAPNG_WRITE_H */
