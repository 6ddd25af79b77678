// SPDX-License-Identifier: GPL-2.0
/*
 * rnics.c - smc rnics: the PCI functions SMC can use (ISM and RoCE, on
 * s390 with their function IDs, PCHIDs and PNET IDs; RoCE NICs and soft
 * RDMA devices such as rxe elsewhere), read from sysfs; and the smc_rnics
 * entry point, smc-tools' command of that name with its options and its
 * table.
 *
 * Where things are (SMC_DUMP_SYSFS_DIR replaces /sys, for tests):
 *   bus/pci/slots/FID/power           s390: one slot per function ID
 *                                     (8 hex digits), 1 powered on
 *   bus/pci/devices/BDF/function_id   s390: "0x%08x", the slot's FID
 *   .../pchid, pft, vfn, util_string  s390: PCHID (VCHID for ISM), PCI
 *                                     function type, virtual function
 *                                     number, the PNET IDs of the ports
 *                                     (16 EBCDIC bytes each)
 *   .../port                          s390: physical port, from 1; 0 none
 *   .../vendor, device                "0x%04x"
 *   .../net/IFNAME, infiniband/IBDEV  the function's interfaces
 *   class/infiniband/IBDEV            RDMA devices; one without a PCI
 *                                     function is a soft device (rxe, siw)
 *
 * The PCI function types are those smc_rnics names: 0x02 RoCE Express,
 * 0x05 ISM, 0x0a RoCE Express2 or 3 (by the firmware's major version, 14
 * or 22, which we read from the RDMA device's fw_ver where smc_rnics asks
 * ethtool), 0x0c and 0x0f Network Express.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "json_print.h"
#include "smc.h"

/* sysfs values and names are short; where one is longer than its
 * field, cutting it is what we want (snprintf), not an error
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define NAME_LEN	64
#define MAX_NAMES	16

/* One PCI function (or soft RDMA device) as sysfs has it */
struct rnic {
	bool s390;		/* has a function ID */
	unsigned long fid;
	int power;		/* 1 on, 0 off (s390 slots), -1 no slot */
	bool soft;		/* an RDMA device without PCI function */
	char pci_id[NAME_LEN];	/* BDF, "" for a powered-off slot */
	char pchid[NAME_LEN];	/* hex without 0x, "" unknown */
	char vendor[8], device[8];	/* hex without 0x */
	char pft[8];		/* "0x02", "" unknown */
	unsigned long vfn;
	bool have_vfn;
	int zport;		/* the function's "port" file, -1 absent */
	char fw_major[16];	/* the RDMA device's firmware, major version */
	char util[80];		/* PNET IDs, ASCII, 16 per port */
	size_t util_len;
	char net[MAX_NAMES][NAME_LEN];	/* interfaces, sorted */
	int dev_port[MAX_NAMES];	/* each one's dev_port, -1 absent */
	int nnet;
	char ib[NAME_LEN];	/* the RDMA device, "" none */
	char ibports[MAX_NAMES][8];	/* its ports, sorted */
	int nibports;
};

/* The options of smc rnics and smc_rnics */
struct rnics_opts {
	bool all;		/* -a: powered-off slots, unknown functions */
	bool raw;		/* -r: vendor:device, raw PFT and VFN */
	bool ibdev;		/* -I: RDMA device and its ports */
	bool have_target;
	unsigned long target;	/* a function ID */
};

const char *smc_sysfs_root(void)
{
	const char *dir = getenv("SMC_DUMP_SYSFS_DIR");

	return dir && *dir ? dir : "/sys";
}

/*
 * open_attr() - open ROOT/@rel with @flags, a regular file only: a FIFO
 * or a device planted in a (fake) tree would block or be written to;
 * O_NONBLOCK, so that the open of a FIFO does not wait for a writer
 *
 * Return: the descriptor, -1 when there is none to use.
 */
static int open_attr(const char *rel, int flags)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", smc_sysfs_root(), rel);
	fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* read_bytes() - up to @size raw bytes of a file; the count, -1 error */
static int read_bytes(char *buf, size_t size, const char *rel)
{
	size_t n = 0;
	ssize_t got;
	int fd = open_attr(rel, O_RDONLY);

	if (fd < 0)
		return -1;
	while (n < size && (got = read(fd, buf + n, size - n)) > 0)
		n += got;
	close(fd);
	return (int)n;
}

