/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc - the smc-dump command: objects and global options
 */
#ifndef SMC_H
#define SMC_H

#include <stdbool.h>
#include <stddef.h>

/* Global options, set by smc.c from the command line before an object's
 * handler runs.
 */
extern int json;		/* -j: JSON output */
extern int pretty;		/* -p: pretty JSON */
extern int show_details;	/* -d: more detail, repeatable */
extern int show_hex;		/* -x: hex dump of payloads */
extern int show_absolute;		/* -a: smc stats ignores the last reset */

/* Object handlers: argv[0] is the object's first argument (the command),
 * argc counts the rest. Each returns the process exit status:
 * 0 success, 1 failure, 2 usage error. Each prints its own errors.
 */
int do_ueid(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_dump(int argc, char **argv);
/* smc dump graph (graph.c) */
int dump_graph(int argc, char **argv);
int dump_merge(int argc, char **argv);
int do_socket(int argc, char **argv);
int do_info(int argc, char **argv);
int do_device(int argc, char **argv);
int do_linkgroup(int argc, char **argv);
int do_pnet(int argc, char **argv);
/* smc run (run.c): execs the command; returns only on an error */
int do_run(int argc, char **argv);

/* socket.c: what sock_diag holds of one SMC socket, for smc check */
struct smc_sock_state {
	bool found;		/* the dump had the socket */
	unsigned char state;	/* enum smc_state */
	const char *mode;	/* "SMC-R", "SMC-D", "TCP"; NULL unknown */
	bool fallback;		/* mode TCP */
	unsigned int reason;	/* local fallback reason, 0 none */
	unsigned int peer_diagnosis;	/* the peer's decline code, 0 none */
	bool have_lgr;		/* SMC-R: the link */
	char ibdev[65];
	unsigned char ibport, link_id;
	char gid[41], peer_gid[41];	/* the link's, as sock_diag has them */
	bool have_dmb;		/* SMC-D: the link group */
	unsigned int linkgroup_id;
};
int smc_socket_lookup(unsigned long long inode, struct smc_sock_state *st);
int do_check(int argc, char **argv);
/**
 * struct smc_conn_id - one connected SMC socket as sock_diag has it, for
 *	the context collector of smc dump (capture_ctx.c)
 * @inode: the socket's inode (socket:[INODE] in /proc/PID/fd)
 * @token: the connection's local alert token (host order), 0 unknown
 * @family: AF_INET or AF_INET6 of @src and @dst, 0 unknown
 * @src: local address (IPv4: the first 4 bytes)
 * @dst: peer address
 * @sport: local port, host order
 * @dport: peer port, host order
 */
struct smc_conn_id {
	unsigned long long inode;
	unsigned int token;
	int family;
	unsigned char src[16], dst[16];
	unsigned short sport, dport;
};
/*
 * smc_socket_conns() - the SMC sockets of the netns that are neither
 * listening nor unconnected, with token (SMC_DIAG_CONNINFO) and addresses
 * as smc socket finds them. @quiet: no message when sock_diag fails.
 * Return: 0 and a malloc()ed array in *@out (*@n entries), or 1 (an
 * error message printed unless @quiet).
 */
int smc_socket_conns(struct smc_conn_id **out, size_t *n, bool quiet);
/* linkgroup.c: the version (1, 2; 0 unknown) of @q's link group */
int smc_linkgroup_version(const struct smc_sock_state *q,
			  unsigned int *version);
/* linkgroup.c: smcd linkgroup (@smcd) and smcr linkgroup in smc-tools'
 * syntax and format; @detail 0, 1 (-d) or 2 (-dd); @argv the arguments
 * after the object word. Returns smc-tools' exit status: 0, 255 on a usage
 * error or a failed request, 1 when SMC's family cannot be opened.
 */
int smc_linkgroup_tools(bool smcd, int detail, int argc, char **argv);
/* stats.c: smcd stats (@smcd) and smcr stats in smc-tools' syntax and
 * format, counted since the last reset unless @absolute (-a); @detail as
 * -d. Returns smc-tools' exit status: 255 on a usage error, else 0 (also
 * when the counters cannot be read: the error is printed).
 */
int smc_stats_tools(bool smcd, int detail, bool absolute, int argc,
		    char **argv);

/* socket.c: the smcss entry point, for a binary run as "smcss"; takes the
 * whole command line, returns the exit status as the handlers do
 */
int smcss_main(int argc, char **argv, const char *version);

/* rnics.c: smc rnics, and the smc_rnics entry point (smc-tools' syntax) */
int do_rnics(int argc, char **argv);
int smc_rnics_main(int argc, char **argv, const char *version);
/*
 * smc_rnics_pnetid() - the PNET ID sysfs gives interface @ifname (a PCI
 * function's port), into @buf (@size bytes)
 *
 * Return: true when it has one.
 */
bool smc_rnics_pnetid(const char *ifname, char *buf, size_t size);
/* the sysfs root: SMC_DUMP_SYSFS_DIR (tests), else /sys */
const char *smc_sysfs_root(void);
/* dbg.c: smc dbg, and the smc_dbg entry point */
int do_dbg(int argc, char **argv);
int smc_dbg_main(int argc, char **argv, const char *version);
/* check.c, run.c: the smc_chk and smc_run entry points */
int smc_chk_main(int argc, char **argv, const char *version);
int smc_run_main(int argc, char **argv, const char *version);
/* seid.c: smc seid, and the system EID for smcd seid */
int do_seid(int argc, char **argv);
struct smc_genl;
struct smc_seid {
	bool have_seid;		/* the kernel sent one (ISM v2 possible) */
	char seid[33];		/* as sent: blank padded to 32 characters */
	bool have_enabled;
	bool enabled;		/* SMC-Dv2 proposals carry it */
};
/* SMC_NETLINK_DUMP_SEID into @s: 0, or a negative errno (-EBADMSG after
 * its message; others unprinted)
 */
int smc_seid_read(struct smc_genl *g, struct smc_seid *s);
/* SMC_NETLINK_ENABLE_SEID or _DISABLE_SEID: 0 or the kernel's negative
 * errno (EOPNOTSUPP off s390, ENOENT: disable without a user EID),
 * nothing printed
 */
int smc_seid_set(struct smc_genl *g, bool enable);

/* smctools.c: the smcd and smcr entry points, smc-tools' syntax and
 * formats; the whole command line, returns smc-tools' exit status
 */
int smcd_main(int argc, char **argv, const char *version);
int smcr_main(int argc, char **argv, const char *version);
/* smctools.c: the text libnl 3 (nl_geterror()) gives errno @err (either
 * sign), which smc-tools prints after "Error: " or its program name
 */
const char *smc_tools_nlerr(int err);
/* smc_pnet.c: the smc_pnet entry point, smc-tools' options and format;
 * the whole command line, returns smc_pnet's exit status
 */
int smc_pnet_main(int argc, char **argv, const char *version);

/* matches(), invarg(), duparg() and the exit codes EXIT_OK, EXIT_FAIL,
 * EXIT_USAGE: lib/utils.c
 */
#include "utils.h"

#endif /* SMC_H */
