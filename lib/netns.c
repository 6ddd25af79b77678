// SPDX-License-Identifier: GPL-2.0
/*
 * netns.c - entering a named network namespace (see netns.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include "netns.h"
#include "utils.h"

/* A name ip netns add would take: one path component */
static bool netns_name_ok(const char *name)
{
	return *name && strlen(name) < NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* /sys of the new network namespace, in a mount namespace of our own:
 * what is mounted there stays ours
 */
static int remount_sys(const char *name)
{
	unsigned long flags = 0;
	struct statvfs st;

	if (unshare(CLONE_NEWNS) < 0) {
		fprintf(stderr,
			"Error: cannot make a mount namespace for network namespace \"%s\": %s\n",
			name, strerror(errno));
		return -1;
	}
	if (mount("", "/", "none", MS_SLAVE | MS_REC, NULL) < 0) {
		fprintf(stderr, "Error: cannot make / a slave mount: %s\n",
			strerror(errno));
		return -1;
	}
	/* a /sys that cannot be unmounted is covered, read-only if it was */
	if (umount2("/sys", MNT_DETACH) < 0 && !statvfs("/sys", &st) &&
	    (st.f_flag & ST_RDONLY))
		flags = MS_RDONLY;
	if (mount(name, "/sys", "sysfs", flags, NULL) < 0) {
		fprintf(stderr,
			"Error: cannot mount /sys for network namespace \"%s\": %s\n",
			name, strerror(errno));
		return -1;
	}
	return 0;
}

int netns_switch(const char *name)
{
	char path[sizeof(NETNS_RUN_DIR) + NAME_MAX + 1];
	int fd, err;

	if (!netns_name_ok(name))
		return invarg("not a network namespace name", name);
	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr,
			"Error: cannot open network namespace \"%s\": %s\n",
			name, strerror(errno));
		return EXIT_FAIL;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		err = errno;
		close(fd);
		if (err == EINVAL)
			fprintf(stderr,
				"Error: %s is not a network namespace\n", path);
		else
			fprintf(stderr,
				"Error: cannot enter network namespace \"%s\": %s\n",
				name, strerror(err));
		return EXIT_FAIL;
	}
	close(fd);
	return remount_sys(name) ? EXIT_FAIL : EXIT_OK;
}