/*
 * read_attr() - the first line of sysfs file ROOT/@fmt... into @buf
 * (@size bytes, NUL-terminated, newline removed)
 *
 * Return: the length read, -1 when the file cannot be read.
 */
static int read_attr(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int read_attr(char *buf, size_t size, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	n = read_bytes(buf, size - 1, rel);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return (int)strlen(buf);
}

/*
 * hex_attr() - @s as sysfs writes a hex value: "0x" and 1 to @digits hex
 * digits, nothing else. Anything else is garbage, which both the table
 * and JSON show as unknown (so that they agree).
 */
static bool hex_attr(const char *s, int digits, unsigned long *v)
{
	int n;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (n = 0; get_hex(s[2 + n]) >= 0; n++)
		;
	if (!n || n > digits || s[2 + n])
		return false;
	*v = strtoul(s + 2, NULL, 16);
	return true;
}

/* dec_attr() - @s a decimal number 0 to 65535, nothing else; -1 if not */
static int dec_attr(const char *s)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	return errno || *end || v > 65535 ? -1 : (int)v;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * list_dir() - the names in ROOT/@rel (no dot files), sorted as ls sorts
 * them in the C locale, into @names (at most @max of NAME_LEN bytes)
 *
 * Return: the count, -1 when the directory cannot be opened.
 */
static int list_dir(char (*names)[NAME_LEN], int max, const char *rel)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", smc_sysfs_root(), rel);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= NAME_LEN)
			continue;
		strcpy(names[n++], de->d_name);
	}
	closedir(d);
	qsort(names, n, NAME_LEN, cmp_names);
	return n;
}

