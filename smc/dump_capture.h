/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc dump start, stop and show: captures through an smc-dummy link and
 * tcpdump (capture.c; stop and show: capture_ctl.c; design:
 * Documentation/capture.md). dump.c dispatches to these.
 *
 * Exit status of each: 0 success, 1 failure, 2 usage error.
 */
#ifndef SMC_DUMP_CAPTURE_H
#define SMC_DUMP_CAPTURE_H

/*
 * dump_start() - smc dump start [mode M] [type T] [snaplen N] [write FILE]
 * [filter EXPR] [param 'ARGS'] [dev NAME] [background]
 * @argc: number of arguments in @argv
 * @argv: the arguments after "start"
 *
 * Creates the smc-dummy link, brings it up and runs tcpdump on it (mode
 * all: on "any") until SIGINT, SIGTERM, SIGHUP, `smc dump stop` or the
 * end of tcpdump; then deletes the link and prints a summary.
 */
int dump_start(int argc, char **argv);

/*
 * dump_stop() - smc dump stop [dev NAME | all]
 * @argc: number of arguments in @argv
 * @argv: the arguments after "stop"
 *
 * Ends captures of this netns cleanly and removes their links.
 */
int dump_stop(int argc, char **argv);

/*
 * dump_show() - smc dump show [-j] [dev NAME]
 * @argc: number of arguments in @argv
 * @argv: the arguments after "show"
 *
 * Lists the netns's smc-dummy links with their filter, counters and the
 * capture that owns them.
 */
int dump_show(int argc, char **argv);

#endif /* SMC_DUMP_CAPTURE_H */
