// SPDX-License-Identifier: GPL-2.0
/*
 * capture_live.c - the live decoder of a capture without `write`: a child
 * of the supervisor that reads tcpdump's pcap stream from a pipe and
 * prints each frame with the decoder of `smc dump read` (see capture.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <pcap/pcap.h>

#include "capture.h"
#include "smcdump.h"
#include "json_print.h"
#include "smc.h"

int capture_decode_live(int fd)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct dump_opts o = {
		.cmd = DUMP_CMD_READ, .details = show_details,
		.hex = show_hex, .json = json, .pretty = pretty,
	};
	struct dump_ctx *dc;
	pcap_t *p;
	FILE *f;
	int r, rc = 0;

	f = fdopen(fd, "r");
	if (!f)
		return EXIT_FAIL;
	p = pcap_fopen_offline_with_tstamp_precision(f,
			PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p)
		return 0;	/* tcpdump wrote nothing: it reports why */
	if (!dump_dlt_supported(pcap_datalink(p))) {
		fprintf(stderr, "smc dump: link type %d not supported\n",
			pcap_datalink(p));
		return EXIT_FAIL;
	}
	dc = malloc(sizeof(*dc));
	if (!dc)
		return EXIT_FAIL;
	dump_ctx_init(dc, &o, pcap_datalink(p));
	dc->ns_digits = 6;	/* tcpdump writes microseconds */
	new_json_obj(o.json, o.pretty);
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		dump_decode_frame(dc, (long long)h->ts.tv_sec,
				  (uint32_t)h->ts.tv_usec, data, h->caplen);
		if (fflush(stdout))
			break;
	}
	if (r == PCAP_ERROR) {
		dc->frame++;
		dump_report_malformed(dc, 0, 0, pcap_geterr(p));
	}
	dump_decode_finish(dc);
	delete_json_obj();
	fflush(stdout);
	if (dc->cnt[DUMP_CNT_MALFORMED])
		rc = 1;
	dump_ctx_free(dc);
	pcap_close(p);
	return rc;
}
