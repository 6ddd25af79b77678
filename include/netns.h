/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netns.h - entering a named network namespace, as ip -n does (lib/netns.c)
 */
#ifndef SMC_NETNS_H
#define SMC_NETNS_H

/* Where ip netns add binds the named network namespaces */
#define NETNS_RUN_DIR "/run/netns"

/*
 * netns_switch() - move the process into network namespace @name
 * @name: a name of ip netns: the file NETNS_RUN_DIR/@name
 *
 * Enters the network namespace, then, in a mount namespace of its own,
 * mounts /sys anew so that /sys/class/net shows the links of that network
 * namespace (as ip -n and ip netns exec do). Prints its errors on stderr.
 *
 * Return: 0; EXIT_USAGE (2) when @name is no valid name (empty, ".", "..",
 * a "/" in it, too long); EXIT_FAIL (1) when the namespace cannot be
 * opened or entered.
 */
int netns_switch(const char *name);

#endif /* SMC_NETNS_H */
