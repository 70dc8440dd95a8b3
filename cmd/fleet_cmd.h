/*
 * fleet_cmd.h — the `vpsbench fleet` subcommand: argv in, exit status out.
 */
#ifndef VPSBENCH_FLEET_CMD_H
#define VPSBENCH_FLEET_CMD_H

/* argv[1] is "fleet". Exit 0, 1 (usage, no readable report), 2 (no memory), 3 (--require). */
int fleet_main(int argc, char **argv);

#endif
