// SPDX-License-Identifier: GPL-2.0
/*
 * capture_ctl.c - smc dump stop and smc dump show: the captures of the
 * network namespace, found through the state on their links
 * (capture_state.h), ended or listed from any shell
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_state.h"
#include "dump_capture.h"
#include "json_print.h"
#include "proc.h"
#include "smc.h"
#include "utils.h"

/* Wait up to @ms for the owner to end; true when it did */
static bool wait_owner(const struct capture_state *ow, int ms)
{
	return proc_wait(ow->pid, ow->start, ms);
}

static void print_log(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	unlink(path);
}

/* End one capture: 0 or EXIT_FAIL. @signalled: SIGTERM was sent to it
 * already (stop all), so that it may have ended by now.
 */
static int stop_one(struct rtnl *rt, const struct rtnl_link *l,
		    const struct capture_state *ow, bool signalled)
{
	int err, rc = EXIT_OK;

	if (signalled || capture_alive(ow)) {
		if (!signalled && kill(ow->pid, SIGTERM)) {
			fprintf(stderr,
				"Error: %s: cannot signal the capture (pid %d): %s\n",
				l->name, (int)ow->pid, strerror(errno));
			return EXIT_FAIL;
		}
		if (!wait_owner(ow, STOP_TIMEOUT_MS)) {
			fprintf(stderr,
				"Error: %s: the capture (pid %d) did not end %d s after SIGTERM; killed\n",
				l->name, (int)ow->pid, STOP_TIMEOUT_MS / 1000);
			kill(ow->pid, SIGKILL);
			wait_owner(ow, 2000);
			rc = EXIT_FAIL;
		}
		if (ow->log[0]) {
			fflush(stdout);
			print_log(ow->log);
		} else {
			printf("smc dump: %s: capture (pid %d) ended\n",
			       l->name, (int)ow->pid);
		}
	} else {
		printf("smc dump: %s: its capture (pid %d) is gone; deleting the link\n",
		       l->name, (int)ow->pid);
		if (capture_orphan_tcpdump(ow)) {
			/* SIGTERM: it flushes its file */
			printf("smc dump: %s: ending its tcpdump (pid %d)\n",
			       l->name, (int)ow->tpid);
			if (kill(ow->tpid, SIGTERM) ||
			    !proc_wait(ow->tpid, ow->tstart, STOP_TIMEOUT_MS)) {
				fprintf(stderr,
					"Error: %s: tcpdump (pid %d) did not end: %s\n",
					l->name, (int)ow->tpid, strerror(errno));
				rc = EXIT_FAIL;
			}
		}
		if (ow->log[0])
			print_log(ow->log);
	}
	/* the supervisor deletes its link; one that died could not */
	err = rtnl_link_del(rt, l->name);
	if (err && err != -ENODEV) {
		fprintf(stderr, "Error: cannot delete the link %s: %s\n",
			l->name, strerror(-err));
		rc = EXIT_FAIL;
	}
	return rc;
}

static void stop_usage(FILE *f)
{
	fprintf(f, "Usage: smc dump stop [ dev NAME | all ]\n");
}

/**
 * dump_stop() - smc dump stop (see dump_capture.h, Documentation/capture.md)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "stop"
 *
 * Without arguments, stops the one capture of the netns. Prints each
 * capture's summary (background: its log) on stdout.
 *
 * Return: 0 all stopped (also: "all" with none running), 1 failure or
 * nothing to stop, 2 usage error.
 */