/* ebcdic() - the IBM-1047 byte @c in ASCII: letters, digits, blank; '?' */
static char ebcdic(unsigned char c)
{
	/* runs of IBM-1047 codes and the ASCII of their first */
	static const struct {
		unsigned char lo, hi;
		char ascii;
	} runs[] = {
		{ 0xc1, 0xc9, 'A' }, { 0xd1, 0xd9, 'J' }, { 0xe2, 0xe9, 'S' },
		{ 0x81, 0x89, 'a' }, { 0x91, 0x99, 'j' }, { 0xa2, 0xa9, 's' },
		{ 0xf0, 0xf9, '0' }, { 0x6d, 0x6d, '_' }, { 0x60, 0x60, '-' },
		{ 0x4b, 0x4b, '.' }, { 0x40, 0x40, ' ' }, { 0x00, 0x00, ' ' },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		if (c >= runs[i].lo && c <= runs[i].hi)
			return runs[i].ascii + (c - runs[i].lo);
	return '?';
}

/* A hex attribute of @digits digits at most into @dst without "0x",
 * lower case; "" when it is absent or garbage
 */
static void hex_text(char *dst, size_t size, int digits, const char *rel,
		     const char *name)
{
	char buf[80];
	unsigned long v;

	dst[0] = '\0';
	if (read_attr(buf, sizeof(buf), "%s/%s", rel, name) > 0 &&
	    hex_attr(buf, digits, &v))
		snprintf(dst, size, "%0*lx", digits, v);
}

/* @r as nothing known of it yet */
static void rnic_init(struct rnic *r)
{
	memset(r, 0, sizeof(*r));
	r->power = -1;
	r->zport = -1;
}

/* The interfaces and RDMA device of PCI function @r (dir @rel) */
static void read_ifaces(struct rnic *r, const char *rel)
{
	char sub[PATH_MAX], buf[32];
	char ibs[MAX_NAMES][NAME_LEN];
	int i, n;

	snprintf(sub, sizeof(sub), "%s/net", rel);
	n = list_dir(r->net, MAX_NAMES, sub);
	r->nnet = n < 0 ? -1 : n;
	for (i = 0; i < n; i++) {
		r->dev_port[i] = -1;
		if (read_attr(buf, sizeof(buf), "%s/net/%s/dev_port", rel,
			      r->net[i]) > 0)
			r->dev_port[i] = dec_attr(buf);
	}
	snprintf(sub, sizeof(sub), "%s/infiniband", rel);
	n = list_dir(ibs, MAX_NAMES, sub);
	if (n <= 0) {
		r->nibports = -1;
		return;
	}
	snprintf(r->ib, sizeof(r->ib), "%s", ibs[0]);
	snprintf(sub, sizeof(sub), "%s/infiniband/%s/ports", rel, r->ib);
	r->nibports = list_dir(ibs, MAX_NAMES, sub);
	for (i = 0; i < r->nibports; i++)
		snprintf(r->ibports[i], sizeof(r->ibports[i]), "%s", ibs[i]);
	if (read_attr(buf, sizeof(buf), "%s/infiniband/%s/fw_ver", rel,
		      r->ib) > 0) {
		buf[strcspn(buf, ".")] = '\0';
		if (dec_attr(buf) >= 0)
			snprintf(r->fw_major, sizeof(r->fw_major), "%s", buf);
	}
}

/* The PCI function @bdf into @r; false when it is no function to list */
static bool read_pci(struct rnic *r, const char *bdf)
{
	char rel[PATH_MAX], buf[80];
	unsigned char raw[64];
	int i, n;

	rnic_init(r);
	snprintf(rel, sizeof(rel), "bus/pci/devices/%s", bdf);
	snprintf(r->pci_id, sizeof(r->pci_id), "%s", bdf);
	/* each value as sysfs writes it, else unknown (hex_attr()) */
	if (read_attr(buf, sizeof(buf), "%s/function_id", rel) > 0 &&
	    hex_attr(buf, 8, &r->fid)) {
		r->s390 = true;
		r->power = 1;
	}
	hex_text(r->vendor, sizeof(r->vendor), 4, rel, "vendor");
	hex_text(r->device, sizeof(r->device), 4, rel, "device");
	hex_text(r->pchid, sizeof(r->pchid), 4, rel, "pchid");
	hex_text(buf, sizeof(buf), 2, rel, "pft");
	if (buf[0])
		snprintf(r->pft, sizeof(r->pft), "0x%s", buf);
	if (read_attr(buf, sizeof(buf), "%s/vfn", rel) > 0 &&
	    hex_attr(buf, 8, &r->vfn))
		r->have_vfn = true;
	if (read_attr(buf, sizeof(buf), "%s/port", rel) > 0)
		r->zport = dec_attr(buf);
	snprintf(buf, sizeof(buf), "%s/util_string", rel);
	n = read_bytes((char *)raw, sizeof(raw), buf);
	for (i = 0; i < n && (size_t)i < sizeof(r->util) - 1; i++)
		r->util[i] = ebcdic(raw[i]);
	r->util_len = n > 0 ? (size_t)i : 0;
	read_ifaces(r, rel);
	/* elsewhere than s390 only what has an RDMA device */
	return r->s390 || r->ib[0];
}

/* A soft RDMA device: its parent interface, its ports */
static void read_soft(struct rnic *r, const char *ib)
{
	char rel[PATH_MAX], buf[NAME_LEN];
	char ports[MAX_NAMES][NAME_LEN];
	int i;

	rnic_init(r);
	r->soft = true;
	r->nnet = -1;
	snprintf(r->ib, sizeof(r->ib), "%s", ib);
	snprintf(rel, sizeof(rel), "class/infiniband/%s", ib);
	if (read_attr(buf, sizeof(buf), "%s/parent", rel) > 0 ||
	    read_attr(buf, sizeof(buf), "%s/ports/1/gid_attrs/ndevs/0",
		      rel) > 0) {
		snprintf(r->net[0], sizeof(r->net[0]), "%s", buf);
		r->dev_port[0] = -1;
		r->nnet = 1;
	}
	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports", ib);
	r->nibports = list_dir(ports, MAX_NAMES, rel);
	for (i = 0; i < r->nibports; i++)
		snprintf(r->ibports[i], sizeof(r->ibports[i]), "%s", ports[i]);
}

/* The soft device's type: the letters its name starts with ("rxe") */
static void soft_type(const struct rnic *r, char *buf, size_t size)
{
	size_t n = strspn(r->ib, "abcdefghijklmnopqrstuvwxyz");

	if (!n)
		snprintf(buf, size, "soft");
	else
		snprintf(buf, size, "%.*s", (int)n, r->ib);
}

/* A table of rows, sorted as smc_rnics's "sort -k 1" sorts them */
struct row {
	const struct rnic *r;
	char line[256];
	/* the row's fields for JSON */
	char type[32], pft[8], vf[8], port[8], pnetid[20], iface[NAME_LEN];
};

struct table {
	struct row *rows;
	int n, cap;
};

static struct row *add_row(struct table *t)
{
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		struct row *p = realloc(t->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->rows = p;
		t->cap = cap;
	}
	memset(&t->rows[t->n], 0, sizeof(t->rows[0]));
	return &t->rows[t->n++];
}

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return strcmp(x->line, y->line);
}

