/*
 * main.c - the occ executable: hands the command line to cli_main().
 */
#include "cli.h"

int main(int argc, char **argv)
{
    const cli_io io = {stdin, stdout, stderr};
    return cli_main(argc, argv, &io);
}
