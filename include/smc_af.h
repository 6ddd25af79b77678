/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers that open an SMC socket, for C libraries older than them:
 *
 *   socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC or SMCPROTO_SMC6)
 *   socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC)   Linux 6.11+
 *
 * AF_SMC is include/linux/socket.h's; SMCPROTO_* are net/smc/smc.h's
 * (the kernel exports no header with them); IPPROTO_SMC is
 * include/uapi/linux/in.h's since Linux 6.11.
 */
#ifndef SMC_AF_H
#define SMC_AF_H

#ifndef AF_SMC
#define AF_SMC		43
#endif
#ifndef IPPROTO_SMC
#define IPPROTO_SMC	256
#endif
#define SMCPROTO_SMC	0	/* AF_SMC, IPv4 */
#define SMCPROTO_SMC6	1	/* AF_SMC, IPv6 */

#endif /* SMC_AF_H */