/* The PNET ID of port @lport (from 0) of @r: 16 bytes, blanks removed */
static void pnetid_of(const struct rnic *r, int lport, char *buf, size_t size)
{
	size_t i, o = 0, start = (size_t)lport * 16;

	for (i = start; i < start + 16 && i < r->util_len && o + 1 < size; i++)
		if (r->util[i] != ' ')
			buf[o++] = r->util[i];
	buf[o] = '\0';
	/* smc_rnics then asks the software PNET table; we say n/a */
	if (!o)
		snprintf(buf, size, "n/a");
}

/* One row of @r with the current @port and @iface */
static int emit(struct table *t, const struct rnic *r,
		const struct rnics_opts *o, const char *type, const char *pft,
		const char *vf, const char *port, const char *iface)
{
	char fid[16], vfbuf[16];
	struct row *w;
	int lport;

	w = add_row(t);
	if (!w)
		return -1;
	w->r = r;
	snprintf(w->type, sizeof(w->type), "%s", type);
	snprintf(w->pft, sizeof(w->pft), "%s", pft);
	snprintf(w->port, sizeof(w->port), "%s", port);
	snprintf(w->iface, sizeof(w->iface), "%s", iface);
	if (o->raw && r->have_vfn) {
		snprintf(vfbuf, sizeof(vfbuf), "%lu", r->vfn);
		vf = vfbuf;
	}
	snprintf(w->vf, sizeof(w->vf), "%s", vf);
	if (r->power == 0) {
		w->pnetid[0] = '\0';
	} else {
		lport = 0;
		if (strcmp(port, "n/a") && !strcmp(type, "RoCE_Express")) {
			lport = atoi(port);
			if (o->ibdev)
				lport--;
		}
		if (lport < 0)
			lport = 0;
		pnetid_of(r, lport, w->pnetid, sizeof(w->pnetid));
	}
	if (r->s390)
		snprintf(fid, sizeof(fid), "%4lx", r->fid);
	else
		snprintf(fid, sizeof(fid), "%4s", "n/a");
	snprintf(w->line, sizeof(w->line),
		 "%s  %-5s  %-12s  %-4s   %-15s  %-4s  %-3s  %-4s  %-17s  %s",
		 fid, r->power == 0 ? "0" : "1",
		 r->soft ? "n/a" : r->power == 0 ? "" : r->pci_id,
		 r->power == 0 || (r->s390 && r->pchid[0]) ? r->pchid : "n/a",
		 w->type, w->pft, w->vf, w->port, w->pnetid, w->iface);
	return 0;
}

/* "port" of the function, as smc_rnics reads it: n/a for 0 */
static void zport_text(const struct rnic *r, const struct rnics_opts *o,
		       char *port, size_t size)
{
	if (r->zport < 0)
		return;
	if (r->zport == 0)
		snprintf(port, size, "n/a");
	else if (o->ibdev)
		snprintf(port, size, "1");
	else
		snprintf(port, size, "%d", r->zport - 1);
}

