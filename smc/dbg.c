// SPDX-License-Identifier: GPL-2.0
/*
 * dbg.c - smc dbg [ FILE ]: a debug bundle, one tar.gz with a file per
 * section and index.txt naming each section and whether it was collected;
 * and the smc_dbg entry point, smc-tools' smc_dbg (sections on stdout, -t
 * for a .tgz in /tmp).
 *
 * Each section is the output of one smc command, run as a child of this
 * smc (/proc/self/exe, argv[0] the command's name so that the entry
 * points answer), or of a program (dmesg). A section that fails is kept
 * with what it printed and named so in the index; nothing of it is fatal.
 * The archive is written by tar(1) to FILE.tmp and renamed to FILE when it
 * is complete, so that a failure leaves no partial FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smc.h"

/* paths are cut at PATH_MAX by snprintf, as the system would refuse them */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* the kernel's lines about SMC and ISM: dmesg, else journalctl -k (dmesg
 * may be refused to users); 127 when neither is there
 */
#define KERNEL_LOG \
	"if command -v dmesg >/dev/null; then " \
	"out=$(dmesg 2>/dev/null || journalctl -k --no-pager) || exit 1; " \
	"elif command -v journalctl >/dev/null; then " \
	"out=$(journalctl -k --no-pager) || exit 1; " \
	"else echo 'neither dmesg nor journalctl is in PATH'; exit 127; fi; " \
	"printf '%s\\n' \"$out\" | grep -i -E 'smc|ism'; exit 0"

struct section {
	const char *file;	/* its file in the archive */
	bool tools;		/* one of smc_dbg's sections (stdout mode) */
	const char *argv[8];	/* argv[0]: "smc", "smcss", ... or a program */
	bool program;		/* argv[0] is a program in $PATH */
	const char *desc;	/* what the index says it ran, NULL: argv */
};

static const struct section sections[] = {
	{ "version.txt", true, { "smc", "-V" }, false, NULL },
	{ "devices.txt", true, { "smc_rnics", "-a" }, false, NULL },
	{ "smcss_all.txt", true, { "smcss", "--all", "--debug" }, false, NULL },
	{ "smcss_smcd", true, { "smcss", "--smcd" }, false, NULL },
	{ "smcss_smcr", true, { "smcss", "--smcr" }, false, NULL },
	{ "pnet_table.txt", true, { "smc", "pnet", "show" }, false, NULL },
	{ "smcr_links.txt", true, { "smc", "-d", "linkgroup", "link-show", "type", "smcr" }, false, NULL },
	{ "smcd_lgs.txt", true, { "smc", "-d", "linkgroup", "show", "type", "smcd" }, false, NULL },
	{ "smcd_info.txt", true, { "smc", "info" }, false, NULL },
	/* smc_dbg's two, in smc-tools' format; stats.txt: both, by name */
	{ "smcd_stats.txt", true, { "smcd", "-d", "stats" }, false, NULL },
	{ "smcr_stats.txt", true, { "smcr", "-d", "stats" }, false, NULL },
	{ "stats.txt", false, { "smc", "-d", "stats" }, false, NULL },
	{ "device.txt", false, { "smc", "-d", "device" }, false, NULL },
	{ "ueid.txt", false, { "smc", "ueid", "show" }, false, NULL },
	{ "kernel.txt", false, { "uname", "-a" }, true, NULL },
	{ "modules.txt", false, { "sh", "-c", "grep -E '^(smc|smc_diag|ism|ib_core|rdma_rxe|mlx[45]_ib) ' /proc/modules" }, true,
	  "grep of /proc/modules" },
	{ "sysctl.txt", false, { "sh", "-c", "[ -d /proc/sys/net/smc ] || { echo 'no /proc/sys/net/smc: the smc module is not loaded'; exit 1; }; for f in /proc/sys/net/smc/*; do echo \"net.smc.${f##*/} = $(cat \"$f\")\"; done" }, true,
	  "cat /proc/sys/net/smc/*" },
	{ "dmesg.txt", false, { "sh", "-c", KERNEL_LOG }, true,
	  "dmesg (or journalctl -k) | grep -i -E 'smc|ism'" },
};