int dump_stop(int argc, char **argv)
{
	const char *dev = NULL;
	bool all = false;
	struct rtnl_link *links = NULL;
	struct capture_state *owners = NULL;
	struct rtnl rt;
	int n, i, rc = EXIT_OK, found = 0, last = -1;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "--help")) {
			stop_usage(stdout);
			return EXIT_OK;
		} else if (matches(argv[i], "dev") == 0 && i + 1 < argc &&
			   !dev) {
			dev = argv[++i];
		} else if (!strcmp(argv[i], "all")) {
			all = true;
		} else {
			fprintf(stderr,
				"Error: unknown or misplaced argument \"%s\".\n",
				argv[i]);
			stop_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (dev && all) {
		fprintf(stderr, "Error: dev NAME and all exclude each other.\n");
		return EXIT_USAGE;
	}
	n = capture_list(&rt, &links, &owners);
	if (n < 0)
		return EXIT_FAIL;
	for (i = 0; i < n; i++) {
		if (!owners[i].valid)
			continue;
		if (dev && strcmp(dev, links[i].name))
			continue;
		found++;
		last = i;
	}
	if (dev && !found) {
		for (i = 0; i < n && strcmp(links[i].name, dev); i++)
			;
		if (i < n)
			fprintf(stderr,
				"Error: %s is an smc-dummy link but no capture of smc dump start; delete it with \"ip link del %s\"\n",
				dev, dev);
		else
			fprintf(stderr,
				"Error: no capture on %s in this network namespace\n",
				dev);
		rc = EXIT_FAIL;
	} else if (!dev && !all && found == 0) {
		fprintf(stderr,
			"Error: no capture is running in this network namespace\n");
		rc = EXIT_FAIL;
	} else if (!dev && !all && found > 1) {
		fprintf(stderr,
			"Error: %d captures run in this network namespace:", found);
		for (i = 0; i < n; i++)
			if (owners[i].valid)
				fprintf(stderr, " %s", links[i].name);
		fprintf(stderr, "; say which with \"dev NAME\", or \"all\"\n");
		rc = EXIT_FAIL;
	} else if (found == 1) {
		rc = stop_one(&rt, &links[last], &owners[last], false);
	} else {
		bool *sent = calloc(n ? n : 1, sizeof(*sent));

		/* ask them all first, so that they end together */
		for (i = 0; i < n && sent; i++)
			if (owners[i].valid && capture_alive(&owners[i]))
				sent[i] = !kill(owners[i].pid, SIGTERM);
		for (i = 0; i < n; i++)
			if (owners[i].valid &&
			    stop_one(&rt, &links[i], &owners[i],
				     sent && sent[i]))
				rc = EXIT_FAIL;
		free(sent);
	}
	free(links);
	free(owners);
	rtnl_close(&rt);
	return rc;
}

/* ---- smc dump show ---- */

/* A mode keyword of dump start (all, smc, smcr, smcd): as typed in the
 * text, in JSON spelled as every object spells a mode (SMC-R, SMC-D;
 * SMC for both, all for SMC and TCP)
 */
static void print_mode_kw(const char *kw)
{
	const char *j = kw;

	if (!strcmp(kw, "smcr"))
		j = "SMC-R";
	else if (!strcmp(kw, "smcd"))
		j = "SMC-D";
	else if (!strcmp(kw, "smc"))
		j = "SMC";
	print_string(PRINT_JSON, "mode", NULL, j);
	print_string(PRINT_FP, NULL, " mode %s", kw);
}