/* The rows of one function @r, as smc_rnics prints them */
static int rows_of(struct table *t, const struct rnic *r,
		   const struct rnics_opts *o)
{
	char type[32] = "", pft[8] = "", vf[8] = "", port[8] = "n/a";
	bool known = true;
	int i;

	if (r->power == 0)
		return o->all ? emit(t, r, o, "", "", "", "", "") : 0;
	if (r->vendor[0] && r->device[0])
		snprintf(type, sizeof(type), "%s:%s", r->vendor, r->device);
	else
		snprintf(type, sizeof(type), "n/a");
	/* unknown (absent, or garbage) as n/a, as JSON's null */
	snprintf(pft, sizeof(pft), "%s", r->s390 && r->pft[0] ? r->pft : "n/a");
	snprintf(vf, sizeof(vf), "%s", r->s390 && r->have_vfn ? "" : "n/a");
	if (r->soft) {
		soft_type(r, type, sizeof(type));
	} else if (r->s390 && !o->raw) {
		if (!strcmp(r->pft, "0x05")) {
			snprintf(type, sizeof(type), "ISM");
			snprintf(pft, sizeof(pft), "ISM");
		} else if (!strcmp(r->pft, "0x02")) {
			snprintf(type, sizeof(type), "RoCE_Express");
			snprintf(pft, sizeof(pft), "ROC");
		} else if (!strcmp(r->pft, "0x0a")) {
			/* smc_rnics leaves the type blank where ethtool
			 * cannot tell; we say n/a, so that columns hold
			 */
			if (!strcmp(r->fw_major, "22"))
				snprintf(type, sizeof(type), "RoCE_Express3");
			else if (!strcmp(r->fw_major, "14"))
				snprintf(type, sizeof(type), "RoCE_Express2");
			else
				snprintf(type, sizeof(type), "n/a");
			snprintf(pft, sizeof(pft), "ROC2");
			zport_text(r, o, port, sizeof(port));
		} else if (!strcmp(r->pft, "0x0c") ||
			   !strcmp(r->pft, "0x0f")) {
			snprintf(type, sizeof(type), "Network_Express");
			snprintf(pft, sizeof(pft), r->pft[3] == 'c' ?
				 "NETH" : "NETD");
			zport_text(r, o, port, sizeof(port));
		} else {
			known = false;
		}
		if (known && strcmp(r->pft, "0x0f"))
			snprintf(vf, sizeof(vf), "y");
		else if (r->have_vfn)
			snprintf(vf, sizeof(vf), "%s", r->vfn ? "y" : "n");
		else
			snprintf(vf, sizeof(vf), "n/a");
		if (!known && !o->all)
			return 0;
	} else if (r->s390 && r->have_vfn) {
		snprintf(vf, sizeof(vf), "%lu", r->vfn);
	}
	if (!o->ibdev) {
		if (r->nnet <= 0)
			return emit(t, r, o, type, pft, vf, port, "n/a");
		for (i = 0; i < r->nnet; i++) {
			/* the function's port file, read on the first
			 * interface only (smc_rnics reads it in the
			 * function's directory)
			 */
			if (i == 0)
				zport_text(r, o, port, sizeof(port));
			if (o->raw && r->s390 && strtoul(r->pft, NULL, 16) == 2 &&
			    r->dev_port[i] >= 0)
				snprintf(port, sizeof(port), "%d",
					 r->dev_port[i]);
			if (emit(t, r, o, type, pft, vf, port, r->net[i]))
				return -1;
		}
		return 0;
	}
	if (r->nibports <= 0)
		return emit(t, r, o, type, pft, vf, port, "n/a");
	for (i = 0; i < r->nibports; i++)
		if (emit(t, r, o, type, pft, vf, r->ibports[i], r->ib))
			return -1;
	return 0;
}

/* Room for one more function after the @have of *@v: the new one, or
 * NULL (*@v freed)
 */
static struct rnic *more(struct rnic **v, int have)
{
	struct rnic *p = realloc(*v, (have + 1) * sizeof(*p));

	if (!p) {
		free(*v);
		*v = NULL;
		return NULL;
	}
	*v = p;
	return &p[have];
}

