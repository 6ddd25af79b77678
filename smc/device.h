/* SPDX-License-Identifier: GPL-2.0 */
/*
 * device.h - the SMC-D and SMC-R devices the kernel lists
 * (SMC_NETLINK_GET_DEV_SMCD, _GET_DEV_SMCR), for smc device and smc info
 */
#ifndef SMC_DEVICE_H
#define SMC_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct smc_genl;

#define SMC_DEV_PORTS 2		/* kernel: SMC_MAX_PORTS */

struct smc_dev_port {
	bool valid;		/* the kernel sent this port */
	bool pnetid_by_user;	/* set by smc pnet, not by the firmware */
	char pnetid[17];	/* "" if none */
	uint32_t ifindex;	/* the port's net device, 0 if none */
	uint8_t state;		/* 1 active */
	uint32_t links;		/* links on this port */
};

struct smc_dev {
	bool smcd;		/* else SMC-R */
	bool critical;		/* SMC-R: a link group without failover on
				 * it; SMC-D: in use */
	uint32_t use_cnt;	/* SMC-D: link groups on it */
	bool has_pci;
	uint32_t fid;
	uint16_t pchid, vendor, device;
	char pci_id[17];
	char ibname[64];	/* SMC-R */
	struct smc_dev_port port[SMC_DEV_PORTS];
};

struct smc_dev_list {
	struct smc_dev *dev;
	unsigned int n, size;
};

/* Read the devices of SMC-D (@smcd) or SMC-R into @l (appended).
 * Returns 0, or 1 with the error printed.
 */
int smc_dev_read(struct smc_genl *g, bool smcd, struct smc_dev_list *l);
void smc_dev_free(struct smc_dev_list *l);

/* smc_pci_device_name() - what smc-tools calls the PCI device id
 * @device of an SMC card: RoCE_Express (1 to 3), ISM; NULL for another
 * id (the vendor is not looked at)
 */
const char *smc_pci_device_name(uint16_t device);

/* "ISM", "RoCE_Express2", ... from the PCI ids, vendor too; NULL if
 * unknown
 */
const char *smc_dev_type(const struct smc_dev *d);

/* the kernel's name limits: IFNAMSIZ - 1, IB_DEVICE_NAME_MAX - 1 */
#define SMC_ETHNAME_LEN	15
#define SMC_IBNAME_LEN	63

/*
 * smc_devname_check() - a device name as the kernel can hold it
 * @what: the name's kind for the message, "interface name" or "device name"
 * @arg: the name given
 * @max: its most characters (SMC_ETHNAME_LEN, SMC_IBNAME_LEN)
 * @ifname: a net device's name: no '/' or ':' either (dev_valid_name())
 *
 * A name is 1 to @max printable characters without blanks; "n/a" (what the
 * kernel sends for "none"), "." and ".." are reserved.
 *
 * Return: 0, or EXIT_USAGE after invalid_rule()'s message.
 */
int smc_devname_check(const char *what, const char *arg, size_t max,
		      bool ifname);

/*
 * struct smc_dev_filter - what "type", "netdev" and "ibdev" select, for
 * smc device and smc linkgroup
 * @smcd, @smcr: the types shown; both true until "type" picks one
 * @typed: "type" was given (a second one is a duplicate)
 * @netdev, @ibdev: the SMC-R net device or RDMA device named, or NULL
 */
struct smc_dev_filter {
	bool smcd, smcr;
	bool typed;
	const char *netdev, *ibdev;
};

/*
 * smc_dev_filter_arg() - parse "type { smcd | smcr }", "netdev NAME" or
 * "ibdev NAME" at (*@argvp)[0] into @f
 * @argcp, @argvp: the arguments left; stepped onto the keyword's value
 * @object: the smc object for the hint ('try "smc OBJECT help"')
 *
 * Return: 0 when parsed (the caller's loop steps past the value), -1 when
 * (*@argvp)[0] is none of the three keywords (nothing printed), EXIT_USAGE
 * on a missing, duplicate or unknown value (the error printed).
 */
int smc_dev_filter_arg(int *argcp, char ***argvp, struct smc_dev_filter *f,
		       const char *object);

#endif /* SMC_DEVICE_H */
