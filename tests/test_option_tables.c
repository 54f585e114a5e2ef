/*
 * test_option_tables.c - every command's option tables hold what the
 * parser (cli/common/options.c) assumes, in every build: entry o of a table
 * has id first + o (the parser finds an option by that), names are set and
 * no two options of a command share a name or an id, so that a table edited
 * out of order fails here instead of in an assert that release builds drop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "options.h"

static void test_every_table_is_keyed_by_id(void **state)
{
    (void)state;
    int commands = 0;
    for (int c = 0; cli_command_spec_at(c) != NULL; c++, commands++) {
        const cli_command_spec *spec = cli_command_spec_at(c);
        const char *name = spec->help->name;
        assert_true(spec->table_count > 0);
        for (int t = 0; t < spec->table_count; t++) {
            const cli_option_table *table = &spec->tables[t];
            assert_true(table->count > 0);
            for (int o = 0; o < table->count; o++) {
                const cli_option *opt = &table->options[o];
                if (opt->name == NULL || opt->id != table->options[0].id + o) {
                    fail_msg("occ %s: table %d entry %d (%s) has id %d, not %d", name, t, o,
                             opt->name != NULL ? opt->name : "no name", opt->id,
                             table->options[0].id + o);
                }
                /* no other option of the command has its name or its id */
                for (int t2 = 0; t2 < spec->table_count; t2++) {
                    for (int o2 = 0; o2 < spec->tables[t2].count; o2++) {
                        const cli_option *other = &spec->tables[t2].options[o2];
                        if (other == opt) {
                            continue;
                        }
                        if (strcmp(other->name, opt->name) == 0 || other->id == opt->id) {
                            fail_msg("occ %s: --%s and --%s share a name or the id %d", name,
                                     opt->name, other->name, opt->id);
                        }
                    }
                }
            }
        }
    }
    assert_true(commands >= 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table_is_keyed_by_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