/* All functions of sysfs into @rn (*@n of them; free()) */
static int read_all(struct rnic **rn, int *n)
{
	static char names[256][NAME_LEN];
	char buf[16], rel[PATH_MAX];
	struct rnic *v = NULL, *p;
	int i, j, cnt, have = 0;

	cnt = list_dir(names, 256, "bus/pci/devices");
	v = calloc(cnt > 0 ? cnt : 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < cnt; i++)
		if (read_pci(&v[have], names[i]))
			have++;
	/* s390 slots that are off have no PCI function */
	cnt = list_dir(names, 256, "bus/pci/slots");
	for (i = 0; i < cnt; i++) {
		unsigned long fid = strtoul(names[i], NULL, 16);
		bool found = false;

		snprintf(rel, sizeof(rel), "bus/pci/slots/%s/power", names[i]);
		if (strlen(names[i]) != 8 ||
		    strspn(names[i], "0123456789abcdefABCDEF") != 8 ||
		    read_attr(buf, sizeof(buf), "%s", rel) <= 0 ||
		    strcmp(buf, "0"))
			continue;
		for (j = 0; j < have; j++)
			found |= v[j].s390 && v[j].fid == fid;
		if (found)
			continue;
		p = more(&v, have);
		if (!p)
			return -1;
		rnic_init(p);
		p->s390 = true;
		p->fid = fid;
		p->power = 0;
		have++;
	}
	/* soft RDMA devices: no device link to a PCI function */
	cnt = list_dir(names, 256, "class/infiniband");
	for (i = 0; i < cnt; i++) {
		bool found = false;

		snprintf(rel, sizeof(rel), "%s/class/infiniband/%s/device",
			 smc_sysfs_root(), names[i]);
		for (j = 0; j < have; j++)
			found |= !strcmp(v[j].ib, names[i]);
		if (found || !access(rel, F_OK))
			continue;
		p = more(&v, have);
		if (!p)
			return -1;
		read_soft(p, names[i]);
		have++;
	}
	*rn = v;
	*n = have;
	return 0;
}

static int build_table(struct table *t, struct rnic **rn,
		       const struct rnics_opts *o)
{
	int i, n;

	if (read_all(rn, &n)) {
		fprintf(stderr, "Error: out of memory\n");
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		const struct rnic *r = &(*rn)[i];

		if (o->have_target && (!r->s390 || r->fid != o->target))
			continue;
		if (rows_of(t, r, o)) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
	}
	qsort(t->rows, t->n, sizeof(t->rows[0]), cmp_rows);
	return 0;
}

static void print_header(const struct rnics_opts *o)
{
	printf("FID   Power  PCI_ID        PCHID  Type             PFT   %-3s  %s  PNET_ID            %s\n",
	       o->raw ? "VFN" : "VF", o->ibdev ? "IPrt" : "PPrt",
	       o->ibdev ? "IB-Dev" : "Net-Dev");
	printf("%.100s\n",
	       "--------------------------------------------------"
	       "--------------------------------------------------");
}

static void json_text(const char *key, const char *s)
{
	if (s && *s && strcmp(s, "n/a"))
		print_string(PRINT_JSON, key, NULL, s);
	else
		print_null(PRINT_JSON, key, NULL, NULL);
}

static void print_json(const struct table *t, const struct rnics_opts *o)
{
	char buf[32];
	int i;

	new_json_obj(1, pretty);
	for (i = 0; i < t->n; i++) {
		const struct row *w = &t->rows[i];
		const struct rnic *r = w->r;

		open_json_object(NULL);
		if (r->s390) {
			snprintf(buf, sizeof(buf), "0x%lx", r->fid);
			print_string(PRINT_JSON, "fid", NULL, buf);
		} else {
			print_null(PRINT_JSON, "fid", NULL, NULL);
		}
		if (r->power >= 0)
			print_uint(PRINT_JSON, "power", NULL, r->power);
		else
			print_null(PRINT_JSON, "power", NULL, NULL);
		json_text("pci_id", r->soft || r->power == 0 ? NULL : r->pci_id);
		if (r->pchid[0]) {
			snprintf(buf, sizeof(buf), "0x%s", r->pchid);
			print_string(PRINT_JSON, "pchid", NULL, buf);
		} else {
			print_null(PRINT_JSON, "pchid", NULL, NULL);
		}
		json_text("type", w->type);
		if (r->vendor[0]) {
			snprintf(buf, sizeof(buf), "0x%s", r->vendor);
			print_string(PRINT_JSON, "pci_vendor", NULL, buf);
			snprintf(buf, sizeof(buf), "0x%s", r->device);
			print_string(PRINT_JSON, "pci_device", NULL, buf);
		}
		json_text("pft", r->pft);
		if (r->have_vfn)
			print_uint(PRINT_JSON, "vfn", NULL, r->vfn);
		json_text(o->ibdev ? "ibport" : "port", w->port);
		json_text("pnetid", w->pnetid);
		if (o->ibdev) {
			json_text("ibdev", w->iface);
		} else {
			json_text("ifname", w->iface);
			json_text("ibdev", r->ib);
		}
		close_json_object();
	}
	delete_json_obj();
}