static void show_link(const struct rtnl_link *l, const struct capture_state *ow)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s:", l->name);
	print_int(PRINT_JSON, "interface", NULL, l->ifindex);
	print_bool(PRINT_JSON, "up", NULL, l->up);
	print_string(PRINT_FP, NULL, " %s", l->up ? "up" : "down");
	if (l->bpf_dummy) {
		/* a dummy link: the filter is the BPF programs', as the
		 * alias says; losses (ring full) are known to the capture
		 * only, which reports them when it stops
		 */
		static const char *const link_mode_of[CAP_MODE_N] = {
			"smc", "smc", "smcr", "smcd"
		};

		print_string(PRINT_ANY, "backend", " backend %s", "bpf");
		if (ow->mode >= 0)
			print_mode_kw(link_mode_of[ow->mode]);
		if (ow->type >= 0)
			print_string(PRINT_ANY, "type", " type %s",
				     cap_type_names[ow->type]);
		print_uint(PRINT_ANY, "snaplen", " snaplen %u", ow->snaplen);
		if (l->has_stats) {
			print_u64(PRINT_ANY, "tx_packets", " records %" PRIu64,
				  l->tx_packets);
			print_u64(PRINT_ANY, "tx_bytes", " bytes %" PRIu64,
				  l->tx_bytes);
		}
	} else {
		print_string(PRINT_JSON, "backend", NULL, "kernel");
		if (l->mode >= 0 && l->mode < (int)link_mode_count)
			print_mode_kw(link_mode_names[l->mode]);
		if (l->capture >= 0 && l->capture < (int)cap_type_count)
			print_string(PRINT_ANY, "type", " type %s",
				     cap_type_names[l->capture]);
		print_uint(PRINT_ANY, "snaplen", " snaplen %u", l->snaplen);
		if (l->has_stats) {
			print_u64(PRINT_ANY, "tx_packets", " records %" PRIu64,
				  l->tx_packets);
			print_u64(PRINT_ANY, "tx_bytes", " bytes %" PRIu64,
				  l->tx_bytes);
			print_u64(PRINT_ANY, "tx_dropped", " lost %" PRIu64,
				  l->tx_dropped);
		}
	}
	print_nl();
	if (!ow->valid) {
		print_null(PRINT_ANY, "capture", "    capture %s", "none");
		print_nl();
		close_json_object();
		return;
	}
	open_json_object("capture");
	print_int(PRINT_ANY, "pid", "    capture pid %d", ow->pid);
	print_bool(PRINT_JSON, "running", NULL, capture_alive(ow));
	print_string(PRINT_FP, NULL, " %s",
		     capture_alive(ow) ? "running" : "gone");
	if (ow->mode >= 0)
		print_mode_kw(cap_mode_names[ow->mode]);
	if (ow->type >= 0)
		print_string(PRINT_ANY, "type", " type %s",
			     cap_type_names[ow->type]);
	print_uint(PRINT_ANY, "snaplen", " snaplen %u", ow->snaplen);
	if (ow->file[0]) {
		print_string(PRINT_ANY, "file", " file %s", ow->file);
	} else {
		print_null(PRINT_JSON, "file", NULL, NULL);
		print_string(PRINT_FP, NULL, " %s", "decoded live");
	}
	if (ow->filter[0])
		print_string(PRINT_ANY, "filter", " filter \"%s\"",
			     ow->filter);
	if (ow->log[0])
		print_string(PRINT_ANY, "log", " log %s", ow->log);
	if (ow->tpid)
		print_int(PRINT_JSON, "tcpdump_pid", NULL, ow->tpid);
	if (capture_orphan_tcpdump(ow))
		print_int(PRINT_FP, NULL, " (its tcpdump, pid %d, runs on)",
			  ow->tpid);
	close_json_object();
	print_nl();
	close_json_object();
}

/**
 * dump_show() - smc dump show (see dump_capture.h, Documentation/capture.md)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "show"
 *
 * Return: 0, 1 when the links cannot be read or dev NAME is no
 * smc-dummy link, 2 usage error.
 */
int dump_show(int argc, char **argv)
{
	struct rtnl_link *links = NULL;
	struct capture_state *owners = NULL;
	const char *dev = NULL;
	int n, i, shown = 0, j = json, p = pretty;
	struct rtnl rt;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			j = 1;
			continue;
		}
		if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			p = 1;
			continue;
		}
		if (matches(argv[i], "dev") == 0 && i + 1 < argc && !dev) {
			dev = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "help") || !strcmp(argv[i], "-h")) {
			printf("Usage: smc [ -j [ -p ] ] dump show [ -j ] [ dev NAME ]\n");
			return EXIT_OK;
		}
		fprintf(stderr, "Error: unknown or misplaced argument \"%s\".\n",
			argv[i]);
		return EXIT_USAGE;
	}
	n = capture_list(&rt, &links, &owners);
	if (n < 0)
		return EXIT_FAIL;
	new_json_obj(j, p);
	for (i = 0; i < n; i++) {
		if (dev && strcmp(dev, links[i].name))
			continue;
		show_link(&links[i], &owners[i]);
		shown++;
	}
	delete_json_obj();
	free(links);
	free(owners);
	rtnl_close(&rt);
	if (dev && !shown) {
		fprintf(stderr, "Error: no smc-dummy link %s in this network namespace\n",
			dev);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