/*
 * run_section() - run section @s with its output (stdout and stderr) on
 * fd @out
 *
 * Return: the exit status, 127 when the program is not found, -1 when it
 * cannot be started.
 */
static int run_section(const struct section *s, int out)
{
	char path[PATH_MAX];
	int status;
	pid_t pid;

	if (s->program && !find_in_path(s->argv[0], path, sizeof(path)))
		return 127;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(out, 1);
		/* into the section's file; on standard output (smc_dbg
		 * without -t) its errors stay on standard error
		 */
		if (out != 1)
			dup2(out, 2);
		if (s->program)
			execv(path, (char **)s->argv);
		else
			execv("/proc/self/exe", (char **)s->argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

static void join_argv(const struct section *s, char *buf, size_t size)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	if (s->desc) {
		snprintf(buf, size, "%s", s->desc);
		return;
	}
	for (i = 0; s->argv[i] && o < size; i++)
		o += snprintf(buf + o, size - o, "%s%s", i ? " " : "",
			      s->argv[i]);
}

/* Collect every section into @dir, and index.txt; 0, or -1 on an error */
static int collect(const char *dir)
{
	char path[PATH_MAX], cmd[512];
	unsigned int i;
	FILE *idx;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/index.txt", dir);
	idx = fopen(path, "we");
	if (!idx)
		return -1;
	fprintf(idx, "# smc dbg: FILE STATUS COMMAND; STATUS ok, failed N (its exit status;\n# the file has what it said), missing (not found; the file says what)\n");
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		const struct section *s = &sections[i];

		snprintf(path, sizeof(path), "%s/%s", dir, s->file);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fclose(idx);
			return -1;
		}
		rc = run_section(s, fd);
		close(fd);
		join_argv(s, cmd, sizeof(cmd));
		if (rc == 0)
			fprintf(idx, "%s ok %s\n", s->file, cmd);
		else if (rc == 127 || rc < 0)
			fprintf(idx, "%s missing %s\n", s->file, cmd);
		else
			fprintf(idx, "%s failed %d %s\n", s->file, rc, cmd);
	}
	return fclose(idx) ? -1 : 0;
}

/* Remove @dir and its files (one level) */
static void remove_dir(const char *dir)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sections[i].file);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/index.txt", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * bundle() - the archive @file of all sections, in a directory @name
 *
 * Return: 0, or 1 after the error message (no @file then).
 */
static int bundle(const char *file, const char *name)
{
	char tmp[PATH_MAX], dir[PATH_MAX], base[PATH_MAX], tar[PATH_MAX];
	const struct section s = { NULL, false, { "tar", "-czf", tmp, "-C",
						  base, name }, true, NULL };
	const char *td = getenv("TMPDIR");
	struct stat st;
	int fd, rc;

	if (!find_in_path("tar", tar, sizeof(tar))) {
		fprintf(stderr, "Error: smc dbg needs tar(1), which is not in PATH\n");
		return 1;
	}
	/* the archive replaces a regular file only: never a device node
	 * (/dev/null), a FIFO, a socket or a symbolic link, whose target
	 * the rename would not reach but replace
	 */
	if (!lstat(file, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "Error: \"%s\" exists and is not a regular file\n",
			file);
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "Error: cannot write \"%s\": %s\n", file,
			strerror(errno));
		return 1;
	}
	snprintf(base, sizeof(base), "%s/smc_dbg-XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(base)) {
		fprintf(stderr, "Error: cannot make a directory in %s: %s\n",
			td && *td ? td : "/tmp", strerror(errno));
		close(fd);
		unlink(tmp);
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/%s", base, name);
	if (mkdir(dir, 0755) || collect(dir)) {
		fprintf(stderr, "Error: cannot write the sections in %s: %s\n",
			dir, strerror(errno));
		rc = 1;
		goto out;
	}
	rc = run_section(&s, 2);
	if (rc) {
		fprintf(stderr, "Error: tar could not write \"%s\" (exit %d)\n",
			file, rc);
		rc = 1;
		goto out;
	}
	if (rename(tmp, file)) {
		fprintf(stderr, "Error: cannot write \"%s\": %s\n", file,
			strerror(errno));
		rc = 1;
	}
out:
	close(fd);
	if (rc)
		unlink(tmp);
	remove_dir(dir);
	rmdir(base);
	return rc;
}