bool smc_rnics_pnetid(const char *ifname, char *buf, size_t size)
{
	struct rnics_opts o = { 0 };
	struct table t = { 0 };
	struct rnic *rn = NULL;
	bool found = false;
	int i;

	if (!build_table(&t, &rn, &o))
		for (i = 0; i < t.n && !found; i++)
			if (!strcmp(t.rows[i].iface, ifname) &&
			    strcmp(t.rows[i].pnetid, "n/a")) {
				snprintf(buf, size, "%s", t.rows[i].pnetid);
				found = true;
			}
	free(t.rows);
	free(rn);
	return found;
}

static void free_table(struct table *t, struct rnic *rn)
{
	free(t->rows);
	free(rn);
}

/*
 * list() - the table (or JSON) of the functions @o selects
 *
 * Return: 0, or 8 when a function ID was given and nothing matched
 * (smc_rnics's code), 1 on an error.
 */
static int list(const struct rnics_opts *o, bool as_json)
{
	struct table t = { 0 };
	struct rnic *rn = NULL;
	int i, ret;

	ret = build_table(&t, &rn, o);
	if (ret) {
		free_table(&t, rn);
		return ret;
	}
	if (as_json) {
		print_json(&t, o);
	} else {
		print_header(o);
		for (i = 0; i < t.n; i++)
			printf("%s\n", t.rows[i].line);
	}
	ret = o->have_target && !t.n ? 8 : 0;
	free_table(&t, rn);
	return ret;
}

/*
 * parse_fid() - a function ID in hex, with or without 0x
 *
 * Return: 0, or 3 (smc_rnics's code) after the error message.
 */
static int parse_fid(const char *arg, unsigned long *fid)
{
	const char *p = arg, *q;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (q = p; get_hex(*q) >= 0; q++)
		;
	*fid = 0;
	if (*p && !*q && q - p <= 16)
		*fid = strtoull(p, NULL, 16);
	if (!*p || *q || q - p > 16 || *fid > 0xffffffffUL) {
		fprintf(stderr, "Error: '%s' is not a valid FID\n", p);
		return 3;
	}
	return 0;
}

/*
 * set_power() - power slot @fid on (1) or off (0), smc_rnics -e and -d
 *
 * Return: 0, 5 no such slot, 6 already so, 7 the write failed.
 */
static int set_power(unsigned long fid, int on)
{
	const char *what = on ? "enable" : "disable";
	char rel[PATH_MAX], buf[16];
	int fd, len;
	bool bad;

	snprintf(rel, sizeof(rel), "bus/pci/slots/%08lx/power", fid);
	if (read_attr(buf, sizeof(buf), "%s", rel) <= 0) {
		fprintf(stderr, "Error: FID %lx does not exist\n", fid);
		return 5;
	}
	if (atoi(buf) == on) {
		fprintf(stderr, "Error: FID %lx is already %sd\n", fid, what);
		return 6;
	}
	len = snprintf(buf, sizeof(buf), "%d\n", on);
	fd = open_attr(rel, O_WRONLY | O_TRUNC);
	bad = fd < 0 || write(fd, buf, len) != len;
	if (fd >= 0 && close(fd))
		bad = true;
	if (bad) {
		fprintf(stderr, "Error: Failed to %s FID %lx\n", what, fid);
		return 7;
	}
	return 0;
}

static void rnics_usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] rnics [ show ] [ all ] [ raw ] [ ibdev ] [ fid FID ]\n"
		"       smc rnics help\n"
		"where  all    powered-off slots and functions of other types too\n"
		"       raw    PCI vendor:device, PFT and VFN as numbers\n"
		"       ibdev  a row per RDMA port instead of per interface\n"
		"       FID    a function ID in hex (s390)\n"
		"Also as smc_rnics, smc-tools' command: smc_rnics -h.\n");
}

