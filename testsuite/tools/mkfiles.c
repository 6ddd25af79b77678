// SPDX-License-Identifier: GPL-2.0
/*
 * mkfiles: create files of given sizes, nothing else. The bench's floor for
 * `smc dump follow`: follow must create one file per stream direction and
 * write its bytes, whatever the decoder does, so the time this tool takes
 * for the same names and sizes is what the file system costs alone.
 *
 *   mkfiles DIR <LIST
 *
 * LIST has one "NAME SIZE" line per file (SIZE in bytes, decimal), as
 * `find D -type f -printf '%f %s\n'` prints them. Each file is created in
 * DIR (which must exist) with open(O_CREAT | O_TRUNC), SIZE zero bytes are
 * written with write() in chunks of at most 64 KiB, and it is closed, one
 * file at a time, as follow does when its descriptors run out.
 * Exit status: 0, 1 on a failed open or write (named on stderr), 2 on a
 * malformed line or usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char zeros[1 << 16];

static int write_zeros(int fd, unsigned long long size)
{
	while (size) {
		size_t n = size > sizeof(zeros) ? sizeof(zeros) : (size_t)size;
		ssize_t w = write(fd, zeros, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		size -= (unsigned long long)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char name[4096], line[4200];
	unsigned long long size, lineno = 0;
	int dfd;

	if (argc != 2) {
		fprintf(stderr, "usage: mkfiles DIR <LIST\n");
		return 2;
	}
	dfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		fprintf(stderr, "mkfiles: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char extra;
		int fd;

		lineno++;
		if (sscanf(line, "%4095s %llu %c", name, &size, &extra) != 2 ||
		    strchr(name, '/')) {
			fprintf(stderr, "mkfiles: line %llu: want \"NAME SIZE\"\n",
				lineno);
			return 2;
		}
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			    0644);
		if (fd < 0 || write_zeros(fd, size)) {
			fprintf(stderr, "mkfiles: %s: %s\n", name, strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		close(fd);
	}
	close(dfd);
	return 0;
}
