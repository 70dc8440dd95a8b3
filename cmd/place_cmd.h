/*
 * place_cmd.h — the `vpsbench place` subcommand: a saved JSON report placed
 * among the published results without re-running, or the population.
 */
#ifndef VPSBENCH_PLACE_CMD_H
#define VPSBENCH_PLACE_CMD_H

/* argv[1] is "place". Exit 0 (read, placed or not), 1 (the report unreadable,
 * not JSON, not a vpsbench report; --html not written), 2 (usage). */
int place_main(int argc, char **argv);

#endif