/* smc_dbg-HOST-YYYYMMDD-HHMMSS */
static void default_name(char *buf, size_t size)
{
	struct utsname u;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "host");
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, size, "smc_dbg-%s-%s", u.nodename, when);
}

static void dbg_usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc dbg [ FILE ]\n"
		"       smc dbg help\n"
		"FILE is the tar.gz to write (default smc_dbg-HOST-TIME.tar.gz here)\n");
}

/* smc dbg [ FILE ] */
int do_dbg(int argc, char **argv)
{
	char name[PATH_MAX], file[PATH_MAX + 8];
	int ret;

	if (argc > 0 && (!matches(argv[0], "help") || !strcmp(argv[0], "-h"))) {
		dbg_usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr,
			"Error: unexpected argument \"%s\", try \"smc dbg help\".\n",
			argv[1]);
		return EXIT_USAGE;
	}
	default_name(name, sizeof(name));
	if (argc > 0)
		snprintf(file, sizeof(file), "%s", argv[0]);
	else
		snprintf(file, sizeof(file), "%s.tar.gz", name);
	ret = bundle(file, name);
	if (!ret)
		printf("Debug output written to %s\n", file);
	return ret;
}

static void smc_dbg_usage(void)
{
	printf("\n"
	       "Usage: smc_dbg [ OPTIONS ]\n"
	       "\n"
	       "Debug information of SMC (smc-dump's smc dbg)\n"
	       "\n"
	       "   -h, --help           this text\n"
	       "   -t, --tgz            a .tgz file in /tmp instead of stdout\n"
	       "   -v, --version        the version\n"
	       "\n");
}

/*
 * smc_dbg_main() - the smc_dbg entry point: smc-tools' smc_dbg [ -t ]
 * [ -h ] [ -v ]. Without -t smc_dbg's sections on stdout, each after a
 * blank line; with -t the archive of smc dbg as /tmp/smc_dbg-XXXXXX.tgz.
 */
int smc_dbg_main(int argc, char **argv, const char *version)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "tgz", no_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	char file[PATH_MAX], name[64];
	bool tgz = false;
	unsigned int i;
	int c, fd;
	char *prog;

	/*
	 * smc_dbg parses its options with getopt(1), whose messages name
	 * "getopt": the same first line of stderr for a bad option
	 */
	prog = argv[0];
	argv[0] = (char *)"getopt";
	while ((c = getopt_long(argc, argv, "hvt", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			smc_dbg_usage();
			return EXIT_OK;
		case 't':
			tgz = true;
			break;
		case 'v':
			printf("smc_dbg utility, smc-dump-%s\n", version);
			return EXIT_OK;
		default:
			/* smc-tools' smc_dbg: "exit 1" when getopt fails,
			 * not EXIT_USAGE (smc_dbg(8))
			 */
			return 1;
		}
	}
	argv[0] = prog;
	if (!tgz) {
		for (i = 0; i < ARRAY_SIZE(sections); i++) {
			if (!sections[i].tools)
				continue;
			printf("\n");
			fflush(stdout);
			run_section(&sections[i], 1);
		}
		return EXIT_OK;
	}
	snprintf(file, sizeof(file), "/tmp/smc_dbg-XXXXXX");
	fd = mkstemp(file);
	if (fd < 0) {
		fprintf(stderr, "Error: cannot make a file in /tmp: %s\n",
			strerror(errno));
		return 1;
	}
	close(fd);
	unlink(file);
	snprintf(name, sizeof(name), "%s", strrchr(file, '/') + 1);
	strcat(file, ".tgz");
	if (bundle(file, name))
		return 1;
	printf("Debug output written to %s\n", file);
	return EXIT_OK;
}
