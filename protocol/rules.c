/* rules.c - the table of rule sets (rules.h). */
#include "rules.h"

#include <assert.h>
#include <string.h>

static const struct tx_ruleset rulesets[TX_RULES_COUNT] = {
    [TX_RULES_PP] = {"pp", false, false},
    [TX_RULES_CLASSIC] = {"classic", true, true},
};

const struct tx_ruleset *tx_ruleset(enum tx_rules rules)
{
    assert((unsigned)rules < TX_RULES_COUNT);
    return &rulesets[rules];
}

int tx_rules_from_name(const char *name)
{
    for (int i = 0; i < TX_RULES_COUNT; i++)
        if (name && !strcmp(name, rulesets[i].name))
            return i;
    return -1;
}