/* smc rnics [ show ] [ all ] [ raw ] [ ibdev ] [ fid FID ] */
int do_rnics(int argc, char **argv)
{
	struct rnics_opts o = { 0 };

	if (argc > 0 && (!matches(argv[0], "help") ||
			 !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
		rnics_usage(stdout);
		return EXIT_OK;
	}
	if (argc > 0 && !matches(argv[0], "show")) {
		argc--;
		argv++;
	}
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(argv[0], "all")) {
			o.all = true;
		} else if (!strcmp(argv[0], "raw")) {
			o.raw = true;
		} else if (!strcmp(argv[0], "ibdev")) {
			o.ibdev = true;
		} else if (!strcmp(argv[0], "fid")) {
			if (next_arg(&argc, &argv, "rnics"))
				return EXIT_USAGE;
			if (parse_fid(argv[0], &o.target))
				return EXIT_USAGE;
			o.have_target = true;
		} else {
			fprintf(stderr,
				"Error: unknown argument \"%s\", try \"smc rnics help\".\n",
				argv[0]);
			return EXIT_USAGE;
		}
	}
	return list(&o, json) == 1 ? EXIT_FAIL : EXIT_OK;
}

static void smc_rnics_usage(void)
{
	printf("\n"
	       "Usage: smc_rnics [ OPTIONS ] [ FID ]\n"
	       "\n"
	       "The PCI functions for SMC (smc-dump's smc rnics, with smc-tools' options)\n"
	       "\n"
	       "   -a, --all            powered-off and unknown functions too\n"
	       "   -d, --disable <FID>  power function FID off\n"
	       "   -e, --enable <FID>   power function FID on\n"
	       "   -h, --help           this text\n"
	       "   -I, --IB-dev         RDMA device and port instead of interface\n"
	       "   -r, --rawids         raw PCI vendor:device, PFT and VFN\n"
	       "   -v, --version        the version\n"
	       "\n");
}

/*
 * smc_rnics_main() - the smc_rnics entry point: smc-tools' smc_rnics
 * [ -a ] [ -I ] [ -r ] [ FID ], -e FID, -d FID, -h, -v
 *
 * Exit status as smc_rnics: 0, 2 bad option, 3 bad FID, 4 -e/-d with a
 * FID argument, 5 no such FID, 6 already enabled/disabled, 7 cannot
 * write, 8 FID given and not listed (smc_rnics returns 8 for every FID
 * argument; we only when nothing matched).
 */
int smc_rnics_main(int argc, char **argv, const char *version)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "enable", required_argument, NULL, 'e' },
		{ "disable", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "IB-dev", no_argument, NULL, 'I' },
		{ "rawids", no_argument, NULL, 'r' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct rnics_opts o = { 0 };
	const char *action_fid = NULL;
	unsigned long fid;
	int c, on = -1, ret;
	char *prog;

	/*
	 * smc_rnics parses its options with getopt(1), whose messages name
	 * "getopt": the same first line of stderr for a bad option
	 */
	prog = argv[0];
	argv[0] = (char *)"getopt";
	while ((c = getopt_long(argc, argv, "hIrvae:d:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			o.all = true;
			break;
		case 'e':
		case 'd':
			on = c == 'e';
			action_fid = optarg;
			break;
		case 'h':
			smc_rnics_usage();
			return EXIT_OK;
		case 'I':
			o.ibdev = true;
			break;
		case 'r':
			o.raw = true;
			break;
		case 'v':
			printf("smc_rnics utility, smc-dump-%s\n", version);
			return EXIT_OK;
		default:
			return 2;
		}
	}
	argv[0] = prog;
	/* smc_rnics takes the last FID argument */
	for (; optind < argc; optind++) {
		ret = parse_fid(argv[optind], &o.target);
		if (ret)
			return ret;
		o.have_target = true;
	}
	if (on >= 0) {
		if (o.have_target) {
			smc_rnics_usage();
			return 4;
		}
		ret = parse_fid(action_fid, &fid);
		if (ret)
			return ret;
		return set_power(fid, on);
	}
	return list(&o, false);
}
